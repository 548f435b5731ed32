//! The [`TwoWheelerPlugin`]: the two-wheeler's components and their systems in avian's
//! `PhysicsSchedule`.

use super::{Rider, SteeringHead, put_feet_down, ride, steer_heads};
use crate::wheel::WheelSystems;
use crate::wheel::apply::apply_forces;
use avian3d::prelude::*;
use bevy::prelude::*;

/// A two-wheeler's parts on top of the wheels: each [`Rider`] turns its handlebar in
/// [`WheelSystems::Body`] and puts a foot down at walking pace first in
/// [`WheelSystems::Apply`]; then each [`SteeringHead`] turns,
/// after every body part has added to the force channel (it reads the whole of it) and
/// before the channel is applied. Part of
/// [`WheelColliderPlugins`](crate::WheelColliderPlugins); needs [`WheelPlugin`](crate::WheelPlugin).
#[derive(Default)]
pub struct TwoWheelerPlugin;

impl Plugin for TwoWheelerPlugin {
    fn build(&self, app: &mut App) {
        app.register_type::<SteeringHead>()
            .register_type::<Rider>()
            .add_systems(
                PhysicsSchedule,
                (
                    ride.in_set(WheelSystems::Body),
                    (put_feet_down, steer_heads)
                        .chain()
                        .in_set(WheelSystems::Apply)
                        .before(apply_forces),
                ),
            );
    }
}
