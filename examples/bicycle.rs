//! A bicycle that a rider balances by steering: one rigid body (frame, rider, fork and
//! both wheels in its mass and inertia), two `WheelCollider`s, a `SteeringHead` that
//! turns the front wheel about a tilted axis by the forces on it, and a `Rider` asked for
//! a lean. Nothing holds it up but its steering: asked to lean left, the rider first
//! steers right. The numbers are the benchmark bicycle's (Meijaard et al., 2007;
//! `docs/two-wheeler.md`). Headless; prints the ride once a second.
//!
//! `cargo run --release --example bicycle`
use avian3d::prelude::*;
use bevy::prelude::*;
use wheelcollider::prelude::*;

/// Wheelbase (m), trail (m), the head axis' tilt back from vertical (rad), the wheels'
/// radii (m) and spin inertias (kg·m²).
const WHEELBASE: f32 = 1.02;
const TRAIL: f32 = 0.08;
const HEAD_TILT: f32 = std::f32::consts::PI / 10.0;
const RADII: [f32; 2] = [0.3, 0.35];
const SPIN_INERTIAS: [f32; 2] = [0.12, 0.28];
/// The whole bike with its rider: mass (kg), centre of mass over the rear contact (m,
/// ahead and up) and inertia tensor about it (kg·m², x right, y up, z back).
const MASS: f32 = 94.0;
const CENTRE: Vec2 = Vec2::new(0.342, 0.861);
/// The front assembly (fork, handlebar, front wheel): mass, centre of mass over the rear
/// contact, inertia about it.
const FRONT_MASS: f32 = 7.0;
const FRONT_CENTRE: Vec2 = Vec2::new(0.951, 0.550);
/// The speed to ride at (m/s).
const SPEED: f32 = 5.0;

/// The bike's wheels: rear, front.
#[derive(Component)]
struct Wheels([Entity; 2]);

fn main() {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        TransformPlugin,
        PhysicsPlugins::default(),
        WheelColliderPlugins,
    ))
    .add_systems(Startup, setup)
    .add_systems(FixedUpdate, (ride, report).chain());
    app.insert_resource(bevy::time::TimeUpdateStrategy::ManualDuration(
        std::time::Duration::from_secs_f64(1.0 / 60.0),
    ));
    app.finish();
    app.cleanup();
    for _ in 0..(12 * 60) {
        app.update();
    }
}

/// A point `ahead` of and `up` from the rear contact, in the body's frame (its origin at
/// the centre of mass, facing −Z).
fn local(ahead: f32, up: f32) -> Vec3 {
    Vec3::new(0.0, up - CENTRE.y, -(ahead - CENTRE.x))
}

fn setup(mut commands: Commands) {
    commands.spawn((RigidBody::Static, Collider::half_space(Vec3::Y), WheelSurface::ASPHALT));
    // The inertia tensors of the benchmark's four parts, combined about the centres
    // (`tests/it/two_wheeler/bicycle.rs` computes them from the paper's Table 1).
    let body_inertia = Mat3::from_cols(
        Vec3::new(16.114, 0.0, 0.0),
        Vec3::new(0.0, 6.016, 1.238),
        Vec3::new(0.0, 1.238, 11.106),
    );
    let front_inertia = Mat3::from_cols(
        Vec3::new(0.575, 0.0, 0.0),
        Vec3::new(0.0, 0.172, -0.080),
        Vec3::new(0.0, -0.080, 0.409),
    );
    let body = commands
        .spawn((
            RigidBody::Dynamic,
            Mass(MASS),
            AngularInertia::from_tensor(AngularInertiaTensor::from_mat3_unchecked(body_inertia)),
            CenterOfMass(Vec3::ZERO),
            Transform::from_xyz(0.0, CENTRE.y, 0.0),
            LinearVelocity(Vec3::NEG_Z * SPEED),
            // The frame and rider, for a fall.
            children![(
                Collider::capsule(0.15, 0.8),
                ColliderDensity(0.0),
                Transform::from_rotation(Quat::from_rotation_x(std::f32::consts::FRAC_PI_2)),
            )],
        ))
        .id();
    let wheel = |radius: f32, spin_inertia: f32| {
        let mut w = WheelCollider::default();
        w.set_radius(radius).unwrap();
        w.set_width(0.03).unwrap();
        w.set_inertia(spin_inertia).unwrap();
        w.set_suspension_length(0.03).unwrap();
        w.set_suspension_spring(150_000.0).unwrap();
        w.set_suspension_bump(2_000.0).unwrap();
        w.set_suspension_rebound(2_000.0).unwrap();
        // A stiff tyre with a short relaxation length; no camber thrust (a thin wheel).
        w.set_lateral_tyre(20.8, 1.6, 1.2, 0.0).unwrap();
        w.set_lateral_relaxation_length(0.01).unwrap();
        w.set_longitudinal_relaxation_length(0.01).unwrap();
        w.set_camber_thrust(0.0).unwrap();
        w
    };
    // Each wheel's mount: its centre at rest, 2 cm up its travel.
    let mounts = [
        Transform::from_translation(local(0.0, RADII[0] + 0.02)),
        Transform::from_translation(local(WHEELBASE, RADII[1] + 0.02)),
    ];
    let wheels = [0, 1].map(|i| {
        let mut state = WheelState::default();
        state.step.angular_velocity = SPEED / RADII[i];
        commands
            .spawn((wheel(RADII[i], SPIN_INERTIAS[i]), state, mounts[i], ChildOf(body)))
            .id()
    });
    // The head: its axis through the road `TRAIL` ahead of the front contact, tilted back.
    let axis = Vec3::new(0.0, HEAD_TILT.cos(), HEAD_TILT.sin());
    let head = SteeringHead::new(
        wheels[1],
        mounts[1],
        axis,
        local(WHEELBASE + TRAIL, 0.0),
        FRONT_MASS,
        local(FRONT_CENTRE.x, FRONT_CENTRE.y),
        front_inertia,
    );
    commands.entity(body).insert((head, Rider::default(), Wheels(wheels)));
}

/// The player's part: a steer input (+1 full left) turned into the lean asked of the
/// rider, and the rear wheel driven to hold the speed.
fn ride(time: Res<Time>, mut bikes: Query<(&mut Rider, &LinearVelocity, &Wheels)>, mut inputs: Query<&mut WheelInput>) {
    let t = time.elapsed_secs();
    let steer = match t {
        t if (3.0..6.0).contains(&t) => 0.5,
        t if (6.0..9.0).contains(&t) => -0.5,
        _ => 0.0,
    };
    for (mut rider, velocity, wheels) in &mut bikes {
        // Half the input is 15° of lean.
        rider.lean = steer * 30f32.to_radians();
        if let Ok(mut rear) = inputs.get_mut(wheels.0[0]) {
            rear.drive_torque = 90.0 * (SPEED - velocity.length());
        }
    }
}

fn report(time: Res<Time>, bikes: Query<(&Position, &Rotation, &LinearVelocity, &AngularVelocity, &SteeringHead)>) {
    let t = time.elapsed_secs();
    if !((t * 60.0).round() as u32).is_multiple_of(60) {
        return;
    }
    for (p, q, v, w, head) in &bikes {
        let (lean, _) = wheelcollider::avian::two_wheeler::lean_of(q.0, w.0);
        let radius = if w.0.y.abs() > 1e-3 {
            v.length() / w.0.y
        } else {
            f32::INFINITY
        };
        println!(
            "t = {t:4.1} s  ({:6.1}, {:6.1}) m  {:4.1} m/s  lean {:+5.1}° (left +)  steer {:+5.1}°  turn radius {radius:+7.1} m",
            p.x,
            p.z,
            v.length(),
            lean.to_degrees(),
            head.angle.to_degrees(),
        );
    }
}
