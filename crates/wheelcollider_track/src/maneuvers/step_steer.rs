use super::prelude::*;

pub(crate) fn step_steer(settings: &VehicleSettings, o: &ManeuverOptions, out: &mut Out) -> Sim {
    let v = 80.0 / 3.6;
    let target_ay = 4.0;
    if let Some(bike) = &settings.two_wheeler {
        return lean_step(settings, bike.max_lean, o, out, (v, target_ay));
    }
    let mut sim = Sim::new(settings, o, Ground::Flat(WheelSurface::ASPHALT));
    sim.hold(DriverInput::default(), 1.0);
    sim.launch(v);
    for _ in 0..sim.steps(2.0) {
        sim.cruise_in_lane(v);
    }
    let delta = (settings.wheelbase_for(0) * target_ay / (v * v)).atan().to_degrees();
    let steer = sim.steer_for(delta);
    let start = sim.rec.time.len();
    let t0 = sim.t;
    for _ in 0..sim.steps(if o.quick { 3.0 } else { 5.0 }) {
        sim.cruise_step(v, steer);
    }
    let time: Vec<f32> = sim.rec.time[start..].iter().map(|t| t - t0).collect();
    let chan = |name: &str| {
        let i = CHASSIS.iter().position(|c| c.0 == name).unwrap();
        sim.rec.chassis[i][start..].to_vec()
    };
    let yaw = chan("yaw_rate");
    let ay: Vec<f32> = chan("lateral_acc").iter().map(|a| -a).collect();
    let angle = chan("road_wheel_angle");
    let last = sim.steps(1.0).min(yaw.len());
    let steady_yaw = mean(&yaw[yaw.len() - last..]);
    let steady_ay = mean(&ay[ay.len() - last..]);
    let steady_angle = mean(&angle[angle.len() - last..]);
    let t50 = crossing(&time, &angle, 0.5 * steady_angle).unwrap_or(0.0);
    let t90 = crossing(&time, &yaw, 0.9 * steady_yaw).unwrap_or(f32::NAN);
    let (peak_i, peak) = yaw
        .iter()
        .enumerate()
        .fold((0, f32::MIN), |(bi, b), (i, &y)| if y > b { (i, y) } else { (bi, b) });
    let ay_t90 = crossing(&time, &ay, 0.9 * steady_ay).unwrap_or(f32::NAN);
    out.metric("road_wheel_angle", steady_angle, "deg", Some(delta));
    out.metric("steady_yaw_rate", steady_yaw, "deg/s", None);
    out.metric("steady_lateral_acc", steady_ay / G, "g", None);
    out.metric("yaw_rate_gain", steady_yaw / steady_angle, "1/s", None);
    out.metric("yaw_rate_response_time", t90 - t50, "s", None);
    // A response that rises without overshoot has no peak (ISO 7401 leaves it out).
    let overshoot = (peak / steady_yaw - 1.0) * 100.0;
    let peak_time = if overshoot > 0.5 { time[peak_i] - t50 } else { f32::NAN };
    out.metric("yaw_rate_peak_time", peak_time, "s", None);
    out.metric("yaw_rate_overshoot", overshoot.max(0.0), "%", None);
    out.metric("lateral_acc_response_time", ay_t90 - t50, "s", None);
    out.plot("Yaw rate (deg/s)", "time", &["yaw_rate"]);
    out.plot("Lateral acceleration (m/s²)", "time", &["lateral_acc"]);
    out.plot("Road-wheel angle (deg)", "time", &["road_wheel_angle"]);
    sim
}

/// How long a two-wheeler's step is held (s): its rider's integral settles the lean
/// over several seconds.
const HOLD: f32 = 10.0;

/// A two-wheeler's step steer: at `v` (m/s) the steer input steps to ask its rider for
/// the lean that balances `target_ay` (m/s²) on thin tyres, `atan(a_y/g)`, and holds it
/// [`HOLD`], the cruise control holding the speed. The rider countersteers (the head turned
/// the other way first), the bike leans in and turns: the steady lean against the asked
/// one, the steady yaw rate (about the vertical) against the lean's balance
/// `ψ̇ = g·tan φ / (v·k)` ([`VehicleSettings::lean_balance_factor`]), the lean's response
/// time (the step to 90 % of the steady lean) and overshoot, and the countersteer (the
/// head's largest angle against the turn, deg).
fn lean_step(
    settings: &VehicleSettings,
    max_lean: f32,
    o: &ManeuverOptions,
    out: &mut Out,
    (v, ay): (f32, f32),
) -> Sim {
    let mut sim = Sim::new(settings, o, Ground::Flat(WheelSurface::ASPHALT));
    sim.hold(DriverInput::default(), 1.0);
    sim.launch(v);
    for _ in 0..sim.steps(2.0) {
        sim.cruise_in_lane(v);
    }
    // The lean that balances `ay` on the tyres' crowns.
    let asked = settings.lean_for_resultant((ay / G).atan()).to_degrees();
    let steer = (asked / max_lean.max(1e-3)).clamp(-1.0, 1.0);
    let start = sim.rec.time.len();
    let t0 = sim.t;
    let mut yaw_rates = vec![];
    for _ in 0..sim.steps(HOLD) {
        sim.cruise_step(v, steer);
        let omega = sim
            .app
            .world()
            .get::<AngularVelocity>(sim.car)
            .map_or(Vec3::ZERO, |w| w.0);
        yaw_rates.push(omega.y.to_degrees());
    }
    let time: Vec<f32> = sim.rec.time[start..].iter().map(|t| t - t0).collect();
    let chan = |name: &str| {
        let i = CHASSIS.iter().position(|c| c.0 == name).unwrap();
        sim.rec.chassis[i][start..].to_vec()
    };
    // The lean, positive into the (left) turn.
    let lean = chan("roll");
    let head = chan("road_wheel_angle");
    let last = sim.steps(1.0).min(lean.len());
    let steady_lean = mean(&lean[lean.len() - last..]);
    let steady_yaw = mean(&yaw_rates[yaw_rates.len() - last..]);
    let resultant = settings.resultant_lean(steady_lean.to_radians());
    let balance = (G * resultant.tan() / (v * settings.lean_balance_factor())).to_degrees();
    let t90 = crossing(&time, &lean, 0.9 * steady_lean).unwrap_or(f32::NAN);
    let peak = lean.iter().copied().fold(f32::MIN, f32::max);
    let counter = head.iter().map(|&a| -a.min(0.0)).fold(0.0, f32::max);
    out.metric("asked_lean", asked, "deg", None);
    out.metric("steady_lean", steady_lean, "deg", Some(asked));
    out.metric("steady_yaw_rate", steady_yaw, "deg/s", Some(balance));
    out.metric("lean_response_time", t90, "s", None);
    out.metric(
        "lean_overshoot",
        ((peak / steady_lean - 1.0) * 100.0).max(0.0),
        "%",
        None,
    );
    out.metric("countersteer", counter, "deg", None);
    out.metric("steady_steer", mean(&head[head.len() - last..]), "deg", None);
    out.plot("Lean (deg)", "time", &["roll"]);
    out.plot("Steer angle (deg)", "time", &["road_wheel_angle"]);
    out.plot("Yaw rate (deg/s)", "time", &["yaw_rate"]);
    sim
}
