//! An axle's geometry and compliance (roll and compliance steer, roll centre,
//! anti-dive and anti-squat): each field of [`AxleSettings`] that is left unset takes
//! the value typical of the axle's suspension ([`AxleSuspension`]) and role, so a car
//! typed from its spec sheet handles like a road car and a truck like a truck
//! (`docs/vehicle.md`, "Defaults by role and kind").

use super::{AxleSettings, VehicleSettings};

/// Where an axle sits: ahead of the centre of mass (front) or not (rear). It picks the
/// typical geometry an axle's unset fields take ([`AxleGeometry::typical`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AxleRole {
    /// Ahead of the centre of mass.
    Front,
    /// At or behind the centre of mass.
    Rear,
}

/// What kind of suspension an axle has: it picks the typical geometry its unset fields
/// take ([`AxleGeometry::typical`]), with the axle's role. The sources of each kind's
/// figures: `docs/vehicle.md`, "Defaults by role and kind".
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub enum AxleSuspension {
    /// A road car's independent suspension: a MacPherson strut at the front, a
    /// multi-link axle at the rear.
    #[default]
    Independent,
    /// A rigid beam axle on leaf or air springs (trucks, buses, semi-trailers): its roll
    /// centre at the springs' seats, well above the wheels' centres; its compliance steer
    /// in proportion to the axle's rated load.
    Beam,
    /// A trailer's rubber torsion axle: independent trailing arms, their pivots square
    /// to the trailer, so no roll steer and a roll centre at the ground.
    Torsion,
}

/// The lateral force, as a share of a wheel's rated load ([`WheelSettings::nominal_load`](crate::WheelSettings::nominal_load)),
/// at which a beam axle's compliance steers its wheel 1°, steer axle (deg per unit of
/// `F_y / F_z,rated`): an estimate, giving a truck a compliance understeer of about
/// 1 deg/g, a quarter of its 4 deg/g reference.
pub const BEAM_COMPLIANCE: f32 = 1.0;

/// The largest lateral-force compliance steer an axle may have (deg/kN), either way
/// ([`AxleSettings::compliance_steer`]'s range).
const MAX_COMPLIANCE_STEER: f32 = 2.0;

/// An axle's geometry and compliance with every field resolved (see the fields of
/// [`AxleSettings`] of the same names for their meaning, units and ranges).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AxleGeometry {
    /// Roll steer (deg of toe per deg of body roll).
    pub roll_steer: f32,
    /// Lateral-force compliance steer (deg per kN of the wheel's lateral force).
    pub compliance_steer: f32,
    /// The roll centre's height above the ground (m).
    pub roll_centre_height: f32,
    /// Anti-dive (%; on a rear axle, anti-lift under braking).
    pub anti_dive: f32,
    /// Anti-squat (%; on a front axle, anti-lift under drive); 0 on an undriven axle.
    pub anti_squat: f32,
}

impl AxleGeometry {
    /// The geometry typical of a road car's axle in `role`, `driven` or not: a
    /// MacPherson strut at the front, a multi-link axle at the rear, each value inside
    /// the range its source gives for road cars (the table and its sources:
    /// `docs/vehicle.md`, "Defaults by role"; `wheelcollider_track`'s
    /// `a_spec_sheet_car_with_default_geometry_handles_like_a_road_car`). Anti-squat is
    /// 0 on an undriven axle.
    pub fn typical(role: AxleRole, driven: bool) -> Self {
        Self::typical_of(AxleSuspension::Independent, role, driven, 4000.0)
    }

    /// The geometry typical of an axle of `kind` in `role`, `driven` or not, its wheels
    /// rated for `rated_load` (N, which scales a beam axle's compliance steer). An
    /// [`Independent`](AxleSuspension::Independent) axle's is [`typical`](Self::typical);
    /// a [`Beam`](AxleSuspension::Beam) axle's roll centre sits 0.65 m up (beam and
    /// air-suspended truck axles measure 0.5–0.9 m: Gillespie, *Fundamentals of Vehicle
    /// Dynamics*, ch. 7; UMTRI's truck data), it steers
    /// [`BEAM_COMPLIANCE`]° at a lateral force of the rated load on a steer axle and none
    /// on the others, with a little roll understeer behind the centre of mass (0.05
    /// deg/deg) and no anti-dive or anti-squat (leaf and air springs on trailing arms
    /// give little: an estimate); a [`Torsion`](AxleSuspension::Torsion) axle has none
    /// of these and its roll centre at the ground.
    pub fn typical_of(kind: AxleSuspension, role: AxleRole, driven: bool, rated_load: f32) -> Self {
        match kind {
            AxleSuspension::Independent => {}
            AxleSuspension::Beam => {
                // Held to the field's own range (2 deg/kN): a wheel rated for under
                // 0.5 kN would otherwise read a compliance no setting may have.
                let rated_kn = (rated_load / 1000.0).max(BEAM_COMPLIANCE / MAX_COMPLIANCE_STEER);
                return Self {
                    roll_steer: if role == AxleRole::Front { 0.0 } else { 0.05 },
                    compliance_steer: if role == AxleRole::Front {
                        BEAM_COMPLIANCE / rated_kn
                    } else {
                        0.0
                    },
                    roll_centre_height: 0.65,
                    anti_dive: 0.0,
                    anti_squat: 0.0,
                };
            }
            AxleSuspension::Torsion => {
                return Self {
                    roll_steer: 0.0,
                    compliance_steer: 0.0,
                    roll_centre_height: 0.0,
                    anti_dive: 0.0,
                    anti_squat: 0.0,
                };
            }
        }
        match role {
            AxleRole::Front => Self {
                roll_steer: -0.05,
                compliance_steer: 0.25,
                roll_centre_height: 0.08,
                anti_dive: 15.0,
                anti_squat: if driven { 10.0 } else { 0.0 },
            },
            AxleRole::Rear => Self {
                roll_steer: 0.10,
                compliance_steer: -0.05,
                roll_centre_height: 0.10,
                anti_dive: 10.0,
                anti_squat: if driven { 30.0 } else { 0.0 },
            },
        }
    }

    /// `axle`'s geometry: each field as set, or [`typical_of`](Self::typical_of) its
    /// suspension in `role`.
    pub fn of(axle: &AxleSettings, role: AxleRole) -> Self {
        let typical = Self::typical_of(axle.suspension, role, axle.driven, axle.wheel.nominal_load());
        Self {
            roll_steer: axle.roll_steer.unwrap_or(typical.roll_steer),
            compliance_steer: axle.compliance_steer.unwrap_or(typical.compliance_steer),
            roll_centre_height: axle.roll_centre_height.unwrap_or(typical.roll_centre_height),
            anti_dive: axle.anti_dive.unwrap_or(typical.anti_dive),
            anti_squat: axle.anti_squat.unwrap_or(typical.anti_squat),
        }
    }
}

impl VehicleSettings {
    /// `axle`'s role: front when it sits ahead of the centre of mass (its `z` below the
    /// centre of mass' `z`), else rear.
    pub fn axle_role(&self, axle: usize) -> AxleRole {
        if self.axles[axle].z < self.chassis.centre_of_mass[2] {
            AxleRole::Front
        } else {
            AxleRole::Rear
        }
    }

    /// `axle`'s geometry and compliance, its unset fields resolved by its role
    /// ([`AxleGeometry::of`]).
    pub fn axle_geometry(&self, axle: usize) -> AxleGeometry {
        AxleGeometry::of(&self.axles[axle], self.axle_role(axle))
    }
}
