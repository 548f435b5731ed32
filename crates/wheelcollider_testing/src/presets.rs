//! The shipped presets: one list, so that "every shipped preset" in a test means every
//! one. No Bevy: the core's tests use it too.

/// Every shipped vehicle a driver drives, by file name
/// (`crates/wheelcollider_core/presets/<name>.ron`, which `assets/presets` links to).
/// The core's test `vehicle::the_preset_list_is_every_shipped_file` checks that the
/// folder holds exactly these, the [`TRAILERS`], the [`VARIANTS`], the
/// [`TWO_WHEELERS`] and the [`TRACKED`].
pub const PRESETS: [&str; 5] = ["road", "rally", "kart", "gt86", "tractor"];

/// Every shipped trailer (a vehicle towed, not driven), by file name in the same
/// folder. "Every shipped preset" in a test is [`PRESETS`]: the trailers are proved
/// behind their tow vehicles (`vehicle::towing` in the plugin's tests).
pub const TRAILERS: [&str; 2] = ["caravan", "semitrailer"];

/// Every shipped variant (a preset's car with other parts: `gt86_track`, the GT86 on
/// slicks), by file name in the same folder: left out of [`PRESETS`]' sweeps, proved by
/// the track's stint and the core's preset checks.
pub const VARIANTS: [&str; 1] = ["gt86_track"];

/// Every shipped two-wheeler (a vehicle its rider balances: `mt07`, `bicycle`), by file name in the
/// same folder: left out of [`PRESETS`]' sweeps (a car's manoeuvres), ridden by the
/// plugin's `two_wheeler` tests.
pub const TWO_WHEELERS: [&str; 2] = ["mt07", "bicycle"];

/// Every shipped tracked vehicle (steered by its belts: `leopard2`, `m113`), by file name in the
/// same folder: left out of [`PRESETS`]' sweeps (a car's manoeuvres), driven by the
/// plugin's `tracked` tests.
pub const TRACKED: [&str; 2] = ["leopard2", "m113"];

/// The folder of the shipped presets, the core's `presets/`.
pub fn presets_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../wheelcollider_core/presets")
}

/// The path of the shipped preset `name`.
pub fn preset_path(name: &str) -> std::path::PathBuf {
    presets_dir().join(format!("{name}.ron"))
}

/// A shipped preset's text.
pub fn preset_text(name: &str) -> String {
    let path = preset_path(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A shipped preset, parsed and validated.
pub fn preset(name: &str) -> wheelcollider_core::vehicle::VehicleSettings {
    wheelcollider_core::vehicle::VehicleSettings::from_ron(&preset_text(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}
