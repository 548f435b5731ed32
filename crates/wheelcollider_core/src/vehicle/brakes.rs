//! Brakes and the driver aids: service brakes with their front / rear split, the
//! handbrake, ABS (hold each wheel's brake torque just below what its tyre can react)
//! and traction control (cut the throttle while a driven wheel spins past its peak).

use super::{VehicleSettings, VehicleState, WheelFeedback};

/// ABS holds each braked wheel's brake torque at this fraction of what its tyre can
/// react at the peak of its curve.
pub const ABS_PEAK_FRACTION: f32 = 0.97;
/// Below this speed (m/s) ABS is off, as in real cars: the wheels may lock to stop.
pub const ABS_MIN_SPEED: f32 = 2.0;

/// Service brakes, handbrake and the driver aids.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default, deny_unknown_fields))]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct BrakeSettings {
    /// Brake torque of the whole car at full pedal (N·m), ≥ 0, shared by the axles.
    pub max_torque: f32,
    /// Share of `max_torque` on the first (front) axle, 0..=1; the rest is shared
    /// equally by the other axles.
    pub front_bias: f32,
    /// Handbrake torque per wheel on the axles marked `handbrake` (N·m), ≥ 0.
    pub handbrake_torque: f32,
    /// Anti-lock brakes: keep each braked wheel just short of its peak slip (above
    /// 2 m/s). Off by default.
    pub abs: bool,
    /// Traction control: cut the throttle while a driven wheel slips past its peak. Off
    /// by default.
    pub traction_control: bool,
}

impl Default for BrakeSettings {
    fn default() -> Self {
        Self {
            max_torque: 8000.0,
            front_bias: 0.65,
            handbrake_torque: 2500.0,
            abs: false,
            traction_control: false,
        }
    }
}

/// Brake torque (N·m, ≥ 0 before the caller's clamp) of each wheel of `axle`: its share
/// of the service brake at pedal `brake`, limited by ABS when `abs_on`, plus the
/// handbrake's.
pub(crate) fn axle_brake_torques(
    spec: &VehicleSettings,
    axle: usize,
    brake: f32,
    handbrake: f32,
    abs_on: bool,
    wheels: [WheelFeedback; 2],
) -> [f32; 2] {
    let service = spec.brakes.max_torque * spec.brake_share(axle) * 0.5 * brake;
    let hand = if spec.axles[axle].handbrake {
        spec.brakes.handbrake_torque * handbrake
    } else {
        0.0
    };
    wheels.map(|w| {
        let mut service = service;
        if abs_on && service > 0.0 {
            // Hold the brake torque just below what the tyre can react at its peak;
            // release a wheel that has slipped far past the peak anyway.
            let cap = ABS_PEAK_FRACTION * w.radius * w.max_friction_force;
            service = service.min(cap);
            if w.forward_slip.abs() > 2.0 * w.peak_slip.max(0.01) {
                service = 0.0;
            }
        }
        service + hand
    })
}

/// Traction control: the throttle factor falls (6 /s) while a grounded driven wheel
/// spins past 1.5× its tyre's peak slip in the direction of drive, and recovers (2 /s)
/// otherwise. Returns `throttle` times the factor (or `throttle` when it is off).
pub(crate) fn traction_control(
    spec: &VehicleSettings,
    state: &mut VehicleState,
    shares: &[f32],
    ratio: f32,
    wheel: impl Fn(usize) -> WheelFeedback,
    throttle: f32,
    dt: f32,
) -> f32 {
    if !spec.brakes.traction_control {
        state.traction_factor = 1.0;
        return throttle;
    }
    let spinning = shares.iter().enumerate().any(|(a, s)| {
        *s > 0.0
            && [wheel(2 * a), wheel(2 * a + 1)]
                .iter()
                .any(|w| w.grounded && w.forward_slip * ratio.signum() > 1.5 * w.peak_slip.max(0.01))
    });
    state.traction_factor = if spinning {
        (state.traction_factor - 6.0 * dt).max(0.0)
    } else {
        (state.traction_factor + 2.0 * dt).min(1.0)
    };
    throttle * state.traction_factor
}
