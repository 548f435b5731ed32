//! The tyre's compound in the Tune tab (on / off, the named compounds, every field from
//! its rows, [`TyreCompound::FLOATS`]) and its heat map in the Telemetry tab:
//! each tyre a cell in the car's layout, coloured by its surface temperature against its
//! compound's window, with its carcass and gas temperatures, pressure, tread and grip.

use bevy::prelude::*;
use bevy_egui::egui;
use wheelcollider_avian::prelude::*;

use super::{WheelsQuery, row_ui, section, wheel_name};

/// The "tyre compound" section of the wheel editor; returns whether it changed.
pub(super) fn compound_ui(ui: &mut egui::Ui, id: &str, w: &mut WheelSettings) -> bool {
    section(
        ui,
        id,
        "tyre compound (temperature, pressure, wear)",
        false,
        |ui, changed| {
            let mut on = w.compound().is_some();
            ui.label("thermal model");
            if ui.checkbox(&mut on, "on").changed() {
                let compound = on.then(TyreCompound::default);
                *changed |= w.set_compound(compound).is_ok();
            }
            ui.end_row();
            let Some(mut c) = w.compound().copied() else {
                return;
            };
            ui.label("compound");
            ui.horizontal(|ui| {
                for base in CompoundBase::ALL {
                    if ui.selectable_label(c.base == base, format!("{base:?}")).clicked() && c.base != base {
                        c = TyreCompound::named(base);
                        *changed = true;
                    }
                }
            });
            ui.end_row();
            for f in TyreCompound::FLOATS {
                *changed |= row_ui(ui, &mut c, f, 0);
            }
            if *changed {
                *changed = w.set_compound(Some(c)).is_ok();
            }
        },
    )
}

/// The colour of a surface temperature `t` (°C) against a compound's window: blue when
/// cold, green inside, through orange to red when hot (20 K past its edges).
fn window_colour(c: &TyreCompound, t: f32) -> egui::Color32 {
    let (lo, hi) = (c.window_low.min(c.window_high), c.window_high.max(c.window_low));
    let lerp = |a: [f32; 3], b: [f32; 3], x: f32| {
        let x = x.clamp(0.0, 1.0);
        let m = |i: usize| (a[i] + (b[i] - a[i]) * x) as u8;
        egui::Color32::from_rgb(m(0), m(1), m(2))
    };
    let (blue, green, red) = ([60.0, 110.0, 230.0], [70.0, 190.0, 90.0], [230.0, 60.0, 40.0]);
    if t < lo {
        lerp(green, blue, (lo - t) / 20.0)
    } else if t > hi {
        lerp(green, red, (t - hi) / 20.0)
    } else {
        lerp(green, green, 0.0)
    }
}

/// The heat map: one row per axle, each tyre a cell coloured by its surface
/// temperature, with its readings; nothing when no tyre has a compound.
pub(super) fn heat_map_ui(
    ui: &mut egui::Ui,
    children: &ChassisWheels,
    wheels: &WheelsQuery,
    states: &Query<&WheelState>,
) {
    let mut cells = vec![];
    for &w in children.wheels() {
        if let (Ok((id, collider, _)), Ok(state)) = (wheels.get(w), states.get(w))
            && let (Some(compound), Some(t)) = (collider.compound(), state.tyre(collider))
        {
            cells.push((VehicleSettings::wheel_index(id.axle, id.right), *compound, t));
        }
    }
    if cells.is_empty() {
        return;
    }
    cells.sort_by_key(|c| c.0);
    ui.separator();
    ui.strong("tyres (surface temperature against the compound's window)");
    egui::Grid::new("tyre heat map").num_columns(2).show(ui, |ui| {
        for (i, compound, t) in &cells {
            let fill = window_colour(compound, t.surface);
            let text = format!(
                "{} {:.0} °C\ncarcass {:.0} °C, gas {:.0} °C\n{:.0} kPa, tread {:.2} mm, grip {:.0} %{}",
                wheel_name(*i),
                t.surface,
                t.carcass,
                t.gas,
                t.pressure,
                t.tread,
                100.0 * t.grip,
                if t.punctured { ", PUNCTURED" } else { "" }
            );
            egui::Frame::new()
                .fill(fill)
                .inner_margin(6.0)
                .corner_radius(4.0)
                .show(ui, |ui| {
                    ui.set_min_width(170.0);
                    ui.colored_label(egui::Color32::BLACK, text);
                });
            if i % 2 == 1 {
                ui.end_row();
            }
        }
    });
}
