//! The [`VehiclePlugin`]: the vehicle components and systems, ordered around the
//! wheel systems.

use avian3d::prelude::*;
use bevy::prelude::*;

use super::{
    Vehicle, VehicleInput, VehicleRuntime, VehicleTelemetry, VehicleWheel, body, events, reset, systems, towing,
};
use crate::wheel::WheelSystems;

/// The vehicle systems' sets in avian's `PhysicsSchedule`.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VehicleSystems {
    /// A changed [`Vehicle`] settings validated and pushed to its body and wheels; before
    /// [`WheelSystems::Prepare`].
    Sync,
    /// One vehicle step per chassis: [`VehicleInput`] and the wheels' last outputs in,
    /// each wheel's `WheelInput` out. After [`WheelSystems::Prepare`] and any replay,
    /// before [`WheelSystems::SenseAndSolve`]. A game's own driver that writes
    /// `VehicleInput` from physics state goes before it.
    Drive,
    /// The body-level parts (`vehicle/body/`): aerodynamic drag and downforce, and the
    /// body assists (anti-flip, air control), adding to the chassis' force channel in
    /// [`WheelSystems::Body`], before [`WheelSystems::Apply`].
    Body,
}

/// The vehicle layer: engine, clutch, gearbox, differentials, brakes, steering, anti-roll
/// bars and aerodynamics on chassis with a [`Vehicle`], and the [`ResetVehicle`](super::ResetVehicle)
/// event. Needs the [`WheelPlugin`](crate::WheelPlugin). Part of
/// [`WheelColliderPlugins`](crate::WheelColliderPlugins).
#[derive(Default)]
pub struct VehiclePlugin;

impl Plugin for VehiclePlugin {
    fn build(&self, app: &mut App) {
        app.register_type::<Vehicle>()
            .register_type::<VehicleInput>()
            .register_type::<VehicleWheel>()
            .register_type::<VehicleTelemetry>()
            .register_type::<VehicleRuntime>()
            .register_type::<events::GearState>()
            .add_message::<events::GearChanged>()
            .register_type::<towing::Coupled>()
            .register_type::<towing::HitchJoint>()
            .register_type::<towing::TrailerStand>()
            .register_type::<towing::HitchTelemetry>()
            .add_message::<towing::TrailerCoupled>()
            .add_message::<towing::TrailerUncoupled>()
            .add_message::<towing::Jackknifed>()
            .add_message::<towing::CouplingRefused>()
            .add_observer(reset::reset_vehicle)
            .add_observer(towing::drop_joints)
            .configure_sets(
                PhysicsSchedule,
                (
                    VehicleSystems::Sync
                        .after(PhysicsStepSystems::BroadPhase)
                        .before(WheelSystems::Prepare),
                    VehicleSystems::Drive
                        .after(WheelSystems::Prepare)
                        .before(WheelSystems::SenseAndSolve),
                    VehicleSystems::Body.in_set(WheelSystems::Body),
                ),
            )
            .add_systems(
                PhysicsSchedule,
                (
                    (systems::sync_vehicles, towing::place_stands)
                        .chain()
                        .in_set(VehicleSystems::Sync),
                    (
                        towing::tow_trailers,
                        systems::drive_vehicles,
                        systems::ask_lean,
                        systems::shift_weight,
                    )
                        .chain()
                        .in_set(VehicleSystems::Drive),
                    events::gear_events.in_set(WheelSystems::Events),
                    (body::aero::apply_aero, body::assists::apply_body_assists)
                        .chain()
                        .in_set(VehicleSystems::Body),
                ),
            );
        // Presets as assets, where the game has an asset server.
        #[cfg(feature = "serialize")]
        if app.is_plugin_added::<bevy::asset::AssetPlugin>() {
            use super::preset;
            app.register_type::<preset::VehicleFromPreset>()
                .init_asset::<preset::VehiclePreset>()
                .init_asset_loader::<preset::VehiclePresetLoader>()
                .add_systems(PreUpdate, preset::follow_presets);
            preset::embed_presets(app);
        }
    }
}
