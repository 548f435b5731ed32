//! The wheels' step, one chassis per task, in parallel: screen for moving colliders in
//! reach, build the chassis' [`ChassisContext`], then per group of wheels sense each
//! ([`super::contact`]), solve their suspension together ([`super::suspension`]), run
//! the wheel model on each ([`super::model`]) and sum the forces for [`super::apply`].
//!
//! `step_wheels` is the Bevy system: it gathers the step's [`StepWorld`] and runs
//! [`step_chassis`] on each chassis in parallel.

use super::components::*;
use super::contact::sense_wheel;
use super::contracts::{
    ChassisContext, ChassisFrame, GroundQuery, MIN_MASS, Sensed, SurfaceQuery, WheelQuery, WheelView,
};
use super::driveline::Slots;
use avian3d::prelude::*;
use bevy::prelude::*;
use wheelcollider_core::suspension::{MAX_WHEELS, SMALL_GROUP};
use wheelcollider_core::{Staged, StepOutput};

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
    casts: &super::sweep::WheelCasts,
    grid: &super::sweep::MovingGrid,
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

/// One chassis as the wheels' step reads and writes it.
#[derive(bevy::ecs::query::QueryData)]
#[query_data(mutable)]
pub(crate) struct ChassisData {
    entity: Entity,
    position: &'static Position,
    rotation: &'static Rotation,
    linear_velocity: &'static LinearVelocity,
    angular_velocity: &'static AngularVelocity,
    mass: &'static ComputedMass,
    inertia: &'static ComputedAngularInertia,
    centre_of_mass: &'static ComputedCenterOfMass,
    gravity_scale: Option<&'static GravityScale>,
    layers: Option<&'static CollisionLayers>,
    driveline: Option<&'static mut WheelDriveline>,
    wheels: &'static ChassisWheels,
    state: &'static mut ChassisState,
    forces: &'static mut ChassisForces,
}

/// What every chassis' task of one step reads besides its own chassis: the step's size
/// and gravity, and the world's casts and queries.
struct StepWorld<'a, 'w, 's> {
    dt: f32,
    gravity: Vec3,
    casts: &'a super::sweep::WheelCasts<'w, 's>,
    grid: &'a super::sweep::MovingGrid,
    ground: &'a GroundQuery<'w, 's>,
    surfaces: Option<&'a SurfaceQuery<'w, 's>>,
    weather: super::surface::Weather,
    owners: &'a Query<'w, 's, &'static WheelOf>,
    wheels: &'a WheelQuery<'w, 's>,
}

/// The wheels' step, one chassis per task, in parallel ([`step_chassis`]).
///
/// One pass per chassis shares the chassis' pose, mass and layers between its wheels and
/// joins the threads once per step instead of three times (see `docs/performance.md`).
#[cfg_attr(feature = "stage-table", inline(never))] // a stage of its own in `--stages`
pub(crate) fn step_wheels(
    time: Res<Time>,
    gravity: Option<Res<Gravity>>,
    weather: Option<Res<super::surface::Weather>>,
    casts: super::sweep::WheelCasts,
    mut grid: Local<super::sweep::MovingGrid>,
    ground: GroundQuery,
    surfaces: SurfaceQuery,
    owners: Query<&'static WheelOf>,
    wheels: WheelQuery,
    mut chassis: Query<ChassisData>,
) {
    let dt = time.delta_secs();
    let count = chassis.iter().len();
    if dt <= 0.0 || count == 0 {
        return;
    }
    casts.rebuild_grid(&mut grid, count);
    let world = StepWorld {
        dt,
        gravity: gravity.map_or(Vec3::ZERO, |g| g.0),
        casts: &casts,
        grid: &grid,
        ground: &ground,
        // Most scenes have no surfaces: then no wheel looks one up.
        surfaces: (!surfaces.is_empty()).then_some(&surfaces),
        weather: weather.map_or_else(Default::default, |w| *w),
        owners: &owners,
        wheels: &wheels,
    };
    // Four batches per thread: when a thread is held up (avian's tree optimization runs
    // as a background task meanwhile), the others take its remaining batches.
    chassis
        .par_iter_mut()
        .batching_strategy(bevy::ecs::batching::BatchingStrategy::new().batches_per_thread(4))
        .for_each(|c| step_chassis(&world, c));
}

/// One chassis' wheels: whether a collider that can move is in reach of them
/// ([`WheelCasts::moving_in`](super::sweep::WheelCasts::moving_in)); then per group of
/// wheels the sweep, the contact, the suspension solve and the wheel model
/// ([`step_group`]); then the sums written to its [`ChassisForces`] for the body parts
/// and [`apply_forces`](super::apply::apply_forces), and the count of grounded wheels
/// and the sweeps' box to its [`ChassisState`].
///
/// The screening looks in the box that held the wheels' sweeps in the last step (in the
/// chassis frame, turned with it). A wheel whose sweep is not inside that box (its
/// settings or mount changed, or the chassis' first step) casts against everything
/// this step, so the screening never hides a hit.
#[cfg_attr(feature = "stage-table", inline(never))] // a stage of its own in `--stages`
fn step_chassis(world: &StepWorld, mut c: ChassisDataItem) {
    let (entity, position, rotation) = (c.entity, c.position.0, c.rotation.0);
    let screened = c
        .state
        .sweep_box
        .filter(|&local| !moving_near(world.casts, world.grid, entity, position, rotation, local));
    let usable = c.mass.value() > MIN_MASS;
    let frame = ChassisFrame {
        entity,
        position,
        rotation,
        linear_velocity: c.linear_velocity.0,
        angular_velocity: c.angular_velocity.0,
        inverse_mass: if usable { c.mass.inverse() } else { 0.0 },
        inverse_inertia: if usable {
            c.inertia.rotated(rotation).inverse()
        } else {
            Default::default()
        },
        centre_of_mass: position + rotation * c.centre_of_mass.0,
        filters: c.layers.map(|l| l.filters),
        share: c.state.grounded_wheels.max(1) as f32,
        gravity: world.gravity * c.gravity_scale.map_or(1.0, |s| s.0),
        free: (c.state.free_force, c.state.free_torque),
    };
    // Groups of the solve: from the list's length (no second pass of lookups; a wheel
    // that is moving to another chassis at most makes it one too many).
    let groups = c.wheels.wheels().len().div_ceil(MAX_WHEELS).max(1);
    let ctx = ChassisContext {
        frame,
        screened,
        dt: world.dt,
        groups,
        casts: world.casts,
        ground: world.ground,
        surfaces: world.surfaces,
        weather: world.weather,
    };
    let mut sums = ChassisSums::new(ctx.frame.centre_of_mass);
    let mut batch = [Entity::PLACEHOLDER; MAX_WHEELS];
    let mut n = 0;
    // The driveline is solved with the first group's wheels (see `WheelDriveline`).
    let mut driveline = c.driveline.as_deref_mut();
    // Only wheels whose `WheelOf` names this chassis (a wheel being moved to another
    // chassis may still be in the old list for a step).
    let mine = c
        .wheels
        .wheels()
        .iter()
        .copied()
        .filter(|&w| world.owners.get(w).is_ok_and(|wheel_of| wheel_of.0 == entity));
    // A group of a car's size has its buffers that size (`SMALL_GROUP`): a car does
    // not pay for a tank's fourteen road wheels.
    let group = |batch: &[Entity], sums: &mut ChassisSums, driveline: Option<&mut WheelDriveline>| {
        if batch.len() <= SMALL_GROUP {
            step_group::<SMALL_GROUP>(&ctx, world.wheels, batch, sums, driveline);
        } else {
            step_group::<MAX_WHEELS>(&ctx, world.wheels, batch, sums, driveline);
        }
    };
    for w in mine {
        batch[n] = w;
        n += 1;
        if n == MAX_WHEELS {
            group(&batch[..n], &mut sums, driveline.take());
            n = 0;
        }
    }
    if n > 0 {
        group(&batch[..n], &mut sums, driveline.take());
    }
    let state = c.state.bypass_change_detection();
    state.grounded_wheels = sums.grounded;
    state.sweep_box = sums
        .box_min
        .cmple(sums.box_max)
        .all()
        .then_some((sums.box_min, sums.box_max));
    // The step's first writer of the force channel.
    *c.forces.bypass_change_detection() = sums.forces;
}

/// What one chassis' wheels add up to in a step: the force channel as they write it,
/// how many stand on the ground and the box that held their sweeps.
struct ChassisSums {
    forces: ChassisForces,
    grounded: u32,
    box_min: Vec3,
    box_max: Vec3,
}

impl ChassisSums {
    fn new(centre_of_mass: Vec3) -> Self {
        Self {
            forces: ChassisForces {
                centre_of_mass,
                ..Default::default()
            },
            grounded: 0,
            box_min: Vec3::splat(f32::MAX),
            box_max: Vec3::splat(f32::MIN),
        }
    }
}

/// One group of one chassis' wheels (all of them, unless it has more than
/// [`MAX_WHEELS`]), its buffers `N` long (`N` ≥ the batch): sense each, solve their
/// suspension together, stage each, solve the `driveline` with the driven ones, finish
/// each and add its force to `sums`.
fn step_group<const N: usize>(
    ctx: &ChassisContext,
    wheels: &WheelQuery,
    batch: &[Entity],
    sums: &mut ChassisSums,
    driveline: Option<&mut WheelDriveline>,
) {
    let mut sensed = [Sensed::default(); N];
    // What the finish needs of each wheel, kept from its one lookup.
    let mut kept: [Option<(&WheelCollider, &WheelInput, Mut<WheelState>, Mut<WheelOutput>)>; N] =
        core::array::from_fn(|_| None);
    for (i, &w) in batch.iter().enumerate() {
        if batch[..i].contains(&w) {
            continue;
        }
        // SAFETY: a wheel is fetched mutably only by the task of the chassis its
        // `WheelOf` names (checked by the caller), and an entity has one `WheelOf`: no
        // two tasks fetch the same wheel. Within this task each wheel of the batch is
        // fetched once (a repeated entity is skipped above), so the items kept together
        // are of distinct entities. `WheelQuery` shares no mutable component with the
        // other parameters.
        let Ok((wheel, input, mut state, output, mut cache, mount, (layers, bar))) =
            (unsafe { wheels.get_unchecked(w) })
        else {
            continue;
        };
        let (min, max) = sweep_box(wheel, mount);
        (sums.box_min, sums.box_max) = (sums.box_min.min(min), sums.box_max.max(max));
        let view = WheelView {
            entity: w,
            wheel,
            input,
            mount,
            layers,
            bar,
            // Cast against the static tree alone (see `WheelCasts::moving_in`).
            static_only: ctx
                .screened
                .is_some_and(|(s_min, s_max)| s_min.cmple(min).all() && max.cmple(s_max).all()),
        };
        sense_wheel(ctx, &view, &mut state, &mut cache, &mut sensed[i]);
        kept[i] = Some((wheel, input, state, output));
    }
    let sensed = &sensed[..batch.len()];
    let (frame, dt) = (&ctx.frame, ctx.dt);
    let forces = super::suspension::solve_chassis::<N>(frame, sensed, dt, ctx.groups as f32);
    let slots = driveline.as_deref().and_then(|d| Slots::of(d, batch));
    let mut staged: [Option<Result<Staged, StepOutput>>; N] = core::array::from_fn(|_| None);
    let mut start = [0.0f32; N];
    for (i, ((s, force), kept)) in sensed.iter().zip(forces).zip(&mut kept).enumerate() {
        let Some((wheel, input, state, _)) = kept else {
            continue;
        };
        let mut input = **input;
        if slots.is_some_and(|sl| sl.driven(i)) {
            // The driveline's inertia is in the solve.
            input.drivetrain_inertia = 0.0;
        }
        start[i] = input.drive_torque;
        staged[i] = Some(super::model::stage_wheel(
            (dt, &ctx.weather),
            (s, force),
            (&wheel.0, input),
            state,
        ));
    }
    let driven = match (driveline, slots) {
        (Some(d), Some(slots)) => super::driveline::solve::<N>(d, &slots, &staged, &start, dt).unwrap_or([None; N]),
        _ => [None; N],
    };
    for (i, (s, kept)) in sensed.iter().zip(&mut kept).enumerate() {
        let (Some((wheel, _, state, output)), Some(staged)) = (kept, &staged[i]) else {
            continue;
        };
        let output = &mut **output;
        super::model::finish_wheel(staged, driven[i], s, state, output);
        sums.forces
            .add_rotor(output, wheel.0.inertia(), frame.angular_velocity, dt);
        if output.output.grounded {
            sums.grounded += 1;
            sums.forces.add_wheel(output);
            sums.forces.reactions |= output
                .hit
                .is_some_and(|h| h.dynamic && h.body.is_some_and(|b| b != frame.entity));
        }
    }
}
