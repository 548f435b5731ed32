//! A two-wheeler let go of: the weave and capsize sweep (`docs/two-wheeler.md`).
//!
//! At each speed the rider holds the bike upright in its lane for a second, then lets go
//! of the handlebar (its [`Rider`] removed: the head turns freely and the steer input
//! reaches nothing) and the lean is kicked at [`KICK`]; the cruise control keeps the
//! speed. The lean's growth rate is read from its largest excursions over two
//! successive windows, `ln(A₂/A₁)/Δt`: positive, the bike falls or weaves apart;
//! negative, it comes back upright by itself. An uncontrolled bicycle (Meijaard et
//! al., Proc. R. Soc. A 463, 2007) weaves apart below its weave speed, runs upright by
//! itself above it and capsizes slowly above its capsize speed; the sweep finds where
//! the growth rate crosses zero each way, between the speeds it measures.

use super::prelude::*;

/// The lean rate the bike is kicked with when its rider lets go (rad/s, to the left).
pub(crate) const KICK: f32 = 0.1;
/// The two windows the growth rate compares (s after the kick): the first leaves out
/// the kick's own response, each spans a weave's period at a walk.
const WINDOWS: [(f32, f32); 2] = [(0.3, 1.3), (1.3, 2.3)];
/// A lean (deg) past which the bike has fallen: the growth rate is read up to it.
const FALLEN: f32 = 45.0;

/// The lean's growth rate (1/s) at `v` (m/s), and the run.
fn growth_rate(settings: &VehicleSettings, o: &ManeuverOptions, v: f32) -> (f32, Sim) {
    let mut sim = Sim::new(settings, o, Ground::Flat(WheelSurface::ASPHALT));
    sim.hold(DriverInput::default(), 0.5);
    sim.launch(v);
    for _ in 0..sim.steps(1.0) {
        sim.cruise_in_lane(v);
    }
    // Let go, and kick the lean: a lean rate to the left is a spin about −heading.
    let world = sim.app.world_mut();
    world.entity_mut(sim.car).remove::<Rider>();
    let heading = sim.k.forward.with_y(0.0).normalize_or(Vec3::NEG_Z);
    if let Some(mut w) = world.get_mut::<AngularVelocity>(sim.car) {
        w.0 -= heading * KICK;
    }
    let start = sim.rec.time.len();
    let t0 = sim.t;
    for _ in 0..sim.steps(WINDOWS[1].1) {
        sim.cruise_step(v, 0.0);
        let lean = sim.rec.chassis[roll()].last().copied().unwrap_or(0.0);
        if lean.abs() > FALLEN {
            break;
        }
    }
    let time = &sim.rec.time[start..];
    let lean = &sim.rec.chassis[roll()][start..];
    let peak = |(from, to): (f32, f32)| {
        time.iter()
            .zip(lean)
            .filter(|(t, _)| (from..to).contains(&(*t - t0)))
            .map(|(_, l)| l.abs())
            .fold(0.0f32, f32::max)
    };
    let a1 = peak(WINDOWS[0]);
    let end = time.last().map_or(0.0, |t| t - t0);
    let fell = lean.last().is_some_and(|l| l.abs() > FALLEN);
    let middle = |(from, to): (f32, f32)| 0.5 * (from + to);
    let rate = if fell {
        // Fallen: the growth from the first window to the fall.
        (FALLEN / a1.max(1e-3)).ln() / (end - middle(WINDOWS[0])).max(0.1)
    } else {
        (peak(WINDOWS[1]) / a1.max(1e-6)).ln() / (middle(WINDOWS[1]) - middle(WINDOWS[0]))
    };
    (rate, sim)
}

/// The index of the lean in the recording's chassis channels (`CHASSIS`' `roll`).
fn roll() -> usize {
    CHASSIS
        .iter()
        .position(|c| c.0 == "roll")
        .expect("the lean is recorded")
}

/// Where `rates` (speed, growth rate), in rising speed, first crosses zero downwards
/// (`down`) or upwards after `from` (m/s): interpolated between the two speeds either
/// side; `None` if it does not.
fn crossing_speed(rates: &[(f32, f32)], from: f32, down: bool) -> Option<f32> {
    rates.windows(2).filter(|w| w[0].0 >= from).find_map(|w| {
        let ((v0, r0), (v1, r1)) = (w[0], w[1]);
        let crosses = if down {
            r0 > 0.0 && r1 <= 0.0
        } else {
            r0 <= 0.0 && r1 > 0.0
        };
        crosses.then(|| v0 + (v1 - v0) * r0 / (r0 - r1))
    })
}

/// The sweep: each speed's growth rate, the weave speed (the growth rate's first
/// crossing downwards) and the capsize speed (its next crossing upwards), or NaN where
/// the sweep finds none.
pub(crate) fn weave_capsize(settings: &VehicleSettings, o: &ManeuverOptions, out: &mut Out) -> Sim {
    let step = if o.quick { 4 } else { 1 };
    let mut rates = vec![];
    let mut last = None;
    for v in (2..=30).step_by(step) {
        let v = v as f32;
        let (rate, sim) = growth_rate(settings, o, v);
        rates.push((v, rate));
        last = Some(sim);
    }
    let weave = crossing_speed(&rates, 0.0, true);
    let capsize = weave.and_then(|w| crossing_speed(&rates, w, false));
    out.metric("weave_speed", weave.unwrap_or(f32::NAN), "m/s", None);
    out.metric("capsize_speed", capsize.unwrap_or(f32::NAN), "m/s", None);
    for &(v, rate) in rates.iter().filter(|(v, _)| [2.0, 6.0, 10.0, 18.0, 26.0].contains(v)) {
        out.metric(format!("growth_rate_at_{v}_mps"), rate, "1/s", None);
    }
    out.plot("Lean at the fastest speed (deg)", "time", &["roll"]);
    out.plot("Steer angle (deg)", "time", &["road_wheel_angle"]);
    last.expect("the sweep runs")
}
