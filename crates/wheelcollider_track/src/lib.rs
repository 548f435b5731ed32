//! # wheelcollider_track
//!
//! A headless test track: the standard manoeuvres vehicle engineers run (settle,
//! acceleration, braking, steady-state circle, step steer, slalom, slope hold, bump run,
//! brake in turn, sine with dwell), those in the tyre's low-speed regime (handbrake
//! turn, full-lock circle), a drift player's (a power-oversteer donut, a burnout) and a
//! tow vehicle's (off-tracking, sway, reversing to a jackknife, with the shipped trailer
//! of its hitch's kind) and a racer's (a stint of laps: the tyres' warm-up and wear),
//! turning a [`VehicleSettings`] into numbers and time series. A two-wheeler rides the
//! acceleration, the braking, the circle and the step steer
//! ([`Maneuver::rides_two_wheelers`]).
//!
//! Each run builds its own headless app (no window, exact fixed steps), spawns the car
//! from the settings on the manoeuvre's ground, drives it with a robot driver and records
//! every physics step. The same settings, manoeuvre and rate give the same numbers, run
//! after run.
//!
//! ```no_run
//! use wheelcollider_avian::prelude::VehicleSettings;
//! use wheelcollider_track::{Maneuver, ManeuverOptions, run_maneuver};
//!
//! let settings = VehicleSettings::from_ron(&std::fs::read_to_string("assets/presets/road.ron")?)?;
//! let report = run_maneuver(&settings, Maneuver::Braking, &ManeuverOptions::default())?;
//! for m in &report.metrics {
//!     println!("{:<24} {:>10.3} {}", m.name, m.value, m.unit);
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The runnable front end is `cargo run --release -p wheelcollider_track`; the method of
//! each manoeuvre and the shipped presets' results are in `docs/maneuvers.md`.

//!
//! | module | what |
//! | --- | --- |
//! | this file | the manoeuvre list, options, errors, [`run_maneuver`] |
//! | [`report`] | metrics, channels and plots: what a run produces |
//! | `sim` | the harness: a headless app at an exact rate, the car, the recorder |
//! | `driver` | the robot drivers: steer to an angle, pure pursuit, cruise control |
//! | `stats` | signal statistics: crossings, RMS, line fits, damping from extremes |
//! | `maneuvers/` | one file per manoeuvre |
//!
//! The closed-form answers each metric is compared with come from the core
//! ([`VehicleSettings::expected_stop_distance`], [`VehicleSettings::static_axle_loads`],
//! [`VehicleSettings::predicted_top_speed`]).
#![warn(missing_docs)]

pub mod diff;
mod driver;
mod maneuvers;
pub mod report;
mod sim;
mod stats;

use std::fmt;
use std::str::FromStr;

use wheelcollider_avian::prelude::{VehicleSettings, VehicleSettingsError};

use report::Out;
pub use report::{Channel, ManeuverReport, Metric, PlotSpec};

/// Physics rates the track accepts (Hz).
pub const HZ_RANGE: std::ops::RangeInclusive<f64> = 20.0..=1000.0;
/// A quarter mile (m).
pub const QUARTER_MILE: f32 = 402.336;

/// One standard manoeuvre.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Maneuver {
    /// Release at ride height, settle 3 s (sag per wheel, creep), then push the body
    /// down (half the sag deep): each axle's natural frequency and bump / rebound
    /// damping ratios.
    Settle,
    /// Full throttle from rest on flat asphalt: 0–100 km/h, quarter mile, shift points,
    /// top speed (run until the speed stops rising).
    Acceleration,
    /// Full brake from 100 km/h (wheels rolling) to a stop: distance, time, deceleration.
    Braking,
    /// ISO 4138-style constant-radius test on a 40 m circle, speed raised slowly:
    /// maximum lateral acceleration and the understeer gradient.
    Circle,
    /// ISO 7401-style step steer at 80 km/h to a kinematic 4 m/s²: yaw-rate response
    /// time, overshoot, gains.
    StepSteer,
    /// An 18 m slalom at 60 km/h (a two-wheeler at 30, its rider asked for the lean the
    /// gates need ahead), a path-following driver: peaks and tracking error.
    Slalom,
    /// Brakes and handbrake on, nose up a 10° and a 20° slope: drift over 5 s.
    SlopeHold,
    /// 10 s at 60 km/h over gravel (Perlin roughness): body acceleration, wheel lift.
    BumpRun,
    /// Full brake on the 40 m circle from 0.5 g, the driver steering for the circle, with
    /// ABS and with locked wheels: distance to a stop and the largest radius error.
    BrakeInTurn,
    /// FMVSS 126 sine with dwell at 80 km/h, 6.5 × the 0.3 g steer: the yaw-rate
    /// ratios 1.0 s and 1.75 s after the steer (limits 35 % and 20 %) and the lateral
    /// displacement at 1.07 s (at least 1.83 m): the test of a stability control.
    SineWithDwell,
    /// Full lock and the handbrake for a second from 40 km/h, then coasting out: the
    /// heading change, the time the rotation takes and the exit speed.
    HandbrakeTurn,
    /// Full lock at 3 m/s: the driven radius against the kinematic one, and how steady
    /// each wheel's lateral force is (RMS about its trend, % of the load).
    FullLockCircle,
    /// A power-oversteer donut: full lock and full throttle in first from 2 m/s, traction
    /// control and ESC off: the rear slip over its peak, the yaw rate, the radius and
    /// how steady the rear lateral force is.
    Donut,
    /// A burnout: the front brakes held, full throttle in first: how far the car moves,
    /// the rear wheels' spin against the limiter's, the engine's speed.
    Burnout,
    /// Towing ([`Maneuver::is_towing`]): 2.5 m/s on a steady circle, the rear axle on
    /// about 1.5 trailer lengths: the hitch's and the trailer axle's radii against the
    /// kinematic off-tracking.
    TowCircle,
    /// Towing: a steering pulse at 80 km/h (or below the top speed): the sway's damping
    /// and frequency against the linear car-trailer model, and the speed where its
    /// damping crosses zero against the model's critical speed.
    TowSway,
    /// Towing: reversing at 1.2 m/s with the steering centred from 3° of articulation:
    /// the articulation's divergence against `|v|/l_t`, and the jackknife.
    TowReverse,
    /// A stint ([`Maneuver::needs_compound`]): ten laps of a 200 m × 40 m stadium
    /// circuit, a robot driver cornering at 90 % of the grip it feels: each lap's time,
    /// the tyres' warm-up, their temperatures, pressures and wear, the pace lost per lap.
    Stint,
    /// A tracked vehicle ([`Maneuver::is_tracked_only`]): steady skid-steer turns at a
    /// crawl, three steer inputs: each radius against the belts' speeds with their slip
    /// taken off, the belts' thrusts and the turning moment against Wong's closed form
    /// with the friction circle (the inputs: `docs/maneuvers.md`).
    SkidSteer,
    /// A tracked vehicle: a pivot turn in neutral, full steer and throttle: the yaw rate
    /// against the belts' power over the turning moment, the moment against Wong's, the
    /// engine's power against the belts'.
    Pivot,
    /// A tracked vehicle: from rest in first at full throttle on slopes below and above
    /// the gradient its engine and grip give (`predicted_gradient_limit`): how far up it
    /// gets on each.
    SlopeClimb,
    /// A tracked vehicle: brakes on across a side slope, once settled: how far it moves.
    SideSlope,
    /// A two-wheeler ([`Maneuver::is_two_wheeler_only`]) let go of at 2 to 30 m/s: the
    /// rider leaves the handlebar and the lean is kicked; the lean's growth rate at each
    /// speed, the weave speed (where it first falls through zero) and the capsize speed
    /// (where it rises through it again): the uncontrolled bike's self-stability.
    WeaveCapsize,
}

impl Maneuver {
    /// Every manoeuvre, in the order `all` runs them.
    pub const ALL: [Maneuver; 23] = [
        Maneuver::Settle,
        Maneuver::Acceleration,
        Maneuver::Braking,
        Maneuver::Circle,
        Maneuver::StepSteer,
        Maneuver::Slalom,
        Maneuver::SlopeHold,
        Maneuver::BumpRun,
        Maneuver::BrakeInTurn,
        Maneuver::SineWithDwell,
        Maneuver::HandbrakeTurn,
        Maneuver::FullLockCircle,
        Maneuver::Donut,
        Maneuver::Burnout,
        Maneuver::TowCircle,
        Maneuver::TowSway,
        Maneuver::TowReverse,
        Maneuver::Stint,
        Maneuver::SkidSteer,
        Maneuver::Pivot,
        Maneuver::SlopeClimb,
        Maneuver::SideSlope,
        Maneuver::WeaveCapsize,
    ];

    /// Whether it tows a trailer: it needs a preset with a hitch (`run_maneuver` takes
    /// the shipped trailer of the hitch's kind, [`shipped_trailer`]).
    pub fn is_towing(self) -> bool {
        matches!(self, Maneuver::TowCircle | Maneuver::TowSway | Maneuver::TowReverse)
    }

    /// Whether it rides a two-wheeler (a vehicle with
    /// [`two_wheeler`](wheelcollider_avian::prelude::VehicleSettings::two_wheeler) set, whose
    /// steer input asks its rider for a lean): acceleration, braking (the front lever and
    /// the rear pedal together), the circle (the lean against the lateral acceleration)
    /// and the step steer (a step of the asked lean: the countersteer, the lean's
    /// response), the slalom (at 30 km/h, the rider asked for the lean the gates need
    /// ahead) and its own weave and capsize sweep. The others drive pairs of wheels.
    pub fn rides_two_wheelers(self) -> bool {
        self.is_two_wheeler_only()
            || matches!(
                self,
                Maneuver::Acceleration | Maneuver::Braking | Maneuver::Circle | Maneuver::StepSteer | Maneuver::Slalom
            )
    }

    /// Whether only a two-wheeler runs it: the weave and capsize sweep, which lets go of
    /// its handlebar.
    pub fn is_two_wheeler_only(self) -> bool {
        matches!(self, Maneuver::WeaveCapsize)
    }

    /// Whether only a tracked vehicle (a vehicle with
    /// [`tracks`](wheelcollider_avian::prelude::VehicleSettings::tracks) set) runs it:
    /// the skid-steer turns, the pivot, the slope climb and the side slope.
    pub fn is_tracked_only(self) -> bool {
        matches!(
            self,
            Maneuver::SkidSteer | Maneuver::Pivot | Maneuver::SlopeClimb | Maneuver::SideSlope
        )
    }

    /// Whether it drives a tracked vehicle: its own ([`is_tracked_only`](Self::is_tracked_only))
    /// and the settle, the acceleration, the braking and the slope hold. The others steer
    /// by road-wheel angle (`docs/tracked.md`).
    pub fn drives_tracked(self) -> bool {
        self.is_tracked_only()
            || matches!(
                self,
                Maneuver::Settle | Maneuver::Acceleration | Maneuver::Braking | Maneuver::SlopeHold
            )
    }

    /// Whether it reads the tyres' temperatures and wear: it needs a preset whose tyres
    /// have a compound (`WheelSettings::compound`).
    pub fn needs_compound(self) -> bool {
        matches!(self, Maneuver::Stint)
    }

    /// The command-line name (`step-steer`…).
    pub fn name(self) -> &'static str {
        match self {
            Maneuver::Settle => "settle",
            Maneuver::Acceleration => "acceleration",
            Maneuver::Braking => "braking",
            Maneuver::Circle => "circle",
            Maneuver::StepSteer => "step-steer",
            Maneuver::Slalom => "slalom",
            Maneuver::SlopeHold => "slope-hold",
            Maneuver::BumpRun => "bump-run",
            Maneuver::BrakeInTurn => "brake-in-turn",
            Maneuver::SineWithDwell => "sine-with-dwell",
            Maneuver::HandbrakeTurn => "handbrake-turn",
            Maneuver::FullLockCircle => "full-lock-circle",
            Maneuver::Donut => "donut",
            Maneuver::Burnout => "burnout",
            Maneuver::TowCircle => "tow-circle",
            Maneuver::TowSway => "tow-sway",
            Maneuver::TowReverse => "tow-reverse",
            Maneuver::Stint => "stint",
            Maneuver::SkidSteer => "skid-steer",
            Maneuver::Pivot => "pivot",
            Maneuver::SlopeClimb => "slope-climb",
            Maneuver::SideSlope => "side-slope",
            Maneuver::WeaveCapsize => "weave-capsize",
        }
    }

    /// What it measures, in one line (the command line's help lists it).
    pub fn summary(self) -> &'static str {
        match self {
            Maneuver::Settle => "sag per wheel, each axle's natural frequency and damping ratios",
            Maneuver::Acceleration => "full throttle from rest: 0-100 km/h, quarter mile, shift points, top speed",
            Maneuver::Braking => "full brake from 100 km/h: distance, time, deceleration",
            Maneuver::Circle => "40 m constant radius, speed raised slowly: lateral limit, understeer gradient",
            Maneuver::StepSteer => "ISO 7401 step steer at 80 km/h: yaw-rate response time, overshoot, gains",
            Maneuver::Slalom => "18 m slalom at 60 km/h (a two-wheeler at 30): peaks and tracking error",
            Maneuver::SlopeHold => "brakes on, nose up 10 and 20 degree slopes: drift over 5 s",
            Maneuver::BumpRun => "10 s at 60 km/h over rough gravel: body acceleration, wheel lift",
            Maneuver::BrakeInTurn => "full brake on the 40 m circle from 0.5 g, ABS and locked: distance, radius error",
            Maneuver::SineWithDwell => "FMVSS 126 sine with dwell at 80 km/h: yaw-rate ratios, lateral displacement",
            Maneuver::HandbrakeTurn => "full lock and handbrake from 40 km/h: heading change, time, exit speed",
            Maneuver::FullLockCircle => "full lock at 3 m/s: driven against kinematic radius, lateral force steadiness",
            Maneuver::Donut => "power-oversteer donut in first: rear slip, yaw rate, radius",
            Maneuver::Burnout => "front brakes held, full throttle: creep, rear spin against the limiter",
            Maneuver::TowCircle => "towing, 2.5 m/s on a steady circle: off-tracking against the closed form",
            Maneuver::TowSway => {
                "towing, a steering pulse at 80 km/h: sway damping, critical speed against the linear model"
            }
            Maneuver::TowReverse => "towing, reversing with the steering centred: divergence, jackknife",
            Maneuver::Stint => "ten laps of a stadium circuit: lap times, tyre warm-up, temperatures, pressures, wear",
            Maneuver::SkidSteer => "tracked, skid-steer turns at 2 m/s: radii, thrusts and moment against Wong",
            Maneuver::Pivot => "tracked, a pivot in neutral: yaw rate against the belts' power, moment against Wong",
            Maneuver::SlopeClimb => "tracked, from rest up 50, 90 and 110 % of its gradient limit: how far up",
            Maneuver::SideSlope => "tracked, brakes on across a 30 % side slope: drift over 10 s",
            Maneuver::WeaveCapsize => "two-wheeler let go of at 2-30 m/s: the lean's growth, weave and capsize speeds",
        }
    }
}

impl fmt::Display for Maneuver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Maneuver {
    type Err = ManeuverError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Maneuver::ALL
            .into_iter()
            .find(|m| m.name() == s || m.name().replace('-', "_") == s)
            .ok_or_else(|| ManeuverError::UnknownManeuver(s.to_string()))
    }
}

/// How to run a manoeuvre.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ManeuverOptions {
    /// Physics rate (Hz), in [`HZ_RANGE`].
    pub hz: f64,
    /// A short version of each manoeuvre (seconds instead of minutes), for tests: the
    /// acceleration run stops at 100 km/h, the circle ramps faster, the holds are
    /// shorter. The numbers are rougher.
    pub quick: bool,
}

impl Default for ManeuverOptions {
    fn default() -> Self {
        Self { hz: 60.0, quick: false }
    }
}

/// Why a manoeuvre could not run.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ManeuverError {
    /// No manoeuvre has this name.
    #[error("unknown manoeuvre `{0}`; one of: {names}, all", names = maneuver_names())]
    UnknownManeuver(String),
    /// The physics rate is outside [`HZ_RANGE`] (or not finite).
    #[error("physics rate {0} Hz is out of range {lo}..={hi} Hz", lo = HZ_RANGE.start(), hi = HZ_RANGE.end())]
    Rate(f64),
    /// The settings does not validate.
    #[error("invalid vehicle: {0}")]
    Settings(#[from] VehicleSettingsError),
    /// A towing manoeuvre on a vehicle with no hitch, or with a trailer that does not
    /// fit it.
    #[error("{0}")]
    Towing(String),
    /// A manoeuvre that reads the tyres' temperatures on a vehicle whose tyres have no
    /// compound.
    #[error("`{0}`'s tyres have no compound (a `compound` in its wheels' settings)")]
    Compound(String),
    /// A vehicle with an axle of one wheel (a two-wheeler, a trike) in a manoeuvre whose
    /// drivers and measurements are written for pairs of wheels: a two-wheeler rides
    /// those of [`Maneuver::rides_two_wheelers`] (`docs/two-wheeler.md`).
    #[error(
        "`{0}` has an axle of one wheel: this manoeuvre drives pairs of wheels (a two-wheeler rides acceleration, braking, circle, step steer, slalom and weave-capsize)"
    )]
    SingleAxle(String),
    /// A vehicle that is not a two-wheeler in a two-wheeler's own manoeuvre
    /// ([`Maneuver::is_two_wheeler_only`]).
    #[error("`{0}` is not a two-wheeler: the weave and capsize sweep lets go of a two-wheeler's handlebar")]
    TwoWheeler(String),
    /// A tracked vehicle in a manoeuvre that steers by road-wheel angle, or a vehicle
    /// without tracks in a tracked vehicle's own ([`Maneuver::drives_tracked`]).
    #[error(
        "`{0}`: a tracked vehicle runs settle, acceleration, braking, slope hold, skid steer, pivot, slope climb and side slope; the last four only a tracked vehicle"
    )]
    Tracked(String),
}

/// Whether `maneuver` can run on `settings` as it is: an axle of one wheel only in a
/// two-wheeler's manoeuvre, a tracked vehicle only in its own, a towing manoeuvre with a
/// hitch, a compound where the tyres' heat is read. The runner skips with the reason.
pub fn fits(settings: &VehicleSettings, maneuver: Maneuver) -> Result<(), ManeuverError> {
    let name = || settings.name.clone();
    if settings.axles.iter().any(|a| a.single) && !(settings.two_wheeler.is_some() && maneuver.rides_two_wheelers()) {
        return Err(ManeuverError::SingleAxle(name()));
    }
    let tracked = settings.tracks.is_some();
    if (tracked && !maneuver.drives_tracked()) || (!tracked && maneuver.is_tracked_only()) {
        return Err(ManeuverError::Tracked(name()));
    }
    if maneuver.is_two_wheeler_only() && settings.two_wheeler.is_none() {
        return Err(ManeuverError::TwoWheeler(name()));
    }
    if maneuver.is_towing() && settings.hitch.is_none() {
        return Err(ManeuverError::Towing(format!(
            "`{}` has no hitch to tow from",
            settings.name
        )));
    }
    if maneuver.needs_compound() && settings.axles.iter().any(|a| a.wheel.compound().is_none()) {
        return Err(ManeuverError::Compound(name()));
    }
    Ok(())
}

/// The shipped trailer that couples to `settings`' hitch: `caravan` behind a ball,
/// `semitrailer` behind a fifth wheel; `None` without a hitch.
pub fn shipped_trailer(settings: &VehicleSettings) -> Option<VehicleSettings> {
    use wheelcollider_core::vehicle::HitchKind;
    let name = match settings.hitch.as_ref()?.kind {
        HitchKind::Ball => "caravan",
        HitchKind::FifthWheel => "semitrailer",
    };
    VehicleSettings::preset(name).ok()
}

fn maneuver_names() -> String {
    Maneuver::ALL.map(|m| m.name()).join(", ")
}

/// Runs `maneuver` on a car built from `settings`; a towing manoeuvre tows the
/// [`shipped_trailer`] of its hitch.
pub fn run_maneuver(
    settings: &VehicleSettings,
    maneuver: Maneuver,
    options: &ManeuverOptions,
) -> Result<ManeuverReport, ManeuverError> {
    let trailer = if maneuver.is_towing() {
        shipped_trailer(settings)
    } else {
        None
    };
    run_with_trailer(settings, trailer.as_ref(), maneuver, options)
}

/// Runs `maneuver` on a car built from `settings`, towing `trailer` in the towing
/// manoeuvres (an error where it is `None`, `settings` has no hitch or the two do not
/// couple); the others ignore it.
pub fn run_with_trailer(
    settings: &VehicleSettings,
    trailer: Option<&VehicleSettings>,
    maneuver: Maneuver,
    options: &ManeuverOptions,
) -> Result<ManeuverReport, ManeuverError> {
    if !options.hz.is_finite() || !HZ_RANGE.contains(&options.hz) {
        return Err(ManeuverError::Rate(options.hz));
    }
    let mut settings = settings.clone();
    settings.validate()?;
    fits(&settings, maneuver)?;
    let mut out = Out::default();
    let towed = if maneuver.is_towing() {
        Some(towing_pair(&settings, trailer)?)
    } else {
        None
    };
    let sim = match maneuver {
        Maneuver::Settle => maneuvers::settle::settle(&settings, options, &mut out),
        Maneuver::Acceleration => maneuvers::acceleration::acceleration(&settings, options, &mut out),
        Maneuver::Braking => maneuvers::braking::braking(&settings, options, &mut out),
        Maneuver::Circle => maneuvers::circle::circle(&settings, options, &mut out),
        Maneuver::StepSteer => maneuvers::step_steer::step_steer(&settings, options, &mut out),
        Maneuver::Slalom => maneuvers::slalom::slalom(&settings, options, &mut out),
        Maneuver::SlopeHold => maneuvers::slope_hold::slope_hold(&settings, options, &mut out),
        Maneuver::BumpRun => maneuvers::bump_run::bump_run(&settings, options, &mut out),
        Maneuver::BrakeInTurn => maneuvers::brake_in_turn::brake_in_turn(&settings, options, &mut out),
        Maneuver::SineWithDwell => maneuvers::sine_with_dwell::sine_with_dwell(&settings, options, &mut out),
        Maneuver::HandbrakeTurn => maneuvers::handbrake_turn::handbrake_turn(&settings, options, &mut out),
        Maneuver::FullLockCircle => maneuvers::full_lock_circle::full_lock_circle(&settings, options, &mut out),
        Maneuver::Donut => maneuvers::donut::donut(&settings, options, &mut out),
        Maneuver::Burnout => maneuvers::burnout::burnout(&settings, options, &mut out),
        Maneuver::TowCircle => {
            maneuvers::towing::tow_circle(&settings, towed.as_ref().expect("towing"), options, &mut out)
        }
        Maneuver::TowSway => maneuvers::towing::tow_sway(&settings, towed.as_ref().expect("towing"), options, &mut out),
        Maneuver::TowReverse => {
            maneuvers::towing::tow_reverse(&settings, towed.as_ref().expect("towing"), options, &mut out)
        }
        Maneuver::Stint => maneuvers::stint::stint(&settings, options, &mut out),
        Maneuver::SkidSteer => maneuvers::tracked::skid_steer(&settings, options, &mut out),
        Maneuver::Pivot => maneuvers::tracked::pivot(&settings, options, &mut out),
        Maneuver::SlopeClimb => maneuvers::tracked::slope_climb(&settings, options, &mut out),
        Maneuver::SideSlope => maneuvers::tracked::side_slope(&settings, options, &mut out),
        Maneuver::WeaveCapsize => maneuvers::weave::weave_capsize(&settings, options, &mut out),
    };
    let (time, mut channels) = sim.rec.finish(&sim.labels);
    channels.extend(out.extra);
    Ok(ManeuverReport {
        maneuver: maneuver.name(),
        vehicle: settings.name.clone(),
        hz: options.hz,
        metrics: out.metrics,
        time,
        channels,
        // The wheels that are there (a single axle's right index is not).
        wheels: sim
            .labels
            .into_iter()
            .enumerate()
            .filter(|&(i, _)| settings.has_wheel(i))
            .map(|(_, label)| label)
            .collect(),
        plots: out.plots,
    })
}

/// The trailer of a towing manoeuvre, validated and checked against the hitch.
fn towing_pair(
    settings: &VehicleSettings,
    trailer: Option<&VehicleSettings>,
) -> Result<VehicleSettings, ManeuverError> {
    let hitch = settings
        .hitch
        .as_ref()
        .ok_or_else(|| ManeuverError::Towing(format!("`{}` has no hitch to tow from", settings.name)))?;
    let mut trailer = trailer
        .cloned()
        .ok_or_else(|| ManeuverError::Towing(format!("no trailer for `{}`'s hitch", settings.name)))?;
    trailer.validate()?;
    match &trailer.trailer {
        Some(t) if t.kind == hitch.kind => Ok(trailer),
        Some(t) => Err(ManeuverError::Towing(format!(
            "`{}` couples to a {:?}, `{}` has a {:?}",
            trailer.name, t.kind, settings.name, hitch.kind
        ))),
        None => Err(ManeuverError::Towing(format!("`{}` is not a trailer", trailer.name))),
    }
}

/// Labels of the wheels in [`VehicleSettings::wheel_index`] order: `fl`, `fr`, `rl`, `rr`
/// on two axles, `a0l`, `a0r`, … on more; a [`single`](wheelcollider_avian::prelude::AxleSettings::single)
/// axle's wheel is `front` / `rear` (or `a0`, …) and its empty right index `-` (a run
/// records no channel for it).
pub fn wheel_labels(settings: &VehicleSettings) -> Vec<String> {
    let two = settings.axles.len() == 2;
    settings
        .axles
        .iter()
        .enumerate()
        .flat_map(|(a, axle)| match (axle.single, two) {
            (true, true) => [["front", "rear"][a.min(1)].to_string(), "-".into()],
            (true, false) => [format!("a{a}"), "-".into()],
            (false, true) => [["fl", "rl"][a.min(1)].to_string(), ["fr", "rr"][a.min(1)].to_string()],
            (false, false) => [format!("a{a}l"), format!("a{a}r")],
        })
        .collect()
}
