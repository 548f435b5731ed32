//! Limits, errors and constants shared by every part of the model. A leaf module: it
//! uses nothing else in the crate, so settings, tyre, suspension and vehicle can all
//! depend on it without a cycle.

/// The largest magnitude any setting accepts; larger finite values clamp to it.
/// It is far beyond any physical wheel and keeps the model's arithmetic finite.
pub const MAX_VALUE: f32 = 1.0e9;

/// The stiffest spring a wheel accepts (N/m): a hundred times a race car's wheel rate,
/// rigid for any game. The plugin's implicit suspension is stable up to it (and beyond)
/// at every step rate; the limit keeps a typo from meaning "infinitely stiff".
pub const MAX_SPRING: f32 = 1.0e7;

/// The strongest damper a wheel accepts (N·s/m), bump or rebound: far past critical
/// damping for any car corner (a 300 kg corner on a 10⁷ N/m spring is critically damped
/// at 1.1·10⁵).
pub const MAX_DAMPING: f32 = 1.0e6;

/// A setting that could not be stored.
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
pub enum SettingsError {
    /// The value was NaN or infinite; the old value was kept.
    #[error("wheel setting `{field}` must be a finite number, got {value}")]
    NonFinite {
        /// The setting's name, as in the preset file.
        field: &'static str,
        /// The value that was refused.
        value: f32,
    },
    /// The value is outside the range in which the model means what it says (a tyre
    /// curve that would turn negative or fold back); the old value was kept.
    #[error("wheel setting `{field}` = {value} is refused: {condition}")]
    OutOfDomain {
        /// The setting's name, as in the preset file.
        field: &'static str,
        /// The value that was refused.
        value: f32,
        /// The condition it breaks, in words.
        condition: &'static str,
    },
}

impl SettingsError {
    /// The name of the setting the error is about.
    pub fn field(&self) -> &'static str {
        match self {
            Self::NonFinite { field, .. } | Self::OutOfDomain { field, .. } => field,
        }
    }
}

/// Checks that `value` is finite and clamps it into `[min, max]` (and into ±[`MAX_VALUE`]).
pub(crate) fn check(field: &'static str, value: f32, min: f32, max: f32) -> Result<f32, SettingsError> {
    if !value.is_finite() {
        return Err(SettingsError::NonFinite { field, value });
    }
    Ok(value.clamp(min.max(-MAX_VALUE), max.min(MAX_VALUE)))
}

/// Standard gravity (m/s²), as avian's default `Gravity` and the closed-form answers in
/// `docs/` use it.
pub const STANDARD_GRAVITY: f32 = 9.81;

/// Revolutions per minute in one rad/s: 60 / 2π.
pub const RAD_PER_S_TO_RPM: f32 = 60.0 / core::f32::consts::TAU;

/// `value` if it is finite, else 0: for a number that came from outside (a game, a
/// collider) and must not carry a NaN into the model.
#[inline]
pub fn finite_or_zero(value: f32) -> f32 {
    if value.is_finite() { value } else { 0.0 }
}
