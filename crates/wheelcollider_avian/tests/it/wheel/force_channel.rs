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
