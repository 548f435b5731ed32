use super::prelude::*;
use wheelcollider_core::vehicle::KICKDOWN_THROTTLE;

/// The circuit: two straights of this length (m)…
const STRAIGHT: f32 = 200.0;
/// …joined by two 180° turns of this radius (m), turning left.
const RADIUS: f32 = 40.0;
/// The robot corners at this share of the tyres' current grip, and brakes at
/// [`BRAKE_SHARE`] of it.
const CORNER_SHARE: f32 = 0.9;
const BRAKE_SHARE: f32 = 0.75;

/// The stadium circuit's centre line by arc length from the start line: the start
/// straight towards −Z from the origin, a left turn, the back straight, a left turn.
struct Circuit;

impl Circuit {
    fn length(&self) -> f32 {
        2.0 * STRAIGHT + 2.0 * std::f32::consts::PI * RADIUS
    }

    /// The centre line's point `s` metres from the start (wrapped to a lap).
    fn point(&self, s: f32) -> Vec3 {
        let s = s.rem_euclid(self.length());
        let half = std::f32::consts::PI * RADIUS;
        let (l, r) = (STRAIGHT, RADIUS);
        if s < l {
            Vec3::new(0.0, 0.0, -s)
        } else if s < l + half {
            let a = (s - l) / r;
            Vec3::new(-r + r * a.cos(), 0.0, -l - r * a.sin())
        } else if s < 2.0 * l + half {
            Vec3::new(-2.0 * r, 0.0, -l + (s - l - half))
        } else {
            let a = (s - 2.0 * l - half) / r;
            Vec3::new(-r - r * a.cos(), 0.0, r * a.sin())
        }
    }

    /// The distance (m) from `s` to the next turn's entry; 0 inside a turn.
    fn to_turn(&self, s: f32) -> f32 {
        let s = s.rem_euclid(self.length());
        let half = std::f32::consts::PI * RADIUS;
        let entries = [STRAIGHT, 2.0 * STRAIGHT + half];
        if (entries[0]..entries[0] + half).contains(&s) || (entries[1]..entries[1] + half).contains(&s) {
            return 0.0;
        }
        entries
            .iter()
            .chain(&[self.length() + STRAIGHT])
            .map(|e| e - s)
            .filter(|d| *d > 0.0)
            .fold(f32::INFINITY, f32::min)
    }

    /// The arc length of the centre line's point nearest `p`, searched from `from` up to
    /// 30 m ahead (the robot never goes back).
    fn progress(&self, p: Vec3, from: f32) -> f32 {
        let flat = p.with_y(0.0);
        (0..=120)
            .map(|i| from - 5.0 + 0.25 * i as f32)
            .min_by(|a, b| {
                let da = (self.point(*a) - flat).length_squared();
                let db = (self.point(*b) - flat).length_squared();
                da.total_cmp(&db)
            })
            .unwrap_or(from)
            .max(from)
    }
}

/// The tyres' grip now (μ): the wheels' peak force over their load, what a driver feels
/// through the wheel (it falls as the treads cool, overheat or wear).
fn felt_grip(sim: &Sim) -> f32 {
    let (mut force, mut load) = (0.0, 0.0);
    for i in 0..sim.wheels.len() {
        let o = sim.wheel(i).output;
        force += o.max_friction_force;
        load += o.load;
    }
    if load > 0.0 { force / load } else { 1.0 }
}

/// The four channels each tyre records: its surface, carcass temperature, pressure and
/// tread.
const TYRE: [(&str, &str); 4] = [
    ("surface_temperature", "°C"),
    ("carcass_temperature", "°C"),
    ("pressure", "kPa"),
    ("tread", "mm"),
];

/// A stint: an out-lap from a flying start at 20 m/s, then timed laps of a 200 m × 40 m
/// stadium circuit, a robot driver cornering at 90 % and braking at 75 % of the grip it
/// feels: the tyres' warm-up and the pace lost to wear; each lap's time, each tyre's
/// temperatures, pressure and tread. The stint is driven twice, the second time with
/// treads that do not wear: the laps' difference is the pace the wear cost. The car
/// needs a compound on its tyres.
pub(crate) fn stint(settings: &VehicleSettings, o: &ManeuverOptions, out: &mut Out) -> Sim {
    let laps = if o.quick { 4 } else { 10 };
    let (sim, times, tyres, lap_channel) = drive(settings, o, laps);
    let mut unworn = settings.clone();
    for a in &mut unworn.axles {
        let mut c = *a.wheel.compound().expect("checked by run_with_trailer");
        c.abrasion = 0.0;
        a.wheel.set_compound(Some(c)).expect("valid");
    }
    let (_, unworn_times, _, _) = drive(&unworn, o, laps);
    lap_metrics(&times, &unworn_times, out);
    tyre_channels(&sim, tyres, out);
    out.extra.push(Channel {
        name: "lap_time".into(),
        unit: "s",
        values: lap_channel,
    });
    let names = |what: &str| -> Vec<String> { sim.labels.iter().map(|l| format!("{l}.{what}")).collect() };
    let (surface, pressure, tread) = (names("surface_temperature"), names("pressure"), names("tread"));
    out.plot("Tread surface temperature (°C)", "time", &refs(&surface));
    out.plot("Inflation pressure (kPa)", "time", &refs(&pressure));
    out.plot("Tread depth (mm)", "time", &refs(&tread));
    out.plot("Last lap's time (s; 0 before the first)", "time", &["lap_time"]);
    sim
}

fn refs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

/// The tyres' channels of a drive: per wheel, [`TYRE`]'s four.
type TyreChannels = Vec<Vec<Vec<f32>>>;

/// The out-lap and `laps` timed laps: the sim, the laps' times, the tyres' channels and
/// the last lap's time as a channel.
fn drive(settings: &VehicleSettings, o: &ManeuverOptions, laps: usize) -> (Sim, Vec<f32>, TyreChannels, Vec<f32>) {
    let circuit = Circuit;
    let mut sim = Sim::new(settings, o, Ground::Flat(WheelSurface::ASPHALT));
    sim.hold(DriverInput::default(), 1.0);
    sim.launch(20.0);
    // The steps before the launch read as the tyres at the launch.
    let mut tyres = vec![vec![vec![]; TYRE.len()]; sim.wheels.len()];
    record_tyres(&sim, &mut tyres);
    for channel in tyres.iter_mut().flatten() {
        *channel = vec![channel[0]; sim.rec.time.len()];
    }
    let mut lap_channel = vec![0.0f32; sim.rec.time.len()];
    // The out-lap is not timed: lap 1 starts at the line at racing speed.
    let (mut s, mut lap_start, mut times, mut crossed) = (0.0f32, f32::NAN, vec![], 0);
    for _ in 0..sim.steps(60.0 * (laps + 1) as f32) {
        s = circuit.progress(sim.k.position, s);
        if s >= circuit.length() * (crossed + 1) as f32 {
            crossed += 1;
            if crossed > 1 {
                times.push(sim.t - lap_start);
            }
            lap_start = sim.t;
            if times.len() == laps {
                break;
            }
        }
        let mu = felt_grip(&sim).max(0.1);
        let corner = (CORNER_SHARE * mu * G * RADIUS).sqrt();
        let brake_from = (sim.k.speed.powi(2) - corner * corner) / (2.0 * BRAKE_SHARE * mu * G);
        let target = if circuit.to_turn(s) <= brake_from.max(0.0) {
            corner
        } else {
            1e3
        };
        let e = target - sim.k.forward_speed;
        let steer = sim.pursue(circuit.point(s + sim.lookahead().min(12.0)) + Vec3::Y * sim.k.position.y);
        sim.step(DriverInput {
            // Its foot stops short of an automatic's kickdown: the stint is driven twice
            // and compared to the millisecond, and a kickdown a step earlier in one
            // drive moves a lap by more than the wear does.
            throttle: (0.5 * e).clamp(0.0, 0.99 * KICKDOWN_THROTTLE),
            brake: (-0.3 * e).clamp(0.0, 1.0),
            steer,
            ..Default::default()
        });
        record_tyres(&sim, &mut tyres);
        lap_channel.push(times.last().copied().unwrap_or(0.0));
    }
    (sim, times, tyres, lap_channel)
}

fn record_tyres(sim: &Sim, tyres: &mut [Vec<Vec<f32>>]) {
    for (i, channels) in tyres.iter_mut().enumerate() {
        let w = sim.app.world();
        let e = sim.wheels[i];
        let settings = &w.get::<WheelCollider>(e).expect("a wheel").0;
        let t = w
            .get::<WheelState>(e)
            .and_then(|s| s.tyre(settings))
            .unwrap_or_default();
        for (c, v) in channels.iter_mut().zip([t.surface, t.carcass, t.pressure, t.tread]) {
            c.push(v);
        }
    }
}

/// Each lap's time, the warm-up (the first lap over the best), the laps' trend (a line
/// through their times from the second on: positive is slower each lap) and the pace
/// the wear cost (a line through the laps' difference from the unworn drive's).
fn lap_metrics(times: &[f32], unworn: &[f32], out: &mut Out) {
    for (i, t) in times.iter().enumerate() {
        out.metric(format!("lap_{}", i + 1), *t, "s", None);
    }
    let best = times.iter().copied().fold(f32::INFINITY, f32::min);
    out.metric("best_lap", best, "s", None);
    out.metric("warm_up_loss", times.first().map_or(f32::NAN, |t| t - best), "s", None);
    let slope = |points: Vec<(f32, f32)>| 1000.0 * fit_line(&points).map_or(f32::NAN, |(slope, _)| slope);
    let trend = times.iter().enumerate().skip(1).map(|(i, t)| (i as f32, *t)).collect();
    out.metric("lap_time_trend", slope(trend), "ms/lap", None);
    let lost = times
        .iter()
        .zip(unworn)
        .enumerate()
        .map(|(i, (w, u))| (i as f32, w - u))
        .collect();
    out.metric("pace_lost_to_wear", slope(lost), "ms/lap", None);
}

/// The tyres' channels, and their end-of-stint metrics: the hottest surface, the
/// pressures' rise, the tread worn.
fn tyre_channels(sim: &Sim, tyres: Vec<Vec<Vec<f32>>>, out: &mut Out) {
    for (label, channels) in sim.labels.iter().zip(tyres) {
        let last = |c: &Vec<f32>| c.last().copied().unwrap_or(f32::NAN);
        let first = |c: &Vec<f32>| c.first().copied().unwrap_or(f32::NAN);
        let peak = channels[0].iter().copied().fold(f32::NAN, f32::max);
        out.metric(format!("{label}.peak_surface_temperature"), peak, "°C", None);
        out.metric(
            format!("{label}.pressure_rise"),
            last(&channels[2]) - first(&channels[2]),
            "kPa",
            None,
        );
        out.metric(
            format!("{label}.tread_worn"),
            first(&channels[3]) - last(&channels[3]),
            "mm",
            None,
        );
        for (&(name, unit), values) in TYRE.iter().zip(channels) {
            out.extra.push(Channel {
                name: format!("{label}.{name}"),
                unit,
                values,
            });
        }
    }
}
