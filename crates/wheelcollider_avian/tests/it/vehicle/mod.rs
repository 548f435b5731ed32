//! The vehicle layer.

mod articulated;
mod assists;
mod closed_forms;
mod driveline;
mod engine;
mod geometry;
mod multiplayer;
mod pairs;
mod plan;
mod presets;
mod reversing;
mod slip;
mod sway;
mod thermal;
mod towing;
mod traffic;
mod tyre_in_car;
