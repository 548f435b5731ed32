//! The implicit suspension: the springs, dampers, bump stops and anti-roll bars of one
//! chassis' wheels, solved together as soft constraints on the chassis' inverse-mass
//! matrix.
//!
//! # Why
//!
//! A spring force computed from the last state and held for a whole step is explicit
//! Euler: it diverges once `k·dt²/m` passes a few tenths (a 2·10⁶ N/m spring at 60 Hz on
//! a 300 kg corner), and a damper once `c·dt/m` passes about 2. A game lets a user type
//! any number, so the plugin solves for the force that holds at the **end** of the step
//! instead: the soft-constraint form of Box2D's "soft step" and of Jolt's
//! `SpringSettings` (its `VehicleConstraint` solves each wheel's suspension as a spring
//! constraint in the physics solver).
//!
//! # The equations
//!
//! For each grounded wheel `i`, with compression `xᵢ` (m, bump included), compression
//! speed `uᵢ` (m/s, positive compressing), the compression acceleration `aᵢ` the wheel
//! would see with no wheel forces (gravity along its axis), and the chassis' inverse-mass
//! matrix `K` (`Kᵢⱼ`: the compression acceleration at wheel `i` per newton at wheel `j`),
//! the speed at the end of the step is
//!
//! ```text
//! uᵢ' = uᵢ + dt·(aᵢ − Σⱼ Kᵢⱼ·Fⱼ)
//! ```
//!
//! and the force is the spring, damper and bar at a blend of the start and the end of the
//! step:
//!
//! ```text
//! Fᵢ = k·x̂ᵢ + c·ûᵢ + b·(x̂ᵢ − x̂ⱼ) + eᵢ
//! x̂ = x + dt·(α·u + β·u'),   û = γ·u + δ·u'
//! ```
//!
//! with `j` the bar's other wheel, `b` its stiffness and `eᵢ` an explicit extra force.
//! The blend moves with the row's stiffness `q = K_ii·((k + b)·dt² + c·dt)`:
//! - `q ≤ 1` (every ordinary suspension, a kart's too): the trapezoidal rule, `α = β = ¼`,
//!   `γ = δ = ½`. The body integrates a constant force exactly over the step
//!   (`x' = x + dt·(u + u')/2`), so this is Crank–Nicolson: no numerical damping, a
//!   frequency error of `(ω·dt)²/12` (0.2 % for a 1.5 Hz corner at 60 Hz).
//! - `q ≥ 3`: backward Euler, `α = γ = 0`, `β = δ = 1`: L-stable, a rigid spring comes
//!   to rest in a step instead of ringing.
//! - in between, linearly.
//!
//! Every blend is unconditionally stable (spectral radius ≤ 1 for every `k`, `c` and
//! `dt`, also when the true mass is up to a third heavier or four times lighter than `K`
//! says; checked on a grid of `k` 10⁴…10⁹, `c` 0…10⁶, 30…240 Hz), and its fixed point is
//! exact: at rest `u = u' = 0` and `F = k·x`, so the static sag is `m·g/k` for any step.
//!
//! **Bump stop.** A wheel whose compression would pass the travel `L` becomes a hard
//! constraint: its end speed is the one that reaches `L` at the end of the step
//! (`u' = (L − x)/dt`), or, past it, that pushes out [`BUMP_STOP_BAUMGARTE`] of the
//! overshoot per step, at most [`BUMP_STOP_MAX_PUSH_SPEED`]. Its force is whatever that
//! takes; the bump-stop force is what it adds to the spring, damper and bar. The spring
//! and the bar read the compression capped at the travel: past it, the depth is the
//! stop's to push out, not the spring's to fire.
//!
//! **The ground's own rise.** The compression speed `u` is the bodies' approach to the
//! ground's plane at the hit (or along the axis, on a tilted face: see the plugin's
//! `approach_speed`), so the ground's shape reaches the suspension as position: a kerb's
//! step is a jump of compression that the spring takes, not metres per second of approach
//! that the stop would cancel in one step (which threw a car over a 12 cm kerb). On a
//! curve that rise does not stop: inside a loop the plane turns into the wheel every step
//! (`a·dt²/2` for a centripetal acceleration `a`), and the ground ahead of a front wheel
//! is tilted towards it (`V·sin θ·dt`, θ ≈ half the wheelbase over the radius: 1.9 m/s
//! for a car at 43 m/s in a 30 m loop). A stop that reaches the travel exactly by the
//! velocity alone sank by that much every step, and its push-out, capped at
//! [`BUMP_STOP_MAX_PUSH_SPEED`], never caught up: the wheels sat 5–18 cm past their stops
//! and the chassis scraped the loop until the car fell. So the stop's target leaves room
//! for [`SuspensionRow::ground_rise`], the rise the caller expects over the step:
//! `u' = (L − x − rise)/dt` (the plugin's estimate counts only a rise that has lasted
//! 40 ms, which a kerb's one-to-three-step jump does not).
//!
//! **A bar with one end unloaded.** While one wheel of a bar is released or off the
//! ground, that wheel (massless) hangs where its spring balances the bar's pull, so the
//! bar acts at the loaded wheel alone, in series with the hanging wheel's spring
//! ([`hanging_bar_rate`]), and adds no force at the hanging wheel's mount. The bar's
//! stiffness counts in the row's `q` as the spring's does.
//!
//! **Unilateral.** A suspension only pushes: a wheel whose force would be negative is
//! released (force 0) and the others are solved again. The active set (spring, stop,
//! released) is found by repeating the solve, at most `3·n + 3` times (usually once).
//!
//! **The tyre's load** is the total force less the one-step landing impulse of the bump
//! stop (the part that removes the approach speed, `max(u, 0)/(dt·K_ii)`): a wheel resting
//! on its bump stop grips with all the force that holds it up, while a landing's impulse,
//! many times the weight for one step, does not turn into friction that would throw the
//! body.
//!
//! The damper uses bump damping while the wheel compresses at the start of the step
//! (`u > 0`), rebound otherwise.
//!
//! `solve` reads top to bottom: each row prepared (`prepare`), the active set settled
//! (`Solve::settle`: solve the rows in their modes, move the rows whose mode is broken),
//! each row's force split into its parts (`Solve::force`).

/// The most wheels solved together (sixteen: a tracked vehicle's eight road wheels a
/// side, whose belts the driveline solves in one group; the solve's buffers are this
/// size on the stack). A chassis with more solves them in groups on a softened share of
/// its mass (see the plugin).
pub const MAX_WHEELS: usize = 16;

/// The most wheels of a group whose solve sizes its matrices at this (a car's, a
/// truck's): a larger group (a tracked vehicle's) takes [`MAX_WHEELS`]. The solve zeroes
/// its matrices every pass, so a car does not pay for a tank's.
pub const SMALL_GROUP: usize = 8;

/// Baumgarte factor of the bump stop: the fraction of an overshoot past full travel
/// pushed out per step.
pub const BUMP_STOP_BAUMGARTE: f64 = 0.2;

/// The fastest the bump stop pushes an overshoot out (m/s): a wheel found deep inside
/// the ground (a teleport, a spawn in the terrain) is lifted out gently instead of
/// launching the car.
pub const BUMP_STOP_MAX_PUSH_SPEED: f64 = 0.5;

/// The fastest ground rise the bump stop anticipates (m/s): [`SuspensionRow::ground_rise`]
/// is capped at this times the step. Beyond it (a steep ramp met with the suspension
/// bottomed), the chassis' own collider takes the rest.
pub const GROUND_RISE_MAX_SPEED: f64 = 5.0;

/// The bump stop's compliance, relative to the wheel's own effective mass: its force
/// falls short of stopping the approach by this fraction (the Baumgarte term then closes
/// the gap). It makes the stops of a chassis' wheels solvable together, as a real stop's
/// rubber does.
pub const STOP_COMPLIANCE: f64 = 0.01;

/// One grounded wheel's suspension, as [`solve`] reads it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SuspensionRow {
    /// Compression now (m), road bump included: 0 at full droop, `length` at the bump
    /// stop.
    pub compression: f32,
    /// Compression speed now (m/s), positive while compressing.
    pub speed: f32,
    /// The compression acceleration with no wheel force (m/s²): gravity along the
    /// suspension, positive when it compresses.
    pub free_acceleration: f32,
    /// Spring rate (N/m).
    pub stiffness: f32,
    /// Damping while compressing (N·s/m).
    pub bump_damping: f32,
    /// Damping while extending (N·s/m).
    pub rebound_damping: f32,
    /// Suspension travel (m): the bump stop acts at this compression.
    pub length: f32,
    /// The compression at which the spring is relaxed (m), normally 0: the spring pushes
    /// `stiffness · (compression − spring_offset)`. The plugin moves it when a spring is
    /// stiffened or the travel changes at run time, so that the force does not jump (a
    /// parked car's spring typed ten times stiffer would otherwise release ten times its
    /// energy in a step), and lets it relax back to 0.
    pub spring_offset: f32,
    /// The spring's force at zero compression (N), part of the spring's: the spring
    /// pushes `stiffness · (compression − spring_offset) + preload`. With `stiffness`,
    /// the local line of [`WheelSettings::spring_law`](crate::WheelSettings::spring_law)
    /// (a preload, its release near full droop, a bump rubber); 0 by default.
    pub preload: f32,
    /// An explicit force added to the row (N), such as `WheelInput::anti_roll_force`.
    pub extra_force: f32,
    /// How far the ground is expected to rise into the wheel over this step beyond what
    /// `speed` says (m, ≥ 0; at most [`GROUND_RISE_MAX_SPEED`] × the step): the bump stop
    /// leaves room for it. The plugin measures it as the compression the last steps
    /// gained that the bodies' motion did not explain (a loop's curve, the ground ahead
    /// of a front wheel tilted towards it), once it has lasted 40 ms: a kerb's jump of
    /// one to three steps counts 0. 0 by default. See the module docs.
    pub ground_rise: f32,
    /// An anti-roll bar to another row: (its index, the bar's stiffness in N/m), acting
    /// on the difference of the two compressions while both wheels carry load.
    pub anti_roll: Option<(usize, f32)>,
    /// The bar's rate at this wheel while its other end carries no load (is not a row,
    /// or is released), N/m: [`hanging_bar_rate`] of the bar and the other wheel's
    /// spring; 0 for a wheel without a bar.
    pub anti_roll_hanging: f32,
}

/// The rate (N/m) an anti-roll bar of stiffness `bar` adds at a loaded wheel while the
/// bar's other wheel hangs unloaded on a spring of rate `spring` (both N/m).
///
/// A wheel with no mass and no load sits where its spring balances the bar's pull:
/// `k·xⱼ = b·(xᵢ − xⱼ)`, so `xⱼ = b·xᵢ/(b + k)`. The bar then pushes the loaded wheel by
/// `b·(xᵢ − xⱼ) = b·k/(b + k)·xᵢ` (the bar in series with the hanging wheel's spring) and
/// adds nothing at the hanging wheel's mount, where it and that spring cancel. When the
/// hanging wheel comes down to the ground, its load rises from 0 and the bar's force
/// carries on without a jump; with a bar that stopped acting instead, a stiff bar landed
/// with its whole twist (10⁷ N/m × 10 cm: a meganewton in one step).
#[inline]
pub fn hanging_bar_rate(bar: f32, spring: f32) -> f32 {
    let (b, k) = (bar.max(0.0), spring.max(0.0));
    if b + k > 0.0 && (b * k).is_finite() {
        b * k / (b + k)
    } else {
        b.min(k)
    }
}

/// Row `i`'s anti-roll bar in a solve.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Bar {
    /// No bar, or the row itself is released.
    None,
    /// Both ends carry load: (the other row, the stiffness N/m), on `x̂ᵢ − x̂ⱼ`.
    Both(usize, f64),
    /// The other end hangs unloaded: the series rate (N/m), on `x̂ᵢ`.
    Hanging(f64),
}

/// What [`solve`] found for one wheel. All forces in N, along the suspension force's
/// direction.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SuspensionForce {
    /// The spring's part, `k·x̂` plus the row's preload.
    pub spring: f32,
    /// The damper's part, `c·û`.
    pub damper: f32,
    /// The anti-roll bar's part, `b·(x̂ᵢ − x̂ⱼ)`.
    pub anti_roll: f32,
    /// The bump stop's part (≥ 0).
    pub bump_stop: f32,
    /// The whole force, ≥ 0: spring + damper + bar + extra + bump stop.
    pub total: f32,
    /// The tyre's load: `total` less the bump stop's one-step landing impulse.
    pub tyre_load: f32,
    /// The compression speed predicted for the end of the step (m/s).
    pub end_speed: f32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Spring,
    Stop,
    Released,
}

/// The blend weights (α, β, γ, δ) of a row with stiffness measure `q` (see the module
/// docs).
#[inline]
fn blend(q: f64) -> (f64, f64, f64, f64) {
    let s = ((q - 1.0) / 2.0).clamp(0.0, 1.0);
    let a = 0.25 * (1.0 - s);
    (a, a + s, 0.5 * (1.0 - s), 0.5 * (1.0 + s))
}

/// Per-row constants of one solve.
#[derive(Clone, Copy, Default)]
struct Prepared {
    k: f64,
    /// The spring's force at zero compression (N).
    preload: f64,
    /// The spring's relaxed compression (m).
    offset: f64,
    c: f64,
    /// The compression the spring and bar read: at most the travel (m).
    x: f64,
    u: f64,
    /// u + dt·a: the end speed with no force.
    free: f64,
    weights: (f64, f64, f64, f64),
    /// The stop's target end speed (m/s).
    stop_speed: f64,
}

/// Solves the suspension forces of `rows` together (see the module docs); `inverse_mass`
/// is the n×n matrix `K` row-major (1/kg, `n = rows.len()`), `dt` the step (s). Writes
/// one [`SuspensionForce`] per row into `out`. Every result is finite and ≥ 0 for finite
/// input; a row beyond [`MAX_WHEELS`] gets no force.
pub fn solve(rows: &[SuspensionRow], inverse_mass: &[f64], dt: f32, out: &mut [SuspensionForce]) {
    let n = rows.len().min(MAX_WHEELS).min(out.len());
    for o in out.iter_mut() {
        *o = SuspensionForce::default();
    }
    if n == 0 || inverse_mass.len() < n * n || !(dt.is_finite() && dt > 0.0) {
        return;
    }
    if n <= SMALL_GROUP {
        solve_in::<SMALL_GROUP>(rows, n, inverse_mass, dt, out);
    } else {
        solve_in::<MAX_WHEELS>(rows, n, inverse_mass, dt, out);
    }
}

/// [`solve`] of the first `n` rows (`n` ≤ `N`) with its buffers `N` long.
fn solve_in<const N: usize>(
    rows: &[SuspensionRow],
    n: usize,
    inverse_mass: &[f64],
    dt: f32,
    out: &mut [SuspensionForce],
) {
    let h = dt as f64;
    let kij = |i: usize, j: usize| {
        let v = inverse_mass[i * rows.len() + j];
        if v.is_finite() { v } else { 0.0 }
    };
    let mut prep = [Prepared::default(); N];
    let mut modes = [Mode::Spring; N];
    for i in 0..n {
        (prep[i], modes[i]) = prepare(&rows[i], kij(i, i).max(0.0), h);
    }
    let solve = Solve {
        rows,
        prep: &prep[..n],
        h,
        kij: &kij,
    };
    let mut forces = [0.0f64; N];
    let mut ends = [0.0f64; N];
    solve.settle(&mut modes[..n], &mut forces[..n], &mut ends[..n]);
    for i in 0..n {
        out[i] = solve.force(&modes[..n], &ends[..n], i, forces[i]);
    }
}

/// Row `r` made ready for the solve, with the mode it starts in; `kii` its own inverse
/// effective mass (1/kg), `h` the step (s).
fn prepare(r: &SuspensionRow, kii: f64, h: f64) -> (Prepared, Mode) {
    let f = |v: f32| if v.is_finite() { v as f64 } else { 0.0 };
    let (x, u, length) = (f(r.compression), f(r.speed), f(r.length).max(0.0));
    let c = if u > 0.0 {
        f(r.bump_damping)
    } else {
        f(r.rebound_damping)
    }
    .max(0.0);
    let k = f(r.stiffness).max(0.0);
    let bar = r
        .anti_roll
        .map_or(0.0, |(_, s)| f(s))
        .max(f(r.anti_roll_hanging))
        .max(0.0);
    let rise = f(r.ground_rise).clamp(0.0, GROUND_RISE_MAX_SPEED * h);
    let stop_speed = if x <= length {
        (length - x) / h
    } else {
        -(BUMP_STOP_BAUMGARTE * (x - length) / h).min(BUMP_STOP_MAX_PUSH_SPEED)
    } - rise / h;
    let prepared = Prepared {
        k,
        preload: f(r.preload),
        offset: f(r.spring_offset),
        c,
        // Past the travel the wheel is the bump stop's: the spring and the bar read at
        // most full travel (a wheel found deep in the ground, or one whose radius grew in
        // the air, pushed with k × its whole depth: a kart typed to 2 m wheels in the air
        // landed on 32 kN a wheel).
        x: x.min(length),
        u,
        free: u + h * f(r.free_acceleration),
        // The bar stiffens the row as much as its spring does (more, against the other
        // end's motion): left out, a stiff bar ran on the trapezoidal rule and rang.
        weights: blend(kii * ((k + bar) * h * h + c * h)),
        stop_speed,
    };
    (prepared, if x >= length { Mode::Stop } else { Mode::Spring })
}

/// One solve's rows, prepared, with the step and the inverse-mass matrix.
struct Solve<'a, K: Fn(usize, usize) -> f64> {
    rows: &'a [SuspensionRow],
    prep: &'a [Prepared],
    h: f64,
    kij: &'a K,
}

impl<K: Fn(usize, usize) -> f64> Solve<'_, K> {
    /// The active set: solves the rows in their modes, moves each row whose force or end
    /// speed breaks its mode to the mode it needs, and solves again, until none moves (at
    /// most `3n + 3` passes). Leaves the last pass' forces and end speeds.
    fn settle(&self, modes: &mut [Mode], forces: &mut [f64], ends: &mut [f64]) {
        let n = self.prep.len();
        for _ in 0..3 * n + 3 {
            solve_modes(self.rows, self.prep, modes, self.h, self.kij, forces);
            for (i, end) in ends.iter_mut().enumerate() {
                *end = self.prep[i].free - self.h * (0..n).map(|j| (self.kij)(i, j) * forces[j]).sum::<f64>();
            }
            let mut changed = false;
            for i in 0..n {
                let next = self.next_mode(modes, ends, forces[i], i);
                if next != modes[i] {
                    modes[i] = next;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
    }

    /// The mode row `i` needs after a pass that gave it `force` (N) at the end speeds
    /// `ends`.
    fn next_mode(&self, modes: &[Mode], ends: &[f64], force: f64, i: usize) -> Mode {
        let p = &self.prep[i];
        // A released row's force as it would be loaded: its bar then acts on both ends
        // (judged with the bar off, a row on a stiff bar would come back every other
        // pass, and the passes run out in either mode).
        let soft_in = |modes: &[Mode]| {
            let (spring, damper, bar) = parts(self.rows, self.prep, modes, ends, i, self.h);
            spring + damper + bar + self.rows[i].extra_force as f64
        };
        let soft = if modes[i] == Mode::Released {
            let mut loaded = [Mode::Spring; MAX_WHEELS];
            loaded[..modes.len()].copy_from_slice(modes);
            loaded[i] = Mode::Spring;
            soft_in(&loaded[..modes.len()])
        } else {
            soft_in(modes)
        };
        match modes[i] {
            Mode::Spring if force < 0.0 => Mode::Released,
            // The stop's own test: the end speed it allows (full travel at the end of the
            // step, or past it the push-out); the spring alone may do better.
            Mode::Spring if ends[i] > p.stop_speed + 1e-9 => Mode::Stop,
            Mode::Stop if force < 0.0 => Mode::Released,
            Mode::Stop if force < soft => Mode::Spring,
            // Unloaded, but heading through the stop (a spring whose relaxed length was
            // moved by a run-time edit can pull while the wheel is past it).
            Mode::Released if ends[i] > p.stop_speed + 1e-9 => Mode::Stop,
            Mode::Released if soft > 0.0 => Mode::Spring,
            m => m,
        }
    }

    /// Row `i`'s force split into its parts, from the settled `force` (N): the bump
    /// stop's share is what the soft parts leave, and the tyre's load leaves out the part
    /// of it that removes the approach speed.
    fn force(&self, modes: &[Mode], ends: &[f64], i: usize, force: f64) -> SuspensionForce {
        let (p, h) = (&self.prep[i], self.h);
        let total = force.max(0.0);
        let (spring, damper, bar) = parts(self.rows, self.prep, modes, ends, i, h);
        let soft = spring + damper + bar + self.rows[i].extra_force as f64;
        let bump_stop = if modes[i] == Mode::Stop {
            (total - soft).max(0.0)
        } else {
            0.0
        };
        let kii = (self.kij)(i, i);
        let impulse = if bump_stop > 0.0 && kii > 0.0 {
            (p.u.max(0.0) / (h * kii)).min(bump_stop)
        } else {
            0.0
        };
        let clamp = |v: f64| v.clamp(-(crate::MAX_VALUE as f64), crate::MAX_VALUE as f64) as f32;
        SuspensionForce {
            spring: clamp(spring),
            damper: clamp(damper),
            anti_roll: clamp(bar),
            bump_stop: clamp(bump_stop),
            total: clamp(total),
            tyre_load: clamp((total - impulse).max(0.0)),
            end_speed: clamp(ends[i]),
        }
    }
}

/// The spring, damper and bar parts of row `i` at the end speeds `ends`.
fn parts(rows: &[SuspensionRow], prep: &[Prepared], modes: &[Mode], ends: &[f64], i: usize, h: f64) -> (f64, f64, f64) {
    let p = &prep[i];
    let (a, b, g, d) = p.weights;
    let x_hat = |j: usize| prep[j].x + h * (a * prep[j].u + b * ends[j]);
    let spring = p.k * (x_hat(i) - p.offset) + p.preload;
    let damper = p.c * (g * p.u + d * ends[i]);
    let bar = match bar(rows, modes, i) {
        Bar::Both(j, stiffness) => stiffness * (x_hat(i) - x_hat(j)),
        Bar::Hanging(rate) => rate * x_hat(i),
        Bar::None => 0.0,
    };
    (spring, damper, bar)
}

/// Row `i`'s anti-roll bar: on both ends while both carry load; while the other end is
/// released (touching, but unloaded) or not a row, its wheel hangs on its spring and the
/// bar acts at this wheel alone, at [`SuspensionRow::anti_roll_hanging`] (see
/// [`hanging_bar_rate`]).
fn bar(rows: &[SuspensionRow], modes: &[Mode], i: usize) -> Bar {
    if modes[i] == Mode::Released {
        return Bar::None;
    }
    let hanging = rows[i].anti_roll_hanging;
    let hanging = if hanging.is_finite() && hanging > 0.0 {
        Bar::Hanging(hanging as f64)
    } else {
        Bar::None
    };
    match rows[i].anti_roll {
        Some((j, s)) if j < modes.len() && j != i && s.is_finite() && s > 0.0 => {
            if modes[j] == Mode::Released {
                hanging
            } else {
                Bar::Both(j, s as f64)
            }
        }
        _ => hanging,
    }
}

/// One linear solve for the forces with the rows in `modes`, on matrices of
/// [`SMALL_GROUP`] rows where they fit.
fn solve_modes(
    rows: &[SuspensionRow],
    prep: &[Prepared],
    modes: &[Mode],
    h: f64,
    kij: &impl Fn(usize, usize) -> f64,
    forces: &mut [f64],
) {
    if prep.len() <= SMALL_GROUP {
        solve_modes_in::<SMALL_GROUP>(rows, prep, modes, h, kij, forces);
    } else {
        solve_modes_in::<MAX_WHEELS>(rows, prep, modes, h, kij, forces);
    }
}

/// [`solve_modes`] on `N`×`N` matrices (`N` ≥ the rows).
fn solve_modes_in<const N: usize>(
    rows: &[SuspensionRow],
    prep: &[Prepared],
    modes: &[Mode],
    h: f64,
    kij: &impl Fn(usize, usize) -> f64,
    forces: &mut [f64],
) {
    let n = prep.len().min(N);
    let mut a = [[0.0f64; N]; N];
    let mut rhs = [0.0f64; N];
    for i in 0..n {
        let p = &prep[i];
        match modes[i] {
            Mode::Released => {
                a[i][i] = 1.0;
                rhs[i] = 0.0;
            }
            Mode::Stop => {
                // h·Σ K_il F_l = free − stop_speed, scaled by 1/(h·K_ii).
                let kii = kij(i, i);
                if kii > 0.0 {
                    for (l, v) in a[i][..n].iter_mut().enumerate() {
                        *v = kij(i, l) / kii;
                    }
                    // A little compliance: four wheels on their stops hold a rigid body
                    // in three ways (heave, roll, pitch), so the rigid rows alone are
                    // singular (a table on four legs); this shares the load as slightly
                    // soft stops would.
                    a[i][i] += STOP_COMPLIANCE;
                    rhs[i] = (p.free - p.stop_speed) / (h * kii);
                } else {
                    // No mass to stop: a rigid stop cannot be solved; hold the spring.
                    a[i][i] = 1.0;
                    rhs[i] = p.k * (p.x - p.offset) + p.preload;
                }
            }
            Mode::Spring => {
                // F_i − D_i·u'_i + bar·β·h·u'_j = k·x + (k·α·h + c·γ)·u + bar terms + e,
                // with u' = free − h·K·F.
                let (al, be, ga, de) = p.weights;
                let mut d = p.k * be * h + p.c * de;
                let mut known =
                    p.k * (p.x - p.offset + al * h * p.u) + p.preload + p.c * ga * p.u + rows[i].extra_force as f64;
                let bar = bar(rows, modes, i);
                match bar {
                    Bar::Both(j, s) => {
                        d += s * be * h;
                        known += s * (p.x - prep[j].x + al * h * (p.u - prep[j].u));
                    }
                    Bar::Hanging(s) => {
                        d += s * be * h;
                        known += s * (p.x + al * h * p.u);
                    }
                    Bar::None => {}
                }
                a[i][i] = 1.0;
                known += d * p.free;
                for (l, v) in a[i][..n].iter_mut().enumerate() {
                    *v += d * h * kij(i, l);
                }
                if let Bar::Both(j, s) = bar {
                    let e = s * be * h;
                    known -= e * prep[j].free;
                    for (l, v) in a[i][..n].iter_mut().enumerate() {
                        *v -= e * h * kij(j, l);
                    }
                }
                rhs[i] = known;
            }
        }
    }
    gauss(&mut a, &mut rhs, n);
    for i in 0..n {
        forces[i] = if rhs[i].is_finite() { rhs[i] } else { 0.0 };
    }
}

/// Solves `a·x = rhs` in place (partial pivoting); a singular column leaves 0.
fn gauss<const N: usize>(a: &mut [[f64; N]; N], rhs: &mut [f64; N], n: usize) {
    for col in 0..n {
        let pivot = (col..n)
            .max_by(|&p, &q| a[p][col].abs().total_cmp(&a[q][col].abs()))
            .unwrap_or(col);
        if a[pivot][col].abs() < 1e-300 {
            continue;
        }
        a.swap(col, pivot);
        rhs.swap(col, pivot);
        for row in col + 1..n {
            let f = a[row][col] / a[col][col];
            if f != 0.0 {
                let pivot_row = a[col];
                for (v, p) in a[row][col..n].iter_mut().zip(&pivot_row[col..n]) {
                    *v -= f * p;
                }
                rhs[row] -= f * rhs[col];
            }
        }
    }
    for col in (0..n).rev() {
        let mut v = rhs[col];
        for k in col + 1..n {
            v -= a[col][k] * rhs[k];
        }
        rhs[col] = if a[col][col].abs() < 1e-300 {
            0.0
        } else {
            v / a[col][col]
        };
    }
}

#[cfg(test)]
mod tests;
