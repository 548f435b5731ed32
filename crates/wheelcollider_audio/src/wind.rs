//! Wind: noise through a resonant low-pass whose cut-off rises with speed, its
//! amplitude following the dynamic pressure `½ρv²`, so ∝ v² (test `wind_follows_v2`).

use crate::dsp::{Noise, Smoother, Svf, SvfCoefs, finite_or};

/// Speed (m/s) at which the wind's amplitude is 1 (about 250 km/h).
pub const WIND_REFERENCE_SPEED: f32 = 70.0;

/// The wind's voice: one per car.
#[derive(Clone, Debug)]
pub struct WindVoice {
    sample_rate: f32,
    noise: Noise,
    filter: Svf,
    /// A slow gust, ±30 %: a new target every quarter second, smoothed.
    gust: Smoother,
    gust_target: f32,
    speed: Smoother,
    coefs: SvfCoefs,
    norm: f32,
    left_in_block: usize,
    blocks_to_gust: usize,
}

impl WindVoice {
    /// Still air at `sample_rate` (Hz).
    pub fn new(sample_rate: f32, seed: u32) -> Self {
        Self {
            sample_rate,
            noise: Noise::new(seed),
            filter: Svf::default(),
            gust: Smoother::new(1.0, 0.3, sample_rate),
            gust_target: 1.0,
            speed: Smoother::new(0.0, 0.1, sample_rate),
            coefs: SvfCoefs::new(150.0, 0.9, sample_rate),
            norm: 1.0,
            left_in_block: 0,
            blocks_to_gust: 0,
        }
    }

    /// The amplitude at `speed` (m/s): `(v / WIND_REFERENCE_SPEED)²`, at most 2.
    pub fn amplitude(speed: f32) -> f32 {
        let v = finite_or(speed, 0.0).abs();
        (v / WIND_REFERENCE_SPEED).powi(2).min(2.0)
    }

    /// Adds `gain` × the next `out.len()` samples to `out` (mono) for the car's speed
    /// through the air (m/s).
    pub fn render(&mut self, speed: f32, gain: f32, out: &mut [f32]) {
        let target = Self::amplitude(speed);
        for o in out.iter_mut() {
            if self.left_in_block == 0 {
                let v = self.speed.value.sqrt() * WIND_REFERENCE_SPEED;
                let cutoff = 150.0 + 25.0 * v;
                self.coefs = SvfCoefs::new(cutoff, 0.9, self.sample_rate);
                // Low-passed white noise has a power ∝ its cut-off: this keeps the
                // wind's level on the v² law while its colour brightens.
                self.norm = (1000.0 / cutoff).sqrt();
                self.left_in_block = 64;
                if self.blocks_to_gust == 0 {
                    self.gust_target = 0.7 + 0.6 * self.noise.unit();
                    self.blocks_to_gust = (0.25 * self.sample_rate / 64.0) as usize;
                }
                self.blocks_to_gust -= 1;
            }
            self.left_in_block -= 1;
            let a = self.speed.next(target);
            let gust = self.gust.next(self.gust_target);
            let w = self.filter.process(&self.coefs, self.noise.sample()).low;
            *o += gain * a * 0.5 * self.norm * w * gust;
        }
    }
}
