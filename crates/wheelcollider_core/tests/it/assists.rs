//! The assists' closed-form answers, without a physics engine: which wheel yaw
//! stability brakes and how hard, the body acceleration of anti-flip and air control,
//! and that everything is off by default.
use wheelcollider_core::vehicle::*;

const DT: f32 = 1.0 / 60.0;

fn esc_settings() -> VehicleSettings {
    let mut settings = VehicleSettings::default();
    let y = &mut settings.assists.yaw_stability;
    y.enabled = true;
    y.threshold = 2.0;
    y.gain = 100.0;
    y.max_torque = 5000.0;
    y.reference_understeer = 0.0;
    settings
}

fn rolling(v: f32) -> [WheelFeedback; 4] {
    [WheelFeedback {
        inertia: 1.2,
        radius: 0.3,
        grounded: true,
        load: 3500.0,
        max_friction_force: 3500.0,
        peak_slip: 0.12,
        lateral_peak_slip: 0.14,
        ground_speed: v,
        angular_velocity: v / 0.3,
        ..Default::default()
    }; 4]
}

/// One step with `steer` held (the steering already at it) and the chassis yawing at
/// `yaw_rate` (rad/s); returns the commands and the report.
fn esc_step(settings: &VehicleSettings, steer: f32, yaw_rate: f32) -> ([WheelInput; 4], PowertrainReport) {
    let v = 20.0;
    let mut state = VehicleState::new(settings);
    state.steer = steer;
    let mut input = DriverInput {
        steer,
        ..Default::default()
    };
    let mut out = [WheelInput::default(); 4];
    let motion = ChassisMotion {
        forward_speed: v,
        yaw_rate,
    };
    let report = step_vehicle(settings, &mut state, &mut input, motion, &rolling(v), &mut out, DT).report;
    (out, report)
}

/// The reference yaw rate (rad/s) of `esc_settings` at 20 m/s with the steering at `steer`:
/// neutral steer, `v·δ/L`, under the grip cap.
fn reference(settings: &VehicleSettings, steer: f32) -> f32 {
    let delta = (steer * settings.steering.lock_at(20.0)).to_radians();
    20.0 * delta / settings.wheelbase_for(0)
}

#[test]
fn yaw_stability_brakes_the_outer_front_in_oversteer_and_the_inner_rear_in_understeer() {
    let settings = esc_settings();
    let steer = 0.1; // a left turn
    let r_ref = reference(&settings, steer);
    let cap = YAW_REFERENCE_GRIP * 4.0 * 3500.0 / settings.chassis.mass / 20.0;
    assert!(
        r_ref > 0.0 && r_ref < cap,
        "the test's reference {r_ref} is under the cap {cap}"
    );
    // Index: 0 front left, 1 front right, 2 rear left, 3 rear right.
    for (name, yaw, wheel) in [
        ("oversteer (turns 10°/s too far left)", r_ref + 10f32.to_radians(), 1),
        ("understeer (10°/s short of the turn)", r_ref - 10f32.to_radians(), 2),
        ("a spin the other way", -r_ref - 10f32.to_radians(), 0),
    ] {
        let (out, report) = esc_step(&settings, steer, yaw);
        let error = (yaw - r_ref).abs().to_degrees();
        // Gain × the error past the threshold, at most the tyre's budget × radius.
        let expected = (100.0 * (error - 2.0)).min(ABS_PEAK_FRACTION * 3500.0 * 0.3);
        println!("measured: {name}: brake torques {:?}", out.map(|c| c.brake_torque));
        for (i, c) in out.iter().enumerate() {
            let want = if i == wheel { expected } else { 0.0 };
            assert!(
                (c.brake_torque - want).abs() < 1e-2 * want.max(1.0),
                "{name}: wheel {i} brakes {} N·m, expected {want}",
                c.brake_torque
            );
        }
        assert!((report.stability_brake - expected).abs() < 1e-2 * expected);
    }
}

#[test]
fn yaw_stability_is_quiet_within_its_threshold_below_its_speed_and_when_off() {
    let settings = esc_settings();
    let r_ref = reference(&settings, 0.1);
    let (out, _) = esc_step(&settings, 0.1, r_ref + 1.9f32.to_radians());
    assert!(out.iter().all(|c| c.brake_torque == 0.0), "inside the 2°/s threshold");
    let mut off = settings.clone();
    off.assists.yaw_stability.enabled = false;
    let (out, report) = esc_step(&off, 0.1, r_ref + 30f32.to_radians());
    assert!(out.iter().all(|c| c.brake_torque == 0.0) && report.stability_brake == 0.0);
    assert!(!VehicleSettings::default().assists.yaw_stability.enabled);
    // Below the minimum speed: nothing, however it yaws.
    let mut state = VehicleState::new(&settings);
    let mut out = [WheelInput::default(); 4];
    let slow = ChassisMotion {
        forward_speed: YAW_STABILITY_MIN_SPEED - 0.1,
        yaw_rate: 2.0,
    };
    let mut input = DriverInput::default();
    step_vehicle(&settings, &mut state, &mut input, slow, &rolling(4.9), &mut out, DT);
    assert!(out.iter().all(|c| c.brake_torque == 0.0));
}

#[test]
fn yaw_stability_never_asks_more_than_the_tyre_budget() {
    let mut settings = esc_settings();
    settings.assists.yaw_stability.gain = 1.0e5;
    let (out, _) = esc_step(&settings, 0.0, 1.0);
    let budget = ABS_PEAK_FRACTION * 3500.0 * 0.3;
    let max = out.iter().map(|c| c.brake_torque).fold(0.0, f32::max);
    println!("measured: capped ESC torque {max:.1} N·m, budget × radius {budget:.1}");
    assert!((max - budget).abs() < 1.0, "{max} against {budget}");
}

fn tilted(roll_deg: f32, angular_velocity: [f32; 3], airborne: bool) -> BodyMotion {
    // A chassis rolled right by `roll_deg`: the world's up leans to its left (−x).
    let r = roll_deg.to_radians();
    BodyMotion {
        up: [-r.sin(), r.cos(), 0.0],
        angular_velocity,
        airborne,
    }
}

#[test]
fn anti_flip_pushes_back_past_its_angle_and_never_before() {
    let mut a = AssistSettings::default();
    let input = DriverInput::default();
    assert_eq!(
        body_acceleration(&a, &input, &tilted(80.0, [0.0; 3], false), DT),
        [0.0; 3]
    );
    a.anti_flip.enabled = true;
    a.anti_flip.max_angle = 40.0;
    a.anti_flip.max_acceleration = 1000.0;
    assert_eq!(
        body_acceleration(&a, &input, &tilted(39.0, [0.0; 3], false), DT),
        [0.0; 3]
    );
    // 10° past the limit at rest: the return rate 5 × 10° reached in one step.
    let acc = body_acceleration(&a, &input, &tilted(50.0, [0.0; 3], false), DT);
    let want = ANTI_FLIP_RETURN_RATE * 10f32.to_radians() / DT;
    println!("measured: anti-flip 10° past: {acc:?}, expected +z {want}");
    assert!(acc[0].abs() < 1e-4 && acc[1] == 0.0 && (acc[2] - want).abs() < 1e-3 * want);
    // +z turns a chassis rolled right back to the left (the top moves −x): the tilt falls.
    // Already turning back faster than that: nothing to do.
    let fast = body_acceleration(&a, &input, &tilted(50.0, [0.0, 0.0, 2.0], false), DT);
    assert_eq!(fast, [0.0; 3]);
    // Rolling further at 3 rad/s: capped at the strength.
    a.anti_flip.max_acceleration = 30.0;
    let capped = body_acceleration(&a, &input, &tilted(50.0, [0.0, 0.0, -3.0], false), DT);
    assert!((capped[2] - 30.0).abs() < 1e-4, "{capped:?}");
}

#[test]
fn anti_flip_always_turns_the_tilt_down() {
    let mut a = AssistSettings::default();
    a.anti_flip.enabled = true;
    a.anti_flip.max_angle = 30.0;
    let input = DriverInput::default();
    // Any tilt past the limit, from any side: the step's rotation raises up·y.
    for k in 0..72 {
        let heading = (k as f32 * 5.0).to_radians();
        for tilt in [35.0f32, 90.0, 179.0] {
            let t = tilt.to_radians();
            let up = [t.sin() * heading.cos(), t.cos(), t.sin() * heading.sin()];
            let body = BodyMotion {
                up,
                angular_velocity: [0.0; 3],
                airborne: false,
            };
            let w = body_acceleration(&a, &input, &body, DT).map(|x| x * DT);
            // In the chassis frame the world's up turns by −ω × up.
            let dy = -(w[2] * up[0] - w[0] * up[2]);
            assert!(dy > 0.0, "tilt {tilt}° heading {k}: up·y changes by {dy}");
        }
    }
}

#[test]
fn air_control_turns_input_into_rates_in_the_air_only() {
    let mut a = AssistSettings::default();
    a.air_control.enabled = true;
    a.air_control.max_acceleration = 1.0e6;
    let steer = DriverInput {
        steer: 0.5,
        ..Default::default()
    };
    let level = |airborne| BodyMotion {
        up: [0.0, 1.0, 0.0],
        angular_velocity: [0.0; 3],
        airborne,
    };
    assert_eq!(body_acceleration(&a, &steer, &level(false), DT), [0.0; 3]);
    // Half steer: half the yaw rate, in one step (no cap).
    let acc = body_acceleration(&a, &steer, &level(true), DT);
    let want = 0.5 * a.air_control.yaw_rate.to_radians() / DT;
    assert!(
        acc[0] == 0.0 && acc[2] == 0.0 && (acc[1] - want).abs() < 1e-3 * want,
        "{acc:?}"
    );
    // Throttle: nose down (−x); brake: nose up; steer with the handbrake: roll left (+z).
    let throttle = DriverInput {
        throttle: 1.0,
        ..Default::default()
    };
    assert!(body_acceleration(&a, &throttle, &level(true), DT)[0] < 0.0);
    let roll = DriverInput {
        steer: 1.0,
        handbrake: 1.0,
        ..Default::default()
    };
    let acc = body_acceleration(&a, &roll, &level(true), DT);
    assert!(acc[1] == 0.0 && acc[2] > 0.0, "{acc:?}");
    // The cap: 10 rad/s² by default.
    a.air_control.max_acceleration = 10.0;
    assert_eq!(body_acceleration(&a, &steer, &level(true), DT)[1], 10.0);
    // Hostile numbers give zero, not NaN.
    let nan = BodyMotion {
        up: [f32::NAN, 1.0, 0.0],
        ..level(true)
    };
    assert_eq!(body_acceleration(&a, &steer, &nan, DT), [0.0; 3]);
    assert_eq!(body_acceleration(&a, &steer, &level(true), f32::NAN), [0.0; 3]);
}

#[test]
fn assists_validate_with_their_field_paths() {
    let mut settings = VehicleSettings::default();
    settings.assists.anti_flip.max_angle = f32::NAN;
    let e = settings.validate().unwrap_err();
    assert_eq!(e.field, "assists.anti_flip.max_angle");
    let mut settings = VehicleSettings::default();
    settings.assists.air_control.yaw_rate = 1.0e9;
    settings.validate().unwrap();
    assert_eq!(
        settings.assists.air_control.yaw_rate, 1440.0,
        "clamped to its documented range"
    );
    // A preset without the section reads as all off; one that names only ESC has the
    // rest at their defaults.
    let rally = crate::common::preset("rally");
    assert_eq!(rally.assists, AssistSettings::default());
    let road = crate::common::preset("road");
    let mut expected = AssistSettings::default();
    expected.yaw_stability.enabled = true;
    assert_eq!(road.assists, expected);
}
