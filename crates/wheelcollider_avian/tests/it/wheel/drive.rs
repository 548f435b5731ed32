//! Driving: straight with equal torque goes straight; steering left turns left.
use crate::common;
use bevy::prelude::*;
use common::*;
use wheelcollider_avian::prelude::*;

fn heading(app: &bevy::prelude::App, e: Entity) -> f32 {
    let f = rotation(app, e) * Vec3::NEG_Z;
    f.x.atan2(-f.z).to_degrees()
}

#[test]
fn equal_torque_drives_straight() {
    let hz = 60.0;
    let (mut app, chassis, wheels) = car_on_flat(hz);
    // A rough road (±5 mm Perlin bumps), so that the left and right wheels see different
    // ground and the test is not settled by symmetry alone.
    for &w in &wheels {
        let mut wheel = app.world_mut().get_mut::<WheelCollider>(w).unwrap();
        wheel.set_bump_amplitude(0.01).unwrap();
        wheel.set_bump_period(0.7).unwrap();
    }
    run(&mut app, steps(1.0, hz));
    set_input(
        &mut app,
        &wheels[2..],
        WheelInput {
            drive_torque: 400.0,
            ..Default::default()
        },
    );
    let start = position(&app, chassis);
    let mut t = 0;
    while (position(&app, chassis) - start).length() < 100.0 {
        app.update();
        t += 1;
        assert!(t < steps(60.0, hz), "never covered 100 m");
    }
    let h = heading(&app, chassis);
    eprintln!("measured: heading change {h:.4}° over 100 m");
    assert!(h.abs() < 0.5, "heading changed {h}° over 100 m");
    let lateral = position(&app, chassis).x - start.x;
    assert!(lateral.abs() < 0.5, "drifted {lateral} m sideways");
}

#[test]
fn steering_left_turns_left() {
    let hz = 60.0;
    let (mut app, chassis, wheels) = car_on_flat(hz);
    set_input(
        &mut app,
        &wheels[2..],
        WheelInput {
            drive_torque: 300.0,
            ..Default::default()
        },
    );
    run(&mut app, steps(2.0, hz));
    set_input(
        &mut app,
        &wheels[..2],
        WheelInput {
            steer_angle: 15.0,
            ..Default::default()
        },
    );
    run(&mut app, steps(2.0, hz));
    let yaw_rate = app
        .world()
        .get::<avian3d::prelude::AngularVelocity>(chassis)
        .unwrap()
        .0
        .y;
    assert!(yaw_rate > 0.1, "yaw rate {yaw_rate} rad/s (positive = left)");
    assert!(heading(&app, chassis) < -5.0, "heading {}", heading(&app, chassis));
    assert!(
        position(&app, chassis).x < -0.5,
        "went left: x = {}",
        position(&app, chassis).x
    );
}
