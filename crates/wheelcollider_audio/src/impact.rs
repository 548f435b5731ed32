//! One-shot thumps for landings and hard contacts: a low sine whose pitch falls (the
//! body and tyres), a short crack of noise and a rattle, all as loud as the impact
//! speed makes them (test `impact_louder_with_speed`).

use std::f32::consts::TAU;

use crate::dsp::{Noise, Svf, SvfCoefs};

/// Impacts slower than this (m/s) make no sound.
pub const QUIETEST_IMPACT: f32 = 0.3;
/// Impact speed (m/s) of the loudest thump.
pub const LOUDEST_IMPACT: f32 = 8.0;
/// Thumps sounding at once per car; a new one replaces the quietest.
const MAX_THUMPS: usize = 4;

#[derive(Clone, Copy, Debug, Default)]
struct Thump {
    amplitude: f32,
    age: f32,
    phase: f32,
}

/// A car's impacts.
#[derive(Clone, Debug)]
pub struct ImpactVoice {
    sample_rate: f32,
    thumps: [Thump; MAX_THUMPS],
    noise: Noise,
    crack: Svf,
    crack_coefs: SvfCoefs,
    rattle: Svf,
    rattle_coefs: SvfCoefs,
}

impl ImpactVoice {
    /// No impacts yet, at `sample_rate` (Hz).
    pub fn new(sample_rate: f32, seed: u32) -> Self {
        Self {
            sample_rate,
            thumps: [Thump::default(); MAX_THUMPS],
            noise: Noise::new(seed),
            crack: Svf::default(),
            crack_coefs: SvfCoefs::new(1200.0, 0.7, sample_rate),
            rattle: Svf::default(),
            rattle_coefs: SvfCoefs::new(350.0, 4.0, sample_rate),
        }
    }

    /// The amplitude of a thump at `speed` (m/s): 0 below [`QUIETEST_IMPACT`], rising
    /// as `(v / LOUDEST_IMPACT)^0.7` to 1.
    pub fn amplitude(speed: f32) -> f32 {
        if !speed.is_finite() || speed < QUIETEST_IMPACT {
            return 0.0;
        }
        (speed / LOUDEST_IMPACT).min(1.0).powf(0.7)
    }

    /// Starts a thump for an impact at `speed` (m/s).
    pub fn trigger(&mut self, speed: f32) {
        let amplitude = Self::amplitude(speed);
        if amplitude <= 0.0 {
            return;
        }
        let slot = self
            .thumps
            .iter_mut()
            .min_by(|a, b| a.amplitude.total_cmp(&b.amplitude))
            .expect("MAX_THUMPS > 0");
        *slot = Thump {
            amplitude,
            age: 0.0,
            phase: 0.0,
        };
    }

    /// Adds `gain` × the next `out.len()` samples to `out` (mono).
    pub fn render(&mut self, gain: f32, out: &mut [f32]) {
        if self.thumps.iter().all(|t| t.amplitude == 0.0) {
            return;
        }
        let dt = 1.0 / self.sample_rate;
        for o in out.iter_mut() {
            let n = self.noise.sample();
            let mut body = 0.0;
            let mut crack = 0.0;
            let mut rattle = 0.0;
            for t in &mut self.thumps {
                if t.amplitude == 0.0 {
                    continue;
                }
                let f = 45.0 + 40.0 * (-t.age / 0.03).exp();
                t.phase = (t.phase + f * dt).fract();
                body += t.amplitude * (-t.age / 0.18).exp() * (TAU * t.phase).sin();
                crack += t.amplitude * (-t.age / 0.012).exp();
                rattle += t.amplitude * (-t.age / 0.08).exp();
                t.age += dt;
                if t.age > 1.2 {
                    t.amplitude = 0.0;
                }
            }
            let c = self.crack.process(&self.crack_coefs, n).low;
            let r = self.rattle.process(&self.rattle_coefs, n).band;
            *o += gain * (0.6 * body + 0.8 * crack * c + 0.6 * rattle * r);
        }
    }
}
