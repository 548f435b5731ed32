//! The wheel model on one wheel, after its chassis' suspension solve: the core's
//! [`step`] (tyre, spin, static friction) with the solved suspension force, then the
//! force on the chassis and every output into [`WheelState`].

use super::components::*;
use super::contact::Sensed;
use bevy::prelude::*;
use wheelcollider_core::{StepInput, step};

/// Finishes one wheel after the chassis' suspension solve: the core's step (tyre, spin,
/// static friction) with the solved suspension force, the force on the chassis, and the
/// outputs into `state`.
pub(super) fn finish_wheel(
    dt: f32,
    sensed: &Sensed,
    wheel: &WheelCollider,
    input: &WheelInput,
    state: &mut WheelState,
) {
    let settings = &wheel.0;
    let (radius, length) = (settings.radius(), settings.suspension_length());
    let contact = sensed.ground.map(|g| g.contact);
    let step_input = StepInput {
        drive_torque: input.drive_torque,
        brake_torque: input.brake_torque,
        drivetrain_inertia: input.drivetrain_inertia,
        drivetrain_friction_torque: input.drivetrain_friction_torque,
        anti_roll_force: input.anti_roll_force,
        contact,
    };
    // A change of travel or radius moves the compression without any motion: shift
    // the damper's memory with it so it does not read the jump as a speed.
    let geometry = length + radius;
    if state.geometry == 0.0
        && let Some(c) = &step_input.contact
    {
        // First step of a wheel spawned on the ground: it starts at rest.
        state.step_state.compression = length - (c.hit_distance - radius);
    }
    if state.geometry > 0.0 && state.geometry != geometry && state.step_state.compression != 0.0 {
        state.step_state.compression += geometry - state.geometry;
    }
    state.geometry = geometry;
    state.previous_pose = (
        state.output.current_suspension_length,
        state.step_state.angle,
        state.yaw,
    );
    let out = step(settings, &mut state.step_state, step_input, dt);
    if out.rejected_input {
        warn_once!("wheel {}: a non-finite input was replaced by 0", sensed.entity);
    }
    let (up, mount_pos) = (sensed.up, sensed.mount_position);
    let (mut force, forward, sideways, position, direction) = match &sensed.ground {
        Some(g) => (
            g.direction * out.load + g.forward * out.forward_force + g.sideways * out.sideways_force,
            g.forward,
            g.sideways,
            g.position,
            g.direction,
        ),
        None => (Vec3::ZERO, Vec3::ZERO, Vec3::ZERO, mount_pos, up),
    };
    if !force.is_finite() {
        error!("wheel {} produced a non-finite force {force}; dropped", sensed.entity);
        force = Vec3::ZERO;
    }
    state.hit = sensed.ground.map(|g| g.hit);
    state.rise_memory = sensed.ground.as_ref().map(super::suspension::remember);
    state.output = out;
    state.force = force;
    state.contact_position = position;
    state.forward_direction = forward;
    state.sideways_direction = sideways;
    state.suspension_direction = direction;
    state.up = up;
    state.mount_position = mount_pos;
    state.center = mount_pos - up * out.current_suspension_length;
    state.yaw = sensed.yaw;
    // Quat::from_rotation_x(−angle) with the core's sine and cosine (angle / 2 is in
    // [0, π)), a third of the cost of libm's.
    let (sin, cos) = wheelcollider_core::sin_cos_0_pi(0.5 * out.angle);
    state.rotation = sensed.wheel_rotation * Quat::from_xyzw(-sin, 0.0, 0.0, cos);
}
