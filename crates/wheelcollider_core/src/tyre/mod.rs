//! The tyre: its friction curve ([`TyreCurve`]; the Pacejka magic formula,
//! [`MagicFormula`], is the one kind so far), the slips' definitions, and combined slip
//! over a wheel's two curves.
//!
//! A wheel has two curves, one for longitudinal slip κ and one for lateral slip σ (see
//! `combined.rs` and `docs/wheel-model.md`). A new tyre model is a file here beside
//! `magic_formula.rs`, a variant of [`TyreCurve`] and its file form in the settings'
//! `CurveDef` (`docs/architecture.md`, "Where a new part goes").

mod combined;
mod curve;
mod magic_formula;
pub(crate) use combined::{TyreAtLoad, TyreForces, combined};
pub use curve::TyreCurve;
pub use magic_formula::{CurveTable, MagicFormula};

/// Slip denominators are at least this (m/s), as in the original (`MinDenominator`):
/// slip stays smooth through zero speed, and below this speed the tyre acts like a
/// viscous damper on the contact patch instead of an infinitely stiff one.
pub const MIN_DENOMINATOR: f32 = 10.0;

/// The longitudinal slip denominator's floor (m/s) with a relaxation length. The slips
/// are read against the reference speed `V = max(|vx|, |ω·r|, floor)`: the larger of
/// the road speed and the wheel's surface speed, so a wheel spinning on the spot reads
/// at most 1 and a locked one −1 above the floor. The longitudinal floor stays this high:
/// below it the lag, applied to a chassis updated explicitly, cannot follow a real
/// slip's stiffness at a coarse step (a launch at 30 Hz spins its wheels past the peak
/// in one step, the kart parked on 20° creeps; `docs/wheel-model.md` 3c), and a locked
/// or limited-slip axle couples its wheels through the last step's torque.
pub const RELAXED_MIN_DENOMINATOR: f32 = 2.0;

/// The lateral slip denominator's floor (m/s) with a relaxation length: the lateral
/// slip is the real `tan α` down to this speed (`docs/wheel-model.md` 3c;
/// `tests/it/tyre_dynamics.rs`, `low_speed_lateral_force_follows_the_curve`). Below it
/// static friction takes over ([`STICK_SPEED`](crate::STICK_SPEED), the same speed).
pub const RELAXED_LATERAL_MIN_DENOMINATOR: f32 = 0.5;

/// The largest slip at which a curve as set is read: 1, full sliding (a locked wheel's
/// longitudinal slip, 45° laterally). Past it a curve keeps its value there; its
/// extrapolated tail is not a tyre's. A curve scaled along its slip (the load's
/// stiffness law, a surface) is read to this slip of the curve as set
/// (`docs/wheel-model.md` 3b).
pub const FITTED_SLIP: f64 = 1.0;

/// A slip's denominator (m/s) for a direction with this relaxation length (m): the
/// reference speed `max(|vx|, |surface|, floor)` with one ([`RELAXED_MIN_DENOMINATOR`]
/// longitudinally, [`RELAXED_LATERAL_MIN_DENOMINATOR`] laterally), the original's
/// `max(|vx|, MIN_DENOMINATOR)` without one. `vx` the contact's forward speed,
/// `surface` the wheel's surface speed `ω·r` (m/s).
#[inline]
pub(crate) fn slip_denominator(relaxation_length: f32, lateral: bool, vx: f64, surface: f64) -> f64 {
    match (relaxation_length > 0.0, lateral) {
        (false, _) => vx.abs().max(MIN_DENOMINATOR as f64),
        (true, false) => vx.abs().max(surface.abs()).max(RELAXED_MIN_DENOMINATOR as f64),
        (true, true) => vx.abs().max(surface.abs()).max(RELAXED_LATERAL_MIN_DENOMINATOR as f64),
    }
}

/// The contact's forward speed `vx` (m/s) that reads the longitudinal slip `slip` at
/// the wheel's surface speed `surface` (m/s), for a wheel with this longitudinal
/// relaxation length (m): the inverse of `slip = (surface − vx)/den`, `den` the larger
/// of `|vx|`, `|surface|` and [`RELAXED_MIN_DENOMINATOR`] (without a relaxation length,
/// `max(|vx|, MIN_DENOMINATOR)`), so below the floor `vx = surface − slip·floor`, not
/// `surface·(1 − slip)`. A skid-steer turn's radius from its belts' speeds and slips
/// reads it (`VehicleSettings::belts_turn_radius`); the unit test
/// `ground_speed_inverts_the_slip` holds it to the definition both sides of the floor.
pub fn ground_speed(relaxation_length: f32, slip: f32, surface: f32) -> f32 {
    let (k, s) = (slip as f64, surface as f64);
    let (floor, wheel_counts) = if relaxation_length > 0.0 {
        (RELAXED_MIN_DENOMINATOR as f64, true)
    } else {
        (MIN_DENOMINATOR as f64, false)
    };
    let fits = |vx: f64| {
        let den = slip_denominator(relaxation_length, false, vx, s);
        ((s - vx) / den - k).abs() <= 1e-6 * (1.0 + k.abs())
    };
    // The denominator is the floor, the wheel's surface speed or the road's.
    let candidates = [
        s - k * floor,
        if wheel_counts { s - k * s.abs() } else { f64::NAN },
        s / (1.0 + k),
        s / (1.0 - k),
    ];
    let vx = candidates
        .into_iter()
        .find(|&vx| vx.is_finite() && fits(vx))
        .unwrap_or(s * (1.0 - k.abs()));
    vx as f32
}

/// Arc tangent in f32, Cephes' `atanf`: the argument is reduced to |x| ≤ tan(π/8) and a
/// degree-9 odd polynomial finishes it. Within 3 ulp (2e-7 relative) of the exact value
/// over the whole f32 range (the unit tests check it against f64); several times
/// cheaper than libm's `atanf`, which the tyre curve would call twice per evaluation
/// (`docs/performance.md`). Exported as
/// `wheelcollider_core::fast_atan` (the plugin's ground camber uses it).
#[inline]
#[allow(clippy::excessive_precision)] // Cephes' coefficients as published
pub fn atan(x: f32) -> f32 {
    use core::f32::consts::{FRAC_PI_2, FRAC_PI_4};
    let a = x.abs();
    let (base, t) = if a > 2.414_213_6 {
        (FRAC_PI_2, -1.0 / a)
    } else if a > 0.414_213_57 {
        (FRAC_PI_4, (a - 1.0) / (a + 1.0))
    } else {
        (0.0, a)
    };
    let z = t * t;
    let p = (((8.053_744_5e-2 * z - 1.387_768_5e-1) * z + 1.997_771_1e-1) * z - 3.333_294_9e-1) * z * t + t;
    (base + p).copysign(x)
}

/// `(sin φ, cos φ)` in f32 for φ in [0, π] (the tyre curve's C·atan(y) with C ≤ 2; the
/// plugin uses it for the half angle of the wheel's spin rotation),
/// Cephes' `sinf` / `cosf` polynomials after reducing φ by the nearest multiple of π/2
/// (in f64, so the reduction is exact). Within 1e-7 of the exact values (tested);
/// arguments outside [0, π] are clamped into it.
#[inline]
#[allow(clippy::excessive_precision)] // Cephes' coefficients as published
pub fn sin_cos_0_pi(phi: f32) -> (f32, f32) {
    let phi = phi.clamp(0.0, core::f32::consts::PI);
    let q = (phi * core::f32::consts::FRAC_2_PI + 0.5) as u32; // 0, 1 or 2
    let r = (phi as f64 - q as f64 * core::f64::consts::FRAC_PI_2) as f32; // |r| ≤ π/4
    let z = r * r;
    let s = ((-1.951_529_6e-4 * z + 8.332_161e-3) * z - 1.666_665_5e-1) * z * r + r;
    let c = ((2.443_315_7e-5 * z - 1.388_731_6e-3) * z + 4.166_664_6e-2) * z * z - 0.5 * z + 1.0;
    match q {
        0 => (s, c),
        1 => (c, -s),
        _ => (-s, -c),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Distance in units in the last place between two f32 of the same sign.
    fn ulps(a: f32, b: f32) -> u32 {
        (a.to_bits() as i64 - b.to_bits() as i64).unsigned_abs() as u32
    }

    /// Road and wheel speeds both sides of the denominator's floor, each way, with and
    /// without a relaxation length: the slip they read gives the road speed back.
    /// Checked that it fails with `vx = surface·(1 − |slip|)` alone (the failing case is
    /// printed by the assertion).
    #[test]
    fn ground_speed_inverts_the_slip() {
        let speeds = [-12.0, -3.0, -1.9, -0.8, -0.2, 0.0, 0.3, 0.85, 0.96, 1.7, 2.5, 9.0, 30.0];
        for length in [0.0, 0.05] {
            for &vx in &speeds {
                for &surface in &speeds {
                    // Skip a locked wheel (±1 at every road speed past the floor)
                    // and a wheel spun against the road, where two road speeds read
                    // the same slip.
                    if vx * surface < 0.0 || (surface == 0.0 && vx != 0.0) {
                        continue;
                    }
                    let den = slip_denominator(length, false, vx, surface);
                    let slip = ((surface - vx) / den) as f32;
                    let back = ground_speed(length, slip, surface as f32);
                    assert!(
                        (back as f64 - vx).abs() < 1e-4 * (1.0 + vx.abs()),
                        "length {length}: vx {vx}, surface {surface}, slip {slip}: {back}"
                    );
                }
            }
        }
    }

    #[test]
    fn atan_within_three_ulp_everywhere() {
        // Every 97th f32 bit pattern from 0 to +∞ (≈ 22 million values), and their
        // negatives: no more than 3 ulp from the correctly rounded f64 result.
        let mut worst = (0u32, 0.0f32);
        let mut bits = 0u32;
        while bits < f32::INFINITY.to_bits() {
            let x = f32::from_bits(bits);
            for x in [x, -x] {
                let exact = (x as f64).atan() as f32;
                let d = ulps(atan(x), exact);
                if d > worst.0 {
                    worst = (d, x);
                }
            }
            bits += 97;
        }
        assert!(worst.0 <= 3, "atan({}) is {} ulp off", worst.1, worst.0);
        assert_eq!(atan(f32::INFINITY), core::f32::consts::FRAC_PI_2);
        assert_eq!(atan(0.0), 0.0);
    }

    #[test]
    fn sin_cos_within_1e7_on_0_pi() {
        let n = 1_000_000;
        let mut worst = 0.0f64;
        for i in 0..=n {
            let phi = core::f32::consts::PI * i as f32 / n as f32;
            let (s, c) = sin_cos_0_pi(phi);
            let (es, ec) = (phi as f64).sin_cos();
            worst = worst.max((s as f64 - es).abs()).max((c as f64 - ec).abs());
        }
        assert!(worst < 1.0e-7, "worst error {worst:e}");
        // Clamped outside [0, π].
        assert_eq!(sin_cos_0_pi(-1.0), sin_cos_0_pi(0.0));
    }
}
