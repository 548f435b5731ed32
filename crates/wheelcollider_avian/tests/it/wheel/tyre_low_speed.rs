//! The shipped presets' tyres (two curves, load law, relaxation lengths) at walking
//! pace, parked and spinning out: no oscillation in the lateral forces, no creep. A
//! relaxation length makes the tyre a spring at low speed; these check that the lag,
//! its 0.5 m/s floor, the length's stability bound, the transient slip's bound and the
//! low-speed damping leave it a calm one at every rate.
use crate::common;
use avian3d::prelude::{AngularVelocity, SleepingDisabled};
use bevy::prelude::*;
use common::*;
use wheelcollider_avian::prelude::*;

/// The RMS of `f` about its least-squares parabola in time: what is left once the
/// slow drift of a coasting, slowing car is taken out. An oscillation is not a parabola.
#[allow(clippy::needless_range_loop)] // a 3×3 elimination reads best with indices
fn rms_about_trend(f: &[f32]) -> f32 {
    let n = f.len();
    let t = |i: usize| 2.0 * i as f64 / (n - 1) as f64 - 1.0;
    // Normal equations for a + b·t + c·t².
    let (mut m, mut r) = ([[0.0f64; 3]; 3], [0.0f64; 3]);
    for (i, &v) in f.iter().enumerate() {
        let p = [1.0, t(i), t(i) * t(i)];
        for a in 0..3 {
            r[a] += p[a] * v as f64;
            for b in 0..3 {
                m[a][b] += p[a] * p[b];
            }
        }
    }
    // Gaussian elimination (the matrix is symmetric positive definite).
    for k in 0..3 {
        for a in k + 1..3 {
            let q = m[a][k] / m[k][k];
            for b in k..3 {
                m[a][b] -= q * m[k][b];
            }
            r[a] -= q * r[k];
        }
    }
    let mut c = [0.0f64; 3];
    for k in (0..3).rev() {
        c[k] = (r[k] - (k + 1..3).map(|b| m[k][b] * c[b]).sum::<f64>()) / m[k][k];
    }
    let sq: f64 = f
        .iter()
        .enumerate()
        .map(|(i, &v)| (v as f64 - c[0] - c[1] * t(i) - c[2] * t(i) * t(i)).powi(2))
        .sum();
    (sq / n as f64).sqrt() as f32
}

/// The largest RMS (N) of a wheel's lateral force about its trend over `seconds`
/// ([`rms_about_trend`]), and that wheel's mean load.
fn lateral_rms(app: &mut App, car: Entity, seconds: f64, hz: f64) -> (f32, f32) {
    let wheels = app.world().get::<ChassisWheels>(car).unwrap().wheels().to_vec();
    let mut samples = vec![vec![]; wheels.len()];
    let mut loads = vec![0.0f32; wheels.len()];
    for _ in 0..steps(seconds, hz) {
        run(app, 1);
        for (i, &w) in wheels.iter().enumerate() {
            let s = output(app, w);
            samples[i].push(s.output.sideways_force);
            loads[i] += s.output.load;
        }
    }
    let mut worst = (0.0f32, 0.0f32);
    for (i, f) in samples.iter().enumerate() {
        let rms = rms_about_trend(f);
        if rms > worst.0 {
            worst = (rms, loads[i] / f.len() as f32);
        }
    }
    worst
}

/// A car from `settings` on flat asphalt at `hz`, settled for a second and launched
/// straight ahead at `v` (m/s).
fn rolling(settings: &VehicleSettings, hz: f64, v: f32) -> (App, Entity) {
    let (mut app, car) = on_flat(settings, hz);
    run(&mut app, steps(1.0, hz));
    launch(&mut app, car, v);
    (app, car)
}

/// Crawling at 0.5, 1 and 2 m/s, straight and with a quarter of the lock, each preset
/// at 30, 60 and 240 Hz: after a second to settle, no wheel's lateral force varies by
/// more than 1 % of its load (RMS about its trend) over the next two seconds (the kart
/// at 30 Hz, below its rate, 2 %).
#[test]
fn crawling_cars_have_calm_lateral_forces() {
    let mut failed = vec![];
    for name in PRESETS {
        let settings = preset(name);
        for hz in [30.0, 60.0, 240.0] {
            for v in [0.5f32, 1.0, 2.0] {
                for steer in [0.0f32, 0.25] {
                    let (mut app, car) = rolling(&settings, hz, v);
                    app.world_mut().get_mut::<VehicleInput>(car).unwrap().0.steer = steer;
                    run(&mut app, steps(1.0, hz));
                    let (rms, load) = lateral_rms(&mut app, car, 2.0, hz);
                    eprintln!("measured: {name} {hz} Hz {v} m/s steer {steer}: lateral RMS {rms:.2} N at {load:.0} N");
                    // The kart at 30 Hz is below its rate (`docs/reliability.md`, known
                    // limits: karts want 120 Hz): 2 %.
                    let bound = if name == "kart" && hz == 30.0 { 0.02 } else { 0.01 };
                    if rms > bound * load {
                        failed.push(format!("{name} {hz} Hz {v} m/s steer {steer}: {rms} N RMS at {load} N"));
                    }
                }
            }
        }
    }
    assert!(failed.is_empty(), "{failed:#?}");
}

/// A car from `settings` on a slope turned by `slope`, brakes and handbrake on, kept
/// awake, after 3 s to settle.
fn parked(settings: &VehicleSettings, hz: f64, slope: Quat) -> (App, Entity) {
    let mut app = app(hz);
    spawn_ground(&mut app, slope);
    let start = Transform::from_rotation(slope) * Transform::from_xyz(0.0, settings.touch_height(), 0.0);
    let car = spawn_preset_car(&mut app, settings, start);
    app.world_mut().entity_mut(car).insert(SleepingDisabled);
    let mut input = app.world_mut().get_mut::<VehicleInput>(car).unwrap();
    (input.0.brake, input.0.handbrake) = (1.0, 1.0);
    run(&mut app, steps(3.0, hz));
    (app, car)
}

/// Parked across a 10° slope with the brakes on: the lateral forces hold the car still
/// (RMS about the trend below 0.5 % of the load), each preset at 30, 60 and 240 Hz.
#[test]
fn parked_cars_on_a_slope_have_steady_lateral_forces() {
    let slope = Quat::from_rotation_z(10f32.to_radians());
    for name in PRESETS {
        let settings = preset(name);
        for hz in [30.0, 60.0, 240.0] {
            let (mut app, car) = parked(&settings, hz, slope);
            let (rms, load) = lateral_rms(&mut app, car, 3.0, hz);
            eprintln!("measured: {name} {hz} Hz parked on 10°: lateral RMS {rms:.3} N at {load:.0} N");
            assert!(rms < 0.005 * load, "{name} {hz} Hz: {rms} N RMS at {load} N");
        }
    }
}

/// Parked nose up a 20° slope, brakes and handbrake on, the body kept awake: after 3 s
/// to settle, the tyres' contact patches (the mean of the wheels' contact points, in
/// the slope's plane) move less than 0.1 mm in the next 10 s, every preset at 30, 60
/// and 240 Hz (the kart at 30 Hz, below its rate, 0.2 mm). The body above them rocks
/// by a few tenths of a millimetre on its springs at 30 Hz (printed), which is not
/// creep.
#[test]
fn parked_on_20_degrees_does_not_creep() {
    let slope = Quat::from_rotation_x(20f32.to_radians());
    let mut failed = vec![];
    for name in PRESETS {
        let settings = preset(name);
        for hz in [30.0, 60.0, 240.0] {
            let (mut app, car) = parked(&settings, hz, slope);
            let wheels = app.world().get::<ChassisWheels>(car).unwrap().wheels().to_vec();
            let patches = |app: &App| {
                let sum: Vec3 = wheels.iter().map(|&w| output(app, w).contact_position).sum();
                let local = slope.inverse() * (sum / wheels.len() as f32);
                Vec2::new(local.x, local.z)
            };
            let (p0, body0) = (patches(&app), position(&app, car));
            run(&mut app, steps(10.0, hz));
            let moved = (patches(&app) - p0).length();
            let body = (position(&app, car) - body0).length();
            eprintln!(
                "measured: {name} {hz} Hz parked on 20°: the patches moved {:.4} mm in 10 s, the body {:.4} mm",
                moved * 1000.0,
                body * 1000.0
            );
            // The kart at 30 Hz is below its rate (`docs/reliability.md`, known limits:
            // karts want 120 Hz): measured 0.11 mm.
            let bound = if name == "kart" && hz == 30.0 { 2e-4 } else { 1e-4 };
            if moved >= bound {
                failed.push(format!("{name} {hz} Hz: {} mm in 10 s", moved * 1000.0));
            }
        }
    }
    assert!(failed.is_empty(), "{failed:#?}");
}

/// A spin at 20 km/h: the car sliding forward at 20 km/h and turning at 3 rad/s, the
/// handbrake on (the rear wheels locked, the front ones rolling), until it stops. It
/// ends without a wobble: the heading never turns back by 1° or more from the furthest
/// it reached, and once the car has first come to rest (below 0.05 m/s) its centre of
/// mass moves less than 30 mm from there (a wound-up tyre would push it back the way
/// it slid). It may rock on its springs as a car does that stops sliding sideways: the
/// body's roll moves its centre of mass at up to 0.1 m/s over about 15 mm (printed).
/// Every preset at 60 and 240 Hz. Checked: with the relaxation length fixed (not
/// shortened towards the peak, 3c) the kart at 60 Hz turns back 1.5° and moves 59 mm.
#[test]
fn a_spin_at_20_kmh_ends_without_a_wobble() {
    let mut failed = vec![];
    for name in PRESETS {
        let settings = preset(name);
        for hz in [60.0, 240.0] {
            let (mut app, car) = rolling(&settings, hz, 20.0 / 3.6);
            app.world_mut().get_mut::<AngularVelocity>(car).unwrap().0 = Vec3::Y * 3.0;
            app.world_mut().get_mut::<VehicleInput>(car).unwrap().0.handbrake = 1.0;
            let (mut back, mut turned, mut furthest, mut rebound) = (0.0f32, 0.0f32, 0.0f32, 0.0f32);
            let (mut stopped, mut after, mut rocked) = (None, 0.0f32, 0.0f32);
            let (mut rest, mut moved) = (Vec3::ZERO, 0.0f32);
            for i in 0..steps(10.0, hz) {
                run(&mut app, 1);
                let yaw = app.world().get::<AngularVelocity>(car).unwrap().0.y;
                back = back.max(-yaw);
                turned += yaw / hz as f32;
                furthest = furthest.max(turned);
                rebound = rebound.max(furthest - turned);
                let v = velocity(&app, car);
                let sideways = v.dot(rotation(&app, car) * Vec3::X).abs();
                match stopped {
                    None if v.length() < 0.05 => {
                        stopped = Some(i as f32 / hz as f32);
                        rest = position(&app, car);
                    }
                    Some(_) => {
                        (after, rocked) = (after.max(sideways), rocked.max(v.length()));
                        moved = moved.max((position(&app, car) - rest).with_y(0.0).length());
                    }
                    None => {}
                }
            }
            eprintln!(
                "measured: {name} {hz} Hz spin: turned {:.0}°, back {:.2}° at up to {back:.4} rad/s, at rest after {:.2} s, then sideways at most {after:.4} m/s (rocking on its springs {rocked:.3} m/s), {:.1} mm from where it came to rest",
                turned.to_degrees(),
                rebound.to_degrees(),
                stopped.unwrap_or(f32::NAN),
                moved * 1000.0
            );
            if rebound.to_degrees() >= 1.0 || stopped.is_none() || moved >= 0.03 {
                failed.push(format!(
                    "{name} {hz} Hz: turned back {}°, stopped {stopped:?}, then moved {moved} m",
                    rebound.to_degrees()
                ));
            }
        }
    }
    assert!(failed.is_empty(), "{failed:#?}");
}
