//! Perlin road bumps, as the original's `Mathf.PerlinNoise` road roughness.
//!
//! `bump = (perlin(x · period, z · period) − 0.5) · amplitude`, with `perlin` in
//! [0, 1], so the bump spans [−amplitude/2, +amplitude/2] (m). `x`, `z` are the hit
//! point's world coordinates (m) and `period` a spatial frequency (1/m): bigger is
//! finer. The noise is the `noise` crate's gradient Perlin noise (seed 0), whose output
//! in [−1, 1] is mapped to [0, 1]; like Unity's, it is 0.5 (no bump) on integer lattice
//! points, so a period of 0 means a flat road.

use noise::{NoiseFn, Perlin};
use std::sync::OnceLock;

fn perlin() -> &'static Perlin {
    static PERLIN: OnceLock<Perlin> = OnceLock::new();
    PERLIN.get_or_init(|| Perlin::new(Perlin::DEFAULT_SEED))
}

/// Perlin noise in [0, 1] at `(x, y)`.
pub fn perlin01(x: f64, y: f64) -> f64 {
    (0.5 * (perlin().get([x, y]) + 1.0)).clamp(0.0, 1.0)
}

/// The road bump (m) under a hit at world `(x, z)` for a surface of `period` (1/m) and
/// `amplitude` (m); exactly 0 when either is 0.
pub fn perlin_bump(x: f32, z: f32, period: f32, amplitude: f32) -> f64 {
    if amplitude == 0.0 || period == 0.0 {
        return 0.0;
    }
    let (x, z) = (x as f64 * period as f64, z as f64 * period as f64);
    if !(x.is_finite() && z.is_finite()) {
        return 0.0;
    }
    // The noise is periodic on a 256 lattice: fold far coordinates back so that large
    // world positions keep their precision.
    let (x, z) = (x.rem_euclid(256.0), z.rem_euclid(256.0));
    (perlin01(x, z) - 0.5) * amplitude as f64
}
