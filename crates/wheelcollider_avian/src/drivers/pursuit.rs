//! Pure pursuit (Coulter, *Implementation of the Pure Pursuit Path Tracking Algorithm*,
//! CMU-RI-TR-92-01): steer the front axle onto the circle through the car and a point
//! a look-ahead distance ahead on the path, `δ = atan(2·L·sin α / l_d)` with `L` the
//! wheelbase, `α` the angle from the car's heading to the point and `l_d` its distance;
//! and a [`Path`] of points with the speed a car may hold at each (its corners'
//! `√(a_y/κ)`, braked for in time: typed, or the car's own plan, [`Path::with_plan`]).
//!
//! Physics-free: positions and headings in, a steer input out; its transcendentals are
//! the core's `math` (the same bits on every machine under `libm`, as a rollback needs). The test track's drivers
//! (`wheelcollider_track`), the `ai_path` example and the scene's traffic all steer
//! with [`pursuit_steer`].

use bevy::math::Vec3;
use wheelcollider_core::limits::STANDARD_GRAVITY;
use wheelcollider_core::math;
use wheelcollider_core::vehicle::VehicleSettings;

/// The steer input (−1..1, positive left) that puts the road wheels of the car with
/// `settings` at the pure-pursuit angle towards `target` (world, m; read on the ground
/// plane, `y` ignored), from `position` (world, m) heading `forward` (world; its
/// horizontal part is used), at `speed` (m/s, for the steering's speed-dependent lock).
/// The wheelbase is the first axle's ([`VehicleSettings::wheelbase_for`], at least
/// 0.5 m). A two-wheeler's steer input asks its rider for a lean
/// ([`TwoWheelerSettings::max_lean`](wheelcollider_core::vehicle::TwoWheelerSettings::max_lean)
/// at ±1): the lean that balances the circle's turn at `speed`, `tan φ' = v²·κ/g` with
/// the circle's curvature `κ = 2·sin α / l_d`, held on its tyres' crowns
/// ([`VehicleSettings::lean_for_resultant`]).
pub fn pursuit_steer(settings: &VehicleSettings, position: Vec3, forward: Vec3, target: Vec3, speed: f32) -> f32 {
    let to = (target - position).with_y(0.0);
    let f = forward.with_y(0.0).normalize_or_zero();
    let distance = to.length().max(1e-3);
    let alpha = math::atan2(f.cross(to).y, f.dot(to));
    if let Some(bike) = &settings.two_wheeler {
        let curvature = 2.0 * math::sin(alpha) / distance;
        let lean = settings
            .lean_for_resultant(math::atan(speed * speed * curvature / STANDARD_GRAVITY))
            .to_degrees();
        return (lean / bike.max_lean.max(1e-3)).clamp(-1.0, 1.0);
    }
    let wheelbase = settings.wheelbase_for(0).max(0.5);
    let angle = math::atan(2.0 * wheelbase * math::sin(alpha) / distance).to_degrees();
    (angle / settings.steering.lock_at(speed).max(1e-3)).clamp(-1.0, 1.0)
}

/// The curvature (1/m, positive left) of the pure-pursuit circle from `position`
/// heading `forward` through `target` (world, m; on the ground plane): `2·sin α / l_d`.
pub fn pursuit_curvature(position: Vec3, forward: Vec3, target: Vec3) -> f32 {
    let to = (target - position).with_y(0.0);
    let f = forward.with_y(0.0).normalize_or_zero();
    let distance = to.length().max(1e-3);
    2.0 * math::sin(math::atan2(f.cross(to).y, f.dot(to))) / distance
}

/// The look-ahead distance (m) at `speed` (m/s): `gain · speed`, within `min..=max`.
/// A longer one steers more smoothly and cuts corners more; the test track's drivers use
/// (0.6, 5, 30), the examples (0.5, 6, 25).
pub fn lookahead(speed: f32, gain: f32, min: f32, max: f32) -> f32 {
    (gain * speed).clamp(min, max)
}

/// A path of points on the ground (world, m), about evenly spaced, closed (a lap) or
/// open, with the speed a car may hold at each point (m/s).
#[derive(Clone, Debug, PartialEq)]
pub struct Path {
    points: Vec<Vec3>,
    speed: Vec<f32>,
    closed: bool,
}

impl Path {
    /// A path through `points` (at least 2), closed (the last joins the first) or open;
    /// every point's speed `top` (m/s) until [`with_speed_profile`](Self::with_speed_profile).
    ///
    /// # Panics
    /// With fewer than 2 points, or a point that is not finite.
    pub fn new(points: Vec<Vec3>, closed: bool, top: f32) -> Self {
        assert!(points.len() >= 2, "a path needs 2 points at least");
        assert!(points.iter().all(|p| p.is_finite()), "a path's points must be finite");
        let speed = vec![top; points.len()];
        Path { points, speed, closed }
    }

    /// The speed profile: at each point at most `top` (m/s) and the corner speed
    /// `√(lateral / κ)` (`lateral` in m/s²; the curvature `κ` from the circle through
    /// the point and its neighbours `span` points away), lowered so that a car braking at
    /// `decel` (m/s²) reaches every later point at its speed (two passes backwards, so a
    /// closed path's lap wraps).
    pub fn with_speed_profile(mut self, top: f32, lateral: f32, decel: f32, span: usize) -> Self {
        let n = self.len();
        let span = span.max(1);
        self.speed = (0..n)
            .map(|i| {
                let corner = match (self.neighbour(i, -(span as isize)), self.neighbour(i, span as isize)) {
                    (Some(a), Some(c)) => {
                        let b = self.points[i];
                        let (a, c) = (self.points[a], self.points[c]);
                        let k = 2.0 * (b - a).cross(c - b).length()
                            / ((b - a).length() * (c - b).length() * (c - a).length()).max(1e-6);
                        (lateral.max(0.0) / k.max(1e-4)).sqrt()
                    }
                    _ => top,
                };
                corner.min(top)
            })
            .collect();
        for _ in 0..2 {
            for i in (0..n).rev() {
                let Some(next) = self.neighbour(i, 1) else { continue };
                let ds = self.points[i].distance(self.points[next]);
                self.speed[i] =
                    self.speed[i].min((self.speed[next] * self.speed[next] + 2.0 * decel.max(0.0) * ds).sqrt());
            }
        }
        self
    }

    /// The speed profile the car with `settings` can drive, from its own tyres, loads,
    /// aero and engine (the core's [`SpeedPlan`](wheelcollider_core::vehicle::SpeedPlan):
    /// a quasi-steady-state lap of a point mass), using `aggression` of its grip
    /// (0.05..=1), each point's curvature read `span` points either side; an open path
    /// starts at `start` (m/s) and stops at its end when `stop`. The points' heights are
    /// left out (flat ground).
    pub fn with_plan(
        mut self,
        settings: &wheelcollider_core::vehicle::VehicleSettings,
        aggression: f32,
        span: usize,
        (start, stop): (f32, bool),
    ) -> Self {
        let flat: Vec<[f32; 2]> = self.points.iter().map(|p| [p.x, p.z]).collect();
        let plan =
            wheelcollider_core::vehicle::SpeedPlan::new(settings, &flat, self.closed, (start, stop), aggression, span);
        self.speed = plan.speed;
        self
    }

    /// The number of points.
    pub fn len(&self) -> usize {
        self.points.len()
    }

    /// Never: a path has 2 points at least.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// Whether the last point joins the first.
    pub fn closed(&self) -> bool {
        self.closed
    }

    /// The points (world, m).
    pub fn points(&self) -> &[Vec3] {
        &self.points
    }

    /// The speed (m/s) to hold at point `i`.
    pub fn speed(&self, i: usize) -> f32 {
        self.speed[i.min(self.len() - 1)]
    }

    /// The point `k` points from `i` (negative: back), wrapping on a closed path; `None`
    /// past an open path's ends.
    fn neighbour(&self, i: usize, k: isize) -> Option<usize> {
        let n = self.len() as isize;
        let j = i as isize + k;
        if self.closed {
            Some(j.rem_euclid(n) as usize)
        } else {
            (0..n).contains(&j).then_some(j as usize)
        }
    }

    /// The index of the point nearest `p` (on the ground plane), searched forward from
    /// `from` over `window` points; over the whole path when that point is more than
    /// `far` (m) from `p` (a car that left the path, or its first step).
    pub fn nearest(&self, p: Vec3, from: usize, window: usize, far: f32) -> usize {
        let flat = |i: usize| self.points[i].with_y(p.y).distance_squared(p);
        let nearest_of = |it: &mut dyn Iterator<Item = usize>| it.min_by(|&a, &b| flat(a).total_cmp(&flat(b)));
        let from = from.min(self.len() - 1);
        let mut ahead = (0..window.max(1)).map_while(|k| self.neighbour(from, k as isize));
        match nearest_of(&mut ahead) {
            Some(i) if flat(i) < far * far => i,
            _ => nearest_of(&mut (0..self.len())).unwrap_or(0),
        }
    }

    /// The point `distance` (m) along the path from point `i`, and its index (an open
    /// path's last point past its end).
    pub fn ahead(&self, i: usize, distance: f32) -> (usize, Vec3) {
        let (mut j, mut left) = (i.min(self.len() - 1), distance);
        while left > 0.0 {
            let Some(next) = self.neighbour(j, 1) else { break };
            left -= self.points[j].distance(self.points[next]);
            j = next;
        }
        (j, self.points[j])
    }

    /// The distance (m) along the path from point `a` forward to point `b` (wrapping on
    /// a closed path; 0 on an open one when `b` is behind `a`).
    pub fn gap(&self, a: usize, b: usize) -> f32 {
        let mut d = 0.0;
        let mut j = a;
        while j != b {
            let Some(next) = self.neighbour(j, 1) else { return 0.0 };
            d += self.points[j].distance(self.points[next]);
            j = next;
        }
        d
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A circle of radius `r` (m) as `n` points, counter-clockwise seen from above.
    fn circle(r: f32, n: usize) -> Vec<Vec3> {
        (0..n)
            .map(|i| {
                let a = std::f32::consts::TAU * i as f32 / n as f32;
                Vec3::new(r * a.cos(), 0.0, -r * a.sin())
            })
            .collect()
    }

    /// Pure pursuit's angle is the circle's: a point on a circle of radius R through the
    /// car (at the circle's start, heading along it) gives `atan(L/R)`.
    #[test]
    fn the_steer_is_the_circle_through_the_target() {
        let mut settings = VehicleSettings::preset("road").unwrap();
        settings.steering.high_speed_lock = 1.0;
        let (r, l) = (40.0f32, settings.wheelbase_for(0));
        // The car at (r, 0, 0) heading −Z (counter-clockwise seen from above: left).
        let target = Vec3::new(r * 0.5f32.cos(), 0.0, -r * 0.5f32.sin());
        let steer = pursuit_steer(&settings, Vec3::new(r, 0.0, 0.0), Vec3::NEG_Z, target, 10.0);
        let expected = (l / r).atan().to_degrees() / settings.steering.max_angle;
        assert!((steer - expected).abs() < 1e-4 * expected, "{steer} against {expected}");
        // Mirrored about the heading: right, by as much.
        let mirrored = Vec3::new(2.0 * r - target.x, 0.0, target.z);
        let right = pursuit_steer(&settings, Vec3::new(r, 0.0, 0.0), Vec3::NEG_Z, mirrored, 10.0);
        assert!(
            (right + expected).abs() < 1e-4 * expected,
            "{right} against {}",
            -expected
        );
    }

    /// The speed profile of a circle is its corner speed `√(a_y·R)` everywhere; an open
    /// straight into a stop brakes at `decel`: `v² = 2·a·d` to its end.
    #[test]
    fn the_speed_profile_is_the_corner_speed_and_the_braking_curve() {
        let path = Path::new(circle(50.0, 157), true, 100.0).with_speed_profile(100.0, 8.0, 5.0, 5);
        for i in 0..path.len() {
            let v = path.speed(i);
            assert!((v - (8.0f32 * 50.0).sqrt()).abs() < 0.02 * v, "point {i}: {v}");
        }
        // A straight of 100 m ending at a point of a tight circle's speed: from there
        // back, v = √(v_end² + 2·a·d).
        let mut points: Vec<Vec3> = (0..=50).map(|i| Vec3::new(0.0, 0.0, -2.0 * i as f32)).collect();
        points.extend([Vec3::new(2.0, 0.0, -102.0), Vec3::new(4.0, 0.0, -100.0)]);
        let path = Path::new(points, false, 50.0).with_speed_profile(50.0, 8.0, 5.0, 1);
        let end = path.speed(50);
        let d = 40.0;
        let v = path.speed(30);
        let expected = (end * end + 2.0 * 5.0 * d).sqrt();
        assert!((v - expected).abs() < 1e-3 * expected, "{v} against {expected}");
    }

    #[test]
    fn nearest_ahead_and_gap_wrap_on_a_closed_path() {
        let path = Path::new(circle(10.0, 63), true, 10.0);
        let step = path.points()[0].distance(path.points()[1]);
        assert_eq!(path.nearest(path.points()[60] * 1.1, 55, 10, 5.0), 60);
        // Far from the window: the whole path is searched.
        assert_eq!(path.nearest(path.points()[20], 55, 5, 1.0), 20);
        assert_eq!(path.ahead(60, 4.5 * step).0, 2);
        assert!((path.gap(60, 2) - 5.0 * step).abs() < 1e-4);
        let open = Path::new(path.points().to_vec(), false, 10.0);
        assert_eq!(open.ahead(60, 10.0 * step).0, 62);
        assert_eq!(open.gap(60, 2), 0.0);
    }
}
