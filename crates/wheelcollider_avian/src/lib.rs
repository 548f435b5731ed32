//! # wheelcollider_avian
//!
//! Wheels on a real rigid body: the [`WheelColliderPlugin`] for Bevy on avian3d. A
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
//!     WheelColliderPlugin,
//! ))
//! .add_systems(Startup, spawn_car);
//! app.update();
//! ```
//!
//! ## Schedule
//!
//! | where | system | why |
//! | --- | --- | --- |
//! | avian `PhysicsSchedule`, [`WheelSystems::Prepare`] | validate changed settings | a value written around the setters never reaches the model |
//! | [`WheelSystems::SenseAndSolve`] (parallel per chassis) | per chassis: are moving colliders in reach; per wheel: sweep, contact, wheel model; the sums of the forces | the costly part; each task writes only its chassis' wheels |
//! | [`WheelSystems::Apply`] (serial) | each chassis' force sums to its body, then the opposite forces to dynamic ground bodies | a body is written once; ≈ 30 µs per 1 000 chassis |
//! | `PostUpdate`, before transform propagation | place [`WheelModel`]s | interpolated between steps |
//!
//! The sets are chained after avian's broad phase and before its narrow phase: the
//! collider trees the sweeps query are up to date by then (a collider spawned or moved
//! this frame is where its `Transform` says, not at the origin), and the forces still act
//! in the same step's solver. Avian does not run the schedule while physics is paused,
//! so neither do the wheels.
#![warn(missing_docs)]

pub mod components;
mod contact;
#[cfg(feature = "debug")]
pub mod debug;
#[cfg(feature = "input")]
pub mod input;
pub mod replay;
mod suspension;
mod sweep;
mod systems;
pub mod vehicle;

use avian3d::prelude::*;
use bevy::prelude::*;
use bevy::transform::TransformSystems;

pub use components::*;

/// Everything a game needs: the plugin, the components, and the core's settings types.
pub mod prelude {
    pub use crate::components::{
        AntiRollBar, ChassisWheels, WheelChassis, WheelCollider, WheelHit, WheelInput, WheelModel, WheelOf, WheelState,
        WheelSweepLayers,
    };
    #[cfg(feature = "debug")]
    pub use crate::debug::{WheelDebugPlugin, WheelGizmos};
    #[cfg(feature = "input")]
    pub use crate::input::{PlayerVehicle, VehicleInputPlugin, VehicleInputSystems};
    pub use crate::vehicle::{
        AeroSpec, AxleSpec, BrakeSpec, ChassisSpec, ClutchSpec, DifferentialKind, EngineSpec, GearboxSpec, SpecError,
        SteeringSpec, Vehicle, VehicleInput, VehicleSpec, VehicleTelemetry, VehicleWheel, WheelPlacement, WheelSurface,
        spawn_vehicle, spawn_vehicle_with,
    };
    pub use crate::{WheelColliderPlugin, WheelSystems};
    pub use wheelcollider_core::{MagicFormula, SettingsError, SuspensionForceDirection, SweepType, WheelSettings};
}

/// The wheel systems' sets in avian's `PhysicsSchedule`, chained in this order.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WheelSystems {
    /// Settings validation; vehicle controllers that write [`WheelInput`] from physics
    /// state go here too.
    Prepare,
    /// Sweeps and the wheel model, in parallel over chassis (each task steps one
    /// chassis' wheels).
    SenseAndSolve,
    /// Force application: each chassis' sums, then the opposite forces to dynamic
    /// ground (serial).
    Apply,
}

/// Adds the wheel systems. Requires avian's `PhysicsPlugins`.
#[derive(Default)]
pub struct WheelColliderPlugin;

impl Plugin for WheelColliderPlugin {
    fn build(&self, app: &mut App) {
        app.register_type::<WheelCollider>()
            .register_type::<WheelInput>()
            .register_type::<WheelState>()
            .register_type::<WheelOf>()
            .register_type::<ChassisWheels>()
            .register_type::<WheelChassis>()
            .register_type::<WheelModel>()
            .register_type::<WheelSweepLayers>()
            .register_type::<AntiRollBar>()
            .register_type::<vehicle::Vehicle>()
            .register_type::<vehicle::VehicleInput>()
            .register_type::<vehicle::VehicleWheel>()
            .register_type::<vehicle::VehicleTelemetry>()
            .register_type::<vehicle::VehicleRuntime>()
            .register_type::<vehicle::WheelSurface>()
            .add_observer(systems::attach_wheel)
            .add_observer(systems::attach_reparented_wheel)
            .configure_sets(
                PhysicsSchedule,
                (WheelSystems::Prepare, WheelSystems::SenseAndSolve, WheelSystems::Apply)
                    .chain()
                    .after(PhysicsStepSystems::BroadPhase)
                    .before(PhysicsStepSystems::NarrowPhase),
            )
            .add_systems(
                PhysicsSchedule,
                (
                    (
                        vehicle::sync_vehicles,
                        systems::validate_settings,
                        replay::replay_inputs,
                        replay::record_inputs,
                        vehicle::drive_vehicles,
                    )
                        .chain()
                        .in_set(WheelSystems::Prepare),
                    systems::step_wheels.in_set(WheelSystems::SenseAndSolve),
                    (systems::apply_forces, vehicle::apply_aero)
                        .chain()
                        .in_set(WheelSystems::Apply),
                ),
            )
            .add_systems(PostUpdate, systems::place_models.before(TransformSystems::Propagate));
    }
}
