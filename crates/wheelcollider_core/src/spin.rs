//! The wheel-spin integrator: an implicit (backward Euler) solve of the wheel's spin
//! with the tyre force, brake and friction torques.
//!
//! ```text
//! J·(ω' − ω)/dt = T_drive − r·Fx(ω') − T_c·sgn(ω')
//! ```
//!
//! `J` is wheel + drivetrain inertia, `Fx(ω')` the tyre's longitudinal force at the
//! *new* spin (the ground speed held for the step), and `T_c` the sum of the torques
//! that only ever oppose the spin: brake, drivetrain friction and rolling resistance.
//! `sgn` is set-valued at 0 (any value in [−1, 1]), which is what lets a brake hold a
//! wheel locked and never spin it backwards.
//!
//! Why implicit: the tyre couples the spin to the ground with a stiffness of
//! `load · B·C·D · r² / (J · max(|v|, 10))` per second — about 900 /s for the default
//! tyre at 4 kN on a 1 kg·m² wheel. Explicit Euler needs `dt < 2/900` s to stay stable;
//! at 60 Hz it diverges. Backward Euler is unconditionally stable for that stiffness and
//! its fixed point is the exact steady state, so the steady slip does not depend on the
//! step size at all.
//!
//! How: with `g(w) = J(w − ω)/dt − T_drive + r·Fx(w)`, the wheel locks (`ω' = 0`) if
//! `|g(0)| ≤ T_c`; otherwise the root lies on the side where `g(0)` points, inside a
//! bracket that the tyre's bounded force (`|Fx| ≤ D·grip·load`) guarantees, and a
//! Newton iteration safeguarded by bisection finds it (2–4 iterations typically; the
//! safeguard is the model's one, `roots.rs`, which the driveline's solve shares).
//!
//! A wheel that keeps spinning the same way starts Newton from its previous spin. A
//! Newton step of that fast path that moves the spin by no more than `accept` (the
//! caller sets it to 0.2 % of the tyre's peak slip) is taken without evaluating the tyre
//! at its end: over so short a stretch of slip the curve is a straight line to within
//! 10⁻⁵ of its peak force, and the caller carries its last evaluation along that line
//! to the answer, so spin and force still balance the step's torques exactly (how many
//! evaluations it saves: `docs/performance.md`).
//!
//! The solve's terms ([`SpinTerms`]) and what a driveline asks of a wheel
//! ([`DrivenWheel`]) live here, with the spin: the wheel implements them and the
//! vehicle's driveline reads them, and neither imports the other.

use crate::roots::Bracket;

/// The terms of one implicit spin solve,
/// `J/dt·(ω' − ω) = T_drive − r·Fx(ω') − T_c·sgn(ω')`: one wheel's, or a locked axle's
/// two wheels' as one shaft (the driveline's `axle`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SpinTerms {
    /// `J/dt`: the wheel's inertia and any the driveline does not solve, over the step
    /// (kg·m²/s).
    pub j_over_dt: f64,
    /// The spin at the start of the step (rad/s).
    pub omega: f64,
    /// The torques that only resist the spin: brake, friction, rolling resistance (N·m).
    pub coulomb: f64,
    /// The most torque the tyre can put on the wheel, `r·max |Fx|` (N·m).
    pub max_torque: f64,
}

/// What a driveline solve reads of one driven wheel in a step: a wheel staged up to its
/// spin ([`Staged`](crate::Staged) implements it; the vehicle's
/// [`solve_driveline`](crate::vehicle::solve_driveline) reads it). It lives with the
/// spin, which both the wheel and the vehicle import, so that neither imports the other.
pub trait DrivenWheel {
    /// The new spin (rad/s) for a drive torque `drive` (N·m) with `inertia` (kg·m², ≥ 0)
    /// added to the wheel's, and its slope per N·m (≥ 0; 0 while a brake holds the
    /// wheel at rest).
    fn respond(&self, drive: f64, inertia: f64) -> (f64, f64);
    /// The terms of the wheel's spin solve.
    fn terms(&self) -> SpinTerms;
    /// The tyre's torque against the spin, `r·Fx` (N·m), at the spin `w` (rad/s), and
    /// its slope per rad/s.
    fn tyre_torque(&self, w: f64) -> (f64, f64);
}

/// Solves `J/dt·(w − ω) − drive + T(w) + T_c·sgn(w) = 0` for the new spin `w` (rad/s),
/// with `J/dt`, `ω`, `T_c` and the bound on `|T|` from `terms`.
///
/// `tyre(w)` returns the tyre's torque against the spin, `T = r·Fx` (N·m), and its
/// derivative per rad/s; `|tyre(w).0| ≤ terms.max_torque` must hold. `drive` in N·m.
/// A Newton step of the fast path of at most `accept` (rad/s) is returned without
/// evaluating `tyre` at its end (the caller linearises its last evaluation to the
/// answer); pass 0 to verify every step.
pub fn solve_spin(terms: &SpinTerms, drive: f64, accept: f64, tyre: impl Fn(f64) -> (f64, f64)) -> f64 {
    let SpinTerms {
        j_over_dt,
        omega,
        coulomb,
        max_torque,
    } = *terms;
    let residual = |w: f64| {
        let (t, dt) = tyre(w);
        (j_over_dt * (w - omega) - drive + t, j_over_dt + dt)
    };
    let scale = j_over_dt * (1.0 + omega.abs()) + drive.abs() + coulomb + max_torque;
    // 1e-6 of the torques' scale moves the spin by about 1e-6 rad/s at road speed, below
    // f32's resolution of the result; a tighter tolerance only costs iterations.
    let tol = 1e-6 * scale;
    // Fast path: a spinning wheel usually keeps its direction. Newton from the previous
    // spin, with the friction's sign fixed to it; a root found on that side solves the
    // inclusion exactly (sgn(w) is single-valued there), so the locking test is not
    // needed. Anything else falls through to the bracketed solve.
    if omega != 0.0 {
        let c = coulomb.copysign(omega);
        let mut w = omega;
        for _ in 0..4 {
            let (g, dg) = residual(w);
            let h = g + c;
            if h.abs() <= tol {
                return w;
            }
            if dg <= 0.0 {
                break;
            }
            let next = w - h / dg;
            if next * omega <= 0.0 {
                break;
            }
            if (next - w).abs() <= accept {
                return next;
            }
            w = next;
        }
    }
    let (g0, dg0) = residual(0.0);
    if g0.abs() <= coulomb {
        return 0.0;
    }
    // The friction torque has the sign of the solution, known now.
    let (c, mut lo, mut hi) = if g0 < -coulomb {
        let reach = omega + (drive + max_torque - coulomb) / j_over_dt;
        (coulomb, 0.0, reach.max(0.0))
    } else {
        let reach = omega + (drive - max_torque + coulomb) / j_over_dt;
        (-coulomb, reach.min(0.0), 0.0)
    };
    // h(w) = g(w) + c satisfies h(lo) ≤ 0 ≤ h(hi) on either side: J/dt·w dominates
    // at the far end because the tyre force is bounded. The tyre curve's S-shape through
    // zero slip would make plain Newton bounce between its two flat sides: the iteration
    // is safeguarded ([`Bracket`]).
    //
    // Start from the previous spin when it lies on the root's side: in a steady state it
    // is already the answer, and Newton needs one or two steps.
    let (mut w, mut h, mut dh) = if omega > lo && omega < hi {
        let (g, dg) = residual(omega);
        (omega, g + c, dg)
    } else {
        (0.0, g0 + c, dg0)
    };
    if w != 0.0 {
        // Tighten the bracket with the side of 0 we already know.
        if g0 + c < 0.0 {
            lo = lo.max(0.0);
        } else {
            hi = hi.min(0.0);
        }
    }
    let mut bracket = Bracket::new(lo, hi);
    for _ in 0..100 {
        bracket.narrow(w, h);
        let (lo, hi) = (bracket.lo, bracket.hi);
        if h.abs() <= tol || hi - lo <= 1e-12 * (1.0 + hi.abs().max(lo.abs())) {
            break;
        }
        w = bracket.next(w, h, dh);
        let (g, dg) = residual(w);
        h = g + c;
        dh = dg;
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The terms of a wheel of radius `r` whose tyre gives at most `max_force` (N).
    fn terms(j_over_dt: f64, omega: f64, coulomb: f64, r: f64, max_force: f64) -> SpinTerms {
        SpinTerms {
            j_over_dt,
            omega,
            coulomb,
            max_torque: r * max_force,
        }
    }

    /// The tyre's torque `r·F` from its force `F(w)` (N) and slope.
    fn torque(r: f64, force: impl Fn(f64) -> (f64, f64)) -> impl Fn(f64) -> (f64, f64) {
        move |w| {
            let (f, df) = force(w);
            (r * f, r * df)
        }
    }

    /// A linear "tyre" F = k·(w·r − v) gives a closed-form implicit solution.
    #[test]
    fn linear_tyre_matches_closed_form() {
        let (j_dt, omega, drive, r, k, v) = (60.0, 10.0, 200.0, 0.3, 5000.0, 2.0);
        let w = solve_spin(
            &terms(j_dt, omega, 0.0, r, 1e9),
            drive,
            0.0,
            torque(r, |w| (k * (w * r - v), k * r)),
        );
        // j_dt(w − ω) − drive + r·k(w r − v) = 0
        let exact = (j_dt * omega + drive + r * k * v) / (j_dt + r * k * r);
        assert!((w - exact).abs() < 1e-9 * exact.abs(), "{w} vs {exact}");
    }

    /// A small Newton step is taken without the tyre evaluation at its end and lands
    /// within the linearisation's error of the root; a large one is verified.
    #[test]
    fn small_newton_steps_are_taken_unverified() {
        // A curved tyre: F = D·tanh(k·(w·r − v)), at 20 m/s with the wheel slipping a little.
        let (j_dt, drive, r, d, k, v) = (60.0, 300.0, 0.3, 4000.0, 15.0, 20.0);
        let count = core::cell::Cell::new(0);
        let counted = |w: f64| {
            count.set(count.get() + 1);
            let t = (k * (w * r - v) / v).tanh();
            (d * t, d * (1.0 - t * t) * k * r / v)
        };
        let exact = solve_spin(&terms(j_dt, 67.78, 0.0, r, d), drive, 0.0, torque(r, counted));
        assert!(count.get() >= 2, "verified solve evaluated {} times", count.get());
        // The first step from 67.78 rad/s moves 0.0176 rad/s, 1.4e-5 short of the root
        // (computed apart): accepted under 0.05.
        count.set(0);
        let quick = solve_spin(&terms(j_dt, 67.78, 0.0, r, d), drive, 0.05, torque(r, counted));
        assert_eq!(count.get(), 1);
        // The root itself, by Newton to convergence in f64 (computed apart).
        let root = 67.797_651_616_002_2;
        assert!((quick - root).abs() < 2e-5, "{quick} vs {root}");
        assert!((quick - root).abs() > 1e-5, "{quick}: not the unverified step");
        // Under 0.01 the first step is verified, and its residual is within tolerance.
        count.set(0);
        let checked = solve_spin(&terms(j_dt, 67.78, 0.0, r, d), drive, 0.01, torque(r, counted));
        assert_eq!((count.get(), checked), (2, exact));
        // From 67.0 rad/s: steps of 0.64 and 0.0094 rad/s, then within tolerance (computed
        // apart). Verified, three evaluations; the second step taken unverified under
        // 0.05, two, with the same answer; under 0.001 it is verified again.
        for (accept, evaluations) in [(0.0, 3), (0.05, 2), (0.001, 3)] {
            count.set(0);
            let w = solve_spin(&terms(j_dt, 67.0, 0.0, r, d), drive, accept, torque(r, counted));
            assert_eq!(count.get(), evaluations, "accept {accept}");
            assert!((w - 67.649_208_839_671_2).abs() < 4e-6, "accept {accept}: {w}");
        }
        assert!((exact - root).abs() < 2e-5, "the solver's own tolerance");
    }

    #[test]
    fn brake_locks_and_releases() {
        // No tyre: a spinning wheel under a brake that can stop it within the step.
        let w = solve_spin(
            &terms(60.0, 5.0, 400.0, 0.3, 0.0),
            0.0,
            0.0,
            torque(0.3, |_| (0.0, 0.0)),
        );
        assert_eq!(w, 0.0);
        // A weaker brake only slows it: ω' = ω − T·dt/J.
        let w = solve_spin(&terms(60.0, 5.0, 60.0, 0.3, 0.0), 0.0, 0.0, torque(0.3, |_| (0.0, 0.0)));
        assert!((w - 4.0).abs() < 1e-9, "{w}");
        // Backwards too, and never past zero.
        let w = solve_spin(
            &terms(60.0, -5.0, 60.0, 0.3, 0.0),
            0.0,
            0.0,
            torque(0.3, |_| (0.0, 0.0)),
        );
        assert!((w + 4.0).abs() < 1e-9, "{w}");
    }
}
