//! Scenes a game has that the features' own tests did not design for.

mod crashes;
mod degenerate;
mod game_world;
mod mesh_floor;
mod platforms;
mod runtime_changes;
mod stress;
