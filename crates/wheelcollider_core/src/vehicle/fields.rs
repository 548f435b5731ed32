//! The one declaration of every scalar number of a vehicle's parts: its path in a file,
//! label, unit, limit (which may follow another field: the redline above the idle),
//! the inspector's range and step, and its part. [`VehicleSettings::validate`] clamps
//! each through it and the inspector draws each from it ([`VEHICLE_FLOATS`]); a test
//! walks it (`vehicle::every_vehicle_float_is_declared_once`). Arrays (the chassis' size
//! and centre of mass, the torque curve, the gear ratios), the axles and the choices
//! keep their own code in `settings.rs`.
//!
//! The order is the validation's: a field whose limit reads another comes after it.

use super::VehicleSettings;
use crate::limits::MAX_VALUE;

/// Which part of a vehicle a number belongs to (the inspector's sections).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VehiclePart {
    /// The chassis' mass.
    Chassis,
    /// The centre differential's split.
    Driveline,
    /// The engine.
    Engine,
    /// The clutch.
    Clutch,
    /// The gearbox.
    Gearbox,
    /// The brakes.
    Brakes,
    /// The steering.
    Steering,
    /// The aerodynamics.
    Aero,
    /// Anti-flip.
    AntiFlip,
    /// Air control.
    AirControl,
    /// Yaw stability (ESC).
    YawStability,
}

/// One scalar number of a vehicle part, declared once in [`VEHICLE_FLOATS`].
#[derive(Clone, Copy, Debug)]
pub struct VehicleFloat {
    /// Its path in a preset file, and the name its errors give (`engine.idle_rpm`).
    pub path: &'static str,
    /// A short label for an editor.
    pub label: &'static str,
    /// The unit, as the docs write it (`""` for a plain number).
    pub unit: &'static str,
    /// Its part.
    pub part: VehiclePart,
    /// The limit `validate` clamps it to, (min, max), from the settings as clamped so
    /// far (the fields before it in [`VEHICLE_FLOATS`]).
    pub limit: fn(&VehicleSettings) -> (f32, f32),
    /// The range an editor offers, (min, max); inside the limit for any valid settings
    /// (`vehicle` tests check it on every preset).
    pub range: fn(&VehicleSettings) -> (f32, f32),
    /// How much a value changes per pixel dragged in an editor (its unit).
    pub speed: f32,
    /// Reads it.
    pub get: fn(&VehicleSettings) -> f32,
    /// The field, to write.
    pub field: fn(&mut VehicleSettings) -> &mut f32,
}

/// Declares the table: `path, label, unit, part, limit |s| (lo, hi), range |s| (lo, hi),
/// speed, |s| &mut s.field`.
macro_rules! floats {
    ($(
        $path:literal, $label:literal, $unit:literal, $part:ident,
        limit |$l:ident| $limit:expr, range |$r:ident| $range:expr, $speed:expr,
        |$s:ident| $field:expr;
    )*) => {
        /// Every scalar number of a vehicle's parts, in the validation's order.
        pub const VEHICLE_FLOATS: &[VehicleFloat] = &[$(VehicleFloat {
            path: $path,
            label: $label,
            unit: $unit,
            part: VehiclePart::$part,
            limit: |$l: &VehicleSettings| {
                let _ = $l;
                $limit
            },
            range: |$r: &VehicleSettings| {
                let _ = $r;
                $range
            },
            speed: $speed,
            get: |$s: &VehicleSettings| $field,
            field: |$s: &mut VehicleSettings| &mut $field,
        }),*];
    };
}

floats! {
    "chassis.mass", "mass", "kg", Chassis,
        limit |s| (1.0, MAX_VALUE), range |s| (s.lightest_sprung_mass(), 100_000.0), 5.0, |s| s.chassis.mass;
    "front_torque_share", "front torque share", "", Driveline,
        limit |s| (0.0, 1.0), range |s| (0.0, 1.0), 0.01, |s| s.front_torque_share;
    "engine.idle_rpm", "idle", "rpm", Engine,
        limit |s| (100.0, 50_000.0), range |s| (100.0, 20_000.0), 10.0, |s| s.engine.idle_rpm;
    "engine.redline_rpm", "redline", "rpm", Engine,
        limit |s| (s.engine.idle_rpm + 100.0, 100_000.0), range |s| (s.engine.idle_rpm + 100.0, 30_000.0), 10.0,
        |s| s.engine.redline_rpm;
    "engine.inertia", "inertia", "kg·m²", Engine,
        limit |s| (0.01, MAX_VALUE), range |s| (0.01, 10.0), 0.005, |s| s.engine.inertia;
    "engine.braking_torque", "engine braking", "N·m", Engine,
        limit |s| (0.0, MAX_VALUE), range |s| (0.0, 2000.0), 1.0, |s| s.engine.braking_torque;
    "engine.speed_limit", "speed limit (0 off)", "km/h", Engine,
        limit |s| (0.0, 10_000.0), range |s| (0.0, 500.0), 1.0, |s| s.engine.speed_limit;
    "engine.stall_rpm", "stall speed", "rpm", Engine,
        limit |s| (0.0, s.engine.idle_rpm - 50.0), range |s| (0.0, (s.engine.idle_rpm - 50.0).max(0.0)), 10.0,
        |s| s.engine.stall_rpm;
    "engine.breakaway_torque", "breakaway", "N·m", Engine,
        limit |s| (0.0, 5000.0), range |s| (0.0, 500.0), 1.0, |s| s.engine.breakaway_torque;
    "clutch.max_torque", "clutch torque", "N·m", Clutch,
        limit |s| (0.0, MAX_VALUE), range |s| (0.0, 10_000.0), 5.0, |s| s.clutch.max_torque;
    "clutch.engage_rpm", "clutch engage", "rpm", Clutch,
        limit |s| (s.engine.idle_rpm + 50.0, s.engine.redline_rpm),
        range |s| (s.engine.idle_rpm + 50.0, s.engine.redline_rpm), 10.0,
        |s| s.clutch.engage_rpm;
    "gearbox.reverse", "reverse", "", Gearbox,
        limit |s| (0.01, 100.0), range |s| (0.05, 20.0), 0.005, |s| s.gearbox.reverse;
    "gearbox.final_drive", "final drive", "", Gearbox,
        limit |s| (0.01, 100.0), range |s| (0.05, 20.0), 0.005, |s| s.gearbox.final_drive;
    "gearbox.efficiency", "efficiency", "", Gearbox,
        limit |s| (0.5, 1.0), range |s| (0.5, 1.0), 0.005, |s| s.gearbox.efficiency;
    "gearbox.shift_time", "shift time", "s", Gearbox,
        limit |s| (0.0, 2.0), range |s| (0.0, 2.0), 0.01, |s| s.gearbox.shift_time;
    "gearbox.inertia", "gearbox inertia", "kg·m²", Gearbox,
        limit |s| (0.0, MAX_VALUE), range |s| (0.0, 2.0), 0.001, |s| s.gearbox.inertia;
    "gearbox.shift_up_rpm", "shift up", "rpm", Gearbox,
        limit |s| (s.engine.idle_rpm, s.engine.redline_rpm), range |s| (s.engine.idle_rpm, s.engine.redline_rpm), 10.0,
        |s| s.gearbox.shift_up_rpm;
    "gearbox.shift_down_rpm", "shift down", "rpm", Gearbox,
        limit |s| (s.engine.idle_rpm, s.gearbox.shift_up_rpm),
        range |s| (s.engine.idle_rpm, s.gearbox.shift_up_rpm), 10.0,
        |s| s.gearbox.shift_down_rpm;
    "gearbox.drag_torque", "drivetrain drag", "N·m", Gearbox,
        limit |s| (0.0, MAX_VALUE), range |s| (0.0, 200.0), 0.5, |s| s.gearbox.drag_torque;
    "brakes.max_torque", "max torque", "N·m", Brakes,
        limit |s| (0.0, MAX_VALUE), range |s| (0.0, (25.0 * s.chassis.mass).max(50_000.0)), 20.0,
        |s| s.brakes.max_torque;
    "brakes.front_bias", "front bias", "", Brakes,
        limit |s| (0.0, 1.0), range |s| (0.0, 1.0), 0.01, |s| s.brakes.front_bias;
    "brakes.handbrake_torque", "handbrake", "N·m", Brakes,
        limit |s| (0.0, MAX_VALUE), range |s| (0.0, (10.0 * s.chassis.mass).max(20_000.0)), 10.0,
        |s| s.brakes.handbrake_torque;
    "steering.max_angle", "max angle", "deg", Steering,
        limit |s| (0.0, 60.0), range |s| (0.0, 60.0), 0.1, |s| s.steering.max_angle;
    "steering.ackermann", "Ackermann", "", Steering,
        limit |s| (0.0, 1.0), range |s| (0.0, 1.0), 0.01, |s| s.steering.ackermann;
    "steering.lock_to_lock_time", "lock to lock", "s", Steering,
        limit |s| (0.0, 5.0), range |s| (0.0, 5.0), 0.01, |s| s.steering.lock_to_lock_time;
    "steering.high_speed_lock", "lock at speed", "", Steering,
        limit |s| (0.0, 1.0), range |s| (0.0, 1.0), 0.01, |s| s.steering.high_speed_lock;
    "steering.high_speed", "… reached at", "m/s", Steering,
        limit |s| (0.1, 1000.0), range |s| (0.1, 200.0), 0.5, |s| s.steering.high_speed;
    "steering.mechanical_trail", "mechanical trail", "m", Steering,
        limit |s| (-0.2, 0.2), range |s| (-0.2, 0.2), 0.001, |s| s.steering.mechanical_trail;
    "aero.air_density", "air density", "kg/m³", Aero,
        limit |s| (0.0, 100.0), range |s| (0.0, 2.0), 0.005, |s| s.aero.air_density;
    "aero.drag_coefficient", "Cd", "", Aero,
        limit |s| (0.0, 100.0), range |s| (0.0, 3.0), 0.005, |s| s.aero.drag_coefficient;
    "aero.frontal_area", "frontal area", "m²", Aero,
        limit |s| (0.0, 1000.0), range |s| (0.0, 20.0), 0.01, |s| s.aero.frontal_area;
    "aero.downforce_front", "downforce front", "m² (Cl·A, − lifts)", Aero,
        limit |s| (-1000.0, 1000.0), range |s| (-10.0, 10.0), 0.01, |s| s.aero.downforce_front;
    "aero.downforce_rear", "downforce rear", "m² (Cl·A, − lifts)", Aero,
        limit |s| (-1000.0, 1000.0), range |s| (-10.0, 10.0), 0.01, |s| s.aero.downforce_rear;
    "aero.pressure_height", "centre of pressure", "m above the CoM", Aero,
        limit |s| (-s.chassis.size[1], s.chassis.size[1]), range |s| (-s.chassis.size[1], s.chassis.size[1]), 0.005,
        |s| s.aero.pressure_height;
    "assists.anti_flip.max_angle", "… max tilt", "deg", AntiFlip,
        limit |s| (0.0, 180.0), range |s| (0.0, 180.0), 0.5, |s| s.assists.anti_flip.max_angle;
    "assists.anti_flip.max_acceleration", "… strength", "rad/s²", AntiFlip,
        limit |s| (0.0, 1000.0), range |s| (0.0, 1000.0), 0.5, |s| s.assists.anti_flip.max_acceleration;
    "assists.air_control.pitch_rate", "… pitch rate", "deg/s", AirControl,
        limit |s| (0.0, 1440.0), range |s| (0.0, 1440.0), 1.0, |s| s.assists.air_control.pitch_rate;
    "assists.air_control.yaw_rate", "… yaw rate", "deg/s", AirControl,
        limit |s| (0.0, 1440.0), range |s| (0.0, 1440.0), 1.0, |s| s.assists.air_control.yaw_rate;
    "assists.air_control.roll_rate", "… roll rate", "deg/s", AirControl,
        limit |s| (0.0, 1440.0), range |s| (0.0, 1440.0), 1.0, |s| s.assists.air_control.roll_rate;
    "assists.air_control.max_acceleration", "… acceleration", "rad/s²", AirControl,
        limit |s| (0.0, 1000.0), range |s| (0.0, 1000.0), 0.5, |s| s.assists.air_control.max_acceleration;
    "assists.yaw_stability.threshold", "… threshold", "deg/s", YawStability,
        limit |s| (0.0, 180.0), range |s| (0.0, 180.0), 0.1, |s| s.assists.yaw_stability.threshold;
    "assists.yaw_stability.gain", "… gain", "N·m per deg/s", YawStability,
        limit |s| (0.0, MAX_VALUE), range |s| (0.0, 5000.0), 5.0, |s| s.assists.yaw_stability.gain;
    "assists.yaw_stability.max_torque", "… max torque", "N·m", YawStability,
        limit |s| (0.0, MAX_VALUE), range |s| (0.0, 50_000.0), 20.0, |s| s.assists.yaw_stability.max_torque;
    "assists.yaw_stability.reference_understeer", "… reference understeer", "deg/g", YawStability,
        limit |s| (-10.0, 20.0), range |s| (-10.0, 20.0), 0.05,
        |s| s.assists.yaw_stability.reference_understeer;
}
