//! The vehicle layer.

mod assists;
mod closed_forms;
mod driveline;
mod engine;
mod geometry;
mod presets;
