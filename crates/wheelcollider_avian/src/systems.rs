//! The wheel systems: attach, validate, step (screen, sense, solve, sum the forces:
//! parallel per chassis), apply (serial: the sums to each chassis, then to dynamic ground),
//! visuals.

use crate::components::*;
use avian3d::prelude::*;
use bevy::prelude::*;
use wheelcollider_core::{Contact, STICK_SPEED, StepInput, SweepType, step};

/// Suspension force and tyre forces are applied here; a body this light or lighter (kg)
/// is treated as having no usable mass for the effective-mass terms.
const MIN_MASS: f32 = 1e-6;

/// When a [`WheelCollider`] is added without a [`WheelOf`], attach it to its nearest
/// [`RigidBody`] ancestor.
pub(crate) fn attach_wheel(
    add: On<Add, WheelCollider>,
    mut commands: Commands,
    wheels: Query<(), With<WheelOf>>,
    parents: Query<&ChildOf>,
    bodies: Query<(), With<RigidBody>>,
) {
    let wheel = add.entity;
    if wheels.contains(wheel) {
        return;
    }
    match body_above(wheel, &parents, &bodies) {
        Some(body) => {
            commands.entity(wheel).insert(WheelOf(body));
        }
        None => warn!(
            "wheel {wheel} has no rigid-body ancestor: it does nothing until it is made a child of one or you insert `WheelOf(chassis)`"
        ),
    }
}

/// When a [`WheelCollider`] without a [`WheelOf`] is given a parent later (spawned
/// first, then `add_child`), attach it to its nearest [`RigidBody`] ancestor then. A
/// wheel that already has a `WheelOf` keeps it.
pub(crate) fn attach_reparented_wheel(
    insert: On<Insert, ChildOf>,
    mut commands: Commands,
    wheels: Query<(), (With<WheelCollider>, Without<WheelOf>)>,
    parents: Query<&ChildOf>,
    bodies: Query<(), With<RigidBody>>,
) {
    let wheel = insert.entity;
    if !wheels.contains(wheel) {
        return;
    }
    if let Some(body) = body_above(wheel, &parents, &bodies) {
        commands.entity(wheel).insert(WheelOf(body));
    }
}

/// The nearest [`RigidBody`] ancestor of `wheel`.
fn body_above(wheel: Entity, parents: &Query<&ChildOf>, bodies: &Query<(), With<RigidBody>>) -> Option<Entity> {
    parents.iter_ancestors(wheel).find(|e| bodies.contains(*e))
}

/// Re-validates settings that changed (by reflection, a preset, an inspector): clamps,
/// resets non-finite fields to their defaults and logs which one it was.
pub(crate) fn validate_settings(mut wheels: Query<(Entity, &mut WheelCollider), Changed<WheelCollider>>) {
    for (entity, mut wheel) in &mut wheels {
        let (clean, error) = wheel.sanitized();
        if let Some(error) = error {
            error!("wheel {entity}: {error}; reset to its default");
        }
        if clean != wheel.0 {
            wheel.bypass_change_detection().0 = clean;
        }
    }
}

/// Ground bodies: velocity at a point for moving platforms.
type GroundQuery<'w, 's> = Query<
    'w,
    's,
    (
        &'static RigidBody,
        &'static Position,
        &'static Rotation,
        &'static LinearVelocity,
        &'static AngularVelocity,
        &'static ComputedCenterOfMass,
        Option<&'static ComputedMass>,
        Option<&'static ComputedAngularInertia>,
    ),
>;

/// Turns avian's cylinder (axis along Y) to lie along the wheel's axle (X): −90° about Z.
const CYLINDER_TO_AXLE: Quat = Quat::from_xyzw(
    0.0,
    0.0,
    -core::f32::consts::FRAC_1_SQRT_2,
    core::f32::consts::FRAC_1_SQRT_2,
);

/// A sweep that starts this deep inside another dynamic body (m) is a collision between
/// the bodies, for avian's solver: the wheel ignores that body.
const INSIDE_DYNAMIC: f32 = 1e-4;

#[inline]
fn finite_or_zero(v: f32) -> f32 {
    if v.is_finite() { v } else { 0.0 }
}

/// `1 / (1/m + (r×u)·I⁻¹(r×u))`: the mass the body shows to an impulse along `u` at
/// offset `r` from its centre of mass.
#[inline]
fn effective_mass(inverse_mass: f32, inverse_inertia: &avian3d::math::SymmetricMatrix, r: Vec3, u: Vec3) -> f32 {
    let k = inverse_effective_mass(inverse_mass, inverse_inertia, r, u);
    if k > 0.0 && k.is_finite() { 1.0 / k } else { 0.0 }
}

/// `1/m + (r×u)·I⁻¹(r×u)`, or 0 if that is not a finite positive number.
#[inline]
fn inverse_effective_mass(
    inverse_mass: f32,
    inverse_inertia: &avian3d::math::SymmetricMatrix,
    r: Vec3,
    u: Vec3,
) -> f32 {
    let ru = r.cross(u);
    let k = inverse_mass + ru.dot(inverse_inertia.mul_vec3(ru));
    if k > 0.0 && k.is_finite() { k } else { 0.0 }
}

/// Makes a shape cast's distance exact against the tangent plane of its hit.
///
/// Parry's shape cast (GJK-based time of impact) loses precision against large shapes:
/// measured here, a 0.3 m sphere over a 400 m ground box stops 2.4 cm early and a
/// cylinder 4.7 cm (0.3 mm over a 40 m box). The hit point and normal it returns are
/// accurate, so the distance is recomputed exactly: how far the shape's support point
/// towards the surface travels along −`up` to reach the plane through the hit point.
/// Used when the plane faces the sweep (`up·n > 0.1`) and the correction moves the hit
/// later (the cast's error is always an early stop: 7.8 cm for a 0.14 m kart wheel over
/// a 400 m box), or earlier by less than a quarter of the radius. It is applied to every
/// candidate before the closest is chosen; one refined beyond the sweep's reach does not
/// touch and is skipped ([`WheelCasts::shape`](crate::sweep::WheelCasts::shape)).
#[inline]
fn refine_distance(
    start: Vec3,
    up: Vec3,
    radius: f32,
    cylinder: Option<(Vec3, f32)>,
    point: Vec3,
    normal: Vec3,
    distance: f32,
) -> f32 {
    let Some(n) = normal.try_normalize() else {
        return distance;
    };
    let facing = up.dot(n);
    if facing < 0.1 {
        return distance;
    }
    // Support point of the shape (relative to its centre) in direction −n.
    let v = -n;
    let support = match cylinder {
        None => v * radius,
        Some((axis, half_width)) => {
            let across = (v - axis * v.dot(axis)).normalize_or_zero();
            axis * half_width * v.dot(axis).signum() + across * radius
        }
    };
    // (start − up·t + support − point)·n = 0
    let t = (start + support - point).dot(n) / facing;
    if t.is_finite() && t - distance > -0.25 * radius.max(0.05) {
        t.max(0.0)
    } else {
        distance
    }
}

/// The wheels' query in [`step_wheels`]: read through `get_unchecked`, one chassis' wheels
/// per task.
type WheelQuery<'w, 's> = Query<
    'w,
    's,
    (
        &'static WheelCollider,
        &'static WheelInput,
        &'static mut WheelState,
        &'static mut WheelSweepShape,
        &'static Transform,
        Option<&'static WheelSweepLayers>,
    ),
>;

/// What every wheel of one chassis reads, computed once per chassis and step.
struct ChassisFrame<'a> {
    entity: Entity,
    position: Vec3,
    rotation: Quat,
    linear_velocity: Vec3,
    angular_velocity: Vec3,
    /// 0 for a body without usable mass (1/kg).
    inverse_mass: f32,
    inertia: &'a ComputedAngularInertia,
    /// The world inverse inertia, computed on the first wheel that needs it.
    inverse_inertia: core::cell::OnceCell<avian3d::math::SymmetricMatrix>,
    /// The centre of mass in the world (m).
    center_of_mass: Vec3,
    /// The chassis collider's layer filters, for wheels without [`WheelSweepLayers`].
    filters: Option<LayerMask>,
    /// Grounded wheels of the last step, at least 1.
    share: f32,
}

/// The box (chassis frame, m) that holds a wheel's sweep: from the shape's start `radius`
/// above the mount to the end of its travel, widened by the shape's half-diagonal and
/// 1 cm.
#[inline]
fn sweep_box(wheel: &WheelCollider, mount: &Transform) -> (Vec3, Vec3) {
    let (radius, length) = (wheel.radius(), wheel.suspension_length());
    let up = mount.rotation * Vec3::Y;
    let half_width = 0.5 * wheel.width();
    let extent = Vec3::splat((radius * radius + half_width * half_width).sqrt() + 0.01);
    let (top, bottom) = (mount.translation + up * radius, mount.translation - up * length);
    (top.min(bottom) - extent, top.max(bottom) + extent)
}

/// Whether a collider that can move, other than the chassis' own, has its bounding box
/// in the world box of `local` (a box in the chassis frame at `position`, `rotation`).
/// True for a non-finite box, so that the wheels then cast against everything.
#[inline]
fn moving_near(
    casts: &crate::sweep::WheelCasts,
    grid: &crate::sweep::MovingGrid,
    chassis: Entity,
    position: Vec3,
    rotation: Quat,
    (min, max): (Vec3, Vec3),
) -> bool {
    let center = position + rotation * (0.5 * (min + max));
    let m = Mat3::from_quat(rotation);
    let half = 0.5 * (max - min);
    let half = Vec3::new(
        m.row(0).abs().dot(half),
        m.row(1).abs().dot(half),
        m.row(2).abs().dot(half),
    );
    let aabb = ColliderAabb {
        min: center - half,
        max: center + half,
    };
    !(aabb.min.is_finite() && aabb.max.is_finite())
        || grid
            .any_in(aabb, chassis)
            .unwrap_or_else(|| casts.moving_in(aabb, chassis))
}

/// The wheels' step, one chassis per task, in parallel: whether a collider that can move
/// is in reach of its wheels ([`WheelCasts::moving_in`](crate::sweep::WheelCasts::moving_in));
/// then per wheel the sweep, the contact and the wheel model; then the sum of the wheels'
/// forces at the centre of mass and of their moments about it, kept in [`WheelChassis`]
/// for [`apply_forces`], with the count of grounded wheels.
///
/// The screening looks in the box that held the wheels' sweeps in the last step (in the
/// chassis frame, turned with it). A wheel whose sweep is not inside that box (its
/// settings or mount changed, or the chassis' first step) casts against everything
/// this step, so the screening never hides a hit.
///
/// One pass per chassis shares the chassis' pose, mass and layers between its wheels and
/// joins the threads once per step instead of three times (see `docs/performance.md`).
#[allow(clippy::type_complexity, clippy::too_many_arguments)]
pub(crate) fn step_wheels(
    time: Res<Time>,
    casts: crate::sweep::WheelCasts,
    mut grid: Local<crate::sweep::MovingGrid>,
    ground: GroundQuery,
    surfaces: Query<&crate::vehicle::WheelSurface>,
    owners: Query<&WheelOf>,
    wheels: WheelQuery,
    mut chassis: Query<(
        Entity,
        &Position,
        &Rotation,
        &LinearVelocity,
        &AngularVelocity,
        &ComputedMass,
        &ComputedAngularInertia,
        &ComputedCenterOfMass,
        Option<&CollisionLayers>,
        &ChassisWheels,
        &mut WheelChassis,
    )>,
) {
    let dt = time.delta_secs();
    if dt <= 0.0 {
        return;
    }
    // Most scenes have no surfaces: then no wheel looks one up.
    let surfaces = (!surfaces.is_empty()).then_some(&surfaces);
    let count = chassis.iter().len();
    if count == 0 {
        return;
    }
    casts.rebuild_grid(&mut grid, count);
    let grid = &*grid;
    // Four batches per thread: when a thread is held up (avian's tree optimization runs
    // as a background task meanwhile), the others take its remaining batches. Measured
    // with two threads: 0.35 against 0.37 µs per wheel-step (medians of four).
    chassis
        .par_iter_mut()
        .batching_strategy(bevy::ecs::batching::BatchingStrategy::new().batches_per_thread(4))
        .for_each(
            |(entity, pos, rot, lin, ang, mass, inertia, com, layers, children, mut bookkeeping)| {
                let screened = bookkeeping
                    .sweep_box
                    .filter(|&local| !moving_near(&casts, grid, entity, pos.0, rot.0, local));
                let frame = ChassisFrame {
                    entity,
                    position: pos.0,
                    rotation: rot.0,
                    linear_velocity: lin.0,
                    angular_velocity: ang.0,
                    inverse_mass: if mass.value() > MIN_MASS { mass.inverse() } else { 0.0 },
                    inertia,
                    inverse_inertia: core::cell::OnceCell::new(),
                    center_of_mass: pos.0 + rot.0 * com.0,
                    filters: layers.map(|l| l.filters),
                    share: bookkeeping.grounded_wheels.max(1) as f32,
                };
                let (mut force, mut torque, mut grounded, mut reactions) = (Vec3::ZERO, Vec3::ZERO, 0, false);
                let (mut box_min, mut box_max) = (Vec3::splat(f32::MAX), Vec3::splat(f32::MIN));
                for &w in children.wheels() {
                    if !owners.get(w).is_ok_and(|wheel_of| wheel_of.0 == entity) {
                        continue;
                    }
                    // SAFETY: a wheel is fetched mutably only by the task of the chassis its
                    // `WheelOf` names (checked just above), and an entity has one `WheelOf`:
                    // no two tasks fetch the same wheel. Within this task the fetches are
                    // sequential and each item is dropped before the next. `WheelQuery` shares
                    // no mutable component with the other parameters.
                    let Ok((wheel, input, mut state, mut cache, mount, wheel_layers)) =
                        (unsafe { wheels.get_unchecked(w) })
                    else {
                        continue;
                    };
                    let state = &mut *state;
                    let (min, max) = sweep_box(wheel, mount);
                    (box_min, box_max) = (box_min.min(min), box_max.max(max));
                    // Cast against the static tree alone (see `WheelCasts::moving_in`).
                    let static_only =
                        screened.is_some_and(|(s_min, s_max)| s_min.cmple(min).all() && max.cmple(s_max).all());
                    solve_wheel(
                        &frame,
                        static_only,
                        dt,
                        &casts,
                        &ground,
                        surfaces,
                        w,
                        wheel,
                        input,
                        state,
                        &mut cache,
                        mount,
                        wheel_layers,
                    );
                    if state.output.grounded {
                        grounded += 1;
                        force += state.force;
                        torque += (state.contact_position - frame.center_of_mass).cross(state.force);
                        reactions |= state
                            .hit
                            .is_some_and(|h| h.dynamic && h.body.is_some_and(|b| b != entity));
                    }
                }
                let bookkeeping = bookkeeping.bypass_change_detection();
                bookkeeping.grounded_wheels = grounded;
                bookkeeping.sweep_box = box_min.cmple(box_max).all().then_some((box_min, box_max));
                bookkeeping.force = force;
                bookkeeping.torque = torque;
                bookkeeping.reactions = reactions;
            },
        );
}

/// One wheel's step: sweep (against static colliders only with `static_only`), contact,
/// wheel model, outputs into `state`.
#[allow(clippy::too_many_arguments)]
#[inline]
fn solve_wheel(
    frame: &ChassisFrame,
    static_only: bool,
    dt: f32,
    casts: &crate::sweep::WheelCasts,
    ground: &GroundQuery,
    surfaces: Option<&Query<&crate::vehicle::WheelSurface>>,
    entity: Entity,
    wheel: &WheelCollider,
    input: &WheelInput,
    state: &mut WheelState,
    cache: &mut WheelSweepShape,
    mount: &Transform,
    layers: Option<&WheelSweepLayers>,
) {
    let settings = &wheel.0;
    let radius = settings.radius();
    let length = settings.suspension_length();
    let rot = frame.rotation;

    // The mount in the world.
    let mount_rot = rot * mount.rotation;
    let mount_pos = frame.position + rot * mount.translation;
    let up = mount_rot * Vec3::Y;
    // A rotated unit vector: normalising it again is only needed if the chassis'
    // rotation drifted off unit length.
    let down = if up.is_normalized() {
        Dir3::new_unchecked(-up)
    } else {
        Dir3::new(-up).unwrap_or(Dir3::NEG_Y)
    };
    let yaw_deg = (finite_or_zero(input.steer_angle).clamp(-90.0, 90.0) + settings.toe_angle()).clamp(-135.0, 135.0);
    // Steer and camber change rarely: their rotations are kept from the last step.
    let camber_deg = settings.camber_angle();
    let (cached_yaw, cached_camber, ..) = state.steer_cache;
    if cached_yaw.to_bits() != yaw_deg.to_bits() || cached_camber.to_bits() != camber_deg.to_bits() {
        state.steer_cache = (
            yaw_deg,
            camber_deg,
            Quat::from_axis_angle(Vec3::Y, yaw_deg.to_radians()),
            Quat::from_axis_angle(Vec3::Z, camber_deg.to_radians()),
        );
    }
    let (_, _, yaw, camber_rot) = state.steer_cache;
    let steered = mount_rot * yaw;
    let wheel_rot = steered * camber_rot;
    let forward0 = steered * Vec3::NEG_Z;
    let right0 = steered * Vec3::X;

    // Sweep, excluding the wheel's own chassis.
    let mask = layers.map(|l| l.0).or(frame.filters).unwrap_or(LayerMask::ALL);
    let chassis_entity = frame.entity;
    let reach = length + radius;
    let hit = match settings.sweep_type() {
        SweepType::Ray => casts.ray(mount_pos, down, reach, mask, chassis_entity, static_only),
        sweep => {
            // Axis along the axle after steer, toe and camber.
            let axle = (sweep == SweepType::Cylinder).then(|| wheel_rot * Vec3::X);
            let width = settings.width();
            let cache = &mut cache.shape;
            if !matches!(cache, Some((_, s, r, w)) if *s == sweep && *r == radius && *w == width) {
                let shape = match sweep {
                    SweepType::Sphere => Collider::sphere(radius),
                    _ => Collider::cylinder(radius, width),
                };
                *cache = Some((shape, sweep, radius, width));
            }
            let shape = &cache.as_ref().expect("built above").0;
            let shape_rot = match axle {
                None => Quat::IDENTITY,
                Some(_) => wheel_rot * CYLINDER_TO_AXLE,
            };
            let start = mount_pos + up * radius;
            let cylinder = axle.map(|a| (a, width * 0.5));
            let refine = |point, normal, d| refine_distance(start, up, radius, cylinder, point, normal, d);
            casts.shape(
                shape,
                start,
                shape_rot,
                down,
                reach,
                mask,
                chassis_entity,
                static_only,
                refine,
            )
        }
    };

    // What the wheel stands on. A dynamic body (another car, a plank) is pushed back
    // and shares the contact's mass; a sweep that starts inside one is a collision
    // between the bodies, which avian resolves: the wheel then ignores it (two cars
    // side by side, each wheel's cylinder inside the other car, otherwise pushed
    // each other apart with their bump stops, faster every step).
    let hit = hit.and_then(
        |crate::sweep::CastHit {
             entity: hit_entity,
             body,
             point,
             normal,
             distance,
             on_static,
         }| {
            let other = body
                .filter(|&b| !on_static && b != chassis_entity)
                .and_then(|b| ground.get(b).ok())
                .filter(|g| !g.0.is_static());
            if other.as_ref().is_some_and(|g| g.0.is_dynamic()) && distance <= INSIDE_DYNAMIC {
                return None;
            }
            Some((hit_entity, point, normal, distance, body, other))
        },
    );

    // Contact in the wheel's frame.
    let inverse_mass = frame.inverse_mass;
    let com_world = frame.center_of_mass;
    let share = frame.share;
    let mut contact = None;
    let mut wheel_hit = None;
    let (mut forward, mut sideways, mut contact_position) = (Vec3::ZERO, Vec3::ZERO, mount_pos);
    if let Some((hit_entity, point, normal, distance, body, other)) = hit {
        let normal = normal.try_normalize().unwrap_or(up);
        forward = forward0.reject_from_normalized(normal).normalize_or_zero();
        sideways = right0.reject_from_normalized(normal).normalize_or_zero();
        contact_position = mount_pos + up * (point - mount_pos).dot(up);
        // Camber from the ground: the angle from the normal to the mount's up,
        // about forward, positive when the top leans to −sideways.
        let n_p = normal.reject_from(forward0);
        let up_p = up.reject_from(forward0);
        let (sin_c, cos_c) = (n_p.cross(up_p).dot(-forward0), n_p.dot(up_p));
        // atan2 with the core's fast atan in the usual case (the normal within 90°
        // of the mount's up).
        let ground_camber = if cos_c > 0.0 {
            wheelcollider_core::fast_atan(sin_c / cos_c)
        } else {
            sin_c.atan2(cos_c)
        }
        .to_degrees();
        let r = point - com_world;
        let mut velocity = frame.linear_velocity + frame.angular_velocity.cross(r);
        // A moving ground: velocity relative to it, and for a dynamic one its inverse
        // mass and inertia at the point (kinematic: infinite mass).
        let mut other_inverse = None;
        let dynamic = other.as_ref().is_some_and(|g| g.0.is_dynamic());
        if let Some((kind, gpos, grot, glin, gang, gcom, gmass, ginertia)) = other {
            let g_com = gpos.0 + grot.0 * gcom.0;
            velocity -= glin.0 + gang.0.cross(point - g_com);
            if kind.is_dynamic()
                && let (Some(m), Some(i)) = (gmass, ginertia)
                && m.value() > MIN_MASS
            {
                other_inverse = Some((m.inverse(), i.rotated(grot.0).inverse(), point - g_com));
            }
        }
        // Effective masses only where the core uses them: the bump stop (the tyre
        // centre above the mount) and static friction (below STICK_SPEED).
        let r_contact = contact_position - com_world;
        let approach = -velocity.dot(up);
        let near_stop = distance - approach.max(0.0) * dt < radius + settings.bump_amplitude();
        let slow = velocity.length_squared() < STICK_SPEED * STICK_SPEED;
        // Effective masses at the contact. Static friction takes a strict share
        // (over the grounded wheels, which all see much of the same motion); the
        // bump stop may take up to the body's mass per grounded wheel (an even
        // landing needs exactly that).
        //
        // Away from the stop the suspension mass is still given (the body's mass per
        // grounded wheel, no inertia), so that the core always predicts the stop
        // from the bodies' approach speed: a terrain step (a curb) jumps the
        // compression in one step, and the finite-difference speed that a zero
        // mass falls back to would read that as an approach of metres per second
        // and fire the stop (measured: 257 kN at one corner, the car rolled over).
        //
        // On a dynamic body both bodies take the impulse: the masses are the reduced
        // masses of the pair, 1 / (1/m_own + 1/m_other), each at its own point.
        let reduced = |m: f32, u: Vec3| match &other_inverse {
            Some((im, ii, r)) if m > 0.0 => 1.0 / (1.0 / m + inverse_effective_mass(*im, ii, *r, u)),
            _ => m,
        };
        let per_wheel = if inverse_mass > 0.0 {
            reduced(1.0 / inverse_mass / share, up)
        } else {
            0.0
        };
        let (suspension_mass, forward_mass, sideways_mass) = if near_stop || slow {
            let inverse_inertia = frame
                .inverse_inertia
                .get_or_init(|| frame.inertia.rotated(rot).inverse());
            let m = |u: Vec3| reduced(effective_mass(inverse_mass, inverse_inertia, r_contact, u), u);
            (
                if near_stop { m(up).min(per_wheel) } else { per_wheel },
                if slow { m(forward) / share } else { 0.0 },
                if slow { m(sideways) / share } else { 0.0 },
            )
        } else {
            (per_wheel, 0.0, 0.0)
        };
        let surface = surfaces
            .and_then(|q| q.get(hit_entity).ok().or_else(|| body.and_then(|b| q.get(b).ok())))
            .map(|s| s.sanitized());
        contact = Some(Contact {
            hit_distance: distance,
            forward_velocity: velocity.dot(forward),
            sideways_velocity: velocity.dot(sideways),
            ground_camber: finite_or_zero(ground_camber),
            hit_x: point.x,
            hit_z: point.z,
            grip: surface.map_or(1.0, |s| s.grip),
            surface_rolling_resistance: surface.map_or(0.0, |s| s.rolling_resistance),
            surface_bump: surface.map_or(0.0, |s| s.bump(point.x, point.z)),
            suspension_mass,
            forward_mass,
            sideways_mass,
            approach_speed: approach,
        });
        wheel_hit = Some(WheelHit {
            entity: hit_entity,
            body,
            point,
            normal,
            distance,
            dynamic,
        });
    }

    let step_input = StepInput {
        drive_torque: input.drive_torque,
        brake_torque: input.brake_torque,
        drivetrain_inertia: input.drivetrain_inertia,
        drivetrain_friction_torque: input.drivetrain_friction_torque,
        anti_roll_force: input.anti_roll_force,
        contact,
    };
    // A change of travel or radius moves the compression without any motion: shift
    // the damper's memory with it so it does not read the jump as a speed.
    let geometry = length + radius;
    if state.geometry == 0.0
        && let Some(c) = &step_input.contact
    {
        // First step of a wheel spawned on the ground: it starts at rest, so the
        // damper must not read "from full droop to here in one step" as a landing.
        state.memory.compression = length - (c.hit_distance - radius);
    }
    if state.geometry > 0.0 && state.geometry != geometry && state.memory.compression != 0.0 {
        state.memory.compression += geometry - state.geometry;
    }
    state.geometry = geometry;
    state.previous_pose = (state.output.current_suspension_length, state.memory.angle, state.yaw);
    let out = step(settings, &mut state.memory, step_input, dt);
    if out.rejected_input {
        warn_once!("wheel {entity}: a non-finite input was replaced by 0");
    }
    let mut force = up * out.load + forward * out.forward_force + sideways * out.sideways_force;
    if !force.is_finite() {
        error!("wheel {entity} produced a non-finite force {force}; dropped");
        force = Vec3::ZERO;
    }
    state.hit = wheel_hit;
    state.output = out;
    state.force = force;
    state.contact_position = contact_position;
    state.forward_direction = forward;
    state.sideways_direction = sideways;
    state.up = up;
    state.mount_position = mount_pos;
    state.center = mount_pos - up * out.current_suspension_length;
    state.yaw = yaw_deg;
    // Quat::from_rotation_x(−angle) with the core's sine and cosine (angle / 2 is in
    // [0, π)), a third of the cost of libm's.
    let (sin, cos) = wheelcollider_core::sin_cos_0_pi(0.5 * out.angle);
    state.rotation = wheel_rot * Quat::from_xyzw(-sin, 0.0, 0.0, cos);
}

/// Applies the wheels' forces: per chassis, the sums [`step_wheels`] kept (the same as
/// each wheel's force at its contact point, with one write per body); then the opposite
/// force to a dynamic body a wheel stands on, for the chassis that have such a wheel.
/// Serial: 1 000 chassis take about 30 µs, measured in the scenarios bench.
#[allow(clippy::type_complexity)]
pub(crate) fn apply_forces(
    wheels: Query<&WheelState>,
    chassis: Query<(Entity, &ChassisWheels, &WheelChassis)>,
    mut bodies: ParamSet<(Query<(Forces, &WheelChassis)>, Query<Forces>)>,
) {
    for (mut forces, bookkeeping) in &mut bodies.p0() {
        if bookkeeping.grounded_wheels > 0 {
            forces.apply_force(bookkeeping.force);
            forces.apply_torque(bookkeeping.torque);
        }
    }
    let mut others = bodies.p1();
    for (entity, children, _) in chassis.iter().filter(|(_, _, b)| b.reactions) {
        for state in wheels.iter_many(children.wheels()) {
            if let Some(hit) = state.hit
                && hit.dynamic
                && state.output.grounded
                && let Some(body) = hit.body
                && body != entity
                && let Ok(mut forces) = others.get_mut(body)
            {
                forces.apply_force_at_point(-state.force, hit.point);
            }
        }
    }
}

/// Places each [`WheelModel`] at its wheel's centre with steer, toe, camber and spin,
/// interpolated between the last two physics steps. A model that is a child of the
/// wheel's chassis (for a wheel outside the hierarchy) is placed in the chassis' frame,
/// through the wheel's mount; any other model in the wheel's frame.
pub(crate) fn place_models(
    fixed: Option<Res<Time<Fixed>>>,
    wheels: Query<(&WheelCollider, &WheelState, &WheelModel, &Transform, Option<&WheelOf>)>,
    mut models: Query<(&mut Transform, Option<&ChildOf>), Without<WheelCollider>>,
) {
    let alpha = fixed.map_or(1.0, |t| t.overstep_fraction().clamp(0.0, 1.0));
    for (wheel, state, model, mount, wheel_of) in &wheels {
        let Ok((mut transform, parent)) = models.get_mut(model.0) else {
            continue;
        };
        let on_chassis = parent.is_some_and(|p| wheel_of.is_some_and(|w| w.0 == p.parent()));
        let (l0, a0, y0) = state.previous_pose;
        let (l1, a1, y1) = (state.output.current_suspension_length, state.memory.angle, state.yaw);
        let mut da = a1 - a0;
        if da > core::f32::consts::PI {
            da -= core::f32::consts::TAU;
        } else if da < -core::f32::consts::PI {
            da += core::f32::consts::TAU;
        }
        let length = l0 + (l1 - l0) * alpha;
        let angle = a0 + da * alpha;
        let yaw = y0 + (y1 - y0) * alpha;
        let translation = Vec3::NEG_Y * length;
        let rotation = Quat::from_axis_angle(Vec3::Y, yaw.to_radians())
            * Quat::from_axis_angle(Vec3::Z, wheel.camber_angle().to_radians())
            * Quat::from_rotation_x(-angle);
        if on_chassis {
            transform.translation = mount.transform_point(translation);
            transform.rotation = mount.rotation * rotation;
        } else {
            transform.translation = translation;
            transform.rotation = rotation;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cylinder_to_axle_is_minus_90_about_z() {
        let q = Quat::from_rotation_z(-core::f32::consts::FRAC_PI_2);
        assert!(CYLINDER_TO_AXLE.abs_diff_eq(q, 1e-7));
        assert!((CYLINDER_TO_AXLE * Vec3::Y).abs_diff_eq(Vec3::X, 1e-6));
    }
}
