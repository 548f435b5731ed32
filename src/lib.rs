#![doc = include_str!("../README.md")]
//!
//! This root crate re-exports the workspace: [`core`] (the wheel model, no Bevy) and
//! [`avian`] (the Bevy plugin on avian3d).
#![warn(missing_docs)]

pub use wheelcollider_avian as avian;
pub use wheelcollider_core as core;
