//! What follows from a spec without running it: the engine's torque at an rpm and
//! throttle, the gearbox's ratios, the drive and brake shares, the drive and resistance
//! forces, the ride height and the steering geometry.

use super::*;
use crate::limits::STANDARD_GRAVITY;

impl EngineSpec {
    /// Full-throttle torque at `rpm` (N·m), from the curve.
    pub fn curve_torque(&self, rpm: f32) -> f32 {
        let c = &self.torque_curve;
        let Some(first) = c.first() else { return 0.0 };
        if rpm <= first[0] {
            return first[1];
        }
        for w in c.windows(2) {
            if rpm <= w[1][0] {
                let t = (rpm - w[0][0]) / (w[1][0] - w[0][0]);
                return w[0][1] + t * (w[1][1] - w[0][1]);
            }
        }
        c[c.len() - 1][1]
    }

    /// Closed-throttle braking torque at `rpm` (N·m, positive), ∝ rpm.
    pub fn braking_at(&self, rpm: f32) -> f32 {
        self.braking_torque * (rpm / self.redline_rpm).clamp(0.0, 1.5)
    }

    /// Engine torque at `rpm` and `throttle` (N·m): `throttle·curve − (1 − throttle)²·braking`.
    pub fn torque(&self, rpm: f32, throttle: f32) -> f32 {
        throttle * self.curve_torque(rpm) - (1.0 - throttle).powi(2) * self.braking_at(rpm)
    }

    /// The throttle (0..=1) at which the engine makes `torque` at `rpm`: the inverse of
    /// [`EngineSpec::torque`], which rises monotonically with throttle.
    pub fn throttle_for(&self, rpm: f32, torque: f32) -> f32 {
        let c = self.curve_torque(rpm);
        let b = self.braking_at(rpm);
        // b·t² − (c + 2b)·t + (b + torque) = 0, smaller root.
        let t = if b > 1e-6 {
            let p = c + 2.0 * b;
            let disc = (p * p - 4.0 * b * (b + torque)).max(0.0);
            (p - disc.sqrt()) / (2.0 * b)
        } else if c > 1e-6 {
            torque / c
        } else {
            0.0
        };
        if t.is_finite() { t.clamp(0.0, 1.0) } else { 0.0 }
    }

    /// Peak power (W) and the rpm where the curve makes it.
    pub fn peak_power(&self) -> (f32, f32) {
        let mut best = (0.0, 0.0);
        let n = 400;
        for i in 0..=n {
            let rpm = self.redline_rpm * i as f32 / n as f32;
            let p = self.curve_torque(rpm) * rpm / RAD_PER_S_TO_RPM;
            if p > best.0 {
                best = (p, rpm);
            }
        }
        best
    }
}

impl GearboxSpec {
    /// Ratio of `gear` times the final drive, signed (negative in reverse, 0 in neutral
    /// or for a gear the box does not have).
    pub fn total_ratio(&self, gear: i32) -> f32 {
        let r = match gear {
            -1 => -self.reverse,
            g if g >= 1 => self.forward.get(g as usize - 1).copied().unwrap_or(0.0),
            _ => 0.0,
        };
        r * self.final_drive
    }

    /// The highest forward gear.
    pub fn top_gear(&self) -> i32 {
        self.forward.len() as i32
    }
}

impl VehicleSpec {
    /// Each axle's share of the drive torque (0 for axles that are not driven): the
    /// first two driven axles split by `front_torque_share`, further ones share equally.
    pub fn drive_shares(&self, out: &mut [f32]) {
        out.iter_mut().for_each(|s| *s = 0.0);
        let driven: usize = self.axles.iter().filter(|a| a.driven).count();
        let mut k = 0;
        for (i, a) in self.axles.iter().enumerate() {
            if !a.driven || i >= out.len() {
                continue;
            }
            out[i] = match driven {
                2 if k == 0 => self.front_torque_share,
                2 => 1.0 - self.front_torque_share,
                n => 1.0 / n as f32,
            };
            k += 1;
        }
    }

    /// Brake share of each axle: `front_bias` on the first, the rest equally on the
    /// others.
    pub fn brake_share(&self, axle: usize) -> f32 {
        let n = self.axles.len();
        match (n, axle) {
            (1, _) => 1.0,
            (_, 0) => self.brakes.front_bias,
            _ => (1.0 - self.brakes.front_bias) / (n - 1) as f32,
        }
    }

    /// Radius of the first driven axle's wheels (m), or the first axle's.
    pub fn drive_radius(&self) -> f32 {
        self.axles
            .iter()
            .find(|a| a.driven)
            .or(self.axles.first())
            .map(|a| a.wheel.radius())
            .unwrap_or(0.3)
    }

    /// Rolling-resistance force on flat ground at speed `v` (N): each axle's coefficient
    /// times its static load, plus the same coefficient on the downforce.
    pub fn rolling_resistance_force(&self, v: f32) -> f32 {
        let n = self.axles.len().max(1) as f32;
        let c: f32 = self.axles.iter().map(|a| a.wheel.rolling_resistance()).sum::<f32>() / n;
        let down = 0.5 * self.aero.air_density * (self.aero.downforce_front + self.aero.downforce_rear) * v * v;
        c * (self.chassis.mass * STANDARD_GRAVITY + down)
    }

    /// Drive force at the wheels in `gear` at road speed `v` (m/s) and full throttle (N),
    /// with no tyre slip; 0 past the redline.
    pub fn drive_force(&self, gear: i32, v: f32) -> f32 {
        let r = self.drive_radius();
        let ratio = self.gearbox.total_ratio(gear).abs();
        let rpm = v / r * ratio * RAD_PER_S_TO_RPM;
        if ratio == 0.0 || rpm > self.engine.redline_rpm {
            return 0.0;
        }
        self.engine.curve_torque(rpm.max(self.engine.idle_rpm)) * ratio * self.gearbox.efficiency / r
    }

    /// Resistance on flat ground at `v` (N): aerodynamic drag plus rolling resistance.
    pub fn resistance_force(&self, v: f32) -> f32 {
        self.aero.drag_factor() * v * v + self.rolling_resistance_force(v)
    }

    /// Height of the chassis origin above flat ground (m) at which the lowest wheel just
    /// touches it with the suspension fully extended: spawn a little above this.
    pub fn touch_height(&self) -> f32 {
        self.axles
            .iter()
            .map(|a| -(a.mount_height - a.wheel.suspension_length() - a.wheel.radius()))
            .fold(0.0, f32::max)
    }

    /// Wheelbase seen by the steered `axle` (m): the distance to the rearmost axle that
    /// does not steer (or to the last axle).
    pub fn wheelbase_for(&self, axle: usize) -> f32 {
        let z = self.axles[axle].z;
        let rear = self
            .axles
            .iter()
            .rev()
            .find(|a| !a.steered)
            .or(self.axles.last())
            .map(|a| a.z)
            .unwrap_or(z);
        (rear - z).abs()
    }

    /// Steer angles (deg) of the left and right wheels of `axle` for a centre-wheel
    /// angle `delta` (deg, positive left), with the spec's Ackermann fraction.
    pub fn ackermann_angles(&self, axle: usize, delta: f32) -> (f32, f32) {
        let a = &self.axles[axle];
        let l = self.wheelbase_for(axle);
        let k = self.steering.ackermann;
        if delta.abs() < 1e-4 || l < 1e-3 || k == 0.0 {
            return (delta, delta);
        }
        let t = delta.abs().to_radians().tan();
        let radius = l / t;
        let inner = (l / (radius - a.half_track).max(1e-3)).atan().to_degrees();
        let outer = (l / (radius + a.half_track)).atan().to_degrees();
        let s = delta.signum();
        let (inner, outer) = (delta + k * (s * inner - delta), delta + k * (s * outer - delta));
        // Turning left (delta > 0), the left wheel is the inner one.
        if delta > 0.0 { (inner, outer) } else { (outer, inner) }
    }
}
