//! A trailer's brakes and description without a physics engine: the overrun law, the
//! air brakes' lag, the parking brake, the nose load, validation. The coupled proofs
//! (a caravan behind the road car) are the plugin's `vehicle::towing`.

use crate::common::preset;
use wheelcollider_core::WheelInput;
use wheelcollider_core::vehicle::*;

const DT: f32 = 1.0 / 60.0;

fn settle(t: &TrailerSettings, tow: TowInput, seconds: f32) -> f32 {
    let mut level = 0.0;
    for _ in 0..(seconds / DT).round() as usize {
        trailer_controls(t, 1500.0, &mut level, tow, DT);
    }
    level
}

/// Overrun brakes: nothing below the response push, full at the `full` push, linear
/// between (within 1e-4 after the damper settles); nothing while rolling backwards
/// whatever the push; the damper's first-order lag reaches 1 − 1/e of a step in one
/// time constant (within 1e-3).
#[test]
fn overrun_brakes_follow_the_push_through_their_damper() {
    let t = TrailerSettings::default();
    let TrailerBrakes::Overrun { response, full, lag } = t.brakes else {
        panic!("overrun by default")
    };
    let w = 1500.0 * 9.81;
    let at = |push_fraction: f32, v: f32| {
        let tow = TowInput {
            coupled: true,
            pedal: 0.0,
            push: push_fraction * w,
            forward_speed: v,
        };
        settle(&t, tow, 5.0)
    };
    assert_eq!(at(response - 0.005, 10.0), 0.0);
    assert!((at(full + 0.05, 10.0) - 1.0).abs() < 1e-4);
    let mid = 0.5 * (response + full);
    assert!((at(mid, 10.0) - 0.5).abs() < 1e-4, "{}", at(mid, 10.0));
    assert_eq!(at(full, -1.0), 0.0, "reversing shoes");
    let tow = TowInput {
        coupled: true,
        pedal: 0.0,
        push: full * w,
        forward_speed: 10.0,
    };
    let one_lag = settle(&t, tow, lag);
    println!("measured: {one_lag:.4} of a full step after one time constant");
    assert!((one_lag - (1.0 - (-1.0f32).exp())).abs() < 1e-3, "{one_lag}");
}

/// Air brakes follow the pedal (not the push) through their lag; uncoupled, any trailer
/// has its parking brake on and its service brake released; a trailer with no brakes
/// never brakes.
#[test]
fn air_brakes_follow_the_pedal_and_an_uncoupled_trailer_parks() {
    let air = TrailerSettings {
        brakes: TrailerBrakes::Air { lag: 0.3 },
        ..Default::default()
    };
    let pedal = |p: f32| TowInput {
        coupled: true,
        pedal: p,
        push: 1.0e5,
        forward_speed: 10.0,
    };
    assert!((settle(&air, pedal(0.7), 5.0) - 0.7).abs() < 1e-4);
    assert_eq!(settle(&air, pedal(0.0), 5.0), 0.0);
    let none = TrailerSettings {
        brakes: TrailerBrakes::None,
        ..Default::default()
    };
    assert_eq!(settle(&none, pedal(1.0), 5.0), 0.0);
    let mut level = 0.8;
    let parked = trailer_controls(&air, 1500.0, &mut level, TowInput::default(), DT);
    assert_eq!((parked.handbrake, parked.throttle), (1.0, 0.0));
    assert!(level < 0.8, "released when uncoupled");
    let coupled = trailer_controls(&air, 1500.0, &mut level, pedal(0.0), DT);
    assert_eq!(coupled.handbrake, 0.0);
    // Bad input: no NaN reaches the brakes.
    let mut level = f32::NAN;
    let c = trailer_controls(
        &air,
        f32::NAN,
        &mut level,
        TowInput {
            coupled: true,
            pedal: f32::NAN,
            push: f32::INFINITY,
            forward_speed: f32::NAN,
        },
        f32::NAN,
    );
    assert!(c.brake.is_finite() && level.is_finite());
}

/// The caravan preset: 1 500 kg with a nose load of 7 % of its weight by the lever
/// rule (1 030 N), its axle carrying the rest; its hitch head 4.5 m ahead of the axle;
/// the road car's ball 0.85 m behind its rear axle, both of kind Ball. A trailer step
/// makes no drive torque and brakes at the level it is given.
#[test]
fn the_caravan_and_the_road_cars_ball() {
    let caravan = preset("caravan");
    let road = preset("road");
    let w = caravan.chassis.mass * 9.81;
    println!(
        "measured: nose load {:.1} N ({:.2} %)",
        caravan.nose_load(),
        100.0 * caravan.nose_load() / w
    );
    assert!((caravan.nose_load() / w - 0.07).abs() < 0.002);
    assert!((2.0 * caravan.corner_load(0) + caravan.nose_load() - w).abs() < 1e-2);
    assert!((caravan.trailer_length() - 4.5).abs() < 1e-4);
    let hitch = road.hitch.as_ref().unwrap();
    assert!((hitch.position[2] - road.axles[1].z - 0.85).abs() < 1e-4);
    assert_eq!(hitch.kind, caravan.trailer.as_ref().unwrap().kind);
    assert_eq!(road.nose_load(), 0.0);

    let mut state = VehicleState::new(&caravan);
    let wheels = [WheelFeedback {
        inertia: 1.0,
        radius: 0.3,
        ground_speed: 20.0,
        angular_velocity: 66.7,
        load: 6800.0,
        max_friction_force: 7000.0,
        grounded: true,
        ..Default::default()
    }; 2];
    let mut out = [WheelInput::default(); 2];
    let mut input = DriverInput {
        throttle: 1.0,
        brake: 0.5,
        ..Default::default()
    };
    let report = step_vehicle(
        &caravan,
        &mut state,
        &mut input,
        ChassisMotion::straight(20.0),
        &wheels,
        &mut out,
        DT,
    );
    println!("measured: {out:?}");
    assert_eq!(report.wheel_torque, 0.0);
    for o in out {
        assert_eq!(o.drive_torque, 0.0);
        assert!(
            (o.brake_torque - 0.5 * caravan.brakes.max_torque / 2.0).abs() < 1.0,
            "{o:?}"
        );
    }
}

/// Validation: a trailer with a driven axle, or its coupling behind an axle, is refused
/// naming the field; the hitch's and the brakes' numbers are clamped to their ranges; a
/// non-finite one is refused by its path.
#[test]
fn towing_settings_are_validated() {
    let mut s = preset("caravan");
    s.axles[0].driven = true;
    assert_eq!(s.validate().unwrap_err().field, "axles[0].driven");
    let mut s = preset("caravan");
    s.trailer.as_mut().unwrap().coupling[2] = 1.0;
    assert_eq!(s.validate().unwrap_err().field, "trailer.coupling");
    let mut s = preset("caravan");
    s.trailer.as_mut().unwrap().brakes = TrailerBrakes::Overrun {
        response: 0.3,
        full: 0.1,
        lag: 0.0,
    };
    s.validate().unwrap();
    assert_eq!(
        s.trailer.as_ref().unwrap().brakes,
        TrailerBrakes::Overrun {
            response: 0.3,
            full: 0.31,
            lag: 0.01
        }
    );
    let mut s = preset("road");
    let h = s.hitch.as_mut().unwrap();
    (h.yaw_limit, h.tilt_limit, h.break_force) = (500.0, 0.0, -1.0);
    s.validate().unwrap();
    let h = s.hitch.as_ref().unwrap();
    assert_eq!((h.yaw_limit, h.tilt_limit, h.break_force), (120.0, 1.0, 0.0));
    s.hitch.as_mut().unwrap().position[1] = f32::NAN;
    assert_eq!(s.validate().unwrap_err().field, "hitch.position[1]");
}
