//! The vehicle around the wheels: engine, clutch, gearbox, differentials, brakes,
//! anti-roll bars, steering and aerodynamics (`docs/vehicle.md`). No Bevy.
//!
//! One call of [`step_vehicle`] per physics step, before the wheels' own
//! [`crate::step`], turns the driver's [`DriverInput`] and what the wheels did last
//! step ([`WheelFeedback`]) into each wheel's steer angle, drive and brake torque and
//! anti-roll force ([`WheelInput`]).
//!
//! One file per part, each with its settings type and its share of the step, in the
//! order [`step_vehicle`] calls them (after Jolt's `Physics/Vehicle`):
//!
//! | file | settings | its part of a step |
//! | --- | --- | --- |
//! | `transmission.rs` | [`GearboxSettings`], [`ClutchSettings`] | gear selection, auto-reverse, the shift; the clutch coupling |
//! | `steering.rs` | [`SteeringSettings`] | the steering rate, Ackermann angles |
//! | `brakes.rs` | [`BrakeSettings`] | service brakes, handbrake, ABS, traction control |
//! | `anti_roll.rs` | `AxleSettings::anti_roll_stiffness` | the bar's force, [`apply_bars`] for a loop of its own (the plugin solves it implicitly instead) |
//! | `engine.rs` | [`EngineSettings`] | idle control, rev limiter, torque, engine speed |
//! | `differential.rs` | [`DifferentialKind`] | centre and axle differentials: the feed-forward split and the [`Driveline`] |
//! | `driveline/` | [`Driveline`] | the driveline and the driven wheels' spins as one solve ([`solve_driveline`], run by the wheels' step) |
//! | `aero.rs` | [`AeroSettings`] | drag and downforce (applied by the plugin) |
//! | `towing.rs` | [`HitchSettings`], [`TrailerSettings`] | a trailer's brakes from its tow vehicle ([`trailer_controls`]); off-tracking and reversing closed forms |
//! | `sway.rs` | [`SwayModel`] | the linear car–trailer model: the sway's damping and frequency, the critical speed |
//! | `two_wheeler.rs` | [`TwoWheelerSettings`], [`RiderSettings`] | a two-wheeler's steering head and rider (built and run by the plugin) |
//! | `tracks.rs` | [`TrackSettings`] | a tracked vehicle's belts and skid steering (the belts' solve is the driveline's) |
//! | `assists.rs` | [`AssistSettings`] | yaw stability (ESC) in the step; anti-flip and air control on the body ([`body_acceleration`], applied by the plugin) |
//! | `geometry.rs` | [`AxleSuspension`], [`AxleGeometry`] | an axle's roll and compliance steer, roll centre, anti-dive and anti-squat, typical by role when unset |
//! | `settings.rs` | [`VehicleSettings`], [`AxleSettings`], [`ChassisSettings`] | the whole car: layout, validation, RON |
//! | `fields/` | [`VEHICLE_FLOATS`] | every scalar outside the wheels declared once (parts, axles, differentials, towing, a two-wheeler): path, unit, limit, editor range, step; `inside.rs` reaches a number inside a part that may be absent, `grammar.rs` turns the table into rows |
//! | `io.rs` | | what a step reads and writes |
//! | `derived.rs` | | what follows from a settings: shares, resistance, ride height |
//! | `predict.rs` | | closed-form answers: top speed, axle loads, stopping distance |
//! | `plan.rs` | [`SpeedPlan`] | the car's g-g envelope as a point mass (`lateral_limit`, `braking_limit`, `drive_limit`) and the speed it can hold along a path: a quasi-steady-state lap |
//! | `steady_turn.rs` | | a car in a steady turn at the limit, as `lateral_limit` reads it: the axles' shares, loads and slips, the yaw moments, the drive that holds the speed |
//! | [`presets`] | | the shipped presets, compiled in ([`VehicleSettings::preset`]) |
//!
//! # How the drivetrain is integrated
//! The engine is a rotating body of its own (`J_e·dω_e/dt = T_engine − T_clutch`). The
//! clutch is a friction coupling solved as a velocity constraint, the way a contact
//! solver treats friction: each step, the coupling torque is the one that gives both
//! sides the same speed at the end of the step, predicted from their speeds, inertias,
//! the drive torque and the tyres' reaction of the last step,
//! `T = Δω_predicted / (dt·(1/J_a + 1/J_b))`, clamped to its capacity (the clutch's
//! torque × engagement). Below capacity it locks and the engine joins the gearbox
//! output's inertia; above, it slips with the capacity's torque, as a dry clutch does.
//! Nothing is accumulated from step to step, so there is no integrator to ring.
//!
//! Behind the gearbox, the differentials and the driven wheels' spins are **one
//! solve** with the tyres at this step's slips ([`solve_driveline`], in `driveline/`):
//! [`step_vehicle`] hands the gearbox output's torque and inertia and the
//! differentials' couplings on as [`VehicleStep::driveline`], and the wheels'
//! step solves it after their suspension, so a wheel spun alone through an open
//! differential carries a quarter of the reflected inertia, a locked axle's wheels turn
//! at one speed, and a limited-slip differential holds its torque difference within its
//! capacity. The drive torques [`step_vehicle`] writes into each [`WheelInput`] are the
//! same split fed forward from the last step's tyres (the solve's first guess, and what a
//! wheel stepped on its own gets).
//!
//! | quantity | unit |
//! | --- | --- |
//! | torques | N·m |
//! | engine and wheel speeds | rad/s (telemetry also in rpm) |
//! | steer angles | deg, positive to the left |
//! | forces | N |

mod aero;
mod anti_roll;
mod assists;
mod brakes;
mod derived;
mod differential;
mod driveline;
mod engine;
mod fields;
mod geometry;
mod io;
mod plan;
mod predict;
pub mod presets;
mod settings;
mod steady_turn;
mod steering;
mod sway;
mod towing;
mod tracks;
mod transmission;
mod two_wheeler;

pub use crate::WheelInput;
pub use aero::AeroSettings;
pub use anti_roll::{apply_bars, bar_force};
pub use assists::{
    ANTI_FLIP_RETURN_RATE, AirControlSettings, AntiFlipSettings, AssistSettings, BodyMotion, ChassisMotion,
    YAW_REFERENCE_GRIP, YAW_STABILITY_MIN_SPEED, YawStabilitySettings, body_acceleration,
};
pub use brakes::{
    ABS_MIN_SPEED, ABS_PEAK_FRACTION, BrakeSettings, LOCK_SLIP, LOCK_SPEED_FLOOR, TRACTION_PEAK_FRACTION,
};
pub use derived::{BOGIE_SPREAD, LIGHTEST_HEAVE_HZ};
pub use differential::DifferentialKind;
pub use driveline::{
    Coupling, Driveline, DrivelineSolution, DrivenAxle, MAX_BRACKETED, MAX_DRIVEN_AXLES, MAX_EVALUATIONS,
    SPEED_TOLERANCE, TrackCoupling, TrackDrive, solve_driveline,
};
pub use engine::{EngineLayout, EngineSettings, LIMITER_BAND_RPM, SPEED_LIMIT_BAND};
pub use fields::{VEHICLE_FLOATS, VehiclePart};
pub use geometry::{AxleGeometry, AxleRole, AxleSuspension, BEAM_COMPLIANCE};
pub use io::{DriverInput, PowertrainReport, VehicleState, VehicleStep, WheelFeedback};
pub use plan::SpeedPlan;
pub use predict::SkidSteer;
pub use settings::*;
pub use steering::SteeringSettings;
pub use sway::{SwayMode, SwayModel};
pub use towing::{
    HitchKind, HitchSettings, TowInput, TrailerBrakes, TrailerSettings, off_tracking, push_per_level,
    reversing_divergence, trailer_controls,
};
pub use tracks::{TrackSettings, TrackSteering};
pub use transmission::{
    AUTO_REVERSE_DELAY, CLOSING_TIME, ClutchSettings, FIRST_GEAR_BACKING, FIRST_GEAR_THROTTLE, GearboxSettings,
    KICKDOWN_RPM, KICKDOWN_THROTTLE,
};
pub use two_wheeler::{HOLD_FRONT_FROM, HOLD_FRONT_TO, HeadGeometry, RiderSettings, TwoWheelerSettings};

use crate::limits::MAX_VALUE;
pub use crate::limits::RAD_PER_S_TO_RPM;

/// `v` clamped to ±[`MAX_VALUE`], a non-finite value to 0.
#[inline]
pub(crate) fn finite(v: f32) -> f32 {
    if v.is_finite() {
        v.clamp(-MAX_VALUE, MAX_VALUE)
    } else {
        0.0
    }
}

/// One step of the vehicle: steering, brakes, anti-roll bars, the engine, the clutch,
/// the gearbox and the differentials.
///
/// `motion` is the chassis' speed along its forward axis and its yaw rate. `wheels` and
/// `inputs` hold one entry per wheel, axle by axle, left then right (see
/// [`VehicleSettings::wheel_index`]); extra entries are ignored, missing ones count as
/// airborne wheels at rest. The gear-shift requests in `input` are consumed.
///
/// # Example
/// ```
/// use wheelcollider_core::vehicle::*;
/// let settings = VehicleSettings::default();
/// let mut state = VehicleState::new(&settings);
/// let wheels = [WheelFeedback { inertia: 1.5, radius: 0.3, ..Default::default() }; 4];
/// let mut inputs = [WheelInput::default(); 4];
/// let mut input = DriverInput { throttle: 1.0, steer: 1.0, ..Default::default() };
/// let still = ChassisMotion::straight(0.0);
/// let step = step_vehicle(&settings, &mut state, &mut input, still, &wheels, &mut inputs, 1.0 / 60.0);
/// assert!(step.report.engine_rpm > 0.0);
/// assert!(inputs[0].steer_angle > 0.0); // turning left
/// ```
pub fn step_vehicle(
    settings: &VehicleSettings,
    state: &mut VehicleState,
    input: &mut DriverInput,
    motion: ChassisMotion,
    wheels: &[WheelFeedback],
    inputs: &mut [WheelInput],
    dt: f32,
) -> VehicleStep {
    let mut report = PowertrainReport::default();
    if !(dt.is_finite() && dt > 0.0) {
        return VehicleStep::default();
    }
    let dt = dt.clamp(*crate::DT_RANGE.start(), *crate::DT_RANGE.end());
    let motion = motion.sanitized();
    let v = motion.forward_speed;
    let raw = input.sanitized();
    input.gear_up = false;
    input.gear_down = false;
    let n_axles = settings.axles.len().min(inputs.len() / 2);
    state.sanitize();
    let wheel = |i: usize| feedback(wheels, i);

    // A trailer has no powertrain: its brake is the level its brakes reached
    // (`trailer_controls`), never swapped for a reverse gear.
    let (throttle, brake, shifting) = match settings.trailer {
        Some(_) => (0.0, raw.brake, false),
        None => transmission::select_gear(settings, state, &raw, v, wheels, dt),
    };
    // A two-wheeler's rider eases the throttle as the front wheel lifts (`hold_front`)
    // and squeezes the front lever progressively (`squeeze`).
    let (throttle, brake) = match &settings.two_wheeler {
        Some(bike) if !settings.axles.is_empty() => (
            {
                let (settled, at_rest) = front_loads(settings, &bike.rider, raw.weight_shift, n_axles, wheel);
                bike.rider.throttle(throttle, raw.weight_shift, settled, at_rest)
            },
            bike.rider.lever(brake, &mut state.brake_level, dt),
        ),
        _ => (throttle, brake),
    };
    let delta = steering::steer(&settings.steering, state, raw.steer, v, dt);
    let mut shares = [0.0f32; 16];
    let shares = &mut shares[..n_axles.min(16)];
    settings.drive_shares(shares);
    if state.compliance_steer.len() < 2 * n_axles {
        // A state made for another layout: sized once, not every step.
        state.compliance_steer.resize(2 * n_axles, 0.0);
    }
    // What the driven wheels carried last step (ABS brakes it down with them).
    let carried =
        transmission::reflected_inertia(settings, settings.gearbox.total_ratio(state.gear), state.clutch_locked);
    // Yaw stability brakes at most one wheel: (its index, the torque).
    let stability = assists::yaw_stability(settings, motion, delta, n_axles, wheel);
    report.stability_brake = stability.map_or(0.0, |(_, torque)| torque);
    let abs =
        (settings.brakes.abs && v.abs() > ABS_MIN_SPEED).then(|| brakes::budget_deceleration(settings, n_axles, wheel));
    for a in 0..n_axles {
        let share = shares.get(a).copied().unwrap_or(0.0);
        let (l, r) = (
            VehicleSettings::wheel_index(a, false),
            VehicleSettings::wheel_index(a, true),
        );
        let aids = brakes::Aids {
            handbrake: raw.handbrake,
            abs,
            carried: share * carried / settings.axles[a].wheel_count() as f32,
            stability: [l, r].map(|i| match stability {
                Some((w, torque)) if w == i => torque,
                _ => 0.0,
            }),
        };
        let elastic = steering::elastic_steer(
            &settings.axles[a],
            &settings.axle_geometry(a),
            [&wheel(l), &wheel(r)],
            &mut state.compliance_steer[l..=r],
        );
        [inputs[l], inputs[r]] = axle_inputs(settings, a, delta, elastic, brake, aids, [wheel(l), wheel(r)]);
        if settings.axles[a].single {
            // A single axle's right index has no wheel.
            inputs[r] = WheelInput::default();
        }
    }

    // The powertrain: traction control, engine, clutch, gearbox, differentials.
    let ctx = StepContext {
        settings,
        dt,
        v,
        n_axles,
        wheel,
    };
    let mut driveline = match settings.trailer {
        None => powertrain(&ctx, state, &raw, (throttle, shifting), shares, inputs, &mut report),
        Some(_) => Driveline::default(),
    };
    if let Some(tracks) = &settings.tracks {
        tracks::step_tracks(
            settings,
            tracks,
            state.steer,
            state.engine_speed,
            n_axles,
            inputs,
            &mut driveline,
        );
    }

    report.engine_rpm = state.engine_speed * RAD_PER_S_TO_RPM;
    report.clutch_torque = state.clutch_torque;
    report.gear = state.gear;
    report.gear_ratio = settings.gearbox.gear_ratio(state.gear);
    report.shifting = shifting;
    report.steer = state.steer;
    report.brake = brake;
    report.steering_torque = finite(steering::column_torque(settings, wheel));
    report.stalled = state.stalled;
    VehicleStep { report, driveline }
}

/// A two-wheeler's front load (N) once its pitch settles under the drive its other
/// wheels' tyres gave last step, and at rest, with the rider's weight where
/// `weight_shift` puts it: the static load (the settings' plus the shift's `m·g·d/L`)
/// less the drive force's pitch moment over the wheelbase, `F·h/L`: what the rider's
/// hand reads ([`RiderSettings::throttle`] says why).
fn front_loads(
    settings: &VehicleSettings,
    rider: &RiderSettings,
    weight_shift: f32,
    n_axles: usize,
    wheel: impl Fn(usize) -> WheelFeedback,
) -> (f32, f32) {
    let drive: f32 = (1..n_axles)
        .flat_map(|a| [false, true].map(|right| VehicleSettings::wheel_index(a, right)))
        .filter(|&i| settings.has_wheel(i))
        .map(|i| {
            let w = wheel(i);
            if w.radius > 0.0 { w.tyre_torque / w.radius } else { 0.0 }
        })
        .sum();
    let (h, l) = (settings.centre_of_mass_height(), settings.wheelbase().max(0.1));
    let weight = settings.chassis.mass * crate::STANDARD_GRAVITY;
    let at_rest = settings.corner_load(0) + weight * rider.centre_shift(weight_shift, settings.chassis.mass) / l;
    let settled = at_rest - drive * h / l;
    if settled.is_finite() && at_rest.is_finite() {
        (settled, at_rest)
    } else {
        (f32::NAN, f32::NAN)
    }
}

/// What the parts of one vehicle step read besides the state they change: built once at
/// the top of [`step_vehicle`].
struct StepContext<'a, W> {
    settings: &'a VehicleSettings,
    /// The step (s), in [`DT_RANGE`](crate::DT_RANGE).
    dt: f32,
    /// The chassis' forward speed (m/s).
    v: f32,
    /// The axles whose two wheels have an entry in the step's `inputs`.
    n_axles: usize,
    /// Wheel `i`'s feedback of the last step ([`feedback`]).
    wheel: W,
}

/// The powertrain's part of a step, after the gear selection: the engine's speed read
/// back from the wheels while the clutch is locked, traction control, the speed
/// governor and the shift's throttle cut, the engine, the clutch (and the inertia it
/// reflects to the driven wheels), the gearbox and the differentials. Writes the
/// wheels' drive torques and drivetrain inertias into `inputs` and its telemetry into
/// `report`; returns the driveline the wheels' step solves.
fn powertrain<W: Fn(usize) -> WheelFeedback + Copy>(
    ctx: &StepContext<W>,
    state: &mut VehicleState,
    raw: &DriverInput,
    (throttle, shifting): (f32, bool),
    shares: &mut [f32],
    inputs: &mut [WheelInput],
    report: &mut PowertrainReport,
) -> Driveline {
    let StepContext {
        settings,
        dt,
        v,
        n_axles,
        wheel,
    } = *ctx;
    let ratio = settings.gearbox.total_ratio(state.gear);
    let disconnected = transmission::disconnect_handbraked(settings, shares, raw.handbrake);
    let mut driven = transmission::DrivenSide::new(settings, shares, wheel);
    if let Some(tracks) = &settings.tracks {
        // The gearbox output turns with the belts as their steering joins them.
        driven.speed = tracks.output_speed(settings, state.steer, n_axles, wheel);
    }
    if state.clutch_locked {
        // The engine turned with the driven wheels last step: read its speed back.
        state.engine_speed = (driven.speed * ratio).clamp(0.0, 2.0e4);
    }
    // The clutch is open for a start with the pedal down, in neutral or mid-shift.
    let open = ratio == 0.0 || shifting || disconnected || raw.clutch > 0.9;
    let manual = !settings.clutch.automatic;
    report.bump_started = engine::stall_or_start(&settings.engine, state, manual, throttle, open);
    let rpm = state.engine_speed * RAD_PER_S_TO_RPM;
    let carried = transmission::reflected_inertia(settings, ratio, state.clutch_locked);
    let drive_limit = brakes::traction_limit(settings, state, shares, ratio, carried, wheel, dt)
        .map(|t| t / (ratio.abs() * settings.gearbox.efficiency).max(1e-3));
    let mut throttle = match drive_limit {
        Some(limit) => throttle.min(settings.engine.throttle_for(rpm, limit)),
        None => throttle,
    };
    throttle = engine::governed_speed(&settings.engine, throttle, v);
    if shifting {
        throttle = 0.0;
    }
    // A tracked vehicle's geared steering drive takes its power from the engine: what
    // is left of the engine's torque drives the clutch and the engine's own speed.
    let steer_load = match &settings.tracks {
        Some(tracks) => tracks.engine_load(settings, state.steer, wheel),
        None => 0.0,
    };
    let load = transmission::engine_load(settings, state, shares, ratio, wheel) + steer_load;
    let (throttle, engine_torque, limiter) =
        engine::governed_torque(&settings.engine, state, (throttle, load), rpm, dt);
    let net_torque = engine_torque - steer_load;
    let input_rpm = driven.speed * ratio * RAD_PER_S_TO_RPM;
    // The engine's speed and the gearbox input's: an automatic clutch bites on either.
    let engagement =
        transmission::clutch_engagement(settings, ratio, shifting || disconnected, [rpm, input_rpm], raw.clutch);
    let capacity = (settings.clutch.max_torque * engagement)
        .min(drive_limit.unwrap_or(f32::MAX))
        .min(transmission::closing_capacity(
            settings,
            state,
            driven.speed * ratio,
            net_torque,
        ));
    let clutch = transmission::clutch_step(settings, state, &driven, ratio, net_torque, capacity, dt);
    for (a, s) in shares.iter().enumerate() {
        let wheels = settings.wheels_of(a);
        let j = s * clutch.reflected_inertia / wheels.len().max(1) as f32;
        let drag = if *s > 0.0 { settings.gearbox.drag_torque } else { 0.0 };
        for w in wheels {
            inputs[w].drivetrain_inertia = j;
            inputs[w].drivetrain_friction_torque = drag;
        }
    }
    let (centre_transfer, line) =
        differential::distribute(settings, shares, clutch.wheel_torque, wheel, inputs, n_axles, dt);
    report.centre_transfer = centre_transfer;
    // A stalled engine turned through the locked clutch resists with its breakaway, on
    // the overrun through the gears' losses.
    let friction = if state.stalled && state.clutch_locked {
        settings.engine.breakaway_torque * ratio.abs() / settings.gearbox.efficiency
    } else {
        0.0
    };
    report.engine_torque = engine_torque;
    report.throttle = throttle;
    report.limiter = limiter;
    report.clutch_engagement = engagement;
    report.wheel_torque = clutch.wheel_torque;
    Driveline {
        torque: clutch.wheel_torque,
        inertia: clutch.reflected_inertia,
        friction: finite(friction),
        ..line
    }
}

/// Wheel `i`'s feedback; a missing wheel counts as airborne and at rest.
fn feedback(wheels: &[WheelFeedback], i: usize) -> WheelFeedback {
    wheels.get(i).copied().unwrap_or(WheelFeedback {
        inertia: 1.0,
        radius: 0.3,
        ..Default::default()
    })
}

/// The inputs of the two wheels of `axle`: steer angles (Ackermann plus the roll and
/// compliance steer `elastic`) and brake torques (drive torque 0: the differentials set
/// it; the anti-roll bar's force 0: see [`apply_bars`]).
fn axle_inputs(
    settings: &VehicleSettings,
    axle: usize,
    delta: f32,
    [elastic_l, elastic_r]: [f32; 2],
    brake: f32,
    aids: brakes::Aids,
    [wl, wr]: [WheelFeedback; 2],
) -> [WheelInput; 2] {
    let (angle_l, angle_r) = if settings.axles[axle].steered {
        settings.ackermann_angles(axle, delta)
    } else {
        (0.0, 0.0)
    };
    let (angle_l, angle_r) = (angle_l + elastic_l, angle_r + elastic_r);
    let [brake_l, brake_r] = brakes::axle_brake_torques(settings, axle, brake, aids, [wl, wr]);
    let input = |angle: f32, brake: f32| WheelInput {
        steer_angle: finite(angle),
        drive_torque: 0.0,
        brake_torque: finite(brake).max(0.0),
        anti_roll_force: 0.0,
        drivetrain_inertia: 0.0,
        drivetrain_friction_torque: 0.0,
    };
    [input(angle_l, brake_l), input(angle_r, brake_r)]
}
