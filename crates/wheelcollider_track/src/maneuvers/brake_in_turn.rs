use super::prelude::*;

/// Radius of the circle (m).
const RADIUS: f32 = 40.0;
/// Lateral acceleration the car holds on the circle before it brakes (g).
const LATERAL_G: f32 = 0.5;

/// Braking in a turn: the car holds the 40 m circle at 0.5 g, then brakes fully while
/// the path-following driver keeps steering for the circle. Run twice: with ABS, and
/// with ABS off (the wheels lock). Distance along the path to a stop and the largest
/// radius error during the stop, for each.
pub(crate) fn brake_in_turn(settings: &VehicleSettings, o: &ManeuverOptions, out: &mut Out) -> Sim {
    let mut locked = settings.clone();
    locked.brakes.abs = false;
    let (_, d_locked, e_locked) = run(&locked, o);
    let mut with_abs = settings.clone();
    with_abs.brakes.abs = true;
    let (sim, d_abs, e_abs) = run(&with_abs, o);
    let v0 = (LATERAL_G * G * RADIUS).sqrt();
    out.metric("entry_speed", v0 * 3.6, "km/h", None);
    out.metric("stop_distance_abs", d_abs, "m", None);
    out.metric("stop_distance_locked", d_locked, "m", None);
    out.metric("path_error_abs", e_abs, "m", None);
    out.metric("path_error_locked", e_locked, "m", None);
    out.plot("Speed (km/h)", "time", &["speed"]);
    let slips: Vec<String> = sim.labels.iter().map(|l| format!("{l}.forward_slip")).collect();
    let refs: Vec<&str> = slips.iter().map(String::as_str).collect();
    out.plot("Longitudinal slip (with ABS)", "time", &refs);
    sim
}

/// One run: settle on the circle, brake. Returns the sim, the distance travelled from
/// the brake application to a stop (m) and the largest |radius − R| on the way (m).
fn run(settings: &VehicleSettings, o: &ManeuverOptions) -> (Sim, f32, f32) {
    let mut settings = settings.clone();
    // A held brake at a stop would select reverse: not part of this test.
    settings.gearbox.auto_reverse = false;
    let mut sim = Sim::new(&settings, o, Ground::Flat(WheelSurface::ASPHALT));
    sim.hold(DriverInput::default(), 1.0);
    let centre = sim.k.position + Vec3::new(-RADIUS, 0.0, 0.0);
    let v0 = (LATERAL_G * G * RADIUS).sqrt();
    sim.launch(v0);
    let steer = |sim: &Sim| {
        let p = sim.k.position;
        let to_car = (p - centre).with_y(0.0);
        let angle = to_car.z.atan2(to_car.x) - sim.lookahead().min(15.0) / RADIUS;
        sim.pursue(centre + Vec3::new(RADIUS * angle.cos(), p.y, RADIUS * angle.sin()))
    };
    for _ in 0..sim.steps(if o.quick { 2.0 } else { 4.0 }) {
        let s = steer(&sim);
        sim.cruise_step(v0, s);
    }
    let (mut distance, mut error) = (0.0f32, 0.0f32);
    let mut last = sim.k.position;
    for _ in 0..sim.steps(10.0) {
        let s = steer(&sim);
        sim.step(DriverInput {
            brake: 1.0,
            steer: s,
            ..Default::default()
        });
        let p = sim.k.position;
        distance += (p - last).with_y(0.0).length();
        last = p;
        error = error.max(((p - centre).with_y(0.0).length() - RADIUS).abs());
        if sim.k.speed < 0.05 {
            break;
        }
    }
    (sim, distance, error)
}
