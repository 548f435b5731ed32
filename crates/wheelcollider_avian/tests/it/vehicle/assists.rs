//! The body assists on a real body: anti-flip stops a roll at its closed-form
//! overshoot and rights a car lying on its side; air control reaches its rates in the
//! air and changes nothing on the ground. (Yaw stability is measured by the track's
//! sine-with-dwell test, `wheelcollider_track/tests/maneuvers.rs`.)
use crate::common;
use avian3d::prelude::*;
use bevy::prelude::*;
use common::*;
use wheelcollider_avian::prelude::*;

/// Angle between the chassis' up axis and the world's (deg).
fn tilt(app: &App, car: Entity) -> f32 {
    (rotation(app, car) * Vec3::Y)
        .dot(Vec3::Y)
        .clamp(-1.0, 1.0)
        .acos()
        .to_degrees()
}

fn road(edit: impl Fn(&mut AssistSettings)) -> VehicleSettings {
    let mut settings = preset("road");
    edit(&mut settings.assists);
    settings
}

/// A road car floating without gravity, rolling right at `omega` (rad/s) about its
/// long axis. Returns the largest tilt over `seconds` and the tilt at the end.
fn free_roll(hz: f64, omega: f32, settings: &VehicleSettings, seconds: f64) -> (f32, f32) {
    let mut app = app(hz);
    app.insert_resource(Gravity(Vec3::ZERO));
    let car = spawn_preset_car(&mut app, settings, Transform::from_xyz(0.0, 50.0, 0.0));
    run(&mut app, 1);
    // Rolling right: the top towards +x, about the forward axis (−z).
    app.world_mut().get_mut::<AngularVelocity>(car).unwrap().0 = Vec3::NEG_Z * omega;
    let mut peak = 0.0f32;
    for _ in 0..steps(seconds, hz) {
        app.update();
        peak = peak.max(tilt(&app, car));
    }
    (peak, tilt(&app, car))
}

#[test]
fn anti_flip_stops_a_roll_at_its_closed_form_overshoot() {
    let (omega, limit, accel) = (4.0f32, 30.0f32, 40.0f32);
    let settings = road(|a| {
        a.anti_flip.enabled = true;
        a.anti_flip.max_angle = limit;
        a.anti_flip.max_acceleration = accel;
    });
    // Free rotation to the limit, then a constant deceleration: overshoot ω²/(2α). The
    // limit is seen at the start of a step, so the rotation passes it by up to ω·dt
    // first.
    let overshoot = (omega * omega / (2.0 * accel)).to_degrees();
    for hz in RATES {
        let (peak, end) = free_roll(hz, omega, &settings, 3.0);
        let late = (omega / hz as f32).to_degrees();
        println!(
            "measured: {hz} Hz: peak tilt {peak:.2}° (limit {limit} + {overshoot:.2} + up to {late:.2}), after 3 s {end:.2}°"
        );
        assert!(
            peak > limit + overshoot - 0.5 && peak < limit + overshoot + late + 0.5,
            "{hz} Hz: peak {peak}"
        );
        assert!(end < limit + 0.5, "{hz} Hz: back inside the limit: {end}");
    }
    // Off: the roll goes on over the roof.
    let (peak, _) = free_roll(60.0, omega, &road(|_| {}), 1.0);
    assert!(peak > 170.0, "without the assist the car rolls over: {peak}");
}

/// A car spawned 1 m up, rolled 80° to the right, dropped on flat ground; returns its
/// tilt after `seconds`.
fn dropped_on_its_side(settings: &VehicleSettings, seconds: f64) -> f32 {
    let hz = 60.0;
    let mut app = app(hz);
    flat(&mut app, None);
    let t = Transform::from_xyz(0.0, 1.2, 0.0).with_rotation(Quat::from_rotation_z(-80f32.to_radians()));
    let car = spawn_preset_car(&mut app, settings, t);
    run(&mut app, steps(seconds, hz));
    tilt(&app, car)
}

#[test]
fn anti_flip_puts_a_car_on_its_side_back_on_its_wheels() {
    let off = dropped_on_its_side(&road(|_| {}), 4.0);
    let on = dropped_on_its_side(
        &road(|a| {
            a.anti_flip.enabled = true;
            a.anti_flip.max_angle = 30.0;
        }),
        4.0,
    );
    println!("measured: tilt after 4 s on its side: {off:.1}° without, {on:.1}° with anti-flip (30°)");
    assert!(off > 60.0, "without the assist it stays on its side: {off}");
    assert!(on < 5.0, "with it, back on four wheels: {on}");
}

#[test]
fn air_control_reaches_its_rates_in_the_air() {
    let hz = 60.0;
    let settings = road(|a| a.air_control.enabled = true);
    let c = settings.assists.air_control.clone();
    for (name, input, axis, rate) in [
        (
            "steer: yaw left",
            DriverInput {
                steer: 1.0,
                ..Default::default()
            },
            Vec3::Y,
            c.yaw_rate,
        ),
        (
            "throttle: nose down",
            DriverInput {
                throttle: 1.0,
                ..Default::default()
            },
            Vec3::NEG_X,
            c.pitch_rate,
        ),
        (
            "steer + handbrake: roll left",
            DriverInput {
                steer: 1.0,
                handbrake: 1.0,
                ..Default::default()
            },
            Vec3::Z,
            c.roll_rate,
        ),
    ] {
        let mut app = app(hz);
        app.insert_resource(Gravity(Vec3::ZERO));
        let car = spawn_preset_car(&mut app, &settings, Transform::from_xyz(0.0, 50.0, 0.0));
        app.world_mut().get_mut::<VehicleInput>(car).unwrap().0 = input;
        // The rate is reached after rate / acceleration seconds; run 0.5 s more.
        let reach = rate.to_radians() / c.max_acceleration;
        run(&mut app, steps(reach as f64 + 0.5, hz));
        let local = rotation(&app, car).inverse() * app.world().get::<AngularVelocity>(car).unwrap().0;
        let got = local.dot(axis).to_degrees();
        let off_axis = (local - axis * local.dot(axis)).length().to_degrees();
        println!("measured: {name}: {got:.2}°/s about its axis (asked {rate}), {off_axis:.3}°/s off it");
        assert!((got - rate).abs() < 0.01 * rate, "{name}: {got} against {rate}");
        assert!(off_axis < 0.01 * rate, "{name}: {off_axis}°/s about other axes");
    }
}

#[test]
fn air_control_changes_nothing_on_the_ground() {
    let hz = 60.0;
    let drive = |settings: &VehicleSettings| {
        let mut app = app(hz);
        flat(&mut app, None);
        let car = spawn_preset_car(&mut app, settings, Transform::from_xyz(0.0, 0.6, 0.0));
        run(&mut app, steps(1.0, hz));
        launch(&mut app, car, 10.0);
        app.world_mut().get_mut::<VehicleInput>(car).unwrap().0 = DriverInput {
            throttle: 0.3,
            steer: 0.5,
            ..Default::default()
        };
        run(&mut app, steps(3.0, hz));
        (position(&app, car), rotation(&app, car))
    };
    let off = drive(&road(|_| {}));
    let on = drive(&road(|a| a.air_control.enabled = true));
    println!(
        "measured: after 3 s turning: {:?} without, {:?} with air control",
        off.0, on.0
    );
    assert!(off.0.distance(Vec3::new(0.0, off.0.y, 0.0)) > 10.0, "the car drove");
    assert_eq!(off, on, "bit-identical: air control acts only in the air");
}

#[test]
fn assists_at_the_edges_of_their_ranges_stay_calm() {
    // Every assist on, every value at the top (or bottom) of its range, as typed in
    // the inspector, on a car that weaves at full throttle: finite, on its wheels.
    for (hz, top) in [(30.0, true), (240.0, true), (60.0, false)] {
        let settings = road(|a| {
            let (angle, accel, rate, gain) = if top {
                (0.0, 1000.0, 1440.0, 5000.0)
            } else {
                (180.0, 0.0, 0.0, 0.0)
            };
            a.anti_flip.enabled = true;
            a.anti_flip.max_angle = angle;
            a.anti_flip.max_acceleration = accel;
            a.air_control.enabled = true;
            a.air_control.yaw_rate = rate;
            a.air_control.pitch_rate = rate;
            a.air_control.max_acceleration = accel;
            a.yaw_stability.enabled = true;
            a.yaw_stability.threshold = 0.0;
            a.yaw_stability.gain = gain;
            a.yaw_stability.max_torque = 50_000.0;
        });
        let mut app = app(hz);
        flat(&mut app, None);
        let car = spawn_preset_car(&mut app, &settings, Transform::from_xyz(0.0, 0.6, 0.0));
        run(&mut app, steps(1.0, hz));
        launch(&mut app, car, 20.0);
        let mut worst = 0.0f32;
        for k in 0..steps(6.0, hz) {
            let t = k as f32 / hz as f32;
            app.world_mut().get_mut::<VehicleInput>(car).unwrap().0 = DriverInput {
                throttle: 1.0,
                steer: (2.0 * t).sin(),
                ..Default::default()
            };
            app.update();
            worst = worst.max(tilt(&app, car));
            let v = velocity(&app, car);
            assert!(v.is_finite() && v.length() < 60.0, "{hz} Hz: velocity {v}");
        }
        println!(
            "measured: {hz} Hz, ranges' {} ends: largest tilt {worst:.2}°",
            if top { "top" } else { "bottom" }
        );
        assert!(worst < 20.0, "{hz} Hz: tilted {worst}°");
    }
}
