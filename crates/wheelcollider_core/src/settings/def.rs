//! The file form of [`WheelSettings`]: [`WheelSettingsDef`] with every field optional,
//! validated through the setters on the way in, and [`CurveDef`].

use super::{SuspensionForceDirection, SweepType, WheelSettings};
use crate::limits::SettingsError;
use crate::tyre::MagicFormula;

/// The serialised form of [`WheelSettings`]: plain public fields, every one optional in
/// a file (missing ones take the default). Converting it into `WheelSettings` validates
/// every field through the setters.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default, deny_unknown_fields))]
pub struct WheelSettingsDef {
    /// See [`WheelSettings::sweep_type`].
    pub sweep_type: SweepType,
    /// See [`WheelSettings::radius`] (m).
    pub radius: f32,
    /// See [`WheelSettings::inertia`] (kg·m²).
    pub inertia: f32,
    /// See [`WheelSettings::width`] (m).
    pub width: f32,
    /// See [`WheelSettings::cylinder_resolution`].
    pub cylinder_resolution: u32,
    /// See [`WheelSettings::suspension_spring`] (N/m).
    pub suspension_spring: f32,
    /// See [`WheelSettings::suspension_bump`] (N·s/m).
    pub suspension_bump: f32,
    /// See [`WheelSettings::suspension_rebound`] (N·s/m).
    pub suspension_rebound: f32,
    /// See [`WheelSettings::suspension_length`] (m).
    pub suspension_length: f32,
    /// See [`WheelSettings::spring_preload`] (N); left out of a file when 0.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "is_zero"))]
    pub spring_preload: f32,
    /// See [`WheelSettings::bump_rubber_gap`] (m); left out of a file when 0.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "is_zero"))]
    pub bump_rubber_gap: f32,
    /// See [`WheelSettings::bump_rubber_rate`] (N/m); left out of a file when 0.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "is_zero"))]
    pub bump_rubber_rate: f32,
    /// See [`WheelSettings::suspension_force_direction`].
    pub suspension_force_direction: SuspensionForceDirection,
    /// See [`WheelSettings::max_ground_angle`] (deg).
    pub max_ground_angle: f32,
    /// See [`WheelSettings::camber_angle`] (deg).
    pub camber_angle: f32,
    /// See [`WheelSettings::toe_angle`] (deg).
    pub toe_angle: f32,
    /// See [`WheelSettings::camber_gain`] (deg/m); left out of a file when 0.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "is_zero"))]
    pub camber_gain: f32,
    /// See [`WheelSettings::bump_steer`] (deg/m); left out of a file when 0.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "is_zero"))]
    pub bump_steer: f32,
    /// See [`WheelSettings::alignment_compression`] (m); left out of a file when 0.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "is_zero"))]
    pub alignment_compression: f32,
    /// Magic formula B of the longitudinal curve, and of the lateral one unless
    /// `lateral_tyre` is given (WheelCollider2's single curve).
    pub magic_formula_b: f32,
    /// Magic formula C, the shape factor (dimensionless; see `magic_formula_b`).
    pub magic_formula_c: f32,
    /// Magic formula D, the peak friction coefficient (dimensionless; see `magic_formula_b`).
    pub magic_formula_d: f32,
    /// Magic formula E, the curvature factor (dimensionless, ≤ 1; see `magic_formula_b`).
    pub magic_formula_e: f32,
    /// The lateral curve, when it differs from the longitudinal one.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub lateral_tyre: Option<CurveDef>,
    /// See [`WheelSettings::camber_thrust`] (1/rad).
    pub camber_thrust: f32,
    /// See [`WheelSettings::camber_peak_gain`].
    pub camber_peak_gain: f32,
    /// See [`WheelSettings::camber_peak_angle`] (deg).
    pub camber_peak_angle: f32,
    /// See [`WheelSettings::rolling_resistance`] (dimensionless, × load).
    pub rolling_resistance: f32,
    /// See [`WheelSettings::load_sensitivity`] (dimensionless exponent).
    pub load_sensitivity: f32,
    /// See [`WheelSettings::nominal_load`] (N).
    pub nominal_load: f32,
    /// See [`WheelSettings::stiffness_peak_load`] (× nominal load).
    pub stiffness_peak_load: f32,
    /// See [`WheelSettings::longitudinal_relaxation_length`] (m).
    pub longitudinal_relaxation_length: f32,
    /// See [`WheelSettings::lateral_relaxation_length`] (m).
    pub lateral_relaxation_length: f32,
    /// See [`WheelSettings::pneumatic_trail`] (m).
    pub pneumatic_trail: f32,
    /// See [`WheelSettings::roll_centre_slope`] (dimensionless, −1 ..= 1); left out of a file when 0.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "is_zero"))]
    pub roll_centre_slope: f32,
    /// See [`WheelSettings::brake_pitch_slope`] (dimensionless, −1 ..= 1); left out of a file when 0.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "is_zero"))]
    pub brake_pitch_slope: f32,
    /// See [`WheelSettings::drive_pitch_slope`] (dimensionless, −1 ..= 1); left out of a file when 0.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "is_zero"))]
    pub drive_pitch_slope: f32,
    /// See [`WheelSettings::bump_amplitude`] (m).
    pub bump_amplitude: f32,
    /// See [`WheelSettings::bump_period`] (1/m).
    pub bump_period: f32,
}

/// Whether a slope is 0, so that a file leaves it out (the vehicle's axles set them).
#[cfg(feature = "serde")]
fn is_zero(v: &f32) -> bool {
    *v == 0.0
}

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

impl From<&WheelSettings> for WheelSettingsDef {
    fn from(s: &WheelSettings) -> Self {
        Self {
            sweep_type: s.sweep_type,
            radius: s.radius,
            inertia: s.inertia,
            width: s.width,
            cylinder_resolution: s.cylinder_resolution,
            suspension_spring: s.suspension_spring,
            suspension_bump: s.suspension_bump,
            suspension_rebound: s.suspension_rebound,
            suspension_length: s.suspension_length,
            spring_preload: s.spring_preload,
            bump_rubber_gap: s.bump_rubber_gap,
            bump_rubber_rate: s.bump_rubber_rate,
            suspension_force_direction: s.suspension_force_direction,
            max_ground_angle: s.max_ground_angle,
            camber_angle: s.camber_angle,
            toe_angle: s.toe_angle,
            camber_gain: s.camber_gain,
            bump_steer: s.bump_steer,
            alignment_compression: s.alignment_compression,
            magic_formula_b: s.longitudinal_tyre.b(),
            magic_formula_c: s.longitudinal_tyre.c(),
            magic_formula_d: s.longitudinal_tyre.d(),
            magic_formula_e: s.longitudinal_tyre.e(),
            lateral_tyre: (s.lateral_tyre != s.longitudinal_tyre).then(|| CurveDef::from(&s.lateral_tyre)),
            camber_thrust: s.camber_thrust,
            camber_peak_gain: s.camber_peak_gain,
            camber_peak_angle: s.camber_peak_angle,
            rolling_resistance: s.rolling_resistance,
            load_sensitivity: s.load_sensitivity,
            nominal_load: s.nominal_load,
            stiffness_peak_load: s.stiffness_peak_load,
            longitudinal_relaxation_length: s.longitudinal_relaxation_length,
            lateral_relaxation_length: s.lateral_relaxation_length,
            pneumatic_trail: s.pneumatic_trail,
            roll_centre_slope: s.roll_centre_slope,
            brake_pitch_slope: s.brake_pitch_slope,
            drive_pitch_slope: s.drive_pitch_slope,
            bump_amplitude: s.bump_amplitude,
            bump_period: s.bump_period,
        }
    }
}

impl TryFrom<WheelSettingsDef> for WheelSettings {
    type Error = SettingsError;

    /// Validates every field through its setter: clamps out-of-range values, refuses
    /// non-finite ones (naming the field).
    fn try_from(d: WheelSettingsDef) -> Result<Self, SettingsError> {
        let mut s = WheelSettings::default();
        s.set_sweep_type(d.sweep_type);
        s.set_radius(d.radius)?;
        s.set_inertia(d.inertia)?;
        s.set_width(d.width)?;
        s.set_cylinder_resolution(d.cylinder_resolution);
        s.set_suspension_spring(d.suspension_spring)?;
        s.set_suspension_bump(d.suspension_bump)?;
        s.set_suspension_rebound(d.suspension_rebound)?;
        s.set_suspension_length(d.suspension_length)?;
        s.set_suspension_force_direction(d.suspension_force_direction);
        s.set_max_ground_angle(d.max_ground_angle)?;
        s.set_camber_angle(d.camber_angle)?;
        s.set_toe_angle(d.toe_angle)?;
        s.set_camber_gain(d.camber_gain)?;
        s.set_bump_steer(d.bump_steer)?;
        s.set_alignment_compression(d.alignment_compression)?;
        s.set_tyre(
            d.magic_formula_b,
            d.magic_formula_c,
            d.magic_formula_d,
            d.magic_formula_e,
        )?;
        if let Some(l) = d.lateral_tyre {
            s.set_lateral_tyre(l.b, l.c, l.d, l.e)?;
        }
        s.set_camber_thrust(d.camber_thrust)?;
        s.set_camber_peak_gain(d.camber_peak_gain)?;
        s.set_camber_peak_angle(d.camber_peak_angle)?;
        s.set_rolling_resistance(d.rolling_resistance)?;
        s.set_load_sensitivity(d.load_sensitivity)?;
        s.set_nominal_load(d.nominal_load)?;
        s.set_stiffness_peak_load(d.stiffness_peak_load)?;
        s.set_longitudinal_relaxation_length(d.longitudinal_relaxation_length)?;
        s.set_lateral_relaxation_length(d.lateral_relaxation_length)?;
        s.set_pneumatic_trail(d.pneumatic_trail)?;
        s.set_spring_preload(d.spring_preload)?;
        s.set_bump_rubber_gap(d.bump_rubber_gap)?;
        s.set_bump_rubber_rate(d.bump_rubber_rate)?;
        s.set_roll_centre_slope(d.roll_centre_slope)?;
        s.set_brake_pitch_slope(d.brake_pitch_slope)?;
        s.set_drive_pitch_slope(d.drive_pitch_slope)?;
        s.set_bump_amplitude(d.bump_amplitude)?;
        s.set_bump_period(d.bump_period)?;
        Ok(s)
    }
}

impl WheelSettings {
    /// Re-validates settings that were written around the setters (by reflection, say):
    /// clamps every field, replaces each non-finite or refused one with its default and
    /// recomputes the tyres' peaks. Returns the clean settings and the first error, if
    /// any.
    pub fn sanitized(&self) -> (WheelSettings, Option<SettingsError>) {
        let mut def = WheelSettingsDef::from(self);
        let defaults = WheelSettingsDef::default();
        let mut first = None;
        for _ in 0..32 {
            match WheelSettings::try_from(def.clone()) {
                Ok(s) => return (s, first),
                Err(e) => {
                    first.get_or_insert(e);
                    def.reset_field(e.field(), &defaults);
                }
            }
        }
        (WheelSettings::default(), first)
    }
}

impl WheelSettingsDef {
    fn reset_field(&mut self, field: &str, d: &WheelSettingsDef) {
        match field {
            "radius" => self.radius = d.radius,
            "inertia" => self.inertia = d.inertia,
            "width" => self.width = d.width,
            "suspension_spring" => self.suspension_spring = d.suspension_spring,
            "suspension_bump" => self.suspension_bump = d.suspension_bump,
            "suspension_rebound" => self.suspension_rebound = d.suspension_rebound,
            "suspension_length" => self.suspension_length = d.suspension_length,
            "max_ground_angle" => self.max_ground_angle = d.max_ground_angle,
            "camber_angle" => self.camber_angle = d.camber_angle,
            "toe_angle" => self.toe_angle = d.toe_angle,
            "camber_gain" => self.camber_gain = d.camber_gain,
            "bump_steer" => self.bump_steer = d.bump_steer,
            "alignment_compression" => self.alignment_compression = d.alignment_compression,
            "magic_formula_b" => self.magic_formula_b = d.magic_formula_b,
            "magic_formula_c" => self.magic_formula_c = d.magic_formula_c,
            "magic_formula_d" => self.magic_formula_d = d.magic_formula_d,
            "magic_formula_e" => self.magic_formula_e = d.magic_formula_e,
            "lateral_b" | "lateral_c" | "lateral_d" | "lateral_e" => self.lateral_tyre = None,
            "stiffness_peak_load" => self.stiffness_peak_load = d.stiffness_peak_load,
            "longitudinal_relaxation_length" => self.longitudinal_relaxation_length = d.longitudinal_relaxation_length,
            "lateral_relaxation_length" => self.lateral_relaxation_length = d.lateral_relaxation_length,
            "pneumatic_trail" => self.pneumatic_trail = d.pneumatic_trail,
            "spring_preload" => self.spring_preload = d.spring_preload,
            "bump_rubber_gap" => self.bump_rubber_gap = d.bump_rubber_gap,
            "bump_rubber_rate" => self.bump_rubber_rate = d.bump_rubber_rate,
            "roll_centre_slope" => self.roll_centre_slope = d.roll_centre_slope,
            "brake_pitch_slope" => self.brake_pitch_slope = d.brake_pitch_slope,
            "drive_pitch_slope" => self.drive_pitch_slope = d.drive_pitch_slope,
            "camber_thrust" => self.camber_thrust = d.camber_thrust,
            "camber_peak_gain" => self.camber_peak_gain = d.camber_peak_gain,
            "camber_peak_angle" => self.camber_peak_angle = d.camber_peak_angle,
            "rolling_resistance" => self.rolling_resistance = d.rolling_resistance,
            "load_sensitivity" => self.load_sensitivity = d.load_sensitivity,
            "nominal_load" => self.nominal_load = d.nominal_load,
            "bump_amplitude" => self.bump_amplitude = d.bump_amplitude,
            "bump_period" => self.bump_period = d.bump_period,
            _ => *self = d.clone(),
        }
    }
}

/// One magic-formula curve in a file: `(b: 10.0, c: 1.3, d: 1.1, e: -0.5)`.
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

impl From<&MagicFormula> for CurveDef {
    fn from(m: &MagicFormula) -> Self {
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
