//! The engine's voice: the exhaust's pulse train as a sum of the cycle's harmonics,
//! its timbre following the load, with intake noise on power and crackle when the
//! limiter or the overrun cuts the fuel.
//!
//! A four-stroke engine's cycle is two revolutions (a two-stroke's one); each cylinder
//! fires once per cycle, at its own point of the cycle. The exhaust pressure is a pulse
//! per firing, so the sound is periodic in the cycle: its spectrum has lines at the
//! cycle frequency `f_c = rpm / 60 · 2 / strokes` and its multiples `h·f_c`, each with
//! the complex amplitude `c_h = Σ_k w_k e^{−i2πh·o_k} / Σ_k w_k` of the pulses' offsets
//! `o_k` (fractions of the cycle) and weights `w_k`. Evenly spaced equal pulses leave
//! only every `n`-th line (the firing frequency `n·f_c` and its harmonics); a boxer's
//! late bank or a cross-plane V8's uneven banks bring the lines between back: the
//! rumble and the burble. The lines are shaped by a low-pass envelope whose cut-off
//! rises with the load (a sharper pulse on power, a softer one on the overrun) and an
//! exhaust resonance. All lines share one phase accumulator, so a jump in rpm changes
//! their frequencies and never their phase: no click (test `rpm_step_does_not_click`).

use std::f32::consts::TAU;

use wheelcollider_core::vehicle::{EngineLayout, EngineSettings};

use crate::dsp::{Noise, Smoother, Svf, SvfCoefs, finite_or, smoothstep};

/// What the engine is doing, once per game frame.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct EngineInput {
    /// Engine speed (rpm), ≥ 0.
    pub rpm: f32,
    /// The throttle the engine got, 0..=1.
    pub throttle: f32,
    /// Engine torque over its peak torque, −1..=1 (negative on the overrun).
    pub load: f32,
    /// The rev limiter is cutting the fuel.
    pub limiter: bool,
    /// The engine runs (false: stalled or off, silent).
    pub running: bool,
}

/// Samples between two updates of the harmonics' amplitudes (the controls are
/// smoothed, so a step of 32 samples is inaudible).
const BLOCK: usize = 32;
/// The highest line played (Hz), below the sample rate's limit.
const TOP_FREQUENCY: f32 = 7000.0;
/// Harmonic lines kept: evenly firing engines keep this many multiples of the firing
/// frequency, unevenly firing ones twice as many multiples of the cycle frequency.
const LINES: usize = 64;

/// One exhaust pulse per cylinder: where in the cycle it arrives (fraction) and how
/// strong it is.
fn pulses(engine: &EngineSettings) -> Vec<(f32, f32)> {
    let n = engine.cylinders.max(1) as usize;
    let even = |k: usize| (k as f32 / n as f32, 1.0);
    match engine.layout {
        EngineLayout::Flat if n.is_multiple_of(2) => (0..n)
            .map(|k| {
                // Unequal-length headers: every other pulse arrives late and a little
                // weaker, which brings back the line at half the firing frequency (test
                // `layouts_have_their_characters`).
                let late = k % 2 == 1;
                let offset = (k as f32 + if late { 0.15 } else { 0.0 }) / n as f32;
                (offset, if late { 0.9 } else { 1.0 })
            })
            .collect(),
        EngineLayout::CrossPlaneV8 if n == 8 => {
            // Firing order 1-8-4-3-6-5-7-2, odd cylinders on the left bank: the banks
            // fire L R R L R L L R. The right bank's pipe is longer and weaker, so its
            // pulses arrive a quarter of a firing interval late.
            const RIGHT: [bool; 8] = [false, true, true, false, true, false, false, true];
            (0..8)
                .map(|k| {
                    let offset = (k as f32 + if RIGHT[k] { 0.25 } else { 0.0 }) / 8.0;
                    (offset, if RIGHT[k] { 0.6 } else { 1.0 })
                })
                .collect()
        }
        _ => (0..n).map(even).collect(),
    }
}

/// Each cylinder fires once a cycle: the cycles per revolution are the firings per
/// revolution ([`EngineSettings::firing_frequency`]) over the cylinders; a four-stroke's
/// 0.5 where the settings were never validated (no cylinder, no stroke).
fn cycles_per_rev(engine: &EngineSettings) -> f32 {
    let cycles = engine.firing_frequency(60.0) / engine.cylinders.max(1) as f32;
    if cycles.is_finite() && cycles > 0.0 {
        cycles
    } else {
        0.5
    }
}

/// The exhaust's resonance (Hz) for a layout and cylinder count: a single's expansion
/// chamber sings high, a V8's big pipes low.
fn resonance(engine: &EngineSettings) -> f32 {
    match (engine.layout, engine.cylinders) {
        (_, 1) if engine.strokes == 2 => 450.0,
        (_, 1) => 220.0,
        (EngineLayout::CrossPlaneV8, _) => 140.0,
        (EngineLayout::Flat, _) => 170.0,
        _ => 200.0,
    }
}

/// Eight lines side by side (structure of arrays), so that the per-sample sum runs
/// eight lines at once: each line's weight `w`, phasor `p` (`e^{i·h·2πφ}` at the
/// present sample) and rotor `r` (its turn per sample in this block). The lines turn
/// independently, with no chain from one to the next, and are re-synchronised to the
/// one phase `φ` at every block.
#[derive(Clone, Copy, Debug, Default)]
struct Lanes {
    wr: [f32; 8],
    wi: [f32; 8],
    pr: [f32; 8],
    pi: [f32; 8],
    rr: [f32; 8],
    ri: [f32; 8],
}

/// The engine's voice: one per car.
#[derive(Clone, Debug)]
pub struct EngineVoice {
    sample_rate: f32,
    /// Cycles per revolution (0.5 for a four-stroke, 1 for a two-stroke).
    cycles_per_rev: f32,
    cylinders: f32,
    redline: f32,
    /// Index step between the lines kept (the cylinder count for an even firing).
    step: u32,
    /// The lines' complex amplitudes `c_h`, `h = step, 2·step, …`.
    lines: Vec<[f32; 2]>,
    /// The lines' present weights (amplitude × `c_h`).
    weights: Vec<[f32; 2]>,
    /// The lines in lanes of eight for the per-sample sum: weights, phasors and rotors.
    lanes: Vec<Lanes>,
    /// The cycle's phase advance per sample in this block.
    increment: f64,
    active: usize,
    resonance: f32,
    /// The cycle's phase, 0..1 (f64: hours of play keep the phase exact).
    phase: f64,
    firing_slot: u32,
    rpm: Smoother,
    throttle: Smoother,
    load: Smoother,
    on: Smoother,
    noise: Noise,
    intake: Svf,
    intake_coefs: SvfCoefs,
    intake_gain: f32,
    pop: f32,
    pop_decay: f32,
    pop_chance: f32,
    pop_level: f32,
    pop_filter: Svf,
    pop_coefs: SvfCoefs,
    left_in_block: usize,
}

impl EngineVoice {
    /// The voice of `engine` at `sample_rate` (Hz), idling.
    pub fn new(engine: &EngineSettings, sample_rate: f32, seed: u32) -> Self {
        let pulses = pulses(engine);
        let total: f32 = pulses.iter().map(|p| p.1).sum();
        let c = |h: u32| {
            let (mut re, mut im) = (0.0, 0.0);
            for &(o, w) in &pulses {
                let a = -TAU * ((h as f64 * o as f64).fract() as f32);
                re += w * a.cos();
                im += w * a.sin();
            }
            [re / total, im / total]
        };
        let n = pulses.len() as u32;
        let even = (1..n).all(|h| {
            let [re, im] = c(h);
            re.hypot(im) < 1e-4
        });
        let (step, count) = if even { (n, LINES) } else { (1, 2 * LINES) };
        let lines: Vec<[f32; 2]> = (1..=count as u32).map(|k| c(k * step)).collect();
        let idle = engine.idle_rpm;
        Self {
            sample_rate,
            cycles_per_rev: cycles_per_rev(engine),
            cylinders: n as f32,
            redline: engine.redline_rpm.max(idle + 100.0),
            step,
            weights: vec![[0.0; 2]; lines.len()],
            lanes: vec![Lanes::default(); lines.len().div_ceil(8)],
            increment: 0.0,
            lines,
            active: 0,
            resonance: resonance(engine),
            phase: 0.0,
            firing_slot: 0,
            // Advanced a block at a time (the lines' frequencies step every 0.7 ms,
            // their phases never).
            rpm: Smoother::new(idle, 0.01, sample_rate),
            throttle: Smoother::new(0.0, 0.03, sample_rate),
            load: Smoother::new(0.0, 0.03, sample_rate),
            on: Smoother::new(1.0, 0.05, sample_rate),
            noise: Noise::new(seed),
            intake: Svf::default(),
            intake_coefs: SvfCoefs::new(800.0, 0.9, sample_rate),
            intake_gain: 0.0,
            pop: 0.0,
            pop_decay: (-1.0 / (0.004 * sample_rate)).exp(),
            pop_chance: 0.0,
            pop_level: 0.0,
            pop_filter: Svf::default(),
            pop_coefs: SvfCoefs::new(1400.0, 0.7, sample_rate),
            left_in_block: 0,
        }
    }

    /// The cycle frequency (Hz) at `rpm`.
    fn cycle_frequency(&self, rpm: f32) -> f32 {
        rpm / 60.0 * self.cycles_per_rev
    }

    /// The lines' amplitudes, the intake's and the crackle's for the smoothed controls.
    fn update_block(&mut self, input: &EngineInput) {
        let throttle = self
            .throttle
            .advance(finite_or(input.throttle, 0.0).clamp(0.0, 1.0), BLOCK);
        let load = self.load.advance(finite_or(input.load, 0.0).clamp(-1.0, 1.0), BLOCK);
        let rpm = self.rpm.value.max(0.0);
        let r = (rpm / self.redline).clamp(0.0, 1.2);
        let power = (0.5 * throttle + 0.5 * load.max(0.0)).clamp(0.0, 1.0);
        let brightness = 0.12 + 0.88 * power;
        let overrun = if load < 0.0 { 0.85 } else { 1.0 };
        let level = (0.3 + 0.7 * power) * (0.45 + 0.55 * r.min(1.0)) * overrun;
        let f_cycle = self.cycle_frequency(rpm);
        let f_fire = f_cycle * self.cylinders;
        let cutoff = f_fire * (1.0 + 6.0 * brightness) + 400.0 * brightness;
        let top = TOP_FREQUENCY.min(0.45 * self.sample_rate);
        let width = 0.4 * self.resonance;
        let mut sum = 0.0;
        self.active = 0;
        for (k, (line, weight)) in self.lines.iter().zip(self.weights.iter_mut()).enumerate() {
            let f = (k as u32 + 1) as f32 * self.step as f32 * f_cycle;
            if f >= top {
                break;
            }
            let formant = 1.0 + 1.5 * (-((f - self.resonance) / width).powi(2)).exp();
            // Lines fade out over the last 20 % below the top, so that a rising rpm
            // never drops one abruptly.
            let taper = 1.0 - smoothstep(0.8 * top, top, f);
            let a = taper * formant / (1.0 + (f / cutoff).powi(2));
            *weight = [a * line[0], a * line[1]];
            sum += a * a * (line[0] * line[0] + line[1] * line[1]);
            self.active = k + 1;
        }
        // The lines' RMS is a quarter of the level (−12 dB at full power).
        let norm = if sum > 0.0 {
            0.25 * level / (0.5 * sum).sqrt()
        } else {
            0.0
        };
        for w in &mut self.weights[..self.active] {
            w[0] *= norm;
            w[1] *= norm;
        }
        self.intake_coefs = SvfCoefs::new(500.0 + 2500.0 * r, 0.9, self.sample_rate);
        self.intake_gain = 0.35 * level * throttle * (0.3 + 0.7 * r.min(1.0));
        self.pop_chance = if input.limiter {
            0.2
        } else if throttle < 0.05 && load < 0.0 && r > 0.5 {
            0.08 * (r - 0.5) / 0.5
        } else {
            0.0
        };
        self.pop_level = 0.35 * (0.5 + 0.5 * r.min(1.0));
    }

    /// Starts a block at the smoothed rpm: each line's weight, its phasor from the one
    /// phase, and its rotation per sample, packed in lanes.
    fn start_block(&mut self) {
        self.increment = (self.cycle_frequency(self.rpm.value) / self.sample_rate) as f64;
        let step = self.step as f64;
        let (s0, c0) = (TAU * ((self.phase * step).fract() as f32)).sin_cos();
        let (s1, c1) = (TAU * ((self.increment * step).fract() as f32)).sin_cos();
        let (mut p, mut r) = ([c0, s0], [c1, s1]);
        for lane in &mut self.lanes {
            *lane = Lanes::default();
        }
        for (k, w) in self.weights[..self.active].iter().enumerate() {
            let (lane, j) = (&mut self.lanes[k / 8], k % 8);
            (lane.wr[j], lane.wi[j]) = (w[0], w[1]);
            (lane.pr[j], lane.pi[j]) = (p[0], p[1]);
            (lane.rr[j], lane.ri[j]) = (r[0], r[1]);
            p = [p[0] * c0 - p[1] * s0, p[0] * s0 + p[1] * c0];
            r = [r[0] * c1 - r[1] * s1, r[0] * s1 + r[1] * c1];
        }
    }

    /// The lines' sum at the present sample, each line's phasor then turned by a sample.
    #[allow(
        clippy::needless_range_loop,
        reason = "seven arrays indexed in step: the loop the compiler vectorises"
    )]
    fn harmonics(&mut self) -> f32 {
        let mut acc = [0.0f32; 8];
        for l in &mut self.lanes[..self.active.div_ceil(8)] {
            for j in 0..8 {
                acc[j] += l.wr[j] * l.pr[j] - l.wi[j] * l.pi[j];
                let re = l.pr[j] * l.rr[j] - l.pi[j] * l.ri[j];
                l.pi[j] = l.pr[j] * l.ri[j] + l.pi[j] * l.rr[j];
                l.pr[j] = re;
            }
        }
        acc.iter().sum()
    }

    /// Adds `gain` × the next `out.len()` samples to `out` (mono).
    pub fn render(&mut self, input: &EngineInput, gain: f32, out: &mut [f32]) {
        let target_rpm = finite_or(input.rpm, 0.0).clamp(0.0, 2.0 * self.redline);
        let on_target = if input.running { 1.0 } else { 0.0 };
        for o in out.iter_mut() {
            if self.left_in_block == 0 {
                self.rpm.advance(target_rpm, BLOCK);
                self.update_block(input);
                self.start_block();
                self.left_in_block = BLOCK;
            }
            self.left_in_block -= 1;
            let on = self.on.next(on_target);
            let harmonic = self.harmonics();
            self.phase += self.increment;
            self.phase -= self.phase.floor();
            let noise = self.noise.sample();
            let intake = self.intake_gain * self.intake.process(&self.intake_coefs, noise).band;
            let slot = (self.phase * self.cylinders as f64) as u32;
            if slot != self.firing_slot {
                self.firing_slot = slot;
                if self.pop_chance > 0.0 && self.noise.unit() < self.pop_chance {
                    self.pop = self.pop_level * (0.5 + 0.5 * self.noise.unit());
                }
            }
            let pop = self.pop * self.pop_filter.process(&self.pop_coefs, noise).band * 3.0;
            self.pop *= self.pop_decay;
            *o += gain * on * (harmonic + intake + pop);
        }
    }
}
