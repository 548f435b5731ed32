//! The anti-roll bar: a torsion spring between the two wheels of an axle, pushing each
//! with `stiffness × (compression difference)`, the compressed side down and the other
//! up, so it moves load across the axle and adds none.
//!
//! The Bevy plugin solves the bar implicitly with the suspension (`AntiRollBar`), so
//! [`step_vehicle`](super::step_vehicle) leaves every `anti_roll_force` at 0; a user of
//! the core alone adds the explicit force with [`apply_bars`] after it.

use super::{VehicleSettings, WheelFeedback};
use crate::WheelInput;

/// Writes each axle's explicit bar force ([`bar_force`]) into its two wheels' `anti_roll_force`
/// (`out[2·axle]` left, `out[2·axle + 1]` right), from the wheels' feedback of the last
/// step: for a loop that steps the core's wheels itself, after
/// [`step_vehicle`](super::step_vehicle). Wheels missing from `wheels` or `out` are
/// skipped, and so is a [`single`](super::AxleSettings::single) axle (no bar).
pub fn apply_bars(settings: &VehicleSettings, wheels: &[WheelFeedback], out: &mut [WheelInput]) {
    for (axle, a) in settings.axles.iter().enumerate().filter(|(_, a)| !a.single) {
        let (l, r) = (2 * axle, 2 * axle + 1);
        let (Some(wl), Some(wr)) = (wheels.get(l), wheels.get(r)) else {
            continue;
        };
        let roll = crate::limits::finite_or_zero(bar_force(a.anti_roll_stiffness, wl, wr));
        if r < out.len() {
            out[l].anti_roll_force = roll;
            out[r].anti_roll_force = -roll;
        }
    }
}

/// The bar's force on the left wheel (N); the right wheel gets its opposite. The bar
/// acts between two grounded wheels only: with one end in the air it would add its
/// force to the grounded wheel and throw the other half away (net lift).
pub fn bar_force(stiffness: f32, left: &WheelFeedback, right: &WheelFeedback) -> f32 {
    if left.grounded && right.grounded {
        stiffness * (left.compression - right.compression)
    } else {
        0.0
    }
}
