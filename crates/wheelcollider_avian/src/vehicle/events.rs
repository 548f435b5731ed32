//! The vehicle's event: [`GearChanged`], for chassis with
//! [`WheelEventsEnabled`](crate::wheel::WheelEventsEnabled) (see `wheel/events.rs` for
//! the wheels' events and how they are delivered).

use bevy::prelude::*;

use super::VehicleTelemetry;
use crate::wheel::WheelEventsEnabled;
use crate::wheel::events::send;

/// A vehicle's gearbox finished a shift.
#[derive(EntityEvent, Message, Clone, Copy, Debug, PartialEq)]
pub struct GearChanged {
    /// The vehicle (its chassis).
    #[event_target]
    pub vehicle: Entity,
    /// The gear it left: −1 reverse, 0 neutral, 1..=n.
    pub from: i32,
    /// The gear it is in.
    pub to: i32,
}

/// The gear of the last step, per vehicle with events enabled (managed by the plugin;
/// a rollback library restores it so that a re-simulated shift fires as the first one
/// did).
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq)]
#[reflect(Component)]
pub struct GearState(pub i32);

/// [`GearChanged`] once per finished shift, after the vehicle step.
pub(crate) fn gear_events(
    mut commands: Commands,
    mut vehicles: Query<(Entity, &VehicleTelemetry, Option<&mut GearState>), With<WheelEventsEnabled>>,
) {
    for (entity, telemetry, memory) in &mut vehicles {
        let gear = telemetry.powertrain.gear;
        match memory {
            None => {
                commands.entity(entity).insert(GearState(gear));
            }
            Some(mut last) if last.0 != gear => {
                let event = GearChanged {
                    vehicle: entity,
                    from: last.0,
                    to: gear,
                };
                send(&mut commands, event);
                last.0 = gear;
            }
            Some(_) => {}
        }
    }
}
