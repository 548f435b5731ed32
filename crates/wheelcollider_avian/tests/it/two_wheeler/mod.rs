//! Two-wheelers: the benchmark bicycle's self-stability from the physics of leaning
//! alone (its steering head's geometry, the wheels' gyroscopic torques, the tyres), and
//! a rider who balances it in a turn by steering.

mod benchmark;
mod bicycle;
mod motorcycle;
mod rider;
