//! The driveline as one solve: the gearbox output, the centre differential, the axle
//! differentials and every driven wheel's spin, solved together in one step with each
//! tyre at its present slip (after PhysX Vehicles2 and Jolt, which solve the engine,
//! the differentials and the wheels together; `docs/vehicle.md`, "The driveline, one
//! solve").
//!
//! The unknowns are the torques into the driven axles. Each axle is solved exactly
//! with its tyres for a given input torque (`axle.rs`): an open differential's wheels
//! each by its own spin solve ([`crate::spin`], with its tyre, brake and friction), a
//! locked one's two wheels as one shaft by the same solve over both tyres, a
//! limited-slip one as locked while the torque difference stays within its capacity
//! and as two wheels with the capacity's difference past it. Each answers with its mean
//! speed and that speed's slope per N·m (the compliance `1 / (J/dt + r·∂Fx/∂ω)`, 0 while
//! a brake holds it at rest). [`solve_driveline`] finds the gearbox output's torque
//! by a safeguarded Newton iteration on the output's balance (the one the wheel's spin
//! solve uses, `roots.rs`), each evaluation solving
//! every axle exactly (the centre differential's transfer on the axles' linear model),
//! until the output's speed would move by less than [`SPEED_TOLERANCE`] (two or three
//! evaluations in a steady state, at most [`MAX_EVALUATIONS`] until the torque is
//! bracketed, then bisection up to [`MAX_BRACKETED`]). Past a tyre's peak its wheel's
//! answer can jump between branches, and the output's balance with it: the solve then
//! ends at the torque across which the balance changes sign (a burnout, a donut). It
//! starts from, and falls back to where it cannot bracket the torque, every wheel
//! carrying its axle's share of the output's inertia with the vehicle step's
//! feed-forward torque. The constraints:
//!
//! - **the gearbox output** is a body with the inertia the gearbox (and, with the
//!   clutch locked, the engine) reflects through the ratio:
//!   `J_r·(ω_out' − ω_out)/dt = T_src − T_out − T_f·sgn(ω_out')`, with
//!   `ω_out = Σ sₐ·ωₐ` (at the start of the step, from its wheels' spins) and `T_f` a friction (a stalled engine's breakaway) that holds
//!   the output still while it can (`sgn` is any value in −1..=1 at rest);
//! - **an axle differential** passes its input `Tₐ` as `Tₐ/2 ∓ t` to its two wheels,
//!   and turns at the mean of their speeds `ωₐ = (ω_l + ω_r)/2`. Open: `t = 0`, equal
//!   torque whatever the speeds. Locked: `t` is whatever gives both wheels one speed.
//!   Limited slip: the locked `t` clamped to `|2t| ≤ preload + k·|Tₐ|`: the capacity
//!   bounds the torque **difference** between the sides (so a bias ratio is
//!   `(1 + k)/(1 − k)`, see [`DifferentialKind`](super::DifferentialKind));
//! - **the centre differential** passes `T_out` to the first two driven axles as
//!   `s_f·T_out − u` and `s_r·T_out + u`, with `u` chosen the same way between their
//!   speeds; further driven axles take their share `sₐ·T_out`.
//!
//! A wheel spun alone through an open differential therefore carries a quarter of the
//! reflected inertia (`J_w + J_r/4`) and two wheels turning together half each; a
//! locked axle's two wheels leave the solve at one speed every step
//! (`tests/it/vehicle/driveline.rs`).

/// The most driven axles a [`Driveline`] holds.
pub const MAX_DRIVEN_AXLES: usize = 8;

/// A solve stops once its next step would move the gearbox output's speed by less than
/// this (rad/s).
pub const SPEED_TOLERANCE: f64 = 1e-3;

/// How a differential joins its two outputs in the solve.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub enum Coupling {
    /// Equal torque to both outputs.
    #[default]
    Open,
    /// One speed for both outputs.
    Locked,
    /// Locked while the torque difference between the outputs stays within
    /// `preload + locking·|input torque|` (N·m); past it, that difference.
    Limited {
        /// The difference it holds with no input torque (N·m), ≥ 0.
        preload: f32,
        /// The difference per N·m of input torque, ≥ 0 (on power or on the overrun, as
        /// the vehicle step chose).
        locking: f32,
    },
}

/// One driven axle of a [`Driveline`]: its share of the gearbox's torque and its
/// differential. Its wheels are `2·axle` (left) and `2·axle + 1` (right), as in
/// [`VehicleSettings::wheel_index`](super::VehicleSettings::wheel_index); a
/// [`single`](Self::single) axle's one wheel is `2·axle`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct DrivenAxle {
    /// Share of the gearbox output's torque, 0..=1; 0: not driven.
    pub share: f32,
    /// The axle's differential (not used by a [`single`](Self::single) axle).
    pub coupling: Coupling,
    /// One wheel takes the axle's whole torque (a two-wheeler's rear): the
    /// [`AxleSettings::single`](super::AxleSettings::single) axle.
    #[cfg_attr(feature = "serde", serde(default))]
    pub single: bool,
}

impl DrivenAxle {
    /// The wheel indices of axle `a` with this drive: `2a` and `2a + 1`, or `2a` alone.
    pub fn wheels(&self, a: usize) -> core::ops::Range<usize> {
        2 * a..2 * a + if self.single { 1 } else { 2 }
    }
}

/// What the vehicle step hands the wheels' step to solve the driveline with the tyres
/// ([`solve_driveline`]); written by [`step_vehicle`](super::step_vehicle) into
/// [`VehicleStep::driveline`](super::VehicleStep::driveline).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct Driveline {
    /// Torque into the gearbox output (N·m): the engine's through the ratio and the
    /// efficiency with the clutch locked, the clutch's while it slips.
    pub torque: f32,
    /// Inertia of the gearbox output's own body (kg·m²): the gearbox's, and the
    /// engine's with the clutch locked, through the ratio squared.
    pub inertia: f32,
    /// A friction torque on the gearbox output (N·m, ≥ 0) that only ever opposes its
    /// turning and holds it still up to its size: a stalled engine's breakaway
    /// (compression and friction) through the locked clutch and the ratio.
    pub friction: f32,
    /// The centre differential between the first two driven axles.
    pub centre: Coupling,
    /// The axles, by the vehicle's axle index (the first [`MAX_DRIVEN_AXLES`]).
    pub axles: [DrivenAxle; MAX_DRIVEN_AXLES],
    /// A tracked vehicle's steering between its two belts (`None`: not tracked). Set,
    /// the driven axles' left wheels turn as one belt and their right wheels as the
    /// other (`track.rs`), and the axles' shares and couplings are not read.
    pub tracks: Option<TrackDrive>,
}

/// A tracked vehicle's two belts in the driveline's solve (written by the vehicle step
/// from [`TrackSettings`](super::TrackSettings) and the steer input).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct TrackDrive {
    /// How the steering joins the belts.
    pub steering: TrackCoupling,
    /// Each belt's own inertia at its road wheels' spin (kg·m², ≥ 0), `m·r²`: shared
    /// among the belt's road wheels in the solve.
    pub belt_inertia: f32,
}

/// How a tracked vehicle's steering joins its two belts ([`TrackDrive::steering`]).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub enum TrackCoupling {
    /// A geared (regenerative) steering: the right belt's road wheels turn `2·offset`
    /// rad/s faster than the left's (positive: turning left), while half the torque
    /// difference this takes stays within `capacity` (N·m, ≥ 0); past it, each belt
    /// with half the input `∓ capacity`. The gearbox output turns at the belts' mean.
    Geared {
        /// Half the belts' road-wheel speed difference, right less left (rad/s).
        offset: f32,
        /// The most half-difference of the belts' torques (N·m).
        capacity: f32,
    },
    /// Clutch and brake: the belts turn together while the inner belt's torque stays
    /// within its steering clutch's `capacity` (N·m, ≥ 0); past it, the inner belt takes
    /// that torque and the outer the rest, and the gearbox output turns with the outer.
    Clutched {
        /// Whether the inner (slipping) belt is the right one.
        inner_right: bool,
        /// The inner belt's clutch capacity (N·m).
        capacity: f32,
    },
}

impl Driveline {
    /// Whether any axle is driven.
    pub fn is_driven(&self) -> bool {
        self.axles.iter().any(|a| a.share > 0.0)
    }
}

mod axle;
mod track;

use crate::roots::Bracket;
use crate::spin::DrivenWheel;
use axle::{AxleAnswer, alone, axle};

/// What [`solve_driveline`] found.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct DrivelineSolution {
    /// Drive torque of each wheel (N·m), by wheel index; 0 for an undriven one.
    pub drive: [f64; 2 * MAX_DRIVEN_AXLES],
    /// New spin of each driven wheel (rad/s), by wheel index.
    pub spin: [f64; 2 * MAX_DRIVEN_AXLES],
    /// Torque out of the gearbox (N·m) after its inertia's share.
    pub output_torque: f64,
    /// Torque the centre differential moved from the first driven axle to the second (N·m).
    pub centre_transfer: f64,
    /// Evaluations taken (axle solves per driven axle), 1..=[`MAX_BRACKETED`] + 1.
    pub rounds: usize,
    /// Whether the solve found the output's balance (or, with a tyre past its peak, the
    /// torque across which it changes sign); false where it fell back to every wheel
    /// carrying its axle's share.
    pub converged: bool,
}

/// The axles linearised in one round: axle `a`'s speed is `p[a] + q[a]·Tₐ`.
struct Linear {
    p: [f64; MAX_DRIVEN_AXLES],
    q: [f64; MAX_DRIVEN_AXLES],
}

/// The transfer (N·m) a coupling settles at between two outputs when the transfer
/// that locks them is `locked` (its slope per N·m of input `locked_slope`), for an
/// input `input`; and its slope. Limited: within `|2t| ≤ preload + locking·|input|`.
fn transfer(coupling: Coupling, input: f64, locked: f64, locked_slope: f64) -> (f64, f64) {
    match coupling {
        Coupling::Open => (0.0, 0.0),
        Coupling::Locked => (locked, locked_slope),
        Coupling::Limited { preload, locking } => {
            let half = 0.5 * (preload as f64 + locking as f64 * input.abs());
            if locked.abs() <= half {
                (locked, locked_slope)
            } else {
                let side = locked.signum();
                (side * half, side * 0.5 * locking as f64 * input.signum())
            }
        }
    }
}

/// The driven axles' torques for a gearbox output torque `out` on the linear model,
/// into `torque`; returns the output's speed, its slope and the centre transfer.
fn distribute(line: &Driveline, lin: &Linear, out: f64, torque: &mut [f64; MAX_DRIVEN_AXLES]) -> (f64, f64, f64) {
    let speed_of = |a: usize, t: f64| lin.p[a] + lin.q[a] * t;
    let driven = {
        let mut it = (0..MAX_DRIVEN_AXLES).filter(|&a| line.axles[a].share > 0.0);
        [it.next(), it.next()]
    };
    let (mut speed, mut slope, mut moved) = (0.0, 0.0, 0.0);
    let centred = match driven {
        [Some(f), Some(r)] => {
            let (sf, sr) = (line.axles[f].share as f64, line.axles[r].share as f64);
            let (qf, qr) = (lin.q[f], lin.q[r]);
            // The transfer that gives both axles one speed (linear: exact).
            let (locked, locked_slope) = if qf + qr > 1e-12 {
                (
                    (speed_of(f, sf * out) - speed_of(r, sr * out)) / (qf + qr),
                    (qf * sf - qr * sr) / (qf + qr),
                )
            } else {
                (0.0, 0.0)
            };
            let (u, du) = transfer(line.centre, out, locked, locked_slope);
            (torque[f], torque[r]) = (sf * out - u, sr * out + u);
            speed += sf * speed_of(f, torque[f]) + sr * speed_of(r, torque[r]);
            slope += sf * qf * (sf - du) + sr * qr * (sr + du);
            moved = u;
            Some((f, r))
        }
        _ => None,
    };
    for (a, axle) in line.axles.iter().enumerate() {
        if axle.share > 0.0 && centred.is_none_or(|(f, r)| a != f && a != r) {
            let s = axle.share as f64;
            torque[a] = s * out;
            speed += s * speed_of(a, torque[a]);
            slope += s * s * lin.q[a];
        }
    }
    (speed, slope, moved)
}

/// The most evaluations (axle solves per driven axle) of one [`solve_driveline`]
/// before it has bracketed the output's torque.
pub const MAX_EVALUATIONS: usize = 12;

/// The most evaluations once the output's torque is bracketed: bisection halves the
/// bracket each time, so this takes it from a car's torques (10⁴ N·m) below the
/// tolerance (`tests.rs`, `burnouts_past_the_peak_are_solved`).
pub const MAX_BRACKETED: usize = 48;

/// One evaluation of the driveline at a gearbox output torque: each driven axle solved
/// exactly at its share (the centre's transfer on the last evaluation's linear model).
struct Evaluation<'a, 'w, W> {
    line: &'a Driveline,
    wheel: &'a dyn Fn(usize) -> &'w W,
    driven: [bool; MAX_DRIVEN_AXLES],
    answers: [AxleAnswer; MAX_DRIVEN_AXLES],
    lin: Option<Linear>,
    /// The output torque of the last evaluation, its axles' torques and centre transfer.
    out: f64,
    torque: [f64; MAX_DRIVEN_AXLES],
    moved: f64,
    count: usize,
    /// The step (s).
    dt: f64,
}

impl<W: DrivenWheel> Evaluation<'_, '_, W> {
    /// The output's speed and its slope per N·m at output torque `out`.
    fn at(&mut self, out: f64) -> (f64, f64) {
        self.count += 1;
        self.out = out;
        if let Some(drive) = self.line.tracks {
            return self.belts(drive, out);
        }
        let last = self.lin.take().unwrap_or_else(Linear::open);
        self.moved = distribute(self.line, &last, out, &mut self.torque).2;
        let mut lin = Linear::open();
        for a in (0..MAX_DRIVEN_AXLES).filter(|&a| self.driven[a]) {
            let answer = if self.line.axles[a].single {
                alone((self.wheel)(2 * a), self.torque[a])
            } else {
                axle(
                    (self.wheel)(2 * a),
                    (self.wheel)(2 * a + 1),
                    self.line.axles[a].coupling,
                    self.torque[a],
                )
            };
            lin.q[a] = answer.slope;
            lin.p[a] = answer.speed - answer.slope * self.torque[a];
            self.answers[a] = answer;
        }
        // The speed and slope the axles give on their own linear model at this torque.
        let (speed, slope, _) = distribute(self.line, &lin, out, &mut [0.0; MAX_DRIVEN_AXLES]);
        self.lin = Some(lin);
        (speed, slope)
    }
}

impl<W: DrivenWheel> Evaluation<'_, '_, W> {
    /// A tracked vehicle's two belts at output torque `out`: every driven axle's answer
    /// from the belts' one solve; the output's speed and slope.
    fn belts(&mut self, drive: TrackDrive, out: f64) -> (f64, f64) {
        let (axles, n) = driven_axles(&self.driven);
        let left: [&W; MAX_DRIVEN_AXLES] = core::array::from_fn(|k| (self.wheel)(2 * axles[k.min(n - 1)]));
        let right: [&W; MAX_DRIVEN_AXLES] = core::array::from_fn(|k| (self.wheel)(2 * axles[k.min(n - 1)] + 1));
        let answer = track::belts(&axles[..n], (&left[..n], &right[..n]), drive, self.dt, out);
        for &a in &axles[..n] {
            self.answers[a] = AxleAnswer {
                drive: [answer.drive[2 * a], answer.drive[2 * a + 1]],
                spin: [answer.spin[2 * a], answer.spin[2 * a + 1]],
                speed: answer.speed,
                slope: answer.slope,
            };
        }
        (answer.speed, answer.slope)
    }
}

/// The driven axles' indices, in order, and how many.
fn driven_axles(driven: &[bool; MAX_DRIVEN_AXLES]) -> ([usize; MAX_DRIVEN_AXLES], usize) {
    let mut axles = [0; MAX_DRIVEN_AXLES];
    let mut n = 0;
    for a in (0..MAX_DRIVEN_AXLES).filter(|&a| driven[a]) {
        axles[n] = a;
        n += 1;
    }
    (axles, n)
}

impl Linear {
    fn open() -> Self {
        Linear {
            p: [0.0; MAX_DRIVEN_AXLES],
            q: [0.0; MAX_DRIVEN_AXLES],
        }
    }
}

/// Solves the driveline with its wheels in one step of `dt` seconds.
///
/// `wheel(i)` is driven wheel `i` staged for this step (see [`DrivenWheel`]); `start`
/// holds each wheel's first guess of its drive torque (the vehicle step's
/// feed-forward; an index past it starts from 0).
///
/// The gearbox output's torque `T` is the root of
/// `g(T) = J_r/dt·(ω_out(T) − ω_out) + T − T_src + T_f·sgn(ω_out(T))`, which rises
/// with `T` (the axles' speeds do): a safeguarded Newton iteration, each evaluation
/// solving every driven axle exactly with its tyres, that stops when `g` moves the
/// output's speed by less than [`SPEED_TOLERANCE`]. Where the friction `T_f` holds the
/// output still the root is the torque at which it stops.
pub fn solve_driveline<'w, W: DrivenWheel + 'w>(
    line: &Driveline,
    dt: f64,
    start: &[f64],
    wheel: impl Fn(usize) -> &'w W,
) -> DrivelineSolution {
    let driven: [bool; MAX_DRIVEN_AXLES] = core::array::from_fn(|a| line.axles[a].share > 0.0);
    if line.tracks.is_some() && !driven.iter().any(|&d| d) {
        return DrivelineSolution::default();
    }
    let mut e = Evaluation {
        line,
        wheel: &wheel,
        driven,
        answers: [AxleAnswer::default(); MAX_DRIVEN_AXLES],
        lin: None,
        out: f64::NAN,
        torque: [0.0; MAX_DRIVEN_AXLES],
        moved: 0.0,
        count: 0,
        dt,
    };
    let j_dt = (line.inertia.max(0.0) as f64) / dt;
    let source = line.torque as f64;
    // The output's speed at the start of the step, from its wheels' (what they carry).
    let speed0: f64 = match line.tracks {
        Some(drive) => {
            let (axles, n) = driven_axles(&driven);
            track::start_speed(&axles[..n], |i| wheel(i).terms().omega, drive)
        }
        None => (0..MAX_DRIVEN_AXLES)
            .filter(|&a| driven[a])
            .map(|a| {
                let wheels = line.axles[a].wheels(a);
                let n = wheels.len() as f64;
                let sum: f64 = wheels.map(|i| wheel(i).terms().omega).sum();
                line.axles[a].share as f64 * sum / n
            })
            .sum(),
    };
    let friction = line.friction.max(0.0) as f64;
    // g and its slope from an evaluation's output speed and slope.
    let g = |out: f64, (w, dw): (f64, f64)| {
        let stick = if w.abs() <= 1e-9 { 0.0 } else { friction * w.signum() };
        (j_dt * (w - speed0) + out - source + stick, j_dt * dw + 1.0)
    };
    // The first guess: each wheel carrying its axle's share of the output's inertia
    // (half each) with its feed-forward torque, as if every driven wheel turned with
    // the output. Exact when they do; and what the solve falls back to when it cannot
    // converge (a tyre past its peak makes one wheel's answer jump between branches).
    let warm = warm_start(line, &wheel, start, dt);
    let mut x = source - j_dt * (warm.speed - speed0);
    let mut speed = e.at(x);
    let (mut v, mut slope) = g(x, speed);
    let mut bracket = Bracket::new(f64::NEG_INFINITY, f64::INFINITY);
    // g moves the output's speed by g / (J_r/dt + 1/slope of ω_out): stop below the
    // tolerance (or at once without an output inertia, where g is the torque's error).
    let tol = SPEED_TOLERANCE * j_dt.max(1.0);
    let (mut held, mut collapsed) = (false, false);
    // A bracket once found is bisected on past MAX_EVALUATIONS (a tyre past its peak
    // makes g jump, where Newton's steps leave the bracket), up to MAX_BRACKETED.
    while v.abs() > tol && (e.count < MAX_EVALUATIONS || (bracket.is_finite() && e.count < MAX_BRACKETED)) {
        // The friction holds the output where the torque that stops it leaves less
        // than the friction to hold.
        let (w, dw) = speed;
        if friction > 0.0 && dw > 0.0 {
            let still = x - w / dw;
            if (j_dt * (0.0 - speed0) + still - source).abs() <= friction {
                e.at(still);
                held = true;
                break;
            }
        }
        bracket.narrow(x, v);
        x = bracket.next(x, v, slope);
        speed = e.at(x);
        (v, slope) = g(x, speed);
        if bracket.hi - bracket.lo <= 1e-9 * (1.0 + x.abs()) {
            // g changes sign across this torque without a root: a tyre switching
            // branches past its peak. Its balance is the inclusion at the jump.
            collapsed = true;
            break;
        }
    }
    if v.abs() > tol.max(1e-6 * source.abs()) && friction == 0.0 && !collapsed {
        return DrivelineSolution {
            rounds: e.count + 1,
            ..warm.solution
        };
    }
    let mut sol = DrivelineSolution {
        output_torque: e.out,
        centre_transfer: e.moved,
        rounds: e.count + 1,
        converged: true,
        ..Default::default()
    };
    for a in (0..MAX_DRIVEN_AXLES).filter(|&a| driven[a]) {
        for side in 0..line.axles[a].wheels(a).len() {
            let spin = e.answers[a].spin[side];
            sol.drive[2 * a + side] = e.answers[a].drive[side];
            // Held by the friction: a wheel left turning within the tolerance stands, so
            // that its tyre's static friction holds the car (a wheel at rest's patch
            // sticks).
            sol.spin[2 * a + side] = if held && spin.abs() <= SPEED_TOLERANCE {
                0.0
            } else {
                spin
            };
        }
    }
    sol
}

/// Every driven wheel solved alone with its feed-forward torque from `start` and its
/// share of the output's inertia (`J_r·sₐ/2`, `J_r·sₐ` on a single axle); the torque each then passes is its
/// feed-forward less what that share took. `speed` holds the output's speed.
struct Warm {
    solution: DrivelineSolution,
    speed: f64,
}

impl core::ops::Deref for Warm {
    type Target = DrivelineSolution;
    fn deref(&self) -> &DrivelineSolution {
        &self.solution
    }
}

fn warm_start<'w, W: DrivenWheel + 'w>(
    line: &Driveline,
    wheel: &impl Fn(usize) -> &'w W,
    start: &[f64],
    dt: f64,
) -> Warm {
    let mut sol = DrivelineSolution::default();
    let mut speed = 0.0;
    for (a, axle) in line.axles.iter().enumerate().filter(|(_, x)| x.share > 0.0) {
        let wheels = axle.wheels(a);
        let n = wheels.len() as f64;
        let m = axle.share as f64 * line.inertia.max(0.0) as f64 / n;
        for i in wheels {
            let w = wheel(i);
            let drive = start.get(i).copied().unwrap_or(0.0);
            let (spin, _) = w.respond(drive, m);
            sol.spin[i] = spin;
            sol.drive[i] = drive - m / dt * (spin - w.terms().omega);
            speed += axle.share as f64 * spin / n;
        }
    }
    Warm { solution: sol, speed }
}

#[cfg(test)]
mod tests;
