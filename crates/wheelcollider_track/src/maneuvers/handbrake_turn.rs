use super::prelude::*;

/// Entry speed (km/h).
const ENTRY_KMH: f32 = 40.0;
/// How long the handbrake is held at full lock (s).
const PULL: f32 = 1.0;
/// The yaw rate (rad/s) below which the rotation counts as over.
const SETTLED_YAW: f32 = 0.2;

/// A handbrake turn: at 40 km/h on asphalt, full lock and the handbrake pulled for a
/// second, then both released and the car left to coast out of the rotation. What a
/// player does at a hairpin; it lives in the low-speed regime of the tyre (slips read
/// against a few metres per second, a wheel locked and sliding sideways).
pub(crate) fn handbrake_turn(settings: &VehicleSettings, o: &ManeuverOptions, out: &mut Out) -> Sim {
    let mut sim = Sim::new(settings, o, Ground::Flat(WheelSurface::ASPHALT));
    sim.hold(DriverInput::default(), 1.0);
    sim.launch(ENTRY_KMH / 3.6);
    sim.hold(DriverInput::default(), 0.2);
    let pull = DriverInput {
        steer: 1.0,
        handbrake: 1.0,
        ..Default::default()
    };
    let mut heading = 0.0f32;
    let start = sim.t;
    let mut heading_channel = vec![0.0; sim.rec.time.len()];
    let mut end = None;
    for i in 0..sim.steps(PULL + 5.0) {
        let controls = if i < sim.steps(PULL) {
            pull
        } else {
            DriverInput::default()
        };
        sim.step(controls);
        heading += sim.k.yaw_rate * sim.dt();
        heading_channel.push(heading.to_degrees());
        if i >= sim.steps(PULL) && sim.k.yaw_rate.abs() < SETTLED_YAW && end.is_none() {
            end = Some((sim.t - start, sim.k.speed, heading));
        }
        if end.is_some() && sim.t - start > end.map_or(0.0, |e| e.0) + 0.5 {
            break;
        }
    }
    let (time, speed, turned) = end.unwrap_or((sim.t - start, sim.k.speed, heading));
    out.metric("heading_change", turned.to_degrees().abs(), "deg", None);
    out.metric("turn_time", time, "s", None);
    out.metric("exit_speed", speed * 3.6, "km/h", None);
    out.extra.push(Channel {
        name: "heading".into(),
        unit: "deg",
        values: heading_channel,
    });
    out.plot("Heading change (deg)", "time", &["heading"]);
    out.plot("Yaw rate (deg/s)", "time", &["yaw_rate"]);
    out.plot("Speed (km/h)", "time", &["speed"]);
    sim
}
