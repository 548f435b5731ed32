//! Applying the wheels' forces: each chassis' sums to its body, then the opposite
//! forces to dynamic bodies the wheels stand on. Serial: a body is written once.

use super::components::*;
use avian3d::prelude::*;
use bevy::prelude::*;

/// Applies the wheels' forces: per chassis, the sums [`step_wheels`](super::step::step_wheels) kept (the same as
/// each wheel's force at its contact point, with one write per body); then the opposite
/// force to a dynamic body a wheel stands on, for the chassis that have such a wheel.
/// Serial (a body's forces have one writer); its cost is in `docs/performance.md`.
#[allow(clippy::type_complexity)]
pub(crate) fn apply_forces(
    wheels: Query<&WheelOutput>,
    chassis: Query<(Entity, &ChassisWheels, &ChassisState)>,
    mut bodies: ParamSet<(Query<(Forces, &ChassisState)>, Query<Forces>)>,
) {
    for (mut forces, chassis_state) in &mut bodies.p0() {
        if chassis_state.grounded_wheels > 0 {
            forces.apply_force(chassis_state.force);
            forces.apply_torque(chassis_state.torque);
        }
    }
    let mut others = bodies.p1();
    for (entity, children, _) in chassis.iter().filter(|(_, _, b)| b.reactions) {
        for state in wheels.iter_many(children.wheels()) {
            if let Some(hit) = state.hit
                && hit.dynamic
                && state.output.grounded
                && let Some(body) = hit.body
                && body != entity
                && let Ok(mut forces) = others.get_mut(body)
            {
                forces.apply_force_at_point(-state.force, hit.point);
            }
        }
    }
}
