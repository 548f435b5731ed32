//! Ground surfaces: a [`WheelSurface`] on a collider (or its rigid body) scales the
//! tyre's grip (the curve's peak) and its stiffness (the curve's slope), adds rolling
//! resistance and its own Perlin roughness. Without one, ground is asphalt.
//!
//! The grip scales the peak friction and leaves the tyre's slip and cornering
//! stiffness as they are (Pacejka's `λμ` scales D, not the slope), so the peak slip
//! falls with the grip: on ice a car answers the wheel as sharply as on asphalt and
//! lets go ten times sooner. A loose surface also softens the tyre (`stiffness` below
//! 1): gravel's peak comes later and flatter. The values below are estimates for a
//! road tyre; see `docs/wheel-model.md` 3e.

use bevy::prelude::*;
use wheelcollider_core::Row;
use wheelcollider_core::bumps::perlin_bump;
use wheelcollider_core::thermal::Ambient;

/// The rows of [`WheelSurface::FLOATS`], one per field, in the rows' keyword grammar.
macro_rules! surface_rows {
    ($($name:ident {
        label: $label:literal, unit: $unit:literal,
        limit: ($min:expr, $max:expr), range: ($lo:expr, $hi:expr), step: $step:expr $(,)?
    })*) => {
        [$(wheelcollider_core::field_row!(
            WheelSurface, $name, $label, $unit, (), ($min, $max), ($lo, $hi), $step
        )),*]
    };
}

/// A ground surface: put it on a collider (or its rigid body). Wheels on it scale their
/// tyre grip, add rolling resistance and the surface's own roughness.
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
#[reflect(Component)]
#[cfg_attr(feature = "serialize", serde(default, deny_unknown_fields))]
pub struct WheelSurface {
    /// Multiplier on the tyre curve's peak friction (1 = asphalt), 0 ..= 100. The
    /// slope at zero slip does not change with it (Pacejka's `λμ` scales D, not the slope:
    /// on ice a car answers the wheel as sharply as on asphalt and lets go sooner).
    pub grip: f32,
    /// Multiplier on the tyre's slip and cornering stiffness (1 = asphalt),
    /// 0.01 ..= 10: the peak slip moves by `grip / stiffness`.
    pub stiffness: f32,
    /// How fast the grip fades with the tyre's sliding speed (s/m), 0 ..= 1: the grip
    /// times `e^(−speed_fade · v_slide)` (Burckhardt's speed term; a locked wheel's
    /// sliding speed is the car's). 0: the tyre's own curve at every speed.
    pub speed_fade: f32,
    /// Rolling-resistance coefficient added to the tyre's own, ≥ 0.
    pub rolling_resistance: f32,
    /// Height of the surface's Perlin roughness, peak to peak (m), ≥ 0.
    pub bump_amplitude: f32,
    /// Spatial frequency of the roughness (1/m), > 0.
    pub bump_period: f32,
    /// What the ground is made of: what it sounds like under a tyre and which effects
    /// (smoke or dust) it raises. The physics does not read it.
    pub material: SurfaceMaterial,
    /// How much warmer this surface is than the [`Weather`]'s track (°C; a wet road or
    /// grass is cooler), −100 ..= 100. Read only by tyres with a compound.
    pub temperature_offset: f32,
    /// The factor on the conduction from the tread into this surface (1 = dry road; a
    /// water film ≈ 3), 0 ..= 100. Read only by tyres with a compound.
    pub road_cooling: f32,
}

/// The air's and the road's temperature for every tyre with a compound (see
/// [`wheelcollider_core::thermal`]): a resource; without it 20 °C air over a 25 °C
/// road. A [`WheelSurface`] moves the road's by its `temperature_offset`.
#[derive(Resource, Reflect, Clone, Copy, Debug, PartialEq)]
#[reflect(Resource)]
pub struct Weather {
    /// Air temperature (°C).
    pub air: f32,
    /// Dry road temperature (°C) in the sun: asphalt runs 5–25 K over the air.
    pub track: f32,
}

impl Default for Weather {
    fn default() -> Self {
        let a = Ambient::default();
        Self {
            air: a.air,
            track: a.track,
        }
    }
}

impl Weather {
    /// The ambient a tyre on `surface` (asphalt when `None`) sees.
    pub fn ambient(&self, surface: Option<&WheelSurface>) -> Ambient {
        let (offset, cooling) = surface.map_or((0.0, 1.0), |s| (s.temperature_offset, s.road_cooling));
        Ambient {
            air: self.air,
            track: self.track + offset,
            road_cooling: cooling,
        }
    }
}

/// What a ground is made of, for sound and effects (the tyre's grip comes from the
/// numbers of [`WheelSurface`], not from this).
#[derive(Reflect, Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub enum SurfaceMaterial {
    /// Asphalt or concrete: tyre hiss and squeal, smoke.
    #[default]
    Asphalt,
    /// Loose stones: crunch, dust.
    Gravel,
    /// Grass or earth: a soft swish, dust.
    Grass,
    /// Ice or packed snow: a thin hiss.
    Ice,
    /// Steel plate or a grate: a hollow rumble.
    Metal,
}

impl Default for WheelSurface {
    fn default() -> Self {
        Self::ASPHALT
    }
}

impl WheelSurface {
    /// Dry asphalt: the tyre's own curve.
    pub const ASPHALT: Self = Self {
        grip: 1.0,
        stiffness: 1.0,
        speed_fade: 0.0,
        rolling_resistance: 0.0,
        bump_amplitude: 0.0,
        bump_period: 1.0,
        material: SurfaceMaterial::Asphalt,
        temperature_offset: 0.0,
        road_cooling: 1.0,
    };
    /// Loose gravel: a lower peak than asphalt and a softer slope, so the peak comes
    /// later (at `grip / stiffness` of asphalt's slip); extra rolling resistance and
    /// roughness. Estimated: no published μ–slip curve of a loose surface is used
    /// (`docs/vehicle.md`).
    pub const GRAVEL: Self = Self {
        grip: 0.7,
        stiffness: 0.5,
        speed_fade: 0.0,
        rolling_resistance: 0.02,
        bump_amplitude: 0.03,
        bump_period: 0.8,
        material: SurfaceMaterial::Gravel,
        temperature_offset: -5.0,
        road_cooling: 1.0,
    };
    /// Grass: a lower peak and a softer slope than asphalt, high rolling resistance,
    /// long waves of roughness.
    pub const GRASS: Self = Self {
        grip: 0.55,
        stiffness: 0.5,
        speed_fade: 0.0,
        rolling_resistance: 0.05,
        bump_amplitude: 0.04,
        bump_period: 0.3,
        material: SurfaceMaterial::Grass,
        temperature_offset: -10.0,
        road_cooling: 1.5,
    };
    /// Ice: a tenth of asphalt's peak and half its slope, so the peak comes at a fifth
    /// of asphalt's slip (the slope's ratio from Burckhardt's fitted μ–slip curves;
    /// sources in `docs/vehicle.md`).
    pub const ICE: Self = Self {
        grip: 0.1,
        stiffness: 0.5,
        speed_fade: 0.0,
        rolling_resistance: 0.0,
        bump_amplitude: 0.0,
        bump_period: 1.0,
        material: SurfaceMaterial::Ice,
        temperature_offset: -25.0,
        road_cooling: 1.0,
    };
    /// Wet asphalt: the peak and the slope of Burckhardt's wet asphalt against his dry,
    /// and the low end of his speed term's 0.02–0.04 s/m (`docs/vehicle.md`;
    /// `a_locked_stop_on_wet_fades_with_the_sliding_speed`).
    pub const WET_ASPHALT: Self = Self {
        grip: 0.685,
        stiffness: 0.94,
        speed_fade: 0.02,
        rolling_resistance: 0.0,
        bump_amplitude: 0.0,
        bump_period: 1.0,
        material: SurfaceMaterial::Asphalt,
        temperature_offset: -10.0,
        road_cooling: 3.0,
    };
    /// Packed snow: the peak and the slope of Burckhardt's snow against his dry asphalt
    /// (`docs/vehicle.md`).
    pub const SNOW: Self = Self {
        grip: 0.16,
        stiffness: 0.6,
        speed_fade: 0.0,
        rolling_resistance: 0.01,
        bump_amplitude: 0.0,
        bump_period: 1.0,
        material: SurfaceMaterial::Ice,
        temperature_offset: -25.0,
        road_cooling: 1.5,
    };

    /// Every number of a surface: its label, unit, limit, editor range and step (the
    /// rows' grammar, `wheelcollider_core::rows`).
    pub const FLOATS: &'static [Row<WheelSurface>] = &surface_rows! {
        grip { label: "grip", unit: "×", limit: (0.0, 100.0), range: (0.0, 3.0), step: 0.01 }
        stiffness { label: "stiffness", unit: "×", limit: (0.01, 10.0), range: (0.01, 3.0), step: 0.01 }
        speed_fade { label: "speed fade", unit: "s/m", limit: (0.0, 1.0), range: (0.0, 0.1), step: 0.001 }
        rolling_resistance {
            label: "rolling resistance", unit: "", limit: (0.0, 10.0), range: (0.0, 1.0), step: 0.001,
        }
        bump_amplitude { label: "roughness", unit: "m", limit: (0.0, 1.0), range: (0.0, 0.5), step: 0.001 }
        bump_period {
            label: "roughness frequency", unit: "1/m", limit: (1e-3, 100.0), range: (0.001, 10.0), step: 0.01,
        }
        temperature_offset {
            label: "temperature offset", unit: "°C", limit: (-100.0, 100.0), range: (-50.0, 50.0), step: 0.1,
        }
        road_cooling { label: "road cooling", unit: "×", limit: (0.0, 100.0), range: (0.0, 10.0), step: 0.01 }
    };

    /// The values clamped to their limits ([`FLOATS`](Self::FLOATS)), a non-finite one
    /// replaced by asphalt's.
    pub fn sanitized(&self) -> Self {
        let mut s = *self;
        for row in Self::FLOATS {
            if row.clamp(&mut s, 0).is_err() {
                row.write(&mut s, 0, (row.get)(&Self::ASPHALT, 0).unwrap_or(0.0));
            }
        }
        s
    }

    /// Roughness height at world (x, z) (m).
    pub fn bump(&self, x: f32, z: f32) -> f32 {
        if self.bump_amplitude > 0.0 {
            perlin_bump(x + 1000.0, z - 1000.0, self.bump_period, self.bump_amplitude) as f32
        } else {
            0.0
        }
    }
}
