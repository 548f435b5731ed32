//! What a game reads and saves: events, determinism, replay, rollback, reflection.

mod determinism;
mod events;
mod reflection;
mod replay;
pub(crate) mod rollback;
