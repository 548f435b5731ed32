//! Applying each chassis' one force channel ([`ChassisForces`]) to its body, keeping its
//! free part for the next step's suspension solve, then the opposite forces to dynamic
//! bodies the wheels stand on. Serial: a body is written once.

use super::components::*;
use avian3d::prelude::*;
use bevy::prelude::*;

/// Applies each chassis' [`ChassisForces`] (the wheels' sums and every body part's) to
/// its body in one write, and keeps their free part in its [`ChassisState`]; then the
/// opposite force to a dynamic body a wheel stands on, for the chassis that have such a
/// wheel. Serial (a body's forces have one writer); its cost is in
/// `docs/performance.md`.
#[cfg_attr(feature = "stage-table", inline(never))] // a stage of its own in `--stages`
pub(crate) fn apply_forces(
    wheels: Query<&WheelOutput>,
    chassis: Query<(Entity, &ChassisWheels, &ChassisForces)>,
    mut bodies: ParamSet<(Query<(Forces, &ChassisForces, &mut ChassisState)>, Query<Forces>)>,
) {
    for (mut forces, sums, mut state) in &mut bodies.p0() {
        forces.apply_force(sums.force);
        forces.apply_torque(sums.torque);
        forces.apply_angular_acceleration(sums.angular_acceleration);
        let state = state.bypass_change_detection();
        (state.free_force, state.free_torque) = (sums.free_force, sums.free_torque);
    }
    let mut others = bodies.p1();
    for (entity, children, _) in chassis.iter().filter(|(_, _, b)| b.reactions) {
        for output in wheels.iter_many(children.wheels()) {
            if let Some(hit) = output.hit
                && hit.dynamic
                && output.output.grounded
                && let Some(body) = hit.body
                && body != entity
                && let Ok(mut forces) = others.get_mut(body)
            {
                forces.apply_force_at_point(-output.force, hit.point);
            }
        }
    }
}
