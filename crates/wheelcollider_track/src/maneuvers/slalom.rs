use super::prelude::*;

pub(crate) fn slalom(settings: &VehicleSettings, o: &ManeuverOptions, out: &mut Out) -> Sim {
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
