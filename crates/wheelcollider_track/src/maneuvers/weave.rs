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
/// The two windows the growth rate compares (s after the kick). The first starts once
/// the fast modes have died (the benchmark bicycle's castor mode decays at 9–25 /s, its
/// weave at 2–4 /s above the capsize speed), so the slow capsize mode is what is left
/// to read; each spans at least half a weave period at a walk (|lean| peaks twice a
/// period).
const WINDOWS: [(f32, f32); 2] = [(1.0, 3.0), (3.0, 5.0)];
/// A lean (deg) past which the bike has fallen: the growth rate is read up to it.
const FALLEN: f32 = 45.0;

/// One speed of the sweep: the mean forward speed over the windows (m/s), the lean's
/// growth rate (1/s), and the run.
struct Reading {
    speed: f32,
    rate: f32,
    sim: Sim,
}

/// The lean's growth rate at about `v` (m/s). The cruise control does not hold the
/// asked speed exactly, so the rate is paired with the speed measured while it is read
/// (`the_benchmark_bicycle_weaves_and_capsizes_at_the_papers_speeds`).
fn growth_rate(settings: &VehicleSettings, o: &ManeuverOptions, v: f32) -> Reading {
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
        let lean = sim.rec.chassis[channel("roll")].last().copied().unwrap_or(0.0);
        if lean.abs() > FALLEN {
            break;
        }
    }
    let time: Vec<f32> = sim.rec.time[start..].iter().map(|t| t - t0).collect();
    let lean = &sim.rec.chassis[channel("roll")][start..];
    let kmh = &sim.rec.chassis[channel("speed")][start..];
    let within = |(from, to): (f32, f32)| time.iter().zip(lean).filter(move |(t, _)| (from..to).contains(*t));
    let peak = |w| within(w).map(|(_, l)| l.abs()).fold(0.0f32, f32::max);
    let end = time.last().copied().unwrap_or(0.0);
    let fell = lean.last().is_some_and(|l| l.abs() > FALLEN);
    let rate = if fell {
        // Fallen: the growth from the lean at the first window's start (or halfway to
        // the fall, if it fell before then) to the fall.
        let from = WINDOWS[0].0.min(0.5 * end);
        let at = time
            .iter()
            .position(|&t| t >= from)
            .map_or(1e-3, |i| lean[i].abs().max(1e-3));
        (FALLEN / at).ln() / (end - from).max(0.1)
    } else {
        let middle = |(from, to): (f32, f32)| 0.5 * (from + to);
        (peak(WINDOWS[1]) / peak(WINDOWS[0]).max(1e-6)).ln() / (middle(WINDOWS[1]) - middle(WINDOWS[0]))
    };
    let read: Vec<f32> = time
        .iter()
        .zip(kmh)
        .filter(|(t, _)| **t >= WINDOWS[0].0.min(0.5 * end))
        .map(|(_, k)| k / 3.6)
        .collect();
    let speed = if read.is_empty() {
        v
    } else {
        read.iter().sum::<f32>() / read.len() as f32
    };
    Reading { speed, rate, sim }
}

/// The index of the recording's chassis channel `name` (`CHASSIS`).
fn channel(name: &str) -> usize {
    CHASSIS
        .iter()
        .position(|c| c.0 == name)
        .expect("the channel is recorded")
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
    // (asked speed, measured speed, growth rate).
    let mut readings = vec![];
    let mut last = None;
    for v in (2..=30).step_by(step) {
        let r = growth_rate(settings, o, v as f32);
        readings.push((v as f32, r.speed, r.rate));
        last = Some(r.sim);
    }
    // The crossings are read along the measured speed, which a bike that cannot hold
    // the asked one leaves out of order.
    let mut rates: Vec<(f32, f32)> = readings.iter().map(|&(_, speed, rate)| (speed, rate)).collect();
    rates.sort_by(|a, b| a.0.total_cmp(&b.0));
    let weave = crossing_speed(&rates, 0.0, true);
    let capsize = weave.and_then(|w| crossing_speed(&rates, w, false));
    out.metric("weave_speed", weave.unwrap_or(f32::NAN), "m/s", None);
    out.metric("capsize_speed", capsize.unwrap_or(f32::NAN), "m/s", None);
    for &(v, _, rate) in readings
        .iter()
        .filter(|(v, ..)| [2.0, 6.0, 10.0, 18.0, 26.0].contains(v))
    {
        out.metric(format!("growth_rate_at_{v}_mps"), rate, "1/s", None);
    }
    out.plot("Lean at the fastest speed (deg)", "time", &["roll"]);
    out.plot("Steer angle (deg)", "time", &["road_wheel_angle"]);
    last.expect("the sweep runs")
}
