//! Assists for arcade games, all off by default: anti-flip, air control and yaw
//! stability.
//!
//! - **Anti-flip** limits the angle between the chassis' up axis and the world's up
//!   (pitch and roll together), like the maximum pitch/roll angle of Jolt's
//!   `VehicleConstraint`. Past [`AntiFlipSettings::max_angle`] the body's angular
//!   velocity towards more tilt is taken away and turned into a return at
//!   [`ANTI_FLIP_RETURN_RATE`] × the excess, with at most
//!   [`AntiFlipSettings::max_acceleration`]: a torque limit, so that a hard enough hit
//!   still rolls the car (Jolt's constraint is rigid).
//! - **Air control** turns the driver's input into pitch, yaw and roll rates while
//!   every wheel is off the ground, as arcade racers do: throttle pitches the nose down,
//!   brake pitches it up, steer yaws (rolls with the handbrake held).
//! - **Yaw stability** is an ESC in the manner of Bosch's (van Zanten, *Bosch ESP
//!   Systems: 5 Years of Experience*, SAE 2000-01-1633; Rajamani, *Vehicle Dynamics and
//!   Control*, ch. 8): it compares the measured yaw rate with the one the driver asks
//!   for (the steady-state bicycle model with a reference understeer gradient, capped
//!   by the grip), and brakes one wheel against the difference: the outer front wheel
//!   when the car turns more than asked (oversteer), the inner rear wheel when it turns
//!   less (understeer). It works through the wheel brakes only (real systems also cut
//!   the engine's torque) and never asks a wheel for more than its tyre's longitudinal
//!   budget.
//!
//! Anti-flip and air control act on the body: [`body_acceleration`] returns an angular
//! acceleration that the physics integration applies (the plugin does, independent of
//! the body's inertia). Yaw stability is part of [`step_vehicle`](super::step_vehicle).

use super::brakes::{self, ABS_PEAK_FRACTION};
use super::{DriverInput, VehicleSettings, WheelFeedback};
use crate::STANDARD_GRAVITY;
use crate::math;

/// The anti-flip's return rate (1/s): past the limit the body is turned back at this
/// many times the excess angle per second (0.2 s to close 63 % of it).
pub const ANTI_FLIP_RETURN_RATE: f32 = 5.0;
/// Below this forward speed (m/s) yaw stability is off: there is no yaw rate to steer.
pub const YAW_STABILITY_MIN_SPEED: f32 = 5.0;
/// The share of the tyres' grip the reference yaw rate may ask for, `|r| ≤ k·a_max/v`
/// (a_max from the grounded tyres' peak forces over the mass).
pub const YAW_REFERENCE_GRIP: f32 = 0.85;

/// All the assists; each is off by default.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default, deny_unknown_fields))]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct AssistSettings {
    /// Limit the body's pitch and roll.
    pub anti_flip: AntiFlipSettings,
    /// Steer the body in the air.
    pub air_control: AirControlSettings,
    /// Brake single wheels against a spin or a plough (ESC).
    pub yaw_stability: YawStabilitySettings,
}

/// Anti-flip: a torque-limited bound on the angle between the chassis' up axis and the
/// world's up.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default, deny_unknown_fields))]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct AntiFlipSettings {
    /// On or off (off by default).
    pub enabled: bool,
    /// The largest tilt (deg), 0..=180: the angle between the chassis' up axis and the
    /// world's up (against gravity), whether from pitch, roll or both.
    pub max_angle: f32,
    /// Its strength: the most angular acceleration it gives the body (rad/s²),
    /// 0..=1000, whatever the body's inertia.
    pub max_acceleration: f32,
}

impl Default for AntiFlipSettings {
    fn default() -> Self {
        Self {
            enabled: false,
            max_angle: 50.0,
            max_acceleration: 30.0,
        }
    }
}

/// Air control: the driver steers the body while every wheel is off the ground.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default, deny_unknown_fields))]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct AirControlSettings {
    /// On or off (off by default).
    pub enabled: bool,
    /// Pitch rate at full throttle (nose down) or full brake (nose up) (deg/s),
    /// 0..=1440.
    pub pitch_rate: f32,
    /// Yaw rate at full steer (deg/s), 0..=1440.
    pub yaw_rate: f32,
    /// Roll rate at full steer with the handbrake held (deg/s), 0..=1440; the steer
    /// then rolls instead of yawing.
    pub roll_rate: f32,
    /// The most angular acceleration it uses to reach those rates (rad/s²), 0..=1000.
    pub max_acceleration: f32,
}

impl Default for AirControlSettings {
    fn default() -> Self {
        Self {
            enabled: false,
            pitch_rate: 90.0,
            yaw_rate: 90.0,
            roll_rate: 180.0,
            max_acceleration: 10.0,
        }
    }
}

/// Yaw stability (ESC): one wheel braked against the difference between the measured
/// and the reference yaw rate.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default, deny_unknown_fields))]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct YawStabilitySettings {
    /// On or off (off by default).
    pub enabled: bool,
    /// The yaw-rate error it lets pass (deg/s), 0..=180.
    pub threshold: f32,
    /// Brake torque per deg/s of error past the threshold (N·m per deg/s), ≥ 0;
    /// default 400. The brake's yaw moment builds over the tyre's relaxation length, so
    /// it has to start firmly (`wheelcollider_track`'s
    /// `yaw_stability_passes_the_sine_with_dwell_that_the_loose_car_fails`; the
    /// figures are in `docs/maneuvers.md`).
    pub gain: f32,
    /// The most brake torque it puts on a wheel (N·m), ≥ 0; never more than the tyre's
    /// longitudinal budget × radius.
    pub max_torque: f32,
    /// The understeer gradient of the reference yaw rate (deg/g), −10..=20: the
    /// handling the driver expects (a road car's is 1.5–3).
    pub reference_understeer: f32,
}

impl Default for YawStabilitySettings {
    fn default() -> Self {
        Self {
            enabled: false,
            threshold: 3.0,
            gain: 400.0,
            max_torque: 3000.0,
            reference_understeer: 2.0,
        }
    }
}

/// The chassis' motion as the vehicle step sees it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ChassisMotion {
    /// Speed along the chassis' forward axis (m/s, negative backwards).
    pub forward_speed: f32,
    /// Yaw rate about the chassis' up axis (rad/s, positive turning left). Only yaw
    /// stability reads it.
    pub yaw_rate: f32,
}

impl ChassisMotion {
    /// Moving straight at `forward_speed` (m/s), not yawing.
    pub fn straight(forward_speed: f32) -> Self {
        Self {
            forward_speed,
            yaw_rate: 0.0,
        }
    }

    /// Each value clamped to ±`MAX_VALUE`, a non-finite one to 0.
    pub(crate) fn sanitized(self) -> Self {
        Self {
            forward_speed: super::finite(self.forward_speed),
            yaw_rate: super::finite(self.yaw_rate),
        }
    }
}

/// The body's state as the body assists see it, in the chassis' frame (x right, y up,
/// z back; forward is −z).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct BodyMotion {
    /// The world's up (against gravity), a unit vector in the chassis' frame.
    pub up: [f32; 3],
    /// The body's angular velocity in the chassis' frame (rad/s).
    pub angular_velocity: [f32; 3],
    /// No wheel touches the ground.
    pub airborne: bool,
}

/// The angular acceleration (rad/s², chassis frame) anti-flip and air control give the
/// body this step, for the driver's `input` (clamped to its ranges here). Zero when
/// both are off, and zero for air control while any wheel is grounded.
pub fn body_acceleration(settings: &AssistSettings, input: &DriverInput, body: &BodyMotion, dt: f32) -> [f32; 3] {
    let mut out = [0.0f32; 3];
    if !(dt.is_finite() && dt > 0.0 && finite3(body.up) && finite3(body.angular_velocity)) {
        return out;
    }
    let input = input.sanitized();
    if settings.air_control.enabled && body.airborne {
        let a = air_control(&settings.air_control, &input, body.angular_velocity, dt);
        (0..3).for_each(|i| out[i] += a[i]);
    }
    if settings.anti_flip.enabled {
        let a = anti_flip(&settings.anti_flip, body, dt);
        (0..3).for_each(|i| out[i] += a[i]);
    }
    out.map(super::finite)
}

fn finite3(v: [f32; 3]) -> bool {
    v.iter().all(|x| x.is_finite())
}

/// Air control: on each axis with input, the acceleration towards `input × rate`,
/// at most `max_acceleration`; axes without input are left alone.
fn air_control(s: &AirControlSettings, input: &DriverInput, w: [f32; 3], dt: f32) -> [f32; 3] {
    let pitch = input.brake - input.throttle; // nose up is +x
    let (yaw, roll) = if input.handbrake > 0.5 {
        (0.0, input.steer) // roll left is +z: the top goes left
    } else {
        (input.steer, 0.0)
    };
    let target = [
        pitch * s.pitch_rate.to_radians(),
        yaw * s.yaw_rate.to_radians(),
        roll * s.roll_rate.to_radians(),
    ];
    let cmd = [pitch, yaw, roll];
    let mut out = [0.0; 3];
    for i in 0..3 {
        if cmd[i].abs() > 1e-3 {
            out[i] = ((target[i] - w[i]) / dt).clamp(-s.max_acceleration, s.max_acceleration);
        }
    }
    out
}

/// Anti-flip: past `max_angle`, the angular velocity about the axis that brings the
/// chassis' up back to the world's up is raised to at least
/// [`ANTI_FLIP_RETURN_RATE`] × the excess, with at most `max_acceleration`.
fn anti_flip(s: &AntiFlipSettings, body: &BodyMotion, dt: f32) -> [f32; 3] {
    let u = body.up;
    let tilt = math::acos(u[1].clamp(-1.0, 1.0));
    let excess = tilt - s.max_angle.to_radians();
    if excess <= 0.0 {
        return [0.0; 3];
    }
    // The axis that turns the chassis' up (0, 1, 0) towards u: (0, 1, 0) × u.
    let axis = [u[2], 0.0, -u[0]];
    let len = (axis[0] * axis[0] + axis[2] * axis[2]).sqrt();
    // Upside down exactly: any horizontal axis will do; roll back.
    let axis = if len > 1e-4 {
        [axis[0] / len, 0.0, axis[2] / len]
    } else {
        [0.0, 0.0, 1.0]
    };
    let w = body.angular_velocity;
    let along = w[0] * axis[0] + w[2] * axis[2];
    let want = ANTI_FLIP_RETURN_RATE * excess;
    if along >= want {
        return [0.0; 3];
    }
    let a = ((want - along) / dt).min(s.max_acceleration);
    [a * axis[0], 0.0, a * axis[2]]
}

/// Yaw stability: the wheel to brake (its index, axle by axle, left then right) and the
/// extra brake torque (N·m, > 0), or `None`.
///
/// `delta` is the commanded centre steer angle (deg, positive left). The reference yaw
/// rate is `v·δ / (L + K·v²/g)` with the reference understeer gradient `K`, capped at
/// [`YAW_REFERENCE_GRIP`] × the grounded tyres' peak force / mass / v. Past the
/// threshold, the error `e = r − r_ref` brakes the right wheels for `e > 0` (the car
/// yaws too far left) and the left ones for `e < 0`: on the first axle when the car
/// yaws more than the reference (oversteer), on the last when less (understeer).
pub(crate) fn yaw_stability(
    settings: &VehicleSettings,
    motion: ChassisMotion,
    delta: f32,
    n_axles: usize,
    wheel: impl Fn(usize) -> WheelFeedback,
) -> Option<(usize, f32)> {
    let s = &settings.assists.yaw_stability;
    let v = motion.forward_speed;
    if !s.enabled || v < YAW_STABILITY_MIN_SPEED || n_axles == 0 {
        return None;
    }
    let grip: f32 = (0..2 * n_axles)
        .map(&wheel)
        .filter(|w| w.grounded)
        .map(|w| w.max_friction_force)
        .sum();
    if grip <= 0.0 {
        return None;
    }
    let l = settings.wheelbase_for(0).max(0.1);
    let k = s.reference_understeer.to_radians() / STANDARD_GRAVITY;
    let free = v * delta.to_radians() / (l + k * v * v).max(0.1 * l);
    let cap = YAW_REFERENCE_GRIP * grip / settings.chassis.mass.max(1.0) / v;
    let reference = free.clamp(-cap, cap);
    let r = motion.yaw_rate;
    let e = r - reference;
    let excess = e.abs().to_degrees() - s.threshold;
    if excess <= 0.0 || !excess.is_finite() {
        return None;
    }
    let oversteer = r * e > 0.0;
    let axle = if oversteer { 0 } else { n_axles - 1 };
    // One wheel on the centre line turns no yaw by its brake.
    if settings.axles[axle].single {
        return None;
    }
    let i = VehicleSettings::wheel_index(axle, e > 0.0);
    let w = wheel(i);
    if !w.grounded {
        return None;
    }
    let (_, budget) = brakes::budget(&w, settings.axles[axle].wheel.longitudinal_tyre());
    let torque = (s.gain * excess)
        .min(s.max_torque)
        .min(ABS_PEAK_FRACTION * budget * w.radius);
    (torque > 0.0).then_some((i, torque))
}
