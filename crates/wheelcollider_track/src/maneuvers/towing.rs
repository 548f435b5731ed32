//! The articulated manoeuvres: the preset tows a trailer of its hitch's kind (the
//! shipped `caravan` behind a ball, `semitrailer` behind a fifth wheel, or the one
//! given). Low-speed off-tracking on a steady circle, the sway after a steering pulse
//! against the linear model (and the speed where its damping crosses zero), and
//! reversing until the trailer jackknifes.

use super::prelude::*;
use wheelcollider_avian::vehicle::VehicleRuntime;
use wheelcollider_avian::vehicle::towing::{HitchTelemetry, couple_trailer, hitched_transform};
use wheelcollider_core::vehicle::{SwayModel, off_tracking, reversing_divergence};

/// A preset and its trailer coupled, on flat asphalt.
pub(crate) struct Pair {
    pub(crate) sim: Sim,
    pub(crate) trailer: Entity,
}

impl Pair {
    fn new(settings: &VehicleSettings, trailer: &VehicleSettings, o: &ManeuverOptions) -> Pair {
        let mut sim = Sim::new(settings, o, Ground::Flat(WheelSurface::ASPHALT));
        let at = Transform::from_translation(Vec3::Y * (settings.touch_height() + 0.005));
        let place = hitched_transform(settings, at, trailer).expect("a hitch and a trailer, checked");
        let world = sim.app.world_mut();
        let mut commands = world.commands();
        let id = spawn_vehicle(&mut commands, trailer, place).expect("validated");
        couple_trailer(&mut commands, sim.car, id);
        world.flush();
        sim.hold(DriverInput::default(), 1.0);
        Pair { sim, trailer: id }
    }

    fn hitch(&self) -> HitchTelemetry {
        self.sim
            .app
            .world()
            .get::<HitchTelemetry>(self.trailer)
            .copied()
            .unwrap_or_default()
    }

    /// A point of the trailer's chassis frame, in the world.
    fn trailer_point(&self, local: Vec3) -> Vec3 {
        let w = self.sim.app.world();
        let (p, q) = (
            w.get::<Position>(self.trailer).unwrap().0,
            w.get::<Rotation>(self.trailer).unwrap().0,
        );
        p + q * local
    }

    /// Both bodies moving forward at `v` (m/s), their wheels rolling.
    fn launch(&mut self, v: f32) {
        self.sim.launch(v);
        let forward = self.sim.k.forward;
        let world = self.sim.app.world_mut();
        world.get_mut::<LinearVelocity>(self.trailer).unwrap().0 = forward * v;
        let wheels = world.get::<ChassisWheels>(self.trailer).unwrap().wheels().to_vec();
        for w in wheels {
            let r = world.get::<WheelCollider>(w).unwrap().radius();
            world.get_mut::<WheelState>(w).unwrap().step.angular_velocity = v / r;
        }
    }
}

/// The articulation (deg, one value a recorded step) as a channel, and its plot.
fn articulation_channel(out: &mut Out, values: Vec<f32>) {
    out.extra.push(Channel {
        name: "articulation".into(),
        unit: "deg",
        values,
    });
    out.plot("Articulation (deg)", "time", &["articulation"]);
}

/// A Kåsa circle fit of ground-plane points: (centre, radius).
fn circle_fit(points: &[Vec2]) -> (Vec2, f32) {
    // x² + z² + a·x + b·z + c = 0, least squares in (a, b, c), by the normal equations.
    let mut m = [[0.0f64; 3]; 3];
    let mut r = [0.0f64; 3];
    for p in points {
        let row = [p.x as f64, p.y as f64, 1.0];
        let rhs = -(row[0] * row[0] + row[1] * row[1]);
        for i in 0..3 {
            for j in 0..3 {
                m[i][j] += row[i] * row[j];
            }
            r[i] += row[i] * rhs;
        }
    }
    let [a, b, c] = solve3(m, r);
    (
        (Vec2::new((-a / 2.0) as f32, (-b / 2.0) as f32)),
        ((a * a + b * b) / 4.0 - c).max(0.0).sqrt() as f32,
    )
}

fn solve3(m: [[f64; 3]; 3], b: [f64; 3]) -> [f64; 3] {
    let det = |m: &[[f64; 3]; 3]| {
        m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
    };
    let d = det(&m);
    core::array::from_fn(|k| {
        let mut mk = m;
        for (row, bi) in mk.iter_mut().zip(b) {
            row[k] = bi;
        }
        if d.abs() > 1e-300 { det(&mk) / d } else { f64::NAN }
    })
}

/// The centre of the rearmost group of axles that do not steer (z, m).
fn rear_group(s: &VehicleSettings) -> f32 {
    s.axle_groups()
        .filter(|&(lo, _)| !s.axles[lo].steered)
        .last()
        .map_or(s.axles.last().map_or(0.0, |a| a.z), |(lo, hi)| {
            s.axles[lo..hi].iter().map(|a| a.z).sum::<f32>() / (hi - lo) as f32
        })
}

pub(crate) fn tow_circle(
    settings: &VehicleSettings,
    trailer: &VehicleSettings,
    o: &ManeuverOptions,
    out: &mut Out,
) -> Sim {
    // 2.5 m/s with the steering held so that the rear axle (group) runs on about 1.5 ×
    // the trailer's length; the circles fitted over the last 40 %.
    let mut pair = Pair::new(settings, trailer, o);
    let rear = rear_group(settings);
    let hitch = Vec3::from(settings.hitch.as_ref().expect("checked").position);
    let l_t = trailer.trailer_length();
    let group = trailer.axles.iter().map(|a| a.z).sum::<f32>() / trailer.axles.len().max(1) as f32;
    let delta = (settings.wheelbase_for(0) / (1.5 * l_t)).atan().to_degrees();
    let seconds = if o.quick { 30.0 } else { 60.0 };
    let pre = pair.sim.rec.time.len();
    let mut tracks = [vec![], vec![], vec![]];
    let mut articulation = vec![0.0; pre];
    for step in 0..pair.sim.steps(seconds) {
        let steer = pair.sim.steer_for(delta);
        pair.sim.cruise_step(2.5, steer);
        articulation.push(pair.hitch().yaw);
        if (step as f32) < 0.6 * pair.sim.steps(seconds) as f32 {
            continue;
        }
        let (p, q) = (
            pair.sim.k.position,
            pair.sim.app.world().get::<Rotation>(pair.sim.car).unwrap().0,
        );
        let points = [
            p + q * Vec3::new(0.0, 0.0, rear),
            p + q * hitch,
            pair.trailer_point(Vec3::new(0.0, 0.0, group)),
        ];
        for (track, point) in tracks.iter_mut().zip(points) {
            track.push(Vec2::new(point.x, point.z));
        }
    }
    let [(_, r), (_, r_h), (_, r_t)] = tracks.map(|t| circle_fit(&t));
    let (want_h, want_t) = off_tracking(r, hitch.z - rear, l_t);
    out.metric("rear_axle_radius", r, "m", None);
    out.metric("hitch_radius", r_h, "m", Some(want_h));
    out.metric("trailer_axle_radius", r_t, "m", Some(want_t));
    out.metric("off_tracking", r - r_t, "m", Some(r - want_t));
    out.metric(
        "articulation",
        mean(&articulation[articulation.len() * 3 / 4..]),
        "deg",
        None,
    );
    articulation_channel(out, articulation);
    out.plot("Path: x (m) against z (m)", "z", &["x"]);
    pair.sim
}

/// One steering pulse at `kmh`: the articulation after it (deg, every step), and its
/// damping ratio and frequency (Hz) from the peaks after the first (ζ 1: gone within a
/// swing).
fn pulse(
    settings: &VehicleSettings,
    trailer: &VehicleSettings,
    o: &ManeuverOptions,
    kmh: f32,
) -> (Pair, Vec<f32>, f32, f32) {
    let mut pair = Pair::new(settings, trailer, o);
    let v = kmh / 3.6;
    pair.launch(v);
    for _ in 0..pair.sim.steps(2.0) {
        pair.sim.cruise_step(v, 0.0);
    }
    let mut yaw = vec![0.0; pair.sim.rec.time.len()];
    let start = yaw.len();
    for step in 0..pair.sim.steps(12.0) {
        let steer = if (step as f32) < 0.4 * pair.sim.hz { 0.08 } else { 0.0 };
        pair.sim.cruise_step(v, steer);
        yaw.push(pair.hitch().yaw);
    }
    let after = &yaw[start + pair.sim.steps(0.4)..];
    let (mut peaks, mut crossings, mut best) = (vec![], vec![], 0.0f32);
    for (i, w) in after.windows(2).enumerate() {
        best = best.max(w[0].abs());
        if w[0].signum() != w[1].signum() && best > 0.02 {
            peaks.push(best);
            crossings.push(i as f32 + w[0].abs() / (w[0] - w[1]).abs());
            best = 0.0;
        }
    }
    let n = peaks.len().min(5);
    if n < 3 {
        return (pair, yaw, 1.0, f32::NAN);
    }
    let decrement = (peaks[1] / peaks[n - 1]).ln() / (n - 2) as f32;
    let zeta = decrement / (4.0 * std::f32::consts::PI.powi(2) + decrement * decrement).sqrt();
    let f = 0.5 / ((crossings[n - 1] - crossings[0]) / (n - 1) as f32 / pair.sim.hz);
    (pair, yaw, zeta, f)
}

pub(crate) fn tow_sway(
    settings: &VehicleSettings,
    trailer: &VehicleSettings,
    o: &ManeuverOptions,
    out: &mut Out,
) -> Sim {
    // The pulse at 80 km/h (or the top speed), then a sweep of speeds for the crossing.
    let model = SwayModel::new(settings, trailer).expect("checked");
    let top = settings.predicted_top_speed().0 * 3.6 - 5.0;
    let kmh = 80.0f32.min(top);
    let (pair, yaw, zeta, f) = pulse(settings, trailer, o, kmh);
    let mode = model.mode(kmh as f64 / 3.6);
    out.metric("speed", kmh, "km/h", None);
    out.metric("damping_ratio", zeta, "1", mode.map(|m| m.damping_ratio as f32));
    out.metric("frequency", f, "Hz", mode.map(|m| m.frequency as f32));
    out.metric("peak_articulation", max_abs(&yaw), "deg", None);
    let step = if o.quick { 20.0 } else { 10.0 };
    let mut last: Option<(f32, f32)> = None;
    let mut crossing = f32::NAN;
    let mut v = 50.0;
    while v <= top.min(160.0) {
        let (_, _, z, _) = pulse(settings, trailer, o, v);
        if let Some((v0, z0)) = last
            && z0 > 0.0
            && z <= 0.0
        {
            crossing = v0 + (v - v0) * z0 / (z0 - z);
            break;
        }
        last = Some((v, z));
        v += step;
    }
    let critical = model.critical_speed(top as f64 / 3.6).map(|c| (c * 3.6) as f32);
    out.metric("critical_speed", crossing, "km/h", Some(critical.unwrap_or(f32::NAN)));
    articulation_channel(out, yaw);
    out.plot("Yaw rate (deg/s)", "time", &["yaw_rate"]);
    pair.sim
}

pub(crate) fn tow_reverse(
    settings: &VehicleSettings,
    trailer: &VehicleSettings,
    o: &ManeuverOptions,
    out: &mut Out,
) -> Sim {
    // A manual gearbox held in reverse (the automatic takes first gear on throttle),
    // 1.2 m/s backwards with the steering centred from 3° of articulation.
    let mut manual = settings.clone();
    manual.gearbox.automatic = false;
    let mut pair = Pair::new(&manual, trailer, o);
    let l_t = trailer.trailer_length();
    {
        let world = pair.sim.app.world_mut();
        let hitch = manual.hitch.as_ref().expect("checked").position;
        let ball = world.get::<Position>(pair.sim.car).unwrap().0
            + world.get::<Rotation>(pair.sim.car).unwrap().0 * Vec3::from(hitch);
        let turn = Quat::from_rotation_y(3f32.to_radians());
        let (p, q) = (
            world.get::<Position>(pair.trailer).unwrap().0,
            world.get::<Rotation>(pair.trailer).unwrap().0,
        );
        world.get_mut::<Position>(pair.trailer).unwrap().0 = ball + turn * (p - ball);
        world.get_mut::<Rotation>(pair.trailer).unwrap().0 = turn * q;
        let mut runtime = world.get_mut::<VehicleRuntime>(pair.sim.car).unwrap();
        if let Some(state) = runtime.state.as_mut() {
            (state.gear, state.next_gear) = (-1, -1);
        }
    }
    let mut yaw = vec![0.0; pair.sim.rec.time.len()];
    let (mut t4, mut t20, mut speeds, mut jackknife) = (None, None, vec![], f32::NAN);
    for _ in 0..pair.sim.steps(if o.quick { 60.0 } else { 90.0 }) {
        let error = -1.2 - pair.sim.k.forward_speed;
        pair.sim.step(DriverInput {
            throttle: (-0.4 * error).clamp(0.0, 0.6),
            brake: (0.4 * error).clamp(0.0, 1.0),
            ..Default::default()
        });
        let h = pair.hitch();
        yaw.push(h.yaw);
        let t = pair.sim.t;
        t4 = t4.or((h.yaw.abs() >= 4.0).then_some(t));
        if t4.is_some() && t20.is_none() {
            speeds.push(pair.sim.k.speed);
            t20 = (h.yaw.abs() >= 20.0).then_some(t);
        }
        if h.jackknifed {
            jackknife = h.yaw.abs();
            break;
        }
    }
    let tan = |deg: f32| (deg.to_radians() / 2.0).tan();
    let rate = match (t4, t20) {
        (Some(a), Some(b)) if b > a => (tan(20.0) / tan(4.0)).ln() / (b - a),
        _ => f32::NAN,
    };
    let v = mean(&speeds);
    out.metric("reverse_speed", v, "m/s", None);
    out.metric("divergence", rate, "1/s", Some(reversing_divergence(v, l_t)));
    out.metric(
        "jackknife_angle",
        jackknife,
        "deg",
        manual.hitch.as_ref().map(|h| h.yaw_limit),
    );
    out.metric("time_to_jackknife", pair.sim.t, "s", None);
    articulation_channel(out, yaw);
    out.plot("Path: x (m) against z (m)", "z", &["x"]);
    pair.sim
}
