//! The body assists of [`AssistSettings`](wheelcollider_core::vehicle::AssistSettings):
//! anti-flip and air control, as an angular acceleration on the chassis' force channel
//! (avian applies it over the step, independent of the body's inertia). Yaw stability
//! brakes wheels and runs inside the vehicle step.

use avian3d::prelude::*;
use bevy::prelude::*;
use wheelcollider_core::vehicle::{BodyMotion, body_acceleration};

use crate::vehicle::{VehicleInput, VehicleRuntime};
use crate::wheel::{ChassisForces, ChassisState, ChassisWheels};

/// What the body assists read and write of a vehicle: its wheels and how many of them
/// touched the ground in this step (`ChassisState`, written by the wheels' step just
/// before), never the telemetry of the step before.
type AssistData = (
    &'static VehicleRuntime,
    &'static VehicleInput,
    (&'static ChassisWheels, &'static ChassisState),
    (&'static Rotation, &'static AngularVelocity),
    &'static mut ChassisForces,
);

/// Anti-flip and air control on every vehicle that has one of them on. The world's up
/// is against avian's [`Gravity`] (+Y without gravity); the chassis is airborne when
/// no wheel touched the ground in this step.
pub(crate) fn apply_body_assists(time: Res<Time>, gravity: Option<Res<Gravity>>, mut vehicles: Query<AssistData>) {
    let dt = time.delta_secs();
    let down = gravity.map(|g| g.0).unwrap_or(Vec3::NEG_Y);
    let up = (-down).try_normalize().unwrap_or(Vec3::Y);
    for (runtime, input, (wheels, chassis), (rot, ang), mut forces) in &mut vehicles {
        let Some(settings) = runtime.settings.as_ref() else {
            continue;
        };
        let a = &settings.assists;
        if !a.anti_flip.enabled && !a.air_control.enabled {
            continue;
        }
        let to_local = rot.0.inverse();
        let body = BodyMotion {
            up: (to_local * up).to_array(),
            angular_velocity: (to_local * ang.0).to_array(),
            airborne: !wheels.wheels().is_empty() && chassis.grounded_wheels == 0,
        };
        let local = Vec3::from(body_acceleration(a, &input.0, &body, dt));
        if local != Vec3::ZERO {
            forces.bypass_change_detection().add_angular_acceleration(rot.0 * local);
        }
    }
}
