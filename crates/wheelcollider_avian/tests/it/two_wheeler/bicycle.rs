//! The benchmark bicycle of Meijaard, Papadopoulos, Ruina and Schwab (Proc. R. Soc. A
//! 463, 2007, Table 1) as one body with a steering head and two ray wheels: the scene
//! the two-wheeler tests ride.

use crate::common::*;
use avian3d::prelude::*;
use bevy::prelude::*;
use wheelcollider_avian::prelude::*;

// The paper's Table 1, in its frame: x forward from the rear contact, z down.
pub const WHEELBASE: f32 = 1.02;
pub const TRAIL: f32 = 0.08;
pub const HEAD_TILT: f32 = std::f32::consts::PI / 10.0;
/// (radius m, mass kg, I_xx, I_yy kg·m²) of the rear and the front wheel.
pub const REAR_WHEEL: (f32, f32, f32, f32) = (0.3, 2.0, 0.0603, 0.12);
pub const FRONT_WHEEL: (f32, f32, f32, f32) = (0.35, 3.0, 0.1405, 0.28);
/// (x, z m, mass kg, I_xx, I_yy, I_zz, I_xz kg·m²) of the rear frame with its rider and
/// of the front frame (fork and handlebar).
pub const REAR_FRAME: (f32, f32, f32, [f32; 4]) = (0.3, -0.9, 85.0, [9.2, 11.0, 2.8, 2.4]);
pub const FRONT_FRAME: (f32, f32, f32, [f32; 4]) = (0.9, -0.7, 4.0, [0.05892, 0.06, 0.00708, -0.00756]);

/// A point of the paper's frame (x forward from the rear contact, z down) in the
/// world, the rear contact at `origin`, facing −Z.
pub fn at(origin: Vec3, x: f32, z: f32) -> Vec3 {
    origin + Vec3::new(0.0, -z, -x)
}

/// An inertia tensor given in the paper's frame (`I_xx`, `I_yy`, `I_zz`, `I_xz`) in the
/// world's axes (x right, y up, z back).
pub fn tensor([ixx, iyy, izz, ixz]: [f32; 4]) -> Mat3 {
    Mat3::from_cols(
        Vec3::new(iyy, 0.0, 0.0),
        Vec3::new(0.0, izz, ixz),
        Vec3::new(0.0, ixz, ixx),
    )
}

/// Parts (mass kg, centre of mass, inertia tensor about it) as one rigid body: its mass,
/// centre of mass and inertia tensor about it (parallel axes).
pub fn combine(parts: &[(f32, Vec3, Mat3)]) -> (f32, Vec3, Mat3) {
    let mass: f32 = parts.iter().map(|p| p.0).sum();
    let centre = parts.iter().map(|p| p.0 * p.1).sum::<Vec3>() / mass;
    let inertia = parts.iter().fold(Mat3::ZERO, |sum, &(m, c, t)| {
        let d = c - centre;
        let shift = Mat3::from_diagonal(Vec3::splat(d.length_squared())) - Mat3::from_cols(d * d.x, d * d.y, d * d.z);
        sum + t + shift * m
    });
    (mass, centre, inertia)
}

/// The benchmark bicycle in the world: its body and its wheels (rear, front).
pub struct Bicycle {
    pub body: Entity,
    pub wheels: [Entity; 2],
}

/// The tyre of the benchmark bicycle's wheels: the paper's wheels roll without slip, so
/// a stiff tyre (cornering stiffness `stiffness` per unit load, per radian) with a short
/// relaxation length; no camber thrust, aligning torque or rolling resistance (a knife
/// edge has none). The suspension is a stiff spring (2 mm under the front's load),
/// about critically damped.
pub fn wheel(radius: f32, spin_inertia: f32, stiffness: f32) -> WheelCollider {
    let mut w = WheelCollider::default();
    w.set_sweep_type(SweepType::Ray);
    w.set_radius(radius).unwrap();
    w.set_width(0.03).unwrap();
    w.set_inertia(spin_inertia).unwrap();
    w.set_suspension_length(0.03).unwrap();
    w.set_suspension_spring(150_000.0).unwrap();
    w.set_suspension_bump(2_000.0).unwrap();
    w.set_suspension_rebound(2_000.0).unwrap();
    // B·C·D = stiffness: C = 1.6, D = 1.2, E = 0.
    w.set_lateral_tyre(stiffness / (1.6 * 1.2), 1.6, 1.2, 0.0).unwrap();
    w.set_longitudinal_tyre(stiffness / (1.6 * 1.2), 1.6, 1.2, 0.0).unwrap();
    w.set_lateral_relaxation_length(0.01).unwrap();
    w.set_longitudinal_relaxation_length(0.01).unwrap();
    w.set_camber_thrust(0.0).unwrap();
    w.set_rolling_resistance(0.0).unwrap();
    w
}

/// Spawns the benchmark bicycle with its rear contact at `origin`, rolling towards −Z at
/// `speed` (m/s) with its wheels spinning to match, leaning at `lean_rate` (rad/s,
/// positive to the right) about the line through its contacts: one body (the rear
/// frame, the front assembly and both wheels) with a [`SteeringHead`]. `stiffness` is
/// its tyres' cornering stiffness per unit load (1/rad).
pub fn spawn_bicycle(app: &mut App, origin: Vec3, speed: f32, lean_rate: f32, stiffness: f32) -> Bicycle {
    let (rr, mr, irxx, iryy) = REAR_WHEEL;
    let (rf, mf, ifxx, ifyy) = FRONT_WHEEL;
    let wheel_tensor = |ixx: f32, iyy: f32| tensor([ixx, iyy, ixx, 0.0]);
    let (xb, zb, mb, ib) = REAR_FRAME;
    let (xh, zh, mh, ih) = FRONT_FRAME;
    let rear_centre = at(origin, 0.0, -rr);
    let front_centre = at(origin, WHEELBASE, -rf);
    let front = combine(&[
        (mh, at(origin, xh, zh), tensor(ih)),
        (mf, front_centre, wheel_tensor(ifxx, ifyy)),
    ]);
    let body = combine(&[
        (mb, at(origin, xb, zb), tensor(ib)),
        (mr, rear_centre, wheel_tensor(irxx, iryy)),
        front,
    ]);
    // The static loads on the wheels (N).
    let x_centre = -(body.1 - origin).z;
    let front_load = body.0 * G * x_centre / WHEELBASE;
    let rear_load = body.0 * G - front_load;
    let world = app.world_mut();
    let forward = Vec3::NEG_Z;
    // About the ground line through the contacts.
    let spin = forward * lean_rate;
    let lever = body.1 - Vec3::new(origin.x, origin.y, body.1.z);
    let chassis = world
        .spawn((
            RigidBody::Dynamic,
            Mass(body.0),
            AngularInertia::from_tensor(AngularInertiaTensor::from_mat3_unchecked(body.2)),
            CenterOfMass(Vec3::ZERO),
            Transform::from_translation(body.1),
            LinearVelocity(forward * speed + spin.cross(lever)),
            AngularVelocity(spin),
        ))
        .id();
    // The frame and its rider, for a fall: a capsule along the bike, massless (the
    // parts' masses are given above), 0.7 m above the road upright.
    world.spawn((
        Collider::capsule(0.15, 0.8),
        ColliderDensity(0.0),
        Transform::from_rotation(Quat::from_rotation_x(core::f32::consts::FRAC_PI_2)),
        ChildOf(chassis),
    ));
    let mut spawn_wheel = |centre: Vec3, radius: f32, inertia: f32, load: f32| {
        let settings = wheel(radius, inertia, stiffness);
        // The mount: where the wheel's centre sits at its static load.
        let rest = settings.suspension_length() - load / settings.suspension_spring();
        let mount = Transform::from_translation(centre + Vec3::Y * rest - body.1);
        let mut state = WheelState::default();
        state.step.angular_velocity = speed / radius;
        let wheel = world.spawn((settings, state, mount, ChildOf(chassis))).id();
        (wheel, mount)
    };
    let (rear_wheel, _) = spawn_wheel(rear_centre, rr, iryy, rear_load);
    let (front_wheel, front_mount) = spawn_wheel(front_centre, rf, ifyy, front_load);
    // The steering head: the axis through the point `TRAIL` ahead of the front contact,
    // tilted back by `HEAD_TILT`.
    let axis = Vec3::new(0.0, HEAD_TILT.cos(), HEAD_TILT.sin());
    let anchor = at(origin, WHEELBASE + TRAIL, 0.0) - body.1;
    world.entity_mut(chassis).insert(SteeringHead::new(
        front_wheel,
        front_mount,
        axis,
        anchor,
        front.0,
        front.1 - body.1,
        front.2,
    ));
    Bicycle {
        body: chassis,
        wheels: [rear_wheel, front_wheel],
    }
}

/// Gives both wheels of `bike` the `sweep`.
pub fn set_sweep(app: &mut App, bike: &Bicycle, sweep: SweepType) {
    for w in bike.wheels {
        app.world_mut()
            .get_mut::<WheelCollider>(w)
            .unwrap()
            .set_sweep_type(sweep);
    }
}

/// The bicycle's lean (rad, positive to the right), steer (rad, positive to the left:
/// about the head axis, up) and their rates (rad/s).
pub fn lean_and_steer(app: &App, bike: &Bicycle) -> [f64; 4] {
    let q = rotation(app, bike.body);
    let up = q * Vec3::Y;
    let heading = (q * Vec3::NEG_Z).with_y(0.0).normalize();
    let right = heading.cross(Vec3::Y);
    let lean = up.dot(right).asin() as f64;
    let lean_rate = app.world().get::<AngularVelocity>(bike.body).unwrap().0.dot(heading) as f64;
    let head = app.world().get::<SteeringHead>(bike.body).unwrap();
    [lean, head.angle as f64, lean_rate, head.rate as f64]
}
