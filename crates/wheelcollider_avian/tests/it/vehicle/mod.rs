//! The vehicle layer.

mod assists;
mod closed_forms;
mod driveline;
mod engine;
mod geometry;
mod multiplayer;
mod presets;
mod tyre_in_car;
