//! # wheelcollider_inspector
//!
//! An egui inspector for wheelcollider vehicles, added by a game as one plugin:
//!
//! ```no_run
//! use bevy::prelude::*;
//! use wheelcollider_inspector::WheelInspectorPlugin;
//! App::new().add_plugins(WheelInspectorPlugin::default());
//! ```
//!
//! It needs bevy_egui's `EguiPlugin` (added for you when missing) and inspects the
//! vehicle marked [`InspectorTarget`], or else the first [`Vehicle`].
//!
//! | tab | what |
//! | --- | --- |
//! | Tune | every wheel parameter per axle (mirrored left/right) or per wheel, sweep type, chassis, engine, clutch, gearbox, differentials, brakes, steering, aero, ground surfaces |
//! | Plots | tyre curve with each wheel's operating point and the peak; friction circle; rolling history of compression, load and slip; engine torque curve at the current rpm |
//! | Telemetry | speed, rpm, gear, per-wheel grounded / load / slips / forces |
//! | Presets | save and load RON presets (also by drag and drop), hot reload |
//! | Sim | gizmos per sweep shape, pause / single step, slow motion, reset car; record a drive, save / load it, replay it with the current tuning and plot it against the previous replay; the sound's volumes (feature `audio`) |
//!
//! F1 hides and shows the inspector. Edits go through the same validation as a preset
//! file: an entry the model cannot take is refused, never applied.
//!
//! Why `apply_requests` is a little over 80 lines: one match over the inspector's
//! requests, one arm each.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![warn(missing_docs)]

// The crate's README (its crates.io page) is compiled as a doc-test, so it cannot rot.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

pub mod edge_probe;
mod panels;

use std::collections::VecDeque;
use std::path::PathBuf;
use std::time::SystemTime;

use avian3d::prelude::*;
use bevy::prelude::*;
pub use bevy_egui;
use bevy_egui::{EguiPlugin, EguiPrimaryContextPass};
pub use egui_plot;
use wheelcollider_avian::debug::{WheelDebugPlugin, WheelGizmos};
use wheelcollider_avian::prelude::*;
use wheelcollider_avian::replay::{DriveRecorder, DriveRecording, DriveReplay};

/// Samples kept in the rolling history (at the frame rate: about 10 s at 60 fps).
pub const HISTORY_LEN: usize = 600;

/// Adds the inspector: panels, plots, preset loading, pause and slow motion.
#[derive(Default)]
pub struct WheelInspectorPlugin {
    /// Start hidden (F1 shows it).
    pub start_hidden: bool,
}

impl Plugin for WheelInspectorPlugin {
    fn build(&self, app: &mut App) {
        if !app.is_plugin_added::<EguiPlugin>() {
            app.add_plugins(EguiPlugin::default());
        }
        // Gizmos only where Bevy's gizmo plugin is (a game with `DefaultPlugins`); add
        // this plugin after it.
        if app.is_plugin_added::<bevy::gizmos::GizmoPlugin>() && !app.is_plugin_added::<WheelDebugPlugin>() {
            app.add_plugins(WheelDebugPlugin);
        }
        app.insert_resource(InspectorState {
            visible: !self.start_hidden,
            ..Default::default()
        })
        .register_type::<InspectorTarget>()
        .add_systems(
            Update,
            (
                toggle_visibility,
                pick_target,
                record_history,
                hot_reload,
                dropped_files,
                apply_requests,
                record_replay_traces,
            )
                .chain(),
        )
        .add_systems(EguiPrimaryContextPass, panels::inspector_ui)
        .add_systems(PhysicsSchedule, single_step.in_set(PhysicsStepSystems::Last));
    }
}

/// Marks the vehicle the inspector shows. Without one, it shows the first vehicle.
#[derive(Component, Reflect, Clone, Copy, Debug, Default)]
#[reflect(Component)]
pub struct InspectorTarget;

/// The tabs of the panel.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Tab {
    /// Parameters.
    #[default]
    Tune,
    /// Plots.
    Plots,
    /// Numbers.
    Telemetry,
    /// Save and load.
    Presets,
    /// Gizmos, pause, slow motion, reset.
    Sim,
}

/// One sample of one wheel in the rolling history.
#[derive(Clone, Copy, Debug, Default)]
pub struct WheelSample {
    /// Suspension compression (m).
    pub compression: f32,
    /// Tyre load (N).
    pub load: f32,
    /// Longitudinal slip κ (dimensionless).
    pub forward_slip: f32,
    /// Lateral slip σ (dimensionless).
    pub sideways_slip: f32,
    /// Self-aligning torque (N·m).
    pub aligning_torque: f32,
}

/// The inspector's state: what it shows, its history and its messages.
#[derive(Resource, Debug)]
pub struct InspectorState {
    /// Whether the panel is shown (F1 toggles).
    pub visible: bool,
    /// The tab shown.
    pub tab: Tab,
    /// The vehicle shown.
    pub target: Option<Entity>,
    /// Edit wheels one by one instead of per axle.
    pub per_wheel: bool,
    /// Time (s) of each history sample.
    pub times: VecDeque<f32>,
    /// History per wheel (index as in `VehicleSettings::wheel_index`).
    pub history: Vec<VecDeque<WheelSample>>,
    /// The body's roll (deg, positive leaning right) at each history sample.
    pub roll: VecDeque<f32>,
    /// The preset file the Presets tab saves to and loads from.
    pub preset_path: String,
    /// Reload the preset when its file changes.
    pub hot_reload: bool,
    /// Last message (text, is an error).
    pub message: Option<(String, bool)>,
    /// Physics speed relative to real time (ratio, 0.05 ..= 1 in the Sim tab; slow motion < 1).
    pub time_scale: f32,
    /// Where the vehicle started, for "reset car".
    pub home: Option<Transform>,
    /// Requests from the panel, carried out in `Update`.
    pub requests: Vec<Request>,
    /// Pause physics after the next step.
    pub pause_after_step: bool,
    /// The last recorded (or loaded) drive.
    pub recording: Option<DriveRecording>,
    /// The file the Sim tab saves recordings to and loads them from.
    pub recording_path: String,
    /// The last replays (oldest first, at most [`MAX_TRACES`]): what each tuning did
    /// with the same recorded input.
    pub traces: Vec<ReplayTrace>,
    replays: usize,
    loaded_mtime: Option<SystemTime>,
    last_poll: f32,
}

impl Default for InspectorState {
    fn default() -> Self {
        Self {
            visible: true,
            tab: Tab::Tune,
            target: None,
            per_wheel: false,
            times: VecDeque::with_capacity(HISTORY_LEN),
            history: vec![],
            roll: VecDeque::new(),
            preset_path: "assets/presets/road.ron".into(),
            hot_reload: true,
            message: None,
            time_scale: 1.0,
            home: None,
            requests: vec![],
            pause_after_step: false,
            recording: None,
            recording_path: "recording.ron".into(),
            traces: vec![],
            replays: 0,
            loaded_mtime: None,
            last_poll: 0.0,
        }
    }
}

/// Something the panel asks for that needs more than the panel's own queries.
#[derive(Clone, Debug, PartialEq)]
pub enum Request {
    /// Load the preset at this path into the target vehicle.
    Load(PathBuf),
    /// Save the target vehicle's settings to this path.
    Save(PathBuf),
    /// Put the vehicle back where it started, at rest.
    Reset,
    /// Reset the vehicle and record its drive from there (stop with `StopRecording`).
    Record,
    /// Stop recording; the drive goes to [`InspectorState::recording`].
    StopRecording,
    /// Put the vehicle at the recording's start and replay it with the current tuning.
    Replay,
    /// Save [`InspectorState::recording`] to this path.
    SaveRecording(PathBuf),
    /// Load a recording from this path.
    LoadRecording(PathBuf),
}

/// Replays kept for comparison.
pub const MAX_TRACES: usize = 2;

/// What one replay did, sampled every frame.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ReplayTrace {
    /// Which run, and the tuning's name.
    pub label: String,
    /// Recording time of each sample (s): the replayed step over the rate.
    pub time: Vec<f64>,
    /// Speed (km/h).
    pub speed: Vec<f64>,
    /// Chassis position x and z (m).
    pub path: Vec<[f64; 2]>,
    /// Yaw rate (deg/s).
    pub yaw_rate: Vec<f64>,
    /// The tuning this replay ran with.
    pub tuning: VehicleSettings,
}

/// The sections of `b` that differ from `a` (`"engine, axle 0"`), empty if none.
fn changed_sections(a: &VehicleSettings, b: &VehicleSettings) -> String {
    let mut out: Vec<String> = vec![];
    let mut check = |differs: bool, name: &str| {
        if differs {
            out.push(name.into());
        }
    };
    check(a.chassis != b.chassis, "chassis");
    check(a.engine != b.engine, "engine");
    check(a.clutch != b.clutch, "clutch");
    check(a.gearbox != b.gearbox, "gearbox");
    check(
        a.centre_differential != b.centre_differential || a.front_torque_share != b.front_torque_share,
        "centre differential",
    );
    check(a.brakes != b.brakes, "brakes");
    check(a.steering != b.steering, "steering");
    check(a.aero != b.aero, "aero");
    if a.axles.len() != b.axles.len() {
        out.push("axles".into());
    } else {
        for (i, (x, y)) in a.axles.iter().zip(&b.axles).enumerate() {
            if x != y {
                out.push(format!("axle {i}"));
            }
        }
    }
    out.join(", ")
}

/// How replay `b` departs from replay `a`: `[time (s), speed difference b − a (km/h),
/// position gap (m)]` at each of `b`'s samples that falls inside `a`'s time span
/// (`a` is interpolated linearly; both are sorted by time). The Sim tab plots this.
pub fn trace_difference(a: &ReplayTrace, b: &ReplayTrace) -> Vec<[f64; 3]> {
    let mut out = Vec::with_capacity(b.time.len());
    let mut j = 0;
    for (i, &t) in b.time.iter().enumerate() {
        while j + 1 < a.time.len() && a.time[j + 1] < t {
            j += 1;
        }
        if a.time.len() < 2 || t < a.time[0] || t > a.time[a.time.len() - 1] {
            continue;
        }
        let (t0, t1) = (a.time[j], a.time[j + 1]);
        let f = if t1 > t0 {
            ((t - t0) / (t1 - t0)).clamp(0.0, 1.0)
        } else {
            0.0
        };
        let lerp = |x: f64, y: f64| x + (y - x) * f;
        let speed = lerp(a.speed[j], a.speed[j + 1]);
        let x = lerp(a.path[j][0], a.path[j + 1][0]);
        let z = lerp(a.path[j][1], a.path[j + 1][1]);
        let gap = (b.path[i][0] - x).hypot(b.path[i][1] - z);
        out.push([t, b.speed[i] - speed, gap]);
    }
    out
}

fn toggle_visibility(keys: Option<Res<ButtonInput<KeyCode>>>, mut state: ResMut<InspectorState>) {
    if keys.is_some_and(|k| k.just_pressed(KeyCode::F1)) {
        state.visible = !state.visible;
    }
}

fn pick_target(
    mut state: ResMut<InspectorState>,
    marked: Query<(Entity, &Transform), (With<Vehicle>, With<InspectorTarget>)>,
    any: Query<(Entity, &Transform), With<Vehicle>>,
) {
    if state.target.is_some_and(|t| any.contains(t)) {
        return;
    }
    let pick = marked.iter().next().or_else(|| any.iter().next());
    state.target = pick.map(|p| p.0);
    state.home = pick.map(|p| *p.1);
    state.times.clear();
    state.history.clear();
    state.roll.clear();
}

fn record_history(
    time: Res<Time>,
    mut state: ResMut<InspectorState>,
    vehicles: Query<(&ChassisWheels, &Rotation), With<Vehicle>>,
    wheels: Query<(&VehicleWheel, &WheelOutput)>,
    physics: Res<Time<Physics>>,
) {
    if physics.is_paused() {
        return;
    }
    let Some((children, rotation)) = state.target.and_then(|t| vehicles.get(t).ok()) else {
        return;
    };
    // One history per wheel index (a single axle's right index stays empty).
    let n = wheels
        .iter_many(children.wheels())
        .map(|(id, _)| VehicleSettings::wheel_index(id.axle, id.right) + 1)
        .max()
        .unwrap_or(0);
    if state.history.len() != n {
        state.history = vec![VecDeque::with_capacity(HISTORY_LEN); n];
        state.times.clear();
        state.roll.clear();
    }
    if state.times.len() == HISTORY_LEN {
        state.times.pop_front();
        state.roll.pop_front();
        state.history.iter_mut().for_each(|h| {
            h.pop_front();
        });
    }
    state.times.push_back(time.elapsed_secs());
    // Roll about the chassis' forward axis (yaw first, as the track records it).
    let (_, _, roll) = rotation.0.to_euler(EulerRot::YXZ);
    state.roll.push_back(-roll.to_degrees());
    // One sample per wheel slot; a wheel not found this frame repeats a zero sample.
    let len = state.times.len();
    for &w in children.wheels() {
        if let Ok((id, s)) = wheels.get(w)
            && let Some(h) = state.history.get_mut(VehicleSettings::wheel_index(id.axle, id.right))
        {
            h.push_back(WheelSample {
                compression: s.output.compression,
                load: s.output.load,
                forward_slip: s.output.forward_slip,
                sideways_slip: s.output.sideways_slip,
                aligning_torque: s.output.aligning_torque,
            });
        }
    }
    for h in &mut state.history {
        h.resize(len, WheelSample::default());
    }
}

fn hot_reload(time: Res<Time<Real>>, mut state: ResMut<InspectorState>) {
    let now = time.elapsed_secs();
    if !state.hot_reload || now - state.last_poll < 0.5 {
        return;
    }
    state.last_poll = now;
    let path = PathBuf::from(&state.preset_path);
    let Ok(mtime) = std::fs::metadata(&path).and_then(|m| m.modified()) else {
        return;
    };
    match state.loaded_mtime {
        Some(t) if t != mtime => {
            state.loaded_mtime = Some(mtime);
            state.requests.push(Request::Load(path));
        }
        None => state.loaded_mtime = Some(mtime),
        _ => {}
    }
}

fn dropped_files(mut drops: MessageReader<bevy::window::FileDragAndDrop>, mut state: ResMut<InspectorState>) {
    for d in drops.read() {
        if let bevy::window::FileDragAndDrop::DroppedFile { path_buf, .. } = d {
            state.preset_path = path_buf.display().to_string();
            state.loaded_mtime = None;
            state.requests.push(Request::Load(path_buf.clone()));
        }
    }
}

/// Loads a preset file: the settings, or a message naming the file and the place.
pub fn load_preset(path: &std::path::Path) -> Result<VehicleSettings, String> {
    VehicleSettings::from_file(path).map_err(|e| e.to_string())
}

fn apply_requests(
    mut commands: Commands,
    mut state: ResMut<InspectorState>,
    mut vehicles: Query<(&mut Vehicle, &Transform, Option<&DriveRecorder>)>,
    fixed: Res<Time<Fixed>>,
) {
    let hz = 1.0 / fixed.timestep().as_secs_f64().max(1e-6);
    let requests = std::mem::take(&mut state.requests);
    for r in requests {
        let Some(target) = state.target else {
            state.message = Some(("no vehicle to apply it to".into(), true));
            continue;
        };
        let Ok((mut vehicle, transform, recorder)) = vehicles.get_mut(target) else {
            continue;
        };
        match r {
            Request::Load(path) => match load_preset(&path) {
                Ok(settings) if settings.axles.len() == vehicle.0.axles.len() => {
                    vehicle.0 = settings;
                    state.message = Some((format!("loaded {}", path.display()), false));
                }
                Ok(settings) => {
                    // A different number of axles: a new vehicle in its place.
                    let at = *transform;
                    match spawn_vehicle(&mut commands, &settings, at) {
                        Ok(new) => {
                            commands.entity(target).despawn();
                            commands.entity(new).insert((PlayerVehicle, InspectorTarget));
                            state.target = None;
                            state.message = Some((format!("loaded {} (new layout)", path.display()), false));
                        }
                        Err(e) => state.message = Some((e.to_string(), true)),
                    }
                }
                Err(e) => state.message = Some((format!("not loaded, the car is unchanged: {e}"), true)),
            },
            Request::Save(path) => {
                let text = vehicle.0.to_ron();
                state.message = Some(match std::fs::write(&path, text) {
                    Ok(()) => {
                        state.loaded_mtime = std::fs::metadata(&path).and_then(|m| m.modified()).ok();
                        (format!("saved {}", path.display()), false)
                    }
                    Err(e) => (format!("could not save {}: {e}", path.display()), true),
                });
            }
            Request::Reset | Request::Record | Request::Replay => {
                restart(&mut commands, &mut state, target, &vehicle.0, *transform, r, hz);
            }
            Request::StopRecording => {
                match recorder {
                    Some(rec) => {
                        let rec = rec.recording.clone();
                        state.message = Some((
                            format!("recorded {} steps ({:.1} s)", rec.inputs.len(), rec.duration()),
                            false,
                        ));
                        state.recording = Some(rec);
                    }
                    None => state.message = Some(("not recording".into(), true)),
                }
                commands.entity(target).remove::<DriveRecorder>();
            }
            Request::SaveRecording(path) => {
                state.message = Some(match &state.recording {
                    None => ("nothing recorded yet".into(), true),
                    Some(rec) => match std::fs::write(&path, rec.to_ron()) {
                        Ok(()) => (format!("saved {}", path.display()), false),
                        Err(e) => (format!("could not save {}: {e}", path.display()), true),
                    },
                });
            }
            Request::LoadRecording(path) => {
                let loaded = std::fs::read_to_string(&path)
                    .map_err(|e| e.to_string())
                    .and_then(|t| DriveRecording::from_ron(&t).map_err(|e| e.to_string()));
                state.message = Some(match loaded {
                    Ok(rec) => {
                        let msg = format!("loaded {} ({:.1} s)", path.display(), rec.duration());
                        state.recording = Some(rec);
                        (msg, false)
                    }
                    Err(e) => (format!("not loaded: {}: {e}", path.display()), true),
                });
            }
        }
    }
}

/// Resets the target vehicle ([`ResetVehicle`]) at its home (or at the recording's start
/// for a replay) and starts recording or replaying from there.
fn restart(
    commands: &mut Commands,
    state: &mut InspectorState,
    target: Entity,
    settings: &VehicleSettings,
    current: Transform,
    r: Request,
    hz: f64,
) {
    let at = match (&r, &state.recording) {
        (Request::Replay, Some(rec)) => Some(rec.start()),
        (Request::Replay, None) => {
            state.message = Some(("nothing to replay: record a drive first".into(), true));
            return;
        }
        _ => state.home,
    };
    commands.trigger(ResetVehicle { entity: target, to: at });
    let start = at.unwrap_or(current);
    let mut car = commands.entity(target);
    car.remove::<(DriveRecorder, DriveReplay)>();
    match r {
        Request::Record => {
            car.insert(DriveRecorder::new(settings, &start, hz));
            state.message = Some(("recording: drive, then stop".into(), false));
        }
        Request::Replay => {
            let Some(rec) = state.recording.as_ref() else { return };
            let (duration, rec_hz) = (rec.duration(), rec.hz);
            car.insert(DriveReplay::new(rec));
            if state.traces.len() == MAX_TRACES {
                state.traces.remove(0);
            }
            let run = state.replays + 1;
            state.replays = run;
            let changes = state.traces.last().map(|prev| changed_sections(&prev.tuning, settings));
            let label = match changes.as_deref() {
                None => format!("run {run}: {}", settings.name),
                Some("") => format!("run {run}: {}, same tuning", settings.name),
                Some(c) => format!("run {run}: {}, changed {c}", settings.name),
            };
            state.traces.push(ReplayTrace {
                label,
                tuning: settings.clone(),
                ..Default::default()
            });
            state.message = Some(if (rec_hz - hz).abs() > 0.01 * hz {
                (
                    format!(
                        "replaying {duration:.1} s recorded at {rec_hz:.0} Hz at {hz:.0} Hz: \
                             the steps are replayed one for one, so the drive differs"
                    ),
                    true,
                )
            } else {
                (format!("replaying {duration:.1} s"), false)
            });
        }
        _ => state.message = Some(("car reset".into(), false)),
    }
}

/// Samples the running replay into the newest trace; a finished replay is removed.
fn record_replay_traces(
    mut commands: Commands,
    mut state: ResMut<InspectorState>,
    cars: Query<(&DriveReplay, &Position, &LinearVelocity, &AngularVelocity)>,
    fixed: Res<Time<Fixed>>,
) {
    let Some(target) = state.target else { return };
    let Ok((replay, p, v, w)) = cars.get(target) else {
        return;
    };
    let dt = fixed.timestep().as_secs_f64();
    // Before the first replayed step the body still holds the pose from before the reset.
    if let Some(trace) = state.traces.last_mut()
        && replay.step > 0
        && trace.time.last().is_none_or(|&t| t < replay.step as f64 * dt)
    {
        trace.time.push(replay.step as f64 * dt);
        trace.speed.push(v.0.length() as f64 * 3.6);
        trace.path.push([p.0.x as f64, p.0.z as f64]);
        trace.yaw_rate.push(w.0.y.to_degrees() as f64);
    }
    if replay.finished() {
        commands.entity(target).remove::<DriveReplay>();
        state.message = Some(("replay done: change the tuning and replay to compare".into(), false));
    }
}

fn single_step(mut state: ResMut<InspectorState>, mut time: ResMut<Time<Physics>>) {
    if state.pause_after_step {
        state.pause_after_step = false;
        time.pause();
    }
}

/// Toggles the gizmos of one sweep shape (used by the Sim tab).
pub fn gizmo_toggles(g: &mut WheelGizmos) -> [(&'static str, &mut bool); 5] {
    [
        ("gizmos", &mut g.enabled),
        ("ray", &mut g.ray),
        ("sphere", &mut g.sphere),
        ("cylinder", &mut g.cylinder),
        ("forces", &mut g.forces),
    ]
}
