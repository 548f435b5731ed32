//! Wheels joining their chassis, and their settings checked when they change.

use super::components::*;
use avian3d::prelude::*;
use bevy::prelude::*;

/// When a [`WheelCollider`] is added without a [`WheelOf`], attach it to its nearest
/// [`RigidBody`] ancestor.
pub(crate) fn attach_wheel(
    add: On<Add, WheelCollider>,
    mut commands: Commands,
    wheels: Query<(), With<WheelOf>>,
    parents: Query<&ChildOf>,
    bodies: Query<(), With<RigidBody>>,
) {
    let wheel = add.entity;
    if wheels.contains(wheel) {
        return;
    }
    match body_above(wheel, &parents, &bodies) {
        Some(body) => {
            commands.entity(wheel).insert(WheelOf(body));
        }
        None => warn!(
            "wheel {wheel} has no rigid-body ancestor: it does nothing until it is made a child of one or you insert `WheelOf(chassis)`"
        ),
    }
}

/// When a [`WheelCollider`] without a [`WheelOf`] is given a parent later (spawned
/// first, then `add_child`), attach it to its nearest [`RigidBody`] ancestor then. A
/// wheel that already has a `WheelOf` keeps it.
pub(crate) fn attach_reparented_wheel(
    insert: On<Insert, ChildOf>,
    mut commands: Commands,
    wheels: Query<(), (With<WheelCollider>, Without<WheelOf>)>,
    parents: Query<&ChildOf>,
    bodies: Query<(), With<RigidBody>>,
) {
    let wheel = insert.entity;
    if !wheels.contains(wheel) {
        return;
    }
    if let Some(body) = body_above(wheel, &parents, &bodies) {
        commands.entity(wheel).insert(WheelOf(body));
    }
}

/// The nearest [`RigidBody`] ancestor of `wheel`.
fn body_above(wheel: Entity, parents: &Query<&ChildOf>, bodies: &Query<(), With<RigidBody>>) -> Option<Entity> {
    parents.iter_ancestors(wheel).find(|e| bodies.contains(*e))
}

/// Re-validates settings that changed (by reflection, a preset, an inspector): clamps,
/// resets non-finite fields to their defaults and logs which one it was.
#[cfg_attr(feature = "stage-table", inline(never))] // a stage of its own in `--stages`
pub(crate) fn validate_settings(mut wheels: Query<(Entity, &mut WheelCollider), Changed<WheelCollider>>) {
    for (entity, mut wheel) in &mut wheels {
        let (clean, error) = wheel.sanitized();
        if let Some(error) = error {
            error!("wheel {entity}: {error}; reset to its default");
        }
        if clean != wheel.0 {
            wheel.bypass_change_detection().0 = clean;
        }
    }
}

/// Copies a chassis' marker component to its wheels, for a library that acts only on
/// marked entities (a networking library's prediction marker, a rollback marker, a
/// game's own layer): `app.mark_wheels_with::<Predicted>()`. Then a wheel has `M`
/// whenever its chassis has it: when `M` is inserted on the chassis (its current value
/// is cloned to every wheel), when a wheel joins a chassis that has it, and `M` is removed
/// from the wheels when it is removed from the chassis. Tested by
/// `vehicle::multiplayer::a_chassis_marker_reaches_its_wheels`.
pub trait MarkWheelsWith {
    /// Keeps `M` on every wheel of a chassis that has it (see the trait).
    fn mark_wheels_with<M: Component + Clone>(&mut self) -> &mut Self;
}

impl MarkWheelsWith for App {
    fn mark_wheels_with<M: Component + Clone>(&mut self) -> &mut Self {
        self.add_observer(chassis_marked::<M>)
            .add_observer(chassis_unmarked::<M>)
            .add_observer(wheel_joined::<M>)
    }
}

fn chassis_marked<M: Component + Clone>(
    insert: On<Insert, M>,
    mut commands: Commands,
    chassis: Query<(&M, &ChassisWheels)>,
) {
    if let Ok((marker, wheels)) = chassis.get(insert.entity) {
        for &wheel in wheels.wheels() {
            commands.entity(wheel).insert(marker.clone());
        }
    }
}

fn chassis_unmarked<M: Component + Clone>(
    remove: On<Remove, M>,
    mut commands: Commands,
    chassis: Query<&ChassisWheels>,
) {
    if let Ok(wheels) = chassis.get(remove.entity) {
        for &wheel in wheels.wheels() {
            if let Ok(mut w) = commands.get_entity(wheel) {
                w.try_remove::<M>();
            }
        }
    }
}

fn wheel_joined<M: Component + Clone>(
    insert: On<Insert, WheelOf>,
    mut commands: Commands,
    wheels: Query<&WheelOf>,
    chassis: Query<&M>,
) {
    if let Ok(of) = wheels.get(insert.entity)
        && let Ok(marker) = chassis.get(of.0)
    {
        commands.entity(insert.entity).insert(marker.clone());
    }
}
