//! The building blocks every voice shares: white noise, a state-variable filter, a
//! one-pole smoother and the soft limiter. All run per sample at the mixer's rate and
//! allocate nothing.

use std::f32::consts::PI;

/// White noise, uniform in `[-1, 1)`: a xorshift32 generator (Marsaglia 2003), so a
/// voice's noise is the same on every run for the same seed.
#[derive(Clone, Debug)]
pub struct Noise(u32);

impl Noise {
    /// A generator from `seed` (0 is replaced by 1: xorshift needs a non-zero state).
    pub fn new(seed: u32) -> Self {
        Self(seed.max(1))
    }

    /// The next sample, in `[-1, 1)`.
    #[inline]
    pub fn sample(&mut self) -> f32 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        self.0 = x;
        (x >> 8) as f32 * (2.0 / (1u32 << 24) as f32) - 1.0
    }

    /// The next sample mapped to `[0, 1)`.
    #[inline]
    pub fn unit(&mut self) -> f32 {
        0.5 * (self.sample() + 1.0)
    }
}

/// The coefficients of a [`Svf`] for one cut-off and resonance.
#[derive(Clone, Copy, Debug, Default)]
pub struct SvfCoefs {
    k: f32,
    a1: f32,
    a2: f32,
    a3: f32,
}

impl SvfCoefs {
    /// A filter at `frequency` (Hz, clamped to 10 Hz ..= 0.45 × the sample rate) with
    /// quality `q` (clamped to 0.3 ..= 50), at `sample_rate` (Hz).
    pub fn new(frequency: f32, q: f32, sample_rate: f32) -> Self {
        let f = frequency.clamp(10.0, 0.45 * sample_rate);
        let g = (PI * f / sample_rate).tan();
        let k = 1.0 / q.clamp(0.3, 50.0);
        let a1 = 1.0 / (1.0 + g * (g + k));
        let a2 = g * a1;
        Self { k, a1, a2, a3: g * a2 }
    }
}

/// A state-variable filter in its trapezoidal form (Zavalishin, *The Art of VA Filter
/// Design*, ch. 4; Simper's "SvfLinearTrapOptimised2"): stable for any cut-off, so it
/// may be swept every block without clicks. One input, three outputs.
#[derive(Clone, Copy, Debug, Default)]
pub struct Svf {
    ic1: f32,
    ic2: f32,
}

/// The three outputs of one [`Svf`] step.
#[derive(Clone, Copy, Debug)]
pub struct SvfOut {
    /// Low-pass (unit gain below the cut-off).
    pub low: f32,
    /// Band-pass normalised to unit gain at the centre.
    pub band: f32,
    /// High-pass (unit gain above the cut-off).
    pub high: f32,
}

impl Svf {
    /// One sample through the filter.
    #[inline]
    pub fn process(&mut self, c: &SvfCoefs, x: f32) -> SvfOut {
        let v3 = x - self.ic2;
        let v1 = c.a1 * self.ic1 + c.a2 * v3;
        let v2 = self.ic2 + c.a2 * self.ic1 + c.a3 * v3;
        self.ic1 = 2.0 * v1 - self.ic1;
        self.ic2 = 2.0 * v2 - self.ic2;
        SvfOut {
            low: v2,
            band: c.k * v1,
            high: x - c.k * v1 - v2,
        }
    }
}

/// A one-pole smoother: `y += a·(x − y)` each sample, `a = 1 − e^(−1/(τ·fs))`: a step in
/// its target is followed with the time constant `τ`. Controls arrive once per game
/// frame; the smoother turns the frame's staircase into a curve without zipper noise
/// (test `cars_come_and_go_without_clicks`).
#[derive(Clone, Copy, Debug)]
pub struct Smoother {
    /// The current value.
    pub value: f32,
    a: f32,
}

impl Smoother {
    /// A smoother starting at `value` with time constant `tau` (s) at `sample_rate`.
    pub fn new(value: f32, tau: f32, sample_rate: f32) -> Self {
        Self {
            value,
            a: 1.0 - (-1.0 / (tau.max(1e-5) * sample_rate)).exp(),
        }
    }

    /// One sample towards `target`; the new value.
    #[inline]
    pub fn next(&mut self, target: f32) -> f32 {
        self.value += self.a * (target - self.value);
        if self.value.abs() < 1e-9 {
            self.value = 0.0;
        }
        self.value
    }

    /// `n` samples towards `target` at once (exact for a constant target).
    pub fn advance(&mut self, target: f32, n: usize) -> f32 {
        let keep = (1.0 - self.a).powi(n as i32);
        self.value = target + (self.value - target) * keep;
        if self.value.abs() < 1e-9 {
            self.value = 0.0;
        }
        self.value
    }
}

/// The soft limiter on the mix: `tanh`, linear for small signals and never reaching ±1,
/// so the output stays within ±1 whatever the voices add up to (test
/// `many_cars_stay_within_one`); a non-finite sum is silence.
#[inline]
pub fn soft_limit(x: f32) -> f32 {
    if x.is_finite() { x.tanh() } else { 0.0 }
}

/// `x` if it is finite, else `fallback`: every voice passes its inputs through it, so
/// that a NaN never reaches a smoother or a filter, whose state it would keep (test
/// `bad_input_is_silent_not_nan`).
#[inline]
pub fn finite_or(x: f32, fallback: f32) -> f32 {
    if x.is_finite() { x } else { fallback }
}

/// A level in decibels relative to full scale for an RMS `rms` (−200 dB for silence).
pub fn decibels(rms: f32) -> f32 {
    if rms > 1e-10 { 20.0 * rms.log10() } else { -200.0 }
}

/// `0` below `edge0`, `1` above `edge1`, a smooth cubic between.
#[inline]
pub fn smoothstep(edge0: f32, edge1: f32, x: f32) -> f32 {
    let t = ((x - edge0) / (edge1 - edge0)).clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}
