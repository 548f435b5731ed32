//! A vehicle of your own, without the vehicle layer: a three-wheeler (two steered
//! front wheels, one driven rear wheel) made of a rigid body and three
//! `WheelCollider` children, driven by writing each wheel's `WheelInput`. This is what
//! to copy for a trike, a two-wheeler or anything else the vehicle layer's axles (a
//! pair of wheels each) do not describe. Headless; prints the drive once a second.
//!
//! `cargo run --release --example three_wheeler`
use avian3d::prelude::*;
use bevy::prelude::*;
use wheelcollider::prelude::*;

/// Mass (kg), wheelbase (m) and front half-track (m).
const MASS: f32 = 450.0;
const WHEELBASE: f32 = 2.0;
const HALF_TRACK: f32 = 0.65;

/// The trike's own controller: which wheel does what.
#[derive(Component)]
struct Trike {
    front: [Entity; 2],
    rear: Entity,
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
    // Before the physics step (avian runs in FixedPostUpdate): the wheels read
    // their input in it.
    .add_systems(FixedUpdate, (drive, report).chain());
    app.insert_resource(bevy::time::TimeUpdateStrategy::ManualDuration(
        std::time::Duration::from_secs_f64(1.0 / 60.0),
    ));
    app.finish();
    app.cleanup();
    for _ in 0..(12 * 60) {
        app.update();
    }
}

fn setup(mut commands: Commands) {
    commands.spawn((RigidBody::Static, Collider::half_space(Vec3::Y), WheelSurface::ASPHALT));
    let body = commands
        .spawn((
            RigidBody::Dynamic,
            Collider::cuboid(1.2, 0.4, 2.4),
            Mass(MASS),
            // Low and a little forward: a tadpole trike tips over its outer front wheel.
            CenterOfMass(Vec3::new(0.0, -0.15, -0.2)),
            Transform::from_xyz(0.0, 0.7, 0.0),
        ))
        .id();
    let mut wheel = WheelCollider::default();
    wheel.set_radius(0.3).unwrap();
    wheel.set_suspension_spring(25_000.0).unwrap();
    wheel.set_suspension_bump(1_500.0).unwrap();
    wheel.set_suspension_rebound(2_200.0).unwrap();
    wheel.set_sweep_type(SweepType::Cylinder);
    let mount = |x: f32, z: f32| Transform::from_xyz(x, -0.2, z);
    let mut spawn_wheel = |name: &str, t: Transform| {
        commands
            .spawn((Name::new(name.to_string()), wheel.clone(), t, ChildOf(body)))
            .id()
    };
    let front = [
        spawn_wheel("front left", mount(-HALF_TRACK, -WHEELBASE / 2.0)),
        spawn_wheel("front right", mount(HALF_TRACK, -WHEELBASE / 2.0)),
    ];
    let rear = spawn_wheel("rear", mount(0.0, WHEELBASE / 2.0));
    commands.entity(body).insert(Trike { front, rear });
}

/// The script: accelerate to 36 km/h, a left turn from 4 s (a 23 m radius: 0.45 g),
/// brake from 9 s. The controller is a few lines: Ackermann angles for the front pair,
/// a torque on the rear (a cruise control), brakes on all.
fn drive(time: Res<Time>, trikes: Query<(&Trike, &LinearVelocity)>, mut inputs: Query<&mut WheelInput>) {
    let t = time.elapsed_secs();
    let steer_deg = if (4.0..9.0).contains(&t) { 5.0f32 } else { 0.0 };
    let brake = if t >= 9.0 { 600.0 } else { 0.0 };
    for (trike, v) in &trikes {
        let throttle = if t < 9.0 {
            (0.5 * (10.0 - v.length())).clamp(0.0, 1.0)
        } else {
            0.0
        };
        // Ackermann: the inner wheel turns about the rear wheel's centre line.
        let angles = if steer_deg.abs() > 1e-3 {
            let r = WHEELBASE / steer_deg.to_radians().tan();
            let a = |d: f32| (WHEELBASE / (r + d)).atan().to_degrees();
            [a(HALF_TRACK), a(-HALF_TRACK)] // left wheel is inner in a left turn
        } else {
            [0.0, 0.0]
        };
        for (wheel, angle) in trike.front.iter().zip(angles) {
            if let Ok(mut input) = inputs.get_mut(*wheel) {
                input.steer_angle = angle;
                input.brake_torque = brake;
            }
        }
        if let Ok(mut input) = inputs.get_mut(trike.rear) {
            input.drive_torque = 500.0 * throttle;
            input.brake_torque = brake;
        }
    }
}

fn report(
    time: Res<Time>,
    trikes: Query<(&Trike, &Position, &LinearVelocity, &Rotation)>,
    wheels: Query<&WheelOutput>,
) {
    let t = time.elapsed_secs();
    if !((t * 60.0).round() as u32).is_multiple_of(60) {
        return;
    }
    for (trike, p, v, rot) in &trikes {
        let roll = (rot.0 * Vec3::X).y.atan2((rot.0 * Vec3::Y).y).to_degrees();
        let loads: Vec<String> = [trike.front[0], trike.front[1], trike.rear]
            .iter()
            .filter_map(|w| wheels.get(*w).ok())
            .map(|s| format!("{:5.0}", s.load()))
            .collect();
        println!(
            "t = {t:4.1} s  ({:6.1}, {:6.1}) m  {:5.1} km/h  roll {roll:+5.1}°  loads FL/FR/R {} N",
            p.x,
            p.z,
            v.length() * 3.6,
            loads.join(" / ")
        );
    }
}
