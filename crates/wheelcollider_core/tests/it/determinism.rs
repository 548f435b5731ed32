//! Cross-platform determinism: the model's transcendentals go through `math` (so that
//! the `libm` feature can make them the same bits on every machine), and a coupled run
//! of the core's car has a hash that is printed for the record and, under `libm`, held.

use crate::common::preset;
use std::path::{Path, PathBuf};
use wheelcollider_core::vehicle::{ChassisMotion, DriverInput, VehicleState, WheelFeedback, step_vehicle};
use wheelcollider_core::{Contact, StepInput, StepState, Suspension, WheelInput, math, step};

/// `std`'s float functions whose last bits depend on the platform's maths library.
const TRANSCENDENTALS: &[&str] = &[
    "sin", "cos", "tan", "sin_cos", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh",
    "exp", "exp2", "exp_m1", "ln", "ln_1p", "log", "log2", "log10", "powf", "powi", "hypot", "cbrt",
];

/// The source files of the crates whose step a rollback or lockstep game runs: the core
/// and the plugin, without their unit-test files.
fn model_sources() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs")
                && path.file_name().is_some_and(|n| n != "tests.rs" && n != "math.rs")
            {
                out.push(path);
            }
        }
    }
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    for krate in ["wheelcollider_core", "wheelcollider_avian"] {
        walk(&crates.join(krate).join("src"), &mut files);
    }
    files.sort();
    files
}

/// The calls of a `std` transcendental in one file's code: `x.sin()`, `f32::sin(x)`,
/// with comments and the trailing `#[cfg(test)] mod tests` left out. A method of the
/// same name on another type is reported too, rightly for glam's `exp` and `powf` on
/// vectors: they call `std` unless glam's own `libm` is on.
fn std_calls(text: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    let lines: Vec<&str> = text.lines().collect();
    for (n, line) in lines.iter().enumerate() {
        let code = line.split("//").next().unwrap_or("");
        if code.trim() == "#[cfg(test)]" && lines.get(n + 1).is_some_and(|l| l.trim_start().starts_with("mod ")) {
            break;
        }
        for name in TRANSCENDENTALS {
            // `.sin(` is whole: `.asin(` and `.sin_cos(` do not contain it.
            let forms = [format!(".{name}("), format!("f32::{name}("), format!("f64::{name}(")];
            if forms.iter().any(|f| code.contains(f.as_str())) {
                found.push((n + 1, line.trim().to_string()));
            }
        }
    }
    found
}

/// The rule `wheelcollider_core::math` states: the model calls its functions, never a
/// `std` float transcendental, so that `libm` (the plugin's `enhanced-determinism`)
/// covers every one. Fails with the file and line of each call outside `math.rs`.
#[test]
fn the_model_calls_no_std_transcendental() {
    let files = model_sources();
    assert!(files.len() > 40, "found only {} source files", files.len());
    let mut calls = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for (line, code) in std_calls(&text) {
            calls.push(format!("{}:{line}: {code}", file.display()));
        }
    }
    assert!(
        calls.is_empty(),
        "std transcendentals in the model (use wheelcollider_core::math):\n{}",
        calls.join("\n")
    );
    // The scanner itself finds each form it looks for.
    for probe in [
        "let a = x.sin();",
        "let a = f64::atan2(y, x);",
        "(k * v).tanh()",
        "x\n    .exp()",
    ] {
        assert!(!std_calls(probe).is_empty(), "the scanner misses {probe:?}");
    }
    assert!(std_calls("let a = math::sin(x); // x.sin()").is_empty());
}

/// The road car's powertrain and four wheels on a rolling road with a point-mass body:
/// a launch, a shift, a brake and a sinusoidal steer at 60 Hz, every output folded into
/// a hash. The run crosses every stage (sweep contact, suspension, tyre with combined
/// slip and camber, spin, differentials, gearbox, Ackermann steering), and with
/// `thermal` the tyres' compound as shipped (without it, the compound taken off).
fn coupled_run_hash(thermal: bool) -> (u64, f64) {
    let mut settings = preset("road");
    if !thermal {
        for a in &mut settings.axles {
            a.wheel.set_compound(None).unwrap();
        }
    }
    let mut vehicle = VehicleState::new(&settings);
    let wheels: Vec<_> = (0..4).map(|i| settings.wheel_settings(i / 2, i % 2 == 1)).collect();
    let mut states = [StepState::default(); 4];
    let mut feedback = [WheelFeedback::default(); 4];
    let mut commands = [WheelInput::default(); 4];
    let (mass, dt) = (settings.chassis.mass as f64, 1.0 / 60.0f32);
    let (mut speed, mut top) = (0.0f64, 0.0f64);
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    let mut fold = |v: f32| hash = (hash ^ v.to_bits() as u64).wrapping_mul(0x0100_0000_01b3);
    for n in 0..1200 {
        let t = n as f32 * dt;
        let mut input = DriverInput {
            throttle: if t < 12.0 { 1.0 } else { 0.0 },
            brake: if t >= 14.0 { 0.6 } else { 0.0 },
            steer: 0.3 * math::sin(std::f32::consts::TAU * 0.5 * t),
            ..Default::default()
        };
        let motion = ChassisMotion::straight(speed as f32);
        let report = step_vehicle(
            &settings,
            &mut vehicle,
            &mut input,
            motion,
            &feedback,
            &mut commands,
            dt,
        )
        .report;
        fold(report.engine_rpm);
        let mut push = 0.0f64;
        for (i, w) in wheels.iter().enumerate() {
            let steer = commands[i].steer_angle.to_radians();
            let contact = Contact {
                hit_distance: w.suspension_length() * 0.5 + w.radius(),
                forward_velocity: speed as f32 * math::cos(steer),
                sideways_velocity: -(speed as f32) * math::sin(steer),
                ..Default::default()
            };
            let input = StepInput {
                input: commands[i],
                contact: Some(contact),
                suspension: Suspension::Explicit {
                    mass: mass as f32 / 4.0,
                    approach_speed: 0.0,
                },
                ..Default::default()
            };
            let out = step(w, &mut states[i], input, dt);
            for v in [
                out.load,
                out.forward_force,
                out.sideways_force,
                out.angular_velocity,
                out.forward_slip,
            ] {
                fold(v);
            }
            feedback[i] = WheelFeedback::from((w, &out));
            push += out.forward_force as f64 * math::cos(steer as f64);
        }
        speed = (speed + push / mass * dt as f64).max(0.0);
        top = top.max(speed);
    }
    (hash, top)
}

/// The coupled run's hash, printed for the record (`docs/plugin.md`, "Cross-platform
/// determinism"); under `libm` it must be the one recorded here (x86_64), which another
/// architecture checks by running `cargo test -p wheelcollider_core --features libm`.
#[test]
fn a_coupled_run_hashes_the_same_everywhere_under_libm() {
    let (hash, top) = coupled_run_hash(true);
    assert_eq!(hash, coupled_run_hash(true).0, "the same run twice");
    let (cold, _) = coupled_run_hash(false);
    // The run drives: 12 s of full throttle, scrubbing the steered tyres (the body does
    // not yaw), reach about 90 km/h.
    assert!(top > 20.0, "top speed {top:.1} m/s");
    let libm = cfg!(feature = "libm");
    println!("coupled run hash (libm {libm}): {hash:#018x}, without the compound {cold:#018x}, top speed {top:.2} m/s");
    if libm {
        assert_eq!(hash, LIBM_HASH, "the libm run differs from the recorded one");
        // Off, the tyres' thermal model changes nothing: the hash recorded before it.
        assert_eq!(cold, LIBM_HASH_WITHOUT_COMPOUND, "the run without a compound moved");
    }
}

/// The hash of [`coupled_run_hash`] with `libm`, recorded on x86_64 (again after the trailers' changes: the
/// road car's centre of mass and lateral curve, its rolling resistance at speed).
const LIBM_HASH: u64 = 0x3c26_6776_a62e_9ab8;
/// The same without the tyres' compound (the road car had none before the thermal model,
/// #54; recorded again with #67's road car).
const LIBM_HASH_WITHOUT_COMPOUND: u64 = 0xa989_4242_607e_1ce5;
