//! The test track's manoeuvres on the shipped presets: closed-form metrics against their
//! answers (`docs/maneuvers.md`), every manoeuvre run briefly on every preset,
//! determinism, and the errors.
use wheelcollider_avian::vehicle::VehicleSettings;
use wheelcollider_track::*;

use wheelcollider_testing::presets::{self, PRESETS, preset};

fn run(name: &str, m: Maneuver, hz: f64, quick: bool) -> ManeuverReport {
    run_maneuver(&preset(name), m, &ManeuverOptions { hz, quick }).expect("runs")
}

/// |measured − expected| ≤ tol · |expected| for the metric `name`.
fn close(r: &ManeuverReport, name: &str, tol: f64) {
    let m = r
        .metric(name)
        .unwrap_or_else(|| panic!("{}: no metric {name}", r.maneuver));
    let e = m.expected.expect("a closed-form answer");
    println!(
        "measured: {} {} {name} = {:.4} {} (expected {:.4}, {:+.2} %)",
        r.vehicle,
        r.maneuver,
        m.value,
        m.unit,
        e,
        (m.value - e) / e.abs().max(1e-9) * 100.0
    );
    assert!(
        (m.value - e).abs() <= tol * e.abs(),
        "{}: {name} {} vs {e}",
        r.vehicle,
        m.value
    );
}

fn within(r: &ManeuverReport, name: &str, lo: f64, hi: f64) {
    let v = r.value(name);
    println!(
        "measured: {} {} {name} = {v:.4} (band {lo}..{hi})",
        r.vehicle, r.maneuver
    );
    assert!(v >= lo && v <= hi, "{}: {name} = {v} outside {lo}..{hi}", r.vehicle);
}

#[test]
fn every_maneuver_runs_briefly_on_every_preset() {
    for name in PRESETS {
        for m in Maneuver::ALL {
            if m.is_towing() && preset(name).hitch.is_none() {
                continue;
            }
            if m.is_tracked_only() {
                assert!(matches!(
                    run_maneuver(&preset(name), m, &ManeuverOptions { hz: 60.0, quick: true }),
                    Err(ManeuverError::Tracked(_))
                ));
                continue;
            }
            if m.is_two_wheeler_only() {
                assert!(matches!(
                    run_maneuver(&preset(name), m, &ManeuverOptions { hz: 60.0, quick: true }),
                    Err(ManeuverError::TwoWheeler(_))
                ));
                continue;
            }
            if m.needs_compound() && preset(name).axles.iter().any(|a| a.wheel.compound().is_none()) {
                assert!(matches!(
                    run_maneuver(&preset(name), m, &ManeuverOptions { hz: 60.0, quick: true }),
                    Err(ManeuverError::Compound(_))
                ));
                continue;
            }
            let r = run(name, m, 60.0, true);
            assert_eq!(r.maneuver, m.name());
            assert!(!r.metrics.is_empty() && !r.time.is_empty(), "{name} {m}");
            for metric in &r.metrics {
                // The metrics that may be undefined: the time to a yaw-rate peak that
                // a response without overshoot does not have, a sway's frequency when it
                // is gone within a swing, and the speed where its damping crosses zero
                // when it does not below the top speed.
                // A vehicle limited below 100 km/h has no 0–100 km/h time.
                let slow = preset(name).predicted_top_speed().0 < 100.0 / 3.6;
                // A launch that shifts out of first before its window opens (the
                // tractor's first gear is over by 7 km/h) has no traction-limited phase.
                let no_launch = metric.name.starts_with("launch_traction") && r.value("launch_traction_time") == 0.0;
                let undefined = ["yaw_rate_peak_time", "frequency", "critical_speed"].contains(&metric.name.as_str())
                    || (slow && metric.name == "zero_to_100_kmh")
                    || no_launch;
                if !undefined {
                    assert!(
                        metric.value.is_finite(),
                        "{name} {m}: {} = {}",
                        metric.name,
                        metric.value
                    );
                }
            }
            for c in &r.channels {
                assert_eq!(c.values.len(), r.time.len(), "{name} {m}: {} length", c.name);
                assert!(
                    c.values.iter().all(|v| v.is_finite()),
                    "{name} {m}: {} not finite",
                    c.name
                );
            }
            for p in &r.plots {
                assert!(r.channel(&p.x).is_some(), "{name} {m}: plot x {}", p.x);
                for y in &p.ys {
                    assert!(r.channel(y).is_some(), "{name} {m}: plot y {y}");
                }
            }
        }
    }
}

/// The MT-07's slalom, 18 m gates at 30 km/h, at 60 and 240 Hz: the rider asked for
/// the lean the path needs 0.6 s ahead plus a spring and damper on the lateral error
/// keeps it within 0.8 m rms of the path (0.60 m measured; a car's at 60 km/h reads
/// 0.38–0.82), upright (its lean's peak under the 30° its rider may use: 11.3°,
/// against the 14.0° the sharpest bend needs at its 31.8 km/h: it cuts the gates), the
/// two rates within 5 % of each other. Checked that it fails: without the path's lean
/// ahead (the spring and damper alone) the error reads 1.54 m rms.
#[test]
fn the_mt07_rides_the_slalom() {
    let mut errors = vec![];
    for hz in [60.0, 240.0] {
        let r = run("mt07", Maneuver::Slalom, hz, false);
        let m = r.metric("max_roll").unwrap();
        let (error, lean, needed) = (r.value("rms_path_error"), m.value, m.expected.unwrap());
        println!(
            "measured: mt07 slalom at {hz} Hz: rms path error {error:.3} m (max {:.2}), lean's peak {lean:.2}° against {needed:.2}°, mean {:.1} km/h",
            r.value("max_path_error"),
            r.value("mean_speed")
        );
        assert!(error < 0.8, "{hz} Hz: {error} m");
        assert!(lean < 30.0 && lean > 0.5 * needed, "{hz} Hz: {lean}° against {needed}°");
        errors.push(error);
    }
    assert!((errors[1] / errors[0] - 1.0).abs() < 0.05, "{errors:?}");
}

/// The weave and capsize sweep on the MT-07 at 60 Hz: let go of at a walk (2 m/s) and
/// at 6 m/s the riderless bike falls, its lean growing by more than half an e-fold a
/// second (2.95 and 1.57 /s measured); faster it falls slower (0.46 /s at 26 m/s);
/// every growth rate finite. The model's MT-07 has no self-stable window (no weave or
/// capsize speed: NaN, `docs/two-wheeler.md`). Checked that it fails: with the rider
/// kept on the handlebar the lean at 6 m/s comes back (−1.56 /s; 0.41 at 2 m/s).
#[test]
fn the_weave_capsize_sweep_lets_go_of_a_two_wheeler() {
    let r = run("mt07", Maneuver::WeaveCapsize, 60.0, false);
    let rate = |v: u32| {
        r.metric(&format!("growth_rate_at_{v}_mps"))
            .expect("a speed of the sweep")
            .value
    };
    let (walk, six, fast) = (rate(2), rate(6), rate(26));
    println!("measured: mt07 let go of: growth rate {walk:.2} /s at 2 m/s, {six:.2} at 6, {fast:.2} at 26");
    assert!(walk > 0.5 && six > 0.5, "{walk} {six}");
    assert!(fast < six && fast.is_finite(), "{fast} {six}");
    for v in [2, 6, 10, 18, 26] {
        assert!(rate(v).is_finite(), "{v} m/s");
    }
}

/// The benchmark bicycle of Meijaard et al. (2007), the `bicycle` preset, on the
/// runner's weave and capsize sweep at 30, 60 and 240 Hz: its weave turns stable and its
/// capsize unstable within 10 % of the paper's 4.292 and 6.024 m/s, each growth rate
/// paired with the speed measured while it is read. Measured: 4.29 / 4.42 / 4.51 m/s
/// and 6.09 / 6.08 / 6.11 m/s. This rides the preset through the vehicle layer (its
/// inertia's tilt, the head built from its settings, the hub motor's cruise); the
/// plugin's `two_wheeler::benchmark` proves the same speeds on the bicycle built from
/// avian bodies by hand. Checked that it fails: with the wheels' spin inertia at 0.01
/// kg·m² (no gyroscopic torque) the weave speed reads 9.33 m/s; with the windows of
/// the MT-07's first sweep (0.3–1.3 and 1.3–2.3 s, the capsize read while the weave
/// still rings) the capsize speed reads 10.93 m/s.
#[test]
fn the_benchmark_bicycle_weaves_and_capsizes_at_the_papers_speeds() {
    for hz in [30.0, 60.0, 240.0] {
        let r = run("bicycle", Maneuver::WeaveCapsize, hz, false);
        let weave = r.value("weave_speed");
        let capsize = r.value("capsize_speed");
        println!(
            "measured: bicycle at {hz} Hz: weave speed {weave:.3} m/s (paper 4.292, {:+.1} %), capsize speed {capsize:.3} m/s (paper 6.024, {:+.1} %)",
            100.0 * (weave / 4.292 - 1.0),
            100.0 * (capsize / 6.024 - 1.0)
        );
        assert!((weave / 4.292 - 1.0).abs() < 0.1, "{hz} Hz: weave speed {weave}");
        assert!((capsize / 6.024 - 1.0).abs() < 0.1, "{hz} Hz: capsize speed {capsize}");
    }
}

/// A shipped two-wheeler given to the runner: the manoeuvres that drive pairs of wheels
/// answer with the error that names the axle of one wheel, not a panic (the runner's
/// recordings index wheels by pairs; `settle` indexed an empty one before); those of
/// `rides_two_wheelers` ride it, with finite numbers. Checked that it fails: without the
/// check in `run_with_trailer`, `settle` panics on an empty recording.
#[test]
fn a_two_wheeler_rides_its_maneuvers_and_gets_a_clear_error_from_the_others() {
    for name in presets::TWO_WHEELERS {
        for m in Maneuver::ALL.into_iter().filter(|m| !m.rides_two_wheelers()) {
            let r = run_maneuver(&preset(name), m, &ManeuverOptions { hz: 60.0, quick: true });
            assert!(
                matches!(r, Err(ManeuverError::SingleAxle(_))),
                "{name}: {m}: {:?}",
                r.err()
            );
        }
    }
}

/// The MT-07 on the runner at 60 and 240 Hz (the lane and the circle held by the
/// rider's lean, `pursuit_steer`): full throttle reaches 100 km/h in the same time at 60
/// and 240 Hz within 5 % (4.85 and 4.73 s; with the rider's hand on the front's load
/// itself, 5.78 and 4.97); both levers from 100 km/h stop it within 5 % of the closed
/// form `expected_stop_distance` (+2.7–2.8 % measured; the axles'
/// locked-slip budgets under the load transfer; the rider's squeeze and the front's ABS
/// cycles take the rest); on the 40 m circle, speed raised slowly, the lean's tangent
/// against the lateral acceleration in the road's plane is a line through 0 (within
/// 0.02) whose slope is the balance's `1 + Σ(J/r)/(m·h)` within 3 % (the wheels'
/// gyroscopic moment: 1.031), and the bike turns at the lateral acceleration its
/// rider's `max_lean` allows (`tan 30°`) within 5 %. The step steer at 80 km/h to the
/// lean that balances 4 m/s² (22.2°): the rider turns the head against the turn first
/// (the countersteer, over 0.5°: 2.3° measured), then into it; the lean settles within
/// 1° of the asked one and the yaw rate about the vertical is the lean's balance
/// `g·tan φ/(v·k)` within 3 % (−1.1 % measured). Every channel is finite and a
/// wheel's channels are the two wheels'. Checked that it fails: with the runner's
/// two-wheeler look-ahead the car's (0.6 s, 5–30 m) the circle weaves and falls at
/// 60 Hz; with the lean read on the body's axis (`a_y·cos φ`) the slope is 1.23; with
/// the steer angle recorded as the input's (never against the turn) the countersteer
/// reads 0.
#[test]
fn the_mt07_rides_the_runners_acceleration_braking_circle_and_step_steer() {
    let mut launches = vec![];
    for hz in [60.0, 240.0] {
        let s = preset("mt07");
        let quick = ManeuverOptions { hz, quick: true };
        let a = run_maneuver(&s, Maneuver::Acceleration, &quick).expect("rides");
        let t100 = a.value("zero_to_100_kmh");
        println!("measured: {hz} Hz: 0–100 km/h in {t100:.2} s");
        assert!(t100.is_finite() && t100 > 2.0 && t100 < 8.0, "{hz} Hz: {t100} s");
        launches.push(t100);
        let b = run_maneuver(&s, Maneuver::Braking, &quick).expect("rides");
        let (d, expected) = (
            b.value("stop_distance"),
            b.metric("stop_distance").unwrap().expected.unwrap(),
        );
        println!("measured: {hz} Hz: stops from 100 km/h in {d:.1} m (closed form {expected:.1} m)");
        assert!((d / expected - 1.0).abs() < 0.05, "{hz} Hz: {d} m against {expected}");
        let c = run_maneuver(&s, Maneuver::Circle, &ManeuverOptions { hz, quick: false }).expect("rides");
        let (slope, zero, most) = (
            c.value("lean_tangent_per_g"),
            c.value("lean_tangent_at_zero"),
            c.value("max_lateral_acc"),
        );
        let balance = c.metric("lean_tangent_per_g").unwrap().expected.unwrap();
        let limit = c.metric("max_lateral_acc").unwrap().expected.unwrap();
        println!(
            "measured: {hz} Hz: the lean's tangent {slope:.4} per g (the balance {balance:.4}) + {zero:.4}; {most:.3} g (limit {limit:.3})"
        );
        assert!(
            (slope / balance - 1.0).abs() < 0.03,
            "{hz} Hz: {slope} against {balance}"
        );
        assert!(zero.abs() < 0.02, "{hz} Hz: {zero} at zero");
        assert!((most / limit - 1.0).abs() < 0.05, "{hz} Hz: {most} g against {limit}");
        let d = run_maneuver(&s, Maneuver::StepSteer, &quick).expect("rides");
        let (asked, lean) = (d.value("asked_lean"), d.value("steady_lean"));
        let (yaw, yaw_balance) = (
            d.value("steady_yaw_rate"),
            d.metric("steady_yaw_rate").unwrap().expected.unwrap(),
        );
        let (counter, steady_steer) = (d.value("countersteer"), d.value("steady_steer"));
        println!(
            "measured: {hz} Hz: step to {asked:.2}° of lean: {lean:.2}° steady, yaw rate {yaw:.2} deg/s (the balance {yaw_balance:.2}), countersteer {counter:.2}°, then {steady_steer:.2}° into the turn, the lean in {:.2} s (overshoot {:.0} %)",
            d.value("lean_response_time"),
            d.value("lean_overshoot")
        );
        assert!((lean - asked).abs() < 1.0, "{hz} Hz: leaned {lean}° for {asked}°");
        assert!(
            (yaw / yaw_balance - 1.0).abs() < 0.03,
            "{hz} Hz: {yaw} deg/s against {yaw_balance}"
        );
        assert!(counter > 0.5, "{hz} Hz: no countersteer ({counter}°)");
        assert!(steady_steer > 0.0, "{hz} Hz: steady steer {steady_steer}°");
        for r in [&a, &b, &c, &d] {
            assert_eq!(r.wheels, ["front", "rear"]);
            for ch in &r.channels {
                assert!(
                    ch.values.iter().all(|v| v.is_finite()),
                    "{hz} Hz: {} {}",
                    r.maneuver,
                    ch.name
                );
            }
        }
    }
    // The launch, held by the rider's hand, does not depend on the step.
    assert!(
        (launches[0] / launches[1] - 1.0).abs() < 0.05,
        "0–100 km/h in {launches:?} s at 60 and 240 Hz"
    );
}

#[test]
fn settle_sag_frequency_and_damping() {
    for name in PRESETS {
        // Sag is static: exact at any rate.
        let r = run(name, Maneuver::Settle, 60.0, false);
        for w in wheel_labels(&preset(name)) {
            close(&r, &format!("sag_{w}"), 0.01);
        }
        let creep = r.value("creep");
        assert!(creep.abs() < 0.1, "{name}: creep {creep} mm in a second at rest");
        // The implicit suspension rings at the corner model's frequency within 3.5 % at
        // 60 Hz (f = √(k/m)/2π; the explicit spring read +6–9 % on the road car). The
        // rally car's rear reads +3.2 %: its roll centre (0.12 m)
        // with its camber gain adds heave stiffness the corner model lacks (the camber
        // changes on both sides in bounce, the tyres push out together and the links
        // carry it up; with both at 0 it reads 1.55 Hz again, with no anti-dive 1.56:
        // `maneuvers --maneuver settle` on the edited preset). And
        // 60 Hz agrees with 240 Hz within 3 % in frequency and 10 % in damping (the kart,
        // at 3.8 Hz, is the coarsest case, ω·dt = 0.4, and its bump half cycle, read off
        // the third extreme of a small swing, differs most: 8 %). The corner model ignores the coupling of the axles through pitch,
        // which moves the damping ratio of the rally car's and the kart's axles by up to
        // 15 % at any rate; the road car, whose axles ring alike, is within 5 %.
        let coarse = run(name, Maneuver::Settle, 60.0, false);
        let fine = run(name, Maneuver::Settle, 240.0, false);
        // The corner model rings each axle alone: a two-axle car's. The tractor's light
        // tandem (1.6 t an axle under a 5.8 t front) rings with the body's pitch (its
        // rear axles read 1.66 Hz against the corners' 3.56): its sag is checked above.
        if preset(name).axles.len() != 2 {
            continue;
        }
        // The road car's rear reads +3.8 % since its centre of mass rose to 0.55 m
        // (within 3.5 % at 0.426 m; the same 1.57 Hz with its rear anti-lift and both roll centres at 0,
        // so not the links): the body pitching about a centre of mass further above the
        // mounts swings them fore and aft, which the tyres' longitudinal stiffness
        // resists, a coupling the corner model lacks.
        for axle in ["front", "rear"] {
            let band = if name == "road" && axle == "rear" { 0.045 } else { 0.035 };
            close(&coarse, &format!("natural_frequency_{axle}"), band);
            for metric in ["natural_frequency", "damping_ratio_rebound", "damping_ratio_bump"] {
                let metric = format!("{metric}_{axle}");
                let (c, f) = (coarse.value(&metric), fine.value(&metric));
                let agree = if metric.starts_with("natural") { 0.03 } else { 0.1 };
                assert!(
                    (c - f).abs() <= agree * f.abs(),
                    "{name}: {metric} {c} at 60 Hz, {f} at 240 Hz"
                );
                let tol = if name == "road" { 0.05 } else { 0.15 };
                close(&coarse, &metric, tol);
            }
        }
    }
}

#[test]
fn acceleration_reaches_the_predicted_top_speed() {
    for (name, band_0_100) in [("road", (6.0, 9.0)), ("rally", (4.5, 7.0)), ("kart", (7.0, 14.0))] {
        let r = run(name, Maneuver::Acceleration, 60.0, false);
        close(&r, "top_speed", 0.03);
        within(&r, "zero_to_100_kmh", band_0_100.0, band_0_100.1);
        let q = r.value("quarter_mile_time");
        assert!(q > 10.0 && q < 22.0, "{name}: quarter mile {q} s");
    }
}

#[test]
fn braking_from_100_matches_the_tyre_curve_and_brake_layout() {
    for name in PRESETS {
        let r = run(name, Maneuver::Braking, 60.0, false);
        if preset(name).brakes.abs {
            // The answer is then the peak-μ bound, which an ABS cannot beat; a good one
            // comes within 10 % (measured: 7.8 % for the road car).
            let bound = r.metric("stop_distance").unwrap().expected.unwrap();
            within(&r, "stop_distance", 0.98 * bound, 1.10 * bound);
        } else {
            close(&r, "stop_distance", 0.05);
        }
        // Never shorter than the tyre's peak allows.
        assert!(r.value("stop_distance") > 0.98 * r.value("peak_mu_bound"), "{name}");
    }
}

#[test]
fn circle_lateral_limit_and_understeer() {
    // A steady circle tops out near μ·g (Milliken & Milliken, ch. 5: the lateral limit is
    // the tyres' friction less what holding speed and load transfer take). Measured:
    // 0.88–0.89 μ·g for the road and rally cars,
    // because holding speed on the circle takes a drive force of ≈ 11 % of the weight
    // (the tyres' lateral forces tilted by their slip angles, ≈ 0.1 rad at the limit,
    // plus drag and rolling resistance), and that comes out of the driven tyres'
    // friction circle. Car and Driver measured 0.93 g for the Golf GTI Mk7. The kart's
    // solid rear axle scrubs through the turn, its tyres below their rated load: 0.81 μ·g.
    // With load sensitivity (0.2 in every preset) the lateral load transfer costs grip
    // too: the tall, soft rally car loses much (0.84 μ·g), and the road car with its
    // centre of mass at its class' 0.55 m most (0.81 μ·g of its refitted 1.14: its
    // skid pad is the published 0.93 g, `the_road_cars_skid_pad_is_the_published_one`).
    for (name, band) in [("road", (0.78, 1.0)), ("rally", (0.8, 1.0)), ("kart", (0.65, 0.9))] {
        let r = run(name, Maneuver::Circle, 60.0, false);
        let mu = r.metric("max_lateral_acc").unwrap().expected.unwrap();
        within(&r, "max_lateral_acc", band.0 * mu, band.1 * mu);
        // Mild understeer, as a road car should have (deg per g), the road car inside
        // the 1.5–3 a real one has. Without load sensitivity the road car shows 0.41:
        // the weight split alone gives none. The kart (0.33, 0.47 with its engine
        // uncoupled from the axle: the engine's inertia on the solid axle changes how the
        // throttle the driver holds the speed with loads the rear tyres) is held to
        // "positive", not to a road car's band.
        // The rally car on its soft gravel tyres (7 × load per rad) with locking axles
        // reads 4.3: every steer effect is twice a road tyre's in degrees. Its old 2.7
        // came from the 10 m/s slip floor, which inflated the steer at the fit's
        // low-speed end (intercept 4.87° against the kinematic 3.61°; with real slips
        // 3.89°) and so flattened the slope.
        let (lowest, highest) = match name {
            "road" => (1.5, 3.0),
            "kart" => (0.2, 3.0),
            _ => (0.5, 5.0),
        };
        within(&r, "understeer_gradient", lowest, highest);
        if name == "road" {
            // An open differential turns freely: the steer at zero lateral acceleration
            // is the kinematic atan(L / R). (A locked or limited-slip axle pushes.)
            close(&r, "steer_at_zero_lateral_acc", 0.05);
        }
    }
}

/// The road car's skid pad on the runner's 40 m circle, with its centre of mass at its
/// class' 0.55 m and its lateral curve refitted for it: within 3 % of the 0.93 g Car and
/// Driver measured for the Golf GTI Mk7. At 30 and 60 Hz. The coupled proof of the plan's
/// envelope (`VehicleSettings::lateral_limit`, a steady turn's closed-form solve): at the
/// circle's speed there it reads what the car holds, no less and at most 3 % over.
/// Checked that it fails: the envelope of the last stop (the load transfer alone) read
/// 10 % over; with the drive that holds the speed left out, 7 % over.
#[test]
fn the_road_cars_skid_pad_is_the_published_one() {
    let s = preset("road");
    for hz in [30.0, 60.0] {
        let r = run("road", Maneuver::Circle, hz, false);
        within(&r, "max_lateral_acc", 0.93 * 0.97, 0.93 * 1.03);
        let held = r.value("max_lateral_acc") as f32;
        let g = wheelcollider_core::STANDARD_GRAVITY;
        let v = (held * g * 40.0).sqrt();
        let envelope = s.lateral_limit(v) / g;
        println!(
            "measured: road car at {hz} Hz holds {held:.3} g on the 40 m circle at {v:.1} m/s; its envelope there {envelope:.3} g"
        );
        assert!(
            (1.0..1.03).contains(&(envelope / held)),
            "{hz} Hz: {envelope} g against {held} g"
        );
    }
}

/// The tractor's beam axles (`AxleSuspension::Beam`): on the 40 m circle its understeer
/// gradient lies within 2–6 deg/g, about the 4 deg/g reference its stability control
/// holds (an estimate of the class: no published tractor figure was found). With a road
/// car's axles in their place (`Independent`, 0.25 deg/kN of compliance steer on the
/// steer axle) it reads over 8 deg/g: the car's compliance alone is about 7 deg/g on a
/// truck's forces. At 60 Hz.
#[test]
fn a_tractor_on_beam_axles_understeers_as_a_truck() {
    let r = run("tractor", Maneuver::Circle, 60.0, false);
    within(&r, "understeer_gradient", 2.0, 6.0);
    let mut car_axles = preset("tractor");
    for a in &mut car_axles.axles {
        a.suspension = wheelcollider_core::vehicle::AxleSuspension::Independent;
    }
    let r = run_maneuver(
        &car_axles,
        Maneuver::Circle,
        &ManeuverOptions { hz: 60.0, quick: false },
    )
    .expect("runs");
    let k = r.value("understeer_gradient");
    println!("measured: tractor on a road car's axles: understeer {k:.2} deg/g");
    assert!(k > 8.0, "{k}");
}

/// A stiffer front anti-roll bar moves load transfer to the front axle, whose tyres then
/// lose grip first (load sensitivity): more understeer, less lateral grip. Without load
/// sensitivity the bar could not do this.
#[test]
fn a_stiffer_front_anti_roll_bar_moves_the_balance_to_understeer() {
    // Without roll steer and compliance steer: a stiffer bar also cuts the body roll and
    // so the rear axle's roll understeer, which here would hide the load transfer.
    // Nor camber's peak: a stiffer bar cuts the roll and so the camber the outside
    // wheels lose leaning away from the force (with it on, the limit rose 0.943 →
    // 0.945 g while the understeer still rose).
    let mut base = preset("road");
    base.axles[1].roll_steer = Some(0.0);
    base.axles[0].compliance_steer = Some(0.0);
    for a in &mut base.axles {
        a.wheel.set_camber_peak_gain(0.0).unwrap();
    }
    let mut stiff = base.clone();
    stiff.axles[0].anti_roll_stiffness = 45_000.0;
    let o = ManeuverOptions { hz: 60.0, quick: false };
    let a = run_maneuver(&base, Maneuver::Circle, &o).unwrap();
    let b = run_maneuver(&stiff, Maneuver::Circle, &o).unwrap();
    let (ua, ub) = (a.value("understeer_gradient"), b.value("understeer_gradient"));
    let (ga, gb) = (a.value("max_lateral_acc"), b.value("max_lateral_acc"));
    println!(
        "measured: front anti-roll bar 20 → 45 kN/m: understeer {ua:.3} → {ub:.3} deg/g, lateral limit {ga:.3} → {gb:.3} g"
    );
    assert!(ub > ua * 1.01, "understeer {ua} → {ub}");
    assert!(gb < ga, "lateral limit {ga} → {gb}");
}

/// Camber that grips: the road car on the 40 m circle reaches a higher lateral limit
/// with −2.5° of front camber than with 0°, and a lower one with +2.5° (the outside
/// front wheel, rolled away from the force, leans into it the more negative its static
/// camber; `docs/wheel-model.md` 3f). With its rear tyres' lateral peak raised to 1.4
/// so that the front axle sets the limit: with its centre of mass at 0.55 m the car as
/// shipped is rear-limited at the limit (−2.5° / 0°: 0.920 / 0.930 g, more front grip
/// only turning it in harder), where at the old 0.426 m it read 0.978 / 0.967.
#[test]
fn negative_front_camber_raises_the_circle_limit() {
    let o = ManeuverOptions { hz: 60.0, quick: false };
    let limit = |camber: f32| {
        let mut s = preset("road");
        let rear = s.axles[1]
            .wheel
            .lateral_tyre()
            .magic_formula()
            .expect("a magic formula");
        let (b, c, e) = (rear.b(), rear.c(), rear.e());
        s.axles[1].wheel.set_lateral_tyre(b, c, 1.4, e).unwrap();
        s.axles[0].wheel.set_camber_angle(camber).unwrap();
        run_maneuver(&s, Maneuver::Circle, &o).unwrap().value("max_lateral_acc")
    };
    let (negative, square, positive) = (limit(-2.5), limit(0.0), limit(2.5));
    println!("measured: front camber −2.5° / 0° / +2.5°: lateral limit {negative:.4} / {square:.4} / {positive:.4} g");
    assert!(negative > square && square > positive);
}

/// The step steer ends in a steady turn: its lateral acceleration is the speed times
/// the yaw rate (`a_y = V·r`, 80 km/h), within 2 %, at the road-wheel angle it asked
/// for; the slalom holds its set 60 km/h within 3 % and its cones' line within 1.5 m.
/// (The bump run has no closed form here: its ride is compared against the quarter car
/// in `docs/maneuvers.md`, not asserted.) Checked that it fails: with the step steer's
/// speed read as 70 km/h in the identity, the road car reads 14 % off.
#[test]
fn a_step_steer_ends_in_a_steady_turn_and_the_slalom_holds_its_speed() {
    const G: f64 = 9.81;
    for name in PRESETS {
        let r = run(name, Maneuver::StepSteer, 60.0, false);
        close(&r, "road_wheel_angle", 0.02);
        let (ay, yaw) = (
            r.value("steady_lateral_acc") * G,
            r.value("steady_yaw_rate").to_radians(),
        );
        let v = 80.0 / 3.6;
        println!("measured: {name} step steer a_y {ay:.4} m/s², V·r {:.4} m/s²", v * yaw);
        assert!(
            (ay - v * yaw).abs() < 0.02 * ay,
            "{name}: a_y {ay} against V·r {}",
            v * yaw
        );
        let r = run(name, Maneuver::Slalom, 60.0, false);
        let speed = r.value("mean_speed");
        // The tractor's stability control brakes through the slalom's 0.5 g weave (a
        // truck's 4 deg/g reference): 51.9 km/h with it on its beam axles (55.4 on a
        // car's axles, whose compliance understeer the control read as the driver's
        // intent), 59.1 km/h without.
        let band = if name == "tractor" { 0.15 } else { 0.03 };
        assert!((speed - 60.0).abs() < band * 60.0, "{name}: slalom at {speed} km/h");
        within(&r, "max_path_error", 0.0, 1.5);
    }
}

#[test]
fn slope_hold_holds_where_tan_theta_is_below_mu() {
    for name in PRESETS {
        let r = run(name, Maneuver::SlopeHold, 60.0, false);
        for deg in [10, 20] {
            let drift = r.metric(&format!("drift_{deg}deg")).unwrap();
            println!("measured: {name} drift on {deg}° over 5 s: {:.3} mm", drift.value);
            assert_eq!(drift.expected, Some(0.0), "tan θ < μ for every shipped tyre");
            assert!(drift.value < 1.0, "{name}: {} mm on {deg}°", drift.value);
        }
    }
}

#[test]
fn same_settings_same_maneuver_same_rate_same_numbers() {
    for m in [Maneuver::Braking, Maneuver::StepSteer] {
        let a = run("road", m, 60.0, true);
        let b = run("road", m, 60.0, true);
        // Bit for bit (an undefined metric is NaN in both runs).
        let bits = |r: &ManeuverReport| {
            r.metrics
                .iter()
                .map(|x| (x.name.clone(), x.value.to_bits()))
                .collect::<Vec<_>>()
        };
        assert_eq!(bits(&a), bits(&b), "{m}");
        assert_eq!(a.channels, b.channels, "{m}");
    }
}

#[test]
fn bad_requests_say_what_is_wrong() {
    let e = "wheelie".parse::<Maneuver>().unwrap_err().to_string();
    assert!(e.contains("wheelie") && e.contains("step-steer"), "{e}");
    assert_eq!("step_steer".parse::<Maneuver>(), Ok(Maneuver::StepSteer));
    for hz in [5.0, 5000.0, f64::NAN] {
        let e = run_maneuver(&preset("road"), Maneuver::Braking, &ManeuverOptions { hz, quick: true }).unwrap_err();
        assert!(matches!(e, ManeuverError::Rate(_)), "{e}");
        assert!(e.to_string().contains("out of range"), "{e}");
    }
    let e = run_maneuver(&preset("kart"), Maneuver::TowCircle, &ManeuverOptions::default()).unwrap_err();
    assert!(
        matches!(e, ManeuverError::Towing(_)) && e.to_string().contains("no hitch"),
        "{e}"
    );
    let e = run_with_trailer(
        &preset("road"),
        Some(&preset("semitrailer")),
        Maneuver::TowSway,
        &ManeuverOptions::default(),
    )
    .unwrap_err();
    assert!(e.to_string().contains("FifthWheel"), "{e}");
    let mut bad = preset("road");
    bad.axles[1].half_track = f32::INFINITY;
    let e = run_maneuver(&bad, Maneuver::Braking, &ManeuverOptions::default()).unwrap_err();
    assert!(e.to_string().contains("axles[1].half_track"), "{e}");
}

/// Roll steer and compliance steer (Milliken §17.5–17.6): rear roll steer towards toe-in
/// and front lateral-force compliance each add understeer, in proportion.
#[test]
fn roll_and_compliance_steer_raise_understeer_monotonically() {
    let base = preset("road");
    let o = ManeuverOptions { hz: 60.0, quick: true };
    let gradient = |settings: &VehicleSettings| {
        run_maneuver(settings, Maneuver::Circle, &o)
            .unwrap()
            .value("understeer_gradient")
    };
    let u0 = {
        let mut s = base.clone();
        s.axles[1].roll_steer = Some(0.0);
        s.axles[0].compliance_steer = Some(0.0);
        gradient(&s)
    };
    for (what, axle, values) in [
        ("rear roll steer", 1, [0.1, 0.2]),
        ("front compliance steer", 0, [0.2, 0.4]),
    ] {
        let mut last = u0;
        for v in values {
            let mut s = base.clone();
            s.axles[1].roll_steer = Some(0.0);
            s.axles[0].compliance_steer = Some(0.0);
            if axle == 1 {
                s.axles[1].roll_steer = Some(v);
            } else {
                s.axles[0].compliance_steer = Some(v);
            }
            let u = gradient(&s);
            println!("measured: {what} {v}: understeer {u:.3} deg/g (none: {u0:.3})");
            assert!(u > last + 0.1, "{what} {v}: {u} after {last}");
            last = u;
        }
    }
}

/// The GT86 preset against Toyota's published figures (0–100 km/h 7.6 s) and Consumer
/// Reports' 60–0 mph in 126 ft (41.2 m scaled to 100–0 km/h). Its top speed is where
/// the drive meets the drag, within 2 % of that closed form: the published 226 km/h
/// came from a road-speed governor no source confirms, now removed; with the published
/// Cd and the estimated 2.0 m² of frontal area the car reaches some 255 km/h (±0.1 m²
/// moves it by ∓4 km/h), printed against the 226.
#[test]
fn the_gt86_reproduces_its_published_figures() {
    let a = run("gt86", Maneuver::Acceleration, 60.0, false);
    let b = run("gt86", Maneuver::Braking, 60.0, false);
    let (top, t100, stop) = (
        a.value("top_speed"),
        a.value("zero_to_100_kmh"),
        b.value("stop_distance"),
    );
    println!("measured: gt86 top speed {top:.1} km/h (226), 0–100 {t100:.2} s (7.6), 100–0 {stop:.1} m (41.2)");
    close(&a, "top_speed", 0.02);
    assert!((t100 - 7.6).abs() < 0.10 * 7.6, "0-100 {t100}");
    assert!((stop - 41.2).abs() < 0.10 * 41.2, "100-0 {stop}");
}

/// Traction control on the driven tyres' budget: after 0.3 s the launch holds the
/// acceleration within 5 % of the traction limit until the first shift, without dips.
#[test]
fn traction_control_holds_a_launch_at_the_traction_limit() {
    for hz in [60.0, 240.0] {
        let r = run("gt86", Maneuver::Acceleration, hz, true);
        within(&r, "launch_traction_min", 0.95, 1.02);
        within(&r, "launch_traction_mean", 0.95, 1.02);
    }
}

/// Full braking at 0.5 g on the 40 m circle: ABS on the combined-slip budget stops
/// shorter than locked wheels and keeps the car within 0.45 m of the circle; locked
/// wheels slide off along the tangent.
#[test]
fn abs_in_a_turn_stops_shorter_and_holds_the_circle() {
    for name in ["road", "gt86"] {
        let r = run(name, Maneuver::BrakeInTurn, 60.0, false);
        let (d_abs, d_locked) = (r.value("stop_distance_abs"), r.value("stop_distance_locked"));
        let (e_abs, e_locked) = (r.value("path_error_abs"), r.value("path_error_locked"));
        println!(
            "measured: {name} brake in turn: ABS {d_abs:.1} m, error {e_abs:.2} m; locked {d_locked:.1} m, error {e_locked:.2} m"
        );
        assert!(d_abs < d_locked, "{name}: {d_abs} vs {d_locked}");
        // Measured 0.29 m (road) and 0.41 m (GT86); with the budget blind to the lateral
        // slip (the pure longitudinal peak) 0.35 and 0.51 m for the same distance.
        assert!(e_abs < 0.45, "{name}: path error {e_abs}");
        assert!(e_locked > 2.0 * e_abs, "{name}: locked wheels {e_locked}");
    }
}

/// Gear changes and a slipping launch clutch are stable at every rate: the same 0–100
/// km/h within 3 % at 30, 60 and 240 Hz. (Not the road car: its 2→3 upshift falls at
/// 99.7 km/h at 60 Hz and just past 100 at 30 Hz, so its 0–100 moves by a shift, 0.2 s,
/// with the rate; its traces agree within 1 km/h.)
#[test]
fn shifts_and_clutch_slip_are_rate_independent() {
    for name in ["gt86", "rally", "kart"] {
        let t: Vec<f64> = [30.0, 60.0, 240.0]
            .iter()
            .map(|&hz| run(name, Maneuver::Acceleration, hz, true).value("zero_to_100_kmh"))
            .collect();
        println!("measured: {name} 0–100 km/h at 30 / 60 / 240 Hz: {t:?} s");
        for v in &t {
            assert!((v - t[2]).abs() < 0.03 * t[2], "{name}: {t:?}");
        }
    }
}

/// The road car with worn rear tyres (lateral peak μ 1.05 → 0.75): it oversteers, and
/// in the sine with dwell it spins without a stability control.
fn loose_rear(esc: bool) -> VehicleSettings {
    let mut settings = preset("road");
    let rear = &mut settings.axles[1].wheel;
    let lateral = rear.lateral_tyre().magic_formula().expect("a magic formula").clone();
    rear.set_lateral_tyre(lateral.b(), lateral.c(), 0.75, lateral.e())
        .unwrap();
    settings.assists.yaw_stability.enabled = esc;
    settings
}

/// FMVSS 126 S5.2 and S5.3 on a sine-with-dwell report: yaw-rate ratios of at most
/// 35 % 1.0 s and 20 % 1.75 s after the steer, and at least 1.83 m sideways at 1.07 s.
fn passes_fmvss_126(r: &ManeuverReport) {
    within(r, "yaw_rate_ratio_1_0", -35.0, 35.0);
    within(r, "yaw_rate_ratio_1_75", -20.0, 20.0);
    within(r, "lateral_displacement", 1.83, 10.0);
}

#[test]
fn yaw_stability_passes_the_sine_with_dwell_that_the_loose_car_fails() {
    let o = ManeuverOptions { hz: 60.0, quick: false };
    let off = run_maneuver(&loose_rear(false), Maneuver::SineWithDwell, &o).unwrap();
    let on = run_maneuver(&loose_rear(true), Maneuver::SineWithDwell, &o).unwrap();
    // The road car ships with its ESC on, as the real car has it; switched off it fails
    // here (yaw-rate ratio 50 % 1.75 s after the steer, as a road car without its
    // stability control may). The rally car, without ESC as the real one, is printed, not
    // held to the standard (a road car's): with its limited-slip axles as typed (the
    // capacity bounds the difference) it spins (YRR(1.0) 54 %, YRR(1.75) 34 %); at
    // twice the locking, the old law's behaviour, it read 36 % and −2 % with the driveline
    // solved as one and 34 % and −4 % with the old feed-forward coupling.
    let mut road = preset("road");
    road.assists.yaw_stability.enabled = false;
    let road = run_maneuver(&road, Maneuver::SineWithDwell, &o).unwrap();
    let road_esc = run("road", Maneuver::SineWithDwell, 60.0, false);
    let rally = run("rally", Maneuver::SineWithDwell, 60.0, false);
    for (label, r) in [
        ("loose rear, ESC off", &off),
        ("loose rear, ESC on", &on),
        ("road, ESC off", &road),
        ("road, ESC on", &road_esc),
        ("rally, ESC off", &rally),
    ] {
        println!(
            "measured: {label}: A {:.2}°, peak {:.1}°/s, YRR(1.0) {:.1} %, YRR(1.75) {:.1} %, lateral {:.2} m, heading {:+.0}°, ESC peak {:.0} N·m",
            r.value("steer_at_0_3g"),
            r.value("yaw_rate_peak"),
            r.value("yaw_rate_ratio_1_0"),
            r.value("yaw_rate_ratio_1_75"),
            r.value("lateral_displacement"),
            r.value("heading_change"),
            r.value("stability_brake_peak"),
        );
    }
    // Without ESC the loose car spins: it turns through more than 90° (its yaw-rate
    // ratios may look small once it slides backwards).
    assert!(
        off.value("heading_change").abs() > 90.0 || off.value("yaw_rate_ratio_1_75") > 20.0,
        "the loose car must fail without ESC, or the test proves nothing"
    );
    for r in [&off, &road, &rally] {
        assert_eq!(
            r.value("stability_brake_peak"),
            0.0,
            "{}: ESC off brakes nothing",
            r.vehicle
        );
    }
    for r in [&on, &road_esc] {
        passes_fmvss_126(r);
        assert!(r.value("stability_brake_peak") > 0.0, "{}: the ESC acted", r.vehicle);
        assert!(
            r.value("heading_change").abs() < 45.0,
            "{}: with ESC it does not spin",
            r.vehicle
        );
    }
}

/// A car typed from its spec sheet with every geometry and compliance field unset (the
/// Mazda MX-5 in `tests/data/mx5_spec_sheet.ron`: mass, dimensions, engine, gears and
/// tyre size; the wheel's default springs and tyres): each axle takes the geometry of
/// its role, and the car handles like a road car. On the 40 m circle it understeers
/// 1.5–3 deg/g and rolls 1.5–3 deg/g, and at rest it sits with 25–75 % of its travel
/// left (the springs' own sag). Checked: with the unset fields at 0 (as it was) it
/// understeered 0.26 deg/g and rolled 3.05 deg/g.
#[test]
fn a_spec_sheet_car_with_default_geometry_handles_like_a_road_car() {
    let text = include_str!("data/mx5_spec_sheet.ron");
    let settings = VehicleSettings::from_ron(text).expect("a valid spec-sheet car");
    let options = ManeuverOptions { hz: 60.0, quick: false };
    let circle = run_maneuver(&settings, Maneuver::Circle, &options).expect("runs");
    within(&circle, "understeer_gradient", 1.5, 3.0);
    within(&circle, "roll_gradient", 1.5, 3.0);
    let settle = run_maneuver(&settings, Maneuver::Settle, &options).expect("runs");
    let travel = settings.axles[0].wheel.suspension_length() as f64 * 1000.0;
    for corner in ["fl", "fr", "rl", "rr"] {
        within(&settle, &format!("sag_{corner}"), 0.25 * travel, 0.75 * travel);
    }
}

/// The runner's command line, run as a person runs it: `--help` lists every manoeuvre
/// with its summary, a wrong name or rate is refused with exit code 2 and the choices,
/// and one quick manoeuvre writes its metrics to JSON.
#[test]
fn the_runner_lists_every_manoeuvre_and_refuses_bad_arguments() {
    use std::process::Command;
    let bin = env!("CARGO_BIN_EXE_maneuvers");
    let road = presets::presets_dir().join("road.ron");
    let help = Command::new(bin).arg("--help").output().unwrap();
    assert!(help.status.success());
    let text = String::from_utf8_lossy(&help.stdout);
    for m in Maneuver::ALL {
        assert!(
            text.contains(m.name()) && text.contains(m.summary()),
            "--help lacks {m}:\n{text}"
        );
    }
    for bad in [["--maneuver", "donuts"], ["--hz", "5"]] {
        let out = Command::new(bin).arg("--preset").arg(&road).args(bad).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        println!(
            "measured: {bad:?} -> {:?}: {}",
            out.status.code(),
            err.lines().next().unwrap_or("")
        );
        assert_eq!(out.status.code(), Some(2), "{bad:?}: {err}");
        assert!(err.contains(bad[1]), "{bad:?}: {err}");
    }
    let nothing = Command::new(bin).output().unwrap();
    assert_eq!(nothing.status.code(), Some(2), "no preset, no --diff");
    let json = std::env::temp_dir().join(format!("maneuvers-cli-{}.json", std::process::id()));
    let out = Command::new(bin)
        .arg("--preset")
        .arg(&road)
        .args(["--manoeuvre", "settle", "--quick", "--hz", "120", "--json"])
        .arg(&json)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let doc: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    std::fs::remove_file(&json).ok();
    assert_eq!(doc["hz"], 120.0);
    assert_eq!(doc["runs"][0]["maneuver"], "settle");
    assert!(doc["runs"][0]["metrics"].as_array().is_some_and(|m| !m.is_empty()));
}

/// The towing manoeuvres behind both tow vehicles (the road car with the caravan, the
/// tractor with the semi-trailer) against their closed forms: on the steady circle the
/// hitch's and the trailer axle's radii within 3 % of the kinematic off-tracking;
/// reversing, the articulation's divergence within 12 % of `|v|/l_t` and the jackknife
/// reported within 1° of the hitch's stop.
#[test]
fn towing_maneuvers_match_their_closed_forms() {
    for name in ["road", "tractor"] {
        let r = run(name, Maneuver::TowCircle, 60.0, true);
        close(&r, "hitch_radius", 0.03);
        close(&r, "trailer_axle_radius", 0.03);
        let r = run(name, Maneuver::TowReverse, 60.0, true);
        close(&r, "divergence", 0.12);
        let jackknife = r.metric("jackknife_angle").unwrap();
        assert!(
            (jackknife.value - jackknife.expected.unwrap()).abs() <= 1.0,
            "{name}: {jackknife:?}"
        );
    }
}

/// Ten laps on the GT86's track variant (club slicks, cold at the start): the first lap
/// is the slowest by the slicks' warm-up, the outer front tread runs hottest and wears
/// most, the pressures rise with the heat, and the wear costs pace (the same stint with
/// treads that do not wear is the reference). The touring GT86 has no warm-up to speak
/// of (its window opens at 5 °C). The bands are the physics' signs and sizes, not fits:
/// the measured values are printed.
#[test]
fn a_stint_on_slicks_warms_up_then_loses_pace_to_wear() {
    let track = preset("gt86_track");
    let r = run_maneuver(&track, Maneuver::Stint, &ManeuverOptions { hz: 60.0, quick: false }).expect("runs");
    within(&r, "warm_up_loss", 0.3, 2.0);
    // A club slick wearing at its life's rate (3 mm in about 190 km) loses under a
    // tenth of a millimetre in the stint: about a millisecond a lap.
    within(&r, "pace_lost_to_wear", 0.3, 60.0);
    within(&r, "fr.peak_surface_temperature", 60.0, 110.0);
    assert!(r.value("fr.tread_worn") > r.value("fl.tread_worn"));
    assert!(r.value("fr.peak_surface_temperature") > r.value("fl.peak_surface_temperature"));
    for w in ["fl", "fr", "rl", "rr"] {
        within(&r, &format!("{w}.pressure_rise"), 5.0, 60.0);
    }
    let touring = run("gt86", Maneuver::Stint, 60.0, true);
    within(&touring, "warm_up_loss", 0.0, 0.1);
}

/// The Leopard 2 on the runner at 60 and 240 Hz: the manoeuvres a car's drivers steer
/// answer with the error that names a tracked vehicle; its own run with finite numbers
/// and meet their closed forms: the skid-steer turn at full steer, its outer and inner
/// thrusts within 5 % of Wong's with the friction circle (+2.4 / +2.6 % measured) and
/// the turning moment within 5 %, each radius within 5 % of the belts' speeds with
/// their slip taken off; the pivot's yaw rate within 5 % of the belts' power over the
/// moment, its moment within 5 % of Wong's, the engine's power within 5 % of the belts';
/// it climbs 50 % and 90 % of its gradient limit and rolls back on 110 %; across a 30 %
/// side slope it moves under 1 mm; the acceleration's top speed within 3 % of the
/// published 68 km/h. Checked that it fails: with the skid-steer's thrusts read
/// without their rolling resistance put back (`Belts::read`), the outer reads 6.6 % low.
#[test]
fn the_tank_drives_its_maneuvers_and_gets_a_clear_error_from_the_others() {
    for name in presets::TRACKED {
        for m in Maneuver::ALL.into_iter().filter(|m| !m.drives_tracked()) {
            let r = run_maneuver(&preset(name), m, &ManeuverOptions { hz: 60.0, quick: true });
            assert!(
                matches!(r, Err(ManeuverError::Tracked(_))),
                "{name}: {m}: {:?}",
                r.err()
            );
        }
    }
    for hz in [60.0, 240.0] {
        let turn = run("leopard2", Maneuver::SkidSteer, hz, false);
        for metric in ["thrust_outer", "thrust_inner", "turning_moment"] {
            close(&turn, metric, 0.05);
        }
        for steer in [25, 50, 100] {
            close(&turn, &format!("radius_steer_{steer}"), 0.05);
        }
        let pivot = run("leopard2", Maneuver::Pivot, hz, false);
        for metric in ["yaw_rate", "turning_moment", "engine_power"] {
            close(&pivot, metric, 0.05);
        }
        within(&pivot, "drift", 0.0, 1.0);
        let climb = run("leopard2", Maneuver::SlopeClimb, hz, false);
        within(&climb, "climbed_50pct_of_limit", 1.0, f64::INFINITY);
        within(&climb, "climbed_90pct_of_limit", 0.5, f64::INFINITY);
        within(&climb, "climbed_110pct_of_limit", f64::NEG_INFINITY, 0.0);
        let side = run("leopard2", Maneuver::SideSlope, hz, false);
        within(&side, "drift_30pct", 0.0, 1.0);
        let acceleration = run("leopard2", Maneuver::Acceleration, hz, false);
        within(&acceleration, "top_speed", 68.0 * 0.97, 68.0 * 1.03);
        for r in [&turn, &pivot, &climb, &side, &acceleration] {
            for c in &r.channels {
                assert!(
                    c.values.iter().all(|v| v.is_finite()),
                    "{hz} Hz {}: {}",
                    r.maneuver,
                    c.name
                );
            }
        }
    }
}
