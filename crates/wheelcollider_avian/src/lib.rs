use bevy::prelude::*;
pub struct WheelColliderPlugin;
impl Plugin for WheelColliderPlugin {
    fn build(&self, _app: &mut App) {}
}
