//! Measurements on rendered sound: RMS, spectrum, centroid, fundamental.
#![allow(dead_code)]

use std::f32::consts::PI;

/// The sample rate every test renders at (Hz).
pub const FS: f32 = 48_000.0;

/// Root mean square.
pub fn rms(x: &[f32]) -> f32 {
    (x.iter().map(|v| v * v).sum::<f32>() / x.len().max(1) as f32).sqrt()
}

/// The largest sample-to-sample step.
pub fn max_step(x: &[f32]) -> f32 {
    x.windows(2).map(|w| (w[1] - w[0]).abs()).fold(0.0, f32::max)
}

/// Magnitudes of the first half of the DFT of `x[..n]` (n a power of two), after a
/// Hann window: an in-place radix-2 FFT (Cooley–Tukey).
pub fn spectrum(x: &[f32], n: usize) -> Vec<f32> {
    assert!(n.is_power_of_two() && x.len() >= n);
    let mut re: Vec<f32> = (0..n)
        .map(|i| x[i] * (0.5 - 0.5 * (2.0 * PI * i as f32 / n as f32).cos()))
        .collect();
    let mut im = vec![0.0f32; n];
    let mut j = 0;
    for i in 1..n {
        let mut bit = n >> 1;
        while j & bit != 0 {
            j ^= bit;
            bit >>= 1;
        }
        j |= bit;
        if i < j {
            re.swap(i, j);
            im.swap(i, j);
        }
    }
    let mut len = 2;
    while len <= n {
        let angle = -2.0 * PI / len as f32;
        for start in (0..n).step_by(len) {
            for k in 0..len / 2 {
                let (s, c) = (angle * k as f32).sin_cos();
                let (a, b) = (start + k, start + k + len / 2);
                let tr = re[b] * c - im[b] * s;
                let ti = re[b] * s + im[b] * c;
                re[b] = re[a] - tr;
                im[b] = im[a] - ti;
                re[a] += tr;
                im[a] += ti;
            }
        }
        len <<= 1;
    }
    (0..n / 2).map(|k| re[k].hypot(im[k])).collect()
}

/// The spectral centroid (Hz) of `x`: the power-weighted mean frequency, averaged over
/// 8 192-sample frames.
pub fn centroid(x: &[f32]) -> f32 {
    let n = 8192;
    let (mut num, mut den) = (0.0f64, 0.0f64);
    for frame in x.chunks_exact(n) {
        for (k, m) in spectrum(frame, n).iter().enumerate() {
            let p = (*m as f64).powi(2);
            num += p * k as f64 * FS as f64 / n as f64;
            den += p;
        }
    }
    (num / den) as f32
}

/// The amplitude of the component at `frequency` (Hz) of `x` (Goertzel over the whole
/// slice, Hann-windowed).
pub fn amplitude_at(x: &[f32], frequency: f32) -> f32 {
    let n = x.len();
    let w = 2.0 * PI * frequency / FS;
    let (mut re, mut im) = (0.0f64, 0.0f64);
    for (i, v) in x.iter().enumerate() {
        let hann = 0.5 - 0.5 * (2.0 * PI * i as f32 / n as f32).cos();
        let a = (w * i as f32) as f64;
        re += (v * hann) as f64 * a.cos();
        im -= (v * hann) as f64 * a.sin();
    }
    (4.0 * re.hypot(im) / n as f64) as f32
}

/// The fundamental (Hz) of `x` by its normalised autocorrelation, searched between
/// `low` and `high` Hz: the shortest lag whose correlation is within 10 % of the
/// best, refined to its peak by a parabola through the neighbours.
pub fn fundamental(x: &[f32], low: f32, high: f32) -> f32 {
    let max_lag = (FS / low) as usize;
    let min_lag = ((FS / high) as usize).max(2);
    let window = (x.len() - max_lag - 2).min(16_384);
    let energy: f32 = x[..window].iter().map(|v| v * v).sum();
    let r = |lag: usize| -> f32 {
        let mut s = 0.0;
        for i in 0..window {
            s += x[i] * x[i + lag];
        }
        s / energy
    };
    let rs: Vec<f32> = (min_lag - 1..=max_lag + 1).map(r).collect();
    let best = rs.iter().copied().fold(f32::MIN, f32::max);
    let at = |lag: usize| rs[lag + 1 - min_lag];
    let mut lag = min_lag;
    while lag <= max_lag && at(lag) < 0.9 * best {
        lag += 1;
    }
    while lag < max_lag && at(lag + 1) > at(lag) {
        lag += 1;
    }
    let (a, b, c) = (at(lag - 1), at(lag), at(lag + 1));
    let shift = 0.5 * (a - c) / (a - 2.0 * b + c);
    FS / (lag as f32 + if shift.is_finite() { shift.clamp(-0.5, 0.5) } else { 0.0 })
}

/// The shipped presets' list.
pub use wheelcollider_testing::presets::{PRESETS, preset};
