//! The shipped presets, compiled in: a game needs no file of this repository to drive
//! one. Each is a real car as shipped, its figures sourced or labelled as estimates in
//! its file's header (`presets/*.ron` of this crate; `docs/vehicle.md`).
//!
//! ```
//! # #[cfg(feature = "serde")] {
//! use wheelcollider_core::vehicle::{VehicleSettings, presets};
//! let gt86 = VehicleSettings::preset("gt86").unwrap();
//! assert_eq!((gt86.name.as_str(), gt86.chassis.mass), ("gt86", 1315.0));
//! assert_eq!(presets::NAMES.len(), 5);
//! # }
//! ```
//!
//! The plugin also serves them to Bevy's `AssetServer` as
//! `embedded://wheelcollider/presets/<name>.ron` (`VehicleFromPreset`).

/// The shipped presets' names, in the order the examples cycle through them: the
/// vehicles a driver drives.
pub const NAMES: [&str; 5] = ["road", "rally", "kart", "gt86", "tractor"];

/// The shipped trailers' names (vehicles with a
/// [`TrailerSettings`](super::TrailerSettings), towed by a preset with a hitch of
/// their kind): `caravan` (1.5 t, single axle, towed by `road`), `semitrailer` (31 t,
/// three axles, towed by `tractor`).
pub const TRAILERS: [&str; 2] = ["caravan", "semitrailer"];

/// The shipped two-wheelers' names (vehicles with a
/// [`TwoWheelerSettings`](super::TwoWheelerSettings), ridden by their rider): `mt07`,
/// the Yamaha MT-07 (2014) with its rider, and `bicycle`, the benchmark bicycle of
/// Meijaard et al. (2007) with its rigid rider. Left out of the sweeps over every car preset
/// (their manoeuvres are a car's); `two_wheeler` tests ride them.
pub const TWO_WHEELERS: [&str; 2] = ["mt07", "bicycle"];

/// The shipped tracked vehicles' names (vehicles with a
/// [`TrackSettings`](super::TrackSettings), steered by their belts): `leopard2`, the
/// Leopard 2A4 main battle tank, and `m113`, the M113A3 armored personnel carrier. Left out of the sweeps over every car preset (their
/// manoeuvres are a car's); `tracked` tests drive them.
pub const TRACKED: [&str; 2] = ["leopard2", "m113"];

/// The shipped variants' names: a preset's car with other parts, driven as it is but
/// left out of the sweeps over every preset (its chassis, drivetrain and brakes are its
/// preset's, swept already): `gt86_track`, the GT86 on club racing slicks.
pub const VARIANTS: [&str; 1] = ["gt86_track"];

/// The shipped presets as RON text, by name: `road` (a front-driven hot hatch after the
/// VW Golf GTI Mk7), `rally` (all-wheel drive, after the Subaru Impreza WRX STI),
/// `kart` (a 125 cc racing kart with its driver), `gt86` (the Toyota GT86 of 2012),
/// `tractor` (a 6×4 tractor unit after the Volvo FH 500), then the [`TRAILERS`], the
/// [`VARIANTS`], the [`TWO_WHEELERS`] and the [`TRACKED`].
pub const TEXTS: [(&str, &str); 12] = [
    ("road", include_str!("../../presets/road.ron")),
    ("rally", include_str!("../../presets/rally.ron")),
    ("kart", include_str!("../../presets/kart.ron")),
    ("gt86", include_str!("../../presets/gt86.ron")),
    ("tractor", include_str!("../../presets/tractor.ron")),
    ("caravan", include_str!("../../presets/caravan.ron")),
    ("semitrailer", include_str!("../../presets/semitrailer.ron")),
    ("gt86_track", include_str!("../../presets/gt86_track.ron")),
    ("mt07", include_str!("../../presets/mt07.ron")),
    ("bicycle", include_str!("../../presets/bicycle.ron")),
    ("leopard2", include_str!("../../presets/leopard2.ron")),
    ("m113", include_str!("../../presets/m113.ron")),
];

/// A shipped preset's RON text, or `None` for a name not in [`NAMES`], [`TRAILERS`] or
/// [`VARIANTS`].
pub fn text(name: &str) -> Option<&'static str> {
    TEXTS.iter().find(|(n, _)| *n == name).map(|(_, t)| *t)
}

#[cfg(feature = "serde")]
impl super::VehicleSettings {
    /// A shipped preset by name (one of [`NAMES`], [`TRAILERS`] or [`VARIANTS`]), parsed and
    /// validated. An unknown name is an error that lists the names.
    pub fn preset(name: &str) -> Result<super::VehicleSettings, super::VehicleSettingsError> {
        let text = text(name).ok_or_else(|| {
            super::VehicleSettingsError::new(
                "preset",
                format!("no shipped preset `{name}`; one of {NAMES:?}, {TRAILERS:?} or {VARIANTS:?}"),
            )
        })?;
        super::VehicleSettings::from_ron(text)
    }
}
