use super::prelude::*;

pub(crate) fn braking(settings: &VehicleSettings, o: &ManeuverOptions, out: &mut Out) -> Sim {
    let mut settings = settings.clone();
    // A held brake at a stop would select reverse: not part of this test.
    settings.gearbox.auto_reverse = false;
    let mut sim = Sim::new(&settings, o, Ground::Flat(WheelSurface::ASPHALT));
    sim.hold(DriverInput::default(), 1.0);
    let v0 = 100.0 / 3.6;
    sim.launch(v0);
    let p0 = sim.k.position;
    let t0 = sim.t;
    let mut stopped = None;
    // A two-wheeler's rider brakes with both: the front lever (`brake`) and the rear
    // pedal (`handbrake`).
    let pedal = if settings.two_wheeler.is_some() { 1.0 } else { 0.0 };
    for _ in 0..sim.steps(30.0) {
        let steer = sim.keep_lane();
        sim.step(DriverInput {
            brake: 1.0,
            handbrake: pedal,
            steer,
            ..Default::default()
        });
        if sim.k.speed < 0.05 {
            stopped = Some(sim.t - t0);
            break;
        }
    }
    let d = (sim.k.position - p0).with_y(0.0).length();
    let t = stopped.unwrap_or(f32::NAN);
    let mu = settings.axles[0].wheel.longitudinal_tyre().peak_value();
    out.metric("stop_distance", d, "m", Some(settings.expected_stop_distance(1.0, v0)));
    out.metric("stop_time", t, "s", None);
    out.metric("mean_deceleration", v0 / t / G, "g", None);
    out.metric("peak_mu_bound", v0 * v0 / (2.0 * mu * G), "m", None);
    sim.hold(
        DriverInput {
            brake: 1.0,
            handbrake: pedal,
            ..Default::default()
        },
        0.5,
    );
    out.plot("Speed (km/h)", "time", &["speed"]);
    let slips: Vec<String> = sim.labels.iter().map(|l| format!("{l}.forward_slip")).collect();
    let refs: Vec<&str> = slips.iter().map(String::as_str).collect();
    out.plot("Longitudinal slip", "time", &refs);
    out.plot("Deceleration (m/s²)", "time", &["longitudinal_acc"]);
    sim
}
