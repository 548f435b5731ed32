//! Criterion micro-benchmarks: the core wheel step alone (no engine) in its typical
//! regimes, as a floor for the plugin's per-wheel logic.
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use wheelcollider_core::{Contact, StepInput, StepState, Suspension, WheelInput, WheelSettings, step};

/// A standalone wheel's suspension with a known corner mass (kg).
const EXPLICIT: Suspension = Suspension::Explicit {
    mass: 300.0,
    approach_speed: 0.0,
};

fn core_step(c: &mut Criterion) {
    let settings = WheelSettings::default();
    let contact = |vx: f32, vy: f32| Contact {
        hit_distance: 0.33,
        forward_velocity: vx,
        sideways_velocity: vy,
        forward_mass: 300.0,
        sideways_mass: 300.0,
        ..Default::default()
    };
    let mut group = c.benchmark_group("core step");
    for (name, input, omega) in [
        (
            "rolling 20 m/s",
            StepInput {
                suspension: EXPLICIT,
                contact: Some(contact(20.0, 0.3)),
                ..Default::default()
            },
            66.0,
        ),
        (
            "driven 20 m/s",
            StepInput {
                input: WheelInput {
                    drive_torque: 400.0,
                    ..Default::default()
                },
                suspension: EXPLICIT,
                contact: Some(contact(20.0, 0.3)),
                ..Default::default()
            },
            66.0,
        ),
        (
            "locked slide",
            StepInput {
                input: WheelInput {
                    brake_torque: 5000.0,
                    ..Default::default()
                },
                suspension: EXPLICIT,
                contact: Some(contact(20.0, 1.0)),
                ..Default::default()
            },
            0.0,
        ),
        (
            "parked",
            StepInput {
                input: WheelInput {
                    brake_torque: 2000.0,
                    ..Default::default()
                },
                suspension: EXPLICIT,
                contact: Some(contact(0.0, 0.0)),
                ..Default::default()
            },
            0.0,
        ),
        (
            "airborne",
            StepInput {
                input: WheelInput {
                    drive_torque: 100.0,
                    ..Default::default()
                },
                suspension: EXPLICIT,
                ..Default::default()
            },
            10.0,
        ),
    ] {
        group.bench_function(name, |b| {
            let mut state = StepState {
                angular_velocity: omega,
                compression: 0.07,
                ..Default::default()
            };
            b.iter(|| {
                let out = step(&settings, &mut state, black_box(input), 1.0 / 60.0);
                state.angular_velocity = omega;
                black_box(out)
            })
        });
    }
    group.finish();
}

/// The implicit suspension of one chassis (`suspension::solve`): a car's four wheels
/// with anti-roll bars at rest (one linear solve), and two of them on their bump stops
/// (the active set takes more solves); the baseline is one wheel's core step above.
fn suspension_solve(c: &mut Criterion) {
    use wheelcollider_core::suspension::{SuspensionForce, SuspensionRow, solve};
    // A 1 200 kg box 1.6 m × 2.8 m between the wheels: K = 1/m + arms through the
    // inverse inertia, along the vertical.
    let (m, ix, iz) = (1200.0f64, 800.0f64, 350.0f64);
    let arms = [(-0.8, -1.4), (0.8, -1.4), (-0.8, 1.4), (0.8, 1.4)];
    let mut k = [0.0f64; 16];
    for (i, &(xi, zi)) in arms.iter().enumerate() {
        for (j, &(xj, zj)) in arms.iter().enumerate() {
            k[i * 4 + j] = 1.0 / m + zi * zj / ix + xi * xj / iz;
        }
    }
    let row = |x: f32, partner: usize| SuspensionRow {
        compression: x,
        speed: 0.05,
        free_acceleration: 9.81,
        stiffness: 40_000.0,
        bump_damping: 2_000.0,
        rebound_damping: 3_000.0,
        length: 0.1,
        anti_roll: Some((partner, 20_000.0)),
        ..Default::default()
    };
    let mut group = c.benchmark_group("suspension solve, 4 wheels");
    for (name, rows) in [
        ("at rest", [row(0.07, 1), row(0.07, 0), row(0.075, 3), row(0.075, 2)]),
        (
            "two on the stops",
            [row(0.1, 1), row(0.07, 0), row(0.1, 3), row(0.075, 2)],
        ),
    ] {
        group.bench_function(name, |b| {
            let mut out = [SuspensionForce::default(); 4];
            b.iter(|| {
                solve(black_box(&rows), black_box(&k), 1.0 / 60.0, &mut out);
                black_box(out)
            })
        });
    }
    group.finish();
}

criterion_group!(benches, core_step, suspension_solve);
criterion_main!(benches);
