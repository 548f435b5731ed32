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
    time: Res<Time>,
    wheels: Query<&WheelOutput>,
    chassis: Query<(Entity, &ChassisWheels, &ChassisForces)>,
    mut bodies: ParamSet<(
        Query<(
            Forces,
            &ChassisForces,
            &mut ChassisState,
            &ComputedAngularInertia,
            &Rotation,
        )>,
        Query<Forces>,
    )>,
) {
    let dt = time.delta_secs();
    for (mut forces, sums, mut state, inertia, rotation) in &mut bodies.p0() {
        let spin = forces.angular_velocity();
        let gyro = implicit_rotor(sums, (inertia, rotation.0), spin, dt);
        forces.apply_force(sums.force);
        forces.apply_torque(sums.torque + gyro);
        forces.apply_angular_acceleration(sums.angular_acceleration);
        let state = state.bypass_change_detection();
        (state.free_force, state.free_torque) = (sums.free_force, sums.free_torque + gyro);
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

/// The change (N·m, world) that takes the wheels' gyroscopic torque with the chassis'
/// own turning, `L × ω` (in the channel at the step's start, [`ChassisForces::add_rotor`]),
/// at the step's mean angular velocity `(ω + ω')/2` (the trapezoidal rule: a gyroscopic
/// exchange between roll and yaw neither gains energy, as at the start, nor loses it, as
/// at the end): `I·(ω' − ω)/dt = τ − L×ω + L×(ω + ω')/2 + I·α` is linear in `ω'` (`I` the
/// chassis' inertia in the world, `τ` the channel's torque, `α` its inertia-free angular
/// acceleration); avian's contacts and joints are not in it. Zero without rotors, or
/// where the solve is not finite.
fn implicit_rotor(
    sums: &ChassisForces,
    (inertia, rotation): (&ComputedAngularInertia, Quat),
    spin: Vec3,
    dt: f32,
) -> Vec3 {
    let l = sums.rotor;
    if l == Vec3::ZERO || dt <= 0.0 {
        return Vec3::ZERO;
    }
    // The chassis' inertia in the world, built only where there are rotors.
    let world = inertia.rotated(rotation).value();
    let inertia = Mat3::from_cols(
        world.mul_vec3(Vec3::X),
        world.mul_vec3(Vec3::Y),
        world.mul_vec3(Vec3::Z),
    );
    let explicit = l.cross(spin);
    // [L]×: the matrix of v ↦ L × v.
    let cross = Mat3::from_cols(
        Vec3::new(0.0, l.z, -l.y),
        Vec3::new(-l.z, 0.0, l.x),
        Vec3::new(l.y, -l.x, 0.0),
    );
    let a = inertia / dt - cross * 0.5;
    let b = inertia * spin / dt + (sums.torque - explicit * 0.5) + inertia * sums.angular_acceleration;
    let end = a.inverse() * b;
    let change = l.cross(0.5 * (spin + end)) - explicit;
    if change.is_finite() { change } else { Vec3::ZERO }
}
