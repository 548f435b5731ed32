//! What writes a vehicle's [`VehicleInput`](crate::vehicle::VehicleInput): a driver.
//! The vehicle reads its input at the start of each physics step and does not care who
//! wrote it; each driver here is one way to write it.
//!
//! | module | driver |
//! | --- | --- |
//! | `input` (feature `input`) | a person: keyboard and gamepad ([`VehicleInputPlugin`](input::VehicleInputPlugin)) |
//! | [`driver`] | a robot driver as a component: [`VehicleDriver`] on a [`Path`] at the speed the car's own plan allows, with [`VehicleDriverPlugin`] |
//! | [`reversing`] | steering backwards along a path: a car from its rear axle, a car with a trailer by the trailer's articulation (what [`VehicleDriver`] reads with `reverse`) |
//! | [`pursuit`] | a robot on a path: pure-pursuit steering towards a point ahead on a [`Path`], and the path's speed profile (the test track's drivers, the `ai_path` example, the scene's traffic) |
//!
//! A new driver (an AI racer, a replay of another game's format, a network peer) is a
//! module here that writes `VehicleInput` in `PreUpdate` after `VehicleInputSystems`,
//! or in `FixedUpdate` before the physics step.

pub mod driver;
#[cfg(feature = "input")]
pub mod input;
pub mod pursuit;
pub mod reversing;

pub use driver::{PathEnd, VehicleDriver, VehicleDriverPlugin, VehicleDriverSystems};
pub use pursuit::{Path, lookahead, pursuit_steer};
