//! AI cars following a path: each car's `VehicleInput` is written by a pure-pursuit
//! driver (steer towards a point a speed-dependent distance ahead on the path) with a
//! speed controller that holds the speed the car's own plan allows there and brakes in
//! time for the corners (the plugin's `drivers::pursuit`, `Path::with_plan`: the car's
//! tyres, loads, aero and engine, at 70 % of its grip). Copy `AiDriver` and `drive_ai` for traffic, opponents or a demo
//! lap. Headless; prints each car's laps and path error every 5 s.
//!
//! `cargo run --release --example ai_path`
use avian3d::prelude::*;
use bevy::prelude::*;
use std::sync::Arc;
use wheelcollider::avian::drivers::{Path, lookahead, pursuit_steer};
use wheelcollider::prelude::*;

/// A stadium of points every ~2 m (world, on the ground): two 120 m straights joined by
/// half circles of radius `r` (m), closed.
fn stadium(r: f32) -> Path {
    let mut points = vec![];
    let straight = 120.0;
    let n = 60;
    for i in 0..n {
        points.push(Vec3::new(r, 0.0, straight / 2.0 - straight * i as f32 / n as f32));
    }
    for i in 0..n {
        let a = std::f32::consts::PI * i as f32 / n as f32;
        points.push(Vec3::new(r * a.cos(), 0.0, -straight / 2.0 - r * a.sin()));
    }
    for i in 0..n {
        points.push(Vec3::new(-r, 0.0, -straight / 2.0 + straight * i as f32 / n as f32));
    }
    for i in 0..n {
        let a = std::f32::consts::PI * i as f32 / n as f32;
        points.push(Vec3::new(-r * a.cos(), 0.0, straight / 2.0 + r * a.sin()));
    }
    Path::new(points, true, 25.0)
}

/// The share of its grip each car plans to use: the plan's envelope is a point mass's
/// on static loads, which a car on its springs does not quite reach (the road car holds
/// 0.93 g of its 1.17).
const AGGRESSION: f32 = 0.7;

/// One AI driver: its path, where it is on it, how fast it may go and how well it does.
#[derive(Component)]
struct AiDriver {
    path: Arc<Path>,
    index: usize,
    laps: u32,
    error_sum: f32,
    error_max: f32,
    samples: u32,
}

fn main() {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        TransformPlugin,
        PhysicsPlugins::default(),
        WheelColliderPlugins,
    ))
    .add_systems(Startup, setup)
    .add_systems(FixedUpdate, (drive_ai, report).chain());
    app.insert_resource(bevy::time::TimeUpdateStrategy::ManualDuration(
        std::time::Duration::from_secs_f64(1.0 / 60.0),
    ));
    app.finish();
    app.cleanup();
    for _ in 0..(60 * 60) {
        app.update();
    }
}

fn setup(mut commands: Commands) {
    commands.spawn((RigidBody::Static, Collider::half_space(Vec3::Y), WheelSurface::ASPHALT));
    let presets = ["road", "rally", "kart", "gt86", "road", "rally"];
    for (k, name) in presets.iter().enumerate() {
        let settings = VehicleSettings::preset(name).unwrap_or_else(|e| panic!("{e}"));
        // Each car's own plan of the path.
        let path = Arc::new(stadium(40.0).with_plan(&settings, AGGRESSION, 10, (0.0, false)));
        // Spread around the path, heading along it.
        let index = k * path.len() / presets.len();
        let next = path.points()[(index + 1) % path.len()];
        let start = path.points()[index].with_y(settings.touch_height() + 0.05);
        let pose = Transform::from_translation(start).looking_at(next.with_y(start.y), Vec3::Y);
        let car = spawn_vehicle(&mut commands, &settings, pose).expect("valid");
        commands.entity(car).insert((
            Name::new(format!("{name} #{k}")),
            AiDriver {
                path: path.clone(),
                index,
                laps: 0,
                error_sum: 0.0,
                error_max: 0.0,
                samples: 0,
            },
        ));
    }
}

/// Pure pursuit (the plugin's `drivers::pursuit_steer`): the steer that puts the front
/// on a circle through the look-ahead point; the speed the path's profile allows here.
fn drive_ai(
    mut cars: Query<(
        &mut AiDriver,
        &mut VehicleInput,
        &Vehicle,
        &Position,
        &Rotation,
        &LinearVelocity,
    )>,
) {
    for (mut ai, mut input, vehicle, p, rot, v) in &mut cars {
        let n = ai.path.len();
        let i = ai.path.nearest(p.0, ai.index, n / 4, 10.0);
        if i < ai.index && ai.index - i > n / 2 {
            ai.laps += 1;
        }
        ai.index = i;
        let error = ai.path.points()[i].with_y(p.0.y).distance(p.0);
        ai.error_sum += error;
        ai.error_max = ai.error_max.max(error);
        ai.samples += 1;

        let speed = v.0.length();
        let (_, target) = ai.path.ahead(i, lookahead(speed, 0.5, 6.0, 25.0));
        input.steer = pursuit_steer(&vehicle.0, p.0, rot.0 * Vec3::NEG_Z, target, speed);
        let e = ai.path.speed(i) - speed;
        input.throttle = (0.3 * e).clamp(0.0, 1.0);
        input.brake = (-0.3 * e).clamp(0.0, 1.0);
    }
}

fn report(time: Res<Time>, cars: Query<(&Name, &AiDriver, &VehicleTelemetry)>) {
    let t = time.elapsed_secs();
    if !((t * 60.0).round() as u32).is_multiple_of(300) {
        return;
    }
    println!("t = {t:4.0} s");
    for (name, ai, tel) in &cars {
        println!(
            "    {name:<10} lap {}  {:5.1} km/h  path error mean {:.2} m, max {:.2} m",
            ai.laps,
            tel.speed_kmh,
            ai.error_sum / ai.samples.max(1) as f32,
            ai.error_max
        );
    }
}
