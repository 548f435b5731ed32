//! The scene's sound: the plugin heard from the camera, M to mute, and the recorded
//! sound lap (`--sound-lap DIR`): the player's car driven through a launch and its
//! shifts, the jump and its landing, a handbrake slide and onto the gravel, its sound
//! written to `DIR/sound_lap.wav` (the spectrogram in `docs/img/` is made from it with
//! sox; see `docs/audio.md`).
//!
//! The lap runs on a fixed clock, one physics step per frame, so the recording is the
//! same at any frame rate (a software renderer's included).

use std::time::Duration;

use avian3d::prelude::LinearVelocity;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use wheelcollider::audio::Mixer;
use wheelcollider::audio::plugin::{SoundControl, SoundListener, SoundSettings, VehicleSoundPlugin};
use wheelcollider::audio::wav::write_wav;
use wheelcollider::inspector::InspectorState;
use wheelcollider::prelude::*;

use crate::Options;

/// The scene's sound (and the sound lap when the command line asks for it).
pub struct SoundPlugin {
    /// Where the sound lap's recording goes, if it runs.
    pub lap: Option<std::path::PathBuf>,
}

impl Plugin for SoundPlugin {
    fn build(&self, app: &mut App) {
        // A recording takes every sample itself: nothing to the device.
        app.add_plugins(VehicleSoundPlugin {
            play: self.lap.is_none(),
        })
        .add_systems(Update, (listen_from_camera, mute_key));
        if let Some(dir) = &self.lap {
            let hz = 64.0;
            app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(1.0 / hz)))
                .insert_resource(Time::<Fixed>::from_hz(hz))
                .insert_resource(Lap {
                    dir: dir.clone(),
                    mixer: None,
                    samples: Vec::new(),
                })
                .add_systems(PreUpdate, drive_lap.after(VehicleInputSystems))
                .add_systems(Update, log_lap)
                .add_systems(Last, record);
        }
    }
}

fn listen_from_camera(mut commands: Commands, cameras: Query<Entity, (With<Camera3d>, Without<SoundListener>)>) {
    for camera in &cameras {
        commands.entity(camera).insert(SoundListener);
    }
}

fn mute_key(keys: Res<ButtonInput<KeyCode>>, mut settings: ResMut<SoundSettings>) {
    if keys.just_pressed(KeyCode::KeyM) {
        settings.muted = !settings.muted;
    }
}

/// The sound lap's recording.
#[derive(Resource)]
struct Lap {
    dir: std::path::PathBuf,
    mixer: Option<Mixer>,
    samples: Vec<f32>,
}

/// Where the lap starts: on the jump's run-up, facing it (−Z).
const START: Vec3 = Vec3::new(100.0, 0.0, 0.0);

/// The lap's parts, in order.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
enum Part {
    /// Idling on the line.
    #[default]
    Idle,
    /// Full throttle through the gears, over the jump, to z = −150.
    Launch,
    /// A handbrake slide to the right, for 1.2 s from this time (s).
    Slide(f32),
    /// Full throttle onto the gravel, to x = 175.
    Gravel,
    /// Braking to a stop.
    Brake,
}

/// The steer (−1 right ..= 1 left) that turns a car at `at` heading `forward`
/// towards `target`.
fn towards(at: Vec3, forward: Vec3, target: Vec3) -> f32 {
    let to = (target - at).with_y(0.0).normalize_or_zero();
    let f = forward.with_y(0.0).normalize_or_zero();
    (2.0 * f.cross(to).y.atan2(f.dot(to))).clamp(-1.0, 1.0)
}

/// The lap's driver: the part it is in moves on by time and place; returns the input
/// and whether the lap is over (stopped after braking, or a minute gone).
fn lap_input(part: &mut Part, t: f32, at: Vec3, forward: Vec3, speed: f32) -> (DriverInput, bool) {
    *part = match *part {
        Part::Idle if t > 1.5 => Part::Launch,
        Part::Launch if at.z < -150.0 => Part::Slide(t),
        Part::Slide(from) if t > from + 1.2 => Part::Gravel,
        Part::Gravel if at.x > 175.0 => Part::Brake,
        p => p,
    };
    let input = match *part {
        Part::Idle => DriverInput::default(),
        Part::Launch => {
            let steer = towards(at, forward, Vec3::new(START.x, 0.0, at.z - 30.0));
            DriverInput {
                throttle: 1.0,
                steer,
                ..default()
            }
        }
        Part::Slide(_) => DriverInput {
            throttle: 0.4,
            steer: -1.0,
            handbrake: 1.0,
            ..default()
        },
        Part::Gravel => {
            let steer = towards(at, forward, Vec3::new(400.0, 0.0, -180.0));
            DriverInput {
                throttle: 1.0,
                steer,
                ..default()
            }
        }
        Part::Brake => DriverInput {
            brake: 1.0,
            ..default()
        },
    };
    (input, t > 60.0 || (*part == Part::Brake && speed < 0.3))
}

fn drive_lap(
    time: Res<Time>,
    mut car: Query<(&mut VehicleInput, &Transform, &LinearVelocity), With<PlayerVehicle>>,
    mut inspector: ResMut<InspectorState>,
    mut part: Local<Part>,
    mut exit: MessageWriter<AppExit>,
) {
    let Ok((mut input, transform, velocity)) = car.single_mut() else {
        return;
    };
    inspector.visible = false;
    let t = time.elapsed_secs();
    let before = *part;
    let (drive, over) = lap_input(
        &mut part,
        t,
        transform.translation,
        transform.forward().as_vec3(),
        velocity.length(),
    );
    if *part != before {
        info!(
            "sound lap: {:?} at {t:.2} s, {:.0} km/h",
            *part,
            3.6 * velocity.length()
        );
    }
    input.0 = drive;
    if over {
        exit.write(AppExit::Success);
    }
}

/// The lap's shifts and landings, with their times: what the spectrogram shows.
fn log_lap(time: Res<Time>, mut shifts: MessageReader<GearChanged>, mut landings: MessageReader<Landed>) {
    let t = time.elapsed_secs();
    for s in shifts.read() {
        info!("sound lap: gear {} → {} at {t:.2} s", s.from, s.to);
    }
    for l in landings.read() {
        info!(
            "sound lap: landed at {t:.2} s, {:.1} m/s, {:.2} s in the air",
            l.impact_speed, l.airborne_time
        );
    }
}

fn record(
    time: Res<Time<Virtual>>,
    control: Res<SoundControl>,
    mut lap: ResMut<Lap>,
    mut exits: MessageReader<AppExit>,
) {
    let lap = &mut *lap;
    let mixer = lap.mixer.get_or_insert_with(|| control.mixer(48_000));
    let wanted = 2 * (time.elapsed_secs_f64() * 48_000.0).round() as usize;
    if wanted > lap.samples.len() {
        let start = lap.samples.len();
        lap.samples.resize(wanted, 0.0);
        mixer.render(&mut lap.samples[start..]);
    }
    if exits.read().next().is_some() {
        std::fs::create_dir_all(&lap.dir).ok();
        let path = lap.dir.join("sound_lap.wav");
        let written =
            std::fs::File::create(&path).and_then(|f| write_wav(&mut std::io::BufWriter::new(f), &lap.samples, 48_000));
        match written {
            Ok(()) => info!("{}: {:.1} s", path.display(), lap.samples.len() as f64 / 96_000.0),
            Err(e) => error!("{}: {e}", path.display()),
        }
    }
}

/// Where the player's car starts in the sound lap (else at the origin).
pub fn start(options: &Options) -> Vec3 {
    if options.sound_lap.is_some() { START } else { Vec3::ZERO }
}
