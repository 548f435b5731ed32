//! The Presets and Sim tabs: preset files, gizmos, pause, record and replay
//! (`replay_ui`: its controls, status, file and plots, one function each).

use bevy::prelude::*;
use bevy_egui::egui;
use egui_plot::{HLine, Legend, Line, Plot, PlotPoints};
use wheelcollider_avian::replay::{DriveRecorder, DriveReplay};

use crate::{InspectorState, ReplayTrace, Request, trace_difference};

pub(super) fn presets_ui(ui: &mut egui::Ui, state: &mut InspectorState) {
    ui.horizontal(|ui| {
        ui.label("file");
        ui.text_edit_singleline(&mut state.preset_path);
    });
    ui.horizontal(|ui| {
        if ui.button("load").clicked() {
            state.requests.push(Request::Load(state.preset_path.clone().into()));
        }
        if ui.button("save").clicked() {
            state.requests.push(Request::Save(state.preset_path.clone().into()));
        }
        ui.checkbox(&mut state.hot_reload, "reload when the file changes");
    });
    ui.weak("Or drop a .ron file on the window.");
    ui.separator();
    ui.label("assets/presets/");
    if let Ok(dir) = std::fs::read_dir("assets/presets") {
        let mut files: Vec<_> = dir
            .filter_map(|e| e.ok())
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "ron"))
            .collect();
        files.sort();
        for f in files {
            if ui.button(f.display().to_string()).clicked() {
                state.preset_path = f.display().to_string();
                state.requests.push(Request::Load(f));
            }
        }
    }
}

/// Record a drive, save and load it, replay it with the current tuning, and compare the
/// last two replays.
pub(super) fn replay_ui(
    ui: &mut egui::Ui,
    state: &mut InspectorState,
    recorder: Option<&DriveRecorder>,
    replay: Option<&DriveReplay>,
    hz: f64,
) {
    replay_controls(ui, state, recorder, replay, hz);
    replay_status(ui, state, replay, hz);
    recording_files(ui, state);
    if !state.traces.is_empty() {
        replay_plots(ui, &state.traces);
    }
}

/// The record / stop, replay and clear buttons.
fn replay_controls(
    ui: &mut egui::Ui,
    state: &mut InspectorState,
    recorder: Option<&DriveRecorder>,
    replay: Option<&DriveReplay>,
    hz: f64,
) {
    ui.label("Record and replay: the same input with two tunings");
    ui.horizontal(|ui| {
        match recorder {
            Some(r) => {
                let n = r.recording.inputs.len();
                if ui
                    .button(format!("⏹ stop ({n} steps, {:.1} s)", n as f64 / hz))
                    .clicked()
                {
                    state.requests.push(Request::StopRecording);
                }
            }
            None => {
                if ui
                    .add_enabled(replay.is_none(), egui::Button::new("⏺ record"))
                    .on_hover_text("reset the car and record what you drive, step by step")
                    .clicked()
                {
                    state.requests.push(Request::Record);
                }
            }
        }
        let can_replay = recorder.is_none() && state.recording.is_some();
        if ui
            .add_enabled(can_replay, egui::Button::new("▶ replay"))
            .on_hover_text("put the car at the recording's start and replay it with the current tuning")
            .clicked()
        {
            state.requests.push(Request::Replay);
        }
        if !state.traces.is_empty() && ui.button("clear plots").clicked() {
            state.traces.clear();
        }
    });
}

/// What is replaying or recorded.
fn replay_status(ui: &mut egui::Ui, state: &InspectorState, replay: Option<&DriveReplay>, hz: f64) {
    match (replay, &state.recording) {
        (Some(r), _) => {
            ui.label(format!(
                "replaying: {:.1} / {:.1} s",
                r.step as f64 / hz,
                r.len() as f64 / hz
            ));
        }
        (None, Some(rec)) => {
            ui.weak(format!(
                "recording: {} steps at {:.0} Hz ({:.1} s), tuning \"{}\"",
                rec.inputs.len(),
                rec.hz,
                rec.duration(),
                rec.settings.name
            ));
        }
        (None, None) => {
            ui.weak("Record a drive, stop, replay it; change the tuning, replay again.");
        }
    }
}

/// The recording's file: its path, save and load.
fn recording_files(ui: &mut egui::Ui, state: &mut InspectorState) {
    ui.horizontal(|ui| {
        ui.label("file");
        ui.text_edit_singleline(&mut state.recording_path);
    });
    ui.horizontal(|ui| {
        if ui
            .add_enabled(state.recording.is_some(), egui::Button::new("save"))
            .clicked()
        {
            state
                .requests
                .push(Request::SaveRecording(state.recording_path.clone().into()));
        }
        if ui.button("load").clicked() {
            state
                .requests
                .push(Request::LoadRecording(state.recording_path.clone().into()));
        }
    });
}

/// The last two replays against recording time (speed, their difference, yaw rate) and
/// their paths from above.
fn replay_plots(ui: &mut egui::Ui, traces: &[ReplayTrace]) {
    const TRACE_COLORS: [egui::Color32; 2] = [
        egui::Color32::from_rgb(150, 150, 150),
        egui::Color32::from_rgb(240, 170, 60),
    ];
    // One line per replay of a channel against time.
    let against_time = |ui: &mut egui::Ui, id: &str, height: f32, channel: fn(&ReplayTrace) -> &[f64]| {
        Plot::new(id).height(height).legend(Legend::default()).show(ui, |p| {
            for (i, t) in traces.iter().enumerate() {
                let pts: PlotPoints = t.time.iter().zip(channel(t)).map(|(&x, &y)| [x, y]).collect();
                p.line(Line::new(t.label.clone(), pts).color(TRACE_COLORS[i % 2]));
            }
        });
    };
    ui.label("Speed (km/h) against recording time (s)");
    against_time(ui, "replay_speed", 130.0, |t| &t.speed);
    if let [a, b] = traces {
        let diff = trace_difference(a, b);
        if let (Some(gap), Some(dv)) = (
            diff.iter().map(|d| d[2]).reduce(f64::max),
            diff.iter().map(|d| d[1].abs()).reduce(f64::max),
        ) {
            ui.label(format!(
                "Difference, newest minus previous: largest speed gap {dv:.1} km/h, largest position gap {gap:.2} m"
            ));
        }
        Plot::new("replay_diff")
            .height(130.0)
            .legend(Legend::default())
            .show(ui, |p| {
                let dv: PlotPoints = diff.iter().map(|d| [d[0], d[1]]).collect();
                let gap: PlotPoints = diff.iter().map(|d| [d[0], d[2]]).collect();
                p.line(Line::new("speed difference (km/h)", dv));
                p.line(Line::new("position gap (m)", gap));
                p.hline(HLine::new("zero", 0.0).color(egui::Color32::DARK_GRAY));
            });
    }
    ui.label("Yaw rate (deg/s) against recording time (s)");
    against_time(ui, "replay_yaw", 110.0, |t| &t.yaw_rate);
    ui.label("Path seen from above: x against z (m)");
    Plot::new("replay_path")
        .height(200.0)
        .data_aspect(1.0)
        .legend(Legend::default())
        .show(ui, |p| {
            for (i, t) in traces.iter().enumerate() {
                let pts: PlotPoints = t.path.iter().map(|&[x, z]| [x, z]).collect();
                p.line(Line::new(t.label.clone(), pts).color(TRACE_COLORS[i % 2]));
            }
        });
}
