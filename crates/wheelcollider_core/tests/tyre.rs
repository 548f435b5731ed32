//! The magic formula against an independent computation; peak slip; combined slip.
mod common;
use common::*;
use wheelcollider_core::*;

#[test]
fn magic_formula_points_match_reference() {
    let mf = MagicFormula::default();
    for s in [0.0, 0.01, 0.05, 0.1, 0.2, 0.5, 1.0, 3.0] {
        let expected = mf_ref(10.0, 1.65, 1.5, 0.97, s);
        assert!((mf.eval(s as f32) as f64 - expected).abs() < 1e-6, "s = {s}");
        assert!((mf.eval(-s as f32) as f64 + expected).abs() < 1e-6, "odd at s = {s}");
    }
    // A non-default curve too.
    let mf = MagicFormula::new(7.0, 1.3, 0.9, -0.5).unwrap();
    for s in [0.03, 0.3, 2.0] {
        assert!((mf.eval(s as f32) as f64 - mf_ref(7.0, 1.3, 0.9, -0.5, s)).abs() < 1e-6);
    }
}

#[test]
fn peak_slip_matches_closed_form_and_dense_search() {
    let mf = MagicFormula::default();
    // Closed form: C·atan(y) = π/2  →  y* = tan(π / 2C); solve x − E(x − atan x) = y*.
    let y_star = (std::f64::consts::PI / (2.0 * 1.65)).tan();
    let x_of = |x: f64| x - 0.97 * (x - x.atan()) - y_star;
    let (mut lo, mut hi) = (0.0, 100.0);
    for _ in 0..200 {
        let m = 0.5 * (lo + hi);
        if x_of(m) < 0.0 { lo = m } else { hi = m }
    }
    let closed = lo / 10.0;
    assert!(
        (mf.peak_slip() as f64 - closed).abs() < 1e-6,
        "{} vs {closed}",
        mf.peak_slip()
    );
    // Dense search of the curve itself.
    let (mut best_s, mut best) = (0.0, f64::MIN);
    for i in 0..200_000 {
        let s = i as f64 * 1e-5;
        let v = mf_ref(10.0, 1.65, 1.5, 0.97, s);
        if v > best {
            best = v;
            best_s = s;
        }
    }
    assert!(
        (mf.peak_slip() as f64 - best_s).abs() < 1e-4,
        "{} vs {best_s}",
        mf.peak_slip()
    );
    assert!((mf.peak_value() as f64 - 1.5).abs() < 1e-6, "the peak of D·sin is D");
    // A curve without a finite peak (C ≤ 1): 99 % of its supremum D·sin(C·π/2).
    let flat = MagicFormula::new(10.0, 0.9, 1.0, 0.5).unwrap();
    let sup = (0.9 * std::f64::consts::FRAC_PI_2).sin();
    assert!((flat.peak_value() as f64 - 0.99 * sup).abs() < 1e-5);
}

#[test]
fn coefficients_clamp_and_refuse_non_finite() {
    let mf = MagicFormula::new(-1.0, 3.0, -2.0, 5.0).unwrap();
    assert_eq!((mf.b(), mf.c(), mf.d(), mf.e()), (0.0, 2.0, 0.0, 1.0));
    assert_eq!(mf.peak_slip(), 0.0);
    assert!(MagicFormula::new(f32::NAN, 1.0, 1.0, 1.0).is_err());
    assert!(matches!(
        MagicFormula::new(1.0, 1.0, f32::INFINITY, 1.0),
        Err(SettingsError::NonFinite {
            field: "magic_formula_d",
            ..
        })
    ));
}

/// Friction circle: with lateral slip, the forward force is the curve at the combined
/// slip times κ/|s|, and the two forces together never exceed μ·load.
#[test]
fn combined_slip_is_a_friction_circle() {
    let settings = WheelSettings::default();
    let load = 4000.0;
    // Compression 0.1 → 4000 N; prime the damper with the same compression.
    let mut state = StepState {
        compression: 0.1,
        angular_velocity: 22.0 / 0.3,
        ..Default::default()
    };
    let vx = 20.0;
    let vy = 2.0;
    let out = step(
        &settings,
        &mut state,
        StepInput {
            contact: Some(contact(0.3, vx, vy)),
            ..Default::default()
        },
        1.0 / 60.0,
    );
    assert!((out.load - load).abs() < 1e-2);
    let kappa = out.forward_slip as f64;
    let sigma = vy as f64 / 20.0;
    let s = kappa.hypot(sigma);
    let mu = mf_ref(10.0, 1.65, 1.5, 0.97, s);
    let fx = mu * load as f64 * kappa / s;
    let fy = -mu * load as f64 * sigma / s;
    assert!(
        (out.forward_force as f64 - fx).abs() < 1e-3 * load as f64,
        "{} vs {fx}",
        out.forward_force
    );
    assert!(
        (out.sideways_force as f64 - fy).abs() < 1e-3 * load as f64,
        "{} vs {fy}",
        out.sideways_force
    );
    assert!((out.slip_magnitude as f64 - s).abs() < 1e-5);
    let total = (out.forward_force as f64).hypot(out.sideways_force as f64);
    assert!(total <= 1.5 * load as f64 + 1e-3);
}

/// Camber: grip falls with cos γ; camber thrust pushes towards the side the top leans.
#[test]
fn camber_reduces_grip_and_makes_thrust() {
    let mut settings = WheelSettings::default();
    let locked = |settings: &WheelSettings, ground_camber: f32| {
        let mut state = StepState {
            compression: 0.1,
            ..Default::default()
        };
        let c = Contact {
            ground_camber,
            ..contact(0.3, 20.0, 0.0)
        };
        step(
            settings,
            &mut state,
            StepInput {
                brake_torque: 1e5,
                contact: Some(c),
                ..Default::default()
            },
            1.0 / 60.0,
        )
    };
    settings.set_camber_thrust(0.0).unwrap();
    let square = locked(&settings, 0.0);
    let tilted = locked(&settings, 20.0);
    let ratio = tilted.forward_force / square.forward_force;
    assert!((ratio - 20f32.to_radians().cos()).abs() < 1e-4, "{ratio}");
    assert_eq!(tilted.sideways_force, 0.0);
    // Thrust: +camber leans the top to −sideways, the force follows it.
    settings.set_camber_thrust(0.8).unwrap();
    let mut state = StepState {
        compression: 0.1,
        angular_velocity: 20.0 / 0.3,
        ..Default::default()
    };
    let c = Contact {
        ground_camber: 0.0,
        ..contact(0.3, 20.0, 0.0)
    };
    settings.set_camber_angle(5.0).unwrap();
    let out = step(
        &settings,
        &mut state,
        StepInput {
            contact: Some(c),
            ..Default::default()
        },
        1.0 / 60.0,
    );
    // Small camber: F ≈ −thrust · sin γ · load (in the linear range of the curve).
    let expected = -0.8 * 5f32.to_radians().sin() * 4000.0 * 5f32.to_radians().cos();
    assert!(
        (out.sideways_force - expected).abs() < 0.03 * expected.abs(),
        "{} vs {expected}",
        out.sideways_force
    );
}

/// Load sensitivity: μ(Fz) = μ·(1 − s·(Fz/Fz0 − 1)), clamped to 0.5 ..= 1.5; off by
/// default (the force then stays proportional to the load).
#[test]
fn load_sensitivity_scales_the_friction_coefficient() {
    // A locked wheel sliding at 20 m/s; the spring sets the load (compression 0.1 m).
    let slide = |settings: &WheelSettings| {
        let mut state = StepState {
            compression: 0.1,
            ..Default::default()
        };
        step(
            settings,
            &mut state,
            StepInput {
                brake_torque: 1e6,
                contact: Some(contact(0.3, 20.0, 0.0)),
                ..Default::default()
            },
            1.0 / 60.0,
        )
    };
    for (spring, expected) in [(40_000.0, 1.0), (80_000.0, 0.75), (20_000.0, 1.125), (400_000.0, 0.5)] {
        let mut plain = WheelSettings::default();
        plain.set_suspension_spring(spring).unwrap();
        let mut sensitive = plain.clone();
        sensitive.set_load_sensitivity(0.25).unwrap();
        sensitive.set_nominal_load(4000.0).unwrap();
        let (a, b) = (slide(&plain), slide(&sensitive));
        let load = spring * 0.1;
        assert!(
            (a.load - load).abs() < 1e-3 && (b.load - load).abs() < 1e-3,
            "load {}",
            a.load
        );
        // Without sensitivity the friction coefficient does not depend on the load.
        let mu = -a.forward_force / a.load;
        assert!((mu as f64 - mf_ref(10.0, 1.65, 1.5, 0.97, 1.0)).abs() < 1e-3, "μ {mu}");
        let ratio = b.forward_force / a.forward_force;
        assert!(
            (ratio - expected).abs() < 1e-4,
            "load {load} N: ratio {ratio}, expected {expected}"
        );
        assert_eq!(sensitive.load_grip_factor(load as f64) as f32, expected);
    }
}
