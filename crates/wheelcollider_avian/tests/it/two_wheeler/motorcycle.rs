//! The motorcycle: the `mt07` preset, a vehicle of two single axles with a steering
//! head and a rider, ridden through the vehicle layer (engine, clutch, gearbox, brakes)
//! from a `VehicleInput` as a car is driven.

use crate::common::*;
use avian3d::prelude::*;
use bevy::prelude::*;
use wheelcollider_avian::prelude::*;
use wheelcollider_avian::two_wheeler::lean_of;
use wheelcollider_testing::presets::preset;

/// One reading of a ride.
#[derive(Clone, Copy, Debug)]
struct Reading {
    t: f32,
    /// Speed over ground (m/s).
    speed: f32,
    /// Lean (rad, positive left) and steer (rad, positive left).
    lean: f32,
    steer: f32,
    /// Yaw rate (rad/s, positive left).
    yaw_rate: f32,
    gear: i32,
    rpm: f32,
    /// The wheels' loads (N): front, rear.
    loads: [f32; 2],
    /// The wheels' compressions (m) and spins (rad/s): front, rear.
    compressions: [f32; 2],
    spins: [f32; 2],
    /// The chassis' pitch rate (rad/s, nose up positive).
    pitch_rate: f32,
    position: Vec3,
}

/// The MT-07 on flat asphalt at `hz`, at rest, its wheels just touching; `tune` edits its
/// settings first.
fn bike(hz: f64, tune: impl Fn(&mut VehicleSettings)) -> (App, Entity, [Entity; 2]) {
    let mut settings = preset("mt07");
    tune(&mut settings);
    let (mut app, bike) = on_ground(&settings, hz, Some(WheelSurface::ASPHALT));
    run(&mut app, 1);
    let mut wheels = [Entity::PLACEHOLDER; 2];
    for &w in app.world().get::<ChassisWheels>(bike).unwrap().wheels() {
        let id = *app.world().get::<VehicleWheel>(w).unwrap();
        wheels[id.axle] = w;
    }
    (app, bike, wheels)
}

fn read(app: &App, bike: Entity, wheels: [Entity; 2], t: f32) -> Reading {
    let q = rotation(app, bike);
    let w = app.world().get::<AngularVelocity>(bike).unwrap().0;
    let (lean, _) = lean_of(q, w);
    let head = app.world().get::<SteeringHead>(bike).unwrap();
    let telemetry = app.world().get::<VehicleTelemetry>(bike).unwrap();
    Reading {
        t,
        speed: velocity(app, bike).with_y(0.0).length(),
        lean,
        steer: head.angle,
        yaw_rate: w.y,
        gear: telemetry.powertrain.gear,
        rpm: telemetry.powertrain.engine_rpm,
        loads: wheels.map(|e| output(app, e).output.load),
        compressions: wheels.map(|e| output(app, e).output.compression),
        spins: wheels.map(|e| output(app, e).output.angular_velocity),
        pitch_rate: w.dot(q * Vec3::X),
        position: position(app, bike),
    }
}

/// Rides `seconds` at `hz` from `v` (m/s, in gear) with the input `input(reading)`,
/// reading every step.
fn ride(
    hz: f64,
    seconds: f64,
    v: f32,
    tune: impl Fn(&mut VehicleSettings),
    input: impl Fn(&Reading) -> DriverInput,
) -> Vec<Reading> {
    let (mut app, bike, wheels) = bike(hz, tune);
    if v > 0.0 {
        launch_in_gear(&mut app, bike, v);
    }
    let riderless = env("RIDERLESS", 0.0) > 0.0;
    if riderless {
        app.world_mut().entity_mut(bike).remove::<Rider>();
    }
    let mut out = vec![read(&app, bike, wheels, 0.0)];
    for i in 0..steps(seconds, hz) {
        let controls = input(out.last().unwrap());
        set_controls(&mut app, bike, |c| c.0 = controls);
        if riderless {
            let t = out.last().unwrap().t;
            app.world_mut().get_mut::<SteeringHead>(bike).unwrap().torque =
                if (1.0..1.1).contains(&t) { env("PUSH", 5.0) } else { 0.0 };
        }
        run(&mut app, 1);
        out.push(read(&app, bike, wheels, (i + 1) as f32 / hz as f32));
    }
    out
}

/// The throttle that holds `v` (m/s): proportional, within 0..=1, gentle (a stiffer
/// hold feeds the pitch: the speed read at the centre of mass swings with it, and the
/// throttle's swing at the rear tyre pitches the bike further).
fn hold(r: &Reading, v: f32) -> f32 {
    (0.35 + 0.05 * (v - r.speed)).clamp(0.0, 1.0)
}

fn print(readings: &[Reading], every: f32) {
    for r in readings
        .iter()
        .filter(|r| (r.t / every).fract() < 1e-3 || (r.t / every).fract() > 0.999)
    {
        println!(
            "t {:5.2} s  {:6.1} km/h  gear {}  {:5.0} rpm  lean {:+6.1}°  steer {:+6.2}°  yaw {:+.3}  loads {:5.0} {:5.0} N  at ({:+7.1}, {:+5.2}, {:+7.1})",
            r.t,
            r.speed * 3.6,
            r.gear,
            r.rpm,
            r.lean.to_degrees(),
            r.steer.to_degrees(),
            r.yaw_rate,
            r.loads[0],
            r.loads[1],
            r.position.x,
            r.position.y,
            r.position.z,
        );
        if env("DETAIL", 0.0) > 0.0 {
            println!(
                "      compressions {:.4} {:.4} m  spins {:.1} {:.1} rad/s  pitch rate {:+.3}",
                r.compressions[0], r.compressions[1], r.spins[0], r.spins[1], r.pitch_rate
            );
        }
    }
}

fn env(name: &str, default: f32) -> f32 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// Exploration: a lean asked at a held speed.
#[test]
fn the_motorcycle_rides() {
    let v = env("V", 15.0);
    let lean = env("LEAN", 10.0);
    let tune = |s: &mut VehicleSettings| {
        let r = &mut s.two_wheeler.as_mut().unwrap().rider;
        r.lean_gain = env("KP", r.lean_gain);
        r.integral_gain = env("KI", r.integral_gain);
        r.lean_rate_gain = env("KD", r.lean_rate_gain);
        r.steer_rate_gain = env("KS", r.steer_rate_gain);
        r.gain_speed = env("GS", 15.0);
        s.two_wheeler.as_mut().unwrap().steering_damper = env("DAMPER", 0.0);
        for (i, a) in s.axles.iter_mut().enumerate() {
            let lat = a.wheel.lateral_tyre().clone();
            let b = env(if i == 0 { "BYF" } else { "BYR" }, lat.b());
            a.wheel.set_lateral_tyre(b, lat.c(), lat.d(), lat.e()).unwrap();
            let ct = env("CT", a.wheel.camber_thrust());
            a.wheel.set_camber_thrust(ct).unwrap();
            let lat = a.wheel.lateral_tyre().clone();
            a.wheel
                .set_lateral_tyre(env("BY", lat.b()), lat.c(), lat.d(), lat.e())
                .unwrap();
            let j = env(if i == 0 { "JF" } else { "JR" }, a.wheel.inertia());
            a.wheel.set_inertia(j).unwrap();
            let rl = env("RL", a.wheel.lateral_relaxation_length());
            a.wheel.set_lateral_relaxation_length(rl).unwrap();
        }
        if let Some(i) = s.chassis.inertia.as_mut() {
            i[1] = env("IYAW", i[1]);
            i[2] = env("IROLL", i[2]);
        }
        s.chassis.centre_of_mass[1] = env("CY", s.chassis.centre_of_mass[1]);
        let b = s.two_wheeler.as_mut().unwrap();
        b.rake = env("RAKE", b.rake);
        b.lock = env("LOCK", b.lock);
        b.front_mass = env("FM", b.front_mass);
        b.trail = env("TRAIL", b.trail);
        b.front_centre_of_mass[2] = env("FZ", b.front_centre_of_mass[2]);
    };
    let readings = ride(env("HZ", 60.0) as f64, 8.0, v, tune, |r| DriverInput {
        throttle: if env("KICK", 0.0) > 0.0 && (1.0..1.2).contains(&r.t) {
            1.0
        } else if env("THROTTLE", -1.0) >= 0.0 {
            env("THROTTLE", 0.0)
        } else {
            hold(r, v)
        },
        steer: if r.t > 1.0 { lean / 45.0 } else { 0.0 },
        ..default()
    });
    print(&readings, env("EVERY", 0.25));
    let peak = |a: f32, b: f32| {
        readings
            .iter()
            .filter(|r| (a..b).contains(&r.t))
            .map(|r| r.steer.abs().to_degrees())
            .fold(0.0, f32::max)
    };
    let pitch = |a: f32, b: f32| {
        readings
            .iter()
            .filter(|r| (a..b).contains(&r.t))
            .map(|r| r.pitch_rate.abs())
            .fold(0.0, f32::max)
    };
    println!(
        "pitch rate peaks: 1-1.5 s {:.3}, 1.5-2 s {:.3}, 2-2.5 s {:.3}, 2.5-3 s {:.3}, 3-3.5 s {:.3}",
        pitch(1.0, 1.5),
        pitch(1.5, 2.0),
        pitch(2.0, 2.5),
        pitch(2.5, 3.0),
        pitch(3.0, 3.5)
    );
    println!(
        "steer peaks: 1-1.5 s {:.3}°, 1.5-2 s {:.3}°, 2-2.5 s {:.3}°",
        peak(1.0, 1.5),
        peak(1.5, 2.0),
        peak(2.0, 2.5)
    );
}
