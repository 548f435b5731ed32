//! Combined slip: a wheel's two curves at its present load, surface and camber
//! ([`TyreAtLoad`]), and the forces they make for a pair of slips ([`combined`]).

use super::TyreCurve;
use crate::math;

/// The forces a tyre makes for a combined slip, and their slopes. The outputs that
/// only the caller reads (the slip's magnitude, the friction coefficient) are computed
/// once from the final forces, not at each of the spin solve's evaluations.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct TyreForces {
    /// Normalised combined slip ρ = |(κ/κ*, σ/σ*)|: 1 at the curves' peaks.
    pub normalized: f64,
    /// Longitudinal force (N), along the wheel's forward direction.
    pub fx: f64,
    /// Lateral force (N), along the wheel's sideways direction.
    pub fy: f64,
    /// ∂fx/∂κ (N per unit longitudinal slip).
    pub dfx_dkappa: f64,
}

impl TyreForces {
    /// These forces, evaluated at longitudinal slip `from`, carried along their slope to
    /// `kappa` (the spin solve's unverified last step, see [`crate::spin`]): `fx` moves
    /// by `dfx_dkappa·(kappa − from)`, `fy` is kept (its change is second order in the
    /// step), and the normalised slip is recomputed at `(kappa, sigma)`.
    pub(crate) fn carried_to(self, tyre: &TyreAtLoad, from: f64, kappa: f64, sigma: f64) -> Self {
        Self {
            normalized: tyre.normalized(kappa, sigma).2,
            fx: self.fx + self.dfx_dkappa * (kappa - from),
            ..self
        }
    }
}

/// A wheel's two curves at its present load, surface and camber: what [`combined`]
/// evaluates.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TyreAtLoad<'a> {
    /// The longitudinal curve.
    pub longitudinal: &'a TyreCurve,
    /// The lateral curve.
    pub lateral: &'a TyreCurve,
    /// Factor on the longitudinal curve's B (1 = the curve as set): the load's
    /// stiffness law and the surface's and the tyre's condition's stiffness factors over
    /// the surface's grip (see `docs/wheel-model.md` 3e).
    pub b_scale: f32,
    /// The same for the lateral curve (with the condition's lateral factor), also over
    /// [`lateral_peak`](Self::lateral_peak).
    pub b_scale_y: f32,
    /// Factor on the lateral curve's D from camber (1 = none; see
    /// `WheelSettings::camber_peak_gain`).
    pub lateral_peak: f64,
    /// The longitudinal curve's peak slip at this load, κ* (> 0).
    pub peak_x: f64,
    /// The lateral curve's peak slip at this load, σ* (> 0).
    pub peak_y: f64,
    /// `1/κ*` and `1/σ*`.
    inv_peak_x: f64,
    inv_peak_y: f64,
    /// Both directions use the same curve at the same scale.
    same: bool,
    /// The longitudinal slip's denominator over the lateral one's (1 when they are the
    /// same): `(κ·den_ratio, σ)` lies along the patch's sliding velocity.
    pub den_ratio: f64,
    /// The slips where each scaled curve's fitted range ends
    /// ([`FITTED_SLIP`](super::FITTED_SLIP) of the curve as set over its B factor).
    fitted: [f64; 2],
}

impl<'a> TyreAtLoad<'a> {
    /// The two curves with their B scaled by `b_scale` (longitudinal, lateral), and the
    /// lateral one's D by `lateral_peak` with its B divided by it (so its slope at zero
    /// slip is kept). A
    /// curve without a peak (B, C or D zero) borrows the other's peak slip for the
    /// normalisation (1 if neither has one): any common value gives the friction
    /// circle.
    pub fn new(longitudinal: &'a TyreCurve, lateral: &'a TyreCurve, b_scale: [f32; 2], lateral_peak: f64) -> Self {
        let [b_scale, b_lateral] = b_scale.map(|b| b.max(1e-6));
        let b_scale_y = (b_lateral as f64 / lateral_peak.max(1e-6)) as f32;
        let (px, py) = (
            longitudinal.peak_slip() as f64 / b_scale as f64,
            lateral.peak_slip() as f64 / b_scale_y as f64,
        );
        let (px, py) = match (px > 0.0, py > 0.0) {
            (true, true) => (px, py),
            (true, false) => (px, px),
            (false, true) => (py, py),
            (false, false) => (1.0, 1.0),
        };
        Self {
            longitudinal,
            lateral,
            b_scale,
            b_scale_y,
            lateral_peak,
            peak_x: px,
            peak_y: py,
            inv_peak_x: 1.0 / px,
            inv_peak_y: 1.0 / py,
            same: (std::ptr::eq(longitudinal, lateral) || longitudinal == lateral)
                && lateral_peak == 1.0
                && b_scale == b_lateral,
            den_ratio: 1.0,
            fitted: [
                super::FITTED_SLIP / b_scale as f64,
                super::FITTED_SLIP / b_scale_y as f64,
            ],
        }
    }

    /// Each curve's slope at the combined slip `(κ, σ)` over its slope at zero slip,
    /// `[MFx'(ρ·κ*) / MFx'(0), MFy'(ρ·σ*) / MFy'(0)]`, at least `floor`: 1 in the
    /// linear range, falling to the floor at the peak and past it. The relaxation
    /// length scales with it (Pacejka, ch. 7: the relaxation length is the slip
    /// stiffness over the carcass' stiffness, and in the non-linear model the slope of
    /// the force characteristic at the present slip takes the stiffness' place).
    pub(crate) fn slope_ratios(&self, kappa: f64, sigma: f64, floor: f64) -> [f64; 2] {
        let rho = self.normalized(kappa, sigma).2;
        let ratio = |curve: &TyreCurve, peak: f64, b: f32| {
            let k0 = curve.stiffness() as f64 * b as f64;
            if k0 > 0.0 {
                (curve.eval_scaled(rho * peak, b).1 / k0).clamp(floor, 1.0)
            } else {
                1.0
            }
        };
        [
            ratio(self.longitudinal, self.peak_x, self.b_scale),
            ratio(self.lateral, self.peak_y, self.b_scale_y),
        ]
    }

    /// The normalised slips `(κ/κ*, σ/σ*)` and their magnitude ρ. The square root in f32:
    /// the slips come from f32 velocities, and f64's square root costs twice as long on
    /// the spin solve's critical path.
    #[inline]
    pub(crate) fn normalized(&self, kappa: f64, sigma: f64) -> (f64, f64, f64) {
        let (kn, sn) = (kappa * self.inv_peak_x, sigma * self.inv_peak_y);
        (kn, sn, ((kn * kn + sn * sn) as f32).sqrt() as f64)
    }
}

/// Combined slip by normalised slip (Pacejka, *Tire and Vehicle Dynamics*, 3rd ed.,
/// §4.2.2, the "similarity" method): with `κn = κ/κ*`, `σn = σ/σ*` (each slip over its
/// curve's peak slip) and `ρ = |(κn, σn)|`,
///
/// ```text
/// Fx =  load · grip · MFx(ρ·κ*) · κn / ρ
/// Fy = −load · grip · MFy(ρ·σ*) · σn / ρ
/// ```
///
/// (`MFy` with the camber's peak factor on its D and its B divided by it, see
/// [`TyreAtLoad::new`].)
///
/// Each direction reaches its own peak at ρ = 1, so the force stays inside the friction
/// ellipse with half-axes Dx and Dy. With one curve for both directions this is the
/// friction circle: the total force `MF(|s|)·grip·load` acts against the slip vector
/// `s = (κ, σ)`. `κ > 0` (wheel faster than the ground) gives a forward force; `σ > 0`
/// (sliding towards +sideways) gives a force towards −sideways.
#[inline]
pub(crate) fn combined(tyre: &TyreAtLoad, load: f64, grip: f64, kappa: f64, sigma: f64) -> TyreForces {
    let (kn, sn, rho) = tyre.normalized(kappa, sigma);
    let scale = load * grip;
    if scale == 0.0 {
        return TyreForces {
            normalized: rho,
            ..Default::default()
        };
    }
    let (lon, lat) = (tyre.longitudinal, tyre.lateral);
    if rho < 1e-9 {
        let kx = scale * lon.stiffness() as f64 * tyre.b_scale as f64;
        let ky = scale * lat.stiffness() as f64 * tyre.b_scale_y as f64 * tyre.lateral_peak;
        return TyreForces {
            normalized: rho,
            fx: kx * kappa,
            fy: -ky * sigma,
            dfx_dkappa: kx,
        };
    }
    // ρ's inverse in f32, as ρ itself (see `TyreAtLoad::normalized`).
    let inv = (1.0 / rho as f32) as f64;
    let (ux, uy) = (kn * inv, sn * inv);
    // Each curve is read where it is fitted: up to full sliding, then its value there.
    let (mx, dmx) = read_fitted(lon, rho * tyre.peak_x, tyre.b_scale, tyre.fitted[0]);
    let my = if tyre.same {
        mx
    } else {
        tyre.lateral_peak * read_fitted(lat, rho * tyre.peak_y, tyre.b_scale_y, tyre.fitted[1]).0
    };
    let (fx, fy) = (scale * mx * ux, -scale * my * uy);
    // With s_x = ρ·κ*: d/dκ (MFx(s_x)·κn/ρ) = MFx'·ux² + MFx·uy²/(ρ·κ*).
    let dfx = scale * (dmx * ux * ux + mx * uy * uy * inv * tyre.inv_peak_x);
    if rho <= 1.0 {
        return TyreForces {
            normalized: rho,
            fx,
            fy,
            dfx_dkappa: dfx,
        };
    }
    // Past the combined peak the patch slides: the force turns from the similarity
    // method's direction to the one opposing the sliding velocity (`(κ·den_ratio, σ)`,
    // the slip vector over one denominator), over ρ = 1 ..= 2, with the friction
    // ellipse's magnitude (semi-axes the two curves' values) in that direction.
    // `docs/wheel-model.md` 3b.
    let r = tyre.den_ratio;
    let norm = math::hypot(kappa * r, sigma);
    let (dx, dy) = (kappa * r / norm, -sigma / norm);
    let ellipse = 1.0 / math::hypot(dx / mx.max(1e-12), dy / my.max(1e-12));
    let (sx, sy) = (scale * ellipse * dx, scale * ellipse * dy);
    let x = (rho - 1.0).min(1.0);
    let blend = x * x * (3.0 - 2.0 * x);
    // The slope: the blend's own change with κ (dρ/dκ = ux / κ*) and the direction's
    // (d dx/dκ = r·σ²/|s|³), the ellipse's magnitude taken as constant (it moves with
    // the curves past their peaks, slowly).
    let dblend = if x < 1.0 {
        6.0 * x * (1.0 - x) * ux * tyre.inv_peak_x
    } else {
        0.0
    };
    let dsx = scale * ellipse * r * sigma * sigma / (norm * norm * norm);
    TyreForces {
        normalized: rho,
        fx: fx + blend * (sx - fx),
        fy: fy + blend * (sy - fy),
        dfx_dkappa: dfx + blend * (dsx - dfx) + dblend * (sx - fx),
    }
}

/// A curve's value and slope at slip `s` ≥ 0 with its B scaled by `b`, read where it
/// is fitted: the curve as set spans slips up to [`FITTED_SLIP`](super::FITTED_SLIP);
/// scaled (by the load's stiffness law and a surface's grip and stiffness) it spans
/// `end = FITTED_SLIP / b`, past which it keeps its value there (slope 0). On ice, whose
/// curve is the tyre's with its slope kept and its peak lowered, a wheel spinning at
/// full slip keeps the same fraction of its peak as on asphalt.
#[inline]
fn read_fitted(curve: &TyreCurve, s: f64, b: f32, end: f64) -> (f64, f64) {
    if s <= end {
        curve.eval_scaled(s, b)
    } else {
        (curve.eval_scaled(end, b).0, 0.0)
    }
}
