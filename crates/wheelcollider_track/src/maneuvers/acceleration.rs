use super::prelude::*;

pub(crate) fn acceleration(spec: &VehicleSettings, o: &ManeuverOptions, out: &mut Out) -> Sim {
    let mut sim = Sim::new(spec, o, Ground::Flat(WheelSurface::ASPHALT));
    sim.hold(DriverInput::default(), 1.0);
    let t0 = sim.t;
    let z0 = sim.k.position.z;
    let (mut t100, mut quarter, mut trap) = (None, None, None);
    let mut shifts: Vec<(i32, i32, f32, f32)> = vec![];
    let (mut gear, mut last_rpm, mut last_kmh) = (sim.k.gear, sim.k.rpm, 0.0);
    let max_time = if o.quick { 20.0 } else { 240.0 };
    // Top speed: the best 1 s mean once it rose by less than 0.1 km/h over 10 s.
    let mut window: Vec<f32> = vec![];
    let win = sim.steps(10.0);
    let mut top = 0.0f32;
    for _ in 0..sim.steps(max_time) {
        let steer = sim.keep_lane();
        sim.step(DriverInput {
            throttle: 1.0,
            steer,
            ..Default::default()
        });
        let t = sim.t - t0;
        let kmh = sim.k.forward_speed * 3.6;
        let dist = z0 - sim.k.position.z;
        if t100.is_none() && kmh >= 100.0 {
            t100 = Some(t - (kmh - 100.0) / ((kmh - last_kmh) * sim.hz).max(1e-3));
        }
        if quarter.is_none() && dist >= QUARTER_MILE {
            quarter = Some(t);
            trap = Some(kmh);
        }
        if sim.k.gear != gear {
            if sim.k.gear == gear + 1 && gear > 0 {
                shifts.push((gear, sim.k.gear, last_rpm, kmh));
            }
            gear = sim.k.gear;
        }
        last_rpm = sim.k.rpm;
        last_kmh = kmh;
        window.push(kmh);
        top = top.max(kmh);
        if o.quick && t100.is_some() {
            break;
        }
        if window.len() > win {
            window.remove(0);
            if window[window.len() - 1] - window[0] < 0.1 && quarter.is_some() {
                break;
            }
        }
    }
    let (pred, _) = spec.predicted_top_speed();
    out.metric("zero_to_100_kmh", t100.unwrap_or(f32::NAN), "s", None);
    if !o.quick {
        out.metric("quarter_mile_time", quarter.unwrap_or(f32::NAN), "s", None);
        out.metric("quarter_mile_speed", trap.unwrap_or(f32::NAN), "km/h", None);
        out.metric("top_speed", top, "km/h", Some(pred * 3.6));
        out.metric("time_to_top_speed", sim.t - t0, "s", None);
    }
    for (from, to, rpm, kmh) in shifts {
        out.metric(format!("shift_{from}_{to}_rpm"), rpm, "rpm", None);
        out.metric(format!("shift_{from}_{to}_speed"), kmh, "km/h", None);
    }
    out.plot("Speed (km/h)", "time", &["speed"]);
    out.plot("Engine speed (rpm)", "time", &["engine_rpm"]);
    out.plot("Gear", "time", &["gear"]);
    let slips: Vec<String> = sim.labels.iter().map(|l| format!("{l}.forward_slip")).collect();
    let refs: Vec<&str> = slips.iter().map(String::as_str).collect();
    out.plot("Longitudinal slip", "time", &refs);
    sim
}
