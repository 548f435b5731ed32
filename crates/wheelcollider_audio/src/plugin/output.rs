//! Playing the mix through Bevy's audio (feature `output`): a [`SoundStream`] asset
//! whose decoder is a [`Mixer`] on the plugin's control, played looping by one entity.
//! Bevy's audio output pulls it on the device's thread; without a device Bevy logs a
//! warning and the game runs on, silent.

use bevy::audio::{AddAudioSource, AudioPlayer, Decodable, PlaybackSettings};
use bevy::prelude::*;

use super::{SAMPLE_RATE, SoundControl};
use crate::mixer::Mixer;

/// The endless stream of the vehicles' mix, as Bevy's audio plays it.
#[derive(Asset, TypePath, Clone)]
pub struct SoundStream {
    control: SoundControl,
}

/// A [`Mixer`] as rodio's source: interleaved stereo at [`SAMPLE_RATE`].
pub struct StreamDecoder {
    mixer: Mixer,
    right: Option<f32>,
}

impl Iterator for StreamDecoder {
    type Item = f32;

    fn next(&mut self) -> Option<f32> {
        if let Some(r) = self.right.take() {
            return Some(r);
        }
        let (l, r) = self.mixer.next_frame();
        self.right = Some(r);
        Some(l)
    }
}

impl bevy::audio::Source for StreamDecoder {
    fn current_span_len(&self) -> Option<usize> {
        None
    }

    fn channels(&self) -> bevy::audio::ChannelCount {
        bevy::audio::ChannelCount::new(2).expect("2 > 0")
    }

    fn sample_rate(&self) -> bevy::audio::SampleRate {
        bevy::audio::SampleRate::new(SAMPLE_RATE).expect("48 000 > 0")
    }

    fn total_duration(&self) -> Option<std::time::Duration> {
        None
    }
}

impl Decodable for SoundStream {
    type Decoder = StreamDecoder;

    fn decoder(&self) -> StreamDecoder {
        StreamDecoder {
            mixer: self.control.mixer(SAMPLE_RATE),
            right: None,
        }
    }
}

/// Registers the stream and plays it, when Bevy's `AudioPlugin` is there.
pub(super) fn build(app: &mut App) {
    if !app.is_plugin_added::<bevy::audio::AudioPlugin>() {
        return;
    }
    app.add_audio_source::<SoundStream>().add_systems(Startup, play);
}

fn play(mut commands: Commands, control: Res<SoundControl>, mut streams: ResMut<Assets<SoundStream>>) {
    let stream = streams.add(SoundStream {
        control: control.clone(),
    });
    commands.spawn((Name::new("vehicle sound"), AudioPlayer(stream), PlaybackSettings::LOOP));
}
