//! Wheel spin: steady slip under drive and brake, locking, energy, step-size
//! independence and the absence of oscillation.
use crate::common;
use common::*;
use wheelcollider_core::*;

const V: f32 = 20.0; // road speed (m/s)
const R: f64 = 0.3;
const COMPRESSION: f32 = 0.09; // → load 3 600 N
const LOAD: f64 = 3600.0;

/// A wheel on a road moving at constant speed `V` (an infinitely heavy car), with a
/// constant load; returns the ω history.
fn run_on_road(drive: f32, brake: f32, dt: f32, seconds: f32) -> (Vec<f32>, StepOutput) {
    let settings = WheelSettings::default();
    let mut state = StepState {
        compression: COMPRESSION,
        angular_velocity: V / R as f32,
        ..Default::default()
    };
    let input = StepInput {
        input: WheelInput {
            drive_torque: drive,
            brake_torque: brake,
            ..Default::default()
        },
        contact: Some(contact(0.4 - COMPRESSION, V, 0.0)),
        ..Default::default()
    };
    let mut omegas = Vec::new();
    let mut out = StepOutput::default();
    for _ in 0..(seconds / dt) as usize {
        out = step(&settings, &mut state, input, dt);
        omegas.push(out.angular_velocity);
    }
    (omegas, out)
}

/// The steady slip the torque balance predicts: r·Fx = T_drive − T_brake − c_rr·N·r.
fn expected_slip(drive: f64, brake: f64) -> f64 {
    let fx = (drive - brake) / R - 0.015 * LOAD;
    mf_inverse_default(fx.abs() / LOAD).copysign(fx)
}

fn assert_monotone(omegas: &[f32], what: &str) {
    let last = *omegas.last().unwrap();
    let first_error = omegas[0] - last;
    for (i, w) in omegas.iter().enumerate() {
        let e = w - last;
        assert!(
            e * first_error >= -1e-6 * last.abs().max(1.0) && e.abs() <= first_error.abs() + 1e-4,
            "{what}: oscillates at step {i}: ω {w}, steady {last}"
        );
    }
}

#[test]
fn driven_wheel_settles_to_the_predicted_slip_at_every_step_size() {
    let expected = expected_slip(500.0, 0.0);
    let mut slips = Vec::new();
    for dt in STEPS {
        let (omegas, out) = run_on_road(500.0, 0.0, dt, 5.0);
        assert!((out.load as f64 - LOAD).abs() < 0.1);
        let slip = out.forward_slip as f64;
        assert!(
            (slip - expected).abs() / expected < 0.005,
            "dt {dt}: slip {slip} vs {expected}"
        );
        assert_monotone(&omegas, &format!("drive, dt {dt}"));
        slips.push(slip);
    }
    let (lo, hi) = slips
        .iter()
        .fold((f64::MAX, f64::MIN), |(a, b), &s| (a.min(s), b.max(s)));
    assert!((hi - lo) / hi < 0.02, "step-size dependence {slips:?}");
}

#[test]
fn braked_wheel_settles_to_the_predicted_slip_at_every_step_size() {
    let expected = expected_slip(0.0, 800.0);
    assert!(expected < 0.0);
    for dt in STEPS {
        let (omegas, out) = run_on_road(0.0, 800.0, dt, 5.0);
        let slip = out.forward_slip as f64;
        assert!(
            (slip - expected).abs() / expected.abs() < 0.005,
            "dt {dt}: slip {slip} vs {expected}"
        );
        assert_monotone(&omegas, &format!("brake, dt {dt}"));
    }
}

/// A wheel with the lightest inertia (0.001 kg·m²) is just as stable.
#[test]
fn light_wheel_is_stable() {
    let mut settings = WheelSettings::default();
    settings.set_inertia(0.001).unwrap();
    for dt in STEPS {
        let mut state = StepState {
            compression: COMPRESSION,
            angular_velocity: V / R as f32,
            ..Default::default()
        };
        let input = StepInput {
            input: WheelInput {
                drive_torque: 400.0,
                ..Default::default()
            },
            contact: Some(contact(0.4 - COMPRESSION, V, 0.0)),
            ..Default::default()
        };
        let mut last = 0.0;
        for i in 0..(2.0 / dt) as usize {
            let out = step(&settings, &mut state, input, dt);
            if i > 2 {
                assert!(
                    (out.forward_slip - last).abs() < 1e-5,
                    "dt {dt}: slip moves at step {i}"
                );
            }
            last = out.forward_slip;
        }
        let expected = expected_slip(400.0, 0.0);
        assert!((last as f64 - expected).abs() / expected < 0.005);
    }
}

/// A brake stronger than the tyre's grip locks the wheel: ω = 0 exactly, from then on,
/// and the tyre slides at slip −1 with force −MF(1)·load.
#[test]
fn strong_brake_locks_and_stays_locked() {
    for dt in STEPS {
        let (omegas, out) = run_on_road(0.0, 3000.0, dt, 3.0);
        let locked_at = omegas.iter().position(|&w| w == 0.0).expect("locks");
        assert!(locked_at as f32 * dt < 0.1, "locks within 0.1 s");
        assert!(omegas[locked_at..].iter().all(|&w| w == 0.0), "stays locked");
        assert!((out.forward_slip + 1.0).abs() < 1e-6);
        let expected = -mf_ref(10.0, 1.65, 1.5, 0.97, 1.0) * LOAD;
        assert!((out.forward_force as f64 - expected).abs() < 1e-3 * LOAD);
        assert_eq!(out.rolling_resistance_force, 0.0);
    }
}

/// A locked wheel on a car that slows to rest: never spins backwards, the car never
/// reverses, and it stops.
#[test]
fn braked_car_stops_without_reversing() {
    for dt in STEPS {
        let settings = WheelSettings::default();
        let mut state = StepState {
            compression: COMPRESSION,
            angular_velocity: 10.0 / R as f32,
            ..Default::default()
        };
        let (m, mut v) = (300.0f64, 10.0f64);
        for _ in 0..(10.0 / dt) as usize {
            let input = StepInput {
                input: WheelInput {
                    brake_torque: 3000.0,
                    ..Default::default()
                },
                contact: Some(contact(0.4 - COMPRESSION, v as f32, 0.0)),
                ..Default::default()
            };
            let out = step(&settings, &mut state, input, dt);
            assert!(out.angular_velocity >= 0.0);
            v += out.forward_force as f64 / m * dt as f64;
            assert!(v >= -1e-9, "dt {dt}: reversed to {v}");
        }
        assert!(v < 1e-3, "dt {dt}: still moving at {v}");
        assert_eq!(state.angular_velocity, 0.0);
    }
}

/// With no drive and no brake, a sliding, spinning corner only ever loses kinetic
/// energy (chassis ½m·v² + wheel ½J·ω²), at every step size.
#[test]
fn no_drive_no_brake_never_adds_energy() {
    for dt in STEPS {
        for (vx0, vy0, w0) in [
            (15.0, 3.0, 70.0),
            (15.0, -2.0, 20.0),
            (-5.0, 1.0, 30.0),
            (0.5, 0.0, -40.0),
        ] {
            let settings = WheelSettings::default();
            let j = settings.inertia() as f64;
            let mut state = StepState {
                compression: COMPRESSION,
                angular_velocity: w0,
                ..Default::default()
            };
            let (m, mut vx, mut vy) = (300.0f64, vx0, vy0);
            let energy = |vx: f64, vy: f64, w: f64| 0.5 * m * (vx * vx + vy * vy) + 0.5 * j * w * w;
            let mut e = energy(vx, vy, w0 as f64);
            let e0 = e;
            for i in 0..(5.0 / dt) as usize {
                let input = StepInput {
                    contact: Some(contact(0.4 - COMPRESSION, vx as f32, vy as f32)),
                    ..Default::default()
                };
                let out = step(&settings, &mut state, input, dt);
                vx += out.forward_force as f64 / m * dt as f64;
                vy += out.sideways_force as f64 / m * dt as f64;
                let e_new = energy(vx, vy, out.angular_velocity as f64);
                assert!(
                    e_new <= e + 1e-6 * e0,
                    "dt {dt}, start {vx0},{vy0},{w0}: energy rose at step {i}: {e} → {e_new}"
                );
                e = e_new;
            }
            assert!(e < e0, "friction took energy out");
            assert!(vy.abs() < 1e-2, "the sideways slide was stopped: {vy}");
        }
    }
}

/// In the air only the torques act: drive spins the wheel up at T/J, the brake stops it.
#[test]
fn airborne_wheel_spins_up_and_brakes() {
    let settings = WheelSettings::default();
    let mut state = StepState::default();
    let dt = 0.01;
    let drive = StepInput {
        input: WheelInput {
            drive_torque: 100.0,
            drivetrain_inertia: 1.0,
            ..Default::default()
        },
        ..Default::default()
    };
    for _ in 0..100 {
        step(&settings, &mut state, drive, dt);
    }
    // ω = T·t / (J_wheel + J_drivetrain)
    assert!(
        (state.angular_velocity - 100.0 * 1.0 / 2.0).abs() < 1e-3,
        "{}",
        state.angular_velocity
    );
    let brake = StepInput {
        input: WheelInput {
            brake_torque: 1000.0,
            ..Default::default()
        },
        ..Default::default()
    };
    for _ in 0..10 {
        step(&settings, &mut state, brake, dt);
    }
    // 50 rad/s stopped in 0.05 s at 1000 N·m on 1 kg·m², then held at zero.
    assert_eq!(state.angular_velocity, 0.0);
}
