//! The shipped presets' tyres (two curves, load law) with typical relaxation lengths
//! added, at walking pace and parked: no oscillation in the lateral forces. A
//! relaxation length makes the tyre a spring at low speed; these check that the lag,
//! its 2 m/s floor, the length's stability bound and the low-speed damping leave it a
//! calm one at every rate.
use crate::common;
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
            let s = state(app, w);
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

/// A shipped preset with typical relaxation lengths (m, longitudinal and lateral):
/// road and GT86 0.15 / 0.45, rally 0.2 / 0.6, kart 0.08 / 0.2.
fn relaxed(name: &str) -> VehicleSettings {
    let mut settings = preset(name);
    let (lx, ly) = match name {
        "road" | "gt86" => (0.15, 0.45),
        "rally" => (0.2, 0.6),
        _ => (0.08, 0.2),
    };
    for a in &mut settings.axles {
        a.wheel.set_longitudinal_relaxation_length(lx).unwrap();
        a.wheel.set_lateral_relaxation_length(ly).unwrap();
    }
    settings
}

/// Crawling at 0.5, 1 and 2 m/s, straight and with a quarter of the lock, each preset
/// at 30, 60 and 240 Hz: after a second to settle, no wheel's lateral force varies by
/// more than 1 % of its load (RMS about its trend) over the next two seconds.
#[test]
fn crawling_cars_have_calm_lateral_forces() {
    for name in PRESETS {
        let settings = relaxed(name);
        for hz in [30.0, 60.0, 240.0] {
            for v in [0.5f32, 1.0, 2.0] {
                for steer in [0.0f32, 0.25] {
                    let mut app = app(hz);
                    flat(&mut app, None);
                    let car = spawn_preset_car(
                        &mut app,
                        &settings,
                        Transform::from_xyz(0.0, settings.touch_height(), 0.0),
                    );
                    run(&mut app, steps(1.0, hz));
                    launch(&mut app, car, v);
                    app.world_mut().get_mut::<VehicleInput>(car).unwrap().0.steer = steer;
                    run(&mut app, steps(1.0, hz));
                    let (rms, load) = lateral_rms(&mut app, car, 2.0, hz);
                    eprintln!("measured: {name} {hz} Hz {v} m/s steer {steer}: lateral RMS {rms:.2} N at {load:.0} N");
                    assert!(
                        rms < 0.01 * load,
                        "{name} {hz} Hz {v} m/s steer {steer}: {rms} N RMS at {load} N"
                    );
                }
            }
        }
    }
}

/// Parked across a 10° slope with the brakes on: the lateral forces hold the car still
/// (RMS about the trend below 0.5 % of the load), each preset at 30, 60 and 240 Hz.
#[test]
fn parked_cars_on_a_slope_have_steady_lateral_forces() {
    let slope = Quat::from_rotation_z(10f32.to_radians());
    for name in PRESETS {
        let settings = relaxed(name);
        for hz in [30.0, 60.0, 240.0] {
            let mut app = app(hz);
            spawn_ground(&mut app, slope);
            let start = Transform::from_rotation(slope) * Transform::from_xyz(0.0, settings.touch_height(), 0.0);
            let car = spawn_preset_car(&mut app, &settings, start);
            app.world_mut().get_mut::<VehicleInput>(car).unwrap().0.brake = 1.0;
            app.world_mut().get_mut::<VehicleInput>(car).unwrap().0.handbrake = 1.0;
            run(&mut app, steps(3.0, hz));
            let (rms, load) = lateral_rms(&mut app, car, 3.0, hz);
            eprintln!("measured: {name} {hz} Hz parked on 10°: lateral RMS {rms:.3} N at {load:.0} N");
            assert!(rms < 0.005 * load, "{name} {hz} Hz: {rms} N RMS at {load} N");
        }
    }
}
