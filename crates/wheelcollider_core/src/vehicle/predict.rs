//! Closed-form predictions: what a settings should do, worked out from its numbers without
//! running it. The manoeuvres and the plugin's tests check the simulation against these.
//!
//! - top speed: where the full-throttle drive force meets drag and rolling resistance;
//! - static axle loads: the centre of mass between the axles (lever rule);
//! - stopping distance: the tyre curve's locked or peak friction per axle, the brake
//!   layout, load transfer and drag, integrated over speed;
//! - a tracked vehicle's skid-steer turn (Wong) and the gradient it climbs.
//!
//! The formulas are in `docs/vehicle.md` and `docs/maneuvers.md`.

use super::*;
use crate::limits::STANDARD_GRAVITY as G;

impl VehicleSettings {
    /// The top speed (m/s) and the gear it is reached in: the highest speed, in any
    /// forward gear, where the full-throttle drive force still equals drag + rolling
    /// resistance (the balance of tractive force and road load, Gillespie, *Fundamentals of
    /// Vehicle Dynamics*, ch. 2), with the engine at or below its redline; no more than
    /// the engine's [`speed_limit`](EngineSettings::speed_limit).
    pub fn predicted_top_speed(&self) -> (f32, i32) {
        let mut best = (0.0f32, 1);
        let r = self.drive_radius();
        for g in 1..=self.gearbox.top_gear() {
            let ratio = self.gearbox.total_ratio(g);
            let v_red = self.engine.redline_rpm / RAD_PER_S_TO_RPM * r / ratio;
            // The net force falls with speed near the top: scan down from the redline.
            let net = |v: f32| self.drive_force(g, v.min(v_red * 0.999_99)) - self.resistance_force(v);
            let top = if net(v_red) >= 0.0 {
                v_red
            } else {
                let n = 2000;
                let mut hi = v_red;
                let mut found = None;
                for i in (0..n).rev() {
                    let v = v_red * i as f32 / n as f32;
                    if net(v) >= 0.0 {
                        found = Some((v, hi));
                        break;
                    }
                    hi = v;
                }
                match found {
                    Some((mut lo, mut hi)) => {
                        for _ in 0..40 {
                            let mid = 0.5 * (lo + hi);
                            if net(mid) >= 0.0 {
                                lo = mid;
                            } else {
                                hi = mid;
                            }
                        }
                        lo
                    }
                    None => 0.0,
                }
            };
            if top > best.0 {
                best = (top, g);
            }
        }
        if self.engine.speed_limit > 0.0 {
            best.0 = best.0.min(self.engine.speed_limit / 3.6);
        }
        best
    }

    /// Static load of each axle (N) of a two-axle car from its centre of mass.
    pub fn static_axle_loads(&self) -> Option<[f32; 2]> {
        if self.axles.len() != 2 {
            return None;
        }
        let (zf, zr, zc) = (self.axles[0].z, self.axles[1].z, self.chassis.centre_of_mass[2]);
        let l = zr - zf;
        if l.abs() < 1e-3 {
            return None;
        }
        let w = self.chassis.mass * G;
        Some([w * (zr - zc) / l, w * (zc - zf) / l])
    }

    /// The roll stiffness of `axle` (N·m/rad): its springs and its bar over the track
    /// `t`, `t² · (k / 2 + k_bar)`; 0 on a [`single`](AxleSettings::single) axle.
    pub fn roll_stiffness(&self, axle: usize) -> f32 {
        let a = &self.axles[axle];
        if a.single {
            return 0.0;
        }
        let t = 2.0 * a.half_track;
        t * t * (0.5 * a.wheel.suspension_spring() + a.anti_roll_stiffness)
    }

    /// The steady roll gradient of a two-axle car in a turn (deg of body roll per g of
    /// lateral acceleration): `(m·g·d + g·Σ I/r) / (K − m·g·d)` with `K` both axles'
    /// roll stiffness and `d` the centre of mass' height over the roll axis (the line
    /// through the axles' roll centres, at the centre of mass' station). The `− m·g·d`
    /// is the centre of mass moving out as the body rolls. `Σ I/r` is the wheels'
    /// gyroscopic moment: each wheel's spin momentum `I·v/r` turning at the yaw rate
    /// `a/v` needs `I·a/r` of roll moment, outwards (its share is in `docs/vehicle.md`,
    /// "Geometry"). Rigid tyres, the wheels' mass in the body (the
    /// model's). Milliken & Milliken, *Race Car Vehicle Dynamics*, §18.4. `None` for
    /// other than two axles or a car that would not hold itself up (`K ≤ m·g·d`).
    pub fn predicted_roll_gradient(&self) -> Option<f32> {
        let gyroscopic: f32 = self
            .axles
            .iter()
            .map(|a| 2.0 * a.wheel.inertia() / a.wheel.radius())
            .sum();
        self.roll_gradient_with(G * gyroscopic)
    }

    /// [`predicted_roll_gradient`](Self::predicted_roll_gradient) under a lateral
    /// acceleration without a turn (a side wind, a parked car's gravity across a
    /// slope): `m·g·d / (K − m·g·d)`, no wheel turning.
    pub fn predicted_roll_gradient_without_turn(&self) -> Option<f32> {
        self.roll_gradient_with(0.0)
    }

    /// The roll gradient (deg/g) with `extra` (N·m per g) of roll moment besides the
    /// centre of mass' over the roll axis.
    fn roll_gradient_with(&self, extra: f32) -> Option<f32> {
        let loads = self.static_axle_loads()?;
        let share = loads[1] / (loads[0] + loads[1]);
        let (hf, hr) = (
            self.axle_geometry(0).roll_centre_height,
            self.axle_geometry(1).roll_centre_height,
        );
        let axis = hf + share * (hr - hf);
        let d = self.centre_of_mass_height() - axis;
        let k = self.roll_stiffness(0) + self.roll_stiffness(1);
        let w = self.chassis.mass * G;
        (k > w * d).then(|| ((w * d + extra) / (k - w * d)).to_degrees())
    }

    /// Stopping distance (m) from `v0` (m/s) with the brake pedal fully down, on a surface
    /// of `grip`, from the tyre curve and the brake layout; drag included.
    ///
    /// Each axle's brakes either lock its wheels (their torque beats the tyre's peak force
    /// at the axle's load) and give the curve's force at a locked wheel's slip
    /// ([`WheelSettings::locked_slip`](crate::WheelSettings::locked_slip)), or they do not and give torque / radius. The
    /// static loads are [`static_axle_load`](Self::static_axle_load)'s; with two axle
    /// groups ([`axle_groups`](Self::axle_groups): two axles, or a steer axle and a
    /// tandem) they include the transfer m·a·h / L between the groups' centres (h:
    /// centre-of-mass height at rest), shared equally within a group, solved by
    /// fixed-point iteration, and each axle's friction coefficient is its tyre's at half the
    /// axle's load ([`WheelSettings::load_grip_factor`]). With ABS every axle works at the
    /// curve's peak instead. For a car whose brakes lock every wheel this is v² / (2·μ·g)
    /// with the locked μ.
    ///
    /// [`WheelSettings::load_grip_factor`]: crate::WheelSettings::load_grip_factor
    pub fn expected_stop_distance(&self, grip: f32, v0: f32) -> f32 {
        let m = self.chassis.mass;
        let w = m * G;
        let k = self.aero.drag_factor();
        // The axles' static loads and, between two axle groups (two axles, or a steer
        // axle and a tandem), the transfer m·a·h / L shared equally within each group.
        let loads: Vec<f32> = (0..self.axles.len())
            .map(|i| self.static_axle_load(i, 0.0, 0.0))
            .collect();
        let groups: Vec<(usize, usize)> = self.axle_groups().collect();
        let (l, h, ahead) = match groups.as_slice() {
            [(f0, f1), (r0, r1)] => {
                let centre =
                    |lo: usize, hi: usize| self.axles[lo..hi].iter().map(|a| a.z).sum::<f32>() / (hi - lo) as f32;
                (centre(*r0, *r1) - centre(*f0, *f1), self.centre_of_mass_height(), *f1)
            }
            _ => (0.0, 0.0, 0),
        };
        let back = self.axles.len() - ahead;
        let decel = |v: f32| -> f32 {
            let front = &self.axles[0].wheel;
            let mut a = front.longitudinal_friction(front.locked_slip(v), w as f64 / 4.0) * grip * G;
            for _ in 0..30 {
                let mut force = 0.0;
                for (i, axle) in self.axles.iter().enumerate() {
                    let transfer = if l > 0.0 { m * a * h / l } else { 0.0 };
                    let shift = if i < ahead {
                        transfer / ahead as f32
                    } else {
                        -transfer / back.max(1) as f32
                    };
                    let load = (loads[i] + shift).max(0.0);
                    // Each axle's tyre at its load (load sensitivity), its wheels sharing it.
                    let tyre = &axle.wheel;
                    let corner = load as f64 / axle.wheel_count() as f64;
                    let peak = tyre.longitudinal_tyre().peak_value() * grip * tyre.load_grip_factor(corner) as f32;
                    let locked = tyre.longitudinal_friction(tyre.locked_slip(v), corner) * grip;
                    let brake = self.brakes.max_torque * self.brake_share(i) / tyre.radius();
                    force += if self.brakes.abs {
                        brake.min(peak * load)
                    } else if brake >= peak * load {
                        locked * load
                    } else {
                        brake
                    };
                }
                a = 0.5 * a + 0.5 * (force + k * v * v) / m;
            }
            a
        };
        let n = 4000;
        (0..n)
            .map(|i| {
                let v = v0 * (i as f32 + 0.5) / n as f32;
                v / decel(v).max(1e-3) * (v0 / n as f32)
            })
            .sum()
    }
}

/// Wong's steady skid-steer turn of a tracked vehicle ([`VehicleSettings::predicted_skid_steer`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SkidSteer {
    /// The turning resistance moment `M_r = μ_t·W·L/4` (N·m).
    pub moment: f32,
    /// The outer belt's thrust `μ_r·W/2 + M_r/B` (N).
    pub outer: f32,
    /// The inner belt's thrust `μ_r·W/2 − M_r/B` (N; negative: it brakes).
    pub inner: f32,
    /// The lateral resistance coefficient `μ_t` it used (the track's lateral friction,
    /// less what the belts' thrusts take of it with the friction circle).
    pub lateral_resistance: f32,
}

impl VehicleSettings {
    /// A tracked vehicle's steady skid-steer turn at low speed (Wong, *Theory of Ground
    /// Vehicles*, ch. 7, the simple analysis of skid steering): the belts' sliding
    /// resists the turn with `M_r = μ_t·W·L/4`, and the outer and inner belts push
    /// `μ_r·W/2 ± M_r/B`. `W` is the weight, `B` the tread (the first axle's track), `L`
    /// the length on the ground (the road wheels' count times their spacing), `μ_r` the
    /// road wheels' rolling resistance. Wong's simple theory takes `μ_t` as the track's lateral friction
    /// `μ_y` (`friction_circle` false); with `friction_circle` each belt keeps across
    /// what its thrust leaves of its friction circle, `c = √(1 − (F/(μ_x·W/2))²)`, and
    /// `μ_t = μ_y·(c_o + c_i)/2`, solved with the thrusts it gives (`docs/tracked.md`).
    /// `None` for a vehicle without tracks.
    pub fn predicted_skid_steer(&self, friction_circle: bool) -> Option<SkidSteer> {
        self.tracks.as_ref()?;
        let n = self.axles.len();
        let (first, last) = (self.axles.first()?, self.axles.last()?);
        let l = (last.z - first.z).abs() * n as f32 / (n.max(2) - 1) as f32;
        let b = self.tread();
        let w = self.chassis.mass * G;
        let wheel = &first.wheel;
        let (mu_r, mu_x, mu_y) = (
            wheel.rolling_resistance(),
            wheel.longitudinal_tyre().max_value(),
            wheel.lateral_tyre().max_value(),
        );
        let simple = mu_y * w * l / 4.0;
        let mut c = 1.0f32;
        if friction_circle {
            for _ in 0..50 {
                let used = |sign: f32| (mu_r * w / 2.0 + sign * c * simple / b) / (mu_x * w / 2.0);
                let left = |u: f32| (1.0 - u * u).max(0.0).sqrt();
                c = 0.5 * (left(used(1.0)) + left(used(-1.0)));
            }
        }
        let moment = c * simple;
        Some(SkidSteer {
            moment,
            outer: mu_r * w / 2.0 + moment / b,
            inner: mu_r * w / 2.0 - moment / b,
            lateral_resistance: c * mu_y,
        })
    }

    /// A tracked vehicle's tread `B` (m): its belts' centres apart, the first axle's
    /// track.
    pub fn tread(&self) -> f32 {
        self.axles.first().map_or(0.0, |a| 2.0 * a.half_track)
    }

    /// The radius (m, positive turning left) of the turn the belts' speeds give
    /// (`speed`, their road wheels' surface speeds, m/s, left and right) once each
    /// belt's longitudinal slip (`slip`, left and right) is taken off:
    /// `R = (B/2)·(v_l + v_r)/(v_r − v_l)`, each belt's speed over the ground the one
    /// its slip's definition gives ([`crate::tyre::ground_speed`]: the denominator the
    /// larger of the belt's speed, the ground's and the floor
    /// [`RELAXED_MIN_DENOMINATOR`](crate::RELAXED_MIN_DENOMINATOR), so a slow belt's
    /// `v − κ·floor`). The plugin's `tracked::tank` and the runner's `skid-steer` hold the
    /// driven radius to it.
    pub fn belts_turn_radius(&self, speed: [f32; 2], slip: [f32; 2]) -> f32 {
        let length = self
            .axles
            .first()
            .map_or(0.0, |a| a.wheel.longitudinal_relaxation_length());
        let ground = |s: usize| crate::tyre::ground_speed(length, slip[s], speed[s]);
        let (l, r) = (ground(0), ground(1));
        0.5 * self.tread() * (l + r) / (r - l)
    }

    /// The steepest gradient (rise over run) a vehicle with every axle driven climbs
    /// from rest: the lesser of its engine's limit in first, `sin θ + μ_r·cos θ =
    /// T_max·i_1·η/(r·W)` (the most torque of the curve through first and the
    /// efficiency), and its grip's, `tan θ = μ_x − μ_r`. `None` unless every axle is
    /// driven.
    pub fn predicted_gradient_limit(&self) -> Option<f32> {
        if self.axles.is_empty() || !self.axles.iter().all(|a| a.driven) {
            return None;
        }
        let wheel = &self.axles[0].wheel;
        let (mu_r, mu_x) = (wheel.rolling_resistance(), wheel.longitudinal_tyre().max_value());
        let peak = self.engine.torque_curve.iter().map(|p| p[1]).fold(0.0f32, f32::max);
        let force = peak * self.gearbox.total_ratio(1) * self.gearbox.efficiency / self.drive_radius();
        let w = self.chassis.mass * G;
        let x = (force / (w * (1.0 + mu_r * mu_r).sqrt())).min(1.0);
        let engine = crate::math::tan(crate::math::asin(x) - crate::math::atan(mu_r));
        Some(engine.min(mu_x - mu_r))
    }
}
