//! The HUD: speed, gear, revs and g; the camera switch; the car picker (every preset in
//! `assets/presets`, loaded into the player's car through the inspector's `Load`
//! request); traffic and the frame time; the track's labels over the scene; the keys.
use std::path::PathBuf;

use bevy::prelude::*;
use wheelcollider::inspector::bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use wheelcollider::inspector::{InspectorState, Request};
use wheelcollider::prelude::*;

use crate::cameras::CameraMode;
use crate::track::TrackLabel;
use crate::traffic::{AiDriver, MAX_CARS, TrafficRequest};

/// Labels further than this (m) from the camera are not drawn.
const LABEL_RANGE: f32 = 160.0;

/// Lists the presets and draws the HUD.
pub struct HudPlugin;

impl Plugin for HudPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<FrameTime>()
            .add_systems(Startup, list_presets)
            .add_systems(EguiPrimaryContextPass, hud);
    }
}

/// The preset files the car menu offers, sorted.
#[derive(Resource, Default)]
struct PresetFiles(Vec<PathBuf>);

/// The frame time (s), smoothed over about half a second.
#[derive(Resource, Default)]
struct FrameTime(f32);

fn list_presets(mut commands: Commands) {
    let mut files: Vec<PathBuf> = std::fs::read_dir("assets/presets")
        .map(|d| {
            d.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "ron"))
                // A trailer is towed, not driven.
                .filter(|p| {
                    let stem = p.file_stem().and_then(|s| s.to_str()).unwrap_or_default();
                    !wheelcollider::core::vehicle::presets::TRAILERS.contains(&stem)
                })
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    commands.insert_resource(PresetFiles(files));
}

fn hud(
    mut contexts: EguiContexts,
    time: Res<Time<Real>>,
    mut frame: ResMut<FrameTime>,
    car: Query<(&VehicleTelemetry, &Vehicle, &ChassisWheels), With<PlayerVehicle>>,
    tyres: Query<(&VehicleWheel, &WheelCollider, &WheelState)>,
    mut inspector: ResMut<InspectorState>,
    mut mode: ResMut<CameraMode>,
    presets: Res<PresetFiles>,
    ai: Query<(), With<AiDriver>>,
    mut traffic: MessageWriter<TrafficRequest>,
    labels: Query<(&TrackLabel, &GlobalTransform)>,
    camera: Query<(&Camera, &GlobalTransform), With<Camera3d>>,
    bike: Query<(), (With<PlayerVehicle>, With<Rider>)>,
) {
    let dt = time.delta_secs();
    frame.0 += (dt - frame.0) * (dt / 0.5).min(1.0);
    let Ok(ctx) = contexts.ctx_mut() else { return };
    if let Ok((camera, at)) = camera.single() {
        draw_labels(ctx, camera, at, &labels);
    }
    egui::Area::new(egui::Id::new("hud"))
        .anchor(egui::Align2::LEFT_TOP, [12.0, 12.0])
        .show(ctx, |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| {
                if let Ok((t, vehicle, wheels)) = car.single() {
                    gauges(ui, t);
                    tyre_temperatures(ui, wheels, &tyres);
                    car_menu(ui, &vehicle.0.name, &presets.0, &mut inspector);
                }
                ui.horizontal(|ui| {
                    ui.label("camera");
                    for m in [CameraMode::Chase, CameraMode::Bumper, CameraMode::ORBIT] {
                        if ui.selectable_label(mode.name() == m.name(), m.name()).clicked() && mode.name() != m.name() {
                            *mode = m;
                        }
                    }
                });
                let n = ai.iter().count();
                ui.horizontal(|ui| {
                    ui.label(format!("traffic {n}/{MAX_CARS}"));
                    if ui.button("+1").clicked() {
                        traffic.write(TrafficRequest::Add(1));
                    }
                    if ui.button("+8").clicked() {
                        traffic.write(TrafficRequest::Add(8));
                    }
                    if ui.button("clear").clicked() {
                        traffic.write(TrafficRequest::Clear);
                    }
                });
                ui.label(format!(
                    "frame {:.1} ms ({:.0} fps)",
                    frame.0 * 1e3,
                    1.0 / frame.0.max(1e-4)
                ));
            });
        });
    // A two-wheeler's keys mean its own controls (`docs/two-wheeler.md`).
    let help = if bike.single().is_ok() {
        "W/S throttle · front brake   A/D lean   Space rear brake   Z/X weight back · forward   Q/E gears   C camera   T traffic (Shift+T clear)   P autopilot   R reset   M mute   F1 inspector"
    } else {
        "W/S throttle · brake (reverse when stopped)   A/D steer   Space handbrake   Q/E gears   C camera   T traffic (Shift+T clear)   P autopilot   H hitch   B back up   R reset   M mute   F1 inspector"
    };
    egui::Area::new(egui::Id::new("help"))
        .anchor(egui::Align2::LEFT_BOTTOM, [12.0, -10.0])
        .show(ctx, |ui| {
            ui.colored_label(egui::Color32::WHITE, help);
            if !inspector.visible {
                ui.colored_label(egui::Color32::LIGHT_GRAY, "inspector hidden: F1");
            }
        });
}

fn gauges(ui: &mut egui::Ui, t: &VehicleTelemetry) {
    let p = &t.powertrain;
    let gear = match p.gear {
        -1 => "R".to_string(),
        0 => "N".to_string(),
        g => g.to_string(),
    };
    ui.heading(format!("{:>5.0} km/h   gear {gear}", t.speed_kmh));
    ui.add(
        egui::ProgressBar::new(p.engine_rpm / 8000.0)
            .desired_width(240.0)
            .text(format!("{:.0} rpm", p.engine_rpm)),
    );
    ui.label(format!(
        "lat {:+.2} g   long {:+.2} g   {} / {} wheels down",
        t.lateral_acceleration / 9.81,
        t.longitudinal_acceleration / 9.81,
        t.grounded_wheels,
        t.wheels
    ));
}

/// The tyres' surface temperatures, an axle a line, each coloured against its
/// compound's window (blue under, green in, red over); nothing without compounds.
fn tyre_temperatures(
    ui: &mut egui::Ui,
    wheels: &ChassisWheels,
    tyres: &Query<(&VehicleWheel, &WheelCollider, &WheelState)>,
) {
    let mut cells: Vec<(usize, f32, egui::Color32)> = wheels
        .iter()
        .filter_map(|w| {
            let (id, collider, state) = tyres.get(w).ok()?;
            let (c, t) = (collider.compound()?, state.tyre(collider)?);
            let colour = if t.surface < c.window_low {
                egui::Color32::from_rgb(110, 160, 255)
            } else if t.surface > c.window_high {
                egui::Color32::from_rgb(255, 110, 80)
            } else {
                egui::Color32::from_rgb(120, 220, 130)
            };
            Some((VehicleSettings::wheel_index(id.axle, id.right), t.surface, colour))
        })
        .collect();
    cells.sort_by_key(|c| c.0);
    for axle in cells.chunks(2) {
        ui.horizontal(|ui| {
            ui.label(if axle[0].0 == 0 { "tyres" } else { "" });
            for (_, t, colour) in axle {
                ui.colored_label(*colour, format!("{t:>4.0} °C"));
            }
        });
    }
}

/// The car picker: each preset file by its stem; picking one loads it.
fn car_menu(ui: &mut egui::Ui, current: &str, files: &[PathBuf], inspector: &mut InspectorState) {
    ui.horizontal(|ui| {
        ui.label("car");
        egui::ComboBox::from_id_salt("car")
            .selected_text(current)
            .show_ui(ui, |ui| {
                for f in files {
                    let stem = f
                        .file_stem()
                        .map_or(String::new(), |s| s.to_string_lossy().into_owned());
                    if ui.selectable_label(stem == current, &stem).clicked() && stem != current {
                        inspector.preset_path = f.display().to_string();
                        inspector.requests.push(Request::Load(f.clone()));
                    }
                }
            });
    });
}

/// Each track label within [`LABEL_RANGE`] and in front of the camera, on a dark tag.
fn draw_labels(
    ctx: &egui::Context,
    camera: &Camera,
    at: &GlobalTransform,
    labels: &Query<(&TrackLabel, &GlobalTransform)>,
) {
    let painter = ctx.layer_painter(egui::LayerId::background());
    let font = egui::FontId::proportional(14.0);
    for (label, place) in labels {
        let p = place.translation();
        let distance = p.distance(at.translation());
        if distance > LABEL_RANGE || (p - at.translation()).dot(at.forward().into()) < 1.0 {
            continue;
        }
        let Ok(screen) = camera.world_to_viewport(at, p) else {
            continue;
        };
        let pos = egui::pos2(screen.x, screen.y);
        let galley = painter.layout_no_wrap(label.0.clone(), font.clone(), egui::Color32::WHITE);
        let rect = egui::Align2::CENTER_CENTER.anchor_size(pos, galley.size()).expand(4.0);
        let fade = (1.0 - distance / LABEL_RANGE).clamp(0.2, 1.0);
        painter.rect_filled(rect, 3.0, egui::Color32::from_black_alpha((170.0 * fade) as u8));
        painter.galley(rect.min + egui::vec2(4.0, 4.0), galley, egui::Color32::WHITE);
    }
}
