use super::prelude::*;

pub(crate) fn circle(settings: &VehicleSettings, o: &ManeuverOptions, out: &mut Out) -> Sim {
    // A path-following driver holds a 40 m circle (turning left) and raises the speed
    // slowly: quickly through the linear range, then 0.05 m/s per second near the limit.
    // It aims at a point on the circle one look-ahead ahead (pure pursuit), and an
    // integral of the radius error pulls that circle in or out, so it holds R exactly.
    let radius = 40.0;
    let mut sim = Sim::new(settings, o, Ground::Flat(WheelSurface::ASPHALT));
    sim.hold(DriverInput::default(), 1.0);
    let centre = sim.k.position + Vec3::new(-radius, 0.0, 0.0);
    let mut target: f32 = 6.0;
    sim.launch(target);
    let kinematic = (settings.wheelbase_for(0) / radius).atan().to_degrees();
    let mu = settings.axles[0].wheel.lateral_tyre().peak_value();
    let (mut best, mut integral) = (0.0f32, 0.0f32);
    let mut window: Vec<f32> = vec![];
    let mut points = vec![];
    let win = sim.steps(1.0);
    let (fast, slow) = if o.quick { (1.0, 0.3) } else { (0.2, 0.05) };
    let mut lateral = vec![0.0; sim.rec.time.len()];
    let lat_col = CHASSIS.iter().position(|c| c.0 == "lateral_acc").expect("recorded");
    let roll_col = CHASSIS.iter().position(|c| c.0 == "roll").expect("recorded");
    let (mut roll_points, mut suspension_points) = (vec![], vec![]);
    // A two-wheeler: the lean's tangent against the lateral acceleration (g). Its rider
    // leans it as far as `max_lean` at most: its turn's limit is the lesser of that
    // lean's `tan φ` and the tyres' grip.
    let bike = settings.two_wheeler.as_ref();
    let limit = bike.map_or(mu, |b| mu.min(settings.resultant_lean(b.max_lean.to_radians()).tan()));
    let mut lean_points = vec![];
    for _ in 0..sim.steps(if o.quick { 40.0 } else { 300.0 }) {
        let p = sim.k.position;
        let to_car = (p - centre).with_y(0.0);
        let r = to_car.length();
        let error = r - radius;
        integral = (integral + 0.5 * error / sim.hz).clamp(-10.0, 10.0);
        let aim = radius - integral;
        // A two-wheeler's look-ahead is longer (`Sim::lookahead`): up to the radius.
        let ahead = sim.lookahead().min(if bike.is_some() { radius } else { 15.0 });
        let angle = to_car.z.atan2(to_car.x) - ahead / radius;
        let steer = sim.pursue(centre + Vec3::new(aim * angle.cos(), 0.0, aim * angle.sin()) + Vec3::Y * p.y);
        let ay = sim.k.speed * sim.k.yaw_rate.abs();
        target += if ay < 0.6 * limit * G { fast } else { slow } / sim.hz;
        let throttle = ((target - sim.k.speed) * 0.5).clamp(0.0, 1.0);
        sim.step(DriverInput {
            throttle,
            steer,
            ..Default::default()
        });
        // The centripetal acceleration (left positive): along the body's lateral
        // axis, or a two-wheeler's in the road's plane, `v²/r` (its body's axis leans
        // with it and reads `a_y·cos φ`).
        let ay = match bike {
            Some(_) => sim.k.speed * sim.k.speed / (sim.k.position - centre).with_y(0.0).length().max(1.0),
            None => -sim.rec.chassis[lat_col].last().copied().unwrap_or(0.0),
        };
        lateral.push(ay / G);
        if error.abs() < 1.0 {
            window.push(ay);
            if window.len() > win {
                window.remove(0);
                best = best.max(mean(&window));
            }
            if bike.is_some() && ay > 0.05 * G {
                let lean = sim.rec.chassis[roll_col].last().copied().unwrap_or(0.0);
                lean_points.push((ay / G, settings.resultant_lean(lean.abs().to_radians()).tan()));
            } else if ay < 0.5 * mu * G && ay > 0.05 * G {
                points.push((ay / G, sim.k.road_wheel_angle));
                let roll = sim.rec.chassis[roll_col].last().copied().unwrap_or(0.0);
                roll_points.push((ay / G, roll.abs()));
                suspension_points.push((ay / G, suspension_roll(&sim)));
            }
        } else {
            window.clear();
        }
        // Run wide, or fallen (a two-wheeler's lean past its rider's grip).
        if error > 4.0 || sim.k.speed < 1.0 {
            break;
        }
    }
    if bike.is_some() {
        out.metric("max_lateral_acc", best / G, "g", Some(limit));
        // The lean's balance in a steady turn: the centrifugal moment `m·a_y·h` and the
        // wheels' gyroscopic moment `ψ̇·Σ(J/r)·v` (their spin's angular momentum turned
        // at the yaw rate) against gravity's `m·g·h·tan φ'`, so
        // `tan φ' = (a_y/g)·(1 + Σ(J/r)/(m·h))`: the slope, through 0, of the lean of
        // the line from the contacts on the tyres' crowns to the centre of mass
        // (`VehicleSettings::resultant_lean`).
        let gyroscopic = settings.lean_balance_factor();
        match fit_line(&lean_points) {
            Some((slope, intercept)) => {
                out.metric("lean_tangent_per_g", slope, "1/g", Some(gyroscopic));
                out.metric("lean_tangent_at_zero", intercept, "1", Some(0.0));
            }
            None => out.metric("lean_tangent_per_g", f32::NAN, "1/g", Some(gyroscopic)),
        }
        out.extra.push(Channel {
            name: "lateral_g".into(),
            unit: "g",
            values: lateral,
        });
        out.plot("Lean (deg) against lateral acceleration (g)", "lateral_g", &["roll"]);
        out.plot("Lateral acceleration (g)", "time", &["lateral_g"]);
        out.plot("Speed (km/h)", "time", &["speed"]);
        return sim;
    }
    out.metric("max_lateral_acc", best / G, "g", Some(mu));
    match fit_line(&points) {
        Some((slope, intercept)) => {
            out.metric("understeer_gradient", slope, "deg/g", None);
            out.metric("steer_at_zero_lateral_acc", intercept, "deg", Some(kinematic));
        }
        None => out.metric("understeer_gradient", f32::NAN, "deg/g", None),
    }
    // Roll against the lateral acceleration in the linear range: the suspension's (the
    // compressions' difference over the track), against its closed form
    // in a turn (`VehicleSettings::predicted_roll_gradient`, the wheels' gyroscopic
    // moment included), and the body's, which a cylinder
    // tyre's edge adds to when the wheels carry static camber (`docs/vehicle.md`).
    let slope = |points: &[(f32, f32)]| fit_line(points).map_or(f32::NAN, |(slope, _)| slope);
    let predicted = settings.predicted_roll_gradient();
    out.metric(
        "suspension_roll_gradient",
        slope(&suspension_points),
        "deg/g",
        predicted,
    );
    out.metric("roll_gradient", slope(&roll_points), "deg/g", None);
    out.extra.push(Channel {
        name: "lateral_g".into(),
        unit: "g",
        values: lateral,
    });
    out.plot(
        "Road-wheel angle (deg) against lateral acceleration (g)",
        "lateral_g",
        &["road_wheel_angle"],
    );
    out.plot("Lateral acceleration (g)", "time", &["lateral_g"]);
    out.plot("Speed (km/h)", "time", &["speed"]);
    sim
}

/// The suspension's roll (deg): each axle's compression difference over its track,
/// averaged over the axles, from the last recorded step.
fn suspension_roll(sim: &Sim) -> f32 {
    let axles = sim.settings.axles.len();
    let sum: f32 = (0..axles)
        .map(|a| {
            let x = |right: bool| {
                let w = VehicleSettings::wheel_index(a, right);
                sim.rec.wheels[w][0].last().copied().unwrap_or(0.0)
            };
            ((x(true) - x(false)) / (2.0 * sim.settings.axles[a].half_track))
                .atan()
                .to_degrees()
                .abs()
        })
        .sum();
    sum / axles.max(1) as f32
}
