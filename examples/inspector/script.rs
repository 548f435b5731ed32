//! The scripted run (`--script DIR`): a fixed input sequence, the inspector's tabs, a
//! recorded drive replayed twice, then traffic, a handbrake turn and three cameras;
//! screenshots into DIR; exit. The README's pictures are made this way.
use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};
use wheelcollider::inspector::{InspectorState, Request, Tab};
use wheelcollider::prelude::*;

use crate::Options;
use crate::cameras::CameraMode;
use crate::effects::{EffectsClock, FillMarks, Pools, pool_fill};
use crate::traffic::TrafficRequest;

/// A picture: when (s), the inspector's tab (`None`: inspector hidden), the camera, the
/// file (empty: taken and thrown away).
type Shot = (f32, Option<Tab>, CameraMode, &'static str);

const SHOTS: [Shot; 8] = [
    // A first capture, thrown away: here the first screenshot of a run returned an
    // early frame (the car at its spawn, no egui) however late it was taken.
    (2.0, Some(Tab::Telemetry), CameraMode::Chase, ""),
    (4.5, Some(Tab::Telemetry), CameraMode::Chase, "track_telemetry.png"),
    (6.5, Some(Tab::Plots), CameraMode::Chase, "track_plots.png"),
    (8.5, Some(Tab::Tune), CameraMode::Chase, "track_tune.png"),
    (25.5, Some(Tab::Sim), CameraMode::Chase, "track_replay.png"),
    (
        32.2,
        None,
        CameraMode::Orbit {
            yaw: 60.0,
            pitch: 22.0,
            distance: 13.0,
        },
        "track_effects.png",
    ),
    (
        34.5,
        None,
        CameraMode::Orbit {
            yaw: 20.0,
            pitch: 30.0,
            distance: 45.0,
        },
        "track_overview.png",
    ),
    (35.8, None, CameraMode::Bumper, "track_bumper.png"),
];

/// The driver's inputs at time `t` (s): throttle, steer, brake, handbrake.
fn inputs(t: f32) -> [f32; 4] {
    match t {
        t if t > 1.0 && t < 4.0 => [1.0, 0.0, 0.0, 0.0],
        t if t > 4.0 && t < 7.0 => [1.0, 0.35, 0.0, 0.0],
        t if t > 7.0 && t < 8.0 => [0.0, 0.0, 0.6, 0.0],
        // After the replays: accelerate, then a handbrake turn (marks and smoke).
        t if t > 26.0 && t < 30.0 => [1.0, 0.0, 0.0, 0.0],
        t if t > 30.0 && t < 32.5 => [0.6, -1.0, 0.0, 1.0],
        t if t > 34.0 && t < 38.0 => [0.7, 0.0, 0.0, 0.0],
        _ => [0.0; 4],
    }
}

pub fn script(
    mut commands: Commands,
    time: Res<Time>,
    real: Res<Time<Real>>,
    options: Res<Options>,
    mut car: Query<(&mut VehicleInput, &mut Vehicle), With<PlayerVehicle>>,
    mut inspector: ResMut<InspectorState>,
    mut gizmos: ResMut<WheelGizmos>,
    mut camera: ResMut<CameraMode>,
    mut traffic: MessageWriter<TrafficRequest>,
    mut cue: Local<u32>,
    mut shots: Local<u32>,
    mut exit: MessageWriter<AppExit>,
    (mut effects, pools, cars, mut measuring): (
        ResMut<EffectsClock>,
        Res<Pools>,
        Query<(), With<Vehicle>>,
        Local<bool>,
    ),
) {
    let Some(dir) = &options.script else { return };
    let t = time.elapsed_secs();
    let Ok((mut input, mut vehicle)) = car.single_mut() else {
        return;
    };
    [input.throttle, input.steer, input.brake, input.handbrake] = inputs(t);
    // Record the first drive, replay it, detune the engine to 70 %, replay it again: the
    // Sim tab then plots the two replays and their difference. Then traffic.
    if let Some(&when) = [0.9, 8.9, 9.1, 17.1, 25.8].get(*cue as usize)
        && t >= when
    {
        match *cue {
            0 => inspector.requests.push(Request::Record),
            1 => inspector.requests.push(Request::StopRecording),
            2 => inspector.requests.push(Request::Replay),
            3 => {
                for point in &mut vehicle.0.engine.torque_curve {
                    point[1] *= 0.7;
                }
                inspector.requests.push(Request::Replay);
            }
            _ => {
                // Back to the start line for the handbrake turn, traffic on the loop.
                inspector.requests.push(Request::Reset);
                traffic.write(TrafficRequest::Add(options.traffic));
            }
        }
        *cue += 1;
    }
    gizmos.enabled = t < 26.0;
    if let Some((at, tab, mode, name)) = SHOTS.get(*shots as usize) {
        if t > *at - 1.5 && *camera != *mode {
            *camera = *mode;
        }
        if t > *at - 0.4 {
            inspector.visible = tab.is_some();
            if let Some(tab) = tab {
                inspector.tab = *tab;
            }
        }
        if t > *at {
            std::fs::create_dir_all(dir).ok();
            let mut shot = commands.spawn(Screenshot::primary_window());
            if !name.is_empty() {
                shot.observe(save_to_disk(dir.join(name)));
                info!("{name}: frame {:.1} ms", real.delta_secs() * 1e3);
            }
            *shots += 1;
        }
    } else if t > 38.5 {
        // The effects' cost over the run's last 10 s (traffic on, the handbrake turn).
        let (ms, frames) = effects.take();
        let [(marks, max_marks), (puffs, max_puffs)] = pool_fill(&pools);
        info!(
            "effects: {ms:.3} ms per frame over the last {frames} frames, {} cars, skid marks {marks}/{max_marks}, puffs {puffs}/{max_puffs}",
            cars.iter().count()
        );
        exit.write(AppExit::Success);
    }
    if t >= 28.5 && !*measuring {
        *measuring = true;
        effects.take(); // the span reported at the end starts here
        if options.traffic > 10 {
            commands.insert_resource(FillMarks); // the budget: the pools full
        }
    }
}
