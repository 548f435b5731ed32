//! The example scene's skid marks, smoke and dust (`examples/inspector/effects.rs`,
//! included here) on the CPU, headless: 40 cars' 160 wheels sliding round circles, half
//! on asphalt (smoke, black marks), half on gravel (dust, ruts), with the skid-mark pool
//! filled to its 3 000 quads first and the 600 puffs recycled every few frames. The marks
//! and puffs are meshes with standard materials as in the scene; nothing draws them.
//!
//! ```sh
//! cargo bench -p wheelcollider_bench --bench effects
//! ```
//!
//! Method: two apps on Bevy's single-threaded executor (so that a frame's wall time is
//! its CPU time): the wheels' effect data moving every frame, with and without the
//! example's `EffectsPlugin`. They step side by side, 60 warm-up frames, then 12 rounds
//! of 15 frames each in turn; each app's figure is its fastest round. The effects' cost
//! is the difference (their systems, their commands, and Bevy's transform propagation
//! of the moved puffs and the laid marks); the plugin's own clock (`EffectsClock`, the
//! chained systems with their commands) is printed beside it. Five such runs: median
//! and range.
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use std::time::Duration;
use wheelcollider_avian::prelude::*;
use wheelcollider_bench::{fastest_batches, single_threaded};

// The example's module, as the scene builds it.
#[allow(dead_code)]
#[path = "../../examples/inspector/effects.rs"]
mod effects;

/// Cars, four wheels each.
const CARS: usize = 40;
/// Frame rate (Hz).
const HZ: f64 = 60.0;
/// Each car's circle (m) and speed (m/s), and how hard its tyres slide (0..=1).
const CIRCLE: f32 = 15.0;
const SPEED: f32 = 12.0;
const SLIDE: f32 = 0.7;
/// Runs of the whole measurement.
const RUNS: usize = 5;

/// One wheel's place on its car: (car, ahead m, right m).
#[derive(Component)]
struct OnCar(usize, f32, f32);

/// Moves every wheel's contact patch round its car's circle (the cars on a grid 40 m
/// apart; even cars on asphalt, odd ones on gravel), sliding at [`SLIDE`].
fn drive(time: Res<Time>, mut wheels: Query<(&OnCar, &mut WheelEffects, &mut WheelOutput)>) {
    let t = time.elapsed_secs();
    for (&OnCar(car, ahead, right), mut effects, mut output) in &mut wheels {
        let center = Vec3::new(40.0 * (car % 8) as f32, 0.0, 40.0 * (car / 8) as f32);
        let angle = t * SPEED / CIRCLE + car as f32;
        let (sin, cos) = angle.sin_cos();
        let forward = Vec3::new(-sin, 0.0, cos);
        let outward = Vec3::new(cos, 0.0, sin);
        let point = center + outward * (CIRCLE + right) + forward * ahead;
        effects.skid_intensity = SLIDE;
        effects.patch = Some(ContactPatch {
            point,
            normal: Vec3::Y,
            forward,
            width: 0.21,
            collider: Entity::PLACEHOLDER,
            surface: if car % 2 == 0 {
                WheelSurface::ASPHALT
            } else {
                WheelSurface::GRAVEL
            },
        });
        output.output.ground_speed = SPEED;
    }
}

/// A headless app with the 160 wheels' effect data, and the example's effects if
/// `with_effects`.
fn app(with_effects: bool) -> App {
    let mut app = App::new();
    let dt = Duration::from_secs_f64(1.0 / HZ);
    app.add_plugins((MinimalPlugins, TransformPlugin, bevy::asset::AssetPlugin::default()))
        .init_asset::<Mesh>()
        .init_asset::<StandardMaterial>()
        .insert_resource(TimeUpdateStrategy::ManualDuration(dt))
        .add_systems(PreUpdate, drive);
    if with_effects {
        app.add_plugins(effects::EffectsPlugin)
            .insert_resource(effects::FillMarks);
    }
    for car in 0..CARS {
        for (ahead, right) in [(1.3, -0.8), (1.3, 0.8), (-1.3, -0.8), (-1.3, 0.8)] {
            app.world_mut().spawn((
                OnCar(car, ahead, right),
                WheelEffects::default(),
                WheelOutput::default(),
            ));
        }
    }
    app.finish();
    app.cleanup();
    single_threaded(&mut app);
    app
}

fn main() {
    let mut apps = [app(true), app(false)];
    let (mut costs, mut clocks) = (vec![], vec![]);
    for _ in 0..RUNS {
        apps[0].world_mut().resource_mut::<effects::EffectsClock>().take();
        let [with, without] = &mut apps;
        let mut runners: Vec<Box<dyn FnMut() + '_>> = vec![Box::new(|| with.update()), Box::new(|| without.update())];
        let best = fastest_batches(&mut runners, 60, 12, 15);
        drop(runners);
        let (clock, _) = apps[0].world_mut().resource_mut::<effects::EffectsClock>().take();
        costs.push((best[0] - best[1]) * 1e3);
        clocks.push(clock);
    }
    let pools = effects::pool_fill(apps[0].world().resource::<effects::Pools>());
    println!(
        "{CARS} cars, {} wheels sliding ({SLIDE}) at {SPEED} m/s; marks {}/{}, puffs {}/{}",
        4 * CARS,
        pools[0].0,
        pools[0].1,
        pools[1].0,
        pools[1].1
    );
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        format!("{:.3} ({:.3}–{:.3})", v[v.len() / 2], v[0], v[v.len() - 1])
    };
    println!("| the effects' CPU time per frame (ms) | median (range) of {RUNS} runs |");
    println!("| --- | --- |");
    println!(
        "| the frame with effects less without (fastest rounds) | {} |",
        median(&mut costs)
    );
    println!(
        "| the effects' chained systems (their own clock, mean) | {} |",
        median(&mut clocks)
    );
}
