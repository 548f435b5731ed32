//! The chassis' driveline, solved with its driven wheels' tyres between their staging
//! and their finish (the core's [`solve_driveline`]): which of the group's wheels the
//! [`WheelDriveline`] drives, and the spin and drive torque the solve gives each.

use super::components::WheelDriveline;
use bevy::prelude::*;
use wheelcollider_core::suspension::MAX_WHEELS;
use wheelcollider_core::vehicle::{MAX_DRIVEN_AXLES, solve_driveline};
use wheelcollider_core::{Staged, StepOutput};

/// Where a group's wheels sit in a driveline: the group's slot of each driveline wheel
/// index, and the driveline index of each slot.
#[derive(Clone, Copy)]
pub(super) struct Slots {
    slot: [usize; 2 * MAX_DRIVEN_AXLES],
    index: [Option<usize>; MAX_WHEELS],
}

impl Slots {
    /// The slots of `batch` (a group of one chassis' wheels) in `driveline`, or `None`
    /// when nothing is driven or a driven wheel is not in the group.
    pub(super) fn of(driveline: &WheelDriveline, batch: &[Entity]) -> Option<Self> {
        if !driveline.line.is_driven() {
            return None;
        }
        let mut slots = Slots {
            slot: [usize::MAX; 2 * MAX_DRIVEN_AXLES],
            index: [None; MAX_WHEELS],
        };
        for (i, &wheel) in driveline.wheels.iter().enumerate() {
            let axle = &driveline.line.axles[i / 2];
            if axle.share <= 0.0 || !axle.wheels(i / 2).contains(&i) {
                continue;
            }
            let s = batch.iter().position(|&e| e == wheel)?;
            slots.slot[i] = s;
            slots.index[s] = Some(i);
        }
        Some(slots)
    }

    /// Whether the group's wheel at `slot` is driven by the driveline.
    pub(super) fn driven(&self, slot: usize) -> bool {
        self.index.get(slot).is_some_and(|i| i.is_some())
    }
}

/// Solves `driveline` with the group's `staged` wheels; `start` holds each slot's first
/// guess of its drive torque. Returns each of the `N` slots' (spin rad/s, drive torque
/// N·m) for the driven ones, and writes the torques and rounds into `driveline`; `None` when a
/// driven wheel could not be staged (its step had nothing to run).
pub(super) fn solve<const N: usize>(
    driveline: &mut WheelDriveline,
    slots: &Slots,
    staged: &[Option<Result<Staged, StepOutput>>],
    start: &[f32],
    dt: f32,
) -> Option<[Option<(f64, f64)>; N]> {
    let mut wheels: [Option<&Staged>; 2 * MAX_DRIVEN_AXLES] = [None; 2 * MAX_DRIVEN_AXLES];
    let mut first = [0.0f64; 2 * MAX_DRIVEN_AXLES];
    for (i, &slot) in slots.slot.iter().enumerate() {
        if slot == usize::MAX {
            continue;
        }
        wheels[i] = Some(staged.get(slot)?.as_ref()?.as_ref().ok()?);
        first[i] = start.get(slot).map_or(0.0, |&d| d as f64);
    }
    let sol = solve_driveline(&driveline.line, dt as f64, &first, |i| {
        wheels[i].expect("every driven wheel is staged")
    });
    driveline.rounds = sol.rounds as u32;
    driveline.converged = sol.converged;
    for (d, s) in driveline.drive.iter_mut().zip(sol.drive) {
        *d = s as f32;
    }
    Some(core::array::from_fn(|slot| {
        slots.index[slot].map(|i| (sol.spin[i], sol.drive[i]))
    }))
}
