//! Where one `update()` spends its wall time: stamps between the phases of avian's step,
//! the wheels' systems and Bevy's transform propagation, for `--phases` of the scenarios
//! bench. Each stamp is a system ordered between two sets, so the time between two
//! stamps is the wall time of what runs between them, whatever the thread count: the way
//! to find the part of a step that does not scale.

use avian3d::prelude::*;
use bevy::ecs::schedule::ScheduleConfigs;
use bevy::ecs::system::ScheduleSystem;
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
    /// Wall time per phase, summed (the last phase is closed by [`time_phases`] when
    /// `update()` returns).
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

/// Stamp `PHASE`, run after the set `after` and before the set `before`: it ends phase
/// `PHASE`.
fn between<const PHASE: usize, A, B>(
    after: impl IntoSystemSet<A>,
    before: impl IntoSystemSet<B>,
) -> ScheduleConfigs<ScheduleSystem> {
    stamp::<PHASE>.after(after).before(before)
}

/// Adds the stamps to an app built by [`avian_app`](crate::avian_app). Each stamp ends
/// the phase of [`PHASES`] with its number.
pub fn add_stamps(app: &mut App) {
    use PhysicsStepSystems as Step;
    use SolverSystems as Solver;
    app.init_resource::<PhaseClock>()
        .add_systems(
            PhysicsSchedule,
            (
                between::<1, _, _>(Step::BroadPhase, WheelSystems::Prepare),
                between::<2, _, _>(WheelSystems::Prepare, WheelSystems::SenseAndSolve),
                between::<3, _, _>(WheelSystems::SenseAndSolve, WheelSystems::Apply),
                between::<4, _, _>(WheelSystems::Events, Step::NarrowPhase).after(WheelSystems::Apply),
                between::<5, _, _>(Step::NarrowPhase, Step::Solver),
                between::<6, _, _>(Solver::PrepareContactConstraints, Solver::PreSubstep),
                between::<7, _, _>(Solver::PreSubstep, Solver::Substep),
                between::<8, _, _>(Solver::Substep, Solver::PostSubstep),
                between::<9, _, _>(Solver::PostSubstep, Solver::Restitution),
                between::<10, _, _>(Step::Solver, Step::Sleeping),
            ),
        )
        .add_systems(
            FixedPostUpdate,
            (
                between::<0, _, _>(PhysicsSystems::First, PhysicsSystems::Prepare),
                between::<11, _, _>(PhysicsSystems::Writeback, PhysicsSystems::Last),
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

/// Stamps `apps`, then times their phases in turn for eight rounds of 20 updates (the
/// first after `warmup` updates, the others after two): each app's fastest round per
/// phase (seconds per update).
pub fn fastest_phases(apps: [&mut App; 2], warmup: usize) -> [[f64; PHASES.len()]; 2] {
    let mut best = [[f64::MAX; PHASES.len()]; 2];
    let [a, b] = apps;
    add_stamps(a);
    add_stamps(b);
    for round in 0..8 {
        for (k, app) in [&mut *a, &mut *b].into_iter().enumerate() {
            let t = time_phases(app, if round == 0 { warmup } else { 2 }, 20);
            for (best, t) in best[k].iter_mut().zip(t) {
                *best = best.min(t);
            }
        }
    }
    best
}
