//! Every parameter changed while driving, sweep type included: the car stays stable.
use crate::common;
use bevy::prelude::*;
use common::*;
use wheelcollider_avian::prelude::*;

type Edit = fn(&mut WheelCollider);

#[test]
fn changing_any_parameter_while_driving_keeps_the_car_stable() {
    let edits: &[(&str, Edit)] = &[
        ("sphere", |w| w.set_sweep_type(SweepType::Sphere)),
        ("cylinder", |w| w.set_sweep_type(SweepType::Cylinder)),
        ("ray", |w| w.set_sweep_type(SweepType::Ray)),
        ("radius", |w| {
            w.set_radius(0.36).unwrap();
        }),
        ("inertia", |w| {
            w.set_inertia(0.2).unwrap();
        }),
        ("width", |w| {
            w.set_width(0.3).unwrap();
        }),
        ("spring", |w| {
            w.set_suspension_spring(90_000.0).unwrap();
        }),
        ("bump", |w| {
            w.set_suspension_bump(6_000.0).unwrap();
        }),
        ("rebound", |w| {
            w.set_suspension_rebound(500.0).unwrap();
        }),
        ("length", |w| {
            w.set_suspension_length(0.15).unwrap();
        }),
        ("camber", |w| {
            w.set_camber_angle(-4.0).unwrap();
        }),
        ("toe", |w| {
            w.set_toe_angle(1.0).unwrap();
        }),
        ("tyre", |w| {
            w.set_tyre(8.0, 1.9, 1.0, 0.5).unwrap();
        }),
        ("camber thrust", |w| {
            w.set_camber_thrust(1.5).unwrap();
        }),
        ("rolling resistance", |w| {
            w.set_rolling_resistance(0.05).unwrap();
        }),
        ("bumps", |w| {
            w.set_bump_amplitude(0.03).unwrap();
            w.set_bump_period(1.5).unwrap();
        }),
        ("soft spring", |w| {
            w.set_suspension_spring(15_000.0).unwrap();
        }),
    ];
    let hz = 60.0;
    let (mut app, chassis, wheels) = car_on_flat(hz);
    run(&mut app, steps(1.0, hz));
    set_input(
        &mut app,
        &wheels[2..],
        WheelInput {
            drive_torque: 250.0,
            ..Default::default()
        },
    );
    set_input(
        &mut app,
        &wheels[..2],
        WheelInput {
            steer_angle: 5.0,
            ..Default::default()
        },
    );
    for (name, edit) in edits {
        for &w in &wheels {
            edit(&mut app.world_mut().get_mut::<WheelCollider>(w).unwrap());
        }
        let speed_before = velocity(&app, chassis).length();
        for _ in 0..steps(1.0, hz) {
            app.update();
            let p = position(&app, chassis);
            let v = velocity(&app, chassis);
            assert!(p.is_finite() && v.is_finite(), "{name}: non-finite");
            assert!(p.y > 0.25 && p.y < 1.5, "{name}: chassis at height {}", p.y);
            assert!(v.y.abs() < 2.0, "{name}: launched at {} m/s vertically", v.y);
            assert!(v.length() < speed_before + 6.0, "{name}: sped up to {}", v.length());
        }
        let up = rotation(&app, chassis) * Vec3::Y;
        assert!(up.y > 0.95, "{name}: tipped, up = {up}");
    }
}

/// A NaN written around the setters (as reflection would) is caught before the step:
/// the field returns to its default and nothing non-finite reaches the body.
#[test]
fn non_finite_setting_by_reflection_is_reset() {
    use bevy::reflect::{GetPath, ReflectMut};
    let hz = 60.0;
    let (mut app, chassis, wheels) = car_on_flat(hz);
    run(&mut app, 10);
    {
        let mut w = app.world_mut().get_mut::<WheelCollider>(wheels[0]).unwrap();
        let ReflectMut::TupleStruct(_) = w.reflect_mut() else {
            panic!()
        };
        *w.path_mut::<f32>(".0.suspension_spring").unwrap() = f32::NAN;
        *w.path_mut::<f32>(".0.radius").unwrap() = -5.0;
    }
    run(&mut app, 60);
    let w = app.world().get::<WheelCollider>(wheels[0]).unwrap();
    assert_eq!(w.suspension_spring(), 40_000.0);
    assert_eq!(w.radius(), 0.001);
    assert!(position(&app, chassis).is_finite());
}

/// A wheel belongs to the chassis its `WheelOf` names, whatever its place in the
/// hierarchy. Two cars 10 m apart swap their front-left wheels by `WheelOf` alone (each
/// stays a child of its old car; the mounts are the same, so nothing should change):
/// each car's list of wheels follows; each swapped wheel's mount is in the world where
/// its new car puts it (within 0.1 mm; stepped for its old parent it would be 10 m
/// away); each car still settles at the sag m·g/(4k) within 1 % on every wheel and
/// carries its weight within 0.5 %.
#[test]
fn a_wheel_moved_to_another_chassis_works_for_that_chassis() {
    let hz = 60.0;
    let mut app = app(hz);
    spawn_ground(&mut app, Quat::IDENTITY);
    let (a, wheels_a) = spawn_car(
        &mut app,
        Transform::from_xyz(0.0, TOUCH_HEIGHT, 0.0),
        WheelCollider::default(),
    );
    let (b, wheels_b) = spawn_car(
        &mut app,
        Transform::from_xyz(10.0, TOUCH_HEIGHT, 0.0),
        WheelCollider::default(),
    );
    run(&mut app, 5);
    app.world_mut().entity_mut(wheels_a[0]).insert(WheelOf(b));
    app.world_mut().entity_mut(wheels_b[0]).insert(WheelOf(a));
    run(&mut app, steps(3.0, hz));
    let lists = |app: &App, car: Entity| app.world().get::<ChassisWheels>(car).unwrap().wheels().to_vec();
    assert!(lists(&app, a).contains(&wheels_b[0]) && !lists(&app, a).contains(&wheels_a[0]));
    assert!(lists(&app, b).contains(&wheels_a[0]) && !lists(&app, b).contains(&wheels_b[0]));
    for (wheel, car) in [(wheels_a[0], b), (wheels_b[0], a)] {
        let expected = position(&app, car) + rotation(&app, car) * MOUNTS[0];
        let mount = output(&app, wheel).mount_position;
        assert!(
            mount.distance(expected) < 1e-4,
            "wheel {wheel}: mount {mount}, its car {car} puts it at {expected}"
        );
    }
    let swapped = |own: [Entity; 4], other: [Entity; 4]| [other[0], own[1], own[2], own[3]];
    for (car, wheels) in [(a, swapped(wheels_a, wheels_b)), (b, swapped(wheels_b, wheels_a))] {
        assert_at_sag(&app, &wheels, &format!("car {car}"));
        let mut total = 0.0;
        for w in wheels {
            let s = output(&app, w);
            assert!(s.grounded(), "wheel {w} of car {car} is on the ground");
            total += s.load();
        }
        eprintln!("measured: car {car} carries {total:.1} N of {:.1}", MASS * G);
        assert!(
            (total - MASS * G).abs() / (MASS * G) < 0.005,
            "car {car}: total load {total}"
        );
    }
}

/// `max_ground_angle` typed at run time acts at the next step (the plugin keeps its
/// cosine between steps): a braked car whose suspension axes lean 20° from the vertical
/// (mounts rolled 20°) stands on flat ground with the default 60°, loses it at 10° and
/// finds it again at 30°.
#[test]
fn max_ground_angle_edited_at_run_time_acts_at_the_next_step() {
    let hz = 60.0;
    let (mut app, _, wheels) = car_on_flat(hz);
    for &w in &wheels {
        app.world_mut().get_mut::<Transform>(w).unwrap().rotation = Quat::from_rotation_z(20f32.to_radians());
    }
    brake(&mut app, &wheels, 5_000.0);
    run(&mut app, steps(1.0, hz));
    let grounded = |app: &App| wheels.iter().filter(|&&w| output(app, w).output.grounded).count();
    assert_eq!(grounded(&app), 4, "at the default 60°");
    let set_angle = |app: &mut App, degrees: f32| {
        for &w in &wheels {
            app.world_mut()
                .get_mut::<WheelCollider>(w)
                .unwrap()
                .set_max_ground_angle(degrees)
                .unwrap();
        }
        run(app, 1);
    };
    set_angle(&mut app, 10.0);
    assert_eq!(grounded(&app), 0, "a 20° slope is not ground at 10°");
    set_angle(&mut app, 30.0);
    assert_eq!(grounded(&app), 4, "a 20° slope is ground again at 30°");
}
