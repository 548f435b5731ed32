//! Towing: a trailer coupled to its tow vehicle's hitch.
//!
//! A trailer is a [`Vehicle`](super::Vehicle) whose settings have a
//! [`TrailerSettings`](wheelcollider_core::vehicle::TrailerSettings) when it is built
//! ([`spawn_vehicle`](super::spawn_vehicle) or [`insert_vehicle`](super::insert_vehicle),
//! which give it its stand, [`TrailerStand`]); a tow vehicle's settings have a
//! [`HitchSettings`]. A trailer does not tow. [`couple_trailer`] joins them, [`uncouple_trailer`]
//! parts them; each sends a message and triggers an event for observers
//! ([`TrailerCoupled`], [`TrailerUncoupled`]), as does a hitch that breaks or a trailer
//! that jackknifes ([`Jackknifed`]).
//!
//! ```
//! use bevy::prelude::*;
//! use wheelcollider_avian::prelude::*;
//! use wheelcollider_avian::vehicle::towing::{couple_trailer, hitched_transform};
//!
//! fn setup(mut commands: Commands) {
//!     let car = VehicleSettings::preset("road").unwrap(); // has a tow ball
//!     let caravan = VehicleSettings::preset("caravan").unwrap();
//!     let at = Transform::from_xyz(0.0, car.touch_height(), 0.0);
//!     let tow = spawn_vehicle(&mut commands, &car, at).unwrap();
//!     let behind = hitched_transform(&car, at, &caravan).unwrap();
//!     let trailer = spawn_vehicle(&mut commands, &caravan, behind).unwrap();
//!     couple_trailer(&mut commands, tow, trailer);
//! }
//! ```
//!
//! **The hitch is a joint of avian's**, a [`SphericalJoint`] between the two bodies at
//! the hitch point, solved rigidly in avian's substeps with the contacts: the nose load,
//! the pull and the push go through it whatever the masses and the rate (a force of the
//! chassis' force channel would be a spring, soft or unstable against a 40 t trailer at
//! 30 Hz). Its twist limit is the hitch's `yaw_limit`, its swing cone the
//! `tilt_limit`; a fifth wheel adds a second joint whose only limit holds the roll.
//! Collisions between the two bodies are off ([`JointCollisionDisabled`]): the limits
//! are the stops.
//!
//! Each physics step, before the vehicles' step ([`VehicleSystems::Drive`](super::VehicleSystems)),
//! every trailer reads its hitch's force of the last step: its [`HitchTelemetry`], a
//! break above the hitch's `break_force`, a jackknife at its `yaw_limit`, and its
//! brakes' level from the tow vehicle's pedal and its own push
//! ([`trailer_controls`](wheelcollider_core::vehicle::trailer_controls)), written
//! into its [`VehicleInput`](super::VehicleInput). An uncoupled trailer rests on its
//! stand (a collider under its coupling, [`TrailerStand`]) with its parking brake on.
//!
//! For a rollback library the joints' entities carry [`HitchJoint`]: mark them for
//! rollback with the trailer; [`rollback::visit_rollback_state`](crate::rollback::visit_rollback_state)
//! lists [`Coupled`], [`HitchTelemetry`] and avian's `JointForces`.

mod couple;
mod systems;

#[cfg(doc)]
use avian3d::prelude::*;
use bevy::ecs::entity::MapEntities;
use bevy::prelude::*;
use wheelcollider_core::vehicle::{HitchSettings, VehicleSettings};

pub(crate) use couple::drop_joints;
pub(crate) use systems::{place_stands, spawn_stand, tow_trailers};

/// How far apart (m) a hitch and a trailer's coupling may be for [`couple_trailer`] to
/// join them: the joint pulls them together over a step or two.
pub const COUPLING_REACH: f32 = 0.5;

/// Within this angle (deg) of the hitch's `yaw_limit`, a trailer is jackknifed.
pub const JACKKNIFE_MARGIN: f32 = 1.0;

/// On a trailer coupled to a tow vehicle (managed by the plugin: [`couple_trailer`],
/// [`uncouple_trailer`]).
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq, MapEntities)]
#[reflect(Component)]
pub struct Coupled {
    /// The tow vehicle's chassis.
    #[entities]
    pub tow: Entity,
    /// The hitch's joint (a [`SphericalJoint`] with [`HitchJoint`]).
    #[entities]
    pub joint: Entity,
    /// A fifth wheel's roll lock (a second joint), `None` on a ball.
    #[entities]
    pub roll_lock: Option<Entity>,
}

/// On each joint of a hitch: the trailer it holds.
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq, MapEntities)]
#[reflect(Component)]
pub struct HitchJoint {
    /// The trailer's chassis.
    #[entities]
    pub trailer: Entity,
}

/// On a trailer: its stand's collider (a child of the chassis under the coupling,
/// spawned with the vehicle by [`spawn_vehicle`](super::spawn_vehicle) or
/// [`insert_vehicle`](super::insert_vehicle); it collides while the trailer is
/// uncoupled). Managed by the plugin.
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq, MapEntities)]
#[reflect(Component)]
pub struct TrailerStand(#[entities] pub Entity);

/// What a trailer's hitch did in the last physics step, for HUDs and game logic.
/// Articulation angles are the trailer's against its tow vehicle, in the tow vehicle's
/// frame.
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq)]
#[reflect(Component)]
pub struct HitchTelemetry {
    /// Coupled to a tow vehicle.
    pub coupled: bool,
    /// The trailer's heading against the tow vehicle's (deg), positive when the
    /// trailer points to the tow vehicle's left.
    pub yaw: f32,
    /// The trailer's nose up against the tow vehicle (deg).
    pub pitch: f32,
    /// The force (N, world frame) the trailer puts on the tow vehicle at the hitch.
    pub force: Vec3,
    /// How hard the trailer pushes the tow vehicle along the trailer's forward axis
    /// (N); negative while it is pulled.
    pub push: f32,
    /// The load (N) the trailer puts on the hitch along the tow vehicle's down axis:
    /// the nose load at rest.
    pub nose_load: f32,
    /// The trailer's service brake level, 0..=1.
    pub brake: f32,
    /// The trailer is within [`JACKKNIFE_MARGIN`] of the hitch's `yaw_limit`.
    pub jackknifed: bool,
}

/// A trailer was coupled to a tow vehicle.
#[derive(EntityEvent, Message, Clone, Copy, Debug, PartialEq)]
pub struct TrailerCoupled {
    /// The trailer.
    #[event_target]
    pub trailer: Entity,
    /// The tow vehicle.
    pub tow: Entity,
}

/// A trailer was uncoupled, asked to or because its hitch broke.
#[derive(EntityEvent, Message, Clone, Copy, Debug, PartialEq)]
pub struct TrailerUncoupled {
    /// The trailer.
    #[event_target]
    pub trailer: Entity,
    /// The tow vehicle it left.
    pub tow: Entity,
    /// The force (N) that broke the hitch; `None` when it was uncoupled on request.
    pub broken_at: Option<f32>,
}

/// A trailer reached its hitch's `yaw_limit` (sent once each time it gets there).
#[derive(EntityEvent, Message, Clone, Copy, Debug, PartialEq)]
pub struct Jackknifed {
    /// The trailer.
    #[event_target]
    pub trailer: Entity,
    /// The tow vehicle.
    pub tow: Entity,
    /// The articulation (deg), signed as [`HitchTelemetry::yaw`].
    pub yaw: f32,
}

/// A [`couple_trailer`] that could not be done, and why (also logged).
#[derive(EntityEvent, Message, Clone, Debug, PartialEq)]
pub struct CouplingRefused {
    /// The trailer.
    #[event_target]
    pub trailer: Entity,
    /// The tow vehicle.
    pub tow: Entity,
    /// Why: not a trailer, no hitch, kinds that differ, too far apart, already coupled.
    pub reason: String,
}

/// Couples `trailer` to `tow`'s hitch when the commands are applied: both must be
/// vehicles (the tow vehicle with a hitch, the trailer with trailer settings of the
/// hitch's kind), the trailer uncoupled, and its coupling within [`COUPLING_REACH`]
/// of the hitch. Sends [`TrailerCoupled`], or [`CouplingRefused`] with the reason.
pub fn couple_trailer(commands: &mut Commands, tow: Entity, trailer: Entity) {
    commands.queue(couple::Couple { tow, trailer });
}

/// Uncouples `trailer` when the commands are applied (nothing if it is not coupled):
/// its stand goes down, its parking brake on. Sends [`TrailerUncoupled`].
pub fn uncouple_trailer(commands: &mut Commands, trailer: Entity) {
    commands.queue(couple::Uncouple {
        trailer,
        broken_at: None,
    });
}

/// Where to put a trailer so that its coupling meets the hitch of a tow vehicle at
/// `tow_at`: in line behind it, with the same orientation. `None` when `tow` has no
/// hitch or `trailer` is not a trailer.
pub fn hitched_transform(tow: &VehicleSettings, tow_at: Transform, trailer: &VehicleSettings) -> Option<Transform> {
    let hitch = Vec3::from(tow.hitch.as_ref()?.position);
    let coupling = Vec3::from(trailer.trailer.as_ref()?.coupling);
    let point = tow_at.transform_point(hitch);
    Some(Transform {
        translation: point - tow_at.rotation * coupling,
        ..tow_at
    })
}

/// The hitch's point on the tow vehicle and the coupling's on the trailer, in the
/// world, from the bodies' poses (position, rotation).
pub(crate) fn hitch_points(
    hitch: &HitchSettings,
    coupling: [f32; 3],
    (tow, tow_rotation): (Vec3, Quat),
    (trailer, trailer_rotation): (Vec3, Quat),
) -> (Vec3, Vec3) {
    (
        tow + tow_rotation * Vec3::from(hitch.position),
        trailer + trailer_rotation * Vec3::from(coupling),
    )
}
