//! The wheel systems: attach, validate, step (screen, sense, solve, sum the forces:
//! parallel per chassis), apply (serial: the sums to each chassis, then to dynamic ground),
//! visuals.

use crate::components::*;
use crate::contact::{ChassisFrame, GroundQuery, MIN_MASS, SenseContext, Sensed, SurfaceQuery, WheelView, sense_wheel};
use avian3d::prelude::*;
use bevy::prelude::*;
use wheelcollider_core::suspension::MAX_WHEELS;
use wheelcollider_core::{StepInput, step};

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
        Option<&'static AntiRollBar>,
    ),
>;

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
    gravity: Option<Res<Gravity>>,
    casts: crate::sweep::WheelCasts,
    mut grid: Local<crate::sweep::MovingGrid>,
    ground: GroundQuery,
    surfaces: SurfaceQuery,
    owners: Query<&WheelOf>,
    wheels: WheelQuery,
    mut chassis: Query<(
        Entity,
        (&Position, &Rotation, &LinearVelocity, &AngularVelocity),
        (&ComputedMass, &ComputedAngularInertia, &ComputedCenterOfMass),
        Option<&GravityScale>,
        Option<&CollisionLayers>,
        &ChassisWheels,
        &mut WheelChassis,
    )>,
) {
    let dt = time.delta_secs();
    if dt <= 0.0 {
        return;
    }
    let gravity = gravity.map_or(Vec3::ZERO, |g| g.0);
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
            |(entity, (pos, rot, lin, ang), (mass, inertia, com), scale, layers, children, mut bookkeeping)| {
                let screened = bookkeeping
                    .sweep_box
                    .filter(|&local| !moving_near(&casts, grid, entity, pos.0, rot.0, local));
                let usable = mass.value() > MIN_MASS;
                let frame = ChassisFrame {
                    entity,
                    position: pos.0,
                    rotation: rot.0,
                    linear_velocity: lin.0,
                    angular_velocity: ang.0,
                    inverse_mass: if usable { mass.inverse() } else { 0.0 },
                    inverse_inertia: if usable {
                        inertia.rotated(rot.0).inverse()
                    } else {
                        Default::default()
                    },
                    center_of_mass: pos.0 + rot.0 * com.0,
                    filters: layers.map(|l| l.filters),
                    share: bookkeeping.grounded_wheels.max(1) as f32,
                    gravity: gravity * scale.map_or(1.0, |s| s.0),
                };
                // Only wheels whose `WheelOf` names this chassis (a wheel being moved to
                // another chassis may still be in the old list for a step).
                let mine = || {
                    children
                        .wheels()
                        .iter()
                        .copied()
                        .filter(|&w| owners.get(w).is_ok_and(|wheel_of| wheel_of.0 == entity))
                };
                // Groups of the solve: from the list's length (no second pass of lookups; a
                // wheel that is moving to another chassis at most makes it one too many).
                let groups = children.wheels().len().div_ceil(MAX_WHEELS).max(1);
                let mut sums = ChassisSums::default();
                let mut batch = [Entity::PLACEHOLDER; MAX_WHEELS];
                let mut n = 0;
                let flush = |batch: &[Entity], sums: &mut ChassisSums| {
                    step_group(
                        &frame, screened, dt, &casts, &ground, surfaces, &wheels, batch, groups, sums,
                    );
                };
                for w in mine() {
                    batch[n] = w;
                    n += 1;
                    if n == MAX_WHEELS {
                        flush(&batch[..n], &mut sums);
                        n = 0;
                    }
                }
                if n > 0 {
                    flush(&batch[..n], &mut sums);
                }
                let bookkeeping = bookkeeping.bypass_change_detection();
                bookkeeping.grounded_wheels = sums.grounded;
                bookkeeping.sweep_box = sums
                    .box_min
                    .cmple(sums.box_max)
                    .all()
                    .then_some((sums.box_min, sums.box_max));
                bookkeeping.force = sums.force;
                bookkeeping.torque = sums.torque;
                bookkeeping.reactions = sums.reactions;
            },
        );
}

/// What one chassis' wheels add up to in a step.
struct ChassisSums {
    force: Vec3,
    torque: Vec3,
    grounded: u32,
    reactions: bool,
    box_min: Vec3,
    box_max: Vec3,
}

impl Default for ChassisSums {
    fn default() -> Self {
        Self {
            force: Vec3::ZERO,
            torque: Vec3::ZERO,
            grounded: 0,
            reactions: false,
            box_min: Vec3::splat(f32::MAX),
            box_max: Vec3::splat(f32::MIN),
        }
    }
}

/// One group of one chassis' wheels (all of them, unless it has more than
/// [`MAX_WHEELS`]): sense each, solve their suspension together, finish each and add its
/// force to `sums`. `groups` is the chassis' number of groups.
#[allow(clippy::too_many_arguments)]
fn step_group(
    frame: &ChassisFrame,
    screened: Option<(Vec3, Vec3)>,
    dt: f32,
    casts: &crate::sweep::WheelCasts,
    ground: &GroundQuery,
    surfaces: Option<&SurfaceQuery>,
    wheels: &WheelQuery,
    batch: &[Entity],
    groups: usize,
    sums: &mut ChassisSums,
) {
    let mut sensed = [Sensed::default(); MAX_WHEELS];
    for (i, &w) in batch.iter().enumerate() {
        // SAFETY: a wheel is fetched mutably only by the task of the chassis its
        // `WheelOf` names (checked by the caller), and an entity has one `WheelOf`: no
        // two tasks fetch the same wheel. Within this task the fetches are sequential and
        // each item is dropped before the next. `WheelQuery` shares no mutable component
        // with the other parameters.
        let Ok((wheel, input, mut state, mut cache, mount, layers, bar)) = (unsafe { wheels.get_unchecked(w) }) else {
            sensed[i].entity = Entity::PLACEHOLDER;
            continue;
        };
        let (min, max) = sweep_box(wheel, mount);
        (sums.box_min, sums.box_max) = (sums.box_min.min(min), sums.box_max.max(max));
        let ctx = SenseContext {
            frame,
            // Cast against the static tree alone (see `WheelCasts::moving_in`).
            static_only: screened.is_some_and(|(s_min, s_max)| s_min.cmple(min).all() && max.cmple(s_max).all()),
            dt,
            casts,
            ground,
            surfaces,
        };
        let view = WheelView {
            entity: w,
            wheel,
            input,
            mount,
            layers,
            bar,
        };
        sensed[i] = sense_wheel(&ctx, &view, &mut state, &mut cache);
    }
    let sensed = &mut sensed[..batch.len()];
    crate::suspension::solve_chassis(frame.inverse_mass, sensed, dt, groups as f32);
    for s in sensed.iter() {
        if s.entity == Entity::PLACEHOLDER {
            continue;
        }
        // SAFETY: as above.
        let Ok((wheel, input, mut state, ..)) = (unsafe { wheels.get_unchecked(s.entity) }) else {
            continue;
        };
        let state = &mut *state;
        finish_wheel(dt, s, wheel, input, state);
        if state.output.grounded {
            sums.grounded += 1;
            sums.force += state.force;
            sums.torque += (state.contact_position - frame.center_of_mass).cross(state.force);
            sums.reactions |= state
                .hit
                .is_some_and(|h| h.dynamic && h.body.is_some_and(|b| b != frame.entity));
        }
    }
}

/// Finishes one wheel after the chassis' suspension solve: the core's step (tyre, spin,
/// static friction) with the solved suspension force, the force on the chassis, and the
/// outputs into `state`.
fn finish_wheel(dt: f32, sensed: &Sensed, wheel: &WheelCollider, input: &WheelInput, state: &mut WheelState) {
    let settings = &wheel.0;
    let (radius, length) = (settings.radius(), settings.suspension_length());
    let contact = sensed.ground.map(|g| g.contact);
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
        // First step of a wheel spawned on the ground: it starts at rest.
        state.memory.compression = length - (c.hit_distance - radius);
    }
    if state.geometry > 0.0 && state.geometry != geometry && state.memory.compression != 0.0 {
        state.memory.compression += geometry - state.geometry;
    }
    state.geometry = geometry;
    state.previous_pose = (state.output.current_suspension_length, state.memory.angle, state.yaw);
    let out = step(settings, &mut state.memory, step_input, dt);
    if out.rejected_input {
        warn_once!("wheel {}: a non-finite input was replaced by 0", sensed.entity);
    }
    let (up, mount_pos) = (sensed.up, sensed.mount_position);
    let (mut force, forward, sideways, position, direction) = match &sensed.ground {
        Some(g) => (
            g.direction * out.load + g.forward * out.forward_force + g.sideways * out.sideways_force,
            g.forward,
            g.sideways,
            g.position,
            g.direction,
        ),
        None => (Vec3::ZERO, Vec3::ZERO, Vec3::ZERO, mount_pos, up),
    };
    if !force.is_finite() {
        error!("wheel {} produced a non-finite force {force}; dropped", sensed.entity);
        force = Vec3::ZERO;
    }
    state.hit = sensed.ground.map(|g| g.hit);
    state.output = out;
    state.force = force;
    state.contact_position = position;
    state.forward_direction = forward;
    state.sideways_direction = sideways;
    state.suspension_direction = direction;
    state.up = up;
    state.mount_position = mount_pos;
    state.center = mount_pos - up * out.current_suspension_length;
    state.yaw = sensed.yaw;
    // Quat::from_rotation_x(−angle) with the core's sine and cosine (angle / 2 is in
    // [0, π)), a third of the cost of libm's.
    let (sin, cos) = wheelcollider_core::sin_cos_0_pi(0.5 * out.angle);
    state.rotation = sensed.wheel_rotation * Quat::from_xyzw(-sin, 0.0, 0.0, cos);
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
