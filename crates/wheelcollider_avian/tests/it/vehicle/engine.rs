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
    let mut s = manual_gears("road");
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

/// The GT86 with its manual clutch and gearbox, parked in `gear` nose down on a slope
/// of `degrees`, its engine stalled, the clutch engaged: held on the brakes for 2 s,
/// then released. Returns how far it moved in the next 5 s (m), and whether the engine
/// is still stalled (rolling fast enough, the wheels bump start it).
fn stalled_in_gear_on(degrees: f32, gear: i32, hz: f64) -> (f32, bool) {
    let s = manual_gears("gt86");
    let slope = Quat::from_rotation_x(-degrees.to_radians());
    let mut app = app(hz);
    spawn_ground(&mut app, slope);
    let start = Transform::from_rotation(slope) * Transform::from_xyz(0.0, s.touch_height(), 0.0);
    let car = spawn_preset_car(&mut app, &s, start);
    app.update();
    {
        let mut runtime = app.world_mut().get_mut::<VehicleRuntime>(car).unwrap();
        let state = runtime.state.as_mut().unwrap();
        (state.gear, state.next_gear, state.stalled, state.engine_speed) = (gear, gear, true, 0.0);
    }
    app.world_mut().get_mut::<VehicleInput>(car).unwrap().brake = 1.0;
    run(&mut app, steps(2.0, hz));
    app.world_mut().get_mut::<VehicleInput>(car).unwrap().brake = 0.0;
    let parked = position(&app, car);
    run(&mut app, steps(5.0, hz));
    let stalled = telemetry(&app, car).powertrain.stalled;
    ((position(&app, car) - parked).length(), stalled)
}

/// Left in first with the engine stalled, the GT86 holds on a 5° slope with its brakes
/// off: its engine's breakaway (48 N·m × 14.9 / 0.9 at the wheels, enough for about
/// 11°) holds it, drift under 0.1 m in 5 s at 30–240 Hz; on 15° it rolls (over 1 m; and,
/// rolling, the wheels bump start it).
/// Checked: with `breakaway_torque: 0` the car rolls off the 5° slope.
#[test]
fn a_stalled_car_in_first_holds_on_a_hill() {
    for hz in RATES {
        let (drift, stalled) = stalled_in_gear_on(5.0, 1, hz);
        println!(
            "measured: stalled GT86 in first on 5° at {hz} Hz: {:.1} mm in 5 s",
            drift * 1e3
        );
        assert!(drift < 0.1 && stalled, "{hz} Hz: {drift} m, stalled {stalled}");
    }
    let (rolled, stalled) = stalled_in_gear_on(15.0, 1, 60.0);
    println!("measured: stalled GT86 in first on 15°: {rolled:.2} m in 5 s (stalled at the end: {stalled})");
    assert!(rolled > 1.0, "15°: {rolled} m");
}

/// A bump start: the stalled GT86 rolling at 3 m/s in second with the clutch pedal
/// down; the clutch let in, the wheels turn the engine past its restart speed (half way
/// from the stall speed to idle) and it runs, reported once in the telemetry.
#[test]
fn a_rolling_car_bump_starts_in_second() {
    for hz in RATES {
        let mut s = manual_gears("gt86");
        s.validate().unwrap();
        let (mut app, car) = on_flat(&s, hz);
        run(&mut app, steps(1.0, hz));
        launch(&mut app, car, 3.0);
        {
            let mut runtime = app.world_mut().get_mut::<VehicleRuntime>(car).unwrap();
            let state = runtime.state.as_mut().unwrap();
            (state.gear, state.next_gear, state.stalled, state.engine_speed) = (2, 2, true, 0.0);
        }
        app.world_mut().get_mut::<VehicleInput>(car).unwrap().clutch = 1.0;
        app.update();
        assert!(telemetry(&app, car).powertrain.stalled);
        app.world_mut().get_mut::<VehicleInput>(car).unwrap().clutch = 0.0;
        let (mut started, mut at) = (0, 0.0);
        for n in 0..steps(2.0, hz) {
            app.update();
            if telemetry(&app, car).powertrain.bump_started {
                started += 1;
                at = n as f64 / hz;
            }
        }
        let t = telemetry(&app, car);
        println!(
            "measured: bump start in second from 3 m/s at {hz} Hz: after {at:.2} s, {:.0} rpm 2 s on, {:.2} m/s",
            t.powertrain.engine_rpm,
            velocity(&app, car).length()
        );
        assert_eq!(started, 1, "{hz} Hz: reported {started} times");
        assert!(
            !t.powertrain.stalled && t.powertrain.engine_rpm > s.engine.stall_rpm,
            "{hz} Hz: {:?}",
            t.powertrain
        );
    }
}
