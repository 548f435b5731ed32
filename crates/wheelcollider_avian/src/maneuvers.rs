//! A headless test track: the standard manoeuvres vehicle engineers run (settle,
//! acceleration, braking, steady-state circle, step steer, slalom, slope hold, bump run),
//! turning a [`VehicleSpec`] into numbers and time series.
//!
//! Each run builds its own headless app (no window, exact fixed steps), spawns the car
//! from the spec on the manoeuvre's ground, drives it with a robot driver and records
//! every physics step. The same spec, manoeuvre and rate give the same numbers, run
//! after run.
//!
//! ```no_run
//! use wheelcollider_avian::maneuvers::{Maneuver, ManeuverOptions, run_maneuver};
//! use wheelcollider_avian::vehicle::VehicleSpec;
//!
//! let spec = VehicleSpec::from_ron(&std::fs::read_to_string("assets/presets/road.ron")?)?;
//! let report = run_maneuver(&spec, Maneuver::Braking, &ManeuverOptions::default())?;
//! for m in &report.metrics {
//!     println!("{:<24} {:>10.3} {}", m.name, m.value, m.unit);
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The runnable front end is `cargo run --release --example maneuvers`; the method of
//! each manoeuvre and the shipped presets' results are in `docs/maneuvers.md`.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use avian3d::prelude::*;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use wheelcollider_core::vehicle::VehicleInput as Controls;

use crate::WheelColliderPlugin;
use crate::components::{ChassisWheels, WheelInput, WheelState};
use crate::vehicle::{
    SpecError, VehicleInput, VehicleSpec, VehicleTelemetry, VehicleWheel, WheelSurface, spawn_vehicle,
};

/// Standard gravity used by the track (m/s²); avian's default gravity is the same.
pub const G: f32 = 9.81;
/// Physics rates the track accepts (Hz).
pub const HZ_RANGE: std::ops::RangeInclusive<f64> = 20.0..=1000.0;
/// A quarter mile (m).
pub const QUARTER_MILE: f32 = 402.336;

/// One standard manoeuvre.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Maneuver {
    /// Release at ride height, settle 3 s (sag per wheel, creep), then push the body
    /// down (half the sag deep): each axle's natural frequency and bump / rebound
    /// damping ratios.
    Settle,
    /// Full throttle from rest on flat asphalt: 0–100 km/h, quarter mile, shift points,
    /// top speed (run until the speed stops rising).
    Acceleration,
    /// Full brake from 100 km/h (wheels rolling) to a stop: distance, time, deceleration.
    Braking,
    /// ISO 4138-style constant-radius test on a 40 m circle, speed raised slowly:
    /// maximum lateral acceleration and the understeer gradient.
    Circle,
    /// ISO 7401-style step steer at 80 km/h to a kinematic 4 m/s²: yaw-rate response
    /// time, overshoot, gains.
    StepSteer,
    /// An 18 m slalom at 60 km/h, a path-following driver: peaks and tracking error.
    Slalom,
    /// Brakes and handbrake on, nose up a 10° and a 20° slope: drift over 5 s.
    SlopeHold,
    /// 10 s at 60 km/h over gravel (Perlin roughness): body acceleration, wheel lift.
    BumpRun,
}

impl Maneuver {
    /// Every manoeuvre, in the order `all` runs them.
    pub const ALL: [Maneuver; 8] = [
        Maneuver::Settle,
        Maneuver::Acceleration,
        Maneuver::Braking,
        Maneuver::Circle,
        Maneuver::StepSteer,
        Maneuver::Slalom,
        Maneuver::SlopeHold,
        Maneuver::BumpRun,
    ];

    /// The command-line name (`step-steer`…).
    pub fn name(self) -> &'static str {
        match self {
            Maneuver::Settle => "settle",
            Maneuver::Acceleration => "acceleration",
            Maneuver::Braking => "braking",
            Maneuver::Circle => "circle",
            Maneuver::StepSteer => "step-steer",
            Maneuver::Slalom => "slalom",
            Maneuver::SlopeHold => "slope-hold",
            Maneuver::BumpRun => "bump-run",
        }
    }
}

impl fmt::Display for Maneuver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Maneuver {
    type Err = ManeuverError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Maneuver::ALL
            .into_iter()
            .find(|m| m.name() == s || m.name().replace('-', "_") == s)
            .ok_or_else(|| ManeuverError::UnknownManeuver(s.to_string()))
    }
}

/// How to run a manoeuvre.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ManeuverOptions {
    /// Physics rate (Hz), in [`HZ_RANGE`].
    pub hz: f64,
    /// A short version of each manoeuvre (seconds instead of minutes), for tests: the
    /// acceleration run stops at 100 km/h, the circle ramps faster, the holds are
    /// shorter. The numbers are rougher.
    pub quick: bool,
}

impl Default for ManeuverOptions {
    fn default() -> Self {
        Self { hz: 60.0, quick: false }
    }
}

/// Why a manoeuvre could not run.
#[derive(Clone, Debug, PartialEq)]
pub enum ManeuverError {
    /// No manoeuvre has this name.
    UnknownManeuver(String),
    /// The physics rate is outside [`HZ_RANGE`] (or not finite).
    Rate(f64),
    /// The spec does not validate.
    Spec(SpecError),
}

impl fmt::Display for ManeuverError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ManeuverError::UnknownManeuver(s) => {
                let names: Vec<_> = Maneuver::ALL.iter().map(|m| m.name()).collect();
                write!(f, "unknown manoeuvre `{s}`; one of: {}, all", names.join(", "))
            }
            ManeuverError::Rate(hz) => write!(
                f,
                "physics rate {hz} Hz is out of range {}..={} Hz",
                HZ_RANGE.start(),
                HZ_RANGE.end()
            ),
            ManeuverError::Spec(e) => write!(f, "invalid vehicle: {e}"),
        }
    }
}

impl std::error::Error for ManeuverError {}

impl From<SpecError> for ManeuverError {
    fn from(e: SpecError) -> Self {
        ManeuverError::Spec(e)
    }
}

/// One number a manoeuvre measured.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Metric {
    /// Identifier (`stop_distance`, `sag_fl`…).
    pub name: String,
    /// The measured value, in `unit`.
    pub value: f64,
    /// Unit (`m`, `s`, `km/h`, `g`, `deg/g`, `1`…).
    pub unit: &'static str,
    /// The closed-form answer (see `docs/maneuvers.md`) where there is one, in the same unit.
    pub expected: Option<f64>,
}

/// A recorded signal, one value per physics step.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Channel {
    /// Name: chassis signals are plain (`speed`), wheel signals are prefixed with the
    /// wheel's label (`fl.load`).
    pub name: String,
    /// Unit.
    pub unit: &'static str,
    /// One value per recorded step.
    pub values: Vec<f32>,
}

/// A plot a front end can draw from the recording: `ys` against `x` (channel names).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct PlotSpec {
    /// Panel title.
    pub title: &'static str,
    /// The x channel (`time` for the time axis).
    pub x: String,
    /// The y channels.
    pub ys: Vec<String>,
}

/// What one manoeuvre produced.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct ManeuverReport {
    /// The manoeuvre's name.
    pub maneuver: &'static str,
    /// The spec's name.
    pub vehicle: String,
    /// Physics rate (Hz).
    pub hz: f64,
    /// The numbers.
    pub metrics: Vec<Metric>,
    /// Time of each recorded step (s).
    #[serde(skip)]
    pub time: Vec<f32>,
    /// Recorded signals (chassis, then each wheel's), same length as `time`.
    #[serde(skip)]
    pub channels: Vec<Channel>,
    /// The wheels' labels (`fl`, `fr`, `rl`, `rr`, or `a0l`… beyond two axles).
    #[serde(skip)]
    pub wheels: Vec<String>,
    /// Suggested plots of the key signals.
    #[serde(skip)]
    pub plots: Vec<PlotSpec>,
}

impl ManeuverReport {
    /// The metric called `name`.
    pub fn metric(&self, name: &str) -> Option<&Metric> {
        self.metrics.iter().find(|m| m.name == name)
    }
    /// The value of the metric called `name`, NaN when there is none.
    pub fn value(&self, name: &str) -> f64 {
        self.metric(name).map_or(f64::NAN, |m| m.value)
    }
    /// The channel called `name`; `time` gives the time axis.
    pub fn channel(&self, name: &str) -> Option<(&'static str, &[f32])> {
        if name == "time" {
            return Some(("s", &self.time));
        }
        self.channels
            .iter()
            .find(|c| c.name == name)
            .map(|c| (c.unit, c.values.as_slice()))
    }
}

/// Runs `maneuver` on a car built from `spec`.
pub fn run_maneuver(
    spec: &VehicleSpec,
    maneuver: Maneuver,
    options: &ManeuverOptions,
) -> Result<ManeuverReport, ManeuverError> {
    if !options.hz.is_finite() || !HZ_RANGE.contains(&options.hz) {
        return Err(ManeuverError::Rate(options.hz));
    }
    let mut spec = spec.clone();
    spec.validate()?;
    let mut out = Out::default();
    let sim = match maneuver {
        Maneuver::Settle => settle(&spec, options, &mut out),
        Maneuver::Acceleration => acceleration(&spec, options, &mut out),
        Maneuver::Braking => braking(&spec, options, &mut out),
        Maneuver::Circle => circle(&spec, options, &mut out),
        Maneuver::StepSteer => step_steer(&spec, options, &mut out),
        Maneuver::Slalom => slalom(&spec, options, &mut out),
        Maneuver::SlopeHold => slope_hold(&spec, options, &mut out),
        Maneuver::BumpRun => bump_run(&spec, options, &mut out),
    };
    let (time, mut channels) = sim.rec.finish(&sim.labels);
    channels.extend(out.extra);
    Ok(ManeuverReport {
        maneuver: maneuver.name(),
        vehicle: spec.name.clone(),
        hz: options.hz,
        metrics: out.metrics,
        time,
        channels,
        wheels: sim.labels,
        plots: out.plots,
    })
}

/// Labels of the wheels in [`VehicleSpec::wheel_index`] order.
pub fn wheel_labels(spec: &VehicleSpec) -> Vec<String> {
    if spec.axles.len() == 2 {
        return ["fl", "fr", "rl", "rr"].map(String::from).to_vec();
    }
    (0..spec.axles.len())
        .flat_map(|a| [format!("a{a}l"), format!("a{a}r")])
        .collect()
}

// --- Results being built --------------------------------------------------------------

#[derive(Default)]
struct Out {
    metrics: Vec<Metric>,
    plots: Vec<PlotSpec>,
    extra: Vec<Channel>,
}

impl Out {
    fn metric(&mut self, name: impl Into<String>, value: f32, unit: &'static str, expected: Option<f32>) {
        self.metrics.push(Metric {
            name: name.into(),
            value: value as f64,
            unit,
            expected: expected.map(|e| e as f64),
        });
    }
    fn plot(&mut self, title: &'static str, x: &str, ys: &[&str]) {
        self.plots.push(PlotSpec {
            title,
            x: x.into(),
            ys: ys.iter().map(|s| s.to_string()).collect(),
        });
    }
}

// --- The simulation harness -----------------------------------------------------------

/// Chassis channels, recorded every step.
const CHASSIS: [(&str, &str); 16] = [
    ("speed", "km/h"),
    ("x", "m"),
    ("z", "m"),
    ("height", "m"),
    ("longitudinal_acc", "m/s²"),
    ("lateral_acc", "m/s²"),
    ("vertical_acc", "m/s²"),
    ("yaw_rate", "deg/s"),
    ("roll", "deg"),
    ("pitch", "deg"),
    ("steer_input", "1"),
    ("road_wheel_angle", "deg"),
    ("throttle", "1"),
    ("brake", "1"),
    ("gear", "1"),
    ("engine_rpm", "rpm"),
];
/// Per-wheel channels, recorded every step.
const WHEEL: [(&str, &str); 8] = [
    ("compression", "m"),
    ("load", "N"),
    ("forward_slip", "1"),
    ("sideways_slip", "1"),
    ("forward_force", "N"),
    ("sideways_force", "N"),
    ("angular_velocity", "rad/s"),
    ("grounded", "1"),
];

#[derive(Default)]
struct Recorder {
    time: Vec<f32>,
    chassis: Vec<Vec<f32>>,
    wheels: Vec<Vec<Vec<f32>>>,
}

impl Recorder {
    fn finish(&self, labels: &[String]) -> (Vec<f32>, Vec<Channel>) {
        let mut channels: Vec<Channel> = CHASSIS
            .iter()
            .zip(&self.chassis)
            .map(|(&(name, unit), v)| Channel {
                name: name.into(),
                unit,
                values: v.clone(),
            })
            .collect();
        for (label, wheel) in labels.iter().zip(&self.wheels) {
            channels.extend(WHEEL.iter().zip(wheel).map(|(&(name, unit), v)| Channel {
                name: format!("{label}.{name}"),
                unit,
                values: v.clone(),
            }));
        }
        (self.time.clone(), channels)
    }
}

/// What the robot drivers read each step.
#[derive(Clone, Copy, Debug, Default)]
struct Kin {
    position: Vec3,
    velocity: Vec3,
    forward: Vec3,
    yaw_rate: f32,
    speed: f32,
    forward_speed: f32,
    /// Mean steer angle of the first axle's wheels (deg, positive left).
    road_wheel_angle: f32,
    gear: i32,
    rpm: f32,
}

enum Ground {
    Flat(WheelSurface),
    /// Asphalt tilted up towards −Z by this angle (deg).
    Slope(f32),
}

struct Sim {
    app: App,
    car: Entity,
    /// Wheel entities in [`VehicleSpec::wheel_index`] order.
    wheels: Vec<Entity>,
    labels: Vec<String>,
    spec: VehicleSpec,
    hz: f32,
    t: f32,
    last_velocity: Vec3,
    rec: Recorder,
    k: Kin,
    /// The surface rotation (the car's rest attitude).
    base: Quat,
}

impl Sim {
    fn new(spec: &VehicleSpec, options: &ManeuverOptions, ground: Ground) -> Sim {
        let mut app = App::new();
        let dt = Duration::from_secs_f64(1.0 / options.hz);
        app.add_plugins((
            MinimalPlugins,
            TransformPlugin,
            bevy::asset::AssetPlugin::default(),
            PhysicsPlugins::default(),
            WheelColliderPlugin,
        ))
        .insert_resource(Time::<Fixed>::from_duration(dt))
        .insert_resource(TimeUpdateStrategy::ManualDuration(dt))
        .insert_resource(Gravity(Vec3::NEG_Y * G));
        app.finish();
        app.cleanup();
        // The first update only starts the clocks.
        app.update();
        let base = match ground {
            Ground::Flat(surface) => {
                app.world_mut()
                    .spawn((RigidBody::Static, Collider::half_space(Vec3::Y), surface));
                Quat::IDENTITY
            }
            Ground::Slope(deg) => {
                let rot = Quat::from_rotation_x(deg.to_radians());
                app.world_mut().spawn((
                    RigidBody::Static,
                    Collider::cuboid(400.0, 2.0, 400.0),
                    Transform::from_rotation(rot) * Transform::from_xyz(0.0, -1.0, 0.0),
                    WheelSurface::ASPHALT,
                ));
                rot
            }
        };
        let transform = Transform::from_translation(base * Vec3::Y * (spec.touch_height() + 0.005)).with_rotation(base);
        let world = app.world_mut();
        let mut commands = world.commands();
        let car = spawn_vehicle(&mut commands, spec, transform).expect("validated");
        world.flush();
        // One step so the wheels find their chassis.
        app.update();
        let n = spec.wheel_count();
        let mut wheels = vec![Entity::PLACEHOLDER; n];
        let children = app.world().get::<ChassisWheels>(car).map(|c| c.wheels().to_vec());
        for w in children.unwrap_or_default() {
            if let Some(id) = app.world().get::<VehicleWheel>(w) {
                wheels[VehicleSpec::wheel_index(id.axle, id.right)] = w;
            }
        }
        let labels = wheel_labels(spec);
        let rec = Recorder {
            chassis: vec![Vec::new(); CHASSIS.len()],
            wheels: vec![vec![Vec::new(); WHEEL.len()]; n],
            ..Default::default()
        };
        let mut sim = Sim {
            app,
            car,
            wheels,
            labels,
            spec: spec.clone(),
            hz: options.hz as f32,
            t: 0.0,
            last_velocity: Vec3::ZERO,
            rec,
            k: Kin::default(),
            base,
        };
        sim.read();
        sim
    }

    fn dt(&self) -> f32 {
        1.0 / self.hz
    }

    fn steps(&self, seconds: f32) -> usize {
        (seconds * self.hz).round() as usize
    }

    /// One physics step with these controls, recorded.
    fn step(&mut self, controls: Controls) {
        self.app.world_mut().get_mut::<VehicleInput>(self.car).unwrap().0 = controls;
        self.app.update();
        self.t += self.dt();
        self.read();
        self.record(&controls);
    }

    /// Steps with the same controls for `seconds`.
    fn hold(&mut self, controls: Controls, seconds: f32) {
        for _ in 0..self.steps(seconds) {
            self.step(controls);
        }
    }

    fn read(&mut self) {
        let w = self.app.world();
        let p = w.get::<Position>(self.car).unwrap().0;
        let rot = w.get::<Rotation>(self.car).unwrap().0;
        let v = w.get::<LinearVelocity>(self.car).unwrap().0;
        let omega = w.get::<AngularVelocity>(self.car).unwrap().0;
        let tel = w.get::<VehicleTelemetry>(self.car).unwrap();
        let forward = rot * Vec3::NEG_Z;
        let mut angle = 0.0;
        for &e in &self.wheels[..2.min(self.wheels.len())] {
            angle += w.get::<WheelInput>(e).map_or(0.0, |i| i.steer_angle) / 2.0;
        }
        self.k = Kin {
            position: p,
            velocity: v,
            forward,
            yaw_rate: omega.dot(rot * Vec3::Y),
            speed: v.length(),
            forward_speed: v.dot(forward),
            road_wheel_angle: angle,
            gear: tel.powertrain.gear,
            rpm: tel.powertrain.engine_rpm,
        };
    }

    fn record(&mut self, c: &Controls) {
        let w = self.app.world();
        let rot = w.get::<Rotation>(self.car).unwrap().0;
        let tel = w.get::<VehicleTelemetry>(self.car).unwrap();
        let k = self.k;
        let accel = (k.velocity - self.last_velocity) * self.hz;
        self.last_velocity = k.velocity;
        // Attitude relative to the ground the car stands on.
        let local = self.base.inverse() * rot;
        let (_, pitch, roll) = local.to_euler(EulerRot::YXZ);
        let values = [
            k.speed * 3.6,
            k.position.x,
            k.position.z,
            k.position.y,
            accel.dot(k.forward),
            accel.dot(rot * Vec3::X),
            accel.dot(rot * Vec3::Y),
            k.yaw_rate.to_degrees(),
            roll.to_degrees(),
            pitch.to_degrees(),
            tel.powertrain.steer,
            k.road_wheel_angle,
            c.throttle,
            c.brake,
            k.gear as f32,
            k.rpm,
        ];
        self.rec.time.push(self.t);
        for (col, v) in self.rec.chassis.iter_mut().zip(values) {
            col.push(v);
        }
        for (i, &e) in self.wheels.iter().enumerate() {
            let Some(s) = w.get::<WheelState>(e) else { continue };
            let o = &s.output;
            let values = [
                o.compression,
                o.load,
                o.forward_slip,
                o.sideways_slip,
                o.forward_force,
                o.sideways_force,
                o.angular_velocity,
                o.grounded as u8 as f32,
            ];
            for (col, v) in self.rec.wheels[i].iter_mut().zip(values) {
                col.push(v);
            }
        }
    }

    fn wheel(&self, i: usize) -> WheelState {
        self.app.world().get::<WheelState>(self.wheels[i]).unwrap().clone()
    }

    /// Sets the car moving forward at `v` (m/s) with its wheels rolling.
    fn launch(&mut self, v: f32) {
        let forward = self.k.forward;
        self.app.world_mut().get_mut::<LinearVelocity>(self.car).unwrap().0 = forward * v;
        for &w in &self.wheels {
            let r = self.app.world().get::<crate::WheelCollider>(w).unwrap().radius();
            self.app
                .world_mut()
                .get_mut::<WheelState>(w)
                .unwrap()
                .memory
                .angular_velocity = v / r;
        }
        self.last_velocity = forward * v;
        self.read();
    }

    /// Steering input (−1..1) that puts the road wheels at `angle` (deg, positive left)
    /// at the current speed.
    fn steer_for(&self, angle: f32) -> f32 {
        (angle / self.spec.steering.lock_at(self.k.forward_speed).max(1e-3)).clamp(-1.0, 1.0)
    }

    /// Pure-pursuit steering towards `target` (world, on the ground plane).
    fn pursue(&self, target: Vec3) -> f32 {
        let to = (target - self.k.position).with_y(0.0);
        let f = self.k.forward.with_y(0.0).normalize_or_zero();
        let ld = to.length().max(1e-3);
        let alpha = f.cross(to).y.atan2(f.dot(to));
        let l = self.spec.wheelbase_for(0).max(0.5);
        let delta = (2.0 * l * alpha.sin() / ld).atan().to_degrees();
        self.steer_for(delta)
    }

    /// Look-ahead distance of the path-following driver (m).
    fn lookahead(&self) -> f32 {
        (0.6 * self.k.speed).clamp(5.0, 30.0)
    }

    /// Steering that keeps the car on the line x = 0, heading −Z.
    fn keep_lane(&self) -> f32 {
        let p = self.k.position;
        self.pursue(Vec3::new(0.0, p.y, p.z - self.lookahead()))
    }

    /// One step holding `target` (m/s) on the line x = 0.
    fn cruise_in_lane(&mut self, target: f32) {
        let (throttle, brake) = self.cruise(target);
        let steer = self.keep_lane();
        self.step(Controls {
            throttle,
            brake,
            steer,
            ..Default::default()
        });
    }

    /// Throttle / brake that hold `target` (m/s).
    fn cruise(&self, target: f32) -> (f32, f32) {
        let e = target - self.k.forward_speed;
        if e > -0.5 {
            ((0.3 + 0.4 * e).clamp(0.0, 1.0), 0.0)
        } else {
            (0.0, (-0.1 * e).clamp(0.0, 0.3))
        }
    }
}

// --- Signal helpers -------------------------------------------------------------------

/// Time (s) at which `values` first reaches `level` (rising), linearly interpolated.
fn crossing(time: &[f32], values: &[f32], level: f32) -> Option<f32> {
    (1..values.len()).find_map(|i| {
        let (a, b) = (values[i - 1], values[i]);
        (a < level && b >= level).then(|| time[i - 1] + (time[i] - time[i - 1]) * (level - a) / (b - a))
    })
}

fn mean(v: &[f32]) -> f32 {
    if v.is_empty() {
        return 0.0;
    }
    v.iter().sum::<f32>() / v.len() as f32
}

fn rms(v: &[f32]) -> f32 {
    if v.is_empty() {
        return 0.0;
    }
    (v.iter().map(|x| x * x).sum::<f32>() / v.len() as f32).sqrt()
}

fn max_abs(v: &[f32]) -> f32 {
    v.iter().fold(0.0f32, |m, x| m.max(x.abs()))
}

/// Least-squares line through (x, y): (slope, intercept).
fn fit_line(points: &[(f32, f32)]) -> Option<(f32, f32)> {
    let n = points.len() as f64;
    if n < 3.0 {
        return None;
    }
    let (sx, sy) = points
        .iter()
        .fold((0.0, 0.0), |(a, b), &(x, y)| (a + x as f64, b + y as f64));
    let (mx, my) = (sx / n, sy / n);
    let (sxx, sxy) = points.iter().fold((0.0, 0.0), |(a, b), &(x, y)| {
        let dx = x as f64 - mx;
        (a + dx * dx, b + dx * (y as f64 - my))
    });
    if sxx <= 1e-12 {
        return None;
    }
    let slope = sxy / sxx;
    Some((slope as f32, (my - slope * mx) as f32))
}

/// The extremes of a decaying oscillation `x` (deviation from rest): their times and
/// values, refined with a parabola through the three samples around each.
fn extremes(time: &[f32], x: &[f32]) -> Vec<(f32, f32)> {
    let mut out = vec![];
    for i in 1..x.len().saturating_sub(1) {
        let (a, b, c) = (x[i - 1], x[i], x[i + 1]);
        let is_max = b > a && b >= c;
        let is_min = b < a && b <= c;
        if !(is_max || is_min) {
            continue;
        }
        let den = a - 2.0 * b + c;
        let off = if den.abs() > 1e-12 { 0.5 * (a - c) / den } else { 0.0 };
        let dt = time[i + 1] - time[i];
        out.push((time[i] + off * dt, b - 0.25 * (a - c) * off));
    }
    out
}

/// Damping ratio from the ratio of two successive (opposite-sign) extremes, half a
/// damped period apart.
fn half_cycle_damping(x1: f32, x2: f32) -> f32 {
    let delta = (x1.abs() / x2.abs().max(1e-9)).ln();
    delta / (std::f32::consts::PI.powi(2) + delta * delta).sqrt()
}

// --- The manoeuvres -------------------------------------------------------------------

/// Static load of each axle (N) of a two-axle car from its centre of mass.
fn axle_loads(spec: &VehicleSpec) -> Option<[f32; 2]> {
    if spec.axles.len() != 2 {
        return None;
    }
    let (zf, zr, zc) = (spec.axles[0].z, spec.axles[1].z, spec.chassis.center_of_mass[2]);
    let l = zr - zf;
    if l.abs() < 1e-3 {
        return None;
    }
    let w = spec.chassis.mass * G;
    Some([w * (zr - zc) / l, w * (zc - zf) / l])
}

fn settle(spec: &VehicleSpec, o: &ManeuverOptions, out: &mut Out) -> Sim {
    let mut sim = Sim::new(spec, o, Ground::Flat(WheelSurface::ASPHALT));
    let still = Controls::default();
    sim.hold(still, 2.0);
    let h0 = sim.k.position.y;
    sim.hold(still, 1.0);
    let creep = (sim.k.position.y - h0) * 1000.0;
    let loads = axle_loads(spec);
    for i in 0..spec.wheel_count() {
        let a = i / 2;
        let k = spec.axles[a].wheel.suspension_spring();
        let expected = loads.map(|l| l[a] / 2.0 / k * 1000.0);
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
    let rest: Vec<f32> = (0..spec.wheel_count())
        .map(|i| sim.wheel(i).output.compression)
        .collect();
    let start = sim.rec.time.len();
    let omega_max = loads.map_or(0.0, |l| {
        (0..2)
            .map(|a| (spec.axles[a].wheel.suspension_spring() * 2.0 * G / l[a].max(1.0)).sqrt())
            .fold(0.0, f32::max)
    });
    let push = if omega_max > 0.0 { 0.5 * G / omega_max } else { 0.3 };
    sim.app.world_mut().get_mut::<LinearVelocity>(sim.car).unwrap().0.y -= push;
    sim.hold(still, 3.0);
    let time = sim.rec.time[start..].to_vec();
    for (a, axle) in spec.axles.iter().enumerate() {
        let name = if spec.axles.len() == 2 {
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
        let corner_mass = loads.map(|l| l[a] / 2.0 / G);
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

fn acceleration(spec: &VehicleSpec, o: &ManeuverOptions, out: &mut Out) -> Sim {
    let mut sim = Sim::new(spec, o, Ground::Flat(WheelSurface::ASPHALT));
    sim.hold(Controls::default(), 1.0);
    let t0 = sim.t;
    let z0 = sim.k.position.z;
    let (mut t100, mut quarter, mut trap) = (None, None, None);
    let mut shifts: Vec<(i32, i32, f32, f32)> = vec![];
    let (mut gear, mut last_rpm, mut last_kmh) = (sim.k.gear, sim.k.rpm, 0.0);
    let max_time = if o.quick { 20.0 } else { 240.0 };
    // Top speed: the best 1 s mean once it rose by less than 0.1 km/h over 10 s.
    let mut window: Vec<f32> = vec![];
    let win = sim.steps(10.0);
    let mut top = 0.0f32;
    for _ in 0..sim.steps(max_time) {
        let steer = sim.keep_lane();
        sim.step(Controls {
            throttle: 1.0,
            steer,
            ..Default::default()
        });
        let t = sim.t - t0;
        let kmh = sim.k.forward_speed * 3.6;
        let dist = z0 - sim.k.position.z;
        if t100.is_none() && kmh >= 100.0 {
            t100 = Some(t - (kmh - 100.0) / ((kmh - last_kmh) * sim.hz).max(1e-3));
        }
        if quarter.is_none() && dist >= QUARTER_MILE {
            quarter = Some(t);
            trap = Some(kmh);
        }
        if sim.k.gear != gear {
            if sim.k.gear == gear + 1 && gear > 0 {
                shifts.push((gear, sim.k.gear, last_rpm, kmh));
            }
            gear = sim.k.gear;
        }
        last_rpm = sim.k.rpm;
        last_kmh = kmh;
        window.push(kmh);
        top = top.max(kmh);
        if o.quick && t100.is_some() {
            break;
        }
        if window.len() > win {
            window.remove(0);
            if window[window.len() - 1] - window[0] < 0.1 && quarter.is_some() {
                break;
            }
        }
    }
    let (pred, _) = spec.predicted_top_speed();
    out.metric("zero_to_100_kmh", t100.unwrap_or(f32::NAN), "s", None);
    if !o.quick {
        out.metric("quarter_mile_time", quarter.unwrap_or(f32::NAN), "s", None);
        out.metric("quarter_mile_speed", trap.unwrap_or(f32::NAN), "km/h", None);
        out.metric("top_speed", top, "km/h", Some(pred * 3.6));
        out.metric("time_to_top_speed", sim.t - t0, "s", None);
    }
    for (from, to, rpm, kmh) in shifts {
        out.metric(format!("shift_{from}_{to}_rpm"), rpm, "rpm", None);
        out.metric(format!("shift_{from}_{to}_speed"), kmh, "km/h", None);
    }
    out.plot("Speed (km/h)", "time", &["speed"]);
    out.plot("Engine speed (rpm)", "time", &["engine_rpm"]);
    out.plot("Gear", "time", &["gear"]);
    let slips: Vec<String> = sim.labels.iter().map(|l| format!("{l}.forward_slip")).collect();
    let refs: Vec<&str> = slips.iter().map(String::as_str).collect();
    out.plot("Longitudinal slip", "time", &refs);
    sim
}

/// Stopping distance (m) from `v0` (m/s) with the brake pedal fully down, on a surface
/// of `grip`, from the tyre curve and the brake layout; drag included.
///
/// Each axle's brakes either lock its wheels (their torque beats the tyre's peak force
/// at the axle's load) and give the curve's force at a locked wheel's slip
/// (κ = −v / max(v, 10)), or they do not and give torque / radius. With two axles the
/// loads include the transfer m·a·h / L (h: centre-of-mass height at rest), solved by
/// fixed-point iteration, and each axle's friction coefficient is its tyre's at half the
/// axle's load ([`WheelSettings::load_grip_factor`]). With ABS every axle works at the
/// curve's peak instead. For a car whose brakes lock every wheel this is v² / (2·μ·g)
/// with the locked μ.
///
/// [`WheelSettings::load_grip_factor`]: wheelcollider_core::WheelSettings::load_grip_factor
pub fn expected_stop_distance(spec: &VehicleSpec, grip: f32, v0: f32) -> f32 {
    let mf = spec.axles[0].wheel.tire();
    let m = spec.chassis.mass;
    let w = m * G;
    let k = spec.aero.drag_factor();
    let loads = axle_loads(spec);
    let (l, h) = match (spec.axles.first(), spec.axles.last()) {
        (Some(f), Some(r)) if spec.axles.len() == 2 => {
            let sag = loads.map_or(0.0, |ld| {
                0.5 * (ld[0] / 2.0 / f.wheel.suspension_spring() + ld[1] / 2.0 / r.wheel.suspension_spring())
            });
            (r.z - f.z, spec.touch_height() + spec.chassis.center_of_mass[1] - sag)
        }
        _ => (0.0, 0.0),
    };
    let decel = |v: f32| -> f32 {
        let slide = v / v.max(10.0);
        let mut a = mf.eval(slide) * grip * G;
        for _ in 0..30 {
            let mut force = 0.0;
            for (i, axle) in spec.axles.iter().enumerate() {
                let static_load = match loads {
                    Some(ld) => ld[i],
                    None => w / spec.axles.len() as f32,
                };
                let transfer = if l > 0.0 { m * a * h / l } else { 0.0 };
                let load = (static_load + if i == 0 { transfer } else { -transfer }).max(0.0);
                // Each axle's tyre at its load (load sensitivity), two tyres per axle.
                let tyre = &axle.wheel;
                let mu = grip * tyre.load_grip_factor(0.5 * load as f64) as f32;
                let (peak, locked) = (tyre.tire().peak_value() * mu, tyre.tire().eval(slide) * mu);
                let brake = spec.brakes.max_torque * spec.brake_share(i) / tyre.radius();
                force += if spec.brakes.abs {
                    brake.min(peak * load)
                } else if brake >= peak * load {
                    locked * load
                } else {
                    brake
                };
            }
            a = 0.5 * a + 0.5 * (force + k * v * v) / m;
        }
        a
    };
    let n = 4000;
    (0..n)
        .map(|i| {
            let v = v0 * (i as f32 + 0.5) / n as f32;
            v / decel(v).max(1e-3) * (v0 / n as f32)
        })
        .sum()
}

fn braking(spec: &VehicleSpec, o: &ManeuverOptions, out: &mut Out) -> Sim {
    let mut spec = spec.clone();
    // A held brake at a stop would select reverse: not part of this test.
    spec.gearbox.auto_reverse = false;
    let mut sim = Sim::new(&spec, o, Ground::Flat(WheelSurface::ASPHALT));
    sim.hold(Controls::default(), 1.0);
    let v0 = 100.0 / 3.6;
    sim.launch(v0);
    let p0 = sim.k.position;
    let t0 = sim.t;
    let mut stopped = None;
    for _ in 0..sim.steps(30.0) {
        let steer = sim.keep_lane();
        sim.step(Controls {
            brake: 1.0,
            steer,
            ..Default::default()
        });
        if sim.k.speed < 0.05 {
            stopped = Some(sim.t - t0);
            break;
        }
    }
    let d = (sim.k.position - p0).with_y(0.0).length();
    let t = stopped.unwrap_or(f32::NAN);
    let mu = spec.axles[0].wheel.tire().peak_value();
    out.metric("stop_distance", d, "m", Some(expected_stop_distance(&spec, 1.0, v0)));
    out.metric("stop_time", t, "s", None);
    out.metric("mean_deceleration", v0 / t / G, "g", None);
    out.metric("peak_mu_bound", v0 * v0 / (2.0 * mu * G), "m", None);
    sim.hold(
        Controls {
            brake: 1.0,
            ..Default::default()
        },
        0.5,
    );
    out.plot("Speed (km/h)", "time", &["speed"]);
    let slips: Vec<String> = sim.labels.iter().map(|l| format!("{l}.forward_slip")).collect();
    let refs: Vec<&str> = slips.iter().map(String::as_str).collect();
    out.plot("Longitudinal slip", "time", &refs);
    out.plot("Deceleration (m/s²)", "time", &["longitudinal_acc"]);
    sim
}

fn circle(spec: &VehicleSpec, o: &ManeuverOptions, out: &mut Out) -> Sim {
    // A path-following driver holds a 40 m circle (turning left) and raises the speed
    // slowly: quickly through the linear range, then 0.05 m/s per second near the limit.
    // It aims at a point on the circle one look-ahead ahead (pure pursuit), and an
    // integral of the radius error pulls that circle in or out, so it holds R exactly.
    let radius = 40.0;
    let mut sim = Sim::new(spec, o, Ground::Flat(WheelSurface::ASPHALT));
    sim.hold(Controls::default(), 1.0);
    let centre = sim.k.position + Vec3::new(-radius, 0.0, 0.0);
    let mut target: f32 = 6.0;
    sim.launch(target);
    let kinematic = (spec.wheelbase_for(0) / radius).atan().to_degrees();
    let mu = spec.axles[0].wheel.tire().peak_value();
    let (mut best, mut integral) = (0.0f32, 0.0f32);
    let mut window: Vec<f32> = vec![];
    let mut points = vec![];
    let win = sim.steps(1.0);
    let (fast, slow) = if o.quick { (1.0, 0.3) } else { (0.2, 0.05) };
    let mut lateral = vec![0.0; sim.rec.time.len()];
    let lat_col = CHASSIS.iter().position(|c| c.0 == "lateral_acc").expect("recorded");
    for _ in 0..sim.steps(if o.quick { 40.0 } else { 300.0 }) {
        let p = sim.k.position;
        let to_car = (p - centre).with_y(0.0);
        let r = to_car.length();
        let error = r - radius;
        integral = (integral + 0.5 * error / sim.hz).clamp(-10.0, 10.0);
        let aim = radius - integral;
        let angle = to_car.z.atan2(to_car.x) - sim.lookahead().min(15.0) / radius;
        let steer = sim.pursue(centre + Vec3::new(aim * angle.cos(), 0.0, aim * angle.sin()) + Vec3::Y * p.y);
        let ay = sim.k.speed * sim.k.yaw_rate.abs();
        target += if ay < 0.6 * mu * G { fast } else { slow } / sim.hz;
        let throttle = ((target - sim.k.speed) * 0.5).clamp(0.0, 1.0);
        sim.step(Controls {
            throttle,
            steer,
            ..Default::default()
        });
        // Centripetal acceleration, measured (left positive).
        let ay = -sim.rec.chassis[lat_col].last().copied().unwrap_or(0.0);
        lateral.push(ay / G);
        if error.abs() < 1.0 {
            window.push(ay);
            if window.len() > win {
                window.remove(0);
                best = best.max(mean(&window));
            }
            if ay < 0.5 * mu * G && ay > 0.05 * G {
                points.push((ay / G, sim.k.road_wheel_angle));
            }
        } else {
            window.clear();
        }
        if error > 4.0 {
            break;
        }
    }
    out.metric("max_lateral_acc", best / G, "g", Some(mu));
    match fit_line(&points) {
        Some((slope, intercept)) => {
            out.metric("understeer_gradient", slope, "deg/g", None);
            out.metric("steer_at_zero_lateral_acc", intercept, "deg", Some(kinematic));
        }
        None => out.metric("understeer_gradient", f32::NAN, "deg/g", None),
    }
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

fn step_steer(spec: &VehicleSpec, o: &ManeuverOptions, out: &mut Out) -> Sim {
    let v = 80.0 / 3.6;
    let target_ay = 4.0;
    let mut sim = Sim::new(spec, o, Ground::Flat(WheelSurface::ASPHALT));
    sim.hold(Controls::default(), 1.0);
    sim.launch(v);
    for _ in 0..sim.steps(2.0) {
        sim.cruise_in_lane(v);
    }
    let delta = (spec.wheelbase_for(0) * target_ay / (v * v)).atan().to_degrees();
    let steer = sim.steer_for(delta);
    let start = sim.rec.time.len();
    let t0 = sim.t;
    for _ in 0..sim.steps(if o.quick { 3.0 } else { 5.0 }) {
        let (throttle, brake) = sim.cruise(v);
        sim.step(Controls {
            throttle,
            brake,
            steer,
            ..Default::default()
        });
    }
    let time: Vec<f32> = sim.rec.time[start..].iter().map(|t| t - t0).collect();
    let chan = |name: &str| {
        let i = CHASSIS.iter().position(|c| c.0 == name).unwrap();
        sim.rec.chassis[i][start..].to_vec()
    };
    let yaw = chan("yaw_rate");
    let ay: Vec<f32> = chan("lateral_acc").iter().map(|a| -a).collect();
    let angle = chan("road_wheel_angle");
    let last = sim.steps(1.0).min(yaw.len());
    let steady_yaw = mean(&yaw[yaw.len() - last..]);
    let steady_ay = mean(&ay[ay.len() - last..]);
    let steady_angle = mean(&angle[angle.len() - last..]);
    let t50 = crossing(&time, &angle, 0.5 * steady_angle).unwrap_or(0.0);
    let t90 = crossing(&time, &yaw, 0.9 * steady_yaw).unwrap_or(f32::NAN);
    let (peak_i, peak) = yaw
        .iter()
        .enumerate()
        .fold((0, f32::MIN), |(bi, b), (i, &y)| if y > b { (i, y) } else { (bi, b) });
    let ay_t90 = crossing(&time, &ay, 0.9 * steady_ay).unwrap_or(f32::NAN);
    out.metric("road_wheel_angle", steady_angle, "deg", Some(delta));
    out.metric("steady_yaw_rate", steady_yaw, "deg/s", None);
    out.metric("steady_lateral_acc", steady_ay / G, "g", None);
    out.metric("yaw_rate_gain", steady_yaw / steady_angle, "1/s", None);
    out.metric("yaw_rate_response_time", t90 - t50, "s", None);
    // A response that rises without overshoot has no peak (ISO 7401 leaves it out).
    let overshoot = (peak / steady_yaw - 1.0) * 100.0;
    let peak_time = if overshoot > 0.5 { time[peak_i] - t50 } else { f32::NAN };
    out.metric("yaw_rate_peak_time", peak_time, "s", None);
    out.metric("yaw_rate_overshoot", overshoot.max(0.0), "%", None);
    out.metric("lateral_acc_response_time", ay_t90 - t50, "s", None);
    out.plot("Yaw rate (deg/s)", "time", &["yaw_rate"]);
    out.plot("Lateral acceleration (m/s²)", "time", &["lateral_acc"]);
    out.plot("Road-wheel angle (deg)", "time", &["road_wheel_angle"]);
    sim
}

fn slalom(spec: &VehicleSpec, o: &ManeuverOptions, out: &mut Out) -> Sim {
    let v = 60.0 / 3.6;
    let (spacing, amplitude, cones) = (18.0, 1.0, if o.quick { 4.0 } else { 8.0 });
    let mut sim = Sim::new(spec, o, Ground::Flat(WheelSurface::ASPHALT));
    sim.hold(Controls::default(), 1.0);
    sim.launch(v);
    let z0 = sim.k.position.z - 10.0;
    // The path: straight for 10 m, then x = A·sin(π s / spacing) past `cones` cones.
    let path = |s: f32| {
        if (0.0..cones * spacing).contains(&s) {
            -amplitude * (std::f32::consts::PI * s / spacing).sin()
        } else {
            0.0
        }
    };
    let (mut errors, mut yaw, mut ay, mut roll) = (vec![], 0.0f32, 0.0f32, 0.0f32);
    let mut speeds = vec![];
    let mut path_x = vec![0.0; sim.rec.time.len()];
    loop {
        let p = sim.k.position;
        let ld = sim.lookahead().min(8.0);
        let s_ahead = z0 - (p.z - ld);
        let steer = sim.pursue(Vec3::new(path(s_ahead), p.y, p.z - ld));
        let (throttle, brake) = sim.cruise(v);
        sim.step(Controls {
            throttle,
            brake,
            steer,
            ..Default::default()
        });
        let s = z0 - sim.k.position.z;
        path_x.push(path(s));
        if (0.0..cones * spacing).contains(&s) {
            errors.push(sim.k.position.x - path(s));
            yaw = yaw.max(sim.k.yaw_rate.abs().to_degrees());
            let i = sim.rec.time.len() - 1;
            ay = ay.max(sim.rec.chassis[5][i].abs());
            roll = roll.max(sim.rec.chassis[8][i].abs());
            speeds.push(sim.k.speed);
        }
        if s > cones * spacing + 10.0 || sim.t > 60.0 {
            break;
        }
    }
    out.metric("mean_speed", mean(&speeds) * 3.6, "km/h", None);
    out.metric("max_lateral_acc", ay / G, "g", None);
    out.metric("max_yaw_rate", yaw, "deg/s", None);
    out.metric("max_roll", roll, "deg", None);
    out.metric("rms_path_error", rms(&errors), "m", None);
    out.metric("max_path_error", max_abs(&errors), "m", None);
    out.extra.push(Channel {
        name: "path_x".into(),
        unit: "m",
        values: path_x,
    });
    out.plot("Path: x (m) against z (m)", "z", &["x", "path_x"]);
    out.plot("Yaw rate (deg/s)", "time", &["yaw_rate"]);
    out.plot("Roll (deg)", "time", &["roll"]);
    sim
}

fn slope_hold(spec: &VehicleSpec, o: &ManeuverOptions, out: &mut Out) -> Sim {
    // The pulled handbrake also keeps auto-reverse from engaging.
    let hold = Controls {
        brake: 1.0,
        handbrake: 1.0,
        ..Default::default()
    };
    let mu = spec.axles[0].wheel.tire().peak_value();
    let mut last = None;
    for deg in [10.0f32, 20.0] {
        let mut sim = Sim::new(spec, o, Ground::Slope(deg));
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
        let need = spec.chassis.mass * G * deg.to_radians().sin() * spec.drive_radius();
        let have = spec.brakes.max_torque + spec.brakes.handbrake_torque;
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

fn bump_run(spec: &VehicleSpec, o: &ManeuverOptions, out: &mut Out) -> Sim {
    let v = 60.0 / 3.6;
    let mut sim = Sim::new(spec, o, Ground::Flat(WheelSurface::GRAVEL));
    sim.hold(Controls::default(), 1.0);
    sim.launch(v);
    // One second to settle into the speed, then measure.
    let seconds = if o.quick { 3.0 } else { 10.0 };
    let mut start = 0;
    for n in 0..sim.steps(1.0 + seconds) {
        if n == sim.steps(1.0) {
            start = sim.rec.time.len();
        }
        sim.cruise_in_lane(v);
    }
    let col = |i: usize| &sim.rec.chassis[i][start..];
    let vertical = col(6);
    let (mut lifted, mut total, mut max_rate) = (0usize, 0usize, 0.0f32);
    for (i, w) in sim.rec.wheels.iter().enumerate() {
        let travel = spec.axles[i / 2].wheel.suspension_length();
        for (&g, &c) in w[7][start..].iter().zip(&w[0][start..]) {
            total += 1;
            lifted += (g < 0.5) as usize;
            max_rate = max_rate.max(c / travel);
        }
    }
    let rate = |i: usize| {
        let dt = sim.dt();
        let v: Vec<f32> = col(i).windows(2).map(|w| (w[1] - w[0]) / dt).collect();
        rms(&v)
    };
    out.metric("rms_vertical_acc", rms(vertical), "m/s²", None);
    out.metric("max_vertical_acc", max_abs(vertical), "m/s²", None);
    out.metric("rms_pitch_rate", rate(9), "deg/s", None);
    out.metric("rms_roll_rate", rate(8), "deg/s", None);
    out.metric("max_compression", max_rate, "1", None);
    out.metric("wheel_lift", lifted as f32 / total.max(1) as f32 * 100.0, "%", None);
    out.metric("mean_speed", mean(&sim.rec.chassis[0][start..]), "km/h", None);
    out.plot("Vertical body acceleration (m/s²)", "time", &["vertical_acc"]);
    let compressions: Vec<String> = sim.labels.iter().map(|l| format!("{l}.compression")).collect();
    let refs: Vec<&str> = compressions.iter().map(String::as_str).collect();
    out.plot("Suspension compression (m)", "time", &refs);
    sim
}
