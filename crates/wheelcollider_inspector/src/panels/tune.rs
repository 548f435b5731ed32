//! The Tune tab: wheel, axle, vehicle and surface settings, one function per section.

use bevy::prelude::*;
use bevy_egui::egui;
use wheelcollider_avian::prelude::*;

use super::*;

/// A collapsing section with a two-column grid (label, value); `body` sets its flag when
/// it changed a value. Returns that flag.
fn section(ui: &mut egui::Ui, id: &str, title: &str, open: bool, body: impl FnOnce(&mut egui::Ui, &mut bool)) -> bool {
    let mut changed = false;
    egui::CollapsingHeader::new(title)
        .id_salt((id, title))
        .default_open(open)
        .show(ui, |ui| {
            egui::Grid::new((id, title, "grid"))
                .num_columns(2)
                .show(ui, |ui| body(ui, &mut changed));
        });
    changed
}

/// Edits one wheel's settings; returns whether anything changed.
pub(super) fn wheel_settings_ui(ui: &mut egui::Ui, id: &str, w: &mut WheelSettings) -> bool {
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
    changed |= wheel_settings_geometry_ui(ui, id, w);
    changed |= wheel_settings_suspension_ui(ui, id, w);
    changed |= wheel_settings_alignment_ui(ui, id, w);
    changed |= wheel_settings_tyre_ui(ui, id, w);
    changed |= wheel_settings_roughness_ui(ui, id, w);
    changed
}

/// The "geometry" section of [`wheel_settings_ui`].
pub(super) fn wheel_settings_geometry_ui(ui: &mut egui::Ui, id: &str, w: &mut WheelSettings) -> bool {
    section(ui, id, "geometry", true, |ui, changed| {
        wheel_field!(ui, w, *changed, "radius", radius, set_radius, 0.05..=2.0, " m", 0.002);
        wheel_field!(ui, w, *changed, "width", width, set_width, 0.02..=1.0, " m", 0.002);
        wheel_field!(
            ui,
            w,
            *changed,
            "inertia",
            inertia,
            set_inertia,
            0.001..=50.0,
            " kg·m²",
            0.01
        );
    })
}

/// The "suspension" section of [`wheel_settings_ui`].
pub(super) fn wheel_settings_suspension_ui(ui: &mut egui::Ui, id: &str, w: &mut WheelSettings) -> bool {
    section(ui, id, "suspension", true, |ui, changed| {
        wheel_field!(
            ui,
            w,
            *changed,
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
            *changed,
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
            *changed,
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
            *changed,
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
            *changed,
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
                    *changed = true;
                }
            }
        });
        ui.end_row();
    })
}

/// The "alignment" section of [`wheel_settings_ui`].
pub(super) fn wheel_settings_alignment_ui(ui: &mut egui::Ui, id: &str, w: &mut WheelSettings) -> bool {
    section(ui, id, "alignment", false, |ui, changed| {
        wheel_field!(
            ui,
            w,
            *changed,
            "camber",
            camber_angle,
            set_camber_angle,
            -45.0..=45.0,
            "°",
            0.05
        );
        wheel_field!(
            ui,
            w,
            *changed,
            "toe",
            toe_angle,
            set_toe_angle,
            -45.0..=45.0,
            "°",
            0.02
        );
        wheel_field!(
            ui,
            w,
            *changed,
            "camber thrust",
            camber_thrust,
            set_camber_thrust,
            0.0..=5.0,
            " /rad",
            0.01
        );
    })
}

/// One curve's B, C, D, E as four drag values under a heading; the coefficients when
/// one was edited. C and E span the whole range the formula allows (C up to 3.13 with
/// E = 1); a combination outside it is refused by the setter and its reason shown.
fn curve_ui(ui: &mut egui::Ui, heading: &str, mf: &MagicFormula) -> Option<[f32; 4]> {
    let (mut b, mut c, mut d, mut e) = (mf.b(), mf.c(), mf.d(), mf.e());
    ui.strong(heading);
    ui.label(format!("peak {:.3} at slip {:.3}", mf.peak_value(), mf.peak_slip()));
    ui.end_row();
    let mut any = num(ui, "  B (stiffness)", &mut b, 0.0..=50.0, "", 0.05);
    any |= num(ui, "  C (shape)", &mut c, 0.0..=MagicFormula::MAX_C_AT_E_1, "", 0.01);
    any |= num(ui, "  D (peak μ)", &mut d, 0.0..=5.0, "", 0.01);
    any |= num(ui, "  E (curvature)", &mut e, -10.0..=1.0, "", 0.01);
    any.then_some([b, c, d, e])
}

/// The "tyre" section of [`wheel_settings_ui`]: one curve for both directions (as in
/// WheelCollider2) or a longitudinal and a lateral one, the load law, relaxation
/// lengths and pneumatic trail. A refused curve shows why.
pub(super) fn wheel_settings_tyre_ui(ui: &mut egui::Ui, id: &str, w: &mut WheelSettings) -> bool {
    section(ui, id, "tyre", true, |ui, changed| {
        let flag = egui::Id::new((id, "separate lateral curve"));
        let error = egui::Id::new((id, "tyre error"));
        let same = w.lateral_tyre() == w.longitudinal_tyre();
        let mut separate = ui.ctx().data(|d| d.get_temp::<bool>(flag)).unwrap_or(!same);
        ui.label("lateral curve");
        if ui.checkbox(&mut separate, "separate from longitudinal").changed() && !separate && !same {
            let l = w.longitudinal_tyre().clone();
            *changed |= w.set_tyre(l.b(), l.c(), l.d(), l.e()).is_ok();
        }
        ui.ctx().data_mut(|d| d.insert_temp(flag, separate));
        ui.end_row();
        let mut result = None;
        let heading = if separate {
            "longitudinal (κ)"
        } else {
            "curve (κ and σ)"
        };
        if let Some([b, c, d, e]) = curve_ui(ui, heading, &w.longitudinal_tyre().clone()) {
            result = Some(if separate {
                w.set_longitudinal_tyre(b, c, d, e).map(|_| ())
            } else {
                w.set_tyre(b, c, d, e).map(|_| ())
            });
        }
        if separate && let Some([b, c, d, e]) = curve_ui(ui, "lateral (σ)", &w.lateral_tyre().clone()) {
            result = Some(w.set_lateral_tyre(b, c, d, e).map(|_| ()));
        }
        match result {
            Some(Ok(())) => {
                *changed = true;
                ui.ctx().data_mut(|d| {
                    d.remove::<String>(error);
                });
            }
            Some(Err(err)) => {
                ui.ctx().data_mut(|d| d.insert_temp(error, err.to_string()));
            }
            None => {}
        }
        if let Some(message) = ui.ctx().data(|d| d.get_temp::<String>(error)) {
            ui.label("");
            ui.colored_label(egui::Color32::LIGHT_RED, message);
            ui.end_row();
        }
        wheel_field!(
            ui,
            w,
            *changed,
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
            *changed,
            "nominal load",
            nominal_load,
            set_nominal_load,
            1.0..=50_000.0,
            " N",
            10.0
        );
        wheel_field!(
            ui,
            w,
            *changed,
            "stiffness peak load (0 off)",
            stiffness_peak_load,
            set_stiffness_peak_load,
            0.0..=10.0,
            " × nominal",
            0.01
        );
        wheel_field!(
            ui,
            w,
            *changed,
            "relaxation, longitudinal",
            longitudinal_relaxation_length,
            set_longitudinal_relaxation_length,
            0.0..=10.0,
            " m",
            0.005
        );
        wheel_field!(
            ui,
            w,
            *changed,
            "relaxation, lateral",
            lateral_relaxation_length,
            set_lateral_relaxation_length,
            0.0..=10.0,
            " m",
            0.005
        );
        wheel_field!(
            ui,
            w,
            *changed,
            "pneumatic trail",
            pneumatic_trail,
            set_pneumatic_trail,
            0.0..=1.0,
            " m",
            0.001
        );
        wheel_field!(
            ui,
            w,
            *changed,
            "rolling resistance",
            rolling_resistance,
            set_rolling_resistance,
            0.0..=1.0,
            "",
            0.001
        );
    })
}

/// The "roughness" section of [`wheel_settings_ui`].
pub(super) fn wheel_settings_roughness_ui(ui: &mut egui::Ui, id: &str, w: &mut WheelSettings) -> bool {
    section(ui, id, "roughness", false, |ui, changed| {
        wheel_field!(
            ui,
            w,
            *changed,
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
            *changed,
            "bump period",
            bump_period,
            set_bump_period,
            0.0..=10.0,
            " /m",
            0.01
        );
    })
}

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
pub(super) fn vehicle_ui(ui: &mut egui::Ui, spec: &mut VehicleSettings) -> bool {
    let mut changed = false;
    changed |= vehicle_chassis_ui(ui, spec);
    changed |= vehicle_engine_ui(ui, spec);
    changed |= vehicle_clutch_and_gearbox_ui(ui, spec);
    changed |= vehicle_differentials_ui(ui, spec);
    changed |= vehicle_brakes_ui(ui, spec);
    changed |= vehicle_steering_ui(ui, spec);
    changed |= vehicle_aerodynamics_ui(ui, spec);
    changed
}

/// The "chassis" section of [`vehicle_ui`].
pub(super) fn vehicle_chassis_ui(ui: &mut egui::Ui, spec: &mut VehicleSettings) -> bool {
    section(ui, "vehicle", "chassis", false, |ui, changed| {
        *changed |= num(ui, "mass", &mut spec.chassis.mass, 1.0..=100_000.0, " kg", 5.0);
        *changed |= num(
            ui,
            "centre of mass height",
            &mut spec.chassis.center_of_mass[1],
            -5.0..=5.0,
            " m",
            0.005,
        );
        *changed |= num(
            ui,
            "centre of mass z",
            &mut spec.chassis.center_of_mass[2],
            -10.0..=10.0,
            " m",
            0.005,
        );
    })
}

/// The "engine" section of [`vehicle_ui`].
pub(super) fn vehicle_engine_ui(ui: &mut egui::Ui, spec: &mut VehicleSettings) -> bool {
    section(ui, "vehicle", "engine", false, |ui, changed| {
        let e = &mut spec.engine;
        *changed |= num(ui, "idle", &mut e.idle_rpm, 100.0..=20_000.0, " rpm", 10.0);
        *changed |= num(ui, "redline", &mut e.redline_rpm, 500.0..=30_000.0, " rpm", 10.0);
        *changed |= num(ui, "inertia", &mut e.inertia, 0.01..=10.0, " kg·m²", 0.005);
        *changed |= num(ui, "engine braking", &mut e.braking_torque, 0.0..=2000.0, " N·m", 1.0);
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
    })
}

/// The "clutch and gearbox" section of [`vehicle_ui`].
pub(super) fn vehicle_clutch_and_gearbox_ui(ui: &mut egui::Ui, spec: &mut VehicleSettings) -> bool {
    section(ui, "vehicle", "clutch and gearbox", false, |ui, changed| {
        *changed |= num(
            ui,
            "clutch torque",
            &mut spec.clutch.max_torque,
            0.0..=10_000.0,
            " N·m",
            5.0,
        );
        ui.label("automatic clutch");
        *changed |= ui.checkbox(&mut spec.clutch.automatic, "").changed();
        ui.end_row();
        *changed |= num(
            ui,
            "clutch engage",
            &mut spec.clutch.engage_rpm,
            100.0..=20_000.0,
            " rpm",
            10.0,
        );
        let g = &mut spec.gearbox;
        for (i, r) in g.forward.iter_mut().enumerate() {
            *changed |= num(ui, &format!("gear {}", i + 1), r, 0.05..=20.0, "", 0.005);
        }
        *changed |= num(ui, "reverse", &mut g.reverse, 0.05..=20.0, "", 0.005);
        *changed |= num(ui, "final drive", &mut g.final_drive, 0.05..=20.0, "", 0.005);
        *changed |= num(ui, "efficiency", &mut g.efficiency, 0.5..=1.0, "", 0.005);
        *changed |= num(ui, "shift time", &mut g.shift_time, 0.0..=2.0, " s", 0.01);
        ui.label("automatic");
        *changed |= ui.checkbox(&mut g.automatic, "").changed();
        ui.end_row();
        *changed |= num(ui, "shift up", &mut g.shift_up_rpm, 100.0..=30_000.0, " rpm", 10.0);
        *changed |= num(ui, "shift down", &mut g.shift_down_rpm, 100.0..=30_000.0, " rpm", 10.0);
    })
}

/// The "differentials" section of [`vehicle_ui`].
pub(super) fn vehicle_differentials_ui(ui: &mut egui::Ui, spec: &mut VehicleSettings) -> bool {
    let mut changed = false;
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
    changed
}

/// The "brakes" section of [`vehicle_ui`].
pub(super) fn vehicle_brakes_ui(ui: &mut egui::Ui, spec: &mut VehicleSettings) -> bool {
    section(ui, "vehicle", "brakes", false, |ui, changed| {
        let b = &mut spec.brakes;
        *changed |= num(ui, "max torque", &mut b.max_torque, 0.0..=50_000.0, " N·m", 20.0);
        *changed |= num(ui, "front bias", &mut b.front_bias, 0.0..=1.0, "", 0.01);
        *changed |= num(ui, "handbrake", &mut b.handbrake_torque, 0.0..=20_000.0, " N·m", 10.0);
        ui.label("ABS");
        *changed |= ui.checkbox(&mut b.abs, "").changed();
        ui.end_row();
        ui.label("traction control");
        *changed |= ui.checkbox(&mut b.traction_control, "").changed();
        ui.end_row();
    })
}

/// The "steering" section of [`vehicle_ui`].
pub(super) fn vehicle_steering_ui(ui: &mut egui::Ui, spec: &mut VehicleSettings) -> bool {
    section(ui, "vehicle", "steering", false, |ui, changed| {
        let s = &mut spec.steering;
        *changed |= num(ui, "max angle", &mut s.max_angle, 0.0..=60.0, "°", 0.1);
        *changed |= num(ui, "Ackermann", &mut s.ackermann, 0.0..=1.0, "", 0.01);
        *changed |= num(ui, "lock to lock", &mut s.lock_to_lock_time, 0.0..=5.0, " s", 0.01);
        *changed |= num(ui, "lock at speed", &mut s.high_speed_lock, 0.0..=1.0, "", 0.01);
        *changed |= num(ui, "… reached at", &mut s.high_speed, 0.1..=200.0, " m/s", 0.5);
        *changed |= num(ui, "mechanical trail", &mut s.mechanical_trail, -0.2..=0.2, " m", 0.001);
    })
}

/// The "aerodynamics" section of [`vehicle_ui`].
pub(super) fn vehicle_aerodynamics_ui(ui: &mut egui::Ui, spec: &mut VehicleSettings) -> bool {
    section(ui, "vehicle", "aerodynamics", false, |ui, changed| {
        let a = &mut spec.aero;
        *changed |= num(ui, "air density", &mut a.air_density, 0.0..=2.0, " kg/m³", 0.005);
        *changed |= num(ui, "Cd", &mut a.drag_coefficient, 0.0..=3.0, "", 0.005);
        *changed |= num(ui, "frontal area", &mut a.frontal_area, 0.0..=20.0, " m²", 0.01);
        *changed |= num(
            ui,
            "downforce front",
            &mut a.downforce_front,
            0.0..=10.0,
            " m² (Cl·A)",
            0.01,
        );
        *changed |= num(
            ui,
            "downforce rear",
            &mut a.downforce_rear,
            0.0..=10.0,
            " m² (Cl·A)",
            0.01,
        );
    })
}

pub(super) fn surface_ui(ui: &mut egui::Ui, name: &str, s: &mut WheelSurface) -> bool {
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
