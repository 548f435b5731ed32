//! # wheelcollider_avian
//!
//! Wheels on a real rigid body: the [`WheelColliderPlugins`] for Bevy on avian3d. A
//! wheel is an entity under a dynamic rigid body with a [`WheelCollider`]; each physics
//! step it sweeps the ground (ray, sphere or cylinder), runs the wheel model of
//! [`wheelcollider_core`], and applies suspension and tyre forces to the body at the
//! contact (and the opposite force to a dynamic body it stands on).
//!
//! ```
//! use avian3d::prelude::*;
//! use bevy::prelude::*;
//! use wheelcollider_avian::prelude::*;
//!
//! fn spawn_car(mut commands: Commands) {
//!     commands.spawn((
//!         RigidBody::Dynamic,
//!         Collider::cuboid(1.6, 0.4, 4.0),
//!         Mass(1200.0),
//!         Transform::from_xyz(0.0, 1.0, 0.0),
//!         children![
//!             (WheelCollider::default(), Transform::from_xyz(-0.8, -0.2, -1.3)),
//!             (WheelCollider::default(), Transform::from_xyz(0.8, -0.2, -1.3)),
//!             (WheelCollider::default(), Transform::from_xyz(-0.8, -0.2, 1.3)),
//!             (WheelCollider::default(), Transform::from_xyz(0.8, -0.2, 1.3)),
//!         ],
//!     ));
//! }
//!
//! let mut app = App::new();
//! app.add_plugins((
//!     MinimalPlugins,
//!     TransformPlugin,
//!     bevy::asset::AssetPlugin::default(),
//!     PhysicsPlugins::default(),
//!     WheelColliderPlugins,
//! ))
//! .add_systems(Startup, spawn_car);
//! app.update();
//! ```
//!
//! ## Plugins and schedule
//!
//! [`WheelColliderPlugins`] adds the layers below; add them one by one to take only
//! the wheels (`WheelPlugin`), or leave out record and replay.
//!
//! | plugin | what | sets |
//! | --- | --- | --- |
//! | [`WheelPlugin`] | wheels on any rigid body: sweeps, suspension, tyre, forces, visuals | [`WheelSystems`], [`WheelVisualSystems`] |
//! | [`TwoWheelerPlugin`] | a two-wheeler's steering head and rider | in [`WheelSystems`] |
//! | [`VehiclePlugin`] | engine … aero on chassis with a [`Vehicle`](vehicle::Vehicle); [`ResetVehicle`](vehicle::ResetVehicle) | [`VehicleSystems`](vehicle::VehicleSystems) |
//! | [`ReplayPlugin`] | record and replay drives | [`ReplaySystems`](replay::ReplaySystems) |
//! | `WheelDebugPlugin` (feature `debug`) | gizmos | `WheelVisualSystems::Gizmos` |
//! | `VehicleInputPlugin` (feature `input`) | keyboard and gamepad | `VehicleInputSystems` (`PreUpdate`) |
//!
//! One physics step, in avian's `PhysicsSchedule`, after its broad phase and before its
//! narrow phase (the collider trees the sweeps query are up to date by then, and the
//! forces still act in the same step's solver):
//!
//! | order | set | systems |
//! | --- | --- | --- |
//! | `PreUpdate` | `VehicleInputSystems` (feature `input`) | keyboard and gamepad → [`DriverInput`](vehicle::DriverInput) |
//! | `PreUpdate` | (feature `serialize`, with an asset server) | a `VehicleFromPreset`'s preset loaded or reloaded → its `Vehicle` |
//! | 1 | `VehicleSystems::Sync` | a changed settings pushed to body and wheels; a parked trailer's stand placed |
//! | 2 | [`WheelSystems::Prepare`] | changed wheel settings validated |
//! | 3 | `ReplaySystems` | replayed input written, then recorded |
//! | 4 | `VehicleSystems::Drive` | each trailer's hitch read (brakes, telemetry, a break, a jackknife), then one vehicle step per chassis → each wheel's [`WheelInput`] |
//! | 5 | [`WheelSystems::SenseAndSolve`] | per chassis in parallel: sweep, contact, suspension solve, wheel model, driveline, force sums into the chassis' force channel |
//! | 6 | [`WheelSystems::Body`] (`VehicleSystems::Body`) | body-level parts add to each chassis' [`ChassisForces`]: drag and downforce, the assists; a two-wheeler's [`Rider`](two_wheeler::Rider) turns its handlebar |
//! | 7 | [`WheelSystems::Apply`] | each [`SteeringHead`](two_wheeler::SteeringHead) turns (it reads the whole channel and adds its reaction); each chassis' force channel to its body in one write, opposite forces to dynamic ground (serial) |
//! | 8 | [`WheelSystems::Events`] | contact, skid, surface, landing and gear events, `WheelEffects` (their commands at the schedule's end) |
//! | `PostUpdate` | [`WheelVisualSystems::PlaceModels`] | [`WheelModel`]s placed, interpolated between steps |
//! | `PostUpdate` | `WheelVisualSystems::Gizmos` (feature `debug`) | the wheels' gizmos |
//!
//! Avian does not run the schedule while physics is paused, so neither do the wheels.
//! Give `PhysicsPlugins::new` a rollback library's schedule and the wheels step in it;
//! [`rollback::visit_rollback_state`] lists what the library must save.
//! `docs/architecture.md` walks the data path file by file.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![warn(missing_docs)]

// The crate's README (its crates.io page) is compiled as a doc-test, so it cannot rot.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

#[cfg(feature = "debug")]
pub mod debug;
pub mod drivers;
pub mod replay;
pub mod rollback;
pub mod two_wheeler;
pub mod vehicle;
pub mod wheel;

use bevy::app::{PluginGroup, PluginGroupBuilder};

pub use replay::ReplayPlugin;
pub use two_wheeler::TwoWheelerPlugin;
pub use vehicle::VehiclePlugin;
pub use wheel::components::*;
pub use wheel::{SurfaceMaterial, WheelPlugin, WheelSurface, WheelSystems, WheelVisualSystems};

/// Everything a game needs: the plugin, the components, and the core's settings types.
pub mod prelude {
    #[cfg(feature = "debug")]
    pub use crate::debug::{WheelDebugPlugin, WheelGizmos};
    #[cfg(feature = "input")]
    pub use crate::drivers::input::{PlayerVehicle, VehicleInputPlugin, VehicleInputSystems};
    pub use crate::drivers::{PathEnd, VehicleDriver, VehicleDriverPlugin, VehicleDriverSystems};
    pub use crate::replay::ReplaySystems;
    pub use crate::replay::{DriveRecorder, DriveRecording, DriveReplay};
    pub use crate::two_wheeler::{Rider, SteeringHead};
    pub use crate::vehicle::towing::{
        Coupled, HitchTelemetry, Jackknifed, TrailerCoupled, TrailerUncoupled, couple_trailer, hitched_transform,
        uncouple_trailer,
    };
    pub use crate::vehicle::{
        AeroSettings, AirControlSettings, AntiFlipSettings, AssistSettings, AxleSettings, AxleSuspension,
        BrakeSettings, ChassisSettings, ClutchSettings, DifferentialKind, DriverInput, EngineLayout, EngineSettings,
        GearChanged, GearboxSettings, HitchKind, HitchSettings, ResetVehicle, SteeringSettings, TrailerBrakes,
        TrailerSettings, Vehicle, VehicleInput, VehicleSettings, VehicleSettingsError, VehicleSystems,
        VehicleTelemetry, VehicleWheel, WheelPlacement, YawStabilitySettings, insert_vehicle, spawn_vehicle,
        spawn_vehicle_with,
    };
    #[cfg(feature = "serialize")]
    pub use crate::vehicle::{EMBEDDED_PRESETS, VehicleFromPreset, VehiclePreset};
    pub use crate::wheel::{
        AntiRollBar, ChassisForces, ChassisState, ChassisWheels, ContactPatch, FitTyres, Landed, MarkWheelsWith,
        PunctureTyre, SkidEnded, SkidStarted, SurfaceChanged, SurfaceMaterial, Weather, WheelCollider,
        WheelContactEnded, WheelContactStarted, WheelDriveline, WheelEffects, WheelEventsEnabled, WheelHit, WheelInput,
        WheelModel, WheelOf, WheelOutput, WheelState, WheelSurface, WheelSweepLayers,
    };
    pub use crate::{
        ReplayPlugin, TwoWheelerPlugin, VehiclePlugin, WheelColliderPlugins, WheelPlugin, WheelSystems,
        WheelVisualSystems,
    };
    pub use wheelcollider_core::{
        CompoundBase, MagicFormula, Row, SettingGroup, SettingsError, SuspensionForceDirection, SweepType,
        TyreCompound, TyreCurve, TyreReading, WheelSettings,
    };
}

/// The whole plugin: [`WheelPlugin`], [`TwoWheelerPlugin`], [`VehiclePlugin`],
/// [`ReplayPlugin`] and the robot driver's
/// [`VehicleDriverPlugin`](crate::drivers::VehicleDriverPlugin). Requires
/// avian's `PhysicsPlugins`. The gizmos (`WheelDebugPlugin`, feature `debug`; it needs
/// Bevy's gizmo plugin) and the keyboard and gamepad (`VehicleInputPlugin`, feature
/// `input`) are not in the group: add them where a game has a window.
#[derive(Default)]
pub struct WheelColliderPlugins;

impl PluginGroup for WheelColliderPlugins {
    fn build(self) -> PluginGroupBuilder {
        PluginGroupBuilder::start::<Self>()
            .add(WheelPlugin)
            .add(TwoWheelerPlugin)
            .add(VehiclePlugin)
            .add(ReplayPlugin)
            .add(crate::drivers::VehicleDriverPlugin)
    }
}
