//! The suspension of one chassis' wheels, solved together and implicitly.
//!
//! Each grounded wheel is a row of [`wheelcollider_core::suspension::solve`]: its spring,
//! damper, bump stop and anti-roll bar as a soft constraint on the chassis' inverse-mass
//! matrix `K`, where `Kᵢⱼ` is how fast wheel `i`'s compression speed changes per newton of
//! wheel `j`'s suspension force:
//!
//! ```text
//! Kᵢⱼ = lᵢ·dⱼ / m + (I⁻¹·(rᵢ × lᵢ))·(rⱼ × dⱼ)   (+ a dynamic ground's own term on i = j)
//! ```
//!
//! with `lᵢ` the suspension axis (the compression speed is the mount's approach to the
//! ground along it), `dⱼ` the force's direction and `r` the arms from the centre of
//! mass.
//! Solving the wheels together with the chassis' real mass and inertia is what makes the
//! static sag exactly `m·g/k` and the frequency and damping those of the car, at any
//! stiffness and step rate (see the core module for the equations and the stability
//! proof). A chassis with more than [`MAX_WHEELS`] grounded wheels solves them in groups,
//! each on `K` scaled by the number of groups, a conservative (softer) estimate.

use super::components::{RiseMemory, WheelState};
use super::contact::{Grounded, Sensed, finite_or_zero};
use wheelcollider_core::suspension::{MAX_WHEELS, SuspensionForce, solve};
use wheelcollider_core::{SuspensionRow, WheelSettings, hanging_bar_rate};

/// How long (s) a wheel's compression must have gained on every step before the bump
/// stop leaves room for the ground's rise (see [`ground_rise`]): a kerb's face or ramp
/// is climbed in one to three steps (12 ms at 240 Hz, 33 ms at 60 Hz), a loop's curve
/// lasts seconds.
pub(crate) const RISE_PERSISTENCE: f32 = 0.04;

/// The steepest the ground's rise may be against the wheel's path for the bump stop to
/// leave room for it (rise per metre travelled, 6°): a road's curve under a car gives
/// less (0.044, 1.9 m/s at 43 m/s, for a front wheel in a 30 m loop). No test needs it
/// since [`RISE_MAX_DEPTH`]; it bounds what a reading that stays wrong can do to the
/// stop (2.8 m/s at 100 km/h, nothing at a standstill).
pub(crate) const RISE_MAX_SLOPE: f32 = 0.1;

/// How far past its travel (m) a wheel may be for the bump stop to leave room for the
/// ground's rise: deeper, the stop is pushing out a wheel found inside the ground (a
/// teleport, a radius typed larger), gently, at most `BUMP_STOP_MAX_PUSH_SPEED`, and the
/// rise, read off that push-out, would hurry it (measured: a kart whose 2 m wheels were
/// typed in the air was thrown up at 2.2 m/s, against 0.5).
pub(crate) const RISE_MAX_DEPTH: f32 = 0.1;

/// The smallest gain (m/s, times the step) that counts towards [`RISE_PERSISTENCE`]: the
/// numerical noise of a wheel at rest or rolling on a flat road is far below it.
pub(crate) const RISE_MIN_SPEED: f32 = 0.1;

/// The ground's rise into a wheel (see [`SuspensionRow::ground_rise`]): (what the
/// compression gained over the last step beyond the bodies' approach, the rise the bump
/// stop leaves room for, how long the gains have been positive), in m, m and s.
/// `compression` and `speed` are this step's row's, `along_ground` the wheel's forward
/// and sideways speeds over the ground (m/s; their length is taken only while a rise is
/// being left room for, not on every wheel-step).
///
/// The gain is the compression's change less what the bodies' motion explains: the mean
/// of the last and this step's speed readings times the step. What is left is the
/// ground's own rise: a loop's curve, the part of a tilted face the reading leaves to
/// position. The readings are the bodies' velocities after every contact of the step,
/// so a chassis that scrapes or strikes something (and moves the wheel's mount in ways
/// the suspension's solve did not predict) gains nothing.
///
/// The rise is the smaller of this step's and the last step's gains, once the gains
/// have been positive for [`RISE_PERSISTENCE`]; otherwise 0. A loop gains for seconds; a
/// kerb's face or ramp, a triangle's edge, a teleport or a landing for one to three
/// steps, and a stop that anticipated those would throw the car (measured: a road car
/// over a 12 cm curb at 100 km/h tilted 10° and rose 12 cm, against 0.4° and 1.3 cm). A
/// ground that falls away counts 0: the stop then acts as it would without the rise. A
/// change of travel or radius moves the compression without motion and is taken out.
pub(crate) fn ground_rise(
    settings: &WheelSettings,
    state: &WheelState,
    compression: f32,
    speed: f32,
    (forward, sideways): (f32, f32),
    dt: f32,
) -> (f32, f32, f32) {
    let geometry = settings.suspension_length() + settings.radius();
    let Some(last) = state.rise_memory.filter(|_| state.geometry > 0.0) else {
        return (0.0, 0.0, 0.0);
    };
    // The last step's compression is the core's: a grounded step stores the row's.
    let moved = dt * 0.5 * (last.speed + speed);
    let gain = finite_or_zero(compression - state.step_state.compression - moved - (geometry - state.geometry));
    let streak = if gain > RISE_MIN_SPEED * dt {
        last.streak + dt
    } else {
        0.0
    };
    let deep = compression > settings.suspension_length() + RISE_MAX_DEPTH;
    let rise = if streak >= RISE_PERSISTENCE && !deep {
        // `max`/`min`, not `clamp`: a non-finite chassis velocity written by a game
        // makes the bound NaN, which `clamp` panics on; `min` passes over it.
        gain.min(last.gain)
            .max(0.0)
            .min(RISE_MAX_SLOPE * forward.hypot(sideways) * dt)
    } else {
        0.0
    };
    (gain, rise, streak)
}

/// What [`ground_rise`] keeps of a grounded wheel's step for the next.
pub(crate) fn remember(g: &Grounded) -> RiseMemory {
    RiseMemory {
        speed: g.row.speed,
        gain: g.rise_gain,
        streak: g.rise_streak,
    }
}

/// Solves the suspension of `sensed` (one group of one chassis' wheels) and writes each
/// grounded wheel's force into its contact. `inverse_mass` is the chassis' (1/kg), `scale`
/// multiplies `K` (the number of groups).
pub(crate) fn solve_chassis(inverse_mass: f32, sensed: &mut [Sensed], dt: f32, scale: f32) {
    let mut index = [usize::MAX; MAX_WHEELS];
    let mut rows = [SuspensionRow::default(); MAX_WHEELS];
    let mut n = 0;
    for (i, s) in sensed.iter().enumerate().take(MAX_WHEELS) {
        if let Some(g) = &s.ground {
            index[n] = i;
            rows[n] = g.row;
            n += 1;
        }
    }
    if n == 0 {
        return;
    }
    let mut k = [0.0f64; MAX_WHEELS * MAX_WHEELS];
    for a in 0..n {
        let ga = sensed[index[a]].ground.as_ref().expect("grounded");
        let up = sensed[index[a]].up;
        // The bar's other end, if it is grounded in this group; and the bar's rate here
        // while that end hangs (its spring read from its own wheel, or this one's if it
        // is not in this group).
        if let Some((partner, stiffness)) = ga.bar {
            rows[a].anti_roll = (0..n)
                .find(|&b| sensed[index[b]].entity == partner)
                .map(|b| (b, stiffness));
            let spring = sensed
                .iter()
                .find(|s| s.entity == partner)
                .map_or(ga.row.stiffness, |s| s.spring);
            rows[a].anti_roll_hanging = hanging_bar_rate(stiffness, spring);
        }
        for b in 0..n {
            let gb = sensed[index[b]].ground.as_ref().expect("grounded");
            let mut v = inverse_mass * up.dot(gb.direction) + ga.ang.dot(gb.moment);
            if a == b {
                // A force along a contact normal far from the axis can move the mount
                // along the axis little, or the wrong way (a chassis tipped 55°, a wheel
                // typed larger than the chassis is long): the stop's force, the approach
                // over this, would grow without bound. At least half what a force along
                // the axis itself would do.
                v = v.max(0.5 * (inverse_mass + ga.ang.dot(ga.axis_moment)));
                v += ga.ground_inverse;
            }
            k[a * n + b] = (scale * v) as f64;
        }
    }
    let mut forces = [SuspensionForce::default(); MAX_WHEELS];
    solve(&rows[..n], &k[..n * n], dt, &mut forces[..n]);
    for a in 0..n {
        if let Some(g) = sensed[index[a]].ground.as_mut() {
            g.contact.suspension = Some(forces[a]);
        }
    }
}
