/// Aerodynamic drag, downforce (or lift) and drag's pitch moment.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default, deny_unknown_fields))]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct AeroSettings {
    /// Air density ρ (kg/m³), ≥ 0; 1.225 at sea level.
    pub air_density: f32,
    /// Drag coefficient Cd (dimensionless), ≥ 0.
    pub drag_coefficient: f32,
    /// Frontal area A (m²), ≥ 0.
    pub frontal_area: f32,
    /// Downforce on the first axle as coefficient × area (m²), −1000 ..= 1000:
    /// `F = ½·ρ·value·v²` pushing the axle down; negative is lift (a road car's
    /// body lifts at speed, the rear more: −0.05 … −0.2 m² between the axles).
    pub downforce_front: f32,
    /// The same on the last axle (m²), −1000 ..= 1000.
    pub downforce_rear: f32,
    /// Height of the centre of pressure above the centre of mass (m), clamped to
    /// ±the chassis' height: the drag acts there, so a centre of pressure above the
    /// centre of mass pitches the nose up (unloads the front) by `drag · height`.
    /// 0 (the default) puts the drag through the centre of mass.
    pub pressure_height: f32,
}

impl Default for AeroSettings {
    fn default() -> Self {
        Self {
            air_density: 1.225,
            drag_coefficient: 0.32,
            frontal_area: 2.2,
            downforce_front: 0.0,
            downforce_rear: 0.0,
            pressure_height: 0.0,
        }
    }
}

impl AeroSettings {
    /// ½·ρ·Cd·A (kg/m): drag = this · v².
    pub fn drag_factor(&self) -> f32 {
        0.5 * self.air_density * self.drag_coefficient * self.frontal_area
    }

    /// Downforce on the first and last axle (N, negative lifting) at forward speed `v`
    /// (m/s).
    pub fn downforce(&self, v: f32) -> [f32; 2] {
        let q = 0.5 * self.air_density * v * v;
        [q * self.downforce_front, q * self.downforce_rear]
    }
}
