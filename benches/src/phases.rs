//! Where one `update()` spends its wall time: stamps between the phases of avian's step,
//! the wheels' systems and Bevy's transform propagation, for `--phases` of the scenarios
//! bench. Each stamp is a system ordered between two sets, so the time between two
//! stamps is the wall time of what runs between them, whatever the thread count: the way
//! to find the part of a step that does not scale.

use avian3d::prelude::*;
use bevy::prelude::*;
use bevy::transform::TransformSystems;
use std::time::{Duration, Instant};
use wheelcollider_avian::prelude::*;

/// The phases, in the order of their end stamps.
pub const PHASES: [&str; 15] = [
    "before physics (Time, First, PreUpdate, Update, FixedFirst…)",
    "avian: prepare, first, broad phase",
    "wheels: prepare",
    "wheels: sense and solve",
    "wheels: apply, events",
    "avian: narrow phase",
    "avian: solver's preparation (bodies, joints, contacts)",
    "avian: solver's pre-substep (velocity increments)",
    "avian: substeps",
    "avian: solver's post-substep (clear forces)",
    "avian: solver's restitution, finalize, impulses",
    "avian: sleeping, finalize, writeback",
    "between physics and propagation",
    "Bevy: transform propagation",
    "after propagation (Last)",
];

/// The stamps of the current update and the sums over all timed updates.
#[derive(Resource, Default)]
pub struct PhaseClock {
    last: Option<Instant>,
    /// Wall time per phase, summed (the last phase is closed by [`PhaseClock::finish`]).
    pub sums: [Duration; PHASES.len()],
    /// Timed updates.
    pub updates: u32,
}

impl PhaseClock {
    fn mark(&mut self, phase: usize) {
        let now = Instant::now();
        if let Some(last) = self.last {
            self.sums[phase] += now - last;
        }
        self.last = Some(now);
    }

    /// Seconds per update in each phase.
    pub fn per_update(&self) -> [f64; PHASES.len()] {
        self.sums.map(|d| d.as_secs_f64() / f64::from(self.updates.max(1)))
    }
}

fn stamp<const PHASE: usize>(mut clock: ResMut<PhaseClock>) {
    clock.mark(PHASE);
}

/// Adds the stamps to an app built by [`avian_app`](crate::avian_app).
pub fn add_stamps(app: &mut App) {
    app.init_resource::<PhaseClock>()
        .add_systems(
            PhysicsSchedule,
            (
                stamp::<1>
                    .after(PhysicsStepSystems::BroadPhase)
                    .before(WheelSystems::Prepare),
                stamp::<2>
                    .after(WheelSystems::Prepare)
                    .before(WheelSystems::SenseAndSolve),
                stamp::<3>
                    .after(WheelSystems::SenseAndSolve)
                    .before(WheelSystems::Apply),
                stamp::<4>
                    .after(WheelSystems::Apply)
                    .after(WheelSystems::Events)
                    .before(PhysicsStepSystems::NarrowPhase),
                stamp::<5>
                    .after(PhysicsStepSystems::NarrowPhase)
                    .before(PhysicsStepSystems::Solver),
                stamp::<6>
                    .after(SolverSystems::PrepareContactConstraints)
                    .before(SolverSystems::PreSubstep),
                stamp::<7>
                    .after(SolverSystems::PreSubstep)
                    .before(SolverSystems::Substep),
                stamp::<8>
                    .after(SolverSystems::Substep)
                    .before(SolverSystems::PostSubstep),
                stamp::<9>
                    .after(SolverSystems::PostSubstep)
                    .before(SolverSystems::Restitution),
                stamp::<10>
                    .after(PhysicsStepSystems::Solver)
                    .before(PhysicsStepSystems::Sleeping),
            ),
        )
        .add_systems(
            FixedPostUpdate,
            (
                stamp::<0>.after(PhysicsSystems::First).before(PhysicsSystems::Prepare),
                stamp::<11>
                    .after(PhysicsSystems::Writeback)
                    .before(PhysicsSystems::Last),
            ),
        )
        .add_systems(
            PostUpdate,
            (
                stamp::<12>.before(TransformSystems::Propagate),
                stamp::<13>.after(TransformSystems::Propagate),
            ),
        );
}

/// Runs `updates` updates of `app` with its stamps, after `warmup`, and returns seconds
/// per update in each phase (the last phase ends when `update()` returns).
pub fn time_phases(app: &mut App, warmup: usize, updates: u32) -> [f64; PHASES.len()] {
    for _ in 0..warmup {
        app.update();
    }
    *app.world_mut().resource_mut::<PhaseClock>() = PhaseClock::default();
    for _ in 0..updates {
        // The first phase runs from here to stamp 0.
        app.world_mut().resource_mut::<PhaseClock>().last = Some(Instant::now());
        app.update();
        let now = Instant::now();
        let mut clock = app.world_mut().resource_mut::<PhaseClock>();
        if let Some(last) = clock.last {
            clock.sums[PHASES.len() - 1] += now - last;
        }
        clock.updates += 1;
    }
    app.world().resource::<PhaseClock>().per_update()
}
