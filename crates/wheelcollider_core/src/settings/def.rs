//! The file form of [`WheelSettings`] around [`WheelSettingsDef`] (declared with the
//! settings in `settings/table.rs`): serde through it, [`CurveDef`], and
//! [`WheelSettings::sanitized`].

use super::{WheelSettings, WheelSettingsDef};
use crate::limits::SettingsError;
use crate::tyre::TyreCurve;

impl Default for WheelSettingsDef {
    fn default() -> Self {
        WheelSettings::default().into()
    }
}

impl From<WheelSettings> for WheelSettingsDef {
    fn from(s: WheelSettings) -> Self {
        Self::from(&s)
    }
}

impl WheelSettings {
    /// Re-validates settings that were written around the setters (by reflection, say):
    /// clamps every field, replaces each non-finite or refused one with its default and
    /// recomputes the tyres' peaks. Returns the clean settings and the first error, if
    /// any. See [`WheelSettingsDef::sanitize`].
    pub fn sanitized(&self) -> (WheelSettings, Option<SettingsError>) {
        WheelSettingsDef::from(self).sanitize()
    }
}

impl WheelSettingsDef {
    /// The settings this file form describes, leniently: each field that its setter
    /// refuses (a non-finite number, a curve that is not a friction curve) put back to
    /// its default, every other field kept (clamped to its limit). Returns them and the
    /// first error, if any. `WheelSettings::try_from` is the strict form.
    pub fn sanitize(mut self) -> (WheelSettings, Option<SettingsError>) {
        let defaults = WheelSettingsDef::default();
        let mut first = None;
        // Each round resets one more field; there are fewer fields than rounds.
        for _ in 0..64 {
            match WheelSettings::try_from(self.clone()) {
                Ok(s) => return (s, first),
                Err(e) => {
                    first.get_or_insert(e);
                    self.reset_field(e.field(), &defaults);
                }
            }
        }
        (WheelSettings::default(), first)
    }
}

/// One tyre curve in a file: `(b: 10.0, c: 1.3, d: 1.1, e: -0.5)`, the magic formula's
/// coefficients (the one kind of [`TyreCurve`] so far).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct CurveDef {
    /// B, stiffness factor (per unit slip).
    pub b: f32,
    /// C, shape factor (dimensionless).
    pub c: f32,
    /// D, peak friction coefficient (dimensionless).
    pub d: f32,
    /// E, curvature factor (dimensionless, ≤ 1).
    pub e: f32,
}

impl From<&TyreCurve> for CurveDef {
    fn from(curve: &TyreCurve) -> Self {
        let TyreCurve::MagicFormula(m) = curve;
        Self {
            b: m.b(),
            c: m.c(),
            d: m.d(),
            e: m.e(),
        }
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for WheelSettings {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        WheelSettingsDef::from(self).serialize(serializer)
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for WheelSettings {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let def = WheelSettingsDef::deserialize(deserializer)?;
        WheelSettings::try_from(def).map_err(serde::de::Error::custom)
    }
}
