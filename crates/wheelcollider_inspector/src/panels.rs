//! The panels: purpose-built tuning widgets, plots and telemetry.

use avian3d::prelude::*;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use egui_plot::{HLine, Legend, Line, Plot, PlotPoints, Points, VLine};
use wheelcollider_avian::debug::WheelGizmos;
use wheelcollider_avian::prelude::*;
use wheelcollider_avian::replay::{DriveRecorder, DriveReplay};
use wheelcollider_avian::vehicle::VehicleRuntime;

use crate::{InspectorState, ReplayTrace, Request, Tab, gizmo_toggles, trace_difference};

const WHEEL_COLORS: [egui::Color32; 6] = [
    egui::Color32::from_rgb(230, 90, 80),
    egui::Color32::from_rgb(80, 160, 230),
    egui::Color32::from_rgb(240, 190, 60),
    egui::Color32::from_rgb(90, 200, 120),
    egui::Color32::from_rgb(200, 120, 220),
    egui::Color32::from_rgb(160, 160, 160),
];

fn wheel_name(i: usize) -> String {
    let side = if i.is_multiple_of(2) { "L" } else { "R" };
    format!("{}{side}", i / 2)
}

/// A number with a unit and limits; returns whether it changed.
fn num(
    ui: &mut egui::Ui,
    label: &str,
    v: &mut f32,
    range: std::ops::RangeInclusive<f32>,
    unit: &str,
    speed: f64,
) -> bool {
    ui.label(label);
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
    r
}

/// A wheel-settings field through its validating setter.
macro_rules! wheel_field {
    ($ui:expr, $w:expr, $changed:expr, $label:expr, $get:ident, $set:ident, $range:expr, $unit:expr, $speed:expr) => {{
        let mut v = $w.$get();
        if num($ui, $label, &mut v, $range, $unit, $speed) && $w.$set(v).is_ok() {
            $changed = true;
        }
    }};
}

/// Edits one wheel's settings; returns whether anything changed.
fn wheel_settings_ui(ui: &mut egui::Ui, id: &str, w: &mut WheelSettings) -> bool {
    let mut changed = false;
    ui.horizontal(|ui| {
        ui.label("sweep");
        for t in [SweepType::Ray, SweepType::Sphere, SweepType::Cylinder] {
            if ui.selectable_label(w.sweep_type() == t, format!("{t:?}")).clicked() && w.sweep_type() != t {
                w.set_sweep_type(t);
                changed = true;
            }
        }
    });
    egui::CollapsingHeader::new("geometry")
        .id_salt((id, "g"))
        .default_open(true)
        .show(ui, |ui| {
            egui::Grid::new((id, "geometry")).num_columns(2).show(ui, |ui| {
                wheel_field!(ui, w, changed, "radius", radius, set_radius, 0.05..=2.0, " m", 0.002);
                wheel_field!(ui, w, changed, "width", width, set_width, 0.02..=1.0, " m", 0.002);
                wheel_field!(
                    ui,
                    w,
                    changed,
                    "inertia",
                    inertia,
                    set_inertia,
                    0.001..=50.0,
                    " kg·m²",
                    0.01
                );
            });
        });
    egui::CollapsingHeader::new("suspension")
        .id_salt((id, "s"))
        .default_open(true)
        .show(ui, |ui| {
            egui::Grid::new((id, "suspension")).num_columns(2).show(ui, |ui| {
                wheel_field!(
                    ui,
                    w,
                    changed,
                    "spring",
                    suspension_spring,
                    set_suspension_spring,
                    0.0..=wheelcollider_core::MAX_SPRING,
                    " N/m",
                    100.0
                );
                wheel_field!(
                    ui,
                    w,
                    changed,
                    "bump damping",
                    suspension_bump,
                    set_suspension_bump,
                    0.0..=wheelcollider_core::MAX_DAMPING,
                    " N·s/m",
                    20.0
                );
                wheel_field!(
                    ui,
                    w,
                    changed,
                    "rebound damping",
                    suspension_rebound,
                    set_suspension_rebound,
                    0.0..=wheelcollider_core::MAX_DAMPING,
                    " N·s/m",
                    20.0
                );
                wheel_field!(
                    ui,
                    w,
                    changed,
                    "travel",
                    suspension_length,
                    set_suspension_length,
                    0.005..=1.0,
                    " m",
                    0.002
                );
                wheel_field!(
                    ui,
                    w,
                    changed,
                    "max ground angle",
                    max_ground_angle,
                    set_max_ground_angle,
                    0.0..=89.0,
                    "°",
                    0.5
                );
                ui.label("force along");
                ui.horizontal(|ui| {
                    for (d, name) in [
                        (SuspensionForceDirection::ContactNormal, "contact normal"),
                        (SuspensionForceDirection::SuspensionAxis, "suspension axis"),
                    ] {
                        let on = w.suspension_force_direction() == d;
                        if ui.selectable_label(on, name).clicked() && !on {
                            w.set_suspension_force_direction(d);
                            changed = true;
                        }
                    }
                });
                ui.end_row();
            });
        });
    egui::CollapsingHeader::new("alignment")
        .id_salt((id, "a"))
        .show(ui, |ui| {
            egui::Grid::new((id, "alignment")).num_columns(2).show(ui, |ui| {
                wheel_field!(
                    ui,
                    w,
                    changed,
                    "camber",
                    camber_angle,
                    set_camber_angle,
                    -45.0..=45.0,
                    "°",
                    0.05
                );
                wheel_field!(ui, w, changed, "toe", toe_angle, set_toe_angle, -45.0..=45.0, "°", 0.02);
                wheel_field!(
                    ui,
                    w,
                    changed,
                    "camber thrust",
                    camber_thrust,
                    set_camber_thrust,
                    0.0..=5.0,
                    " /rad",
                    0.01
                );
            });
        });
    egui::CollapsingHeader::new("tyre")
        .id_salt((id, "t"))
        .default_open(true)
        .show(ui, |ui| {
            egui::Grid::new((id, "tyre")).num_columns(2).show(ui, |ui| {
                let t = w.tyre().clone();
                let (mut b, mut c, mut d, mut e) = (t.b(), t.c(), t.d(), t.e());
                let mut any = false;
                any |= num(ui, "B (stiffness)", &mut b, 0.0..=50.0, "", 0.05);
                any |= num(ui, "C (shape)", &mut c, 0.0..=2.0, "", 0.01);
                any |= num(ui, "D (peak μ)", &mut d, 0.0..=5.0, "", 0.01);
                any |= num(ui, "E (curvature)", &mut e, -10.0..=1.0, "", 0.01);
                if any && w.set_tyre(b, c, d, e).is_ok() {
                    changed = true;
                }
                wheel_field!(
                    ui,
                    w,
                    changed,
                    "rolling resistance",
                    rolling_resistance,
                    set_rolling_resistance,
                    0.0..=1.0,
                    "",
                    0.001
                );
                wheel_field!(
                    ui,
                    w,
                    changed,
                    "load sensitivity",
                    load_sensitivity,
                    set_load_sensitivity,
                    0.0..=1.0,
                    "",
                    0.01
                );
                wheel_field!(
                    ui,
                    w,
                    changed,
                    "nominal load",
                    nominal_load,
                    set_nominal_load,
                    1.0..=50_000.0,
                    " N",
                    10.0
                );
                ui.label("peak slip");
                ui.label(format!("{:.3}", w.peak_slip()));
                ui.end_row();
            });
        });
    egui::CollapsingHeader::new("roughness")
        .id_salt((id, "r"))
        .show(ui, |ui| {
            egui::Grid::new((id, "rough")).num_columns(2).show(ui, |ui| {
                wheel_field!(
                    ui,
                    w,
                    changed,
                    "bump amplitude",
                    bump_amplitude,
                    set_bump_amplitude,
                    0.0..=0.5,
                    " m",
                    0.001
                );
                wheel_field!(
                    ui,
                    w,
                    changed,
                    "bump period",
                    bump_period,
                    set_bump_period,
                    0.0..=10.0,
                    " /m",
                    0.01
                );
            });
        });
    changed
}

fn diff_ui(ui: &mut egui::Ui, id: &str, d: &mut DifferentialKind) -> bool {
    let mut changed = false;
    ui.horizontal(|ui| {
        for (name, kind) in [
            ("open", DifferentialKind::Open),
            ("locked", DifferentialKind::Locked),
            (
                "limited slip",
                DifferentialKind::LimitedSlip {
                    preload: 100.0,
                    locking: 0.5,
                },
            ),
        ] {
            if ui
                .selectable_label(core::mem::discriminant(d) == core::mem::discriminant(&kind), name)
                .clicked()
                && core::mem::discriminant(d) != core::mem::discriminant(&kind)
            {
                *d = kind;
                changed = true;
            }
        }
    });
    if let DifferentialKind::LimitedSlip { preload, locking } = d {
        egui::Grid::new((id, "lsd")).num_columns(2).show(ui, |ui| {
            changed |= num(ui, "preload", preload, 0.0..=5000.0, " N·m", 5.0);
            changed |= num(ui, "locking", locking, 0.0..=5.0, " per N·m", 0.01);
        });
    }
    changed
}

/// Edits the vehicle spec (everything but the wheels); returns whether it changed.
fn vehicle_ui(ui: &mut egui::Ui, spec: &mut VehicleSettings) -> bool {
    let mut changed = false;
    egui::CollapsingHeader::new("chassis").show(ui, |ui| {
        egui::Grid::new("chassis").num_columns(2).show(ui, |ui| {
            changed |= num(ui, "mass", &mut spec.chassis.mass, 1.0..=100_000.0, " kg", 5.0);
            changed |= num(
                ui,
                "centre of mass height",
                &mut spec.chassis.center_of_mass[1],
                -5.0..=5.0,
                " m",
                0.005,
            );
            changed |= num(
                ui,
                "centre of mass z",
                &mut spec.chassis.center_of_mass[2],
                -10.0..=10.0,
                " m",
                0.005,
            );
        });
    });
    egui::CollapsingHeader::new("engine").show(ui, |ui| {
        egui::Grid::new("engine").num_columns(2).show(ui, |ui| {
            let e = &mut spec.engine;
            changed |= num(ui, "idle", &mut e.idle_rpm, 100.0..=20_000.0, " rpm", 10.0);
            changed |= num(ui, "redline", &mut e.redline_rpm, 500.0..=30_000.0, " rpm", 10.0);
            changed |= num(ui, "inertia", &mut e.inertia, 0.01..=10.0, " kg·m²", 0.005);
            changed |= num(ui, "engine braking", &mut e.braking_torque, 0.0..=2000.0, " N·m", 1.0);
            ui.label("torque scale");
            let mut scale = 1.0f32;
            if ui
                .add(
                    egui::DragValue::new(&mut scale)
                        .range(0.5..=2.0)
                        .speed(0.005)
                        .prefix("× "),
                )
                .changed()
            {
                e.torque_curve.iter_mut().for_each(|p| p[1] *= scale);
                changed = true;
            }
            ui.end_row();
        });
    });
    egui::CollapsingHeader::new("clutch and gearbox").show(ui, |ui| {
        egui::Grid::new("gearbox").num_columns(2).show(ui, |ui| {
            changed |= num(
                ui,
                "clutch torque",
                &mut spec.clutch.max_torque,
                0.0..=10_000.0,
                " N·m",
                5.0,
            );
            ui.label("automatic clutch");
            changed |= ui.checkbox(&mut spec.clutch.automatic, "").changed();
            ui.end_row();
            changed |= num(
                ui,
                "clutch engage",
                &mut spec.clutch.engage_rpm,
                100.0..=20_000.0,
                " rpm",
                10.0,
            );
            let g = &mut spec.gearbox;
            for (i, r) in g.forward.iter_mut().enumerate() {
                changed |= num(ui, &format!("gear {}", i + 1), r, 0.05..=20.0, "", 0.005);
            }
            changed |= num(ui, "reverse", &mut g.reverse, 0.05..=20.0, "", 0.005);
            changed |= num(ui, "final drive", &mut g.final_drive, 0.05..=20.0, "", 0.005);
            changed |= num(ui, "efficiency", &mut g.efficiency, 0.5..=1.0, "", 0.005);
            changed |= num(ui, "shift time", &mut g.shift_time, 0.0..=2.0, " s", 0.01);
            ui.label("automatic");
            changed |= ui.checkbox(&mut g.automatic, "").changed();
            ui.end_row();
            changed |= num(ui, "shift up", &mut g.shift_up_rpm, 100.0..=30_000.0, " rpm", 10.0);
            changed |= num(ui, "shift down", &mut g.shift_down_rpm, 100.0..=30_000.0, " rpm", 10.0);
        });
    });
    egui::CollapsingHeader::new("differentials").show(ui, |ui| {
        for (i, a) in spec.axles.iter_mut().enumerate() {
            ui.horizontal(|ui| {
                changed |= ui.checkbox(&mut a.driven, format!("axle {i} driven")).changed();
                changed |= ui.checkbox(&mut a.steered, "steered").changed();
                changed |= ui.checkbox(&mut a.handbrake, "handbrake").changed();
            });
            if a.driven {
                changed |= diff_ui(ui, &format!("diff{i}"), &mut a.differential);
            }
        }
        if spec.axles.iter().filter(|a| a.driven).count() >= 2 {
            ui.label("centre differential");
            changed |= diff_ui(ui, "centre", &mut spec.centre_differential);
            egui::Grid::new("centre").show(ui, |ui| {
                changed |= num(
                    ui,
                    "front torque share",
                    &mut spec.front_torque_share,
                    0.0..=1.0,
                    "",
                    0.01,
                );
            });
        }
    });
    egui::CollapsingHeader::new("brakes").show(ui, |ui| {
        egui::Grid::new("brakes").num_columns(2).show(ui, |ui| {
            let b = &mut spec.brakes;
            changed |= num(ui, "max torque", &mut b.max_torque, 0.0..=50_000.0, " N·m", 20.0);
            changed |= num(ui, "front bias", &mut b.front_bias, 0.0..=1.0, "", 0.01);
            changed |= num(ui, "handbrake", &mut b.handbrake_torque, 0.0..=20_000.0, " N·m", 10.0);
            ui.label("ABS");
            changed |= ui.checkbox(&mut b.abs, "").changed();
            ui.end_row();
            ui.label("traction control");
            changed |= ui.checkbox(&mut b.traction_control, "").changed();
            ui.end_row();
        });
    });
    egui::CollapsingHeader::new("steering").show(ui, |ui| {
        egui::Grid::new("steering").num_columns(2).show(ui, |ui| {
            let s = &mut spec.steering;
            changed |= num(ui, "max angle", &mut s.max_angle, 0.0..=60.0, "°", 0.1);
            changed |= num(ui, "Ackermann", &mut s.ackermann, 0.0..=1.0, "", 0.01);
            changed |= num(ui, "lock to lock", &mut s.lock_to_lock_time, 0.0..=5.0, " s", 0.01);
            changed |= num(ui, "lock at speed", &mut s.high_speed_lock, 0.0..=1.0, "", 0.01);
            changed |= num(ui, "… reached at", &mut s.high_speed, 0.1..=200.0, " m/s", 0.5);
        });
    });
    egui::CollapsingHeader::new("aerodynamics").show(ui, |ui| {
        egui::Grid::new("aero").num_columns(2).show(ui, |ui| {
            let a = &mut spec.aero;
            changed |= num(ui, "air density", &mut a.air_density, 0.0..=2.0, " kg/m³", 0.005);
            changed |= num(ui, "Cd", &mut a.drag_coefficient, 0.0..=3.0, "", 0.005);
            changed |= num(ui, "frontal area", &mut a.frontal_area, 0.0..=20.0, " m²", 0.01);
            changed |= num(
                ui,
                "downforce front",
                &mut a.downforce_front,
                0.0..=10.0,
                " m² (Cl·A)",
                0.01,
            );
            changed |= num(
                ui,
                "downforce rear",
                &mut a.downforce_rear,
                0.0..=10.0,
                " m² (Cl·A)",
                0.01,
            );
        });
    });
    changed
}

fn surface_ui(ui: &mut egui::Ui, name: &str, s: &mut WheelSurface) -> bool {
    let mut changed = false;
    egui::CollapsingHeader::new(name).show(ui, |ui| {
        egui::Grid::new(("surface", name)).num_columns(2).show(ui, |ui| {
            changed |= num(ui, "grip", &mut s.grip, 0.0..=3.0, " ×", 0.01);
            changed |= num(
                ui,
                "rolling resistance",
                &mut s.rolling_resistance,
                0.0..=1.0,
                "",
                0.001,
            );
            changed |= num(ui, "roughness", &mut s.bump_amplitude, 0.0..=0.5, " m", 0.001);
            changed |= num(ui, "roughness frequency", &mut s.bump_period, 0.001..=10.0, " /m", 0.01);
        });
    });
    changed
}

// A Bevy system: each argument is a resource or query the panels read or edit.
#[allow(clippy::type_complexity, clippy::too_many_arguments)]
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
    )>,
    mut wheels: Query<(&VehicleWheel, &mut WheelCollider, &WheelState)>,
    mut surfaces: Query<(Entity, Option<&Name>, &mut WheelSurface)>,
    mut gizmos: Option<ResMut<WheelGizmos>>,
    mut physics_time: ResMut<Time<Physics>>,
    fixed: Res<Time<Fixed>>,
) {
    if !state.visible {
        return;
    }
    let Ok(ctx) = contexts.ctx_mut() else { return };
    let state = &mut *state;
    // egui 0.34 prefers panels inside a root `Ui`; bevy_egui hands us the context, so
    // the top-level `show` it deprecates is still the way in.
    #[allow(deprecated)]
    egui::Panel::right("wheelcollider_inspector")
        .default_size(430.0)
        .resizable(true)
        .show(ctx, |ui| {
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
            let target = state.target.and_then(|t| vehicles.get_mut(t).ok());
            let Some((mut vehicle, telemetry, runtime, children, recorder, replay)) = target else {
                ui.label("No vehicle. Spawn one with `spawn_vehicle`.");
                return;
            };
            egui::ScrollArea::vertical().show(ui, |ui| match state.tab {
                Tab::Tune => {
                    ui.checkbox(&mut state.per_wheel, "edit wheels one by one (else per axle, mirrored)");
                    let mut spec = vehicle.0.clone();
                    let mut changed = false;
                    if state.per_wheel {
                        for &w in children.wheels() {
                            let Ok((id, mut collider, _)) = wheels.get_mut(w) else {
                                continue;
                            };
                            let name = wheel_name(VehicleSettings::wheel_index(id.axle, id.right));
                            egui::CollapsingHeader::new(format!("wheel {name}")).show(ui, |ui| {
                                let mut s = collider.0.clone();
                                if wheel_settings_ui(ui, &name, &mut s) {
                                    collider.0 = s;
                                }
                            });
                        }
                        ui.weak("Per-wheel edits last until the axle's settings change.");
                    } else {
                        for (i, axle) in spec.axles.iter_mut().enumerate() {
                            egui::CollapsingHeader::new(format!("axle {i} wheels (left; right mirrored)"))
                                .default_open(i == 0)
                                .show(ui, |ui| {
                                    egui::Grid::new(("axle", i)).num_columns(2).show(ui, |ui| {
                                        changed |= num(ui, "position z", &mut axle.z, -20.0..=20.0, " m", 0.005);
                                        changed |= num(ui, "half track", &mut axle.half_track, 0.05..=5.0, " m", 0.005);
                                        changed |=
                                            num(ui, "mount height", &mut axle.mount_height, -3.0..=3.0, " m", 0.005);
                                        changed |= num(
                                            ui,
                                            "anti-roll bar",
                                            &mut axle.anti_roll_stiffness,
                                            0.0..=wheelcollider_core::MAX_SPRING,
                                            " N/m",
                                            100.0,
                                        );
                                    });
                                    changed |= wheel_settings_ui(ui, &format!("axle{i}"), &mut axle.wheel);
                                });
                        }
                    }
                    ui.separator();
                    changed |= vehicle_ui(ui, &mut spec);
                    if changed {
                        let mut check = spec.clone();
                        match check.validate() {
                            Ok(()) => vehicle.0 = spec,
                            Err(e) => state.message = Some((format!("refused: {e}"), true)),
                        }
                    }
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
                Tab::Plots => plots(ui, state, &vehicle.0, telemetry, children, &wheels),
                Tab::Telemetry => telemetry_ui(ui, telemetry, runtime, children, &wheels),
                Tab::Presets => presets_ui(ui, state),
                Tab::Sim => {
                    if let Some(g) = gizmos.as_mut() {
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
                    ui.separator();
                    let hz = 1.0 / fixed.timestep().as_secs_f64().max(1e-6);
                    replay_ui(ui, state, recorder, replay, hz);
                }
            });
        });
}

fn plots(
    ui: &mut egui::Ui,
    state: &InspectorState,
    spec: &VehicleSettings,
    telemetry: &VehicleTelemetry,
    children: &ChassisWheels,
    wheels: &Query<(&VehicleWheel, &mut WheelCollider, &WheelState)>,
) {
    let mut live = vec![];
    for &w in children.wheels() {
        if let Ok((id, c, s)) = wheels.get(w) {
            live.push((VehicleSettings::wheel_index(id.axle, id.right), c.0.clone(), s.output));
        }
    }
    live.sort_by_key(|l| l.0);
    ui.label("Tyre curve: friction coefficient against combined slip; dots: each wheel now");
    Plot::new("tyre").height(170.0).legend(Legend::default()).show(ui, |p| {
        for (a, axle) in spec.axles.iter().enumerate() {
            let mf = axle.wheel.tyre().clone();
            let pts: PlotPoints = (0..=200)
                .map(|i| {
                    let s = i as f64 / 200.0;
                    [s, mf.eval(s as f32) as f64]
                })
                .collect();
            p.line(Line::new(format!("axle {a}"), pts));
            p.points(
                Points::new(
                    format!("peak {a}"),
                    vec![[mf.peak_slip() as f64, mf.peak_value() as f64]],
                )
                .radius(5.0)
                .shape(egui_plot::MarkerShape::Diamond),
            );
        }
        for (i, _, o) in &live {
            if o.load > 1.0 {
                let mu = (o.forward_force.hypot(o.sideways_force) / o.load) as f64;
                p.points(
                    Points::new(wheel_name(*i), vec![[o.slip_magnitude as f64, mu]])
                        .radius(4.0)
                        .color(WHEEL_COLORS[i % 6]),
                );
            }
        }
    });
    ui.label("Friction circle: sideways (x) and forward (y) force over load");
    Plot::new("circle").height(200.0).data_aspect(1.0).show(ui, |p| {
        let mu = spec
            .axles
            .iter()
            .map(|a| a.wheel.tyre().peak_value())
            .fold(0.0f32, f32::max) as f64;
        let circle: PlotPoints = (0..=64)
            .map(|i| {
                let t = i as f64 / 64.0 * std::f64::consts::TAU;
                [mu * t.cos(), mu * t.sin()]
            })
            .collect();
        p.line(Line::new("peak μ", circle));
        for (i, _, o) in &live {
            if o.load > 1.0 {
                let l = o.load as f64;
                p.points(
                    Points::new(
                        wheel_name(*i),
                        vec![[o.sideways_force as f64 / l, o.forward_force as f64 / l]],
                    )
                    .radius(4.0)
                    .color(WHEEL_COLORS[i % 6]),
                );
            }
        }
    });
    let t0 = state.times.front().copied().unwrap_or(0.0) as f64;
    let series = |f: &dyn Fn(&crate::WheelSample) -> f32, title: &str, id: &str, ui: &mut egui::Ui| {
        ui.label(title);
        Plot::new(id).height(110.0).legend(Legend::default()).show(ui, |p| {
            for (i, h) in state.history.iter().enumerate() {
                let pts: PlotPoints = state
                    .times
                    .iter()
                    .zip(h)
                    .map(|(t, s)| [*t as f64 - t0, f(s) as f64])
                    .collect();
                p.line(Line::new(wheel_name(i), pts).color(WHEEL_COLORS[i % 6]));
            }
        });
    };
    series(
        &|s| s.compression,
        "Suspension compression (m) against time (s)",
        "comp",
        ui,
    );
    series(&|s| s.load, "Tyre load (N)", "load", ui);
    series(&|s| s.forward_slip, "Longitudinal slip", "fslip", ui);
    series(&|s| s.sideways_slip, "Lateral slip", "sslip", ui);
    ui.label("Engine: full-throttle torque (N·m) against rpm; line: now");
    let e = &spec.engine;
    Plot::new("engine").height(150.0).show(ui, |p| {
        let pts: PlotPoints = (0..=120)
            .map(|i| {
                let rpm = e.redline_rpm * i as f32 / 120.0;
                [rpm as f64, e.curve_torque(rpm) as f64]
            })
            .collect();
        p.line(Line::new("torque", pts));
        p.vline(VLine::new("rpm", telemetry.powertrain.engine_rpm as f64));
        p.vline(VLine::new("redline", e.redline_rpm as f64).color(egui::Color32::RED));
        p.hline(HLine::new("zero", 0.0).color(egui::Color32::DARK_GRAY));
        p.points(
            Points::new(
                "now",
                vec![[
                    telemetry.powertrain.engine_rpm as f64,
                    telemetry.powertrain.engine_torque as f64,
                ]],
            )
            .radius(5.0),
        );
    });
}

fn telemetry_ui(
    ui: &mut egui::Ui,
    t: &VehicleTelemetry,
    runtime: &VehicleRuntime,
    children: &ChassisWheels,
    wheels: &Query<(&VehicleWheel, &mut WheelCollider, &WheelState)>,
) {
    let p = &t.powertrain;
    egui::Grid::new("telemetry")
        .num_columns(2)
        .striped(true)
        .show(ui, |ui| {
            let mut row = |k: &str, v: String| {
                ui.label(k);
                ui.monospace(v);
                ui.end_row();
            };
            row(
                "speed",
                format!("{:.1} km/h, {:+.2} m/s fwd", t.speed_kmh, t.forward_speed),
            );
            row("engine", format!("{:.0} rpm, {:.0} N·m", p.engine_rpm, p.engine_torque));
            let gear = match p.gear {
                -1 => "R".to_string(),
                0 => "N".to_string(),
                g => g.to_string(),
            };
            row("gear", format!("{gear}{}", if p.shifting { " (shifting)" } else { "" }));
            row("throttle / brake", format!("{:.2} / {:.2}", p.throttle, p.brake));
            row(
                "clutch",
                format!("{:.2} engaged, {:.0} N·m", p.clutch_engagement, p.clutch_torque),
            );
            row("wheel torque", format!("{:.0} N·m", p.wheel_torque));
            row("steer", format!("{:+.2}", p.steer));
            row(
                "accel long / lat",
                format!(
                    "{:+.2} / {:+.2} m/s²",
                    t.longitudinal_acceleration, t.lateral_acceleration
                ),
            );
            row("yaw rate", format!("{:+.1} °/s", t.yaw_rate.to_degrees()));
            row(
                "drag / downforce",
                format!("{:.0} N / {:.0} + {:.0} N", t.drag, t.downforce[0], t.downforce[1]),
            );
            if let Some(s) = &runtime.state {
                row("engine speed", format!("{:.1} rad/s", s.engine_speed));
            }
        });
    ui.separator();
    egui::Grid::new("wheels").num_columns(8).striped(true).show(ui, |ui| {
        for h in ["wheel", "ground", "load N", "κ", "α-slip", "Fx N", "Fy N", "comp m"] {
            ui.strong(h);
        }
        ui.end_row();
        let mut rows = vec![];
        for &w in children.wheels() {
            if let Ok((id, _, s)) = wheels.get(w) {
                rows.push((VehicleSettings::wheel_index(id.axle, id.right), s.output));
            }
        }
        rows.sort_by_key(|r| r.0);
        for (i, o) in rows {
            ui.colored_label(WHEEL_COLORS[i % 6], wheel_name(i));
            ui.label(if o.grounded { "yes" } else { "air" });
            ui.monospace(format!("{:.0}", o.load));
            ui.monospace(format!("{:+.3}", o.forward_slip));
            ui.monospace(format!("{:+.3}", o.sideways_slip));
            ui.monospace(format!("{:+.0}", o.forward_force));
            ui.monospace(format!("{:+.0}", o.sideways_force));
            ui.monospace(format!("{:.3}", o.compression));
            ui.end_row();
        }
    });
}

fn presets_ui(ui: &mut egui::Ui, state: &mut InspectorState) {
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
fn replay_ui(
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
                rec.spec.name
            ));
        }
        (None, None) => {
            ui.weak("Record a drive, stop, replay it; change the tuning, replay again.");
        }
    }
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
    if state.traces.is_empty() {
        return;
    }
    const TRACE_COLORS: [egui::Color32; 2] = [
        egui::Color32::from_rgb(150, 150, 150),
        egui::Color32::from_rgb(240, 170, 60),
    ];
    let traces = &state.traces;
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
    if let [a, b] = &traces[..] {
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
