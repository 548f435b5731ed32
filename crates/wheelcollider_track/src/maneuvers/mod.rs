//! The manoeuvres, one file each: each builds its [`Sim`](crate::sim::Sim), drives
//! it and writes its metrics and plots into the report. What each measures and how is
//! in `docs/maneuvers.md`.

pub(crate) mod acceleration;
pub(crate) mod brake_in_turn;
pub(crate) mod braking;
pub(crate) mod bump_run;
pub(crate) mod burnout;
pub(crate) mod circle;
pub(crate) mod donut;
pub(crate) mod full_lock_circle;
pub(crate) mod handbrake_turn;
pub(crate) mod settle;
pub(crate) mod sine_with_dwell;
pub(crate) mod slalom;
pub(crate) mod slope_hold;
pub(crate) mod step_steer;
pub(crate) mod stint;
pub(crate) mod towing;
pub(crate) mod tracked;
pub(crate) mod weave;

/// What every manoeuvre uses: the harness, the report, the statistics, the controls.
mod prelude {
    pub(crate) use crate::report::{Channel, Out};
    pub(crate) use crate::sim::{CHASSIS, Ground, Sim};
    pub(crate) use crate::stats::*;
    pub(crate) use crate::{ManeuverOptions, QUARTER_MILE};
    pub(crate) use avian3d::prelude::*;
    pub(crate) use bevy::prelude::*;
    pub(crate) use wheelcollider_avian::prelude::*;
    pub(crate) use wheelcollider_core::STANDARD_GRAVITY as G;
    pub(crate) use wheelcollider_core::vehicle::DriverInput;
}
