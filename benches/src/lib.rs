//! Benchmark worlds: N cars of 1 200 kg with four wheels each on a flat box, a heightfield
//! with gentle bumps or a trimesh of the same surface, for this plugin (avian3d) and for
//! Rapier's `DynamicRayCastVehicleController`, plus the same worlds without wheels (the
//! baseline: bodies floating level, no contacts).

use avian3d::prelude::*;
use bevy::prelude::*;
use std::time::Instant;
use wheelcollider_avian::prelude::*;

pub mod callgrind;
pub mod phases;
pub mod towing;
pub mod track;

/// Physics rate of every benchmark (Hz).
pub const HZ: f64 = 60.0;
/// Car spacing on the grid (m): across, along.
const SPACING: (f32, f32) = (6.0, 8.0);

/// Speed (m/s) at which the baseline's bodies fly forward, level, without gravity or
/// contacts: 1 m/s, about the driven cars' mean speed while they are measured (they start
/// at rest and reach 0.2–1.8 m/s), so that both worlds pay the engine's cost of moving
/// bodies (bounding boxes, tree updates) and the difference is the wheels'.
/// `WHEELCOLLIDER_BENCH_BASELINE_SPEED=0` keeps the bodies at rest (the method before
/// 2026-11-22).
pub fn baseline_speed() -> f32 {
    env_or("WHEELCOLLIDER_BENCH_BASELINE_SPEED", 1.0)
}

/// The environment variable `name` as a number, or `default` if unset or unparsable.
fn env_or(name: &str, default: f32) -> f32 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// Yaw rate (rad/s) at which the baseline's bodies turn while they fly: 0.02 rad/s,
/// about the driven cars' (1 m/s on their mean steer of 2.3° over a 2.8 m wheelbase).
/// An engine integrates a turning body's rotation at every substep (avian: a quaternion
/// from the scaled axis, which skips the sine and cosine at zero angular velocity),
/// and the driven cars always turn, pitch or roll a little: without it that cost of the
/// engine's counted as the wheels' (about 0.1 ms per step for 1 000 bodies with avian's
/// six substeps, 0.2 ms with two threads: `--phases`). The cost does not depend on the
/// rate, only on its being non-zero. `WHEELCOLLIDER_BENCH_BASELINE_YAW=0` keeps the
/// bodies from turning (the method before 2026-11-24).
pub fn baseline_yaw_rate() -> f32 {
    env_or("WHEELCOLLIDER_BENCH_BASELINE_YAW", 0.02)
}

/// The ground under the cars.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ground {
    /// A box with a flat top.
    Flat,
    /// A heightfield of gentle bumps (±5 cm, 2 m cells).
    Heightfield,
    /// A triangle mesh of the same surface.
    Trimesh,
}

impl Ground {
    /// All three.
    pub const ALL: [Ground; 3] = [Ground::Flat, Ground::Heightfield, Ground::Trimesh];
    /// Short name for tables.
    pub fn name(self) -> &'static str {
        match self {
            Ground::Flat => "flat",
            Ground::Heightfield => "heightfield",
            Ground::Trimesh => "trimesh",
        }
    }
}

/// The bump surface (m).
pub fn bump(x: f32, z: f32) -> f32 {
    0.05 * (0.5 * x).sin() * (0.4 * z).cos()
}

/// Grid of car positions (x, z) for `n` cars and the ground's side length (m).
pub fn grid(n: usize) -> (Vec<(f32, f32)>, f32) {
    let cols = (n as f32).sqrt().ceil() as usize;
    let side = (cols as f32 * SPACING.1 + 40.0).max(60.0);
    let cars = (0..n)
        .map(|i| {
            let (c, r) = (i % cols, i / cols);
            (
                (c as f32 - cols as f32 / 2.0) * SPACING.0,
                (r as f32 - cols as f32 / 2.0) * SPACING.1,
            )
        })
        .collect();
    (cars, side)
}

/// Heights on a grid of 2 m cells over `side`, row-major in x then z.
fn heights(side: f32) -> (usize, Vec<Vec<f32>>) {
    let cells = (side / 2.0).ceil() as usize;
    let h = (0..=cells)
        .map(|i| {
            (0..=cells)
                .map(|j| {
                    bump(
                        -side / 2.0 + i as f32 * side / cells as f32,
                        -side / 2.0 + j as f32 * side / cells as f32,
                    )
                })
                .collect()
        })
        .collect();
    (cells, h)
}

/// The bump surface as a triangle mesh: vertices (x, y, z) and triangles, the same
/// grid as [`heights`].
fn bump_mesh(side: f32) -> (Vec<[f32; 3]>, Vec<[u32; 3]>) {
    let (cells, h) = heights(side);
    let n = cells + 1;
    let step = side / cells as f32;
    let mut vertices = Vec::with_capacity(n * n);
    for (i, row) in h.iter().enumerate() {
        for (j, y) in row.iter().enumerate() {
            vertices.push([-side / 2.0 + i as f32 * step, *y, -side / 2.0 + j as f32 * step]);
        }
    }
    let mut indices = Vec::with_capacity(cells * cells * 2);
    for i in 0..cells {
        for j in 0..cells {
            let a = (i * n + j) as u32;
            let b = a + n as u32;
            indices.push([a, a + 1, b]);
            indices.push([b, a + 1, b + 1]);
        }
    }
    (vertices, indices)
}

fn avian_ground(ground: Ground, side: f32) -> (Collider, Transform) {
    match ground {
        Ground::Flat => (Collider::cuboid(side, 2.0, side), Transform::from_xyz(0.0, -1.0, 0.0)),
        Ground::Heightfield => {
            let (_, h) = heights(side);
            (
                Collider::heightfield(h, Vec3::new(side, 1.0, side)),
                Transform::IDENTITY,
            )
        }
        Ground::Trimesh => {
            let (vertices, indices) = bump_mesh(side);
            let vertices = vertices.into_iter().map(Vec3::from).collect();
            (Collider::trimesh(vertices, indices), Transform::IDENTITY)
        }
    }
}

/// An avian world with `n` cars. `sweep: None` is the baseline: the same bodies, no
/// wheels, no gravity, flying level above the ground at [`baseline_speed`], turning at
/// [`baseline_yaw_rate`].
pub fn avian_app(n: usize, ground: Ground, sweep: Option<SweepType>, threads: usize) -> App {
    avian_app_with(n, ground, sweep, threads, false)
}

/// A headless app with avian and the wheels on `threads` compute threads, one physics
/// step of 1/[`HZ`] s per `update()`: what every benchmark world starts from.
pub fn headless_app(threads: usize) -> App {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins.set(TaskPoolPlugin {
            task_pool_options: compute_threads(threads),
        }),
        TransformPlugin,
        bevy::asset::AssetPlugin::default(),
        PhysicsPlugins::default(),
        WheelColliderPlugins,
    ));
    wheelcollider_testing::app::fixed_step(&mut app, HZ);
    app
}

/// [`avian_app`], with the wheels outside the chassis' hierarchy when `detached`
/// (`WheelOf(chassis)` without `ChildOf`: Bevy does not propagate their transforms).
pub fn avian_app_with(n: usize, ground: Ground, sweep: Option<SweepType>, threads: usize, detached: bool) -> App {
    let mut app = headless_app(threads);
    if sweep.is_none() {
        app.insert_resource(Gravity(Vec3::ZERO));
    }

    let (cars, side) = grid(n);
    let (collider, transform) = avian_ground(ground, side);
    let world = app.world_mut();
    world.spawn((RigidBody::Static, collider, transform));
    let inertia = Vec3::new(1625.0, 1856.0, 281.0);
    for (i, (x, z)) in cars.into_iter().enumerate() {
        let y = if sweep.is_some() { 0.59 + bump(x, z) } else { 2.0 };
        let chassis = world
            .spawn((
                RigidBody::Dynamic,
                Collider::cuboid(1.6, 0.5, 4.0),
                Mass(1200.0),
                AngularInertia::new(inertia),
                CenterOfMass::ZERO,
                SleepingDisabled,
                Transform::from_xyz(x, y, z),
            ))
            .id();
        if sweep.is_none() {
            // Forward is −Z.
            world.entity_mut(chassis).insert((
                LinearVelocity(Vec3::NEG_Z * baseline_speed()),
                AngularVelocity(Vec3::Y * baseline_yaw_rate()),
            ));
        }
        if let Some(sweep) = sweep {
            let mut wheel = WheelCollider::default();
            wheel.set_sweep_type(sweep);
            let steer = 4.0 * ((i % 7) as f32 - 3.0) / 3.0;
            for (mx, mz) in [(-0.8, -1.4), (0.8, -1.4), (-0.8, 1.4), (0.8, 1.4)] {
                let input = if mz < 0.0 {
                    WheelInput {
                        steer_angle: steer,
                        ..Default::default()
                    }
                } else {
                    WheelInput {
                        drive_torque: 120.0,
                        ..Default::default()
                    }
                };
                let wheel = (wheel.clone(), input, Transform::from_xyz(mx, -0.25, mz));
                if detached {
                    world.spawn((wheel, WheelOf(chassis)));
                } else {
                    world.spawn((wheel, ChildOf(chassis)));
                }
            }
        }
    }
    app.finish();
    app.cleanup();
    app.update();
    app
}

/// Task pools with exactly `threads` compute threads (the systems' `par_iter`s run
/// there) plus one IO and one async thread, which idle here (with none, asset loading
/// waits forever). Bevy's default gives IO and async a thread each first, which leaves a
/// two-core machine one compute thread, and `par_iter` runs sequentially on one.
fn compute_threads(threads: usize) -> TaskPoolOptions {
    let one = || bevy::app::TaskPoolThreadAssignmentPolicy {
        min_threads: 1,
        max_threads: 1,
        percent: 0.0,
        on_thread_spawn: None,
        on_thread_destroy: None,
    };
    TaskPoolOptions {
        min_total_threads: threads + 2,
        max_total_threads: threads + 2,
        io: one(),
        async_compute: one(),
        compute: bevy::app::TaskPoolThreadAssignmentPolicy {
            min_threads: threads,
            max_threads: threads,
            percent: 1.0,
            on_thread_spawn: None,
            on_thread_destroy: None,
        },
    }
}

/// One thread runs every system of every schedule in a fixed order: Bevy's
/// single-threaded executor, what a game gets with the plugin's `parallel` feature off.
pub use wheelcollider_testing::app::single_threaded;

/// Mean seconds per `update()` (one physics step) over `steps`, after `warmup`.
pub fn time_steps(mut step: impl FnMut(), warmup: usize, steps: usize) -> f64 {
    for _ in 0..warmup {
        step();
    }
    let start = Instant::now();
    for _ in 0..steps {
        step();
    }
    start.elapsed().as_secs_f64() / steps as f64
}

/// Runs each runner `warmup` steps, then `batches` rounds of `batch` steps of each in
/// turn (each after two untimed steps), and returns each one's fastest batch (seconds
/// per step).
pub fn fastest_batches(runners: &mut [Box<dyn FnMut() + '_>], warmup: usize, batches: usize, batch: usize) -> Vec<f64> {
    for run in runners.iter_mut() {
        time_steps(&mut **run, warmup, 0);
    }
    let mut best = vec![f64::MAX; runners.len()];
    for _ in 0..batches {
        for (run, best) in runners.iter_mut().zip(best.iter_mut()) {
            // Two untimed steps first: the other worlds' batches have evicted this one's
            // data from the caches.
            *best = best.min(time_steps(&mut **run, 2, batch));
        }
    }
    best
}

/// The raw cost of one sweep against the ground through avian's `SpatialQuery`, at the
/// mount points of all wheels of an app built by [`avian_app`]: seconds per cast.
pub fn raw_cast_cost(app: &mut App, sweep: SweepType, repeats: usize) -> f64 {
    use bevy::ecs::system::SystemState;
    let ground = app
        .world_mut()
        .query_filtered::<Entity, With<RigidBody>>()
        .iter(app.world())
        .find(|e| app.world().get::<RigidBody>(*e) == Some(&RigidBody::Static))
        .expect("a ground");
    let only_ground = |e: Entity| e == ground;
    let mounts: Vec<(Vec3, Quat)> = app
        .world_mut()
        .query::<&WheelOutput>()
        .iter(app.world())
        .map(|s| (s.mount_position, s.rotation))
        .collect();
    let mut state: SystemState<SpatialQuery> = SystemState::new(app.world_mut());
    let query = state.get(app.world()).expect("spatial query available");
    let filter = SpatialQueryFilter::default();
    let shape = match sweep {
        SweepType::Cylinder => Collider::cylinder(0.3, 0.2),
        _ => Collider::sphere(0.3),
    };
    let config = ShapeCastConfig {
        max_distance: 0.4,
        ..ShapeCastConfig::DEFAULT
    };
    let start = Instant::now();
    let mut hits = 0usize;
    for _ in 0..repeats {
        for (p, q) in &mounts {
            let hit = match sweep {
                SweepType::Ray => query
                    .cast_ray_predicate(*p, Dir3::NEG_Y, 0.4, true, &filter, &only_ground)
                    .is_some(),
                _ => query
                    .cast_shape_predicate(
                        &shape,
                        *p + Vec3::Y * 0.3,
                        *q * Quat::from_rotation_z(-core::f32::consts::FRAC_PI_2),
                        Dir3::NEG_Y,
                        &config,
                        &filter,
                        &only_ground,
                    )
                    .is_some(),
            };
            hits += hit as usize;
        }
    }
    let elapsed = start.elapsed().as_secs_f64();
    std::hint::black_box(hits);
    elapsed / (repeats * mounts.len()) as f64
}

/// Rapier's raycast vehicle in the same scenario.
pub mod rapier {
    use super::*;
    use rapier3d::control::{DynamicRayCastVehicleController, WheelTuning};
    use rapier3d::parry::utils::Array2;
    use rapier3d::prelude::{
        ColliderBuilder, PhysicsWorld, QueryFilter, RigidBodyBuilder, RigidBodyHandle, Vector as RVec,
    };

    /// A Rapier world with `n` cars; `vehicles: false` is the baseline (no controllers,
    /// no gravity, bodies flying level at [`baseline_speed`](super::baseline_speed) and
    /// turning at [`baseline_yaw_rate`](super::baseline_yaw_rate)).
    pub struct RapierScene {
        world: PhysicsWorld,
        cars: Vec<(RigidBodyHandle, DynamicRayCastVehicleController)>,
        vehicles: bool,
    }

    impl RapierScene {
        /// Builds the world. Rapier's vehicle drives along its chassis' local X.
        pub fn new(n: usize, ground: Ground, vehicles: bool) -> Self {
            let mut world = PhysicsWorld::default();
            world.integration_parameters.dt = 1.0 / HZ as f32;
            if !vehicles {
                world.gravity = RVec::ZERO;
            }
            let (cars, side) = grid(n);
            let ground_collider = match ground {
                Ground::Flat => {
                    ColliderBuilder::cuboid(side / 2.0, 1.0, side / 2.0).translation(RVec::new(0.0, -1.0, 0.0))
                }
                Ground::Heightfield => {
                    let (cells, h) = heights(side);
                    let n = cells + 1;
                    let mut data = vec![0.0; n * n];
                    for (i, row) in h.iter().enumerate() {
                        for (j, y) in row.iter().enumerate() {
                            data[i + j * n] = *y;
                        }
                    }
                    ColliderBuilder::heightfield(Array2::new(n, n, data), RVec::new(side, 1.0, side))
                }
                Ground::Trimesh => {
                    let (vertices, indices) = bump_mesh(side);
                    let vertices = vertices.into_iter().map(|[x, y, z]| RVec::new(x, y, z)).collect();
                    ColliderBuilder::trimesh(vertices, indices).expect("valid mesh")
                }
            };
            world.colliders.insert(ground_collider);
            let tuning = WheelTuning {
                suspension_stiffness: 40_000.0 / 300.0, // Rapier's stiffness is per unit chassis mass share
                max_suspension_travel: 0.1,
                max_suspension_force: 20_000.0,
                ..WheelTuning::default()
            };
            let mut list = Vec::with_capacity(n);
            for (i, (x, z)) in cars.into_iter().enumerate() {
                let y = if vehicles { 0.59 + bump(x, z) } else { 2.0 };
                // The baseline flies along the vehicle's forward, +X.
                let (speed, yaw) = if vehicles {
                    (0.0, 0.0)
                } else {
                    (baseline_speed(), baseline_yaw_rate())
                };
                let body = world.bodies.insert(
                    RigidBodyBuilder::dynamic()
                        .translation(RVec::new(x, y, z))
                        .linvel(RVec::new(speed, 0.0, 0.0))
                        .angvel(RVec::new(0.0, yaw, 0.0))
                        .can_sleep(false),
                );
                let chassis = ColliderBuilder::cuboid(2.0, 0.25, 0.8).mass(1200.0);
                world.colliders.insert_with_parent(chassis, body, &mut world.bodies);
                let mut vehicle = DynamicRayCastVehicleController::new(body);
                for (wx, wz) in [(1.4, -0.8), (1.4, 0.8), (-1.4, -0.8), (-1.4, 0.8)] {
                    vehicle.add_wheel(RVec::new(wx, -0.25, wz), -RVec::Y, RVec::Z, 0.1, 0.3, &tuning);
                }
                let steer = (4.0f32 * ((i % 7) as f32 - 3.0) / 3.0).to_radians();
                for (k, wheel) in vehicle.wheels_mut().iter_mut().enumerate() {
                    if k < 2 {
                        wheel.steering = steer;
                    } else {
                        wheel.engine_force = 400.0;
                    }
                }
                list.push((body, vehicle));
            }
            let mut scene = Self {
                world,
                cars: list,
                vehicles,
            };
            scene.step();
            scene
        }

        /// Mean chassis height (m), to check that the cars stand on their wheels.
        pub fn mean_height(&self) -> f32 {
            let sum: f32 = self
                .cars
                .iter()
                .map(|(b, _)| self.world.bodies[*b].translation().y)
                .sum();
            sum / self.cars.len().max(1) as f32
        }

        /// One step: every vehicle's update, then the physics step.
        pub fn step(&mut self) {
            if self.vehicles {
                let dt = self.world.integration_parameters.dt;
                let world = &mut self.world;
                for (body, vehicle) in &mut self.cars {
                    let queries = world.broad_phase.as_query_pipeline_mut(
                        world.narrow_phase.query_dispatcher(),
                        &mut world.bodies,
                        &mut world.colliders,
                        QueryFilter::default().exclude_rigid_body(*body),
                    );
                    vehicle.update_vehicle(dt, queries);
                }
            }
            self.world.step();
        }
    }
}

/// The mean of `f(position, velocity)` over the dynamic bodies of an app built by
/// [`avian_app`].
fn mean_over_bodies(app: &mut App, f: impl Fn(&Position, &LinearVelocity) -> f32) -> f32 {
    let values: Vec<f32> = app
        .world_mut()
        .query::<(&Position, &LinearVelocity, &RigidBody)>()
        .iter(app.world())
        .filter(|(.., b)| b.is_dynamic())
        .map(|(p, v, _)| f(p, v))
        .collect();
    values.iter().sum::<f32>() / values.len().max(1) as f32
}

/// Mean height (m) of the dynamic bodies of an app built by [`avian_app`].
pub fn mean_height(app: &mut App) -> f32 {
    mean_over_bodies(app, |p, _| p.y)
}

/// Mean horizontal speed (m/s) of the dynamic bodies of an app built by [`avian_app`].
pub fn mean_speed(app: &mut App) -> f32 {
    mean_over_bodies(app, |_, v| v.xz().length())
}
