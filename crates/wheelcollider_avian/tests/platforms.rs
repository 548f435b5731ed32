//! Moving and dynamic ground: a platform carries the car; a dynamic plank feels the
//! car's weight.
mod common;
use avian3d::prelude::*;
use bevy::prelude::*;
use common::*;
use wheelcollider_avian::prelude::*;

/// A braked car dropped on a kinematic platform moving at 3 m/s: friction brings it up
/// to the platform's speed (sliding ≈ v²/(2μg) ≈ 0.3 m while it does), then it is
/// carried: speed within 1 %, and < 1 mm of slip on the platform over the next 3 s.
#[test]
fn moving_platform_carries_the_car() {
    let hz = 60.0;
    let mut app = app(hz);
    let v = Vec3::new(2.0, 0.0, -2.2);
    let platform = app
        .world_mut()
        .spawn((
            RigidBody::Kinematic,
            Collider::cuboid(30.0, 1.0, 30.0),
            Transform::from_xyz(0.0, -0.5, 0.0),
            LinearVelocity(v),
        ))
        .id();
    let (chassis, wheels) = spawn_car(
        &mut app,
        Transform::from_xyz(0.0, TOUCH_HEIGHT, 0.0),
        WheelCollider::default(),
    );
    brake(&mut app, &wheels, 2000.0);
    run(&mut app, steps(2.0, hz));
    let offset = |app: &App| (position(app, chassis) - position(app, platform)) * Vec3::new(1.0, 0.0, 1.0);
    let caught_up = offset(&app);
    assert!(caught_up.length() < 0.6, "slid {caught_up} while catching up");
    run(&mut app, steps(3.0, hz));
    let car_v = velocity(&app, chassis);
    assert!((car_v - v).length() < 0.01 * v.length(), "car {car_v} vs platform {v}");
    let slip = (offset(&app) - caught_up).length();
    assert!(slip < 1e-3, "slid {slip} m on the platform once carried");
}

/// A weightless dynamic plank (500 kg, no gravity, no support) under the car: every
/// wheel force pushes it. Its momentum after 0.25 s equals the sum of the forces the
/// wheels applied (their reactions), within 1 %.
#[test]
fn car_pushes_a_dynamic_plank() {
    let hz = 120.0;
    let mut app = app(hz);
    let plank = app
        .world_mut()
        .spawn((
            RigidBody::Dynamic,
            Collider::cuboid(10.0, 0.2, 10.0),
            Mass(500.0),
            GravityScale(0.0),
            Transform::from_xyz(0.0, -0.1, 0.0),
        ))
        .id();
    let (_, wheels) = spawn_car(
        &mut app,
        Transform::from_xyz(0.0, TOUCH_HEIGHT - 0.07, 0.0),
        WheelCollider::default(),
    );
    let mut impulse = Vec3::ZERO;
    for _ in 0..steps(0.25, hz) {
        app.update();
        for w in wheels {
            impulse -= state(&app, w).force / hz as f32;
        }
    }
    let momentum = velocity(&app, plank) * 500.0;
    assert!(momentum.y < -100.0, "pushed down: {momentum}");
    assert!(
        (momentum - impulse).length() < 0.01 * impulse.length(),
        "momentum {momentum} vs impulse {impulse}"
    );
}

/// The wheels cast against static colliders alone while nothing that can move is in
/// reach of a chassis (a per-chassis box query each step). A kinematic slab that starts
/// 1 m down inside the ground, out of reach, and rises at 0.5 m/s until its top is 4 cm
/// above the ground must be found once it is in reach. Per sweep type: halfway up,
/// every wheel stands on the ground; after, every wheel stands on the slab and the
/// chassis has risen by its 4 cm (within 5 mm). Alone, and with six kinematic boxes far
/// away: with more than three moving colliders per chassis the screening asks avian's
/// trees instead of its grid (`WheelCasts::rebuild_grid`); each way fails if its query
/// never finds anything.
#[test]
fn a_platform_arriving_from_outside_reach_is_found() {
    let sweeps = [SweepType::Ray, SweepType::Sphere, SweepType::Cylinder];
    for (sweep, props) in sweeps.into_iter().flat_map(|s| [(s, 0), (s, 6)]) {
        let hz = 60.0;
        let mut app = app(hz);
        let ground = spawn_ground(&mut app, Quat::IDENTITY);
        for k in 0..props {
            app.world_mut().spawn((
                RigidBody::Kinematic,
                Collider::cuboid(1.0, 1.0, 1.0),
                Transform::from_xyz(30.0 + 3.0 * k as f32, 1.0, 30.0),
            ));
        }
        let slab = app
            .world_mut()
            .spawn((
                RigidBody::Kinematic,
                Collider::cuboid(6.0, 0.04, 6.0),
                Transform::from_xyz(0.0, -0.98, 0.0),
                LinearVelocity(Vec3::new(0.0, 0.5, 0.0)),
            ))
            .id();
        let mut wheel = WheelCollider::default();
        wheel.set_sweep_type(sweep);
        let (chassis, wheels) = spawn_car(&mut app, Transform::from_xyz(0.0, TOUCH_HEIGHT - 0.07, 0.0), wheel);
        brake(&mut app, &wheels, 2000.0);
        run(&mut app, steps(1.0, hz));
        let body = |app: &App, w: Entity| state(app, w).hit.and_then(|h| h.body);
        for w in wheels {
            assert_eq!(
                body(&app, w),
                Some(ground),
                "{sweep:?}, {props} boxes: on the ground while the slab rises"
            );
        }
        let before = position(&app, chassis).y;
        run(&mut app, steps(1.0, hz));
        app.world_mut().entity_mut(slab).insert(LinearVelocity::ZERO);
        run(&mut app, steps(1.0, hz));
        let top = position(&app, slab).y + 0.02;
        assert!((top - 0.04).abs() < 1e-3, "slab top at {top}");
        for w in wheels {
            assert_eq!(
                body(&app, w),
                Some(slab),
                "{sweep:?}, {props} boxes: on the slab once it is up"
            );
        }
        let rise = position(&app, chassis).y - before;
        assert!(
            (rise - 0.04).abs() < 0.005,
            "{sweep:?}, {props} boxes: rose {rise} m on a 4 cm slab"
        );
    }
}

/// The screening looks in the box that held the wheels' sweeps in the last step; a
/// wheel whose sweep grew past it casts against everything. A car held 3 m above the
/// ground over a kinematic slab 0.6 m below its mounts: with 0.1 m of travel (reach
/// 0.4 m) no wheel touches; in the very step after the travel is set to 0.4 m (reach
/// 0.7 m) every wheel stands on the slab, 0.6 m from its mount (within 1 mm).
#[test]
fn a_longer_suspension_finds_a_moving_body_in_the_same_step() {
    for sweep in [SweepType::Ray, SweepType::Sphere, SweepType::Cylinder] {
        let hz = 60.0;
        let mut app = app(hz);
        spawn_ground(&mut app, Quat::IDENTITY);
        let height = 3.0;
        let mount_y = height - 0.25;
        let slab = app
            .world_mut()
            .spawn((
                RigidBody::Kinematic,
                Collider::cuboid(6.0, 0.04, 6.0),
                Transform::from_xyz(0.0, mount_y - 0.6 - 0.02, 0.0),
            ))
            .id();
        let mut wheel = WheelCollider::default();
        wheel.set_sweep_type(sweep);
        let (chassis, wheels) = spawn_car(&mut app, Transform::from_xyz(0.0, height, 0.0), wheel);
        app.world_mut().entity_mut(chassis).insert(LockedAxes::ALL_LOCKED);
        run(&mut app, 10);
        for w in wheels {
            assert!(
                !state(&app, w).grounded(),
                "{sweep:?}: out of reach with 0.1 m of travel"
            );
        }
        for w in wheels {
            let mut wheel = app.world_mut().get_mut::<WheelCollider>(w).unwrap();
            wheel.set_suspension_length(0.4).unwrap();
        }
        run(&mut app, 1);
        for w in wheels {
            let s = state(&app, w);
            let hit = s.hit.expect("a hit in the first step");
            assert_eq!(hit.body, Some(slab), "{sweep:?}: on the slab");
            let from_mount = s.mount_position.y - hit.point.y;
            assert!(
                (from_mount - 0.6).abs() < 1e-3,
                "{sweep:?}: hit {from_mount} m below the mount"
            );
        }
    }
}
