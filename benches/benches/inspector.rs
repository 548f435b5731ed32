//! What the inspector costs a game per frame on the CPU, headless: its egui panels laid
//! out (no window, no renderer: egui builds the panels and their shapes, nothing is
//! drawn), each tab against the same app without the inspector, one road car driving
//! in circles.
//!
//! ```sh
//! cargo bench -p wheelcollider_bench --bench inspector
//! ```
//!
//! Method: the app with the inspector (on one tab) and the app without it are built side
//! by side and stepped for [`HISTORY_LEN`] frames first, so the Plots tab's rolling
//! history is full (every series at its longest); then [`ROUNDS`] rounds of [`BATCH`]
//! frames each, in turn; each app's figure is its fastest round's mean frame. The cost is
//! the difference. One frame is one physics step here (60 Hz).
use avian3d::prelude::*;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use std::time::{Duration, Instant};
use wheelcollider_avian::prelude::*;
use wheelcollider_inspector::bevy_egui::{EguiContext, PrimaryEguiContext};
use wheelcollider_inspector::{HISTORY_LEN, InspectorState, Tab, WheelInspectorPlugin};

const ROUNDS: usize = 10;
const BATCH: usize = 30;

/// Drives the car in a circle.
fn drive(mut cars: Query<&mut VehicleInput>) {
    for mut car in &mut cars {
        car.throttle = 0.4;
        car.steer = 0.3;
    }
}

/// A road car on flat asphalt, with the inspector showing `tab` or without it.
fn app(tab: Option<Tab>) -> App {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        TransformPlugin,
        bevy::asset::AssetPlugin::default(),
        bevy::input::InputPlugin,
        bevy::window::WindowPlugin {
            primary_window: None,
            exit_condition: bevy::window::ExitCondition::DontExit,
            ..Default::default()
        },
        PhysicsPlugins::default(),
        WheelColliderPlugins,
    ))
    .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(1.0 / 60.0)))
    .add_systems(FixedUpdate, drive);
    if let Some(tab) = tab {
        app.add_plugins(WheelInspectorPlugin::default());
        app.world_mut().spawn((EguiContext::default(), PrimaryEguiContext));
        app.finish();
        app.cleanup();
        let mut state = app.world_mut().resource_mut::<InspectorState>();
        state.tab = tab;
        state.visible = true;
    } else {
        app.finish();
        app.cleanup();
    }
    app.world_mut()
        .spawn((RigidBody::Static, Collider::half_space(Vec3::Y), WheelSurface::ASPHALT));
    let settings =
        VehicleSettings::from_ron(include_str!("../../assets/presets/road.ron")).expect("the shipped preset");
    let world = app.world_mut();
    let mut commands = world.commands();
    let y = settings.touch_height() + 0.02;
    spawn_vehicle(&mut commands, &settings, Transform::from_xyz(0.0, y, 0.0)).expect("valid");
    world.flush();
    app
}

fn main() {
    println!("| tab | frame without (ms) | frame with the inspector (ms) | the inspector's cost (ms) |");
    println!("| --- | --- | --- | --- |");
    for tab in [Tab::Tune, Tab::Plots, Tab::Telemetry] {
        let mut apps = [app(None), app(Some(tab))];
        for app in &mut apps {
            for _ in 0..HISTORY_LEN {
                app.update();
            }
        }
        let mut best = [f64::MAX; 2];
        for _ in 0..ROUNDS {
            for (k, app) in apps.iter_mut().enumerate() {
                app.update(); // untimed: the other app has evicted this one's data
                let t = Instant::now();
                for _ in 0..BATCH {
                    app.update();
                }
                best[k] = best[k].min(t.elapsed().as_secs_f64() / BATCH as f64);
            }
        }
        let [without, with] = best.map(|t| t * 1e3);
        println!("| {tab:?} | {without:.3} | {with:.3} | {:.3} |", with - without);
    }
}
