//! The rider: balances a two-wheeler by steering, as a real rider does, and nothing
//! else. Asked for a lean, the rider turns the handlebar with a bounded torque:
//! to lean left, first right (the countersteer that tips the bike over), then into the
//! lean as the bike falls towards it, then whatever holds the turn. No force or torque
//! reaches the chassis from the rider but through the steering head.
//!
//! The law is a lean controller on the handlebar torque:
//!
//! `T = −k_p·e − k_i·∫e + k_d·φ̇ − k_s·δ̇`, `e = φ* − φ` (the arms' damping `k_s`
//! handed to the head, which takes it implicitly with its damper),
//!
//! with `φ` the lean (positive left, as the steer), `φ*` the asked lean and `δ̇` the
//! steer rate; `T` within `±max_torque`, the integral gathered only within 0.05 rad of
//! the asked lean or once the lean has settled (a lean rate under 0.05 rad/s), and kept
//! within what it can use (`max_torque / k_i`). Past `let_go` of lean the rider has
//! fallen and lets go.
//! Proved by `two_wheeler::rider` (the benchmark bicycle held in a steady turn at a
//! weave-unstable, a self-stable and a capsizing speed) and `two_wheeler::motorcycle`
//! (the MT-07 held on its asked lean and in steady turns).

use super::SteeringHead;
use crate::wheel::components::{ChassisForces, WheelOutput};
use avian3d::prelude::*;
use bevy::prelude::*;
use wheelcollider_core::vehicle::RiderSettings;

/// A rider on a two-wheeler with a [`SteeringHead`]: turns the handlebar (the head's
/// [`torque`](SteeringHead::torque)) to hold the asked [`lean`](Self::lean), with the
/// gains of its [`RiderSettings`]. A game writes `lean` from its steer input each step (a
/// positive steer input leans and turns left, as a car's turns left); a vehicle with
/// [`TwoWheelerSettings`](wheelcollider_core::vehicle::TwoWheelerSettings) gets its rider
/// from its settings, its lean from its [`VehicleInput`](crate::vehicle::VehicleInput).
#[derive(Component, Clone, Debug, Default, PartialEq, Reflect)]
#[reflect(Component)]
pub struct Rider {
    /// The gains, the handlebar's bound and the foot.
    pub settings: RiderSettings,
    /// The lean asked for (rad, positive left).
    pub lean: f32,
    /// The lean error's integral (rad·s): state.
    pub integral: f32,
}

/// How near the asked lean (rad) the rider's integral gathers.
const INTEGRAL_BAND: f32 = 0.05;
/// Below this lean rate (rad/s) the rider's integral gathers at any error: the lean has
/// settled short of (or past) the asked one, which the proportional term alone holds.
const SETTLED_RATE: f32 = 0.05;

/// The chassis' lean (rad, positive left) and lean rate (rad/s): the tilt of its up
/// from the vertical across its heading.
pub fn lean_of(rotation: Quat, angular_velocity: Vec3) -> (f32, f32) {
    let forward = rotation * Vec3::NEG_Z;
    let heading = forward.with_y(0.0).normalize_or(Vec3::NEG_Z);
    let left = Vec3::Y.cross(heading);
    let lean = wheelcollider_core::math::asin((rotation * Vec3::Y).dot(left).clamp(-1.0, 1.0));
    // A lean to the left turns the up towards the left: about −heading.
    (lean, -angular_velocity.dot(heading))
}

/// Every [`Rider`]'s handlebar torque for this step (the module docs), into its
/// chassis' [`SteeringHead`]. In [`WheelSystems::Body`](crate::WheelSystems::Body)
/// ([`TwoWheelerPlugin`](super::TwoWheelerPlugin)).
pub(crate) fn ride(
    time: Res<Time>,
    mut riders: Query<(
        &mut Rider,
        &mut SteeringHead,
        &Rotation,
        &LinearVelocity,
        &AngularVelocity,
    )>,
    wheels: Query<&WheelOutput>,
) {
    let dt = time.delta_secs();
    if dt <= 0.0 {
        return;
    }
    for (mut rider, mut head, rotation, velocity, spin) in &mut riders {
        let max = rider.settings.max_torque.max(0.0);
        // The front wheel off the road (a wheelie, a jump): steering it turns nothing but
        // the wheel, so the rider holds the handlebar straight for the landing.
        let airborne = wheels.get(head.wheel).is_ok_and(|w| !w.output.grounded);
        if airborne || (rider.settings.foot_down && velocity.0.length() < rider.settings.foot_speed) {
            // A foot is down, or the front is in the air: the rider holds the handlebar
            // straight.
            rider.integral = 0.0;
            let torque = -rider.settings.lean_gain * head.angle;
            head.arms = rider.settings.steer_rate_gain.max(0.0);
            head.torque = if torque.is_finite() {
                torque.clamp(-max, max)
            } else {
                0.0
            };
            continue;
        }
        let (lean, lean_rate) = lean_of(rotation.0, spin.0);
        if !(lean.is_finite() && lean_rate.is_finite()) || lean.abs() > rider.settings.let_go.to_radians() {
            head.torque = 0.0;
            head.arms = 0.0;
            rider.integral = 0.0;
            continue;
        }
        let error = rider.lean - lean;
        let reach = if rider.settings.integral_gain > 0.0 {
            max / rider.settings.integral_gain
        } else {
            0.0
        };
        // The integral gathers only near the asked lean (within `INTEGRAL_BAND`) or once
        // the lean has settled (`SETTLED_RATE`): the way in is the proportional and rate
        // terms' work, and an integral wound up on it would carry the bike past the lean;
        // a lean settled away from the asked one (a heavy bike's own steering torque at
        // a deep lean) is the integral's (`two_wheeler::motorcycle`).
        if error.abs() < INTEGRAL_BAND || lean_rate.abs() < SETTLED_RATE {
            rider.integral = (rider.integral + error * dt).clamp(-reach, reach);
        }
        let g = &rider.settings;
        let torque = -g.lean_gain * error - g.integral_gain * rider.integral + g.lean_rate_gain * lean_rate;
        // The arms' damping `k_s·δ̇`: the head takes it implicitly.
        head.arms = g.steer_rate_gain.max(0.0);
        head.torque = if torque.is_finite() {
            torque.clamp(-max, max)
        } else {
            0.0
        };
    }
}

/// Every [`Rider`]'s foot: below [`foot_speed`](RiderSettings::foot_speed), with
/// [`foot_down`](RiderSettings::foot_down), a lean past [`foot_lean`](RiderSettings::foot_lean) puts the
/// foot on the road [`foot_reach`](RiderSettings::foot_reach) to that side of the wheels, under
/// the centre of mass (the road's height read at the front wheel's contact). The leg
/// pushes up there (never pulls), as a spring and damper on the lean past the foot's,
/// four times as stiff as the bike's toppling `m·g·h`, so the bike leans on it and
/// stands. Into the chassis' [`ChassisForces`] at the foot, before the
/// steering heads read the channel.
pub(crate) fn put_feet_down(
    time: Res<Time>,
    gravity: Option<Res<Gravity>>,
    mut riders: Query<(
        &Rider,
        &SteeringHead,
        &Rotation,
        &LinearVelocity,
        &AngularVelocity,
        &ComputedMass,
        &ComputedAngularInertia,
        &mut ChassisForces,
    )>,
    wheels: Query<&WheelOutput>,
) {
    let g = gravity.map_or(9.81, |g| g.0.length());
    let dt = time.delta_secs();
    if dt <= 0.0 {
        return;
    }
    for (rider, head, rotation, velocity, spin, mass, inertia, mut forces) in &mut riders {
        if !rider.settings.foot_down || velocity.0.length() >= rider.settings.foot_speed {
            continue;
        }
        let Ok(front) = wheels.get(head.wheel) else {
            continue;
        };
        let (lean, lean_rate) = lean_of(rotation.0, spin.0);
        let past = lean.abs() - rider.settings.foot_lean.to_radians().max(0.0);
        if !front.output.grounded || !past.is_finite() || past <= 0.0 {
            continue;
        }
        // The foot: to the side of the lean, on the road under the centre of mass.
        let centre = forces.centre_of_mass();
        let height = (centre.y - front.contact_position.y).max(0.0);
        let heading = (rotation.0 * Vec3::NEG_Z).with_y(0.0).normalize_or(Vec3::NEG_Z);
        let left = Vec3::Y.cross(heading);
        let reach = rider.settings.foot_reach.max(0.05);
        let foot = Vec3::new(centre.x, front.contact_position.y, centre.z) + left * reach * lean.signum();
        // The leg's roll stiffness and damping about the wheels' line, as a force at the
        // foot: a torque T there is the force T / reach. The damping is critical for the
        // body's own roll inertia about its centre of mass, the least the foot's force
        // meets (before the tyres hold the contacts), so that it never overshoots in a
        // step; about the wheels' line that is underdamped, and the bike settles on the
        // foot (`two_wheeler::rider::at_rest_the_bike_falls_without_a_foot_down_and_stands_with_one`).
        let m = mass.value();
        let roll_inertia = inertia.rotated(rotation.0).value().mul_vec3(heading).dot(heading);
        // Within what an explicit step can carry on that inertia.
        let stiffness = (4.0 * m * g * height).min(0.25 * roll_inertia / (dt * dt));
        let damping = (2.0 * (stiffness * roll_inertia).sqrt()).min(0.5 * roll_inertia / dt);
        let torque = stiffness * past + damping * lean_rate * lean.signum();
        let push = (torque / reach).max(0.0);
        if push.is_finite() {
            forces.add_force_at_point(Vec3::Y * push, foot);
        }
    }
}
