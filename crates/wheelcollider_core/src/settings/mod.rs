//! Wheel settings: the tuning of one wheel, with the defaults and limits of
//! Unity's WheelCollider2.
//!
//! Each number setting is declared once, in `settings/table.rs`: its getter's doc gives
//! its unit, default and limit, and [`WheelSettings::FLOATS`] lists them for tools (the
//! inspector draws its fields from it). The others: [`sweep_type`](WheelSettings::sweep_type)
//! (`Ray`), [`cylinder_resolution`](WheelSettings::cylinder_resolution) (16, 8 ..= 256),
//! [`suspension_force_direction`](WheelSettings::suspension_force_direction)
//! (`ContactNormal`) and the two tyre curves (B, C, D, E = 10, 1.65, 1.5, 0.97, one curve
//! for both directions; see [`TyreCurve`] and [`MagicFormula`]).
//!
//! Every setter clamps to the limit, as the original does, and returns the value it
//! stored. A non-finite value (NaN, ±∞) is refused with a [`SettingsError`] naming the
//! field, and the old value is kept: a `WheelSettings` can never hold one. Upper limits
//! that the original does not have ([`MAX_VALUE`](crate::MAX_VALUE)) keep every product in the model finite.
//! The tyre curves' coefficients are refused outside the range in which the formula is
//! a friction curve (see [`MagicFormula`]).
//!
//! The defaults are Unity WheelCollider2's wheel: one curve for both directions, no load
//! dependence, no relaxation, no aligning torque. The shipped presets turn them on.

use crate::limits::SettingsError;
use crate::thermal::TyreCompound;
use crate::tyre::{MagicFormula, TyreCurve};

mod declare;
mod def;
mod table;
pub use declare::SettingGroup;
pub use def::CurveDef;
pub use table::{WheelSettings, WheelSettingsDef};

/// The fraction of the travel, from full droop, over which a positive
/// [`spring_preload`](WheelSettings::spring_preload) eases in (the droop stop's rubber).
pub const PRELOAD_RELEASE: f64 = 0.05;

/// The names errors give the lateral curve's coefficients.
const LATERAL_NAMES: [&str; 4] = ["lateral_b", "lateral_c", "lateral_d", "lateral_e"];

/// Along which direction the suspension pushes the chassis.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub enum SuspensionForceDirection {
    /// Along the ground's normal at the contact, as Jolt's vehicle does (the default).
    /// The tyre's forces lie in the ground plane, so the three are orthogonal: a body
    /// rolled in a corner gets no sideways push from its springs, and the lateral force
    /// is the tyre's alone, bounded by friction.
    #[default]
    ContactNormal,
    /// Along the mount's up (the suspension axis), as Unity's WheelCollider2 does. A
    /// body rolled by φ gets `load·tan φ` of sideways push from its springs that no
    /// friction limits.
    SuspensionAxis,
    /// A fork or a strut: the wheel slides along the axis, so the spring carries the
    /// part of the contact's whole force along it and the tube carries the rest. The
    /// ground's load (along its normal) is then `(S − F_t·a) / (a·n)`: the spring's
    /// force `S` over the cosine of the axis' tilt from the normal `n`, less the
    /// tyre's forces' `F_t` part along the axis `a` (taken with the links' lag, as
    /// [`jacking`](crate::StepOutput::jacking_force)). A two-wheeler's law: leaned by φ
    /// in a steady turn its springs carry `W/cos φ` (`two_wheeler::motorcycle`'s steady
    /// turns). Against the other two: no sideways push from the spring (as
    /// `SuspensionAxis` gives), and the spring's force is what its own travel gives
    /// (`ContactNormal` takes the spring's force for the load, so a leaned spring holds
    /// `W`, `cos φ` of a fork's). The tilt is read within [`AXIAL_MAX_TILT`]; the axis'
    /// tilt along the travel (a pitch) is left out.
    Axial,
}

/// The most tilt of an [`Axial`](SuspensionForceDirection::Axial) suspension's axis
/// from the ground's normal that its load reads (deg): past it (a bike on its side) the
/// load is at most twice the spring's force.
pub const AXIAL_MAX_TILT: f32 = 60.0;

impl SuspensionForceDirection {
    /// The ground's load (N) per newton of the suspension's force, and per newton of the
    /// tyre's sideways force, at a contact whose suspension axis is tilted
    /// `ground_camber` (deg, as [`Contact::ground_camber`](crate::Contact::ground_camber))
    /// from the normal: `(1/cos γ, tan γ)` for [`Axial`](Self::Axial) (γ within
    /// [`AXIAL_MAX_TILT`]), `(1, 0)` otherwise.
    pub fn load_factors(self, ground_camber: f32) -> (f32, f32) {
        match self {
            Self::Axial => {
                let tilt = ground_camber.clamp(-AXIAL_MAX_TILT, AXIAL_MAX_TILT).to_radians();
                let (sin, cos) = crate::math::sin_cos(tilt);
                if cos > 0.0 { (1.0 / cos, sin / cos) } else { (1.0, 0.0) }
            }
            _ => (1.0, 0.0),
        }
    }
}

/// The shape that finds the ground.
///
/// The ray can fall into a hole narrower than the tyre; the sphere and the cylinder do
/// not. That difference is why the three exist.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub enum SweepType {
    /// A ray from the mount point: the fastest, falls into holes narrower than the tyre.
    #[default]
    Ray,
    /// A sphere of the tyre radius.
    Sphere,
    /// A cylinder of the tyre radius and width, its axis along the axle: the closest to a
    /// real tyre (recommended).
    Cylinder,
}

impl WheelSettings {
    /// The shape that finds the ground.
    #[inline]
    pub fn sweep_type(&self) -> SweepType {
        self.sweep_type
    }
    /// Sets the sweep shape; it may change at any time.
    pub fn set_sweep_type(&mut self, sweep_type: SweepType) {
        self.sweep_type = sweep_type;
    }

    /// Segments of the cylinder drawn by the debug gizmos (and of a polygonal cylinder),
    /// ≥ 8.
    #[inline]
    pub fn cylinder_resolution(&self) -> u32 {
        self.cylinder_resolution
    }
    /// Sets [`cylinder_resolution`](Self::cylinder_resolution), clamped to 8 ..= 256;
    /// returns the stored value.
    pub fn set_cylinder_resolution(&mut self, value: u32) -> u32 {
        self.cylinder_resolution = value.clamp(8, 256);
        self.cylinder_resolution
    }

    /// Along which direction the suspension force acts (see
    /// [`SuspensionForceDirection`]; the default is the contact normal).
    #[inline]
    pub fn suspension_force_direction(&self) -> SuspensionForceDirection {
        self.suspension_force_direction
    }
    /// Sets [`suspension_force_direction`](Self::suspension_force_direction).
    pub fn set_suspension_force_direction(&mut self, direction: SuspensionForceDirection) {
        self.suspension_force_direction = direction;
    }

    /// The tyre's compound, pressure and wear: `None` (the default, the original's)
    /// leaves the tyre as its other settings say; `Some` turns on its thermal model
    /// ([`crate::thermal`]): temperatures, pressure, grip window, wear, puncture.
    #[inline]
    pub fn compound(&self) -> Option<&TyreCompound> {
        self.compound.as_ref()
    }
    /// Sets [`compound`](Self::compound): each field clamped to its limit, or an error
    /// naming the first non-finite one (the old compound kept).
    pub fn set_compound(&mut self, compound: Option<TyreCompound>) -> Result<(), SettingsError> {
        self.compound = compound.map(TyreCompound::validated).transpose()?;
        Ok(())
    }

    /// The longitudinal curve: friction coefficient against forward slip κ (its peak
    /// slip is solved when it is set).
    #[inline]
    pub fn longitudinal_tyre(&self) -> &TyreCurve {
        &self.longitudinal_tyre
    }
    /// The lateral curve: friction coefficient against sideways slip σ = tan(slip
    /// angle). The same as the longitudinal curve unless set apart.
    #[inline]
    pub fn lateral_tyre(&self) -> &TyreCurve {
        &self.lateral_tyre
    }
    /// Sets both curves to one from B, C, D, E (WheelCollider2's single curve). B, C and
    /// D clamp to ≥ 0; a curve that would not be a friction curve, or a non-finite
    /// coefficient, is refused and the old curves stay (see [`MagicFormula::new`]).
    pub fn set_tyre(&mut self, b: f32, c: f32, d: f32, e: f32) -> Result<&TyreCurve, SettingsError> {
        let curve = TyreCurve::from(MagicFormula::new(b, c, d, e)?);
        self.lateral_tyre = curve.clone();
        self.longitudinal_tyre = curve;
        Ok(&self.longitudinal_tyre)
    }
    /// Sets both curves from curves already built, of any kind of [`TyreCurve`] (a
    /// curve is checked when it is built, as [`MagicFormula::new`] does).
    pub fn set_curves(&mut self, longitudinal: TyreCurve, lateral: TyreCurve) {
        self.longitudinal_tyre = longitudinal;
        self.lateral_tyre = lateral;
    }
    /// Sets the longitudinal curve alone (see [`set_tyre`](Self::set_tyre)).
    pub fn set_longitudinal_tyre(&mut self, b: f32, c: f32, d: f32, e: f32) -> Result<&TyreCurve, SettingsError> {
        self.longitudinal_tyre = MagicFormula::new(b, c, d, e)?.into();
        Ok(&self.longitudinal_tyre)
    }
    /// Sets the lateral curve alone (see [`set_tyre`](Self::set_tyre)); errors name
    /// the coefficients `lateral_b` … `lateral_e`.
    pub fn set_lateral_tyre(&mut self, b: f32, c: f32, d: f32, e: f32) -> Result<&TyreCurve, SettingsError> {
        self.lateral_tyre = MagicFormula::named(LATERAL_NAMES, b, c, d, e)?.into();
        Ok(&self.lateral_tyre)
    }

    /// The camber and toe (deg) at compression `x` (m): the static ones plus the
    /// [`camber_gain`](Self::camber_gain) and [`bump_steer`](Self::bump_steer) over
    /// the travel from the [`alignment_compression`](Self::alignment_compression).
    #[inline]
    pub fn alignment(&self, x: f64) -> (f64, f64) {
        let travel = x - self.alignment_compression as f64;
        (
            self.camber_angle as f64 + self.camber_gain as f64 * travel,
            self.toe_angle as f64 + self.bump_steer as f64 * travel,
        )
    }

    /// The spring's local line at compression `x` (m): `(rate, force at zero
    /// compression)`, N/m and N, so that the spring pushes `rate · x + force` here (the
    /// suspension solve and the standalone step both read it). Piecewise linear and
    /// continuous: the [`suspension_spring`](Self::suspension_spring) rate and the
    /// [`spring_preload`](Self::spring_preload); over the first [`PRELOAD_RELEASE`] of
    /// the travel a positive preload rises from 0 (a steeper rate through the origin);
    /// over the last [`bump_rubber_gap`](Self::bump_rubber_gap) the rubber's rate adds
    /// to the spring's.
    pub fn spring_law(&self, x: f64) -> (f64, f64) {
        let (mut k, mut force) = (self.suspension_spring as f64, self.spring_preload as f64);
        let length = self.suspension_length as f64;
        let release = PRELOAD_RELEASE * length;
        if force > 0.0 && x < release {
            (k, force) = (k + force / release, 0.0);
        }
        let start = length - self.bump_rubber_gap as f64;
        if self.bump_rubber_gap > 0.0 && x > start {
            k += self.bump_rubber_rate as f64;
            force -= self.bump_rubber_rate as f64 * start;
        }
        (k, force)
    }

    /// Whether any of the links' slopes is set: the step, and the plugin's sensing of
    /// [`Contact::arm`](crate::Contact::arm), skip their work otherwise.
    #[inline]
    pub fn has_links(&self) -> bool {
        self.roll_centre_slope != 0.0 || self.brake_pitch_slope != 0.0 || self.drive_pitch_slope != 0.0
    }

    /// The factor load sensitivity applies to the friction coefficient at tyre load
    /// `load` (N): the Magic Formula's `1 − s·(r − 1)` with `r = load / nominal_load`
    /// and `s` the [`load_sensitivity`](Self::load_sensitivity), up to the relative load
    /// `r* = (1 + s) / (2·s)` where the peak force `factor · load` is greatest, and
    /// `(1 + s)² / (4·s·r)` past it (the force flat there); exactly 1 when `s` is 0.
    /// `factor · load` never falls as the load rises (`tests/it/tyre.rs`,
    /// `peak_force_never_falls_with_load`).
    #[inline]
    pub fn load_grip_factor(&self, load: f64) -> f64 {
        let s = self.load_sensitivity as f64;
        if s == 0.0 {
            return 1.0;
        }
        let r = load.max(0.0) / self.nominal_load as f64;
        if r <= (1.0 + s) / (2.0 * s) {
            1.0 - s * (r - 1.0)
        } else {
            (1.0 + s) * (1.0 + s) / (4.0 * s * r)
        }
    }

    /// The factor camber puts on the lateral curve's peak (see
    /// [`camber_peak_gain`](Self::camber_peak_gain)) for a wheel leaning into its
    /// lateral force by `into` degrees (negative: leaning away); 1 when the gain is 0.
    #[inline]
    pub fn camber_peak_factor(&self, into: f64) -> f64 {
        if self.camber_peak_gain == 0.0 {
            return 1.0;
        }
        let x = into / self.camber_peak_angle as f64;
        (1.0 + self.camber_peak_gain as f64 * x * (2.0 - x)).max(0.25)
    }

    /// The factor the load applies to both curves' B, so that the slip stiffness
    /// follows [`stiffness_peak_load`](Self::stiffness_peak_load)'s law; 1 when it is
    /// off. With `r = load / nominal_load`, `p` the peak load and `f` the
    /// [`load_grip_factor`](Self::load_grip_factor): `(p² + 1) / (p² + r²) / f`, so
    /// that `B·b·C·D·f·load = K(load)`; clamped to 0.01 ..= 100 (a peak load near 0
    /// would make it unbounded at zero load).
    #[inline]
    pub fn load_stiffness_factor(&self, load: f64) -> f64 {
        self.stiffness_factor_with(load, || self.load_grip_factor(load))
    }

    /// Both load factors at `load` (N): ([`load_grip_factor`](Self::load_grip_factor),
    /// [`load_stiffness_factor`](Self::load_stiffness_factor)), the grip law evaluated
    /// once (the wheel step reads both every step).
    #[inline]
    pub(crate) fn load_factors(&self, load: f64) -> (f64, f64) {
        let grip = self.load_grip_factor(load);
        (grip, self.stiffness_factor_with(load, || grip))
    }

    /// [`load_stiffness_factor`](Self::load_stiffness_factor) with the grip factor
    /// supplied (asked for only when the law is on).
    #[inline]
    fn stiffness_factor_with(&self, load: f64, grip: impl FnOnce() -> f64) -> f64 {
        if self.stiffness_peak_load == 0.0 {
            return 1.0;
        }
        let p2 = self.stiffness_peak_load as f64 * self.stiffness_peak_load as f64;
        let r = load.max(0.0) / self.nominal_load as f64;
        ((p2 + 1.0) / (p2 + r * r) / grip()).clamp(0.01, 100.0)
    }

    /// The longitudinal friction coefficient at slip `slip` and tyre load `load` (N),
    /// grip 1: the curve with the load's stiffness law and load sensitivity, read where
    /// it is fitted (up to [`FITTED_SLIP`](crate::tyre::FITTED_SLIP) of the curve as set).
    pub fn longitudinal_friction(&self, slip: f32, load: f64) -> f32 {
        let b = self.load_stiffness_factor(load) as f32;
        let fitted = crate::tyre::FITTED_SLIP / b as f64;
        let (mu, _) = self.longitudinal_tyre.eval_scaled((slip.abs() as f64).min(fitted), b);
        (mu * self.load_grip_factor(load)).copysign(slip as f64) as f32
    }

    /// The lateral slip (≥ 0) at which the lateral curve peaks at tyre load `load` (N):
    /// the curve's peak slip over the load's stiffness factor (the stiffness law moves B
    /// with the load, so a light wheel peaks at a smaller slip than a loaded one).
    pub fn lateral_peak_slip(&self, load: f64) -> f32 {
        self.lateral_tyre.peak_slip() / self.load_stiffness_factor(load) as f32
    }

    /// The lateral friction coefficient at slip `slip` and tyre load `load` (N), grip 1,
    /// upright: the lateral curve with the load's stiffness law and load sensitivity,
    /// read where it is fitted (as [`longitudinal_friction`](Self::longitudinal_friction)).
    pub fn lateral_friction(&self, slip: f32, load: f64) -> f32 {
        let b = self.load_stiffness_factor(load) as f32;
        let fitted = crate::tyre::FITTED_SLIP / b as f64;
        let (mu, _) = self.lateral_tyre.eval_scaled((slip.abs() as f64).min(fitted), b);
        (mu * self.load_grip_factor(load)).copysign(slip as f64) as f32
    }

    /// The magnitude of a locked wheel's forward slip at ground speed `v` (m/s):
    /// `|v| / max(|v|, floor)`, the floor 10 m/s, or 2 m/s with a longitudinal
    /// relaxation length (see [`StepOutput::forward_slip`](crate::StepOutput::forward_slip)).
    pub fn locked_slip(&self, v: f32) -> f32 {
        let v = v as f64;
        (v.abs() / crate::tyre::slip_denominator(self.longitudinal_relaxation_length, false, v, 0.0)) as f32
    }

    /// The rolling resistance coefficient at road speed `v` (m/s):
    /// `rolling_resistance + rolling_resistance_speed · v²`.
    #[inline]
    pub fn rolling_coefficient(&self, v: f64) -> f64 {
        self.rolling_resistance as f64 + self.rolling_resistance_speed as f64 * v * v
    }

    /// The slope at zero slip of the lateral curve at `load` (N per unit slip):
    /// the tyre's cornering stiffness (per radian, for small angles), grip 1.
    pub fn cornering_stiffness(&self, load: f64) -> f64 {
        self.stiffness_at(&self.lateral_tyre, load)
    }

    /// The slope at zero slip of the longitudinal curve at `load` (N per unit slip).
    pub fn slip_stiffness(&self, load: f64) -> f64 {
        self.stiffness_at(&self.longitudinal_tyre, load)
    }

    /// `curve`'s slope at zero slip at `load`: B·b·C·D·f·load.
    fn stiffness_at(&self, curve: &TyreCurve, load: f64) -> f64 {
        curve.stiffness() as f64 * load.max(0.0) * self.load_grip_factor(load) * self.load_stiffness_factor(load)
    }

    /// The longitudinal curve's peak slip as set (see [`TyreCurve::peak_slip`]);
    /// [`StepOutput::peak_slip`](crate::StepOutput::peak_slip) has it at the load.
    #[inline]
    pub fn peak_slip(&self) -> f32 {
        self.longitudinal_tyre.peak_slip()
    }
}
