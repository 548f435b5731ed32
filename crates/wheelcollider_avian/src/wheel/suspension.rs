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
//! ground along it), `dⱼ` the force's direction (times the ground's load per newton of
//! it, `1/cos` of the axis' tilt for an axial suspension) and `r` the arms from the
//! centre of mass.
//! Solving the wheels together with the chassis' real mass and inertia is what makes the
//! static sag exactly `m·g/k` and the frequency and damping those of the car, at any
//! stiffness and step rate (see the core module for the equations and the stability
//! proof). A chassis with more than [`MAX_WHEELS`] grounded wheels solves them in groups,
//! each on `K` scaled by the number of groups, a conservative (softer) estimate.

use super::contracts::{ChassisFrame, Sensed};
use wheelcollider_core::suspension::{MAX_WHEELS, SMALL_GROUP, SuspensionForce, solve};
use wheelcollider_core::{SuspensionRow, hanging_bar_rate};

/// Solves the suspension of `sensed` (one group of one chassis' wheels): each grounded
/// wheel's force, at its index in `sensed` (`None` for a wheel in the air).
/// `frame` gives the chassis' inverse mass (1/kg) and its last tyre forces; `scale`
/// multiplies `K` (the number of groups).
pub(crate) fn solve_chassis<const N: usize>(
    frame: &ChassisFrame,
    sensed: &[Sensed],
    dt: f32,
    scale: f32,
) -> [Option<SuspensionForce>; N] {
    let inverse_mass = frame.inverse_mass;
    let mut solved = [None; N];
    let mut index = [usize::MAX; N];
    let mut rows = [SuspensionRow::default(); N];
    let mut n = 0;
    for (i, s) in sensed.iter().enumerate().take(N) {
        if let Some(g) = &s.ground {
            index[n] = i;
            rows[n] = g.row;
            n += 1;
        }
    }
    if n == 0 {
        return solved;
    }
    // `K` row-major, n×n: a car's group in a small buffer (zeroed every step).
    let mut small = [0.0f64; SMALL_GROUP * SMALL_GROUP];
    let mut large;
    let k: &mut [f64] = if n <= SMALL_GROUP {
        &mut small
    } else {
        large = [0.0f64; MAX_WHEELS * MAX_WHEELS];
        &mut large
    };
    for a in 0..n {
        let ga = sensed[index[a]].ground.as_ref().expect("grounded");
        let up = sensed[index[a]].up;
        // The last step's tyre and body-part forces move the mount as gravity does:
        // the compression acceleration they give, `−(up·F/m + (I⁻¹·(r × up))·T)`, is
        // part of the free one. Left out, the solve read the springs' balance of a
        // corner's roll moment (or of lift) as motion and its dampers held a steady
        // share of it (`vehicle::geometry`).
        let (force, torque) = frame.free;
        let free = inverse_mass * up.dot(force) + ga.ang.dot(torque);
        if free.is_finite() {
            rows[a].free_acceleration -= free;
        }
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
            let mut v = gb.gain * (inverse_mass * up.dot(gb.direction) + ga.ang.dot(gb.moment));
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
    let mut forces = [SuspensionForce::default(); N];
    solve(&rows[..n], &k[..n * n], dt, &mut forces[..n]);
    for a in 0..n {
        solved[index[a]] = Some(forces[a]);
    }
    solved
}
