//! How fast a wheel's compression grows, read from the bodies' motion, and how fast the
//! ground itself rises into the wheel: the two speed readings of the suspension's row.
//!
//! The rule behind both: the road's shape reaches the suspension as position, not as
//! speed. A kerb's face, a triangle's edge or a teleport jumps the compression in a step;
//! read as a speed it would be metres per second of approach, and a bump stop that stops
//! it in one step throws the car. So [`approach_speed`] reads the bodies' velocities, not
//! the compression's change, and [`ground_rise`] lets the bump stop leave room for the
//! ground's own rise only once it has lasted. The measurements that placed the
//! thresholds: `docs/reliability.md`, "Where the thresholds come from".

use super::components::{RiseState, WheelState};
use bevy::prelude::*;
use wheelcollider_core::math;
use wheelcollider_core::{WheelSettings, finite_or_zero};

/// The cosine of the tilt along the travel (the normal's lean towards the way the
/// wheel moves over the ground) up to which [`approach_speed`] reads the compression
/// speed against the ground's plane alone (2°).
pub(crate) const COS_FACE_TILT: f32 = 0.999_390_8;
/// The cosine of the tilt from which it reads it along the suspension axis alone (4°);
/// in between, a blend.
pub(crate) const COS_EDGE_TILT: f32 = 0.997_564_1;

/// The speed (m/s) under which [`approach_speed`] measures the normal's lean along the
/// travel against this speed rather than the travel's own: a wheel at rest, or moving
/// only on its springs, meets no slope (its reading is the plane's while the springs'
/// motion stays under this speed's `sin 2°`).
pub(crate) const TRAVEL_FLOOR: f32 = 1.0;

/// The cosine of the axis' whole tilt from the normal (60°) under which
/// [`approach_speed`] reads along the axis alone, whatever the tilt's direction: the
/// plane reading's `1 / (up·n)` grows without bound towards a body on its side.
pub(crate) const MIN_PLANE_FACING: f32 = 0.5;
/// Over how much of `up·n` above [`MIN_PLANE_FACING`] the plane reading blends in.
pub(crate) const PLANE_FACING_BLEND: f32 = 0.1;

/// How long (s) a wheel's compression must have gained on every step before the bump
/// stop leaves room for the ground's rise: longer than a kerb's face or ramp takes to
/// climb (one to three steps at 60 Hz), shorter than a loop's curve.
pub(crate) const RISE_PERSISTENCE: f32 = 0.04;

/// The steepest the ground's rise may be against the wheel's path for the bump stop to
/// leave room for it (rise per metre travelled, 6°): more than a road's curve gives. It
/// bounds what a reading that stays wrong can do to the stop.
pub(crate) const RISE_MAX_SLOPE: f32 = 0.1;

/// How far past its travel (m) a wheel may be for the bump stop to leave room for the
/// ground's rise: deeper, the stop is pushing out a wheel found inside the ground (a
/// teleport, a radius typed larger), and the rise, read off that push-out, would hurry
/// it (`world::game_world`'s kart with its wheels typed to 2 m).
pub(crate) const RISE_MAX_DEPTH: f32 = 0.1;

/// The smallest gain (m/s, times the step) that counts towards [`RISE_PERSISTENCE`]: the
/// numerical noise of a wheel at rest or rolling on a flat road is far below it.
pub(crate) const RISE_MIN_SPEED: f32 = 0.1;

/// How fast a wheel's compression grows from the bodies' motion (m/s, positive
/// compressing): `v` is the velocity of the suspension axis' point at the ground less
/// the ground body's at the hit (a small spinning body's velocity carried out to the
/// axis is not its surface's: `world::platforms`' log), `travel` the chassis' own
/// velocity over the ground (its centre of mass' less the ground body's at the hit),
/// `up` the suspension axis, `normal` the ground normal at the hit and `forward` the
/// wheel's heading (unit, across `up`).
///
/// Against a plane through the hit with normal `n` the compression grows at
/// `−v·n / (up·n)`: exact for a wheel on a face, the chassis' turning and pitch included,
/// where `−v·up` would read a mount sliding along a ground it is tilted to as
/// approaching it (a chassis pitched by θ at speed `V`: `V·sin θ`). But the plane
/// reading also reads the road's own slope under the wheel as speed (`V·tan α` at an
/// edge the wheel runs onto), so it holds only while the normal leans along the travel
/// by under 2°, the axis reading from 4°, blended between. The lean along the travel is
/// the lesser of the normal's lean towards the wheel's heading (`n·forward`) and towards
/// the chassis' travel (`n·travel / |travel|`, `|travel|` at least [`TRAVEL_FLOOR`]): a
/// chassis travelling along a face travels across its normal whatever its pitch (a
/// motorcycle under the front brake), a chassis turned with a face it meets is
/// headed along it, and a tilt across both (a leaned two-wheeler, a rolled body, a
/// cross-slope) leaves the plane reading; a face the chassis is both headed and
/// travelling into by more than 4° is an edge, or ground curving up into the wheel (a
/// loop's entry), and the axis reading takes it. The travel is the centre of mass', not
/// the mount's: a chassis pitching up into a loop's entry carries its front mounts
/// along the rising face while the ground still rises into them (`wheel::loops`)
/// (`docs/reliability.md`, "The approach reading's blend"). From
/// [`MIN_PLANE_FACING`] of `up·n` the axis reading takes over (a body on its side).
/// Guarded by the unit tests below, `wheel::suspension` (the kart at speed does not
/// hop), `wheel::kerbs` and `two_wheeler::motorcycle` (the dampers of a steady turn; a
/// full lever at speed).
#[inline]
pub(crate) fn approach_speed(v: Vec3, travel: Vec3, up: Vec3, normal: Vec3, forward: Vec3) -> f32 {
    let along_axis = -v.dot(up);
    let facing = up.dot(normal);
    // The lesser of the normal's lean towards the heading and towards the travel.
    let heading = normal.dot(forward);
    let travel = (normal.dot(travel) / travel.length().max(TRAVEL_FLOOR)).clamp(-1.0, 1.0);
    let along = if heading.abs() < travel.abs() { heading } else { travel };
    let cos_along = (1.0 - along * along).max(0.0).sqrt();
    let w = ((cos_along - COS_EDGE_TILT) / (COS_FACE_TILT - COS_EDGE_TILT)).clamp(0.0, 1.0)
        * ((facing - MIN_PLANE_FACING) / PLANE_FACING_BLEND).clamp(0.0, 1.0);
    if w == 0.0 {
        return along_axis;
    }
    let against_plane = -v.dot(normal) / facing;
    along_axis + w * (against_plane - along_axis)
}

/// The ground's rise into a wheel (see [`SuspensionRow::ground_rise`]): this step's
/// reading (kept for the next) and the rise the bump stop leaves room for (m).
/// `compression` and `speed` are this step's row's, `along_ground` the wheel's forward
/// and sideways speeds over the ground (m/s; their length is taken only while a rise is
/// being left room for).
///
/// The gain is the compression's change less what the bodies' motion explains (the mean
/// of the last and this step's speed readings times the step): the ground's own rise.
/// The rise is the smaller of this step's and the last step's gains, once the gains have
/// been positive for [`RISE_PERSISTENCE`], else 0; a ground that falls away counts 0.
/// Guarded by `wheel::loops` (a loop's curve is left room for) and `wheel::kerbs`,
/// `world::crashes` (a kerb's jump is not).
///
/// [`SuspensionRow::ground_rise`]: wheelcollider_core::SuspensionRow::ground_rise
pub(crate) fn ground_rise(
    settings: &WheelSettings,
    state: &WheelState,
    (compression, speed): (f32, f32),
    (forward, sideways): (f32, f32),
    dt: f32,
) -> (RiseState, f32) {
    let Some(last) = state.rise else {
        let none = RiseState {
            speed,
            gain: 0.0,
            streak: 0.0,
        };
        return (none, 0.0);
    };
    // The last step's compression is the core's (moved with an edited geometry).
    let moved = dt * 0.5 * (last.speed + speed);
    let gain = finite_or_zero(compression - state.step.compression - moved);
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
            .min(RISE_MAX_SLOPE * math::hypot(forward, sideways) * dt)
    } else {
        0.0
    };
    (RiseState { speed, gain, streak }, rise)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The compression rate of a mount over a plane, against the distance along the axis
    /// differenced over a short time, with the chassis pitched by 0–45° to the plane and
    /// its travel meeting the plane at 0–30°: exact while the heading or the travel meets
    /// the plane at under 2° (sliding along the plane does not compress, at any pitch;
    /// approaching it at `s` compresses at `s / cos θ`); along the axis alone where both
    /// meet it at 4° or more; a blend between. A mount at rest bouncing on its springs
    /// (under [`TRAVEL_FLOOR`]) reads the plane.
    #[test]
    fn approach_speed_is_the_rate_of_the_distance_along_the_axis() {
        let normal = Vec3::Y;
        for pitch in [0.0f32, 1.5, 4.0, 10.0, 45.0] {
            let up = Quat::from_rotation_x(pitch.to_radians()) * Vec3::Y;
            // Distance from a mount to the plane y = 0, along −up.
            let distance = |mount: Vec3| mount.dot(normal) / up.dot(normal);
            for slope in [0.0f32, 1.0, 1.9, 3.0, 4.5, 30.0] {
                for (speed, sideways) in [(30.0f32, 0.0f32), (5.0, 2.0)] {
                    let (sin, cos) = slope.to_radians().sin_cos();
                    let v = Vec3::new(sideways, -speed * sin, -speed * cos);
                    let (mount, dt) = (Vec3::new(0.3, 0.5, 0.2), 1e-3);
                    let exact = -(distance(mount + v * dt) - distance(mount)) / dt;
                    let axis = -v.dot(up);
                    let forward = Quat::from_rotation_x(pitch.to_radians()) * Vec3::NEG_Z;
                    let read = approach_speed(v, v, up, normal, forward);
                    let tol = |x: f32| 1e-3 * (1.0 + x.abs());
                    // The lesser of the heading's and the travel's lean into the plane.
                    let meets = (normal.dot(v) / v.length())
                        .abs()
                        .min(normal.dot(forward).abs())
                        .asin()
                        .to_degrees();
                    if meets < 2.0 {
                        assert!(
                            (read - exact).abs() < tol(exact),
                            "pitch {pitch}°, slope {slope}°, {v}: {read} against {exact}"
                        );
                    } else if meets >= 4.0 {
                        assert!(
                            (read - axis).abs() < tol(axis),
                            "pitch {pitch}°, slope {slope}°, {v}: {read} against {axis}"
                        );
                    } else if (exact - axis).abs() > 0.01 {
                        // The blend: between the two readings, and strictly inside them.
                        let (lo, hi) = (exact.min(axis), exact.max(axis));
                        assert!(
                            read > lo + tol(lo) && read < hi - tol(hi),
                            "pitch {pitch}°, slope {slope}°, {v}: {read} outside {lo}..{hi}"
                        );
                    }
                }
            }
            let bounce = Vec3::new(0.0, -0.02, 0.0);
            let exact = 0.02 / up.dot(normal);
            let forward = Quat::from_rotation_x(pitch.to_radians()) * Vec3::NEG_Z;
            let read = approach_speed(bounce, bounce, up, normal, forward);
            assert!(
                (read - exact).abs() < 1e-5,
                "pitch {pitch}°: at rest {read} against {exact}"
            );
        }
    }

    /// A leaned, pitched chassis rolling along a flat ground reads the plane at any lean
    /// up to 53° and any pitch (the axis reading reads the speed times the pitch's sine:
    /// a motorcycle braking hard pitches 4°): no approach; from 60° of lean, the axis
    /// reading.
    #[test]
    fn a_lean_is_read_against_the_plane() {
        let normal = Vec3::Y;
        for (lean, pitch) in [
            (10.0f32, 0.0f32),
            (30.0, 1.0),
            (20.0, 4.0),
            (45.0, 1.5),
            (53.0, 0.0),
            (70.0, 0.0),
        ] {
            let turn = Quat::from_rotation_z(lean.to_radians()) * Quat::from_rotation_x(pitch.to_radians());
            let (up, forward) = (turn * Vec3::Y, turn * Vec3::NEG_Z);
            let distance = |mount: Vec3| mount.dot(normal) / up.dot(normal);
            for v in [Vec3::new(0.0, 0.0, -30.0), Vec3::new(2.0, -0.02, 5.0)] {
                let (mount, dt) = (Vec3::new(0.3, 0.5, 0.2), 1e-3);
                let exact = -(distance(mount + v * dt) - distance(mount)) / dt;
                let read = approach_speed(v, v, up, normal, forward);
                let expected = if lean < 60.0 { exact } else { -v.dot(up) };
                assert!(
                    (read - expected).abs() < 1e-3 * (1.0 + expected.abs()),
                    "lean {lean}°, pitch {pitch}°, {v}: {read} against {expected}"
                );
            }
        }
    }
}
