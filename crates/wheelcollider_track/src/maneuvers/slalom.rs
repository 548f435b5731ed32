use super::prelude::*;

pub(crate) fn slalom(settings: &VehicleSettings, o: &ManeuverOptions, out: &mut Out) -> Sim {
    if let Some(bike) = &settings.two_wheeler {
        return lean_slalom(settings, bike.max_lean, o, out);
    }
    let v = 60.0 / 3.6;
    let (spacing, amplitude, cones) = (18.0, 1.0, if o.quick { 4.0 } else { 8.0 });
    let mut sim = Sim::new(settings, o, Ground::Flat(WheelSurface::ASPHALT));
    sim.hold(DriverInput::default(), 1.0);
    sim.launch(v);
    let z0 = sim.k.position.z - 10.0;
    // The path: straight for 10 m, then x = A·sin(π s / spacing) past `cones` cones.
    let path = |s: f32| {
        if (0.0..cones * spacing).contains(&s) {
            -amplitude * (std::f32::consts::PI * s / spacing).sin()
        } else {
            0.0
        }
    };
    let (mut errors, mut yaw, mut ay, mut roll) = (vec![], 0.0f32, 0.0f32, 0.0f32);
    let mut speeds = vec![];
    let mut path_x = vec![0.0; sim.rec.time.len()];
    loop {
        let p = sim.k.position;
        let ld = sim.lookahead().min(8.0);
        let s_ahead = z0 - (p.z - ld);
        let steer = sim.pursue(Vec3::new(path(s_ahead), p.y, p.z - ld));
        sim.cruise_step(v, steer);
        let s = z0 - sim.k.position.z;
        path_x.push(path(s));
        if (0.0..cones * spacing).contains(&s) {
            errors.push(sim.k.position.x - path(s));
            yaw = yaw.max(sim.k.yaw_rate.abs().to_degrees());
            let i = sim.rec.time.len() - 1;
            ay = ay.max(sim.rec.chassis[5][i].abs());
            roll = roll.max(sim.rec.chassis[8][i].abs());
            speeds.push(sim.k.speed);
        }
        if s > cones * spacing + 10.0 || sim.t > 60.0 {
            break;
        }
    }
    out.metric("mean_speed", mean(&speeds) * 3.6, "km/h", None);
    out.metric("max_lateral_acc", ay / G, "g", None);
    out.metric("max_yaw_rate", yaw, "deg/s", None);
    out.metric("max_roll", roll, "deg", None);
    out.metric("rms_path_error", rms(&errors), "m", None);
    out.metric("max_path_error", max_abs(&errors), "m", None);
    out.extra.push(Channel {
        name: "path_x".into(),
        unit: "m",
        values: path_x,
    });
    out.plot("Path: x (m) against z (m)", "z", &["x", "path_x"]);
    out.plot("Yaw rate (deg/s)", "time", &["yaw_rate"]);
    out.plot("Roll (deg)", "time", &["roll"]);
    sim
}

/// A two-wheeler's slalom speed (m/s): 30 km/h, where the 18 m gates come every 2.2 s,
/// longer than its rider takes to lean it over (the step steer's 1.5 s to 90 %).
pub(crate) const LEAN_SLALOM_SPEED: f32 = 30.0 / 3.6;
/// How far ahead (s) the rider reads the lean the path asks for: the lean's lag
/// behind its asking. 0.6 s tracks best on the MT-07 (rms error 0.60 m; 0.65 at 0.5
/// and 0.8 s).
const PREVIEW: f32 = 0.6;
/// The path-keeping's natural frequency (rad/s) and damping ratio: the rider's lean
/// corrects the lateral error as a spring and damper, slower than the lean's own
/// response (at 1.5 rad/s the MT-07 weaves off the path).
const KEEP: (f32, f32) = (0.7, 0.8);

/// The slalom ridden: 18 m gates, ±1 m, at [`LEAN_SLALOM_SPEED`]. The rider asks for
/// the lean the path's curvature needs [`PREVIEW`] ahead, `tan φ = k·v²·κ/g`
/// ([`VehicleSettings::lean_balance_factor`]), plus a spring and damper on the lateral
/// error; the same metrics as a car's, the lean's peak against the one the gates'
/// sharpest bend needs at the mean speed.
fn lean_slalom(settings: &VehicleSettings, max_lean: f32, o: &ManeuverOptions, out: &mut Out) -> Sim {
    let v = LEAN_SLALOM_SPEED;
    let (spacing, amplitude, cones) = (18.0, 1.0, if o.quick { 4.0 } else { 8.0 });
    let mut sim = Sim::new(settings, o, Ground::Flat(WheelSurface::ASPHALT));
    sim.hold(DriverInput::default(), 1.0);
    sim.launch(v);
    for _ in 0..sim.steps(2.0) {
        sim.cruise_in_lane(v);
    }
    let z0 = sim.k.position.z - 10.0;
    let k = settings.lean_balance_factor();
    let w = std::f32::consts::PI / spacing;
    let within = |s: f32| (0.0..cones * spacing).contains(&s);
    // The path x(s), its slope and its curvature (x'' for these gentle gates).
    let path = |s: f32| if within(s) { -amplitude * (w * s).sin() } else { 0.0 };
    let slope = |s: f32| if within(s) { -amplitude * w * (w * s).cos() } else { 0.0 };
    let bend = |s: f32| {
        if within(s) {
            amplitude * w * w * (w * s).sin()
        } else {
            0.0
        }
    };
    let (mut errors, mut yaw, mut ay, mut roll) = (vec![], 0.0f32, 0.0f32, 0.0f32);
    let mut speeds = vec![];
    let mut path_x = vec![0.0; sim.rec.time.len()];
    loop {
        let p = sim.k.position;
        let s = z0 - p.z;
        // The lean that gives the path's lateral acceleration ahead (to the left, −X,
        // when x'' < 0), and the lateral error's spring and damper.
        let ahead = s + v * PREVIEW;
        let left = -v * v * bend(ahead);
        let error = p.x - path(s);
        let drift = sim.k.velocity.x + slope(s) * sim.k.velocity.z;
        let (wn, zeta) = KEEP;
        let keep = (wn * wn * error + 2.0 * zeta * wn * drift) / G;
        let lean = (k * left / G).atan() + keep;
        sim.cruise_step(v, (lean.to_degrees() / max_lean.max(1e-3)).clamp(-1.0, 1.0));
        let s = z0 - sim.k.position.z;
        path_x.push(path(s));
        if within(s) {
            errors.push(sim.k.position.x - path(s));
            yaw = yaw.max(sim.k.yaw_rate.abs().to_degrees());
            let i = sim.rec.time.len() - 1;
            ay = ay.max(sim.rec.chassis[5][i].abs());
            roll = roll.max(sim.rec.chassis[8][i].abs());
            speeds.push(sim.k.speed);
        }
        if s > cones * spacing + 10.0 || sim.t > 60.0 {
            break;
        }
    }
    let v_mean = mean(&speeds);
    // The lean the gates' sharpest bend needs at the mean speed.
    let needed = (k * v_mean * v_mean * amplitude * w * w / G).atan().to_degrees();
    out.metric("mean_speed", v_mean * 3.6, "km/h", None);
    out.metric("max_lateral_acc", ay / G, "g", None);
    out.metric("max_yaw_rate", yaw, "deg/s", None);
    out.metric("max_roll", roll, "deg", Some(needed));
    out.metric("rms_path_error", rms(&errors), "m", None);
    out.metric("max_path_error", max_abs(&errors), "m", None);
    out.extra.push(Channel {
        name: "path_x".into(),
        unit: "m",
        values: path_x,
    });
    out.plot("Path: x (m) against z (m)", "z", &["x", "path_x"]);
    out.plot("Lean (deg)", "time", &["roll"]);
    out.plot("Steer angle (deg)", "time", &["road_wheel_angle"]);
    sim
}
