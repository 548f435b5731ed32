//! The smallest drive: a car from a preset on a plane, driven by a script, headless (no
//! window). Prints the telemetry once a second.
//!
//! `cargo run --release --example minimal [-- kart | path/to/car.ron]`: a shipped preset
//! by name (compiled in) or a preset file.
use avian3d::prelude::*;
use bevy::prelude::*;
use wheelcollider::prelude::*;

fn main() {
    let which = std::env::args().nth(1).unwrap_or_else(|| "road".into());
    let settings = match which.ends_with(".ron") {
        true => VehicleSettings::from_file(&which).map_err(|e| e.to_string()),
        false => VehicleSettings::preset(&which).map_err(|e| e.to_string()),
    };
    let settings = match settings {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        TransformPlugin,
        bevy::asset::AssetPlugin::default(),
        PhysicsPlugins::default(),
        WheelColliderPlugins,
    ))
    .insert_resource(Settings(settings))
    .add_systems(Startup, setup)
    .add_systems(FixedUpdate, (drive, report).chain());
    // Simulate 16 s of game time as fast as the machine goes, 60 physics steps a second.
    app.insert_resource(bevy::time::TimeUpdateStrategy::ManualDuration(
        std::time::Duration::from_secs_f64(1.0 / 60.0),
    ));
    app.finish();
    app.cleanup();
    for _ in 0..(16 * 60) {
        app.update();
    }
}

#[derive(Resource)]
struct Settings(VehicleSettings);

fn setup(mut commands: Commands, settings: Res<Settings>) {
    commands.spawn((RigidBody::Static, Collider::half_space(Vec3::Y), WheelSurface::ASPHALT));
    let y = settings.0.touch_height() + 0.02;
    spawn_vehicle(&mut commands, &settings.0, Transform::from_xyz(0.0, y, 0.0)).expect("validated");
}

/// Flat out for 8 s with a gentle left turn from 5 s, then brake to a stop and hold
/// (past half a second, held brake selects reverse: released at 13 s it rolls free).
fn drive(time: Res<Time>, mut car: Single<&mut VehicleInput>) {
    let t = time.elapsed_secs();
    car.throttle = if (0.5..8.0).contains(&t) { 1.0 } else { 0.0 };
    car.steer = if (5.0..8.0).contains(&t) { 0.1 } else { 0.0 };
    car.brake = if (8.0..13.0).contains(&t) { 1.0 } else { 0.0 };
}

fn report(
    time: Res<Time>,
    car: Single<(&Position, &VehicleTelemetry)>,
    wheels: Query<(&Name, &WheelOutput), With<VehicleWheel>>,
) {
    let t = time.elapsed_secs();
    if !((t * 60.0).round() as u32).is_multiple_of(60) {
        return;
    }
    let (p, tel) = *car;
    let pt = &tel.powertrain;
    println!(
        "t = {t:4.1} s  ({:7.1}, {:7.1}) m  {:6.1} km/h  gear {:2}  {:5.0} rpm  lat {:+.2} g",
        p.x,
        p.z,
        tel.speed_kmh,
        pt.gear,
        pt.engine_rpm,
        tel.lateral_acceleration / 9.81
    );
    for (name, w) in &wheels {
        println!(
            "    {name:<13} load {:6.0} N  slip {:+.3} / {:+.3}  force {:+6.0} / {:+6.0} N",
            w.load(),
            w.forward_slip(),
            w.sideways_slip(),
            w.forward_force(),
            w.sideways_force(),
        );
    }
}
