use super::prelude::*;

/// Entry speed (m/s): 80 km/h.
const SPEED: f32 = 80.0 / 3.6;
/// Frequency of the steering sine (Hz).
const FREQUENCY: f32 = 0.7;
/// The dwell at the second peak (s).
const DWELL: f32 = 0.5;
/// The steer amplitude in multiples of the angle that gives 0.3 g (the standard runs
/// 1.5 to 6.5; 6.5 is the hardest).
const SCALE: f32 = 6.5;
/// The slowly increasing steer's rate at the road wheels (deg/s): the standard's
/// 13.5 deg/s at the steering wheel through a 15:1 ratio.
const RAMP_RATE: f32 = 0.9;

/// FMVSS 126 / UN R140 sine with dwell, the test that an electronic stability control
/// must pass: at 80 km/h, coasting, the steering follows a 0.7 Hz sine to its second
/// peak, dwells there 0.5 s, and returns to straight. The amplitude is 6.5 × the
/// road-wheel angle that gave 0.3 g in a slowly increasing steer at the same speed.
/// The car must stop yawing: 1.0 s after the steering returns, its yaw rate must be at
/// most 35 % of the second (largest, opposite) peak, at 1.75 s at most 20 %; and it must
/// still answer the steering: 1.07 s into the steer it must have moved 1.83 m sideways.
/// A car that spins on the first lobe may show small ratios once it slides backwards:
/// the heading change at the end tells (more than 90°: it spun).
pub(crate) fn sine_with_dwell(settings: &VehicleSettings, o: &ManeuverOptions, out: &mut Out) -> Sim {
    let mut sim = Sim::new(settings, o, Ground::Flat(WheelSurface::ASPHALT));
    sim.hold(DriverInput::default(), 1.0);
    sim.launch(SPEED);
    for _ in 0..sim.steps(2.0) {
        sim.cruise_in_lane(SPEED);
    }
    let a = angle_for_03g(&mut sim);
    // Back to straight ahead on the lane before the steer starts.
    for _ in 0..sim.steps(3.0) {
        sim.cruise_in_lane(SPEED);
    }
    let amplitude = SCALE * a;
    let (start, t0, p0, f0) = (sim.rec.time.len(), sim.t, sim.k.position, sim.k.forward);
    let left = Vec3::Y.cross(f0);
    let end = 1.0 / FREQUENCY + DWELL;
    let mut displacement = f32::NAN;
    let mut stability = 0.0f32;
    for _ in 0..sim.steps(end + 2.5) {
        let t = sim.t - t0;
        let delta = amplitude * steer_shape(t);
        let steer = sim.steer_for(delta);
        sim.step(DriverInput {
            steer,
            ..Default::default()
        });
        if displacement.is_nan() && sim.t - t0 >= 1.07 {
            displacement = (sim.k.position - p0).dot(left);
        }
        let tel = sim.app.world().get::<VehicleTelemetry>(sim.car).unwrap();
        stability = stability.max(tel.powertrain.stability_brake);
    }
    // How far the car turned from its first heading (deg, positive left): a spin
    // shows as more than 90°.
    let f = sim.k.forward;
    let heading = (f0.cross(f).y).atan2(f0.dot(f)).to_degrees();
    let time: Vec<f32> = sim.rec.time[start..].iter().map(|t| t - t0).collect();
    let i = CHASSIS.iter().position(|c| c.0 == "yaw_rate").unwrap();
    let yaw = &sim.rec.chassis[i][start..];
    // The second peak: the largest yaw rate after the steering crosses zero (against
    // the first lobe's, or with it when the car spun on the first lobe).
    let peak = time
        .iter()
        .zip(yaw)
        .filter(|(t, _)| **t >= 0.5 / FREQUENCY)
        .map(|(_, y)| *y)
        .fold(0.0f32, |a, y| if y.abs() > a.abs() { y } else { a });
    let at = |dt: f32| {
        let k = time.iter().position(|t| *t >= end + dt).unwrap_or(time.len() - 1);
        100.0 * yaw[k] / if peak.abs() > 1e-3 { peak } else { 1e-3 }
    };
    out.metric("steer_at_0_3g", a, "deg", None);
    out.metric("amplitude", amplitude, "deg", None);
    out.metric("yaw_rate_peak", peak, "deg/s", None);
    out.metric("yaw_rate_ratio_1_0", at(1.0), "%", None);
    out.metric("yaw_rate_ratio_1_75", at(1.75), "%", None);
    out.metric("lateral_displacement", displacement, "m", None);
    out.metric("heading_change", heading, "deg", None);
    out.metric("stability_brake_peak", stability, "N·m", None);
    out.plot("Yaw rate (deg/s)", "time", &["yaw_rate"]);
    out.plot("Road-wheel angle (deg)", "time", &["road_wheel_angle"]);
    sim
}

/// The steering's shape, −1..=1, `t` seconds after it starts: a sine to its second
/// peak (three quarters of a period), the dwell, the last quarter, then straight.
pub(crate) fn steer_shape(t: f32) -> f32 {
    let w = std::f32::consts::TAU * FREQUENCY;
    let three_quarters = 0.75 / FREQUENCY;
    if t < 0.0 {
        0.0
    } else if t < three_quarters {
        (w * t).sin()
    } else if t < three_quarters + DWELL {
        -1.0
    } else if t < 1.0 / FREQUENCY + DWELL {
        (w * (t - DWELL)).sin()
    } else {
        0.0
    }
}

/// The slowly increasing steer at [`SPEED`]: the commanded road-wheel angle (deg) at
/// which the lateral acceleration, averaged over 0.25 s, reaches 0.3 g.
fn angle_for_03g(sim: &mut Sim) -> f32 {
    let i = CHASSIS.iter().position(|c| c.0 == "lateral_acc").unwrap();
    let window = sim.steps(0.25).max(1);
    let mut delta = 0.0;
    for _ in 0..sim.steps(20.0) {
        delta += RAMP_RATE * sim.dt();
        let steer = sim.steer_for(delta);
        sim.cruise_step(SPEED, steer);
        let ay = &sim.rec.chassis[i];
        if ay.len() >= window && -mean(&ay[ay.len() - window..]) >= 0.3 * G {
            return sim.k.road_wheel_angle;
        }
    }
    delta
}
