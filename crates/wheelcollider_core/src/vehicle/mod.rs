//! The vehicle around the wheels: engine, clutch, gearbox, differentials, brakes,
//! anti-roll bars, steering and aerodynamics (`docs/vehicle.md`). No Bevy.
//!
//! One call of [`step_vehicle`] per physics step, before the wheels' own
//! [`crate::step`], turns the driver's [`VehicleInput`] and what the wheels did last
//! step ([`WheelFeedback`]) into each wheel's steer angle, drive and brake torque and
//! anti-roll force ([`WheelCommand`]). What follows from a spec without running it (the
//! engine's torque, the shares, the predicted top speed, the steering geometry) is in
//! `derived.rs`, the spec's fields and validation in `spec.rs`.
//!
//! # How the drivetrain is integrated
//! The engine is a rotating body of its own (`J_e·dω_e/dt = T_engine − T_clutch`). The
//! clutch, the axle differentials and the centre differential are friction couplings
//! solved as velocity constraints, the way a contact solver treats friction: each step,
//! the coupling torque is the one that gives both sides the same speed at the end of
//! the step, predicted from their speeds, inertias, the drive torque and the tyres'
//! reaction of the last step, `T = Δω_predicted / (dt·(1/J_a + 1/J_b))`, clamped to the
//! capacity (the clutch's torque × engagement, an LSD's `preload + locking·|T_in|`,
//! unbounded for a locked differential, 0 for an open one). Below capacity the coupling
//! locks; above, it slips with the capacity's torque, as a dry clutch does. Nothing is
//! accumulated from step to step, so there is no integrator to ring: an early version
//! that accumulated the torque oscillated without damping (two integrators in a loop).
//! The wheels then solve their spin implicitly with the tyre (see [`crate::spin`]),
//! which keeps the chain stable at 30–240 Hz.
//!
//! | quantity | unit |
//! | --- | --- |
//! | torques | N·m |
//! | engine and wheel speeds | rad/s (telemetry also in rpm) |
//! | steer angles | deg, positive to the left |
//! | forces | N |

mod derived;
mod predict;
mod spec;

pub use spec::*;

use crate::limits::MAX_VALUE;
pub use crate::limits::RAD_PER_S_TO_RPM;

/// Width of the rev limiter (rpm): the throttle is cut to hold the engine this far below
/// the redline at most.
pub const LIMITER_BAND_RPM: f32 = 100.0;
/// ABS holds each braked wheel's brake torque at this fraction of what its tyre can
/// react at the peak of its curve.
pub const ABS_PEAK_FRACTION: f32 = 0.97;
/// With `auto_reverse`, how long (s) the car must stand still with the brake held before
/// reverse is selected: braking to a stop does not drive it backwards at once.
pub const AUTO_REVERSE_DELAY: f32 = 0.5;
/// Below this speed (m/s) ABS is off, as in real cars: the wheels may lock to stop.
pub const ABS_MIN_SPEED: f32 = 2.0;

/// What the driver (a player, an AI, a script) asks for. Values are clamped to their
/// ranges; a non-finite value counts as 0.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct VehicleInput {
    /// Accelerator, 0..=1.
    pub throttle: f32,
    /// Brake pedal, 0..=1.
    pub brake: f32,
    /// Steering, −1 (full right) ..= 1 (full left).
    pub steer: f32,
    /// Handbrake, 0..=1.
    pub handbrake: f32,
    /// Clutch pedal, 0 (engaged) ..= 1 (open); read only with a manual clutch.
    pub clutch: f32,
    /// Shift up once (consumed by the step that reads it).
    pub gear_up: bool,
    /// Shift down once (consumed by the step that reads it).
    pub gear_down: bool,
}

impl VehicleInput {
    fn sanitized(&self) -> VehicleInput {
        let f = |v: f32, lo: f32, hi: f32| if v.is_finite() { v.clamp(lo, hi) } else { 0.0 };
        VehicleInput {
            throttle: f(self.throttle, 0.0, 1.0),
            brake: f(self.brake, 0.0, 1.0),
            steer: f(self.steer, -1.0, 1.0),
            handbrake: f(self.handbrake, 0.0, 1.0),
            clutch: f(self.clutch, 0.0, 1.0),
            ..*self
        }
    }
}

/// What one wheel did in the last step, read back by the vehicle.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct WheelFeedback {
    /// Spin (rad/s).
    pub angular_velocity: f32,
    /// Wheel inertia (kg·m²).
    pub inertia: f32,
    /// Wheel radius (m).
    pub radius: f32,
    /// Suspension compression (m).
    pub compression: f32,
    /// Longitudinal slip κ.
    pub forward_slip: f32,
    /// The tyre's peak slip.
    pub peak_slip: f32,
    /// The most force the tyre can give at its load and grip (N): peak μ × grip × load.
    pub max_friction_force: f32,
    /// Whether it touched the ground.
    pub grounded: bool,
    /// The tyre's reaction torque on the wheel last step (N·m): radius × forward force,
    /// positive when the ground pushes the car forward (and so holds the wheel back).
    pub tyre_torque: f32,
}

/// What the vehicle asks of one wheel this step.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct WheelCommand {
    /// Steer angle (deg, positive to the left).
    pub steer_angle: f32,
    /// Drive torque (N·m).
    pub drive_torque: f32,
    /// Brake torque (N·m), ≥ 0.
    pub brake_torque: f32,
    /// Anti-roll bar force (N), added to the suspension force.
    pub anti_roll_force: f32,
}

/// The vehicle's runtime state, carried from step to step. Create it with
/// [`VehicleState::new`] so that its buffers have the vehicle's size (no allocation per
/// step).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct VehicleState {
    /// Engine speed (rad/s).
    pub engine_speed: f32,
    /// Current gear: −1 reverse, 0 neutral, 1..=n forward.
    pub gear: i32,
    /// Gear being shifted into while `shift_timer > 0`.
    pub next_gear: i32,
    /// Time left in the current shift (s).
    pub shift_timer: f32,
    /// Time since the last shift (s); automatic shifting waits a moment between shifts.
    pub since_shift: f32,
    /// The clutch's torque last step (N·m), engine side.
    pub clutch_torque: f32,
    /// Steering position, −1..=1, after the steering rate.
    pub steer: f32,
    /// Traction control's throttle factor, 0..=1.
    pub traction_factor: f32,
    /// How long the car has stood still with the brake held (s): auto-reverse engages
    /// after [`AUTO_REVERSE_DELAY`].
    pub stopped_braking: f32,
}

impl VehicleState {
    /// A state for `spec`: engine at idle, first gear, wheels straight.
    pub fn new(spec: &VehicleSpec) -> Self {
        Self {
            engine_speed: spec.engine.idle_rpm / RAD_PER_S_TO_RPM,
            gear: 1,
            next_gear: 1,
            shift_timer: 0.0,
            since_shift: 10.0,
            clutch_torque: 0.0,
            steer: 0.0,
            traction_factor: 1.0,
            stopped_braking: 0.0,
        }
    }
}

/// What one vehicle step reports: the powertrain's telemetry.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct PowertrainReport {
    /// Engine speed (rpm).
    pub engine_rpm: f32,
    /// Engine torque at the crank (N·m), negative while engine braking.
    pub engine_torque: f32,
    /// Throttle the engine got after idle control, rev limiter, shift cut and traction
    /// control, 0..=1.
    pub throttle: f32,
    /// Clutch engagement, 0 (open) ..= 1.
    pub clutch_engagement: f32,
    /// Torque through the clutch (N·m).
    pub clutch_torque: f32,
    /// Gear: −1 reverse, 0 neutral, 1..=n.
    pub gear: i32,
    /// A shift is under way.
    pub shifting: bool,
    /// Total drive torque at the wheels (N·m).
    pub wheel_torque: f32,
    /// Steering position, −1..=1.
    pub steer: f32,
    /// The brake input after auto-reverse swapped the pedals, 0..=1.
    pub brake: f32,
    /// Torque the centre differential moved from the first driven axle to the second
    /// (N·m); what each axle differential moved shows in the wheels' drive torques.
    pub centre_transfer: f32,
}

#[inline]
fn finite(v: f32) -> f32 {
    if v.is_finite() {
        v.clamp(-MAX_VALUE, MAX_VALUE)
    } else {
        0.0
    }
}

/// One step of the vehicle: steering, brakes, anti-roll bars, the engine, the clutch,
/// the gearbox and the differentials.
///
/// `forward_speed` is the chassis' speed along its forward axis (m/s). `wheels` and
/// `out` hold one entry per wheel, axle by axle, left then right (see
/// [`VehicleSpec::wheel_index`]); extra entries are ignored, missing ones count as
/// airborne wheels at rest. The gear-shift requests in `input` are consumed.
///
/// # Example
/// ```
/// use wheelcollider_core::vehicle::*;
/// let spec = VehicleSpec::default();
/// let mut state = VehicleState::new(&spec);
/// let wheels = [WheelFeedback { inertia: 1.5, radius: 0.3, ..Default::default() }; 4];
/// let mut out = [WheelCommand::default(); 4];
/// let mut input = VehicleInput { throttle: 1.0, steer: 1.0, ..Default::default() };
/// let report = step_vehicle(&spec, &mut state, &mut input, 0.0, &wheels, &mut out, 1.0 / 60.0);
/// assert!(report.engine_rpm > 0.0);
/// assert!(out[0].steer_angle > 0.0); // turning left
/// ```
#[allow(clippy::too_many_arguments)]
pub fn step_vehicle(
    spec: &VehicleSpec,
    state: &mut VehicleState,
    input: &mut VehicleInput,
    forward_speed: f32,
    wheels: &[WheelFeedback],
    out: &mut [WheelCommand],
    dt: f32,
) -> PowertrainReport {
    let mut report = PowertrainReport::default();
    if !(dt.is_finite() && dt > 0.0) {
        return report;
    }
    let dt = dt.clamp(1e-6, 1.0);
    let v = finite(forward_speed);
    let raw = input.sanitized();
    input.gear_up = false;
    input.gear_down = false;
    let n_axles = spec.axles.len().min(out.len() / 2);
    for s in [
        &mut state.engine_speed,
        &mut state.shift_timer,
        &mut state.since_shift,
        &mut state.clutch_torque,
        &mut state.steer,
        &mut state.stopped_braking,
    ] {
        if !s.is_finite() {
            *s = 0.0;
        }
    }
    if !state.traction_factor.is_finite() {
        state.traction_factor = 1.0;
    }
    let wheel = |i: usize| -> WheelFeedback {
        wheels.get(i).copied().unwrap_or(WheelFeedback {
            inertia: 1.0,
            radius: 0.3,
            ..Default::default()
        })
    };

    // --- Gear selection and auto-reverse ------------------------------------------------
    let gb = &spec.gearbox;
    let top = gb.top_gear();
    let (mut throttle, mut brake) = (raw.throttle, raw.brake);
    state.since_shift += dt;
    let request = |state: &mut VehicleState, gear: i32| {
        let gear = gear.clamp(-1, top);
        if gear != state.next_gear {
            state.next_gear = gear;
            state.shift_timer = gb.shift_time;
            state.since_shift = 0.0;
        }
    };
    let target = state.next_gear;
    if raw.gear_up {
        request(state, target + 1);
    } else if raw.gear_down {
        request(state, target - 1);
    } else if gb.automatic {
        let rpm = state.engine_speed * RAD_PER_S_TO_RPM;
        let settled = state.shift_timer <= 0.0 && state.since_shift > gb.shift_time + 0.4;
        // The handbrake says "stay here": no auto-reverse while it is pulled (a car held
        // on a hill with both brakes must not reverse down it).
        let holding = v.abs() < 0.5 && state.gear >= 0 && brake > 0.1 && throttle < 0.05 && raw.handbrake < 0.1;
        state.stopped_braking = if holding { state.stopped_braking + dt } else { 0.0 };
        if gb.auto_reverse && holding && state.stopped_braking >= AUTO_REVERSE_DELAY {
            request(state, -1);
        } else if (state.gear == -1 && (throttle > 0.1 || (!gb.auto_reverse && throttle > 0.0)) && v > -0.5)
            || (state.gear == 0 && throttle > 0.0)
        {
            request(state, 1);
        } else if settled && state.gear >= 1 {
            let ratio = gb.total_ratio(state.gear);
            // Upshift on the engine speed the road speed gives, not on a wheelspin's.
            let radius = wheels.iter().map(|w| w.radius).fold(0.0f32, f32::max).max(0.01);
            let road_rpm = v.abs() / radius * ratio * RAD_PER_S_TO_RPM;
            if state.gear < top && rpm > gb.shift_up_rpm && road_rpm > 0.9 * gb.shift_up_rpm {
                request(state, state.gear + 1);
            } else if state.gear > 1 && rpm < gb.shift_down_rpm {
                // Only when the lower gear keeps the engine below the upshift point.
                let lower = gb.total_ratio(state.gear - 1);
                if ratio > 0.0 && rpm * lower / ratio < 0.95 * gb.shift_up_rpm {
                    request(state, state.gear - 1);
                }
            }
        }
    }
    if gb.automatic && gb.auto_reverse && state.next_gear == -1 {
        // Backwards, the pedals swap: brake drives, throttle brakes.
        core::mem::swap(&mut throttle, &mut brake);
    }
    let shifting = state.shift_timer > 0.0 || state.next_gear != state.gear;
    if shifting {
        state.shift_timer -= dt;
        if state.shift_timer <= 0.0 {
            state.shift_timer = 0.0;
            let (old, new) = (gb.total_ratio(state.gear), gb.total_ratio(state.next_gear));
            state.gear = state.next_gear;
            // The engine meets the gearbox at the new gear's speed: the rpm carried
            // across by the ratio of ratios (never below idle).
            if old != 0.0 && new != 0.0 && old.signum() == new.signum() {
                let idle = spec.engine.idle_rpm / RAD_PER_S_TO_RPM;
                state.engine_speed = (state.engine_speed * new / old).max(idle);
            }
        }
    }

    // --- Steering ------------------------------------------------------------------------
    let st = &spec.steering;
    let rate = if st.lock_to_lock_time > 0.0 {
        2.0 / st.lock_to_lock_time * dt
    } else {
        2.0
    };
    state.steer += (raw.steer - state.steer).clamp(-rate, rate);
    state.steer = state.steer.clamp(-1.0, 1.0);
    let delta = state.steer * st.lock_at(v);

    // --- Brakes, anti-roll bars ---------------------------------------------------------
    let abs_on = spec.brakes.abs && v.abs() > ABS_MIN_SPEED;
    for a in 0..n_axles {
        let axle = &spec.axles[a];
        let (l, r) = (VehicleSpec::wheel_index(a, false), VehicleSpec::wheel_index(a, true));
        let (angle_l, angle_r) = if axle.steered {
            spec.ackermann_angles(a, delta)
        } else {
            (0.0, 0.0)
        };
        let service = spec.brakes.max_torque * spec.brake_share(a) * 0.5 * brake;
        let hand = if axle.handbrake {
            spec.brakes.handbrake_torque * raw.handbrake
        } else {
            0.0
        };
        let (wl, wr) = (wheel(l), wheel(r));
        // The bar acts between two grounded wheels only: with one end in the air it
        // would add its force to the grounded wheel and throw the other half away (net
        // lift). The Bevy plugin solves the bar with the suspension instead.
        let roll = if wl.grounded && wr.grounded {
            axle.anti_roll_stiffness * (wl.compression - wr.compression)
        } else {
            0.0
        };
        for (i, w, angle, roll) in [(l, wl, angle_l, roll), (r, wr, angle_r, -roll)] {
            let mut service = service;
            if abs_on && service > 0.0 {
                // Hold the brake torque just below what the tyre can react at its peak;
                // release a wheel that has slipped far past the peak anyway.
                let cap = ABS_PEAK_FRACTION * w.radius * w.max_friction_force;
                service = service.min(cap);
                if w.forward_slip.abs() > 2.0 * w.peak_slip.max(0.01) {
                    service = 0.0;
                }
            }
            out[i] = WheelCommand {
                steer_angle: finite(angle),
                drive_torque: 0.0,
                brake_torque: finite(service + hand).max(0.0),
                anti_roll_force: finite(roll),
            };
        }
    }

    // --- Engine, clutch, gearbox ----------------------------------------------------------
    let eng = &spec.engine;
    let ratio = gb.total_ratio(state.gear);
    let mut shares = [0.0f32; 16];
    let shares = &mut shares[..n_axles.min(16)];
    spec.drive_shares(shares);
    // Speed and inertia of the driven side, seen at the gearbox output.
    let (mut carrier, mut driven_inertia) = (0.0, 0.0);
    for (a, s) in shares.iter().enumerate() {
        if *s > 0.0 {
            let (wl, wr) = (wheel(2 * a), wheel(2 * a + 1));
            carrier += s * 0.5 * (wl.angular_velocity + wr.angular_velocity);
            driven_inertia += wl.inertia + wr.inertia;
        }
    }
    let rpm = state.engine_speed * RAD_PER_S_TO_RPM;
    if !spec.brakes.traction_control {
        state.traction_factor = 1.0;
    }
    if spec.brakes.traction_control {
        let spinning = shares.iter().enumerate().any(|(a, s)| {
            *s > 0.0
                && [wheel(2 * a), wheel(2 * a + 1)]
                    .iter()
                    .any(|w| w.grounded && w.forward_slip * ratio.signum() > 1.5 * w.peak_slip.max(0.01))
        });
        state.traction_factor = if spinning {
            (state.traction_factor - 6.0 * dt).max(0.0)
        } else {
            (state.traction_factor + 2.0 * dt).min(1.0)
        };
        throttle *= state.traction_factor;
    }
    if shifting {
        throttle = 0.0;
    }
    let clutch_torque_est = state.clutch_torque;
    // Idle control: at least the throttle that brings the engine halfway back to idle
    // this step against the clutch's load. Rev limiter: at most the throttle that holds
    // it at the redline.
    let idle = eng.idle_rpm / RAD_PER_S_TO_RPM;
    let red = (eng.redline_rpm - 0.5 * LIMITER_BAND_RPM) / RAD_PER_S_TO_RPM;
    let j_e = eng.inertia;
    if state.engine_speed < idle * 1.05 {
        let need = j_e * 0.5 * (idle - state.engine_speed) / dt + clutch_torque_est;
        throttle = throttle.max(eng.throttle_for(rpm, need));
    }
    if state.engine_speed > red - 2.0 * LIMITER_BAND_RPM / RAD_PER_S_TO_RPM {
        let allow = j_e * 0.5 * (red - state.engine_speed) / dt + clutch_torque_est;
        throttle = throttle.min(eng.throttle_for(rpm, allow));
    }
    let engine_torque = eng.torque(rpm, throttle);

    let engagement = if ratio == 0.0 || shifting {
        0.0
    } else if spec.clutch.automatic {
        // A centrifugal clutch: it starts to bite halfway between idle and `engage_rpm`
        // and is fully engaged at `engage_rpm`.
        let bite = 0.5 * (eng.idle_rpm + spec.clutch.engage_rpm);
        let x = ((rpm - bite) / (spec.clutch.engage_rpm - bite)).clamp(0.0, 1.0);
        x * x * (3.0 - 2.0 * x)
    } else {
        1.0 - raw.clutch
    };
    let capacity = spec.clutch.max_torque * engagement;
    let mut driven_tyre = 0.0;
    for (a, s) in shares.iter().enumerate() {
        if *s > 0.0 {
            driven_tyre += wheel(2 * a).tyre_torque + wheel(2 * a + 1).tyre_torque;
        }
    }
    if capacity > 0.0 && driven_inertia > 0.0 {
        // The torque that brings the engine and the gearbox input to one speed at the
        // end of this step, with the engine's torque and the tyres' last reaction fed
        // forward; a dry clutch passes at most its capacity.
        let slip = state.engine_speed - carrier * ratio;
        let num = slip + dt * (engine_torque / j_e + ratio * driven_tyre / driven_inertia);
        let den = dt * (1.0 / j_e + ratio * ratio * gb.efficiency / driven_inertia);
        state.clutch_torque = finite(num / den).clamp(-capacity, capacity);
    } else {
        state.clutch_torque = 0.0;
    }
    state.engine_speed = (state.engine_speed + (engine_torque - state.clutch_torque) * dt / j_e).clamp(0.0, 2.0e4);
    let wheel_torque = state.clutch_torque * ratio * gb.efficiency;

    // --- Differentials -------------------------------------------------------------------
    // Centre: between the first two driven axles.
    let mut axle_torque = [0.0f32; 16];
    for (a, s) in shares.iter().enumerate() {
        axle_torque[a] = wheel_torque * s;
    }
    let driven: [Option<usize>; 2] = {
        let mut it = shares.iter().enumerate().filter(|(_, s)| **s > 0.0).map(|(a, _)| a);
        [it.next(), it.next()]
    };
    if let [Some(f), Some(r)] = driven {
        let side = |a: usize| {
            let (l, r) = (wheel(2 * a), wheel(2 * a + 1));
            Side {
                speed: 0.5 * (l.angular_velocity + r.angular_velocity),
                inertia: l.inertia + r.inertia,
                tyre_torque: l.tyre_torque + r.tyre_torque,
                drive: axle_torque[a],
            }
        };
        let cap = capacity_of(spec.centre_differential, axle_torque[f] + axle_torque[r]);
        let t = couple(side(f), side(r), cap, dt);
        axle_torque[f] -= t;
        axle_torque[r] += t;
        report.centre_transfer = t;
    }
    #[allow(clippy::needless_range_loop)]
    for a in 0..n_axles {
        let (l, r) = (2 * a, 2 * a + 1);
        if shares.get(a).copied().unwrap_or(0.0) <= 0.0 {
            continue;
        }
        let cap = capacity_of(spec.axles[a].differential, axle_torque[a]);
        let side = |w: WheelFeedback| Side {
            speed: w.angular_velocity,
            inertia: w.inertia,
            tyre_torque: w.tyre_torque,
            drive: 0.5 * axle_torque[a],
        };
        let t = couple(side(wheel(l)), side(wheel(r)), cap, dt);
        out[l].drive_torque = finite(0.5 * axle_torque[a] - t);
        out[r].drive_torque = finite(0.5 * axle_torque[a] + t);
    }

    report.engine_rpm = state.engine_speed * RAD_PER_S_TO_RPM;
    report.engine_torque = engine_torque;
    report.throttle = throttle;
    report.clutch_engagement = engagement;
    report.clutch_torque = state.clutch_torque;
    report.gear = state.gear;
    report.shifting = shifting;
    report.wheel_torque = wheel_torque;
    report.steer = state.steer;
    report.brake = brake;
    report
}

/// Locking capacity (N·m) of a differential passing `input` N·m.
fn capacity_of(kind: DifferentialKind, input: f32) -> f32 {
    match kind {
        DifferentialKind::Open => 0.0,
        DifferentialKind::Locked => MAX_VALUE,
        DifferentialKind::LimitedSlip { preload, locking } => preload + locking * input.abs(),
    }
}

/// One output of a differential, as the coupling sees it.
#[derive(Clone, Copy)]
struct Side {
    /// Speed (rad/s).
    speed: f32,
    /// Inertia (kg·m²).
    inertia: f32,
    /// The tyres' reaction last step (N·m).
    tyre_torque: f32,
    /// Drive torque before the coupling (N·m).
    drive: f32,
}

/// A friction coupling between two outputs: the torque moved from `a` to `b` that gives
/// both the same speed at the end of this step, with the drive and the tyres' last
/// reaction fed forward, clamped to the capacity (see the module documentation).
fn couple(a: Side, b: Side, capacity: f32, dt: f32) -> f32 {
    if capacity <= 0.0 || a.inertia <= 0.0 || b.inertia <= 0.0 {
        return 0.0;
    }
    let predicted =
        (a.speed - b.speed) + dt * ((a.drive - a.tyre_torque) / a.inertia - (b.drive - b.tyre_torque) / b.inertia);
    let t = predicted / (dt * (1.0 / a.inertia + 1.0 / b.inertia));
    finite(t).clamp(-capacity, capacity)
}
