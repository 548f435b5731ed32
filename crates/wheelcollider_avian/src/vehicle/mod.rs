//! The vehicle layer: a chassis with a [`Vehicle`] drives its wheels from a
//! [`VehicleInput`] through the engine, clutch, gearbox and differentials of
//! [`wheelcollider_core::vehicle`], and gets aerodynamic drag and downforce.
//!
//! Spawn one from a preset with [`spawn_vehicle`]:
//!
//! ```
//! use bevy::prelude::*;
//! use wheelcollider_avian::prelude::*;
//!
//! fn setup(mut commands: Commands) {
//!     // Or `VehicleSettings::from_ron(&std::fs::read_to_string("assets/presets/road.ron")?)`.
//!     let settings = VehicleSettings::default();
//!     let car = spawn_vehicle(&mut commands, &settings, Transform::from_xyz(0.0, 1.0, 0.0)).unwrap();
//!     commands.entity(car).insert(Name::new("player"));
//! }
//! ```
//!
//! | file | what |
//! | --- | --- |
//! | `mod.rs` | the components: [`Vehicle`], [`VehicleInput`], [`VehicleWheel`], [`VehicleRuntime`], [`VehicleTelemetry`] |
//! | `spawn.rs` | [`spawn_vehicle`]: chassis and wheels from a settings (a two-wheeler's head and rider too); [`insert_vehicle`] on an existing entity |
//! | `systems.rs` | sync a changed settings, one vehicle step per chassis |
//! | `preset.rs` | `VehiclePreset` assets from `.ron` files, `VehicleFromPreset` (hot reload); feature `serialize` |
//! | `reset.rs` | [`ResetVehicle`]: put a car back at rest |
//! | [`towing`] | trailers: [`towing::couple_trailer`], the hitch's joints, the trailer's brakes and stand, [`towing::HitchTelemetry`] |
//! | `body/` | the body-level parts on the chassis' force channel: aerodynamics, anti-flip and air control ([`AssistSettings`]) |
//! | `plugin.rs` | [`VehiclePlugin`] and [`VehicleSystems`] |
//!
//! | set (in `PhysicsSchedule`) | system | what |
//! | --- | --- | --- |
//! | [`VehicleSystems::Sync`], before [`WheelSystems::Prepare`](crate::WheelSystems) | `sync_vehicles` | a changed settings is validated and pushed to the wheels (geometry, settings, mass) |
//! | [`VehicleSystems::Sync`] | `place_stands` | each trailer's stand under its coupling, enabled while it is uncoupled |
//! | [`VehicleSystems::Drive`] | `tow_trailers` | each trailer's hitch read back ([`towing::HitchTelemetry`], a break, a jackknife) and its brakes from its tow vehicle |
//! | [`VehicleSystems::Drive`], after `WheelSystems::Prepare` | `drive_vehicles` | one [`step_vehicle`](wheelcollider_core::vehicle::step_vehicle) per chassis → each wheel's [`WheelInput`]; telemetry |
//! | [`VehicleSystems::Drive`], after `drive_vehicles` | `ask_lean` | a two-wheeler's [`Rider`](crate::two_wheeler::Rider) asked for the lean of its steer input (`steer × max_lean`) |
//! | [`VehicleSystems::Drive`], after `drive_vehicles` | `shift_weight` | a two-wheeler's centre of mass moved by its rider's weight shift (`weight_shift × shift_reach × rider mass / chassis mass`) |
//! | [`VehicleSystems::Body`], in `WheelSystems::Body` | `apply_aero`, `apply_body_assists` | drag at the centre of pressure, downforce at the axles; anti-flip and air control, added to the chassis' [`ChassisForces`](crate::wheel::ChassisForces) |

mod body;
mod events;
mod plugin;
#[cfg(feature = "serialize")]
mod preset;
mod reset;
mod spawn;
mod systems;
pub mod towing;

use bevy::ecs::entity::MapEntities;
use bevy::prelude::*;
pub use events::{GearChanged, GearState};
pub use plugin::{VehiclePlugin, VehicleSystems};
#[cfg(feature = "serialize")]
pub use preset::{EMBEDDED_PRESETS, VehicleFromPreset, VehiclePreset, VehiclePresetLoadError, VehiclePresetLoader};
pub use reset::ResetVehicle;
pub use spawn::{
    CHASSIS_CCD_SPEED, CHASSIS_SPECULATIVE_MARGIN, WheelPlacement, insert_vehicle, spawn_vehicle, spawn_vehicle_with,
};
use wheelcollider_core::WheelInput;
use wheelcollider_core::vehicle::WheelFeedback;
pub use wheelcollider_core::vehicle::{
    AeroSettings, AirControlSettings, AntiFlipSettings, AssistSettings, AxleSettings, AxleSuspension, BrakeSettings,
    ChassisSettings, ClutchSettings, DifferentialKind, DriverInput, EngineLayout, EngineSettings, GearboxSettings,
    HitchKind, HitchSettings, PowertrainReport, RiderSettings, SteeringSettings, TrailerBrakes, TrailerSettings,
    TwoWheelerSettings, VEHICLE_FLOATS, VehiclePart, VehicleSettings, VehicleSettingsError, VehicleState,
    YawStabilitySettings,
};

/// The driver's controls for one vehicle: write it from game code, an AI, or the
/// optional keyboard / gamepad plugin. See [`wheelcollider_core::vehicle::DriverInput`]
/// for the fields (throttle, brake, steer, handbrake, clutch, gear up / down).
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq, Deref, DerefMut)]
#[reflect(Component)]
pub struct VehicleInput(pub wheelcollider_core::vehicle::DriverInput);

/// A vehicle: put it on the chassis rigid body (usually through [`spawn_vehicle`]).
/// Its wheels are the chassis' [`WheelCollider`](crate::WheelCollider) children that carry a
/// [`VehicleWheel`]. Edit the settings at run time (the inspector does): the change is
/// validated, and a settings with a non-finite number is refused (logged) and the last good
/// one kept.
#[derive(Component, Reflect, Clone, Debug, Default, PartialEq)]
#[reflect(Component)]
#[require(
    VehicleInput,
    VehicleTelemetry,
    VehicleRuntime,
    crate::wheel::WheelDriveline,
    crate::wheel::ChassisForces
)]
pub struct Vehicle(pub VehicleSettings);

/// Which wheel of the vehicle this is: axle index (front first) and side.
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq, Eq)]
#[reflect(Component)]
pub struct VehicleWheel {
    /// Axle index in [`VehicleSettings::axles`].
    pub axle: usize,
    /// Right-hand wheel (+X); otherwise left.
    pub right: bool,
}

/// The vehicle's runtime state (engine speed, gear, differentials…) and its buffers.
///
/// Two runtimes are equal when their state and settings are (the buffers are rebuilt
/// every step): what a prediction library compares between a predicted and a
/// confirmed car. Its wheel entities are mapped between worlds ([`MapEntities`]).
#[derive(Component, Reflect, Clone, Debug, Default, MapEntities)]
#[reflect(Component)]
pub struct VehicleRuntime {
    /// The powertrain and steering state.
    pub state: Option<VehicleState>,
    /// The last settings that validated: what the vehicle actually runs.
    pub settings: Option<VehicleSettings>,
    #[reflect(ignore)]
    feedback: Vec<WheelFeedback>,
    #[reflect(ignore)]
    inputs: Vec<WheelInput>,
    #[reflect(ignore)]
    #[entities]
    entities: Vec<Option<Entity>>,
}

impl PartialEq for VehicleRuntime {
    fn eq(&self, other: &Self) -> bool {
        self.state == other.state && self.settings == other.settings
    }
}

/// What the vehicle did in its last physics step, for HUDs, plots and game logic.
/// Per-wheel values (load, slips, forces) are in each wheel's [`WheelOutput`](crate::WheelOutput).
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
    /// Wheels (two per axle, one on a [`single`](wheelcollider_core::vehicle::AxleSettings::single) axle).
    pub wheels: u32,
    #[reflect(ignore)]
    last_velocity: Vec3,
}
