//! # wheelcollider_audio
//!
//! Sound from the model: a car's engine, gearbox, tyres, the road under them, the wind
//! and its impacts (and a tracked vehicle's belts), synthesised from what the simulation says the car is doing. No
//! samples to record or license: every voice is built from the numbers the plugin
//! already computes (rpm, throttle, engine load, gear, each wheel's skid and surface,
//! speed, landings).
//!
//! The synthesiser is plain Rust with no Bevy (like `wheelcollider_core`, whose
//! [`EngineSettings`](wheelcollider_core::vehicle::EngineSettings) give the engine its
//! cylinders, strokes and layout); the Bevy plugin that feeds it from the vehicles and
//! plays it is behind the `plugin` and `output` features.
//!
//! | module | what |
//! | --- | --- |
//! | [`dsp`] | noise, a state-variable filter, smoothers, the soft limiter |
//! | [`engine`] | the engine: harmonics of the firing cycle, intake, crackle |
//! | [`gearbox`] | the gears' whine |
//! | [`tyre`] | each tyre's squeal and the road under it |
//! | [`track`] | a tracked vehicle's belts' clatter |
//! | [`wind`] | the wind |
//! | [`impact`] | thumps for landings and hard contacts |
//! | [`car`] | one car: its inputs, volumes and synth, placed by the listener |
//! | [`mixer`] | every car heard: the control the game writes, the mixer that renders |
//! | [`wav`] | a WAV writer for recordings |
//! | `plugin` | (feature `plugin`) the Bevy plugin that feeds the mixer from the vehicles |
//!
//! The voices, their parameters and formulas are in `docs/audio.md`.
//!
//! # Example
//! ```
//! use std::sync::{Arc, Mutex};
//! use wheelcollider_audio::{CarInput, EngineInput, MixControl, Mixer, lock};
//! use wheelcollider_core::vehicle::EngineSettings;
//!
//! let control = Arc::new(Mutex::new(MixControl::default()));
//! let mut mixer = Mixer::new(control.clone(), 48_000);
//! {
//!     // Once per game frame: what the car is doing.
//!     let mut c = lock(&control);
//!     c.begin_frame();
//!     let car: &mut CarInput = c.car(1, &EngineSettings::default());
//!     car.engine = EngineInput { rpm: 3000.0, throttle: 0.5, load: 0.5, limiter: false, running: true };
//!     c.end_frame();
//! }
//! // Wherever samples are wanted (the audio thread): interleaved stereo.
//! let mut out = vec![0.0; 2 * 4800];
//! mixer.render(&mut out);
//! assert!(out.iter().all(|s| s.abs() <= 1.0) && out.iter().any(|s| s.abs() > 0.01));
//! ```
#![cfg_attr(docsrs, feature(doc_cfg))]
#![warn(missing_docs)]

// The crate's README (its crates.io page) is compiled as a doc-test, so it cannot rot.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

pub mod car;
pub mod dsp;
pub mod engine;
pub mod gearbox;
pub mod impact;
pub mod mixer;
pub mod track;
pub mod tyre;
pub mod wav;
pub mod wind;

#[cfg(feature = "plugin")]
pub mod plugin;

pub use car::{CarInput, CarSynth, Placement, Volumes};
pub use engine::{EngineInput, EngineVoice};
pub use gearbox::{GearboxInput, GearboxVoice};
pub use impact::ImpactVoice;
pub use mixer::{BLOCK_FRAMES, MixControl, Mixer, SharedControl, lock};
pub use track::{TrackInput, TrackVoice};
pub use tyre::{GroundSound, TyreGains, TyreInput, TyreVoice};
pub use wind::WindVoice;
