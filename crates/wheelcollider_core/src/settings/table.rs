//! The one declaration of every number setting of a wheel: its doc, unit, default,
//! limit, the inspector's group, label and range, and whether a file leaves it out at
//! 0. Everything else about a setting (field, getter, setter, file form, reset, the
//! [`Row`](crate::Row)) is written from here by [`declare_wheel_settings!`]. The order
//! is the file form's and the inspector's.
//!
//! The defaults are Unity WheelCollider2's wheel: one curve for both directions, no load
//! dependence, no relaxation, no aligning torque. The shipped presets turn them on.

use super::declare::{SettingGroup, declare_wheel_settings};
use super::{CurveDef, SuspensionForceDirection, SweepType};
use crate::limits::{MAX_DAMPING, MAX_SPRING, MAX_VALUE, SettingsError, check};
use crate::rows::Row;
use crate::thermal::TyreCompound;
use crate::tyre::TyreCurve;

declare_wheel_settings! {
    /// Tyre radius.
    radius, set_radius {
        label: "radius", unit: "m", group: Geometry, default: 0.3,
        limit: (0.001, MAX_VALUE), range: (0.05, 2.0), step: 0.002,
    }
    /// Tyre width; used by the cylinder sweep.
    width, set_width {
        label: "width", unit: "m", group: Geometry, default: 0.2,
        limit: (0.001, MAX_VALUE), range: (0.02, 1.0), step: 0.002,
    }
    /// The radius of the tyre's cross-section at its crown, `ρ` (0, the default: a knife
    /// edge, the original's). A ray wheel leaning by `γ` against the ground stands on the
    /// side of its crown: its centre rides `ρ·(1 − cos γ)` higher than a knife edge's,
    /// and its contact, where the forces act, moves about `ρ·sin γ` across the tread
    /// towards the lean. That is a motorcycle tyre's round crown (about half its width),
    /// which deepens the lean a turn needs (Cossalter, *Motorcycle Dynamics*, 2nd ed.,
    /// §1.3). Read by the ray sweep only: a sphere's crown is its radius, a cylinder's
    /// tread is flat. Clamped to the radius where it is read.
    crown_radius, set_crown_radius {
        label: "crown radius", unit: "m", group: Geometry, default: 0.0,
        limit: (0.0, MAX_VALUE), range: (0.0, 0.5), step: 0.001,
        omit: "is_zero",
    }
    /// Moment of inertia of the wheel about its axle.
    inertia, set_inertia {
        label: "inertia", unit: "kg·m²", group: Geometry, default: 1.0,
        limit: (0.001, MAX_VALUE), range: (0.001, 50.0), step: 0.01,
    }

    /// Suspension spring rate ([`MAX_SPRING`] at most).
    suspension_spring, set_suspension_spring {
        label: "spring", unit: "N/m", group: Suspension, default: 40_000.0,
        limit: (0.0, MAX_SPRING), range: (0.0, MAX_SPRING), step: 100.0,
    }
    /// Damping while the suspension compresses ([`MAX_DAMPING`] at most).
    suspension_bump, set_suspension_bump {
        label: "bump damping", unit: "N·s/m", group: Suspension, default: 2_000.0,
        limit: (0.0, MAX_DAMPING), range: (0.0, MAX_DAMPING), step: 20.0,
    }
    /// Damping while the suspension extends ([`MAX_DAMPING`] at most).
    suspension_rebound, set_suspension_rebound {
        label: "rebound damping", unit: "N·s/m", group: Suspension, default: 2_000.0,
        limit: (0.0, MAX_DAMPING), range: (0.0, MAX_DAMPING), step: 20.0,
    }
    /// Suspension travel. At full droop the wheel centre sits this far below the mount
    /// point; at full compression it sits at the mount point, where the bump stop takes
    /// over.
    suspension_length, set_suspension_length {
        label: "travel", unit: "m", group: Suspension, default: 0.1,
        limit: (0.001, MAX_VALUE), range: (0.005, 1.0), step: 0.002,
    }
    /// The spring's force at full droop: the spring pushes `rate · compression +
    /// preload` (never pulls). A positive preload is what a coilover's perch sets: the
    /// car sits at the same height whatever the rate, and the wheel starts to compress
    /// only when its load passes the preload. Near full droop, over the first
    /// [`PRELOAD_RELEASE`](super::PRELOAD_RELEASE) of the travel, the preload eases to 0
    /// (the droop stop's rubber), so that a wheel unloading to full droop leaves the
    /// ground without a jump of force. A negative one leaves the spring free (no force)
    /// over the first `−preload / rate` of travel. A vehicle sets it from its axle's
    /// `ride_height`. See [`spring_law`](Self::spring_law).
    spring_preload, set_spring_preload {
        label: "preload", unit: "N", group: Suspension, default: 0.0,
        limit: (-MAX_SPRING, MAX_SPRING), range: (-1.0e5, 1.0e5), step: 10.0,
        omit: "is_zero",
    }
    /// How far before full travel a bump rubber starts; 0 is off. From there to full
    /// travel the spring rate rises by [`bump_rubber_rate`](Self::bump_rubber_rate) (a
    /// progressive stop); the rigid bump stop still acts at full travel.
    bump_rubber_gap, set_bump_rubber_gap {
        label: "bump rubber gap", unit: "m", group: Suspension, default: 0.0,
        limit: (0.0, 10.0), range: (0.0, 1.0), step: 0.002,
        omit: "is_zero",
    }
    /// The bump rubber's rate, added to the spring's over the last
    /// [`bump_rubber_gap`](Self::bump_rubber_gap) of the travel.
    bump_rubber_rate, set_bump_rubber_rate {
        label: "bump rubber rate", unit: "N/m", group: Suspension, default: 0.0,
        limit: (0.0, MAX_SPRING), range: (0.0, MAX_SPRING), step: 100.0,
        omit: "is_zero",
    }
    /// The steepest surface the wheel stands on: the largest angle between a hit's
    /// normal and the suspension axis that counts as ground. A steeper hit (a wall, a
    /// kerb's face, another car's side) is not ground: the sweep passes it by and looks
    /// for ground beyond, and the wheel pushes nothing against it (the chassis' own
    /// collider meets walls). Default 60°, like a steep ramp a car still climbs; Jolt's
    /// vehicle has the same limit (`mMaxSlopeAngle`, 80° by default).
    max_ground_angle, set_max_ground_angle {
        label: "max ground angle", unit: "deg", group: Suspension, default: 60.0,
        limit: (0.0, 89.0), range: (0.0, 89.0), step: 0.5,
    }

    /// Static camber. Positive tilts the top of the wheel towards its local −X (left);
    /// as in the original, mirror the sign on the right side of the car (a preset's axle
    /// does this for you).
    camber_angle, set_camber_angle {
        label: "camber", unit: "deg", group: Alignment, default: 0.0,
        limit: (-45.0, 45.0), range: (-45.0, 45.0), step: 0.05,
    }
    /// Static toe: a yaw of the wheel about the suspension axis, added to the steer
    /// angle. As in the original, mirror the sign on the right.
    toe_angle, set_toe_angle {
        label: "toe", unit: "deg", group: Alignment, default: 0.0,
        limit: (-45.0, 45.0), range: (-45.0, 45.0), step: 0.02,
    }
    /// Camber gain per metre of compression, in the wheel's convention (see
    /// [`camber_angle`](Self::camber_angle)): the camber at compression `x` is
    /// `camber_angle + camber_gain · (x − alignment_compression)` against the body. The
    /// body's roll adds to it against the ground, so a car's roll camber follows from
    /// this and the track. Double wishbones gain some −20 … −40 deg/m of negative camber
    /// in bump, a MacPherson strut about −10 (Milliken & Milliken, *Race Car Vehicle
    /// Dynamics*, §17.2). A vehicle mirrors it with the camber.
    camber_gain, set_camber_gain {
        label: "camber gain", unit: "deg/m", group: Alignment, default: 0.0,
        limit: (-500.0, 500.0), range: (-200.0, 200.0), step: 0.5,
        omit: "is_zero",
    }
    /// Bump steer, degrees of toe per metre of compression, in the wheel's convention
    /// (see [`toe_angle`](Self::toe_angle)): the toe at compression `x` is `toe_angle +
    /// bump_steer · (x − alignment_compression)`. A vehicle mirrors it with the toe (its
    /// axle's positive bump steer toes in on bump).
    bump_steer, set_bump_steer {
        label: "bump steer", unit: "deg/m", group: Alignment, default: 0.0,
        limit: (-500.0, 500.0), range: (-200.0, 200.0), step: 0.5,
        omit: "is_zero",
    }
    /// Camber thrust: the lateral force per unit load per radian of camber (passenger
    /// tyres ≈ 0.5–1). It enters the friction circle as an equivalent slip, so it
    /// saturates with the rest of the grip. Not in the original, which has no camber
    /// effect on forces.
    camber_thrust, set_camber_thrust {
        label: "camber thrust", unit: "1/rad", group: Alignment, default: 0.5,
        limit: (0.0, 5.0), range: (0.0, 5.0), step: 0.01,
    }
    /// Camber's gain on the lateral peak (0: off, the original's): the peak lateral
    /// friction of a wheel leaning into its force by `γ` is `D · (1 + g · x · (2 − x))`
    /// with `x = γ / γ*` (`γ*` the [`camber_peak_angle`](Self::camber_peak_angle)),
    /// clamped to ≥ 0.25 of `D`: `1 + g` at the optimum, back to 1 at twice it, and
    /// below 1 when the wheel leans away (`1 − 3·g` at `−γ*`). The cornering stiffness
    /// is kept (the curve's B moves against the peak), so only the limit and the peak
    /// slip change. The law is the peak of the Magic Formula's lateral force with its
    /// camber terms, `D_y = μ_y·F_z·(1 − p_Dy3·γ²)` plus the vertical shift `S_Vy =
    /// F_z·p_Vy3·γ` (Pacejka, *Tire and Vehicle Dynamics*, 3rd ed., §4.3.2, MF 5.2),
    /// written with its optimum and gain: `p_Dy3 = g / γ*²`, `p_Vy3 = 2·g·μ_y / γ*`. Road
    /// tyres gain some 5–10 % at 3–5° (Milliken & Milliken, *Race Car Vehicle
    /// Dynamics*, ch. 2). See `docs/wheel-model.md` 3f.
    camber_peak_gain, set_camber_peak_gain {
        label: "camber peak gain", unit: "", group: Alignment, default: 0.0,
        limit: (0.0, 0.5), range: (0.0, 0.5), step: 0.005,
    }
    /// The camber at which the lateral peak is highest, leaning into the force (see
    /// [`camber_peak_gain`](Self::camber_peak_gain)).
    camber_peak_angle, set_camber_peak_angle {
        label: "camber peak angle", unit: "deg", group: Alignment, default: 4.0,
        limit: (0.5, 30.0), range: (0.5, 30.0), step: 0.1,
    }
    /// How much of the tyre's grip its camber takes: the peak friction is scaled by
    /// `1 − k·(1 − cos γ)`. 1 (the default): a car tyre's flat tread, whose patch lifts
    /// an edge as the wheel leans, so the grip falls as `cos γ`; 0: a motorcycle tyre's
    /// round crown, whose patch rolls across the tread and keeps its grip to the
    /// shoulder (Cossalter, *Motorcycle Dynamics*, ch. 2; Pacejka, *Tire and Vehicle
    /// Dynamics*, ch. 11). `two_wheeler::motorcycle`'s deep lean is the coupled test.
    camber_grip_loss, set_camber_grip_loss {
        label: "camber grip loss", unit: "", group: Alignment, default: 1.0,
        limit: (0.0, 1.0), range: (0.0, 1.0), step: 0.01,
    }

    /// Tyre load sensitivity: how fast the friction coefficient falls as the load
    /// rises, the Magic Formula's linear law `μ(Fz) = μ · (1 − s · (Fz / Fz0 − 1))`
    /// (Pacejka's `p_Dx2`, `p_Dy2` with `s = −p_D2`) with `Fz0` the
    /// [`nominal_load`](Self::nominal_load), up to the load `Fz0 · (1 + s) / (2·s)` where
    /// the peak force `μ(Fz)·Fz` is greatest, and the force flat past it (see
    /// [`load_grip_factor`](Self::load_grip_factor)). Real tyres have 0.1–0.3. It is what
    /// makes a car's balance respond to its weight split and anti-roll bars: with 0 (the
    /// original's behaviour) each tyre's force is proportional to its load, and moving
    /// load across an axle leaves the axle's grip unchanged.
    load_sensitivity, set_load_sensitivity {
        label: "load sensitivity", unit: "", group: Tyre, default: 0.0,
        limit: (0.0, 1.0), range: (0.0, 1.0), step: 0.01,
    }
    /// The load at which the tyre has the friction coefficient of its curve (`Fz0` of
    /// [`load_sensitivity`](Self::load_sensitivity)): the tyre's rated load, the same for
    /// every tyre of one type on a car (about the heavier axle's static corner load).
    nominal_load, set_nominal_load {
        label: "nominal load", unit: "N", group: Tyre, default: 4_000.0,
        limit: (1.0, MAX_VALUE), range: (1.0, 50_000.0), step: 10.0,
    }
    /// The load at which the tyre's slip stiffness peaks, in multiples of the
    /// [`nominal_load`](Self::nominal_load) (Pacejka's `p_Ky2`; real tyres 1.5–2.5); 0
    /// turns the law off (the stiffness is B·C·D × load, the original's). With it, both
    /// curves' slope at zero slip is `K(Fz) = B·C·D · Fz0 · sin(2·atan(Fz / (p·Fz0))) /
    /// sin(2·atan(1/p))`: B·C·D × load at the nominal load, rising ever more slowly above
    /// it and peaking at `p · Fz0`, so the stiffness per unit load falls with load (the
    /// Magic Formula's cornering-stiffness law with `p_Ky1`, `p_Ky2`: Pacejka, *Tire and
    /// Vehicle Dynamics*, 3rd ed., ch. 4). B moves with it (the peak slip too); the peak
    /// friction does not (that is [`load_sensitivity`](Self::load_sensitivity)).
    stiffness_peak_load, set_stiffness_peak_load {
        label: "stiffness peak load (0 off)", unit: "× nominal load", group: Tyre, default: 0.0,
        limit: (0.0, 10.0), range: (0.0, 10.0), step: 0.01,
    }
    /// Longitudinal relaxation length; 0 is off (the force follows the slip at once).
    /// The tyre's forward slip follows the wheel's with a lag of this much rolled
    /// distance (first order; 63 % after one length): passenger tyres ≈ 0.1–0.3 m. See
    /// `docs/wheel-model.md`.
    longitudinal_relaxation_length, set_longitudinal_relaxation_length {
        label: "relaxation, longitudinal", unit: "m", group: Tyre, default: 0.0,
        limit: (0.0, 10.0), range: (0.0, 10.0), step: 0.005,
    }
    /// Lateral relaxation length; 0 is off. Like the longitudinal one, for the sideways
    /// slip: passenger tyres ≈ 0.3–0.7 m (about the radius to twice it), race slicks
    /// less.
    lateral_relaxation_length, set_lateral_relaxation_length {
        label: "relaxation, lateral", unit: "m", group: Tyre, default: 0.0,
        limit: (0.0, 10.0), range: (0.0, 10.0), step: 0.005,
    }
    /// Pneumatic trail at zero slip: how far behind the contact centre the lateral force
    /// acts, which makes the self-aligning torque `Mz = t(σ) · Fy` with `t = t0 · max(0,
    /// 1 − |σ|/σ*)` (σ* the lateral peak slip): zero at zero slip, largest before the
    /// lateral force peaks, zero in a slide. About a sixth of the contact patch's length:
    /// 0.02–0.05 m on a car tyre. 0 (the original's) makes no torque.
    pneumatic_trail, set_pneumatic_trail {
        label: "pneumatic trail", unit: "m", group: Tyre, default: 0.0,
        limit: (0.0, 1.0), range: (0.0, 1.0), step: 0.001,
    }
    /// Rolling resistance coefficient (force / load).
    rolling_resistance, set_rolling_resistance {
        label: "rolling resistance", unit: "", group: Tyre, default: 0.015,
        limit: (0.0, MAX_VALUE), range: (0.0, 1.0), step: 0.001,
    }
    /// The rolling resistance coefficient's rise with the square of the road speed:
    /// `f = rolling_resistance + c·v²` ([`WheelSettings::rolling_coefficient`]). Wong,
    /// *Theory of Ground Vehicles*, 4th ed., eq. 1.8, for radial-ply car tyres:
    /// `0.0136 + 0.40·10⁻⁷·V²` with `V` in km/h, `c` = 5.2·10⁻⁷ s²/m². 0 (the
    /// original's) keeps it constant.
    rolling_resistance_speed, set_rolling_resistance_speed {
        label: "rolling resistance at speed", unit: "s²/m²", group: Tyre, default: 0.0,
        limit: (0.0, 1.0e-3), range: (0.0, 5.0e-6), step: 1.0e-8,
    }

    /// Height of the Perlin road roughness: the bump spans [−amplitude/2, +amplitude/2].
    bump_amplitude, set_bump_amplitude {
        label: "bump amplitude", unit: "m", group: Roughness, default: 0.0,
        limit: (0.0, MAX_VALUE), range: (0.0, 0.5), step: 0.001,
    }
    /// Spatial frequency of the Perlin roughness: bigger is finer.
    bump_period, set_bump_period {
        label: "bump period", unit: "1/m", group: Roughness, default: 0.0,
        limit: (0.0, MAX_VALUE), range: (0.0, 10.0), step: 0.01,
    }

    /// The compression at which [`camber_angle`](Self::camber_angle) and
    /// [`toe_angle`](Self::toe_angle) hold: the alignment's design position. A vehicle
    /// sets it to its axle's static compression.
    alignment_compression, set_alignment_compression {
        label: "alignment compression", unit: "m", group: Axle, default: 0.0,
        limit: (0.0, 10.0), range: (0.0, 1.0), step: 0.002,
        omit: "is_zero",
    }
    /// The slope of the line, seen from the front, from the contact patch to the
    /// suspension's instant centre (tan of the front-view swing-arm angle); 0 (the
    /// original's) carries the lateral force into the body at the ground. For a pair of
    /// wheels it is the roll-centre height over half the track. The links then carry
    /// the tyre's lateral force into the body along that line: the body takes `slope ·
    /// F` of it vertically, upwards on the wheel the force pushes towards the car's
    /// centreline, and so does the tyre's load (geometric load transfer and jacking;
    /// Milliken & Milliken, *Race Car Vehicle Dynamics*, §17.3). The body's roll moment
    /// falls to `F·(h_cg − h_rc)`. Positive puts the roll centre above the ground. See
    /// `docs/vehicle.md`, "Geometry"; the plugin's `vehicle::geometry` tests.
    roll_centre_slope, set_roll_centre_slope {
        label: "roll centre slope", unit: "", group: Axle, default: 0.0,
        limit: (-1.0, 1.0), range: (-1.0, 1.0), step: 0.005,
        omit: "is_zero",
    }
    /// The slope of the line, seen from the side, from the contact patch to the instant
    /// centre that carries a braking force (tan of the side-view swing-arm angle); 0
    /// (the original's) carries it at the ground. Like
    /// [`roll_centre_slope`](Self::roll_centre_slope) along the car: the body takes
    /// `slope · F` vertically, against the pitch (anti-dive on a wheel ahead of the
    /// centre of mass, anti-lift behind it). A force counts as braking when it opposes
    /// the wheel's travel. A vehicle sets it from its axle's `anti_dive` (Milliken
    /// §17.4).
    brake_pitch_slope, set_brake_pitch_slope {
        label: "brake pitch slope", unit: "", group: Axle, default: 0.0,
        limit: (-1.0, 1.0), range: (-1.0, 1.0), step: 0.005,
        omit: "is_zero",
    }
    /// As [`brake_pitch_slope`](Self::brake_pitch_slope), for a longitudinal force along
    /// the wheel's travel (driving): anti-squat behind the centre of mass, anti-lift
    /// ahead of it. A vehicle sets it from its axle's `anti_squat`.
    drive_pitch_slope, set_drive_pitch_slope {
        label: "drive pitch slope", unit: "", group: Axle, default: 0.0,
        limit: (-1.0, 1.0), range: (-1.0, 1.0), step: 0.005,
        omit: "is_zero",
    }
}

/// Whether a number is 0, so that a file leaves it out (a vehicle's axles set these).
#[cfg(feature = "serde")]
fn is_zero(v: &f32) -> bool {
    *v == 0.0
}
