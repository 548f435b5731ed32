//! Presets as assets: a `.ron` file loaded by the `AssetServer` becomes a vehicle with
//! exactly the file's settings; an edited file retunes it; a broken file says where and
//! spawns nothing.
use crate::common;
use crate::common::preset_text;
use std::time::Duration;

use avian3d::prelude::*;
use bevy::asset::LoadState;
use bevy::prelude::*;
use wheelcollider_avian::prelude::*;

fn app(root: &std::path::Path) -> App {
    common::app_with_assets(
        60.0,
        bevy::asset::AssetPlugin {
            file_path: root.display().to_string(),
            ..Default::default()
        },
    )
}

/// Updates until `done` or 5 s of wall time.
fn until(app: &mut App, mut done: impl FnMut(&mut App) -> bool) -> bool {
    let start = std::time::Instant::now();
    while start.elapsed() < Duration::from_secs(5) {
        app.update();
        if done(app) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    false
}

#[test]
fn a_preset_asset_becomes_the_vehicle_and_follows_its_file() {
    let dir = std::env::temp_dir().join(format!("wheelcollider-presets-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let text = preset_text("rally");
    std::fs::write(dir.join("car.ron"), &text).unwrap();
    let expected = VehicleSettings::from_ron(&text).unwrap();

    let mut app = app(&dir);
    let handle = app.world().resource::<AssetServer>().load::<VehiclePreset>("car.ron");
    let car = app
        .world_mut()
        .spawn((VehicleFromPreset(handle.clone()), Transform::from_xyz(0.0, 2.0, 0.0)))
        .id();
    app.world_mut()
        .spawn((RigidBody::Static, Collider::half_space(Vec3::Y)));
    assert!(
        until(&mut app, |a| a.world().get::<Vehicle>(car).is_some()),
        "never became a vehicle"
    );
    assert_eq!(app.world().get::<Vehicle>(car).unwrap().0, expected);
    let wheels = app.world().get::<ChassisWheels>(car).map_or(0, |c| c.wheels().len());
    assert_eq!(wheels, expected.wheel_count());
    // The settle: it stands on its wheels.
    for _ in 0..120 {
        app.update();
    }
    // Resting on its springs: below the height where the wheels just touch (the sag),
    // above the one where the front suspension is fully compressed.
    let y = app.world().get::<Position>(car).unwrap().0.y;
    let (touch, travel) = (expected.touch_height(), expected.axles[0].wheel.suspension_length());
    println!(
        "measured: the preset's car rests at {y:.3} m ({:.0} mm below touching)",
        (touch - y) * 1000.0
    );
    assert!(y < touch - 0.02 && y > touch - travel, "at {y}, touching at {touch}");

    // A second car from the same, long-loaded handle (no asset event comes for it).
    let second = app
        .world_mut()
        .spawn((VehicleFromPreset(handle.clone()), Transform::from_xyz(5.0, 2.0, 0.0)))
        .id();
    assert!(
        until(&mut app, |a| a.world().get::<Vehicle>(second).is_some()),
        "the second car never came"
    );
    assert_eq!(app.world().get::<Vehicle>(second).unwrap().0, expected);

    // An edited preset, reloaded through the asset server, retunes the car.
    let edited = text.replacen("name: \"rally\"", "name: \"rally, edited\"", 1);
    assert_ne!(edited, text, "the preset names itself");
    std::fs::write(dir.join("car.ron"), &edited).unwrap();
    app.world().resource::<AssetServer>().reload("car.ron");
    assert!(
        until(&mut app, |a| a.world().get::<Vehicle>(car).unwrap().0.name
            == "rally, edited"),
        "the edit never reached the car"
    );

    // A broken preset: the load fails naming the line and column, and nothing spawns.
    std::fs::write(
        dir.join("broken.ron"),
        "(\n    name: \"x\",\n    chassis: (mass: oops),\n)\n",
    )
    .unwrap();
    let broken = app
        .world()
        .resource::<AssetServer>()
        .load::<VehiclePreset>("broken.ron");
    let other = app
        .world_mut()
        .spawn((VehicleFromPreset(broken.clone()), Transform::default()))
        .id();
    let mut message = String::new();
    assert!(until(&mut app, |a| {
        if let LoadState::Failed(e) = a.world().resource::<AssetServer>().load_state(&broken) {
            message = e.to_string();
            true
        } else {
            false
        }
    }));
    println!("measured: broken preset: {message}");
    assert!(message.contains("line 3"), "{message}");
    assert!(app.world().get::<Vehicle>(other).is_none());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every shipped preset loads from `embedded://wheelcollider/presets/<name>.ron` in an
/// app whose asset folder is empty (a game without this repository's files), and the
/// vehicle it becomes has exactly the shipped settings.
#[test]
fn the_shipped_presets_load_from_embedded_paths_in_any_game() {
    let dir = std::env::temp_dir().join(format!("wheelcollider-empty-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut app = app(&dir);
    app.world_mut()
        .spawn((RigidBody::Static, Collider::half_space(Vec3::Y)));
    let cars: Vec<(&str, Entity)> = wheelcollider_core::vehicle::presets::TEXTS
        .iter()
        .map(|(name, _)| name)
        .enumerate()
        .map(|(i, &name)| {
            let path = format!("{EMBEDDED_PRESETS}/{name}.ron");
            let handle = app.world().resource::<AssetServer>().load::<VehiclePreset>(path);
            let place = Transform::from_xyz(5.0 * i as f32, 2.0, 0.0);
            (name, app.world_mut().spawn((VehicleFromPreset(handle), place)).id())
        })
        .collect();
    let all_built = until(&mut app, |a| {
        cars.iter().all(|&(_, e)| a.world().get::<Vehicle>(e).is_some())
    });
    std::fs::remove_dir_all(&dir).ok();
    assert!(all_built, "not every embedded preset became a vehicle");
    for (name, car) in cars {
        assert_eq!(
            app.world().get::<Vehicle>(car).unwrap().0,
            common::preset(name),
            "{name}"
        );
    }
}
