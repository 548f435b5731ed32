//! The Tune tab: wheel, axle, vehicle and surface settings, one function per section.

use bevy::prelude::*;
use bevy_egui::egui;
use wheelcollider_avian::prelude::*;

use super::*;

/// A collapsing section with a two-column grid (label, value); `body` sets its flag when
/// it changed a value. Returns that flag.
pub(super) fn section(
    ui: &mut egui::Ui,
    id: &str,
    title: &str,
    open: bool,
    body: impl FnOnce(&mut egui::Ui, &mut bool),
) -> bool {
    let mut changed = false;
    egui::CollapsingHeader::new(title)
        .id_salt((id, title))
        .default_open(open || crate::edge_probe::active(ui.ctx()))
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
    changed |= super::tyre::compound_ui(ui, id, w);
    changed |= wheel_settings_roughness_ui(ui, id, w);
    changed
}

/// The number settings of `group` as drag values, from their rows
/// ([`WheelSettings::FLOATS`]: label, unit, range and step); sets `changed` when one was
/// edited (clamped to its limit).
fn float_fields(ui: &mut egui::Ui, w: &mut WheelSettings, group: SettingGroup, changed: &mut bool) {
    for f in WheelSettings::FLOATS.iter().filter(|f| f.group == group) {
        *changed |= row_ui(ui, w, f, 0);
    }
}

/// The "geometry" section of [`wheel_settings_ui`].
pub(super) fn wheel_settings_geometry_ui(ui: &mut egui::Ui, id: &str, w: &mut WheelSettings) -> bool {
    section(ui, id, "geometry", true, |ui, changed| {
        float_fields(ui, w, SettingGroup::Geometry, changed)
    })
}

/// The "suspension" section of [`wheel_settings_ui`].
pub(super) fn wheel_settings_suspension_ui(ui: &mut egui::Ui, id: &str, w: &mut WheelSettings) -> bool {
    section(ui, id, "suspension", true, |ui, changed| {
        float_fields(ui, w, SettingGroup::Suspension, changed);
        ui.label("force along");
        ui.horizontal(|ui| {
            for (d, name) in [
                (SuspensionForceDirection::ContactNormal, "contact normal"),
                (SuspensionForceDirection::SuspensionAxis, "suspension axis"),
                (SuspensionForceDirection::Axial, "axial (fork)"),
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
        float_fields(ui, w, SettingGroup::Alignment, changed)
    })
}

/// One curve's B, C, D, E as four drag values under a heading; the coefficients when
/// one was edited. C's range is what the formula allows with the curve's E
/// ([`MagicFormula::max_c`]: up to 2, or 3.13 with E = 1), so a C at the top of its
/// range is one the setter takes; an E lowered under a C above 2 is refused by the
/// setter and its reason shown. Another kind of [`TyreCurve`] shows its peak only.
fn curve_ui(ui: &mut egui::Ui, heading: &str, curve: &TyreCurve) -> Option<[f32; 4]> {
    ui.strong(heading);
    ui.label(format!(
        "peak {:.3} at slip {:.3}",
        curve.peak_value(),
        curve.peak_slip()
    ));
    ui.end_row();
    let mf = curve.magic_formula()?;
    let (mut b, mut c, mut d, mut e) = (mf.b(), mf.c(), mf.d(), mf.e());
    let mut any = num(ui, "  B (stiffness)", &mut b, 0.0..=50.0, "", 0.05);
    any |= num(ui, "  C (shape)", &mut c, 0.0..=MagicFormula::max_c(e), "", 0.01);
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
            w.set_curves(l.clone(), l);
            *changed = true;
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
        float_fields(ui, w, SettingGroup::Tyre, changed);
    })
}

/// The "roughness" section of [`wheel_settings_ui`].
pub(super) fn wheel_settings_roughness_ui(ui: &mut egui::Ui, id: &str, w: &mut WheelSettings) -> bool {
    section(ui, id, "roughness", false, |ui, changed| {
        float_fields(ui, w, SettingGroup::Roughness, changed)
    })
}

pub(super) fn surface_ui(ui: &mut egui::Ui, name: &str, s: &mut WheelSurface) -> bool {
    let mut changed = false;
    egui::CollapsingHeader::new(name)
        .default_open(crate::edge_probe::active(ui.ctx()))
        .show(ui, |ui| {
            egui::Grid::new(("surface", name)).num_columns(2).show(ui, |ui| {
                for row in WheelSurface::FLOATS {
                    changed |= row_ui(ui, s, row, 0);
                }
            });
        });
    changed
}
