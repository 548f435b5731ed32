//! The vehicle's body-level parts: what pushes the chassis as a whole rather than
//! through a wheel. Each is a system in [`VehicleSystems::Body`](super::VehicleSystems)
//! (inside [`WheelSystems::Body`](crate::WheelSystems::Body)) that adds to the chassis'
//! [`ChassisForces`](crate::wheel::ChassisForces), the one force channel the wheels
//! wrote this step; [`WheelSystems::Apply`](crate::WheelSystems::Apply) hands it to
//! avian once and the next step's suspension solve counts its free part.
//!
//! The contract a new part (a wing, a parachute, a thruster, damage; not a joint, whose
//! force avian solves: a hitch is one) follows:
//! read the body's pose and velocity of this step, add forces at world points with
//! [`add_force_at_point`](crate::wheel::ChassisForces::add_force_at_point) (the
//! channel knows the centre of mass), write nothing to avian's `Forces` and nothing to
//! telemetry but the part's own report, and order the system against the other parts
//! (a game's part `.after(VehicleSystems::Body)`). `docs/architecture.md`, "The force
//! channel".
//!
//! | file | part |
//! | --- | --- |
//! | `aero.rs` | drag at the centre of pressure, downforce or lift at the first and last axle |
//! | `assists.rs` | anti-flip and air control ([`AssistSettings`](super::AssistSettings)) |

pub(super) mod aero;
pub(super) mod assists;
