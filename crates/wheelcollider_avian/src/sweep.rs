//! The wheels' ray and shape casts, straight on avian's collider trees.
//!
//! The same queries as avian's `SpatialQuery::cast_ray_predicate` and
//! `cast_shape_predicate` (the same trees, the same parry casts, the closest hit), with
//! what a wheel needs and nothing else:
//! - empty trees (most scenes have no kinematic or standalone colliders) are skipped
//!   instead of traversed: each traversal zeroes a 384-byte stack first;
//! - the wheel's own chassis is excluded by the tree proxy's body, without a query
//!   lookup per candidate, and the layer test is a mask test;
//! - the hit carries the body the collider belongs to, from the same proxy.
//!
//! Measured on the scenarios bench (1 000 cars, flat box, ray wheels): 0.82 → 0.80 µs per
//! wheel-step against the `SpatialQuery` calls; with the per-chassis screening
//! ([`WheelCasts::moving_in`]) 0.72 → 0.64 µs (see `docs/performance.md`).

use avian3d::collider_tree::{ColliderTree, ColliderTreeProxy, ColliderTrees, ProxyId};
use avian3d::parry;
use avian3d::prelude::*;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

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

/// Whether a tree proxy is one of `chassis`' own colliders (on the body, or the body's
/// own collider), which its wheels never hit.
#[inline]
fn is_own(proxy: &ColliderTreeProxy, chassis: Entity) -> bool {
    proxy.body == Some(chassis) || proxy.collider == chassis
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

    /// Whether a collider that can move (in the dynamic, kinematic or standalone tree)
    /// and does not belong to `chassis` has its bounding box overlapping `aabb`.
    ///
    /// One box query per chassis: when it finds nothing, the chassis' wheels cast
    /// against the static tree alone (the other trees cannot hold their hit: a cast only
    /// reports colliders whose box its path crosses, and the paths lie inside `aabb`).
    /// Measured: four ray traversals of a tree of 1 000 cars per chassis become one box
    /// query (see `docs/performance.md`).
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
    /// `max_distance`, against colliders with a membership in `mask` that do not belong
    /// to `chassis`.
    /// With `static_only`, only static colliders are tested (see
    /// [`moving_in`](Self::moving_in)).
    pub fn ray(
        &self,
        origin: Vec3,
        direction: Dir3,
        max_distance: f32,
        mask: LayerMask,
        chassis: Entity,
        static_only: bool,
    ) -> Option<CastHit> {
        let ray = Ray3d::new(origin, direction);
        let mut reach = max_distance;
        let mut closest = None;
        for (tree, on_static) in self.trees(static_only) {
            tree.ray_traverse_closest(ray, reach, |proxy_id| {
                let Some((proxy, position, rotation, collider)) = self.candidate(tree, proxy_id, mask, chassis) else {
                    return f32::MAX;
                };
                let Some((distance, normal)) =
                    collider.cast_ray(position.0, *rotation, origin, direction.as_vec3(), reach, true)
                else {
                    return f32::MAX;
                };
                if distance < reach {
                    reach = distance;
                    closest = Some(CastHit {
                        entity: proxy.collider,
                        body: proxy.body,
                        point: origin + direction * distance,
                        normal,
                        distance,
                        on_static,
                    });
                }
                distance
            });
        }
        closest
    }

    /// The closest hit of `shape` at `origin` with `rotation`, swept along `direction`
    /// within `max_distance` (a shape that starts touching hits at distance 0), against
    /// the same colliders as [`ray`](Self::ray). The point and normal are on the
    /// collider hit. `static_only` as for [`ray`](Self::ray).
    ///
    /// `refine(point, normal, distance)` corrects each candidate's distance before the
    /// closest is chosen (parry's cast stops early against large shapes, by centimetres
    /// against a 400 m box: enough to choose that box over a slab lying on it).
    #[allow(clippy::too_many_arguments)]
    pub fn shape(
        &self,
        shape: &Collider,
        origin: Vec3,
        rotation: Quat,
        direction: Dir3,
        max_distance: f32,
        mask: LayerMask,
        chassis: Entity,
        static_only: bool,
        refine: impl Fn(Vec3, Vec3, f32) -> f32,
    ) -> Option<CastHit> {
        let aabb = obvhs::aabb::Aabb::from(shape.aabb(origin, rotation));
        let pose2 = parry::math::Pose3::from_parts(origin, rotation);
        let options = parry::query::ShapeCastOptions {
            max_time_of_impact: max_distance,
            target_distance: 0.0,
            stop_at_penetration: true,
            compute_impact_geometry_on_penetration: true,
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
                let Ok(Some(hit)) = parry::query::cast_shapes(
                    &pose1,
                    Vec3::ZERO,
                    collider.shape_scaled().as_ref(),
                    &pose2,
                    direction.as_vec3(),
                    shape.shape_scaled().as_ref(),
                    options,
                ) else {
                    return f32::MAX;
                };
                let (point, normal) = (pose1 * hit.witness1, pose1.rotation * hit.normal1);
                let distance = refine(point, normal, hit.time_of_impact);
                if distance < reach {
                    reach = distance;
                    closest = Some(CastHit {
                        entity: proxy.collider,
                        body: proxy.body,
                        point,
                        normal,
                        distance,
                        on_static,
                    });
                }
                distance
            });
        }
        closest
    }
}
