//! Criterion micro-benchmarks: the core wheel step alone (no engine) in its typical
//! regimes, as a floor for the plugin's per-wheel logic.
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use wheelcollider_core::{Contact, StepInput, StepState, WheelSettings, step};

fn core_step(c: &mut Criterion) {
    let settings = WheelSettings::default();
    let contact = |vx: f32, vy: f32| Contact {
        hit_distance: 0.33,
        forward_velocity: vx,
        sideways_velocity: vy,
        suspension_mass: 300.0,
        forward_mass: 300.0,
        sideways_mass: 300.0,
        ..Default::default()
    };
    let mut group = c.benchmark_group("core step");
    for (name, input, omega) in [
        (
            "rolling 20 m/s",
            StepInput {
                contact: Some(contact(20.0, 0.3)),
                ..Default::default()
            },
            66.0,
        ),
        (
            "driven 20 m/s",
            StepInput {
                drive_torque: 400.0,
                contact: Some(contact(20.0, 0.3)),
                ..Default::default()
            },
            66.0,
        ),
        (
            "locked slide",
            StepInput {
                brake_torque: 5000.0,
                contact: Some(contact(20.0, 1.0)),
                ..Default::default()
            },
            0.0,
        ),
        (
            "parked",
            StepInput {
                brake_torque: 2000.0,
                contact: Some(contact(0.0, 0.0)),
                ..Default::default()
            },
            0.0,
        ),
        (
            "airborne",
            StepInput {
                drive_torque: 100.0,
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

criterion_group!(benches, core_step);
criterion_main!(benches);
