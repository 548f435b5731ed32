//! One driven axle solved exactly with its tyres for a given input torque: an open
//! differential's two wheels each alone, a locked one's as one shaft, a limited-slip
//! one as locked within its capacity and with the capacity's difference past it.

use super::Coupling;
use crate::spin::{DrivenWheel, SpinTerms, solve_spin};

/// An axle's answer to an input torque: its wheels' drive torques and spins, its mean
/// speed and that speed's slope per N·m of input.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct AxleAnswer {
    pub drive: [f64; 2],
    pub spin: [f64; 2],
    pub speed: f64,
    pub slope: f64,
}

/// The axle of wheels `l` and `r` with `coupling`, given `input` N·m.
pub(super) fn axle<W: DrivenWheel>(l: &W, r: &W, coupling: Coupling, input: f64) -> AxleAnswer {
    match coupling {
        Coupling::Open => split(l, r, input, (0.0, 0.0)),
        Coupling::Locked => shaft(l, r, input),
        Coupling::Limited { preload, locking } => {
            let locked = shaft(l, r, input);
            let difference = locked.drive[1] - locked.drive[0];
            let capacity = preload as f64 + locking as f64 * input.abs();
            if difference.abs() <= capacity {
                locked
            } else {
                let side = difference.signum();
                let t = (0.5 * side * capacity, 0.5 * side * locking as f64 * input.signum());
                split(l, r, input, t)
            }
        }
    }
}

/// A single axle's one wheel (the right entries 0) with the whole `input` N·m.
pub(super) fn alone<W: DrivenWheel>(wheel: &W, input: f64) -> AxleAnswer {
    let (spin, slope) = wheel.respond(input, 0.0);
    AxleAnswer {
        drive: [input, 0.0],
        spin: [spin, 0.0],
        speed: spin,
        slope,
    }
}

/// The two wheels each on its own with `input/2 ∓ t`, `(t, dt/d input)` = `transfer`.
fn split<W: DrivenWheel>(l: &W, r: &W, input: f64, (t, dt): (f64, f64)) -> AxleAnswer {
    let drive = [0.5 * input - t, 0.5 * input + t];
    let (wl, cl) = l.respond(drive[0], 0.0);
    let (wr, cr) = r.respond(drive[1], 0.0);
    AxleAnswer {
        drive,
        spin: [wl, wr],
        speed: 0.5 * (wl + wr),
        slope: 0.5 * (cl * (0.5 - dt) + cr * (0.5 + dt)),
    }
}

/// The two wheels as one shaft: one spin solve over both tyres,
/// `Σ J/dt·(ω' − ωᵢ) = T_in − Σ rᵢ·Fxᵢ(ω') − Σ T_cᵢ·sgn(ω')`; each wheel's torque is
/// what its own balance needs at that spin.
fn shaft<W: DrivenWheel>(l: &W, r: &W, input: f64) -> AxleAnswer {
    let (a, b) = (l.terms(), r.terms());
    let j = a.j_over_dt + b.j_over_dt;
    let omega = if j > 0.0 {
        (a.j_over_dt * a.omega + b.j_over_dt * b.omega) / j
    } else {
        0.0
    };
    let shaft = SpinTerms {
        j_over_dt: j,
        omega,
        coulomb: a.coulomb + b.coulomb,
        max_torque: a.max_torque + b.max_torque,
    };
    let w = solve_spin(&shaft, input, 0.0, |w| {
        let ((tl, dl), (tr, dr)) = (l.tyre_torque(w), r.tyre_torque(w));
        (tl + tr, dl + dr)
    });
    let ((tl, dl), (tr, dr)) = (l.tyre_torque(w), r.tyre_torque(w));
    // Each wheel's balance without its friction, then the friction: at rest the held
    // torque is shared in proportion to the frictions that hold it.
    let bare = |t: &SpinTerms, tyre: f64| t.j_over_dt * (w - t.omega) + tyre;
    let (bl, br) = (bare(&a, tl), bare(&b, tr));
    let drive = if w != 0.0 {
        [bl + a.coulomb * w.signum(), br + b.coulomb * w.signum()]
    } else {
        let rest = input - bl - br;
        let share = match a.coulomb + b.coulomb {
            c if c > 0.0 => a.coulomb / c,
            _ => 0.5,
        };
        [bl + rest * share, br + rest * (1.0 - share)]
    };
    let slope = if w != 0.0 {
        1.0 / (j + dl + dr).max(0.1 * j).max(1e-12)
    } else {
        0.0
    };
    AxleAnswer {
        drive,
        spin: [w, w],
        speed: w,
        slope,
    }
}
