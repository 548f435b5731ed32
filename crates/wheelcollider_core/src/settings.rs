//! Wheel settings: the tuning of one wheel, with the defaults and limits of
//! Unity's WheelCollider2.
//!
//! | field | unit | default | limit (clamped) |
//! | --- | --- | --- | --- |
//! | [`sweep_type`](WheelSettings::sweep_type) | | `Ray` | `Ray`, `Sphere`, `Cylinder` |
//! | [`radius`](WheelSettings::radius) | m | 0.3 | ≥ 0.001 |
//! | [`inertia`](WheelSettings::inertia) | kg·m² | 1 | ≥ 0.001 |
//! | [`width`](WheelSettings::width) | m | 0.2 | ≥ 0.001 |
//! | [`cylinder_resolution`](WheelSettings::cylinder_resolution) | segments | 16 | ≥ 8 |
//! | [`suspension_spring`](WheelSettings::suspension_spring) | N/m | 40 000 | 0 ..= 10⁷ ([`MAX_SPRING`]) |
//! | [`suspension_bump`](WheelSettings::suspension_bump) | N·s/m | 2 000 | 0 ..= 10⁶ ([`MAX_DAMPING`]) |
//! | [`suspension_rebound`](WheelSettings::suspension_rebound) | N·s/m | 2 000 | 0 ..= 10⁶ ([`MAX_DAMPING`]) |
//! | [`suspension_length`](WheelSettings::suspension_length) | m | 0.1 | ≥ 0.001 |
//! | [`suspension_force_direction`](WheelSettings::suspension_force_direction) | | `ContactNormal` | `ContactNormal`, `SuspensionAxis` |
//! | [`max_ground_angle`](WheelSettings::max_ground_angle) | deg | 60 | 0 ..= 89 |
//! | [`camber_angle`](WheelSettings::camber_angle) | deg | 0 | −45 ..= 45 |
//! | [`toe_angle`](WheelSettings::toe_angle) | deg | 0 | −45 ..= 45 |
//! | [`tyre`](WheelSettings::tyre) (B, C, D, E) | – | 10, 1.65, 1.5, 0.97 | see [`MagicFormula`] |
//! | [`camber_thrust`](WheelSettings::camber_thrust) | 1/rad | 0.5 | 0 ..= 5 |
//! | [`rolling_resistance`](WheelSettings::rolling_resistance) | – | 0.015 | ≥ 0 |
//! | [`load_sensitivity`](WheelSettings::load_sensitivity) | – | 0 | 0 ..= 1 |
//! | [`nominal_load`](WheelSettings::nominal_load) | N | 4 000 | ≥ 1 |
//! | [`bump_amplitude`](WheelSettings::bump_amplitude) | m | 0 | ≥ 0 |
//! | [`bump_period`](WheelSettings::bump_period) | 1/m | 0 | ≥ 0 |
//!
//! Every setter clamps to the limit, as the original does, and returns the value it
//! stored. A non-finite value (NaN, ±∞) is refused with a [`SettingsError`] naming the
//! field, and the old value is kept: a `WheelSettings` can never hold one. Upper limits
//! that the original does not have ([`MAX_VALUE`]) keep every product in the model finite.

use crate::limits::{MAX_DAMPING, MAX_SPRING, MAX_VALUE, SettingsError, check};
use crate::tyre::MagicFormula;

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

/// The tuning of one wheel. See the [module docs](self) for units, defaults and limits.
///
/// Fields are private so that a value can only enter through a setter that clamps it
/// and refuses non-finite numbers; read them with the getters of the same name.
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
    sweep_type: SweepType,
    radius: f32,
    inertia: f32,
    width: f32,
    cylinder_resolution: u32,
    suspension_spring: f32,
    suspension_bump: f32,
    suspension_rebound: f32,
    suspension_length: f32,
    suspension_force_direction: SuspensionForceDirection,
    max_ground_angle: f32,
    camber_angle: f32,
    toe_angle: f32,
    tyre: MagicFormula,
    camber_thrust: f32,
    rolling_resistance: f32,
    load_sensitivity: f32,
    nominal_load: f32,
    bump_amplitude: f32,
    bump_period: f32,
}

impl Default for WheelSettings {
    fn default() -> Self {
        Self {
            sweep_type: SweepType::Ray,
            radius: 0.3,
            inertia: 1.0,
            width: 0.2,
            cylinder_resolution: 16,
            suspension_spring: 40_000.0,
            suspension_bump: 2_000.0,
            suspension_rebound: 2_000.0,
            suspension_length: 0.1,
            suspension_force_direction: SuspensionForceDirection::ContactNormal,
            max_ground_angle: 60.0,
            camber_angle: 0.0,
            toe_angle: 0.0,
            tyre: MagicFormula::default(),
            camber_thrust: 0.5,
            rolling_resistance: 0.015,
            load_sensitivity: 0.0,
            nominal_load: 4000.0,
            bump_amplitude: 0.0,
            bump_period: 0.0,
        }
    }
}

macro_rules! float_setting {
    ($(#[$doc:meta])* $get:ident, $set:ident, $min:expr, $max:expr) => {
        $(#[$doc])*
        #[inline]
        pub fn $get(&self) -> f32 {
            self.$get
        }
        #[doc = concat!("Sets [`", stringify!($get), "`](Self::", stringify!($get), "), clamped to its limit; returns the stored value, or an error (and keeps the old value) for NaN / ±∞.")]
        pub fn $set(&mut self, value: f32) -> Result<f32, SettingsError> {
            self.$get = check(stringify!($get), value, $min, $max)?;
            Ok(self.$get)
        }
    };
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

    float_setting!(
        /// Tyre radius (m), ≥ 0.001.
        radius, set_radius, 0.001, MAX_VALUE
    );
    float_setting!(
        /// Moment of inertia of the wheel about its axle (kg·m²), ≥ 0.001.
        inertia, set_inertia, 0.001, MAX_VALUE
    );
    float_setting!(
        /// Tyre width (m), ≥ 0.001; used by the cylinder sweep.
        width, set_width, 0.001, MAX_VALUE
    );

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

    float_setting!(
        /// Suspension spring rate (N/m), 0 ..= [`MAX_SPRING`].
        suspension_spring, set_suspension_spring, 0.0, MAX_SPRING
    );
    float_setting!(
        /// Damping while the suspension compresses (N·s/m), 0 ..= [`MAX_DAMPING`].
        suspension_bump, set_suspension_bump, 0.0, MAX_DAMPING
    );
    float_setting!(
        /// Damping while the suspension extends (N·s/m), 0 ..= [`MAX_DAMPING`].
        suspension_rebound, set_suspension_rebound, 0.0, MAX_DAMPING
    );
    float_setting!(
        /// Suspension travel (m), ≥ 0.001. At full droop the wheel centre sits this far
        /// below the mount point; at full compression it sits at the mount point, where
        /// the bump stop takes over.
        suspension_length, set_suspension_length, 0.001, MAX_VALUE
    );
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
    float_setting!(
        /// The steepest surface the wheel stands on (deg), 0 ..= 89: the largest angle
        /// between a hit's normal and the suspension axis that counts as ground. A
        /// steeper hit (a wall, a kerb's face, another car's side) is not ground: the
        /// sweep passes it by and looks for ground beyond, and the wheel pushes nothing
        /// against it (the chassis' own collider meets walls). Default 60°, like a
        /// steep ramp a car still climbs; Jolt's vehicle has the same limit
        /// (`mMaxSlopeAngle`, 80° by default).
        max_ground_angle, set_max_ground_angle, 0.0, 89.0
    );
    float_setting!(
        /// Static camber (deg), −45 ..= 45. Positive tilts the top of the wheel towards
        /// its local −X (left); as in the original, mirror the sign on the right side of
        /// the car (a preset's axle does this for you).
        camber_angle, set_camber_angle, -45.0, 45.0
    );
    float_setting!(
        /// Static toe (deg), −45 ..= 45: a yaw of the wheel about the suspension axis,
        /// added to the steer angle. As in the original, mirror the sign on the right.
        toe_angle, set_toe_angle, -45.0, 45.0
    );

    /// The tyre's magic-formula curve (its peak slip is solved when it is set).
    #[inline]
    pub fn tyre(&self) -> &MagicFormula {
        &self.tyre
    }
    /// Sets the tyre curve from B, C, D, E, clamped as [`MagicFormula::new`] documents;
    /// re-solves the peak slip. A non-finite coefficient is refused.
    pub fn set_tyre(&mut self, b: f32, c: f32, d: f32, e: f32) -> Result<&MagicFormula, SettingsError> {
        self.tyre = MagicFormula::new(b, c, d, e)?;
        Ok(&self.tyre)
    }

    float_setting!(
        /// Camber thrust (1/rad): the lateral force per unit load per radian of camber,
        /// 0 ..= 5 (passenger tyres ≈ 0.5–1). It enters the friction circle as an
        /// equivalent slip, so it saturates with the rest of the grip. Not in the
        /// original, which has no camber effect on forces.
        camber_thrust, set_camber_thrust, 0.0, 5.0
    );
    float_setting!(
        /// Rolling resistance coefficient (force / load), ≥ 0.
        rolling_resistance, set_rolling_resistance, 0.0, MAX_VALUE
    );
    float_setting!(
        /// Tyre load sensitivity, 0 ..= 1: how much the friction coefficient falls as the
        /// load rises, `μ(Fz) = μ · (1 − s · (Fz / Fz0 − 1))` with `Fz0` the
        /// [`nominal_load`](Self::nominal_load), the factor clamped to 0.5 ..= 1.5 (see
        /// [`load_grip_factor`](Self::load_grip_factor)). Real tyres have 0.1–0.3. It is
        /// what makes a car's balance respond to its weight split and anti-roll bars:
        /// with 0 (the original's behaviour) each tyre's force is proportional to its
        /// load, and moving load across an axle leaves the axle's grip unchanged.
        load_sensitivity, set_load_sensitivity, 0.0, 1.0
    );
    float_setting!(
        /// The load (N) at which the tyre has the friction coefficient of its curve
        /// (`Fz0` of [`load_sensitivity`](Self::load_sensitivity)), ≥ 1: the tyre's
        /// rated load, the same for every tyre of one type on a car (about the heavier
        /// axle's static corner load).
        nominal_load, set_nominal_load, 1.0, MAX_VALUE
    );
    float_setting!(
        /// Height of the Perlin road roughness (m), ≥ 0: the bump spans
        /// [−amplitude/2, +amplitude/2].
        bump_amplitude, set_bump_amplitude, 0.0, MAX_VALUE
    );
    float_setting!(
        /// Spatial frequency of the Perlin roughness (1/m), ≥ 0: bigger is finer.
        bump_period, set_bump_period, 0.0, MAX_VALUE
    );

    /// The factor load sensitivity applies to the friction coefficient at tyre load
    /// `load` (N): `1 − s · (load / nominal_load − 1)`, clamped to 0.5 ..= 1.5; exactly 1
    /// when [`load_sensitivity`](Self::load_sensitivity) is 0.
    #[inline]
    pub fn load_grip_factor(&self, load: f64) -> f64 {
        if self.load_sensitivity == 0.0 {
            return 1.0;
        }
        let s = self.load_sensitivity as f64;
        (1.0 - s * (load / self.nominal_load as f64 - 1.0)).clamp(0.5, 1.5)
    }

    /// The slip of the tyre curve's peak (see [`MagicFormula::peak_slip`]).
    #[inline]
    pub fn peak_slip(&self) -> f32 {
        self.tyre.peak_slip()
    }
}

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
    /// See [`WheelSettings::suspension_force_direction`].
    pub suspension_force_direction: SuspensionForceDirection,
    /// See [`WheelSettings::max_ground_angle`] (deg).
    pub max_ground_angle: f32,
    /// See [`WheelSettings::camber_angle`] (deg).
    pub camber_angle: f32,
    /// See [`WheelSettings::toe_angle`] (deg).
    pub toe_angle: f32,
    /// Magic formula B.
    pub magic_formula_b: f32,
    /// Magic formula C.
    pub magic_formula_c: f32,
    /// Magic formula D (friction coefficient).
    pub magic_formula_d: f32,
    /// Magic formula E.
    pub magic_formula_e: f32,
    /// See [`WheelSettings::camber_thrust`] (1/rad).
    pub camber_thrust: f32,
    /// See [`WheelSettings::rolling_resistance`].
    pub rolling_resistance: f32,
    /// See [`WheelSettings::load_sensitivity`].
    pub load_sensitivity: f32,
    /// See [`WheelSettings::nominal_load`] (N).
    pub nominal_load: f32,
    /// See [`WheelSettings::bump_amplitude`] (m).
    pub bump_amplitude: f32,
    /// See [`WheelSettings::bump_period`] (1/m).
    pub bump_period: f32,
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
            suspension_force_direction: s.suspension_force_direction,
            max_ground_angle: s.max_ground_angle,
            camber_angle: s.camber_angle,
            toe_angle: s.toe_angle,
            magic_formula_b: s.tyre.b(),
            magic_formula_c: s.tyre.c(),
            magic_formula_d: s.tyre.d(),
            magic_formula_e: s.tyre.e(),
            camber_thrust: s.camber_thrust,
            rolling_resistance: s.rolling_resistance,
            load_sensitivity: s.load_sensitivity,
            nominal_load: s.nominal_load,
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
        s.set_tyre(
            d.magic_formula_b,
            d.magic_formula_c,
            d.magic_formula_d,
            d.magic_formula_e,
        )?;
        s.set_camber_thrust(d.camber_thrust)?;
        s.set_rolling_resistance(d.rolling_resistance)?;
        s.set_load_sensitivity(d.load_sensitivity)?;
        s.set_nominal_load(d.nominal_load)?;
        s.set_bump_amplitude(d.bump_amplitude)?;
        s.set_bump_period(d.bump_period)?;
        Ok(s)
    }
}

impl WheelSettings {
    /// Re-validates settings that were written around the setters (by reflection, say):
    /// clamps every field, replaces each non-finite one with its default and recomputes
    /// the tyre's peak. Returns the clean settings and the first field that was not
    /// finite, if any.
    pub fn sanitized(&self) -> (WheelSettings, Option<SettingsError>) {
        let mut def = WheelSettingsDef::from(self);
        let defaults = WheelSettingsDef::default();
        let mut first = None;
        for _ in 0..32 {
            match WheelSettings::try_from(def.clone()) {
                Ok(s) => return (s, first),
                Err(e @ SettingsError::NonFinite { field, .. }) => {
                    first.get_or_insert(e);
                    def.reset_field(field, &defaults);
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
            "magic_formula_b" => self.magic_formula_b = d.magic_formula_b,
            "magic_formula_c" => self.magic_formula_c = d.magic_formula_c,
            "magic_formula_d" => self.magic_formula_d = d.magic_formula_d,
            "magic_formula_e" => self.magic_formula_e = d.magic_formula_e,
            "camber_thrust" => self.camber_thrust = d.camber_thrust,
            "rolling_resistance" => self.rolling_resistance = d.rolling_resistance,
            "load_sensitivity" => self.load_sensitivity = d.load_sensitivity,
            "nominal_load" => self.nominal_load = d.nominal_load,
            "bump_amplitude" => self.bump_amplitude = d.bump_amplitude,
            "bump_period" => self.bump_period = d.bump_period,
            _ => *self = d.clone(),
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
