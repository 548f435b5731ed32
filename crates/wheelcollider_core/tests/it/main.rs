//! The core's tests, one binary, a module per part (no physics engine: each checks a
//! closed form, an independent computation or a property):
//!
//! | module | what it proves |
//! | --- | --- |
//! | [`settings`] | every setter clamps and refuses non-finite values; presets round-trip |
//! | [`tyre`] | the magic formula against an independent computation; peak slip; combined slip |
//! | [`tyre_dynamics`] | relaxation length and self-aligning torque in time; real slips at walking pace |
//! | [`thermal`] | tyre temperature: steady state, cooling, conservation, pressure, window, wear, puncture |
//! | [`tyre_grip`] | surfaces scale the peak, camber's peak, the aligning torque's sign |
//! | [`suspension`] | sag, natural frequency, damping ratio, bump stop |
//! | [`spin`] | wheel spin under drive and brake: steady slip, locking, energy, step size |
//! | [`static_friction`] | a braked corner holds on a slope; past μ it slides |
//! | [`properties`] | no finite input gives a non-finite output (proptest) |
//! | [`vehicle`] | the vehicle description, the shipped presets, powertrain pieces |
//! | [`drivetrain`] | reflected inertia, limited-slip differentials, engine braking |
//! | [`assists`] | ESC, anti-flip and air control's closed forms |
//! | [`plan`] | the speed plan: a circle at `√(μgR)` (with downforce too), braking into a hairpin, every car's envelope and lap |
//! | [`towing`] | a trailer's brakes (overrun, air, parking), the caravan's nose load, validation |
//! | [`determinism`] | the model's transcendentals go through `math` (`libm`); a coupled run's hash |
//! | [`preset_fuzz`] | malformed presets: never a panic, an error that says where |
//! | [`module_graph`] | no module of any crate in the workspace imports back (no cycle) |
//!
//! [`common`] holds an independent magic formula, quarter-car rigs and the shipped
//! presets' list.

mod assists;
mod common;
mod determinism;
mod drivetrain;
mod module_graph;
mod plan;
mod preset_fuzz;
mod properties;
mod settings;
mod spin;
mod static_friction;
mod suspension;
mod thermal;
mod towing;
mod two_wheeler;
mod tyre;
mod tyre_dynamics;
mod tyre_grip;
mod vehicle;
