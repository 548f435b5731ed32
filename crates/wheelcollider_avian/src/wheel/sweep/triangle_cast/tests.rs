//! The closed-form casts against parry on random triangles: exactness of the
//! distance and the normal, the outcome, and the boxes.
use super::*;
use avian3d::parry;
use bevy::math::Quat;
use wheelcollider_testing::Rng;

/// Random vectors from the shared generator.
trait Draw {
    fn vec(&mut self, s: f32) -> Vec3;
}
impl Draw for Rng {
    /// A vector with each component uniform in [−`s`, `s`).
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
    parry_cast_on(&triangle, shape, center, rot, d, max)
}

/// Parry's cast of the wheel's shape at `center` turned by `rot` along `d` against a
/// still `ground` at the origin, as a [`TriangleCast`].
fn parry_cast_on(
    ground: &dyn parry::shape::Shape,
    shape: &dyn parry::shape::Shape,
    center: Vec3,
    rot: Quat,
    d: Vec3,
    max: f32,
) -> TriangleCast {
    let options = parry::query::ShapeCastOptions {
        max_time_of_impact: max,
        target_distance: 0.0,
        stop_at_penetration: true,
        compute_impact_geometry_on_penetration: true,
    };
    let id = parry::math::Pose3::IDENTITY;
    let pose = parry::math::Pose3::from_parts(center, rot);
    match parry::query::cast_shapes(&id, Vec3::ZERO, ground, &pose, d, shape, options) {
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
    on_plane && on_triangle && on_surface(shape, center, point)
}

/// Whether `point` lies on the surface of the shape centred at `center` (to 5e-5 m).
fn on_surface(shape: WheelShape, center: Vec3, point: Vec3) -> bool {
    let w = point - center;
    match shape {
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
    }
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
    let mut rng = Rng::new(seed);
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
        let what = format!("case {case}: ours {ours:?}, parry {theirs:?}; {shape:?} {tri:?} from {center} along {d}");
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
    let mut rng = Rng::new(3);
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

/// A box cast is exact too: random boxes (0.1–3 m) and wheels (sphere, cylinder turned
/// like a steered, cambered wheel) cast from around and inside them. The hit point lies
/// on the box's surface and the wheel's, the shapes are apart 1e-4 m before it (parry's
/// contact query), and the outcome is parry's cast's (hit, started inside, miss) but
/// for its grazing hits where its own contact query shows the shapes apart.
#[test]
fn the_box_cast_is_exact() {
    let mut rng = Rng::new(5);
    let mut counts = [0u32; 3];
    for case in 0..20_000 {
        let he = Vec3::new(rng.range(0.05, 1.5), rng.range(0.05, 1.5), rng.range(0.05, 1.5));
        let (shape, parry_shape, rot) = random_wheel(&mut rng, case % 2 == 0);
        let center = Vec3::new(rng.range(-1.5, 1.5), he.y + rng.range(-0.5, 1.0), rng.range(-1.5, 1.5));
        let d = (Vec3::NEG_Y + 0.3 * rng.vec(1.0)).normalize();
        let ours = cast_cuboid(shape, center, d, 2.0, he);
        let cuboid = parry::shape::Cuboid::new(he);
        let id = parry::math::Pose3::IDENTITY;
        let pose = |c: Vec3| parry::math::Pose3::from_parts(c, rot);
        let gap = |c: Vec3| {
            parry::query::contact(&id, &cuboid, &pose(c), parry_shape.as_ref(), 0.01)
                .unwrap()
                .map_or(f32::INFINITY, |c| c.dist)
        };
        let theirs = parry_cast_on(&cuboid, parry_shape.as_ref(), center, rot, d, 2.0);
        let what = format!("case {case}: ours {ours:?}, parry {theirs:?}; {shape:?} box {he} from {center} along {d}");
        match (ours, theirs) {
            (TriangleCast::Hit { distance, point, .. }, TriangleCast::Hit { .. }) => {
                counts[0] += 1;
                // On the box's surface: no coordinate beyond it, one on it.
                let on_box = (point.abs() - he).max_element().abs() < 5e-5;
                assert!(
                    on_box && on_surface(shape, center + distance * d, point),
                    "touching: {what}"
                );
                let apart = (0..5).filter(|k| gap(center + (distance - 1e-4 - *k as f32 * 1e-5) * d) > 0.0);
                assert!(apart.count() >= 3, "apart before: {what}");
            }
            (TriangleCast::Overlap, TriangleCast::Overlap) => counts[1] += 1,
            (TriangleCast::Miss, TriangleCast::Miss) => counts[2] += 1,
            (TriangleCast::Miss, TriangleCast::Hit { distance, .. }) => {
                assert!(
                    (-50..=50).all(|k| gap(center + (distance + k as f32 * 1e-4) * d) > 0.0),
                    "{what}"
                );
                counts[2] += 1;
            }
            _ => panic!("{what}"),
        }
    }
    println!("measured: box casts: {counts:?} (hits, started inside, misses)");
    assert!(
        counts.iter().all(|&c| c > 2000),
        "every outcome well represented: {counts:?}"
    );
}

/// A random wheel: a sphere, or a cylinder turned like a steered, cambered wheel; its
/// parry shape and turn (parry's cylinder stands along Y).
fn random_wheel(rng: &mut Rng, sphere: bool) -> (WheelShape, Box<dyn parry::shape::Shape>, Quat) {
    let (r, hw) = (rng.range(0.1, 0.5), rng.range(0.05, 0.2));
    let rot = Quat::from_rotation_y(rng.range(-3.1, 3.1))
        * Quat::from_rotation_z(-core::f32::consts::FRAC_PI_2 + rng.range(-0.3, 0.3));
    if sphere {
        (WheelShape::Sphere(r), Box::new(parry::shape::Ball::new(r)), rot)
    } else {
        let shape = WheelShape::Cylinder {
            radius: r,
            half_width: hw,
            axle: rot * Vec3::Y,
        };
        (shape, Box::new(parry::shape::Cylinder::new(hw, r)), rot)
    }
}

/// A half-space cast: the distance is parry's to 1e-4 m (a plane is flat: parry's cast
/// is exact there), the point lies on the plane and on the wheel, and a wheel that
/// starts across or below the plane overlaps, as parry says.
#[test]
fn the_half_space_cast_is_parrys() {
    let mut rng = Rng::new(9);
    let mut counts = [0u32; 3];
    for case in 0..5_000 {
        let normal = (Vec3::Y + 0.5 * rng.vec(1.0)).normalize();
        let (shape, parry_shape, rot) = random_wheel(&mut rng, case % 2 == 0);
        let center = Vec3::new(rng.range(-1.0, 1.0), rng.range(-0.3, 3.0), rng.range(-1.0, 1.0));
        let d = (Vec3::NEG_Y + 0.3 * rng.vec(1.0)).normalize();
        let ours = cast_half_space(shape, center, d, 2.0, normal);
        let plane = parry::shape::HalfSpace::new(normal);
        let theirs = parry_cast_on(&plane, parry_shape.as_ref(), center, rot, d, 2.0);
        let what =
            format!("case {case}: ours {ours:?}, parry {theirs:?}; {shape:?} plane {normal} from {center} along {d}");
        match (ours, theirs) {
            (
                TriangleCast::Hit {
                    distance: t1,
                    point,
                    normal: n1,
                },
                TriangleCast::Hit { distance: t2, .. },
            ) => {
                counts[0] += 1;
                assert!(
                    (t1 - t2).abs() < 1e-4 && point.dot(normal).abs() < 1e-5 && n1 == normal,
                    "{what}"
                );
            }
            (TriangleCast::Overlap, TriangleCast::Overlap) => counts[1] += 1,
            (TriangleCast::Miss, TriangleCast::Miss) => counts[2] += 1,
            _ => panic!("{what}"),
        }
    }
    println!("measured: half-space casts: {counts:?} (hits, started across, misses)");
    assert!(counts.iter().all(|&c| c > 500), "{counts:?}");
}
