//! The magic formula against an independent computation; peak slip; combined slip.
use crate::common;
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
    let mf = MagicFormula::new(-1.0, -3.0, -2.0, 0.5).unwrap();
    assert_eq!((mf.b(), mf.c(), mf.d(), mf.e()), (0.0, 0.0, 0.0, 0.5));
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

/// Whether `D·sin(C·atan(y))` is ≥ 0 and rises then falls (at most one peak) on a
/// log grid of slips from 1e-4 to 1e6.
fn is_friction_curve(b: f64, c: f64, d: f64, e: f64) -> bool {
    let mut last = 0.0;
    let mut falling = false;
    for i in 0..=4000 {
        let s = 10f64.powf(-4.0 + 10.0 * i as f64 / 4000.0);
        let v = mf_ref(b, c, d, e, s);
        if v < -1e-12 || (falling && v > last + 1e-12) {
            return false;
        }
        falling |= v < last - 1e-12;
        last = v;
    }
    true
}

/// The coefficient limits follow from the formula: every curve `MagicFormula::new`
/// accepts is a friction curve (checked on a grid of C and E), every one it refuses
/// is not, and the refusal names the condition. Published sets beyond the old fixed
/// box (C ≤ 2) are kept exactly: MATLAB's wet tarmac B 12, C 2.3, D 0.82, E 1 peaks at
/// slip 0.088 with μ 0.64 at slip 1 (it was stored with C = 2: 0.130 and 0.76).
#[test]
fn coefficient_limits_follow_from_the_formula() {
    let wet = MagicFormula::new(12.0, 2.3, 0.82, 1.0).unwrap();
    assert_eq!(wet.c(), 2.3);
    assert!((wet.peak_slip() - 0.0882).abs() < 5e-4, "{}", wet.peak_slip());
    assert!((wet.eval(1.0) - 0.637).abs() < 1e-3, "{}", wet.eval(1.0));
    let mut accepted = 0;
    for ci in 0..=34 {
        for &e in &[-5.0f32, -1.0, 0.0, 0.5, 0.9, 0.99, 1.0, 1.05, 1.5] {
            let c = ci as f32 * 0.1;
            let friction = is_friction_curve(10.0, c as f64, 1.0, e as f64);
            match MagicFormula::new(10.0, c, 1.0, e) {
                Ok(_) => {
                    accepted += 1;
                    assert!(friction, "accepted C {c} E {e} is not a friction curve");
                }
                Err(SettingsError::OutOfDomain { field, condition, .. }) => {
                    // C = 0 is the zero curve whatever E: E > 1 is refused there too.
                    assert!(!friction || c == 0.0, "refused C {c} E {e}, a friction curve");
                    let expected = if e > 1.0 { "magic_formula_e" } else { "magic_formula_c" };
                    assert_eq!(field, expected);
                    assert!(condition.contains("at most"), "{condition}");
                }
                Err(other) => panic!("{other}"),
            }
        }
    }
    assert!(accepted > 150, "{accepted}");
    // The edges: C = 2 with E < 1 and C = π/atan(π/2) with E = 1 are accepted.
    assert!(MagicFormula::new(10.0, 2.0, 1.0, 0.5).is_ok());
    assert!(MagicFormula::new(10.0, MagicFormula::MAX_C_AT_E_1, 1.0, 1.0).is_ok());
    assert!(MagicFormula::new(10.0, 2.01, 1.0, 0.5).is_err());
    // A refused curve leaves the wheel's curves as they were.
    let mut s = WheelSettings::default();
    assert!(s.set_lateral_tyre(10.0, 2.5, 1.0, 0.5).is_err());
    assert_eq!(s.lateral_tyre(), &MagicFormula::default().into());
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
                input: WheelInput {
                    brake_torque: 1e5,
                    ..Default::default()
                },
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

/// Load sensitivity: the Magic Formula's μ(Fz) = μ·(1 − s·(Fz/Fz0 − 1)), the force flat
/// past the load where it peaks (`Fz0·(1 + s)/(2s)`, 2.5 × Fz0 at s = 0.25); off by
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
                input: WheelInput {
                    brake_torque: 1e6,
                    ..Default::default()
                },
                contact: Some(contact(0.3, 20.0, 0.0)),
                ..Default::default()
            },
            1.0 / 60.0,
        )
    };
    // 1 − 0.25·(r − 1) at r = 1, 2, 0.5; past r* = 2.5 the force 1.25²/(4·0.25) Fz0:
    // 0.15625 at r = 10, 0.0390625 at r = 40.
    for (spring, expected) in [
        (40_000.0, 1.0),
        (80_000.0, 0.75),
        (20_000.0, 1.125),
        (400_000.0, 0.156_25),
        (1_600_000.0, 0.039_062_5),
    ] {
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
        assert!((sensitive.load_grip_factor(load as f64) as f32 - expected).abs() < 1e-6);
    }
}

/// The peak force `μ(Fz)·Fz` never falls as the load rises: every sensitivity in its
/// range (0 ..= 1, by 0.05), loads from 0 to 20 × the rated load. The linear law
/// without its flat top fails this: with s = 0.5 its force falls 11 % from 1.5 to 2 ×
/// the rated load (checked).
#[test]
fn peak_force_never_falls_with_load() {
    for i in 0..=20 {
        let mut w = WheelSettings::default();
        w.set_load_sensitivity(i as f32 * 0.05).unwrap();
        w.set_nominal_load(4000.0).unwrap();
        let mut last = 0.0f64;
        for j in 0..=2000 {
            let load = j as f64 * 40.0;
            let force = w.load_grip_factor(load) * load;
            assert!(
                force >= last * (1.0 - 1e-12),
                "sensitivity {}: {force} N at {load} N after {last} N",
                w.load_sensitivity()
            );
            last = force;
        }
    }
}

/// The Magic Formula's load law on an axle: two tyres at 6 and 2 kN with s = 0.2 and a
/// rated 4 kN carry `μ·(6 000·0.9 + 2 000·1.1)` = 7 600 N at μ = 1, within 1 % (the
/// power law `(Fz/Fz0)^(−s)` gave 7 831 N: 3 % more, 40 % of the linear law's loss
/// to load transfer). Read from each tyre's peak force in a step.
#[test]
fn an_axle_under_load_transfer_loses_the_magic_formulas_grip() {
    let peak = |load: f64| {
        let mut w = WheelSettings::default();
        w.set_tyre(10.0, 1.9, 1.0, 0.97).unwrap();
        w.set_load_sensitivity(0.2).unwrap();
        w.set_nominal_load(4000.0).unwrap();
        w.set_suspension_spring(load as f32 / 0.1).unwrap();
        let mut state = StepState {
            compression: 0.1,
            ..Default::default()
        };
        let out = step(
            &w,
            &mut state,
            StepInput {
                contact: Some(contact(0.3, 20.0, 0.0)),
                ..Default::default()
            },
            1.0 / 60.0,
        );
        assert!((out.load as f64 - load).abs() < 1.0, "load {}", out.load);
        out.max_friction_force as f64
    };
    let sum = peak(6000.0) + peak(2000.0);
    eprintln!("measured: the axle at 6 + 2 kN carries {sum:.1} N at μ 1");
    assert!((sum - 7600.0).abs() < 76.0, "{sum} N");
}

/// Two curves: pure longitudinal slip follows the longitudinal curve, pure lateral slip
/// the lateral one, and combined slip shares them by normalised slip (Pacejka's
/// similarity method), inside the friction ellipse with half-axes Dx·load, Dy·load.
#[test]
fn separate_curves_combine_on_the_ellipse() {
    let mut settings = WheelSettings::default();
    settings.set_longitudinal_tyre(12.0, 1.65, 1.15, 0.5).unwrap();
    settings.set_lateral_tyre(8.0, 1.4, 1.0, -0.5).unwrap();
    let (px, py) = (
        settings.longitudinal_tyre().peak_slip() as f64,
        settings.lateral_tyre().peak_slip() as f64,
    );
    let load = 4000.0f64;
    let run = |vx: f32, vy: f32, omega: f32, brake: f32| one_step(&settings, (vx, vy), omega, brake);
    // Pure lateral: a free-rolling wheel at 20 m/s, 2 m/s sideways.
    let out = run(20.0, 2.0, 20.0 / 0.3, 0.0);
    let sigma = 0.1;
    let kappa = out.transient_forward_slip as f64;
    assert!(kappa.abs() < 2e-3, "{kappa}");
    let (kn, sn) = (kappa / px, sigma / py);
    let rho = kn.hypot(sn);
    let fy = -load * mf_ref(8.0, 1.4, 1.0, -0.5, rho * py) * sn / rho;
    assert!(
        (out.sideways_force as f64 - fy).abs() < 1e-3 * load,
        "{} vs {fy}",
        out.sideways_force
    );
    // Locked and sliding sideways: both slips large, the force on the ellipse. Past
    // the combined peak (ρ > 1) the force turns from the similarity direction to the
    // one against the sliding velocity, (κ, −σ)/|s|, over ρ = 1 ..= 2 (smoothstep),
    // with the ellipse's magnitude in that direction; each curve read at most at full
    // slip (1).
    let fitted = |b: f64, c: f64, d: f64, e: f64, s: f64| mf_ref(b, c, d, e, s.min(1.0));
    for vy in [0.5f32, 2.0, 5.0, 10.0] {
        let out = run(20.0, vy, 0.0, 1.0e5);
        let (kappa, sigma) = (out.transient_forward_slip as f64, vy as f64 / 20.0);
        assert!((kappa + 1.0).abs() < 1e-6);
        let (kn, sn) = (kappa / px, sigma / py);
        let rho = kn.hypot(sn);
        let (mx, my) = (
            fitted(12.0, 1.65, 1.15, 0.5, rho * px),
            fitted(8.0, 1.4, 1.0, -0.5, rho * py),
        );
        let (fx_sim, fy_sim) = (load * mx * kn / rho, -load * my * sn / rho);
        let norm = kappa.hypot(sigma);
        let (dx, dy) = (kappa / norm, -sigma / norm);
        let magnitude = load / (dx / mx).hypot(dy / my);
        let x = (rho - 1.0).clamp(0.0, 1.0);
        let blend = x * x * (3.0 - 2.0 * x);
        let fx = fx_sim + blend * (magnitude * dx - fx_sim);
        let fy = fy_sim + blend * (magnitude * dy - fy_sim);
        assert!(
            (out.forward_force as f64 - fx).abs() < 1e-3 * load,
            "{} vs {fx}",
            out.forward_force
        );
        assert!(
            (out.sideways_force as f64 - fy).abs() < 1e-3 * load,
            "{} vs {fy}",
            out.sideways_force
        );
        if rho >= 2.0 {
            // Fully sliding: the force opposes the sliding velocity (vx − ω·r, vy) = (20, vy).
            let off = (out.sideways_force as f64).atan2(out.forward_force as f64) - (-(vy as f64)).atan2(-20.0);
            assert!(off.abs() < 1e-3, "vy {vy}: {off} rad off the sliding velocity");
        }
        let ellipse = (out.forward_force as f64 / 1.15).hypot(out.sideways_force as f64 / 1.0);
        assert!(ellipse <= load * (1.0 + 1e-4), "{ellipse}");
        assert!((out.normalized_slip as f64 - rho).abs() < 1e-4);
    }
}

/// Load law (`stiffness_peak_load`): the cornering stiffness per unit load falls with
/// load and the stiffness itself peaks at p × the rated load (p = 2 here, in the
/// 1.5–2.5 band the issue asks for); measured through the step as the lateral force
/// at a small slip over the slip, against the closed form within 0.5 %.
#[test]
fn slip_stiffness_flattens_past_the_rated_load() {
    let mut settings = WheelSettings::default();
    settings.set_stiffness_peak_load(2.0).unwrap();
    settings.set_load_sensitivity(0.2).unwrap();
    let fz0 = settings.nominal_load() as f64;
    let measured = |load: f64| {
        // A spring that makes exactly `load` at 0.05 m of compression.
        let mut s = settings.clone();
        s.set_suspension_spring((load / 0.05) as f32).unwrap();
        let mut state = StepState {
            compression: 0.05,
            angular_velocity: 20.0 / 0.3,
            ..Default::default()
        };
        let vy = 0.02; // σ = 0.001
        let input = StepInput {
            contact: Some(contact(0.35, 20.0, vy)),
            ..Default::default()
        };
        let out = step(&s, &mut state, input, 1.0 / 60.0);
        assert!((out.load as f64 - load).abs() < 1e-3 * load);
        -out.sideways_force as f64 / 0.001
    };
    let mut per_load_last = f64::INFINITY;
    let (mut best, mut best_load) = (0.0, 0.0);
    for i in 1..=60 {
        let load = fz0 * i as f64 * 0.1;
        let k = measured(load);
        let expected = settings.cornering_stiffness(load);
        assert!((k - expected).abs() < 5e-3 * expected, "{load} N: {k} vs {expected}");
        // Closed form: B·C·D · Fz0 · sin(2 atan(Fz / (p Fz0))) / sin(2 atan(1/p)).
        let p = 2.0;
        let law = 10.0 * 1.65 * 1.5 * fz0 * (2.0 * (load / (p * fz0)).atan()).sin() / (2.0 * (1.0 / p).atan()).sin();
        assert!((expected - law).abs() < 1e-4 * law, "{load} N: {expected} vs {law}");
        assert!(k / load < per_load_last, "stiffness per load rose at {load} N");
        per_load_last = k / load;
        if k > best {
            (best, best_load) = (k, load);
        }
    }
    let peak = best_load / fz0;
    assert!(
        (1.5..=2.5).contains(&peak),
        "stiffness peaks at {peak} × the rated load"
    );
    // At the rated load the curve is the one set: B·C·D × load × (load sensitivity 1).
    assert!((measured(fz0) - 24.75 * fz0).abs() < 5e-3 * 24.75 * fz0);
}
