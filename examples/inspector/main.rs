//! The test track: drive a car from a preset around a proving ground, open the
//! inspector, tune it live, spawn traffic.
//!
//! ```text
//! cargo run --release --example inspector --features scene [-- --preset assets/presets/rally.ron]
//! ```
//!
//! Keys: W/S or ↑/↓ throttle and brake (reverse when stopped), A/D or ←/→ steer, Space
//! handbrake, Q/E gear down/up, C camera (chase, bumper, orbit: right mouse drag, wheel
//! to zoom), T add an AI car, Shift+T remove the AI cars, R reset the car, H hitch the
//! trailer of the car's hitch parked behind the start (the caravan to the road car, the
//! semi-trailer to the tractor) or unhitch it, F1 the inspector, Z/X a motorcycle
//! rider's weight back and forward. A gamepad works too. The HUD's car menu switches
//! presets (`mt07` is a motorcycle: S its front brake lever, Space its rear pedal).
//!
//! M mutes the sound. `--sound-lap DIR` drives a scripted lap (launch and shifts,
//! the jump, a handbrake slide, gravel) and writes its sound to `DIR/sound_lap.wav`.
//!
//! `--script DIR` drives a fixed input sequence, saves screenshots into DIR and exits:
//! that is how the pictures in the README are made (see docs/inspector.md). With
//! `--traffic 39` it runs 40 cars, fills the skid-mark pool in its last 10 s and logs the
//! effects' time per frame (`docs/performance.md`).
//!
//! The modules, one per part of the scene:
//! - [`layout`]: the proving ground's physics (colliders, surfaces, props, platforms),
//!   which the benches share; [`track`] dresses it with meshes, lines and labels,
//!   [`textures`] its generated ground textures and sky;
//! - [`terrain`]: its banked turn (a triangle mesh) and grass hill (a heightfield);
//! - [`car_visuals`]: dresses each car (a body from [`car_bodies`] per preset, a
//!   motorcycle's from [`bike_bodies`], a tank's from [`tank_bodies`], wheels with rims
//!   and spokes) and lights its
//!   brake lights;
//! - [`effects`]: skid marks, tyre smoke and dust from each wheel's `WheelEffects`, a
//!   dust burst on the `Landed` event;
//! - [`cameras`]: chase (leaning with a two-wheeler), bumper and orbit;
//! - [`traffic`]: AI cars lapping the track by pure pursuit;
//! - [`hud`]: speed, gear, the camera and car menus, traffic, frame time, labels;
//! - [`towing`]: the caravan and the semi-trailer by the start, hitched and unhitched
//!   with H, its HUD;
//! - [`script`]: the scripted run for the README's pictures;
//! - [`sound`]: the sound, heard from the camera, and the recorded sound lap.
mod bike_bodies;
mod cameras;
mod car_bodies;
mod car_visuals;
mod effects;
mod hud;
mod layout;
mod script;
mod sound;
mod tank_bodies;
mod terrain;
mod textures;
mod towing;
mod track;
mod traffic;
mod truck_bodies;

use avian3d::prelude::*;
use bevy::prelude::*;
use bevy::window::WindowResolution;
use wheelcollider::inspector::{InspectorState, InspectorTarget, Request, WheelInspectorPlugin};
use wheelcollider::prelude::*;

/// The command line.
#[derive(Resource, Clone)]
pub struct Options {
    /// The preset the player's car starts with.
    pub preset: String,
    /// Where the scripted run saves its pictures; `None` for a person driving.
    pub script: Option<std::path::PathBuf>,
    /// How many traffic cars the scripted run adds (`--traffic N`, 10 by default; 39 for
    /// the effects' budget with 40 cars).
    pub traffic: usize,
    /// Where the sound lap writes its recording (`--sound-lap DIR`); `None` to drive.
    pub sound_lap: Option<std::path::PathBuf>,
}

fn main() {
    let mut options = Options {
        preset: "assets/presets/road.ron".into(),
        script: None,
        traffic: 10,
        sound_lap: None,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--preset" => options.preset = args.next().expect("--preset needs a file"),
            "--script" => options.script = Some(args.next().expect("--script needs a directory").into()),
            "--sound-lap" => options.sound_lap = Some(args.next().expect("--sound-lap needs a directory").into()),
            "--traffic" => {
                options.traffic = args
                    .next()
                    .and_then(|n| n.parse().ok())
                    .expect("--traffic needs a number")
            }
            other => {
                eprintln!("unknown argument {other}; use --preset FILE, --script DIR, --traffic N or --sound-lap DIR");
                std::process::exit(2);
            }
        }
    }
    // Fail before opening a window if the preset is broken.
    let settings = match wheelcollider::inspector::load_preset(options.preset.as_ref()) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
    App::new()
        .add_plugins(DefaultPlugins.set(WindowPlugin {
            primary_window: Some(Window {
                title: "wheelcollider: test track".into(),
                resolution: WindowResolution::new(1280, 720),
                ..default()
            }),
            ..default()
        }))
        .add_plugins((
            PhysicsPlugins::default(),
            WheelColliderPlugins,
            VehicleInputPlugin,
            WheelInspectorPlugin::default(),
        ))
        .add_plugins((
            track::TrackPlugin,
            car_visuals::CarVisualsPlugin,
            effects::EffectsPlugin,
            cameras::CamerasPlugin,
            traffic::TrafficPlugin,
            towing::TowingPlugin,
            hud::HudPlugin,
            sound::SoundPlugin {
                lap: options.sound_lap.clone(),
            },
        ))
        .insert_resource(options)
        .insert_resource(StartSettings(settings))
        .add_systems(Startup, spawn_player)
        .add_systems(Update, (keys, tag_player))
        .add_systems(PreUpdate, script::script.after(VehicleInputSystems))
        .run();
}

/// The player's car as the command line gave it.
#[derive(Resource)]
struct StartSettings(VehicleSettings);

fn spawn_player(mut commands: Commands, settings: Res<StartSettings>, options: Res<Options>) {
    let at = sound::start(&options) + Vec3::Y * (settings.0.touch_height() + 0.05);
    let car = spawn_vehicle(&mut commands, &settings.0, Transform::from_translation(at)).expect("validated");
    commands.entity(car).insert((PlayerVehicle, InspectorTarget));
}

/// Whatever becomes the player's car (at start, or when the inspector loads a preset
/// with another number of axles and respawns it) gets smooth rendering and effects.
fn tag_player(mut commands: Commands, new: Query<Entity, Added<PlayerVehicle>>) {
    for car in &new {
        commands
            .entity(car)
            .insert((TransformInterpolation, WheelEventsEnabled, Visibility::default()));
    }
}

fn keys(
    keys: Res<ButtonInput<KeyCode>>,
    mut mode: ResMut<cameras::CameraMode>,
    mut inspector: ResMut<InspectorState>,
    mut traffic: MessageWriter<traffic::TrafficRequest>,
) {
    if keys.just_pressed(KeyCode::KeyC) || keys.just_pressed(KeyCode::KeyV) {
        *mode = mode.next();
    }
    if keys.just_pressed(KeyCode::KeyR) {
        inspector.requests.push(Request::Reset);
    }
    if keys.just_pressed(KeyCode::KeyT) {
        let shift = keys.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]);
        traffic.write(if shift {
            traffic::TrafficRequest::Clear
        } else {
            traffic::TrafficRequest::Add(1)
        });
    }
}
