//! A tyre's voices: its squeal when it slides and the road under it (a rumble, the
//! hiss of asphalt, the crunch of gravel, the swish of grass), per wheel.
//!
//! The squeal is the tread's stick-slip at the edge of the contact patch: narrow-band
//! noise around 600–1 000 Hz whose pitch rises with the slip speed, its amplitude the
//! skid intensity times the ground's squeal (0 on grass). It is exactly silent at
//! zero intensity (test `squeal_silent_without_skid`) and rises with it (test
//! `squeal_rises_with_skid`). The road's sounds scale with the rolling speed.

use crate::dsp::{Noise, Smoother, Svf, SvfCoefs, finite_or};

/// How a ground sounds under a tyre: the gains of the road voices (each ≥ 0, about
/// 0..=1.5; 1 is asphalt's rumble and hiss).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct GroundSound {
    /// Low rumble of the tread over the surface's texture (80–200 Hz).
    pub rumble: f32,
    /// High hiss of the tread (above 2.5 kHz).
    pub hiss: f32,
    /// Stones under the tyre: random clicks, denser with speed.
    pub crunch: f32,
    /// Grass or earth brushing the tyre (a band around 450 Hz).
    pub swish: f32,
    /// How much the tyre squeals when it slides on this ground.
    pub squeal: f32,
}

impl GroundSound {
    /// Asphalt: rumble, hiss and full squeal.
    pub const ASPHALT: Self = Self {
        rumble: 1.0,
        hiss: 1.0,
        crunch: 0.0,
        swish: 0.0,
        squeal: 1.0,
    };
    /// Gravel: a heavier rumble and the crunch of stones, little squeal.
    pub const GRAVEL: Self = Self {
        rumble: 1.3,
        hiss: 0.3,
        crunch: 1.0,
        swish: 0.0,
        squeal: 0.1,
    };
    /// Grass: a soft swish, no squeal.
    pub const GRASS: Self = Self {
        rumble: 0.6,
        hiss: 0.1,
        crunch: 0.1,
        swish: 1.0,
        squeal: 0.0,
    };
    /// Ice: a thin hiss, a faint squeal.
    pub const ICE: Self = Self {
        rumble: 0.3,
        hiss: 0.6,
        crunch: 0.0,
        swish: 0.0,
        squeal: 0.2,
    };
    /// Steel plate or a grate: a loud hollow rumble.
    pub const METAL: Self = Self {
        rumble: 1.6,
        hiss: 0.7,
        crunch: 0.2,
        swish: 0.0,
        squeal: 0.7,
    };
}

impl Default for GroundSound {
    fn default() -> Self {
        Self::ASPHALT
    }
}

/// What one tyre is doing, once per game frame.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TyreInput {
    /// The wheel touches the ground.
    pub grounded: bool,
    /// How hard it slides, 0..=1 (0 up to the tyre's peak slip, 1 at twice it).
    pub skid: f32,
    /// Speed of the tread over the ground (m/s, ≥ 0): how fast it slides.
    pub slip_speed: f32,
    /// Speed of the wheel over the ground (m/s, sign ignored).
    pub rolling_speed: f32,
    /// The ground under it.
    pub ground: GroundSound,
}

/// The mix of one tyre's voices: the squeal and the road apart, so that each has its
/// own volume.
#[derive(Clone, Copy, Debug, Default)]
pub struct TyreGains {
    /// The squeal's gain.
    pub squeal: f32,
    /// The road's gain.
    pub road: f32,
}

/// One tyre's voices.
#[derive(Clone, Debug)]
pub struct TyreVoice {
    sample_rate: f32,
    noise: Noise,
    squeal: [Svf; 2],
    squeal_coefs: [SvfCoefs; 2],
    squeal_gain: Smoother,
    rumble: Svf,
    rumble_coefs: SvfCoefs,
    hiss: Svf,
    hiss_coefs: SvfCoefs,
    swish: Svf,
    swish_coefs: SvfCoefs,
    crunch: [Svf; 2],
    crunch_coefs: [SvfCoefs; 2],
    /// The road voices' gains, smoothed: rumble, hiss, swish, crunch (clicks per
    /// sample), crunch's level.
    road: [Smoother; 5],
    left_in_block: usize,
}

/// Squeal's band-passed noise needs this gain to reach an RMS of about 0.1 at full
/// intensity (a bandwidth of f/Q keeps little of white noise's power).
const SQUEAL_GAIN: f32 = 1.2;

impl TyreVoice {
    /// A quiet tyre at `sample_rate` (Hz).
    pub fn new(sample_rate: f32, seed: u32) -> Self {
        let fs = sample_rate;
        let s = |v| Smoother::new(v, 0.04, fs);
        Self {
            sample_rate,
            noise: Noise::new(seed),
            squeal: [Svf::default(); 2],
            squeal_coefs: [SvfCoefs::new(700.0, 12.0, fs), SvfCoefs::new(1400.0, 10.0, fs)],
            squeal_gain: Smoother::new(0.0, 0.03, fs),
            rumble: Svf::default(),
            rumble_coefs: SvfCoefs::new(100.0, 0.8, fs),
            hiss: Svf::default(),
            hiss_coefs: SvfCoefs::new(2500.0, 0.7, fs),
            swish: Svf::default(),
            swish_coefs: SvfCoefs::new(450.0, 1.2, fs),
            crunch: [Svf::default(); 2],
            crunch_coefs: [SvfCoefs::new(1800.0, 3.0, fs), SvfCoefs::new(4200.0, 2.0, fs)],
            road: [s(0.0), s(0.0), s(0.0), s(0.0), s(0.0)],
            left_in_block: 0,
        }
    }

    /// The squeal's amplitude for `input`: skid × the ground's squeal, rising to full
    /// over the first 1.5 m/s of slip speed; 0 in the air.
    pub fn squeal_amplitude(input: &TyreInput) -> f32 {
        if !input.grounded || !input.skid.is_finite() || !input.slip_speed.is_finite() {
            return 0.0;
        }
        let slide = (input.slip_speed.abs() / 1.5).min(1.0);
        input.skid.clamp(0.0, 1.0) * input.ground.squeal.max(0.0) * slide
    }

    fn update_block(&mut self, input: &TyreInput) -> [f32; 5] {
        let fs = self.sample_rate;
        let skid = finite_or(input.skid, 0.0).clamp(0.0, 1.0);
        let slip = finite_or(input.slip_speed, 0.0).abs().min(30.0);
        let f0 = 620.0 + 180.0 * skid + 25.0 * slip.min(12.0);
        self.squeal_coefs = [SvfCoefs::new(f0, 12.0, fs), SvfCoefs::new(2.03 * f0, 10.0, fs)];
        let v = if input.grounded {
            finite_or(input.rolling_speed, 0.0).abs().min(150.0)
        } else {
            0.0
        };
        self.rumble_coefs = SvfCoefs::new(80.0 + 3.0 * v, 0.8, fs);
        let g = &input.ground;
        [
            0.25 * g.rumble.max(0.0) * (v / 25.0).min(1.0),
            0.12 * g.hiss.max(0.0) * (v / 40.0).powf(1.5).min(2.0),
            0.5 * g.swish.max(0.0) * (v / 15.0).min(1.0),
            g.crunch.max(0.0) * (v * 40.0 / fs).min(0.05),
            0.6 * g.crunch.max(0.0) * (v / 10.0).min(1.0),
        ]
    }

    /// Adds the next `out.len()` samples to `out` (mono), the squeal at `gains.squeal`
    /// and the road at `gains.road`.
    pub fn render(&mut self, input: &TyreInput, gains: TyreGains, out: &mut [f32]) {
        let squeal_target = Self::squeal_amplitude(input) * SQUEAL_GAIN;
        let mut road_target = [0.0; 5];
        for o in out.iter_mut() {
            if self.left_in_block == 0 {
                road_target = self.update_block(input);
                self.left_in_block = 32;
            }
            self.left_in_block -= 1;
            let n = self.noise.sample();
            let a = self.squeal_gain.next(squeal_target);
            let mut sample = 0.0;
            if a > 0.0 {
                let s0 = self.squeal[0].process(&self.squeal_coefs[0], n).band;
                let s1 = self.squeal[1].process(&self.squeal_coefs[1], n).band;
                sample += gains.squeal * a * (s0 + 0.5 * s1);
            }
            let [rumble, hiss, swish, density, crunch] = std::array::from_fn(|i| self.road[i].next(road_target[i]));
            let r = rumble * self.rumble.process(&self.rumble_coefs, n).low
                + hiss * self.hiss.process(&self.hiss_coefs, n).high
                + swish * self.swish.process(&self.swish_coefs, n).band;
            // A stone: an impulse of random size now and then, ringing in two bands.
            let click = if density > 0.0 && self.noise.unit() < density {
                self.noise.sample()
            } else {
                0.0
            };
            let c = self.crunch[0].process(&self.crunch_coefs[0], click).band
                + 0.7 * self.crunch[1].process(&self.crunch_coefs[1], click).band;
            sample += gains.road * (r + crunch * 4.0 * c);
            *o += sample;
        }
    }
}
