//! Stress: hard drops on every ground and sweep, 300 km/h, a long random drive over
//! bumps, a frame hitch and a step size that changes every step. Everything finite,
//! nothing through the ground, no launch.
use crate::common;
use avian3d::prelude::*;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use common::*;
use std::time::Duration;
use wheelcollider_avian::prelude::*;

fn bumps(x: f32, z: f32) -> f32 {
    0.05 * (0.5 * x).sin() * (0.4 * z).cos()
}

/// A 60 m heightfield or trimesh of ±5 cm bumps (the same surface, `bumps`), or the
/// flat box.
fn spawn_terrain(app: &mut App, kind: usize) {
    if kind == 0 {
        spawn_ground(app, Quat::IDENTITY);
        return;
    }
    let (side, cells) = (60.0f32, 30usize);
    let cell = side / cells as f32;
    let at = |k: usize| -side / 2.0 + k as f32 * cell;
    // Rows along Z, columns along X (`grid_terrain`'s layout).
    let h = (0..=cells)
        .map(|i| (0..=cells).map(|j| bumps(at(j), at(i))).collect())
        .collect();
    app.world_mut()
        .spawn((RigidBody::Static, grid_terrain(h, cell, kind == 2)));
}

/// Dropped from 3 m onto each ground with each sweep: the wheels' bump stops keep the
/// chassis off the ground (its underside at the mounts stays above the terrain), and
/// the car comes to rest.
#[test]
fn drop_from_three_metres_on_every_ground_and_sweep() {
    let mut failures = Vec::new();
    for kind in 0..3 {
        for sweep in SWEEPS {
            let hz = 60.0;
            let mut app = app(hz);
            spawn_terrain(&mut app, kind);
            let mut wheel = WheelCollider::default();
            wheel.set_sweep_type(sweep);
            let (chassis, wheels) = spawn_car(&mut app, Transform::from_xyz(0.0, TOUCH_HEIGHT + 3.0, 0.0), wheel);
            brake(&mut app, &wheels, 2000.0);
            // Clearance of the chassis underside at the wheel mounts above the terrain
            // right below them.
            let mut lowest = f32::MAX;
            for _ in 0..steps(6.0, hz) {
                app.update();
                for &w in &wheels {
                    let m = output(&app, w).mount_position;
                    let terrain = if kind == 0 { 0.0 } else { bumps(m.x, m.z) };
                    lowest = lowest.min(m.y - terrain);
                }
            }
            if lowest <= 0.0 {
                failures.push(format!(
                    "ground {kind}, {sweep:?}: chassis underside {lowest} m into the ground"
                ));
            }
            eprintln!("measured: ground {kind}, {sweep:?}: lowest underside clearance {lowest:.3} m");
            let v = velocity(&app, chassis).length();
            if v >= 0.01 {
                failures.push(format!("ground {kind}, {sweep:?}: still moving at {v} m/s"));
            }
            for &w in &wheels {
                let s = output(&app, w);
                if !s.grounded() {
                    failures.push(format!(
                        "ground {kind}, {sweep:?}: wheel at {} not grounded",
                        s.mount_position
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// 300 km/h on the flat, straight and then a lane change: no divergence, the wheels stay
/// on the ground on the straight, the car stays upright.
#[test]
fn three_hundred_km_h_straight_and_lane_change() {
    let hz = 120.0;
    let mut app = app(hz);
    app.world_mut()
        .spawn((RigidBody::Static, Collider::half_space(Vec3::Y)));
    let v = 300.0 / 3.6;
    let (chassis, wheels) = spawn_car(
        &mut app,
        Transform::from_xyz(0.0, TOUCH_HEIGHT - 0.0736, 0.0),
        WheelCollider::default(),
    );
    app.world_mut().get_mut::<LinearVelocity>(chassis).unwrap().0 = Vec3::new(0.0, 0.0, -v);
    for w in wheels {
        app.world_mut().get_mut::<WheelState>(w).unwrap().step.angular_velocity = v / 0.3;
    }
    // Straight for 2 s, holding speed against rolling resistance.
    set_input(
        &mut app,
        &wheels[2..],
        WheelInput {
            drive_torque: 150.0,
            ..Default::default()
        },
    );
    for i in 0..steps(2.0, hz) {
        app.update();
        for w in wheels {
            assert!(output(&app, w).grounded(), "wheel left the ground at step {i}");
        }
    }
    let speed = velocity(&app, chassis).length();
    assert!((speed - v).abs() < 0.05 * v, "speed {speed} m/s");
    // Lane change: 0.15° left for 0.6 s, right for 0.6 s, straight (≈ 6 m/s² at this
    // speed; the test car's rollover threshold g·track/(2·h) is ≈ 13.5 m/s²).
    for steer in [0.15f32, -0.15, 0.0] {
        set_input(
            &mut app,
            &wheels[..2],
            WheelInput {
                steer_angle: steer,
                ..Default::default()
            },
        );
        for _ in 0..steps(0.6, hz) {
            app.update();
            let p = position(&app, chassis);
            assert!(p.is_finite() && velocity(&app, chassis).is_finite());
            let up = rotation(&app, chassis) * Vec3::Y;
            assert!(up.y > 0.97, "rolled {:.1}°", up.y.acos().to_degrees());
            assert!(p.y < 1.0, "airborne at {}", p.y);
        }
    }
    assert!(
        position(&app, chassis).x < -0.5,
        "changed lane to the left: {}",
        position(&app, chassis).x
    );
}

/// A deterministic pseudo-random drive of 10 000 steps over the bump field with a rough
/// road: all outputs finite, speed and height bounded.
#[test]
fn ten_thousand_random_steps_over_bumps() {
    let hz = 60.0;
    let mut app = app(hz);
    spawn_terrain(&mut app, 1);
    let mut wheel = WheelCollider::default();
    wheel.set_sweep_type(SweepType::Cylinder);
    wheel.set_bump_amplitude(0.03).unwrap();
    wheel.set_bump_period(1.0).unwrap();
    let (chassis, wheels) = spawn_car(&mut app, Transform::from_xyz(0.0, TOUCH_HEIGHT, 0.0), wheel);
    let mut random = Rng::new(0x2545F4914F6CDD1D);
    let mut next = || random.unit() as f32;
    for i in 0..10_000 {
        if i % 30 == 0 {
            let (throttle, brake, steer) = (next(), next(), next() * 2.0 - 1.0);
            let p = position(&app, chassis);
            // Steer back towards the middle of the 60 m field.
            let home = if p.length() > 20.0 { 25.0 } else { 25.0 * steer };
            for (k, &w) in wheels.iter().enumerate() {
                let mut input = WheelInput {
                    brake_torque: if brake > 0.8 { 1500.0 } else { 0.0 },
                    ..Default::default()
                };
                if k < 2 {
                    input.steer_angle = home;
                } else {
                    input.drive_torque = 500.0 * (throttle - 0.3);
                }
                *app.world_mut().get_mut::<WheelInput>(w).unwrap() = input;
            }
        }
        app.update();
        let p = position(&app, chassis);
        let v = velocity(&app, chassis);
        assert!(p.is_finite() && v.is_finite(), "step {i}");
        assert!(v.length() < 40.0, "step {i}: {v}");
        assert!(p.y > 0.2 && p.y < 3.0, "step {i}: height {}", p.y);
        for &w in &wheels {
            assert!(output(&app, w).output.is_finite(), "step {i}: wheel output not finite");
        }
    }
}

/// A 250 ms frame (15 physics steps at once) does not launch a parked car.
#[test]
fn a_long_frame_does_not_launch_the_car() {
    let hz = 60.0;
    let (mut app, chassis, _) = car_on_flat(hz);
    run(&mut app, steps(3.0, hz));
    let rest = position(&app, chassis);
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(250)));
    app.update();
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(1.0 / hz)));
    let mut highest = 0.0f32;
    for _ in 0..steps(2.0, hz) {
        app.update();
        highest = highest.max((position(&app, chassis) - rest).length());
    }
    assert!(highest < 1e-3, "moved {highest} m after the hitch");
}

/// A game whose physics step changes from one step to the next (a fixed timestep set
/// at run time, avian run in a variable-rate schedule), and one in slow motion
/// (`Time<Physics>` at a tenth of real time: 300–2 400 Hz). Every preset and sweep, the
/// step drawn anew each step between 1/240 and 1/30 s:
/// - parked for 2 s (after 2 s to settle), it does not move (under 5 mm/s, measured at
///   most 0.6 mm/s) and its wheels carry its weight within 0.5 % (measured 1.0000);
/// - flat out from rest (ray wheels), it reaches 72 km/h (the kart 54) in the time it
///   takes at a steady 60 Hz, within 2 % (measured within 0.5 %);
/// - coasting at 20 m/s for 2 s, it never holds more energy than at the start (measured
///   under +0.001 %).
///
/// Every state carried from step to step (the wheels' spin, the engine's, the gearbox's
/// timers, the spring offset, the ground's rise) must be in units of the step it is
/// used in. A wheel step that took 1/60 s whatever avian's was passed the parked and
/// coasting checks (forces balance at any step size) and failed the launch: 2.6–7.8 %
/// off, 12.7 % in slow motion.
#[test]
fn a_step_size_that_changes_every_step() {
    let mut failures = Vec::new();
    let mut random = Rng::new(0x9E37_79B9_7F4A_7C15);
    let mut next = || random.unit();
    let runs = PRESETS
        .into_iter()
        .flat_map(|n| SWEEPS.map(|s| (n, s, 1.0)))
        .chain([("road", SweepType::Ray, 0.1)]);
    for (name, sweep, speed) in runs {
        let settings = preset_with(name, sweep);
        let target = if name == "kart" { 15.0 } else { 20.0 };
        // The launch at a steady 60 Hz, for the ray wheels (the sweep does not change
        // how a step is integrated).
        let timed = sweep == SweepType::Ray;
        let steady = if !timed {
            1.0
        } else {
            let mut app = app(60.0);
            flat(&mut app, Some(WheelSurface::ASPHALT));
            let car = spawn_preset_car(
                &mut app,
                &settings,
                Transform::from_xyz(0.0, settings.touch_height(), 0.0),
            );
            run(&mut app, 120);
            app.world_mut().get_mut::<VehicleInput>(car).unwrap().0.throttle = 1.0;
            let mut t = 0.0;
            while velocity(&app, car).length() < target && t < 20.0 {
                app.update();
                t += 1.0 / 60.0;
            }
            t
        };
        let mut app = app(60.0);
        app.world_mut()
            .resource_mut::<Time<Physics>>()
            .set_relative_speed_f64(speed);
        flat(&mut app, Some(WheelSurface::ASPHALT));
        let car = spawn_preset_car(
            &mut app,
            &settings,
            Transform::from_xyz(0.0, settings.touch_height(), 0.0),
        );
        // One update of a step drawn between 1/240 and 1/30 s; returns physics seconds.
        let mut step = |app: &mut App| {
            let dt = Duration::from_secs_f64(1.0 / (30.0 + 210.0 * next()));
            set_step(app, dt);
            app.update();
            dt.as_secs_f64() * speed
        };
        // Steps until `done` says so (given the physics time), at most 20 s; the time.
        let mut run_until = |app: &mut App, done: &mut dyn FnMut(&App, f64) -> bool| {
            let mut t = 0.0;
            while !done(app, t) && t < 20.0 {
                t += step(app);
            }
            t
        };
        run_until(&mut app, &mut |_, t| t >= 2.0);
        let mut fastest = 0.0f32;
        run_until(&mut app, &mut |app, t| {
            fastest = fastest.max(velocity(app, car).length());
            t >= 2.0
        });
        let w = app.world();
        let weight = w.get::<ComputedMass>(car).unwrap().value() * G;
        let wheels = w.get::<ChassisWheels>(car).unwrap().wheels();
        let carried = wheels.iter().map(|&e| output(&app, e).output.load).sum::<f32>() / weight;
        let mut launch_error = 0.0;
        if timed {
            app.world_mut().get_mut::<VehicleInput>(car).unwrap().0.throttle = 1.0;
            let launch_time = run_until(&mut app, &mut |app, _| velocity(app, car).length() >= target);
            launch_error = launch_time / steady - 1.0;
            app.world_mut().get_mut::<VehicleInput>(car).unwrap().0.throttle = 0.0;
        }
        launch(&mut app, car, 20.0);
        app.update();
        let e0 = energy(&app, car);
        let mut most = e0;
        run_until(&mut app, &mut |app, t| {
            assert_sane(app, car);
            most = most.max(energy(app, car));
            t >= 2.0
        });
        let gained = most / e0 - 1.0;
        println!(
            "measured: {name} {sweep:?} at {speed} × real time: parked at up to {:.2} mm/s, wheels carry {carried:.4} × the weight; launch time {} against a steady 60 Hz; coasting, energy at most {:+.4} % over the start",
            fastest * 1e3,
            if timed {
                format!("{:+.2} %", launch_error * 100.0)
            } else {
                "not timed".into()
            },
            gained * 100.0
        );
        if fastest > 5e-3 || (carried - 1.0).abs() > 5e-3 || launch_error.abs() > 0.02 || gained > 1e-4 {
            failures.push(format!("{name} {sweep:?} {speed}"));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}
