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

/// Casts `shape` against the half-space below the plane through the origin with the
/// outward unit `normal` (the collider's frame): the support point along −`normal`
/// reaches the plane. A shape that starts across the plane or below it overlaps.
pub(crate) fn cast_half_space(
    shape: WheelShape,
    center: Vec3,
    d: Vec3,
    max_distance: f32,
    normal: Vec3,
) -> TriangleCast {
    let nearest = center + support(shape, -normal);
    let gap = nearest.dot(normal);
    if gap <= 0.0 {
        return TriangleCast::Overlap;
    }
    let dn = d.dot(normal);
    if dn >= 0.0 {
        return TriangleCast::Miss;
    }
    let t = -gap / dn;
    if t > max_distance {
        return TriangleCast::Miss;
    }
    TriangleCast::Hit {
        distance: t,
        point: nearest + t * d,
        normal,
    }
}

/// Casts `shape` against a box of `half_extents` centred at the origin, axis-aligned
/// (the box's frame): its six faces as twelve triangles, each with the closed forms
/// above. The first contact with a convex solid from outside is the first contact with
/// its surface. A shape that starts across the surface overlaps the box (a face reports
/// it), and so does one whose centre starts inside it: both are
/// [`TriangleCast::Overlap`], as parry's cast gives "penetrating".
pub(crate) fn cast_cuboid(
    shape: WheelShape,
    center: Vec3,
    d: Vec3,
    max_distance: f32,
    half_extents: Vec3,
) -> TriangleCast {
    if (center.abs() - half_extents).max_element() < 0.0 {
        return TriangleCast::Overlap;
    }
    // Face by face first: the box lies inside each face's plane, so a shape wholly
    // outside one cannot touch the box before it reaches that plane, nor ever if it
    // does not move towards it; where it reaches the plane inside the face, that is
    // the first contact.
    for axis in 0..3 {
        for sign in [1.0f32, -1.0] {
            let mut unit = Vec3::ZERO;
            unit[axis] = sign;
            let nearest = center + support(shape, -unit);
            let gap = nearest.dot(unit) - half_extents[axis];
            if gap <= 0.0 {
                continue;
            }
            let dn = d.dot(unit);
            if dn >= 0.0 {
                return TriangleCast::Miss;
            }
            let t = -gap / dn;
            if t > max_distance {
                return TriangleCast::Miss;
            }
            let point = nearest + t * d;
            let (u, v) = ((axis + 1) % 3, (axis + 2) % 3);
            if point[u].abs() <= half_extents[u] && point[v].abs() <= half_extents[v] {
                return TriangleCast::Hit {
                    distance: t,
                    point,
                    normal: unit,
                };
            }
        }
    }
    let mut best = TriangleCast::Miss;
    let mut reach = max_distance;
    for axis in 0..3 {
        let (u, v) = ((axis + 1) % 3, (axis + 2) % 3);
        for sign in [1.0f32, -1.0] {
            let corner = |a: f32, b: f32| {
                let mut p = Vec3::ZERO;
                p[axis] = sign * half_extents[axis];
                p[u] = a * half_extents[u];
                p[v] = b * half_extents[v];
                p
            };
            let quad = [
                corner(-1.0, -1.0),
                corner(1.0, -1.0),
                corner(1.0, 1.0),
                corner(-1.0, 1.0),
            ];
            for tri in [[quad[0], quad[1], quad[2]], [quad[0], quad[2], quad[3]]] {
                match cast(shape, center, d, reach, tri) {
                    TriangleCast::Overlap => return TriangleCast::Overlap,
                    TriangleCast::Hit {
                        distance,
                        point,
                        normal,
                    } => {
                        reach = distance;
                        best = TriangleCast::Hit {
                            distance,
                            point,
                            normal,
                        };
                    }
                    TriangleCast::Miss => {}
                }
            }
        }
    }
    best
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
/// other feature pairs are not needed. A shape wholly on one side and not moving
/// towards the plane never meets the triangle. `None` otherwise (the shape starts
/// across the plane, or meets it outside the triangle).
#[inline]
fn plane_first(shape: WheelShape, center: Vec3, d: Vec3, max_distance: f32, tri: [Vec3; 3]) -> Option<TriangleCast> {
    let n = (tri[1] - tri[0]).cross(tri[2] - tri[0]);
    let len = n.length();
    if len <= EPS {
        return None;
    }
    let unit = n / len;
    let (s0, dn) = ((center - tri[0]).dot(unit), d.dot(unit));
    if s0 == 0.0 {
        return None;
    }
    let side = s0.signum();
    let nearest = center + support(shape, -side * unit);
    let gap = (nearest - tri[0]).dot(unit);
    if gap * side <= 0.0 {
        return None; // across the plane: the full test
    }
    if dn * s0 >= 0.0 {
        // Wholly on one side and not moving towards the plane: it never reaches it.
        return Some(TriangleCast::Miss);
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
    // The face, met by the support point along ∓n.
    let n = (tri[1] - tri[0]).cross(tri[2] - tri[0]);
    let dn = d.dot(n);
    if n.length_squared() > EPS && dn.abs() > EPS * n.length() {
        for u in [n, -n] {
            let perp = u - u.dot(a) * a;
            let support = u.dot(a).signum() * h * a + radius * perp.normalize_or_zero();
            let t = (tri[0] - c - support).dot(n) / dn;
            let s = axis_point(c, d, t) + support;
            if inside(s, tri, n) {
                let toward = if (axis_point(c, d, t) - s).dot(n) >= 0.0 { n } else { -n };
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
mod tests;
