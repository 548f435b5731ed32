//! Settings changed under a moving wheel, taken in once, at the top of its step, before
//! anything is sensed: every later stage sees a state that already agrees with the
//! settings.
//!
//! The rule: an edit never releases energy in a step. A stiffer spring at the same
//! compression, a larger preload (a raised ride height), or a longer travel, would push
//! harder at once; a longer travel or a
//! larger radius moves the compression without any motion, which the damper would read
//! as a speed and the bump stop as a landing. So the spring's relaxed compression
//! ([`WheelState::spring_offset`]) moves to keep its force, then relaxes back to 0 over
//! [`SPRING_RELAX_TIME`], at most [`SPRING_RELAX_SPEED`]; and the last step's compression
//! moves with the geometry. Guarded by `world::runtime_changes` and the inspector's
//! every-field tests.

use super::components::WheelState;
use wheelcollider_core::math;
use wheelcollider_core::{WheelSettings, finite_or_zero};

/// How long a spring offset takes to relax by a factor e (s).
pub(crate) const SPRING_RELAX_TIME: f32 = 0.5;

/// The fastest a spring offset relaxes (m/s): the car rises to a new ride height over
/// seconds instead of being thrown up.
pub(crate) const SPRING_RELAX_SPEED: f32 = 0.25;

/// Takes in this step's settings: moves the spring's offset and the last compression
/// for a changed geometry (travel + radius) or a stiffer spring, and relaxes the offset
/// by `dt` (s). Returns whether this is the wheel's first step (it has no state yet).
pub(crate) fn take_edits(settings: &WheelSettings, state: &mut WheelState, dt: f32) -> bool {
    let k = settings.suspension_spring();
    let geometry = settings.suspension_length() + settings.radius();
    let first = state.geometry == 0.0;
    let moved = if first { 0.0 } else { geometry - state.geometry };
    state.spring_offset += moved;
    if state.stiffness > 0.0 && k > state.stiffness && state.grounded {
        let x = state.step.compression;
        state.spring_offset = x - state.stiffness / k * (x - state.spring_offset);
    }
    let preload = settings.spring_preload();
    if !first && preload > state.preload && state.grounded && k > 0.0 {
        state.spring_offset += (preload - state.preload) / k;
    }
    if moved != 0.0 && state.step.compression != 0.0 {
        state.step.compression += moved;
    }
    state.geometry = geometry;
    state.stiffness = k;
    state.preload = preload;
    if state.spring_offset != 0.0 {
        let relaxed = state.spring_offset * math::exp(-dt / SPRING_RELAX_TIME);
        let step = SPRING_RELAX_SPEED * dt;
        state.spring_offset = finite_or_zero(relaxed.clamp(state.spring_offset - step, state.spring_offset + step));
    }
    first
}
