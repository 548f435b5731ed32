//! Settle (4 s, then creep over 1 s): sag per wheel against its static compression (m·g/k, or what the ride height
//! sets), creep, then each axle's natural frequency and
//! bump / rebound damping from a push. (`settle` is long: the three phases in
//! order, sharing the recorded series.)

use super::prelude::*;

pub(crate) fn settle(settings: &VehicleSettings, o: &ManeuverOptions, out: &mut Out) -> Sim {
    let mut sim = Sim::new(settings, o, Ground::Flat(WheelSurface::ASPHALT));
    let still = DriverInput::default();
    sim.hold(still, 4.0);
    let h0 = sim.k.position.y;
    sim.hold(still, 1.0);
    let creep = (sim.k.position.y - h0) * 1000.0;
    // Each axle's static load: the lever rule, or its group's equal share beyond two
    // axles (`VehicleSettings::static_axle_load`).
    let loads: Vec<f32> = (0..settings.axles.len())
        .map(|a| settings.static_axle_load(a, 0.0, 0.0))
        .collect();
    for i in (0..settings.wheel_indices()).filter(|&i| settings.has_wheel(i)) {
        let a = i / 2;
        // The corner's load over the rate, or the compression the ride height leaves.
        let expected = Some(settings.static_compression(a) * 1000.0);
        out.metric(
            format!("sag_{}", sim.labels[i]),
            sim.wheel(i).output.compression * 1000.0,
            "mm",
            expected,
        );
    }
    out.metric("creep", creep, "mm", Some(0.0));
    // Push the body down and watch each axle ring down. The push is sized so the first
    // swing is about half the sag (v = ½·g/ω): the wheels stay on the ground and off the
    // bump stops, where the suspension is linear.
    let rest: Vec<f32> = (0..settings.wheel_indices())
        .map(|i| {
            if settings.has_wheel(i) {
                sim.wheel(i).output.compression
            } else {
                0.0
            }
        })
        .collect();
    let start = sim.rec.time.len();
    let omega_max = (0..loads.len())
        .map(|a| (settings.axles[a].wheel.suspension_spring() * 2.0 * G / loads[a].max(1.0)).sqrt())
        .fold(0.0, f32::max);
    let push = if omega_max > 0.0 { 0.5 * G / omega_max } else { 0.3 };
    sim.app.world_mut().get_mut::<LinearVelocity>(sim.car).unwrap().0.y -= push;
    sim.hold(still, 3.0);
    let time = sim.rec.time[start..].to_vec();
    for (a, axle) in settings.axles.iter().enumerate() {
        let name = if settings.axles.len() == 2 {
            ["front", "rear"][a].to_string()
        } else {
            format!("axle{a}")
        };
        let comp = |i: usize| &sim.rec.wheels[i][0][start..];
        let (l, r) = (2 * a, 2 * a + 1);
        let dev: Vec<f32> = comp(l)
            .iter()
            .zip(comp(r))
            .map(|(x, y)| 0.5 * (x + y) - 0.5 * (rest[l] + rest[r]))
            .collect();
        let k = axle.wheel.suspension_spring();
        let corner_mass = Some(loads[a] / 2.0 / G);
        let ex = extremes(&time, &dev);
        // Pushed down: the first extreme is the deepest compression (a rebound half
        // cycle follows), then the fullest extension (a bump half cycle follows).
        if ex.len() >= 3 && ex[0].1 > 0.0 {
            let zr = half_cycle_damping(ex[0].1, ex[1].1);
            let zb = half_cycle_damping(ex[1].1, ex[2].1);
            let wr = std::f32::consts::PI / (ex[1].0 - ex[0].0) / (1.0 - zr * zr).max(1e-6).sqrt();
            let wb = std::f32::consts::PI / (ex[2].0 - ex[1].0) / (1.0 - zb * zb).max(1e-6).sqrt();
            let f = 0.5 * (wr + wb) / std::f32::consts::TAU;
            let fe = corner_mass.map(|m| (k / m).sqrt() / std::f32::consts::TAU);
            let ze = |c: f32| corner_mass.map(|m| c / (2.0 * (k * m).sqrt()));
            out.metric(format!("natural_frequency_{name}"), f, "Hz", fe);
            out.metric(
                format!("damping_ratio_rebound_{name}"),
                zr,
                "1",
                ze(axle.wheel.suspension_rebound()),
            );
            out.metric(
                format!("damping_ratio_bump_{name}"),
                zb,
                "1",
                ze(axle.wheel.suspension_bump()),
            );
        } else {
            // Overdamped: no second extreme to measure.
            out.metric(format!("natural_frequency_{name}"), f32::NAN, "Hz", None);
        }
        out.extra.push(Channel {
            name: format!("{name}.heave"),
            unit: "m",
            values: {
                let mut v = vec![0.0; start];
                v.extend(dev.iter());
                v
            },
        });
    }
    let compressions: Vec<String> = sim.labels.iter().map(|l| format!("{l}.compression")).collect();
    let refs: Vec<&str> = compressions.iter().map(String::as_str).collect();
    out.plot("Suspension compression (m)", "time", &refs);
    let heave: Vec<String> = out.extra.iter().map(|c| c.name.clone()).collect();
    let refs: Vec<&str> = heave.iter().map(String::as_str).collect();
    out.plot("Each axle's compression from rest after the push (m)", "time", &refs);
    sim
}
