//! What a game hangs its effects on: wheel events (contact started / ended, skid
//! started / ended, surface changed, landed) and each wheel's effect data (skid
//! intensity and contact patch).
//!
//! Opt-in, as avian's collision events are: put [`WheelEventsEnabled`] on a wheel, or on
//! a chassis for all its wheels and the chassis' own [`Landed`] event. Wheels that
//! nobody listens to cost one marker lookup per step. Each event is both an
//! [`EntityEvent`] (watch it with an observer on the wheel or chassis entity, or a
//! global one) and a buffered [`Message`] (read it with a [`MessageReader`]); it is
//! sent once per transition, in avian's `PhysicsSchedule` after the wheels' forces
//! ([`WheelSystems::Events`](super::WheelSystems::Events)).
//!
//! ```
//! # use bevy::prelude::*;
//! # use wheelcollider_avian::prelude::*;
//! fn skid_sound(skid: On<SkidStarted>) {
//!     info!("wheel {} skids ({:.2})", skid.wheel, skid.intensity);
//! }
//! # fn setup(mut commands: Commands, chassis: Entity) {
//! commands.entity(chassis).insert(WheelEventsEnabled);
//! commands.add_observer(skid_sound);
//! # }
//! ```

use bevy::prelude::*;

use super::components::{ChassisWheels, WheelCollider, WheelOf, WheelOutput};
use super::surface::WheelSurface;

/// Skid intensity at which [`SkidStarted`] is sent.
pub const SKID_START: f32 = 0.2;
/// Skid intensity below which [`SkidEnded`] is sent (below [`SKID_START`], so that a
/// wheel hovering at the threshold does not flicker).
pub const SKID_END: f32 = 0.05;
/// How long (s) a chassis must have had no wheel on the ground for [`Landed`] to be
/// sent when one touches again (a bump that unloads a wheel for a step is no landing).
pub const MIN_AIRBORNE_TIME: f32 = 0.1;

/// Opt-in marker: send this wheel's events (on a wheel), or every wheel's and the
/// chassis' [`Landed`] (on a chassis), and keep their [`WheelEffects`].
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq)]
#[reflect(Component, Default)]
pub struct WheelEventsEnabled;

/// A wheel touched the ground after being in the air.
#[derive(EntityEvent, Message, Clone, Copy, Debug, PartialEq)]
pub struct WheelContactStarted {
    /// The wheel.
    #[event_target]
    pub wheel: Entity,
    /// The collider it touched.
    pub collider: Entity,
    /// The collider's rigid body, if any.
    pub body: Option<Entity>,
    /// The ground's surface (asphalt where the collider has none).
    pub surface: WheelSurface,
}

/// A wheel left the ground.
#[derive(EntityEvent, Message, Clone, Copy, Debug, PartialEq)]
pub struct WheelContactEnded {
    /// The wheel.
    #[event_target]
    pub wheel: Entity,
}

/// A wheel's skid intensity rose to [`SKID_START`].
#[derive(EntityEvent, Message, Clone, Copy, Debug, PartialEq)]
pub struct SkidStarted {
    /// The wheel.
    #[event_target]
    pub wheel: Entity,
    /// The tyre's normalised combined slip (1 at the peak).
    pub slip: f32,
    /// The skid intensity, 0..=1 ([`WheelEffects::skid_intensity`]).
    pub intensity: f32,
}

/// A wheel's skid intensity fell below [`SKID_END`], or it left the ground skidding.
#[derive(EntityEvent, Message, Clone, Copy, Debug, PartialEq)]
pub struct SkidEnded {
    /// The wheel.
    #[event_target]
    pub wheel: Entity,
}

/// A grounded wheel rolled onto a different surface.
#[derive(EntityEvent, Message, Clone, Copy, Debug, PartialEq)]
pub struct SurfaceChanged {
    /// The wheel.
    #[event_target]
    pub wheel: Entity,
    /// The surface it left.
    pub from: WheelSurface,
    /// The surface it is on.
    pub to: WheelSurface,
}

/// A chassis touched the ground again after at least [`MIN_AIRBORNE_TIME`] with no
/// wheel on it.
#[derive(EntityEvent, Message, Clone, Copy, Debug, PartialEq)]
pub struct Landed {
    /// The chassis (the wheels' rigid body).
    #[event_target]
    pub chassis: Entity,
    /// How long it was in the air (s).
    pub airborne_time: f32,
    /// Its speed towards the ground when it touched (m/s, ≥ 0): along the first
    /// grounded wheel's contact normal.
    pub impact_speed: f32,
}

/// A wheel's effect data, kept for wheels with events enabled: what skid marks, smoke,
/// dust and tyre sound need.
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq)]
#[reflect(Component, Default)]
pub struct WheelEffects {
    /// How hard the tyre slides, 0..=1: 0 up to its peak slip (normalised combined slip
    /// 1), rising linearly to 1 at twice the peak, 0 in the air. Skid marks' opacity,
    /// smoke's rate, the squeal's volume.
    pub skid_intensity: f32,
    /// The contact patch, `None` in the air.
    pub patch: Option<ContactPatch>,
    /// Whether a [`SkidStarted`] has been sent and no [`SkidEnded`] since.
    pub skidding: bool,
}

/// Where a tyre meets the ground.
#[derive(Reflect, Clone, Copy, Debug, PartialEq)]
pub struct ContactPatch {
    /// The middle of the tread on the ground (world, m; where the tyre's force acts, not
    /// the sweep's hit, which a cylinder's flat contact puts anywhere across its
    /// width): where a skid-mark quad goes, lifted a few mm.
    pub point: Vec3,
    /// The ground's normal there (world, unit).
    pub normal: Vec3,
    /// The wheel's rolling direction on the ground (world, unit): the skid mark's
    /// length runs along it.
    pub forward: Vec3,
    /// The tyre's width (m): the skid mark's width.
    pub width: f32,
    /// The collider under the tyre.
    pub collider: Entity,
    /// Its surface (asphalt where it has none): gravel makes dust, asphalt smoke.
    pub surface: WheelSurface,
}

/// What a wheel's skid intensity is for a normalised combined slip `slip` and a load
/// (N): `clamp(slip − 1, 0, 1)`, 0 without load.
pub fn skid_intensity(slip: f32, load: f32) -> f32 {
    if load > 0.0 && slip.is_finite() {
        (slip - 1.0).clamp(0.0, 1.0)
    } else {
        0.0
    }
}

/// Per-chassis state of the [`Landed`] event (chassis with events enabled; managed by
/// the plugin): how long it has been airborne (s) and whether a wheel touched last
/// step. A rollback library restores it with the rest so that a re-simulated landing
/// fires as the first one did.
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq)]
#[reflect(Component, Default)]
pub struct LandingState {
    /// Time since the last wheel left the ground (s).
    pub airborne_time: f32,
    /// A wheel touched the ground last step.
    pub grounded: bool,
}

type EventWheelQuery<'w, 's> = Query<
    'w,
    's,
    (
        Entity,
        &'static WheelOutput,
        &'static WheelCollider,
        &'static WheelOf,
        Has<WheelEventsEnabled>,
        Option<&'static mut WheelEffects>,
    ),
>;

/// Both ways of delivering `event`: triggered for observers, written as a message.
pub(crate) fn send<'a, E>(commands: &mut Commands, event: E)
where
    E: Message + Clone + Event<Trigger<'a>: Default>,
{
    commands.write_message(event.clone());
    commands.trigger(event);
}

/// The wheel events and effect data of every wheel with events enabled (on itself or
/// its chassis), from its state after this step.
#[cfg_attr(feature = "stage-table", inline(never))] // a stage of its own in `--stages`
pub(crate) fn wheel_events(
    mut commands: Commands,
    mut wheels: EventWheelQuery,
    enabled: Query<(), With<WheelEventsEnabled>>,
) {
    // Scenes that do not listen pay one look at the marker's archetypes, not a lookup
    // per wheel.
    if enabled.is_empty() {
        return;
    }
    for (entity, output, collider, of, own, effects) in &mut wheels {
        if !own && !enabled.contains(of.0) {
            continue;
        }
        let hit = output.hit;
        let o = &output.output;
        let intensity = skid_intensity(o.normalized_slip, o.load);
        let patch = hit.map(|h| ContactPatch {
            point: output.contact_position,
            normal: h.normal,
            forward: output.forward_direction,
            width: collider.0.width(),
            collider: h.entity,
            surface: h.surface,
        });
        let Some(mut effects) = effects else {
            // First step with events: start from the present state, send nothing.
            commands.entity(entity).insert(WheelEffects {
                skid_intensity: intensity,
                patch,
                skidding: intensity >= SKID_START,
            });
            continue;
        };
        match (effects.patch, patch) {
            (None, Some(p)) => send(
                &mut commands,
                WheelContactStarted {
                    wheel: entity,
                    collider: p.collider,
                    body: hit.and_then(|h| h.body),
                    surface: p.surface,
                },
            ),
            (Some(_), None) => send(&mut commands, WheelContactEnded { wheel: entity }),
            (Some(a), Some(b)) if a.surface != b.surface => send(
                &mut commands,
                SurfaceChanged {
                    wheel: entity,
                    from: a.surface,
                    to: b.surface,
                },
            ),
            _ => {}
        }
        if !effects.skidding && intensity >= SKID_START {
            effects.skidding = true;
            send(
                &mut commands,
                SkidStarted {
                    wheel: entity,
                    slip: o.normalized_slip,
                    intensity,
                },
            );
        } else if effects.skidding && intensity < SKID_END {
            effects.skidding = false;
            send(&mut commands, SkidEnded { wheel: entity });
        }
        effects.skid_intensity = intensity;
        effects.patch = patch;
    }
}

/// [`Landed`] for every chassis with events enabled: no wheel on the ground for at
/// least [`MIN_AIRBORNE_TIME`], then one.
#[cfg_attr(feature = "stage-table", inline(never))] // a stage of its own in `--stages`
pub(crate) fn landing_events(
    mut commands: Commands,
    time: Res<Time>,
    mut chassis: Query<
        (
            Entity,
            &ChassisWheels,
            &avian3d::prelude::LinearVelocity,
            Option<&mut LandingState>,
        ),
        With<WheelEventsEnabled>,
    >,
    wheels: Query<&WheelOutput>,
) {
    let dt = time.delta_secs();
    for (entity, children, velocity, memory) in &mut chassis {
        let first_hit = children
            .wheels()
            .iter()
            .filter_map(|&w| wheels.get(w).ok().and_then(|s| s.hit))
            .next();
        let grounded = first_hit.is_some();
        let Some(mut memory) = memory else {
            commands.entity(entity).insert(LandingState {
                airborne_time: 0.0,
                grounded,
            });
            continue;
        };
        if grounded && !memory.grounded && memory.airborne_time >= MIN_AIRBORNE_TIME {
            let normal = first_hit.map_or(Vec3::Y, |h| h.normal);
            send(
                &mut commands,
                Landed {
                    chassis: entity,
                    airborne_time: memory.airborne_time,
                    impact_speed: (-velocity.0.dot(normal)).max(0.0),
                },
            );
        }
        memory.airborne_time = if grounded { 0.0 } else { memory.airborne_time + dt };
        memory.grounded = grounded;
    }
}
