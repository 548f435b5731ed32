//! The tyre in time: relaxation length (the slip's lag with rolled distance) and the
//! self-aligning torque from the pneumatic trail.
use crate::common;
use common::*;
use wheelcollider_core::*;

/// One step of a free-rolling wheel with 4 000 N of load at forward speed `vx` and
/// sideways speed `vy`; the state carries the transient slips.
fn roll(settings: &WheelSettings, state: &mut StepState, vx: f32, vy: f32, dt: f32) -> StepOutput {
    state.compression = 0.1;
    let input = StepInput {
        contact: Some(contact(0.3, vx, vy)),
        ..Default::default()
    };
    step(settings, state, input, dt)
}

/// A step in slip angle at constant speed: the lateral force rises as 1 − e^(−d/L)
/// with the rolled distance d, so it reaches 63.2 % after one relaxation length
/// (±5 % asked; the update is the exact exponential, measured within 0.5 %), at
/// 30–240 Hz. Small angle (0.5°): the curve is linear there, so force ∝ slip.
#[test]
fn a_slip_angle_step_reaches_63_percent_after_one_relaxation_length() {
    let mut settings = WheelSettings::default();
    settings.set_lateral_relaxation_length(0.6).unwrap();
    let (vx, angle) = (6.0f32, 0.5f32.to_radians());
    let vy = vx * angle.tan();
    for dt in STEPS {
        let mut state = StepState {
            angular_velocity: vx / 0.3,
            ..Default::default()
        };
        roll(&settings, &mut state, vx, 0.0, dt);
        // One length of travel is 0.6 / (6 · dt) steps: 3 at 30 Hz, 24 at 240 Hz.
        let n = (0.6 / (vx * dt)).round() as usize;
        let mut at_one_length = 0.0;
        for i in 1..=50 * n {
            let out = roll(&settings, &mut state, vx, vy, dt);
            if i == n {
                at_one_length = out.sideways_force;
            }
        }
        let steady = roll(&settings, &mut state, vx, vy, dt).sideways_force;
        let ratio = at_one_length / steady;
        let expected = 1.0 - (-1.0f32).exp();
        assert!(
            (ratio - expected).abs() < 0.005,
            "{:.0} Hz: {ratio:.4} of the steady force after one length",
            1.0 / dt
        );
        // Without relaxation the force is all there in the first step.
        let mut fresh = StepState {
            angular_velocity: vx / 0.3,
            ..Default::default()
        };
        let plain = WheelSettings::default();
        let first = roll(&plain, &mut fresh, vx, vy, dt).sideways_force;
        let later = (0..10)
            .map(|_| roll(&plain, &mut fresh, vx, vy, dt).sideways_force)
            .last()
            .unwrap();
        assert!((first / later - 1.0).abs() < 0.01, "{first} vs {later}");
    }
}

/// The lag changes the way there, not the answer: at 20 m/s under a drive torque the
/// force and the slip are the same with and without relaxation lengths and the
/// transient slips settle on the kinematic ones (0.5 %), at every rate, the lateral
/// slip over the reference speed `ω·r` instead of `|vx|`; and a wheel driven from
/// standstill with a relaxation length still builds its force (the lag runs on the
/// reference speed, never freezing).
#[test]
fn relaxation_keeps_the_steady_state_and_starts_from_rest() {
    let plain = WheelSettings::default();
    let mut relaxed = WheelSettings::default();
    relaxed.set_longitudinal_relaxation_length(0.2).unwrap();
    relaxed.set_lateral_relaxation_length(0.5).unwrap();
    for dt in STEPS {
        let steady = |s: &WheelSettings| {
            let mut state = StepState {
                angular_velocity: 20.0 / 0.3,
                ..Default::default()
            };
            let mut out = StepOutput::default();
            for _ in 0..(4.0 / dt) as usize {
                state.compression = 0.1;
                let input = StepInput {
                    input: WheelInput {
                        drive_torque: 300.0,
                        ..Default::default()
                    },
                    contact: Some(contact(0.3, 20.0, 1.0)),
                    ..Default::default()
                };
                out = step(s, &mut state, input, dt);
            }
            out
        };
        let (a, b) = (steady(&plain), steady(&relaxed));
        // The same longitudinal force (the drive's), so the same slip on the same
        // curve; the relaxed wheel's denominator is the surface speed ω·r instead of
        // |vx|, so it spins faster, by 1 / (1 − κ) against the plain one's 1 + κ.
        assert!((a.forward_force / b.forward_force - 1.0).abs() < 5e-3);
        assert!(
            (a.forward_slip / b.forward_slip - 1.0).abs() < 5e-3,
            "{} vs {}",
            a.forward_slip,
            b.forward_slip
        );
        assert!((b.transient_forward_slip / b.forward_slip - 1.0).abs() < 5e-3);
        assert!((b.transient_sideways_slip / b.sideways_slip - 1.0).abs() < 5e-3);
        // σ = vy / (ω·r) against vy / |vx|: the relaxed wheel's lateral slip is (1 − κ)
        // of the plain one's.
        let kappa = b.forward_slip as f64;
        assert!((b.sideways_slip as f64 / (a.sideways_slip as f64 * (1.0 - kappa)) - 1.0).abs() < 5e-3);
    }
    // From rest: the force builds within a fraction of a second of drive.
    let mut state = StepState::default();
    let mut fx = 0.0;
    for _ in 0..30 {
        state.compression = 0.1;
        let input = StepInput {
            input: WheelInput {
                drive_torque: 300.0,
                ..Default::default()
            },
            contact: Some(contact(0.3, 0.0, 0.0)),
            ..Default::default()
        };
        fx = step(&relaxed, &mut state, input, 1.0 / 60.0).forward_force;
    }
    assert!(fx > 0.9 * 300.0 / 0.3, "{fx} N after 0.5 s of 300 N·m");
}

/// Self-aligning torque `t(σ)·Fy` (pneumatic trail 0.04 m): zero at zero slip,
/// restoring (its sign opposes the slip), largest before the lateral force peaks, zero
/// past the lateral peak slip (a slide), and zero in pure longitudinal slip however hard
/// the wheel drives.
#[test]
fn aligning_torque_restores_peaks_first_and_vanishes_in_a_slide() {
    let mut settings = WheelSettings::default();
    settings.set_lateral_tyre(8.0, 1.4, 1.0, -0.5).unwrap();
    settings.set_pneumatic_trail(0.04).unwrap();
    let peak = settings.lateral_tyre().peak_slip();
    let (mut mz_best, mut fy_best) = ((0.0f32, 0.0f32), (0.0f32, 0.0f32));
    for i in -300..=300 {
        let sigma = i as f32 * 0.002;
        let mut state = StepState {
            angular_velocity: 20.0 / 0.3,
            ..Default::default()
        };
        let out = roll(&settings, &mut state, 20.0, 20.0 * sigma, 1.0 / 60.0);
        let mz = out.aligning_torque;
        if i == 0 {
            assert_eq!(mz, 0.0);
            continue;
        }
        assert!(
            mz * sigma < 0.0 || sigma.abs() >= peak,
            "σ {sigma}: Mz {mz} is not restoring"
        );
        let expected = 0.04 * (1.0 - out.normalized_slip).max(0.0) * out.sideways_force;
        assert!((mz - expected).abs() <= 1e-3 * expected.abs() + 1e-3);
        if sigma.abs() > peak {
            assert_eq!(mz, 0.0, "σ {sigma} past the peak {peak}");
        }
        if sigma > 0.0 && mz.abs() > mz_best.0 {
            mz_best = (mz.abs(), sigma);
        }
        if sigma > 0.0 && out.sideways_force.abs() > fy_best.0 {
            fy_best = (out.sideways_force.abs(), sigma);
        }
    }
    assert!(
        mz_best.1 < 0.7 * fy_best.1,
        "Mz peaks at σ {} and Fy at {}",
        mz_best.1,
        fy_best.1
    );
    assert!(mz_best.0 > 0.04 * 0.2 * fy_best.0, "{mz_best:?}");
    // Pure longitudinal slip: Fx, no Mz.
    let mut state = StepState {
        angular_velocity: 20.0 / 0.3,
        ..Default::default()
    };
    state.compression = 0.1;
    let input = StepInput {
        input: WheelInput {
            drive_torque: 1500.0,
            ..Default::default()
        },
        contact: Some(contact(0.3, 20.0, 0.0)),
        ..Default::default()
    };
    let out = step(&settings, &mut state, input, 1.0 / 60.0);
    assert!(out.forward_force > 1000.0);
    assert_eq!(out.aligning_torque, 0.0);
}

/// A wheel with a 0.45 m lateral relaxation length, no rolling resistance, rolling at
/// `vx` with sideways speed `vy` until the lag has settled (10 s): the lateral force.
fn settled_lateral(settings: &WheelSettings, vx: f32, vy: f32) -> StepOutput {
    let mut state = StepState {
        angular_velocity: vx / 0.3,
        ..Default::default()
    };
    let mut out = roll(settings, &mut state, vx, vy, 1.0 / 60.0);
    for _ in 0..600 {
        out = roll(settings, &mut state, vx, vy, 1.0 / 60.0);
    }
    out
}

/// Real slips down to walking pace: with a relaxation length, at 2, 1 and 0.6 m/s the
/// settled lateral force against slip angle is the curve's at σ = tan α = vy/|vx|
/// (within 10 % asked; measured within 1 %) from 1° up to the peak. With the old 2 m/s
/// floor it read σ = vy/2: at 0.6 m/s and the peak angle, 30 % of the slip.
#[test]
fn low_speed_lateral_force_follows_the_curve() {
    let mut s = WheelSettings::default();
    s.set_lateral_relaxation_length(0.45).unwrap();
    s.set_rolling_resistance(0.0).unwrap();
    let peak = s.lateral_tyre().peak_slip();
    for vx in [2.0f32, 1.0, 0.6] {
        let mut worst = 0.0f32;
        for i in 1..=10 {
            let alpha = (1f32.to_radians()).max(peak.atan() * i as f32 / 10.0);
            let vy = vx * alpha.tan();
            let out = settled_lateral(&s, vx, vy);
            let expected = -s.lateral_tyre().eval(alpha.tan()) * out.load;
            let error = (out.sideways_force / expected - 1.0).abs();
            worst = worst.max(error);
            assert!(
                error < 0.1,
                "{vx} m/s, α {:.2}°: {} N against the curve's {expected} N",
                alpha.to_degrees(),
                out.sideways_force
            );
        }
        eprintln!(
            "measured: {vx} m/s: lateral force within {:.2} % of the curve",
            worst * 100.0
        );
    }
}

/// A slow slide does not wind up: the road preset's lateral curve (peak σ* 0.14),
/// sliding at 63° (1 m/s forward, 2 m/s sideways) for 3 s, then the sideways speed
/// turns to −0.3 m/s: the carried slip stays within twice its peak, and the lateral
/// force turns with the slide within 0.4 s (measured 0.10 s; with the bound alone,
/// the lag not shortened towards the peak, 0.32 s; with neither, the slip winds up to
/// the kinematic 2.0, which fails here, and the force pushes the old way for 0.9 s).
#[test]
fn a_slow_slide_does_not_wind_up() {
    let mut s = WheelSettings::default();
    s.set_lateral_tyre(8.5, 1.5, 1.05, -1.2).unwrap();
    s.set_lateral_relaxation_length(0.45).unwrap();
    s.set_rolling_resistance(0.0).unwrap();
    let dt = 1.0 / 240.0;
    let mut state = StepState {
        angular_velocity: 1.0 / 0.3,
        ..Default::default()
    };
    for _ in 0..(3.0 / dt) as usize {
        let out = roll(&s, &mut state, 1.0, 2.0, dt);
        assert!(out.sideways_force < 0.0);
    }
    let bound = 2.0 * s.lateral_tyre().peak_slip();
    assert!(state.slip[1] <= bound * 1.0001, "state {} past {bound}", state.slip[1]);
    let mut turned = None;
    for i in 1..=(3.0 / dt) as usize {
        let out = roll(&s, &mut state, 1.0, -0.3, dt);
        if out.sideways_force > 0.0 {
            turned = Some(i as f32 * dt);
            break;
        }
    }
    let t = turned.expect("the force turns");
    eprintln!("measured: the lateral force turned {t:.3} s after the slide did");
    assert!(t < 0.4, "{t} s");
}
