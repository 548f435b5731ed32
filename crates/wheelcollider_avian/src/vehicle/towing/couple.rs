//! Coupling and uncoupling: the hitch's joints made and removed, with their events.

use avian3d::prelude::*;
use bevy::prelude::*;
use wheelcollider_core::vehicle::{HitchKind, HitchSettings, VehicleSettings};

use super::{COUPLING_REACH, Coupled, CouplingRefused, HitchJoint, HitchTelemetry, TrailerCoupled, TrailerUncoupled};
use crate::vehicle::{Vehicle, VehicleRuntime};

/// The roll lock's point compliance (m/N): so soft that the ball joint alone holds the
/// point (a millimetre's error pulls with a millinewton).
const ROLL_LOCK_POINT_COMPLIANCE: f32 = 1.0;

/// [`couple_trailer`](super::couple_trailer)'s command.
pub(super) struct Couple {
    pub tow: Entity,
    pub trailer: Entity,
}

/// [`uncouple_trailer`](super::uncouple_trailer)'s command, also run by a hitch that
/// breaks.
pub(super) struct Uncouple {
    pub trailer: Entity,
    pub broken_at: Option<f32>,
}

/// The settings a vehicle runs (the last that validated), else the one it was given.
fn settings_of(world: &World, e: Entity) -> Option<VehicleSettings> {
    let runtime = world.get::<VehicleRuntime>(e).and_then(|r| r.settings.clone());
    runtime.or_else(|| world.get::<Vehicle>(e).map(|v| v.0.clone()))
}

impl Couple {
    /// The hitch and the trailer's coupling point, or why they cannot be coupled.
    fn check(&self, world: &World) -> Result<(HitchSettings, [f32; 3]), String> {
        let (Some(tow), Some(trailer)) = (settings_of(world, self.tow), settings_of(world, self.trailer)) else {
            return Err("both must be vehicles".into());
        };
        let hitch = tow.hitch.ok_or("the tow vehicle has no hitch")?;
        let coupling = trailer.trailer.ok_or("the trailer has no trailer settings")?;
        if hitch.kind != coupling.kind {
            return Err(format!(
                "a {:?} hitch cannot take a {:?} coupling",
                hitch.kind, coupling.kind
            ));
        }
        if world.get::<Coupled>(self.trailer).is_some() {
            return Err("the trailer is already coupled".into());
        }
        if self.tow == self.trailer {
            return Err("a vehicle cannot tow itself".into());
        }
        // The bodies' `Transform`s: avian's `Position` of a body spawned in the same
        // commands is not set until its first step. (A chassis is a root entity.)
        let pose = |e| world.get::<Transform>(e).map(|t| (t.translation, t.rotation));
        let (Some(tow_pose), Some(trailer_pose)) = (pose(self.tow), pose(self.trailer)) else {
            return Err("both must have a Transform".into());
        };
        let (a, b) = super::hitch_points(&hitch, coupling.coupling, tow_pose, trailer_pose);
        let gap = a.distance(b);
        if gap > COUPLING_REACH {
            return Err(format!(
                "the coupling is {gap:.2} m from the hitch (reach {COUPLING_REACH} m)"
            ));
        }
        Ok((hitch, coupling.coupling))
    }
}

impl Command for Couple {
    type Out = ();

    fn apply(self, world: &mut World) {
        let (hitch, coupling) = match self.check(world) {
            Ok(parts) => parts,
            Err(reason) => {
                warn!("cannot couple {} to {}: {reason}", self.trailer, self.tow);
                let refused = CouplingRefused {
                    trailer: self.trailer,
                    tow: self.tow,
                    reason,
                };
                world.write_message(refused.clone());
                world.trigger(refused);
                return;
            }
        };
        let (joint, roll_lock) = hitch_joints(self.tow, self.trailer, &hitch, Vec3::from(coupling));
        let marker = HitchJoint { trailer: self.trailer };
        let mut spawn = |j: SphericalJoint, name: &str| {
            let parts = (
                j,
                JointForces::new(),
                JointCollisionDisabled,
                marker,
                Name::new(name.to_owned()),
            );
            world.spawn(parts).id()
        };
        let joint = spawn(joint, "hitch");
        let roll_lock = roll_lock.map(|j| spawn(j, "hitch roll lock"));
        world.entity_mut(self.trailer).insert((
            Coupled {
                tow: self.tow,
                joint,
                roll_lock,
            },
            HitchTelemetry {
                coupled: true,
                ..Default::default()
            },
        ));
        let event = TrailerCoupled {
            trailer: self.trailer,
            tow: self.tow,
        };
        world.write_message(event);
        world.trigger(event);
    }
}

impl Command for Uncouple {
    type Out = ();

    fn apply(self, world: &mut World) {
        let Some(coupled) = world.get::<Coupled>(self.trailer).copied() else {
            return;
        };
        // Its joints go with it (`drop_joints`).
        let mut trailer = world.entity_mut(self.trailer);
        trailer.remove::<Coupled>();
        if let Some(mut telemetry) = trailer.get_mut::<HitchTelemetry>() {
            *telemetry = HitchTelemetry::default();
        }
        let event = TrailerUncoupled {
            trailer: self.trailer,
            tow: coupled.tow,
            broken_at: self.broken_at,
        };
        world.write_message(event);
        world.trigger(event);
    }
}

/// The hitch's joints between `tow` and `trailer`: the ball joint at the hitch with its
/// limits, and for a fifth wheel the roll lock.
///
/// Avian's spherical joint with its twist axis along the bodies' Z measures its swing
/// as the angle between the bodies' Y axes (the tilt: pitch and roll together) and its
/// twist about their mean Y axis (the yaw), so its twist limit is the yaw limit and
/// its swing limit the tilt cone. The roll lock's twist axis is Y, so its twist is
/// the rotation about the bodies' mean Z axis (the roll), held at zero; its own point
/// is left soft. Proved by `vehicle::towing`'s jackknife and fifth-wheel tests.
pub(crate) fn hitch_joints(
    tow: Entity,
    trailer: Entity,
    hitch: &HitchSettings,
    coupling: Vec3,
) -> (SphericalJoint, Option<SphericalJoint>) {
    let (yaw, tilt) = (hitch.yaw_limit.to_radians(), hitch.tilt_limit.to_radians());
    let base = SphericalJoint::new(tow, trailer)
        .with_local_anchor1(Vec3::from(hitch.position))
        .with_local_anchor2(coupling);
    let ball = base
        .clone()
        .with_twist_axis(Vec3::Z)
        .with_twist_limits(-yaw, yaw)
        .with_swing_limits(-tilt, tilt);
    let roll_lock = (hitch.kind == HitchKind::FifthWheel).then(|| {
        base.with_twist_axis(Vec3::Y)
            .with_twist_limits(0.0, 0.0)
            .with_point_compliance(ROLL_LOCK_POINT_COMPLIANCE)
    });
    (ball, roll_lock)
}

/// When a trailer stops being coupled for any reason (uncoupled, or despawned while
/// coupled), its hitch's joints go with it: a joint left with one body missing would
/// hold the other to a fixed point of the world. Guarded by `vehicle::towing`'s
/// despawn test.
pub(crate) fn drop_joints(remove: On<Remove, Coupled>, mut commands: Commands, coupled: Query<&Coupled>) {
    let Ok(c) = coupled.get(remove.entity) else {
        return;
    };
    for joint in [Some(c.joint), c.roll_lock].into_iter().flatten() {
        if let Ok(mut e) = commands.get_entity(joint) {
            e.try_despawn();
        }
    }
}
