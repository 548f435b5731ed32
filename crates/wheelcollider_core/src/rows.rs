//! One row type for every tunable number: a wheel's ([`WheelSettings::FLOATS`]), its
//! tyre compound's ([`TyreCompound::FLOATS`]), a vehicle's outside its wheels
//! ([`VEHICLE_FLOATS`]) and, in the plugin, a ground surface's (`WheelSurface::FLOATS`). An editor draws any of them with one loop, a test walks any of
//! them with one function.
//!
//! Each is declared once, in one keyword grammar (the declarations are in
//! `settings/table.rs`, `thermal/compound.rs`, `vehicle/fields/` and the plugin's
//! `wheel/surface.rs`):
//!
//! ```text
//! /// The doc of the number.
//! PLACE {
//!     label: "redline", unit: "rpm", group: Engine, [default: 7000.0,]
//!     limit: LIMIT, range: RANGE, step: 10.0,
//!     ...
//! }
//! ```
//!
//! - `label`: what an editor writes beside it; `unit`: as the docs write it (`""` for a
//!   plain number); `group`: the editor's section (none for a compound's numbers);
//! - `default`: the value of a settings type made with [`Default`] (a wheel's and a
//!   compound's; a vehicle's numbers have none apart from their preset);
//! - `limit`: what a setter (or a vehicle's `validate`) clamps it to, (min, max);
//!   `range`: what an editor offers, inside the limit; both are either a constant pair
//!   `(min, max)` or, where they read the settings, a closure `|s, i| (min, max)`
//!   (a vehicle's: `i` is the axle's index);
//! - `step`: how much a value changes per pixel dragged in an editor (its unit);
//! - the place: a wheel's or a compound's field name (`radius, set_radius` for a wheel:
//!   the getter and the clamping setter), a vehicle's path in its file with how to reach
//!   it (`vehicle/fields/`).
//!
//! [`WheelSettings::FLOATS`]: crate::WheelSettings::FLOATS
//! [`TyreCompound::FLOATS`]: crate::TyreCompound::FLOATS
//! [`VEHICLE_FLOATS`]: crate::vehicle::VEHICLE_FLOATS

use crate::limits::{SettingsError, check};

/// A row's closures read the settings and an index: an axle's for a vehicle's number of
/// each axle (`axles[]…`), 0 otherwise.
pub type Read<S, T> = fn(&S, usize) -> T;

/// One tunable number of a settings type `S`, declared once (see the module's docs);
/// `G` is the editor's section it belongs to.
pub struct Row<S: 'static, G: 'static = ()> {
    /// Its name in a file and in its errors: a wheel's or a compound's field
    /// (`radius`), a vehicle's path (`engine.idle_rpm`; `axles[]` at its start for a
    /// number of each axle, see [`path_at`](Self::path_at)).
    pub path: &'static str,
    /// A short label for an editor.
    pub label: &'static str,
    /// The unit, as the docs write it (`""` for a plain number).
    pub unit: &'static str,
    /// The editor's section.
    pub group: G,
    /// The limit a setter clamps it to, (min, max). A vehicle's may read the settings as
    /// clamped so far (the rows before it in [`VEHICLE_FLOATS`](crate::vehicle::VEHICLE_FLOATS)).
    pub limit: Read<S, (f32, f32)>,
    /// The range an editor offers, (min, max); inside the limit for any valid settings
    /// (the `settings` and `vehicle` tests check it).
    pub range: Read<S, (f32, f32)>,
    /// How much a value changes per pixel dragged in an editor (its unit).
    pub step: f32,
    /// Reads it: `None` where it is absent (a vehicle without a hitch, a differential
    /// of another kind, an optional number left unset).
    pub get: Read<S, Option<f32>>,
    /// The field, to write; `None` where it is absent.
    pub field: fn(&mut S, usize) -> Option<&mut f32>,
    /// For an optional number: what an unset one resolves to, and how an edit sets it.
    pub optional: Option<Optional<S>>,
}

/// What an optional number ([`Row::optional`]) is when it is not set, and how it is set.
pub struct Optional<S: 'static> {
    /// The value an unset one resolves to (`None`: unset is off).
    pub typical: Option<Read<S, f32>>,
    /// Sets it (to `Some(value)`).
    pub set: fn(&mut S, usize, f32),
}

// By hand: a derive would ask `S: Clone`, and a row is a table of function pointers.
impl<S, G: Copy> Clone for Row<S, G> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<S, G: Copy> Copy for Row<S, G> {}
impl<S> Clone for Optional<S> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<S> Copy for Optional<S> {}

impl<S, G: core::fmt::Debug> core::fmt::Debug for Row<S, G> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Row")
            .field("path", &self.path)
            .field("unit", &self.unit)
            .field("group", &self.group)
            .finish_non_exhaustive()
    }
}

impl<S, G> Row<S, G> {
    /// Whether it is a number of each axle (`axles[]…`).
    pub fn each_axle(&self) -> bool {
        self.path.starts_with("axles[]")
    }

    /// Its path at index `i` (`axles[1].z` for a number of each axle), or its path.
    pub fn path_at(&self, i: usize) -> String {
        if self.each_axle() {
            self.path.replacen("[]", &format!("[{i}]"), 1)
        } else {
            self.path.to_owned()
        }
    }

    /// The value an editor shows: the number, or what an unset optional one resolves
    /// to; `None` where it is absent.
    pub fn shown(&self, settings: &S, i: usize) -> Option<f32> {
        (self.get)(settings, i).or_else(|| self.optional?.typical.map(|t| t(settings, i)))
    }

    /// Writes `value` as it is: into the field, or sets an unset optional one. See
    /// [`set`](Self::set) for the clamped write.
    pub fn write(&self, settings: &mut S, i: usize, value: f32) {
        if let Some(f) = (self.field)(settings, i) {
            *f = value;
        } else if let Some(o) = self.optional {
            (o.set)(settings, i, value);
        }
    }

    /// Writes `value` clamped to the limit and returns what was stored; a non-finite
    /// value is refused (the old one kept) with an error naming the row.
    pub fn set(&self, settings: &mut S, i: usize, value: f32) -> Result<f32, SettingsError> {
        let (min, max) = (self.limit)(settings, i);
        let v = check(self.path, value, min, max)?;
        self.write(settings, i, v);
        Ok(v)
    }

    /// Clamps the stored value to the limit in place (a non-finite one is an error
    /// naming the row); an absent one is left alone.
    pub fn clamp(&self, settings: &mut S, i: usize) -> Result<(), SettingsError> {
        let (min, max) = (self.limit)(settings, i);
        if let Some(f) = (self.field)(settings, i) {
            *f = check(self.path, *f, min, max)?;
        }
        Ok(())
    }
}

impl<S: Default, G> Row<S, G> {
    /// Its value in `S::default()` (`None` where the default has none).
    pub fn default_value(&self) -> Option<f32> {
        (self.get)(&S::default(), 0)
    }
}

/// The row of a plain `f32` field `$name` of `$S` with a constant limit and editor
/// range: what the wheel's, the compound's and the surface's declarations expand to.
#[doc(hidden)]
#[macro_export]
macro_rules! field_row {
    ($S:ty, $name:ident, $label:expr, $unit:expr, $group:expr, ($min:expr, $max:expr), ($lo:expr, $hi:expr), $step:expr) => {
        $crate::Row {
            path: stringify!($name),
            label: $label,
            unit: $unit,
            group: $group,
            limit: |_: &$S, _: usize| ($min, $max),
            range: |_: &$S, _: usize| ($lo, $hi),
            step: $step,
            get: |s: &$S, _: usize| Some(s.$name),
            field: |s: &mut $S, _: usize| Some(&mut s.$name),
            optional: None,
        }
    };
}
