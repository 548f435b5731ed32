//! Spawning a vehicle from its settings: the chassis body and one wheel per axle end.

use avian3d::prelude::*;
use bevy::prelude::*;

use super::{ChassisSettings, Vehicle, VehicleSettings, VehicleSettingsError, VehicleWheel};
use crate::two_wheeler::{Rider, SteeringHead};
use crate::wheel::{AntiRollBar, WheelCollider, WheelOf};

/// Spawns a vehicle from a settings: the chassis (dynamic rigid body, box collider, mass,
/// inertia, centre of mass, [`Vehicle`]) and one [`WheelCollider`] child per wheel,
/// named `"axle 0 left"` and so on (`"axle 0"` on a single axle); a two-wheeler's
/// steering head and rider ([`TwoWheelerSettings`](wheelcollider_core::vehicle::TwoWheelerSettings)). The settings is validated first; an invalid one spawns
/// nothing and returns the error.
///
/// The chassis also gets avian's [`SpeculativeMargin`] of [`CHASSIS_SPECULATIVE_MARGIN`]
/// and [`SweptCcd`] (above [`CHASSIS_CCD_SPEED`], with the body's rotation), unless it already has its
/// own: the wheels carry the car, and the body's collider is there for what the car hits.
/// With avian's default, unbounded margin, a chassis passing a few centimetres over a
/// kerb at speed is struck by a "ghost" contact (the kerb's face taken as an infinite
/// plane; `wheel::kerbs` guards it). The swept cast keeps a fast car from passing
/// through a thin wall, which a bounded margin alone would allow. The sweep follows the
/// body's rotation (avian's non-linear mode): a linear sweep of a chassis turning with
/// a curved road (a loop, a banked bowl) meets the road ahead of it every step, and
/// avian then holds the body back while keeping its velocity, which adds or removes
/// energy (`wheel::loops` guards it). The measurements: `docs/reliability.md`.
pub fn spawn_vehicle(
    commands: &mut Commands,
    settings: &VehicleSettings,
    transform: Transform,
) -> Result<Entity, VehicleSettingsError> {
    spawn_vehicle_with(commands, settings, transform, WheelPlacement::Children)
}

/// The largest distance (m) at which a spawned chassis makes speculative contacts (avian's
/// [`SpeculativeMargin`]); see [`spawn_vehicle`].
pub const CHASSIS_SPECULATIVE_MARGIN: f32 = 0.05;

/// The speed (m/s, relative to what it may hit) above which a spawned chassis is swept
/// for contacts (avian's [`SweptCcd`]); see [`spawn_vehicle`].
pub const CHASSIS_CCD_SPEED: f32 = 5.0;

/// Where [`spawn_vehicle_with`] puts the wheel entities.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum WheelPlacement {
    /// Children of the chassis (`ChildOf`), as [`spawn_vehicle`] does: their
    /// `GlobalTransform` is the mount in the world, and a mesh under a wheel with
    /// [`WheelModel`](crate::wheel::WheelModel) follows it.
    #[default]
    Children,
    /// Outside the hierarchy, attached by [`WheelOf`] alone: the same physics (tested bit
    /// for bit by `wheel::suspension`), and Bevy does not propagate the wheels'
    /// transforms, which saves work (`docs/performance.md`). For traffic
    /// and servers. A wheel's `GlobalTransform` is then not its place in the world: read
    /// its `WheelOutput`, and put its `WheelModel` mesh under the chassis. Despawning the
    /// chassis still despawns the wheels.
    OutsideHierarchy,
}

/// [`spawn_vehicle`], with the wheels placed as `placement` says.
pub fn spawn_vehicle_with(
    commands: &mut Commands,
    settings: &VehicleSettings,
    transform: Transform,
    placement: WheelPlacement,
) -> Result<Entity, VehicleSettingsError> {
    let settings = validated(settings)?;
    let chassis = commands.spawn(transform).id();
    build_vehicle(commands, chassis, settings, placement);
    Ok(chassis)
}

/// Makes an entity the game already has the vehicle `settings` describes, as
/// [`spawn_vehicle_with`] does to the entity it spawns: the body's components,
/// [`Vehicle`] and its wheels (the chassis' own contact settings and `Transform` stay).
/// For an entity a networking library replicated, a prefab's root, a car built in
/// stages. The settings is validated first; an invalid one changes nothing and returns
/// the error. The entity must not have wheels yet.
pub fn insert_vehicle(
    commands: &mut Commands,
    chassis: Entity,
    settings: &VehicleSettings,
    placement: WheelPlacement,
) -> Result<(), VehicleSettingsError> {
    build_vehicle(commands, chassis, validated(settings)?, placement);
    Ok(())
}

/// A validated copy of `settings` (what the vehicle runs), or why not.
fn validated(settings: &VehicleSettings) -> Result<VehicleSettings, VehicleSettingsError> {
    let mut settings = settings.clone();
    settings.validate()?;
    Ok(settings)
}

/// The chassis' angular inertia: its principal moments in their frame, turned about
/// the chassis' X by [`ChassisSettings::inertia_tilt`].
pub(crate) fn chassis_inertia(c: &ChassisSettings) -> AngularInertia {
    let [ix, iy, iz] = c.principal_inertia();
    AngularInertia::new_with_local_frame(Vec3::new(ix, iy, iz), Quat::from_rotation_x(c.principal_frame_angle()))
}

/// Makes `chassis` the vehicle `settings` describes (validated): body components,
/// [`Vehicle`], one wheel child per axle end, and a trailer's stand.
pub(crate) fn build_vehicle(
    commands: &mut Commands,
    chassis: Entity,
    settings: VehicleSettings,
    placement: WheelPlacement,
) {
    let c = &settings.chassis;
    commands.entity(chassis).insert((
        Name::new(settings.name.clone()),
        RigidBody::Dynamic,
        Collider::cuboid(c.size[0], c.size[1], c.size[2]),
        Mass(c.mass),
        chassis_inertia(c),
        CenterOfMass(Vec3::from(c.centre_of_mass)),
    ));
    // A game's own contact settings on the chassis stay (see `spawn_vehicle`). The
    // angular threshold f32::MAX leaves the sweep to the linear speed alone.
    commands.entity(chassis).insert_if_new((
        SpeculativeMargin(CHASSIS_SPECULATIVE_MARGIN),
        SweptCcd::NON_LINEAR.with_velocity_threshold(CHASSIS_CCD_SPEED, f32::MAX),
    ));
    let mut wheels = Vec::with_capacity(settings.wheel_indices());
    for (a, axle) in settings.axles.iter().enumerate() {
        let mut spawn_end = |right: bool| {
            let side = match (axle.single, right) {
                (true, _) => "",
                (false, true) => " right",
                (false, false) => " left",
            };
            let wheel = (
                Name::new(format!("axle {a}{side}")),
                WheelCollider(settings.wheel_settings(a, right)),
                VehicleWheel { axle: a, right },
                Transform::from_xyz(axle.wheel_x(right), axle.mount_height, axle.z),
            );
            // In the same bundle: the plugin attaches a wheel when its `WheelCollider`
            // is added, by its `WheelOf` or else its rigid-body ancestor.
            match placement {
                WheelPlacement::Children => commands.spawn((wheel, ChildOf(chassis))).id(),
                WheelPlacement::OutsideHierarchy => commands.spawn((wheel, WheelOf(chassis))).id(),
            }
        };
        if axle.single {
            wheels.push(spawn_end(false));
            continue;
        }
        let ends = [false, true].map(&mut spawn_end);
        wheels.extend(ends);
        // Each axle's anti-roll bar, solved with the suspension (zero stiffness: none).
        for (this, partner) in [(ends[0], ends[1]), (ends[1], ends[0])] {
            commands.entity(this).insert(AntiRollBar {
                partner,
                stiffness: axle.anti_roll_stiffness,
            });
        }
    }
    if let Some(trailer) = &settings.trailer {
        super::towing::spawn_stand(commands, chassis, trailer);
    }
    // A two-wheeler's steering head on its front wheel, and its rider.
    if let (Some(bike), Some(&front)) = (&settings.two_wheeler, wheels.first())
        && let Some(head) = SteeringHead::of_vehicle(front, &settings)
    {
        let rider = Rider {
            settings: bike.rider.clone(),
            ..default()
        };
        commands.entity(chassis).insert((head, rider));
    }
    commands.entity(chassis).insert(Vehicle(settings));
}
