//! The example scene's proving ground (`examples/inspector/layout.rs`, included here) with
//! cars of the shipped presets or bare boxes: the world of the `track` and
//! `instructions` benches.
use avian3d::prelude::*;
use bevy::prelude::*;
use wheelcollider_avian::prelude::*;

use crate::headless_app;

// The example dresses every piece it returns; the benches step them bare.
#[allow(dead_code)]
#[path = "../../examples/inspector/layout.rs"]
mod layout;

/// The car counts the benches measure.
pub const COUNTS: [usize; 3] = [1, 8, 40];
const PRESETS: [&str; 4] = [
    include_str!("../../assets/presets/road.ron"),
    include_str!("../../assets/presets/rally.ron"),
    include_str!("../../assets/presets/gt86.ron"),
    include_str!("../../assets/presets/kart.ron"),
];

/// Throttle 0.35 with a gentle weave: each lane drives one preset, so no car catches
/// another.
fn drive(time: Res<Time>, mut cars: Query<&mut VehicleInput>) {
    let t = time.elapsed_secs();
    for mut car in &mut cars {
        car.throttle = 0.35;
        car.steer = 0.08 * (t * 1.3).sin();
    }
}

/// The proving ground with `cars` cars (events on) on the straight, four lanes, rows
/// 8 m apart (`bare`: boxes of each chassis' size and mass resting there instead), on
/// `threads` compute threads, 60 Hz, one step per update ([`headless_app`]).
pub fn app(cars: usize, bare: bool, threads: usize) -> App {
    let mut app = headless_app(threads);
    app.add_systems(FixedUpdate, (layout::move_platforms, drive));
    let world = app.world_mut();
    let mut commands = world.commands();
    layout::spawn_bare(&mut commands);
    for i in 0..cars {
        let settings = VehicleSettings::from_ron(PRESETS[i % 4]).expect("a shipped preset");
        let (x, z) = (-4.5 + 3.0 * (i % 4) as f32, -20.0 - 8.0 * (i / 4) as f32);
        if bare {
            let [w, h, l] = settings.chassis.size;
            commands.spawn((
                RigidBody::Dynamic,
                Collider::cuboid(w, h, l),
                Mass(settings.chassis.mass),
                SleepingDisabled,
                Transform::from_xyz(x, h / 2.0 + 0.01, z),
            ));
        } else {
            let place = Transform::from_xyz(x, settings.touch_height() + 0.02, z);
            let car = spawn_vehicle(&mut commands, &settings, place).expect("valid");
            commands.entity(car).insert(WheelEventsEnabled);
        }
    }
    world.flush();
    app.finish();
    app.cleanup();
    app
}
