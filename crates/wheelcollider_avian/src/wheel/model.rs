//! The wheel model on one wheel, after its chassis' suspension solve: the core's step
//! with the solved suspension force, [`stage`]d up to the spin so that the chassis'
//! driveline can be solved with the driven wheels' tyres (`driveline.rs`), then
//! [`Staged::finish`]ed (spin, tyre, static friction); the force on the chassis, the
//! carried [`WheelState`] and every output into [`WheelOutput`]. The last stage of a
//! wheel's step (the table in `wheel/mod.rs`).

use super::components::*;
use super::contracts::Sensed;
use super::surface::Weather;
use bevy::prelude::*;
use wheelcollider_core::suspension::SuspensionForce;
use wheelcollider_core::{Staged, StepInput, StepOutput, Suspension, WheelSettings, stage};

/// Stages one wheel after the chassis' suspension solve (`force`, `None` in the air): the
/// core's step up to its spin ([`stage`]), for the driveline solve and [`finish_wheel`].
/// `Err` holds the output of a step that could not run.
// The core's `stage`: its error is smaller than the `Staged` it stands for.
#[allow(clippy::result_large_err)]
#[cfg_attr(feature = "stage-table", inline(never))] // a stage of its own in `--stages`
pub(super) fn stage_wheel<'a>(
    (dt, weather): (f32, &Weather),
    (sensed, force): (&Sensed, Option<SuspensionForce>),
    (settings, input): (&'a WheelSettings, WheelInput),
    state: &mut WheelState,
) -> Result<Staged<'a>, StepOutput> {
    let suspension = match (sensed.ground, force) {
        (Some(g), Some(force)) => Suspension::Solved {
            force,
            travel: g.travel,
        },
        _ => Suspension::default(),
    };
    if sensed.first
        && let Some(g) = &sensed.ground
    {
        // A wheel spawned on the ground starts at rest at its compression.
        state.step.compression = settings.suspension_length() - (g.contact.hit_distance - settings.radius());
    }
    let step_input = StepInput {
        input,
        contact: sensed.ground.map(|g| g.contact),
        suspension,
        ambient: weather.ambient(sensed.ground.as_ref().map(|g| &g.hit.surface)),
    };
    stage(settings, &mut state.step, step_input, dt)
}

/// Finishes one staged wheel: its spin (its own, or `driven`: the spin and drive torque
/// the driveline solve gave it), the force on the chassis, the state for the next step
/// and the outputs.
#[cfg_attr(feature = "stage-table", inline(never))] // a stage of its own in `--stages`
pub(super) fn finish_wheel(
    staged: &Result<Staged, StepOutput>,
    driven: Option<(f64, f64)>,
    sensed: &Sensed,
    state: &mut WheelState,
    output: &mut WheelOutput,
) {
    output.previous_pose = (output.output.current_suspension_length, state.step.angle, output.yaw);
    let out = match staged {
        Ok(staged) => staged.finish(&mut state.step, driven),
        Err(out) => *out,
    };
    if out.rejected_input {
        warn_once!("wheel {}: a non-finite input was replaced by 0", sensed.entity);
    }
    state.grounded = out.grounded;
    state.bump = out.bump;
    state.rise = sensed.ground.map(|g| g.rise);
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
    output.hit = sensed.ground.map(|g| g.hit);
    output.output = out;
    output.force = force;
    output.contact_position = position;
    output.forward_direction = forward;
    output.sideways_direction = sideways;
    output.suspension_direction = direction;
    output.up = up;
    output.mount_position = mount_pos;
    output.center = mount_pos - up * out.current_suspension_length;
    output.yaw = sensed.yaw;
    // Quat::from_rotation_x(−angle) with the core's sine and cosine (angle / 2 is in
    // [0, π)), a third of the cost of libm's.
    let (sin, cos) = wheelcollider_core::sin_cos_0_pi(0.5 * out.angle);
    output.rotation = sensed.wheel_rotation * Quat::from_xyzw(-sin, 0.0, 0.0, cos);
}
