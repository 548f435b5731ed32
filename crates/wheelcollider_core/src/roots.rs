//! The one safeguarded Newton iteration the model's implicit solves share: the wheel's
//! spin ([`solve_spin`](crate::spin::solve_spin)) and the driveline's output torque
//! ([`solve_driveline`](crate::vehicle::solve_driveline)).
//!
//! Both look for the root of a residual `h(x)` that rises with `x` and whose slope they
//! know, but whose curve may be S-shaped (a tyre's force through zero slip) or jump (a
//! tyre past its peak switching branches), where plain Newton bounces between two flat
//! sides or leaves for good. [`Bracket`] keeps `h(lo) ≤ 0 ≤ h(hi)` and takes the Newton
//! step only when it lands inside the bracket and, once the bracket is finite, at least
//! halves the step before last; otherwise it bisects ("rtsafe", Press et al., *Numerical
//! Recipes*, §9.4). Until a side is found (a bound still infinite) it takes Newton's
//! step, or steps out by `1 + |x|` towards the root where Newton has none.
//!
//! The caller owns the loop: when to stop (its tolerance, a bracket too narrow, a
//! budget of evaluations) is its own.

/// The bracket of a safeguarded Newton iteration and its last two steps (see the
/// module's docs).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Bracket {
    /// The side where the residual is ≤ 0 (may be −∞ before one is found).
    pub(crate) lo: f64,
    /// The side where the residual is ≥ 0 (may be +∞ before one is found).
    pub(crate) hi: f64,
    /// The last step.
    dx: f64,
    /// The step before it.
    dx_old: f64,
}

impl Bracket {
    /// A bracket `lo ..= hi` with `h(lo) ≤ 0 ≤ h(hi)`; an infinite bound is a side not
    /// yet found.
    pub(crate) fn new(lo: f64, hi: f64) -> Self {
        let dx = hi - lo;
        Self { lo, hi, dx, dx_old: dx }
    }

    /// Moves the side the residual `h` at `x` belongs to in to `x`.
    #[inline]
    pub(crate) fn narrow(&mut self, x: f64, h: f64) {
        if h < 0.0 {
            self.lo = x;
        } else {
            self.hi = x;
        }
    }

    /// Whether both sides have been found.
    #[inline]
    pub(crate) fn is_finite(&self) -> bool {
        self.lo.is_finite() && self.hi.is_finite()
    }

    /// The next point from `x`, where the residual is `h` and its slope `dh`: Newton's
    /// step when it stays inside the bracket and, with both sides found, at least halves
    /// the step before last; else the bracket's midpoint; else (a side not found, no
    /// Newton step) a step of `1 + |x|` towards the root.
    #[inline]
    pub(crate) fn next(&mut self, x: f64, h: f64, dh: f64) -> f64 {
        let newton = if dh > 0.0 { x - h / dh } else { f64::NAN };
        let before_last = self.dx_old;
        self.dx_old = self.dx;
        if newton > self.lo && newton < self.hi && ((2.0 * h).abs() <= (before_last * dh).abs() || !self.is_finite()) {
            self.dx = x - newton;
            newton
        } else if self.is_finite() {
            self.dx = 0.5 * (self.hi - self.lo);
            self.lo + self.dx
        } else {
            self.dx = h.signum() * (1.0 + x.abs());
            x - self.dx
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs the iteration on `h` from `x` in `bracket` until `|h| ≤ 1e-12`; returns the
    /// root and the evaluations it took.
    fn solve(h: impl Fn(f64) -> (f64, f64), mut x: f64, mut bracket: Bracket) -> (f64, usize) {
        for n in 1..200 {
            let (v, dv) = h(x);
            if v.abs() <= 1e-12 {
                return (x, n);
            }
            bracket.narrow(x, v);
            x = bracket.next(x, v, dv);
        }
        panic!("no root from {x}");
    }

    /// `atan(x) − 0.5` is S-shaped: plain Newton from x = 3 overshoots to the far flat
    /// side and diverges (checked: its iterates grow past 10³ in four steps); the
    /// safeguarded one finds `tan 0.5` from the bracket, and from an unbounded start
    /// once it has stepped out to a side. Checked that it fails with the safeguard
    /// taken out (Newton's step always taken: no root in 200 steps); either half of it
    /// alone (the bracket, the halving) still solves this curve.
    #[test]
    fn an_s_curve_that_newton_leaves_is_solved() {
        let h = |x: f64| (x.atan() - 0.5, 1.0 / (1.0 + x * x));
        let mut plain = 3.0f64;
        for _ in 0..4 {
            let (v, dv) = h(plain);
            plain -= v / dv;
        }
        assert!(plain.abs() > 1.0e3, "plain Newton should diverge here: {plain}");
        let root = 0.5f64.tan();
        let (x, n) = solve(h, 3.0, Bracket::new(-10.0, 10.0));
        assert!((x - root).abs() < 1e-10 && n < 30, "{x} after {n}");
        let (x, n) = solve(h, 3.0, Bracket::new(f64::NEG_INFINITY, f64::INFINITY));
        assert!((x - root).abs() < 1e-10 && n < 60, "{x} after {n} (unbounded)");
    }

    /// A jump through zero with no root (a tyre switching branches): the bracket closes
    /// on the jump, which is what the driveline calls collapsed. Checked that it fails
    /// with Newton's step always taken (it jumps back and forth across the step).
    #[test]
    fn a_jump_closes_the_bracket_on_it() {
        let h = |x: f64| (if x < 1.0 { x - 2.0 } else { x + 1.0 }, 1.0);
        let (mut x, mut b) = (0.0, Bracket::new(-5.0, 5.0));
        for _ in 0..80 {
            let (v, dv) = h(x);
            b.narrow(x, v);
            x = b.next(x, v, dv);
        }
        assert!(b.hi - b.lo < 1e-12 && (x - 1.0).abs() < 1e-9, "{b:?}");
    }
}
