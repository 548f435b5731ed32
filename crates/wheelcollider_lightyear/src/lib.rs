//! Client-server multiplayer for wheelcollider vehicles on
//! [lightyear](https://github.com/cBournhonesque/lightyear) 0.30: the server simulates every
//! car, each client predicts its own and rolls it back, wheels and all, when the server's
//! state differs.
//!
//! # What the plugin does
//!
//! [`WheelColliderLightyearPlugin`] (add it after lightyear's `ClientPlugins` or
//! `ServerPlugins`, the protocol and `LightyearAvianPlugin`, on both sides):
//!
//! - registers for lightyear's local rollback everything the wheels and the vehicle carry
//!   from one physics step to the next, from the plugin's own list
//!   ([`wheelcollider_avian::rollback::visit_rollback_state`]), less what lightyear's avian
//!   plugin already rolls back ([`COVERED_BY_LIGHTYEAR_AVIAN`]);
//! - marks the wheels of a predicted chassis with [`DeterministicPredicted`] (skipping
//!   despawn), so their state is saved every tick and restored in a rollback.
//!
//! # Why `DeterministicPredicted` on the wheels, not `Predicted`
//!
//! The wheels are not replicated: each peer spawns them itself with
//! [`insert_vehicle`](wheelcollider_avian::prelude::insert_vehicle) (the vehicle's settings
//! are the game's data, not the network's), and only the chassis' body state crosses the
//! link. lightyear's [`Predicted`] marks an entity whose components have a confirmed
//! (server) history to compare with; a wheel has none, so lightyear documents
//! [`DeterministicPredicted`] for "predicted non-networked entities": it keeps the wheel's
//! history and restores it in every rollback the chassis triggers, without checking it
//! against a server value. `skip_despawn` is on: a rollback despawns the
//! `DeterministicPredicted` entities spawned after its tick, and the wheels are spawned
//! once, when the chassis arrives, not by an input a rollback would replay.
//!
//! # Spawning a replicated car
//!
//! On the server, the chassis gets the vehicle and lightyear's replication:
//!
//! ```ignore
//! let car = commands.spawn((Replicate::to_clients(NetworkTarget::All),
//!     PredictionTarget::to_clients(NetworkTarget::Single(owner)),
//!     InterpolationTarget::to_clients(NetworkTarget::AllExceptSingle(owner)),
//!     ControlledBy { owner: link, lifetime: default() },
//!     DisableReplicateHierarchy, /* the game's own marker, e.g. which preset */)).id();
//! insert_vehicle(&mut commands, car, &settings, pose);
//! ```
//!
//! `DisableReplicateHierarchy` keeps the wheels (children of the chassis) off the link. On
//! the owning client, when the chassis arrives with [`Predicted`], the game calls
//! `insert_vehicle` on it with the same settings: the body, its collider and its wheels.
//! A car another client drives arrives `Interpolated`: draw it from its `Position` and
//! `Rotation` and give it no rigid body (lightyear's avian notes: an interpolated entity
//! must not be simulated).
//!
//! # What lightyear replicates of avian
//!
//! `LightyearAvianPlugin` in `AvianReplicationMode::Position` replicates and predicts
//! `Position`, `Rotation`, `LinearVelocity` and `AngularVelocity` of rigid bodies; with
//! `rollback_resources: true` (which this plugin expects) it also rolls back avian's
//! contact, constraint and joint graphs, its broad phase (collider trees, moved proxies,
//! each collider's boxes and proxy key), its clocks, its islands and sleep. This plugin
//! adds the rest of the plugin's list: the wheels' and the vehicle's state and the joints'
//! forces (a hitch's).
//!
//! # What a client must not do
//!
//! Write a predicted car's `Position`, `Rotation` or velocities outside the fixed step
//! (lightyear restores them before the fixed loop and replays the fixed step in a
//! rollback: a write in `Update` is lost or, worse, replayed), or drive its
//! `VehicleInput` from anything but lightyear's input (`ActionState`) in the fixed step:
//! a rollback replays the fixed step with the inputs of each tick it replays.
//!
//! `docs/plugin.md` ("Client-server on lightyear") has the corrections and costs the
//! `lightyear` example reports, running a server and two clients.
#![warn(missing_docs)]

/// The lightyear this crate is built on (0.30.1), for a game to use the same one.
pub use lightyear;

use bevy::ecs::component::Mutable;
use bevy::prelude::*;
use lightyear::prelude::*;
use wheelcollider_avian::prelude::{ChassisWheels, WheelOf};
use wheelcollider_avian::rollback::{RollbackRegistry, StateRole, short_type_name, visit_rollback_state};

/// The entries of the plugin's rollback list that lightyear's avian plugin
/// (`LightyearAvianPlugin` in position mode with `rollback_resources: true`, with avian's
/// island and sleeping plugins) already saves and restores; registering them twice would
/// save them twice. `Transform` is lightyear's too: it writes it from `Position` and
/// `Rotation` after the fixed loop (and frame-interpolates it).
pub const COVERED_BY_LIGHTYEAR_AVIAN: &[&str] = &[
    "Position",
    "Rotation",
    "LinearVelocity",
    "AngularVelocity",
    "Transform",
    "ContactGraph",
    "ConstraintGraph",
    "JointGraph",
    "ColliderTrees",
    "MovedProxies",
    "ColliderAabb",
    "EnlargedAabb",
    "ColliderTreeProxyKey",
    "Time<Physics>",
    "Time<Substeps>",
    "PhysicsIslands",
    "BodyIslandNode",
    "SleepTimer",
    "Sleeping",
];

/// Rolls back the wheels' and the vehicle's state with lightyear's prediction (see the
/// crate's docs). Add it on the server too: there it registers nothing (lightyear's
/// registration needs the client's prediction plugin) and the protocol stays the same
/// on both sides.
pub struct WheelColliderLightyearPlugin;

impl Plugin for WheelColliderLightyearPlugin {
    fn build(&self, app: &mut App) {
        let mut registration = LocalRollback {
            app,
            registered: Vec::new(),
        };
        visit_rollback_state(&mut registration);
        let registered = registration.registered;
        app.insert_resource(RolledBack(registered));
        app.add_observer(mark_wheels_of_predicted_chassis);
        app.add_observer(mark_wheel_joining_predicted_chassis);
    }
}

/// The names ([`short_type_name`], as [`COVERED_BY_LIGHTYEAR_AVIAN`] writes them) of the entries this plugin
/// registered for local rollback, in the list's order.
#[derive(Resource, Clone, Debug, Default)]
pub struct RolledBack(pub Vec<&'static str>);

/// The registration: every entry lightyear's avian plugin does not cover.
struct LocalRollback<'a> {
    app: &'a mut App,
    registered: Vec<&'static str>,
}

impl LocalRollback<'_> {
    /// Whether lightyear's prediction is in the app (the client) and the entry is not
    /// lightyear's avian plugin's.
    fn takes<T: 'static>(&self) -> Option<&'static str> {
        let name = short_type_name::<T>();
        let prediction = self.app.world().contains_resource::<PredictionRegistry>();
        (prediction && !COVERED_BY_LIGHTYEAR_AVIAN.contains(&name)).then_some(name)
    }
}

impl RollbackRegistry for LocalRollback<'_> {
    fn component<C>(&mut self, _role: StateRole)
    where
        C: Component<Mutability = Mutable> + Clone + PartialEq + core::fmt::Debug,
    {
        if let Some(name) = self.takes::<C>() {
            self.app.local_rollback::<C>();
            self.registered.push(name);
        }
    }

    fn resource<R: Resource<Mutability = Mutable> + Clone>(&mut self) {
        if let Some(name) = self.takes::<R>() {
            self.app.resource::<R>().local_rollback();
            self.registered.push(name);
        }
    }
}

/// The marker the wheels of a predicted chassis get (see the crate's docs).
fn wheel_marker() -> DeterministicPredicted {
    DeterministicPredicted {
        skip_despawn: true,
        ..default()
    }
}

/// A chassis becomes predicted: its wheels are marked.
fn mark_wheels_of_predicted_chassis(add: On<Add, Predicted>, mut commands: Commands, chassis: Query<&ChassisWheels>) {
    if let Ok(wheels) = chassis.get(add.entity) {
        for &wheel in wheels.wheels() {
            commands.entity(wheel).insert(wheel_marker());
        }
    }
}

/// A wheel joins a predicted chassis (the usual order: the chassis arrives predicted,
/// then the game inserts the vehicle): it is marked.
fn mark_wheel_joining_predicted_chassis(
    insert: On<Insert, WheelOf>,
    mut commands: Commands,
    wheels: Query<&WheelOf>,
    chassis: Query<(), With<Predicted>>,
) {
    if let Ok(of) = wheels.get(insert.entity)
        && chassis.contains(of.0)
    {
        commands.entity(insert.entity).insert(wheel_marker());
    }
}
