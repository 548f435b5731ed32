//! The wheels' ray and shape casts, straight on avian's collider trees.
//!
//! The same queries as avian's `SpatialQuery::cast_ray_predicate` and
//! `cast_shape_predicate` (the same trees, the same parry casts, the closest hit), with
//! what a wheel needs and nothing else:
//! - empty trees (most scenes have no kinematic or standalone colliders) are skipped
//!   instead of traversed: each traversal zeroes a 384-byte stack first;
//! - the wheel's own chassis is excluded by the tree proxy's body, without a query
//!   lookup per candidate, and the layer test is a mask test;
//! - the hit carries the body the collider belongs to, from the same proxy;
//! - a ray on a triangle mesh walks the mesh's tree by box overlap with its short
//!   segment ([`trimesh_ray`]): the same answer as parry's cast, a quarter cheaper;
//! - a sphere or a cylinder on a triangle mesh, a heightfield, a box or a half-space is
//!   cast in closed form (`triangle_cast`: triangle by triangle, a box face by face), not by
//!   parry's GJK cast: exact where parry's stops up to a centimetre early, and two to
//!   three times cheaper.
//!
//! Whether a chassis' wheels need more than the static tree is asked once per chassis
//! ([`WheelCasts::moving_in`]), answered by a grid of the moving colliders' boxes
//! ([`MovingGrid`]) where there are enough chassis to pay for it.
//!
//! What each of these saves, with the bench runs that show it: `docs/performance.md`.

use avian3d::collider_tree::{ColliderTree, ColliderTreeProxy, ColliderTrees, ProxyId};
use avian3d::parry;
use avian3d::prelude::*;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

mod grid;
mod shape_cast;
mod triangle_cast;
use grid::GridEntry;
pub(crate) use grid::MovingGrid;
pub(crate) use shape_cast::WheelProfile;
use shape_cast::{ShapeSweep, cast_shape_on, wheel_shape};

/// The closest hit of a wheel's cast.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CastHit {
    /// The collider hit.
    pub entity: Entity,
    /// The rigid body the collider belongs to, if any.
    pub body: Option<Entity>,
    /// The hit point on the collider (world, m).
    pub point: Vec3,
    /// The collider's surface normal at the hit (world, unit).
    pub normal: Vec3,
    /// How far the ray or shape travelled (m).
    pub distance: f32,
    /// Whether the collider is in avian's static tree (on a static body): the wheel
    /// then needs no velocity or mass of the ground.
    pub on_static: bool,
}

/// What a wheel counts as ground: a hit whose normal is within the wheel's
/// `max_ground_angle` of its suspension axis, and that the sweep did not start inside.
///
/// A sweep that starts overlapping a collider (a sphere or cylinder wheel poking into a
/// wall beside it, a ray whose mount is inside a barrier) has no distance to travel and
/// no meaningful normal: read as ground it would be a compression of travel + radius,
/// tens of kilonewtons into a wall. A surface steeper than the limit (a wall, a kerb's
/// face, another car's side) is not something the tyre stands on. Such a hit is passed
/// by, and the sweep takes the closest hit beyond it that is ground; on a triangle mesh
/// or a heightfield each triangle is judged alone.
#[derive(Clone, Copy, Debug)]
pub(crate) struct GroundFilter {
    /// The suspension axis (world, unit).
    pub up: Vec3,
    /// The cosine of the steepest accepted angle between a hit normal and `up`.
    pub min_cos: f32,
}

impl GroundFilter {
    /// Whether a hit with `normal` (world) at `distance` is ground; `overlapping` when
    /// the cast started inside the collider.
    #[inline]
    pub fn accepts(&self, normal: Vec3, distance: f32, overlapping: bool) -> bool {
        !overlapping && distance > 0.0 && normal.dot(self.up) >= self.min_cos * normal.length()
    }
}

/// What one wheel's cast looks for: colliders with a membership in `mask`, not of
/// `chassis`, in the static tree alone with `static_only` (see
/// [`WheelCasts::moving_in`]), whose hits `filter` accepts as ground.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CastQuery {
    pub mask: LayerMask,
    pub chassis: Entity,
    pub static_only: bool,
    pub filter: GroundFilter,
}

/// A solid ray against a collider: avian's [`Collider::cast_ray`], with a triangle mesh
/// searched by [`trimesh_ray`]. Returns the distance and the world normal.
/// Only hits the `filter` accepts count; on a triangle mesh each triangle is judged
/// alone.
#[inline]
fn cast_ray(
    collider: &Collider,
    position: Vec3,
    rotation: Quat,
    origin: Vec3,
    direction: Dir3,
    max_distance: f32,
    filter: &GroundFilter,
) -> Option<(f32, Vec3)> {
    match collider.shape_scaled().as_trimesh() {
        Some(mesh) => trimesh_ray(
            mesh,
            position,
            rotation,
            origin,
            direction.as_vec3(),
            max_distance,
            filter,
        ),
        None => collider
            .cast_ray(position, rotation, origin, direction.as_vec3(), max_distance, true)
            .filter(|&(distance, normal)| filter.accepts(normal, distance, false)),
    }
}

/// The closest hit of a solid ray on a triangle mesh (distance, world normal): the same
/// triangles' ray test as parry's cast, and the same answer, found differently. Parry
/// walks the mesh's tree best-first with a ray-box test (with divisions) at every node;
/// a wheel's ray is short (travel + radius, under a metre) against triangles of metres,
/// so the tree's nodes whose boxes overlap the segment's box are little more than the
/// path down to the triangles under it, and a box-overlap test is a few comparisons.
/// Any triangle the segment crosses has a box (and ancestors' boxes) that overlaps the
/// segment's box, so no hit is missed (guarded by the unit tests in `sweep/tests.rs`
/// against avian's `cast_ray`).
fn trimesh_ray(
    mesh: &parry::shape::TriMesh,
    position: Vec3,
    rotation: Quat,
    origin: Vec3,
    direction: Vec3,
    max_distance: f32,
    filter: &GroundFilter,
) -> Option<(f32, Vec3)> {
    let pose = parry::math::Pose3::from_parts(position, rotation);
    let ray = parry::query::Ray::new(origin, direction).inverse_transform_by(&pose);
    let end = ray.origin + ray.dir * max_distance;
    let (lo, hi) = (ray.origin.min(end), ray.origin.max(end));
    let mut best = max_distance;
    let mut normal = None;
    for triangle in mesh
        .bvh()
        .leaves(|node| node.mins().cmple(hi).all() && node.maxs().cmpge(lo).all())
    {
        if let Some(hit) =
            parry::query::RayCast::cast_local_ray_and_get_normal(&mesh.triangle(triangle), &ray, best, true)
            && hit.time_of_impact < best
            && filter.accepts(pose.rotation * hit.normal, hit.time_of_impact, false)
        {
            best = hit.time_of_impact;
            normal = Some(hit.normal);
        }
    }
    normal.map(|n| (best, pose.rotation * n))
}

/// Keeps a candidate hit as the closest if it is nearer than `reach` (and shrinks the
/// reach to it); returns its distance for the tree's traversal.
#[inline]
fn keep_closest(
    reach: &mut f32,
    closest: &mut Option<CastHit>,
    proxy: &ColliderTreeProxy,
    point: Vec3,
    normal: Vec3,
    distance: f32,
    on_static: bool,
) -> f32 {
    if distance < *reach {
        *reach = distance;
        *closest = Some(CastHit {
            entity: proxy.collider,
            body: proxy.body,
            point,
            normal,
            distance,
            on_static,
        });
    }
    distance
}

/// Whether a tree proxy is one of `chassis`' own colliders (on the body, or the body's
/// own collider), which its wheels never hit.
#[inline]
fn is_own(proxy: &ColliderTreeProxy, chassis: Entity) -> bool {
    owned_by(proxy.body, proxy.collider, chassis)
}

/// Whether a collider (on `body`, if any) is `chassis`' own.
#[inline]
fn owned_by(body: Option<Entity>, collider: Entity, chassis: Entity) -> bool {
    body == Some(chassis) || collider == chassis
}

/// Read access to the colliders and avian's collider trees, for the wheels' casts.
#[derive(SystemParam)]
pub(crate) struct WheelCasts<'w, 's> {
    colliders: Query<'w, 's, (&'static Position, &'static Rotation, &'static Collider)>,
    trees: Res<'w, ColliderTrees>,
}

impl WheelCasts<'_, '_> {
    /// The trees that hold colliders, each with whether it is the static tree; only the
    /// static tree with `static_only`.
    #[inline]
    fn trees(&self, static_only: bool) -> impl Iterator<Item = (&ColliderTree, bool)> {
        let static_tree: *const ColliderTree = &self.trees.static_tree;
        self.trees
            .iter_trees()
            .map(move |tree| (tree, core::ptr::eq(tree, static_tree)))
            .filter(move |(tree, is_static)| !tree.proxies.is_empty() && (*is_static || !static_only))
    }

    /// The proxy and collider a traversal reached, unless the collider has no membership
    /// in `mask` or belongs to `chassis`.
    #[inline]
    fn candidate<'a>(
        &'a self,
        tree: &'a ColliderTree,
        proxy_id: ProxyId,
        mask: LayerMask,
        chassis: Entity,
    ) -> Option<(&'a ColliderTreeProxy, &'a Position, &'a Rotation, &'a Collider)> {
        let proxy = tree.proxies.get(proxy_id.index())?;
        if (proxy.layers.memberships & mask) == LayerMask::NONE || is_own(proxy, chassis) {
            return None;
        }
        let (position, rotation, collider) = self.colliders.get(proxy.collider).ok()?;
        Some((proxy, position, rotation, collider))
    }

    /// Rebuilds `grid` from the dynamic, kinematic and standalone trees (see
    /// [`MovingGrid`]) when `chassis` screenings will use it enough to pay for it;
    /// otherwise leaves it empty, and the screenings ask the trees.
    ///
    /// A rebuild costs less than a third of what it saves each chassis' screening (the
    /// bench figures are in `docs/performance.md`), so the grid is built when there are
    /// at least a third as many chassis as moving colliders.
    pub fn rebuild_grid(&self, grid: &mut MovingGrid, chassis: usize) {
        let trees = &*self.trees;
        let moving =
            trees.dynamic_tree.proxies.len() + trees.kinematic_tree.proxies.len() + trees.standalone_tree.proxies.len();
        if 3 * chassis < moving {
            grid.disable();
            return;
        }
        grid.rebuild(
            [&trees.dynamic_tree, &trees.kinematic_tree, &trees.standalone_tree]
                .into_iter()
                .flat_map(|tree| {
                    tree.proxies.iter().filter_map(|(index, proxy)| {
                        let aabb = tree.get_proxy_aabb(ProxyId::new(index as u32))?;
                        Some(GridEntry {
                            min: Vec3A::from_array(aabb.min.to_array()),
                            max: Vec3A::from_array(aabb.max.to_array()),
                            collider: proxy.collider,
                            body: proxy.body,
                        })
                    })
                }),
        );
    }

    /// Whether a collider that can move (in the dynamic, kinematic or standalone tree)
    /// and does not belong to `chassis` has its bounding box overlapping `aabb`.
    ///
    /// One box query per chassis: when it finds nothing, the chassis' wheels cast
    /// against the static tree alone (the other trees cannot hold their hit: a cast only
    /// reports colliders whose box its path crosses, and the paths lie inside `aabb`).
    /// Four ray traversals of the moving trees per chassis become one box query.
    pub fn moving_in(&self, aabb: ColliderAabb, chassis: Entity) -> bool {
        let aabb = obvhs::aabb::Aabb::from(aabb);
        let trees = &*self.trees;
        [&trees.dynamic_tree, &trees.kinematic_tree, &trees.standalone_tree]
            .into_iter()
            .filter(|tree| !tree.proxies.is_empty())
            .any(|tree| {
                let mut found = false;
                tree.aabb_traverse(aabb, |proxy_id| {
                    let own = tree.proxies.get(proxy_id.index()).is_some_and(|p| is_own(p, chassis));
                    found = !own;
                    !found
                });
                found
            })
    }

    /// The closest hit of a solid ray from `origin` along `direction` within
    /// `max_distance` that `query` looks for.
    #[cfg_attr(feature = "stage-table", inline(never))] // a stage of its own in `--stages`
    pub fn ray(&self, origin: Vec3, direction: Dir3, max_distance: f32, query: &CastQuery) -> Option<CastHit> {
        let (mask, chassis, static_only, filter) = (query.mask, query.chassis, query.static_only, &query.filter);
        let ray = Ray3d::new(origin, direction);
        let mut reach = max_distance;
        let mut closest = None;
        for (tree, on_static) in self.trees(static_only) {
            tree.ray_traverse_closest(ray, reach, |proxy_id| {
                let Some((proxy, position, rotation, collider)) = self.candidate(tree, proxy_id, mask, chassis) else {
                    return f32::MAX;
                };
                let Some((distance, normal)) =
                    cast_ray(collider, position.0, rotation.0, origin, direction, reach, filter)
                else {
                    return f32::MAX;
                };
                keep_closest(
                    &mut reach,
                    &mut closest,
                    proxy,
                    origin + direction * distance,
                    normal,
                    distance,
                    on_static,
                )
            });
        }
        closest
    }

    /// The closest hit of `shape` at the pose `(origin, rotation)`, swept along `direction`
    /// within `max_distance` that `query` looks for (a collider the shape starts inside
    /// is passed by). The point and normal are on the
    /// collider hit. `static_only` as for [`ray`](Self::ray).
    ///
    /// `profile` corrects each candidate's distance before the closest is chosen
    /// ([`WheelProfile::refine`]: parry's cast stops early against large shapes, by
    /// centimetres against a 400 m box, enough to choose that box over a slab lying on
    /// it).
    #[cfg_attr(feature = "stage-table", inline(never))] // a stage of its own in `--stages`
    pub fn shape(
        &self,
        shape: &Collider,
        (origin, rotation): (Vec3, Quat),
        direction: Dir3,
        max_distance: f32,
        query: &CastQuery,
        profile: &WheelProfile,
    ) -> Option<CastHit> {
        let (mask, chassis, static_only, filter) = (query.mask, query.chassis, query.static_only, &query.filter);
        let aabb = match wheel_shape(
            shape.shape_scaled().as_ref(),
            &parry::math::Pose3::from_parts(origin, rotation),
        ) {
            Some(wheel) => {
                let e = wheel.half_extents();
                obvhs::aabb::Aabb::from(ColliderAabb::new(origin, e))
            }
            None => obvhs::aabb::Aabb::from(shape.aabb(origin, rotation)),
        };
        let sweep = ShapeSweep {
            shape: shape.shape_scaled().as_ref(),
            pose: parry::math::Pose3::from_parts(origin, rotation),
            direction: direction.as_vec3(),
            options: parry::query::ShapeCastOptions {
                max_time_of_impact: max_distance,
                target_distance: 0.0,
                stop_at_penetration: true,
                compute_impact_geometry_on_penetration: true,
            },
            profile,
        };
        let mut reach = max_distance;
        let mut closest = None;
        for (tree, on_static) in self.trees(static_only) {
            tree.sweep_traverse_closest(aabb, direction, reach, 0.0, |proxy_id| {
                let Some((proxy, position, collider_rotation, collider)) =
                    self.candidate(tree, proxy_id, mask, chassis)
                else {
                    return f32::MAX;
                };
                let pose1 = parry::math::Pose3::from_parts(position.0, collider_rotation.0);
                let Some((point, normal, distance)) =
                    cast_shape_on(collider.shape_scaled().as_ref(), &pose1, &sweep, filter)
                else {
                    return f32::MAX;
                };
                keep_closest(&mut reach, &mut closest, proxy, point, normal, distance, on_static)
            });
        }
        closest
    }
}

#[cfg(test)]
mod tests;
