//! # wheelcollider_core
//!
//! The wheel of Unity's WheelCollider2 as plain Rust: no Bevy, no physics engine.
//! Everything here is arithmetic on scalars in the wheel's contact frame, so it
//! compiles in seconds and is tested exhaustively; the `wheelcollider_avian` plugin
//! does the sweeps and applies the forces to a rigid body.
//!
//! | module | what |
//! | --- | --- |
//! | [`limits`] | limits, errors and constants every part shares (a leaf: no cycle) |
//! | [`rows`] | [`Row`]: one declared tunable number of any settings type, for editors and tests |
//! | [`settings`] | [`WheelSettings`]: defaults and limits of the original, validated setters |
//! | [`tyre`] | [`TyreCurve`] ([`MagicFormula`]), slips, combined slip (friction circle) |
//! | [`spin`] | the implicit wheel-spin integrator (why it is stable), its terms and what a driveline asks of a wheel |
//! | [`suspension`] | the implicit suspension of one chassis' wheels, solved together |
//! | [`thermal`] | a tyre's temperatures, pressure, grip window, wear and puncture ([`TyreCompound`]) |
//! | [`bumps`] | Perlin road bumps |
//! | [`math`] | the transcendental functions the model calls (`libm`'s under the `libm` feature) |
//! | [`wheel`] | [`step`]: one physics step of one wheel |
//! | [`vehicle`] | engine, clutch, gearbox, differentials, brakes, steering, aero; presets |
//!
//! Units are SI (m, s, kg, N, N·m, rad/s); angles a user types (camber, toe, steer) are
//! degrees. See `docs/wheel-model.md` for the formulas and sign conventions.
//!
//! # Example
//! ```
//! use wheelcollider_core::*;
//! let settings = WheelSettings::default();
//! let mut state = StepState::default();
//! let contact = Contact { hit_distance: 0.35, forward_velocity: 10.0, ..Default::default() };
//! let drive = WheelInput { drive_torque: 300.0, ..Default::default() };
//! let input = StepInput { input: drive, contact: Some(contact), ..Default::default() };
//! let out = step(&settings, &mut state, input, 1.0 / 60.0);
//! assert!(out.load > 0.0 && out.forward_force.is_finite());
//! ```
#![cfg_attr(docsrs, feature(doc_cfg))]
#![warn(missing_docs)]
// The workspace allows many arguments for Bevy systems; the core has none.
#![warn(clippy::too_many_arguments)]

// The crate's README (its crates.io page) is compiled as a doc-test, so it cannot rot.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

pub mod bumps;
pub mod limits;
pub mod math;
mod output;
mod relaxation;
mod roots;
pub mod rows;
pub mod settings;
pub mod spin;
pub mod suspension;
pub mod thermal;
pub mod tyre;
pub mod vehicle;
pub mod wheel;

pub use limits::{
    MAX_DAMPING, MAX_SPRING, MAX_VALUE, RAD_PER_S_TO_RPM, STANDARD_GRAVITY, SettingsError, finite_or_zero,
};
pub use rows::Row;
pub use settings::{
    AXIAL_MAX_TILT, CurveDef, PRELOAD_RELEASE, SettingGroup, SuspensionForceDirection, SweepType, WheelSettings,
    WheelSettingsDef,
};
pub use suspension::{SuspensionForce, SuspensionRow, hanging_bar_rate};
pub use thermal::{Ambient, CompoundBase, TyreCompound, TyreReading, TyreState};
pub use tyre::{
    CurveTable, FITTED_SLIP, MIN_DENOMINATOR, MagicFormula, RELAXED_LATERAL_MIN_DENOMINATOR, RELAXED_MIN_DENOMINATOR,
    TyreCurve, atan as fast_atan, sin_cos_0_pi,
};
pub use wheel::{
    Contact, DT_RANGE, MAX_ANGULAR_VELOCITY, STICK_SPEED, Staged, StepInput, StepOutput, StepState, Suspension, Travel,
    WheelInput, compression_of, stage, step,
};
