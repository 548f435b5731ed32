//! # The wheel layer
//!
//! A wheel is an entity with a [`WheelCollider`] under a dynamic rigid body. Each physics
//! step the [`WheelPlugin`] runs one chassis per task, and for each chassis:
//!
//! | stage | file | what |
//! | --- | --- | --- |
//! | screen | `step.rs` | is a collider that can move in reach of the chassis' wheels? (else cast against the static tree alone) |
//! | sweep | `sweep/` | ray, sphere or cylinder cast along the suspension; ground filter (walls and start-inside hits passed by) |
//! | contact | `contact.rs` | the hit in the wheel's contact frame: distance, velocities, ground camber, effective masses, surface; the compression speed (`approach.rs`) and the ground's rise (`suspension.rs`) |
//! | suspension | `suspension.rs` | springs, dampers, bump stops and anti-roll bars of the chassis' grounded wheels, solved together |
//! | model | `model.rs` | the core's step: tyre, wheel spin, static friction; the force on the chassis; [`WheelState`] |
//! | apply | `apply.rs` | each chassis' force sums to its body, then the opposite force to dynamic ground (serial) |
//! | events | `events.rs` | contact, skid, surface and landing events and [`WheelEffects`], for wheels with [`WheelEventsEnabled`] |
//! | visuals | `visuals.rs` | [`WheelModel`]s placed every frame, interpolated between steps |
//!
//! `attach.rs` joins wheels to their chassis and re-validates changed settings;
//! `surface.rs` holds [`WheelSurface`], what the ground is made of; `components.rs` the
//! public components; `plugin.rs` the schedule.

mod apply;
mod approach;
mod attach;
pub mod components;
mod contact;
pub mod events;
mod model;
mod plugin;
mod step;
mod surface;
mod suspension;
mod sweep;
mod visuals;

pub use components::*;
pub use events::{
    ContactPatch, Landed, LandingMemory, SkidEnded, SkidStarted, SurfaceChanged, WheelContactEnded,
    WheelContactStarted, WheelEffects, WheelEventsEnabled,
};
pub use plugin::{WheelPlugin, WheelSystems, WheelVisualSystems};
pub use surface::WheelSurface;
