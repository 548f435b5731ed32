use super::prelude::*;

pub(crate) fn acceleration(settings: &VehicleSettings, o: &ManeuverOptions, out: &mut Out) -> Sim {
    let mut sim = Sim::new(settings, o, Ground::Flat(WheelSurface::ASPHALT));
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
    let mut launch = Launch::default();
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
        launch.sample(&sim, t);
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
    let (pred, _) = settings.predicted_top_speed();
    out.metric("zero_to_100_kmh", t100.unwrap_or(f32::NAN), "s", None);
    if !o.quick {
        out.metric("quarter_mile_time", quarter.unwrap_or(f32::NAN), "s", None);
        out.metric("quarter_mile_speed", trap.unwrap_or(f32::NAN), "km/h", None);
        out.metric("top_speed", top, "km/h", Some(pred * 3.6));
        out.metric("time_to_top_speed", sim.t - t0, "s", None);
    }
    if settings.brakes.traction_control {
        let (lo, mean_ratio) = launch.ratios();
        out.metric("launch_traction_min", lo, "1", None);
        out.metric("launch_traction_mean", mean_ratio, "1", None);
        out.metric("launch_traction_time", launch.duration(), "s", None);
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

/// The launch in first gear against the traction limit, while the tyres are the limit
/// (traction control cuts the throttle): the acceleration over 0.1 s windows from 0.3 s
/// after the car starts to move, divided by the traction limit
/// averaged over the window: the driven tyres' most force (peak × load) less the other
/// wheels' rolling resistance, over the mass plus the other wheels' inertia / r².
#[derive(Default)]
struct Launch {
    /// (time, speed, limit acceleration) each step.
    samples: Vec<(f32, f32, f32)>,
    /// The first shift has begun.
    done: bool,
}

impl Launch {
    fn sample(&mut self, sim: &Sim, t: f32) {
        let telemetry = sim.app.world().get::<VehicleTelemetry>(sim.car).expect("a vehicle");
        let moving = self.samples.iter().any(|s| s.1 > 0.1);
        // The launch ends where the tyres stop being the limit: traction control no
        // longer cuts the throttle (the engine is), or the first shift.
        self.done |=
            telemetry.powertrain.shifting || sim.k.gear != 1 || (moving && telemetry.powertrain.throttle > 0.99);
        if self.done {
            return;
        }
        let settings = &sim.settings;
        let (mut force, mut mass) = (0.0, settings.chassis.mass);
        for i in (0..sim.wheels.len()).filter(|&i| settings.has_wheel(i)) {
            let o = sim.wheel(i).output;
            if settings.axles[i / 2].driven {
                force += o.max_friction_force;
            } else {
                let w = &settings.axles[i / 2].wheel;
                force -= o.rolling_resistance_force;
                mass += w.inertia() / (w.radius() * w.radius());
            }
        }
        self.samples.push((t, sim.k.forward_speed, force / mass));
    }

    /// How long (s) the launch was traction-limited from 0.3 s after the car moved.
    fn duration(&self) -> f32 {
        match (self.samples.iter().find(|s| s.1 > 0.1), self.samples.last()) {
            (Some(first), Some(last)) => (last.0 - first.0 - 0.3).max(0.0),
            _ => 0.0,
        }
    }

    /// The smallest and the mean ratio of measured to limit acceleration (NaN without
    /// samples).
    fn ratios(&self) -> (f32, f32) {
        let Some(start) = self.samples.iter().find(|s| s.1 > 0.1).map(|s| s.0 + 0.3) else {
            return (f32::NAN, f32::NAN);
        };
        let ratios: Vec<f32> = (0..self.samples.len())
            .filter_map(|i| {
                let (t0, v0, _) = self.samples[i];
                let j = self.samples[i..].iter().position(|s| s.0 >= t0 + 0.1)? + i;
                let (t1, v1, _) = self.samples[j];
                let limit = mean(&self.samples[i..=j].iter().map(|s| s.2).collect::<Vec<_>>());
                (t0 >= start).then(|| (v1 - v0) / (t1 - t0) / limit)
            })
            .collect();
        if ratios.is_empty() {
            return (f32::NAN, f32::NAN);
        }
        (ratios.iter().copied().fold(f32::MAX, f32::min), mean(&ratios))
    }
}
