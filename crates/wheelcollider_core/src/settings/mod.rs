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
//! | [`spring_preload`](WheelSettings::spring_preload) | N | 0 | ±10⁷ |
//! | [`bump_rubber_gap`](WheelSettings::bump_rubber_gap) | m | 0 (off) | 0 ..= 10 |
//! | [`bump_rubber_rate`](WheelSettings::bump_rubber_rate) | N/m | 0 | 0 ..= 10⁷ ([`MAX_SPRING`]) |
//! | [`suspension_force_direction`](WheelSettings::suspension_force_direction) | | `ContactNormal` | `ContactNormal`, `SuspensionAxis` |
//! | [`max_ground_angle`](WheelSettings::max_ground_angle) | deg | 60 | 0 ..= 89 |
//! | [`camber_angle`](WheelSettings::camber_angle) | deg | 0 | −45 ..= 45 |
//! | [`toe_angle`](WheelSettings::toe_angle) | deg | 0 | −45 ..= 45 |
//! | [`camber_gain`](WheelSettings::camber_gain) | deg/m | 0 | −500 ..= 500 |
//! | [`bump_steer`](WheelSettings::bump_steer) | deg/m | 0 | −500 ..= 500 |
//! | [`alignment_compression`](WheelSettings::alignment_compression) | m | 0 | 0 ..= 10 |
//! | [`longitudinal_tyre`](WheelSettings::longitudinal_tyre) (B, C, D, E) | – | 10, 1.65, 1.5, 0.97 | see [`MagicFormula`] |
//! | [`lateral_tyre`](WheelSettings::lateral_tyre) (B, C, D, E) | – | the longitudinal curve | see [`MagicFormula`] |
//! | [`camber_thrust`](WheelSettings::camber_thrust) | 1/rad | 0.5 | 0 ..= 5 |
//! | [`camber_peak_gain`](WheelSettings::camber_peak_gain) | – | 0 (off) | 0 ..= 0.5 |
//! | [`camber_peak_angle`](WheelSettings::camber_peak_angle) | deg | 4 | 0.5 ..= 30 |
//! | [`rolling_resistance`](WheelSettings::rolling_resistance) | – | 0.015 | ≥ 0 |
//! | [`load_sensitivity`](WheelSettings::load_sensitivity) | – | 0 | 0 ..= 1 |
//! | [`nominal_load`](WheelSettings::nominal_load) | N | 4 000 | ≥ 1 |
//! | [`stiffness_peak_load`](WheelSettings::stiffness_peak_load) | × nominal load | 0 (off) | 0 ..= 10 |
//! | [`longitudinal_relaxation_length`](WheelSettings::longitudinal_relaxation_length) | m | 0 (off) | 0 ..= 10 |
//! | [`lateral_relaxation_length`](WheelSettings::lateral_relaxation_length) | m | 0 (off) | 0 ..= 10 |
//! | [`pneumatic_trail`](WheelSettings::pneumatic_trail) | m | 0 | 0 ..= 1 |
//! | [`roll_centre_slope`](WheelSettings::roll_centre_slope) | – | 0 (off) | −1 ..= 1 |
//! | [`brake_pitch_slope`](WheelSettings::brake_pitch_slope) | – | 0 (off) | −1 ..= 1 |
//! | [`drive_pitch_slope`](WheelSettings::drive_pitch_slope) | – | 0 (off) | −1 ..= 1 |
//! | [`bump_amplitude`](WheelSettings::bump_amplitude) | m | 0 | ≥ 0 |
//! | [`bump_period`](WheelSettings::bump_period) | 1/m | 0 | ≥ 0 |
//!
//! Every setter clamps to the limit, as the original does, and returns the value it
//! stored. A non-finite value (NaN, ±∞) is refused with a [`SettingsError`] naming the
//! field, and the old value is kept: a `WheelSettings` can never hold one. Upper limits
//! that the original does not have ([`MAX_VALUE`]) keep every product in the model finite.
//! The tyre curves' coefficients are refused outside the range in which the formula is
//! a friction curve (see [`MagicFormula`]).
//!
//! The defaults are Unity WheelCollider2's wheel: one curve for both directions, no load
//! dependence, no relaxation, no aligning torque. The shipped presets turn them on.

use crate::limits::{MAX_DAMPING, MAX_SPRING, MAX_VALUE, SettingsError, check};
use crate::tyre::MagicFormula;

mod def;
pub use def::{CurveDef, WheelSettingsDef};

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
    spring_preload: f32,
    bump_rubber_gap: f32,
    bump_rubber_rate: f32,
    suspension_force_direction: SuspensionForceDirection,
    max_ground_angle: f32,
    camber_angle: f32,
    toe_angle: f32,
    camber_gain: f32,
    bump_steer: f32,
    alignment_compression: f32,
    longitudinal_tyre: MagicFormula,
    lateral_tyre: MagicFormula,
    camber_thrust: f32,
    camber_peak_gain: f32,
    camber_peak_angle: f32,
    rolling_resistance: f32,
    load_sensitivity: f32,
    nominal_load: f32,
    stiffness_peak_load: f32,
    longitudinal_relaxation_length: f32,
    lateral_relaxation_length: f32,
    pneumatic_trail: f32,
    roll_centre_slope: f32,
    brake_pitch_slope: f32,
    drive_pitch_slope: f32,
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
            spring_preload: 0.0,
            bump_rubber_gap: 0.0,
            bump_rubber_rate: 0.0,
            suspension_force_direction: SuspensionForceDirection::ContactNormal,
            max_ground_angle: 60.0,
            camber_angle: 0.0,
            toe_angle: 0.0,
            camber_gain: 0.0,
            bump_steer: 0.0,
            alignment_compression: 0.0,
            longitudinal_tyre: MagicFormula::default(),
            lateral_tyre: MagicFormula::default(),
            camber_thrust: 0.5,
            camber_peak_gain: 0.0,
            camber_peak_angle: 4.0,
            rolling_resistance: 0.015,
            load_sensitivity: 0.0,
            nominal_load: 4000.0,
            stiffness_peak_load: 0.0,
            longitudinal_relaxation_length: 0.0,
            lateral_relaxation_length: 0.0,
            pneumatic_trail: 0.0,
            roll_centre_slope: 0.0,
            brake_pitch_slope: 0.0,
            drive_pitch_slope: 0.0,
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
    float_setting!(
        /// The spring's force at full droop (N), ±10⁷: the spring pushes
        /// `rate · compression + preload` (never pulls). A positive preload is what a
        /// coilover's perch sets: the car sits at the same height whatever the rate, and
        /// the wheel starts to compress only when its load passes the preload. Near
        /// full droop, over the first [`PRELOAD_RELEASE`] of the travel, the preload
        /// eases to 0 (the droop stop's rubber), so that a wheel unloading to full
        /// droop leaves the ground without a jump of force. A negative one leaves the
        /// spring free (no force) over the first `−preload / rate` of travel. A
        /// vehicle sets it from its axle's `ride_height`. See
        /// [`spring_law`](Self::spring_law).
        spring_preload, set_spring_preload, -MAX_SPRING, MAX_SPRING
    );
    float_setting!(
        /// How far before full travel a bump rubber starts (m), 0 ..= 10; 0 is off.
        /// From there to full travel the spring rate rises by
        /// [`bump_rubber_rate`](Self::bump_rubber_rate) (a progressive stop); the rigid
        /// bump stop still acts at full travel.
        bump_rubber_gap, set_bump_rubber_gap, 0.0, 10.0
    );
    float_setting!(
        /// The bump rubber's rate (N/m), 0 ..= 10⁷, added to the spring's over the
        /// last [`bump_rubber_gap`](Self::bump_rubber_gap) of the travel.
        bump_rubber_rate, set_bump_rubber_rate, 0.0, MAX_SPRING
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
    float_setting!(
        /// Camber gain (deg per m of compression), −500 ..= 500, in the wheel's
        /// convention (see [`camber_angle`](Self::camber_angle)): the camber at
        /// compression `x` is `camber_angle + camber_gain · (x − alignment_compression)`
        /// against the body. The body's roll adds to it against the ground, so a car's
        /// roll camber follows from this and the track. Double wishbones gain some
        /// −20 … −40 deg/m of negative camber in bump, a MacPherson strut about −10
        /// (Milliken & Milliken, *Race Car Vehicle Dynamics*, §17.2). A vehicle mirrors
        /// it with the camber.
        camber_gain, set_camber_gain, -500.0, 500.0
    );
    float_setting!(
        /// Bump steer (deg of toe per m of compression), −500 ..= 500, in the wheel's
        /// convention (see [`toe_angle`](Self::toe_angle)): the toe at compression `x` is
        /// `toe_angle + bump_steer · (x − alignment_compression)`. A vehicle mirrors it
        /// with the toe (its axle's positive bump steer toes in on bump).
        bump_steer, set_bump_steer, -500.0, 500.0
    );
    float_setting!(
        /// The compression (m) at which [`camber_angle`](Self::camber_angle) and
        /// [`toe_angle`](Self::toe_angle) hold, 0 ..= 10: the alignment's design
        /// position. A vehicle sets it to its axle's static compression.
        alignment_compression, set_alignment_compression, 0.0, 10.0
    );

    /// The longitudinal magic-formula curve: friction coefficient against forward slip
    /// κ (its peak slip is solved when it is set).
    #[inline]
    pub fn longitudinal_tyre(&self) -> &MagicFormula {
        &self.longitudinal_tyre
    }
    /// The lateral magic-formula curve: friction coefficient against sideways slip
    /// σ = tan(slip angle). The same as the longitudinal curve unless set apart.
    #[inline]
    pub fn lateral_tyre(&self) -> &MagicFormula {
        &self.lateral_tyre
    }
    /// Sets both curves to one from B, C, D, E (WheelCollider2's single curve). B, C and
    /// D clamp to ≥ 0; a curve that would not be a friction curve, or a non-finite
    /// coefficient, is refused and the old curves stay (see [`MagicFormula::new`]).
    pub fn set_tyre(&mut self, b: f32, c: f32, d: f32, e: f32) -> Result<&MagicFormula, SettingsError> {
        let mf = MagicFormula::new(b, c, d, e)?;
        self.lateral_tyre = mf.clone();
        self.longitudinal_tyre = mf;
        Ok(&self.longitudinal_tyre)
    }
    /// Sets the longitudinal curve alone (see [`set_tyre`](Self::set_tyre)).
    pub fn set_longitudinal_tyre(&mut self, b: f32, c: f32, d: f32, e: f32) -> Result<&MagicFormula, SettingsError> {
        self.longitudinal_tyre = MagicFormula::new(b, c, d, e)?;
        Ok(&self.longitudinal_tyre)
    }
    /// Sets the lateral curve alone (see [`set_tyre`](Self::set_tyre)); errors name
    /// the coefficients `lateral_b` … `lateral_e`.
    pub fn set_lateral_tyre(&mut self, b: f32, c: f32, d: f32, e: f32) -> Result<&MagicFormula, SettingsError> {
        self.lateral_tyre = MagicFormula::named(LATERAL_NAMES, b, c, d, e)?;
        Ok(&self.lateral_tyre)
    }

    float_setting!(
        /// Camber thrust (1/rad): the lateral force per unit load per radian of camber,
        /// 0 ..= 5 (passenger tyres ≈ 0.5–1). It enters the friction circle as an
        /// equivalent slip, so it saturates with the rest of the grip. Not in the
        /// original, which has no camber effect on forces.
        camber_thrust, set_camber_thrust, 0.0, 5.0
    );
    float_setting!(
        /// Camber's gain on the lateral peak, 0 ..= 0.5 (0: off, the original's): the
        /// peak lateral friction of a wheel leaning into its force by `γ` is
        /// `D · (1 + g · x · (2 − x))` with `x = γ / γ*` (`γ*` the
        /// [`camber_peak_angle`](Self::camber_peak_angle)), clamped to ≥ 0.25 of `D`:
        /// `1 + g` at the optimum, back to 1 at twice it, and below 1 when the wheel
        /// leans away (`1 − 3·g` at `−γ*`). The cornering stiffness is kept (the
        /// curve's B moves against the peak), so only the limit and the peak slip
        /// change. The law is the peak of the Magic Formula's lateral force with its
        /// camber terms, `D_y = μ_y·F_z·(1 − p_Dy3·γ²)` plus the vertical shift
        /// `S_Vy = F_z·p_Vy3·γ` (Pacejka, *Tire and Vehicle Dynamics*, 3rd ed., §4.3.2,
        /// MF 5.2), written with its optimum and gain: `p_Dy3 = g / γ*²`,
        /// `p_Vy3 = 2·g·μ_y / γ*`. Road tyres gain some 5–10 % at 3–5° (Milliken &
        /// Milliken, *Race Car Vehicle Dynamics*, ch. 2). See `docs/wheel-model.md` 3f.
        camber_peak_gain, set_camber_peak_gain, 0.0, 0.5
    );
    float_setting!(
        /// The camber (deg) at which the lateral peak is highest, leaning into the
        /// force, 0.5 ..= 30 (see [`camber_peak_gain`](Self::camber_peak_gain)).
        camber_peak_angle, set_camber_peak_angle, 0.5, 30.0
    );
    float_setting!(
        /// Rolling resistance coefficient (force / load), ≥ 0.
        rolling_resistance, set_rolling_resistance, 0.0, MAX_VALUE
    );
    float_setting!(
        /// Tyre load sensitivity, 0 ..= 1: how fast the friction coefficient falls as
        /// the load rises, the Magic Formula's linear law `μ(Fz) = μ · (1 − s · (Fz /
        /// Fz0 − 1))` (Pacejka's `p_Dx2`, `p_Dy2` with `s = −p_D2`) with `Fz0` the
        /// [`nominal_load`](Self::nominal_load), up to the load `Fz0 · (1 + s) / (2·s)`
        /// where the peak force `μ(Fz)·Fz` is greatest, and the force flat past it (see
        /// [`load_grip_factor`](Self::load_grip_factor)). Real tyres have 0.1–0.3. It
        /// is what makes a car's balance respond to its weight split and anti-roll bars:
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
        /// The load at which the tyre's slip stiffness peaks, in multiples of the
        /// [`nominal_load`](Self::nominal_load) (Pacejka's `p_Ky2`; real tyres 1.5–2.5),
        /// 0 ..= 10; 0 turns the law off (the stiffness is B·C·D × load, the original's).
        /// With it, both curves' slope at zero slip is
        /// `K(Fz) = B·C·D · Fz0 · sin(2·atan(Fz / (p·Fz0))) / sin(2·atan(1/p))`:
        /// B·C·D × load at the nominal load, rising ever more slowly above it and
        /// peaking at `p · Fz0`, so the stiffness per unit load falls with load (the
        /// Magic Formula's cornering-stiffness law with `p_Ky1`, `p_Ky2`: Pacejka, *Tire
        /// and Vehicle Dynamics*, 3rd ed., ch. 4). B moves with it (the peak
        /// slip too); the peak friction does not (that is
        /// [`load_sensitivity`](Self::load_sensitivity)).
        stiffness_peak_load, set_stiffness_peak_load, 0.0, 10.0
    );
    float_setting!(
        /// Longitudinal relaxation length (m), 0 ..= 10; 0 is off (the force follows
        /// the slip at once). The tyre's forward slip follows the wheel's with a lag of
        /// this much rolled distance (first order; 63 % after one length): passenger
        /// tyres ≈ 0.1–0.3 m. See `docs/wheel-model.md`.
        longitudinal_relaxation_length, set_longitudinal_relaxation_length, 0.0, 10.0
    );
    float_setting!(
        /// Lateral relaxation length (m), 0 ..= 10; 0 is off. Like the longitudinal
        /// one, for the sideways slip: passenger tyres ≈ 0.3–0.7 m (about the radius
        /// to twice it), race slicks less.
        lateral_relaxation_length, set_lateral_relaxation_length, 0.0, 10.0
    );
    float_setting!(
        /// Pneumatic trail at zero slip (m), 0 ..= 1: how far behind the contact centre
        /// the lateral force acts, which makes the self-aligning torque
        /// `Mz = t(σ) · Fy` with `t = t0 · max(0, 1 − |σ|/σ*)` (σ* the lateral peak
        /// slip): zero at zero slip, largest before the lateral force peaks, zero in a
        /// slide. About a sixth of the contact patch's length: 0.02–0.05 m on a car
        /// tyre. 0 (the original's) makes no torque.
        pneumatic_trail, set_pneumatic_trail, 0.0, 1.0
    );
    float_setting!(
        /// The slope of the line, seen from the front, from the contact patch to the
        /// suspension's instant centre (tan of the front-view swing-arm angle), −1 ..= 1;
        /// 0 (the original's) carries the lateral force into the body at the ground.
        /// For a pair of wheels it is the roll-centre height over half the track.
        /// The links then carry the tyre's lateral force into the body along that line:
        /// the body takes `slope · F` of it vertically, upwards on the wheel the force
        /// pushes towards the car's centreline, and so does the tyre's load (geometric
        /// load transfer and jacking; Milliken & Milliken, *Race Car Vehicle Dynamics*,
        /// §17.3). The body's roll moment falls to `F·(h_cg − h_rc)`. Positive puts the
        /// roll centre above the ground. See `docs/vehicle.md`, "Geometry"; the
        /// plugin's `vehicle::geometry` tests.
        roll_centre_slope, set_roll_centre_slope, -1.0, 1.0
    );
    float_setting!(
        /// The slope of the line, seen from the side, from the contact patch to the
        /// instant centre that carries a braking force (tan of the side-view swing-arm
        /// angle), −1 ..= 1; 0 (the original's) carries it at the ground. Like
        /// [`roll_centre_slope`](Self::roll_centre_slope) along the car: the body takes
        /// `slope · F` vertically, against the pitch (anti-dive on a wheel ahead of the
        /// centre of mass, anti-lift behind it). A force counts as braking when it
        /// opposes the wheel's travel. A vehicle sets it from its axle's
        /// `anti_dive` (Milliken §17.4).
        brake_pitch_slope, set_brake_pitch_slope, -1.0, 1.0
    );
    float_setting!(
        /// As [`brake_pitch_slope`](Self::brake_pitch_slope), for a longitudinal force
        /// along the wheel's travel (driving): anti-squat behind the centre of mass,
        /// anti-lift ahead of it. A vehicle sets it from its axle's `anti_squat`.
        drive_pitch_slope, set_drive_pitch_slope, -1.0, 1.0
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
        let p2 = (self.stiffness_peak_load as f64).powi(2);
        let r = load.max(0.0) / self.nominal_load as f64;
        ((p2 + 1.0) / (p2 + r * r) / grip()).clamp(0.01, 100.0)
    }

    /// The longitudinal friction coefficient at slip `slip` and tyre load `load` (N),
    /// grip 1: the curve with the load's stiffness law and load sensitivity.
    pub fn longitudinal_friction(&self, slip: f32, load: f64) -> f32 {
        let b = self.load_stiffness_factor(load) as f32;
        let (mu, _) = self.longitudinal_tyre.eval_scaled(slip.abs() as f64, b);
        (mu * self.load_grip_factor(load)).copysign(slip as f64) as f32
    }

    /// The magnitude of a locked wheel's forward slip at ground speed `v` (m/s):
    /// `|v| / max(|v|, floor)`, the floor 10 m/s, or 2 m/s with a longitudinal
    /// relaxation length (see [`StepOutput::forward_slip`](crate::StepOutput::forward_slip)).
    pub fn locked_slip(&self, v: f32) -> f32 {
        v.abs()
            / v.abs()
                .max(crate::tyre::slip_floor(self.longitudinal_relaxation_length, false))
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
    fn stiffness_at(&self, curve: &MagicFormula, load: f64) -> f64 {
        curve.stiffness() as f64 * load.max(0.0) * self.load_grip_factor(load) * self.load_stiffness_factor(load)
    }

    /// The longitudinal curve's peak slip as set (see [`MagicFormula::peak_slip`]);
    /// [`StepOutput::peak_slip`](crate::StepOutput::peak_slip) has it at the load.
    #[inline]
    pub fn peak_slip(&self) -> f32 {
        self.longitudinal_tyre.peak_slip()
    }
}
