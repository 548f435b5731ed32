use super::prelude::*;

/// The speed the donut starts from (m/s).
const START: f32 = 2.0;

/// A power-oversteer donut: traction control and ESC off, first gear, full lock and
/// full throttle from 2 m/s for 15 s. A rear-driven car spins its rear tyres far past
/// their peak and circles on them: the rear wheels' longitudinal slip over their peak
/// slip (sustained above 3), the yaw rate (above 1 rad/s), the radius (3–6 m) and how
/// steady the rear lateral force is (RMS about its trend, % of load), over the last
/// 10 s. A front-driven car understeers wide instead; the metrics say so.
pub(crate) fn donut(settings: &VehicleSettings, o: &ManeuverOptions, out: &mut Out) -> Sim {
    let mut settings = settings.clone();
    settings.brakes.traction_control = false;
    settings.assists.yaw_stability.enabled = false;
    let mut sim = Sim::new(&settings, o, Ground::Flat(WheelSurface::ASPHALT));
    sim.hold(DriverInput::default(), 1.0);
    sim.launch(START);
    let seconds = if o.quick { 8.0 } else { 15.0 };
    let n = sim.steps(seconds);
    let first = sim.rec.time.len() + sim.steps(seconds - if o.quick { 4.0 } else { 10.0 });
    let (mut yaw, mut radii) = (vec![], vec![]);
    for _ in 0..n {
        sim.step(DriverInput {
            throttle: 1.0,
            steer: 1.0,
            ..Default::default()
        });
        if sim.rec.time.len() > first {
            yaw.push(sim.k.yaw_rate.abs());
            if sim.k.yaw_rate.abs() > 1e-3 {
                radii.push(sim.k.speed / sim.k.yaw_rate.abs());
            }
        }
    }
    let rear = rear_wheels(&sim);
    let peak = rear
        .iter()
        .map(|&i| sim.wheel(i).output.peak_slip)
        .fold(0.0f32, f32::max)
        .max(1e-3);
    let slip = mean(
        &rear
            .iter()
            .map(|&i| mean(&sim.rec.wheels[i][2][first..]).abs())
            .collect::<Vec<_>>(),
    );
    out.metric("rear_slip_over_peak", slip / peak, "×", None);
    out.metric("yaw_rate", mean(&yaw), "rad/s", None);
    out.metric("radius", mean(&radii), "m", None);
    let mut worst = 0.0f32;
    for &i in &rear {
        let load = mean(&sim.rec.wheels[i][1][first..]);
        if load > 1.0 {
            worst = worst.max(rms_about_line(&sim.rec.wheels[i][5][first..]) / load);
        }
    }
    out.metric("rear_lateral_force_rms", worst * 100.0, "% load", None);
    let rl = format!("{}.forward_slip", sim.labels[rear[0]]);
    out.plot("Rear longitudinal slip", "time", &[&rl]);
    out.plot("Yaw rate (deg/s)", "time", &["yaw_rate"]);
    sim
}

/// The last axle's two wheel indices.
pub(crate) fn rear_wheels(sim: &Sim) -> [usize; 2] {
    let n = sim.wheels.len();
    [n - 2, n - 1]
}
