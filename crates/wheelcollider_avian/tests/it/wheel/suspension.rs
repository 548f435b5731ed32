//! The suspension in a car: a 1 200 kg car on four default wheels (static sag, the heave
//! response), and the shipped cars' sag at the edges of the springs' range, dampers and
//! springs typed at their limits, the bump stop's grip, and a car across a bank.
use crate::common;
use avian3d::prelude::*;
use bevy::prelude::*;
use common::*;
use wheelcollider_avian::prelude::*;
use wheelcollider_core::{MAX_DAMPING, MAX_SPRING};

/// Dropped from 0.5 m, the car settles; each wheel carries a quarter of the weight and
/// sags m·g/(4k) within 1 %.
#[test]
fn dropped_car_settles_at_the_static_sag() {
    for hz in [60.0, 120.0] {
        let mut app = app(hz);
        spawn_ground(&mut app, Quat::IDENTITY);
        let (chassis, wheels) = spawn_car(
            &mut app,
            Transform::from_xyz(0.0, TOUCH_HEIGHT + 0.5, 0.0),
            WheelCollider::default(),
        );
        run(&mut app, steps(5.0, hz));
        let sag = SAG;
        let mut total = 0.0;
        for w in wheels {
            let s = output(&app, w);
            assert!(s.grounded());
            let compression = s.output.compression;
            eprintln!(
                "measured: {hz} Hz sag {compression:.5} m vs {sag:.5} ({:+.3} %)",
                (compression / sag - 1.0) * 100.0
            );
            assert!(
                (compression - sag).abs() / sag < 0.01,
                "{hz} Hz: compression {compression} vs {sag}"
            );
            total += s.load();
        }
        assert!((total - MASS * G).abs() / (MASS * G) < 0.005, "total load {total}");
        let height = position(&app, chassis).y;
        assert!((height - (TOUCH_HEIGHT - sag)).abs() < 1e-3, "height {height}");
    }
}

/// Released at rest with the tyres just touching: a step response of a mass on four
/// springs and dampers. Peak time π/ω_d and overshoot exp(−πζ/√(1−ζ²)) with
/// ω_n = √(4k/m), ζ = 4c / (2√(4k·m)), within 5 % at 240 Hz.
#[test]
fn heave_overshoot_and_peak_time_match_the_damping_ratio() {
    let hz = 240.0;
    let mut app = app(hz);
    spawn_ground(&mut app, Quat::IDENTITY);
    // 0.15 m of travel, so that the 39 % overshoot (0.102 m) stays off the bump stop.
    let mut wheel = WheelCollider::default();
    wheel.set_suspension_length(0.15).unwrap();
    let touch = TOUCH_HEIGHT + 0.05;
    let (chassis, _) = spawn_car(&mut app, Transform::from_xyz(0.0, touch, 0.0), wheel);
    let (k, c, m) = (4.0 * 40_000.0f32, 4.0 * 2_000.0f32, MASS);
    let wn = (k / m).sqrt();
    let zeta = c / (2.0 * (k * m).sqrt());
    let wd = wn * (1.0 - zeta * zeta).sqrt();
    let sag = m * G / k;
    let mut deepest = (0.0f32, 0usize);
    for i in 0..steps(1.0, hz) {
        app.update();
        let x = touch - position(&app, chassis).y;
        if x > deepest.0 {
            deepest = (x, i + 1);
        }
    }
    let overshoot = deepest.0 / sag - 1.0;
    let expected = (-std::f32::consts::PI * zeta / (1.0 - zeta * zeta).sqrt()).exp();
    let t_peak = deepest.1 as f32 / hz as f32;
    eprintln!(
        "measured: overshoot {overshoot:.4} (closed form {expected:.4}), peak at {t_peak:.4} s ({:.4})",
        std::f32::consts::PI / wd
    );
    assert!(
        (overshoot - expected).abs() / expected < 0.05,
        "overshoot {overshoot} vs {expected}"
    );
    let expected_t = std::f32::consts::PI / wd;
    assert!(
        (t_peak - expected_t).abs() / expected_t < 0.05,
        "peak at {t_peak} s vs {expected_t}"
    );
}

/// Parked on flat ground for 60 s: no creep, no jitter in the load.
#[test]
fn parked_car_does_not_creep_or_jitter() {
    let hz = 60.0;
    let (mut app, chassis, wheels) = car_on_flat(hz);
    run(&mut app, steps(3.0, hz));
    let start = position(&app, chassis);
    let mut loads = Vec::new();
    for _ in 0..steps(60.0, hz) {
        app.update();
        loads.push(output(&app, wheels[0]).load());
    }
    let moved = position(&app, chassis) - start;
    eprintln!("measured: parked 60 s moved {:.4} mm", moved.length() * 1e3);
    assert!(moved.length() < 1e-3, "moved {moved}");
    let tail = &loads[loads.len() - 600..];
    let mean = tail.iter().sum::<f32>() / tail.len() as f32;
    let spread = tail.iter().fold(0.0f32, |a, l| a.max((l - mean).abs()));
    assert!(spread < 1e-3 * mean, "load jitter ±{spread} N on {mean} N");
}

/// Wheels may live outside the chassis' hierarchy (`WheelOf(chassis)` without
/// `ChildOf`: no transform propagation, for servers and traffic without wheel visuals):
/// their `Transform` is then still the mount in the chassis frame. Such a car settles at
/// the sag m·g/(4k) within 1 %, and driven and steered it follows the path of the same
/// car with child wheels in an identical world within 1 µm. A `WheelModel` that is a
/// child of the chassis (the way to show a wheel outside the hierarchy) ends where the
/// model under a child wheel ends, within 10 µm and 1e-5 per quaternion component.
#[test]
fn wheels_outside_the_hierarchy_step_like_child_wheels() {
    let hz = 60.0;
    let drive = |detached: bool| {
        let (mut app, car, wheels) = car_on_flat(hz);
        if detached {
            for w in wheels {
                app.world_mut().entity_mut(w).remove::<ChildOf>().insert(WheelOf(car));
            }
        }
        // Mounts turned a little (toe by the mount), so the models' placement through
        // the mount is tested with a rotation.
        for w in wheels {
            app.world_mut().get_mut::<Transform>(w).unwrap().rotation = Quat::from_rotation_y(0.03);
        }
        let models = wheels.map(|w| {
            let parent = if detached { car } else { w };
            let model = app.world_mut().spawn((Transform::default(), ChildOf(parent))).id();
            app.world_mut().entity_mut(w).insert(WheelModel(model));
            model
        });
        app.update();
        for w in wheels {
            assert_eq!(app.world().get::<ChildOf>(w).is_none(), detached);
            assert_eq!(app.world().get::<WheelOf>(w), Some(&WheelOf(car)));
        }
        run(&mut app, steps(3.0, hz));
        assert_at_sag(
            &app,
            &wheels,
            if detached { "outside the hierarchy" } else { "children" },
        );
        let steer = WheelInput {
            steer_angle: 10.0,
            ..default()
        };
        set_input(&mut app, &wheels[..2], steer);
        let torque = WheelInput {
            drive_torque: 300.0,
            ..default()
        };
        set_input(&mut app, &wheels[2..], torque);
        run(&mut app, steps(4.0, hz));
        let placed = models.map(|m| {
            app.world()
                .get::<GlobalTransform>(m)
                .unwrap()
                .to_scale_rotation_translation()
        });
        (position(&app, car), rotation(&app, car), placed)
    };
    let (a, ra, models_a) = drive(false);
    let (b, rb, models_b) = drive(true);
    for ((_, qa, ta), (_, qb, tb)) in models_a.into_iter().zip(models_b) {
        // Two compositions of f32 transforms 9 m from the origin (1 ulp ≈ 1 µm).
        assert!(
            (ta - tb).length() < 1e-5,
            "model under the wheel {ta}, under the chassis {tb}"
        );
        // Components (a same-sign pair): `angle_between` is acos-limited near 0.
        assert!(qa.abs_diff_eq(qb, 1e-5), "model rotations {qa} vs {qb}");
    }
    let travelled = a.xz().length();
    eprintln!(
        "measured: travelled {travelled:.3} m, paths differ by {:.2e} m",
        (a - b).length()
    );
    assert!(travelled > 5.0, "the car drove: {travelled} m");
    assert!((a - b).length() < 1e-6, "child wheels {a}, detached wheels {b}");
    // Components: `angle_between` reads 7e-4 rad for a quaternion and itself when its
    // norm is one ulp off 1 (acos near 1).
    assert!(ra.abs_diff_eq(rb, 1e-6), "{ra} vs {rb}");
}

/// A car at speed on flat ground is in the same static balance as a parked one: the
/// compression does not change, so the dampers carry nothing and the springs everything.
/// The kart at full throttle to its top speed (121 km/h, pitched 0.6° by its load
/// distribution) at 30 and 60 Hz: over the last 5 s of 30 every damper carries less than
/// 10 % of its wheel's load, and above 60 km/h no wheel leaves the ground. What remains
/// (measured 5.8 % at 30 Hz, 2.1 % at 60 Hz, a few newtons of 300 at 240 Hz) shrinks with
/// the step: the row's free acceleration holds gravity alone, not the drive force's and
/// the drag's pitching moments, which the solve meets with the damper for a step.
/// Measured with the compression speed read along the suspension axis alone (before
/// `contact::approach_speed`): the dampers read the pitch times the speed as a compression speed
/// and carried 78 % of the front wheels' load at 97 km/h (213 of 273 N; 102 % at 120 km/h), the springs topped
/// out, and the kart hopped (a quarter of the wheel-steps in the air at 60 Hz, from
/// 65 km/h at 30 Hz).
#[test]
fn dampers_carry_nothing_at_a_steady_speed_on_flat_ground() {
    for hz in [30.0, 60.0] {
        let mut app = app(hz);
        flat(&mut app, None);
        let car = spawn_preset_car(&mut app, &preset("kart"), Transform::from_xyz(0.0, 0.75, 0.0));
        run(&mut app, steps(1.0, hz));
        app.world_mut().get_mut::<VehicleInput>(car).unwrap().throttle = 1.0;
        let wheels = app.world().get::<ChassisWheels>(car).unwrap().wheels().to_vec();
        let (mut worst, mut airborne) = (0.0f32, 0);
        let n = steps(30.0, hz);
        for k in 0..n {
            app.update();
            let fast = velocity(&app, car).length() > 60.0 / 3.6;
            for &w in &wheels {
                let out = output(&app, w).output;
                airborne += (fast && !out.grounded) as u32;
                if k >= n - steps(5.0, hz) && out.grounded {
                    worst = worst.max(out.damper_force.abs() / out.load.max(1.0));
                }
            }
        }
        let kmh = velocity(&app, car).length() * 3.6;
        println!(
            "measured: kart at {hz} Hz, {kmh:.1} km/h: largest damper share of a wheel's load over the last 5 s {:.2} %, airborne wheel-steps above 60 km/h {airborne}",
            100.0 * worst
        );
        assert!(kmh > 115.0, "{hz} Hz: the kart reached its top speed ({kmh:.1} km/h)");
        assert_eq!(airborne, 0, "{hz} Hz: no wheel leaves flat ground");
        assert!(
            worst < 0.1,
            "{hz} Hz: a damper carried {:.1} % of its wheel's load",
            100.0 * worst
        );
    }
}

/// Springs and dampers at the ends of their range (10⁴ and 10⁷ N/m, 0 and 10⁶ N·s/m),
/// on one wheel and on all four, parked and coasting from 100 km/h, at 30, 60 and
/// 240 Hz: the car never flips, never gains speed, and stays finite.
///
/// Before the implicit suspension, one 2·10⁶ N/m spring flipped the parked car.
#[test]
fn springs_and_dampers_at_the_edge_of_their_range() {
    for hz in [30.0, 60.0, 240.0] {
        for (k, c) in [
            (1.0e4, 0.0),
            (1.0e4, MAX_DAMPING),
            (MAX_SPRING, 0.0),
            (MAX_SPRING, MAX_DAMPING),
        ] {
            for all in [false, true] {
                for speed in [0.0, 27.8f32] {
                    let mut app = app(hz);
                    flat(&mut app, None);
                    let car = spawn_preset_car(
                        &mut app,
                        &preset_with("road", SweepType::Cylinder),
                        Transform::from_xyz(0.0, 0.75, 0.0),
                    );
                    run(&mut app, steps(1.5, hz));
                    let settled = velocity(&app, car).length();
                    let wheels = app.world().get::<ChassisWheels>(car).unwrap().wheels().to_vec();
                    // Past the vehicle layer: a game's code setting one wheel directly.
                    app.world_mut().entity_mut(car).remove::<Vehicle>();
                    for &w in if all { &wheels[..] } else { &wheels[..1] } {
                        let mut wheel = app.world_mut().get_mut::<WheelCollider>(w).unwrap();
                        wheel.set_suspension_spring(k).unwrap();
                        wheel.set_suspension_bump(c).unwrap();
                        wheel.set_suspension_rebound(c).unwrap();
                    }
                    if speed > 0.0 {
                        launch(&mut app, car, speed);
                    } else {
                        brake(&mut app, &wheels, 3000.0);
                    }
                    for i in 0..steps(4.0, hz) {
                        app.update();
                        let v = velocity(&app, car).with_y(0.0).length();
                        let what = format!("{hz} Hz k {k} c {c} all {all} from {speed} m/s, step {i}");
                        assert!(position(&app, car).is_finite(), "{what}");
                        assert!(up(&app, car).y > 0.9, "{what}: tipped, up {}", up(&app, car));
                        assert!(v < speed.max(settled) + 0.5, "{what}: {v} m/s");
                        let rise = velocity(&app, car).y;
                        assert!(rise < 1.0, "{what}: launched at {rise} m/s");
                    }
                }
            }
        }
    }
}

/// The test car on springs from 10⁴ to 10⁷ N/m, all four the same, at 30, 60 and 240 Hz:
/// each wheel settles at m·g/(4k) within 1 % wherever the travel allows it.
#[test]
fn sag_is_mg_over_k_across_the_range() {
    for hz in [30.0, 60.0, 240.0] {
        // From the softest that holds the car within its 10 cm of travel.
        for k in [4.0e4f32, 1.0e5, 1.0e6, MAX_SPRING] {
            let mut app = app(hz);
            spawn_ground(&mut app, Quat::IDENTITY);
            let mut wheel = WheelCollider::default();
            wheel.set_suspension_spring(k).unwrap();
            wheel.set_suspension_bump(2.0 * (k * MASS / 4.0).sqrt()).unwrap();
            wheel.set_suspension_rebound(2.0 * (k * MASS / 4.0).sqrt()).unwrap();
            let (_, wheels) = spawn_car(&mut app, Transform::from_xyz(0.0, TOUCH_HEIGHT, 0.0), wheel);
            run(&mut app, steps(4.0, hz));
            let sag = MASS * G / 4.0 / k;
            for &w in &wheels {
                let x = output(&app, w).output.compression;
                assert!((x - sag).abs() / sag < 0.01, "{hz} Hz k {k}: {x} m vs {sag}");
            }
        }
    }
}

/// The test car on springs too soft for it (10⁴ N/m: its sag would be 29 cm on 10 cm of
/// travel), so it rests on its bump stops, sliding on locked wheels from 20 m/s: each
/// tyre's braking force is μ × (spring + damper + bump stop) within 2 %.
///
/// Before, the tyre's load left the bump stop out: the force was μ × the spring alone.
#[test]
fn on_the_bump_stop_the_tyre_grips_with_the_whole_load() {
    let hz = 60.0;
    let mut app = app(hz);
    spawn_ground(&mut app, Quat::IDENTITY);
    let mut wheel = WheelCollider::default();
    wheel.set_suspension_spring(1.0e4).unwrap();
    let (chassis, wheels) = spawn_car(&mut app, Transform::from_xyz(0.0, TOUCH_HEIGHT, 0.0), wheel);
    run(&mut app, steps(2.0, hz));
    app.world_mut().get_mut::<LinearVelocity>(chassis).unwrap().0 = Vec3::new(0.0, 0.0, -20.0);
    brake(&mut app, &wheels, 1.0e5);
    // The dive has settled by then (still sliding at about 9 m/s).
    run(&mut app, steps(0.8, hz));
    // The front wheels, pressed harder by the braking.
    for &w in &wheels[..2] {
        let o = output(&app, w).output;
        assert!(o.compression >= 0.099, "not on the stop: {}", o.compression);
        assert!(o.bump_stop_force > 500.0, "bump stop {}", o.bump_stop_force);
        let whole = o.spring_force + o.damper_force + o.bump_stop_force;
        let expected = o.friction * whole;
        assert!(
            (o.forward_force.abs() - expected).abs() < 0.02 * expected,
            "Fx {} vs μ {} × {whole}",
            o.forward_force,
            o.friction
        );
    }
}

/// The test car parked across a 15° bank with its brakes on: it holds (under 1 mm in a
/// second), its wheels' forces along the slope carry gravity's m·g·sin 15° (±2 %), and
/// with the suspension force along the contact normal (the default) the springs' part
/// of them is nothing (under 1 N in all): the tyres alone hold the car. Along the
/// suspension axis the body's roll on its springs tilts the push.
#[test]
fn across_a_bank_the_suspension_pushes_no_sideways_force() {
    let hz = 60.0;
    let bank = Quat::from_rotation_z(15f32.to_radians());
    let downhill = bank * Vec3::NEG_X;
    let mut sideways = Vec::new();
    for direction in [
        SuspensionForceDirection::ContactNormal,
        SuspensionForceDirection::SuspensionAxis,
    ] {
        let mut app = app(hz);
        spawn_ground(&mut app, bank);
        let mut wheel = WheelCollider::default();
        wheel.set_suspension_force_direction(direction);
        let (chassis, wheels) = spawn_car(
            &mut app,
            Transform::from_rotation(bank).with_translation(bank * Vec3::new(0.0, TOUCH_HEIGHT, 0.0)),
            wheel,
        );
        brake(&mut app, &wheels, 3000.0);
        run(&mut app, steps(3.0, hz));
        // The car holds still, and the wheels' forces along the slope carry gravity's
        // pull along it (the tyres' in the first case, all of them in the second).
        let before = position(&app, chassis);
        run(&mut app, steps(1.0, hz));
        let drift = (position(&app, chassis) - before).length();
        assert!(drift < 0.001, "{direction:?}: drifted {drift} m in a second");
        let along: f32 = wheels.iter().map(|&w| output(&app, w).force.dot(downhill)).sum();
        let pull = MASS * G * 15f32.to_radians().sin();
        println!("measured: {direction:?}: wheels {along:.1} N along the slope, gravity {pull:.1} N");
        assert!(
            (along + pull).abs() < 0.02 * pull,
            "{direction:?}: {along} N vs {pull} N"
        );
        let push: f32 = wheels
            .iter()
            .map(|&w| {
                let s = output(&app, w);
                (s.suspension_direction * s.output.load).dot(downhill)
            })
            .sum();
        sideways.push(push);
    }
    assert!(
        sideways[0].abs() < 1.0,
        "contact normal: {} N along the slope",
        sideways[0]
    );
    assert!(
        sideways[1].abs() > 5.0,
        "suspension axis: {} N along the slope",
        sideways[1]
    );
}
