//! How fast a wheel's compression grows from the bodies' motion: the suspension's speed
//! reading, against the ground's plane on a face and along the suspension axis on an
//! edge (see [`approach_speed`]).

use bevy::prelude::*;

/// The cosine of the tilt between the ground normal and the suspension axis up to
/// which [`approach_speed`] reads the compression speed against the ground's plane
/// alone (2°).
pub(crate) const COS_FACE_TILT: f32 = 0.999_390_8;
/// The cosine of the tilt from which it reads it along the suspension axis alone (4°);
/// in between, a blend.
pub(crate) const COS_EDGE_TILT: f32 = 0.997_564_1;

/// How fast a wheel's compression grows from the bodies' motion (m/s, positive
/// compressing): `v` is the velocity of the suspension axis' point at the ground less
/// the ground body's at the hit (see `contact.rs`: a small spinning body's velocity
/// carried out to the axis is not its surface's), `up` the suspension axis and `normal`
/// the ground normal at the hit.
///
/// Against a plane through the hit with normal `n`, the distance along the axis from the
/// mount is `d = (mount − p)·n / (up·n)`, and the compression grows at `−v·n / (up·n)`:
/// exact for a wheel on a face, the chassis' turning included. Reading `−v·up` instead
/// (the mount's approach along its own axis) counts a mount sliding along the ground as
/// approaching it whenever the chassis is tilted to the ground. A chassis pitched by θ
/// at speed `V` had its dampers see `V·sin θ`: 0.28 m/s for the kart pitched 0.6° at
/// 27 m/s, 200 N on each of its 800 N·s/m dampers; they carried the load, the springs
/// topped out and the kart hopped on flat ground at 30–90 Hz.
///
/// The plane reading also reads the road's own slope under the wheel as compression
/// speed, `V·tan α`: metres per second at road speed at an edge (a square kerb, a mesh's
/// crease, where the normal swings towards the wheel's travel), for a step that the
/// spring takes as a jump in position (a bump stop that stops it in a step threw the
/// car over a 12 cm kerb at 100 km/h), and on rough ground a damper force that, with no
/// wheel mass to follow the ground, lifts the wheel off each crest. The plugin keeps
/// the design that the road's shape reaches the suspension as position, not speed: the
/// plane reading holds only while the tilt is under 2° (a chassis' attitude at speed:
/// the kart's 0.6°, a car's squat and dive), the axis reading from 4°, blended between.
/// Measured with 5° and 10°: on a heightfield of ±12 cm bumps driven straight at half
/// throttle the road car at 60 Hz lost its speed (9 against 76 km/h at 120 Hz); with
/// 10° and 20° the corner of a square curb tilted it by 8° at 100 km/h.
#[inline]
pub(crate) fn approach_speed(v: Vec3, up: Vec3, normal: Vec3) -> f32 {
    let along_axis = -v.dot(up);
    let facing = up.dot(normal);
    let w = ((facing - COS_EDGE_TILT) / (COS_FACE_TILT - COS_EDGE_TILT)).clamp(0.0, 1.0);
    if w == 0.0 {
        return along_axis;
    }
    let against_plane = -v.dot(normal) / facing;
    along_axis + w * (against_plane - along_axis)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The compression rate of a mount over a plane, against the distance along the axis
    /// differenced over a short time: exact while the ground is within 2° of the axis
    /// (sliding along the plane does not compress, approaching it at `s` compresses at
    /// `s / cos θ`); along the axis alone from 4°; a blend between.
    #[test]
    fn approach_speed_is_the_rate_of_the_distance_along_the_axis() {
        let normal = Vec3::Y;
        for degrees in [0.0f32, 0.6, 1.5, 1.9, 3.0, 4.0, 45.0] {
            let up = Quat::from_rotation_x(degrees.to_radians()) * Vec3::Y;
            // Distance from a mount to the plane y = 0, along −up.
            let distance = |mount: Vec3| mount.dot(normal) / up.dot(normal);
            for v in [Vec3::new(0.0, 0.0, -30.0), Vec3::new(2.0, -0.7, 5.0)] {
                let (mount, dt) = (Vec3::new(0.3, 0.5, 0.2), 1e-3);
                let exact = -(distance(mount + v * dt) - distance(mount)) / dt;
                let axis = -v.dot(up);
                let read = approach_speed(v, up, normal);
                let tol = |x: f32| 1e-3 * (1.0 + x.abs());
                if degrees < 2.0 {
                    assert!(
                        (read - exact).abs() < tol(exact),
                        "{degrees}°, {v}: {read} against {exact}"
                    );
                } else if degrees >= 4.0 {
                    assert!(
                        (read - axis).abs() < tol(axis),
                        "{degrees}°, {v}: {read} against {axis}"
                    );
                } else {
                    // The blend: between the two readings, and strictly inside them.
                    let (lo, hi) = (exact.min(axis), exact.max(axis));
                    assert!(
                        read > lo + tol(lo) && read < hi - tol(hi),
                        "{degrees}°, {v}: {read} outside {lo}..{hi}"
                    );
                }
            }
        }
    }
}
