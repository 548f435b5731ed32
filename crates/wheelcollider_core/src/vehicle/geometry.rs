//! An axle's geometry and compliance (roll and compliance steer, roll centre,
//! anti-dive and anti-squat): each field of [`AxleSettings`] that is left unset takes
//! the value typical of the axle's role, so a car typed from its spec sheet handles
//! like a road car (`docs/vehicle.md`, "Defaults by role").

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

    /// `axle`'s geometry: each field as set, or [`typical`](Self::typical) for `role`.
    pub fn of(axle: &AxleSettings, role: AxleRole) -> Self {
        let typical = Self::typical(role, axle.driven);
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
        if self.axles[axle].z < self.chassis.center_of_mass[2] {
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
