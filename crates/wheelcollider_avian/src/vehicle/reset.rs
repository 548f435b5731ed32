//! Putting a vehicle back at rest: the [`ResetVehicle`] event.

use avian3d::prelude::*;
use bevy::prelude::*;

use super::{VehicleRuntime, VehicleState};
use crate::wheel::{ChassisWheels, WheelOutput, WheelState};

/// Puts a vehicle back at rest, all of it: the chassis at `to` (or where it is) with no
/// linear or angular velocity, the powertrain as a new one (engine at idle, first gear,
/// wheels straight) and every wheel's [`WheelState`] and [`WheelOutput`] cleared (the
/// vehicle's next step reads the wheels' last outputs for its traction control and ABS). The settings, the
/// tuning and the input are kept.
///
/// Trigger it from any system; it takes effect when the commands are applied, before the
/// next physics step:
///
/// ```
/// use bevy::prelude::*;
/// use wheelcollider_avian::prelude::*;
///
/// // A car that fell off the world starts again at the spawn.
/// fn respawn(cars: Query<(Entity, &Transform), With<Vehicle>>, mut commands: Commands) {
///     for (car, transform) in &cars {
///         if transform.translation.y < -50.0 {
///             let spawn = Transform::from_xyz(0.0, 1.0, 0.0);
///             commands.trigger(ResetVehicle { entity: car, to: Some(spawn) });
///         }
///     }
/// }
/// ```
///
/// A replay ([`DriveReplay`](crate::replay::DriveReplay)) starts from such a reset at
/// its recording's start, so that it runs bit for bit as recorded.
#[derive(EntityEvent, Clone, Copy, Debug, PartialEq)]
pub struct ResetVehicle {
    /// The vehicle's chassis.
    pub entity: Entity,
    /// Where to put it; `None` resets it where it stands.
    pub to: Option<Transform>,
}

/// The observer of [`ResetVehicle`].
pub(crate) fn reset_vehicle(
    reset: On<ResetVehicle>,
    mut cars: Query<(
        &mut Transform,
        &mut LinearVelocity,
        &mut AngularVelocity,
        &mut VehicleRuntime,
        &ChassisWheels,
    )>,
    mut wheels: Query<(&mut WheelState, &mut WheelOutput)>,
) {
    let Ok((mut transform, mut lin, mut ang, mut runtime, children)) = cars.get_mut(reset.entity) else {
        warn!("ResetVehicle: {} is not a vehicle with wheels", reset.entity);
        return;
    };
    if let Some(to) = reset.to {
        *transform = to;
    }
    lin.0 = Vec3::ZERO;
    ang.0 = Vec3::ZERO;
    if let Some(settings) = runtime.settings.clone() {
        runtime.state = Some(VehicleState::new(&settings));
    }
    for &w in children.wheels() {
        if let Ok((mut state, mut output)) = wheels.get_mut(w) {
            *state = WheelState::default();
            *output = WheelOutput::default();
        }
    }
}
