//! AI cars following a path: each car has the plugin's `VehicleDriver`, which writes its
//! `VehicleInput`: pure-pursuit steering towards a point a speed-dependent distance
//! ahead on the path, and a speed controller that holds the speed the car's own plan
//! allows there and brakes in time for the corners (`Path::with_plan`: the car's tyres,
//! loads, aero, brakes and engine, at 70 % of its grip). Headless; prints each car's
//! laps and path error every 5 s.
//!
//! `cargo run --release --example ai_path`
use avian3d::prelude::*;
use bevy::prelude::*;
use std::sync::Arc;
use wheelcollider::avian::drivers::Path;
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

/// How well a car keeps to its path: the example's own report, not the driver's.
#[derive(Component, Default)]
struct PathError {
    sum: f32,
    max: f32,
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
    .add_systems(FixedUpdate, (measure, report).chain().after(VehicleDriverSystems));
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
    let path = Arc::new(stadium(40.0));
    let presets = ["road", "rally", "kart", "gt86", "road", "rally"];
    for (k, name) in presets.iter().enumerate() {
        let settings = VehicleSettings::preset(name).unwrap_or_else(|e| panic!("{e}"));
        // Spread around the path, heading along it.
        let index = k * path.len() / presets.len();
        let next = path.points()[(index + 1) % path.len()];
        let start = path.points()[index].with_y(settings.touch_height() + 0.05);
        let pose = Transform::from_translation(start).looking_at(next.with_y(start.y), Vec3::Y);
        let car = spawn_vehicle(&mut commands, &settings, pose).expect("valid");
        let mut driver = VehicleDriver::new(path.clone(), AGGRESSION);
        driver.index = index;
        commands
            .entity(car)
            .insert((Name::new(format!("{name} #{k}")), driver, PathError::default()));
    }
}

/// Each car's distance from its path.
fn measure(mut cars: Query<(&VehicleDriver, &Position, &mut PathError)>) {
    for (driver, p, mut e) in &mut cars {
        let error = driver.path.points()[driver.index].with_y(p.0.y).distance(p.0);
        e.sum += error;
        e.max = e.max.max(error);
        e.samples += 1;
    }
}

fn report(time: Res<Time>, cars: Query<(&Name, &VehicleDriver, &PathError, &VehicleTelemetry)>) {
    let t = time.elapsed_secs();
    if !((t * 60.0).round() as u32).is_multiple_of(300) {
        return;
    }
    println!("t = {t:4.0} s");
    for (name, driver, e, tel) in &cars {
        println!(
            "    {name:<10} lap {}  {:5.1} km/h  path error mean {:.2} m, max {:.2} m",
            driver.laps,
            tel.speed_kmh,
            e.sum / e.samples.max(1) as f32,
            e.max
        );
    }
}
