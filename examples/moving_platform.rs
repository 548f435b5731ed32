//! A car on a moving platform: it drives onto a kinematic slab (a ferry, a lift, a
//! turntable), stops, and the slab starts to slide and turn under it. The wheels take
//! the platform's motion at the contact point (the tyre's slip is measured against the
//! ground's own velocity), so a braked car rides along instead of sliding off. Headless;
//! prints where the car sits in the platform's frame once a second: its centre of mass
//! shifts about 2 cm while the platform speeds up (the body leans on its springs), then
//! stays put to a fraction of a millimetre.
//!
//! `cargo run --release --example moving_platform`
use avian3d::prelude::*;
use bevy::prelude::*;
use wheelcollider::prelude::*;

/// The platform: a 10 × 14 m slab whose top is 5 cm above the ground.
const PLATFORM_CENTRE: Vec3 = Vec3::new(0.0, -0.1, -15.0);
const PLATFORM_SIZE: Vec3 = Vec3::new(10.0, 0.3, 14.0);

#[derive(Component)]
struct Platform;

/// Where the car stopped, in the platform's frame, and when (s), once it has.
#[derive(Resource, Default)]
struct Parked(Option<(Vec3, f32)>);

fn main() {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        TransformPlugin,
        PhysicsPlugins::default(),
        WheelColliderPlugins,
    ))
    .init_resource::<Parked>()
    .add_systems(Startup, setup)
    .add_systems(FixedUpdate, (drive, move_platform, report).chain());
    app.insert_resource(bevy::time::TimeUpdateStrategy::ManualDuration(
        std::time::Duration::from_secs_f64(1.0 / 60.0),
    ));
    app.finish();
    app.cleanup();
    for _ in 0..(25 * 60) {
        app.update();
    }
}

fn setup(mut commands: Commands) {
    commands.spawn((RigidBody::Static, Collider::half_space(Vec3::Y), WheelSurface::ASPHALT));
    commands.spawn((
        Platform,
        RigidBody::Kinematic,
        Collider::cuboid(PLATFORM_SIZE.x, PLATFORM_SIZE.y, PLATFORM_SIZE.z),
        Transform::from_translation(PLATFORM_CENTRE),
    ));
    let settings = VehicleSettings::preset("road").unwrap_or_else(|e| panic!("{e}"));
    let y = settings.touch_height() + 0.02;
    spawn_vehicle(&mut commands, &settings, Transform::from_xyz(0.0, y, 0.0)).expect("valid");
}

/// Creep forward at 3 m/s until over the platform's centre, then brake and hold.
fn drive(mut car: Single<(&mut VehicleInput, &Position, &LinearVelocity)>, parked: Res<Parked>) {
    let (input, p, v) = &mut *car;
    let there = p.z < PLATFORM_CENTRE.z || parked.0.is_some();
    let speed = v.length();
    input.throttle = if there {
        0.0
    } else {
        (0.4 * (3.0 - speed)).clamp(0.0, 0.5)
    };
    input.brake = if there { 1.0 } else { 0.0 };
    input.handbrake = if there { 1.0 } else { 0.0 };
}

/// The platform's pose and the velocities the game sets.
type PlatformMotion = (
    &'static Position,
    &'static Rotation,
    &'static mut LinearVelocity,
    &'static mut AngularVelocity,
);

/// Once the car has stopped on it, the platform speeds up over 2 s (0.1 g) to slide at
/// 2 m/s and turn at 15°/s.
fn move_platform(
    time: Res<Time>,
    car: Single<(&Position, &LinearVelocity), With<Vehicle>>,
    mut platform: Single<PlatformMotion, (With<Platform>, Without<Vehicle>)>,
    mut parked: ResMut<Parked>,
    mut stopped: Local<f32>,
) {
    let (car_p, car_v) = *car;
    let (pos, rot, lin, ang) = &mut *platform;
    let t = time.elapsed_secs();
    // Parked: over the platform and still for a second (the body has stopped rocking).
    let still = car_p.z < PLATFORM_CENTRE.z && car_v.length() < 0.02;
    *stopped = if still { *stopped + time.delta_secs() } else { 0.0 };
    if parked.0.is_none() && *stopped > 1.0 {
        parked.0 = Some((rot.0.inverse() * (car_p.0 - pos.0), t));
    }
    if let Some((_, since)) = parked.0 {
        let ramp = ((t - since) / 2.0).clamp(0.0, 1.0);
        lin.0 = Vec3::new(2.0, 0.0, 0.0) * ramp;
        ang.0 = Vec3::Y * 15f32.to_radians() * ramp;
    }
}

fn report(
    time: Res<Time>,
    car: Single<&Position, With<Vehicle>>,
    platform: Single<(&Position, &Rotation), With<Platform>>,
    parked: Res<Parked>,
) {
    let t = time.elapsed_secs();
    if !((t * 60.0).round() as u32).is_multiple_of(60) {
        return;
    }
    let (pos, rot) = *platform;
    let local = rot.0.inverse() * (car.0 - pos.0);
    match parked.0 {
        None => println!("t = {t:4.1} s  driving on: car at z = {:6.2} m", car.z),
        Some((start, _)) => println!(
            "t = {t:4.1} s  platform at ({:6.2}, {:6.2}) turned {:5.1}°, car in its frame ({:+.3}, {:+.3}) m: moved {:.1} mm",
            pos.x,
            pos.z,
            rot.0.to_euler(EulerRot::YXZ).0.to_degrees(),
            local.x,
            local.z,
            1000.0 * (local - start).with_y(0.0).length()
        ),
    }
}
