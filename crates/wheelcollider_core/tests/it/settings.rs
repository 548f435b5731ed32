//! Every setter clamps to the original's limit and refuses non-finite values, keeping
//! the old one; presets round-trip and fail with a message naming the field.
use wheelcollider_core::*;

/// Every number setting's limit, written here apart from its declaration
/// (`settings/table.rs`) so that a changed limit shows in this test: (name, lower,
/// upper).
const LIMITS: &[(&str, f32, f32)] = &[
    ("stiffness_peak_load", 0.0, 10.0),
    ("longitudinal_relaxation_length", 0.0, 10.0),
    ("lateral_relaxation_length", 0.0, 10.0),
    ("pneumatic_trail", 0.0, 1.0),
    ("radius", 0.001, MAX_VALUE),
    ("inertia", 0.001, MAX_VALUE),
    ("width", 0.001, MAX_VALUE),
    ("crown_radius", 0.0, MAX_VALUE),
    ("suspension_spring", 0.0, MAX_SPRING),
    ("suspension_bump", 0.0, MAX_DAMPING),
    ("suspension_rebound", 0.0, MAX_DAMPING),
    ("suspension_length", 0.001, MAX_VALUE),
    ("max_ground_angle", 0.0, 89.0),
    ("camber_angle", -45.0, 45.0),
    ("toe_angle", -45.0, 45.0),
    ("camber_thrust", 0.0, 5.0),
    ("spring_preload", -MAX_SPRING, MAX_SPRING),
    ("bump_rubber_gap", 0.0, 10.0),
    ("bump_rubber_rate", 0.0, MAX_SPRING),
    ("camber_gain", -500.0, 500.0),
    ("bump_steer", -500.0, 500.0),
    ("alignment_compression", 0.0, 10.0),
    ("roll_centre_slope", -1.0, 1.0),
    ("brake_pitch_slope", -1.0, 1.0),
    ("drive_pitch_slope", -1.0, 1.0),
    ("camber_peak_gain", 0.0, 0.5),
    ("camber_peak_angle", 0.5, 30.0),
    ("camber_grip_loss", 0.0, 1.0),
    ("rolling_resistance", 0.0, MAX_VALUE),
    ("rolling_resistance_speed", 0.0, 1.0e-3),
    ("load_sensitivity", 0.0, 1.0),
    ("nominal_load", 1.0, MAX_VALUE),
    ("bump_amplitude", 0.0, MAX_VALUE),
    ("bump_period", 0.0, MAX_VALUE),
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
    let t = s.longitudinal_tyre().magic_formula().expect("a magic formula");
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
    assert_eq!(
        WheelSettings::FLOATS.len(),
        LIMITS.len(),
        "a setting without its limit here"
    );
    for f in WheelSettings::FLOATS {
        let name = f.path;
        let set = |s: &mut WheelSettings, v: f32| f.set(s, 0, v);
        let get = |s: &WheelSettings| (f.get)(s, 0).unwrap();
        let &(_, lo, hi) = LIMITS
            .iter()
            .find(|l| l.0 == name)
            .unwrap_or_else(|| panic!("{name}: no limit written in this test"));
        assert_eq!(
            (f.limit)(&WheelSettings::default(), 0),
            (lo, hi),
            "{name}: the declared limit"
        );
        // The field's own setter (what the file form goes through) clamps to the same.
        for (typed, stored) in [("3.0e38", hi), ("-3.0e38", lo)] {
            let text = written_with(&WheelSettings::default(), name, typed);
            let def: WheelSettingsDef = ron::from_str(&text).unwrap();
            let read = WheelSettings::try_from(def).unwrap();
            assert_eq!(get(&read), stored, "{name}'s setter with {typed}");
        }
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
    assert_eq!(back.lateral_tyre().magic_formula().map(|m| m.c()), Some(1.3));
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
/// plugin (`world::runtime_changes`), where reflection exists.
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

/// A value of `f` inside its editor range and apart from its default: three quarters of
/// the way up the range, or a quarter when that is the default.
fn other_value(f: &Row<WheelSettings, SettingGroup>) -> f32 {
    let (lo, hi) = (f.range)(&WheelSettings::default(), 0);
    let v = lo + 0.75 * (hi - lo);
    if Some(v) == f.default_value() {
        lo + 0.25 * (hi - lo)
    } else {
        v
    }
}

/// `s`'s file form in RON with the number `name` written as `value` (`s` must be
/// written as a struct, `(…)`).
fn written_with(s: &WheelSettings, name: &str, value: &str) -> String {
    let mut text = ron::to_string(&WheelSettingsDef::from(s)).unwrap();
    let key = format!("{name}:");
    match text.find(&key) {
        Some(at) => {
            let at = at + key.len();
            let end = at + text[at..].find([',', ')']).unwrap();
            text.replace_range(at..end, value);
        }
        // A number a file leaves out at its default (`omit`): written in.
        None => text.insert_str(1, &format!("{key}{value},")),
    }
    text
}

/// The one declaration (`WheelSettings::FLOATS`) holds for every number setting: its
/// default is the `Default`'s, its editor range lies inside its limit (the inspector
/// draws from it), a value set through it round-trips through the file form, and a
/// non-finite one written around the setter is reset alone by `WheelSettingsDef::sanitize` (what `sanitized` runs), every other
/// field kept. Checked that it fails: with `radius`'s arm taken out of `reset_field`,
/// `sanitize` falls back to the defaults after its rounds and the "alone" check names the
/// first one it moved.
#[test]
fn every_float_setting_round_trips_resets_alone_and_has_its_range_in_its_limit() {
    let defaults = WheelSettings::default();
    let mut names: Vec<&str> = WheelSettings::FLOATS.iter().map(|f| f.path).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), WheelSettings::FLOATS.len(), "a name declared twice");
    // Every field set to another value at once: the file form carries each.
    let mut all = WheelSettings::default();
    for f in WheelSettings::FLOATS {
        let name = f.path;
        let ((min, max), range) = ((f.limit)(&defaults, 0), (f.range)(&defaults, 0));
        assert_eq!((f.get)(&defaults, 0), f.default_value(), "{name}: default");
        assert!(
            min <= range.0 && range.1 <= max,
            "{name}: editor range {range:?} outside its limit"
        );
        assert!(range.0 < range.1 && f.step > 0.0, "{name}: empty range or no step");
        let v = other_value(f);
        assert_eq!(f.set(&mut all, 0, v), Ok(v), "{name}");
    }
    let def = WheelSettingsDef::from(&all);
    assert_eq!(
        WheelSettings::try_from(def.clone()),
        Ok(all.clone()),
        "through the file form"
    );
    let text = ron::to_string(&all).unwrap();
    assert_eq!(ron::from_str::<WheelSettings>(&text).unwrap(), all, "through RON");
    // One field made non-finite behind the setters (as reflection can): reset alone.
    for (i, f) in WheelSettings::FLOATS.iter().enumerate() {
        let text = written_with(&all, f.path, "inf");
        let broken: WheelSettingsDef = ron::from_str(&text).unwrap();
        assert!(
            WheelSettings::try_from(broken.clone()).is_err(),
            "{} accepted ∞",
            f.path
        );
        let (clean, err) = broken.sanitize();
        assert_eq!(err.map(|e| e.field()), Some(f.path));
        for (j, g) in WheelSettings::FLOATS.iter().enumerate() {
            let want = if i == j { g.default_value() } else { (g.get)(&all, 0) };
            assert_eq!((g.get)(&clean, 0), want, "{} reset with {}", g.path, f.path);
        }
        let mut want = all.clone();
        f.set(&mut want, 0, f.default_value().unwrap()).unwrap();
        assert_eq!(clean, want, "{}: nothing else moved", f.path);
    }
}

/// The docs' tables of a wheel's numbers (`docs/wheel-model.md`, "Settings") and of a
/// compound's (`docs/tyre-thermal.md`, "The compounds") are the rows, written out:
/// field, unit, default, limit, editor range. A row changed without its docs fails here
/// and prints the table to paste (or run with `BLESS_DOCS=1` to write it). Checked that
/// it fails: with `radius`'s default written 0.35 in the docs it prints the table.
#[test]
fn the_docs_tables_are_the_rows() {
    check_table("docs/wheel-model.md", "WheelSettings::FLOATS", WheelSettings::FLOATS);
    check_table("docs/tyre-thermal.md", "TyreCompound::FLOATS", TyreCompound::FLOATS);
}

/// The Markdown table of `rows` with their values in `S::default()`.
fn table<S: Default, G>(rows: &[Row<S, G>]) -> String {
    let s = S::default();
    let n = |v: f32| {
        if v != 0.0 && !(1.0e-3..1.0e5).contains(&v.abs()) {
            format!("{v:e}")
        } else {
            format!("{v}")
        }
    };
    let pair = |(lo, hi): (f32, f32)| format!("{} ..= {}", n(lo), n(hi));
    let mut t = String::from("| field | unit | default | limit | editor range |\n| --- | --- | --- | --- | --- |\n");
    for r in rows {
        let unit = if r.unit.is_empty() { "–" } else { r.unit };
        let default = r.default_value().map_or("–".into(), n);
        t += &format!(
            "| `{}` | {unit} | {default} | {} | {} |\n",
            r.path,
            pair((r.limit)(&s, 0)),
            pair((r.range)(&s, 0))
        );
    }
    t
}

/// Checks (or with `BLESS_DOCS` set, writes) the table of `rows` between the markers
/// `<!-- rows: NAME -->` and `<!-- /rows -->` in the file `doc` of the repository.
fn check_table<S: Default, G>(doc: &str, name: &str, rows: &[Row<S, G>]) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").join(doc);
    let Ok(text) = std::fs::read_to_string(&path) else {
        // The crate built from its package has no docs beside it.
        return;
    };
    let (open, close) = (format!("<!-- rows: {name} -->\n"), "<!-- /rows -->");
    let start = text
        .find(&open)
        .unwrap_or_else(|| panic!("{doc}: no `{}` marker", open.trim()))
        + open.len();
    let end = start
        + text[start..]
            .find(close)
            .unwrap_or_else(|| panic!("{doc}: no `{close}` marker"));
    let want = table(rows);
    if text[start..end] != want {
        if std::env::var_os("BLESS_DOCS").is_some() {
            std::fs::write(&path, format!("{}{want}{}", &text[..start], &text[end..])).unwrap();
            return;
        }
        panic!("{doc}'s table of {name} is not the rows'; it should read:\n{want}");
    }
}

/// `TyreCompound::validated` (what a file and `WheelSettings::set_compound` go through)
/// clamps every field to its row's limit and refuses a non-finite one, naming it.
/// Checked that it fails with `validated` returning the compound unclamped.
#[test]
fn a_compound_is_validated_through_its_rows() {
    for row in TyreCompound::FLOATS {
        let (min, max) = (row.limit)(&TyreCompound::default(), 0);
        for (typed, stored) in [(1.0e30, max), (-1.0e30, min)] {
            let mut c = TyreCompound::default();
            row.write(&mut c, 0, typed);
            let c = c.validated().unwrap();
            assert_eq!((row.get)(&c, 0), Some(stored), "{} at {typed}", row.path);
        }
        let mut c = TyreCompound::default();
        row.write(&mut c, 0, f32::NAN);
        match c.validated() {
            Err(SettingsError::NonFinite { field, .. }) => assert_eq!(field, row.path),
            other => panic!("{} accepted NaN: {other:?}", row.path),
        }
    }
}
