//! Keyboard and gamepad driving (feature `input`): [`VehicleInputPlugin`] fills the
//! [`VehicleInput`] of every vehicle marked [`PlayerVehicle`].
//!
//! | action | keyboard | gamepad |
//! | --- | --- | --- |
//! | throttle | W / ↑ | right trigger |
//! | brake (reverse when stopped, automatic box) | S / ↓ | left trigger |
//! | steer | A D / ← → | left stick |
//! | handbrake | Space | South (A / ✕) |
//! | gear up / down | E / Q | right / left bumper |
//! | clutch (manual clutch only) | C | West (X / □) |
//! | a two-wheeler's rider's weight back / forward | Z / X | right stick down / up |

use bevy::prelude::*;

use crate::vehicle::VehicleInput;

/// Marks the vehicle(s) the keyboard and gamepad drive.
#[derive(Component, Reflect, Clone, Copy, Debug, Default)]
#[reflect(Component)]
pub struct PlayerVehicle;

/// Reads the keyboard and the first gamepad in `PreUpdate` into [`VehicleInput`].
///
/// Bevy runs fixed-step physics before `Update`, so a script or AI that overrides the
/// input should run in `PreUpdate` after [`VehicleInputSystems`] (or in `FixedUpdate`);
/// written in `Update`, it reaches the vehicle a frame later.
#[derive(Default)]
pub struct VehicleInputPlugin;

/// The system set in `PreUpdate` that writes [`VehicleInput`] from the devices.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct VehicleInputSystems;

impl Plugin for VehicleInputPlugin {
    fn build(&self, app: &mut App) {
        app.register_type::<PlayerVehicle>().add_systems(
            PreUpdate,
            read_input.in_set(VehicleInputSystems).after(bevy::input::InputSystems),
        );
    }
}

fn read_input(
    keys: Option<Res<ButtonInput<KeyCode>>>,
    gamepads: Query<&Gamepad>,
    mut vehicles: Query<&mut VehicleInput, With<PlayerVehicle>>,
) {
    let pressed = |k: &[KeyCode]| keys.as_ref().is_some_and(|keys| keys.any_pressed(k.iter().copied()));
    let just = |k: &[KeyCode]| {
        keys.as_ref()
            .is_some_and(|keys| keys.any_just_pressed(k.iter().copied()))
    };
    let axis = |b: bool| -> f32 { if b { 1.0 } else { 0.0 } };
    let mut throttle = axis(pressed(&[KeyCode::KeyW, KeyCode::ArrowUp]));
    let mut brake = axis(pressed(&[KeyCode::KeyS, KeyCode::ArrowDown]));
    let mut steer =
        axis(pressed(&[KeyCode::KeyA, KeyCode::ArrowLeft])) - axis(pressed(&[KeyCode::KeyD, KeyCode::ArrowRight]));
    let mut handbrake = axis(pressed(&[KeyCode::Space]));
    let mut clutch = axis(pressed(&[KeyCode::KeyC]));
    let mut weight_shift = axis(pressed(&[KeyCode::KeyX])) - axis(pressed(&[KeyCode::KeyZ]));
    let mut up = just(&[KeyCode::KeyE]);
    let mut down = just(&[KeyCode::KeyQ]);
    if let Some(pad) = gamepads.iter().next() {
        let get = |b: GamepadButton| pad.get(b).unwrap_or(0.0);
        throttle = throttle.max(get(GamepadButton::RightTrigger2));
        brake = brake.max(get(GamepadButton::LeftTrigger2));
        let stick = pad.get(GamepadAxis::LeftStickX).unwrap_or(0.0);
        if stick.abs() > 0.08 {
            steer = -stick;
        }
        handbrake = handbrake.max(get(GamepadButton::South));
        clutch = clutch.max(get(GamepadButton::West));
        let stick = pad.get(GamepadAxis::RightStickY).unwrap_or(0.0);
        if stick.abs() > 0.08 {
            weight_shift = stick;
        }
        up |= pad.just_pressed(GamepadButton::RightTrigger);
        down |= pad.just_pressed(GamepadButton::LeftTrigger);
    }
    for mut input in &mut vehicles {
        input.throttle = throttle;
        input.brake = brake;
        input.steer = steer;
        input.handbrake = handbrake;
        input.clutch = clutch;
        input.weight_shift = weight_shift;
        // Held until a physics step consumes them.
        input.gear_up |= up;
        input.gear_down |= down;
    }
}
