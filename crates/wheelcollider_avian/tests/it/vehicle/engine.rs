//! The engine and the shift against what a driver feels: a stall pulling away in
//! sixth, and the jolt of a downshift without a blip.
use crate::common;

use bevy::prelude::*;
use common::*;
use wheelcollider_avian::prelude::*;
use wheelcollider_avian::vehicle::VehicleRuntime;
use wheelcollider_core::STANDARD_GRAVITY as G;
use wheelcollider_core::vehicle::RAD_PER_S_TO_RPM;

const HZ: f64 = 60.0;

/// The road car with a manual clutch and gearbox, a stall speed of 400 rpm, parked.
fn manual(auto_blip: bool) -> (App, Entity) {
    let mut s = preset_with("road", SweepType::Ray);
    s.clutch.automatic = false;
    s.gearbox.automatic = false;
    s.gearbox.auto_blip = auto_blip;
    s.engine.stall_rpm = 400.0;
    s.validate().unwrap();
    let (mut app, car) = on_flat(&s, HZ);
    run(&mut app, steps(1.0, HZ));
    (app, car)
}

/// Puts the car in `gear` with the engine at the speed its wheels give (at least idle).
fn in_gear(app: &mut App, car: Entity, gear: i32) {
    let v = velocity(app, car).length();
    let mut runtime = app.world_mut().get_mut::<VehicleRuntime>(car).unwrap();
    let settings = runtime.settings.clone().unwrap();
    let state = runtime.state.as_mut().unwrap();
    (state.gear, state.next_gear) = (gear, gear);
    let wheel = v / settings.axles[0].wheel.radius();
    state.engine_speed = (wheel * settings.gearbox.total_ratio(gear)).max(settings.engine.idle_rpm / RAD_PER_S_TO_RPM);
}

fn telemetry(app: &App, car: Entity) -> VehicleTelemetry {
    *app.world().get::<VehicleTelemetry>(car).unwrap()
}

/// Pulling away in sixth with the clutch let in at once: the engine stalls within a
/// second and the car has not reached walking pace; pedal down and throttle start it
/// at idle. In first, with the same engine, it pulls away.
#[test]
fn a_manual_launch_in_sixth_stalls() {
    let (mut app, car) = manual(true);
    in_gear(&mut app, car, 6);
    app.world_mut().get_mut::<VehicleInput>(car).unwrap().throttle = 1.0;
    run(&mut app, steps(1.0, HZ));
    let t = telemetry(&app, car);
    let v = velocity(&app, car).length();
    println!(
        "sixth: stalled {}, {:.0} rpm, {v:.2} m/s",
        t.powertrain.stalled, t.powertrain.engine_rpm
    );
    assert!(
        t.powertrain.stalled && v < 1.0,
        "sixth: stalled {}, {v} m/s",
        t.powertrain.stalled
    );
    // Restart: clutch pedal down and throttle.
    app.world_mut().get_mut::<VehicleInput>(car).unwrap().clutch = 1.0;
    run(&mut app, steps(0.5, HZ));
    let t = telemetry(&app, car);
    assert!(
        !t.powertrain.stalled && t.powertrain.engine_rpm > 700.0,
        "restart: {:?}",
        t.powertrain
    );
    // First gear, the clutch let in over a second: it pulls away.
    let (mut app, car) = manual(true);
    in_gear(&mut app, car, 1);
    for i in 0..steps(2.0, HZ) {
        let mut input = app.world_mut().get_mut::<VehicleInput>(car).unwrap();
        input.throttle = 0.5;
        input.clutch = (1.0 - i as f32 / HZ as f32).max(0.0);
        app.update();
    }
    let (t, v) = (telemetry(&app, car), velocity(&app, car).length());
    println!(
        "first: stalled {}, {:.0} rpm, {v:.2} m/s",
        t.powertrain.stalled, t.powertrain.engine_rpm
    );
    assert!(
        !t.powertrain.stalled && v > 2.0,
        "first: stalled {}, {v} m/s",
        t.powertrain.stalled
    );
}

/// The largest deceleration (g) over `seconds` after a downshift from fourth to third
/// at 25 m/s, throttle closed; and the one before it.
fn downshift_jolt(auto_blip: bool) -> (f32, f32) {
    let (mut app, car) = manual(auto_blip);
    launch(&mut app, car, 25.0);
    in_gear(&mut app, car, 4);
    let mut last = velocity(&app, car).length();
    let mut peak = |app: &mut App, seconds: f64| {
        let mut most = 0.0f32;
        for _ in 0..steps(seconds, HZ) {
            app.update();
            let v = velocity(app, car).length();
            most = most.max((last - v) * HZ as f32 / G);
            last = v;
        }
        most
    };
    let before = peak(&mut app, 0.5);
    app.world_mut().get_mut::<VehicleInput>(car).unwrap().gear_down = true;
    let after = peak(&mut app, 1.0);
    (before, after)
}

/// A downshift at 25 m/s: without a blip the clutch closes the engine's lost speed with
/// its torque and the car lurches (over 0.3 g); with `auto_blip` it decelerates no more
/// than engine braking does (under 0.1 g).
#[test]
fn a_downshift_without_a_blip_jolts() {
    let (before, blipped) = downshift_jolt(true);
    let (_, unblipped) = downshift_jolt(false);
    println!("engine braking {before:.3} g; downshift with a blip {blipped:.3} g, without {unblipped:.3} g");
    assert!(blipped < 0.1, "with a blip: {blipped} g");
    assert!(unblipped > 0.3, "without: {unblipped} g");
}
