//! What a rollback library must save and restore, as one list: [`visit_rollback_state`]
//! calls a [`RollbackRegistry`] once per component and resource, so that a game
//! registers them with its library (bevy_ggrs, lightyear, its own snapshots) in a few
//! lines and never keeps a copy of the list that could fall behind the plugin.
//!
//! ```
//! use bevy::ecs::component::Mutable;
//! use bevy::prelude::*;
//! use wheelcollider_avian::rollback::{RollbackRegistry, StateRole, visit_rollback_state};
//!
//! /// Counts what a rollback library would register.
//! #[derive(Default)]
//! struct Count { components: usize, resources: usize }
//!
//! impl RollbackRegistry for Count {
//!     fn component<C>(&mut self, _role: StateRole)
//!     where
//!         C: Component<Mutability = Mutable> + Clone + PartialEq + std::fmt::Debug,
//!     {
//!         self.components += 1;
//!     }
//!     fn resource<R: Resource<Mutability = Mutable> + Clone>(&mut self) {
//!         self.resources += 1;
//!     }
//! }
//!
//! let mut count = Count::default();
//! visit_rollback_state(&mut count);
//! assert_eq!((count.components, count.resources), (29, 8));
//! ```
//!
//! With bevy_ggrs, `component` calls `app.rollback_component_with_clone::<C>()` and
//! `resource` calls `app.rollback_resource_with_clone::<R>()`: see
//! `examples/rollback.rs` and `docs/plugin.md` ("Multiplayer"), where the
//! table says what each entry is for and what goes wrong without it.
use crate::drivers::VehicleDriver;
use crate::two_wheeler::{Rider, SteeringHead};
use crate::vehicle::towing::{Coupled, HitchTelemetry};
use crate::vehicle::{GearState, VehicleInput, VehicleRuntime, VehicleTelemetry};
use crate::wheel::{ChassisState, LandingState, WheelEffects, WheelInput, WheelOutput, WheelState};
use avian3d::collider_tree::{ColliderTreeProxyKey, ColliderTrees, MovedProxies};
use avian3d::collision::collider::EnlargedAabb;
use avian3d::dynamics::solver::constraint_graph::ConstraintGraph;
use avian3d::dynamics::solver::islands::{BodyIslandNode, PhysicsIslands};
use avian3d::dynamics::solver::joint_graph::JointGraph;
use avian3d::prelude::*;
use bevy::ecs::component::Mutable;
use bevy::prelude::*;

/// Why an entry is in the list: which part of a game goes wrong without it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StateRole {
    /// The simulation: without it a resimulated step differs from the first (a desync).
    Simulation,
    /// The controls: not needed when the game writes them every rollback frame from the
    /// library's inputs (as it should); needed when a game sets them once and leaves them.
    Controls,
    /// What is drawn and when events fire (the pose's `Transform`, telemetry, skid and
    /// landing filters): the simulation does not read them, but without them a rollback
    /// shows and reports stale values.
    Presentation,
    /// Avian's contact and island state: needed as soon as a body touches anything (a
    /// kerb, a ramp's edge, a wall, another car); restored together, never one alone.
    Contacts,
    /// Avian's broad phase: each collider's bounding boxes and its place in the collider
    /// trees, which decide the pairs the next step tests; restored with the trees.
    BroadPhase,
    /// Avian's sleep: whether a body sleeps and how long it has been still.
    Sleep,
}

/// A rollback library's registration, called once per entry by [`visit_rollback_state`].
pub trait RollbackRegistry {
    /// A component to save and restore on the entities the library rolls back (the
    /// chassis, its wheels, and any other dynamic body for the avian entries).
    /// `PartialEq` lets a library compare a restored value with its history (lightyear
    /// rolls back when the server's differs from the predicted).
    fn component<C>(&mut self, role: StateRole)
    where
        C: Component<Mutability = Mutable> + Clone + PartialEq + std::fmt::Debug;
    /// A resource to save and restore (avian's contact state, [`StateRole::Contacts`]).
    fn resource<R: Resource<Mutability = Mutable> + Clone>(&mut self);
}

/// The name an entry of [`visit_rollback_state`] goes by: its type's name without its
/// paths (`WheelState`, `Time<Physics>`), as the tables in `docs/plugin.md`, the
/// `rollback` example's `--leave-out` and `wheelcollider_lightyear` write it. Made once
/// per call (the string is leaked): call it at registration, not every frame.
pub fn short_type_name<T>() -> &'static str {
    let mut out = String::new();
    for part in core::any::type_name::<T>().split_inclusive(['<', '>', ',', ' ']) {
        out.push_str(part.rsplit("::").next().unwrap_or(part));
    }
    Box::leak(out.into_boxed_str())
}

/// Visits everything the plugin and avian carry from one physics step to the next, for a
/// game with vehicles and wheels; the order is fixed. Guarded by
/// `tests/it/state/rollback.rs` (restored, 100 steps replay bit for bit) and by the
/// `rollback` example (bevy_ggrs' sync test with every entry; `--leave-out` shows
/// which are needed).
pub fn visit_rollback_state(r: &mut impl RollbackRegistry) {
    use StateRole::*;
    // The body.
    r.component::<Position>(Simulation);
    r.component::<Rotation>(Simulation);
    r.component::<LinearVelocity>(Simulation);
    r.component::<AngularVelocity>(Simulation);
    r.component::<Transform>(Presentation);
    // The wheels' and the vehicle's carried state.
    r.component::<ChassisState>(Simulation);
    r.component::<WheelState>(Simulation);
    r.component::<WheelOutput>(Simulation);
    r.component::<VehicleRuntime>(Simulation);
    // A two-wheeler's steering head (its angle and rate) and rider (the lean error's
    // integral).
    r.component::<SteeringHead>(Simulation);
    r.component::<Rider>(Simulation);
    // The centre of mass, which a two-wheeler's rider's weight shift moves
    // (`shift_weight`; avian's computed one follows at the next step's start).
    r.component::<CenterOfMass>(Simulation);
    r.component::<ComputedCenterOfMass>(Simulation);
    // Towing: the coupling, the hitch's force of the last step (the next step's brakes
    // read it, on the joints' entities) and the hitch's report.
    r.component::<Coupled>(Simulation);
    r.component::<JointForces>(Simulation);
    r.component::<HitchTelemetry>(Presentation);
    r.component::<VehicleInput>(Controls);
    // A robot driver's place on its path and its plan: the controls it writes next.
    r.component::<VehicleDriver>(Controls);
    r.component::<WheelInput>(Controls);
    r.component::<VehicleTelemetry>(Presentation);
    r.component::<WheelEffects>(Presentation);
    r.component::<LandingState>(Presentation);
    r.component::<GearState>(Presentation);
    // Avian's contacts, joints, islands and sleep.
    r.resource::<ContactGraph>();
    r.resource::<ConstraintGraph>();
    r.resource::<JointGraph>();
    r.resource::<PhysicsIslands>();
    r.component::<BodyIslandNode>(Contacts);
    r.component::<SleepTimer>(Sleep);
    r.component::<Sleeping>(Sleep);
    // Avian's broad phase and its clock.
    r.resource::<ColliderTrees>();
    r.resource::<MovedProxies>();
    r.component::<ColliderAabb>(BroadPhase);
    r.component::<EnlargedAabb>(BroadPhase);
    r.component::<ColliderTreeProxyKey>(BroadPhase);
    r.resource::<Time<Physics>>();
    r.resource::<Time<Substeps>>();
}
