use super::donut::rear_wheels;
use super::prelude::*;
use wheelcollider_core::vehicle::RAD_PER_S_TO_RPM;

/// A burnout: the front brakes held (a line lock: the whole brake on the front axle,
/// ABS, traction control and ESC off), full throttle in first for 6 s from rest. A
/// rear-driven car stays in place with its rear wheels spinning at the limiter: how far
/// it moved over the last 4 s, the rear wheels' spin against the spin the limiter
/// gives in first, and the engine's speed against the redline.
pub(crate) fn burnout(settings: &VehicleSettings, o: &ManeuverOptions, out: &mut Out) -> Sim {
    let mut settings = settings.clone();
    settings.brakes.traction_control = false;
    settings.brakes.abs = false;
    settings.brakes.front_bias = 1.0;
    settings.assists.yaw_stability.enabled = false;
    let mut sim = Sim::new(&settings, o, Ground::Flat(WheelSurface::ASPHALT));
    sim.hold(DriverInput::default(), 1.0);
    let controls = DriverInput {
        throttle: 1.0,
        brake: 1.0,
        ..Default::default()
    };
    sim.hold(controls, 2.0);
    let (first, start) = (sim.rec.time.len(), sim.k.position);
    sim.hold(controls, 4.0);
    out.metric("moved", (sim.k.position - start).length(), "m", Some(0.0));
    let rear = rear_wheels(&sim);
    let spin = mean(&rear.map(|i| mean(&sim.rec.wheels[i][6][first..]).abs()));
    let ratio = settings.gearbox.total_ratio(1).abs().max(1e-3);
    let limiter = settings.engine.redline_rpm / RAD_PER_S_TO_RPM / ratio;
    out.metric("rear_spin", spin, "rad/s", Some(limiter));
    out.metric(
        "rpm",
        mean(&sim.rec.chassis[15][first..]),
        "rpm",
        Some(settings.engine.redline_rpm),
    );
    let rl = format!("{}.angular_velocity", sim.labels[rear[0]]);
    out.plot("Rear wheel spin (rad/s)", "time", &[&rl]);
    sim
}
