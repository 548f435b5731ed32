//! Moving and dynamic ground: a platform carries the car; a turntable turns it; a deck
//! tilting under a parked car; a dynamic plank feels the car's weight; a loose log run over.
use crate::common;
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
            impulse -= output(&app, w).force / hz as f32;
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
        let body = |app: &App, w: Entity| output(app, w).hit.and_then(|h| h.body);
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
                !output(&app, w).grounded(),
                "{sweep:?}: out of reach with 0.1 m of travel"
            );
        }
        for w in wheels {
            let mut wheel = app.world_mut().get_mut::<WheelCollider>(w).unwrap();
            wheel.set_suspension_length(0.4).unwrap();
        }
        run(&mut app, 1);
        for w in wheels {
            let s = output(&app, w);
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

/// `name` with `sweep` wheels, parked (brake and handbrake on).
fn parked(app: &mut App, name: &str, sweep: SweepType, at: Vec3) -> Entity {
    let settings = preset_with(name, sweep);
    let car = spawn_preset_car(
        app,
        &settings,
        Transform::from_translation(at + Vec3::Y * settings.touch_height()),
    );
    let mut input = app.world_mut().get_mut::<VehicleInput>(car).unwrap();
    (input.brake, input.handbrake) = (1.0, 1.0);
    car
}

/// The runs of the platform tests: every preset and sweep at 60 Hz, and the road car's
/// sweeps at 30 and 240 Hz.
fn runs() -> impl Iterator<Item = (&'static str, SweepType, f64)> {
    let at_60 = PRESETS.into_iter().flat_map(|n| SWEEPS.map(|s| (n, s, 60.0)));
    at_60.chain(SWEEPS.into_iter().flat_map(|s| [("road", s, 30.0), ("road", s, 240.0)]))
}

fn all_grounded(app: &App, car: Entity) -> bool {
    let wheels = app.world().get::<ChassisWheels>(car).unwrap().wheels();
    wheels.iter().all(|&w| output(app, w).grounded())
}

/// A parked car 6 m from the centre of a kinematic turntable turning at 0.5 rad/s
/// (3 m/s at the car, 1.5 m/s² of centripetal acceleration, well inside the grip): once
/// friction has brought it up to the table's speed (4 s), it turns with the table: its
/// yaw rate is the table's within 0.1 %, every wheel stays down, and over the next 4 s
/// it moves less than `dt` · 1 m/s over the table (the creep is first order in the step:
/// measured 0.5·dt, 8 mm at 60 Hz; avian's own friction slides a box resting on the
/// same table outward six times faster).
#[test]
fn a_turntable_turns_a_parked_car_with_it() {
    let omega = 0.5;
    let mut failures = Vec::new();
    for (name, sweep, hz) in runs() {
        let mut app = app(hz);
        let table = app
            .world_mut()
            .spawn((
                RigidBody::Kinematic,
                Collider::cylinder(15.0, 1.0),
                Transform::from_xyz(0.0, -0.5, 0.0),
                AngularVelocity(Vec3::Y * omega),
            ))
            .id();
        let car = parked(&mut app, name, sweep, Vec3::new(6.0, 0.0, 0.0));
        run(&mut app, steps(4.0, hz));
        let on_table = |app: &App| rotation(app, table).inverse() * (position(app, car) - position(app, table));
        let start = on_table(&app);
        let mut down = true;
        for _ in 0..steps(4.0, hz) {
            app.update();
            down &= all_grounded(&app, car);
        }
        let creep = ((on_table(&app) - start) * Vec3::new(1.0, 0.0, 1.0)).length();
        let yaw_rate = app.world().get::<AngularVelocity>(car).unwrap().0.y;
        let dt = 1.0 / hz as f32;
        println!(
            "measured: turntable, {name} {sweep:?} {hz} Hz: yaw rate {yaw_rate:.5} rad/s, creep {:.2} mm ({:.2}·dt m), every wheel down {down}",
            creep * 1e3,
            creep / dt
        );
        if !down || (yaw_rate / omega - 1.0).abs() > 1e-3 || creep > dt {
            failures.push(format!("{name} {sweep:?} {hz} Hz"));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// A parked car 3 m from the hinge of a kinematic deck that tilts about X as
/// ω = 0.25·sin(2π·t / 4 s) rad/s (to ±9°, up to 1.2 m/s² of the deck's own acceleration
/// at the car) for one period, back to level: every wheel stays down throughout, the car
/// never moves off the deck's surface faster than 0.1 m/s where it stands (its point on
/// the surface under its origin), and
/// level again it stands within 1.5 cm of where it started on the deck (measured 8 mm at
/// 30 Hz, 5 mm at 60 Hz: the static-friction anchor's offset, which is of order `dt²`).
#[test]
fn a_deck_tilting_under_a_parked_car_keeps_it() {
    let mut failures = Vec::new();
    for (name, sweep, hz) in runs() {
        let mut app = app(hz);
        let deck = app
            .world_mut()
            .spawn((
                RigidBody::Kinematic,
                Collider::cuboid(20.0, 1.0, 20.0),
                Transform::from_xyz(0.0, -0.5, 0.0),
            ))
            .id();
        let car = parked(&mut app, name, sweep, Vec3::new(0.0, 0.0, 3.0));
        run(&mut app, steps(2.0, hz));
        let on_deck = |app: &App| rotation(app, deck).inverse() * (position(app, car) - position(app, deck));
        let start = on_deck(&app);
        let (mut down, mut off) = (true, 0.0f32);
        for i in 0..steps(4.0, hz) {
            let t = i as f64 / hz;
            let omega = Vec3::X * (0.25 * (std::f64::consts::TAU * t / 4.0).sin()) as f32;
            app.world_mut().get_mut::<AngularVelocity>(deck).unwrap().0 = omega;
            app.update();
            down &= all_grounded(&app, car);
            // The car's motion off the deck where it stands: the chassis' point on the
            // deck's surface under its origin, moving with the body (avian's velocity is
            // its centre of mass', 0.52 m ahead of the tractor's origin).
            let normal = rotation(&app, deck) * Vec3::Y;
            let (p, top) = (position(&app, car), position(&app, deck) + normal * 0.5);
            let foot = p - normal * (p - top).dot(normal);
            let com = p + rotation(&app, car) * app.world().get::<ComputedCenterOfMass>(car).unwrap().0;
            let spin = app.world().get::<AngularVelocity>(car).unwrap().0;
            let at_foot = velocity(&app, car) + spin.cross(foot - com);
            let surface = omega.cross(foot - position(&app, deck));
            off = off.max((at_foot - surface).dot(normal));
        }
        let moved = ((on_deck(&app) - start) * Vec3::new(1.0, 0.0, 1.0)).length();
        println!(
            "measured: tilting deck, {name} {sweep:?} {hz} Hz: moved {:.2} mm on the deck, off its surface at up to {off:.3} m/s, every wheel down {down}",
            moved * 1e3
        );
        if !down || off > 0.1 || moved > 0.015 {
            failures.push(format!("{name} {sweep:?} {hz} Hz"));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// A loose log (30 kg, 0.1 m radius, 3 m long) across the road, run over at 54 km/h by
/// the road car and the GT86 with sphere and cylinder wheels, 30, 60 and 240 Hz. The
/// front wheels set it rolling; the rear wheels then meet a body spinning at tens of
/// rad/s. The ground's velocity must be read where its surface is (the hit), not
/// carried out to the suspension axis 0.3 m from the log's centre, where its spin read
/// as metres per second of approach: the dampers shot the log out at up to 17.5 m/s and
/// the car and the log together gained 3.0–7.3 % of the car's kinetic energy (five of
/// the twelve runs, at 60 and 240 Hz). Now: the car, its springs and the log never hold more than 0.5 %
/// of the car's kinetic energy above the start (measured at most 0.18 %: a sweep's jump
/// onto the log compresses the springs in a step, a position the spring is handed), and
/// the log never moves faster than the car came (measured at most 6.8 m/s).
#[test]
fn a_log_run_over_by_shape_wheels_is_not_shot_out() {
    let mut failures = Vec::new();
    for (name, sweep, hz) in ["road", "gt86"]
        .into_iter()
        .flat_map(|n| [SweepType::Sphere, SweepType::Cylinder].map(|s| (n, s)))
        .flat_map(|(n, s)| [30.0, 60.0, 240.0].map(|hz| (n, s, hz)))
    {
        let settings = preset_with(name, sweep);
        let v0 = 15.0;
        let mut app = app(hz);
        flat(&mut app, Some(WheelSurface::ASPHALT));
        let log = app
            .world_mut()
            .spawn((
                RigidBody::Dynamic,
                Collider::cylinder(0.1, 3.0),
                Mass(30.0),
                Transform::from_xyz(0.0, 0.1, -0.6 * v0 - 3.0)
                    .with_rotation(Quat::from_rotation_z(std::f32::consts::FRAC_PI_2)),
            ))
            .id();
        let (car, _, _) = settled_and_launched(&mut app, &settings, hz, v0);
        let total = |app: &App| energy(app, car) + body_energy(app, log);
        let (e0, kinetic) = (total(&app), 0.5 * settings.chassis.mass * v0 * v0);
        let (mut gained, mut fastest) = (0.0f32, 0.0f32);
        for _ in 0..steps(2.0, hz) {
            app.update();
            assert_sane(&app, car);
            gained = gained.max((total(&app) - e0) / kinetic);
            fastest = fastest.max(velocity(&app, log).length());
        }
        println!(
            "measured: log, {name} {sweep:?} {hz} Hz: energy at most {:+.2} % of the car's kinetic above the start, log at up to {fastest:.1} m/s",
            gained * 100.0
        );
        if gained > 0.005 || fastest > v0 {
            failures.push(format!(
                "{name} {sweep:?} {hz} Hz: {:+.2} %, {fastest:.1} m/s",
                gained * 100.0
            ));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}
