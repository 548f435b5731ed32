//! A wheel on the ground.

mod drive;
mod holes;
mod kerbs;
mod loops;
mod slope_hold;
mod suspension;
mod tyre_low_speed;
