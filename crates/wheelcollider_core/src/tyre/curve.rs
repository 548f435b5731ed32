//! [`TyreCurve`]: a tyre's friction coefficient against one slip, whatever model makes
//! it. The rest of the model reads a curve only through this type's methods: its value
//! and slope at a slip (with the slip axis scaled, which is how the load, the surface
//! and the tyre's condition act on it), its peak, its bound and its slope at zero slip.
//! A new model is its own file in `tyre/`, a variant here and one arm in each method.

use super::MagicFormula;

/// A tyre's friction curve: the friction coefficient (force / load) against a slip,
/// odd in the slip, never negative for a positive slip, with at most one peak.
///
/// # Example
/// ```
/// use wheelcollider_core::{MagicFormula, TyreCurve};
/// let curve = TyreCurve::from(MagicFormula::new(10.0, 1.65, 1.0, 0.97).unwrap());
/// assert!(curve.eval(curve.peak_slip()) <= curve.max_value());
/// assert_eq!(curve.magic_formula().map(|m| m.d()), Some(1.0));
/// ```
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
#[non_exhaustive]
pub enum TyreCurve {
    /// Pacejka's magic formula ([`MagicFormula`]).
    MagicFormula(MagicFormula),
}

impl Default for TyreCurve {
    /// The default magic formula ([`MagicFormula::default`]).
    fn default() -> Self {
        Self::MagicFormula(MagicFormula::default())
    }
}

impl From<MagicFormula> for TyreCurve {
    fn from(curve: MagicFormula) -> Self {
        Self::MagicFormula(curve)
    }
}

impl TyreCurve {
    /// The magic formula, where this curve is one.
    #[inline]
    pub fn magic_formula(&self) -> Option<&MagicFormula> {
        match self {
            Self::MagicFormula(m) => Some(m),
        }
    }

    /// The slip (≥ 0) at which the curve is largest (see [`MagicFormula::peak_slip`]
    /// for a curve without a finite peak); 0 for a flat curve.
    #[inline]
    pub fn peak_slip(&self) -> f32 {
        match self {
            Self::MagicFormula(m) => m.peak_slip(),
        }
    }

    /// The friction coefficient at [`peak_slip`](Self::peak_slip).
    #[inline]
    pub fn peak_value(&self) -> f32 {
        match self {
            Self::MagicFormula(m) => m.peak_value(),
        }
    }

    /// A bound on the friction coefficient at every slip (the magic formula's D): the
    /// largest force the tyre can make over its load, which the spin solve's bracket
    /// uses.
    #[inline]
    pub fn max_value(&self) -> f32 {
        match self {
            Self::MagicFormula(m) => m.d(),
        }
    }

    /// The slope at zero slip (the magic formula's B·C·D): the tyre's slip stiffness
    /// per unit load.
    #[inline]
    pub fn stiffness(&self) -> f32 {
        match self {
            Self::MagicFormula(m) => m.stiffness(),
        }
    }

    /// The friction coefficient at slip `s` (odd in `s`).
    #[inline]
    pub fn eval(&self, s: f32) -> f32 {
        self.eval_f64(s as f64) as f32
    }

    /// The curve in f64 (odd in `s`).
    #[inline]
    pub(crate) fn eval_f64(&self, s: f64) -> f64 {
        let (f, _) = self.eval_scaled(s.abs(), 1.0);
        f.copysign(s)
    }

    /// `(f(s), df/ds)` for `s ≥ 0` of the curve with its slip axis scaled by
    /// `slip_scale` (`f(s) = curve(slip_scale·s)`): the load's effect on the slip
    /// stiffness, see `WheelSettings::stiffness_peak_load`, and a surface's.
    #[inline]
    pub(crate) fn eval_scaled(&self, s: f64, slip_scale: f32) -> (f64, f64) {
        match self {
            Self::MagicFormula(m) => m.eval_scaled(s, slip_scale),
        }
    }

    /// The longitudinal budget under a lateral slip, for ABS and traction control. With
    /// the combined slip of [`WheelSettings`](crate::WheelSettings) (normalised slip,
    /// Pacejka §4.2.2) the tyre's total force peaks on the unit circle of
    /// `(κ/κ*, σ/σ*)`; with the lateral slip at `lateral` times its own peak slip, the
    /// point of that circle at `κ/κ* = √(1 − lateral²)` gives the most longitudinal
    /// force that costs no lateral force: `√(1 − lateral²)` of this (longitudinal)
    /// curve's peak. A higher κ would give a little more along the wheel and take it
    /// from the cornering force. Past the lateral peak (`lateral` near or above 1) the
    /// point is held at `κ/κ* ≥` [`MIN_BUDGET_SLIP`](Self::MIN_BUDGET_SLIP), where the
    /// sliding tyre still gives some braking. Returns `(κ/κ*, force / peak)`; the shape
    /// in `κ/κ*` does not depend on B, so the answer holds at every load. `(1, 1)` with
    /// no lateral slip, `(0, 0)` for a flat curve.
    pub fn longitudinal_budget(&self, lateral: f32) -> (f32, f32) {
        let (peak, top) = (self.peak_slip() as f64, self.peak_value() as f64);
        if !(peak > 0.0 && top > 0.0) {
            return (0.0, 0.0);
        }
        let l = if lateral.is_finite() {
            lateral.abs().min(1.0e3) as f64
        } else {
            0.0
        };
        if l == 0.0 {
            return (1.0, 1.0);
        }
        let k = (1.0 - l * l).max(0.0).sqrt().max(Self::MIN_BUDGET_SLIP as f64);
        let rho = (k * k + l * l).sqrt();
        let f = self.eval_f64(rho * peak) * k / rho / top;
        (k as f32, f.clamp(0.0, 1.0) as f32)
    }

    /// The least normalised longitudinal slip `κ/κ*` of
    /// [`longitudinal_budget`](Self::longitudinal_budget): past the lateral peak, ABS
    /// still brakes at a quarter of the longitudinal peak slip.
    pub const MIN_BUDGET_SLIP: f32 = 0.25;
}
