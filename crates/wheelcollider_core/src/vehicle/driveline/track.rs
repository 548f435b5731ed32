//! A tracked vehicle's two belts solved exactly with their road wheels' ground forces
//! for a given input torque, the way `axle.rs` solves an axle: each side's road wheels
//! turn at one speed (the belt's, `v = ω·r`), and the steering joins the two sides
//! ([`TrackDrive`]).
//!
//! - **Geared** (regenerative): the sides turn at `ω ∓ Δ` about a mean `ω`, one solve
//!   over every road wheel, while half the torque difference the steering passes,
//!   `|T_R − T_L|/2`, stays within its capacity; past it, each side alone with
//!   `T/2 ∓ capacity`. The gearbox output turns at the sides' mean.
//! - **Clutched** (clutch and brake): the sides turn together while the inner side's
//!   torque stays within its steering clutch's capacity; past it, the inner side takes
//!   the capacity's torque and the outer the rest. The gearbox output turns with the
//!   outer side (its clutch stays locked).
//!
//! The plugin's `tracked::tank` proves it in the car: a steady skid-steer turn against
//! Wong's closed form, a pivot's yaw rate against the belts' power, the clutch and
//! brake's turn about the braked belt.

use super::{MAX_DRIVEN_AXLES, TrackCoupling, TrackDrive};
use crate::spin::{DrivenWheel, SpinTerms, solve_spin};

/// The most road wheels a side has: one per driven axle.
const MAX_SIDE: usize = MAX_DRIVEN_AXLES;

/// A driven wheel's friction (brake, rolling resistance) counts as turning once its spin
/// is past this (rad/s) where the belt's one solve cannot hold it at rest (a side turning
/// at an offset from the belts' mean).
const FRICTION_SPIN: f64 = 0.05;

/// What the belts answer to an input torque: each wheel's drive torque and spin (by
/// wheel index), the gearbox output's speed and its slope per N·m.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct BeltsAnswer {
    pub drive: [f64; 2 * MAX_DRIVEN_AXLES],
    pub spin: [f64; 2 * MAX_DRIVEN_AXLES],
    pub speed: f64,
    pub slope: f64,
}

/// Road wheels joined to one shaft, each at the shaft's speed plus its offset.
struct Shaft<'a, 'w, W> {
    wheels: &'a [&'w W],
    offsets: &'a [f64],
    /// Inertia over the step each wheel carries besides its own (kg·m²/s): its share
    /// of its belt's.
    extra: f64,
}

/// A shaft's solve: its speed, each wheel's drive torque, the speed's slope per N·m.
struct ShaftAnswer {
    speed: f64,
    drive: [f64; 2 * MAX_SIDE],
    slope: f64,
}

impl<W: DrivenWheel> Shaft<'_, '_, W> {
    /// One spin solve over every wheel,
    /// `Σ J/dt·(ω' + oᵢ − ωᵢ) = T_in − Σ rᵢ·Fxᵢ(ω' + oᵢ) − Σ T_cᵢ·sgn(ω' + oᵢ)`: the
    /// friction of a wheel without an offset is the solve's set-valued one (it holds
    /// the shaft at rest), an offset wheel's is smoothed over [`FRICTION_SPIN`]. Each
    /// wheel's torque is what its own balance needs at its speed.
    fn solve(&self, input: f64) -> ShaftAnswer {
        let terms: [SpinTerms; 2 * MAX_SIDE] = core::array::from_fn(|i| {
            self.wheels.get(i).map_or(SpinTerms::default(), |w| SpinTerms {
                j_over_dt: w.terms().j_over_dt + self.extra,
                ..w.terms()
            })
        });
        let n = self.wheels.len();
        let offset = |i: usize| self.offsets[i];
        let j: f64 = terms[..n].iter().map(|t| t.j_over_dt).sum();
        let omega = if j > 0.0 {
            terms[..n]
                .iter()
                .enumerate()
                .map(|(i, t)| t.j_over_dt * (t.omega - offset(i)))
                .sum::<f64>()
                / j
        } else {
            0.0
        };
        let held = |i: usize| offset(i) == 0.0;
        let shaft = SpinTerms {
            j_over_dt: j,
            omega,
            coulomb: (0..n).filter(|&i| held(i)).map(|i| terms[i].coulomb).sum(),
            max_torque: terms[..n].iter().map(|t| t.max_torque + t.coulomb).sum(),
        };
        let smooth = |i: usize, w: f64| {
            let s = w + offset(i);
            let x = (s / FRICTION_SPIN).clamp(-1.0, 1.0);
            let slope = if s.abs() < FRICTION_SPIN {
                1.0 / FRICTION_SPIN
            } else {
                0.0
            };
            (terms[i].coulomb * x, terms[i].coulomb * slope)
        };
        let total = |w: f64| {
            (0..n).fold((0.0, 0.0), |(t, d), i| {
                let (ti, di) = self.wheels[i].tyre_torque(w + offset(i));
                let (fi, dfi) = if held(i) { (0.0, 0.0) } else { smooth(i, w) };
                (t + ti + fi, d + di + dfi)
            })
        };
        let w = solve_spin(&shaft, input, 0.0, total);
        let mut drive = [0.0; 2 * MAX_SIDE];
        let mut slope_sum = 0.0;
        let mut bare_sum = 0.0;
        for i in 0..n {
            let s = w + offset(i);
            let (ti, di) = self.wheels[i].tyre_torque(s);
            slope_sum += di;
            let mut d = terms[i].j_over_dt * (s - terms[i].omega) + ti;
            if held(i) {
                if w != 0.0 {
                    d += terms[i].coulomb * w.signum();
                }
            } else {
                let (fi, dfi) = smooth(i, w);
                d += fi;
                slope_sum += dfi;
            }
            drive[i] = d;
            bare_sum += d;
        }
        if w == 0.0 {
            // Held at rest: the torque the frictions hold is shared in proportion to them.
            let rest = input - bare_sum;
            let c = shaft.coulomb;
            for i in (0..n).filter(|&i| held(i)) {
                drive[i] += rest * if c > 0.0 { terms[i].coulomb / c } else { 1.0 / n as f64 };
            }
        }
        let slope = if w != 0.0 {
            1.0 / (j + slope_sum).max(0.1 * j).max(1e-12)
        } else {
            0.0
        };
        ShaftAnswer { speed: w, drive, slope }
    }
}

/// The belts of a tracked vehicle: `left[k]` and `right[k]` are the road wheels of
/// driven axle `axles[k]`, the drive `drive`, the step `dt` s, the gearbox's torque
/// `input` N·m.
pub(super) fn belts<W: DrivenWheel>(
    axles: &[usize],
    (left, right): (&[&W], &[&W]),
    drive: TrackDrive,
    dt: f64,
    input: f64,
) -> BeltsAnswer {
    let n = axles.len().min(MAX_SIDE);
    let extra = drive.belt_inertia.max(0.0) as f64 / n.max(1) as f64 / dt;
    let mut out = BeltsAnswer::default();
    // Every road wheel in one list: the left belt's first, then the right's.
    let all: [&W; 2 * MAX_SIDE] = core::array::from_fn(|i| match i {
        i if i < n => left[i],
        i if i < 2 * n => right[i - n],
        _ => left[0],
    });
    let write = |out: &mut BeltsAnswer, side: usize, a: &ShaftAnswer, offset: f64, first: usize| {
        for (k, &axle) in axles[..n].iter().enumerate() {
            let i = 2 * axle + side;
            out.drive[i] = a.drive[first + k];
            out.spin[i] = a.speed + offset;
        }
    };
    let alone = |wheels: &[&W], input: f64| {
        Shaft {
            wheels,
            offsets: &[0.0; 2 * MAX_SIDE][..wheels.len()],
            extra,
        }
        .solve(input)
    };
    match drive.steering {
        TrackCoupling::Geared { offset, capacity } => {
            let (offset, capacity) = (offset as f64, capacity.max(0.0) as f64);
            let offsets: [f64; 2 * MAX_SIDE] = core::array::from_fn(|i| if i < n { -offset } else { offset });
            let both = Shaft {
                wheels: &all[..2 * n],
                offsets: &offsets[..2 * n],
                extra,
            }
            .solve(input);
            let (tl, tr): (f64, f64) = (both.drive[..n].iter().sum(), both.drive[n..2 * n].iter().sum());
            let t = 0.5 * (tr - tl);
            if t.abs() <= capacity {
                write(&mut out, 0, &both, -offset, 0);
                write(&mut out, 1, &both, offset, n);
                out.speed = both.speed;
                out.slope = both.slope;
            } else {
                let t = t.signum() * capacity;
                let (l, r) = (
                    alone(&all[..n], 0.5 * input - t),
                    alone(&all[n..2 * n], 0.5 * input + t),
                );
                write(&mut out, 0, &l, 0.0, 0);
                write(&mut out, 1, &r, 0.0, 0);
                out.speed = 0.5 * (l.speed + r.speed);
                out.slope = 0.25 * (l.slope + r.slope);
            }
        }
        TrackCoupling::Clutched { inner_right, capacity } => {
            let capacity = capacity.max(0.0) as f64;
            let both = alone(&all[..2 * n], input);
            let (inner, outer) = if inner_right { (1, 0) } else { (0, 1) };
            let t_inner: f64 = both.drive[inner * n..(inner + 1) * n].iter().sum();
            if t_inner.abs() <= capacity {
                write(&mut out, 0, &both, 0.0, 0);
                write(&mut out, 1, &both, 0.0, n);
                out.speed = both.speed;
                out.slope = both.slope;
            } else {
                let t = t_inner.signum() * capacity;
                let side = |s: usize| &all[s * n..(s + 1) * n];
                let (i, o) = (alone(side(inner), t), alone(side(outer), input - t));
                write(&mut out, inner, &i, 0.0, 0);
                write(&mut out, outer, &o, 0.0, 0);
                out.speed = o.speed;
                out.slope = o.slope;
            }
        }
    }
    out
}

/// The gearbox output's speed at the start of the step from the road wheels' spins: the
/// sides' mean, or with a clutched steering's inner clutch open the outer side's.
pub(super) fn start_speed(axles: &[usize], omega: impl Fn(usize) -> f64, drive: TrackDrive) -> f64 {
    let n = axles.len().max(1) as f64;
    let side = |s: usize| axles.iter().map(|&a| omega(2 * a + s)).sum::<f64>() / n;
    match drive.steering {
        TrackCoupling::Geared { .. } => 0.5 * (side(0) + side(1)),
        TrackCoupling::Clutched { inner_right, .. } => side(if inner_right { 0 } else { 1 }),
    }
}
