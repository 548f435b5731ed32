//! Every setter clamps to the original's limit and refuses non-finite values, keeping
//! the old one; presets round-trip and fail with a message naming the field.
use wheelcollider_core::*;

type Setter = fn(&mut WheelSettings, f32) -> Result<f32, SettingsError>;
type Getter = fn(&WheelSettings) -> f32;

/// (name, setter, getter, lower limit, upper limit)
const FLOATS: &[(&str, Setter, Getter, f32, f32)] = &[
    (
        "stiffness_peak_load",
        WheelSettings::set_stiffness_peak_load,
        WheelSettings::stiffness_peak_load,
        0.0,
        10.0,
    ),
    (
        "longitudinal_relaxation_length",
        WheelSettings::set_longitudinal_relaxation_length,
        WheelSettings::longitudinal_relaxation_length,
        0.0,
        10.0,
    ),
    (
        "lateral_relaxation_length",
        WheelSettings::set_lateral_relaxation_length,
        WheelSettings::lateral_relaxation_length,
        0.0,
        10.0,
    ),
    (
        "pneumatic_trail",
        WheelSettings::set_pneumatic_trail,
        WheelSettings::pneumatic_trail,
        0.0,
        1.0,
    ),
    (
        "radius",
        WheelSettings::set_radius,
        WheelSettings::radius,
        0.001,
        MAX_VALUE,
    ),
    (
        "inertia",
        WheelSettings::set_inertia,
        WheelSettings::inertia,
        0.001,
        MAX_VALUE,
    ),
    (
        "width",
        WheelSettings::set_width,
        WheelSettings::width,
        0.001,
        MAX_VALUE,
    ),
    (
        "suspension_spring",
        WheelSettings::set_suspension_spring,
        WheelSettings::suspension_spring,
        0.0,
        MAX_SPRING,
    ),
    (
        "suspension_bump",
        WheelSettings::set_suspension_bump,
        WheelSettings::suspension_bump,
        0.0,
        MAX_DAMPING,
    ),
    (
        "suspension_rebound",
        WheelSettings::set_suspension_rebound,
        WheelSettings::suspension_rebound,
        0.0,
        MAX_DAMPING,
    ),
    (
        "suspension_length",
        WheelSettings::set_suspension_length,
        WheelSettings::suspension_length,
        0.001,
        MAX_VALUE,
    ),
    (
        "max_ground_angle",
        WheelSettings::set_max_ground_angle,
        WheelSettings::max_ground_angle,
        0.0,
        89.0,
    ),
    (
        "camber_angle",
        WheelSettings::set_camber_angle,
        WheelSettings::camber_angle,
        -45.0,
        45.0,
    ),
    (
        "toe_angle",
        WheelSettings::set_toe_angle,
        WheelSettings::toe_angle,
        -45.0,
        45.0,
    ),
    (
        "camber_thrust",
        WheelSettings::set_camber_thrust,
        WheelSettings::camber_thrust,
        0.0,
        5.0,
    ),
    (
        "spring_preload",
        WheelSettings::set_spring_preload,
        WheelSettings::spring_preload,
        -wheelcollider_core::MAX_SPRING,
        wheelcollider_core::MAX_SPRING,
    ),
    (
        "bump_rubber_gap",
        WheelSettings::set_bump_rubber_gap,
        WheelSettings::bump_rubber_gap,
        0.0,
        10.0,
    ),
    (
        "bump_rubber_rate",
        WheelSettings::set_bump_rubber_rate,
        WheelSettings::bump_rubber_rate,
        0.0,
        wheelcollider_core::MAX_SPRING,
    ),
    (
        "camber_gain",
        WheelSettings::set_camber_gain,
        WheelSettings::camber_gain,
        -500.0,
        500.0,
    ),
    (
        "bump_steer",
        WheelSettings::set_bump_steer,
        WheelSettings::bump_steer,
        -500.0,
        500.0,
    ),
    (
        "alignment_compression",
        WheelSettings::set_alignment_compression,
        WheelSettings::alignment_compression,
        0.0,
        10.0,
    ),
    (
        "roll_centre_slope",
        WheelSettings::set_roll_centre_slope,
        WheelSettings::roll_centre_slope,
        -1.0,
        1.0,
    ),
    (
        "brake_pitch_slope",
        WheelSettings::set_brake_pitch_slope,
        WheelSettings::brake_pitch_slope,
        -1.0,
        1.0,
    ),
    (
        "drive_pitch_slope",
        WheelSettings::set_drive_pitch_slope,
        WheelSettings::drive_pitch_slope,
        -1.0,
        1.0,
    ),
    (
        "camber_peak_gain",
        WheelSettings::set_camber_peak_gain,
        WheelSettings::camber_peak_gain,
        0.0,
        0.5,
    ),
    (
        "camber_peak_angle",
        WheelSettings::set_camber_peak_angle,
        WheelSettings::camber_peak_angle,
        0.5,
        30.0,
    ),
    (
        "rolling_resistance",
        WheelSettings::set_rolling_resistance,
        WheelSettings::rolling_resistance,
        0.0,
        MAX_VALUE,
    ),
    (
        "load_sensitivity",
        WheelSettings::set_load_sensitivity,
        WheelSettings::load_sensitivity,
        0.0,
        1.0,
    ),
    (
        "nominal_load",
        WheelSettings::set_nominal_load,
        WheelSettings::nominal_load,
        1.0,
        MAX_VALUE,
    ),
    (
        "bump_amplitude",
        WheelSettings::set_bump_amplitude,
        WheelSettings::bump_amplitude,
        0.0,
        MAX_VALUE,
    ),
    (
        "bump_period",
        WheelSettings::set_bump_period,
        WheelSettings::bump_period,
        0.0,
        MAX_VALUE,
    ),
];

#[test]
fn defaults_are_the_originals() {
    let s = WheelSettings::default();
    assert_eq!(s.sweep_type(), SweepType::Ray);
    assert_eq!(
        (s.radius(), s.inertia(), s.width(), s.cylinder_resolution()),
        (0.3, 1.0, 0.2, 16)
    );
    assert_eq!(
        (
            s.suspension_spring(),
            s.suspension_bump(),
            s.suspension_rebound(),
            s.suspension_length()
        ),
        (40_000.0, 2_000.0, 2_000.0, 0.1)
    );
    assert_eq!((s.camber_angle(), s.toe_angle()), (0.0, 0.0));
    let t = s.longitudinal_tyre();
    assert_eq!((t.b(), t.c(), t.d(), t.e()), (10.0, 1.65, 1.5, 0.97));
    assert_eq!(
        (s.rolling_resistance(), s.bump_amplitude(), s.bump_period()),
        (0.015, 0.0, 0.0)
    );
    // Not in the original: load sensitivity off by default.
    assert_eq!((s.load_sensitivity(), s.nominal_load()), (0.0, 4000.0));
}

#[test]
fn every_setter_clamps_and_refuses_non_finite() {
    for &(name, set, get, lo, hi) in FLOATS {
        let mut s = WheelSettings::default();
        // In range: stored as given.
        let mid = if hi > 1.0 { (lo + 1.0).min(hi) } else { 0.5 * (lo + hi) };
        assert_eq!(set(&mut s, mid), Ok(mid), "{name} in range");
        assert_eq!(get(&s), mid);
        // Below and above: clamped, and the setter says what it stored.
        assert_eq!(set(&mut s, lo - 1000.0), Ok(lo), "{name} below");
        assert_eq!(get(&s), lo);
        assert_eq!(set(&mut s, f32::MAX), Ok(hi), "{name} above");
        assert_eq!(set(&mut s, -f32::MAX), Ok(lo), "{name} far below");
        // Non-finite: refused with the field's name, old value kept.
        set(&mut s, mid).unwrap();
        for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
            match set(&mut s, bad) {
                Err(SettingsError::NonFinite { field, .. }) => assert_eq!(field, name),
                other => panic!("{name} accepted {bad}: {other:?}"),
            }
            assert_eq!(get(&s), mid, "{name} kept its value");
        }
    }
    let mut s = WheelSettings::default();
    assert_eq!(s.set_cylinder_resolution(3), 8);
    assert_eq!(s.set_cylinder_resolution(10_000), 256);
    // The tyre re-solves its peak when set; a refused curve keeps the old one.
    let old_peak = s.peak_slip();
    s.set_tyre(5.0, 1.9, 1.0, 0.5).unwrap();
    assert!(s.peak_slip() != old_peak);
    let peak = s.peak_slip();
    assert!(s.set_tyre(f32::NAN, 1.0, 1.0, 1.0).is_err());
    assert_eq!(s.peak_slip(), peak);
    assert!(format!("{}", s.set_radius(f32::NAN).unwrap_err()).contains("radius"));
}

#[test]
fn ron_round_trip_and_errors() {
    let mut s = WheelSettings::default();
    s.set_sweep_type(SweepType::Cylinder);
    s.set_radius(0.33).unwrap();
    s.set_tyre(12.0, 1.7, 1.1, 0.9).unwrap();
    s.set_toe_angle(-0.5).unwrap();
    let text = ron::to_string(&s).unwrap();
    let back: WheelSettings = ron::from_str(&text).unwrap();
    assert_eq!(back, s);
    assert!(!text.contains("lateral_tyre"), "one curve is written once: {text}");
    // A separate lateral curve round-trips, and a file without it reads one curve.
    s.set_lateral_tyre(8.0, 1.3, 1.05, -0.5).unwrap();
    s.set_pneumatic_trail(0.03).unwrap();
    let text = ron::to_string(&s).unwrap();
    let back: WheelSettings = ron::from_str(&text).unwrap();
    assert_eq!(back, s);
    assert_eq!(back.lateral_tyre().c(), 1.3);
    // A curve outside the formula's domain is refused with the condition and the place.
    let err = ron::from_str::<WheelSettings>("(\n  lateral_tyre: Some((b: 10, c: 2.5, d: 1, e: 0.5)),\n)").unwrap_err();
    assert!(
        err.to_string().contains("lateral_c") && err.to_string().contains("at most 2"),
        "{err}"
    );
    // Missing fields take the defaults; out-of-range values clamp like the setters.
    let partial: WheelSettings = ron::from_str("(radius: 0.35, suspension_length: -2)").unwrap();
    assert_eq!(partial.radius(), 0.35);
    assert_eq!(partial.suspension_length(), 0.001);
    assert_eq!(partial.inertia(), 1.0);
    // Unknown fields and wrong types are refused, with the place.
    let err = ron::from_str::<WheelSettings>("(\n  radius: 0.3,\n  radiu: 0.3,\n)").unwrap_err();
    assert_eq!(err.span.start.line, 3, "{err}");
    assert!(err.to_string().contains("radiu"), "{err}");
    let err = ron::from_str::<WheelSettings>("(radius: \"big\")").unwrap_err();
    assert!(
        err.to_string().to_lowercase().contains("f32") || err.to_string().contains("float"),
        "{err}"
    );
}

/// `sanitized()` leaves valid settings alone (it runs whenever an inspector touches a
/// wheel, so it must not move anything), and the conversion it is built on names the
/// first non-finite field. Its repair of a NaN written by reflection is tested in the
/// plugin (`tests/runtime_changes.rs`), where reflection exists.
#[test]
fn sanitized_is_identity_on_valid_settings_and_names_bad_fields() {
    let mut s = WheelSettings::default();
    s.set_sweep_type(SweepType::Sphere);
    s.set_radius(0.001).unwrap();
    s.set_camber_angle(45.0).unwrap();
    s.set_tyre(3.0, 1.2, 0.8, -2.0).unwrap();
    let (clean, err) = s.sanitized();
    assert_eq!(clean, s);
    assert!(err.is_none());
    let mut def = WheelSettingsDef::from(&s);
    def.suspension_spring = f32::NAN;
    def.radius = f32::INFINITY;
    // The first non-finite field in setter order is named.
    assert!(matches!(
        WheelSettings::try_from(def),
        Err(SettingsError::NonFinite { field: "radius", .. })
    ));
}
