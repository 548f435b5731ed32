//! The slalom: 18 m gates, ±1 m, `x = −A·sin(π·s/18 m)`, past 8 cones (4 `quick`). A car
//! at 60 km/h steered by pure pursuit; a two-wheeler at [`LEAN_SLALOM_SPEED`], its
//! rider asked for the lean the path needs ahead. Both read the same peaks and the
//! path error (`docs/maneuvers.md`).

use super::prelude::*;

/// The gates: the path's offset, slope and curvature at `s` (m past the first gate).
struct Gates {
    spacing: f32,
    amplitude: f32,
    cones: f32,
}

impl Gates {
    fn new(o: &ManeuverOptions) -> Self {
        Gates {
            spacing: 18.0,
            amplitude: 1.0,
            cones: if o.quick { 4.0 } else { 8.0 },
        }
    }

    fn within(&self, s: f32) -> bool {
        (0.0..self.cones * self.spacing).contains(&s)
    }

    fn w(&self) -> f32 {
        std::f32::consts::PI / self.spacing
    }

    /// The path's `x` (m): straight before and after the gates.
    fn x(&self, s: f32) -> f32 {
        if self.within(s) {
            -self.amplitude * (std::f32::consts::PI * s / self.spacing).sin()
        } else {
            0.0
        }
    }

    /// `dx/ds`.
    fn slope(&self, s: f32) -> f32 {
        if self.within(s) {
            -self.amplitude * self.w() * (self.w() * s).cos()
        } else {
            0.0
        }
    }

    /// `d²x/ds²`: the curvature of these gentle gates.
    fn bend(&self, s: f32) -> f32 {
        if self.within(s) {
            self.amplitude * self.w() * self.w() * (self.w() * s).sin()
        } else {
            0.0
        }
    }

    /// Past the last gate and 10 m on, or a minute gone.
    fn done(&self, s: f32, sim: &Sim) -> bool {
        s > self.cones * self.spacing + 10.0 || sim.t > 60.0
    }
}

/// What a slalom reads as it runs.
struct Tally {
    errors: Vec<f32>,
    speeds: Vec<f32>,
    yaw: f32,
    ay: f32,
    roll: f32,
    path_x: Vec<f32>,
}

impl Tally {
    fn new(sim: &Sim) -> Self {
        Tally {
            errors: vec![],
            speeds: vec![],
            yaw: 0.0,
            ay: 0.0,
            roll: 0.0,
            path_x: vec![0.0; sim.rec.time.len()],
        }
    }

    /// After a step that ended `s` m past the first gate.
    fn add(&mut self, sim: &Sim, gates: &Gates, s: f32) {
        self.path_x.push(gates.x(s));
        if gates.within(s) {
            self.errors.push(sim.k.position.x - gates.x(s));
            self.yaw = self.yaw.max(sim.k.yaw_rate.abs().to_degrees());
            let i = sim.rec.time.len() - 1;
            self.ay = self.ay.max(sim.rec.chassis[5][i].abs());
            self.roll = self.roll.max(sim.rec.chassis[8][i].abs());
            self.speeds.push(sim.k.speed);
        }
    }

    /// The metrics and the path's channel; the roll against `roll_expected` (deg).
    fn report(self, out: &mut Out, roll_expected: Option<f32>) {
        out.metric("mean_speed", mean(&self.speeds) * 3.6, "km/h", None);
        out.metric("max_lateral_acc", self.ay / G, "g", None);
        out.metric("max_yaw_rate", self.yaw, "deg/s", None);
        out.metric("max_roll", self.roll, "deg", roll_expected);
        out.metric("rms_path_error", rms(&self.errors), "m", None);
        out.metric("max_path_error", max_abs(&self.errors), "m", None);
        out.extra.push(Channel {
            name: "path_x".into(),
            unit: "m",
            values: self.path_x,
        });
        out.plot("Path: x (m) against z (m)", "z", &["x", "path_x"]);
    }
}

pub(crate) fn slalom(settings: &VehicleSettings, o: &ManeuverOptions, out: &mut Out) -> Sim {
    if let Some(bike) = &settings.two_wheeler {
        return lean_slalom(settings, bike.max_lean, o, out);
    }
    let v = 60.0 / 3.6;
    let gates = Gates::new(o);
    let mut sim = Sim::new(settings, o, Ground::Flat(WheelSurface::ASPHALT));
    sim.hold(DriverInput::default(), 1.0);
    sim.launch(v);
    let z0 = sim.k.position.z - 10.0;
    let mut tally = Tally::new(&sim);
    loop {
        let p = sim.k.position;
        let ld = sim.lookahead().min(8.0);
        let s_ahead = z0 - (p.z - ld);
        let steer = sim.pursue(Vec3::new(gates.x(s_ahead), p.y, p.z - ld));
        sim.cruise_step(v, steer);
        let s = z0 - sim.k.position.z;
        tally.add(&sim, &gates, s);
        if gates.done(s, &sim) {
            break;
        }
    }
    tally.report(out, None);
    out.plot("Yaw rate (deg/s)", "time", &["yaw_rate"]);
    out.plot("Roll (deg)", "time", &["roll"]);
    sim
}

/// A two-wheeler's slalom speed (m/s): 30 km/h, where the 18 m gates come every 2.2 s,
/// longer than its rider takes to lean it over (the step steer's 1.5 s to 90 %).
pub(crate) const LEAN_SLALOM_SPEED: f32 = 30.0 / 3.6;
/// How far ahead (s) the rider reads the lean the path asks for: the lean's lag
/// behind its asking (the best of those tried: `docs/maneuvers.md`).
const PREVIEW: f32 = 0.6;
/// The path-keeping's natural frequency (rad/s) and damping ratio: the rider's lean
/// corrects the lateral error as a spring and damper, slower than the lean's own
/// response (a stiffer one weaves off the path: `docs/maneuvers.md`).
const KEEP: (f32, f32) = (0.7, 0.8);

/// The slalom ridden at [`LEAN_SLALOM_SPEED`]. The rider asks for the lean the path's
/// curvature needs [`PREVIEW`] ahead, `tan φ = k·v²·κ/g`
/// ([`VehicleSettings::lean_balance_factor`]), plus a spring and damper on the lateral
/// error; the same metrics as a car's, the lean's peak against the one the gates'
/// sharpest bend needs at the mean speed.
fn lean_slalom(settings: &VehicleSettings, max_lean: f32, o: &ManeuverOptions, out: &mut Out) -> Sim {
    let v = LEAN_SLALOM_SPEED;
    let gates = Gates::new(o);
    let mut sim = Sim::new(settings, o, Ground::Flat(WheelSurface::ASPHALT));
    sim.hold(DriverInput::default(), 1.0);
    sim.launch(v);
    for _ in 0..sim.steps(2.0) {
        sim.cruise_in_lane(v);
    }
    let z0 = sim.k.position.z - 10.0;
    let k = settings.lean_balance_factor();
    let mut tally = Tally::new(&sim);
    loop {
        let p = sim.k.position;
        let s = z0 - p.z;
        // The lean that gives the path's lateral acceleration ahead (to the left, −X,
        // when x'' < 0), and the lateral error's spring and damper.
        let left = -v * v * gates.bend(s + v * PREVIEW);
        let error = p.x - gates.x(s);
        let drift = sim.k.velocity.x + gates.slope(s) * sim.k.velocity.z;
        let (wn, zeta) = KEEP;
        let keep = (wn * wn * error + 2.0 * zeta * wn * drift) / G;
        let lean = settings.lean_for_resultant((k * left / G).atan()) + keep;
        sim.cruise_step(v, (lean.to_degrees() / max_lean.max(1e-3)).clamp(-1.0, 1.0));
        let s = z0 - sim.k.position.z;
        tally.add(&sim, &gates, s);
        if gates.done(s, &sim) {
            break;
        }
    }
    let v_mean = mean(&tally.speeds);
    let (a, w) = (gates.amplitude, gates.w());
    // The lean the gates' sharpest bend needs at the mean speed.
    let needed = (k * v_mean * v_mean * a * w * w / G).atan().to_degrees();
    tally.report(out, Some(needed));
    out.plot("Lean (deg)", "time", &["roll"]);
    out.plot("Steer angle (deg)", "time", &["road_wheel_angle"]);
    sim
}
