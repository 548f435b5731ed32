//! Steering: its settings (lock, Ackermann fraction, rate, speed-sensitive lock), the
//! steering position's rate limit, and each wheel's angle from the Ackermann geometry.

use super::{VehicleSettings, VehicleState};
use crate::math;

/// Steering: lock, Ackermann geometry, rate and speed sensitivity.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default, deny_unknown_fields))]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct SteeringSettings {
    /// Steer angle at full lock (deg) of the equivalent centre wheel, in 0..=60.
    pub max_angle: f32,
    /// How much Ackermann geometry, 0 (parallel steer) ..= 1 (full: the inner wheel
    /// turns about the rear axle's centre line).
    pub ackermann: f32,
    /// Time to turn from full left to full right (s), 0..=5; 0 follows the input at once.
    /// This also smooths digital (keyboard) input.
    pub lock_to_lock_time: f32,
    /// Fraction of the lock left at `high_speed` and above, 0..=1 (1: no reduction).
    pub high_speed_lock: f32,
    /// Speed at which the lock has fallen to `high_speed_lock` (m/s), > 0.
    pub high_speed: f32,
    /// Mechanical trail (m), −0.2..=0.2: how far ahead of the contact centre the
    /// steering axis meets the ground (from caster; road cars 0.01–0.03 m). It adds
    /// `trail × lateral force` to each steered wheel's aligning torque in
    /// [`PowertrainReport::steering_torque`](super::PowertrainReport::steering_torque).
    /// It changes no force on the car: the steering is kinematic.
    pub mechanical_trail: f32,
}

impl Default for SteeringSettings {
    fn default() -> Self {
        Self {
            max_angle: 35.0,
            ackermann: 1.0,
            lock_to_lock_time: 0.6,
            high_speed_lock: 0.3,
            high_speed: 40.0,
            mechanical_trail: 0.02,
        }
    }
}

impl SteeringSettings {
    /// Steer angle at full lock (deg) at `speed` (m/s): `max_angle` at rest, falling
    /// linearly to `max_angle · high_speed_lock` at `high_speed`.
    pub fn lock_at(&self, speed: f32) -> f32 {
        let f = if self.high_speed > 0.0 {
            (speed.abs() / self.high_speed).clamp(0.0, 1.0)
        } else {
            1.0
        };
        self.max_angle * (1.0 + (self.high_speed_lock - 1.0) * f)
    }
}

impl VehicleSettings {
    /// Steer angles (deg) of the left and right wheels of `axle` for a centre-wheel
    /// angle `delta` (deg, positive left), with the settings's Ackermann fraction
    /// (`delta` itself for a [`single`](super::AxleSettings::single) axle's wheel).
    pub fn ackermann_angles(&self, axle: usize, delta: f32) -> (f32, f32) {
        let a = &self.axles[axle];
        let l = self.wheelbase_for(axle);
        let k = self.steering.ackermann;
        if delta.abs() < 1e-4 || l < 1e-3 || k == 0.0 || a.single {
            return (delta, delta);
        }
        let t = math::tan(delta.abs().to_radians());
        let radius = l / t;
        let inner = math::atan(l / (radius - a.half_track).max(1e-3)).to_degrees();
        let outer = math::atan(l / (radius + a.half_track)).to_degrees();
        let s = delta.signum();
        let (inner, outer) = (delta + k * (s * inner - delta), delta + k * (s * outer - delta));
        // Turning left (delta > 0), the left wheel is the inner one.
        if delta > 0.0 { (inner, outer) } else { (outer, inner) }
    }
}

/// The torque about the steering axes (N·m, positive turning the wheels left), summed
/// over the steered wheels: each wheel's self-aligning torque plus its lateral force
/// on the mechanical trail. It pushes the wheels back towards straight ahead in a turn.
pub(crate) fn column_torque(settings: &VehicleSettings, wheels: impl Fn(usize) -> super::WheelFeedback) -> f32 {
    let trail = settings.steering.mechanical_trail;
    (0..settings.axles.len())
        .filter(|&a| settings.axles[a].steered)
        .flat_map(|a| {
            [
                VehicleSettings::wheel_index(a, false),
                VehicleSettings::wheel_index(a, true),
            ]
        })
        .map(wheels)
        .filter(|w| w.grounded)
        .map(|w| w.aligning_torque + trail * w.sideways_force)
        .sum()
}

/// Moves the steering position towards `steer` (−1..=1) at the steering rate (a full
/// lock-to-lock sweep in `lock_to_lock_time`) and returns the centre-wheel angle (deg,
/// positive left) at speed `v` (m/s).
pub(crate) fn steer(steering: &SteeringSettings, state: &mut VehicleState, steer: f32, v: f32, dt: f32) -> f32 {
    let rate = if steering.lock_to_lock_time > 0.0 {
        2.0 / steering.lock_to_lock_time * dt
    } else {
        2.0
    };
    state.steer += (steer - state.steer).clamp(-rate, rate);
    state.steer = state.steer.clamp(-1.0, 1.0);
    state.steer * steering.lock_at(v)
}

/// Largest steer (deg) that compliance steer adds to a wheel.
const MAX_COMPLIANCE_STEER: f32 = 5.0;
/// The most negative loop gain compliance steer may have (see [`elastic_steer`]): a
/// compliance that steers into its own force with a gain of −1 would diverge.
const MIN_COMPLIANCE_GAIN: f32 = -0.5;

/// Roll steer and compliance steer of the two wheels of `axle` (deg, positive left),
/// from last step's suspension compressions and lateral forces (a
/// [`single`](super::AxleSettings::single) axle has no roll across it: compliance only).
///
/// The body's roll `φ = atan((c_right − c_left) / track)` (positive rolling onto the
/// right wheels, as in a left turn) steers both wheels by `roll_steer · φ`.
///
/// Compliance steer follows each wheel's own lateral force `Fy` (positive to the
/// right): `δ = c · Fy` with `c = compliance_steer / 1000` (deg per N). Taken from last
/// step's force it is an explicit loop through the tyre with the gain `g = c · K`
/// (`K` the cornering stiffness at the wheel's load, N per degree), which rings for
/// `g` near 1 and diverges above: 2 deg/kN on a road tyre is `g` ≈ 1.4. So it is solved
/// implicitly, with the force moved by the tyre's slope, `Fy ≈ Fy₀ − K·(δ − δ₀)`:
/// `δ = (c·Fy₀ + g·δ₀) / (1 + g)`, stable for every `g ≥ 0` and the same steady
/// state. A negative compliance (steering into the force) is held to `g ≥ −0.5`.
/// `last` holds each wheel's compliance steer of the last step; each is clamped to
/// ±5°.
pub(crate) fn elastic_steer(
    axle: &super::AxleSettings,
    geometry: &super::AxleGeometry,
    [wl, wr]: [&super::WheelFeedback; 2],
    last: &mut [f32],
) -> [f32; 2] {
    let roll = if wl.grounded && wr.grounded && !axle.single {
        math::atan((wr.compression - wl.compression) / (2.0 * axle.half_track).max(1e-3)).to_degrees()
    } else {
        0.0
    };
    let compliance = |w: &super::WheelFeedback, last: &mut f32| {
        let k = axle.wheel.cornering_stiffness(w.load.max(0.0) as f64) as f32 * core::f32::consts::PI / 180.0;
        let c = geometry.compliance_steer * 1e-3;
        let g = (c * k).max(MIN_COMPLIANCE_GAIN);
        let c = if k > 0.0 { g / k } else { c };
        let d = (c * w.sideways_force + g * *last) / (1.0 + g);
        *last = super::finite(d).clamp(-MAX_COMPLIANCE_STEER, MAX_COMPLIANCE_STEER);
        *last
    };
    let (ll, lr) = last.split_at_mut(1);
    [
        geometry.roll_steer * roll + compliance(wl, &mut ll[0]),
        geometry.roll_steer * roll + compliance(wr, &mut lr[0]),
    ]
}
