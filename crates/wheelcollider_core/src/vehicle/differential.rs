//! Differentials: how each kind shares torque between its two outputs, and the
//! distribution of the gearbox's torque: the centre differential between the first
//! two driven axles, then each driven axle's between its wheels.
//!
//! This split is fed forward from the last step's tyres: a locked or limited-slip
//! differential moves the torque from one side to the other that gives both the same
//! speed at the end of the step, predicted with the drive and the tyres' last
//! reaction, the torque difference clamped to the capacity (`preload + locking·|T_in|`
//! for a limited-slip one, unbounded for a locked one, 0 for an open one). The wheels'
//! step then solves the same couplings with this step's tyres ([`Driveline`],
//! [`solve_driveline`](super::solve_driveline)); the split here is that solve's first
//! guess and what a wheel stepped on its own gets.

use super::{Coupling, Driveline, DrivenAxle, MAX_DRIVEN_AXLES, VehicleSettings, WheelFeedback, WheelInput, finite};
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
    /// A limited-slip differential (clutch-type Salisbury or gear-type Torsen): it
    /// moves torque from the faster side to the slower one while the **difference**
    /// between the two sides' torques stays within its capacity,
    /// `|T_left − T_right| ≤ preload + locking · |T_in|` (N·m) on power and
    /// `preload + coast_locking · |T_in|` on the overrun (engine braking), `T_in` the
    /// torque into the differential. The ramp angles set the two: a **1-way** unit
    /// locks on power only (`coast_locking: Some(0.0)`), a **1.5-way** one locks less
    /// on the overrun (about half), a **2-way** one the same both ways (`None`, the
    /// default).
    ///
    /// From a datasheet (without preload): a **bias ratio** `B` (the most the slower
    /// side gets over the faster one's, a Torsen's "2.5:1") is
    /// `locking = (B − 1)/(B + 1)`, and back `B = (1 + locking)/(1 − locking)`
    /// ([`DifferentialKind::bias_ratio`]); a **locking percentage** (a Salisbury's
    /// "40 %": the torque difference over the input torque) is `locking = 0.40`.
    /// `locking` ≥ 1 locks fully on power.
    LimitedSlip {
        /// The torque difference it holds with no input torque (N·m), ≥ 0.
        preload: f32,
        /// The torque difference it holds per N·m of input torque on power, ≥ 0
        /// (0.2–0.6 typical; 0.43 is a 2.5:1 Torsen).
        locking: f32,
        /// The torque difference it holds per N·m of input torque on the overrun, ≥ 0;
        /// `None`: the same as `locking` (2-way).
        #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
        coast_locking: Option<f32>,
    },
}

impl DifferentialKind {
    /// The bias ratio on power (the most torque the slower side gets per N·m of the
    /// faster side's, with no preload): 1 open, `(1 + locking)/(1 − locking)` limited
    /// slip, infinite locked (and for `locking` ≥ 1).
    pub fn bias_ratio(&self) -> f32 {
        match *self {
            DifferentialKind::Open => 1.0,
            DifferentialKind::Locked => f32::INFINITY,
            DifferentialKind::LimitedSlip { locking, .. } if locking < 1.0 => (1.0 + locking) / (1.0 - locking),
            DifferentialKind::LimitedSlip { .. } => f32::INFINITY,
        }
    }

    /// The `locking` that gives a bias ratio `bias` (≥ 1; below clamps to 1, open):
    /// `(bias − 1)/(bias + 1)`.
    pub fn locking_for_bias(bias: f32) -> f32 {
        let b = if bias.is_nan() { 1.0 } else { bias.max(1.0) };
        if b.is_infinite() { 1.0 } else { (b - 1.0) / (b + 1.0) }
    }

    /// The coupling this differential gives the driveline solve for an input torque
    /// that is `coasting` (on the overrun).
    fn coupling(&self, coasting: bool) -> Coupling {
        match *self {
            DifferentialKind::Open => Coupling::Open,
            DifferentialKind::Locked => Coupling::Locked,
            DifferentialKind::LimitedSlip {
                preload,
                locking,
                coast_locking,
            } => Coupling::Limited {
                preload,
                locking: if coasting {
                    coast_locking.unwrap_or(locking)
                } else {
                    locking
                },
            },
        }
    }
}

/// Locking capacity (N·m): the torque difference between the outputs that a differential passing `input` N·m (on the overrun when
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
/// reaction fed forward, clamped so that the difference it makes (twice what it moves)
/// stays within `capacity`.
fn couple(a: Side, b: Side, capacity: f32, dt: f32) -> f32 {
    if capacity <= 0.0 || a.inertia <= 0.0 || b.inertia <= 0.0 {
        return 0.0;
    }
    let predicted =
        (a.speed - b.speed) + dt * ((a.drive - a.tyre_torque) / a.inertia - (b.drive - b.tyre_torque) / b.inertia);
    let t = predicted / (dt * (1.0 / a.inertia + 1.0 / b.inertia));
    let half = 0.5 * capacity;
    finite(t).clamp(-half, half)
}

/// Splits `wheel_torque` (N·m, at the gearbox output) over the driven axles by
/// `shares`, through the centre differential and each axle's, into the wheels' drive
/// torques in `inputs`. Returns the torque the centre differential moved from the first
/// driven axle to the second (N·m), and the [`Driveline`]'s shares and couplings (its
/// torque, inertia and friction are the caller's).
pub(crate) fn distribute(
    settings: &VehicleSettings,
    shares: &[f32],
    wheel_torque: f32,
    wheel: impl Fn(usize) -> WheelFeedback,
    inputs: &mut [WheelInput],
    n_axles: usize,
    dt: f32,
) -> (f32, Driveline) {
    let mut line = Driveline::default();
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
            let wheels = settings.wheels_of(a);
            let n = wheels.len().max(1) as f32;
            let mut side = Side {
                speed: 0.0,
                inertia: 0.0,
                tyre_torque: 0.0,
                drive: axle_torque[a],
            };
            for i in wheels {
                let w = wheel(i);
                side.speed += w.angular_velocity / n;
                side.inertia += w.inertia + inputs[i].drivetrain_inertia;
                side.tyre_torque += w.tyre_torque;
            }
            side
        };
        let (a, b) = (side(f), side(r));
        let input = axle_torque[f] + axle_torque[r];
        let coast = coasting(input, a.speed + b.speed);
        let cap = capacity_of(settings.centre_differential, input, coast);
        line.centre = settings.centre_differential.coupling(coast);
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
                inertia: w.inertia + inputs[i].drivetrain_inertia,
                tyre_torque: w.tyre_torque,
                drive: 0.5 * axle_torque[a],
            }
        };
        if settings.axles[a].single {
            // One wheel takes the axle's torque: no differential.
            if a < MAX_DRIVEN_AXLES {
                line.axles[a] = DrivenAxle {
                    share: shares[a],
                    coupling: Coupling::Open,
                    single: true,
                };
            }
            inputs[l].drive_torque = finite(axle_torque[a]);
            continue;
        }
        let (sl, sr) = (side(l), side(r));
        let coast = coasting(axle_torque[a], sl.speed + sr.speed);
        let kind = settings.axles[a].differential;
        let cap = capacity_of(kind, axle_torque[a], coast);
        if a < MAX_DRIVEN_AXLES {
            line.axles[a] = DrivenAxle {
                share: shares[a],
                coupling: kind.coupling(coast),
                single: false,
            };
        }
        let t = couple(sl, sr, cap, dt);
        inputs[l].drive_torque = finite(0.5 * axle_torque[a] - t);
        inputs[r].drive_torque = finite(0.5 * axle_torque[a] + t);
    }
    (centre_transfer, line)
}
