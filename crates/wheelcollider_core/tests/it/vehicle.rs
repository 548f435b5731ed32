//! The vehicle description and powertrain pieces without a physics engine.
use crate::common::{PRESETS, TRAILERS, preset};
use wheelcollider_core::vehicle::*;

#[test]
fn every_preset_round_trips_every_field() {
    for name in PRESETS {
        let settings = preset(name);
        let text = settings.to_ron();
        let back = VehicleSettings::from_ron(&text).unwrap();
        assert_eq!(settings, back, "{name}");
    }
}

#[test]
fn throttle_for_inverts_the_engine_torque() {
    let settings = preset("road");
    let e = &settings.engine;
    for rpm in [800.0, 2000.0, 4400.0, 6400.0] {
        for throttle in [0.0, 0.1, 0.5, 0.9, 1.0] {
            let t = e.torque(rpm, throttle);
            let back = e.throttle_for(rpm, t);
            assert!((back - throttle).abs() < 1e-3, "{rpm} rpm, {throttle}: {back}");
        }
    }
    // Engine braking at the redline with the throttle shut is the stated torque.
    assert!((e.torque(e.redline_rpm, 0.0) + e.braking_torque).abs() < 1e-3);
}

#[test]
fn a_non_finite_number_anywhere_is_refused_by_name() {
    let base = preset("road");
    type Breaker = Box<dyn Fn(&mut VehicleSettings)>;
    let cases: Vec<(&str, Breaker)> = vec![
        ("chassis.mass", Box::new(|s| s.chassis.mass = f32::NAN)),
        (
            "axles[1].half_track",
            Box::new(|s| s.axles[1].half_track = f32::INFINITY),
        ),
        (
            "engine.torque_curve[2][1] (N·m)",
            Box::new(|s| s.engine.torque_curve[2][1] = f32::NAN),
        ),
        (
            "gearbox.forward[3]",
            Box::new(|s| s.gearbox.forward[3] = f32::NEG_INFINITY),
        ),
        ("brakes.front_bias", Box::new(|s| s.brakes.front_bias = f32::NAN)),
        ("steering.max_angle", Box::new(|s| s.steering.max_angle = f32::NAN)),
        ("aero.frontal_area", Box::new(|s| s.aero.frontal_area = f32::NAN)),
        ("front_torque_share", Box::new(|s| s.front_torque_share = f32::NAN)),
    ];
    for (field, break_it) in cases {
        let mut s = base.clone();
        break_it(&mut s);
        let e = s.validate().unwrap_err();
        assert_eq!(e.field, field);
    }
    // Out of range but finite: clamped, not refused.
    let mut s = base.clone();
    s.brakes.front_bias = 7.0;
    s.gearbox.efficiency = 0.0;
    s.steering.max_angle = -10.0;
    s.validate().unwrap();
    assert_eq!(
        (s.brakes.front_bias, s.gearbox.efficiency, s.steering.max_angle),
        (1.0, 0.5, 0.0)
    );
    // Structural errors.
    let mut s = base.clone();
    s.engine.torque_curve.swap(0, 1);
    assert_eq!(s.validate().unwrap_err().field, "engine.torque_curve");
    let mut s = base;
    s.axles.clear();
    assert_eq!(s.validate().unwrap_err().field, "axles");
}

#[test]
fn step_vehicle_survives_hostile_input() {
    let settings = preset("rally");
    let mut state = VehicleState::new(&settings);
    let wheel = WheelFeedback {
        inertia: 1.3,
        radius: 0.32,
        peak_slip: 0.2,
        ..Default::default()
    };
    let mut out = [WheelInput::default(); 4];
    for v in [f32::NAN, f32::INFINITY, -1e30, 0.0, 1e30] {
        let mut input = DriverInput {
            throttle: v,
            brake: v,
            steer: v,
            handbrake: v,
            clutch: v,
            gear_up: true,
            gear_down: false,
            weight_shift: v,
        };
        let wheels = [WheelFeedback {
            angular_velocity: v,
            tyre_torque: v,
            compression: v,
            ..wheel
        }; 4];
        for dt in [1.0 / 60.0, 0.0, f32::NAN, 5.0] {
            let r = step_vehicle(
                &settings,
                &mut state,
                &mut input,
                ChassisMotion::straight(v),
                &wheels,
                &mut out,
                dt,
            )
            .report;
            assert!(r.engine_rpm.is_finite() && r.engine_torque.is_finite());
            for c in &out {
                assert!(c.drive_torque.is_finite() && c.brake_torque.is_finite() && c.steer_angle.is_finite());
                assert!(c.anti_roll_force.is_finite() && c.brake_torque >= 0.0);
            }
        }
        assert!(!input.gear_up, "the shift request is consumed");
    }
    // Fewer wheels than the settings has: the missing ones count as airborne, no panic.
    let mut input = DriverInput::default();
    step_vehicle(
        &settings,
        &mut state,
        &mut input,
        ChassisMotion::straight(0.0),
        &[wheel; 2],
        &mut out[..2],
        1.0 / 60.0,
    );
}

#[test]
fn the_preset_list_is_every_shipped_file() {
    let mut files: Vec<String> = std::fs::read_dir(crate::common::presets_dir())
        .unwrap()
        .filter_map(|e| {
            e.ok()?
                .file_name()
                .into_string()
                .ok()?
                .strip_suffix(".ron")
                .map(String::from)
        })
        .collect();
    files.sort();
    let mut listed: Vec<String> = PRESETS
        .iter()
        .chain(&crate::common::TRAILERS)
        .chain(&crate::common::VARIANTS)
        .chain(&crate::common::TWO_WHEELERS)
        .chain(&crate::common::TRACKED)
        .map(|s| s.to_string())
        .collect();
    listed.sort();
    assert_eq!(
        files, listed,
        "tests/it/common's PRESETS, TRAILERS, VARIANTS, TWO_WHEELERS and TRACKED must name every file in assets/presets"
    );
}

/// The engine's sound fields: cylinders clamp to 1 ..= 16; a stroke count other than 2
/// or 4, or a cross-plane V8 without 8 cylinders, is refused by name; the firing
/// frequency is `rpm / 60 · cylinders · 2 / strokes`.
#[test]
fn engine_sound_fields_clamp_or_are_refused_by_name() {
    let with = |f: &dyn Fn(&mut EngineSettings)| {
        let mut s = preset("road");
        f(&mut s.engine);
        s.validate().map(|()| s.engine.cylinders)
    };
    assert_eq!(with(&|e| e.cylinders = 0), Ok(1));
    assert_eq!(with(&|e| e.cylinders = 40), Ok(16));
    assert_eq!(with(&|e| e.strokes = 3).unwrap_err().field, "engine.strokes");
    let v8 = |e: &mut EngineSettings| (e.layout, e.cylinders) = (EngineLayout::CrossPlaneV8, 6);
    assert_eq!(with(&v8).unwrap_err().field, "engine.layout");
    assert_eq!(
        with(&|e| (e.layout, e.cylinders) = (EngineLayout::CrossPlaneV8, 8)),
        Ok(8)
    );
    let kart = preset("kart").engine;
    assert_eq!((kart.cylinders, kart.strokes), (1, 2));
    assert!((kart.firing_frequency(6000.0) - 100.0).abs() < 1e-4);
    assert!((preset("road").engine.firing_frequency(6000.0) - 200.0).abs() < 1e-4);
}

/// The value at `path` (`engine.idle_rpm`, `axles[1].differential.preload`) in a RON
/// value of a whole preset: through maps, `Some` and sequences.
fn at_path(value: &ron::Value, path: &str) -> Option<f64> {
    let mut v = value.clone();
    for step in path.split('.') {
        let (key, index) = match step.split_once('[') {
            Some((k, i)) => (k, Some(i.trim_end_matches(']').parse::<usize>().ok()?)),
            None => (step, None),
        };
        while let ron::Value::Option(Some(inner)) = v {
            v = *inner;
        }
        let ron::Value::Map(map) = v else { return None };
        v = map.get(&ron::Value::String(key.to_owned()))?.clone();
        if let Some(i) = index {
            let ron::Value::Seq(seq) = v else { return None };
            v = seq.get(i)?.clone();
        }
    }
    while let ron::Value::Option(Some(inner)) = v {
        v = *inner;
    }
    match v {
        ron::Value::Number(n) => Some(n.into_f64()),
        _ => None,
    }
}

/// Every shipped preset, trailer, two-wheeler and tracked vehicle.
fn every_shipped() -> impl Iterator<Item = (&'static str, VehicleSettings)> {
    PRESETS
        .iter()
        .chain(TRAILERS.iter())
        .chain(crate::common::TWO_WHEELERS.iter())
        .chain(crate::common::TRACKED.iter())
        .map(|&name| (name, preset(name)))
}

/// Every scalar of a vehicle outside its wheels is declared once (`VEHICLE_FLOATS`): its
/// path names the field a preset file has there (read back from the written RON), its
/// editor range lies inside its limit on every shipped preset and trailer, a value
/// inside its range survives `validate` and the file, and one past its limit is clamped
/// to it. Checked that it fails: with `engine.inertia`'s path typed `engine.intertia`
/// the path check names it; with `hitch.tilt_limit`'s field pointing at `yaw_limit`,
/// the file check names it.
#[test]
fn every_vehicle_float_is_declared_once() {
    let mut paths: Vec<&str> = VEHICLE_FLOATS.iter().map(|f| f.path).collect();
    paths.sort_unstable();
    paths.dedup();
    assert_eq!(paths.len(), VEHICLE_FLOATS.len(), "a path declared twice");
    let mut seen = 0;
    for (name, settings) in every_shipped() {
        let written: ron::Value = ron::from_str(&settings.to_ron()).unwrap();
        for f in VEHICLE_FLOATS {
            for i in f.indices(&settings) {
                let path = f.path_at(i);
                let value = (f.get)(&settings, i);
                assert_eq!(
                    at_path(&written, &path).map(|r| r as f32),
                    value,
                    "{name}: {path} in the file"
                );
                if value.is_none() && f.optional.is_none() {
                    continue; // a part this vehicle does not have
                }
                seen += 1;
                let ((lo, hi), (rlo, rhi)) = ((f.limit)(&settings, i), (f.range)(&settings, i));
                assert!(
                    lo <= rlo && rhi <= hi && rlo <= rhi,
                    "{name}: {path} range {rlo}..{rhi} outside {lo}..{hi}"
                );
                // Inside the range: kept through validate and the file.
                let mut s = settings.clone();
                let v = rlo + 0.25 * (rhi - rlo);
                f.write(&mut s, i, v);
                s.validate().unwrap();
                let back = VehicleSettings::from_ron(&s.to_ron()).unwrap();
                assert_eq!((f.get)(&back, i), Some(v), "{name}: {path} = {v} through the file");
                // Past the limit: clamped to it.
                let mut s = settings.clone();
                f.write(&mut s, i, hi + 1.0e6);
                s.validate().unwrap();
                let (_, hi_now) = (f.limit)(&s, i);
                assert_eq!((f.get)(&s, i), Some(hi_now), "{name}: {path} clamped");
            }
        }
    }
    println!(
        "{} rows, {seen} numbers on the shipped vehicles checked",
        VEHICLE_FLOATS.len()
    );
}

/// The RON value's numbers, each with its path (`axles[0].wheel.radius`).
fn numbers(v: &ron::Value, path: &str, out: &mut Vec<String>) {
    match v {
        ron::Value::Number(_) => out.push(path.to_owned()),
        ron::Value::Option(Some(inner)) => numbers(inner, path, out),
        ron::Value::Seq(seq) => {
            for (i, x) in seq.iter().enumerate() {
                numbers(x, &format!("{path}[{i}]"), out);
            }
        }
        ron::Value::Map(map) => {
            for (k, x) in map.iter() {
                let ron::Value::String(k) = k else { continue };
                let p = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                numbers(x, &p, out);
            }
        }
        _ => {}
    }
}

/// Every number a shipped preset's written file holds has one declaration: a row of
/// [`VEHICLE_FLOATS`], the wheel's ([`WheelSettings::FLOATS`](wheelcollider_core::WheelSettings::FLOATS), with its tyre
/// curves' coefficients) or the tyre compound's
/// ([`TyreCompound::FLOATS`](wheelcollider_core::TyreCompound::FLOATS)), or one of the
/// arrays and counts `settings.rs` checks by hand (listed here). A number added to a
/// settings type without a row fails it, naming the path. Checked that it fails: with
/// `hitch.break_force`'s row removed it names `hitch.break_force` on the road car.
#[test]
fn every_number_of_a_preset_is_declared() {
    use wheelcollider_core::{TyreCompound, WheelSettings};
    // The arrays and counts with their own checks (`settings.rs`, `towing.rs`).
    const BY_HAND: &[&str] = &[
        "chassis.size[]",
        "chassis.centre_of_mass[]",
        "chassis.inertia[]",
        "engine.torque_curve[][]",
        "engine.cylinders",
        "engine.strokes",
        "gearbox.forward[]",
        "hitch.position[]",
        "trailer.coupling[]",
        "two_wheeler.front_centre_of_mass[]",
        "two_wheeler.front_inertia[]",
        "axles[].wheel.cylinder_resolution",
    ];
    let wheel: Vec<&str> = WheelSettings::FLOATS.iter().map(|f| f.path).collect();
    let compound: Vec<&str> = TyreCompound::FLOATS.iter().map(|f| f.path).collect();
    let declared = |path: &str| -> bool {
        // Indices dropped: `axles[1].z` is the row `axles[].z`.
        let mut bare = String::new();
        let mut skip = false;
        for c in path.chars() {
            match c {
                '[' => {
                    bare.push('[');
                    skip = true
                }
                ']' => {
                    bare.push(']');
                    skip = false
                }
                _ if skip => {}
                c => bare.push(c),
            }
        }
        if VEHICLE_FLOATS.iter().any(|f| f.path == bare) || BY_HAND.contains(&bare.as_str()) {
            return true;
        }
        let Some(w) = bare.strip_prefix("axles[].wheel.") else {
            return false;
        };
        if let Some(c) = w.strip_prefix("compound.") {
            return compound.contains(&c);
        }
        // The tyre curves' coefficients (`CurveDef`; the longitudinal one's are the
        // wheel's `magic_formula_*`).
        let curve = |c: &str| ["b", "c", "d", "e"].contains(&c);
        wheel.contains(&w)
            || w.strip_prefix("magic_formula_").is_some_and(curve)
            || w.strip_prefix("lateral_tyre.").is_some_and(curve)
    };
    let mut total = 0;
    for (name, settings) in every_shipped() {
        let written: ron::Value = ron::from_str(&settings.to_ron()).unwrap();
        let mut all = Vec::new();
        numbers(&written, "", &mut all);
        total += all.len();
        let missing: Vec<&String> = all.iter().filter(|p| !declared(p)).collect();
        assert!(missing.is_empty(), "{name}: numbers without a declaration: {missing:?}");
    }
    println!("{total} numbers in the shipped files, each declared");
}

/// The compiled-in presets are the shipped files: `VehicleSettings::preset(name)` equals
/// the file read from disk for every name, and an unknown name is refused with the list.
#[test]
fn the_compiled_in_presets_are_the_shipped_files() {
    use wheelcollider_core::vehicle::presets;
    assert_eq!(presets::NAMES, crate::common::PRESETS);
    assert_eq!(presets::TRAILERS, crate::common::TRAILERS);
    assert_eq!(presets::VARIANTS, crate::common::VARIANTS);
    assert_eq!(presets::TWO_WHEELERS, crate::common::TWO_WHEELERS);
    assert_eq!(presets::TRACKED, crate::common::TRACKED);
    for name in presets::NAMES
        .into_iter()
        .chain(presets::TRAILERS)
        .chain(presets::VARIANTS)
        .chain(presets::TWO_WHEELERS)
        .chain(presets::TRACKED)
    {
        let embedded = VehicleSettings::preset(name).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(embedded, crate::common::preset(name), "{name}");
        assert_eq!(presets::text(name), Some(crate::common::preset_text(name).as_str()));
    }
    let error = VehicleSettings::preset("limo").unwrap_err().to_string();
    assert!(error.contains("limo") && error.contains("gt86"), "{error}");
}

/// The preset file's tables in `docs/vehicle.md` agree with the declarations: every row
/// of [`VEHICLE_FLOATS`] has its line in the table of its part (`### \`engine\``,
/// `### \`axles[i]\``, …) with the row's unit; a number inside a choice (a
/// limited-slip differential's, a trailer brake's) is named in its choice's line.
/// Checked that it fails: with `engine.inertia`'s unit written `kg m²` in the docs it
/// names the row.
#[test]
fn the_docs_tables_agree_with_the_declarations() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/vehicle.md");
    let Ok(text) = std::fs::read_to_string(&path) else {
        // The crate built from its package has no docs beside it.
        return;
    };
    // (path, unit, the line's text) of every table line of the preset file's sections.
    let mut lines: Vec<(String, String, String)> = Vec::new();
    let mut section = String::new();
    for line in text.lines() {
        if let Some(h) = line.strip_prefix("### ") {
            // `### \`engine\`` → "engine."; the top level and towing have full paths.
            section = match h.split('`').nth(1) {
                _ if h.starts_with("Top level") || h.starts_with("`hitch`") => String::new(),
                Some("axles[i]") => "axles[].".into(),
                Some(s) => format!("{s}."),
                None => String::new(),
            };
            continue;
        }
        if line.starts_with("## ") {
            section.clear();
            continue;
        }
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        if cells.len() < 5 || !cells[1].starts_with('`') {
            continue;
        }
        let unit = if cells[2] == "–" { "" } else { cells[2] };
        // `air_control.pitch_rate`, `yaw_rate`: the later names share the first's part.
        let names: Vec<&str> = cells[1].split('`').skip(1).step_by(2).collect();
        let part = names[0].rsplit_once('.').map_or("", |(p, _)| p);
        for name in names {
            let name = match name.contains('.') || part.is_empty() {
                true => name.to_owned(),
                false => format!("{part}.{name}"),
            };
            lines.push((format!("{section}{name}"), unit.to_owned(), line.to_owned()));
        }
    }
    assert!(
        lines.len() > 60,
        "found only {} table lines in {}",
        lines.len(),
        path.display()
    );
    for f in VEHICLE_FLOATS {
        if let Some((_, unit, _)) = lines.iter().find(|(p, ..)| p == f.path) {
            assert_eq!(unit, f.unit, "{}: the docs' unit", f.path);
            continue;
        }
        // A number of a choice: the choice's line names it.
        let (parent, name) = f.path.rsplit_once('.').unwrap();
        let parent = parent.replace("axles[].differential", "centre_differential");
        let choice = lines.iter().find(|(p, ..)| *p == parent);
        assert!(
            choice.is_some_and(|(_, _, l)| l.contains(name)),
            "{}: no line in docs/vehicle.md's tables, and no choice's line that names it",
            f.path
        );
    }
}

/// The chassis' `centre_of_mass` is the preset key (the project's spelling, as in
/// `centre_differential` and `roll_centre_height`); a file written with avian's
/// `center_of_mass` still loads, the same. Checked that it fails without the alias:
/// the old spelling is refused as an unknown field.
#[test]
fn a_preset_may_spell_the_centre_of_mass_as_avian_does() {
    let text = crate::common::preset_text("road");
    assert!(text.contains("centre_of_mass"));
    let old = VehicleSettings::from_ron(&text.replace("centre_of_mass", "center_of_mass")).unwrap();
    assert_eq!(old, preset("road"));
}
