//! The driveline as one solve, in a full car with real masses, at 30–240 Hz: a wheel
//! spun alone through an open differential carries a quarter of the drivetrain, a
//! locked axle's wheels turn as one, a limited-slip differential holds its bias ratio,
//! and the launch does not depend on the step size (`docs/vehicle.md`, "The
//! driveline").
use crate::common;

use avian3d::prelude::*;
use bevy::prelude::*;
use common::*;
use std::time::Duration;
use wheelcollider_avian::prelude::*;
use wheelcollider_avian::vehicle::VehicleRuntime;

fn telemetry(app: &App, car: Entity) -> VehicleTelemetry {
    *app.world().get::<VehicleTelemetry>(car).unwrap()
}

fn input(app: &mut App, car: Entity, f: impl FnOnce(&mut VehicleInput)) {
    f(&mut app.world_mut().get_mut::<VehicleInput>(car).unwrap());
}

/// The wheel entity at driveline index `i` (`2·axle + right`).
fn wheel_at(app: &App, car: Entity, i: usize) -> Entity {
    app.world().get::<WheelDriveline>(car).unwrap().wheels[i]
}

fn spin(app: &App, wheel: Entity) -> f32 {
    app.world().get::<WheelOutput>(wheel).unwrap().output.angular_velocity
}

/// A wheel whose brake a test holds on, whatever the vehicle asks.
#[derive(Component)]
struct Held;

fn hold(mut wheels: Query<&mut WheelInput, With<Held>>) {
    for mut w in &mut wheels {
        w.brake_torque = 1.0e5;
    }
}

/// The road car (front-driven, open differential) floating clear of everything in first
/// gear with its clutch engaged, its front right wheel held by its brake: the front left
/// one spins up at `(η·r·T_e/2 − T_drag)/(J_w + J_r/4)`, `J_r = (J_gearbox + J_engine)·r²`,
/// within 5 % at every rate. A solve that split the reflected inertia J/2 per wheel (the
/// old feed-forward) gives `J_w + J_r/2`: 1.9× too slow (checked: with every step falling
/// back to that split the test fails).
#[test]
fn a_wheel_spun_alone_through_an_open_differential_carries_a_quarter() {
    for hz in RATES {
        let mut s = manual_gears("road");
        s.brakes.traction_control = false;
        s.assists.yaw_stability.enabled = false;
        s.validate().unwrap();
        let mut app = app(hz);
        app.add_systems(
            PhysicsSchedule,
            hold.after(VehicleSystems::Drive).before(WheelSystems::SenseAndSolve),
        );
        let car = spawn_preset_car(&mut app, &s, Transform::from_xyz(0.0, 5.0, 0.0));
        app.world_mut().entity_mut(car).insert(GravityScale(0.0));
        app.update();
        let (free, held) = (wheel_at(&app, car, 0), wheel_at(&app, car, 1));
        app.world_mut().entity_mut(held).insert(Held);
        set_gear(&mut app, car, 1);
        input(&mut app, car, |i| i.throttle = 0.5);
        let ratio = s.gearbox.total_ratio(1);
        let j_r = (s.gearbox.inertia + s.engine.inertia) * ratio * ratio;
        let j_w = s.axles[0].wheel.inertia();
        let eta = s.gearbox.efficiency;
        let (mut measured, mut expected, mut counted) = (0.0f64, 0.0f64, 0);
        let mut was_locked = false;
        for _ in 0..steps(1.0, hz) {
            let before = spin(&app, free);
            app.update();
            let t = telemetry(&app, car);
            let runtime = app.world().get::<VehicleRuntime>(car).unwrap();
            let locked = runtime.state.as_ref().unwrap().clutch_locked;
            let rpm = t.powertrain.engine_rpm;
            // Clutch locked this step and the last, below the limiter's band.
            if locked && was_locked && rpm < s.engine.redline_rpm - 300.0 {
                let drive = eta * ratio * t.powertrain.engine_torque / 2.0 - s.gearbox.drag_torque;
                measured += (spin(&app, free) - before) as f64;
                expected += (drive / (j_w + j_r / 4.0)) as f64 / hz;
                counted += 1;
            }
            was_locked = locked;
            assert!(spin(&app, held).abs() < 1e-3, "{hz} Hz: the held wheel turns");
        }
        let error = measured / expected - 1.0;
        println!(
            "measured: {hz} Hz: free wheel +{measured:.1} rad/s over {counted} steps, closed form +{expected:.1} ({:+.2} %); J_w {j_w}, J_r/4 {:.2} kg·m²",
            100.0 * error,
            j_r / 4.0
        );
        assert!(counted as f64 > 0.2 * hz, "{hz} Hz: only {counted} steps counted");
        assert!(error.abs() < 0.05, "{hz} Hz: {:+.1} %", 100.0 * error);
    }
}

/// The kart's locked rear axle at full lock at 3 m/s (the `full-lock-circle`
/// manoeuvre's crawl): both rear wheels at one speed every step (a locked axle is one
/// shaft), and a smooth rear lateral force (RMS about its trend under 2 % of the
/// axle's load; the feed-forward coupling stick-slipped at 15 %).
#[test]
fn a_locked_axle_crawls_at_full_lock_as_one_shaft() {
    for hz in RATES {
        let s = preset_with("kart", SweepType::Ray);
        let (mut app, car) = on_flat(&s, hz);
        run(&mut app, steps(1.0, hz));
        launch(&mut app, car, 3.0);
        let (rl, rr) = (wheel_at(&app, car, 2), wheel_at(&app, car, 3));
        let mut lateral = Vec::new();
        let mut load = 0.0f64;
        let mut worst = 0.0f32;
        for n in 0..steps(8.0, hz) {
            // Full lock, the throttle and brake holding 3 m/s.
            let v = velocity(&app, car).length();
            input(&mut app, car, |i| {
                i.steer = 1.0;
                i.throttle = (0.5 * (3.0 - v)).clamp(0.0, 1.0);
                i.brake = (0.5 * (v - 3.3)).clamp(0.0, 1.0);
            });
            app.update();
            let (a, b) = (spin(&app, rl), spin(&app, rr));
            worst = worst.max((a - b).abs());
            if n as f64 >= 3.0 * hz {
                let o = |w| app.world().get::<WheelOutput>(w).unwrap().output;
                let (l, r) = (o(rl), o(rr));
                lateral.push((l.sideways_force + r.sideways_force) as f64);
                load += (l.load + r.load) as f64;
            }
        }
        load /= lateral.len() as f64;
        let rms = rms_about_trend(&lateral, (hz / 2.0) as usize);
        println!(
            "measured: kart crawl at {hz} Hz, {:.2} m/s, rear spin {:.2} rad/s: rear spins differ by at most {worst:.2e} rad/s; rear lateral force RMS about its trend {:.2} % of load ({load:.0} N)",
            velocity(&app, car).length(),
            spin(&app, rl),
            100.0 * rms / load
        );
        assert!(
            worst < 1e-3,
            "{hz} Hz: the locked axle's wheels differ by {worst} rad/s"
        );
        assert!(rms < 0.02 * load, "{hz} Hz: lateral RMS {rms:.1} N on {load:.0} N");
    }
}

/// The RMS (same unit as `x`) of `x` about its centred moving average over `window`
/// samples.
fn rms_about_trend(x: &[f64], window: usize) -> f64 {
    let h = window.max(1) / 2;
    let n = x.len();
    let mut sum = 0.0;
    let mut count = 0;
    for i in h..n.saturating_sub(h) {
        let mean = x[i - h..=i + h].iter().sum::<f64>() / (2 * h + 1) as f64;
        sum += (x[i] - mean).powi(2);
        count += 1;
    }
    (sum / count.max(1) as f64).sqrt()
}

/// Seconds from rest to 100 km/h at full throttle, the steps' sizes from `dt`.
fn zero_to_100(s: &VehicleSettings, hz: f64, mut dt: impl FnMut() -> f64) -> f64 {
    let (mut app, car) = on_flat(s, hz);
    run(&mut app, steps(1.0, hz));
    input(&mut app, car, |i| i.throttle = 1.0);
    let (mut t, mut v0) = (0.0, 0.0);
    while t < 30.0 {
        let step = dt();
        set_step(&mut app, Duration::from_secs_f64(step));
        app.update();
        let v = velocity(&app, car).length() as f64;
        if v >= 100.0 / 3.6 {
            // The crossing, between the last two steps.
            return t + step * (100.0 / 3.6 - v0) / (v - v0);
        }
        (t, v0) = (t + step, v);
    }
    panic!("{hz} Hz: no 100 km/h in 30 s");
}

/// The 0–100 km/h of `s` at 30, 60, 120 and 240 Hz and at step sizes jittering between
/// 1/90 and 1/45 s, each with its name, and the spread (largest over smallest − 1).
fn launches(s: &VehicleSettings, what: &str) -> f64 {
    let mut times: Vec<(String, f64)> = RATES
        .iter()
        .map(|&hz| (format!("{hz} Hz"), zero_to_100(s, hz, || 1.0 / hz)))
        .collect();
    let mut random = Rng::new(7);
    let jitter = zero_to_100(s, 60.0, || 1.0 / (45.0 + 45.0 * random.unit()));
    times.push(("jittering 45–90 Hz".into(), jitter));
    let (lo, hi) = times
        .iter()
        .fold((f64::MAX, 0.0f64), |(lo, hi), (_, t)| (lo.min(*t), hi.max(*t)));
    for (name, t) in &times {
        println!("measured: {what} 0–100 km/h at {name}: {t:.2} s");
    }
    hi / lo - 1.0
}

/// The road car's 0–100 km/h at 30, 60, 120 and 240 Hz and at step sizes jittering
/// between 1/90 and 1/45 s: within 2 % of each other. As shipped, its 2–3 upshift
/// (6 300 rpm, with the front tyres' slip) falls within a few km/h of 100 km/h, so
/// whether the 0.25 s shift lands before or after the mark swings the time by 3–4 %
/// whatever the physics does (printed); the bound is on the car shifting up at 6 700
/// rpm, past 100 km/h in second.
#[test]
fn the_launch_does_not_depend_on_the_step() {
    let shipped = preset_with("road", SweepType::Ray);
    let spread = launches(&shipped, "road car");
    println!("measured: road car as shipped: spread {:.1} %", 100.0 * spread);
    let mut s = shipped.clone();
    s.gearbox.shift_up_rpm = s.engine.redline_rpm - 100.0;
    let spread = launches(&s, "road car shifting at 6 700 rpm");
    println!("measured: shifting at 6 700 rpm: spread {:.1} %", 100.0 * spread);
    assert!(spread < 0.02, "spread {:.1} %", 100.0 * spread);
}

/// The GT86 launched on split μ (left rear on ice, right on asphalt; traction control
/// and ESC off), and the same car with its Torsen's locking swept 0–0.9, over the 2nd
/// to 4th second of full throttle: the differential's torques obey
/// `T_asphalt ≤ B·T_ice + preload/(1 − k)` (`B = (1 + k)/(1 − k)`), and at the ground
/// the asphalt wheel's force stays within `B ×` the ice wheel's plus the preload's
/// share, within 10 % (each wheel's torque at the road: force × radius, its rolling
/// resistance and the gearbox's drag, and what its spin took, `J·Δω/Δt`), reaching
/// it where the differential slips the whole time. Checked: with the capacity moved
/// whole from side to side (the old law) the GT86's asphalt wheel gets 5.8× the ice
/// wheel's torque and the test fails.
#[test]
fn a_limited_slip_differential_holds_its_bias_ratio_on_split_mu() {
    let cases = [
        (60.0, None),
        (30.0, None),
        (240.0, None),
        (60.0, Some(0.0)),
        (60.0, Some(0.3)),
        (60.0, Some(0.6)),
        (60.0, Some(0.9)),
    ];
    for (hz, locking) in cases {
        let mut s = preset_with("gt86", SweepType::Ray);
        s.brakes.traction_control = false;
        s.assists.yaw_stability.enabled = false;
        if let Some(k) = locking {
            s.axles[1].differential = DifferentialKind::LimitedSlip {
                preload: 20.0,
                locking: k,
                coast_locking: None,
            };
        }
        let (preload, k) = match s.axles[1].differential {
            DifferentialKind::LimitedSlip { preload, locking, .. } => (preload as f64, locking as f64),
            other => panic!("{other:?}"),
        };
        let bias = s.axles[1].differential.bias_ratio() as f64;
        let mut app = app(hz);
        split_mu(&mut app);
        let car = spawn_preset_car(&mut app, &s, Transform::from_xyz(0.0, s.touch_height(), 0.0));
        run(&mut app, steps(1.0, hz));
        let wheels = [wheel_at(&app, car, 2), wheel_at(&app, car, 3)];
        input(&mut app, car, |i| i.throttle = 1.0);
        run(&mut app, steps(2.0, hz));
        let (r, j) = (s.axles[1].wheel.radius() as f64, s.axles[1].wheel.inertia() as f64);
        let drag = s.gearbox.drag_torque as f64;
        let start = wheels.map(|w| spin(&app, w) as f64);
        // Per wheel: Σ solved torque, Σ torque at the road (force·r + rolling + drag).
        let (mut solved, mut road, mut slipping) = ([0.0f64; 2], [0.0f64; 2], 0usize);
        let n = steps(2.0, hz);
        for _ in 0..n {
            app.update();
            let d = app.world().get::<WheelDriveline>(car).unwrap().drive;
            for (side, &w) in wheels.iter().enumerate() {
                let o = app.world().get::<WheelOutput>(w).unwrap().output;
                solved[side] += d[2 + side] as f64;
                road[side] += (o.forward_force + o.rolling_resistance_force) as f64 * r + drag;
            }
            slipping += ((spin(&app, wheels[0]) - spin(&app, wheels[1])).abs() > 1.0) as usize;
        }
        let n_f = n as f64;
        let seconds = n_f / hz;
        let taken = |side: usize| j * (spin(&app, wheels[side]) as f64 - start[side]) / seconds;
        let [t_ice, t_grip] = solved.map(|t| t / n_f);
        let [w_ice, w_grip] = [road[0] / n_f + taken(0), road[1] / n_f + taken(1)];
        let share = preload / (1.0 - k);
        let (bound_solved, bound_road) = (bias * t_ice + share, bias * w_ice + share);
        println!(
            "measured: GT86 split μ at {hz} Hz, locking {k} (bias {bias:.2}): solved torques ice {t_ice:.1}, asphalt {t_grip:.1} N·m (bound {bound_solved:.1}); at the road ice {w_ice:.1}, asphalt {w_grip:.1} N·m (bound {bound_road:.1}, asphalt force {:.0} N); slipping {slipping} of {n} steps",
            road[1] / n_f / r
        );
        assert!(
            t_grip <= bound_solved * (1.0 + 1e-3),
            "{hz} Hz, k {k}: solved {t_grip} > {bound_solved}"
        );
        assert!(
            w_grip <= 1.1 * bound_road,
            "{hz} Hz, k {k}: at the road {w_grip} > {bound_road}"
        );
        if slipping == n {
            assert!(
                t_grip >= bound_solved * (1.0 - 1e-3),
                "{hz} Hz, k {k}: slipping, {t_grip} < {bound_solved}"
            );
            assert!(
                w_grip >= 0.9 * bound_road,
                "{hz} Hz, k {k}: slipping, at the road {w_grip} < {bound_road}"
            );
        }
    }
}

/// Donuts and burnouts are solved, not split: the GT86 (Torsen) and the rally car
/// (centre and axle differentials), aids off, at full lock and full throttle from rest
/// for 4 s, and the GT86 in a line-locked burnout (all the brake on the front axle):
/// every step's driveline solve finds the balance (`WheelDriveline::converged`), its
/// tyres far past their peak, at 30, 60, 120 and 240 Hz. Checked: with a collapsed
/// bracket refused and no bisection past `MAX_EVALUATIONS` (the solve as it was) the
/// rally car's donut falls back on 23 of 120 steps at 30 Hz and 10 of 960 at 240 Hz,
/// the GT86's donut and burnout on 2–3 steps at 30 and 60 Hz.
#[test]
fn donuts_and_burnouts_are_solved_in_the_car() {
    let mut failed = vec![];
    for (name, line_lock) in [("gt86", false), ("rally", false), ("gt86", true)] {
        for hz in RATES {
            let mut s = preset(name);
            s.brakes.traction_control = false;
            s.brakes.abs = false;
            s.assists.yaw_stability.enabled = false;
            if line_lock {
                s.brakes.front_bias = 1.0;
            }
            let (mut app, car) = on_flat(&s, hz);
            run(&mut app, steps(1.0, hz));
            input(&mut app, car, |i| {
                i.throttle = 1.0;
                if line_lock {
                    i.brake = 1.0;
                } else {
                    i.steer = 1.0;
                }
            });
            let (mut solved, mut steps_run, mut slip) = (0, 0, 0.0f32);
            for _ in 0..steps(4.0, hz) {
                app.update();
                let line = app.world().get::<WheelDriveline>(car).unwrap();
                if line.rounds > 0 {
                    steps_run += 1;
                    solved += line.converged as usize;
                }
                let rear = wheel_at(&app, car, 2);
                slip = slip.max(app.world().get::<WheelOutput>(rear).unwrap().output.forward_slip);
            }
            let what = if line_lock { "burnout" } else { "donut" };
            println!(
                "measured: {name} {what} at {hz} Hz: {solved} of {steps_run} driveline solves converged, rear slip up to {slip:.2}"
            );
            if solved != steps_run || steps_run < steps(3.9, hz) {
                failed.push(format!("{name} {what} {hz} Hz: {solved} of {steps_run}"));
            }
        }
    }
    assert!(failed.is_empty(), "{failed:#?}");
}

/// A roll-on in the car: the road car (an automatic) rolling at 18 m/s in fourth, the
/// throttle floored. Its gearbox kicks down to second within 1.5 s (one gear at a
/// time), and it runs from 21 to 24 m/s in the time the plan's drive limit gives,
/// `∫ dv / a(v)` with `a = (F_2(v) − R(v))/(m + ΣJ_w/r² + (J_e + J_g)·i_2²/r²)`
/// (`VehicleSettings::drive_limit`: the engine moves the car and its spinning parts),
/// within 5 % (+2.9 to +4.0 % measured), at 30, 60 and 240 Hz. Checked that it fails:
/// without the kickdown it never takes second and takes 0.93 s (+25 %); read on the
/// mass alone (no spinning parts) the plan's time is 10 % short.
#[test]
fn a_floored_automatic_kicks_down_and_accelerates_as_the_plan_says() {
    let s = preset("road");
    // The plan's time from 21 to 24 m/s (midpoint rule, 0.01 m/s steps).
    let expected: f32 = (0..300).map(|k| 0.01 / s.drive_limit(21.005 + 0.01 * k as f32)).sum();
    for hz in [30.0, 60.0, 240.0] {
        let (mut app, car) = on_ground(&s, hz, Some(WheelSurface::ASPHALT));
        run(&mut app, steps(0.5, hz));
        launch_in_gear(&mut app, car, 18.0);
        set_gear(&mut app, car, 4);
        {
            let mut runtime = app.world_mut().get_mut::<VehicleRuntime>(car).unwrap();
            let state = runtime.state.as_mut().unwrap();
            state.engine_speed = 18.0 / s.drive_radius() * s.gearbox.total_ratio(4);
        }
        input(&mut app, car, |i| i.0.throttle = 1.0);
        let (mut second, mut from, mut to) = (None, None, None);
        for step in 0..steps(10.0, hz) {
            run(&mut app, 1);
            let t = (step + 1) as f32 / hz as f32;
            let v = velocity(&app, car).length();
            if second.is_none() && telemetry(&app, car).powertrain.gear == 2 {
                second = Some(t);
            }
            if from.is_none() && v >= 21.0 {
                from = Some(t);
            }
            if to.is_none() && v >= 24.0 {
                to = Some(t);
                break;
            }
        }
        let second = second.expect("kicked down to second");
        let took = to.expect("reached 24 m/s") - from.unwrap();
        println!(
            "measured: road car floored at 18 m/s in fourth, {hz} Hz: second gear after {second:.2} s; 21 to 24 m/s in {took:.3} s against the plan's {expected:.3} s ({:+.1} %)",
            100.0 * (took / expected - 1.0)
        );
        assert!(second < 1.5, "{hz} Hz: {second}");
        assert!((took / expected - 1.0).abs() < 0.05, "{hz} Hz: {took} vs {expected}");
    }
}
