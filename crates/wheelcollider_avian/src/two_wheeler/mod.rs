//! Two-wheelers: what a bicycle or a motorcycle has that a car does not. Its steering
//! head ([`SteeringHead`]): the front assembly turning about a tilted axis by the forces
//! on it, so that the bike steers itself into a lean as a real one does; and its
//! [`Rider`], who balances it by turning the handlebar, never by a torque on the
//! body. The wheels'
//! gyroscopic torques are every wheel's (`ChassisForces`' rotor term, in the wheels'
//! step); the leaning tyre's camber and crown are the wheel model's.
//!
//! Proved by `tests/it/two_wheeler/benchmark.rs`: the benchmark bicycle of Meijaard et
//! al. (2007) weaves, runs upright by itself and capsizes at the speeds its linearised
//! equations give.

mod plugin;
mod rider;
mod steering_head;

pub use plugin::TwoWheelerPlugin;

pub use rider::{Rider, lean_of};
pub(crate) use rider::{put_feet_down, ride};
pub use steering_head::SteeringHead;
pub(crate) use steering_head::steer_heads;
