//! A standalone wheel's suspension (`Suspension::Explicit`): its spring, damper and
//! speculative bump stop from its contact alone (`docs/wheel-model.md` 2a), for the
//! `suspension` stage (`stages::suspension`). The plugin solves a chassis' wheels together instead.

use crate::limits::MAX_VALUE;
use crate::settings::WheelSettings;
use crate::suspension::BUMP_STOP_BAUMGARTE;

/// One wheel's suspension forces (N), as the stage reads them: from the chassis' solve
/// or from [`explicit_suspension`].
pub(super) struct SuspensionParts {
    pub spring: f64,
    pub damper: f64,
    pub bump_stop: f64,
    /// What the suspension pushes in all.
    pub total: f64,
    /// What the tyre grips with: `total` less the bump stop's impulse.
    pub tyre_load: f64,
}

/// The standalone (explicit) suspension of one wheel from its contact alone (see
/// `docs/wheel-model.md` 2a). `mass` and `approach` are [`super::Suspension::Explicit`]'s.
pub(super) fn explicit_suspension(
    settings: &WheelSettings,
    (compression, speed): (f64, f64),
    (mass, approach): (f32, f32),
    anti_roll: f64,
    dt: f64,
) -> SuspensionParts {
    let length = settings.suspension_length() as f64;
    let (rate, preload) = settings.spring_law(compression);
    let spring = (rate * compression + preload).max(0.0);
    let damping = if speed > 0.0 {
        settings.suspension_bump()
    } else {
        settings.suspension_rebound()
    };
    let damper = speed * damping as f64;
    // Bump stop, speculative: act in the step that would carry the compression past full
    // travel, not the step after.
    let overshoot = compression - length;
    let allowed_speed = if overshoot > 0.0 {
        -BUMP_STOP_BAUMGARTE * overshoot / dt
    } else {
        -overshoot / dt
    };
    let stop_speed = if mass > 0.0 {
        (approach as f64).clamp(-(MAX_VALUE as f64), MAX_VALUE as f64)
    } else {
        speed
    };
    let bump_stop = if stop_speed > allowed_speed {
        // Unknown mass: assume the corner carries what the spring holds at full
        // compression, k·length/g; springs are sized not to bottom out at rest.
        let m = match mass {
            m if m > 0.0 => m as f64,
            _ => (settings.suspension_spring() as f64 * length / crate::STANDARD_GRAVITY as f64).max(1.0),
        };
        // A velocity-level contact, stable at any dt: together with the spring and damper,
        // bring the compression speed down to what reaches full travel at the end of this
        // step (past it: push out a fraction of the overshoot).
        let needed = m * (stop_speed - allowed_speed) / dt;
        (needed - spring - damper).max(0.0)
    } else {
        0.0
    };
    let load = (spring + damper + bump_stop + anti_roll).clamp(0.0, MAX_VALUE as f64);
    // The tyre grips with the suspension's load, not with the bump stop's impulse: that
    // force exists to stop the travel within a step and can be many times the weight
    // (`suspension` tests: a drop onto bumps).
    SuspensionParts {
        spring,
        damper,
        bump_stop,
        total: load,
        tyre_load: (load - bump_stop).max(0.0),
    }
}
