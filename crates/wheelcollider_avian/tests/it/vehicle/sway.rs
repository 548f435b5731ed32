//! A caravan's sway behind the road car, in the car with real masses, against the
//! linear car-trailer model (Pacejka, *Tyre and Vehicle Dynamics*, §1.3.3; the core's
//! `SwayModel`).

use super::pairs::{hold_speed, telemetry};
use crate::common::*;
use bevy::prelude::*;
use wheelcollider_avian::prelude::*;
use wheelcollider_core::vehicle::SwayModel;

/// The caravan with its nose load moved to `nose` × its weight (by moving its centre
/// of mass along it).
fn caravan_with_nose(nose: f32) -> VehicleSettings {
    let mut trailer = preset("caravan");
    let (axle, coupling) = (trailer.axles[0].z, trailer.trailer.as_ref().unwrap().coupling[2]);
    trailer.chassis.centre_of_mass[2] = axle - nose * (axle - coupling);
    trailer
}

/// The road car, stability control on or off, on ray wheels.
fn road(esc: bool) -> VehicleSettings {
    let mut tow = preset_with("road", SweepType::Ray);
    tow.assists.yaw_stability.enabled = esc;
    tow
}

/// The caravan's sway after a steering pulse at `kmh`: the damping ratio from the
/// logarithmic decrement of the articulation's peaks after the first, and the frequency
/// (Hz) from its zero crossings. A damping ratio of 1: gone within a swing.
fn sway(tow: &VehicleSettings, trailer: &VehicleSettings, kmh: f32, hz: f64) -> (f32, f32, Vec<f32>) {
    let mut app = app(hz);
    flat(&mut app, None);
    let (car, caravan) = coupled_pair(&mut app, tow, trailer, 0.0);
    run(&mut app, steps(1.0, hz));
    let v = kmh / 3.6;
    launch(&mut app, car, v);
    launch(&mut app, caravan, v);
    run(&mut app, steps(2.0, hz));
    let mut yaw = vec![];
    for step in 0..steps(12.0, hz) {
        let t = step as f64 / hz;
        let steer = if t < 0.4 { 0.08 } else { 0.0 };
        hold_speed(&mut app, car, v, steer);
        app.update();
        if t > 0.4 {
            yaw.push(telemetry(&app, caravan).yaw);
        }
    }
    // The peaks of |θ| between sign changes, and the crossings' steps.
    let (mut peaks, mut crossings) = (vec![], vec![]);
    let mut best: f32 = 0.0;
    for (i, w) in yaw.windows(2).enumerate() {
        best = best.max(w[0].abs());
        if w[0].signum() != w[1].signum() && best > 0.02 {
            peaks.push(best);
            crossings.push(i as f32 + w[0].abs() / (w[0] - w[1]).abs());
            best = 0.0;
        }
    }
    let n = peaks.len().min(5);
    if n < 3 {
        return (1.0, 0.0, peaks);
    }
    let decrement = (peaks[1] / peaks[n - 1]).ln() / (n - 2) as f32;
    let zeta = decrement / (4.0 * std::f32::consts::PI.powi(2) + decrement * decrement).sqrt();
    let half_periods = (crossings[n - 1] - crossings[0]) / (n - 1) as f32 / hz as f32;
    (zeta, 0.5 / half_periods, peaks)
}

/// A caravan's sway after a steering pulse, stability control on as the car is sold:
/// its damping falls with speed, and a tail-heavy caravan (nose load −4 % of its
/// weight) sways less damped than one loaded to the guidance's 7 %, at 60, 90 and
/// 120 km/h.
#[test]
fn a_caravans_sway_damping_falls_with_speed_and_with_a_light_nose() {
    let mut table = vec![];
    for nose in [0.07, -0.04] {
        for kmh in [60.0, 90.0, 120.0] {
            let (zeta, f, peaks) = sway(&road(true), &caravan_with_nose(nose), kmh, 120.0);
            println!(
                "measured: nose {:+.0} %, {kmh} km/h: damping ratio {zeta:.3}, {f:.3} Hz (peaks {peaks:.2?}°)",
                nose * 100.0
            );
            table.push(zeta);
        }
    }
    let (heavy, light) = table.split_at(3);
    assert!(heavy[0] > heavy[1] && heavy[1] > heavy[2], "{heavy:?}");
    for (h, l) in heavy.iter().zip(light) {
        assert!(l < h, "a light nose damps less: {light:?} vs {heavy:?}");
    }
}

/// The speed at which the measured damping crosses zero (km/h), by linear
/// interpolation between the last positive and the first negative of `(kmh, ζ)`.
fn crossing(points: &[(f32, f32)]) -> Option<f32> {
    points
        .windows(2)
        .find(|w| w[0].1 > 0.0 && w[1].1 <= 0.0)
        .map(|w| w[0].0 + (w[1].0 - w[0].0) * w[0].1 / (w[0].1 - w[1].1))
}

/// The car against the linear model (stability control off: the model has none): for
/// the caravan at 7 % and at −4 % nose load, the speed where the measured damping ratio
/// crosses zero lies within 15 % of the model's critical speed at 120 Hz; the crossing at 30 and
/// 240 Hz within 3 km/h of 120 Hz's for the tail-heavy caravan. What the model leaves
/// out (roll and load transfer, compliance and roll steer, the tyres' curvature beyond
/// the linear range, the driver's throttle on the front tyres) is the difference.
#[test]
fn sway_damping_crosses_zero_near_the_linear_critical_speed() {
    let tow = road(false);
    for (nose, speeds) in [
        (0.07, [110.0, 120.0, 130.0, 140.0, 150.0]),
        (-0.04, [55.0, 65.0, 75.0, 85.0, 95.0]),
    ] {
        let trailer = caravan_with_nose(nose);
        let model = SwayModel::new(&tow, &trailer).unwrap();
        let want = model.critical_speed(100.0).expect("a critical speed") as f32 * 3.6;
        let mut points = vec![];
        let mut freqs = vec![];
        for kmh in speeds {
            let (zeta, f, _) = sway(&tow, &trailer, kmh, 120.0);
            let m = model.mode(kmh as f64 / 3.6).unwrap();
            println!(
                "measured: nose {:+.0} %, {kmh} km/h: damping {zeta:.3} (model {:.3}), {f:.3} Hz (model {:.3})",
                nose * 100.0,
                m.damping_ratio,
                m.frequency
            );
            points.push((kmh, zeta));
            freqs.push((f, m.frequency as f32));
        }
        let got = crossing(&points).expect("the damping crosses zero");
        println!(
            "measured: nose {:+.0} %: damping crosses zero at {got:.1} km/h, the model's critical speed {want:.1} km/h",
            nose * 100.0
        );
        assert!((got / want - 1.0).abs() < 0.15, "{got} vs {want}");
        // The frequency is printed, not held to the model: see `docs/vehicle.md`,
        // "Sway", for what the car shows and the model does not.
        let near = points.iter().position(|p| p.1 <= 0.0).unwrap_or(points.len() - 1);
        println!(
            "measured: sway frequency near the crossing {:.3} Hz, the model's {:.3} Hz",
            freqs[near].0, freqs[near].1
        );
        if nose < 0.0 {
            for hz in [30.0, 240.0] {
                let at: Vec<(f32, f32)> = speeds
                    .iter()
                    .map(|&kmh| (kmh, sway(&tow, &trailer, kmh, hz).0))
                    .collect();
                let other = crossing(&at).expect("the damping crosses zero");
                println!("measured: nose −4 % at {hz} Hz: crosses zero at {other:.1} km/h");
                assert!((other - got).abs() < 3.0, "{hz} Hz: {other} vs {got}");
            }
        }
    }
}
