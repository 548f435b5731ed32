//! The trailers' part of a physics step: the hitch read back, the brakes, the stand.

use avian3d::prelude::*;
use bevy::prelude::*;
use wheelcollider_core::vehicle::{
    DriverInput, HitchSettings, TowInput, TrailerSettings, push_per_level, trailer_controls,
};

use super::couple::Uncouple;
use super::{Coupled, HitchTelemetry, JACKKNIFE_MARGIN, Jackknifed, TrailerStand};
use crate::vehicle::{VehicleInput, VehicleRuntime};
use crate::wheel::events::send;

/// The sign that turns avian's `JointForces` of a hitch's joint into the force on the
/// tow vehicle, its first body: avian's point constraint accumulates the impulse it
/// applies to the first body. Proved by `vehicle::towing`'s nose-load test.
const ON_TOW: f32 = 1.0;

/// The trailers (every one has a stand: [`spawn_stand`]).
type Trailers<'w, 's> = Query<
    'w,
    's,
    (
        Entity,
        &'static mut VehicleRuntime,
        &'static mut VehicleInput,
        Option<&'static Coupled>,
        Option<&'static mut HitchTelemetry>,
        &'static Rotation,
        &'static LinearVelocity,
    ),
    With<TrailerStand>,
>;

/// What the trailers read of their tow vehicles (a trailer does not tow).
type Tows<'w, 's> =
    Query<'w, 's, (&'static VehicleRuntime, &'static VehicleInput, &'static Rotation), Without<TrailerStand>>;

/// What a coupled trailer reads from its tow vehicle in one step.
#[derive(Clone, Copy)]
struct Link {
    trailer: Entity,
    tow: Entity,
    hitch: Option<(f32, f32)>,
    pedal: f32,
    /// The tow vehicle's mass (kg; 0 without settings).
    tow_mass: f32,
    tow_rotation: Quat,
    force: Vec3,
}

/// The link of `trailer`, coupled as `c`: its tow vehicle's hitch, pedal and pose, and
/// the hitch's force on the tow vehicle in the last step.
fn link(trailer: Entity, c: &Coupled, tows: &Tows, joints: &Query<&JointForces>) -> Option<Link> {
    let (runtime, input, rotation) = tows.get(c.tow).ok()?;
    let hitch = runtime.settings.as_ref().and_then(|s| s.hitch.as_ref());
    Some(Link {
        trailer,
        tow: c.tow,
        hitch: hitch.map(|h: &HitchSettings| (h.yaw_limit, h.break_force)),
        // The pedal that brakes: the throttle while an automatic backs up.
        pedal: match (&runtime.settings, &runtime.state) {
            (Some(s), Some(state)) if s.gearbox.swaps_pedals(state.next_gear) => input.0.throttle,
            _ => input.0.brake,
        },
        tow_mass: runtime.settings.as_ref().map_or(0.0, |s| s.chassis.mass),
        tow_rotation: rotation.0,
        force: joints.get(c.joint).map_or(Vec3::ZERO, |f| ON_TOW * f.force()),
    })
}

/// Every trailer, once a step before the vehicles' step: a coupled one reads its
/// hitch's force of the last step into its [`HitchTelemetry`] (and breaks the hitch
/// above its `break_force`, and reports a jackknife), and every one gets its brakes
/// from [`trailer_controls`] in its [`VehicleInput`].
pub(crate) fn tow_trailers(
    mut commands: Commands,
    time: Res<Time>,
    mut trailers: Trailers,
    tows: Tows,
    joints: Query<&JointForces>,
) {
    let dt = time.delta_secs();
    if dt <= 0.0 {
        return;
    }
    for (entity, mut runtime, mut input, coupled, telemetry, rotation, velocity) in &mut trailers {
        let runtime = &mut *runtime;
        let (Some(settings), Some(state)) = (runtime.settings.as_ref(), runtime.state.as_mut()) else {
            continue;
        };
        let Some(trailer) = settings.trailer.as_ref() else {
            continue;
        };
        let forward = rotation.0 * Vec3::NEG_Z;
        let link = coupled.and_then(|c| link(entity, c, &tows, &joints));
        if coupled.is_some() && link.is_none() {
            // Its tow vehicle is gone (despawned): it is uncoupled.
            commands.queue(Uncouple {
                trailer: entity,
                broken_at: None,
            });
        }
        let tow = TowInput {
            coupled: link.is_some(),
            pedal: link.map_or(0.0, |l| l.pedal),
            push: link.map_or(0.0, |l| l.force.dot(forward)),
            forward_speed: velocity.0.dot(forward),
            push_per_level: link.map_or(0.0, |l| push_per_level(settings, l.tow_mass)),
        };
        let controls = trailer_controls(trailer, settings.chassis.mass, &mut state.brake_level, tow, dt);
        input.0 = DriverInput {
            brake: controls.brake,
            handbrake: controls.handbrake,
            ..Default::default()
        };
        if let (Some(link), Some(mut telemetry)) = (link, telemetry) {
            report(
                &mut commands,
                &mut telemetry,
                link,
                rotation.0,
                (tow.push, controls.brake),
            );
        }
    }
}

/// A coupled trailer's [`HitchTelemetry`] from its link; a break or a jackknife sent.
fn report(commands: &mut Commands, t: &mut HitchTelemetry, link: Link, rotation: Quat, (push, brake): (f32, f32)) {
    // The trailer's forward axis in the tow vehicle's frame (forward −Z, left −X).
    let f = link.tow_rotation.inverse() * rotation * Vec3::NEG_Z;
    let yaw = wheelcollider_core::math::atan2(-f.x, -f.z).to_degrees();
    let pitch = wheelcollider_core::math::asin(f.y.clamp(-1.0, 1.0)).to_degrees();
    let (yaw_limit, break_force) = link.hitch.unwrap_or((f32::MAX, 0.0));
    let jackknifed = yaw.abs() >= yaw_limit - JACKKNIFE_MARGIN;
    if jackknifed && !t.jackknifed {
        let event = Jackknifed {
            trailer: link.trailer,
            tow: link.tow,
            yaw,
        };
        send(commands, event);
    }
    *t = HitchTelemetry {
        coupled: true,
        yaw,
        pitch,
        force: link.force,
        push,
        nose_load: -link.force.dot(link.tow_rotation * Vec3::Y),
        brake,
        jackknifed,
    };
    let load = link.force.length();
    if break_force > 0.0 && load > break_force {
        commands.queue(Uncouple {
            trailer: link.trailer,
            broken_at: Some(load),
        });
    }
}

/// The stand's collider size (m): width and depth of the jockey wheel or the legs.
const STAND_WIDTH: f32 = 0.2;

/// The stand's place (under the coupling) and size for `trailer`.
fn stand_shape(trailer: &TrailerSettings) -> (Transform, Vec3) {
    let c = Vec3::from(trailer.coupling);
    let place = Transform::from_translation(c - Vec3::Y * (0.5 * trailer.stand));
    (place, Vec3::new(STAND_WIDTH, trailer.stand, STAND_WIDTH))
}

/// Spawns `chassis`' stand (a massless collider child, [`TrailerStand`]), when the
/// vehicle is built: a collider added in the middle of avian's step would be inserted
/// into its collider trees out of turn. It collides while the trailer is uncoupled.
pub(crate) fn spawn_stand(commands: &mut Commands, chassis: Entity, trailer: &TrailerSettings) {
    let (place, shape) = stand_shape(trailer);
    let stand = commands
        .spawn((
            Name::new("trailer stand"),
            Collider::cuboid(shape.x, shape.y, shape.z),
            ColliderDensity(0.0),
            CollisionLayers::DEFAULT,
            place,
            ChildOf(chassis),
        ))
        .id();
    commands.entity(chassis).insert(TrailerStand(stand));
}

/// Every trailer's stand kept to its settings, colliding while the trailer is
/// uncoupled and with nothing while it is coupled (its layers are replaced; no collider
/// is added or removed inside avian's step).
pub(crate) fn place_stands(
    mut commands: Commands,
    trailers: Query<(&VehicleRuntime, &TrailerStand, Has<Coupled>)>,
    mut stands: Query<(&mut Transform, &mut Collider, &CollisionLayers)>,
) {
    for (runtime, TrailerStand(stand), coupled) in &trailers {
        let Some(trailer) = runtime.settings.as_ref().and_then(|s| s.trailer.as_ref()) else {
            continue;
        };
        let Ok((mut transform, mut collider, layers)) = stands.get_mut(*stand) else {
            continue;
        };
        let (place, shape) = stand_shape(trailer);
        if transform.translation != place.translation {
            transform.translation = place.translation;
        }
        let size = collider.shape_scaled().as_cuboid().map(|b| b.half_extents * 2.0);
        if size.is_none_or(|s| (s - shape).length() > 1e-5) {
            *collider = Collider::cuboid(shape.x, shape.y, shape.z);
        }
        let wanted = if coupled {
            CollisionLayers::NONE
        } else {
            CollisionLayers::DEFAULT
        };
        if *layers != wanted {
            // An immutable component of avian's: replaced, not written.
            commands.entity(*stand).insert(wanted);
        }
    }
}
