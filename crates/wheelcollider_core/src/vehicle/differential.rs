//! Differentials: how each kind shares torque between its two outputs, and the
//! distribution of the gearbox's torque: the centre differential between the first
//! two driven axles, then each driven axle's between its wheels.
//!
//! A locked or limited-slip differential is a friction coupling solved as a velocity
//! constraint, like the clutch: the torque moved from one side to the other that gives
//! both the same speed at the end of the step, with the drive and the tyres' last
//! reaction fed forward, clamped to the capacity (`preload + locking·|T_in|` for a
//! limited-slip one, unbounded for a locked one, 0 for an open one).

use super::{VehicleSettings, WheelFeedback, WheelInput, finite};
use crate::limits::MAX_VALUE;

/// How a differential shares torque between its two outputs.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub enum DifferentialKind {
    /// Equal torque to both sides, whatever their speeds: a wheel on ice spins and the
    /// other gets no more than it.
    #[default]
    Open,
    /// Both sides turn at the same speed, with whatever torque that takes.
    Locked,
    /// A clutch-type (Salisbury) limited-slip differential: it moves torque from the
    /// faster side to the slower one, up to `preload + locking · |input torque|` (N·m)
    /// on power and `preload + coast_locking · |input torque|` on the overrun (engine
    /// braking). The ramp angles set the two: a **1-way** unit locks on power only
    /// (`coast_locking: Some(0.0)`), a **1.5-way** one locks less on the overrun
    /// (about half), a **2-way** one the same both ways (`None`, the default).
    LimitedSlip {
        /// Locking torque with no input torque (N·m), ≥ 0.
        preload: f32,
        /// Extra locking torque per N·m of input torque on power, ≥ 0 (0.3–1 typical).
        locking: f32,
        /// Extra locking torque per N·m of input torque on the overrun, ≥ 0; `None`:
        /// the same as `locking` (2-way).
        #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
        coast_locking: Option<f32>,
    },
}

/// Locking capacity (N·m) of a differential passing `input` N·m (on the overrun when
/// `coasting`).
fn capacity_of(kind: DifferentialKind, input: f32, coasting: bool) -> f32 {
    match kind {
        DifferentialKind::Open => 0.0,
        DifferentialKind::Locked => MAX_VALUE,
        DifferentialKind::LimitedSlip {
            preload,
            locking,
            coast_locking,
        } => {
            let k = if coasting {
                coast_locking.unwrap_or(locking)
            } else {
                locking
            };
            preload + k * input.abs()
        }
    }
}

/// Whether a differential passing `input` N·m to outputs turning at a mean `speed`
/// (rad/s) is on the overrun: the input holds the outputs back (engine braking).
fn coasting(input: f32, speed: f32) -> bool {
    input * speed < 0.0
}

/// One output of a differential, as the coupling sees it.
#[derive(Clone, Copy)]
struct Side {
    /// Speed (rad/s).
    speed: f32,
    /// Inertia (kg·m²).
    inertia: f32,
    /// The tyres' reaction last step (N·m).
    tyre_torque: f32,
    /// Drive torque before the coupling (N·m).
    drive: f32,
}

/// A friction coupling between two outputs: the torque moved from `a` to `b` that gives
/// both the same speed at the end of this step, with the drive and the tyres' last
/// reaction fed forward, clamped to the capacity.
fn couple(a: Side, b: Side, capacity: f32, dt: f32) -> f32 {
    if capacity <= 0.0 || a.inertia <= 0.0 || b.inertia <= 0.0 {
        return 0.0;
    }
    let predicted =
        (a.speed - b.speed) + dt * ((a.drive - a.tyre_torque) / a.inertia - (b.drive - b.tyre_torque) / b.inertia);
    let t = predicted / (dt * (1.0 / a.inertia + 1.0 / b.inertia));
    finite(t).clamp(-capacity, capacity)
}

/// Splits `wheel_torque` (N·m, at the gearbox output) over the driven axles by
/// `shares`, through the centre differential and each axle's, into the wheels' drive
/// torques in `out`. Returns the torque the centre differential moved from the first
/// driven axle to the second (N·m).
pub(crate) fn distribute(
    settings: &VehicleSettings,
    shares: &[f32],
    wheel_torque: f32,
    wheel: impl Fn(usize) -> WheelFeedback,
    out: &mut [WheelInput],
    n_axles: usize,
    dt: f32,
) -> f32 {
    let mut centre_transfer = 0.0;
    let mut axle_torque = [0.0f32; 16];
    for (a, s) in shares.iter().enumerate() {
        axle_torque[a] = wheel_torque * s;
    }
    let driven: [Option<usize>; 2] = {
        let mut it = shares.iter().enumerate().filter(|(_, s)| **s > 0.0).map(|(a, _)| a);
        [it.next(), it.next()]
    };
    if let [Some(f), Some(r)] = driven {
        let side = |a: usize| {
            let (l, r) = (wheel(2 * a), wheel(2 * a + 1));
            let reflected = out[2 * a].drivetrain_inertia + out[2 * a + 1].drivetrain_inertia;
            Side {
                speed: 0.5 * (l.angular_velocity + r.angular_velocity),
                inertia: l.inertia + r.inertia + reflected,
                tyre_torque: l.tyre_torque + r.tyre_torque,
                drive: axle_torque[a],
            }
        };
        let (a, b) = (side(f), side(r));
        let input = axle_torque[f] + axle_torque[r];
        let cap = capacity_of(settings.centre_differential, input, coasting(input, a.speed + b.speed));
        let t = couple(a, b, cap, dt);
        axle_torque[f] -= t;
        axle_torque[r] += t;
        centre_transfer = t;
    }
    #[allow(clippy::needless_range_loop)]
    for a in 0..n_axles {
        let (l, r) = (2 * a, 2 * a + 1);
        if shares.get(a).copied().unwrap_or(0.0) <= 0.0 {
            continue;
        }
        let side = |i: usize| {
            let w = wheel(i);
            Side {
                speed: w.angular_velocity,
                inertia: w.inertia + out[i].drivetrain_inertia,
                tyre_torque: w.tyre_torque,
                drive: 0.5 * axle_torque[a],
            }
        };
        let (sl, sr) = (side(l), side(r));
        let coast = coasting(axle_torque[a], sl.speed + sr.speed);
        let cap = capacity_of(settings.axles[a].differential, axle_torque[a], coast);
        let t = couple(sl, sr, cap, dt);
        out[l].drive_torque = finite(0.5 * axle_torque[a] - t);
        out[r].drive_torque = finite(0.5 * axle_torque[a] + t);
    }
    centre_transfer
}
