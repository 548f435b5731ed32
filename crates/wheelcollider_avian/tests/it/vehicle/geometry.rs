//! The suspension's geometry against closed forms (`docs/vehicle.md`, "Geometry"): the
//! roll centre's share of the roll moment, anti-dive's of the pitch.
use crate::common;

use avian3d::prelude::*;
use bevy::prelude::*;
use common::*;
use wheelcollider_avian::prelude::*;
use wheelcollider_core::STANDARD_GRAVITY as G;

const HZ: f64 = 60.0;

/// The body's (pitch, roll) in degrees, from its rotation (yaw first, as the track
/// records them).
fn attitude(app: &App, car: Entity) -> (f32, f32) {
    let (_, pitch, roll) = rotation(app, car).to_euler(EulerRot::YXZ);
    (pitch.to_degrees(), roll.to_degrees())
}

/// The road car with both axles' roll centres at `height` (m) and `anti` % of
/// anti-dive on both.
fn road(height: f32, anti: f32) -> VehicleSettings {
    let mut s = preset_with("road", SweepType::Ray);
    for a in &mut s.axles {
        a.roll_centre_height = Some(height);
        a.anti_dive = Some(anti);
        a.anti_squat = Some(0.0);
    }
    s.validate().expect("valid");
    s
}

/// Parks `settings`, then tilts gravity sideways by `a_y` (m/s²) for three seconds,
/// the tyres held by static friction: the steady state of a corner at `a_y` seen from
/// the car (d'Alembert). Returns the change of the body's roll and of the
/// suspension's (the front compressions' difference over the track), deg, and of the
/// body's height (m).
fn roll_at(settings: &VehicleSettings, a_y: f32, hz: f64) -> (f32, f32, f32) {
    let (mut app, car) = on_flat(settings, hz);
    let wheels = app.world().get::<ChassisWheels>(car).unwrap().wheels().to_vec();
    let suspension = |app: &App| {
        let x = |i: usize| output(app, wheels[i]).output.compression;
        ((x(1) - x(0)) / (2.0 * settings.axles[0].half_track))
            .atan()
            .to_degrees()
    };
    run(&mut app, steps(2.0, hz));
    let (roll0, suspension0, y0) = (attitude(&app, car).1, suspension(&app), position(&app, car).y);
    app.world_mut().resource_mut::<Gravity>().0 = Vec3::new(a_y, -G, 0.0);
    run(&mut app, steps(3.0, hz));
    assert!(velocity(&app, car).length() < 0.01, "the parked car slid");
    let roll = attitude(&app, car).1 - roll0;
    (roll, suspension(&app) - suspension0, position(&app, car).y - y0)
}

/// Steady roll at 0.3 g matches `m·a·d / (K − m·g·d)` (bars included, `d` the centre
/// of mass over the roll axis) within 5 % at 30–240 Hz, with the roll centres on the
/// ground and halfway up; with them at the centre of mass the body does not roll
/// (under 2 % of the first) and does not rise (the two sides' jacking cancels). Ray
/// wheels (a point contact, as the closed form has): the body's roll; cylinder wheels:
/// the suspension's. A cylinder's body rolls some 14 % more, printed: with static
/// camber its edge, not its centre, touches the road, lower on the wheel leaning
/// further (`docs/vehicle.md`, "Geometry").
#[test]
fn roll_follows_the_roll_centre() {
    let a_y = 0.3 * G;
    let h = road(0.0, 0.0).centre_of_mass_height();
    for (sweep, hz) in RATES
        .map(|hz| (SweepType::Ray, hz))
        .into_iter()
        .chain([(SweepType::Cylinder, 60.0)])
    {
        let mut first = 0.0;
        for (i, rc) in [0.0, 0.5 * h, h].into_iter().enumerate() {
            let mut s = road(rc, 0.0);
            s.axles.iter_mut().for_each(|a| a.wheel.set_sweep_type(sweep));
            let (body, suspension, rise) = roll_at(&s, a_y, hz);
            let roll = if sweep == SweepType::Ray { body } else { suspension };
            let predicted = s.predicted_roll_gradient_without_turn().expect("two axles") * 0.3;
            println!(
                "{sweep:?} {hz} Hz, roll centre {rc:.3} m: body {body:.4}°, suspension {suspension:.4}° (closed form {predicted:.4}°), rise {rise:.5} m"
            );
            if i == 0 {
                first = roll.abs();
            }
            if i < 2 {
                let error = (roll.abs() - predicted).abs() / predicted;
                assert!(error < 0.05, "{sweep:?} {hz} Hz, {rc} m: {roll}° against {predicted}°");
            } else {
                assert!(
                    roll.abs() < 0.02 * first,
                    "{hz} Hz: rolled {roll}° with the roll centre at the centre of mass"
                );
            }
            assert!(rise.abs() < 1e-3, "{hz} Hz, {rc} m: the body rose {rise} m");
        }
    }
}

/// Brakes at 0.4 of the pedal from 90 km/h (below the tyres' limit, so each axle's
/// force follows the brake bias) and returns the mean pitch (deg, relative to parked)
/// and deceleration (m/s²) over the second second.
fn pitch_under_braking(settings: &VehicleSettings) -> (f32, f32) {
    let (mut app, car) = on_flat(settings, HZ);
    run(&mut app, steps(2.0, HZ));
    let (pitch0, _) = attitude(&app, car);
    launch(&mut app, car, 25.0);
    app.world_mut().get_mut::<VehicleInput>(car).unwrap().brake = 0.4;
    run(&mut app, steps(1.0, HZ));
    let (mut pitch, v0) = (0.0, velocity(&app, car).length());
    let n = steps(1.0, HZ);
    for _ in 0..n {
        app.update();
        pitch += attitude(&app, car).0 - pitch0;
    }
    (pitch / n as f32, (v0 - velocity(&app, car).length()) / 1.0)
}

/// Pitch under braking falls in proportion to anti-dive on both axles: 50 % halves
/// it (within 5 % of the 0 % pitch), 100 % leaves under 5 %; at 0 % it is the springs'
/// closed form `m·a·h / (K_θ − m·g·h)`, `K_θ = 2·k_f·a² + 2·k_r·b²`, within 10 %.
#[test]
fn anti_dive_takes_its_share_of_the_pitch() {
    let base = road(0.0, 0.0);
    let (pitch0, decel) = pitch_under_braking(&base);
    let h = base.centre_of_mass_height();
    let (f, r) = (&base.axles[0], &base.axles[1]);
    let zc = base.chassis.centre_of_mass[2];
    let k =
        2.0 * f.wheel.suspension_spring() * (f.z - zc).powi(2) + 2.0 * r.wheel.suspension_spring() * (r.z - zc).powi(2);
    let w = base.chassis.mass * G;
    let predicted = (base.chassis.mass * decel * h / (k - w * h)).to_degrees();
    println!("0 %: pitch {pitch0:.4}° at {decel:.2} m/s² (closed form {predicted:.4}°)");
    assert!(decel > 5.0 && decel < 8.0, "deceleration {decel}");
    assert!(
        (pitch0.abs() - predicted).abs() < 0.1 * predicted,
        "{pitch0}° against {predicted}°"
    );
    for anti in [50.0, 100.0] {
        let (pitch, decel) = pitch_under_braking(&road(0.0, anti));
        let share = pitch / pitch0;
        println!("{anti} %: pitch {pitch:.4}° at {decel:.2} m/s², {share:.3} of 0 %'s");
        let expected = 1.0 - anti / 100.0;
        assert!(
            (share - expected).abs() < 0.05,
            "{anti} %: {share} of the pitch, {expected} expected"
        );
    }
}

/// `settings` with a manual clutch, held open, launched at `v` (m/s) and left to coast
/// for 1.5 s.
fn coasting(settings: &VehicleSettings, v: f32) -> (App, Entity) {
    let mut s = settings.clone();
    s.clutch.automatic = false;
    let (mut app, car) = on_flat(&s, HZ);
    app.world_mut().get_mut::<VehicleInput>(car).unwrap().clutch = 1.0;
    run(&mut app, steps(1.5, HZ));
    launch(&mut app, car, v);
    run(&mut app, steps(1.5, HZ));
    (app, car)
}

/// The sum of the front and of the rear wheels' loads (N), each averaged over
/// `seconds` of steps.
fn axle_loads(app: &mut App, car: Entity, seconds: f64) -> [f32; 2] {
    let wheels = app.world().get::<ChassisWheels>(car).unwrap().wheels().to_vec();
    let n = steps(seconds, HZ);
    let mut sums = [0.0f32; 2];
    for _ in 0..n {
        app.update();
        for &w in &wheels {
            let front = app.world().get::<Transform>(w).unwrap().translation.z < 0.0;
            sums[usize::from(!front)] += output(app, w).output.load;
        }
    }
    sums.map(|s| s / n as f32)
}

/// A car with rear lift, coasting with its clutch open and no drag, against the same
/// car without lift at the same moment: the rear axle's lost load grows as v² within
/// 1 % from 30 to 45 m/s, and is `½·ρ·CL·v²` within 2.5 %. Why not closer: the lift
/// pitches the body nose-down by 0.1°, and its contacts, 0.43 m below the mounts
/// along the pitched axis, move 0.7 mm against the centre of mass, so the weight moves
/// 1.5 % of the lift from the lifted axle to the other (measured: the front gains
/// 3.4 N of 218 N; with the lift on the front axle the rear gains 2.8 N).
#[test]
fn rear_lift_unloads_the_rear_as_v_squared() {
    let run_with = |lift: f32, v: f32| {
        let mut s = road(0.0, 0.0);
        s.aero.drag_coefficient = 0.0;
        s.aero.downforce_rear = lift;
        let (mut app, car) = coasting(&s, v);
        let speed = velocity(&app, car).length();
        let loads = axle_loads(&mut app, car, 0.5);
        let speed = 0.5 * (speed + velocity(&app, car).length());
        (loads, 0.5 * s.aero.air_density * -lift * speed * speed, speed)
    };
    let mut per_v2 = vec![];
    for v in [30.0f32, 45.0] {
        let (plain, _, _) = run_with(0.0, v);
        let (lifted, lift, speed) = run_with(-0.4, v);
        let lost = [plain[0] - lifted[0], plain[1] - lifted[1]];
        println!(
            "{v} m/s: lift {lift:.1} N, front lost {:.2} N, rear {:.2} N",
            lost[0], lost[1]
        );
        assert!(
            (lost[1] - lift).abs() < 0.025 * lift,
            "{v} m/s: rear lost {} N of {lift} N",
            lost[1]
        );
        assert!(lost[0].abs() < 0.025 * lift, "{v} m/s: front lost {} N", lost[0]);
        per_v2.push(lost[1] / (speed * speed));
    }
    let ratio = per_v2[1] / per_v2[0];
    println!("rear load lost per v², 45 against 30 m/s: {ratio:.4}");
    assert!((ratio - 1.0).abs() < 0.01, "the rear's loss is not as v²: {ratio}");
}

/// The drag acts at the centre of pressure: raised 0.4 m above the centre of mass it
/// moves `drag · 0.4 / L` of load from the front axle to the rear (within 5 %),
/// compared step for step with the same car's drag through the centre of mass.
#[test]
fn drag_above_the_centre_of_mass_lifts_the_nose() {
    let run_with = |height: f32| {
        let mut s = road(0.0, 0.0);
        s.aero.pressure_height = height;
        let (mut app, car) = coasting(&s, 45.0);
        let v = velocity(&app, car).length();
        (
            axle_loads(&mut app, car, 0.5),
            s.aero.drag_factor() * v * v,
            s.wheelbase(),
        )
    };
    let (through, drag, l) = run_with(0.0);
    let (above, _, _) = run_with(0.4);
    let expected = drag * 0.4 / l;
    let moved = [through[0] - above[0], above[1] - through[1]];
    println!(
        "drag {drag:.1} N: front lost {:.1} N, rear gained {:.1} N, closed form {expected:.1} N",
        moved[0], moved[1]
    );
    for m in moved {
        assert!(
            (m - expected).abs() < 0.05 * expected,
            "moved {m} N, expected {expected} N"
        );
    }
}

/// With a ride height set, the car rests at it within 1 mm whatever the spring rate
/// (5·10³ … 10⁷ N/m, the inspector's range bar the springless end) at 30–240 Hz: the
/// preload moves with the rate.
#[test]
fn ride_height_holds_for_any_spring_rate() {
    for hz in RATES {
        for rate in [5.0e3f32, 3.6e4, 2.0e5, 1.0e6, 1.0e7] {
            let mut s = road(0.0, 0.0);
            for a in &mut s.axles {
                a.wheel.set_suspension_spring(rate).unwrap();
                a.ride_height = Some(a.wheel.radius() + 0.5 * a.wheel.suspension_length());
            }
            s.validate().unwrap();
            let (mut app, car) = on_flat(&s, hz);
            run(&mut app, steps(4.0, hz));
            let wheels = app.world().get::<ChassisWheels>(car).unwrap().wheels().to_vec();
            for w in wheels {
                let out = output(&app, w);
                let wheel = app.world().get::<WheelCollider>(w).unwrap();
                let height = out.output.current_suspension_length + wheel.radius();
                let set = wheel.radius() + 0.5 * wheel.suspension_length();
                assert!(
                    (height - set).abs() < 1e-3,
                    "{hz} Hz, {rate} N/m: the mount rests {height} m up, {set} m set"
                );
            }
        }
    }
}

/// Camber gain and bump steer on the front axle, the car pressed down some 50 mm by a
/// heavier gravity: each front wheel's camber (its output, flat ground, no roll) and
/// toe (the yaw it is swept at) are `static + rate · (x − x_static)`, mirrored for the
/// right wheel, within 0.01°.
#[test]
fn camber_and_toe_follow_the_travel() {
    let mut s = road(0.0, 0.0);
    let front = &mut s.axles[0];
    front.ride_height = Some(front.wheel.radius() + 0.6 * front.wheel.suspension_length());
    front.wheel.set_camber_gain(-20.0).unwrap();
    front.wheel.set_bump_steer(2.0).unwrap();
    front.wheel.set_toe_angle(0.1).unwrap();
    s.validate().unwrap();
    let x_static = s.static_compression(0);
    let (mut app, car) = on_flat(&s, HZ);
    run(&mut app, steps(2.0, HZ));
    app.world_mut().resource_mut::<Gravity>().0 = Vec3::NEG_Y * G * 1.447;
    run(&mut app, steps(3.0, HZ));
    let wheels = app.world().get::<ChassisWheels>(car).unwrap().wheels().to_vec();
    let a = &s.axles[0];
    for w in wheels {
        let id = *app.world().get::<VehicleWheel>(w).unwrap();
        if id.axle != 0 {
            continue;
        }
        let out = output(&app, w);
        let travel = out.output.compression - x_static;
        let side = if id.right { -1.0 } else { 1.0 };
        let camber = side * (a.wheel.camber_angle() + a.wheel.camber_gain() * travel);
        let toe = -side * (a.wheel.toe_angle() + a.wheel.bump_steer() * travel);
        println!(
            "right {}: travel {travel:.4} m, camber {:.4}° ({camber:.4}°), toe {:.4}° ({toe:.4}°)",
            id.right, out.output.camber, out.yaw
        );
        assert!((travel - 0.05).abs() < 0.01, "travel {travel} m");
        assert!(
            (out.output.camber - camber).abs() < 0.01,
            "camber {} against {camber}",
            out.output.camber
        );
        assert!((out.yaw - toe).abs() < 0.01, "toe {} against {toe}", out.yaw);
    }
}

/// The road car (front-driven; anti-dive 15 %, anti-lift on power 10 % at the front)
/// coasting in third from 20 m/s with the throttle shut: the engine brakes the front
/// wheels through the drive shafts, so their links jack through the drive geometry.
/// The front wheels' jacking is `s_drive·|ΣFx| + s_roll·Σ|Fy|` (the drive slope on the
/// longitudinal force; the roll centre's on the small lateral forces the compliance
/// toe-in gives, both towards the centre) within 5 %, at 30, 60 and 240 Hz. The brake
/// geometry's slope is 2.1× the drive's. Checked: with the slope chosen by the force's
/// direction (as it was) the jacking is 1.72× the closed form (29.2 N).
#[test]
fn engine_braking_jacks_through_the_drive_geometry() {
    let s = manual_gears("road");
    let mut failed = vec![];
    for hz in [30.0, 60.0, 240.0] {
        let (mut app, car) = on_flat(&s, hz);
        run(&mut app, steps(1.0, hz));
        set_gear(&mut app, car, 3);
        launch(&mut app, car, 20.0);
        run(&mut app, steps(1.0, hz));
        let wheels = app.world().get::<ChassisWheels>(car).unwrap().wheels().to_vec();
        let front: Vec<Entity> = wheels
            .into_iter()
            .filter(|&w| app.world().get::<VehicleWheel>(w).unwrap().axle == 0)
            .collect();
        let (mut jacking, mut fx, mut fy) = (0.0f64, 0.0f64, 0.0f64);
        for _ in 0..steps(1.0, hz) {
            app.update();
            for &w in &front {
                let o = output(&app, w).output;
                jacking += o.jacking_force as f64;
                fx += o.forward_force as f64;
                fy += o.sideways_force.abs() as f64;
            }
        }
        let wheel = &app.world().get::<WheelCollider>(front[0]).unwrap().0;
        let (drive, brake) = (wheel.drive_pitch_slope() as f64, wheel.brake_pitch_slope() as f64);
        let expected = drive.abs() * fx.abs() + wheel.roll_centre_slope() as f64 * fy;
        let n = steps(1.0, hz) as f64;
        eprintln!(
            "measured: road coasting in third at {hz} Hz: front Fx {:.0} N, |Fy| {:.1} N, jacking {:.2} N against {:.2} N (drive slope {drive:.4}, brake slope {brake:.4})",
            fx / n,
            fy / n,
            jacking / n,
            expected / n
        );
        if fx >= 0.0 || (jacking / expected - 1.0).abs() > 0.05 {
            failed.push(format!("{hz} Hz: {jacking} against {expected}"));
        }
    }
    assert!(failed.is_empty(), "{failed:#?}");
}
