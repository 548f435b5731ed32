//! One car's voices together: what the car is doing ([`CarInput`]), the volumes of its
//! voices ([`Volumes`]), and its synth ([`CarSynth`]), which renders them into a
//! stereo pair placed by the listener (gain and pan, smoothed).

use std::f32::consts::FRAC_PI_4;

use wheelcollider_core::vehicle::EngineSettings;

use crate::dsp::{Smoother, finite_or};
use crate::engine::{EngineInput, EngineVoice};
use crate::gearbox::{GearboxInput, GearboxVoice};
use crate::impact::ImpactVoice;
use crate::track::{TrackInput, TrackVoice};
use crate::tyre::{TyreGains, TyreInput, TyreVoice};
use crate::wind::WindVoice;

/// Where a car is heard from: the listener's distance gain and the side.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Placement {
    /// The distance attenuation, 0..=1.
    pub gain: f32,
    /// −1 (left) ..= 1 (right), an equal-power pan.
    pub pan: f32,
}

impl Default for Placement {
    fn default() -> Self {
        Self { gain: 1.0, pan: 0.0 }
    }
}

/// What one car is doing, once per game frame: everything its voices follow.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CarInput {
    /// The engine.
    pub engine: EngineInput,
    /// The gearbox.
    pub gearbox: GearboxInput,
    /// Each tyre, in any order.
    pub tyres: Vec<TyreInput>,
    /// A tracked vehicle's belts (left, right); empty for a wheeled one.
    pub tracks: Vec<TrackInput>,
    /// Speed through the air (m/s).
    pub speed: f32,
    /// Where the listener hears it from.
    pub placement: Placement,
}

/// The volume of each voice and of the whole mix: linear gains, 0 silent, 1 as
/// designed, up to 4 (+12 dB).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default))]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct Volumes {
    /// The whole mix.
    pub master: f32,
    /// The engine: its note, intake and crackle.
    pub engine: f32,
    /// The gearbox's whine.
    pub gearbox: f32,
    /// The tyres' squeal.
    pub tyres: f32,
    /// The road under the tyres: rumble, hiss, crunch, swish.
    pub surface: f32,
    /// The wind.
    pub wind: f32,
    /// Landings and hard contacts.
    pub impacts: f32,
    /// A tracked vehicle's belts' clatter.
    pub tracks: f32,
}

impl Default for Volumes {
    fn default() -> Self {
        Self {
            master: 0.8,
            engine: 1.0,
            gearbox: 1.0,
            tyres: 1.0,
            surface: 1.0,
            wind: 1.0,
            impacts: 1.0,
            tracks: 1.0,
        }
    }
}

impl Volumes {
    /// The volumes clamped to 0..=4, non-finite ones replaced by 1.
    pub fn sanitized(&self) -> Self {
        let f = |v: f32| finite_or(v, 1.0).clamp(0.0, 4.0);
        Self {
            master: f(self.master),
            engine: f(self.engine),
            gearbox: f(self.gearbox),
            tyres: f(self.tyres),
            surface: f(self.surface),
            wind: f(self.wind),
            impacts: f(self.impacts),
            tracks: f(self.tracks),
        }
    }
}

/// One car's synthesiser: its voices and placement.
#[derive(Clone, Debug)]
pub struct CarSynth {
    engine: EngineVoice,
    gearbox: GearboxVoice,
    tyres: Vec<TyreVoice>,
    tracks: Vec<TrackVoice>,
    wind: WindVoice,
    impacts: ImpactVoice,
    gain: Smoother,
    pan: Smoother,
    mono: Vec<f32>,
    sample_rate: f32,
    seed: u32,
}

impl CarSynth {
    /// The synth of a car with `engine` at `sample_rate` (Hz); `seed` varies its
    /// noises from other cars'. It fades in from silence.
    pub fn new(engine: &EngineSettings, sample_rate: f32, seed: u32) -> Self {
        let seed = seed.wrapping_mul(2_654_435_761).max(1);
        Self {
            engine: EngineVoice::new(engine, sample_rate, seed),
            gearbox: GearboxVoice::new(sample_rate),
            tyres: Vec::new(),
            tracks: Vec::new(),
            wind: WindVoice::new(sample_rate, seed ^ 0x5bd1_e995),
            impacts: ImpactVoice::new(sample_rate, seed ^ 0x1b87_3593),
            gain: Smoother::new(0.0, 0.05, sample_rate),
            pan: Smoother::new(0.0, 0.05, sample_rate),
            mono: Vec::new(),
            sample_rate,
            seed,
        }
    }

    /// Starts a thump for an impact at `speed` (m/s).
    pub fn impact(&mut self, speed: f32) {
        self.impacts.trigger(speed);
    }

    /// The present distance gain (smoothed): a car faded out can be dropped.
    pub fn gain(&self) -> f32 {
        self.gain.value
    }

    /// Adds the next `left.len()` frames of this car to `left` and `right` (equal
    /// lengths), at `volumes` (the master is the mixer's).
    pub fn render(&mut self, input: &CarInput, volumes: &Volumes, left: &mut [f32], right: &mut [f32]) {
        let n = left.len().min(right.len());
        self.mono.clear();
        self.mono.resize(n, 0.0);
        while self.tyres.len() < input.tyres.len() {
            let seed = self.seed.wrapping_add(7919 * (self.tyres.len() as u32 + 1));
            self.tyres.push(TyreVoice::new(self.sample_rate, seed));
        }
        let mono = &mut self.mono[..];
        self.engine.render(&input.engine, volumes.engine, mono);
        self.gearbox.render(&input.gearbox, volumes.gearbox, mono);
        let gains = TyreGains {
            squeal: volumes.tyres,
            road: volumes.surface,
        };
        for (voice, tyre) in self.tyres.iter_mut().zip(&input.tyres) {
            voice.render(tyre, gains, mono);
        }
        while self.tracks.len() < input.tracks.len() {
            let seed = self.seed.wrapping_add(104_729 * (self.tracks.len() as u32 + 1));
            self.tracks.push(TrackVoice::new(self.sample_rate, seed));
        }
        for (voice, track) in self.tracks.iter_mut().zip(&input.tracks) {
            voice.render(track, volumes.tracks, mono);
        }
        self.wind.render(input.speed, volumes.wind, mono);
        self.impacts.render(volumes.impacts, mono);
        let p = input.placement;
        let gain = finite_or(p.gain, 0.0).clamp(0.0, 1.0);
        let pan = finite_or(p.pan, 0.0).clamp(-1.0, 1.0);
        for ((m, l), r) in mono.iter().zip(left.iter_mut()).zip(right.iter_mut()) {
            let g = self.gain.next(gain);
            let angle = (self.pan.next(pan) + 1.0) * FRAC_PI_4;
            let (s, c) = angle.sin_cos();
            *l += g * c * m;
            *r += g * s * m;
        }
    }
}
