//! One slip from a standstill to top speed, in the car with its real masses
//! (`docs/wheel-model.md` 3b–3c): a locked car slides against its contacts' velocities,
//! a wheel spinning on ice keeps its curve's grip at full slip, and a car coasting in
//! gear brakes on its engine.
use crate::common;

use avian3d::prelude::*;
use bevy::prelude::*;
use common::*;
use wheelcollider_avian::prelude::*;

fn input(app: &mut App, car: Entity, f: impl FnOnce(&mut VehicleInput)) {
    f(&mut app.world_mut().get_mut::<VehicleInput>(car).unwrap());
}

fn wheels(app: &App, car: Entity) -> Vec<Entity> {
    app.world().get::<ChassisWheels>(car).unwrap().wheels().to_vec()
}

fn telemetry(app: &App, car: Entity) -> VehicleTelemetry {
    *app.world().get::<VehicleTelemetry>(car).unwrap()
}

/// The velocity (world, m/s, horizontal) of wheel `w`'s contact over the ground:
/// `vx` along its forward direction, `vy = σ·V` along its sideways one, `V` the
/// lateral slip's reference speed `max(|vx|, |ω·r|, 0.5)`.
fn contact_velocity(app: &App, w: Entity, radius: f32) -> Vec3 {
    let o = output(app, w);
    let vx = o.output.ground_speed;
    let reference = vx
        .abs()
        .max((o.output.angular_velocity * radius).abs())
        .max(wheelcollider_core::RELAXED_LATERAL_MIN_DENOMINATOR);
    let v = o.forward_direction * vx + o.sideways_direction * o.output.sideways_slip * reference;
    Vec3::new(v.x, 0.0, v.z)
}

/// The tyre's force on the chassis in the ground plane (world, N).
fn tyre_force(app: &App, w: Entity) -> Vec3 {
    let o = output(app, w);
    let f = o.forward_direction * o.output.forward_force + o.sideways_direction * o.output.sideways_force;
    Vec3::new(f.x, 0.0, f.z)
}

/// The road car with every wheel locked (brakes at full pedal, ABS off), set sliding
/// at 1.5 m/s forward and 0.75 m/s sideways (26.6°). While it stops, at 30–240 Hz:
/// - each wheel's force lies within 3° of against its contact's sliding velocity when
///   that contact's speed passes 1.0 and 0.5 m/s (past the combined peak the force
///   turns to oppose the sliding velocity, whatever the two slips' denominators); 4° at
///   30 Hz, where a step's lag of the forces behind the body's pitch and roll turns the
///   slowest contacts' velocities (measured 3.64° at 0.5 m/s with the centre of mass at
///   0.55 m, 2.89° at the old 0.426 m; at 60 Hz and above at most 2.4°);
/// - when the car passes 1.0 m/s its acceleration lies within 1.5° of
///   `Σ −|F_i|·v̂_i` (each wheel's force magnitude along its own contact's sliding
///   direction: a yawing car's contacts slide different ways).
///
/// Checked: with the similarity method's direction kept past the peak (as it was) the
/// wheels push 26–32° off their sliding velocities (the longitudinal slip read against
/// 2 m/s, the lateral against the speed) and the path bends 18.5–20.3° by 0.5 m/s
/// (measured once at 19.4°); with the blend, 0.6–4.3°.
#[test]
fn a_locked_car_slides_against_its_contacts_velocities() {
    let mut failed = vec![];
    for hz in RATES {
        let mut s = preset("road");
        s.brakes.abs = false;
        let (mut app, car) = on_flat(&s, hz);
        run(&mut app, steps(1.0, hz));
        input(&mut app, car, |i| i.brake = 1.0);
        app.update();
        let ws = wheels(&app, car);
        let radius: Vec<f32> = (0..4).map(|k| s.axles[k / 2].wheel.radius()).collect();
        let rotation = app.world().get::<Rotation>(car).unwrap().0;
        app.world_mut().get_mut::<LinearVelocity>(car).unwrap().0 = rotation * Vec3::new(0.75, 0.0, -1.5);
        for &w in &ws {
            let mut state = app.world_mut().get_mut::<WheelState>(w).unwrap();
            state.step.angular_velocity = 0.0;
            (state.step.slip, state.step.patch) = ([0.0; 2], [0.0; 2]);
        }
        let start = velocity(&app, car);
        // Per wheel, the marks its own contact has still to pass.
        let mut marks = vec![vec![1.0f32, 0.5]; 4];
        let mut car_mark = true;
        let (mut worst_wheel, mut worst_car) = (0.0f32, 0.0f32);
        let (mut before, mut half) = (start, None);
        for _ in 0..steps(2.0, hz) {
            app.update();
            let now = velocity(&app, car);
            let speed = Vec3::new(now.x, 0.0, now.z).length();
            if speed < 0.05 {
                // Stopped (held longer, the automatic would select reverse).
                break;
            }
            let mut expected = Vec3::ZERO;
            for (k, &w) in ws.iter().enumerate() {
                let (v, f) = (contact_velocity(&app, w, radius[k]), tyre_force(&app, w));
                expected += -v.normalize_or_zero() * f.length();
                if let Some(&mark) = marks[k].first()
                    && v.length() < mark
                {
                    marks[k].remove(0);
                    let off = f.angle_between(-v).to_degrees();
                    println!(
                        "measured: locked road car at {hz} Hz, wheel {k} passing {mark} m/s: {off:.2}° off its sliding velocity"
                    );
                    worst_wheel = worst_wheel.max(off);
                }
            }
            if half.is_none() && speed < 0.5 {
                half = Some(now);
            }
            if car_mark && speed < 1.0 {
                car_mark = false;
                // The step that made `now` applied the forces read before it.
                let accel = (now - before) * hz as f32;
                let off = Vec3::new(accel.x, 0.0, accel.z).angle_between(expected).to_degrees();
                worst_car = off;
                println!("measured: locked road car at {hz} Hz passing 1 m/s: its acceleration {off:.2}° off Σ −|F|·v̂");
            }
            before = now;
        }
        let half = half.unwrap_or(start);
        let bend = Vec3::new(half.x, 0.0, half.z).angle_between(Vec3::new(start.x, 0.0, start.z));
        println!(
            "measured: locked road car at {hz} Hz: wheels at most {worst_wheel:.2}° off their sliding velocities, the path bent {:.1}° from 1.68 to 0.5 m/s",
            bend.to_degrees()
        );
        let left = marks.iter().map(Vec::len).sum::<usize>();
        let bound = if hz < 60.0 { 4.0 } else { 3.0 };
        if worst_wheel > bound || worst_car > 1.5 || left > 0 || car_mark {
            failed.push(format!(
                "{hz} Hz: wheels {worst_wheel}°, car {worst_car}°, marks left {left}"
            ));
        }
    }
    assert!(failed.is_empty(), "{failed:#?}");
}

/// Split μ, the road car (open front differential) with traction control off: full
/// throttle from rest with its left wheels on ice. The open differential gives both
/// front wheels the torque the spinning ice wheel reacts, so the car pulls at about
/// twice the ice wheel's force: within 15 % of `2·g_ice·μ(κ)·F_z / m`, the ice wheel's
/// force from the curve at its slip κ (read where the curve is fitted: a wheel spinning
/// at κ ≈ 1 keeps the curve's value at full slip), its load measured, over 1–3 s.
///
/// Checked: with the curve read past full slip (its extrapolated tail) the car pulls at
/// 0.306 m/s² against 0.442 (−31 %; measured once 0.285 against 0.595 on the old
/// denominator).
#[test]
fn a_wheel_spinning_on_ice_keeps_its_curves_grip_at_full_slip() {
    let mut s = preset("road");
    s.brakes.traction_control = false;
    let hz = 60.0;
    let mut app = app(hz);
    split_mu(&mut app);
    let car = spawn_preset_car(&mut app, &s, Transform::from_xyz(0.0, s.touch_height(), 0.0));
    run(&mut app, steps(1.0, hz));
    input(&mut app, car, |i| i.throttle = 1.0);
    run(&mut app, steps(1.0, hz));
    let ws = wheels(&app, car);
    let front = &s.axles[0].wheel;
    let ice = WheelSurface::ICE;
    let (v0, n) = (velocity(&app, car).length(), steps(2.0, hz));
    let (mut expected, mut slip) = (0.0f64, 0.0f64);
    for _ in 0..n {
        app.update();
        let o = output(&app, ws[0]).output;
        let kappa = o.transient_forward_slip as f64;
        // The curve on ice: its slope kept (B × stiffness / grip), its peak × grip.
        let mu = ice.grip as f64
            * front.longitudinal_friction((kappa * (ice.stiffness / ice.grip) as f64) as f32, o.load as f64) as f64;
        expected += 2.0 * mu * o.load as f64 / s.chassis.mass as f64 / n as f64;
        slip += kappa / n as f64;
    }
    let accel = (velocity(&app, car).length() - v0) as f64 / 2.0;
    println!(
        "measured: split μ, open front differential: {accel:.3} m/s² against twice the ice wheel's curve {expected:.3} m/s² (its slip {slip:.2})"
    );
    assert!(slip > 0.5, "the ice wheel spins: κ {slip}");
    assert!((accel / expected - 1.0).abs() < 0.15, "{accel} vs {expected}");
}

/// A static slope 4 km long down −Z (and up +Z), 20 m wide, its top face through the
/// origin, turned by `slope`.
fn long_slope(app: &mut App, slope: Quat) {
    app.world_mut().spawn((
        RigidBody::Static,
        Collider::cuboid(20.0, 2.0, 4000.0),
        Transform::from_rotation(slope) * Transform::from_xyz(0.0, -1.0, -1900.0),
    ));
}

/// The road car with a manual gearbox (its automatic clutch kept) stopped nose down on
/// a 10 % slope in second, the brake released: the automatic clutch closes as the
/// wheels turn the gearbox input past its bite, the engine brakes, and the car settles
/// at a terminal speed: under 0.3 m/s of change over the last 5 of 60 s, the engine
/// above idle, the terminal speed the same at 30–240 Hz within 3 %.
///
/// Checked: with the clutch engaging on the engine's speed alone it stays open, the
/// engine idles at 800 rpm and the car rolls away, 35.1 → 37.1 m/s over the last 5 s
/// (measured once: 25.1 → 28.0 m/s over the last 5 of 40 s).
#[test]
fn coasting_in_gear_down_a_hill_reaches_a_terminal_speed() {
    let grade = 0.1f32.atan();
    let mut terminal = vec![];
    let mut failed = vec![];
    for hz in RATES {
        let mut s = preset("road");
        s.gearbox.automatic = false;
        let slope = Quat::from_rotation_x(-grade);
        let mut app = app(hz);
        long_slope(&mut app, slope);
        let start = Transform::from_rotation(slope) * Transform::from_xyz(0.0, s.touch_height(), 0.0);
        let car = spawn_preset_car(&mut app, &s, start);
        app.update();
        set_gear(&mut app, car, 2);
        input(&mut app, car, |i| i.brake = 1.0);
        run(&mut app, steps(1.0, hz));
        input(&mut app, car, |i| i.brake = 0.0);
        run(&mut app, steps(55.0, hz));
        let v55 = velocity(&app, car).length();
        run(&mut app, steps(5.0, hz));
        let (v60, t) = (velocity(&app, car).length(), telemetry(&app, car));
        println!(
            "measured: road car coasting in second down 10 % at {hz} Hz: {v55:.2} → {v60:.2} m/s over the last 5 s, engine {:.0} rpm, clutch {:.2}",
            t.powertrain.engine_rpm, t.powertrain.clutch_engagement
        );
        if (v60 - v55).abs() > 0.3 || t.powertrain.engine_rpm < s.engine.idle_rpm * 1.1 {
            failed.push(format!("{hz} Hz: {v55} → {v60} m/s, {} rpm", t.powertrain.engine_rpm));
        }
        terminal.push(v60);
    }
    let (lo, hi) = terminal
        .iter()
        .fold((f32::MAX, 0.0f32), |(l, h), &v| (l.min(v), h.max(v)));
    println!(
        "measured: terminal speeds {terminal:.2?} m/s, {:.2} % apart",
        (hi / lo - 1.0) * 100.0
    );
    assert!(failed.is_empty(), "{failed:#?}");
    assert!(hi / lo - 1.0 < 0.03, "{terminal:?}");
}

/// A standstill burnout: the GT86 (rear drive, Torsen) with its aids off, the brakes
/// all on the front axle (a line lock) at full pedal, full throttle for 4 s, then off.
/// Its rear tyres spin at full slip, κ within 0.1 of 1 (the slip reads against the
/// surface speed) while the front brakes hold the car: it creeps under 1 cm in the 4 s,
/// at 30–240 Hz (measured 1.1–4.3 mm). Printed: how long after the throttle is released
/// the rear wheels stop spinning and their force falls through zero. Checked: with the
/// slip read against the road speed's 2 m/s floor, as it was, κ reads 8.1.
#[test]
fn a_standstill_burnout_spins_at_full_slip_and_does_not_creep() {
    let mut failed = vec![];
    for hz in RATES {
        let mut s = preset("gt86");
        s.brakes.traction_control = false;
        s.brakes.abs = false;
        s.assists.yaw_stability.enabled = false;
        s.brakes.front_bias = 1.0;
        let (mut app, car) = on_flat(&s, hz);
        run(&mut app, steps(1.0, hz));
        input(&mut app, car, |i| (i.brake, i.throttle) = (1.0, 1.0));
        let ws = wheels(&app, car);
        run(&mut app, steps(0.5, hz));
        let start = position(&app, car);
        run(&mut app, steps(4.0, hz));
        let creep = (position(&app, car) - start).length();
        let rear = output(&app, ws[2]).output;
        input(&mut app, car, |i| i.throttle = 0.0);
        let (mut stopped, mut reversed) = (None, None);
        for n in 1..=steps(1.0, hz) {
            app.update();
            let o = output(&app, ws[2]).output;
            let t = n as f64 / hz;
            if stopped.is_none() && (o.angular_velocity * s.axles[1].wheel.radius()).abs() < 0.1 {
                stopped = Some(t);
            }
            if reversed.is_none() && o.forward_force <= 0.0 {
                reversed = Some(t);
            }
        }
        println!(
            "measured: GT86 burnout at {hz} Hz: rear κ {:.3} at {:.1} m/s of surface speed, creep {:.2} mm in 4 s; off the throttle the rear stops after {stopped:?} s, its force through zero after {reversed:?} s",
            rear.forward_slip,
            rear.angular_velocity * s.axles[1].wheel.radius(),
            creep * 1e3
        );
        if creep > 0.01 || (rear.forward_slip - 1.0).abs() > 0.1 {
            failed.push(format!("{hz} Hz: creep {creep} m, κ {}", rear.forward_slip));
        }
    }
    assert!(failed.is_empty(), "{failed:#?}");
}

/// The times (s) the car from `settings` takes from rest to each of `targets` (m/s,
/// rising) at 60 Hz with the accelerator at `throttle` until second gear and full after;
/// `f64::INFINITY` for a target not reached in 15 s.
fn launch_times(settings: &VehicleSettings, throttle: f32, targets: [f32; 2]) -> [f64; 2] {
    let hz = 60.0;
    let (mut app, car) = on_flat(settings, hz);
    run(&mut app, steps(1.0, hz));
    let mut times = [f64::INFINITY; 2];
    for n in 1..=steps(15.0, hz) {
        let gear = telemetry(&app, car).powertrain.gear;
        input(&mut app, car, |i| i.throttle = if gear >= 2 { 1.0 } else { throttle });
        app.update();
        let v = velocity(&app, car).length();
        for (t, target) in times.iter_mut().zip(targets) {
            if t.is_infinite() && v >= target {
                *t = n as f64 / hz;
            }
        }
        if times[1].is_finite() {
            break;
        }
    }
    times
}

/// Traction control costs no more than a good driver's foot: the GT86's 0–50 and
/// 0–100 km/h with it on (full throttle) are within 3 % of the best of its launches
/// with it off and the accelerator held at 50–100 % until second gear (a driver
/// feathering the throttle against wheelspin). Checked: with traction control letting
/// the tyres use 85 % of their budget instead of 98.5 %, the 0–50 km/h is 12.8 % slower
/// than the best scripted one and the test fails (the 0–100 alone, +2.8 %, would not).
/// Measured: 3.13 s and 8.25 s, the best scripted launch's to 0.01 s (95 % throttle).
#[test]
fn traction_control_launches_as_well_as_a_scripted_throttle() {
    let targets = [50.0 / 3.6, 100.0 / 3.6];
    let gt86 = preset("gt86");
    let with = launch_times(&gt86, 1.0, targets);
    let mut off = gt86.clone();
    off.brakes.traction_control = false;
    off.assists.yaw_stability.enabled = false;
    let scripted: Vec<(f32, [f64; 2])> = [0.5f32, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95, 1.0]
        .iter()
        .map(|&t| (t, launch_times(&off, t, targets)))
        .collect();
    for (k, name) in ["0–50", "0–100"].iter().enumerate() {
        let best = scripted.iter().map(|(_, s)| s[k]).fold(f64::INFINITY, f64::min);
        let runs: Vec<String> = scripted.iter().map(|(t, s)| format!("{t}: {:.2}", s[k])).collect();
        println!(
            "measured: GT86 {name} km/h with traction control {:.2} s; off, by throttle until second gear: {}; best {best:.2} s ({:+.1} %)",
            with[k],
            runs.join(", "),
            100.0 * (with[k] / best - 1.0)
        );
        assert!(with[k] <= best * 1.03, "{name}: {} against {best}", with[k]);
    }
}
