//! The plugin in a headless app: no audio device; the mix is rendered by a mixer on
//! the plugin's control, 800 samples a 60 Hz frame, as the device's thread would.

use avian3d::prelude::*;
use bevy::prelude::*;
use wheelcollider_audio::dsp::decibels;
use wheelcollider_audio::plugin::{
    SoundControl, SoundListener, SoundSettings, VehicleSoundPlugin, distance_gain, pan_of,
};
use wheelcollider_audio::{Mixer, lock};
use wheelcollider_avian::prelude::*;
use wheelcollider_avian::wheel::LandingState;
use wheelcollider_core::vehicle::VehicleSettings;
use wheelcollider_testing::app::{fixed_step, headless, start};

use crate::common::*;

const HZ: f64 = 60.0;
const FRAME: usize = (FS as f64 / HZ) as usize;

fn app() -> App {
    let mut app = headless(bevy::asset::AssetPlugin::default());
    app.add_plugins(VehicleSoundPlugin::default());
    fixed_step(&mut app, HZ);
    start(&mut app);
    app
}

/// Asphalt up to z = −80, gravel beyond, and a 0.5 m ramp at z = −50.
fn lap_ground(app: &mut App) {
    let w = app.world_mut();
    let asphalt = WheelSurface::ASPHALT;
    w.spawn((
        RigidBody::Static,
        Collider::cuboid(400.0, 1.0, 180.0),
        Transform::from_xyz(0.0, -0.5, 10.0),
        asphalt,
    ));
    w.spawn((
        RigidBody::Static,
        Collider::cuboid(400.0, 1.0, 400.0),
        Transform::from_xyz(0.0, -0.5, -280.0),
        WheelSurface::GRAVEL,
    ));
    let slope = 0.25f32;
    w.spawn((
        RigidBody::Static,
        Collider::cuboid(8.0, 0.2, 4.0),
        Transform::from_xyz(0.0, 0.5 * 4.0 * slope.sin() - 0.1, -50.0).with_rotation(Quat::from_rotation_x(slope)),
    ));
}

fn spawn(app: &mut App, settings: &VehicleSettings, at: Vec3) -> Entity {
    let world = app.world_mut();
    let mut commands = world.commands();
    let transform = Transform::from_translation(at + Vec3::Y * settings.touch_height());
    let e = spawn_vehicle(&mut commands, settings, transform).expect("valid settings");
    world.flush();
    e
}

fn drive(app: &mut App, car: Entity, input: DriverInput) {
    app.world_mut().get_mut::<VehicleInput>(car).unwrap().0 = input;
}

/// One frame: the listener 8 m behind and 2 m above the car, the physics step, and the
/// frame's samples from `mixer` into `out`.
fn frame(app: &mut App, car: Entity, listener: Entity, mixer: &mut Mixer, out: &mut Vec<f32>) {
    let at = app.world().get::<Transform>(car).unwrap().translation;
    *app.world_mut().get_mut::<Transform>(listener).unwrap() =
        Transform::from_translation(at + Vec3::new(0.0, 2.0, 8.0)).looking_at(at, Vec3::Y);
    app.update();
    let start = out.len();
    out.resize(start + 2 * FRAME, 0.0);
    mixer.render(&mut out[start..]);
}

/// Every shipped preset over a scripted lap (a launch through the gears, a handbrake
/// slide, a jump and landing, gravel, braking) renders finite samples within ±1, with
/// the voices' sum below the limiter's knee most of the time (its peak before the
/// limiter under 1.5) and audible (above −40 dBFS).
#[test]
fn every_preset_over_a_lap_is_finite_and_within_one() {
    for name in PRESETS {
        let settings = preset(name);
        let mut app = app();
        lap_ground(&mut app);
        let car = spawn(&mut app, &settings, Vec3::ZERO);
        let listener = app.world_mut().spawn((Transform::default(), SoundListener)).id();
        let mut mixer = app.world().resource::<SoundControl>().mixer(FS as u32);
        let mut out = Vec::new();
        let script: [(f32, DriverInput); 5] = [
            (
                6.0,
                DriverInput {
                    throttle: 1.0,
                    ..default()
                },
            ),
            (
                1.5,
                DriverInput {
                    throttle: 0.6,
                    steer: 0.6,
                    handbrake: 1.0,
                    ..default()
                },
            ),
            (
                3.0,
                DriverInput {
                    throttle: 1.0,
                    steer: -0.1,
                    ..default()
                },
            ),
            (
                2.0,
                DriverInput {
                    brake: 1.0,
                    ..default()
                },
            ),
            (1.0, DriverInput::default()),
        ];
        for (seconds, input) in script {
            drive(&mut app, car, input);
            for _ in 0..(seconds as f64 * HZ) as usize {
                frame(&mut app, car, listener, &mut mixer, &mut out);
            }
        }
        let peak = mixer.take_peak();
        let level = decibels(rms(&out));
        let max = out.iter().fold(0.0f32, |m, v| m.max(v.abs()));
        println!("{name}: {level:.1} dBFS, peak {max:.3}, before the limiter {peak:.2}");
        assert!(out.iter().all(|v| v.is_finite() && v.abs() <= 1.0), "{name}");
        assert!(peak < 1.5, "{name}: the voices sum to {peak} before the limiter");
        assert!(level > -40.0, "{name}: {level} dBFS");
    }
}

/// Of five cars in a row, only the `cars` nearest the listener are listed; a car
/// past the maximum distance is not heard at all.
#[test]
fn only_the_nearest_cars_are_heard() {
    let settings = preset("road");
    let mut app = app();
    lap_ground(&mut app);
    // Spawned farthest first, so that the spawn order is not the distance order.
    let cars: Vec<Entity> = (0..5)
        .rev()
        .map(|i| spawn(&mut app, &settings, Vec3::new(10.0 * i as f32, 0.0, 0.0)))
        .collect();
    app.world_mut()
        .spawn((Transform::from_xyz(-5.0, 1.0, 0.0), SoundListener));
    app.world_mut().resource_mut::<SoundSettings>().cars = 2;
    app.update();
    let mut heard: Vec<u64> = lock(&app.world().resource::<SoundControl>().0).keys().collect();
    heard.sort();
    let mut nearest = [cars[4].to_bits(), cars[3].to_bits()];
    nearest.sort();
    assert_eq!(heard, nearest);
    let mut s = app.world_mut().resource_mut::<SoundSettings>();
    s.cars = 8;
    s.max_distance = 30.0;
    app.update();
    let heard = lock(&app.world().resource::<SoundControl>().0).keys().count();
    assert_eq!(heard, 3, "cars at 5, 15, 25, 35 and 45 m, 30 m the limit");
}

/// Distance: full volume within the reference distance, half at twice it (rolloff 1),
/// silent at the maximum. Pan: a car to the listener's right pans right, ahead centred.
#[test]
fn distance_and_pan() {
    let s = SoundSettings {
        reference_distance: 5.0,
        rolloff: 1.0,
        max_distance: 300.0,
        ..default()
    };
    assert_eq!(distance_gain(&s, 2.0), 1.0);
    assert!((distance_gain(&s, 10.0) - 0.5).abs() < 1e-6);
    assert_eq!(distance_gain(&s, 300.0), 0.0);
    assert_eq!(distance_gain(&s, f32::NAN), 0.0);
    assert!(pan_of(Quat::IDENTITY, Vec3::X, 1.0) > 0.99);
    assert!(pan_of(Quat::IDENTITY, Vec3::NEG_Z, 1.0).abs() < 1e-6);
    let turned = Quat::from_rotation_y(std::f32::consts::FRAC_PI_2);
    // Turned left by 90° (facing −X), −Z is on the right.
    assert!(pan_of(turned, Vec3::NEG_Z, 1.0) > 0.99);
}

/// A car dropped from 1.2 m lands with a thump: the impact reaches the mix (its level
/// jumps by over 6 dB in the landing's frames).
#[test]
fn a_landing_thumps() {
    let settings = preset("road");
    let mut app = app();
    lap_ground(&mut app);
    let car = spawn(&mut app, &settings, Vec3::new(0.0, 1.2, 0.0));
    let listener = app.world_mut().spawn((Transform::default(), SoundListener)).id();
    let mut mixer = app.world().resource::<SoundControl>().mixer(FS as u32);
    let mut out = Vec::new();
    let mut landed_at = None;
    for i in 0..90 {
        let before = out.len();
        frame(&mut app, car, listener, &mut mixer, &mut out);
        if landed_at.is_none() && app.world().get::<LandingState>(car).is_some_and(|s| s.grounded) && i > 5 {
            landed_at = Some(before);
        }
    }
    let at = landed_at.expect("the car landed");
    let quiet = rms(&out[at.saturating_sub(2 * 6 * FRAME)..at]);
    let thump = rms(&out[at..at + 2 * 6 * FRAME]);
    println!(
        "before the landing {:.1} dBFS, after {:.1}",
        decibels(quiet),
        decibels(thump)
    );
    assert!(decibels(thump) > decibels(quiet) + 6.0);
}

/// A car driven into a wall at 8 m/s makes one hard-contact thump, its speed the
/// chassis' change of speed (avian's contact impulse over its mass): 4–12 m/s (a wall
/// takes most of the speed in the first contact step, and gives some back). A car
/// rolling on open ground makes none.
#[test]
fn a_wall_hit_thumps() {
    let settings = preset("road");
    let mut app = app();
    lap_ground(&mut app);
    app.world_mut().spawn((
        RigidBody::Static,
        Collider::cuboid(20.0, 3.0, 1.0),
        Transform::from_xyz(30.0, 1.5, -15.0),
    ));
    let car = spawn(&mut app, &settings, Vec3::new(30.0, 0.0, 0.0));
    app.world_mut().spawn((Transform::default(), SoundListener));
    for _ in 0..30 {
        app.update();
    }
    // Rolling at 8 m/s in neutral (a car coasting in first would close its
    // clutch and brake on its engine short of the wall).
    wheelcollider_testing::scene::launch(&mut app, car, 8.0);
    let settled = lock(&app.world().resource::<SoundControl>().0).pending_impacts().len();
    assert_eq!(settled, 0, "rolling on open ground thumps");
    for _ in 0..120 {
        app.update();
    }
    // No mixer took them: the control keeps them.
    let impacts = lock(&app.world().resource::<SoundControl>().0).pending_impacts()[settled..].to_vec();
    println!("impacts: {impacts:?}");
    let hits: Vec<f32> = impacts.iter().filter(|i| i.0 == car.to_bits()).map(|i| i.1).collect();
    assert!(!hits.is_empty(), "no thump");
    assert!((4.0..=12.0).contains(&hits[0]), "the hit at {} m/s", hits[0]);
}
