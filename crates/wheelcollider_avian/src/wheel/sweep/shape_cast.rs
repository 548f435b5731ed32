//! A sphere's or a cylinder's cast against one collider: [`ShapeSweep`] (the wheel's
//! shape, pose, direction and profile) and [`cast_shape_on`], which walks the collider's
//! kind of ground (a convex shape, a box or a half-space in closed form, a mesh's or a
//! heightfield's triangles), judges each hit with the [`GroundFilter`] and makes its
//! distance exact with [`ShapeSweep::refine`].

use avian3d::parry;
use bevy::prelude::*;

use super::GroundFilter;
use super::triangle_cast::{self, TriangleCast, WheelShape};

/// What the exact distance of a wheel's hit needs of its shape: where the sweep starts,
/// along which up it travels (down), its radius, and for a cylinder its axle and half
/// width.
#[derive(Clone, Copy, Debug)]
pub(crate) struct WheelProfile {
    /// The shape's centre at the sweep's start (world, m).
    pub start: Vec3,
    /// The suspension's up (world, unit); the sweep travels along −up.
    pub up: Vec3,
    /// The tyre's radius (m).
    pub radius: f32,
    /// A cylinder's axle (world, unit) and half width (m); `None` for a sphere.
    pub cylinder: Option<(Vec3, f32)>,
}

impl WheelProfile {
    /// Makes a shape cast's distance exact against the tangent plane of its hit.
    ///
    /// Parry's shape cast (GJK-based time of impact) loses precision against large
    /// shapes and stops early by up to centimetres (`wheel::holes` measures every sweep
    /// on boxes of 4 to 400 m). The hit point and normal it returns are accurate, so the
    /// distance is recomputed exactly: how far the shape's support point towards the
    /// surface travels along −`up` to reach the plane through the hit point. Used when
    /// the plane faces the sweep (`up·n > 0.1`) and the correction moves the hit later
    /// (the cast's error is always an early stop), or earlier by less than a quarter of
    /// the radius. It is applied to every candidate before the closest is chosen; one
    /// refined beyond the sweep's reach does not touch and is skipped
    /// ([`WheelCasts::shape`](super::WheelCasts::shape)).
    #[inline]
    pub fn refine(&self, point: Vec3, normal: Vec3, distance: f32) -> f32 {
        let Some(n) = normal.try_normalize() else {
            return distance;
        };
        let facing = self.up.dot(n);
        if facing < 0.1 {
            return distance;
        }
        // Support point of the shape (relative to its centre) in direction −n.
        let v = -n;
        let support = match self.cylinder {
            None => v * self.radius,
            Some((axis, half_width)) => {
                let across = (v - axis * v.dot(axis)).normalize_or_zero();
                axis * half_width * v.dot(axis).signum() + across * self.radius
            }
        };
        // (start − up·t + support − point)·n = 0
        let t = (self.start + support - point).dot(n) / facing;
        if t.is_finite() && t - distance > -0.25 * self.radius.max(0.05) {
            t.max(0.0)
        } else {
            distance
        }
    }
}

/// One wheel's shape cast: the shape at its pose, swept along `direction` with parry's
/// `options`, and the [`WheelProfile`] that refines its hits.
pub(super) struct ShapeSweep<'a> {
    pub shape: &'a dyn parry::shape::Shape,
    pub pose: parry::math::Pose3,
    pub direction: Vec3,
    pub options: parry::query::ShapeCastOptions,
    pub profile: &'a WheelProfile,
}

/// The ground hit (point, world normal, refined distance) of `sweep` against `collider`
/// at `pose1`, if `filter` accepts one.
///
/// A triangle mesh or a heightfield is cast against triangle by triangle
/// ([`cast_on_triangles`]); a box or a half-space under a sphere or a cylinder in closed
/// form, any other convex shape by parry ([`cast_on_convex`]). Each hit's distance is
/// refined ([`WheelProfile::refine`]) before the closest is chosen.
pub(super) fn cast_shape_on(
    collider: &dyn parry::shape::Shape,
    pose1: &parry::math::Pose3,
    sweep: &ShapeSweep,
    filter: &GroundFilter,
) -> Option<(Vec3, Vec3, f32)> {
    // The sweep in the collider's frame.
    let local = pose1.inverse() * sweep.pose;
    let local_direction = pose1.rotation.inverse() * sweep.direction;
    if collider.as_trimesh().is_none() && collider.as_heightfield().is_none() {
        cast_on_convex(collider, pose1, sweep, filter, (&local, local_direction))
    } else {
        cast_on_triangles(collider, pose1, sweep, filter, (&local, local_direction))
    }
}

/// Parry's cast of `sweep` against `part` at `part_pose`, judged by `filter` and
/// refined.
fn judge(
    part: &dyn parry::shape::Shape,
    part_pose: &parry::math::Pose3,
    sweep: &ShapeSweep,
    filter: &GroundFilter,
) -> Option<(Vec3, Vec3, f32)> {
    let hit = parry::query::cast_shapes(
        part_pose,
        Vec3::ZERO,
        part,
        &sweep.pose,
        sweep.direction,
        sweep.shape,
        sweep.options,
    )
    .ok()??;
    let overlapping = hit.status == parry::query::ShapeCastStatus::PenetratingOrWithinTargetDist;
    let (point, normal) = (*part_pose * hit.witness1, part_pose.rotation * hit.normal1);
    if !filter.accepts(normal, hit.time_of_impact, overlapping) {
        return None;
    }
    Some((point, normal, sweep.profile.refine(point, normal, hit.time_of_impact)))
}

/// A box or a half-space under a sphere or a cylinder in closed form; any other convex
/// shape by parry. `local` is the sweep's pose and direction in the collider's frame.
fn cast_on_convex(
    collider: &dyn parry::shape::Shape,
    pose1: &parry::math::Pose3,
    sweep: &ShapeSweep,
    filter: &GroundFilter,
    (local, local_direction): (&parry::math::Pose3, Vec3),
) -> Option<(Vec3, Vec3, f32)> {
    let (center, max) = (local.translation, sweep.options.max_time_of_impact);
    let closed = wheel_shape(sweep.shape, local).and_then(|wheel| {
        if let Some(cuboid) = collider.as_cuboid() {
            Some(triangle_cast::cast_cuboid(
                wheel,
                center,
                local_direction,
                max,
                cuboid.half_extents,
            ))
        } else {
            let plane = collider.as_halfspace()?;
            Some(triangle_cast::cast_half_space(
                wheel,
                center,
                local_direction,
                max,
                plane.normal,
            ))
        }
    });
    match closed {
        Some(cast) => ground_hit(cast, pose1, filter, sweep.profile),
        None => judge(collider, pose1, sweep, filter),
    }
}

/// A triangle mesh's or a heightfield's triangles whose box meets the sweep's, each
/// judged by the filter alone: parry's cast on the whole shape returns only its first
/// hit, and a wall of the mesh, or a neighbouring cell the wheel starts inside, would
/// hide the ground under the wheel. A sphere's or a cylinder's cast against a triangle
/// is solved in closed form (`triangle_cast`), which gives parry's answer; other shapes
/// by parry. The closest accepted hit.
fn cast_on_triangles(
    collider: &dyn parry::shape::Shape,
    pose1: &parry::math::Pose3,
    sweep: &ShapeSweep,
    filter: &GroundFilter,
    (local, local_direction): (&parry::math::Pose3, Vec3),
) -> Option<(Vec3, Vec3, f32)> {
    let max = sweep.options.max_time_of_impact;
    let closed_form = wheel_shape(sweep.shape, local).map(|w| (w, local.translation, local_direction));
    let end_center = local.translation + local_direction * max;
    let (lo, hi) = match closed_form {
        Some((wheel, center, _)) => {
            let e = wheel.half_extents();
            (center.min(end_center) - e, center.max(end_center) + e)
        }
        None => {
            let start = sweep.shape.compute_aabb(local);
            let end = sweep
                .shape
                .compute_aabb(&parry::math::Pose3::from_parts(end_center, local.rotation));
            (start.mins.min(end.mins), start.maxs.max(end.maxs))
        }
    };
    let mut best: Option<(Vec3, Vec3, f32)> = None;
    let mut consider = |triangle: &parry::shape::Triangle| {
        let hit = match closed_form {
            Some((wheel, center, dir)) => {
                let tri = [triangle.a, triangle.b, triangle.c];
                let cast = triangle_cast::cast(wheel, center, dir, max, tri);
                ground_hit(cast, pose1, filter, sweep.profile)
            }
            None => judge(triangle, pose1, sweep, filter),
        };
        if let Some(hit) = hit
            && best.is_none_or(|b| hit.2 < b.2)
        {
            best = Some(hit);
        }
    };
    if let Some(mesh) = collider.as_trimesh() {
        for i in mesh
            .bvh()
            .leaves(|node| node.mins().cmple(hi).all() && node.maxs().cmpge(lo).all())
        {
            consider(&mesh.triangle(i));
        }
    } else if let Some(field) = collider.as_heightfield() {
        field.map_elements_in_local_aabb(&parry::bounding_volume::Aabb::new(lo, hi), &mut |_, t| consider(t));
    }
    best
}

/// A closed-form cast's hit in the world (point, normal, refined distance), if the
/// filter takes it as ground; a start inside or a miss is none.
fn ground_hit(
    cast: TriangleCast,
    pose: &parry::math::Pose3,
    filter: &GroundFilter,
    profile: &WheelProfile,
) -> Option<(Vec3, Vec3, f32)> {
    let TriangleCast::Hit {
        distance,
        point,
        normal,
    } = cast
    else {
        return None;
    };
    let (point, normal) = (*pose * point, pose.rotation * normal);
    filter
        .accepts(normal, distance, false)
        .then(|| (point, normal, profile.refine(point, normal, distance)))
}

/// The wheel's shape for the closed-form triangle casts, with its axle in the frame of
/// `pose` (the shape's pose in the collider's frame): a ball or a cylinder, else `None`.
pub(super) fn wheel_shape(shape: &dyn parry::shape::Shape, pose: &parry::math::Pose3) -> Option<WheelShape> {
    if let Some(ball) = shape.as_ball() {
        return Some(WheelShape::Sphere(ball.radius));
    }
    shape.as_cylinder().map(|c| WheelShape::Cylinder {
        radius: c.radius,
        half_width: c.half_height,
        axle: pose.rotation * Vec3::Y,
    })
}
