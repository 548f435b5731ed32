//! Vehicle presets as Bevy assets: `.ron` files loaded through the `AssetServer`, and a
//! chassis that follows its preset (and its edits on disk, with Bevy's `file_watcher`).
//!
//! ```no_run
//! use bevy::prelude::*;
//! use wheelcollider_avian::prelude::*;
//!
//! fn spawn(mut commands: Commands, assets: Res<AssetServer>) {
//!     // The car appears once the file is loaded; an edit of the file retunes it.
//!     commands.spawn((
//!         VehicleFromPreset(assets.load("presets/road.ron")),
//!         Transform::from_xyz(0.0, 1.0, 0.0),
//!     ));
//!     // A shipped preset, compiled in: no file needed.
//!     commands.spawn((
//!         VehicleFromPreset(assets.load("embedded://wheelcollider/presets/gt86.ron")),
//!         Transform::from_xyz(4.0, 1.0, 0.0),
//!     ));
//! }
//! ```

use bevy::asset::{AssetLoader, LoadContext, io::Reader};
use bevy::prelude::*;

use super::{Vehicle, VehicleSettings, VehicleSettingsError, WheelPlacement, spawn::build_vehicle};

/// Where the shipped presets are served: `embedded://wheelcollider/presets/<name>.ron`
/// for each name of [`presets::NAMES`](wheelcollider_core::vehicle::presets::NAMES) and
/// [`presets::TRAILERS`](wheelcollider_core::vehicle::presets::TRAILERS).
pub const EMBEDDED_PRESETS: &str = "embedded://wheelcollider/presets";

/// Serves the shipped presets (compiled into the core) to the `AssetServer` under
/// [`EMBEDDED_PRESETS`], so any game loads them without this repository's files.
pub(crate) fn embed_presets(app: &mut App) {
    let Some(registry) = app
        .world()
        .get_resource::<bevy::asset::io::embedded::EmbeddedAssetRegistry>()
    else {
        return;
    };
    for (name, text) in wheelcollider_core::vehicle::presets::TEXTS {
        let path = std::path::PathBuf::from(format!("wheelcollider/presets/{name}.ron"));
        registry.insert_asset(path.clone(), &path, text.as_bytes());
    }
}

/// A vehicle preset loaded by the `AssetServer` from a `.ron` file (the format of
/// [`VehicleSettings::from_ron`]); validated when loaded.
#[derive(Asset, TypePath, Clone, Debug, PartialEq, Deref)]
pub struct VehiclePreset(pub VehicleSettings);

/// Why a preset asset did not load. The `AssetServer` logs it with the file's path.
#[derive(Debug, thiserror::Error)]
pub enum VehiclePresetLoadError {
    /// The file could not be read.
    #[error("cannot read: {0}")]
    Read(#[from] std::io::Error),
    /// Not a valid vehicle: line and column of a syntax or type error, or the path of the
    /// field whose value is wrong.
    #[error("{0}")]
    Invalid(#[from] VehicleSettingsError),
}

/// Loads [`VehiclePreset`]s from `.ron` files.
#[derive(Default, TypePath)]
pub struct VehiclePresetLoader;

impl AssetLoader for VehiclePresetLoader {
    type Asset = VehiclePreset;
    type Settings = ();
    type Error = VehiclePresetLoadError;

    async fn load(
        &self,
        reader: &mut dyn Reader,
        _settings: &(),
        _context: &mut LoadContext<'_>,
    ) -> Result<VehiclePreset, VehiclePresetLoadError> {
        let mut bytes = Vec::new();
        reader.read_to_end(&mut bytes).await?;
        let text = String::from_utf8_lossy(&bytes);
        Ok(VehiclePreset(VehicleSettings::from_ron(&text)?))
    }

    fn extensions(&self) -> &[&str] {
        &["ron"]
    }
}

/// A chassis built from a preset asset: when the asset has loaded, the entity becomes a
/// vehicle ([`Vehicle`], body, wheels, as [`spawn_vehicle`](super::spawn_vehicle) makes
/// them, at its `Transform`); when the asset changes (a hot reload), the vehicle takes
/// the new settings, as an inspector edit would.
#[derive(Component, Reflect, Clone, Debug, PartialEq, Eq)]
#[reflect(Component)]
pub struct VehicleFromPreset(pub Handle<VehiclePreset>);

/// Builds vehicles whose preset has loaded (also one spawned with a handle that loaded
/// long ago), and retunes those whose preset changed.
pub(crate) fn follow_presets(
    mut commands: Commands,
    mut events: MessageReader<AssetEvent<VehiclePreset>>,
    presets: Res<Assets<VehiclePreset>>,
    pending: Query<(Entity, &VehicleFromPreset), Without<Vehicle>>,
    mut built: Query<(Entity, &VehicleFromPreset, &mut Vehicle)>,
) {
    for (entity, from) in &pending {
        if let Some(preset) = presets.get(&from.0) {
            build_vehicle(&mut commands, entity, preset.0.clone(), WheelPlacement::Children);
        }
    }
    for event in events.read() {
        let AssetEvent::Modified { id } = *event else { continue };
        let Some(preset) = presets.get(id) else { continue };
        for (entity, from, mut vehicle) in &mut built {
            if from.0.id() != id || vehicle.0 == preset.0 {
                continue;
            }
            if vehicle.0.axles.len() == preset.0.axles.len() {
                vehicle.0 = preset.0.clone();
            } else {
                warn!("vehicle {entity}: the preset's number of axles changed; respawn it to take the new layout");
            }
        }
    }
}
