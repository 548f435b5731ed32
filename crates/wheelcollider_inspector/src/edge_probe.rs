//! A hook for tests: type the edge of a number field's range into the Tune tab, the way a
//! person drags or types a value to its limit, and list the fields the tab draws.
//!
//! Install an [`EdgeProbe`] on the inspector's egui context with [`install`]: from then
//! on every collapsing section of the Tune tab opens, each frame lists its number fields
//! in [`EdgeProbe::fields`] (in the order drawn), and a [`EdgeProbe::target`] is typed
//! into its field at the next frame and cleared. The value then takes the same path as
//! a person's edit (the wheel's validating setter, or the vehicle's `validate`). With no
//! probe installed the inspector pays one map lookup per field drawn.

use std::sync::{Arc, Mutex};

use bevy_egui::egui;

/// Which end of a field's range to type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Edge {
    /// The range's lower end.
    Min,
    /// The range's upper end.
    Max,
}

/// A number field the Tune tab drew.
#[derive(Clone, Debug, PartialEq)]
pub struct Field {
    /// Its label, as shown.
    pub label: String,
    /// The lower end of its range, in the field's unit.
    pub min: f32,
    /// The upper end of its range, in the field's unit.
    pub max: f32,
}

/// The probe's state, shared between the test and the inspector.
#[derive(Debug, Default)]
pub struct EdgeProbe {
    /// The field (its index in [`EdgeProbe::fields`]) and the edge to type at the next
    /// frame; cleared once typed.
    pub target: Option<(usize, Edge)>,
    /// The number fields drawn in the last frame, in the order drawn.
    pub fields: Vec<Field>,
    /// What was typed last: the field and the value.
    pub typed: Option<(Field, f32)>,
    /// The value that field showed before it was typed over.
    pub typed_over: Option<f32>,
}

/// The egui memory key the probe lives under.
fn key() -> egui::Id {
    egui::Id::new("wheelcollider_inspector::edge_probe")
}

/// Installs a probe on `ctx` (replacing any) and returns it.
pub fn install(ctx: &egui::Context) -> Arc<Mutex<EdgeProbe>> {
    let probe = Arc::new(Mutex::new(EdgeProbe::default()));
    ctx.data_mut(|d| d.insert_temp(key(), probe.clone()));
    probe
}

/// The probe installed on `ctx`, if any.
fn installed(ctx: &egui::Context) -> Option<Arc<Mutex<EdgeProbe>>> {
    ctx.data(|d| d.get_temp::<Arc<Mutex<EdgeProbe>>>(key()))
}

/// Whether a probe is installed: then every section opens.
pub(crate) fn active(ctx: &egui::Context) -> bool {
    installed(ctx).is_some()
}

/// Starts a frame: the list of fields is drawn anew.
pub(crate) fn begin_frame(ctx: &egui::Context) {
    if let Some(p) = installed(ctx) {
        p.lock().unwrap_or_else(|e| e.into_inner()).fields.clear();
    }
}

/// A number field is being drawn: lists it and, if it is the target, types the edge
/// into `value`. Returns whether it typed.
pub(crate) fn visit(ctx: &egui::Context, label: &str, range: &std::ops::RangeInclusive<f32>, value: &mut f32) -> bool {
    let Some(p) = installed(ctx) else {
        return false;
    };
    let mut p = p.lock().unwrap_or_else(|e| e.into_inner());
    let field = Field {
        label: label.to_owned(),
        min: *range.start(),
        max: *range.end(),
    };
    let index = p.fields.len();
    p.fields.push(field.clone());
    match p.target {
        Some((i, edge)) if i == index => {
            p.typed_over = Some(*value);
            *value = match edge {
                Edge::Min => field.min,
                Edge::Max => field.max,
            };
            p.target = None;
            p.typed = Some((field, *value));
            true
        }
        _ => false,
    }
}
