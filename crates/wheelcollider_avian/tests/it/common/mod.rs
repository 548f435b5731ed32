//! A headless test world: exact fixed steps, a flat ground, a 1 200 kg test car.
#![allow(dead_code)]

use avian3d::prelude::*;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use std::time::Duration;
use wheelcollider_avian::prelude::*;

pub const G: f32 = 9.81;
pub const MASS: f32 = 1200.0;
/// Chassis box (m): width, height, length.
pub const BOX: Vec3 = Vec3::new(1.6, 0.5, 4.0);
/// Wheel mounts relative to the chassis centre: (x, y, z) with z < 0 at the front.
pub const MOUNTS: [Vec3; 4] = [
    Vec3::new(-0.8, -0.25, -1.4), // front left
    Vec3::new(0.8, -0.25, -1.4),  // front right
    Vec3::new(-0.8, -0.25, 1.4),  // rear left
    Vec3::new(0.8, -0.25, 1.4),   // rear right
];
/// Chassis centre height at which the default wheels just touch flat ground at y = 0.
pub const TOUCH_HEIGHT: f32 = 0.25 + 0.1 + 0.3;

/// An app stepping physics at `hz`, one physics step per `update()`.
pub fn app(hz: f64) -> App {
    app_with_assets(hz, bevy::asset::AssetPlugin::default())
}

/// [`app`], with its assets read as `assets` says (a folder of presets).
pub fn app_with_assets(hz: f64, assets: bevy::asset::AssetPlugin) -> App {
    let mut app = App::new();
    let dt = Duration::from_secs_f64(1.0 / hz);
    app.add_plugins((
        MinimalPlugins,
        TransformPlugin,
        assets,
        PhysicsPlugins::default(),
        WheelColliderPlugins,
    ))
    .insert_resource(Time::<Fixed>::from_duration(dt))
    .insert_resource(TimeUpdateStrategy::ManualDuration(dt));
    app.finish();
    // The first update only starts the clocks.
    app.update();
    app
}

/// Steps the app `steps` physics steps.
pub fn run(app: &mut App, steps: usize) {
    for _ in 0..steps {
        app.update();
    }
}

/// Seconds → steps at `hz`.
pub fn steps(seconds: f64, hz: f64) -> usize {
    (seconds * hz).round() as usize
}

/// A static ground box with its top face at y = 0 (rotated by `rotation` about the
/// origin).
pub fn spawn_ground(app: &mut App, rotation: Quat) -> Entity {
    app.world_mut()
        .spawn((
            RigidBody::Static,
            Collider::cuboid(400.0, 2.0, 400.0),
            Transform::from_rotation(rotation) * Transform::from_xyz(0.0, -1.0, 0.0),
        ))
        .id()
}

/// Box inertia of the test chassis.
pub fn chassis_inertia() -> Vec3 {
    let m = MASS / 12.0;
    Vec3::new(
        m * (BOX.y * BOX.y + BOX.z * BOX.z),
        m * (BOX.x * BOX.x + BOX.z * BOX.z),
        m * (BOX.x * BOX.x + BOX.y * BOX.y),
    )
}

/// The test car: a 1 200 kg box with four default wheels. Returns (chassis, wheels).
pub fn spawn_car(app: &mut App, transform: Transform, wheel: WheelCollider) -> (Entity, [Entity; 4]) {
    let world = app.world_mut();
    let chassis = world
        .spawn((
            RigidBody::Dynamic,
            Collider::cuboid(BOX.x, BOX.y, BOX.z),
            Mass(MASS),
            AngularInertia::new(chassis_inertia()),
            CenterOfMass::ZERO,
            SleepingDisabled,
            transform,
        ))
        .id();
    let wheels = MOUNTS.map(|m| {
        world
            .spawn((wheel.clone(), Transform::from_translation(m), ChildOf(chassis)))
            .id()
    });
    (chassis, wheels)
}

pub fn position(app: &App, e: Entity) -> Vec3 {
    app.world().get::<Position>(e).unwrap().0
}

pub fn rotation(app: &App, e: Entity) -> Quat {
    app.world().get::<Rotation>(e).unwrap().0
}

/// The chassis' up (world).
pub fn up(app: &App, car: Entity) -> Vec3 {
    rotation(app, car) * Vec3::Y
}

/// Edits a car's `VehicleInput`.
pub fn set_controls(app: &mut App, car: Entity, f: impl Fn(&mut VehicleInput)) {
    f(&mut app.world_mut().get_mut::<VehicleInput>(car).unwrap());
}

pub fn velocity(app: &App, e: Entity) -> Vec3 {
    app.world().get::<LinearVelocity>(e).unwrap().0
}

pub fn output(app: &App, e: Entity) -> WheelOutput {
    app.world().get::<WheelOutput>(e).unwrap().clone()
}

/// Puts `torque` (N·m) of brake on every one of `wheels`.
pub fn brake(app: &mut App, wheels: &[Entity], torque: f32) {
    set_input(
        app,
        wheels,
        WheelInput {
            brake_torque: torque,
            ..Default::default()
        },
    );
}

pub fn set_input(app: &mut App, wheels: &[Entity], input: WheelInput) {
    for &w in wheels {
        *app.world_mut().get_mut::<WheelInput>(w).unwrap() = input;
    }
}

/// The static compression m·g/(4k) of the default wheel (k = 40 000 N/m) under the
/// test car (m).
pub const SAG: f32 = MASS * G / 4.0 / 40_000.0;

/// Asserts that every wheel of `wheels` is compressed by [`SAG`] within 1 %.
pub fn assert_at_sag(app: &App, wheels: &[Entity], what: &str) {
    for &w in wheels {
        let compression = output(app, w).output.compression;
        assert!(
            (compression - SAG).abs() / SAG < 0.01,
            "{what}: wheel {w} compressed {compression} m, not {SAG}"
        );
    }
}

/// The usual test scene: an app at `hz` with the flat ground and the default car resting
/// with its tyres just touching. Returns (app, chassis, wheels).
pub fn car_on_flat(hz: f64) -> (App, Entity, [Entity; 4]) {
    let mut app = app(hz);
    spawn_ground(&mut app, Quat::IDENTITY);
    let (chassis, wheels) = spawn_car(
        &mut app,
        Transform::from_xyz(0.0, TOUCH_HEIGHT, 0.0),
        WheelCollider::default(),
    );
    (app, chassis, wheels)
}

/// The three sweep types.
pub const SWEEPS: [SweepType; 3] = [SweepType::Ray, SweepType::Sphere, SweepType::Cylinder];

/// The shipped preset `name` with `sweep` wheels and no auto-reverse (a stopped car stays
/// stopped).
pub fn preset_with(name: &str, sweep: SweepType) -> VehicleSettings {
    let mut settings = preset(name);
    settings.gearbox.auto_reverse = false;
    for a in &mut settings.axles {
        a.wheel.set_sweep_type(sweep);
    }
    settings
}

// `common` is also compiled into the allocation test, which uses less of it.
#[allow(unused_imports)]
pub use presets::{PRESETS, TRAILERS, preset, preset_text};

/// The shipped presets' list, one for every crate's tests.
#[path = "../../../../wheelcollider_core/tests/it/common/presets.rs"]
mod presets;

/// The step rates (Hz) a scene is proved at: a game's slowest fixed step to a sim's.
pub const RATES: [f64; 4] = [30.0, 60.0, 120.0, 240.0];

/// Every shipped preset with `sweep` wheels and no auto-reverse ([`preset_with`]).
pub fn every_preset_with(sweep: SweepType) -> impl Iterator<Item = (&'static str, VehicleSettings)> {
    PRESETS.into_iter().map(move |name| (name, preset_with(name, sweep)))
}

/// A seeded xorshift generator: uniform numbers in [0, 1), the same sequence for the
/// same seed on every machine.
pub fn xorshift(mut seed: u64) -> impl FnMut() -> f64 {
    move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Spawns a vehicle from `settings` at `transform`, now.
pub fn spawn_preset_car(app: &mut App, settings: &VehicleSettings, transform: Transform) -> Entity {
    let world = app.world_mut();
    let mut commands = world.commands();
    let e = spawn_vehicle(&mut commands, settings, transform).expect("valid settings");
    world.flush();
    e
}

/// An app at `hz` with flat ground (no surface) and a car from `settings` spawned with
/// its tyres just touching it; nothing run yet.
pub fn on_flat(settings: &VehicleSettings, hz: f64) -> (App, Entity) {
    on_ground(settings, hz, None)
}

/// [`on_flat`] on flat ground of `surface` (none: no surface component).
pub fn on_ground(settings: &VehicleSettings, hz: f64, surface: Option<WheelSurface>) -> (App, Entity) {
    let mut app = app(hz);
    flat(&mut app, surface);
    let car = spawn_preset_car(
        &mut app,
        settings,
        Transform::from_xyz(0.0, settings.touch_height(), 0.0),
    );
    (app, car)
}

/// [`launch`], with an automatic gearbox in the gear for the speed
/// (`VehicleSettings::gear_for_speed`) and the engine turning with the wheels: the
/// state a car driven up to `v` would be in (the tractor's first gear at 10 m/s would
/// spin its engine to 8 000 rpm).
pub fn launch_in_gear(app: &mut App, car: Entity, v: f32) {
    launch(app, car, v);
    let Some(mut runtime) = app
        .world_mut()
        .get_mut::<wheelcollider_avian::vehicle::VehicleRuntime>(car)
    else {
        return;
    };
    let runtime = &mut *runtime;
    if let (Some(s), Some(state)) = (runtime.settings.as_ref(), runtime.state.as_mut())
        && s.gearbox.automatic
        && s.trailer.is_none()
        && v > 0.0
    {
        let gear = s.gear_for_speed(v);
        let engine = v / s.drive_radius() * s.gearbox.total_ratio(gear);
        (state.gear, state.next_gear) = (gear, gear);
        state.engine_speed = engine.max(s.engine.idle_rpm / wheelcollider_core::vehicle::RAD_PER_S_TO_RPM);
    }
}

/// Sets a vehicle moving forward at `v` (m/s) with its wheels rolling at that speed and
/// their tyres relaxed (no slip carried from before the jump in speed).
pub fn launch(app: &mut App, car: Entity, v: f32) {
    let forward = rotation(app, car) * Vec3::NEG_Z;
    app.world_mut().get_mut::<LinearVelocity>(car).unwrap().0 = forward * v;
    let wheels = app.world().get::<ChassisWheels>(car).unwrap().wheels().to_vec();
    for w in wheels {
        let r = app.world().get::<WheelCollider>(w).unwrap().radius();
        let mut state = app.world_mut().get_mut::<WheelState>(w).unwrap();
        state.step.angular_velocity = v / r;
        (state.step.slip, state.step.patch) = ([0.0; 2], [0.0; 2]);
    }
}

/// Split μ: static ground with its top at y = 0, ice for x < 0 and asphalt for x > 0.
pub fn split_mu(app: &mut App) {
    for (x, surface) in [(-100.0, WheelSurface::ICE), (100.0, WheelSurface::ASPHALT)] {
        app.world_mut().spawn((
            RigidBody::Static,
            Collider::cuboid(200.0, 2.0, 400.0),
            Transform::from_xyz(x, -1.0, 0.0),
            surface,
        ));
    }
}

/// The shipped preset `name` ([`preset_with`], ray wheels) with a manual clutch and a
/// manual gearbox (gears by `VehicleInput` or [`set_gear`]).
pub fn manual_gears(name: &str) -> VehicleSettings {
    let mut s = preset_with(name, SweepType::Ray);
    s.clutch.automatic = false;
    s.gearbox.automatic = false;
    s
}

/// Puts a vehicle in `gear` at once (the shift done), the engine's speed left alone.
pub fn set_gear(app: &mut App, car: Entity, gear: i32) {
    let mut runtime = app
        .world_mut()
        .get_mut::<wheelcollider_avian::vehicle::VehicleRuntime>(car)
        .unwrap();
    let state = runtime.state.as_mut().unwrap();
    (state.gear, state.next_gear) = (gear, gear);
}

/// A static half-space at y = 0, with `surface` if given.
pub fn flat(app: &mut App, surface: Option<WheelSurface>) -> Entity {
    let e = app
        .world_mut()
        .spawn((RigidBody::Static, Collider::half_space(Vec3::Y)))
        .id();
    if let Some(s) = surface {
        app.world_mut().entity_mut(e).insert(s);
    }
    e
}

/// Mechanical energy of a rigid body (J): translation, rotation (about its centre of
/// mass) and the height of its centre of mass.
pub fn body_energy(app: &App, body: Entity) -> f32 {
    let w = app.world();
    let m = w.get::<ComputedMass>(body).unwrap().value();
    let inertia = w.get::<ComputedAngularInertia>(body).unwrap();
    let rot = rotation(app, body);
    let com = position(app, body) + rot * w.get::<ComputedCenterOfMass>(body).unwrap().0;
    let v = velocity(app, body);
    let omega = w.get::<AngularVelocity>(body).unwrap().0;
    // Rotational energy in the body frame: ½ ωᵀ I ω with the principal inertia.
    let local = rot.inverse() * omega;
    let rot_e = 0.5 * local.dot(inertia.tensor().mul_vec3(local));
    0.5 * m * v.length_squared() + rot_e + m * G * com.y
}

/// The energy (J) a wheel's spring holds at compression `x` (m): its law's force
/// (`spring_law`: the rate, the preload, a bump rubber; never pulling) integrated from
/// full droop, by the midpoint rule over 200 slices. A negative preload (free travel
/// before the spring takes load) holds nothing over its free part.
pub fn spring_energy(w: &WheelSettings, x: f32) -> f32 {
    let n = 200;
    let h = x.max(0.0) as f64 / n as f64;
    (0..n)
        .map(|i| {
            let xi = (i as f64 + 0.5) * h;
            let (k, f0) = w.spring_law(xi);
            (k * xi + f0).max(0.0) * h
        })
        .sum::<f64>() as f32
}

/// Mechanical energy of a car (J): its body's ([`body_energy`]), the springs' stored
/// energy ([`spring_energy`]), and the wheels' spin (from the last step's output: take
/// it after a step).
pub fn energy(app: &App, car: Entity) -> f32 {
    let w = app.world();
    let mut e = body_energy(app, car);
    for &wheel in w.get::<ChassisWheels>(car).unwrap().wheels() {
        let c = w.get::<WheelCollider>(wheel).unwrap();
        let s = w.get::<WheelOutput>(wheel).unwrap();
        e += spring_energy(&c.0, s.output.compression);
        e += 0.5 * c.inertia() * s.output.angular_velocity.powi(2);
    }
    e
}

/// Panics unless the car's pose and velocity and every wheel's outputs, force and centre
/// are finite.
pub fn assert_sane(app: &App, car: Entity) {
    let p = position(app, car);
    let v = velocity(app, car);
    assert!(
        p.is_finite() && v.is_finite() && rotation(app, car).is_finite(),
        "{p} {v}"
    );
    for &w in app.world().get::<ChassisWheels>(car).unwrap().wheels() {
        let s = app.world().get::<WheelOutput>(w).unwrap();
        let o = &s.output;
        for x in [
            o.load,
            o.forward_force,
            o.sideways_force,
            o.angular_velocity,
            o.compression,
        ] {
            assert!(x.is_finite(), "wheel output {x}");
        }
        assert!(s.force.is_finite() && s.center.is_finite());
    }
}

/// A square terrain centred on the origin with `h.len() - 1` cells of `cell` m a side:
/// `h[i][j]` is the height at z = −side/2 + i·cell, x = −side/2 + j·cell (rows along Z,
/// parry's heightfield layout). A heightfield, or with `mesh` the same surface as a
/// triangle mesh (two triangles a cell, creased on the same diagonal).
pub fn grid_terrain(h: Vec<Vec<f32>>, cell: f32, mesh: bool) -> Collider {
    let cells = h.len() - 1;
    let side = cells as f32 * cell;
    if !mesh {
        return Collider::heightfield(h, Vec3::new(side, 1.0, side));
    }
    let n = cells + 1;
    let mut vertices = Vec::new();
    for (i, row) in h.iter().enumerate() {
        for (j, y) in row.iter().enumerate() {
            vertices.push(Vec3::new(
                -side / 2.0 + j as f32 * cell,
                *y,
                -side / 2.0 + i as f32 * cell,
            ));
        }
    }
    let mut indices = Vec::new();
    for i in 0..cells {
        for j in 0..cells {
            let a = (i * n + j) as u32;
            let b = a + n as u32;
            indices.push([a, b, a + 1]);
            indices.push([a + 1, b, b + 1]);
        }
    }
    Collider::trimesh(vertices, indices)
}

/// A race-track kerb across Z at the origin: 5 cm high, ramps of 0.3 m each side of a
/// 0.4 m top (1 m deep), 6 m long along X.
pub fn race_kerb() -> Collider {
    let mut points = vec![];
    for x in [-3.0f32, 3.0] {
        for (z, y) in [(-0.5, 0.0), (-0.2, 0.05), (0.2, 0.05), (0.5, 0.0)] {
            points.push(Vec3::new(x, y, z));
        }
    }
    Collider::convex_hull(points).expect("a kerb")
}

/// Spawns `settings` at rest height at the origin facing −Z, lets it settle for 1 s at `hz`,
/// launches it at `v` (m/s) and steps once. Returns the car, its height at rest (m) and
/// its energy after the launch (J, [`energy`]).
pub fn settled_and_launched(app: &mut App, settings: &VehicleSettings, hz: f64, v: f32) -> (Entity, f32, f32) {
    let car = spawn_preset_car(app, settings, Transform::from_xyz(0.0, settings.touch_height(), 0.0));
    run(app, steps(1.0, hz));
    let rest_height = position(app, car).y;
    launch(app, car, v);
    app.update();
    (car, rest_height, energy(app, car))
}
