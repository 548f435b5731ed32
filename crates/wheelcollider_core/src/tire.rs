//! The tyre: the simplified Pacejka "magic formula", slips and combined slip.
//!
//! ```text
//! MF(s) = D · sin(C · atan(B·s − E·(B·s − atan(B·s))))
//! ```
//!
//! `s` is a slip (dimensionless), `MF(s)` the friction coefficient at that slip
//! (force / load). The curve is odd: `MF(−s) = −MF(s)`.
//!
//! | coefficient | default | limit (clamped) | meaning |
//! | --- | --- | --- | --- |
//! | B | 10 | ≥ 0 | stiffness: slope at 0 is B·C·D |
//! | C | 1.65 | 0 ..= 2 | shape: above 1 the curve has a peak, above 2 it would turn negative |
//! | D | 1.5 | ≥ 0 | peak friction coefficient |
//! | E | 0.97 | −10 ..= 1 | curvature near the peak; above 1 the curve folds back |
//!
//! The original clamps only D; the limits on B, C and E are the ranges in which the
//! formula stays a friction curve (non-negative, single-valued), and are documented here
//! because a preset can otherwise produce a tyre that pushes the wrong way.

use crate::settings::{SettingsError, check};

/// Slip denominators are at least this (m/s), as in the original (`MinDenominator`):
/// slip stays smooth through zero speed, and below this speed the tyre acts like a
/// viscous damper on the contact patch instead of an infinitely stiff one.
pub const MIN_DENOMINATOR: f32 = 10.0;

/// The magic-formula tyre curve, with its peak solved once when it is built.
///
/// # Example
/// ```
/// use wheelcollider_core::MagicFormula;
/// let mf = MagicFormula::default();
/// let peak = mf.peak_slip();
/// assert!(mf.eval(peak) > mf.eval(peak * 0.9) && mf.eval(peak) > mf.eval(peak * 1.1));
/// assert!((mf.eval(-0.2) + mf.eval(0.2)).abs() < 1e-6); // odd
/// ```
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct MagicFormula {
    b: f32,
    c: f32,
    d: f32,
    e: f32,
    peak_slip: f32,
    peak_value: f32,
}

impl Default for MagicFormula {
    fn default() -> Self {
        Self::new(10.0, 1.65, 1.5, 0.97).expect("default coefficients are finite")
    }
}

impl MagicFormula {
    /// Builds the curve, clamping B, C, D, E to the limits in the [module docs](self);
    /// a non-finite coefficient is refused with an error naming it.
    pub fn new(b: f32, c: f32, d: f32, e: f32) -> Result<Self, SettingsError> {
        let b = check("magic_formula_b", b, 0.0, 1.0e4)?;
        let c = check("magic_formula_c", c, 0.0, 2.0)?;
        let d = check("magic_formula_d", d, 0.0, 1.0e3)?;
        let e = check("magic_formula_e", e, -10.0, 1.0)?;
        let mut mf = Self {
            b,
            c,
            d,
            e,
            peak_slip: 0.0,
            peak_value: 0.0,
        };
        mf.peak_slip = mf.solve_peak() as f32;
        mf.peak_value = mf.eval(mf.peak_slip);
        Ok(mf)
    }

    /// Coefficient B.
    #[inline]
    pub fn b(&self) -> f32 {
        self.b
    }
    /// Coefficient C.
    #[inline]
    pub fn c(&self) -> f32 {
        self.c
    }
    /// Coefficient D, the peak friction coefficient.
    #[inline]
    pub fn d(&self) -> f32 {
        self.d
    }
    /// Coefficient E.
    #[inline]
    pub fn e(&self) -> f32 {
        self.e
    }
    /// The slip (≥ 0) at which the curve is largest. Where the curve has no finite peak
    /// (C ≤ 1), this is the slip at which it reaches 99 % of its supremum; where it is
    /// flat zero (B, C or D zero) it is 0.
    #[inline]
    pub fn peak_slip(&self) -> f32 {
        self.peak_slip
    }
    /// The friction coefficient at [`peak_slip`](Self::peak_slip).
    #[inline]
    pub fn peak_value(&self) -> f32 {
        self.peak_value
    }
    /// The slope at zero slip, B·C·D: the tyre's slip stiffness per unit load.
    #[inline]
    pub fn stiffness(&self) -> f32 {
        self.b * self.c * self.d
    }

    /// The friction coefficient at slip `s` (odd in `s`).
    #[inline]
    pub fn eval(&self, s: f32) -> f32 {
        self.eval_f64(s as f64) as f32
    }

    /// The curve in f64 (odd in `s`).
    #[inline]
    pub(crate) fn eval_f64(&self, s: f64) -> f64 {
        let (f, _) = self.eval_with_slope(s.abs());
        f.copysign(s)
    }

    /// `(MF(s), dMF/ds)` for `s ≥ 0`. The transcendental functions run in f32 (the
    /// curve's own precision; twice as fast as f64 here), the result is returned in f64
    /// for the solver.
    #[inline]
    pub(crate) fn eval_with_slope(&self, s: f64) -> (f64, f64) {
        let s = s.min(1.0e6) as f32;
        let (b, c, d, e) = (self.b, self.c, self.d, self.e);
        let x = b * s;
        let atan_x = x.atan();
        let y = x - e * (x - atan_x);
        let phi = c * y.atan();
        let (sin_phi, cos_phi) = phi.sin_cos();
        let dy_ds = b * (1.0 - e + e / (1.0 + x * x));
        ((d * sin_phi) as f64, (d * cos_phi * c / (1.0 + y * y) * dy_ds) as f64)
    }

    /// Solves the peak once: `C·atan(y) = π/2` with `y = B·s − E·(B·s − atan(B·s))`,
    /// which is increasing in `s` for E ≤ 1, so bisection on `x = B·s` is exact.
    fn solve_peak(&self) -> f64 {
        let (b, c, d, e) = (self.b as f64, self.c as f64, self.d as f64, self.e as f64);
        if b <= 0.0 || c <= 0.0 || d <= 0.0 {
            return 0.0;
        }
        let half_pi = core::f64::consts::FRAC_PI_2;
        let y_target = if c > 1.0 {
            (half_pi / c).tan()
        } else {
            // No finite peak: aim for 99 % of the supremum D·sin(C·π/2).
            ((0.99 * (c * half_pi).sin()).asin() / c).tan()
        };
        let y = |x: f64| x - e * (x - x.atan());
        // Bracket x.
        let mut hi = 1.0;
        while y(hi) < y_target && hi < 1.0e12 {
            hi *= 2.0;
        }
        let mut lo = 0.0;
        for _ in 0..200 {
            let mid = 0.5 * (lo + hi);
            if y(mid) < y_target {
                lo = mid;
            } else {
                hi = mid;
            }
            if hi - lo <= 1e-15 * hi {
                break;
            }
        }
        (0.5 * (lo + hi) / b).min(crate::settings::MAX_VALUE as f64)
    }
}

/// The forces a tyre makes for a combined slip, and their slopes.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct TireForces {
    /// Combined slip magnitude.
    pub slip: f64,
    /// Longitudinal force (N), along the wheel's forward direction.
    pub fx: f64,
    /// Lateral force (N), along the wheel's sideways direction.
    pub fy: f64,
    /// ∂fx/∂κ (N per unit longitudinal slip).
    pub dfx_dkappa: f64,
    /// The friction coefficient used: MF(slip) · grip (0 without load).
    pub mu: f64,
}

/// Combined slip by the friction circle: the total force `MF(|s|)·grip·load` acts
/// against the slip vector `s = (κ, σ)`, each component taking its share.
/// `κ > 0` (wheel faster than the ground) gives a forward force; `σ > 0` (sliding
/// towards +sideways) gives a force towards −sideways.
#[inline]
pub(crate) fn combined(mf: &MagicFormula, load: f64, grip: f64, kappa: f64, sigma: f64) -> TireForces {
    let slip = (kappa * kappa + sigma * sigma).sqrt();
    let scale = load * grip;
    if scale == 0.0 {
        return TireForces {
            slip,
            ..Default::default()
        };
    }
    if slip < 1e-9 {
        let k = scale * mf.stiffness() as f64;
        return TireForces {
            slip,
            fx: k * kappa,
            fy: -k * sigma,
            dfx_dkappa: k,
            mu: 0.0,
        };
    }
    let (mu, dmu) = mf.eval_with_slope(slip);
    let inv = 1.0 / slip;
    let (ux, uy) = (kappa * inv, sigma * inv);
    TireForces {
        slip,
        fx: scale * mu * ux,
        fy: -scale * mu * uy,
        // d/dκ (μ(s)·κ/s) = μ'·κ²/s² + μ·σ²/s³
        dfx_dkappa: scale * (dmu * ux * ux + mu * uy * uy * inv),
        mu: mu * grip,
    }
}
