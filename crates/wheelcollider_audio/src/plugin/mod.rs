//! The Bevy plugin: every frame it lists the vehicles nearest the listener, tells the
//! mixer what each is doing (from its telemetry, its wheels' outputs and the ground
//! under them), and turns landings and hard contacts into thumps. With the `output`
//! feature and Bevy's `AudioPlugin` it also plays the mix through the audio device;
//! without them (tests, servers) it needs no device, and [`SoundControl::mixer`]
//! renders the same mix wherever samples are wanted.
//!
//! ```no_run
//! # use bevy::prelude::*;
//! use wheelcollider_audio::plugin::{SoundSettings, SoundListener, VehicleSoundPlugin};
//! # let mut app = App::new();
//! app.add_plugins(VehicleSoundPlugin::default());
//! // Hear from the camera (here a bare transform standing in for it); mute with the
//! // settings.
//! app.world_mut().spawn((Transform::from_xyz(0.0, 2.0, 8.0), SoundListener));
//! app.world_mut().resource_mut::<SoundSettings>().muted = true;
//! ```
//!
//! `feed.rs` holds the per-frame feeding and the listener's geometry; `output.rs` the
//! stream Bevy's audio plays (feature `output`).

mod feed;
#[cfg(feature = "output")]
mod output;

use bevy::prelude::*;
use wheelcollider_avian::prelude::*;

use crate::car::Volumes;
use crate::mixer::{Mixer, SharedControl};
use crate::tyre::GroundSound;

pub use feed::{FeedSystems, distance_gain, pan_of};
#[cfg(feature = "output")]
pub use output::SoundStream;

/// Sample rate (Hz) of the stream the plugin plays (the device resamples it).
pub const SAMPLE_RATE: u32 = 48_000;

/// How the vehicles sound: volumes, how many cars are heard and how distance fades
/// them, and each ground's sound. Edit it at run time (the inspector does).
#[derive(Resource, Reflect, Clone, Debug, PartialEq)]
#[reflect(Resource)]
pub struct SoundSettings {
    /// The master volume and each voice's.
    pub volumes: Volumes,
    /// Silence everything (faded over 50 ms).
    pub muted: bool,
    /// The cars heard at once: the nearest this many within
    /// [`max_distance`](Self::max_distance), 0 ..= 64 (clamped). Cars beyond cost
    /// nothing.
    pub cars: usize,
    /// Distance (m) within which a car is at full volume, ≥ 0.1.
    pub reference_distance: f32,
    /// How fast the volume falls beyond the reference distance, ≥ 0 (1: inversely
    /// with distance, as sound does in the open; 0: not at all).
    pub rolloff: f32,
    /// Distance (m) beyond which a car is not heard (faded over its last 20 %),
    /// ≥ the reference distance.
    pub max_distance: f32,
    /// How much the side a car is on pans it, 0 (mono) ..= 1 (hard left / right).
    pub stereo_width: f32,
    /// What each ground sounds like under a tyre.
    pub grounds: GroundSounds,
}

impl Default for SoundSettings {
    fn default() -> Self {
        Self {
            volumes: Volumes::default(),
            muted: false,
            cars: 8,
            reference_distance: 5.0,
            rolloff: 1.0,
            max_distance: 300.0,
            stereo_width: 0.8,
            grounds: GroundSounds::default(),
        }
    }
}

/// The sound of each [`SurfaceMaterial`] under a tyre.
#[derive(Reflect, Clone, Copy, Debug, PartialEq)]
pub struct GroundSounds {
    /// Asphalt and concrete.
    pub asphalt: GroundSound,
    /// Gravel.
    pub gravel: GroundSound,
    /// Grass and earth.
    pub grass: GroundSound,
    /// Ice and snow.
    pub ice: GroundSound,
    /// Steel plate, grates.
    pub metal: GroundSound,
}

impl Default for GroundSounds {
    fn default() -> Self {
        Self {
            asphalt: GroundSound::ASPHALT,
            gravel: GroundSound::GRAVEL,
            grass: GroundSound::GRASS,
            ice: GroundSound::ICE,
            metal: GroundSound::METAL,
        }
    }
}

impl GroundSounds {
    /// The sound of `material`.
    pub fn of(&self, material: SurfaceMaterial) -> GroundSound {
        match material {
            SurfaceMaterial::Asphalt => self.asphalt,
            SurfaceMaterial::Gravel => self.gravel,
            SurfaceMaterial::Grass => self.grass,
            SurfaceMaterial::Ice => self.ice,
            SurfaceMaterial::Metal => self.metal,
        }
    }
}

/// Where the vehicles are heard from: put it on the camera. Without one the listener
/// stands at the world's origin facing −Z.
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq)]
#[reflect(Component)]
pub struct SoundListener;

/// The mixer's control, shared with whatever renders it (the audio device's stream, a
/// recording, a test).
#[derive(Resource, Clone, Default)]
pub struct SoundControl(pub SharedControl);

impl SoundControl {
    /// A mixer rendering this control at `sample_rate` (Hz). Use one at a time: each
    /// takes the impacts it reads.
    pub fn mixer(&self, sample_rate: u32) -> Mixer {
        Mixer::new(self.0.clone(), sample_rate)
    }
}

/// The vehicles' sound. Needs the wheelcollider plugins; plays through Bevy's audio
/// when [`play`](Self::play) is set, the `output` feature is on and Bevy's
/// `AudioPlugin` was added before it. Turns on [`WheelEventsEnabled`] on every
/// vehicle, to hear its landings; its chassis' hard contacts come from avian's contact
/// graph.
pub struct VehicleSoundPlugin {
    /// Play the mix on the audio device (true by default). Off, the mix is only
    /// rendered by the mixers a game makes with [`SoundControl::mixer`] (a recording).
    pub play: bool,
}

impl Default for VehicleSoundPlugin {
    fn default() -> Self {
        Self { play: true }
    }
}

impl Plugin for VehicleSoundPlugin {
    fn build(&self, app: &mut App) {
        app.register_type::<SoundSettings>()
            .register_type::<SoundListener>()
            .init_resource::<SoundSettings>()
            .init_resource::<SoundControl>()
            .add_observer(feed::listen_to_vehicle)
            .add_systems(
                PostUpdate,
                feed::feed
                    .in_set(FeedSystems)
                    .after(bevy::transform::TransformSystems::Propagate),
            );
        #[cfg(feature = "output")]
        if self.play {
            output::build(app);
        }
    }
}
