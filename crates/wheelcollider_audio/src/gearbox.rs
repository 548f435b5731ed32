//! The gearbox's whine: the mesh frequency of the gear pair carrying the torque,
//! `f = output shaft rev/s × teeth`, louder under load. Forward gears are helical and
//! hum quietly; reverse is straight-cut and whines (test `reverse_whines_louder`).

use std::f32::consts::TAU;

use crate::dsp::{Smoother, finite_or, smoothstep};

/// What the gearbox is doing, once per game frame.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct GearboxInput {
    /// The gearbox output shaft's speed (rpm, sign ignored).
    pub shaft_rpm: f32,
    /// How hard the gears are loaded, 0..=1 (engine torque over its peak, magnitude).
    pub load: f32,
    /// In reverse: the straight-cut gear.
    pub reverse: bool,
}

/// Teeth on the forward gears' output wheel (helical).
const FORWARD_TEETH: f32 = 27.0;
/// Teeth on the reverse idler path (straight-cut).
const REVERSE_TEETH: f32 = 17.0;

/// The gearbox's voice: one per car.
#[derive(Clone, Debug)]
pub struct GearboxVoice {
    sample_rate: f32,
    phase: f32,
    frequency: Smoother,
    gain: Smoother,
}

impl GearboxVoice {
    /// A silent gearbox at `sample_rate` (Hz).
    pub fn new(sample_rate: f32) -> Self {
        Self {
            sample_rate,
            phase: 0.0,
            frequency: Smoother::new(0.0, 0.02, sample_rate),
            gain: Smoother::new(0.0, 0.03, sample_rate),
        }
    }

    /// Adds `gain` × the next `out.len()` samples to `out` (mono).
    pub fn render(&mut self, input: &GearboxInput, gain: f32, out: &mut [f32]) {
        let rpm = finite_or(input.shaft_rpm, 0.0).abs().min(20_000.0);
        let teeth = if input.reverse { REVERSE_TEETH } else { FORWARD_TEETH };
        let f = rpm / 60.0 * teeth;
        let load = finite_or(input.load, 0.0).abs().min(1.0);
        let base = if input.reverse { 0.12 } else { 0.02 };
        // Silent below 60 Hz (a crawl), fading out towards the top of hearing's comfort.
        let target = base * (0.3 + 0.7 * load) * smoothstep(60.0, 300.0, f) * (1.0 - smoothstep(6000.0, 9000.0, f));
        for o in out.iter_mut() {
            let f = self.frequency.next(f);
            let g = self.gain.next(target);
            self.phase += f / self.sample_rate;
            self.phase -= self.phase.floor();
            let a = TAU * self.phase;
            *o += gain * g * (a.sin() + 0.3 * (2.0 * a).sin());
        }
    }
}
