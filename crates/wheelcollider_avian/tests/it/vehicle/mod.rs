//! The vehicle layer.

mod assists;
mod closed_forms;
mod driveline;
mod engine;
mod geometry;
mod multiplayer;
mod presets;
mod towing;
mod tyre_in_car;
