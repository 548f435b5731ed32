//! The speed a car can hold along a path, from the car itself: a quasi-steady-state
//! lap simulation of a point mass (Milliken & Milliken, *Race Car Vehicle Dynamics*,
//! ch. 2; the "apex speed, then accelerate and brake between" method). The car's
//! g-g envelope is read from its own settings, not typed:
//!
//! - **across**, [`VehicleSettings::lateral_limit`]: the steady turn's most lateral
//!   acceleration, each axle carrying its static share of the turn's force on its
//!   wheels' lateral curves' most force at their loads (the static load, its axle's
//!   downforce at the speed, the lateral load transfer from the roll stiffness and roll
//!   centres), the tyre's load sensitivity read at each load: the first axle to
//!   saturate limits;
//! - **braking**, [`VehicleSettings::braking_limit`]: the brakes' force until the first
//!   axle to reach its longitudinal grip does (the brake balance), no more than the
//!   brakes' most torque over the wheels' radius, plus the drag and the rolling
//!   resistance;
//! - **driving**, [`VehicleSettings::drive_limit`]: the best gear's full-throttle
//!   force at the speed, no more than the driven wheels' grip, less the road load.
//!
//! The braking and drive limits read static loads (no longitudinal load transfer), and
//! none reads camber, the tyres' combined slip or an assist, so the envelope is still
//! an upper bound on what the car itself reaches (the road car's circle: 1.02 g
//! against the 0.93 g it holds, `docs/maneuvers.md`; 1.17 g on static loads). [`SpeedPlan`] reads each point's
//! curvature, caps the speed where the lateral limit allows no more (`v²·κ = a_y(v)`,
//! downforce raising it with the speed), then passes forwards (what the drive gives
//! from each point to the next) and backwards (what the brakes give), each sharing the
//! friction circle with the corner's lateral acceleration: `a_x = a_x,max·√(1 −
//! (a_y/a_y,max)²)`. The core's `tests/it/plan.rs` holds it to the closed forms.

use super::*;
use crate::WheelSettings;
use crate::limits::STANDARD_GRAVITY as G;

impl VehicleSettings {
    /// Each wheel's static load plus its axle's downforce share at `v` (m/s), and the
    /// wheel: `(load N, axle)` for every wheel.
    fn loaded_wheels(&self, v: f32) -> impl Iterator<Item = (f32, usize)> + '_ {
        let [front, rear] = self.aero.downforce(v);
        let last = self.axles.len().saturating_sub(1);
        self.axles.iter().enumerate().flat_map(move |(i, a)| {
            let n = a.wheel_count();
            let aero = if i == 0 {
                front
            } else if i == last {
                rear
            } else {
                0.0
            };
            let load = (self.corner_load(i) + aero / n as f32).max(0.0);
            std::iter::repeat_n((load, i), n)
        })
    }

    /// Each wheel's most force (N) from `curve` at its load at `v`, with its axle: the
    /// curve's most value times the load, the tyre's load sensitivity read there.
    fn wheel_grips<'a>(
        &'a self,
        v: f32,
        curve: impl Fn(&WheelSettings) -> f32 + 'a,
    ) -> impl Iterator<Item = (f32, usize)> + 'a {
        self.loaded_wheels(v).map(move |(load, i)| {
            let w = &self.axles[i].wheel;
            (curve(w) * w.load_grip_factor(load as f64) as f32 * load, i)
        })
    }

    /// The sum of [`wheel_grips`](Self::wheel_grips), over the driven axles' wheels alone
    /// when `driven_only`.
    fn grip_force(&self, v: f32, driven_only: bool, curve: impl Fn(&WheelSettings) -> f32) -> f32 {
        self.wheel_grips(v, curve)
            .filter(|&(_, i)| !driven_only || self.axles[i].driven)
            .map(|(grip, _)| grip)
            .sum()
    }

    /// The most lateral acceleration (m/s²) the car holds at `v` (m/s) in a steady turn
    /// on flat ground (the module docs): the largest `a` at which every axle's wheels
    /// give the axle's share of the turn's force, `m·a·W_i/W` (the static load's share:
    /// the yaw moment balanced), each wheel its lateral curve's peak at its load (the
    /// load sensitivity read there), the loads moved outwards by the lateral load
    /// transfer, `ΔF_i = a/t_i·(W_i/g·h_i + m·d·K_i/ΣK)` on an axle of track `t_i`,
    /// roll centre `h_i` and roll stiffness `K_i`, `d` the centre of mass' height over
    /// the roll axis (Milliken & Milliken, *Race Car Vehicle Dynamics*, §18.4); the
    /// axles' downforce at `v` on their wheels. With no load sensitivity it is the point
    /// mass's `μ·g` (the core's `tests/it/plan.rs`).
    pub fn lateral_limit(&self, v: f32) -> f32 {
        let m = self.chassis.mass.max(1e-3);
        let n = self.axles.len();
        let static_loads: Vec<f32> = (0..n)
            .map(|i| self.corner_load(i) * self.axles[i].wheel_count() as f32)
            .collect();
        let weight: f32 = static_loads.iter().sum::<f32>().max(1e-3);
        let [front, rear] = self.aero.downforce(v);
        let aero = |i: usize| {
            if i == 0 {
                front
            } else if i + 1 == n {
                rear
            } else {
                0.0
            }
        };
        // The roll axis at the centre of mass: the roll centres weighted by the loads.
        let axis = (0..n)
            .map(|i| static_loads[i] * self.axle_geometry(i).roll_centre_height)
            .sum::<f32>()
            / weight;
        let d = self.centre_of_mass_height() - axis;
        let stiffness: Vec<f32> = (0..n).map(|i| self.roll_stiffness(i)).collect();
        let k_total: f32 = stiffness.iter().sum();
        // Each axle's lateral grip (N) at lateral acceleration `a`, against its share.
        let holds = |a: f32| {
            (0..n).all(|i| {
                let axle = &self.axles[i];
                let w = &axle.wheel;
                let load = static_loads[i] + aero(i);
                let peak = w.lateral_tyre().max_value();
                let grip = |f: f32| peak * w.load_grip_factor(f as f64) as f32 * f;
                let share = static_loads[i] / weight;
                let capacity = if axle.wheel_count() == 1 {
                    grip(load)
                } else {
                    let roll = if k_total > 0.0 { stiffness[i] / k_total } else { share };
                    let t = (2.0 * axle.half_track).max(1e-3);
                    let transfer =
                        a / t * (static_loads[i] / G * self.axle_geometry(i).roll_centre_height + m * d * roll);
                    let half = 0.5 * load;
                    let moved = transfer.clamp(0.0, half);
                    grip(half + moved) + grip(half - moved)
                };
                capacity >= m * a * share
            })
        };
        // The point mass's limit on static loads is the most it can be: bisect below it.
        let point_mass = self.grip_force(v, false, |w| w.lateral_tyre().max_value()) / m;
        let (mut lo, mut hi) = (0.0f32, point_mass.max(0.0));
        if holds(hi) {
            return hi;
        }
        for _ in 0..32 {
            let mid = 0.5 * (lo + hi);
            if holds(mid) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        lo
    }

    /// The most braking deceleration (m/s²) at `v` (m/s): the brakes' force until the
    /// first axle to reach its grip does (the brakes split by
    /// [`brake_share`](Self::brake_share): an axle with none brakes nothing, a kart's
    /// front), no more than the brakes' most torque, plus the road load (drag and rolling
    /// resistance).
    pub fn braking_limit(&self, v: f32) -> f32 {
        let mut axle_grip = vec![0.0f32; self.axles.len()];
        for (grip, i) in self.wheel_grips(v, |w| w.longitudinal_tyre().max_value()) {
            axle_grip[i] += grip;
        }
        let grip = axle_grip
            .iter()
            .enumerate()
            .filter(|&(i, _)| self.brake_share(i) > 1e-6)
            .map(|(i, g)| g / self.brake_share(i))
            .fold(f32::INFINITY, f32::min);
        let grip = if grip.is_finite() { grip } else { 0.0 };
        let brakes = self.brakes.max_torque / self.drive_radius().max(1e-3);
        let m = self.chassis.mass.max(1e-3);
        (grip.min(brakes) + self.aero.drag_factor() * v * v + self.rolling_resistance_force(v)) / m
    }

    /// The most drive acceleration (m/s², negative past the top speed) at `v` (m/s):
    /// the best forward gear's full-throttle force, no more than the driven wheels'
    /// grip, less the road load ([`resistance_force`](Self::resistance_force)).
    pub fn drive_limit(&self, v: f32) -> f32 {
        self.drive_with(v, 1.0)
    }

    /// [`drive_limit`](Self::drive_limit) using `share` of the driven wheels' grip.
    fn drive_with(&self, v: f32, share: f32) -> f32 {
        let engine = (1..=self.gearbox.top_gear())
            .map(|g| self.drive_force(g, v))
            .fold(0.0f32, f32::max);
        let grip = share * self.grip_force(v, true, |w| w.longitudinal_tyre().max_value());
        (engine.min(grip) - self.resistance_force(v)) / self.chassis.mass.max(1e-3)
    }
}

/// The speed a car can hold at each point of a path, and the time it takes: the module
/// docs' quasi-steady-state plan.
#[derive(Clone, Debug, PartialEq)]
pub struct SpeedPlan {
    /// The speed at each point (m/s).
    pub speed: Vec<f32>,
    /// The path's curvature at each point (1/m, ≥ 0).
    pub curvature: Vec<f32>,
    /// The distance from each point to the next (m); an open path's last is 0.
    pub step: Vec<f32>,
    /// Whether the last point joins the first.
    pub closed: bool,
}

impl SpeedPlan {
    /// The plan for `settings` along `points` (on the ground, `[x, z]` m, about evenly
    /// spaced; at least 3), closed (a lap) or open (from `start` m/s, stopping at
    /// the end when `stop`), using `aggression` of the car's grip (clamped to
    /// 0.05..=1; the drive's force is the engine's whatever it is, up to that grip).
    /// The curvature at a point is the circle's through its neighbours `span` points
    /// away (at least 1): a larger span smooths a polyline's corners.
    pub fn new(
        settings: &VehicleSettings,
        points: &[[f32; 2]],
        closed: bool,
        (start, stop): (f32, bool),
        aggression: f32,
        span: usize,
    ) -> SpeedPlan {
        let n = points.len();
        let k = aggression.clamp(0.05, 1.0);
        let span = span.max(1);
        let at = |i: isize| -> Option<[f32; 2]> {
            if closed {
                Some(points[i.rem_euclid(n as isize) as usize])
            } else {
                (0..n as isize).contains(&i).then(|| points[i as usize])
            }
        };
        let curvature: Vec<f32> = (0..n as isize)
            .map(|i| match (at(i - span as isize), at(i + span as isize)) {
                (Some(a), Some(c)) => circle_curvature(a, points[i as usize], c),
                _ => 0.0,
            })
            .collect();
        let step: Vec<f32> = (0..n as isize)
            .map(|i| at(i + 1).map_or(0.0, |b| distance(points[i as usize], b)))
            .collect();
        let lateral = |v: f32| k * settings.lateral_limit(v);
        let top = settings.predicted_top_speed().0;
        // The corner's cap: v²·κ = a_y(v), by bisection (downforce raises a_y with v).
        let cap: Vec<f32> = curvature
            .iter()
            .map(|&c| {
                if c < 1e-5 {
                    return top;
                }
                let (mut lo, mut hi) = (0.0f32, top.max(1.0));
                for _ in 0..50 {
                    let mid = 0.5 * (lo + hi);
                    if mid * mid * c <= lateral(mid) {
                        lo = mid;
                    } else {
                        hi = mid;
                    }
                }
                lo
            })
            .collect();
        // What's left of the friction circle along the path at v on curvature c.
        let along = |v: f32, c: f32| {
            let used = (v * v * c / lateral(v).max(1e-6)).min(1.0);
            (1.0 - used * used).sqrt()
        };
        let mut speed = cap.clone();
        if !closed {
            speed[0] = speed[0].min(start.max(0.0));
            if stop {
                speed[n - 1] = 0.0;
            }
        }
        // Around twice on a lap, so the passes wrap.
        let rounds = if closed { 2 } else { 1 };
        for _ in 0..rounds {
            for i in 0..n {
                let Some(j) = next(i, n, closed) else { continue };
                let (v, c) = (speed[i], curvature[i]);
                let a = settings.drive_with(v, k) * along(v, c);
                let reach = (v * v + 2.0 * a * step[i]).max(0.0).sqrt();
                speed[j] = speed[j].min(reach);
            }
        }
        for _ in 0..rounds {
            for i in (0..n).rev() {
                let Some(j) = next(i, n, closed) else { continue };
                let (v, c) = (speed[j], curvature[j]);
                let a = k * settings.braking_limit(v) * along(v, c);
                let reach = (v * v + 2.0 * a * step[i]).sqrt();
                speed[i] = speed[i].min(reach);
            }
        }
        SpeedPlan {
            speed,
            curvature,
            step,
            closed,
        }
    }

    /// The time (s) from the first point to the last (round to the first on a lap), each
    /// step at the mean of its ends' speeds.
    pub fn time(&self) -> f32 {
        let n = self.speed.len();
        (0..n)
            .filter_map(|i| next(i, n, self.closed).map(|j| (i, j)))
            .map(|(i, j)| self.step[i] / (0.5 * (self.speed[i] + self.speed[j])).max(1e-3))
            .sum()
    }
}

/// The point after `i` of `n`, wrapping when `closed`.
fn next(i: usize, n: usize, closed: bool) -> Option<usize> {
    if i + 1 < n {
        Some(i + 1)
    } else if closed {
        Some(0)
    } else {
        None
    }
}

fn distance(a: [f32; 2], b: [f32; 2]) -> f32 {
    crate::math::hypot(a[0] - b[0], a[1] - b[1])
}

/// The curvature (1/m) of the circle through `a`, `b` and `c`: `4·area / (|ab|·|bc|·|ca|)`.
fn circle_curvature(a: [f32; 2], b: [f32; 2], c: [f32; 2]) -> f32 {
    let cross = (b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0]);
    let d = distance(a, b) * distance(b, c) * distance(c, a);
    if d < 1e-9 { 0.0 } else { 2.0 * cross.abs() / d }
}
