//! The one declaration of a tyre's thermal, pressure and wear settings
//! ([`TyreCompound`]): each field's doc, unit, default (the summer road tyre), limit and
//! editor range, written once here by `declare_compound!`, with the named compounds
//! ([`CompoundBase`]) and the file form ([`TyreCompoundDef`]: a base and the fields that
//! differ from it).
//!
//! Every figure of the three compounds is an estimate of its class (no tyre maker
//! publishes them); `docs/tyre-thermal.md` derives each one and names its sources.

use crate::limits::SettingsError;
use crate::rows::Row;

/// Writes [`TyreCompound`], [`TyreCompound::FLOATS`] and [`TyreCompoundDef`] from one
/// declaration per number, in the rows' keyword grammar (`crate::rows`), its place the
/// field's name:
///
/// ```text
/// /// Doc of the field.
/// name {
///     label: "label", unit: "unit", default: 650.0,
///     limit: (min, max), range: (lo, hi), step: 10.0,
/// }
/// ```
macro_rules! declare_compound {
    ($(
        $(#[doc = $doc:literal])*
        $name:ident {
            label: $label:literal, unit: $unit:literal, default: $default:expr,
            limit: ($min:expr, $max:expr), range: ($lo:expr, $hi:expr), step: $step:expr $(,)?
        }
    )*) => {
        /// A tyre's compound, construction and inflation: what its thermal model
        /// ([`crate::thermal`]), its pressure, grip window and wear read. Off unless a
        /// wheel has one ([`WheelSettings::compound`](crate::WheelSettings::compound)).
        ///
        /// The fields are plain numbers; [`TyreCompound::validated`] clamps each to its
        /// limit and refuses a non-finite one, and a wheel only stores validated ones.
        /// [`Default`] is the summer road tyre ([`CompoundBase::Summer`]).
        #[derive(Clone, Copy, Debug, PartialEq)]
        #[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
        pub struct TyreCompound {
            /// The named compound these figures start from (what a file names).
            pub base: CompoundBase,
            $(
                $(#[doc = $doc])*
                #[doc = concat!("\n\nUnit: ", $unit, "; summer tyre ", stringify!($default),
                    "; limit ", stringify!($min), " ..= ", stringify!($max), ".")]
                pub $name: f32,
            )*
        }

        impl Default for TyreCompound {
            fn default() -> Self {
                Self { base: CompoundBase::Summer, $($name: $default,)* }
            }
        }

        impl TyreCompound {
            /// Every number field: its label, unit, limit, editor range and step.
            pub const FLOATS: &'static [Row<TyreCompound>] = &[$(
                $crate::field_row!(TyreCompound, $name, $label, $unit, (), ($min, $max), ($lo, $hi), $step)
            ),*];

            /// Every field clamped to its limit (its row's); an error names the first
            /// non-finite one.
            pub fn validated(mut self) -> Result<Self, SettingsError> {
                for row in Self::FLOATS {
                    row.clamp(&mut self, 0)?;
                }
                Ok(self)
            }
        }

        /// The file form of [`TyreCompound`]: the named compound it starts from and the
        /// fields that differ from it, each optional: `(base: Slick, cold_pressure:
        /// 150.0)`.
        #[derive(Clone, Debug, Default, PartialEq)]
        #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
        #[cfg_attr(feature = "serde", serde(default, deny_unknown_fields))]
        pub struct TyreCompoundDef {
            /// The named compound.
            pub base: CompoundBase,
            $(
                #[doc = concat!("See [`TyreCompound::", stringify!($name), "`] (", $unit, ").")]
                #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
                pub $name: Option<f32>,
            )*
        }

        impl From<&TyreCompound> for TyreCompoundDef {
            fn from(c: &TyreCompound) -> Self {
                let base = TyreCompound::named(c.base);
                Self { base: c.base, $($name: (c.$name != base.$name).then_some(c.$name),)* }
            }
        }

        impl TryFrom<TyreCompoundDef> for TyreCompound {
            type Error = SettingsError;
            fn try_from(d: TyreCompoundDef) -> Result<Self, SettingsError> {
                let mut c = TyreCompound::named(d.base);
                $(if let Some(v) = d.$name { c.$name = v; })*
                c.validated()
            }
        }
    };
}

/// The named compounds a file or an editor starts from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub enum CompoundBase {
    /// A summer road tyre: a wide window, a deep tread (its figures and their sources:
    /// `docs/tyre-thermal.md`, "The compounds").
    #[default]
    Summer,
    /// A touring road tyre (the GT86's class): harder, cooler-running, a window that
    /// starts lower.
    Touring,
    /// A club racing slick (for a road car's track variant): a narrow, hot window, a low
    /// cold pressure, a thin tread that wears fast.
    Slick,
}

impl CompoundBase {
    /// Every named compound, in the order editors list them.
    pub const ALL: [CompoundBase; 3] = [Self::Summer, Self::Touring, Self::Slick];
}

declare_compound! {
    /// Heat capacity of the tread's surface layer (the rubber that touches the road):
    /// its mass × rubber's specific heat.
    surface_capacity {
        label: "surface capacity", unit: "J/K", default: 650.0,
        limit: (1.0, 1.0e6), range: (50.0, 5000.0), step: 10.0,
    }
    /// Heat capacity of the carcass: the rest of the tread, the belts, the plies and the
    /// sidewalls.
    carcass_capacity {
        label: "carcass capacity", unit: "J/K", default: 12_000.0,
        limit: (1.0, 1.0e7), range: (500.0, 60_000.0), step: 100.0,
    }
    /// Heat capacity of the inflation gas at constant volume: its mass × the gas'
    /// specific heat at constant volume.
    gas_capacity {
        label: "gas capacity", unit: "J/K", default: 70.0,
        limit: (0.1, 1.0e5), range: (5.0, 500.0), step: 1.0,
    }
    /// Conductance from the surface layer to the carcass through the new tread
    /// (`k·A / thickness`); a worn tread's is larger by `tread_depth / depth left`
    /// (at most 4×).
    surface_carcass_conductance {
        label: "surface carcass conductance", unit: "W/K", default: 30.0,
        limit: (0.0, 1.0e5), range: (0.0, 500.0), step: 1.0,
    }
    /// Conductance from the carcass to the gas (the inner liner's area × its film
    /// coefficient).
    carcass_gas_conductance {
        label: "carcass gas conductance", unit: "W/K", default: 15.0,
        limit: (0.0, 1.0e5), range: (0.0, 200.0), step: 0.5,
    }
    /// The tread's area open to the air (`2π·r·w`); convection at McAdams' film
    /// coefficient ([`film`](crate::thermal::film)).
    surface_area {
        label: "surface area", unit: "m²", default: 0.40,
        limit: (0.0, 100.0), range: (0.0, 2.0), step: 0.005,
    }
    /// The sidewalls' area, through which the carcass loses heat to the air at the same
    /// film coefficient.
    sidewall_area {
        label: "sidewall area", unit: "m²", default: 0.30,
        limit: (0.0, 100.0), range: (0.0, 2.0), step: 0.005,
    }
    /// The film coefficient from the tread to the road across the contact patch at
    /// [`ROAD_REFERENCE_SPEED`](crate::thermal::ROAD_REFERENCE_SPEED); it grows as `√v`
    /// ([`road_conductance`](crate::thermal::road_conductance)).
    /// The patch's area is the load over the inflation pressure.
    road_conductance {
        label: "road conductance", unit: "W/(m²·K)", default: 1000.0,
        limit: (0.0, 1.0e6), range: (0.0, 10_000.0), step: 20.0,
    }
    /// The carcass' loss factor `tan δ`: the share of the strain energy the tyre's
    /// forces store in it that each revolution turns into heat
    /// ([`deformation_power`](crate::thermal::deformation_power)). Rubber compounds of
    /// carcasses measure 0.05–0.15 at their running temperature; an estimate.
    carcass_loss {
        label: "carcass loss", unit: "", default: 0.1,
        limit: (0.0, 2.0), range: (0.0, 0.5), step: 0.001,
    }
    /// The share of the contact patch's sliding power (`|Fx·v_slip,x| + |Fy·v_y|`) that
    /// heats the tread; the rest heats the road. A soft, lossy racing compound takes
    /// more of it than a road tyre.
    friction_heat_share {
        label: "friction heat share", unit: "", default: 0.5,
        limit: (0.0, 1.0), range: (0.0, 1.0), step: 0.002,
    }
    /// Inflation pressure, gauge, set at [`cold_temperature`](TyreCompound::cold_temperature).
    cold_pressure {
        label: "cold pressure", unit: "kPa", default: 230.0,
        limit: (0.0, 2000.0), range: (50.0, 500.0), step: 1.0,
    }
    /// The gas's temperature when the cold pressure was set.
    cold_temperature {
        label: "cold temperature", unit: "°C", default: 20.0,
        limit: (-60.0, 200.0), range: (-30.0, 60.0), step: 0.2,
    }
    /// The gauge pressure at which the tyre's curves, stiffness, relaxation and rolling
    /// resistance are what its settings say: a road tyre's curves are taken at its cold
    /// placard pressure, a slick's at its hot running pressure.
    nominal_pressure {
        label: "nominal pressure", unit: "kPa", default: 230.0,
        limit: (10.0, 2000.0), range: (50.0, 500.0), step: 1.0,
    }
    /// Peak grip lost per unit of the relative pressure's square, `dp = (p − p_nom) /
    /// p_nom`: `1 − g·dp²` (the Magic Formula 6.1's `p_px3`, `p_px4` written about the
    /// optimum).
    pressure_grip {
        label: "pressure grip", unit: "", default: 0.3,
        limit: (0.0, 5.0), range: (0.0, 2.0), step: 0.005,
    }
    /// The longitudinal slip stiffness' linear gain per unit `dp`: `1 + a·dp + b·dp²`
    /// (the Magic Formula 6.1's `p_px1`; negative: a harder tyre has a shorter patch,
    /// Besselink et al. 2010). An estimate of the class.
    pressure_slip_stiffness {
        label: "pressure slip stiffness", unit: "", default: -1.0,
        limit: (-5.0, 5.0), range: (-2.0, 2.0), step: 0.01,
    }
    /// The longitudinal slip stiffness' quadratic gain, `b` above (MF 6.1's `p_px2`).
    /// An estimate of the class.
    pressure_slip_stiffness_square {
        label: "pressure slip stiffness square", unit: "", default: 0.5,
        limit: (-5.0, 5.0), range: (-2.0, 2.0), step: 0.01,
    }
    /// The cornering stiffness' gain per unit `dp`: `1 + c·dp` (MF 6.1's `p_py1`;
    /// positive: a stiffer carcass). An estimate of the class.
    pressure_cornering_stiffness {
        label: "pressure cornering stiffness", unit: "", default: 0.15,
        limit: (-5.0, 5.0), range: (-2.0, 2.0), step: 0.01,
    }
    /// The rolling resistance's gain per unit `dp` (SAE J2452's `p^−0.4`, linearised).
    pressure_rolling {
        label: "pressure rolling", unit: "", default: -0.4,
        limit: (-2.0, 2.0), range: (-1.0, 1.0), step: 0.005,
    }
    /// The relaxation lengths' gain per unit `dp` (a stiffer carcass relaxes sooner).
    pressure_relaxation {
        label: "pressure relaxation", unit: "", default: -0.5,
        limit: (-2.0, 2.0), range: (-1.0, 1.0), step: 0.005,
    }
    /// The surface temperature where the grip window opens (full grip from here to
    /// [`window_high`](TyreCompound::window_high)).
    window_low {
        label: "window low", unit: "°C", default: 10.0,
        limit: (-60.0, 300.0), range: (-20.0, 150.0), step: 0.2,
    }
    /// The surface temperature where the grip window closes.
    window_high {
        label: "window high", unit: "°C", default: 90.0,
        limit: (-60.0, 300.0), range: (0.0, 200.0), step: 0.5,
    }
    /// Peak grip lost 10 K outside the window; the loss grows with the square of the
    /// distance.
    window_loss {
        label: "window loss", unit: "", default: 0.02,
        limit: (0.0, 1.0), range: (0.0, 0.2), step: 0.0005,
    }
    /// The least grip factor the window gives, however cold or hot.
    window_floor {
        label: "window floor", unit: "", default: 0.7,
        limit: (0.0, 1.0), range: (0.0, 1.0), step: 0.002,
    }
    /// New tread depth.
    tread_depth {
        label: "tread depth", unit: "mm", default: 8.0,
        limit: (0.1, 100.0), range: (0.5, 20.0), step: 0.05,
    }
    /// Tread lost per energy the tread takes from sliding (its share of the sliding
    /// power, integrated), inside the window.
    abrasion {
        label: "abrasion", unit: "mm/MJ", default: 0.03,
        limit: (0.0, 1.0e3), range: (0.0, 5.0), step: 0.01,
    }
    /// The abrasion's rise per 10 K of the surface above the window's top
    /// ([`hot_wear`](crate::thermal::hot_wear)): 0.5 makes it twice as fast 20 K over.
    /// An estimate.
    hot_wear {
        label: "hot wear", unit: "", default: 0.5,
        limit: (0.0, 100.0), range: (0.0, 5.0), step: 0.01,
    }
    /// Peak grip lost with the tread worn to nothing (linear in the depth lost).
    wear_grip {
        label: "wear grip", unit: "", default: 0.05,
        limit: (0.0, 1.0), range: (0.0, 0.5), step: 0.001,
    }
    /// The grip factor of a punctured tyre running on its rim.
    rim_grip {
        label: "rim grip", unit: "", default: 0.4,
        limit: (0.0, 1.0), range: (0.0, 1.0), step: 0.002,
    }
    /// How much lower a punctured tyre's wheel rides: the sidewall's height lost.
    rim_drop {
        label: "rim drop", unit: "m", default: 0.08,
        limit: (0.0, 1.0), range: (0.0, 0.3), step: 0.0005,
    }
    /// The factor on the rolling resistance of a punctured tyre: a flat's folded
    /// sidewalls and rim drag it, so a car pulls towards its flat. An estimate: a
    /// deflated tyre's coefficient 0.1–0.15 against a road tyre's 0.012.
    rim_rolling {
        label: "rim rolling", unit: "", default: 10.0,
        limit: (1.0, 100.0), range: (1.0, 30.0), step: 0.05,
    }
}

impl TyreCompound {
    /// The named compound's figures.
    pub fn named(base: CompoundBase) -> Self {
        match base {
            CompoundBase::Summer => Self::default(),
            CompoundBase::Touring => Self {
                base,
                surface_capacity: 620.0,
                carcass_capacity: 11_500.0,
                window_low: 5.0,
                window_high: 80.0,
                window_loss: 0.015,
                window_floor: 0.75,
                abrasion: 0.025,
                wear_grip: 0.04,
                ..Self::default()
            },
            CompoundBase::Slick => Self {
                base,
                surface_capacity: 900.0,
                carcass_capacity: 10_000.0,
                gas_capacity: 50.0,
                surface_carcass_conductance: 40.0,
                carcass_gas_conductance: 12.0,
                surface_area: 0.45,
                sidewall_area: 0.25,
                friction_heat_share: 0.8,
                cold_pressure: 140.0,
                nominal_pressure: 180.0,
                pressure_grip: 0.6,
                window_low: 60.0,
                window_high: 95.0,
                window_loss: 0.04,
                window_floor: 0.75,
                tread_depth: 3.0,
                abrasion: 0.06,
                wear_grip: 0.15,
                rim_grip: 0.3,
                rim_drop: 0.1,
                ..Self::default()
            },
        }
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for TyreCompound {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        TyreCompoundDef::from(self).serialize(serializer)
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for TyreCompound {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let def = TyreCompoundDef::deserialize(deserializer)?;
        TyreCompound::try_from(def).map_err(serde::de::Error::custom)
    }
}
