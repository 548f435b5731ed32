//! The Tune tab's vehicle sections: chassis, engine, clutch and gearbox,
//! differentials, brakes, steering, aerodynamics, the assists and towing, one function
//! per section.

use bevy_egui::egui;
use wheelcollider_avian::prelude::*;
use wheelcollider_core::vehicle::{TrackSteering, VEHICLE_FLOATS, VehiclePart};

use super::tune::section;
use super::*;

/// A differential's kind, and a limited-slip one's numbers from their rows
/// ([`VehiclePart::Differential`]): the centre one's (`axle` `None`) or axle `axle`'s.
pub(super) fn diff_ui(ui: &mut egui::Ui, id: &str, settings: &mut VehicleSettings, axle: Option<usize>) -> bool {
    let mut changed = false;
    let d = differential(settings, axle);
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
    let DifferentialKind::LimitedSlip { locking, .. } = *d else {
        return changed;
    };
    egui::Grid::new((id, "lsd")).num_columns(2).show(ui, |ui| {
        let rows = |name: &str| {
            VEHICLE_FLOATS
                .iter()
                .filter(|f| f.group == VehiclePart::Differential && f.each_axle() == axle.is_some())
                .find(|f| f.path.ends_with(name))
        };
        for name in ["preload", "locking"] {
            if let Some(f) = rows(name) {
                changed |= row_ui(ui, settings, f, axle.unwrap_or(0));
            }
        }
        // The datasheets' figure beside it: |T_l − T_r| ≤ preload + locking·|T_in|.
        ui.label("bias ratio");
        let bias = DifferentialKind::LimitedSlip {
            preload: 0.0,
            locking,
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
        if let DifferentialKind::LimitedSlip {
            locking, coast_locking, ..
        } = differential(settings, axle)
        {
            ui.horizontal(|ui| {
                for (name, value) in [("1-way", Some(0.0)), ("1.5-way", Some(0.5 * *locking)), ("2-way", None)] {
                    if ui.selectable_label(*coast_locking == value, name).clicked() {
                        *coast_locking = value;
                        changed = true;
                    }
                }
            });
        }
        ui.end_row();
        if let Some(f) = rows("coast_locking") {
            changed |= row_ui(ui, settings, f, axle.unwrap_or(0));
        }
    });
    changed
}

/// Axle `axle`'s differential, or the centre one (`None`).
fn differential(settings: &mut VehicleSettings, axle: Option<usize>) -> &mut DifferentialKind {
    match axle {
        Some(i) => &mut settings.axles[i].differential,
        None => &mut settings.centre_differential,
    }
}

/// The scalar numbers of `part` as drag values, from their one declaration
/// ([`VEHICLE_FLOATS`]: label, unit, editor range and step); sets `changed` when one
/// was edited (clamped to its limit; the vehicle's `validate` then clamps the rows
/// whose limits read it).
fn part_fields(ui: &mut egui::Ui, settings: &mut VehicleSettings, part: VehiclePart, changed: &mut bool) {
    for f in VEHICLE_FLOATS.iter().filter(|f| f.group == part) {
        *changed |= row_ui(ui, settings, f, 0);
    }
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
    changed |= vehicle_towing_ui(ui, settings);
    changed |= vehicle_two_wheeler_ui(ui, settings);
    changed |= vehicle_tracks_ui(ui, settings);
    changed
}

/// The "chassis" section of [`vehicle_ui`]. The centre of mass moves within half the
/// chassis' [`VehicleSettings::editor_scale`] of its middle, up and down and along.
pub(super) fn vehicle_chassis_ui(ui: &mut egui::Ui, settings: &mut VehicleSettings) -> bool {
    let half = 0.5 * settings.editor_scale();
    section(ui, "vehicle", "chassis", false, |ui, changed| {
        part_fields(ui, settings, VehiclePart::Chassis, changed);
        *changed |= num(
            ui,
            "centre of mass height",
            &mut settings.chassis.centre_of_mass[1],
            -half..=half,
            " m",
            0.005,
        );
        *changed |= num(
            ui,
            "centre of mass z",
            &mut settings.chassis.centre_of_mass[2],
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
        part_fields(ui, settings, VehiclePart::Engine, changed);
        let e = &mut settings.engine;
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
        part_fields(ui, settings, VehiclePart::Clutch, changed);
        ui.label("automatic clutch");
        *changed |= ui.checkbox(&mut settings.clutch.automatic, "").changed();
        ui.end_row();
        for (i, r) in settings.gearbox.forward.iter_mut().enumerate() {
            *changed |= num(ui, &format!("gear {}", i + 1), r, 0.05..=20.0, "", 0.005);
        }
        part_fields(ui, settings, VehiclePart::Gearbox, changed);
        let g = &mut settings.gearbox;
        ui.label("automatic");
        *changed |= ui.checkbox(&mut g.automatic, "").changed();
        ui.end_row();
        ui.label("rev-matched shifts");
        *changed |= ui.checkbox(&mut g.auto_blip, "").changed();
        ui.end_row();
    })
}

/// The "differentials" section of [`vehicle_ui`].
pub(super) fn vehicle_differentials_ui(ui: &mut egui::Ui, settings: &mut VehicleSettings) -> bool {
    let mut changed = false;
    egui::CollapsingHeader::new("differentials")
        .default_open(crate::edge_probe::active(ui.ctx()))
        .show(ui, |ui| {
            for i in 0..settings.axles.len() {
                let a = &mut settings.axles[i];
                ui.horizontal(|ui| {
                    changed |= ui.checkbox(&mut a.driven, format!("axle {i} driven")).changed();
                    changed |= ui.checkbox(&mut a.steered, "steered").changed();
                    changed |= ui.checkbox(&mut a.handbrake, "handbrake").changed();
                });
                if settings.axles[i].driven {
                    changed |= diff_ui(ui, &format!("diff{i}"), settings, Some(i));
                }
            }
            if settings.axles.iter().filter(|a| a.driven).count() >= 2 {
                ui.label("centre differential");
                changed |= diff_ui(ui, "centre", settings, None);
                egui::Grid::new("centre").show(ui, |ui| {
                    part_fields(ui, settings, VehiclePart::Driveline, &mut changed);
                });
            }
        });
    changed
}

/// The "brakes" section of [`vehicle_ui`].
pub(super) fn vehicle_brakes_ui(ui: &mut egui::Ui, settings: &mut VehicleSettings) -> bool {
    section(ui, "vehicle", "brakes", false, |ui, changed| {
        part_fields(ui, settings, VehiclePart::Brakes, changed);
        let b = &mut settings.brakes;
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
        ui.label("ABS on handbrake");
        *changed |= ui
            .checkbox(&mut b.handbrake_abs, "")
            .on_hover_text("ABS holds the handbrake too (a motorcycle's rear pedal)")
            .changed();
        ui.end_row();
    })
}

/// The "steering" section of [`vehicle_ui`].
pub(super) fn vehicle_steering_ui(ui: &mut egui::Ui, settings: &mut VehicleSettings) -> bool {
    section(ui, "vehicle", "steering", false, |ui, changed| {
        part_fields(ui, settings, VehiclePart::Steering, changed);
    })
}

/// The "aerodynamics" section of [`vehicle_ui`].
pub(super) fn vehicle_aerodynamics_ui(ui: &mut egui::Ui, settings: &mut VehicleSettings) -> bool {
    section(ui, "vehicle", "aerodynamics", false, |ui, changed| {
        part_fields(ui, settings, VehiclePart::Aero, changed);
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
            part_fields(ui, settings, VehiclePart::AntiFlip, changed);
        }
        let c = &mut settings.assists.air_control;
        *changed |= toggle(
            ui,
            "air control",
            &mut c.enabled,
            "in the air: throttle / brake pitch, steer yaws, steer with the handbrake rolls",
        );
        if c.enabled {
            part_fields(ui, settings, VehiclePart::AirControl, changed);
        }
        let y = &mut settings.assists.yaw_stability;
        *changed |= toggle(
            ui,
            "yaw stability (ESC)",
            &mut y.enabled,
            "brakes one wheel against a spin (outer front) or a plough (inner rear)",
        );
        if y.enabled {
            part_fields(ui, settings, VehiclePart::YawStability, changed);
        }
    })
}

/// A point of the chassis (m) as three drag values labelled `what x`, `what height`,
/// `what z`, each within ±`scale` ([`VehicleSettings::editor_scale`]) of the chassis'
/// middle.
fn point_ui(ui: &mut egui::Ui, what: &str, p: &mut [f32; 3], scale: f32) -> bool {
    let mut changed = false;
    for (axis, v) in ["x", "height", "z"].into_iter().zip(p.iter_mut()) {
        changed |= num(ui, &format!("{what} {axis}"), v, -scale..=scale, " m", 0.005);
    }
    changed
}

/// The "towing" section of [`vehicle_ui`], for a vehicle with a hitch or a trailer: the
/// hitch's place, and its stops and break force ([`VehiclePart::Hitch`]); the trailer's
/// coupling, its brakes' kind, and its stand and brakes ([`VehiclePart::Trailer`]).
/// Positions range over the chassis' [`VehicleSettings::editor_scale`] (a trailer's
/// drawbar reaches past its body: a whole length either way).
pub(super) fn vehicle_towing_ui(ui: &mut egui::Ui, settings: &mut VehicleSettings) -> bool {
    if settings.hitch.is_none() && settings.trailer.is_none() {
        return false;
    }
    let scale = settings.editor_scale();
    section(ui, "vehicle", "towing", false, |ui, changed| {
        if let Some(h) = settings.hitch.as_mut() {
            *changed |= point_ui(ui, "hitch", &mut h.position, scale);
        }
        part_fields(ui, settings, VehiclePart::Hitch, changed);
        let Some(t) = settings.trailer.as_mut() else {
            return;
        };
        *changed |= point_ui(ui, "coupling", &mut t.coupling, scale);
        ui.label("trailer brakes");
        ui.horizontal(|ui| {
            for (name, kind) in [
                ("none", TrailerBrakes::None),
                (
                    "overrun",
                    TrailerBrakes::Overrun {
                        response: 0.04,
                        full: 0.1,
                        lag: 0.15,
                    },
                ),
                ("air", TrailerBrakes::Air { lag: 0.3 }),
            ] {
                let same = core::mem::discriminant(&t.brakes) == core::mem::discriminant(&kind);
                if ui.selectable_label(same, name).clicked() && !same {
                    t.brakes = kind;
                    *changed = true;
                }
            }
        });
        ui.end_row();
        part_fields(ui, settings, VehiclePart::Trailer, changed);
    })
}

/// The "two-wheeler" section of [`vehicle_ui`], for a vehicle with
/// [`TwoWheelerSettings`](wheelcollider_core::vehicle::TwoWheelerSettings): the steering
/// head (rake, trail, the front assembly, damper, lock, the lean at a full steer input;
/// [`VehiclePart::SteeringHead`]), the front assembly's centre of mass (within the
/// chassis' [`VehicleSettings::editor_scale`]), and the rider's gains and foot
/// ([`VehiclePart::Rider`]).
pub(super) fn vehicle_two_wheeler_ui(ui: &mut egui::Ui, settings: &mut VehicleSettings) -> bool {
    if settings.two_wheeler.is_none() {
        return false;
    }
    let scale = settings.editor_scale();
    section(ui, "vehicle", "two-wheeler", false, |ui, changed| {
        part_fields(ui, settings, VehiclePart::SteeringHead, changed);
        if let Some(bike) = settings.two_wheeler.as_mut() {
            *changed |= point_ui(ui, "front assembly", &mut bike.front_centre_of_mass, scale);
            *changed |= toggle(
                ui,
                "foot down",
                &mut bike.rider.foot_down,
                "the rider puts a foot down at walking pace (without it a bike at rest falls)",
            );
            *changed |= toggle(
                ui,
                "hold the front down",
                &mut bike.rider.hold_front,
                "the rider eases the throttle as the front wheel lifts, unless the weight is back",
            );
        }
        part_fields(ui, settings, VehiclePart::Rider, changed);
    })
}

/// The "tracks" section of [`vehicle_ui`], for a vehicle with
/// [`TrackSettings`](wheelcollider_core::vehicle::TrackSettings): the steering system
/// (geared or clutch and brake) and its numbers, and the belts' mass
/// ([`VehiclePart::Tracks`]).
pub(super) fn vehicle_tracks_ui(ui: &mut egui::Ui, settings: &mut VehicleSettings) -> bool {
    if settings.tracks.is_none() {
        return false;
    }
    section(ui, "vehicle", "tracks", false, |ui, changed| {
        if let Some(tracks) = settings.tracks.as_mut() {
            ui.label("steering");
            ui.horizontal(|ui| {
                for (name, kind) in [
                    ("geared", TrackSteering::Geared),
                    ("clutch and brake", TrackSteering::ClutchBrake),
                ] {
                    if ui.selectable_label(tracks.steering == kind, name).clicked() && tracks.steering != kind {
                        tracks.steering = kind;
                        *changed = true;
                    }
                }
            });
            ui.end_row();
        }
        part_fields(ui, settings, VehiclePart::Tracks, changed);
    })
}
