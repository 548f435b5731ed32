//! The Tune tab's vehicle sections: chassis, engine, clutch and gearbox,
//! differentials, brakes, steering, aerodynamics and the assists, one function per
//! section.

use bevy_egui::egui;
use wheelcollider_avian::prelude::*;

use super::tune::section;
use super::*;

pub(super) fn diff_ui(ui: &mut egui::Ui, id: &str, d: &mut DifferentialKind) -> bool {
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
                    coast_locking: None,
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
    if let DifferentialKind::LimitedSlip {
        preload,
        locking,
        coast_locking,
    } = d
    {
        egui::Grid::new((id, "lsd")).num_columns(2).show(ui, |ui| {
            changed |= num(ui, "preload", preload, 0.0..=5000.0, " N·m", 5.0);
            changed |= num(ui, "locking on power", locking, 0.0..=1.0, " per N·m", 0.01);
            // The datasheets' figure beside it: |T_l − T_r| ≤ preload + locking·|T_in|.
            ui.label("bias ratio");
            let bias = DifferentialKind::LimitedSlip {
                preload: 0.0,
                locking: *locking,
                coast_locking: None,
            }
            .bias_ratio();
            ui.label(if bias.is_finite() {
                format!("{bias:.2} : 1")
            } else {
                "locked".into()
            });
            ui.end_row();
            ui.label("on the overrun");
            ui.horizontal(|ui| {
                for (name, value) in [("1-way", Some(0.0)), ("1.5-way", Some(0.5 * *locking)), ("2-way", None)] {
                    if ui.selectable_label(*coast_locking == value, name).clicked() {
                        *coast_locking = value;
                        changed = true;
                    }
                }
            });
            ui.end_row();
            if let Some(c) = coast_locking {
                changed |= num(ui, "locking on overrun", c, 0.0..=1.0, " per N·m", 0.01);
            }
        });
    }
    changed
}

/// Edits the vehicle settings (everything but the wheels); returns whether it changed.
pub(super) fn vehicle_ui(ui: &mut egui::Ui, settings: &mut VehicleSettings) -> bool {
    let mut changed = false;
    changed |= vehicle_chassis_ui(ui, settings);
    changed |= vehicle_engine_ui(ui, settings);
    changed |= vehicle_clutch_and_gearbox_ui(ui, settings);
    changed |= vehicle_differentials_ui(ui, settings);
    changed |= vehicle_brakes_ui(ui, settings);
    changed |= vehicle_steering_ui(ui, settings);
    changed |= vehicle_aerodynamics_ui(ui, settings);
    changed |= vehicle_assists_ui(ui, settings);
    changed
}

/// The length (m) the ranges of the chassis' positions scale with: the chassis box's
/// longest side, at least 0.5 m. A kart's centre of mass may go as far off its middle,
/// relative to its size, as a car's.
pub(super) fn chassis_scale(settings: &VehicleSettings) -> f32 {
    settings.chassis.size.iter().copied().fold(0.5, f32::max)
}

/// The "chassis" section of [`vehicle_ui`]. The centre of mass moves within half the
/// chassis' [`chassis_scale`] of its middle, up and down and along.
pub(super) fn vehicle_chassis_ui(ui: &mut egui::Ui, settings: &mut VehicleSettings) -> bool {
    let half = 0.5 * chassis_scale(settings);
    section(ui, "vehicle", "chassis", false, |ui, changed| {
        *changed |= num(ui, "mass", &mut settings.chassis.mass, 1.0..=100_000.0, " kg", 5.0);
        *changed |= num(
            ui,
            "centre of mass height",
            &mut settings.chassis.center_of_mass[1],
            -half..=half,
            " m",
            0.005,
        );
        *changed |= num(
            ui,
            "centre of mass z",
            &mut settings.chassis.center_of_mass[2],
            -half..=half,
            " m",
            0.005,
        );
    })
}

/// The engine's cylinders, strokes and layout (what its sound is built on). A
/// cross-plane V8 needs 8 cylinders: picking it sets them, and another count turns it
/// into a plain V.
fn engine_sound_ui(ui: &mut egui::Ui, e: &mut EngineSettings) -> bool {
    let before = e.layout;
    let mut changed = false;
    ui.label("cylinders");
    changed |= ui.add(egui::DragValue::new(&mut e.cylinders).range(1..=16)).changed();
    ui.end_row();
    ui.label("cycle");
    ui.horizontal(|ui| {
        for (name, strokes) in [("four-stroke", 4), ("two-stroke", 2)] {
            if ui.selectable_label(e.strokes == strokes, name).clicked() && e.strokes != strokes {
                e.strokes = strokes;
                changed = true;
            }
        }
    });
    ui.end_row();
    ui.label("layout");
    ui.horizontal_wrapped(|ui| {
        for layout in [
            EngineLayout::Inline,
            EngineLayout::Flat,
            EngineLayout::V,
            EngineLayout::CrossPlaneV8,
        ] {
            if ui.selectable_label(e.layout == layout, format!("{layout:?}")).clicked() && e.layout != layout {
                e.layout = layout;
                changed = true;
            }
        }
    });
    ui.end_row();
    if e.layout == EngineLayout::CrossPlaneV8 && e.cylinders != 8 {
        if before == EngineLayout::CrossPlaneV8 {
            e.layout = EngineLayout::V;
        } else {
            e.cylinders = 8;
        }
    }
    changed
}

/// The "engine" section of [`vehicle_ui`].
pub(super) fn vehicle_engine_ui(ui: &mut egui::Ui, settings: &mut VehicleSettings) -> bool {
    section(ui, "vehicle", "engine", false, |ui, changed| {
        let e = &mut settings.engine;
        *changed |= num(ui, "idle", &mut e.idle_rpm, 100.0..=20_000.0, " rpm", 10.0);
        *changed |= num(ui, "redline", &mut e.redline_rpm, 500.0..=30_000.0, " rpm", 10.0);
        *changed |= num(ui, "inertia", &mut e.inertia, 0.01..=10.0, " kg·m²", 0.005);
        *changed |= num(ui, "engine braking", &mut e.braking_torque, 0.0..=2000.0, " N·m", 1.0);
        // Below idle (the validation's clamp).
        let stall = (e.idle_rpm - 50.0).max(0.0);
        *changed |= num(ui, "stall speed", &mut e.stall_rpm, 0.0..=stall, " rpm", 10.0);
        *changed |= num(ui, "breakaway", &mut e.breakaway_torque, 0.0..=500.0, " N·m", 1.0);
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
            *changed = true;
        }
        ui.end_row();
        *changed |= engine_sound_ui(ui, e);
    })
}

/// The "clutch and gearbox" section of [`vehicle_ui`].
pub(super) fn vehicle_clutch_and_gearbox_ui(ui: &mut egui::Ui, settings: &mut VehicleSettings) -> bool {
    section(ui, "vehicle", "clutch and gearbox", false, |ui, changed| {
        *changed |= num(
            ui,
            "clutch torque",
            &mut settings.clutch.max_torque,
            0.0..=10_000.0,
            " N·m",
            5.0,
        );
        ui.label("automatic clutch");
        *changed |= ui.checkbox(&mut settings.clutch.automatic, "").changed();
        ui.end_row();
        *changed |= num(
            ui,
            "clutch engage",
            &mut settings.clutch.engage_rpm,
            100.0..=20_000.0,
            " rpm",
            10.0,
        );
        let g = &mut settings.gearbox;
        for (i, r) in g.forward.iter_mut().enumerate() {
            *changed |= num(ui, &format!("gear {}", i + 1), r, 0.05..=20.0, "", 0.005);
        }
        *changed |= num(ui, "reverse", &mut g.reverse, 0.05..=20.0, "", 0.005);
        *changed |= num(ui, "final drive", &mut g.final_drive, 0.05..=20.0, "", 0.005);
        *changed |= num(ui, "efficiency", &mut g.efficiency, 0.5..=1.0, "", 0.005);
        *changed |= num(ui, "shift time", &mut g.shift_time, 0.0..=2.0, " s", 0.01);
        *changed |= num(ui, "gearbox inertia", &mut g.inertia, 0.0..=2.0, " kg·m²", 0.001);
        ui.label("automatic");
        *changed |= ui.checkbox(&mut g.automatic, "").changed();
        ui.end_row();
        *changed |= num(ui, "shift up", &mut g.shift_up_rpm, 100.0..=30_000.0, " rpm", 10.0);
        *changed |= num(ui, "shift down", &mut g.shift_down_rpm, 100.0..=30_000.0, " rpm", 10.0);
        ui.label("rev-matched shifts");
        *changed |= ui.checkbox(&mut g.auto_blip, "").changed();
        ui.end_row();
        *changed |= num(ui, "drivetrain drag", &mut g.drag_torque, 0.0..=200.0, " N·m", 0.5);
    })
}

/// The "differentials" section of [`vehicle_ui`].
pub(super) fn vehicle_differentials_ui(ui: &mut egui::Ui, settings: &mut VehicleSettings) -> bool {
    let mut changed = false;
    egui::CollapsingHeader::new("differentials")
        .default_open(crate::edge_probe::active(ui.ctx()))
        .show(ui, |ui| {
            for (i, a) in settings.axles.iter_mut().enumerate() {
                ui.horizontal(|ui| {
                    changed |= ui.checkbox(&mut a.driven, format!("axle {i} driven")).changed();
                    changed |= ui.checkbox(&mut a.steered, "steered").changed();
                    changed |= ui.checkbox(&mut a.handbrake, "handbrake").changed();
                });
                if a.driven {
                    changed |= diff_ui(ui, &format!("diff{i}"), &mut a.differential);
                }
            }
            if settings.axles.iter().filter(|a| a.driven).count() >= 2 {
                ui.label("centre differential");
                changed |= diff_ui(ui, "centre", &mut settings.centre_differential);
                egui::Grid::new("centre").show(ui, |ui| {
                    changed |= num(
                        ui,
                        "front torque share",
                        &mut settings.front_torque_share,
                        0.0..=1.0,
                        "",
                        0.01,
                    );
                });
            }
        });
    changed
}

/// The "brakes" section of [`vehicle_ui`].
pub(super) fn vehicle_brakes_ui(ui: &mut egui::Ui, settings: &mut VehicleSettings) -> bool {
    section(ui, "vehicle", "brakes", false, |ui, changed| {
        let b = &mut settings.brakes;
        *changed |= num(ui, "max torque", &mut b.max_torque, 0.0..=50_000.0, " N·m", 20.0);
        *changed |= num(ui, "front bias", &mut b.front_bias, 0.0..=1.0, "", 0.01);
        *changed |= num(ui, "handbrake", &mut b.handbrake_torque, 0.0..=20_000.0, " N·m", 10.0);
        ui.label("ABS");
        *changed |= ui.checkbox(&mut b.abs, "").changed();
        ui.end_row();
        ui.label("traction control");
        *changed |= ui.checkbox(&mut b.traction_control, "").changed();
        ui.end_row();
        ui.label("handbrake cuts drive");
        *changed |= ui
            .checkbox(&mut b.handbrake_disconnects_drive, "")
            .on_hover_text("the handbraked axles get no drive while it is pulled")
            .changed();
        ui.end_row();
    })
}

/// The "steering" section of [`vehicle_ui`].
pub(super) fn vehicle_steering_ui(ui: &mut egui::Ui, settings: &mut VehicleSettings) -> bool {
    section(ui, "vehicle", "steering", false, |ui, changed| {
        let s = &mut settings.steering;
        *changed |= num(ui, "max angle", &mut s.max_angle, 0.0..=60.0, "°", 0.1);
        *changed |= num(ui, "Ackermann", &mut s.ackermann, 0.0..=1.0, "", 0.01);
        *changed |= num(ui, "lock to lock", &mut s.lock_to_lock_time, 0.0..=5.0, " s", 0.01);
        *changed |= num(ui, "lock at speed", &mut s.high_speed_lock, 0.0..=1.0, "", 0.01);
        *changed |= num(ui, "… reached at", &mut s.high_speed, 0.1..=200.0, " m/s", 0.5);
        *changed |= num(ui, "mechanical trail", &mut s.mechanical_trail, -0.2..=0.2, " m", 0.001);
    })
}

/// The "aerodynamics" section of [`vehicle_ui`].
pub(super) fn vehicle_aerodynamics_ui(ui: &mut egui::Ui, settings: &mut VehicleSettings) -> bool {
    section(ui, "vehicle", "aerodynamics", false, |ui, changed| {
        let a = &mut settings.aero;
        *changed |= num(ui, "air density", &mut a.air_density, 0.0..=2.0, " kg/m³", 0.005);
        *changed |= num(ui, "Cd", &mut a.drag_coefficient, 0.0..=3.0, "", 0.005);
        *changed |= num(ui, "frontal area", &mut a.frontal_area, 0.0..=20.0, " m²", 0.01);
        *changed |= num(
            ui,
            "downforce front",
            &mut a.downforce_front,
            -10.0..=10.0,
            " m² (Cl·A, − lifts)",
            0.01,
        );
        *changed |= num(
            ui,
            "downforce rear",
            &mut a.downforce_rear,
            -10.0..=10.0,
            " m² (Cl·A, − lifts)",
            0.01,
        );
        // Within the chassis' height (the validation's clamp).
        let height = settings.chassis.size[1];
        let a = &mut settings.aero;
        *changed |= num(
            ui,
            "centre of pressure",
            &mut a.pressure_height,
            -height..=height,
            " m above the CoM",
            0.005,
        );
    })
}

/// A checkbox on its own grid row.
fn toggle(ui: &mut egui::Ui, label: &str, value: &mut bool, hover: &str) -> bool {
    ui.label(label);
    let changed = ui.checkbox(value, "").on_hover_text(hover).changed();
    ui.end_row();
    changed
}

/// The "assists" section of [`vehicle_ui`]: anti-flip, air control, yaw stability.
pub(super) fn vehicle_assists_ui(ui: &mut egui::Ui, settings: &mut VehicleSettings) -> bool {
    section(ui, "vehicle", "assists", false, |ui, changed| {
        let f = &mut settings.assists.anti_flip;
        *changed |= toggle(
            ui,
            "anti-flip",
            &mut f.enabled,
            "limit pitch and roll to the angle below",
        );
        if f.enabled {
            *changed |= num(ui, "… max tilt", &mut f.max_angle, 0.0..=180.0, "°", 0.5);
            *changed |= num(ui, "… strength", &mut f.max_acceleration, 0.0..=1000.0, " rad/s²", 0.5);
        }
        let c = &mut settings.assists.air_control;
        *changed |= toggle(
            ui,
            "air control",
            &mut c.enabled,
            "in the air: throttle / brake pitch, steer yaws, steer with the handbrake rolls",
        );
        if c.enabled {
            *changed |= num(ui, "… pitch rate", &mut c.pitch_rate, 0.0..=1440.0, "°/s", 1.0);
            *changed |= num(ui, "… yaw rate", &mut c.yaw_rate, 0.0..=1440.0, "°/s", 1.0);
            *changed |= num(ui, "… roll rate", &mut c.roll_rate, 0.0..=1440.0, "°/s", 1.0);
            *changed |= num(
                ui,
                "… acceleration",
                &mut c.max_acceleration,
                0.0..=1000.0,
                " rad/s²",
                0.5,
            );
        }
        let y = &mut settings.assists.yaw_stability;
        *changed |= toggle(
            ui,
            "yaw stability (ESC)",
            &mut y.enabled,
            "brakes one wheel against a spin (outer front) or a plough (inner rear)",
        );
        if y.enabled {
            *changed |= num(ui, "… threshold", &mut y.threshold, 0.0..=180.0, "°/s", 0.1);
            *changed |= num(ui, "… gain", &mut y.gain, 0.0..=5000.0, " N·m per °/s", 5.0);
            *changed |= num(ui, "… max torque", &mut y.max_torque, 0.0..=50_000.0, " N·m", 20.0);
            *changed |= num(
                ui,
                "… reference understeer",
                &mut y.reference_understeer,
                -10.0..=20.0,
                "°/g",
                0.05,
            );
        }
    })
}
