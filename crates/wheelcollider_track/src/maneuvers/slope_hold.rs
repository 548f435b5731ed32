use super::prelude::*;

pub(crate) fn slope_hold(settings: &VehicleSettings, o: &ManeuverOptions, out: &mut Out) -> Sim {
    // The pulled handbrake also keeps auto-reverse from engaging.
    let hold = DriverInput {
        brake: 1.0,
        handbrake: 1.0,
        ..Default::default()
    };
    let mu = settings.axles[0].wheel.longitudinal_tyre().peak_value();
    let mut last = None;
    for deg in [10.0f32, 20.0] {
        let mut sim = Sim::new(settings, o, Ground::Slope(deg));
        sim.hold(hold, 2.0);
        let p0 = sim.k.position;
        let mut drift = vec![0.0; sim.rec.time.len()];
        for _ in 0..sim.steps(if o.quick { 1.0 } else { 5.0 }) {
            sim.step(hold);
            drift.push((sim.k.position - p0).length() * 1000.0);
        }
        let holds = deg.to_radians().tan() < mu;
        out.metric(
            format!("drift_{deg:.0}deg"),
            drift.last().copied().unwrap_or(f32::NAN),
            "mm",
            holds.then_some(0.0),
        );
        // Holding needs the brakes to resist m·g·sin θ at the tyres.
        let need = settings.chassis.mass * G * deg.to_radians().sin() * settings.drive_radius();
        let have = settings.brakes.max_torque + settings.brakes.handbrake_torque;
        out.metric(format!("brake_margin_{deg:.0}deg"), have / need, "1", None);
        last = Some((sim, drift));
    }
    let (sim, drift) = last.expect("two slopes");
    out.extra.push(Channel {
        name: "drift".into(),
        unit: "mm",
        values: drift,
    });
    out.plot("Drift on 20° (mm)", "time", &["drift"]);
    out.plot("Pitch (deg)", "time", &["pitch"]);
    sim
}
