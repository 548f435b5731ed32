//! The chassis' one force channel (`ChassisForces`) with a game's own body part: a
//! system in `WheelSystems::Body`, ordered after the vehicle's parts, that adds a force
//! is applied to the body and counted by the suspension solve.
use crate::common;
use avian3d::prelude::*;
use bevy::prelude::*;
use common::*;
use wheelcollider_avian::prelude::*;

/// The extra downward force a test's body part adds (N), 0 when off.
#[derive(Resource, Default)]
struct Ballast(f32);

/// A game's body part: a downward force at the centre of mass of every chassis.
fn ballast(ballast: Res<Ballast>, mut chassis: Query<&mut ChassisForces>) {
    for mut forces in &mut chassis {
        forces.add_force(Vec3::NEG_Y * ballast.0);
    }
}

/// The 1 200 kg test car at rest on four 40 kN/m springs, then a body part in
/// `WheelSystems::Body` adds a fifth of its weight at the centre of mass (its sag stays
/// within the 0.1 m travel): the car settles at
/// the sag `(m·g + F)/(4k)` within 1 % and the wheels carry `m·g + F` within 0.5 %, at
/// 30, 60 and 240 Hz (the force reaches avian through the channel, and the suspension
/// solve counts it). Checked that it fails: with `ChassisForces::add_force` dropping
/// what a part adds, the car stays at its unloaded sag (0.0736 against 0.0883 m).
#[test]
fn a_body_part_on_the_force_channel_loads_the_springs() {
    for hz in [30.0, 60.0, 240.0] {
        let mut app = app(hz);
        app.init_resource::<Ballast>().add_systems(
            PhysicsSchedule,
            ballast.in_set(WheelSystems::Body).after(VehicleSystems::Body),
        );
        spawn_ground(&mut app, Quat::IDENTITY);
        let (_, wheels) = spawn_car(
            &mut app,
            Transform::from_xyz(0.0, TOUCH_HEIGHT, 0.0),
            WheelCollider::default(),
        );
        run(&mut app, steps(3.0, hz));
        let extra = 0.2 * MASS * G;
        app.world_mut().resource_mut::<Ballast>().0 = extra;
        run(&mut app, steps(5.0, hz));
        let sag = (MASS * G + extra) / (4.0 * 40_000.0);
        let mut total = 0.0;
        for w in wheels {
            let o = output(&app, w);
            let compression = o.output.compression;
            println!("measured: {hz} Hz sag with the body part {compression:.5} m vs {sag:.5} m");
            assert!(
                (compression - sag).abs() < 0.01 * sag,
                "{hz} Hz: {compression} vs {sag}"
            );
            total += o.load();
        }
        let want = MASS * G + extra;
        assert!((total - want).abs() < 0.005 * want, "{hz} Hz: load {total} vs {want}");
    }
}

/// A flatbed: a 2 000 kg chassis 3 m wide and 6 m long on four 100 kN/m springs, its deck
/// (the box's top) at `deck` m. Returns (chassis, wheels).
fn spawn_flatbed(app: &mut App, deck: f32) -> (Entity, [Entity; 4]) {
    const FLATBED: Vec3 = Vec3::new(3.0, 0.5, 6.0);
    let mut wheel = WheelCollider::default();
    wheel.set_suspension_spring(100_000.0).unwrap();
    wheel.set_suspension_bump(6_000.0).unwrap();
    wheel.set_suspension_rebound(6_000.0).unwrap();
    let world = app.world_mut();
    let chassis = world
        .spawn((
            RigidBody::Dynamic,
            Collider::cuboid(FLATBED.x, FLATBED.y, FLATBED.z),
            Mass(2000.0),
            AngularInertia::new(Vec3::new(6000.0, 8000.0, 2000.0)),
            CenterOfMass::ZERO,
            SleepingDisabled,
            Transform::from_xyz(0.0, deck - 0.5 * FLATBED.y, 0.0),
        ))
        .id();
    (chassis, wheels_at_mounts(world, chassis, &wheel))
}

/// The test car parked on a flatbed's deck: the car's wheels stand on the flatbed's
/// body, whose own wheels stand on the ground (a scene no preset was tuned for). At 30,
/// 60 and 240 Hz, after 4 s, over 2 s: the flatbed's wheels carry both weights,
/// `(m_f + m_c)·g`, within 0.5 % every step and its body is still (vertical speed under
/// 1 mm/s RMS); the car's wheels carry its weight within 0.5 %. The sags are printed,
/// not asserted: the car's push reaches the flatbed's body outside its force channel, so
/// its suspension solve sees it a step behind and the flatbed sits deep by a part
/// proportional to the step (`docs/architecture.md`, "The force channel", says why it
/// stays so). Checked that it fails: with the push left out of `apply_forces` the
/// flatbed's wheels carry its own weight alone (37.5 % short).
#[test]
fn a_car_on_a_flatbed_loads_the_flatbeds_springs() {
    for hz in [30.0, 60.0, 240.0] {
        let mut app = app(hz);
        spawn_ground(&mut app, Quat::IDENTITY);
        let deck = 0.25 + 0.5 + 0.3 + 0.1 - 2.0 * 2000.0 * G / (4.0 * 100_000.0);
        let (flatbed, under) = spawn_flatbed(&mut app, deck);
        let (_, car_wheels) = spawn_car(
            &mut app,
            Transform::from_xyz(0.0, deck + TOUCH_HEIGHT, 0.0),
            WheelCollider::default(),
        );
        run(&mut app, steps(4.0, hz));
        let want = (2000.0 + MASS) * G;
        let (mut worst, mut rms, n) = (0.0f32, 0.0f32, steps(2.0, hz));
        for _ in 0..n {
            run(&mut app, 1);
            let total: f32 = under.iter().map(|&w| output(&app, w).load()).sum();
            worst = worst.max((total - want).abs() / want);
            rms += velocity(&app, flatbed).y.powi(2);
        }
        let rms = (rms / n as f32).sqrt();
        let mean =
            |w: &[Entity; 4], f: fn(&WheelOutput) -> f32| w.iter().map(|&w| f(&output(&app, w))).sum::<f32>() / 4.0;
        let (sag, sag_want) = (mean(&under, |o| o.output.compression), want / (4.0 * 100_000.0));
        let (car_sag, car_load) = (
            mean(&car_wheels, |o| o.output.compression),
            4.0 * mean(&car_wheels, |o| o.load()),
        );
        println!(
            "measured: {hz} Hz the flatbed's wheels carry both weights within {:.3} % (worst step), \
             its sag {sag:.5} m against (m_f + m_c)·g/4k = {sag_want:.5} m, its body {:.2} mm/s RMS; \
             the car's wheels carry {car_load:.1} N against {:.1} N, its sag {car_sag:.5} m against {SAG:.5} m",
            100.0 * worst,
            1000.0 * rms,
            MASS * G
        );
        assert!(
            (car_load - MASS * G).abs() < 0.005 * MASS * G,
            "{hz} Hz: the car's load {car_load}"
        );
        assert!(
            worst < 0.005,
            "{hz} Hz: the flatbed's wheels off both weights by {worst}"
        );
        assert!(rms < 1e-3, "{hz} Hz: the flatbed moves at {rms} m/s RMS");
    }
}
