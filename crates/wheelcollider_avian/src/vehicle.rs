//! The vehicle layer: a chassis with a [`Vehicle`] drives its wheels from a
//! [`VehicleInput`] through the engine, clutch, gearbox and differentials of
//! [`wheelcollider_core::vehicle`], and gets aerodynamic drag and downforce. Ground
//! colliders can carry a [`WheelSurface`].
//!
//! Spawn one from a preset with [`spawn_vehicle`]:
//!
//! ```
//! use bevy::prelude::*;
//! use wheelcollider_avian::prelude::*;
//!
//! fn setup(mut commands: Commands) {
//!     // Or `VehicleSpec::from_ron(&std::fs::read_to_string("assets/presets/road.ron")?)`.
//!     let spec = VehicleSpec::default();
//!     let car = spawn_vehicle(&mut commands, &spec, Transform::from_xyz(0.0, 1.0, 0.0)).unwrap();
//!     commands.entity(car).insert(Name::new("player"));
//! }
//! ```
//!
//! | where | system | what |
//! | --- | --- | --- |
//! | [`WheelSystems::Prepare`](crate::WheelSystems) | `sync_vehicles` | a changed spec is validated and pushed to the wheels (geometry, settings, mass) |
//! | `WheelSystems::Prepare` | `drive_vehicles` | one [`step_vehicle`] per chassis → each wheel's [`WheelInput`]; telemetry |
//! | `WheelSystems::Apply` | `apply_aero` | drag at the centre of mass, downforce at the axles |

use avian3d::prelude::*;
use bevy::prelude::*;
use wheelcollider_core::bumps::perlin_bump;
pub use wheelcollider_core::vehicle::{
    AeroSpec, AxleSpec, BrakeSpec, ChassisSpec, ClutchSpec, DifferentialKind, EngineSpec, GearboxSpec,
    PowertrainReport, SpecError, SteeringSpec, VehicleSpec, VehicleState,
};
use wheelcollider_core::vehicle::{WheelCommand, WheelFeedback, step_vehicle};

use crate::components::{AntiRollBar, ChassisWheels, WheelCollider, WheelInput, WheelOf, WheelState};

/// The driver's controls for one vehicle: write it from game code, an AI, or the
/// optional keyboard / gamepad plugin. See [`wheelcollider_core::vehicle::VehicleInput`]
/// for the fields (throttle, brake, steer, handbrake, clutch, gear up / down).
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq, Deref, DerefMut)]
#[reflect(Component)]
pub struct VehicleInput(pub wheelcollider_core::vehicle::VehicleInput);

/// A vehicle: put it on the chassis rigid body (usually through [`spawn_vehicle`]).
/// Its wheels are the chassis' [`WheelCollider`] children that carry a
/// [`VehicleWheel`]. Edit the spec at run time (the inspector does): the change is
/// validated, and a spec with a non-finite number is refused (logged) and the last good
/// one kept.
#[derive(Component, Reflect, Clone, Debug, Default, PartialEq)]
#[reflect(Component)]
#[require(VehicleInput, VehicleTelemetry, VehicleRuntime)]
pub struct Vehicle(pub VehicleSpec);

/// Which wheel of the vehicle this is: axle index (front first) and side.
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq, Eq)]
#[reflect(Component)]
pub struct VehicleWheel {
    /// Axle index in [`VehicleSpec::axles`].
    pub axle: usize,
    /// Right-hand wheel (+X); otherwise left.
    pub right: bool,
}

/// The vehicle's runtime state (engine speed, gear, differentials…) and its buffers.
#[derive(Component, Reflect, Clone, Debug, Default)]
#[reflect(Component)]
pub struct VehicleRuntime {
    /// The powertrain and steering state.
    pub state: Option<VehicleState>,
    /// The last spec that validated: what the vehicle actually runs.
    pub spec: Option<VehicleSpec>,
    #[reflect(ignore)]
    feedback: Vec<WheelFeedback>,
    #[reflect(ignore)]
    commands: Vec<WheelCommand>,
    #[reflect(ignore)]
    entities: Vec<Option<Entity>>,
}

/// What the vehicle did in its last physics step, for HUDs, plots and game logic.
/// Per-wheel values (load, slips, forces) are in each wheel's [`WheelState`].
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq)]
#[reflect(Component)]
pub struct VehicleTelemetry {
    /// Speed along the chassis' forward axis (m/s), negative backwards.
    pub forward_speed: f32,
    /// Speed over ground (km/h).
    pub speed_kmh: f32,
    /// Sideways acceleration of the chassis (m/s², positive to the right).
    pub lateral_acceleration: f32,
    /// Forward acceleration of the chassis (m/s²).
    pub longitudinal_acceleration: f32,
    /// Yaw rate (rad/s, positive turning left).
    pub yaw_rate: f32,
    /// Engine, clutch, gearbox, steering.
    pub powertrain: PowertrainReport,
    /// Aerodynamic drag (N).
    pub drag: f32,
    /// Downforce on the first and last axle (N).
    pub downforce: [f32; 2],
    /// Grounded wheels.
    pub grounded_wheels: u32,
    /// Wheels (two per axle).
    pub wheels: u32,
    #[reflect(ignore)]
    last_velocity: Vec3,
}

/// A ground surface: put it on a collider (or its rigid body). Wheels on it scale their
/// tyre grip, add rolling resistance and the surface's own roughness.
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[reflect(Component)]
#[serde(default, deny_unknown_fields)]
pub struct WheelSurface {
    /// Friction multiplier on the tyre curve (1 = asphalt), ≥ 0.
    pub grip: f32,
    /// Rolling-resistance coefficient added to the tyre's own, ≥ 0.
    pub rolling_resistance: f32,
    /// Height of the surface's Perlin roughness, peak to peak (m), ≥ 0.
    pub bump_amplitude: f32,
    /// Spatial frequency of the roughness (1/m), > 0.
    pub bump_period: f32,
}

impl Default for WheelSurface {
    fn default() -> Self {
        Self::ASPHALT
    }
}

impl WheelSurface {
    /// Dry asphalt: the tyre's own curve.
    pub const ASPHALT: Self = Self {
        grip: 1.0,
        rolling_resistance: 0.0,
        bump_amplitude: 0.0,
        bump_period: 1.0,
    };
    /// Loose gravel: 70 % grip, extra rolling resistance, 3 cm of roughness.
    pub const GRAVEL: Self = Self {
        grip: 0.7,
        rolling_resistance: 0.02,
        bump_amplitude: 0.03,
        bump_period: 0.8,
    };
    /// Grass: 55 % grip, high rolling resistance, 4 cm of long waves.
    pub const GRASS: Self = Self {
        grip: 0.55,
        rolling_resistance: 0.05,
        bump_amplitude: 0.04,
        bump_period: 0.3,
    };
    /// Ice: 10 % grip.
    pub const ICE: Self = Self {
        grip: 0.1,
        rolling_resistance: 0.0,
        bump_amplitude: 0.0,
        bump_period: 1.0,
    };

    /// The values clamped to their ranges, non-finite ones replaced by asphalt's.
    pub fn sanitized(&self) -> Self {
        let f = |v: f32, d: f32, lo: f32, hi: f32| if v.is_finite() { v.clamp(lo, hi) } else { d };
        let a = Self::ASPHALT;
        Self {
            grip: f(self.grip, a.grip, 0.0, 100.0),
            rolling_resistance: f(self.rolling_resistance, 0.0, 0.0, 10.0),
            bump_amplitude: f(self.bump_amplitude, 0.0, 0.0, 1.0),
            bump_period: f(self.bump_period, 1.0, 1e-3, 100.0),
        }
    }

    /// Roughness height at world (x, z) (m).
    pub fn bump(&self, x: f32, z: f32) -> f32 {
        if self.bump_amplitude > 0.0 {
            perlin_bump(x + 1000.0, z - 1000.0, self.bump_period, self.bump_amplitude) as f32
        } else {
            0.0
        }
    }
}

/// Spawns a vehicle from a spec: the chassis (dynamic rigid body, box collider, mass,
/// inertia, centre of mass, [`Vehicle`]) and one [`WheelCollider`] child per wheel,
/// named `"axle 0 left"` and so on. The spec is validated first; an invalid one spawns
/// nothing and returns the error.
pub fn spawn_vehicle(commands: &mut Commands, spec: &VehicleSpec, transform: Transform) -> Result<Entity, SpecError> {
    spawn_vehicle_with(commands, spec, transform, WheelPlacement::Children)
}

/// Where [`spawn_vehicle_with`] puts the wheel entities.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum WheelPlacement {
    /// Children of the chassis (`ChildOf`), as [`spawn_vehicle`] does: their
    /// `GlobalTransform` is the mount in the world, and a mesh under a wheel with
    /// [`WheelModel`](crate::components::WheelModel) follows it.
    #[default]
    Children,
    /// Outside the hierarchy, attached by [`WheelOf`] alone: the same physics (tested bit
    /// for bit), and Bevy does not propagate the wheels' transforms, which saves 0.05–0.06
    /// µs per wheel-step (about 10 % of a ray wheel; `docs/performance.md`). For traffic
    /// and servers. A wheel's `GlobalTransform` is then not its place in the world: read
    /// its `WheelState`, and put its `WheelModel` mesh under the chassis. Despawning the
    /// chassis still despawns the wheels.
    OutsideHierarchy,
}

/// [`spawn_vehicle`], with the wheels placed as `placement` says.
pub fn spawn_vehicle_with(
    commands: &mut Commands,
    spec: &VehicleSpec,
    transform: Transform,
    placement: WheelPlacement,
) -> Result<Entity, SpecError> {
    let mut spec = spec.clone();
    spec.validate()?;
    let c = &spec.chassis;
    let [ix, iy, iz] = c.principal_inertia();
    let chassis = commands
        .spawn((
            Name::new(spec.name.clone()),
            RigidBody::Dynamic,
            Collider::cuboid(c.size[0], c.size[1], c.size[2]),
            Mass(c.mass),
            AngularInertia::new(Vec3::new(ix, iy, iz)),
            CenterOfMass(Vec3::from(c.center_of_mass)),
            transform,
        ))
        .id();
    for (a, axle) in spec.axles.iter().enumerate() {
        let ends = [false, true].map(|right| {
            let x = if right { axle.half_track } else { -axle.half_track };
            let side = if right { "right" } else { "left" };
            let wheel = (
                Name::new(format!("axle {a} {side}")),
                WheelCollider(spec.wheel_settings(a, right)),
                VehicleWheel { axle: a, right },
                Transform::from_xyz(x, axle.mount_height, axle.z),
            );
            // In the same bundle: the plugin attaches a wheel when its `WheelCollider`
            // is added, by its `WheelOf` or else its rigid-body ancestor.
            match placement {
                WheelPlacement::Children => commands.spawn((wheel, ChildOf(chassis))).id(),
                WheelPlacement::OutsideHierarchy => commands.spawn((wheel, WheelOf(chassis))).id(),
            }
        });
        // Each axle's anti-roll bar, solved with the suspension (zero stiffness: none).
        for (this, partner) in [(ends[0], ends[1]), (ends[1], ends[0])] {
            commands.entity(this).insert(AntiRollBar {
                partner,
                stiffness: axle.anti_roll_stiffness,
            });
        }
    }
    commands.entity(chassis).insert(Vehicle(spec));
    Ok(chassis)
}

/// Validates changed specs and pushes them to the wheels and the body.
pub(crate) fn sync_vehicles(
    mut vehicles: Query<(Entity, &Vehicle, &mut VehicleRuntime, Option<&ChassisWheels>), Changed<Vehicle>>,
    mut wheels: Query<(
        &VehicleWheel,
        &mut WheelCollider,
        &mut Transform,
        Option<&mut AntiRollBar>,
    )>,
    mut bodies: Query<(&mut Mass, &mut AngularInertia, &mut CenterOfMass, &mut Collider)>,
) {
    for (entity, vehicle, mut runtime, children) in &mut vehicles {
        let mut spec = vehicle.0.clone();
        if let Err(e) = spec.validate() {
            warn!("vehicle {entity}: spec refused, keeping the last good one: {e}");
            continue;
        }
        let new_layout = runtime.spec.as_ref().is_none_or(|s| s.axles.len() != spec.axles.len());
        if new_layout || runtime.state.is_none() {
            runtime.state = Some(VehicleState::new(&spec));
        }
        if let Ok((mut mass, mut inertia, mut com, mut collider)) = bodies.get_mut(entity) {
            let c = &spec.chassis;
            let [ix, iy, iz] = c.principal_inertia();
            mass.set_if_neq(Mass(c.mass));
            inertia.set_if_neq(AngularInertia::new(Vec3::new(ix, iy, iz)));
            com.set_if_neq(CenterOfMass(Vec3::from(c.center_of_mass)));
            let size = Vec3::from(c.size);
            let current = collider.shape_scaled().as_cuboid().map(|b| b.half_extents * 2.0);
            if current.is_none_or(|s| (s - size).length() > 1e-5) {
                *collider = Collider::cuboid(size.x, size.y, size.z);
            }
        }
        for &w in children.map(|c| c.wheels()).unwrap_or(&[]) {
            let Ok((id, mut collider, mut transform, bar)) = wheels.get_mut(w) else {
                continue;
            };
            let Some(axle) = spec.axles.get(id.axle) else {
                continue;
            };
            let settings = spec.wheel_settings(id.axle, id.right);
            if collider.0 != settings {
                collider.0 = settings;
            }
            let x = if id.right { axle.half_track } else { -axle.half_track };
            let t = Vec3::new(x, axle.mount_height, axle.z);
            if transform.translation != t {
                transform.translation = t;
            }
            if let Some(mut bar) = bar
                && bar.stiffness != axle.anti_roll_stiffness
            {
                bar.stiffness = axle.anti_roll_stiffness;
            }
        }
        runtime.spec = Some(spec);
    }
}

type VehicleQuery<'w, 's> = Query<
    'w,
    's,
    (
        &'static mut VehicleRuntime,
        &'static mut VehicleInput,
        &'static mut VehicleTelemetry,
        &'static ChassisWheels,
        &'static Rotation,
        &'static LinearVelocity,
        &'static AngularVelocity,
    ),
>;

/// One vehicle step per chassis: wheel feedback in, wheel inputs out.
pub(crate) fn drive_vehicles(
    time: Res<Time>,
    mut vehicles: VehicleQuery,
    mut wheels: Query<(&VehicleWheel, &WheelCollider, &WheelState, &mut WheelInput)>,
) {
    let dt = time.delta_secs();
    if dt <= 0.0 {
        return;
    }
    for (mut runtime, mut input, mut telemetry, children, rot, lin, ang) in &mut vehicles {
        let runtime = &mut *runtime;
        let (Some(spec), Some(state)) = (runtime.spec.as_ref(), runtime.state.as_mut()) else {
            continue;
        };
        let n = spec.wheel_count();
        runtime.feedback.resize(n, WheelFeedback::default());
        runtime.commands.resize(n, WheelCommand::default());
        runtime.entities.clear();
        runtime.entities.resize(n, None);
        let mut grounded = 0;
        for &w in children.wheels() {
            let Ok((id, collider, wheel_state, _)) = wheels.get(w) else {
                continue;
            };
            let i = VehicleSpec::wheel_index(id.axle, id.right);
            if i >= n {
                continue;
            }
            let o = &wheel_state.output;
            grounded += o.grounded as u32;
            runtime.entities[i] = Some(w);
            runtime.feedback[i] = WheelFeedback {
                angular_velocity: o.angular_velocity,
                inertia: collider.inertia(),
                radius: collider.radius(),
                compression: o.compression,
                forward_slip: o.forward_slip,
                peak_slip: o.peak_slip,
                max_friction_force: o.max_friction_force,
                grounded: o.grounded,
                tyre_torque: o.forward_force * collider.radius(),
            };
        }
        let forward = rot.0 * Vec3::NEG_Z;
        let right = rot.0 * Vec3::X;
        let v = lin.0;
        let forward_speed = v.dot(forward);
        let report = step_vehicle(
            spec,
            state,
            &mut input.0,
            forward_speed,
            &runtime.feedback,
            &mut runtime.commands,
            dt,
        );
        for (i, e) in runtime.entities.iter().enumerate() {
            let Some(Ok((_, _, _, mut wheel_input))) = e.map(|e| wheels.get_mut(e)) else {
                continue;
            };
            let c = runtime.commands[i];
            wheel_input.steer_angle = c.steer_angle;
            wheel_input.drive_torque = c.drive_torque;
            wheel_input.brake_torque = c.brake_torque;
            // The bars are `AntiRollBar`s, solved with the suspension.
            wheel_input.anti_roll_force = 0.0;
        }
        let accel = (v - telemetry.last_velocity) / dt;
        let k = spec.aero.drag_factor();
        *telemetry = VehicleTelemetry {
            forward_speed,
            speed_kmh: v.length() * 3.6,
            lateral_acceleration: accel.dot(right),
            longitudinal_acceleration: accel.dot(forward),
            yaw_rate: ang.0.dot(rot.0 * Vec3::Y),
            powertrain: report,
            drag: k * v.length_squared(),
            downforce: spec.aero.downforce(forward_speed),
            grounded_wheels: grounded,
            wheels: n as u32,
            last_velocity: v,
        };
    }
}

/// Aerodynamic drag at the centre of mass and downforce at the first and last axle.
pub(crate) fn apply_aero(mut vehicles: Query<(&VehicleRuntime, &VehicleTelemetry, Forces)>) {
    for (runtime, telemetry, mut forces) in &mut vehicles {
        let Some(spec) = runtime.spec.as_ref() else { continue };
        let v = forces.linear_velocity();
        let speed = v.length();
        if !speed.is_finite() || speed < 1e-3 {
            continue;
        }
        let rot = forces.rotation().0;
        let drag = -spec.aero.drag_factor() * speed * v;
        if drag.is_finite() {
            forces.apply_force(drag);
        }
        let down = rot * Vec3::NEG_Y;
        let (Some(first), Some(last)) = (spec.axles.first(), spec.axles.last()) else {
            continue;
        };
        let pos = forces.position().0;
        for (f, z) in [(telemetry.downforce[0], first.z), (telemetry.downforce[1], last.z)] {
            if f > 0.0 && f.is_finite() {
                forces.apply_force_at_point(down * f, pos + rot * Vec3::new(0.0, 0.0, z));
            }
        }
    }
}
