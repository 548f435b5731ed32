//! The vehicle layer.

mod assists;
mod closed_forms;
mod geometry;
mod presets;
