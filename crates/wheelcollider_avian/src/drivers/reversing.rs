//! Steering backwards along a path: a car by pure pursuit from its rear axle, and a
//! car with a trailer by steering the trailer's articulation.
//!
//! Physics-free, like [`pursuit`](super::pursuit): positions, headings and the rig's
//! lengths in, a steer input out, through the core's `math`. [`VehicleDriver`](super::VehicleDriver)
//! reads them when it drives its path backwards (`reverse`).
//!
//! **A car** backing up is steered by its front wheels while its rear axle leads. The
//! rear axle runs on the circle `κ = tan δ / L` as it does forwards, but seen along the
//! way it travels the turn is the other way round: the pure-pursuit angle towards a
//! point ahead of the rear axle, measured from the car's backward heading, asks for the
//! steer of the opposite sign ([`reverse_steer`]).
//!
//! **A trailer** backed up is unstable on its own: its articulation `ψ` (the tow's
//! heading less the trailer's, positive when the tow is turned to the left of the
//! trailer) grows as `ψ̇ = ω₁·(1 + h·cos ψ/l) − u·sin ψ/l`, with `u` the tow's speed
//! along its heading (negative backwards), `ω₁ = u·tan δ/L` its yaw rate, `l` the
//! trailer's length from its coupling to its axles and `h` the ball's distance behind
//! the tow's rear axle (the kinematic one-trailer model; Altafini, *Some properties of
//! the general n-trailer*, Int. J. Control 74, 2001). [`trailer_steer`] is a cascade, as
//! a driver reversing a caravan does it:
//! 1. the trailer's axle is steered by pure pursuit towards a point ahead of it on the
//!    path: the curvature it asks for gives the articulation that holds the trailer on
//!    that circle ([`articulation_for`]), within [`MAX_ARTICULATION`];
//! 2. the tow's steer makes the articulation close on that one at the rate
//!    `ψ̇ = k·(ψ* − ψ)`, `k = ARTICULATION_GAIN·|u|/l` (the model solved for `δ`).

use bevy::math::Vec3;
use wheelcollider_core::math;
use wheelcollider_core::vehicle::VehicleSettings;

use super::pursuit::pursuit_steer;

/// The steer input (−1..1, positive left) that backs the car with `settings` towards
/// `target` (world, m) with its rear axle at `rear_axle` (world, m) and the car heading
/// `forward` (world; its horizontal part is used) at `speed` (m/s): pure pursuit from
/// the rear axle along the backward heading, of the opposite sign. Not for a
/// two-wheeler.
pub fn reverse_steer(settings: &VehicleSettings, rear_axle: Vec3, forward: Vec3, target: Vec3, speed: f32) -> f32 {
    -pursuit_steer(settings, rear_axle, -forward, target, speed.abs())
}

/// The lengths of a tow vehicle and its trailer that [`trailer_steer`] reads (m).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rig {
    /// The tow's wheelbase.
    pub wheelbase: f32,
    /// The ball's distance behind the tow's rear axle (negative: ahead of it, as on a
    /// fifth wheel set forward).
    pub hitch_offset: f32,
    /// The trailer's coupling to its axles' mean position
    /// ([`VehicleSettings::trailer_length`]).
    pub trailer_length: f32,
}

impl Rig {
    /// The rig of the tow vehicle `tow` and the trailer `trailer`; `None` when the tow
    /// has no hitch or the trailer is none.
    pub fn of(tow: &VehicleSettings, trailer: &VehicleSettings) -> Option<Rig> {
        let hitch = tow.hitch.as_ref()?;
        trailer.trailer.as_ref()?;
        Some(Rig {
            wheelbase: tow.wheelbase_for(0).max(0.5),
            hitch_offset: hitch.position[2] - rear_axle_z(tow),
            trailer_length: trailer.trailer_length().max(0.5),
        })
    }
}

/// The position along the chassis (m, positive backwards) of the rear axle the
/// steering turns about: the centre of the rearmost group of axles, in the chassis'
/// frame.
pub fn rear_axle_z(settings: &VehicleSettings) -> f32 {
    let l = settings.wheelbase_for(0);
    settings.axles.first().map_or(0.0, |a| a.z + l)
}

/// The most articulation (rad) the reversing driver asks for: a tow at full lock brings
/// a trailer back from there with room to spare before the ball's stop.
pub const MAX_ARTICULATION: f32 = 0.7;

/// How fast the articulation closes on the one asked for, per `|u|/l` (`k` in the
/// module docs): the inner loop three times faster than the trailer's own divergence.
pub const ARTICULATION_GAIN: f32 = 3.0;

/// The slowest speed (m/s) the articulation loop divides by: below it the tow steers
/// as if it moved at this speed.
const CREEP: f32 = 0.3;

/// The articulation (rad, the tow's heading less the trailer's) that holds the rig on
/// a steady circle with the trailer's axles on curvature `curvature` (1/m, positive
/// turning left when driven forwards): `atan(l·κ) + atan(h/R₁)` with `R₁`, the tow's
/// rear axle's radius, `√(1/κ² + l² − h²)` (the three points on one circle's radii).
pub fn articulation_for(rig: Rig, curvature: f32) -> f32 {
    let k = curvature.abs();
    if k < 1e-6 {
        return 0.0;
    }
    let (l, h) = (rig.trailer_length, rig.hitch_offset);
    let r = 1.0 / k;
    let r1 = (r * r + l * l - h * h).max(1e-6).sqrt();
    (math::atan(l * k) + math::atan(h / r1)).copysign(curvature)
}

/// The tow's steer input (−1..1, positive left) that backs its trailer along a path:
/// the trailer's axles at `axle` (world, m) heading `trailer_forward` (world), the
/// point to steer them to `target` (world, m), the articulation `psi` (rad) and the
/// tow's speed along its heading `u` (m/s, negative backwards) (module docs); and the
/// articulation asked for (rad).
pub fn trailer_steer(
    settings: &VehicleSettings,
    rig: Rig,
    (axle, trailer_forward): (Vec3, Vec3),
    target: Vec3,
    psi: f32,
    u: f32,
) -> (f32, f32) {
    // 1. The trailer's axle, travelling backwards, onto the circle through the target.
    let to = (target - axle).with_y(0.0);
    let back = (-trailer_forward).with_y(0.0).normalize_or_zero();
    let alpha = math::atan2(back.cross(to).y, back.dot(to));
    let travelled = 2.0 * math::sin(alpha) / to.length().max(1e-3);
    // Driven forwards, the same circle turns the other way.
    let wanted = articulation_for(rig, -travelled).clamp(-MAX_ARTICULATION, MAX_ARTICULATION);
    // 2. The tow's yaw rate that closes the articulation at rate k, and its steer.
    let (l, h, base) = (rig.trailer_length, rig.hitch_offset, rig.wheelbase);
    let u = if u.abs() < CREEP { -CREEP } else { u };
    let k = ARTICULATION_GAIN * u.abs() / l;
    let yaw_rate = (k * (wanted - psi) + u * math::sin(psi) / l) / (1.0 + h * math::cos(psi) / l).max(0.1);
    let delta = math::atan(base * yaw_rate / u).to_degrees();
    let steer = (delta / settings.steering.lock_at(u).max(1e-3)).clamp(-1.0, 1.0);
    (steer, wanted)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn road() -> VehicleSettings {
        VehicleSettings::preset("road").unwrap()
    }

    /// The road car's rig with the caravan: the ball 0.85 m behind the rear axle, the
    /// caravan 4.5 m from its coupling to its axle.
    #[test]
    fn the_road_car_and_the_caravan_make_the_presets_rig() {
        let rig = Rig::of(&road(), &VehicleSettings::preset("caravan").unwrap()).unwrap();
        assert!((rig.wheelbase - 2.63).abs() < 1e-4, "{rig:?}");
        assert!((rig.hitch_offset - 0.85).abs() < 1e-4, "{rig:?}");
        assert!((rig.trailer_length - 4.5).abs() < 1e-4, "{rig:?}");
        assert!(Rig::of(&road(), &road()).is_none());
    }

    /// The articulation of a steady circle holds it: with the tow's yaw rate the
    /// trailer's (`ω = u·κ`), the model's `ψ̇` is 0 there, both ways round.
    #[test]
    fn the_circles_articulation_is_steady() {
        let rig = Rig {
            wheelbase: 2.63,
            hitch_offset: 0.85,
            trailer_length: 4.5,
        };
        for kappa in [-0.2f32, -0.05, 0.02, 0.1, 0.25] {
            let psi = articulation_for(rig, kappa);
            // The trailer's axle at speed u on curvature κ turns at u·κ; the hitch (and
            // the tow) turn at the same rate. ψ̇ = ω·(1 + h cos ψ/l) − u_tow·sin ψ/l
            // with the tow's rear axle's speed u·R₁/R.
            let r = 1.0 / kappa.abs();
            let l = rig.trailer_length;
            let h = rig.hitch_offset;
            let r1 = (r * r + l * l - h * h).sqrt();
            let u = 1.0f32;
            let omega = u * kappa;
            let u_tow = u * r1 / r;
            let rate = omega * (1.0 + h * psi.cos() / l) - u_tow * psi.sin() / l;
            assert!(rate.abs() < 1e-4, "κ {kappa}: ψ {psi} leaves ψ̇ {rate}");
            assert_eq!(psi.signum(), kappa.signum());
        }
    }

    /// Backing up straight behind a target on the car's line, the steer is 0; a target
    /// to the left of the way it travels (its right side) asks for right lock, as a
    /// driver looking over the shoulder steers.
    #[test]
    fn a_car_backs_up_with_the_steer_the_other_way() {
        let car = road();
        let straight = reverse_steer(&car, Vec3::ZERO, Vec3::NEG_Z, Vec3::new(0.0, 0.0, 8.0), 1.0);
        assert!(straight.abs() < 1e-6, "{straight}");
        // Backing towards +Z, the travel's left is +X.
        let steer = reverse_steer(&car, Vec3::ZERO, Vec3::NEG_Z, Vec3::new(3.0, 0.0, 8.0), 1.0);
        assert!(steer < -0.1, "{steer}");
    }
}
