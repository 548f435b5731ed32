//! The smallest car: a 1 200 kg box on four wheels, on a plane, driven by a script.
//! Headless (no window): prints telemetry once a second.
//!
//! `cargo run --release --example minimal`
use avian3d::prelude::*;
use bevy::prelude::*;
use wheelcollider::prelude::*;

fn main() {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        TransformPlugin,
        bevy::asset::AssetPlugin::default(),
        PhysicsPlugins::default(),
        WheelColliderPlugin,
    ))
    .add_systems(Startup, setup)
    .add_systems(FixedUpdate, (drive, report).chain());
    // Simulate 12 s of game time as fast as the machine goes, 60 physics steps a second.
    app.insert_resource(bevy::time::TimeUpdateStrategy::ManualDuration(
        std::time::Duration::from_secs_f64(1.0 / 60.0),
    ));
    app.finish();
    app.cleanup();
    for _ in 0..(12 * 60) {
        app.update();
    }
}

#[derive(Component)]
struct Car;

fn setup(mut commands: Commands) {
    commands.spawn((RigidBody::Static, Collider::half_space(Vec3::Y)));
    let wheel = || {
        let mut w = WheelCollider::default();
        w.set_sweep_type(SweepType::Cylinder);
        w
    };
    commands.spawn((
        Car,
        RigidBody::Dynamic,
        Collider::cuboid(1.6, 0.5, 4.0),
        Mass(1200.0),
        AngularInertia::new(Vec3::new(1625.0, 1856.0, 281.0)),
        CenterOfMass::ZERO,
        Transform::from_xyz(0.0, 1.0, 0.0),
        children![
            (Name::new("front left"), wheel(), Transform::from_xyz(-0.8, -0.25, -1.4)),
            (Name::new("front right"), wheel(), Transform::from_xyz(0.8, -0.25, -1.4)),
            (Name::new("rear left"), wheel(), Transform::from_xyz(-0.8, -0.25, 1.4)),
            (Name::new("rear right"), wheel(), Transform::from_xyz(0.8, -0.25, 1.4)),
        ],
    ));
}

/// Accelerate for 6 s with a gentle left turn from 3 s, then brake.
fn drive(time: Res<Time>, mut wheels: Query<(&Transform, &mut WheelInput)>) {
    let t = time.elapsed_secs();
    for (mount, mut input) in &mut wheels {
        let front = mount.translation.z < 0.0;
        input.drive_torque = if !front && t < 6.0 { 350.0 } else { 0.0 };
        input.steer_angle = if front && (3.0..6.0).contains(&t) { 8.0 } else { 0.0 };
        input.brake_torque = if t >= 6.0 { 1500.0 } else { 0.0 };
    }
}

fn report(time: Res<Time>, car: Single<(&Position, &LinearVelocity), With<Car>>, wheels: Query<(&Name, &WheelState)>) {
    let t = time.elapsed_secs();
    if !((t * 60.0).round() as u32).is_multiple_of(60) {
        return;
    }
    let (p, v) = *car;
    println!(
        "t = {t:4.1} s  position ({:7.2}, {:5.2}, {:7.2}) m  speed {:5.2} m/s",
        p.x,
        p.y,
        p.z,
        v.length()
    );
    for (name, w) in &wheels {
        println!(
            "    {name:<12} load {:6.0} N  slip {:+.3} / {:+.3}  force {:+6.0} / {:+6.0} N  {:6.0} rpm",
            w.load(),
            w.forward_slip(),
            w.sideways_slip(),
            w.forward_force(),
            w.sideways_force(),
            w.rpm()
        );
    }
}
