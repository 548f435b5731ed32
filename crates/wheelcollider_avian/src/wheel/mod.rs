//! # The wheel layer
//!
//! A wheel is an entity with a [`WheelCollider`] under a dynamic rigid body. Each physics
//! step the [`WheelPlugin`] runs one chassis per task (`step.rs`), and each of its wheels
//! goes through the stages below once, in this order, each handing the next a type of
//! `contracts.rs` (no stage calls back into an earlier one):
//!
//! | stage | file | reads → writes |
//! | --- | --- | --- |
//! | screen | `step.rs` | the last step's sweep box → whether a collider that can move is in reach (else cast against the static tree alone) |
//! | edits | `edits.rs` | settings changed since the last step → [`WheelState`] made to agree (spring offset, compression) |
//! | sweep | `sweep/` | ray, sphere or cylinder cast along the suspension; ground filter (walls and start-inside hits passed by) |
//! | contact | `contact.rs` | the hit → `Sensed`: the contact in the wheel's frame, velocities, ground camber, effective masses, surface, and the suspension's row with its speed readings (`approach.rs`: the bodies' approach and the ground's rise) |
//! | suspension | `suspension.rs` | the chassis' `Sensed` rows → each wheel's solved force (springs, dampers, bump stops and anti-roll bars together) |
//! | model | `model.rs` | `Sensed` + force → the core's step staged up to the spin |
//! | driveline | `driveline.rs` | the chassis' [`WheelDriveline`] → the driven wheels' spins and drive torques, solved together with their tyres |
//! | finish | `model.rs` | the staged step finished (spin, tyre, static friction) → [`WheelState`], [`WheelOutput`], the force on the chassis |
//! | apply | `apply.rs` | each chassis' force sums to its body, then the opposite force to dynamic ground (serial) |
//! | events | `events.rs` | contact, skid, surface and landing events and [`WheelEffects`], for wheels with [`WheelEventsEnabled`] |
//! | visuals | `visuals.rs` | [`WheelModel`]s placed every frame, interpolated between steps |
//!
//! One home per datum: what a wheel carries between steps is in [`WheelState`] (a
//! rollback saves it), what it reports in [`WheelOutput`], what it derives from its
//! settings to save work in `WheelCache` (never state). `attach.rs` joins wheels to their
//! chassis, re-validates changed settings and keeps a chassis' marker on its wheels
//! ([`MarkWheelsWith`]); `surface.rs` holds [`WheelSurface`], what
//! the ground is made of; `components.rs` the public components; `plugin.rs` the
//! schedule.

pub(crate) mod apply;
mod approach;
mod attach;
pub mod components;
mod contact;
mod contracts;
mod driveline;
mod edits;
pub mod events;
mod model;
mod plugin;
mod step;
mod surface;
mod suspension;
mod sweep;
mod tyre;
mod visuals;

pub use attach::MarkWheelsWith;
pub use components::*;
pub use events::{
    ContactPatch, Landed, LandingState, SkidEnded, SkidStarted, SurfaceChanged, WheelContactEnded, WheelContactStarted,
    WheelEffects, WheelEventsEnabled, skid_intensity,
};
pub use plugin::{WheelPlugin, WheelSystems, WheelVisualSystems};
pub use surface::{SurfaceMaterial, Weather, WheelSurface};
pub use tyre::{FitTyres, PunctureTyre};
