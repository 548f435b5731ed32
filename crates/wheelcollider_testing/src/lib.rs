//! What every crate's tests, the test track and the benches share, so that a harness is
//! written once: the shipped presets' one list ([`presets`]), one seeded generator
//! ([`Rng`]), and with the feature `bevy` (on by default) the headless app stepped one
//! exact fixed step per update ([`app`]) and the scenes' parts ([`scene`]): grounds,
//! terrains, kerbs, spawning a vehicle, launching it in gear, coupling a trailer.
//!
//! The core's tests use it without `bevy` (the core builds no Bevy). Assertions stay in
//! the tests; only the harness lives here. Not published.

pub mod presets;
mod rng;

#[cfg(feature = "bevy")]
pub mod app;
#[cfg(feature = "bevy")]
pub mod scene;

pub use rng::Rng;
