//! What follows from a settings without running it: the engine's torque at an rpm and
//! throttle, the gearbox's ratios, the drive and brake shares, the drive and resistance
//! forces, the ride height and the steering geometry.

use super::*;
use crate::limits::STANDARD_GRAVITY;

impl VehicleSettings {
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
}
