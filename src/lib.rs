#![cfg_attr(docsrs, feature(doc_cfg))]
#![doc = include_str!("../README.md")]
//!
//! This root crate re-exports the workspace: [`core`] (the wheel model, no Bevy),
//! [`avian`] (the Bevy plugin on avian3d) and a [`prelude`] for games.
#![warn(missing_docs)]

pub use wheelcollider_avian as avian;
pub use wheelcollider_core as core;

/// What a game imports: the plugin, the wheel components and the settings types.
pub mod prelude {
    pub use wheelcollider_avian::prelude::*;
}

/// The egui inspector's panels (feature `inspector`; the example scene that draws them is
/// feature `scene`).
#[cfg(feature = "inspector")]
pub use wheelcollider_inspector as inspector;

/// Sound synthesised from the model (feature `audio`): the synthesiser and
/// `VehicleSoundPlugin`, which plays every nearby vehicle through Bevy's audio.
#[cfg(feature = "audio")]
pub use wheelcollider_audio as audio;
