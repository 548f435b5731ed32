//! The simulation harness: a headless app at an exact fixed rate, one car spawned from
//! its settings on flat or sloped ground, stepped one physics step at a time and recorded.

use avian3d::prelude::*;
use bevy::prelude::*;
use wheelcollider_avian::prelude::*;
use wheelcollider_core::STANDARD_GRAVITY as G;
use wheelcollider_core::vehicle::DriverInput;
use wheelcollider_testing::app::{fixed_step, headless, start};
use wheelcollider_testing::scene::launch_in_gear;

use crate::report::Channel;
use crate::{ManeuverOptions, wheel_labels};

/// Chassis channels, recorded every step.
pub(crate) const CHASSIS: [(&str, &str); 16] = [
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
pub(crate) const WHEEL: [(&str, &str); 8] = [
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
pub(crate) struct Recorder {
    pub(crate) time: Vec<f32>,
    pub(crate) chassis: Vec<Vec<f32>>,
    pub(crate) wheels: Vec<Vec<Vec<f32>>>,
}

impl Recorder {
    pub(crate) fn finish(&self, labels: &[String]) -> (Vec<f32>, Vec<Channel>) {
        let mut channels: Vec<Channel> = CHASSIS
            .iter()
            .zip(&self.chassis)
            .map(|(&(name, unit), v)| Channel {
                name: name.into(),
                unit,
                values: v.clone(),
            })
            .collect();
        // A single axle's empty right index recorded nothing: no channel.
        let recorded = |w: &Vec<Vec<f32>>| w.first().map_or(0, Vec::len) == self.time.len();
        for (label, wheel) in labels.iter().zip(&self.wheels).filter(|(_, w)| recorded(w)) {
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
pub(crate) struct Kin {
    pub(crate) position: Vec3,
    pub(crate) velocity: Vec3,
    pub(crate) forward: Vec3,
    pub(crate) yaw_rate: f32,
    pub(crate) speed: f32,
    pub(crate) forward_speed: f32,
    /// Mean steer angle of the first axle's wheels (deg, positive left).
    pub(crate) road_wheel_angle: f32,
    pub(crate) gear: i32,
    pub(crate) rpm: f32,
}

pub(crate) enum Ground {
    Flat(WheelSurface),
    /// Asphalt tilted up towards −Z by this angle (deg).
    Slope(f32),
    /// Asphalt tilted about Z by this angle (deg): a side slope, up towards −X.
    Across(f32),
}

pub(crate) struct Sim {
    pub(crate) app: App,
    pub(crate) car: Entity,
    /// Wheel entities in [`VehicleSettings::wheel_index`] order.
    pub(crate) wheels: Vec<Entity>,
    pub(crate) labels: Vec<String>,
    pub(crate) settings: VehicleSettings,
    pub(crate) hz: f32,
    pub(crate) t: f32,
    pub(crate) last_velocity: Vec3,
    pub(crate) rec: Recorder,
    pub(crate) k: Kin,
    /// The surface rotation (the car's rest attitude).
    pub(crate) base: Quat,
}

impl Sim {
    pub(crate) fn new(settings: &VehicleSettings, options: &ManeuverOptions, ground: Ground) -> Sim {
        let mut app = headless(bevy::asset::AssetPlugin::default());
        fixed_step(&mut app, options.hz).insert_resource(Gravity(Vec3::NEG_Y * G));
        start(&mut app);
        let base = match ground {
            Ground::Flat(surface) => {
                app.world_mut()
                    .spawn((RigidBody::Static, Collider::half_space(Vec3::Y), surface));
                Quat::IDENTITY
            }
            Ground::Slope(deg) | Ground::Across(deg) => {
                let rot = match ground {
                    Ground::Across(_) => Quat::from_rotation_z(deg.to_radians()),
                    _ => Quat::from_rotation_x(deg.to_radians()),
                };
                app.world_mut().spawn((
                    RigidBody::Static,
                    Collider::cuboid(400.0, 2.0, 400.0),
                    Transform::from_rotation(rot) * Transform::from_xyz(0.0, -1.0, 0.0),
                    WheelSurface::ASPHALT,
                ));
                rot
            }
        };
        let transform =
            Transform::from_translation(base * Vec3::Y * (settings.touch_height() + 0.005)).with_rotation(base);
        let world = app.world_mut();
        let mut commands = world.commands();
        let car = spawn_vehicle(&mut commands, settings, transform).expect("validated");
        world.flush();
        // One step so the wheels find their chassis.
        app.update();
        let n = settings.wheel_indices();
        let mut wheels = vec![Entity::PLACEHOLDER; n];
        let children = app.world().get::<ChassisWheels>(car).map(|c| c.wheels().to_vec());
        for w in children.unwrap_or_default() {
            if let Some(id) = app.world().get::<VehicleWheel>(w) {
                wheels[VehicleSettings::wheel_index(id.axle, id.right)] = w;
            }
        }
        let labels = wheel_labels(settings);
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
            settings: settings.clone(),
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

    pub(crate) fn dt(&self) -> f32 {
        1.0 / self.hz
    }

    pub(crate) fn steps(&self, seconds: f32) -> usize {
        (seconds * self.hz).round() as usize
    }

    /// One physics step with these controls, recorded.
    pub(crate) fn step(&mut self, controls: DriverInput) {
        self.app.world_mut().get_mut::<VehicleInput>(self.car).unwrap().0 = controls;
        self.app.update();
        self.t += self.dt();
        self.read();
        self.record(&controls);
    }

    /// Steps with the same controls for `seconds`.
    pub(crate) fn hold(&mut self, controls: DriverInput, seconds: f32) {
        for _ in 0..self.steps(seconds) {
            self.step(controls);
        }
    }

    pub(crate) fn read(&mut self) {
        let w = self.app.world();
        let p = w.get::<Position>(self.car).unwrap().0;
        let rot = w.get::<Rotation>(self.car).unwrap().0;
        let v = w.get::<LinearVelocity>(self.car).unwrap().0;
        let omega = w.get::<AngularVelocity>(self.car).unwrap().0;
        let tel = w.get::<VehicleTelemetry>(self.car).unwrap();
        let forward = rot * Vec3::NEG_Z;
        // The road-wheel angle the steering asks for (the steering-wheel angle over the
        // ratio, as SAE J670 measures understeer): the first axle's Ackermann angles,
        // before roll steer and compliance steer turn the wheels further; a
        // two-wheeler's, its steering head's angle (turned by the forces on it).
        let angle = match w.get::<SteeringHead>(self.car) {
            Some(head) => head.angle.to_degrees(),
            None => {
                let delta = tel.powertrain.steer * self.settings.steering.lock_at(v.dot(forward));
                let (left, right) = self.settings.ackermann_angles(0, delta);
                0.5 * (left + right)
            }
        };
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

    pub(crate) fn record(&mut self, c: &DriverInput) {
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
            let Some(s) = w.get::<WheelOutput>(e) else { continue };
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

    pub(crate) fn wheel(&self, i: usize) -> WheelOutput {
        self.app.world().get::<WheelOutput>(self.wheels[i]).unwrap().clone()
    }

    /// Sets the car moving forward at `v` (m/s) with its wheels rolling and their tyres
    /// relaxed, an automatic gearbox in the lowest gear that keeps the engine under its
    /// shift-up speed (a truck's twelve gears are not worked up from first while the
    /// run starts) and the engine turning with the wheels.
    pub(crate) fn launch(&mut self, v: f32) {
        launch_in_gear(&mut self.app, self.car, v);
        self.last_velocity = self.k.forward * v;
        self.read();
    }
}
