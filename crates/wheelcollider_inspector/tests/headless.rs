//! The inspector's systems run headless (no window, no renderer): every tab draws a
//! frame without panicking, an edit in the Tune tab reaches the vehicle, and a bad
//! preset file leaves the car as it was.
use std::time::Duration;

use avian3d::prelude::*;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use wheelcollider_avian::prelude::*;
use wheelcollider_inspector::bevy_egui::{EguiContext, PrimaryEguiContext};
use wheelcollider_inspector::{InspectorState, Request, Tab, WheelInspectorPlugin};

fn app() -> (App, Entity) {
    let mut app = App::new();
    let dt = Duration::from_secs_f64(1.0 / 60.0);
    app.add_plugins((
        MinimalPlugins,
        TransformPlugin,
        bevy::asset::AssetPlugin::default(),
        bevy::input::InputPlugin,
        // The window messages egui reads, with no window.
        bevy::window::WindowPlugin {
            primary_window: None,
            exit_condition: bevy::window::ExitCondition::DontExit,
            ..Default::default()
        },
        PhysicsPlugins::default(),
        WheelColliderPlugin,
        WheelInspectorPlugin::default(),
    ))
    .insert_resource(TimeUpdateStrategy::ManualDuration(dt));
    // A context without a window or camera: egui lays the panels out on its default
    // screen and draws nothing.
    app.world_mut().spawn((EguiContext::default(), PrimaryEguiContext));
    app.world_mut()
        .spawn((RigidBody::Static, Collider::half_space(Vec3::Y), WheelSurface::GRAVEL));
    let spec = VehicleSpec::from_ron(&std::fs::read_to_string(preset("road")).unwrap()).unwrap();
    let world = app.world_mut();
    let mut commands = world.commands();
    let car = spawn_vehicle(&mut commands, &spec, Transform::from_xyz(0.0, 0.8, 0.0)).unwrap();
    world.flush();
    app.finish();
    app.cleanup();
    (app, car)
}

fn preset(name: &str) -> String {
    format!("{}/../../assets/presets/{name}.ron", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn every_tab_runs_a_frame() {
    let (mut app, car) = app();
    for tab in [Tab::Tune, Tab::Plots, Tab::Telemetry, Tab::Presets, Tab::Sim] {
        app.world_mut().resource_mut::<InspectorState>().tab = tab;
        for _ in 0..10 {
            app.update();
        }
    }
    let state = app.world().resource::<InspectorState>();
    assert_eq!(state.target, Some(car), "the inspector found the vehicle");
    assert!(state.times.len() >= 40, "history recorded: {}", state.times.len());
    assert_eq!(state.history.len(), 4);
    assert!(state.history[0].iter().any(|s| s.load > 0.0), "loads recorded");
}

#[test]
fn a_bad_preset_leaves_the_car_as_it_was_and_says_why() {
    let (mut app, car) = app();
    app.update();
    let before = app.world().get::<Vehicle>(car).unwrap().0.clone();
    let dir = std::env::temp_dir().join(format!("wheelcollider-inspector-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.ron");
    std::fs::write(&bad, "(name: \"x\", chassis: (mass: \"heavy\"))").unwrap();
    app.world_mut()
        .resource_mut::<InspectorState>()
        .requests
        .push(Request::Load(bad.clone()));
    app.update();
    let (msg, is_error) = app.world().resource::<InspectorState>().message.clone().unwrap();
    println!("measured: message: {msg}");
    assert!(is_error && msg.contains("bad.ron") && msg.contains("line 1"), "{msg}");
    assert_eq!(app.world().get::<Vehicle>(car).unwrap().0, before, "unchanged");

    // Save, edit, load back: every field round-trips.
    let saved = dir.join("saved.ron");
    app.world_mut()
        .resource_mut::<InspectorState>()
        .requests
        .push(Request::Save(saved.clone()));
    app.update();
    app.world_mut().get_mut::<Vehicle>(car).unwrap().0.engine.idle_rpm = 1500.0;
    app.update();
    app.world_mut()
        .resource_mut::<InspectorState>()
        .requests
        .push(Request::Load(saved));
    app.update();
    app.update();
    assert_eq!(
        app.world().get::<Vehicle>(car).unwrap().0,
        before,
        "saved and loaded back"
    );
    std::fs::remove_dir_all(&dir).ok();
}
