//! A headless test world: exact fixed steps, a flat ground, a 1 200 kg test car.
#![allow(dead_code)]

use avian3d::prelude::*;
use bevy::prelude::*;
use wheelcollider_avian::prelude::*;

// The harness every crate's tests share: the fixed-step app, the presets' list, the
// generator, grounds, terrains, spawning, launching and coupling.
// (`common` is also compiled into the allocation test, which uses less of it.)
#[allow(unused_imports)]
pub use wheelcollider_testing::Rng;
#[allow(unused_imports)]
pub use wheelcollider_testing::app::{RATES, app, app_with_assets, run, set_step, steps};
#[allow(unused_imports)]
pub use wheelcollider_testing::presets::{PRESETS, TRACKED, TRAILERS, preset, preset_text};
#[allow(unused_imports)]
pub use wheelcollider_testing::scene::{
    coupled_pair, flat, grid_terrain, launch, launch_in_gear, on_flat, on_ground, race_kerb, spawn_preset_car,
    split_mu, stadium,
};

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
    (chassis, wheels_at_mounts(world, chassis, &wheel))
}

/// Four `wheel`s at the test car's [`MOUNTS`], children of `chassis`.
pub fn wheels_at_mounts(world: &mut World, chassis: Entity, wheel: &WheelCollider) -> [Entity; 4] {
    MOUNTS.map(|m| {
        world
            .spawn((wheel.clone(), Transform::from_translation(m), ChildOf(chassis)))
            .id()
    })
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

/// Every shipped preset with `sweep` wheels and no auto-reverse ([`preset_with`]).
pub fn every_preset_with(sweep: SweepType) -> impl Iterator<Item = (&'static str, VehicleSettings)> {
    PRESETS.into_iter().map(move |name| (name, preset_with(name, sweep)))
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

/// Spawns `settings` at rest height at the origin facing −Z, lets it settle for 1 s at `hz`,
/// launches it at `v` (m/s) (in neutral: [`launch`]) and steps once. Returns the car, its
/// height at rest (m) and its energy after the launch (J, [`energy`]).
pub fn settled_and_launched(app: &mut App, settings: &VehicleSettings, hz: f64, v: f32) -> (Entity, f32, f32) {
    let car = spawn_preset_car(app, settings, Transform::from_xyz(0.0, settings.touch_height(), 0.0));
    run(app, steps(1.0, hz));
    let rest_height = position(app, car).y;
    launch(app, car, v);
    app.update();
    (car, rest_height, energy(app, car))
}
