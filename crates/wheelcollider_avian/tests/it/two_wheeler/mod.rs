//! Two-wheelers: the benchmark bicycle's self-stability from the physics of leaning
//! alone (its steering head's geometry, the wheels' gyroscopic torques, the tyres).

mod benchmark;
