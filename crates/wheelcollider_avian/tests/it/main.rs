//! The plugin's integration tests, one binary, a module per feature:
//!
//! | module | what it proves |
//! | --- | --- |
//! | [`wheel`] | a wheel on the ground: sag and heave, driving straight, what each sweep sees in holes and over kerbs, a loop, the tyre at walking pace, parked on a slope |
//! | [`vehicle`] | the vehicle layer: closed-form answers (top speed, braking, Ackermann, differentials, surfaces), body assists, presets as assets, what a networking library needs (insert, markers, entity mapping), towing (the road car and the caravan) |
//! | [`world`] | scenes a game has: walls, terrains and meshes with edges, moving and dynamic ground, crashes, stress, degenerate input, every setting changed while driving |
//! | [`state`] | what a game reads and saves: events, determinism, record and replay, rollback, reflection |
//!
//! [`common`] is the shared helper: the headless app, the test car, the shipped presets,
//! the sweeps and rates they are run at, grounds and a seeded random generator. The
//! per-step allocation test has a counting global allocator, so it is its own binary
//! (`tests/allocations.rs`).
//!
//! Run one feature with `cargo test -p wheelcollider_avian --test it wheel::`. Every
//! test here runs in `cargo test`, the preset × sweep × rate sweeps included.

mod common;
mod state;
mod tracked;
mod two_wheeler;
mod vehicle;
mod wheel;
mod world;
