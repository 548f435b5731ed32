use super::prelude::*;

pub(crate) fn bump_run(settings: &VehicleSettings, o: &ManeuverOptions, out: &mut Out) -> Sim {
    let v = 60.0 / 3.6;
    let mut sim = Sim::new(settings, o, Ground::Flat(WheelSurface::GRAVEL));
    sim.hold(DriverInput::default(), 1.0);
    sim.launch(v);
    // One second to settle into the speed, then measure.
    let seconds = if o.quick { 3.0 } else { 10.0 };
    let mut start = 0;
    for n in 0..sim.steps(1.0 + seconds) {
        if n == sim.steps(1.0) {
            start = sim.rec.time.len();
        }
        sim.cruise_in_lane(v);
    }
    let col = |i: usize| &sim.rec.chassis[i][start..];
    let vertical = col(6);
    let (mut lifted, mut total, mut max_rate) = (0usize, 0usize, 0.0f32);
    for (i, w) in sim.rec.wheels.iter().enumerate() {
        let travel = settings.axles[i / 2].wheel.suspension_length();
        for (&g, &c) in w[7][start..].iter().zip(&w[0][start..]) {
            total += 1;
            lifted += (g < 0.5) as usize;
            max_rate = max_rate.max(c / travel);
        }
    }
    let rate = |i: usize| {
        let dt = sim.dt();
        let v: Vec<f32> = col(i).windows(2).map(|w| (w[1] - w[0]) / dt).collect();
        rms(&v)
    };
    out.metric("rms_vertical_acc", rms(vertical), "m/s²", None);
    out.metric("max_vertical_acc", max_abs(vertical), "m/s²", None);
    out.metric("rms_pitch_rate", rate(9), "deg/s", None);
    out.metric("rms_roll_rate", rate(8), "deg/s", None);
    out.metric("max_compression", max_rate, "1", None);
    out.metric("wheel_lift", lifted as f32 / total.max(1) as f32 * 100.0, "%", None);
    out.metric("mean_speed", mean(&sim.rec.chassis[0][start..]), "km/h", None);
    out.plot("Vertical body acceleration (m/s²)", "time", &["vertical_acc"]);
    let compressions: Vec<String> = sim.labels.iter().map(|l| format!("{l}.compression")).collect();
    let refs: Vec<&str> = compressions.iter().map(String::as_str).collect();
    out.plot("Suspension compression (m)", "time", &refs);
    sim
}
