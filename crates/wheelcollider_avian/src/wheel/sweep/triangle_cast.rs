//! Closed-form casts of a wheel's sphere or cylinder against one triangle: what the
//! sweep does on heightfields and triangle meshes, triangle by triangle, in place of
//! parry's general shape cast (GJK-based time of impact, `parry::query::cast_shapes`),
//! which was 75–95 % of a shape wheel's cost there.
//!
//! A convex shape translating along a line meets a convex set over one interval of
//! time `[t_in, t_out]`: its ends are contacts, and every contact between a feature of
//! the wheel and a feature of the triangle lies in it. So each feature pair's contact
//! times are solved in closed form (a plane crossing, a point on a sphere or a circle,
//! a line tangent to a circle: linear or quadratic in t), both roots kept when they
//! are valid (the contact point inside both features), and `t_in` / `t_out` are their
//! smallest and largest. `t_in > 0` is a hit; `t_in ≤ 0 ≤ t_out`, a cast that started
//! inside (which the wheel's ground filter refuses, as it refuses parry's
//! "penetrating" status).
//!
//! | wheel | triangle | contact |
//! | --- | --- | --- |
//! | sphere | face | the plane at distance r, the foot inside the triangle |
//! | sphere | edge | the line at distance r, the foot inside the segment |
//! | sphere | vertex | the vertex at distance r |
//! | cylinder | face | the cylinder's support point along ∓n on the plane, inside the triangle |
//! | cylinder side | vertex, edge | the point, or the edge's line, at distance R from the axis, within the width |
//! | cylinder cap | vertex | the vertex on the cap's plane, within the radius |
//! | cylinder rim | edge | the edge's crossing of the cap's plane on the rim circle |
//!
//! These are all the ways a cylinder and a triangle can first touch: a triangle's face
//! is met by a support point, a vertex can only touch the side or a cap, and an edge
//! the side's surface or a rim (an edge reaches a cap's flat face first at a vertex or
//! at the rim). The returned normal is the triangle's side of the contact (pointing
//! from the triangle towards the wheel), as parry's `normal1`, and the point is on the
//! triangle. Tested against parry on random triangles, edges and vertices included
//! (`tests` below).

use bevy::math::Vec3;

/// What a cast of a wheel shape against one triangle found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum TriangleCast {
    /// No contact within the reach.
    Miss,
    /// The shape overlaps the triangle where it starts.
    Overlap,
    /// The first contact: how far the shape travelled (m), the point on the triangle
    /// and the normal from the triangle towards the shape (world, unit).
    Hit { distance: f32, point: Vec3, normal: Vec3 },
}

/// A wheel shape the closed forms handle.
#[derive(Clone, Copy, Debug)]
pub(crate) enum WheelShape {
    /// A sphere of this radius (m).
    Sphere(f32),
    /// A cylinder: radius (m), half its width (m) and its axle (world, unit).
    Cylinder { radius: f32, half_width: f32, axle: Vec3 },
}

impl WheelShape {
    /// Half the size of the shape's axis-aligned box (m), in closed form (parry finds a
    /// turned cylinder's from six support points).
    pub(crate) fn half_extents(self) -> Vec3 {
        match self {
            WheelShape::Sphere(r) => Vec3::splat(r),
            WheelShape::Cylinder {
                radius,
                half_width,
                axle,
            } => {
                let across = (Vec3::ONE - axle * axle).max(Vec3::ZERO);
                axle.abs() * half_width + Vec3::new(across.x.sqrt(), across.y.sqrt(), across.z.sqrt()) * radius
            }
        }
    }
}

/// Below this, a denominator or a quadratic's leading term counts as zero.
const EPS: f32 = 1e-9;

/// The contact interval found so far: the smallest and largest contact times, and the
/// point and normal of the smallest.
struct Interval {
    t_in: f32,
    t_out: f32,
    point: Vec3,
    normal: Vec3,
}

impl Interval {
    fn new() -> Self {
        Self {
            t_in: f32::INFINITY,
            t_out: f32::NEG_INFINITY,
            point: Vec3::ZERO,
            normal: Vec3::ZERO,
        }
    }

    /// A valid contact at `t`; `at` gives its point and normal when it is the earliest.
    #[inline]
    fn contact(&mut self, t: f32, at: impl FnOnce() -> (Vec3, Vec3)) {
        if !t.is_finite() {
            return;
        }
        self.t_out = self.t_out.max(t);
        if t < self.t_in {
            self.t_in = t;
            (self.point, self.normal) = at();
        }
    }

    fn result(self, max_distance: f32) -> TriangleCast {
        if self.t_in > max_distance || self.t_out < 0.0 || !self.t_in.is_finite() {
            TriangleCast::Miss
        } else if self.t_in <= 0.0 {
            TriangleCast::Overlap
        } else {
            TriangleCast::Hit {
                distance: self.t_in,
                point: self.point,
                normal: self.normal.normalize_or_zero(),
            }
        }
    }
}

/// The real roots of `a·t² + 2b·t + c = 0` (`a > 0`), numerically stable.
#[inline]
fn roots(a: f32, b: f32, c: f32) -> Option<[f32; 2]> {
    if a <= EPS {
        return None;
    }
    let disc = b * b - a * c;
    if disc < 0.0 {
        return None;
    }
    let q = -(b + b.signum() * disc.sqrt());
    if q.abs() <= EPS {
        // b = 0 and c = 0: a double root at 0.
        return Some([0.0, 0.0]);
    }
    Some([q / a, c / q])
}

/// Whether `p` (on the triangle's plane) lies inside the triangle `[a, b, c]` with
/// normal `n` (not normalised), edges included.
#[inline]
fn inside(p: Vec3, [a, b, c]: [Vec3; 3], n: Vec3) -> bool {
    let tol = -1e-7 * n.length_squared();
    (b - a).cross(p - a).dot(n) >= tol && (c - b).cross(p - b).dot(n) >= tol && (a - c).cross(p - c).dot(n) >= tol
}

const EDGES: [(usize, usize); 3] = [(0, 1), (1, 2), (2, 0)];

/// Casts `shape`, centred at `center`, along the unit `direction` up to `max_distance`
/// (m) against the triangle `tri` (world).
pub(crate) fn cast(
    shape: WheelShape,
    center: Vec3,
    direction: Vec3,
    max_distance: f32,
    tri: [Vec3; 3],
) -> TriangleCast {
    if let Some(quick) = plane_first(shape, center, direction, max_distance, tri) {
        return quick;
    }
    let mut interval = Interval::new();
    match shape {
        WheelShape::Sphere(r) => sphere(&mut interval, r, center, direction, tri),
        WheelShape::Cylinder {
            radius,
            half_width,
            axle,
        } => cylinder(&mut interval, (radius, half_width, axle), center, direction, tri),
    }
    interval.result(max_distance)
}

/// The shape's support point along the unit `u`, from its centre.
#[inline]
fn support(shape: WheelShape, u: Vec3) -> Vec3 {
    match shape {
        WheelShape::Sphere(r) => r * u,
        WheelShape::Cylinder {
            radius,
            half_width,
            axle,
        } => {
            let along = u.dot(axle);
            along.signum() * half_width * axle + radius * (u - along * axle).normalize_or_zero()
        }
    }
}

/// The common case first, exactly: a shape wholly on one side of the triangle's plane
/// and moving towards it touches the plane first at its support point; no contact with
/// the triangle can come before that. So when that point lies inside the triangle it
/// is the first contact, and when it comes beyond the reach nothing can be hit: the
/// other feature pairs are not needed. `None` when neither holds (or the shape starts
/// across the plane).
#[inline]
fn plane_first(shape: WheelShape, center: Vec3, d: Vec3, max_distance: f32, tri: [Vec3; 3]) -> Option<TriangleCast> {
    let n = (tri[1] - tri[0]).cross(tri[2] - tri[0]);
    let len = n.length();
    if len <= EPS {
        return None;
    }
    let unit = n / len;
    let (s0, dn) = ((center - tri[0]).dot(unit), d.dot(unit));
    // Moving towards the plane from the side it starts on.
    if s0 == 0.0 || dn * s0 >= 0.0 {
        return None;
    }
    let side = s0.signum();
    let nearest = center + support(shape, -side * unit);
    let gap = (nearest - tri[0]).dot(unit);
    if gap * side <= 0.0 {
        return None;
    }
    let t = -gap / dn;
    if t > max_distance {
        return Some(TriangleCast::Miss);
    }
    let point = nearest + t * d;
    inside(point, tri, n).then_some(TriangleCast::Hit {
        distance: t,
        point,
        normal: side * unit,
    })
}

/// The sphere's contacts with the face, the edges and the vertices.
fn sphere(iv: &mut Interval, r: f32, c: Vec3, d: Vec3, tri: [Vec3; 3]) {
    let p = |t: f32| c + t * d;
    let n = (tri[1] - tri[0]).cross(tri[2] - tri[0]);
    let len = n.length();
    if len > EPS {
        let n = n / len;
        let (s0, dn) = ((c - tri[0]).dot(n), d.dot(n));
        if dn.abs() > EPS {
            for side in [r, -r] {
                let t = (side - s0) / dn;
                let foot = p(t) - side * n;
                if inside(foot, tri, n) {
                    iv.contact(t, || (foot, side.signum() * n));
                }
            }
        }
    }
    for (i, j) in EDGES {
        let (a, e) = (tri[i], tri[j] - tri[i]);
        let ee = e.length_squared();
        if ee <= EPS {
            continue;
        }
        let w0 = c - a;
        let u = w0 - (w0.dot(e) / ee) * e;
        let v = d - (d.dot(e) / ee) * e;
        if let Some(ts) = roots(v.dot(v), u.dot(v), u.dot(u) - r * r) {
            for t in ts {
                let s = (w0 + t * d).dot(e) / ee;
                if (0.0..=1.0).contains(&s) {
                    let q = a + s * e;
                    iv.contact(t, || (q, p(t) - q));
                }
            }
        }
    }
    for v in tri {
        let w0 = c - v;
        if let Some(ts) = roots(1.0, w0.dot(d), w0.length_squared() - r * r) {
            for t in ts {
                iv.contact(t, || (v, p(t) - v));
            }
        }
    }
}

/// The cylinder's contacts: the face with its support points, each vertex with the
/// side and the caps, each edge with the side and the rims.
fn cylinder(iv: &mut Interval, (radius, h, a): (f32, f32, Vec3), c: Vec3, d: Vec3, tri: [Vec3; 3]) {
    let da = d.dot(a);
    let dp = d - da * a;
    let axis = |t: f32| c + t * d;
    // The face, met by the support point along ∓n.
    let n = (tri[1] - tri[0]).cross(tri[2] - tri[0]);
    let dn = d.dot(n);
    if n.length_squared() > EPS && dn.abs() > EPS * n.length() {
        for u in [n, -n] {
            let perp = u - u.dot(a) * a;
            let support = u.dot(a).signum() * h * a + radius * perp.normalize_or_zero();
            let t = (tri[0] - c - support).dot(n) / dn;
            let s = axis(t) + support;
            if inside(s, tri, n) {
                let toward = if (axis(t) - s).dot(n) >= 0.0 { n } else { -n };
                iv.contact(t, || (s, toward));
            }
        }
    }
    // Vertices: the side (a point at distance R from the axis, within the width) and the
    // caps (on a cap's plane, within the radius).
    for v in tri {
        let w = v - c;
        let (x0, rho0) = (w.dot(a), w - w.dot(a) * a);
        if let Some(ts) = roots(dp.dot(dp), -rho0.dot(dp), rho0.dot(rho0) - radius * radius) {
            for t in ts {
                if (x0 - t * da).abs() <= h {
                    iv.contact(t, || (v, -(rho0 - t * dp)));
                }
            }
        }
        if da.abs() > EPS {
            for cap in [h, -h] {
                let t = (x0 - cap) / da;
                if (rho0 - t * dp).length_squared() <= radius * radius {
                    iv.contact(t, || (v, -cap.signum() * a));
                }
            }
        }
    }
    for (i, j) in EDGES {
        cylinder_edge(iv, (radius, h, a), c, d, [tri[i], tri[j]]);
    }
}

/// One edge against the cylinder's side (its line at distance R from the axis, the
/// touching point inside the segment and within the width) and its two rims (the edge's
/// crossing of a cap's plane on the rim circle).
fn cylinder_edge(iv: &mut Interval, (radius, h, a): (f32, f32, Vec3), c: Vec3, d: Vec3, [p0, p1]: [Vec3; 2]) {
    let e = p1 - p0;
    let (da, ea) = (d.dot(a), e.dot(a));
    let (dp, ep) = (d - da * a, e - ea * a);
    let w = p0 - c;
    let (xa, rho_a) = (w.dot(a), w - w.dot(a) * a);
    let epp = ep.length_squared();
    if epp <= 1e-10 * e.length_squared() {
        // Along the axle (a heightfield's row under a wheel heading along the other
        // axis): the edge projects to one point, a line contact with the side while its
        // axial range meets the width.
        if let Some(ts) = roots(dp.dot(dp), -rho_a.dot(dp), rho_a.dot(rho_a) - radius * radius) {
            for t in ts {
                let (lo, hi) = (xa.min(xa + ea) - t * da, xa.max(xa + ea) - t * da);
                if lo <= h && hi >= -h {
                    let s = if ea.abs() > EPS {
                        ((0.0f32.clamp(lo, hi) - (xa - t * da)) / ea).clamp(0.0, 1.0)
                    } else {
                        0.0
                    };
                    iv.contact(t, || (p0 + s * e, -(rho_a - t * dp)));
                }
            }
        }
    } else {
        // g(t) = ρ_A − t·d⊥; its part across the edge's projected direction m.
        let m = ep / epp.sqrt();
        let u = rho_a - rho_a.dot(m) * m;
        let v = dp - dp.dot(m) * m;
        if let Some(ts) = roots(v.dot(v), -u.dot(v), u.dot(u) - radius * radius) {
            for t in ts {
                let g = rho_a - t * dp;
                let s = -g.dot(ep) / epp;
                if (0.0..=1.0).contains(&s) && (xa + s * ea - t * da).abs() <= h {
                    iv.contact(t, || (p0 + s * e, -(g + s * ep)));
                }
            }
        }
    }
    if ea.abs() <= EPS {
        return;
    }
    for cap in [h, -h] {
        // s(t) = (cap − x_A + t·d_a) / e_a; ρ(t) = P + t·Q.
        let p = rho_a + ((cap - xa) / ea) * ep;
        let q = (da / ea) * ep - dp;
        if let Some(ts) = roots(q.dot(q), p.dot(q), p.dot(p) - radius * radius) {
            for t in ts {
                // Newton steps on the point's distance from the axis, evaluated
                // directly: P and Q lose digits when the edge is nearly across the axle.
                let radial_at = |t: f32| {
                    let s = (cap - xa + t * da) / ea;
                    let w = p0 + s * e - (c + t * d);
                    w - w.dot(a) * a
                };
                let mut t = t;
                for _ in 0..3 {
                    let rho = radial_at(t);
                    let slope = 2.0 * rho.dot(q);
                    if slope.abs() <= EPS {
                        break;
                    }
                    t -= (rho.length_squared() - radius * radius) / slope;
                }
                let s = (cap - xa + t * da) / ea;
                if (0.0..=1.0).contains(&s) {
                    iv.contact(t, || {
                        let point = p0 + s * e;
                        let radial = radial_at(t);
                        let tangent = a.cross(radial);
                        let mut n = e.cross(tangent);
                        if n.length_squared() <= EPS * EPS {
                            n = -radial;
                        }
                        let toward = axis_point(c, d, t) - point;
                        (point, if n.dot(toward) >= 0.0 { n } else { -n })
                    });
                }
            }
        }
    }
}

#[inline]
fn axis_point(c: Vec3, d: Vec3, t: f32) -> Vec3 {
    c + t * d
}

#[cfg(test)]
mod tests {
    use super::*;
    use avian3d::parry;
    use bevy::math::Quat;

    /// A small deterministic generator (xorshift).
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> f32 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 >> 40) as f32 / (1u64 << 24) as f32
        }
        fn range(&mut self, lo: f32, hi: f32) -> f32 {
            lo + (hi - lo) * self.next()
        }
        fn vec(&mut self, s: f32) -> Vec3 {
            Vec3::new(self.range(-s, s), self.range(-s, s), self.range(-s, s))
        }
    }

    /// Parry's answer for the same cast: the wheel's shape at `center` turned by `rot`
    /// moving along `d`, the triangle still.
    fn parry_cast(
        shape: &dyn parry::shape::Shape,
        center: Vec3,
        rot: Quat,
        d: Vec3,
        max: f32,
        tri: [Vec3; 3],
    ) -> TriangleCast {
        let triangle = parry::shape::Triangle::new(tri[0], tri[1], tri[2]);
        let options = parry::query::ShapeCastOptions {
            max_time_of_impact: max,
            target_distance: 0.0,
            stop_at_penetration: true,
            compute_impact_geometry_on_penetration: true,
        };
        let id = parry::math::Pose3::IDENTITY;
        let pose = parry::math::Pose3::from_parts(center, rot);
        match parry::query::cast_shapes(&id, Vec3::ZERO, &triangle, &pose, d, shape, options) {
            Ok(Some(hit)) if hit.status == parry::query::ShapeCastStatus::PenetratingOrWithinTargetDist => {
                TriangleCast::Overlap
            }
            Ok(Some(hit)) => TriangleCast::Hit {
                distance: hit.time_of_impact,
                point: hit.witness1,
                normal: hit.normal1,
            },
            _ => TriangleCast::Miss,
        }
    }

    /// The angle between two vectors (rad), accurate near 0 (`acos` of the dot product
    /// is not, in f32: 3e-4 rad for identical unit vectors).
    fn angle(a: Vec3, b: Vec3) -> f32 {
        a.cross(b).length().atan2(a.dot(b))
    }

    /// The exact normal of a contact at `point` with the shape centred at `center`,
    /// where the shape's surface is smooth there: the sphere's, the cylinder's side
    /// (radial) or a cap (along the axle). `None` on a cylinder's rim (an edge-on-edge
    /// contact, whose normal also depends on the triangle's edge).
    fn exact_normal(shape: WheelShape, center: Vec3, point: Vec3) -> Option<Vec3> {
        let w = center - point;
        match shape {
            WheelShape::Sphere(_) => Some(w.normalize()),
            WheelShape::Cylinder {
                radius,
                half_width,
                axle,
            } => {
                let x = w.dot(axle);
                let rho = w - x * axle;
                let on_side = (rho.length() - radius).abs() < 1e-4 && x.abs() < half_width - 1e-4;
                let on_cap = (x.abs() - half_width).abs() < 1e-4 && rho.length() < radius - 1e-4;
                if on_side {
                    Some(rho.normalize())
                } else if on_cap {
                    Some(x.signum() * axle)
                } else {
                    None
                }
            }
        }
    }

    /// Whether `point` lies on the triangle and on the shape's surface with the shape
    /// centred at `center` (to 5e-5 m, the f32 round-off of a rim's quadratic at 1–2 m
    /// of travel): the shapes touch there.
    fn touches(shape: WheelShape, center: Vec3, point: Vec3, tri: [Vec3; 3]) -> bool {
        let n = (tri[1] - tri[0]).cross(tri[2] - tri[0]);
        let on_plane = ((point - tri[0]).dot(n) / n.length()).abs() < 5e-5;
        let tol = 5e-5 * n.length();
        let on_triangle = (0..3).all(|i| (tri[(i + 1) % 3] - tri[i]).cross(point - tri[i]).dot(n) / n.length() >= -tol);
        let w = point - center;
        let on_shape = match shape {
            WheelShape::Sphere(r) => (w.length() - r).abs() < 5e-5,
            WheelShape::Cylinder {
                radius,
                half_width,
                axle,
            } => {
                let x = w.dot(axle).abs();
                let rho = (w - w.dot(axle) * axle).length();
                x < half_width + 5e-5 && rho < radius + 5e-5 && (x > half_width - 5e-5 || rho > radius - 5e-5)
            }
        };
        on_plane && on_triangle && on_shape
    }

    /// The signed distance between the wheel shape at `center` and the triangle,
    /// negative when they overlap (parry's contact query; near contact it is mostly
    /// good to a few 1e-5 m, where its distance and boolean queries are off by up to
    /// 3e-4 m, but now and then jumps by 3e-4 m: asked five times, 1e-5 m apart, it is
    /// taken by majority).
    fn gap(shape: &dyn parry::shape::Shape, center: Vec3, rot: Quat, tri: [Vec3; 3]) -> f32 {
        let triangle = parry::shape::Triangle::new(tri[0], tri[1], tri[2]);
        let pose = parry::math::Pose3::from_parts(center, rot);
        parry::query::contact(&parry::math::Pose3::IDENTITY, &triangle, &pose, shape, 0.01)
            .unwrap()
            .map_or(f32::INFINITY, |c| c.dist)
    }

    /// Random triangles around a wheel, cast from random heights along a random
    /// direction (mostly down), each answer against parry's:
    /// - the same outcome (hit, start inside, miss);
    /// - the distance exact: the point found lies on the triangle and on the wheel's
    ///   surface there (to 5e-5 m: they touch), and 1e-4 m before it the shapes are
    ///   apart (parry's contact query): no earlier contact was missed;
    /// - a miss where parry's cast reports a grazing hit only if parry's distance query
    ///   says the shapes never meet within 5 mm of that hit;
    /// - the normal exact where the wheel's surface is smooth at the contact (the
    ///   sphere, the cylinder's side, a cap: 1e-4 rad), the triangle's own where it is
    ///   a face contact;
    /// - parry's cast is not a reference to 1e-4: its GJK time of impact stops early
    ///   by up to a centimetre when a vertex or an edge meets the curved surface (the
    ///   checks above show the shapes still apart there), and its normal there is a
    ///   polyhedral approximation, off by up to 0.3 rad. How far it is from ours is
    ///   printed.
    ///
    /// Returns (hits, overlaps, misses, hits on an edge or a vertex).
    fn compare(make: impl Fn(&mut Rng) -> (WheelShape, Box<dyn parry::shape::Shape>, Quat), seed: u64) -> [u32; 4] {
        let mut rng = Rng(seed);
        let mut counts = [0u32; 4];
        let (mut worst_t, mut worst_face, mut worst_edge) = (0.0f32, 0.0f32, 0.0f32);
        let mut false_hits = 0;
        for case in 0..20_000 {
            let (shape, parry_shape, rot) = make(&mut rng);
            let tri = [rng.vec(0.8), rng.vec(0.8), rng.vec(0.8)].map(|v| v + Vec3::new(0.0, -0.5, 0.0));
            let center = Vec3::new(rng.range(-0.6, 0.6), rng.range(0.0, 1.0), rng.range(-0.6, 0.6));
            let d = (Vec3::NEG_Y + 0.3 * rng.vec(1.0)).normalize();
            let ours = cast(shape, center, d, 2.0, tri);
            let theirs = parry_cast(parry_shape.as_ref(), center, rot, d, 2.0, tri);
            let what =
                format!("case {case}: ours {ours:?}, parry {theirs:?}; {shape:?} {tri:?} from {center} along {d}");
            match (ours, theirs) {
                (
                    TriangleCast::Hit {
                        distance: t1,
                        point,
                        normal: n1,
                    },
                    TriangleCast::Hit {
                        distance: t2,
                        normal: n2,
                        ..
                    },
                ) => {
                    counts[0] += 1;
                    let s = parry_shape.as_ref();
                    let apart = (0..5).filter(|k| gap(s, center + (t1 - 1e-4 - *k as f32 * 1e-5) * d, rot, tri) > 0.0);
                    assert!(apart.count() >= 3, "apart before: {what}");
                    assert!(touches(shape, center + t1 * d, point, tri), "touching at it: {what}");
                    worst_t = worst_t.max((t1 - t2).abs());
                    let face = (tri[1] - tri[0]).cross(tri[2] - tri[0]).normalize();
                    let between = angle(n1, n2);
                    if n1.dot(face).abs() > 1.0 - 1e-7 {
                        worst_face = worst_face.max(between);
                    } else {
                        counts[3] += 1;
                        worst_edge = worst_edge.max(between);
                    }
                    let exact = exact_normal(shape, center + t1 * d, point);
                    if let Some(exact) = exact {
                        assert!(angle(n1, exact) < 1e-4, "exact normal {exact}: {what}");
                    }
                }
                (TriangleCast::Overlap, TriangleCast::Overlap) => counts[1] += 1,
                (TriangleCast::Miss, TriangleCast::Miss) => counts[2] += 1,
                // Parry's cast reports a grazing hit where the shapes never meet: its
                // distance query says they stay apart all around its time of impact.
                (TriangleCast::Miss, TriangleCast::Hit { distance, .. }) => {
                    let s = parry_shape.as_ref();
                    let apart = (-50..=50).all(|k| gap(s, center + (distance + k as f32 * 1e-4) * d, rot, tri) > 0.0);
                    assert!(apart, "{what}");
                    counts[2] += 1;
                    false_hits += 1;
                }
                _ => panic!("{what}"),
            }
        }
        println!(
            "measured: against parry's cast: distance {worst_t:.2e} m, normal on faces {worst_face:.2e} rad, at edges and vertices {worst_edge:.2e} rad; {false_hits} grazing hits of parry's where the shapes stay apart; {counts:?}"
        );
        counts
    }

    #[test]
    fn the_boxes_are_parrys() {
        let mut rng = Rng(3);
        for _ in 0..1000 {
            let rot = Quat::from_euler(
                bevy::math::EulerRot::XYZ,
                rng.range(-3.0, 3.0),
                rng.range(-3.0, 3.0),
                rng.range(-3.0, 3.0),
            );
            let (r, hw) = (rng.range(0.1, 0.5), rng.range(0.05, 0.3));
            let pose = parry::math::Pose3::from_parts(Vec3::ZERO, rot);
            let theirs = parry::shape::Shape::compute_aabb(&parry::shape::Cylinder::new(hw, r), &pose);
            let ours = WheelShape::Cylinder {
                radius: r,
                half_width: hw,
                axle: rot * Vec3::Y,
            }
            .half_extents();
            assert!(
                (theirs.maxs - ours).abs().max_element() < 1e-5,
                "{ours} vs {:?}",
                theirs.maxs
            );
            assert!((theirs.mins + ours).abs().max_element() < 1e-5);
        }
    }

    #[test]
    fn the_sphere_cast_gives_parrys_answer() {
        let counts = compare(
            |rng| {
                let r = rng.range(0.1, 0.5);
                (
                    WheelShape::Sphere(r),
                    Box::new(parry::shape::Ball::new(r)),
                    Quat::IDENTITY,
                )
            },
            7,
        );
        assert!(
            counts[0] > 3000 && counts[3] > 500,
            "enough hits, some on edges and vertices: {counts:?}"
        );
    }

    #[test]
    fn the_cylinder_cast_gives_parrys_answer() {
        let counts = compare(
            |rng| {
                let (r, hw) = (rng.range(0.1, 0.5), rng.range(0.05, 0.2));
                // Parry's cylinder stands along Y; turn it to a random axle that leans
                // like a steered, cambered wheel's.
                let rot = Quat::from_rotation_y(rng.range(-3.1, 3.1))
                    * Quat::from_rotation_z(-core::f32::consts::FRAC_PI_2 + rng.range(-0.3, 0.3));
                let shape = WheelShape::Cylinder {
                    radius: r,
                    half_width: hw,
                    axle: rot * Vec3::Y,
                };
                (shape, Box::new(parry::shape::Cylinder::new(hw, r)), rot)
            },
            11,
        );
        assert!(
            counts[0] > 3000 && counts[3] > 500,
            "enough hits, some on edges and vertices: {counts:?}"
        );
    }
}
