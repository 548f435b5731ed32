//! What changes the tyre's grip: the surface (its peak, not its slope), camber (a peak
//! that rises leaning into the force), and how the aligning torque follows the
//! direction of travel and the combined slip.
use crate::common;
use common::*;
use wheelcollider_core::*;

/// A wheel with the road preset's lateral curve and no camber thrust (the thrust's
/// equivalent slip would move the curve sideways, which is tested apart).
fn settings() -> WheelSettings {
    let mut s = WheelSettings::default();
    s.set_lateral_tyre(8.5, 1.5, 1.05, -1.2).unwrap();
    s.set_camber_thrust(0.0).unwrap();
    s
}

/// One step of a free-rolling wheel at 20 m/s with lateral slip `sigma` on `contact`'s
/// surface (4 000 N of load).
fn lateral(settings: &WheelSettings, contact: Contact, sigma: f32) -> StepOutput {
    let mut state = StepState {
        compression: 0.1,
        angular_velocity: 20.0 / 0.3,
        ..Default::default()
    };
    let input = StepInput {
        contact: Some(Contact {
            hit_distance: 0.3,
            forward_velocity: 20.0,
            sideways_velocity: 20.0 * sigma,
            ..contact
        }),
        ..Default::default()
    };
    step(settings, &mut state, input, 1.0 / 60.0)
}

/// The largest |Fy| over σ in (0, 1] (by 2·10⁻⁴) on one side (`sign`), and the slope at
/// zero slip (N per unit slip) from σ = ±10⁻⁴.
fn peak_and_slope(settings: &WheelSettings, contact: Contact, sign: f32) -> (f32, f32) {
    let peak = (1..=5000)
        .map(|i| lateral(settings, contact, sign * i as f32 * 2e-4).sideways_force.abs())
        .fold(0.0f32, f32::max);
    let slope = lateral(settings, contact, sign * 1e-4).sideways_force.abs() / 1e-4;
    (peak, slope)
}

/// On ice (grip 0.1) the linear-range cornering stiffness is asphalt's (within 5 %,
/// asked; measured within 0.1 %) and the peak is a tenth of asphalt's (within 1 %); a
/// surface's own stiffness factor (gravel's 0.5) halves the slope and moves the peak
/// slip by grip / stiffness.
#[test]
fn surfaces_scale_the_peak_not_the_stiffness() {
    let s = settings();
    let asphalt = Contact::default();
    let (peak_a, slope_a) = peak_and_slope(&s, asphalt, 1.0);
    for (grip, stiffness) in [(0.1f32, 1.0f32), (0.7, 0.5), (0.55, 0.5), (1.2, 1.0)] {
        let surface = Contact {
            grip,
            stiffness,
            ..Default::default()
        };
        let (peak, slope) = peak_and_slope(&s, surface, 1.0);
        eprintln!(
            "measured: grip {grip} stiffness {stiffness}: peak {:.4} × asphalt's, slope {:.4} ×",
            peak / peak_a,
            slope / slope_a
        );
        assert!(
            (slope / slope_a - stiffness).abs() < 0.05 * stiffness,
            "slope {slope} vs {slope_a}"
        );
        assert!((peak / peak_a - grip).abs() < 0.01 * grip, "peak {peak} vs {peak_a}");
        let out = lateral(&s, surface, 0.01);
        let expected = s.lateral_tyre().peak_slip() * grip / stiffness;
        assert!(
            (out.lateral_peak_slip / expected - 1.0).abs() < 1e-4,
            "peak slip {} vs {expected}",
            out.lateral_peak_slip
        );
    }
}

/// Camber leaning into the force raises the lateral peak by `1 + g·x·(2 − x)` with
/// `x = γ/γ*`, at least 0.25 (within 0.5 %, with the cos γ the peak also carries),
/// most at the optimum γ*, and leaning away lowers it (to the 0.25 floor at −2γ*); the
/// cornering stiffness stays (within 1 %).
/// With the gain at 0 camber changes the peak only by cos γ.
#[test]
fn camber_leaning_into_the_force_raises_the_peak() {
    let mut s = settings();
    s.set_camber_peak_gain(0.1).unwrap();
    s.set_camber_peak_angle(4.0).unwrap();
    let (peak_0, slope_0) = peak_and_slope(&s, Contact::default(), 1.0);
    // γ > 0 leans the top towards −sideways; σ > 0 pushes towards −sideways: into.
    for camber in [2.0f32, 4.0, 8.0, -3.0] {
        let c = Contact {
            ground_camber: camber,
            ..Default::default()
        };
        let cos = camber.to_radians().cos();
        for (sign, into) in [(1.0f32, camber), (-1.0, -camber)] {
            let (peak, slope) = peak_and_slope(&s, c, sign);
            let x = into / 4.0;
            let expected = (1.0 + 0.1 * x * (2.0 - x)).max(0.25) * cos;
            eprintln!(
                "measured: camber {into}° into the force: peak {:.4} × square",
                peak / peak_0
            );
            assert!(
                (peak / peak_0 - expected).abs() < 0.005,
                "{into}°: {} vs {expected}",
                peak / peak_0
            );
            assert!(
                (slope / slope_0 - cos).abs() < 0.01,
                "{into}°: slope {}",
                slope / slope_0
            );
        }
    }
    s.set_camber_peak_gain(0.0).unwrap();
    let c = Contact {
        ground_camber: 4.0,
        ..Default::default()
    };
    let (peak, _) = peak_and_slope(&s, c, 1.0);
    assert!((peak / peak_0 - 4f32.to_radians().cos()).abs() < 0.005);
}

/// The aligning torque follows the direction of travel: the same slip in reverse
/// gives the opposite torque (the trail is then ahead of the contact centre); and the
/// trail falls with the combined slip: braking a wheel to its longitudinal peak at a
/// small slip angle takes the torque to 0 (it was `t0·(1 − |σ/σ*|)·Fy` whatever κ).
#[test]
fn aligning_torque_follows_travel_and_combined_slip() {
    let mut s = settings();
    s.set_pneumatic_trail(0.04).unwrap();
    let run = |vx: f32, vy: f32, brake: f32| one_step(&s, (vx, vy), vx / 0.3, brake);
    for vy in [0.2f32, 0.6, -0.4] {
        let (ahead, back) = (run(20.0, vy, 0.0), run(-20.0, vy, 0.0));
        assert!(ahead.aligning_torque * vy < 0.0, "forward: restoring");
        assert!(
            (ahead.aligning_torque + back.aligning_torque).abs() < 1e-3 * ahead.aligning_torque.abs(),
            "vy {vy}: {} ahead, {} in reverse",
            ahead.aligning_torque,
            back.aligning_torque
        );
    }
    // A small slip angle (a fifth of the peak), then a locked wheel.
    let rolling = run(20.0, 20.0 * 0.2 * s.lateral_tyre().peak_slip(), 0.0);
    let locked = run(20.0, 20.0 * 0.2 * s.lateral_tyre().peak_slip(), 1e5);
    assert!(rolling.aligning_torque.abs() > 1.0, "{}", rolling.aligning_torque);
    assert!(locked.normalized_slip > 1.0);
    assert_eq!(locked.aligning_torque, 0.0);
}
