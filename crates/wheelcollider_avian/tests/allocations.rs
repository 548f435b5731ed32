//! No per-step heap allocation in the wheel systems: a counting global allocator is armed
//! from just before the wheel systems (after avian's broad phase) to just after them
//! (before its narrow phase), while cars of every preset drive over flat ground and a
//! heightfield. Ray wheels must allocate nothing. Sphere and cylinder wheels may allocate
//! inside parry's shape cast (its GJK / EPA keep their points in `Vec`s when a shape
//! starts in penetration): each allocation is told apart by its backtrace, and any
//! outside parry fails the test. Measured: none at all.
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

#[path = "it/common/mod.rs"]
mod common;
use avian3d::prelude::*;
use bevy::ecs::schedule::SingleThreadedExecutor;
use bevy::prelude::*;
use common::preset;
use wheelcollider_avian::prelude::*;

struct Counting;

static ARMED: AtomicBool = AtomicBool::new(false);
static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);
static BYTES: AtomicUsize = AtomicUsize::new(0);

thread_local! { static IN_TRACE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) }; }
/// Classify each counted allocation by its backtrace (slow: only for a few steps).
static CLASSIFY: AtomicBool = AtomicBool::new(false);
static IN_PARRY: AtomicUsize = AtomicUsize::new(0);
static OTHER: AtomicUsize = AtomicUsize::new(0);

fn count(layout: Layout) {
    if !ARMED.load(Ordering::Relaxed) {
        return;
    }
    ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
    BYTES.fetch_add(layout.size(), Ordering::Relaxed);
    if CLASSIFY.load(Ordering::Relaxed) && !IN_TRACE.get() {
        IN_TRACE.set(true);
        let trace = std::backtrace::Backtrace::force_capture().to_string();
        if trace.contains("parry3d::query::") {
            IN_PARRY.fetch_add(1, Ordering::Relaxed);
        } else if OTHER.fetch_add(1, Ordering::Relaxed) < 3 {
            eprintln!("allocation of {} bytes outside parry:\n{trace}", layout.size());
        }
        IN_TRACE.set(false);
    }
}

// SAFETY: every call is forwarded to the system allocator unchanged. The counting
// touches atomics; while classifying it also captures a backtrace, which allocates
// through this allocator again and is kept from recursing by `IN_TRACE`.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout);
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count(layout);
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(layout);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn arm(_: &mut World) {
    ARMED.store(true, Ordering::SeqCst);
}

fn disarm(_: &mut World) {
    ARMED.store(false, Ordering::SeqCst);
}

/// `cars_per_kind` cars of each preset with each of `sweeps`, driving in circles, warmed
/// up (every buffer at its size).
fn scene(cars_per_kind: usize, sweeps: &[SweepType]) -> (App, Vec<Entity>) {
    let mut app = common::app(60.0);
    // avian optimizes its collider tree in a background task by default, which may run
    // (and allocate) while the wheel systems do: here it runs in its own system instead.
    app.insert_resource(ColliderTreeOptimization {
        use_async_tasks: false,
        ..Default::default()
    })
    .add_systems(
        PhysicsSchedule,
        (
            // From the vehicle's sync (first) to the wheel events (last): every wheel,
            // vehicle and replay system in between.
            // (Ambiguous with avian's own systems that are ordered only before its
            // narrow phase, such as its contact-softness update; those allocate nothing
            // per step either.)
            arm.after(PhysicsStepSystems::BroadPhase)
                .before(VehicleSystems::Sync)
                .ambiguous_with_all(),
            disarm
                .after(WheelSystems::Apply)
                .after(WheelSystems::Events)
                .before(PhysicsStepSystems::NarrowPhase)
                .ambiguous_with_all(),
        ),
    );
    // One system at a time, so nothing but the wheel systems runs while armed (their
    // parallel iteration still runs on the task pool's threads, and is counted).
    app.edit_schedule(PhysicsSchedule, |s| {
        s.set_executor(SingleThreadedExecutor::new());
    });
    let world = app.world_mut();
    world.spawn((RigidBody::Static, Collider::half_space(Vec3::Y), WheelSurface::ASPHALT));
    // A 60 m heightfield of ±5 cm bumps, 2 cm above the plane, on gravel.
    let n = 61;
    let heights: Vec<Vec<f32>> = (0..n)
        .map(|i| {
            (0..n)
                .map(|j| 0.02 + 0.05 * ((i as f32 * 0.9).sin() * (j as f32 * 1.3).cos()))
                .collect()
        })
        .collect();
    world.spawn((
        RigidBody::Static,
        Collider::heightfield(heights, Vec3::new(60.0, 1.0, 60.0)),
        Transform::default(),
        WheelSurface::GRAVEL,
    ));
    let mut cars = vec![];
    for name in common::PRESETS {
        for &sweep in sweeps {
            let mut settings = preset(name);
            for axle in &mut settings.axles {
                axle.wheel.set_sweep_type(sweep);
            }
            for _ in 0..cars_per_kind {
                let k = cars.len();
                let at = Transform::from_xyz(
                    -40.0 + (k % 9) as f32 * 10.0,
                    settings.touch_height() + 0.1,
                    -40.0 + (k / 9) as f32 * 10.0,
                );
                let mut commands = world.commands();
                cars.push(spawn_vehicle(&mut commands, &settings, at).expect("valid settings"));
            }
        }
    }
    world.flush();
    for (i, &car) in cars.iter().enumerate() {
        let mut input = app.world_mut().get_mut::<VehicleInput>(car).unwrap();
        input.0.throttle = 0.4;
        input.0.steer = if i % 2 == 0 { 0.3 } else { -0.3 };
    }
    for _ in 0..120 {
        app.update();
    }
    (app, cars)
}

/// Runs `steps` steps; returns allocations and bytes per step inside the wheel systems.
fn measure(app: &mut App, cars: &[Entity], steps: usize) -> (f64, f64) {
    ALLOCATIONS.store(0, Ordering::SeqCst);
    BYTES.store(0, Ordering::SeqCst);
    for _ in 0..steps {
        app.update();
    }
    let mean_speed = cars
        .iter()
        .map(|&c| app.world().get::<VehicleTelemetry>(c).unwrap().speed_kmh)
        .sum::<f32>()
        / cars.len() as f32;
    assert!(mean_speed > 10.0, "the cars are driving: {mean_speed} km/h on average");
    (
        ALLOCATIONS.load(Ordering::SeqCst) as f64 / steps as f64,
        BYTES.load(Ordering::SeqCst) as f64 / steps as f64,
    )
}

// One test: the counters are process-wide, and tests run in parallel threads.
#[test]
fn wheel_systems_do_not_allocate_per_step() {
    let ray = [SweepType::Ray];
    let (mut app, cars) = scene(1, &ray);
    let few = measure(&mut app, &cars, 300);
    drop(app);
    let (mut app, cars) = scene(8, &ray);
    let many = measure(&mut app, &cars, 300);
    drop(app);
    println!(
        "measured: ray wheels, allocations per step inside the wheel systems: {:.2} ({:.0} B) with 3 cars, {:.2} ({:.0} B) with 24 cars",
        few.0, few.1, many.0, many.1
    );
    assert_eq!(few.0, 0.0, "ray wheels, 3 cars: {} allocations per step", few.0);
    assert_eq!(many.0, 0.0, "ray wheels, 24 cars: {} allocations per step", many.0);

    // Sphere and cylinder: every allocation is parry's shape cast.
    let (mut app, cars) = scene(4, &[SweepType::Sphere, SweepType::Cylinder]);
    CLASSIFY.store(true, Ordering::SeqCst);
    let shapes = measure(&mut app, &cars, 60);
    CLASSIFY.store(false, Ordering::SeqCst);
    let (parry, other) = (IN_PARRY.load(Ordering::SeqCst), OTHER.load(Ordering::SeqCst));
    println!(
        "measured: sphere and cylinder wheels (24 cars): {:.1} allocations per step ({:.0} B), {parry} of {} in parry's shape cast, {other} elsewhere",
        shapes.0,
        shapes.1,
        parry + other
    );
    assert_eq!(other, 0, "allocations outside parry's shape cast (printed above)");
}
