//! The machinery behind the one declaration of every wheel setting (`settings/table.rs`):
//! from one line per number setting, [`declare_wheel_settings!`] writes the field, its
//! default, the getter (with the unit, default and limit in its doc), the clamping
//! setter, the file form's field, both conversions, the reset of one field and the
//! [`Row`] that tools (the inspector, tests) read.
//!
//! The settings that are not one number (the sweep type, the cylinder's resolution, the
//! force direction and the two tyre curves) are written here once, by hand, in the same
//! macro: they have their own setters and their own file form.

/// Where an editor shows a setting: the inspector's sections of a wheel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SettingGroup {
    /// Radius, width, inertia.
    Geometry,
    /// Spring, dampers, travel, preload, bump rubber, the steepest ground.
    Suspension,
    /// Camber and toe with their gains, camber thrust and camber's gain on the peak.
    Alignment,
    /// The tyre's load law, relaxation, trail and rolling resistance.
    Tyre,
    /// The Perlin road roughness.
    Roughness,
    /// Set by a vehicle from its axle (the links' slopes, the alignment's design
    /// compression): an editor of a vehicle edits the axle instead.
    Axle,
}

/// Writes [`WheelSettings`], [`WheelSettingsDef`](super::WheelSettingsDef) and
/// [`WheelSettings::FLOATS`] from one declaration per number setting, in the rows'
/// keyword grammar (`crate::rows`), its place the getter and the clamping setter:
///
/// ```text
/// /// Doc of the getter.
/// name, set_name {
///     label: "label", unit: "unit", group: Group, default: 0.3,
///     limit: (min, max), range: (lo, hi), step: 0.002,
///     [omit: "is_zero",]
/// }
/// ```
///
/// `omit` names a predicate that leaves the field out of a written file.
macro_rules! declare_wheel_settings {
    ($(
        $(#[doc = $doc:literal])*
        $name:ident, $set:ident {
            label: $label:literal, unit: $unit:literal, group: $group:ident, default: $default:expr,
            limit: ($min:expr, $max:expr), range: ($lo:expr, $hi:expr), step: $speed:expr
            $(, omit: $skip:literal)? $(,)?
        }
    )*) => {
        /// The tuning of one wheel. Each number setting's unit, default and limit are in
        /// its getter's doc, and listed for tools in [`FLOATS`](Self::FLOATS).
        ///
        /// Fields are private so that a value can only enter through a setter that clamps
        /// it and refuses non-finite numbers; read them with the getters of the same name.
        ///
        /// # Example
        /// ```
        /// use wheelcollider_core::{WheelSettings, SweepType};
        /// let mut s = WheelSettings::default();
        /// s.set_sweep_type(SweepType::Cylinder);
        /// assert_eq!(s.set_radius(-1.0), Ok(0.001)); // clamped like the original
        /// assert!(s.set_suspension_spring(f32::NAN).is_err()); // refused, old value kept
        /// assert_eq!(s.suspension_spring(), 40_000.0);
        /// ```
        #[derive(Clone, Debug, PartialEq)]
        #[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
        pub struct WheelSettings {
            pub(super) sweep_type: SweepType,
            pub(super) cylinder_resolution: u32,
            pub(super) suspension_force_direction: SuspensionForceDirection,
            pub(super) longitudinal_tyre: TyreCurve,
            pub(super) lateral_tyre: TyreCurve,
            pub(super) compound: Option<TyreCompound>,
            $(pub(super) $name: f32,)*
        }

        impl Default for WheelSettings {
            fn default() -> Self {
                Self {
                    sweep_type: SweepType::Ray,
                    cylinder_resolution: 16,
                    suspension_force_direction: SuspensionForceDirection::ContactNormal,
                    longitudinal_tyre: TyreCurve::default(),
                    lateral_tyre: TyreCurve::default(),
                    compound: None,
                    $($name: $default,)*
                }
            }
        }

        impl WheelSettings {
            /// Every number setting, in the file form's order: its name, unit, default,
            /// limit, editor range and accessors.
            pub const FLOATS: &'static [Row<WheelSettings, SettingGroup>] = &[$(
                $crate::field_row!(WheelSettings, $name, $label, $unit, SettingGroup::$group, ($min, $max), ($lo, $hi), $speed)
            ),*];

            $(
                $(#[doc = $doc])*
                ///
                #[doc = concat!("Unit: ", $unit, "; default ", stringify!($default), "; limit ",
                    stringify!($min), " ..= ", stringify!($max), " (clamped).")]
                #[inline]
                pub fn $name(&self) -> f32 {
                    self.$name
                }
                #[doc = concat!("Sets [`", stringify!($name), "`](Self::", stringify!($name),
                    "), clamped to its limit; returns the stored value, or an error (and keeps \
                    the old value) for NaN / ±∞.")]
                pub fn $set(&mut self, value: f32) -> Result<f32, SettingsError> {
                    self.$name = check(stringify!($name), value, $min, $max)?;
                    Ok(self.$name)
                }
            )*
        }

        /// The serialised form of [`WheelSettings`]: plain public fields, every one
        /// optional in a file (missing ones take the default). Converting it into
        /// `WheelSettings` validates every field through the setters. The number
        /// settings' units and limits are their getters' on [`WheelSettings`].
        #[derive(Clone, Debug, PartialEq)]
        #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
        #[cfg_attr(feature = "serde", serde(default, deny_unknown_fields))]
        pub struct WheelSettingsDef {
            /// See [`WheelSettings::sweep_type`].
            pub sweep_type: SweepType,
            /// See [`WheelSettings::cylinder_resolution`].
            pub cylinder_resolution: u32,
            /// See [`WheelSettings::suspension_force_direction`].
            pub suspension_force_direction: SuspensionForceDirection,
            /// Magic formula B of the longitudinal curve, and of the lateral one unless
            /// `lateral_tyre` is given (WheelCollider2's single curve).
            pub magic_formula_b: f32,
            /// Magic formula C, the shape factor (dimensionless; see `magic_formula_b`).
            pub magic_formula_c: f32,
            /// Magic formula D, the peak friction coefficient (dimensionless; see
            /// `magic_formula_b`).
            pub magic_formula_d: f32,
            /// Magic formula E, the curvature factor (dimensionless, ≤ 1; see
            /// `magic_formula_b`).
            pub magic_formula_e: f32,
            /// The lateral curve, when it differs from the longitudinal one.
            #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
            pub lateral_tyre: Option<CurveDef>,
            /// The tyre's compound, pressure and wear (see [`WheelSettings::compound`]);
            /// `None` turns its thermal model off.
            #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
            pub compound: Option<TyreCompound>,
            $(
                #[doc = concat!("See [`WheelSettings::", stringify!($name), "`] (", $unit, ").")]
                $(#[cfg_attr(feature = "serde", serde(skip_serializing_if = $skip))])?
                pub $name: f32,
            )*
        }

        impl From<&WheelSettings> for WheelSettingsDef {
            fn from(s: &WheelSettings) -> Self {
                let curve = CurveDef::from(&s.longitudinal_tyre);
                Self {
                    sweep_type: s.sweep_type,
                    cylinder_resolution: s.cylinder_resolution,
                    suspension_force_direction: s.suspension_force_direction,
                    magic_formula_b: curve.b,
                    magic_formula_c: curve.c,
                    magic_formula_d: curve.d,
                    magic_formula_e: curve.e,
                    lateral_tyre: (s.lateral_tyre != s.longitudinal_tyre).then(|| CurveDef::from(&s.lateral_tyre)),
                    compound: s.compound,
                    $($name: s.$name,)*
                }
            }
        }

        impl TryFrom<WheelSettingsDef> for WheelSettings {
            type Error = SettingsError;

            /// Validates every field through its setter: clamps out-of-range values,
            /// refuses non-finite ones (naming the field).
            fn try_from(d: WheelSettingsDef) -> Result<Self, SettingsError> {
                let mut s = WheelSettings::default();
                s.set_sweep_type(d.sweep_type);
                s.set_cylinder_resolution(d.cylinder_resolution);
                s.set_suspension_force_direction(d.suspension_force_direction);
                s.set_tyre(d.magic_formula_b, d.magic_formula_c, d.magic_formula_d, d.magic_formula_e)?;
                if let Some(l) = d.lateral_tyre {
                    s.set_lateral_tyre(l.b, l.c, l.d, l.e)?;
                }
                s.set_compound(d.compound)?;
                $(s.$set(d.$name)?;)*
                Ok(s)
            }
        }

        impl WheelSettingsDef {
            /// Puts the field an error names (see [`SettingsError::field`]) back to its
            /// value in `d`; a lateral coefficient drops the separate lateral curve.
            pub(super) fn reset_field(&mut self, field: &str, d: &WheelSettingsDef) {
                match field {
                    "magic_formula_b" => self.magic_formula_b = d.magic_formula_b,
                    "magic_formula_c" => self.magic_formula_c = d.magic_formula_c,
                    "magic_formula_d" => self.magic_formula_d = d.magic_formula_d,
                    "magic_formula_e" => self.magic_formula_e = d.magic_formula_e,
                    "lateral_b" | "lateral_c" | "lateral_d" | "lateral_e" => self.lateral_tyre = None,
                    $(stringify!($name) => self.$name = d.$name,)*
                    f if TyreCompound::FLOATS.iter().any(|c| c.path == f) => self.compound = d.compound,
                    // Every error names one of the fields above (`settings` tests,
                    // `every_float_setting_round_trips_resets_alone_and_has_its_range_in_its_limit`).
                    _ => {}
                }
            }
        }
    };
}

pub(super) use declare_wheel_settings;
