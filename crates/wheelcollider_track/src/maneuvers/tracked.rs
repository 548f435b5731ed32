//! A tracked vehicle's own manoeuvres ([`Maneuver::is_tracked_only`](crate::Maneuver::is_tracked_only)):
//! skid-steer turns at three steer inputs, a pivot in neutral, a climb from rest about
//! the gradient its closed form gives and a hold across a side slope. The closed forms
//! are the core's (`VehicleSettings::predicted_skid_steer`,
//! `VehicleSettings::predicted_gradient_limit`; `docs/tracked.md`).

use super::prelude::*;
use wheelcollider_avian::vehicle::VehicleRuntime;
use wheelcollider_core::vehicle::RAD_PER_S_TO_RPM;

/// What the belts did in one step.
#[derive(Clone, Copy, Default)]
struct Belts {
    /// Each belt's speed, its road wheels' mean surface speed (m/s; left, right).
    speed: [f32; 2],
    /// Each belt's mean longitudinal slip (left, right).
    slip: [f32; 2],
    /// Each belt's traction, its road wheels' drive over their radius: their tyres'
    /// forward forces and their rolling resistance against their spin (N; left, right).
    traction: [f32; 2],
    /// The rolling resistance's power (W).
    rolling_power: f32,
    /// The power the belts' slip over the ground takes (W): each road wheel's tyre force
    /// times its belt's speed over the ground under it.
    slip_power: f32,
    /// The road wheels' lateral forces' yaw moment about the centre of mass (N·m,
    /// positive left).
    moment: f32,
}

impl Belts {
    fn read(sim: &Sim) -> Belts {
        let w = sim.app.world();
        let rot = w.get::<Rotation>(sim.car).unwrap().0;
        let omega = w.get::<AngularVelocity>(sim.car).unwrap().0;
        let centre = sim.k.position + rot * w.get::<ComputedCenterOfMass>(sim.car).unwrap().0;
        let (forward, side) = (rot * Vec3::NEG_Z, rot * Vec3::X);
        let per_belt = sim.wheels.len() as f32 / 2.0;
        let mut b = Belts::default();
        for (i, &e) in sim.wheels.iter().enumerate() {
            let (Some(out), Some(wheel)) = (w.get::<WheelOutput>(e), w.get::<WheelCollider>(e)) else {
                continue;
            };
            let (o, s) = (&out.output, i % 2);
            let speed = o.angular_velocity * wheel.radius();
            b.speed[s] += speed / per_belt;
            b.slip[s] += o.forward_slip / per_belt;
            if o.grounded {
                let at = out.contact_position - centre;
                let ground = (sim.k.velocity + omega.cross(at)).dot(forward);
                let rolling = o.rolling_resistance_force * speed.signum();
                let traction = o.forward_force + rolling;
                b.traction[s] += traction;
                b.rolling_power += rolling * speed;
                b.slip_power += o.forward_force * (speed - ground);
                b.moment += at.cross(side * o.sideways_force).y;
            }
        }
        b
    }
}

/// A copy of `settings` with a manual gearbox (a run holds its gear).
fn manual(settings: &VehicleSettings) -> VehicleSettings {
    let mut s = settings.clone();
    s.gearbox.automatic = false;
    s
}

/// Puts the vehicle in `gear` now.
fn select(sim: &mut Sim, gear: i32) {
    let mut runtime = sim.app.world_mut().get_mut::<VehicleRuntime>(sim.car).unwrap();
    if let Some(state) = runtime.state.as_mut() {
        (state.gear, state.next_gear) = (gear, gear);
    }
}

/// The mean of `f` over the steps of a window.
struct Window {
    n: f32,
    speed: f32,
    yaw: f32,
    rpm: f32,
    engine_power: f32,
    belts: Belts,
    radius: f32,
    power: f32,
}

impl Window {
    fn new() -> Self {
        Window {
            n: 0.0,
            speed: 0.0,
            yaw: 0.0,
            rpm: 0.0,
            engine_power: 0.0,
            belts: Belts::default(),
            radius: 0.0,
            power: 0.0,
        }
    }

    fn add(&mut self, sim: &Sim) {
        let b = Belts::read(sim);
        let tel = sim.app.world().get::<VehicleTelemetry>(sim.car).unwrap();
        self.n += 1.0;
        self.speed += sim.k.forward_speed;
        self.yaw += sim.k.yaw_rate;
        self.rpm += sim.k.rpm;
        self.engine_power += tel.powertrain.engine_torque * sim.k.rpm / RAD_PER_S_TO_RPM;
        self.radius += sim.settings.belts_turn_radius(b.speed, b.slip);
        self.power += b.traction[0] * b.speed[0] + b.traction[1] * b.speed[1];
        for s in 0..2 {
            self.belts.speed[s] += b.speed[s];
            self.belts.traction[s] += b.traction[s];
        }
        self.belts.rolling_power += b.rolling_power;
        self.belts.slip_power += b.slip_power;
        self.belts.moment += b.moment;
    }

    fn mean(&self, v: f32) -> f32 {
        v / self.n.max(1.0)
    }
}

/// Steady skid-steer turns in first at 2 m/s, steer 0.25, 0.5 and 1: each turn's radius
/// against the belts' speeds with their slip taken off, and at full steer the belts'
/// thrusts and the turning moment against Wong's closed form with the friction circle.
pub(crate) fn skid_steer(settings: &VehicleSettings, o: &ManeuverOptions, out: &mut Out) -> Sim {
    let s = manual(settings);
    let wong = s.predicted_skid_steer(true).expect("a tracked vehicle");
    let (v, seconds, window) = (2.0, if o.quick { 10.0 } else { 20.0 }, 5.0);
    let mut last = None;
    for steer in [0.25f32, 0.5, 1.0] {
        let mut sim = Sim::new(&s, o, Ground::Flat(WheelSurface::ASPHALT));
        select(&mut sim, 1);
        let mut w = Window::new();
        for _ in 0..sim.steps(seconds) {
            let throttle = (0.3 + 0.5 * (v - sim.k.forward_speed)).clamp(0.0, 1.0);
            sim.step(DriverInput {
                throttle,
                steer,
                ..Default::default()
            });
            if sim.t > seconds - window {
                w.add(&sim);
            }
        }
        let name = (steer * 100.0).round() as i32;
        let radius = w.mean(w.speed) / w.mean(w.yaw);
        out.metric(format!("radius_steer_{name}"), radius, "m", Some(w.mean(w.radius)));
        out.metric(
            format!("yaw_rate_steer_{name}"),
            w.mean(w.yaw).to_degrees(),
            "deg/s",
            None,
        );
        if steer == 1.0 {
            let (outer, inner) = (w.mean(w.belts.traction[1]), w.mean(w.belts.traction[0]));
            out.metric("thrust_outer", outer / 1000.0, "kN", Some(wong.outer / 1000.0));
            out.metric("thrust_inner", inner / 1000.0, "kN", Some(wong.inner / 1000.0));
            out.metric(
                "turning_moment",
                -w.mean(w.belts.moment) / 1000.0,
                "kN·m",
                Some(wong.moment / 1000.0),
            );
        }
        last = Some(sim);
    }
    let sim = last.expect("three turns");
    out.plot("Yaw rate at full steer (deg/s)", "time", &["yaw_rate"]);
    out.plot("Speed (km/h)", "time", &["speed"]);
    sim
}

/// A pivot in neutral at full steer and throttle: the yaw rate against the power the
/// belts put into the turn over its moment, `(P − P_rolling − P_slip)/M`; the moment
/// against Wong's with the friction circle; the engine's power against the belts'; how
/// far the hull's centre drifts.
pub(crate) fn pivot(settings: &VehicleSettings, o: &ManeuverOptions, out: &mut Out) -> Sim {
    let s = manual(settings);
    let wong = s.predicted_skid_steer(true).expect("a tracked vehicle");
    let seconds = if o.quick { 6.0 } else { 10.0 };
    let mut sim = Sim::new(&s, o, Ground::Flat(WheelSurface::ASPHALT));
    select(&mut sim, 0);
    let p0 = sim.k.position;
    let mut w = Window::new();
    for _ in 0..sim.steps(seconds) {
        sim.step(DriverInput {
            throttle: 1.0,
            steer: 1.0,
            ..Default::default()
        });
        if sim.t > seconds - 3.0 {
            w.add(&sim);
        }
    }
    let moment = -w.mean(w.belts.moment);
    let power = w.mean(w.power);
    let from_power = (power - w.mean(w.belts.rolling_power) - w.mean(w.belts.slip_power)) / moment;
    out.metric(
        "yaw_rate",
        w.mean(w.yaw).to_degrees(),
        "deg/s",
        Some(from_power.to_degrees()),
    );
    out.metric("turning_moment", moment / 1000.0, "kN·m", Some(wong.moment / 1000.0));
    out.metric(
        "engine_power",
        w.mean(w.engine_power) / 1000.0,
        "kW",
        Some(power / 1000.0),
    );
    out.metric("belt_left", w.mean(w.belts.speed[0]), "m/s", None);
    out.metric("belt_right", w.mean(w.belts.speed[1]), "m/s", None);
    out.metric("drift", (sim.k.position - p0).with_y(0.0).length(), "m", None);
    out.plot("Yaw rate (deg/s)", "time", &["yaw_rate"]);
    out.plot("Engine (rpm)", "time", &["engine_rpm"]);
    sim
}

/// From rest in first at full throttle on 50 %, 90 % and 110 % of the gradient the
/// closed form gives (`predicted_gradient_limit`): how far up it gets in 10 s.
pub(crate) fn slope_climb(settings: &VehicleSettings, o: &ManeuverOptions, out: &mut Out) -> Sim {
    let s = manual(settings);
    let limit = s.predicted_gradient_limit().expect("every axle driven");
    out.metric("gradient_limit", limit * 100.0, "%", None);
    let seconds = if o.quick { 6.0 } else { 10.0 };
    let mut last = None;
    for share in [0.5f32, 0.9, 1.1] {
        let grade = share * limit;
        let mut sim = Sim::new(&s, o, Ground::Slope(grade.atan().to_degrees()));
        sim.hold(
            DriverInput {
                brake: 1.0,
                ..Default::default()
            },
            2.0,
        );
        select(&mut sim, 1);
        let p0 = sim.k.position;
        sim.hold(
            DriverInput {
                throttle: 1.0,
                ..Default::default()
            },
            seconds,
        );
        let up = (sim.k.position - p0).dot(sim.base * Vec3::NEG_Z);
        out.metric(format!("climbed_{:.0}pct_of_limit", share * 100.0), up, "m", None);
        last = Some(sim);
    }
    let sim = last.expect("three slopes");
    out.plot("Speed on 110 % of the limit (km/h)", "time", &["speed"]);
    sim
}

/// Brakes on, across a 30 % side slope: how far the hull moves in 10 s once it has
/// settled for 15 s.
pub(crate) fn side_slope(settings: &VehicleSettings, o: &ManeuverOptions, out: &mut Out) -> Sim {
    let hold = DriverInput {
        brake: 1.0,
        handbrake: 1.0,
        ..Default::default()
    };
    let mut sim = Sim::new(settings, o, Ground::Across(0.3f32.atan().to_degrees()));
    sim.hold(hold, if o.quick { 5.0 } else { 15.0 });
    let p0 = sim.k.position;
    sim.hold(hold, if o.quick { 3.0 } else { 10.0 });
    out.metric("drift_30pct", (sim.k.position - p0).length() * 1000.0, "mm", Some(0.0));
    out.plot("Roll (deg)", "time", &["roll"]);
    sim
}
