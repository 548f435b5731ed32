//! The Pacejka "magic formula" curve, one kind of [`TyreCurve`](super::TyreCurve):
//!
//! ```text
//! MF(s) = D · sin(C · atan(B·s − E·(B·s − atan(B·s))))
//! ```
//!
//! `s` is a slip (dimensionless), `MF(s)` the friction coefficient at that slip
//! (force / load). The curve is odd: `MF(−s) = −MF(s)`. Which coefficients make a
//! friction curve: [`MagicFormula`]'s docs.

use super::{atan, sin_cos_0_pi};
use crate::limits::{MAX_VALUE, SettingsError, check};
use crate::math;

/// The magic-formula tyre curve, with its peak solved once when it is built.
///
/// # Which coefficients make a friction curve
///
/// Write `y(x) = x − E·(x − atan x)` with `x = B·s`, so `MF = D·sin(C·atan y)`. The curve
/// is a friction curve (never negative for s ≥ 0, at most one peak) exactly when
/// `C·atan y` stays within `[0, π]` and `y` never turns back:
///
/// | coefficient | rule | why |
/// | --- | --- | --- |
/// | B | ≥ 0 (clamped) | the slope at 0 is B·C·D |
/// | D | ≥ 0 (clamped) | the peak friction coefficient |
/// | E | ≤ 1 (refused above) | `y' = 1 − E + E/(1 + x²)`: for E > 1 it turns negative past `x = 1/√(E − 1)`, so `y` falls back and the force reverses at large slip |
/// | C | ≥ 0 (clamped); ≤ 2 when E < 1, ≤ π / atan(π/2) ≈ 3.13 when E = 1 (refused above) | for E < 1, `y → ∞` and `C·atan y → C·π/2`, past π when C > 2; for E = 1, `y → π/2` and `C·atan y → C·atan(π/2)` |
///
/// With C ≤ 1 the curve rises monotonically (no finite peak). Published sets outside a
/// fixed box are kept as they are: MATLAB's wet-tarmac set B 12, C 2.3, D 0.82, E 1 is
/// a valid friction curve by this rule. A refused value returns
/// [`SettingsError::OutOfDomain`] naming the condition; the old curve stays.
///
/// # Example
/// ```
/// use wheelcollider_core::MagicFormula;
/// let mf = MagicFormula::default();
/// let peak = mf.peak_slip();
/// assert!(mf.eval(peak) > mf.eval(peak * 0.9) && mf.eval(peak) > mf.eval(peak * 1.1));
/// assert!((mf.eval(-0.2) + mf.eval(0.2)).abs() < 1e-6); // odd
/// ```
#[derive(Clone, Debug)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct MagicFormula {
    b: f32,
    c: f32,
    d: f32,
    e: f32,
    peak_slip: f32,
    peak_value: f32,
    /// The curve's shape tabulated for fast evaluation, shared by every curve with the
    /// same C and E (see [`CurveTable`]). Rebuilt by [`MagicFormula::new`]; a curve
    /// made otherwise (by reflection) evaluates the formula directly.
    #[cfg_attr(feature = "bevy_reflect", reflect(ignore))]
    table: Option<std::sync::Arc<CurveTable>>,
}

/// Equal when the coefficients and the solved peak are, and both curves have a
/// current table or neither has (so that the plugin's settings validation rebuilds a
/// curve whose coefficients were changed by reflection).
impl PartialEq for MagicFormula {
    fn eq(&self, other: &Self) -> bool {
        (self.b, self.c, self.d, self.e, self.peak_slip, self.peak_value)
            == (other.b, other.c, other.d, other.e, other.peak_slip, other.peak_value)
            && self.current_table().is_some() == other.current_table().is_some()
    }
}

/// The shape of the curve, `g(x) = sin(C·atan(x − E·(x − atan x)))` with `x = B·s`,
/// and its slope at [`CurveTable::NODES`] evenly spaced points of `x` in
/// `0 ..= CurveTable::X_MAX`, evaluated in f64: a cubic Hermite interpolation between
/// them is within 1e-7 of the formula (tested), and costs a third of evaluating it.
/// `MF(s) = D · g(B·s)`, so one table serves every B and D.
#[derive(Debug)]
pub struct CurveTable {
    c: f32,
    e: f32,
    /// `(g, h·g')` per node, `h` the node spacing.
    nodes: Box<[[f32; 2]]>,
}

impl CurveTable {
    /// Tabulated range of `x = B·s`; beyond it (a slip above 3.2 for B = 10) the
    /// formula is evaluated directly.
    pub const X_MAX: f32 = 32.0;
    /// Nodes per unit of `x`.
    const PER_UNIT: f32 = 32.0;
    /// Number of nodes.
    pub const NODES: usize = (Self::X_MAX * Self::PER_UNIT) as usize + 1;

    fn build(c: f32, e: f32) -> Self {
        let (cf, ef) = (c as f64, e as f64);
        let h = 1.0 / Self::PER_UNIT as f64;
        let nodes = (0..Self::NODES)
            .map(|i| {
                let x = i as f64 * h;
                let y = x - ef * (x - math::atan(x));
                let (sin, cos) = math::sin_cos(cf * math::atan(y));
                let slope = cos * cf / (1.0 + y * y) * (1.0 - ef + ef / (1.0 + x * x));
                [sin as f32, (slope * h) as f32]
            })
            .collect();
        Self { c, e, nodes }
    }

    /// The table for C and E, from a small process-wide cache (tables are 8 KB; the
    /// cache keeps the last 16 shapes built, the curves keep their own alive).
    fn shared(c: f32, e: f32) -> std::sync::Arc<Self> {
        use std::sync::{Arc, Mutex};
        static CACHE: Mutex<Vec<Arc<CurveTable>>> = Mutex::new(Vec::new());
        let mut cache = CACHE.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(t) = cache
            .iter()
            .find(|t| t.c.to_bits() == c.to_bits() && t.e.to_bits() == e.to_bits())
        {
            return t.clone();
        }
        let table = Arc::new(Self::build(c, e));
        if cache.len() >= 16 {
            cache.remove(0);
        }
        cache.push(table.clone());
        table
    }

    /// `(g(x), g'(x))` for `0 ≤ x < X_MAX` by cubic Hermite interpolation.
    #[inline]
    fn eval(&self, x: f32) -> (f32, f32) {
        let t = x * Self::PER_UNIT;
        let i = (t as usize).min(Self::NODES - 2);
        let u = t - i as f32;
        let ([g0, m0], [g1, m1]) = (self.nodes[i], self.nodes[i + 1]);
        let (u2, w) = (u * u, 1.0 - u);
        let value = (1.0 + 2.0 * u) * w * w * g0 + u * w * w * m0 + u2 * (3.0 - 2.0 * u) * g1 + u2 * (u - 1.0) * m1;
        let slope = 6.0 * u * (u - 1.0) * (g0 - g1) + (3.0 * u2 - 4.0 * u + 1.0) * m0 + (3.0 * u2 - 2.0 * u) * m1;
        (value, slope * Self::PER_UNIT)
    }
}

impl Default for MagicFormula {
    fn default() -> Self {
        Self::new(10.0, 1.65, 1.5, 0.97).expect("default coefficients are finite")
    }
}

impl MagicFormula {
    /// The largest C for which the curve with this E stays a friction curve (see the
    /// [type docs](MagicFormula)): 2 for E < 1, π / atan(π/2) ≈ 3.13 for E = 1.
    pub fn max_c(e: f32) -> f32 {
        if e >= 1.0 { Self::MAX_C_AT_E_1 } else { 2.0 }
    }

    /// π / atan(π/2): the largest C with E = 1.
    pub const MAX_C_AT_E_1: f32 = 3.129_45;

    /// Builds the curve. B and D clamp to ≥ 0 and C to ≥ 0; an E above 1 or a C above
    /// [`max_c`](Self::max_c)`(E)` is refused with [`SettingsError::OutOfDomain`], a
    /// non-finite coefficient with [`SettingsError::NonFinite`] (see the
    /// [type docs](MagicFormula) for why). Errors name the coefficients `magic_formula_b` …
    /// `magic_formula_e`.
    pub fn new(b: f32, c: f32, d: f32, e: f32) -> Result<Self, SettingsError> {
        Self::named(
            [
                "magic_formula_b",
                "magic_formula_c",
                "magic_formula_d",
                "magic_formula_e",
            ],
            b,
            c,
            d,
            e,
        )
    }

    /// [`new`](Self::new) with the names errors give the four coefficients.
    pub(crate) fn named(names: [&'static str; 4], b: f32, c: f32, d: f32, e: f32) -> Result<Self, SettingsError> {
        let b = check(names[0], b, 0.0, 1.0e4)?;
        let c = check(names[1], c, 0.0, MAX_VALUE)?;
        let d = check(names[2], d, 0.0, 1.0e3)?;
        let e = check(names[3], e, -MAX_VALUE, MAX_VALUE)?;
        if e > 1.0 {
            return Err(SettingsError::OutOfDomain {
                field: names[3],
                value: e,
                condition: "E must be at most 1: above it the curve folds back and the force reverses at large slip",
            });
        }
        if c > Self::max_c(e) {
            return Err(SettingsError::OutOfDomain {
                field: names[1],
                value: c,
                condition: "C must be at most 2 while E < 1 (the curve tends to D·sin(C·π/2), negative above 2), \
                            or at most 3.13 = π/atan(π/2) with E = 1",
            });
        }
        let mut mf = Self {
            b,
            c,
            d,
            e,
            peak_slip: 0.0,
            peak_value: 0.0,
            table: Some(CurveTable::shared(c, e)),
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
    /// (C ≤ 1, or C ≤ 1.57 with E = 1), this is the slip at which it reaches 99 % of its supremum; where it is
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

    /// `(MF(s), dMF/ds)` for `s ≥ 0`, returned in f64 for the solver: from the curve's
    /// [`CurveTable`] for `B·s` below [`CurveTable::X_MAX`], else from the formula in f32
    /// (the curve's own precision) with this module's [`atan`] and [`sin_cos_0_pi`].
    #[inline]
    pub(crate) fn eval_with_slope(&self, s: f64) -> (f64, f64) {
        self.eval_scaled(s, 1.0)
    }

    /// `(MF, dMF/ds)` of the curve with its B multiplied by `b_scale` (the load's
    /// effect on the slip stiffness, see `WheelSettings::stiffness_peak_load`), for
    /// `s ≥ 0`: the shape table depends on C and E only, so a scaled B costs nothing.
    #[inline]
    pub(crate) fn eval_scaled(&self, s: f64, b_scale: f32) -> (f64, f64) {
        let s = s.min(1.0e6) as f32;
        let (b, d) = (self.b * b_scale, self.d);
        let x = b * s;
        if x < CurveTable::X_MAX
            && let Some(table) = self.current_table()
        {
            let (g, dg) = table.eval(x);
            return ((d * g) as f64, (d * dg * b) as f64);
        }
        self.eval_formula(x, b)
    }

    /// The table, if it was built for this curve's C and E.
    #[inline]
    fn current_table(&self) -> Option<&CurveTable> {
        self.table
            .as_deref()
            .filter(|t| t.c.to_bits() == self.c.to_bits() && t.e.to_bits() == self.e.to_bits())
    }

    /// `(MF, dMF/ds)` at `x = b·s` from the formula itself (`b` the scaled B).
    #[inline]
    fn eval_formula(&self, x: f32, b: f32) -> (f64, f64) {
        let (c, d, e) = (self.c, self.d, self.e);
        let atan_x = atan(x);
        let y = x - e * (x - atan_x);
        let phi = c * atan(y);
        let (sin_phi, cos_phi) = sin_cos_0_pi(phi);
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
        // C·atan(y) tends to C·π/2 (E < 1) or C·atan(π/2) (E = 1, y → π/2).
        let phi_sup = c * if e < 1.0 { half_pi } else { math::atan(half_pi) };
        let phi_target = if phi_sup > half_pi {
            half_pi
        } else {
            // No finite peak: aim for 99 % of the supremum D·sin(φ_sup).
            math::asin(0.99 * math::sin(phi_sup))
        };
        let y_target = math::tan(phi_target / c);
        let y = |x: f64| x - e * (x - math::atan(x));
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
        (0.5 * (lo + hi) / b).min(MAX_VALUE as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fast curve against the same formula evaluated in f64 with libm: within f32's
    /// resolution of the result for the default and the shipped presets' coefficients.
    #[test]
    fn curve_matches_f64_formula() {
        for (b, c, d, e) in [(10.0, 1.65, 1.5, 0.97), (12.0, 1.9, 1.1, 0.3), (6.0, 1.3, 1.0, -2.0)] {
            let mf = MagicFormula::new(b, c, d, e).unwrap();
            let (b, c, d, e) = (b as f64, c as f64, d as f64, e as f64);
            // Up to a slip of 4: the table (x = B·s < 32) and the formula beyond it.
            for i in 0..40_000 {
                let s = i as f64 * 1e-4;
                let x = b * s;
                let y = x - e * (x - x.atan());
                let exact = d * (c * y.atan()).sin();
                let slope = d * (c * y.atan()).cos() * c / (1.0 + y * y) * b * (1.0 - e + e / (1.0 + x * x));
                let (f, df) = mf.eval_with_slope(s);
                // The table within 4e-7; the formula in f32 beyond it within 1e-6.
                let tol = if x < CurveTable::X_MAX as f64 { 4e-7 } else { 1e-6 };
                assert!((f - exact).abs() < tol * d, "MF({s}) = {f}, exact {exact}");
                assert!((df - slope).abs() < 2e-5 * b * c * d, "MF'({s}) = {df}, exact {slope}");
            }
        }
    }
}
