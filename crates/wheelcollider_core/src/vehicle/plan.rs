//! The speed a car can hold along a path, from the car itself: a quasi-steady-state
//! lap simulation of a point mass (Milliken & Milliken, *Race Car Vehicle Dynamics*,
//! ch. 2; the "apex speed, then accelerate and brake between" method). The car's
//! g-g envelope is read from its own settings, not typed:
//!
//! - **across**, [`VehicleSettings::lateral_limit`]: the steady turn's most lateral
//!   acceleration, each axle carrying its share of the turn's force (the yaw moments of
//!   the tyres' aligning torques and of a locking differential's drive moving the
//!   shares; a steered axle's wheels pushing at their steer) at one slip for both its
//!   wheels (a light wheel peaks at a smaller slip than a loaded one; the Ackermann
//!   splits the steer the slips add), on their lateral curves at their loads (static,
//!   the axle's downforce at the speed, the lateral load transfer from the roll
//!   stiffness, the roll centres and the body's roll, the load sensitivity read at each
//!   load), the driven axles also carrying the drive that holds the speed (the road
//!   load and the tyres' slip drag, split by their differentials) out of their friction
//!   ellipses: the first axle to saturate limits;
//! - **braking**, [`VehicleSettings::braking_limit`]: the brakes' force until the first
//!   axle to reach its longitudinal grip does (the brake balance), no more than the
//!   brakes' most torque over the wheels' radius, plus the drag and the rolling
//!   resistance;
//! - **driving**, [`VehicleSettings::drive_limit`]: the best gear's full-throttle
//!   force at the speed over the mass with the wheels', the gearbox's and the engine's
//!   inertias reflected, no more than the driven wheels' grip, less the road load.
//!
//! The braking and drive limits read static loads (no longitudinal load transfer), and
//! none reads camber, compliance steer or an assist (`docs/vehicle.md` compares each
//! shipped car's envelope with what it holds on the runner's circle). [`SpeedPlan`]
//! reads each point's
//! curvature, caps the speed where the lateral limit allows no more (`v²·κ = a_y(v)`,
//! downforce raising it with the speed), then passes forwards (what the drive gives
//! from each point to the next) and backwards (what the brakes give), each sharing the
//! friction circle with the corner's lateral acceleration: `a_x = a_x,max·√(1 −
//! (a_y/a_y,max)²)`. The core's `tests/it/plan.rs` holds it to the closed forms.

use super::steady_turn::SteadyTurn;
use super::*;
use crate::WheelSettings;
use crate::math;

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
    /// give the axle's share of the turn's force. The terms, each solved with the others
    /// in rounds (`vehicle/steady_turn.rs`):
    ///
    /// - **The shares**: `m·a·W_i/W` (the static load's share: the yaw moment
    ///   balanced), the first axle's raised and the last's lowered by `M/L` for the yaw
    ///   moment `M` against the turn of the tyres' aligning torques (each wheel's force a
    ///   pneumatic trail `t₀·(1 − σ/σ*)` behind its contact) and of the driven wheels'
    ///   forces; a steered axle's over `cos δ` (its wheels push at the steer `δ` to the
    ///   body).
    /// - **The loads**: static, the axles' downforce at `v`, moved outwards by the
    ///   lateral load transfer `ΔF_i = a/t_i·(W_i/g·h_i + m·d·K_i/ΣK · K/(K − m·g·d))` on
    ///   an axle of track `t_i`, roll centre `h_i` and roll stiffness `K_i`, `d` the
    ///   centre of mass' height over the roll axis (Milliken & Milliken, *Race Car
    ///   Vehicle Dynamics*, §18.4; the last factor the body's roll moving its centre of
    ///   mass outwards).
    /// - **One slip for an axle's wheels**: each wheel its lateral curve at its load (the
    ///   load sensitivity and the stiffness law read there: a light wheel peaks at a
    ///   smaller slip than a loaded one), a steered wheel also at its steer past the
    ///   axle's: the Ackermann linkage splits the whole centre angle
    ///   (`δ = atan(L/R) + α_f − α_r`, `R = v²/a`) between the wheels, where their ways
    ///   round the turn differ by the kinematic angle alone.
    /// - **The drive that holds the speed**: the road load
    ///   ([`resistance_force`](Self::resistance_force)) and the tyres' slip drag (each
    ///   axle's force times `sin α` at its slip), split by the drive shares and each
    ///   driven axle's differential (an open one equally, its light inner wheel spinning
    ///   first; a locking one more to the slower inner wheel, as far as its capacity and
    ///   the inner wheel's room go), out of each wheel's friction ellipse:
    ///   `√(1 − (F_x/F_x,max)²)` of its lateral force.
    ///
    /// Left out: camber, the compliance steer's toe, the front's own steering geometry.
    /// With no load sensitivity and knife-stiff tyres it is the point mass's `μ·g·cos δ`
    /// (the core's `tests/it/plan.rs`, which holds each term to a closed form).
    pub fn lateral_limit(&self, v: f32) -> f32 {
        let m = self.chassis.mass.max(1e-3);
        let turn = SteadyTurn::new(self, v);
        let holds = |a: f32| turn.holds(a);
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

    /// [`drive_limit`](Self::drive_limit) using `share` of the driven wheels' grip. The
    /// engine's force in a gear also turns the wheels, the gearbox and the engine faster:
    /// it moves the car's mass plus their inertias reflected to the road,
    /// `ΣJ_w/r² + (J_e + J_g)·i²/r²` (`i` the gear's total ratio); a force the tyres'
    /// grip caps moves the car's mass alone (the engine has torque to spare).
    fn drive_with(&self, v: f32, share: f32) -> f32 {
        let m = self.chassis.mass.max(1e-3);
        let r = self.drive_radius().max(1e-3);
        let wheels: f32 = self
            .axles
            .iter()
            .map(|a| a.wheel_count() as f32 * a.wheel.inertia() / (a.wheel.radius() * a.wheel.radius()).max(1e-4))
            .sum();
        let resistance = self.resistance_force(v);
        let engine = (1..=self.gearbox.top_gear())
            .map(|g| {
                let ratio = self.gearbox.total_ratio(g);
                let spun = (self.engine.inertia + self.gearbox.inertia) * ratio * ratio / (r * r);
                (self.drive_force(g, v) - resistance) / (m + wheels + spun)
            })
            .fold(f32::NEG_INFINITY, f32::max);
        let grip = (share * self.grip_force(v, true, |w| w.longitudinal_tyre().max_value()) - resistance) / m;
        if engine.is_finite() {
            engine.min(grip)
        } else {
            -resistance / m
        }
    }
}

/// How many speed intervals a [`SpeedPlan`] reads the lateral limit at, from rest to the
/// top speed.
const LIMIT_SPEEDS: usize = 48;

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
        let top = settings.predicted_top_speed().0;
        // The lateral limit read once at `LIMIT_SPEEDS` speeds up to the top speed, and
        // between them linearly (it changes with the speed only through the downforce
        // and the drag).
        let ceiling = top.max(1.0);
        let limits: Vec<f32> = (0..=LIMIT_SPEEDS)
            .map(|j| settings.lateral_limit(ceiling * j as f32 / LIMIT_SPEEDS as f32))
            .collect();
        let lateral = |v: f32| {
            let x = (v / ceiling).clamp(0.0, 1.0) * LIMIT_SPEEDS as f32;
            let j = (x as usize).min(LIMIT_SPEEDS - 1);
            k * (limits[j] + (x - j as f32) * (limits[j + 1] - limits[j]))
        };
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
    math::hypot(a[0] - b[0], a[1] - b[1])
}

/// The curvature (1/m) of the circle through `a`, `b` and `c`: `4·area / (|ab|·|bc|·|ca|)`.
fn circle_curvature(a: [f32; 2], b: [f32; 2], c: [f32; 2]) -> f32 {
    let cross = (b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0]);
    let d = distance(a, b) * distance(b, c) * distance(c, a);
    if d < 1e-9 { 0.0 } else { 2.0 * cross.abs() / d }
}
