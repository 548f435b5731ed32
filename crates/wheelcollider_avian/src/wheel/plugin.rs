//! The [`WheelPlugin`]: the wheel components, the observers that attach wheels, and the
//! wheel systems in avian's `PhysicsSchedule` and Bevy's `PostUpdate`.

use avian3d::prelude::*;
use bevy::prelude::*;
use bevy::transform::TransformSystems;

use super::components::*;
use super::events::*;
use super::surface::WheelSurface;
use super::{apply, attach, step, visuals};

/// The wheel systems' sets in avian's `PhysicsSchedule`, chained in this order after
/// avian's broad phase and before its narrow phase.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WheelSystems {
    /// Settings validation. Controllers that write [`WheelInput`] from physics state go
    /// after it (the vehicle layer's `VehicleSystems::Drive` does).
    Prepare,
    /// Sweeps, contacts, the suspension solve and the wheel model, in parallel over
    /// chassis (each task steps one chassis' wheels).
    SenseAndSolve,
    /// Body-level parts add their forces to each chassis' [`ChassisForces`]: a
    /// vehicle's aerodynamics and assists (`VehicleSystems::Body`), and a game's own (a
    /// hitch, a wing, a parachute), each ordered against the others (a game's
    /// `.after(VehicleSystems::Body)`): the order of the additions fixes the sum's last
    /// bits, and avian's schedule refuses two unordered writers of one component. See
    /// `docs/architecture.md`, "The force channel".
    Body,
    /// Force application: each chassis' [`ChassisForces`] in one write, then the
    /// opposite forces to dynamic ground (serial). A part that must read the whole
    /// channel before it is applied goes first here (a two-wheeler's steering head).
    Apply,
    /// Wheel events and effect data, for wheels and chassis with
    /// [`WheelEventsEnabled`](super::WheelEventsEnabled).
    Events,
}

/// The wheels' systems that run every frame in `PostUpdate`.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WheelVisualSystems {
    /// [`WheelModel`]s placed, before transform propagation.
    PlaceModels,
    /// Debug gizmos (feature `debug`, `WheelDebugPlugin`).
    Gizmos,
}

/// The wheels on their own: components, attachment, the per-step systems and the
/// visuals. Requires avian's `PhysicsPlugins`. Part of
/// [`WheelColliderPlugins`](crate::WheelColliderPlugins).
#[derive(Default)]
pub struct WheelPlugin;

impl Plugin for WheelPlugin {
    fn build(&self, app: &mut App) {
        app.register_type::<WheelCollider>()
            .register_type::<WheelInput>()
            .register_type::<WheelState>()
            .register_type::<WheelOutput>()
            .register_type::<WheelOf>()
            .register_type::<ChassisWheels>()
            .register_type::<WheelModel>()
            .register_type::<WheelSweepLayers>()
            .register_type::<AntiRollBar>()
            .register_type::<WheelSurface>()
            .register_type::<super::surface::Weather>()
            .register_type::<ChassisState>()
            .register_type::<ChassisForces>()
            .register_type::<WheelDriveline>()
            .register_type::<WheelEventsEnabled>()
            .register_type::<WheelEffects>()
            .register_type::<super::events::LandingState>()
            .add_message::<WheelContactStarted>()
            .add_message::<WheelContactEnded>()
            .add_message::<SkidStarted>()
            .add_message::<SkidEnded>()
            .add_message::<SurfaceChanged>()
            .add_message::<Landed>()
            .add_observer(attach::attach_wheel)
            .add_observer(super::tyre::puncture)
            .add_observer(super::tyre::fit_tyres)
            .add_observer(attach::attach_reparented_wheel)
            .configure_sets(
                PhysicsSchedule,
                (
                    WheelSystems::Prepare,
                    WheelSystems::SenseAndSolve,
                    WheelSystems::Body,
                    WheelSystems::Apply,
                )
                    .chain()
                    .after(PhysicsStepSystems::BroadPhase)
                    .before(PhysicsStepSystems::NarrowPhase),
            )
            // The events' commands (first inserts, triggers, messages) are applied at
            // the end of the physics schedule: no sync point inside avian's step.
            .configure_sets(
                PhysicsSchedule,
                WheelSystems::Events
                    .after_ignore_deferred(WheelSystems::Apply)
                    .before_ignore_deferred(PhysicsStepSystems::NarrowPhase),
            )
            .add_systems(
                PhysicsSchedule,
                (
                    attach::validate_settings.in_set(WheelSystems::Prepare),
                    step::step_wheels.in_set(WheelSystems::SenseAndSolve),
                    apply::apply_forces.in_set(WheelSystems::Apply),
                    (wheel_events, landing_events).in_set(WheelSystems::Events),
                ),
            )
            .configure_sets(
                PostUpdate,
                WheelVisualSystems::PlaceModels.before(TransformSystems::Propagate),
            )
            .add_systems(
                PostUpdate,
                visuals::place_models.in_set(WheelVisualSystems::PlaceModels),
            );
    }
}
