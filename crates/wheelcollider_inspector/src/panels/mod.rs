//! The panels: purpose-built tuning widgets, plots and telemetry.
//!
//! | file | tab |
//! | --- | --- |
//! | `mod.rs` | the window, tabs and shared widgets |
//! | `tune.rs` | Tune: wheel, axle, vehicle and surface settings |
//! | `plots.rs` | Plots, Telemetry |
//! | `tyre.rs` | the tyre compound's editor (Tune), the tyres' heat map (Telemetry) |
//! | `sim.rs` | Presets, Sim (gizmos, pause, record, replay) |
//!
//! `inspector_ui` is the Bevy system: it draws the window's header and dispatches the
//! tabs, each a function.

mod plots;
mod sim;
#[cfg(feature = "audio")]
mod sound;
mod tune;
mod tune_vehicle;
mod tyre;

use plots::*;
use sim::*;
use tune::*;
use tune_vehicle::*;
use tyre::*;

use avian3d::prelude::*;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use wheelcollider_avian::debug::WheelGizmos;
use wheelcollider_avian::prelude::*;
use wheelcollider_avian::replay::{DriveRecorder, DriveReplay};
use wheelcollider_avian::vehicle::VehicleRuntime;
use wheelcollider_core::Row;
use wheelcollider_core::vehicle::AxleSuspension;

use crate::{Request, Tab, gizmo_toggles};

pub(super) const WHEEL_COLORS: [egui::Color32; 6] = [
    egui::Color32::from_rgb(230, 90, 80),
    egui::Color32::from_rgb(80, 160, 230),
    egui::Color32::from_rgb(240, 190, 60),
    egui::Color32::from_rgb(90, 200, 120),
    egui::Color32::from_rgb(200, 120, 220),
    egui::Color32::from_rgb(160, 160, 160),
];

pub(super) fn wheel_name(i: usize) -> String {
    let side = if i.is_multiple_of(2) { "L" } else { "R" };
    format!("{}{side}", i / 2)
}

/// A number with a unit and limits; returns whether it changed.
pub(super) fn num(
    ui: &mut egui::Ui,
    label: &str,
    v: &mut f32,
    range: std::ops::RangeInclusive<f32>,
    unit: &str,
    speed: f64,
) -> bool {
    ui.label(label);
    // A test's probe may type the range's edge (`crate::edge_probe`).
    let typed = crate::edge_probe::visit(ui.ctx(), label, &range, v);
    let r = ui
        .add(
            egui::DragValue::new(v)
                .range(range)
                .suffix(unit)
                .speed(speed)
                .max_decimals(4),
        )
        .changed();
    ui.end_row();
    r || typed
}

/// One row (a declared number of any settings type, [`Row`]) at index `i` (an axle's,
/// or 0) as a drag value: its label, unit, editor range and step. An unset optional
/// number shows what it resolves to and an edit sets it; an absent one (a part of
/// another kind) is not drawn. Returns whether it was edited; the edit is clamped to the
/// row's limit (a non-finite one is refused).
pub(super) fn row_ui<S, G>(ui: &mut egui::Ui, settings: &mut S, row: &Row<S, G>, i: usize) -> bool {
    let Some(mut v) = row.shown(settings, i) else {
        return false;
    };
    let (lo, hi) = (row.range)(settings, i);
    num(ui, row.label, &mut v, lo..=hi, &unit_suffix(row.unit), row.step as f64) && row.set(settings, i, v).is_ok()
}

/// A drag value's suffix for a setting's unit as the docs write it: `°` for degrees,
/// nothing for a plain number, else the unit after a space.
pub(super) fn unit_suffix(unit: &str) -> String {
    match unit {
        "" => String::new(),
        "deg" => "°".to_owned(),
        unit => format!(" {}", unit.replace("deg", "°")),
    }
}

/// The wheels the Tune, Plots and Telemetry tabs read (and the Tune tab edits).
pub(super) type WheelsQuery<'w, 's> =
    Query<'w, 's, (&'static VehicleWheel, &'static mut WheelCollider, &'static WheelOutput)>;

// A Bevy system: each argument is a resource or query the panels read or edit.
pub(crate) fn inspector_ui(
    mut contexts: EguiContexts,
    mut state: ResMut<crate::InspectorState>,
    mut vehicles: Query<(
        &mut Vehicle,
        &VehicleTelemetry,
        &VehicleRuntime,
        &ChassisWheels,
        Option<&DriveRecorder>,
        Option<&DriveReplay>,
        Option<&VehicleDriver>,
    )>,
    mut wheels: WheelsQuery,
    tyres: Query<&WheelState>,
    mut surfaces: Query<(Entity, Option<&Name>, &mut WheelSurface)>,
    mut gizmos: Option<ResMut<WheelGizmos>>,
    mut physics_time: ResMut<Time<Physics>>,
    fixed: Res<Time<Fixed>>,
    #[cfg(feature = "audio")] mut audio: Option<ResMut<wheelcollider_audio::plugin::SoundSettings>>,
) {
    if !state.visible {
        return;
    }
    let Ok(ctx) = contexts.ctx_mut() else { return };
    crate::edge_probe::begin_frame(ctx);
    let probing = crate::edge_probe::active(ctx);
    let state = &mut *state;
    // egui 0.34 prefers panels inside a root `Ui`; bevy_egui hands us the context, so
    // the top-level `show` it deprecates is still the way in.
    #[allow(deprecated)]
    egui::Panel::right("wheelcollider_inspector")
        .default_size(430.0)
        .resizable(true)
        .show(ctx, |ui| {
            header(ui, state);
            let target = state.target.and_then(|t| vehicles.get_mut(t).ok());
            let Some((mut vehicle, telemetry, runtime, children, recorder, replay, driver)) = target else {
                ui.label("No vehicle. Spawn one with `spawn_vehicle`.");
                return;
            };
            egui::ScrollArea::vertical().show(ui, |ui| match state.tab {
                Tab::Tune => {
                    tune_tab(ui, state, &mut vehicle, children, &mut wheels, probing);
                    ui.separator();
                    ui.label("ground surfaces");
                    for (e, name, mut s) in &mut surfaces {
                        let label = name.map_or_else(|| format!("{e}"), |n| n.to_string());
                        let mut v = *s;
                        if surface_ui(ui, &label, &mut v) {
                            *s = v.sanitized();
                        }
                    }
                }
                Tab::Plots => plots(ui, state, &vehicle.0, telemetry, children, &wheels, driver),
                Tab::Telemetry => {
                    telemetry_ui(ui, telemetry, runtime, children, &wheels);
                    heat_map_ui(ui, children, &wheels, &tyres);
                }
                Tab::Presets => presets_ui(ui, state),
                Tab::Sim => {
                    sim_controls(ui, state, gizmos.as_deref_mut(), &mut physics_time);
                    ui.separator();
                    let hz = 1.0 / fixed.timestep().as_secs_f64().max(1e-6);
                    replay_ui(ui, state, recorder, replay, hz);
                    #[cfg(feature = "audio")]
                    if let Some(audio) = audio.as_deref_mut() {
                        ui.separator();
                        let mut edited = audio.clone();
                        if sound::sound_ui(ui, &mut edited) {
                            *audio = edited;
                        }
                    }
                }
            });
        });
}

/// The window's title, its tabs and the last message.
fn header(ui: &mut egui::Ui, state: &mut crate::InspectorState) {
    ui.horizontal(|ui| {
        ui.heading("Wheelcollider");
        ui.weak("F1 hides");
    });
    ui.horizontal(|ui| {
        for (t, name) in [
            (Tab::Tune, "Tune"),
            (Tab::Plots, "Plots"),
            (Tab::Telemetry, "Telemetry"),
            (Tab::Presets, "Presets"),
            (Tab::Sim, "Sim"),
        ] {
            ui.selectable_value(&mut state.tab, t, name);
        }
    });
    if let Some((msg, err)) = &state.message {
        let color = if *err {
            egui::Color32::from_rgb(255, 110, 100)
        } else {
            egui::Color32::from_rgb(140, 220, 140)
        };
        ui.colored_label(color, msg);
    }
    ui.separator();
}

/// The Tune tab's wheels and vehicle: per wheel (each `WheelCollider` edited alone) or
/// per axle (the vehicle's settings, validated as a whole before they reach the car).
/// `vehicle` is written only when an edit validates: a write marks it changed, and a
/// changed vehicle pushes its axles' settings over the wheels' own.
fn tune_tab(
    ui: &mut egui::Ui,
    state: &mut crate::InspectorState,
    vehicle: &mut Mut<Vehicle>,
    children: &ChassisWheels,
    wheels: &mut WheelsQuery,
    probing: bool,
) {
    ui.checkbox(&mut state.per_wheel, "edit wheels one by one (else per axle, mirrored)");
    let mut settings = vehicle.0.clone();
    let mut changed = false;
    if state.per_wheel {
        for &w in children.wheels() {
            let Ok((id, mut collider, _)) = wheels.get_mut(w) else {
                continue;
            };
            let name = wheel_name(VehicleSettings::wheel_index(id.axle, id.right));
            egui::CollapsingHeader::new(format!("wheel {name}"))
                .default_open(probing)
                .show(ui, |ui| {
                    let mut s = collider.0.clone();
                    if wheel_settings_ui(ui, &name, &mut s) {
                        collider.0 = s;
                    }
                });
        }
        ui.weak("Per-wheel edits last until the axle's settings change.");
    } else {
        for i in 0..settings.axles.len() {
            egui::CollapsingHeader::new(format!("axle {i} wheels (left; right mirrored)"))
                .default_open(i == 0 || probing)
                .show(ui, |ui| {
                    changed |= axle_ui(ui, i, &mut settings);
                    changed |= wheel_settings_ui(ui, &format!("axle{i}"), &mut settings.axles[i].wheel);
                });
        }
    }
    ui.separator();
    changed |= vehicle_ui(ui, &mut settings);
    if changed {
        let mut check = settings.clone();
        match check.validate() {
            Ok(()) => vehicle.0 = settings,
            Err(e) => state.message = Some((format!("refused: {e}"), true)),
        }
    }
}

/// Axle `i`'s place, its bar, steer terms and links, from their rows
/// ([`VehiclePart::Axle`](wheelcollider_core::vehicle::VehiclePart::Axle): label, unit,
/// the chassis-scaled ranges, step); returns whether any changed. The geometry's unset
/// fields show their typical value (of the axle's suspension and role); an edit sets
/// them. The ride height is drawn once set (its checkbox sets it mid-travel).
fn axle_ui(ui: &mut egui::Ui, i: usize, settings: &mut VehicleSettings) -> bool {
    use wheelcollider_core::vehicle::{VEHICLE_FLOATS, VehiclePart};
    let mut changed = false;
    let rows = || VEHICLE_FLOATS.iter().filter(|f| f.group == VehiclePart::Axle);
    egui::Grid::new(("axle", i)).num_columns(2).show(ui, |ui| {
        for f in rows().take_while(|f| f.path != "axles[].roll_steer") {
            changed |= row_ui(ui, settings, f, i);
        }
        let axle = &mut settings.axles[i];
        ui.label("suspension");
        ui.horizontal(|ui| {
            for (name, kind) in [
                ("independent", AxleSuspension::Independent),
                ("beam", AxleSuspension::Beam),
                ("torsion", AxleSuspension::Torsion),
            ] {
                if ui.selectable_label(axle.suspension == kind, name).clicked() && axle.suspension != kind {
                    axle.suspension = kind;
                    changed = true;
                }
            }
        });
        ui.end_row();
        for f in rows().skip_while(|f| f.path != "axles[].roll_steer") {
            if f.path == "axles[].ride_height" {
                let axle = &mut settings.axles[i];
                let (r, l) = (axle.wheel.radius(), axle.wheel.suspension_length());
                let mut set = axle.ride_height.is_some();
                ui.label("ride height");
                if ui.checkbox(&mut set, "set").changed() {
                    axle.ride_height = set.then_some(r + 0.5 * l);
                    changed = true;
                }
                ui.end_row();
            }
            changed |= row_ui(ui, settings, f, i);
        }
    });
    changed
}

/// The Sim tab's controls: gizmo toggles, pause, one step, reset, time scale.
fn sim_controls(
    ui: &mut egui::Ui,
    state: &mut crate::InspectorState,
    gizmos: Option<&mut WheelGizmos>,
    physics_time: &mut ResMut<Time<Physics>>,
) {
    if let Some(g) = gizmos {
        ui.horizontal(|ui| {
            for (name, flag) in gizmo_toggles(g) {
                ui.checkbox(flag, name);
            }
        });
    }
    ui.horizontal(|ui| {
        let paused = physics_time.is_paused();
        if ui.button(if paused { "▶ resume" } else { "⏸ pause" }).clicked() {
            if paused {
                physics_time.unpause();
            } else {
                physics_time.pause();
            }
        }
        if ui.add_enabled(paused, egui::Button::new("step")).clicked() {
            physics_time.unpause();
            state.pause_after_step = true;
        }
        if ui.button("reset car").clicked() {
            state.requests.push(Request::Reset);
        }
    });
    ui.horizontal(|ui| {
        ui.label("time scale");
        if ui
            .add(egui::Slider::new(&mut state.time_scale, 0.05..=1.0).logarithmic(true))
            .changed()
        {
            physics_time.set_relative_speed(state.time_scale);
        }
    });
}
