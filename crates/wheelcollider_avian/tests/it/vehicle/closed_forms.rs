//! The vehicle layer against closed-form answers (`docs/vehicle.md`): top speed, braking
//! distance, Ackermann, differentials, surfaces, idle
//! and rev limiter. Every run uses a shipped preset from `assets/presets/`.
use crate::common;

use avian3d::prelude::*;
use bevy::prelude::*;
use common::*;

use wheelcollider_avian::prelude::*;
use wheelcollider_avian::vehicle::VehicleRuntime;
use wheelcollider_core::vehicle::RAD_PER_S_TO_RPM;

const HZ: f64 = 60.0;

/// Spawns `settings` on the ground and lets it settle for a second.
fn settled(app: &mut App, settings: &VehicleSettings) -> Entity {
    let car = spawn_preset_car(app, settings, Transform::from_xyz(0.0, 0.75, 0.0));
    run(app, steps(1.0, HZ));
    car
}

fn input(app: &mut App, car: Entity, f: impl FnOnce(&mut VehicleInput)) {
    let mut e = app.world_mut().entity_mut(car);
    let mut i = e.get_mut::<VehicleInput>().unwrap();
    f(&mut i);
}

fn telemetry(app: &App, car: Entity) -> VehicleTelemetry {
    *app.world().get::<VehicleTelemetry>(car).unwrap()
}

fn wheels(app: &App, car: Entity) -> Vec<Entity> {
    app.world().get::<ChassisWheels>(car).unwrap().wheels().to_vec()
}

/// Launches the car forward at `v` (m/s), wheels rolling.
/// Distance (m) and time (s) to stop from the current speed with `brake`; the car must
/// stop within `max_s` seconds.
fn stop(app: &mut App, car: Entity, brake: f32, max_s: f64, hz: f64) -> (f32, f32) {
    input(app, car, |i| {
        i.throttle = 0.0;
        i.brake = brake;
    });
    let start = position(app, car);
    for n in 0..steps(max_s, hz) {
        app.update();
        if velocity(app, car).length() < 0.05 {
            return ((position(app, car) - start).length(), (n + 1) as f32 / hz as f32);
        }
    }
    panic!("did not stop in {max_s} s");
}

#[test]
fn presets_parse_and_predict_their_published_top_speed() {
    // Published: Golf GTI Mk7 246 km/h; the kart is geared for ≈ 115 km/h.
    for (name, published_kmh, tol) in [("road", 246.0, 0.05), ("rally", 255.0, 0.10), ("kart", 115.0, 0.10)] {
        let settings = preset(name);
        let (v, gear) = settings.predicted_top_speed();
        let kmh = v * 3.6;
        println!("measured: {name} predicted top speed {kmh:.1} km/h in gear {gear} (published {published_kmh})");
        assert!(
            (kmh - published_kmh).abs() < tol * published_kmh,
            "{name}: {kmh} km/h vs {published_kmh}"
        );
    }
}

#[test]
fn top_speed_where_drive_force_meets_drag_and_rolling_resistance() {
    let settings = preset("road");
    let (predicted, top_gear) = settings.predicted_top_speed();
    let mut app = app(HZ);
    flat(&mut app, None);
    let car = settled(&mut app, &settings);
    input(&mut app, car, |i| i.throttle = 1.0);
    let mut gears = vec![];
    let mut v = 0.0;
    for _ in 0..steps(150.0, HZ) {
        app.update();
        let t = telemetry(&app, car);
        if gears.last() != Some(&t.powertrain.gear) {
            gears.push(t.powertrain.gear);
        }
        v = t.forward_speed;
    }
    println!(
        "measured: road top speed {:.2} km/h vs predicted {:.2} km/h (gear {top_gear}); gears {gears:?}",
        v * 3.6,
        predicted * 3.6
    );
    assert!((v - predicted).abs() < 0.03 * predicted, "{v} vs {predicted}");
    // Up through every gear in order, to the fastest gear or past it (the road car's
    // 5th and 6th top out within 1 %: its gearbox shifts up at its shift point).
    let last = *gears.last().unwrap();
    assert!(last >= top_gear, "{gears:?} stops short of gear {top_gear}");
    assert_eq!(
        gears,
        (1..=last).collect::<Vec<_>>(),
        "shifts up through every gear in order"
    );
}

#[test]
fn braking_distance_from_100_kmh_matches_the_tyre_curve() {
    let mut settings = preset("road");
    settings.gearbox.auto_reverse = false;
    // Locked wheels: the curve's answer (the preset's ABS is tested on ice below).
    settings.brakes.abs = false;
    let v0 = 100.0 / 3.6;
    for hz in [60.0, 120.0] {
        let mut app = app(hz);
        flat(&mut app, None);
        let car = spawn_preset_car(&mut app, &settings, Transform::from_xyz(0.0, 0.75, 0.0));
        run(&mut app, steps(1.0, hz));
        launch(&mut app, car, v0);
        let (d, t) = stop(&mut app, car, 1.0, 20.0, hz);
        let expected = settings.expected_stop_distance(1.0, v0);
        println!("measured: 100-0 km/h at {hz} Hz: {d:.2} m in {t:.2} s, tyre curve predicts {expected:.2} m");
        assert!((d - expected).abs() < 0.05 * expected, "{d} vs {expected}");
    }
}

#[test]
fn abs_shortens_the_stop_on_ice() {
    let v0 = 15.0;
    let mut d = [0.0; 2];
    for (k, abs) in [false, true].into_iter().enumerate() {
        let mut settings = preset("road");
        settings.gearbox.auto_reverse = false;
        settings.brakes.abs = abs;
        let mut app = app(HZ);
        flat(&mut app, Some(WheelSurface::ICE));
        let car = settled(&mut app, &settings);
        launch(&mut app, car, v0);
        d[k] = stop(&mut app, car, 1.0, 60.0, HZ).0;
    }
    let mut settings = preset("road");
    settings.brakes.abs = false;
    let locked = settings.expected_stop_distance(WheelSurface::ICE.grip, v0);
    // The most deceleration the tyres can give: the curve's peak, plus the rolling
    // resistance that acts on top of it (0.015 against ice's 0.11: 14 %).
    let wheel = &settings.axles[0].wheel;
    let peak = v0 * v0
        / (2.0 * (wheel.longitudinal_tyre().peak_value() * WheelSurface::ICE.grip + wheel.rolling_resistance()) * G);
    println!(
        "measured: 15 m/s on ice: locked {:.1} m (curve {locked:.1}), ABS {:.1} m (peak-μ and rolling-resistance bound {peak:.1})",
        d[0], d[1]
    );
    assert!(d[1] < 0.9 * d[0], "ABS {} vs locked {}", d[1], d[0]);
    assert!(
        d[1] > peak * 0.98,
        "ABS cannot beat the peak of the curve and the rolling resistance: {} vs {peak}",
        d[1]
    );
}

#[test]
fn handbrake_makes_the_car_yaw() {
    let mut yaw = [0.0; 2];
    for (k, hand) in [0.0, 1.0].into_iter().enumerate() {
        let settings = preset("road");
        let mut app = app(HZ);
        flat(&mut app, None);
        let car = settled(&mut app, &settings);
        launch(&mut app, car, 20.0);
        input(&mut app, car, |i| {
            i.steer = 0.15;
            i.handbrake = hand;
        });
        let r0 = rotation(&app, car);
        run(&mut app, steps(1.5, HZ));
        yaw[k] = (rotation(&app, car) * r0.inverse())
            .to_euler(EulerRot::YXZ)
            .0
            .to_degrees();
    }
    println!(
        "measured: yaw after 1.5 s at 20 m/s, steer 0.15: {:.1}° without, {:.1}° with handbrake",
        yaw[0], yaw[1]
    );
    assert!(yaw[1] > 2.0 * yaw[0] && yaw[1] > 20.0, "{yaw:?}");
}

#[test]
fn ackermann_turns_the_inner_wheel_more() {
    let settings = preset("road");
    let mut app = app(HZ);
    flat(&mut app, None);
    let car = settled(&mut app, &settings);
    input(&mut app, car, |i| i.steer = 1.0);
    run(&mut app, steps(1.0, HZ));
    let mut angles = [0.0f32; 2];
    for w in wheels(&app, car) {
        let id = *app.world().get::<VehicleWheel>(w).unwrap();
        if id.axle == 0 {
            angles[id.right as usize] = app.world().get::<WheelInput>(w).unwrap().steer_angle;
        }
    }
    // Full Ackermann: both wheels turn about one point on the rear axle line.
    let (l, t) = (settings.wheelbase_for(0), settings.axles[0].half_track);
    let r_inner = l / angles[0].to_radians().tan();
    let r_outer = l / angles[1].to_radians().tan();
    println!(
        "measured: full left lock: inner {:.2}°, outer {:.2}°; turn centres {:.3} / {:.3} m",
        angles[0],
        angles[1],
        r_inner + t,
        r_outer - t
    );
    assert!(angles[0] > angles[1] && angles[1] > 0.0, "{angles:?}");
    assert!(
        ((r_inner + t) - (r_outer - t)).abs() < 1e-3 * r_inner,
        "one turn centre"
    );
}

#[test]
fn limited_slip_moves_the_car_with_one_side_on_ice() {
    let mut speed = [0.0; 2];
    for (k, diff) in [
        DifferentialKind::Open,
        DifferentialKind::LimitedSlip {
            preload: 100.0,
            locking: 1.0,
            coast_locking: None,
        },
    ]
    .into_iter()
    .enumerate()
    {
        let mut settings = preset("road");
        settings.axles[0].differential = diff;
        let mut app = app(HZ);
        // Left half ice, right half asphalt.
        split_mu(&mut app);
        let car = settled(&mut app, &settings);
        input(&mut app, car, |i| i.throttle = 1.0);
        for _ in 0..steps(4.0, HZ) {
            // The driver keeps it straight and on the split line (a locked axle on split
            // μ yaws the car towards the ice).
            let forward = rotation(&app, car) * Vec3::NEG_Z;
            let x = position(&app, car).x;
            let yaw_rate = app.world().get::<AngularVelocity>(car).unwrap().0.y;
            input(&mut app, car, |i| {
                i.steer = (6.0 * forward.x + 0.3 * x - 0.5 * yaw_rate).clamp(-1.0, 1.0)
            });
            app.update();
        }
        speed[k] = velocity(&app, car).length();
    }
    println!(
        "measured: split-μ launch, 4 s full throttle: open {:.2} m/s, limited-slip {:.2} m/s",
        speed[0], speed[1]
    );
    assert!(
        speed[0] < 3.0,
        "the open differential gives the grippy wheel only what the ice wheel holds"
    );
    assert!(speed[1] > 3.0 * speed[0], "{speed:?}");
}

#[test]
fn gravel_has_less_grip_by_its_multiplier() {
    let v0 = 15.0;
    let mut d = [0.0; 2];
    for (k, surface) in [WheelSurface::ASPHALT, WheelSurface::GRAVEL].into_iter().enumerate() {
        let mut settings = preset("road");
        settings.gearbox.auto_reverse = false;
        let mut app = app(HZ);
        flat(&mut app, Some(surface));
        let car = settled(&mut app, &settings);
        launch(&mut app, car, v0);
        d[k] = stop(&mut app, car, 1.0, 20.0, HZ).0;
    }
    let ratio = d[0] / d[1];
    println!(
        "measured: locked stop from 15 m/s: asphalt {:.2} m, gravel {:.2} m, ratio {ratio:.3} (grip 0.7)",
        d[0], d[1]
    );
    assert!(
        (ratio - WheelSurface::GRAVEL.grip).abs() < 0.05 * WheelSurface::GRAVEL.grip,
        "{ratio}"
    );
}

#[test]
fn idle_control_holds_idle_and_the_limiter_holds_the_redline() {
    let mut settings = preset("road");
    settings.gearbox.automatic = false;
    let mut app = app(HZ);
    flat(&mut app, None);
    let car = settled(&mut app, &settings);
    run(&mut app, steps(3.0, HZ));
    let idle = telemetry(&app, car).powertrain.engine_rpm;
    // Neutral, then flat out.
    input(&mut app, car, |i| i.gear_down = true);
    run(&mut app, steps(0.5, HZ));
    assert_eq!(telemetry(&app, car).powertrain.gear, 0);
    input(&mut app, car, |i| i.throttle = 1.0);
    run(&mut app, steps(2.0, HZ));
    let (mut lo, mut hi) = (f32::MAX, 0.0f32);
    for _ in 0..steps(3.0, HZ) {
        app.update();
        let rpm = telemetry(&app, car).powertrain.engine_rpm;
        lo = lo.min(rpm);
        hi = hi.max(rpm);
    }
    let state = app.world().get::<VehicleRuntime>(car).unwrap().state.clone().unwrap();
    println!(
        "measured: idle {idle:.1} rpm (set {}), limiter {lo:.0}..{hi:.0} rpm (redline {}), engine {:.0} rpm",
        settings.engine.idle_rpm,
        settings.engine.redline_rpm,
        state.engine_speed * RAD_PER_S_TO_RPM
    );
    assert!(
        (idle - settings.engine.idle_rpm).abs() < 0.01 * settings.engine.idle_rpm,
        "{idle}"
    );
    assert!(
        hi <= settings.engine.redline_rpm && lo > settings.engine.redline_rpm - 200.0,
        "{lo}..{hi}"
    );
}

#[test]
fn a_bad_preset_names_the_place_and_spawns_nothing() {
    let text = preset_text("road");
    let typo = text.replace("idle_rpm:", "idle_rmp:");
    let e = VehicleSettings::from_ron(&typo).unwrap_err();
    println!("measured: typo error: {e}");
    assert!(
        e.to_string().contains("idle_rmp") && e.field.starts_with("line "),
        "{e}"
    );
    let wrong_type = text.replace("mass: 1350.0", "mass: \"heavy\"");
    let e = VehicleSettings::from_ron(&wrong_type).unwrap_err();
    assert!(e.field.starts_with("line "), "{e}");
    let truncated = &text[..text.len() / 2];
    assert!(VehicleSettings::from_ron(truncated).is_err());
    let mut nan = VehicleSettings::from_ron(&text).unwrap();
    nan.engine.inertia = f32::NAN;
    let mut app = app(HZ);
    let before = app.world().entities().len();
    let world = app.world_mut();
    let mut commands = world.commands();
    let e = spawn_vehicle(&mut commands, &nan, Transform::IDENTITY).unwrap_err();
    world.flush();
    assert_eq!(e.field, "engine.inertia");
    assert_eq!(app.world().entities().len(), before, "nothing spawned");
}

/// `spawn_vehicle_with(.., WheelPlacement::OutsideHierarchy)` spawns the wheels with
/// `WheelOf` and no `ChildOf`; the road preset then settles and drives (throttle 0.6,
/// steer 0.2, 3 s) along the path of the same car with child wheels within 1 µm, with
/// the same engine rpm within 1e-3; despawning either chassis despawns its four wheels.
#[test]
fn a_vehicle_outside_the_hierarchy_drives_like_one_with_child_wheels() {
    let drive = |placement: WheelPlacement| {
        let settings = preset("road");
        let mut app = app(HZ);
        flat(&mut app, None);
        let car = {
            let world = app.world_mut();
            let mut commands = world.commands();
            let car = spawn_vehicle_with(&mut commands, &settings, Transform::from_xyz(0.0, 0.75, 0.0), placement)
                .expect("valid settings");
            world.flush();
            car
        };
        run(&mut app, steps(1.0, HZ));
        let wheels = wheels(&app, car);
        assert_eq!(wheels.len(), 4);
        for &w in &wheels {
            let child = app.world().get::<ChildOf>(w).is_some();
            assert_eq!(child, placement == WheelPlacement::Children, "{placement:?}");
        }
        input(&mut app, car, |i| {
            i.throttle = 0.6;
            i.steer = 0.2;
        });
        run(&mut app, steps(3.0, HZ));
        let result = (
            position(&app, car),
            rotation(&app, car),
            telemetry(&app, car).powertrain.engine_rpm,
        );
        app.world_mut().entity_mut(car).despawn();
        app.update();
        for w in wheels {
            assert!(
                app.world().get_entity(w).is_err(),
                "{placement:?}: wheel {w} outlived its car"
            );
        }
        result
    };
    let (a, ra, rpm_a) = drive(WheelPlacement::Children);
    let (b, rb, rpm_b) = drive(WheelPlacement::OutsideHierarchy);
    println!(
        "measured: travelled {:.2} m at {rpm_a:.0} rpm, paths differ by {:.2e} m",
        a.xz().length(),
        (a - b).length()
    );
    assert!(a.xz().length() > 5.0, "the car drove: {a}");
    assert!((a - b).length() < 1e-6, "child wheels {a}, outside the hierarchy {b}");
    assert!(ra.abs_diff_eq(rb, 1e-6), "{ra} vs {rb}");
    assert!((rpm_a - rpm_b).abs() < 1e-3, "{rpm_a} vs {rpm_b} rpm");
}
