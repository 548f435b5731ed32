//! Degenerate scenes: a warning or a clean skip, never a panic or a NaN.
use crate::common;
use avian3d::prelude::*;
use bevy::prelude::*;
use common::*;
use wheelcollider_avian::prelude::*;

#[test]
fn wheel_without_a_rigid_body_is_skipped() {
    let mut app = app(60.0);
    spawn_ground(&mut app, Quat::IDENTITY);
    let lone = app
        .world_mut()
        .spawn((WheelCollider::default(), Transform::from_xyz(0.0, 0.3, 0.0)))
        .id();
    run(&mut app, 10);
    assert!(app.world().get::<WheelOf>(lone).is_none());
    assert!(!output(&app, lone).grounded());
}

/// Wheels spawned alone and made children of a car afterwards (`add_child`) are attached
/// then: the car settles on them at the sag m·g/(4k) within 1 %.
#[test]
fn wheels_parented_after_they_are_spawned_are_attached() {
    let hz = 60.0;
    let (mut app, car, wheels) = car_on_flat(hz);
    for w in wheels {
        app.world_mut().entity_mut(w).remove::<(ChildOf, WheelOf)>();
    }
    app.update();
    for w in wheels {
        assert!(app.world().get::<WheelOf>(w).is_none(), "detached for the test");
        app.world_mut().entity_mut(car).add_child(w);
    }
    run(&mut app, steps(3.0, hz));
    for w in wheels {
        assert_eq!(app.world().get::<WheelOf>(w), Some(&WheelOf(car)));
    }
    assert_at_sag(&app, &wheels, "parented after spawning");
}

#[test]
fn zero_and_absurd_chassis_mass() {
    for mass in [0.0f32, 1e-6, 1e9] {
        let mut app = app(60.0);
        spawn_ground(&mut app, Quat::IDENTITY);
        let (chassis, wheels) = spawn_car(
            &mut app,
            Transform::from_xyz(0.0, TOUCH_HEIGHT, 0.0),
            WheelCollider::default(),
        );
        app.world_mut().entity_mut(chassis).insert(Mass(mass));
        set_input(
            &mut app,
            &wheels,
            WheelInput {
                drive_torque: 300.0,
                ..Default::default()
            },
        );
        run(&mut app, 120);
        assert!(position(&app, chassis).is_finite(), "mass {mass}");
        for w in wheels {
            assert!(output(&app, w).force.is_finite(), "mass {mass}");
        }
    }
}

#[test]
fn radius_larger_than_the_suspension() {
    let mut app = app(60.0);
    spawn_ground(&mut app, Quat::IDENTITY);
    let mut wheel = WheelCollider::default();
    wheel.set_radius(0.6).unwrap();
    wheel.set_suspension_length(0.05).unwrap();
    wheel.set_sweep_type(SweepType::Cylinder);
    let (chassis, wheels) = spawn_car(&mut app, Transform::from_xyz(0.0, 1.2, 0.0), wheel);
    set_input(
        &mut app,
        &wheels,
        WheelInput {
            brake_torque: 1000.0,
            ..Default::default()
        },
    );
    run(&mut app, 300);
    let y = position(&app, chassis).y;
    // Mount at y − 0.25. The spring (2 kN at full travel) cannot carry the corner's
    // 2.9 kN, so the car rests on the bump stops: wheel centre at the mount, 0.6 up.
    assert!(
        y.is_finite() && y > 0.25 + 0.6 - 0.06 && y < 0.25 + 0.6 + 0.06,
        "height {y}"
    );
    let v = velocity(&app, chassis).length();
    // Resting on the bump stops is a limit cycle of ~1 cm/s (the stop and the damper
    // take turns); bounded, not settled. See the closing note of this change.
    assert!(v < 0.05, "moving at {v} m/s");
}

#[test]
fn despawning_wheels_chassis_and_ground_mid_run() {
    let mut app = app(60.0);
    let ground = spawn_ground(&mut app, Quat::IDENTITY);
    let (chassis, wheels) = spawn_car(
        &mut app,
        Transform::from_xyz(0.0, TOUCH_HEIGHT, 0.0),
        WheelCollider::default(),
    );
    let (other, _) = spawn_car(
        &mut app,
        Transform::from_xyz(5.0, TOUCH_HEIGHT, 0.0),
        WheelCollider::default(),
    );
    run(&mut app, 30);
    app.world_mut().despawn(wheels[0]);
    run(&mut app, 30);
    assert_eq!(app.world().get::<ChassisWheels>(chassis).unwrap().wheels().len(), 3);
    app.world_mut().despawn(other); // with its wheels (children)
    run(&mut app, 5);
    app.world_mut().despawn(ground);
    run(&mut app, 5);
    for w in &wheels[1..] {
        assert!(!output(&app, *w).grounded(), "the ground is gone");
    }
    assert!(position(&app, chassis).is_finite());
}
