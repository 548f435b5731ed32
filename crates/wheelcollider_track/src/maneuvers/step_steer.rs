use super::prelude::*;

pub(crate) fn step_steer(settings: &VehicleSettings, o: &ManeuverOptions, out: &mut Out) -> Sim {
    let v = 80.0 / 3.6;
    let target_ay = 4.0;
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
