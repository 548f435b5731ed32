//! A belt's clatter: the sprocket takes a link each `pitch` of belt travel, and each
//! link it takes strikes (its pin in the sprocket's tooth, its shoe on the road wheels),
//! so a belt clanks `|v|/pitch` times a second. Each strike is a short burst of noise
//! ringing in two metallic bands and a low thud, as loud as the belt's speed makes it
//! (steel on steel rises fast at a walk and little after).
//!
//! Silent at rest (test `clatter_silent_at_rest`), one strike a link (test
//! `clatter_strikes_once_a_link`), louder with speed (test `clatter_louder_with_speed`).

use crate::dsp::{Noise, Smoother, Svf, SvfCoefs, finite_or};

/// What one belt is doing, once per game frame.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TrackInput {
    /// The belt's speed, its road wheels' surface speed (m/s, sign ignored).
    pub speed: f32,
    /// One link's length (m; `TrackSettings::link_pitch`).
    pub link_pitch: f32,
}

/// The most strikes a second a belt sounds (Hz): past it the strikes merge into a roar
/// anyway (`docs/audio.md`, "Tracks").
const MAX_RATE: f32 = 400.0;
/// A strike's ring-down time constant (s): the burst falls to 1/e in this.
const RING_DOWN: f32 = 0.006;
/// The belt speed (m/s) from which the strikes are at full loudness; below it they
/// scale as `√(v / FULL_SPEED)` (test `clatter_louder_with_speed`).
const FULL_SPEED: f32 = 4.0;

/// One belt's clatter.
#[derive(Clone, Debug)]
pub struct TrackVoice {
    sample_rate: f32,
    noise: Noise,
    /// Where the belt is between two strikes, 0..1.
    phase: f32,
    /// The present strike's envelope, decaying.
    burst: f32,
    decay: f32,
    ring: [Svf; 2],
    ring_coefs: [SvfCoefs; 2],
    thud: Svf,
    thud_coefs: SvfCoefs,
    level: Smoother,
    strikes: u64,
}

impl TrackVoice {
    /// A still belt at `sample_rate` (Hz).
    pub fn new(sample_rate: f32, seed: u32) -> Self {
        let fs = sample_rate;
        Self {
            sample_rate,
            noise: Noise::new(seed),
            phase: 0.0,
            burst: 0.0,
            decay: (-1.0 / (RING_DOWN * fs)).exp(),
            ring: [Svf::default(); 2],
            ring_coefs: [SvfCoefs::new(780.0, 9.0, fs), SvfCoefs::new(2150.0, 12.0, fs)],
            thud: Svf::default(),
            thud_coefs: SvfCoefs::new(110.0, 1.5, fs),
            level: Smoother::new(0.0, 0.05, fs),
            strikes: 0,
        }
    }

    /// The strikes' loudness at `input`, 0..=1: silent at rest, `√(v / FULL_SPEED)`,
    /// full from `FULL_SPEED` on.
    pub fn amplitude(input: &TrackInput) -> f32 {
        let v = finite_or(input.speed, 0.0).abs();
        (v / FULL_SPEED).min(1.0).sqrt()
    }

    /// How many links have struck since the voice began.
    pub fn strikes(&self) -> u64 {
        self.strikes
    }

    /// Adds `gain` × the next `out.len()` samples to `out` (mono).
    pub fn render(&mut self, input: &TrackInput, gain: f32, out: &mut [f32]) {
        let pitch = finite_or(input.link_pitch, 0.0);
        let speed = finite_or(input.speed, 0.0).abs();
        let rate = if pitch > 1e-3 {
            (speed / pitch).min(MAX_RATE)
        } else {
            0.0
        };
        let step = rate / self.sample_rate;
        let target = Self::amplitude(input);
        for o in out.iter_mut() {
            self.phase += step;
            if self.phase >= 1.0 {
                self.phase -= 1.0;
                // Each strike a little different: links and teeth wear unevenly.
                self.burst = 0.75 + 0.25 * self.noise.unit();
                self.strikes += 1;
            }
            let level = self.level.next(target);
            if self.burst < 1e-4 && level < 1e-4 {
                continue;
            }
            let excite = self.burst * self.noise.sample();
            self.burst *= self.decay;
            let ring = self.ring[0].process(&self.ring_coefs[0], excite).band
                + 0.6 * self.ring[1].process(&self.ring_coefs[1], excite).band;
            let thud = self.thud.process(&self.thud_coefs, excite).low;
            *o += gain * level * 2.0 * (ring + 1.5 * thud);
        }
    }
}
