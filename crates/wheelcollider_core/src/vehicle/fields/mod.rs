//! The one declaration of every scalar number of a vehicle outside its wheels: the
//! parts, each axle, the differentials and the towing. One [`Row`] per number, in the
//! rows' keyword grammar (`crate::rows`), its place a path:
//!
//! ```text
//! "engine.redline_rpm" {
//!     label: "redline", unit: "rpm", group: Engine,
//!     limit: |s, _| (s.engine.idle_rpm + 100.0, 100_000.0),
//!     range: |s, _| (s.engine.idle_rpm + 100.0, 30_000.0),
//!     step: 10.0,
//!     at: |s, _| s.engine.redline_rpm,
//! }
//! ```
//!
//! `path` is where a preset file has it (`axles[]` for each axle: the row's `|s, i|`
//! closures take the axle's index) and the name its errors give; `limit` is what
//! [`VehicleSettings::validate`] clamps it to, from the settings as clamped so far (the
//! rows before it); `range` what an editor offers (inside the limit: the `vehicle`
//! tests check it on every preset); `step` how much a value changes per pixel dragged
//! (its unit); the place is one of
//!
//! - `at: |s, i| PLACE`: a number that is always there;
//! - `optional: |s, i| PLACE, typical: |s, i| VALUE`: an `Option<f32>` that a preset may
//!   leave unset, and what an unset one resolves to (an editor shows it; an edit sets
//!   it); `typical: none` where an unset one means "off";
//! - `get: |s, i| Option<f32>, field: |s, i| Option<&mut f32>`: a number inside a part
//!   that may be absent (a hitch) or of another kind (a differential that is not a
//!   limited-slip one).
//!
//! [`VehicleSettings::validate`] clamps each through it, the inspector draws each from it
//! ([`VEHICLE_FLOATS`]), and tests walk it (`vehicle::every_vehicle_float_is_declared_once`,
//! `vehicle::every_number_of_a_preset_is_declared`). The arrays (the chassis' size, centre
//! of mass and inertia, the torque curve, the gear ratios, the hitch's and coupling's
//! positions) and the choices keep their own code in `settings.rs` and `towing.rs`; the
//! wheels' numbers are the wheel's own table (`settings/table.rs`).
//!
//! The order is the validation's: a field whose limit reads another comes after it.

use super::{DifferentialKind, TrailerBrakes, VehicleSettings};
use crate::limits::{MAX_SPRING, MAX_VALUE};
use crate::rows::{Optional, Read, Row};

#[macro_use]
mod inside;
#[macro_use]
mod grammar;

/// Which part of a vehicle a number belongs to (the inspector's sections).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VehiclePart {
    /// The chassis' mass.
    Chassis,
    /// One axle's place, bar and geometry (rows `axles[].…`).
    Axle,
    /// A limited-slip differential's numbers: the centre one's (`centre_differential.…`)
    /// and each axle's (`axles[].differential.…`).
    Differential,
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
    /// A tow vehicle's hitch.
    Hitch,
    /// A trailer's stand and brakes.
    Trailer,
    /// A two-wheeler's steering head and the lean its rider is asked for.
    SteeringHead,
    /// A two-wheeler's rider.
    Rider,
    /// A tracked vehicle's steering and belts.
    Tracks,
}

impl Row<VehicleSettings, VehiclePart> {
    /// The indices it has in `settings`: each axle's, or just 0.
    pub fn indices(&self, settings: &VehicleSettings) -> core::ops::Range<usize> {
        if self.each_axle() {
            0..settings.axles.len()
        } else {
            0..1
        }
    }
}

impl VehicleSettings {
    /// The length (m) an editor's ranges of positions and lengths scale with: the
    /// chassis box's longest side, at least 0.5 m (a kart's centre of mass may go as far
    /// off its middle, relative to its size, as a car's).
    pub fn editor_scale(&self) -> f32 {
        self.chassis.size.iter().copied().fold(0.5, f32::max)
    }
}

/// Overrun brakes are full at a push above their `response`: the limit and the editor's
/// range of `trailer.brakes.full`.
fn overrun_full(s: &VehicleSettings) -> (f32, f32) {
    (overrun!(get s, response).unwrap_or(0.0) + 0.01, 1.0)
}

/// Gives a closure the type of an optional number's typical value (a closure inside
/// `Some` is not coerced to a function pointer on its own).
const fn typical(f: Read<VehicleSettings, f32>) -> Option<Read<VehicleSettings, f32>> {
    Some(f)
}

floats! {
    "chassis.mass" {
        label: "mass", unit: "kg", group: Chassis,
        limit: |_, _| (1.0, MAX_VALUE), range: |s, _| (s.lightest_sprung_mass(), 100_000.0), step: 5.0,
        at: |s, _| s.chassis.mass,
    }
    "chassis.inertia_tilt" {
        label: "inertia tilt", unit: "deg", group: Chassis,
        limit: |_, _| (-90.0, 90.0), range: |_, _| (-45.0, 45.0), step: 0.1,
        at: |s, _| s.chassis.inertia_tilt,
    }

    // Each axle: along the chassis within one chassis length of its middle, the half
    // track up to one, the mount within half of one up or down, the roll centre within
    // the half track (`editor_scale`).
    // A trailer's axles stay behind its coupling (`validate` refuses one ahead).
    "axles[].z" {
        label: "position z", unit: "m", group: Axle,
        limit: |_, _| (-1000.0, 1000.0),
        range: |s, _| {
            let scale = s.editor_scale();
            let front = s.trailer.as_ref().map_or(-scale, |t| (t.coupling[2] + 0.05).max(-scale));
            (front.min(scale), scale)
        },
        step: 0.005,
        at: |s, i| s.axles[i].z,
    }
    "axles[].half_track" {
        label: "half track", unit: "m", group: Axle,
        limit: |_, _| (0.01, 100.0), range: |s, _| (0.05, s.editor_scale()), step: 0.005,
        at: |s, i| s.axles[i].half_track,
    }
    "axles[].mount_height" {
        label: "mount height", unit: "m", group: Axle,
        limit: |_, _| (-1000.0, 1000.0), range: |s, _| (-0.5 * s.editor_scale(), 0.5 * s.editor_scale()), step: 0.005,
        at: |s, i| s.axles[i].mount_height,
    }
    "axles[].anti_roll_stiffness" {
        label: "anti-roll bar", unit: "N/m", group: Axle,
        limit: |_, _| (0.0, MAX_SPRING), range: |_, _| (0.0, MAX_SPRING), step: 100.0,
        at: |s, i| s.axles[i].anti_roll_stiffness,
    }
    "axles[].roll_steer" {
        label: "roll steer", unit: "deg/deg", group: Axle,
        limit: |_, _| (-1.0, 1.0), range: |_, _| (-1.0, 1.0), step: 0.005,
        optional: |s, i| s.axles[i].roll_steer, typical: |s, i| s.axle_geometry(i).roll_steer,
    }
    "axles[].compliance_steer" {
        label: "compliance steer", unit: "deg/kN", group: Axle,
        limit: |_, _| (-2.0, 2.0), range: |_, _| (-2.0, 2.0), step: 0.005,
        optional: |s, i| s.axles[i].compliance_steer, typical: |s, i| s.axle_geometry(i).compliance_steer,
    }
    "axles[].roll_centre_height" {
        label: "roll centre height", unit: "m", group: Axle,
        limit: |s, i| (-s.axles[i].half_track, s.axles[i].half_track),
        range: |s, i| (-s.axles[i].half_track, s.axles[i].half_track), step: 0.002,
        optional: |s, i| s.axles[i].roll_centre_height, typical: |s, i| s.axle_geometry(i).roll_centre_height,
    }
    "axles[].anti_dive" {
        label: "anti-dive", unit: "%", group: Axle,
        limit: |_, _| (-50.0, 150.0), range: |_, _| (-50.0, 150.0), step: 0.5,
        optional: |s, i| s.axles[i].anti_dive, typical: |s, i| s.axle_geometry(i).anti_dive,
    }
    "axles[].anti_squat" {
        label: "anti-squat", unit: "%", group: Axle,
        limit: |_, _| (-50.0, 150.0), range: |_, _| (-50.0, 150.0), step: 0.5,
        optional: |s, i| s.axles[i].anti_squat, typical: |s, i| s.axle_geometry(i).anti_squat,
    }
    // Kept as typed (a radius or travel edited later moves what it allows):
    // `static_compression` holds it to where it acts. An editor offers where it acts,
    // widened to hold a height set before the radius or travel changed.
    "axles[].ride_height" {
        label: "  mount above ground", unit: "m", group: Axle,
        limit: |_, _| (0.0, 1000.0),
        range: |s, i| {
            let (w, h) = (&s.axles[i].wheel, s.axles[i].ride_height.unwrap_or(0.0));
            let (r, l) = (w.radius(), w.suspension_length());
            ((r + 0.1 * l).min(h), (r + 0.9 * l).max(h))
        },
        step: 0.001,
        optional: |s, i| s.axles[i].ride_height, typical: none,
    }
    "axles[].differential.preload" {
        label: "preload", unit: "N·m", group: Differential,
        limit: |_, _| (0.0, MAX_VALUE), range: |_, _| (0.0, 5000.0), step: 5.0,
        get: |s, i| lsd!(get s.axles[i].differential, preload),
        field: |s, i| lsd!(field s.axles[i].differential, preload),
    }
    "axles[].differential.locking" {
        label: "locking on power", unit: "per N·m", group: Differential,
        limit: |_, _| (0.0, 100.0), range: |_, _| (0.0, 1.0), step: 0.01,
        get: |s, i| lsd!(get s.axles[i].differential, locking),
        field: |s, i| lsd!(field s.axles[i].differential, locking),
    }
    "axles[].differential.coast_locking" {
        label: "locking on overrun", unit: "per N·m", group: Differential,
        limit: |_, _| (0.0, 100.0), range: |_, _| (0.0, 1.0), step: 0.01,
        get: |s, i| coast!(get s.axles[i].differential),
        field: |s, i| coast!(field s.axles[i].differential),
    }
    "centre_differential.preload" {
        label: "preload", unit: "N·m", group: Differential,
        limit: |_, _| (0.0, MAX_VALUE), range: |_, _| (0.0, 5000.0), step: 5.0,
        get: |s, _| lsd!(get s.centre_differential, preload),
        field: |s, _| lsd!(field s.centre_differential, preload),
    }
    "centre_differential.locking" {
        label: "locking on power", unit: "per N·m", group: Differential,
        limit: |_, _| (0.0, 100.0), range: |_, _| (0.0, 1.0), step: 0.01,
        get: |s, _| lsd!(get s.centre_differential, locking),
        field: |s, _| lsd!(field s.centre_differential, locking),
    }
    "centre_differential.coast_locking" {
        label: "locking on overrun", unit: "per N·m", group: Differential,
        limit: |_, _| (0.0, 100.0), range: |_, _| (0.0, 1.0), step: 0.01,
        get: |s, _| coast!(get s.centre_differential),
        field: |s, _| coast!(field s.centre_differential),
    }
    "front_torque_share" {
        label: "front torque share", unit: "", group: Driveline,
        limit: |_, _| (0.0, 1.0), range: |_, _| (0.0, 1.0), step: 0.01,
        at: |s, _| s.front_torque_share,
    }

    "engine.idle_rpm" {
        label: "idle", unit: "rpm", group: Engine,
        limit: |_, _| (100.0, 50_000.0), range: |_, _| (100.0, 20_000.0), step: 10.0,
        at: |s, _| s.engine.idle_rpm,
    }
    "engine.redline_rpm" {
        label: "redline", unit: "rpm", group: Engine,
        limit: |s, _| (s.engine.idle_rpm + 100.0, 100_000.0), range: |s, _| (s.engine.idle_rpm + 100.0, 30_000.0),
        step: 10.0,
        at: |s, _| s.engine.redline_rpm,
    }
    "engine.inertia" {
        label: "inertia", unit: "kg·m²", group: Engine,
        limit: |_, _| (0.01, MAX_VALUE), range: |_, _| (0.01, 10.0), step: 0.005,
        at: |s, _| s.engine.inertia,
    }
    "engine.braking_torque" {
        label: "engine braking", unit: "N·m", group: Engine,
        limit: |_, _| (0.0, MAX_VALUE), range: |_, _| (0.0, 2000.0), step: 1.0,
        at: |s, _| s.engine.braking_torque,
    }
    "engine.speed_limit" {
        label: "speed limit (0 off)", unit: "km/h", group: Engine,
        limit: |_, _| (0.0, 10_000.0), range: |_, _| (0.0, 500.0), step: 1.0,
        at: |s, _| s.engine.speed_limit,
    }
    "engine.stall_rpm" {
        label: "stall speed", unit: "rpm", group: Engine,
        limit: |s, _| (0.0, s.engine.idle_rpm - 50.0), range: |s, _| (0.0, (s.engine.idle_rpm - 50.0).max(0.0)),
        step: 10.0,
        at: |s, _| s.engine.stall_rpm,
    }
    "engine.breakaway_torque" {
        label: "breakaway", unit: "N·m", group: Engine,
        limit: |_, _| (0.0, 5000.0), range: |_, _| (0.0, 500.0), step: 1.0,
        at: |s, _| s.engine.breakaway_torque,
    }
    "clutch.max_torque" {
        label: "clutch torque", unit: "N·m", group: Clutch,
        limit: |_, _| (0.0, MAX_VALUE), range: |_, _| (0.0, 10_000.0), step: 5.0,
        at: |s, _| s.clutch.max_torque,
    }
    "clutch.engage_rpm" {
        label: "clutch engage", unit: "rpm", group: Clutch,
        limit: |s, _| (s.engine.idle_rpm + 50.0, s.engine.redline_rpm),
        range: |s, _| (s.engine.idle_rpm + 50.0, s.engine.redline_rpm), step: 10.0,
        at: |s, _| s.clutch.engage_rpm,
    }
    "gearbox.reverse" {
        label: "reverse", unit: "", group: Gearbox,
        limit: |_, _| (0.01, 100.0), range: |_, _| (0.05, 20.0), step: 0.005,
        at: |s, _| s.gearbox.reverse,
    }
    "gearbox.final_drive" {
        label: "final drive", unit: "", group: Gearbox,
        limit: |_, _| (0.01, 100.0), range: |_, _| (0.05, 20.0), step: 0.005,
        at: |s, _| s.gearbox.final_drive,
    }
    "gearbox.efficiency" {
        label: "efficiency", unit: "", group: Gearbox,
        limit: |_, _| (0.5, 1.0), range: |_, _| (0.5, 1.0), step: 0.005,
        at: |s, _| s.gearbox.efficiency,
    }
    "gearbox.shift_time" {
        label: "shift time", unit: "s", group: Gearbox,
        limit: |_, _| (0.0, 2.0), range: |_, _| (0.0, 2.0), step: 0.01,
        at: |s, _| s.gearbox.shift_time,
    }
    "gearbox.inertia" {
        label: "gearbox inertia", unit: "kg·m²", group: Gearbox,
        limit: |_, _| (0.0, MAX_VALUE), range: |_, _| (0.0, 2.0), step: 0.001,
        at: |s, _| s.gearbox.inertia,
    }
    "gearbox.shift_up_rpm" {
        label: "shift up", unit: "rpm", group: Gearbox,
        limit: |s, _| (s.engine.idle_rpm, s.engine.redline_rpm),
        range: |s, _| (s.engine.idle_rpm, s.engine.redline_rpm), step: 10.0,
        at: |s, _| s.gearbox.shift_up_rpm,
    }
    "gearbox.shift_down_rpm" {
        label: "shift down", unit: "rpm", group: Gearbox,
        limit: |s, _| (s.engine.idle_rpm, s.gearbox.shift_up_rpm),
        range: |s, _| (s.engine.idle_rpm, s.gearbox.shift_up_rpm), step: 10.0,
        at: |s, _| s.gearbox.shift_down_rpm,
    }
    "gearbox.drag_torque" {
        label: "drivetrain drag", unit: "N·m", group: Gearbox,
        limit: |_, _| (0.0, MAX_VALUE), range: |_, _| (0.0, 200.0), step: 0.5,
        at: |s, _| s.gearbox.drag_torque,
    }
    "brakes.max_torque" {
        label: "max torque", unit: "N·m", group: Brakes,
        limit: |_, _| (0.0, MAX_VALUE), range: |s, _| (0.0, (25.0 * s.chassis.mass).max(50_000.0)), step: 20.0,
        at: |s, _| s.brakes.max_torque,
    }
    "brakes.front_bias" {
        label: "front bias", unit: "", group: Brakes,
        limit: |_, _| (0.0, 1.0), range: |_, _| (0.0, 1.0), step: 0.01,
        at: |s, _| s.brakes.front_bias,
    }
    "brakes.handbrake_torque" {
        label: "handbrake", unit: "N·m", group: Brakes,
        limit: |_, _| (0.0, MAX_VALUE), range: |s, _| (0.0, (10.0 * s.chassis.mass).max(20_000.0)), step: 10.0,
        at: |s, _| s.brakes.handbrake_torque,
    }
    "steering.max_angle" {
        label: "max angle", unit: "deg", group: Steering,
        limit: |_, _| (0.0, 60.0), range: |_, _| (0.0, 60.0), step: 0.1,
        at: |s, _| s.steering.max_angle,
    }
    "steering.ackermann" {
        label: "Ackermann", unit: "", group: Steering,
        limit: |_, _| (0.0, 1.0), range: |_, _| (0.0, 1.0), step: 0.01,
        at: |s, _| s.steering.ackermann,
    }
    "steering.lock_to_lock_time" {
        label: "lock to lock", unit: "s", group: Steering,
        limit: |_, _| (0.0, 5.0), range: |_, _| (0.0, 5.0), step: 0.01,
        at: |s, _| s.steering.lock_to_lock_time,
    }
    "steering.high_speed_lock" {
        label: "lock at speed", unit: "", group: Steering,
        limit: |_, _| (0.0, 1.0), range: |_, _| (0.0, 1.0), step: 0.01,
        at: |s, _| s.steering.high_speed_lock,
    }
    "steering.high_speed" {
        label: "… reached at", unit: "m/s", group: Steering,
        limit: |_, _| (0.1, 1000.0), range: |_, _| (0.1, 200.0), step: 0.5,
        at: |s, _| s.steering.high_speed,
    }
    "steering.mechanical_trail" {
        label: "mechanical trail", unit: "m", group: Steering,
        limit: |_, _| (-0.2, 0.2), range: |_, _| (-0.2, 0.2), step: 0.001,
        at: |s, _| s.steering.mechanical_trail,
    }
    "aero.air_density" {
        label: "air density", unit: "kg/m³", group: Aero,
        limit: |_, _| (0.0, 100.0), range: |_, _| (0.0, 2.0), step: 0.005,
        at: |s, _| s.aero.air_density,
    }
    "aero.drag_coefficient" {
        label: "Cd", unit: "", group: Aero,
        limit: |_, _| (0.0, 100.0), range: |_, _| (0.0, 3.0), step: 0.005,
        at: |s, _| s.aero.drag_coefficient,
    }
    "aero.frontal_area" {
        label: "frontal area", unit: "m²", group: Aero,
        limit: |_, _| (0.0, 1000.0), range: |_, _| (0.0, 20.0), step: 0.01,
        at: |s, _| s.aero.frontal_area,
    }
    "aero.downforce_front" {
        label: "downforce front (− lifts)", unit: "m² (Cl·A)", group: Aero,
        limit: |_, _| (-1000.0, 1000.0), range: |_, _| (-10.0, 10.0), step: 0.01,
        at: |s, _| s.aero.downforce_front,
    }
    "aero.downforce_rear" {
        label: "downforce rear (− lifts)", unit: "m² (Cl·A)", group: Aero,
        limit: |_, _| (-1000.0, 1000.0), range: |_, _| (-10.0, 10.0), step: 0.01,
        at: |s, _| s.aero.downforce_rear,
    }
    "aero.pressure_height" {
        label: "centre of pressure above the CoM", unit: "m", group: Aero,
        limit: |s, _| (-s.chassis.size[1], s.chassis.size[1]), range: |s, _| (-s.chassis.size[1], s.chassis.size[1]),
        step: 0.005,
        at: |s, _| s.aero.pressure_height,
    }
    "assists.anti_flip.max_angle" {
        label: "… max tilt", unit: "deg", group: AntiFlip,
        limit: |_, _| (0.0, 180.0), range: |_, _| (0.0, 180.0), step: 0.5,
        at: |s, _| s.assists.anti_flip.max_angle,
    }
    "assists.anti_flip.max_acceleration" {
        label: "… strength", unit: "rad/s²", group: AntiFlip,
        limit: |_, _| (0.0, 1000.0), range: |_, _| (0.0, 1000.0), step: 0.5,
        at: |s, _| s.assists.anti_flip.max_acceleration,
    }
    "assists.air_control.pitch_rate" {
        label: "… pitch rate", unit: "deg/s", group: AirControl,
        limit: |_, _| (0.0, 1440.0), range: |_, _| (0.0, 1440.0), step: 1.0,
        at: |s, _| s.assists.air_control.pitch_rate,
    }
    "assists.air_control.yaw_rate" {
        label: "… yaw rate", unit: "deg/s", group: AirControl,
        limit: |_, _| (0.0, 1440.0), range: |_, _| (0.0, 1440.0), step: 1.0,
        at: |s, _| s.assists.air_control.yaw_rate,
    }
    "assists.air_control.roll_rate" {
        label: "… roll rate", unit: "deg/s", group: AirControl,
        limit: |_, _| (0.0, 1440.0), range: |_, _| (0.0, 1440.0), step: 1.0,
        at: |s, _| s.assists.air_control.roll_rate,
    }
    "assists.air_control.max_acceleration" {
        label: "… acceleration", unit: "rad/s²", group: AirControl,
        limit: |_, _| (0.0, 1000.0), range: |_, _| (0.0, 1000.0), step: 0.5,
        at: |s, _| s.assists.air_control.max_acceleration,
    }
    "assists.yaw_stability.threshold" {
        label: "… threshold", unit: "deg/s", group: YawStability,
        limit: |_, _| (0.0, 180.0), range: |_, _| (0.0, 180.0), step: 0.1,
        at: |s, _| s.assists.yaw_stability.threshold,
    }
    "assists.yaw_stability.gain" {
        label: "… gain", unit: "N·m per deg/s", group: YawStability,
        limit: |_, _| (0.0, MAX_VALUE), range: |_, _| (0.0, 5000.0), step: 5.0,
        at: |s, _| s.assists.yaw_stability.gain,
    }
    "assists.yaw_stability.max_torque" {
        label: "… max torque", unit: "N·m", group: YawStability,
        limit: |_, _| (0.0, MAX_VALUE), range: |_, _| (0.0, 50_000.0), step: 20.0,
        at: |s, _| s.assists.yaw_stability.max_torque,
    }
    "assists.yaw_stability.reference_understeer" {
        label: "… reference understeer", unit: "deg/g", group: YawStability,
        limit: |_, _| (-10.0, 20.0), range: |_, _| (-10.0, 20.0), step: 0.05,
        at: |s, _| s.assists.yaw_stability.reference_understeer,
    }

    "hitch.yaw_limit" {
        label: "hitch yaw stop", unit: "deg", group: Hitch,
        limit: |_, _| (5.0, 120.0), range: |_, _| (5.0, 120.0), step: 0.5,
        get: |s, _| s.hitch.as_ref().map(|h| h.yaw_limit),
        field: |s, _| s.hitch.as_mut().map(|h| &mut h.yaw_limit),
    }
    "hitch.tilt_limit" {
        label: "hitch tilt stop", unit: "deg", group: Hitch,
        limit: |_, _| (1.0, 60.0), range: |_, _| (1.0, 60.0), step: 0.5,
        get: |s, _| s.hitch.as_ref().map(|h| h.tilt_limit),
        field: |s, _| s.hitch.as_mut().map(|h| &mut h.tilt_limit),
    }
    "hitch.break_force" {
        label: "hitch break force", unit: "N", group: Hitch,
        limit: |_, _| (0.0, MAX_VALUE), range: |_, _| (0.0, 500_000.0), step: 100.0,
        get: |s, _| s.hitch.as_ref().map(|h| h.break_force),
        field: |s, _| s.hitch.as_mut().map(|h| &mut h.break_force),
    }
    "trailer.stand" {
        label: "stand", unit: "m", group: Trailer,
        limit: |_, _| (0.05, 10.0), range: |s, _| (0.05, s.editor_scale().clamp(0.1, 10.0)), step: 0.005,
        get: |s, _| s.trailer.as_ref().map(|t| t.stand),
        field: |s, _| s.trailer.as_mut().map(|t| &mut t.stand),
    }
    "trailer.brakes.response" {
        label: "overrun response", unit: "× weight", group: Trailer,
        limit: |_, _| (0.0, 0.5), range: |_, _| (0.0, 0.5), step: 0.001,
        get: |s, _| overrun!(get s, response),
        field: |s, _| overrun!(field s, response),
    }
    "trailer.brakes.full" {
        label: "overrun full", unit: "× weight", group: Trailer,
        limit: |s, _| overrun_full(s), range: |s, _| overrun_full(s), step: 0.001,
        get: |s, _| overrun!(get s, full),
        field: |s, _| overrun!(field s, full),
    }
    "trailer.brakes.lag" {
        label: "brake lag", unit: "s", group: Trailer,
        limit: |_, _| (0.01, 5.0), range: |_, _| (0.01, 5.0), step: 0.01,
        get: |s, _| match s.trailer.as_ref().map(|t| t.brakes) {
            Some(TrailerBrakes::Overrun { lag, .. } | TrailerBrakes::Air { lag }) => Some(lag),
            _ => None,
        },
        field: |s, _| match s.trailer.as_mut().map(|t| &mut t.brakes) {
            Some(TrailerBrakes::Overrun { lag, .. } | TrailerBrakes::Air { lag }) => Some(lag),
            _ => None,
        },
    }
    "two_wheeler.rake" {
        label: "rake", unit: "deg", group: SteeringHead,
        limit: |_, _| (0.0, 45.0), range: |_, _| (0.0, 45.0), step: 0.1,
        get: |s, _| bike!(get s, rake),
        field: |s, _| bike!(field s, rake),
    }
    "two_wheeler.trail" {
        label: "trail", unit: "m", group: SteeringHead,
        limit: |_, _| (-0.2, 0.5), range: |_, _| (-0.05, 0.3), step: 0.001,
        get: |s, _| bike!(get s, trail),
        field: |s, _| bike!(field s, trail),
    }
    "two_wheeler.front_mass" {
        label: "front assembly mass", unit: "kg", group: SteeringHead,
        limit: |s, _| (0.1, s.chassis.mass), range: |s, _| (0.1, 0.5 * s.chassis.mass), step: 0.1,
        get: |s, _| bike!(get s, front_mass),
        field: |s, _| bike!(field s, front_mass),
    }
    "two_wheeler.front_inertia_tilt" {
        label: "front inertia tilt", unit: "deg", group: SteeringHead,
        limit: |_, _| (-90.0, 90.0), range: |_, _| (-45.0, 45.0), step: 0.1,
        get: |s, _| bike!(get s, front_inertia_tilt),
        field: |s, _| bike!(field s, front_inertia_tilt),
    }
    "two_wheeler.steering_damper" {
        label: "steering damper", unit: "N·m·s/rad", group: SteeringHead,
        limit: |_, _| (0.0, 1000.0), range: |_, _| (0.0, 50.0), step: 0.05,
        get: |s, _| bike!(get s, steering_damper),
        field: |s, _| bike!(field s, steering_damper),
    }
    "two_wheeler.lock" {
        label: "steering lock", unit: "deg", group: SteeringHead,
        limit: |_, _| (1.0, 60.0), range: |_, _| (1.0, 60.0), step: 0.1,
        get: |s, _| bike!(get s, lock),
        field: |s, _| bike!(field s, lock),
    }
    "two_wheeler.max_lean" {
        label: "lean at full steer", unit: "deg", group: SteeringHead,
        limit: |_, _| (0.0, 60.0), range: |_, _| (0.0, 60.0), step: 0.1,
        get: |s, _| bike!(get s, max_lean),
        field: |s, _| bike!(field s, max_lean),
    }
    "two_wheeler.rider.lean_gain" {
        label: "lean gain", unit: "N·m/rad", group: Rider,
        limit: |_, _| (0.0, MAX_VALUE), range: |_, _| (0.0, 2000.0), step: 0.5,
        get: |s, _| bike!(get s, rider.lean_gain),
        field: |s, _| bike!(field s, rider.lean_gain),
    }
    "two_wheeler.rider.integral_gain" {
        label: "integral gain", unit: "N·m/(rad·s)", group: Rider,
        limit: |_, _| (0.0, MAX_VALUE), range: |_, _| (0.0, 2000.0), step: 0.5,
        get: |s, _| bike!(get s, rider.integral_gain),
        field: |s, _| bike!(field s, rider.integral_gain),
    }
    "two_wheeler.rider.lean_rate_gain" {
        label: "lean rate gain", unit: "N·m·s/rad", group: Rider,
        limit: |_, _| (0.0, MAX_VALUE), range: |_, _| (0.0, 1000.0), step: 0.5,
        get: |s, _| bike!(get s, rider.lean_rate_gain),
        field: |s, _| bike!(field s, rider.lean_rate_gain),
    }
    "two_wheeler.rider.steer_rate_gain" {
        label: "steer rate gain", unit: "N·m·s/rad", group: Rider,
        limit: |_, _| (0.0, MAX_VALUE), range: |_, _| (0.0, 200.0), step: 0.1,
        get: |s, _| bike!(get s, rider.steer_rate_gain),
        field: |s, _| bike!(field s, rider.steer_rate_gain),
    }
    "two_wheeler.rider.max_torque" {
        label: "max handlebar torque", unit: "N·m", group: Rider,
        limit: |_, _| (0.0, MAX_VALUE), range: |_, _| (0.0, 500.0), step: 0.5,
        get: |s, _| bike!(get s, rider.max_torque),
        field: |s, _| bike!(field s, rider.max_torque),
    }
    "two_wheeler.rider.let_go" {
        label: "lets go past", unit: "deg", group: Rider,
        limit: |_, _| (5.0, 90.0), range: |_, _| (5.0, 90.0), step: 0.5,
        get: |s, _| bike!(get s, rider.let_go),
        field: |s, _| bike!(field s, rider.let_go),
    }
    "two_wheeler.rider.foot_speed" {
        label: "foot down below", unit: "m/s", group: Rider,
        limit: |_, _| (0.0, 10.0), range: |_, _| (0.0, 5.0), step: 0.01,
        get: |s, _| bike!(get s, rider.foot_speed),
        field: |s, _| bike!(field s, rider.foot_speed),
    }
    "two_wheeler.rider.foot_lean" {
        label: "foot meets the road at", unit: "deg", group: Rider,
        limit: |_, _| (0.0, 45.0), range: |_, _| (0.0, 30.0), step: 0.1,
        get: |s, _| bike!(get s, rider.foot_lean),
        field: |s, _| bike!(field s, rider.foot_lean),
    }
    "two_wheeler.rider.foot_reach" {
        label: "foot reach", unit: "m", group: Rider,
        limit: |_, _| (0.05, 2.0), range: |_, _| (0.05, 1.0), step: 0.005,
        get: |s, _| bike!(get s, rider.foot_reach),
        field: |s, _| bike!(field s, rider.foot_reach),
    }
    "two_wheeler.rider.mass" {
        label: "rider mass", unit: "kg", group: Rider,
        limit: |s, _| (0.0, s.chassis.mass), range: |s, _| (0.0, 0.5 * s.chassis.mass), step: 0.5,
        get: |s, _| bike!(get s, rider.mass),
        field: |s, _| bike!(field s, rider.mass),
    }
    "two_wheeler.rider.shift_reach" {
        label: "weight shift reach", unit: "m", group: Rider,
        limit: |_, _| (0.0, 1.0), range: |_, _| (0.0, 0.5), step: 0.005,
        get: |s, _| bike!(get s, rider.shift_reach),
        field: |s, _| bike!(field s, rider.shift_reach),
    }
    "two_wheeler.rider.squeeze" {
        label: "lever squeeze", unit: "s", group: Rider,
        limit: |_, _| (0.0, 5.0), range: |_, _| (0.0, 2.0), step: 0.01,
        get: |s, _| bike!(get s, rider.squeeze),
        field: |s, _| bike!(field s, rider.squeeze),
    }
    "tracks.steer_ratio" {
        label: "steer ratio", unit: "", group: Tracks,
        limit: |_, _| (0.0, 1.0), range: |_, _| (0.0, 0.05), step: 0.0001,
        get: |s, _| tracked!(get s, steer_ratio),
        field: |s, _| tracked!(field s, steer_ratio),
    }
    "tracks.steer_torque" {
        label: "steering torque", unit: "N·m", group: Tracks,
        limit: |_, _| (0.0, MAX_VALUE), range: |_, _| (0.0, 5.0e5), step: 100.0,
        get: |s, _| tracked!(get s, steer_torque),
        field: |s, _| tracked!(field s, steer_torque),
    }
    "tracks.steer_brake" {
        label: "steering brake", unit: "N·m", group: Tracks,
        limit: |_, _| (0.0, MAX_VALUE), range: |_, _| (0.0, 5.0e5), step: 100.0,
        get: |s, _| tracked!(get s, steer_brake),
        field: |s, _| tracked!(field s, steer_brake),
    }
    "tracks.belt_mass" {
        label: "belt mass", unit: "kg", group: Tracks,
        limit: |s, _| (0.0, s.chassis.mass), range: |s, _| (0.0, 0.2 * s.chassis.mass), step: 1.0,
        get: |s, _| tracked!(get s, belt_mass),
        field: |s, _| tracked!(field s, belt_mass),
    }
    "tracks.link_pitch" {
        label: "link pitch", unit: "m", group: Tracks,
        limit: |s, _| (0.01, 0.2 * s.chassis.size[2].max(0.1)),
        range: |s, _| (0.01 * s.chassis.size[2], 0.06 * s.chassis.size[2]), step: 0.005,
        get: |s, _| tracked!(get s, link_pitch),
        field: |s, _| tracked!(field s, link_pitch),
    }
}
