//! The vehicle layer.

mod assists;
mod closed_forms;
mod engine;
mod geometry;
mod presets;
