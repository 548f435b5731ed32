//! A wheel on the ground.

mod anti_roll;
mod drive;
mod force_channel;
mod holes;
mod kerbs;
mod loops;
mod slope_hold;
mod suspension;
mod tyre_low_speed;
