use super::prelude::*;

/// The speed held (m/s).
const SPEED: f32 = 3.0;

/// A slow full-lock circle: full lock at 3 m/s (11 km/h), the throttle holding the speed. At
/// walking pace the path is the steering's own circle, so the radius the car drives
/// is compared with the kinematic radius of its centre of mass, `√(b² + (L/tan δ)²)`
/// (`L` the wheelbase, `b` the centre of mass ahead of the rear axle, `δ` the mean
/// road-wheel angle), and each wheel's lateral force should be steady: its RMS about
/// a straight-line trend over the second half, as a fraction of the wheel's load.
pub(crate) fn full_lock_circle(settings: &VehicleSettings, o: &ManeuverOptions, out: &mut Out) -> Sim {
    let mut sim = Sim::new(settings, o, Ground::Flat(WheelSurface::ASPHALT));
    sim.hold(DriverInput::default(), 1.0);
    sim.launch(SPEED);
    let seconds = if o.quick { 6.0 } else { 16.0 };
    let n = sim.steps(seconds);
    let (mut radii, mut angles) = (vec![], vec![]);
    let first = sim.rec.time.len() + n / 2;
    for i in 0..n {
        let throttle = ((SPEED - sim.k.speed) * 0.5).clamp(0.0, 1.0);
        let brake = ((sim.k.speed - SPEED - 0.3) * 0.5).clamp(0.0, 1.0);
        sim.step(DriverInput {
            throttle,
            brake,
            steer: 1.0,
            ..Default::default()
        });
        if i >= n / 2 && sim.k.yaw_rate.abs() > 1e-3 {
            radii.push(sim.k.speed / sim.k.yaw_rate.abs());
            angles.push(sim.k.road_wheel_angle.abs().to_radians());
        }
    }
    let radius = mean(&radii);
    let wheelbase = settings.wheelbase_for(0);
    let rear = settings.axles.last().map_or(0.0, |a| a.z);
    let b = (rear - settings.chassis.centre_of_mass[2]).abs();
    let delta = mean(&angles);
    let kinematic = (b * b + (wheelbase / delta.tan()).powi(2)).sqrt();
    out.metric("radius", radius, "m", Some(kinematic));
    out.metric("speed", mean(&sim.rec.chassis[0][first..]) / 3.6, "m/s", Some(SPEED));
    let mut worst = 0.0f32;
    for wheel in &sim.rec.wheels {
        let (load, force) = (&wheel[1][first..], &wheel[5][first..]);
        let load = mean(load);
        if load > 1.0 {
            worst = worst.max(rms_about_line(force) / load);
        }
    }
    out.metric("lateral_force_rms", worst * 100.0, "% load", None);
    let (front, rear) = (
        format!("{}.sideways_force", sim.labels[0]),
        format!("{}.sideways_force", sim.labels[sim.labels.len() - 1]),
    );
    out.plot("Lateral force (N)", "time", &[&front, &rear]);
    out.plot("Yaw rate (deg/s)", "time", &["yaw_rate"]);
    sim
}
