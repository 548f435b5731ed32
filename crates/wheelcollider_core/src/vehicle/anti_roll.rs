//! The anti-roll bar: a torsion spring between the two wheels of an axle, pushing each
//! with `stiffness × (compression difference)`, the compressed side down and the other
//! up, so it moves load across the axle and adds none.
//!
//! The Bevy plugin solves the bar implicitly with the suspension (`AntiRollBar`); this
//! explicit force is for users of the core alone.

use super::WheelFeedback;

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
