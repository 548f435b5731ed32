//! Aerodynamic drag and downforce: a body part on the chassis' force channel.

use avian3d::prelude::*;
use bevy::prelude::*;

use crate::vehicle::{VehicleRuntime, VehicleTelemetry};
use crate::wheel::ChassisForces;

/// What the aerodynamics read and write of a vehicle.
type AeroData = (
    &'static VehicleRuntime,
    &'static mut VehicleTelemetry,
    (&'static Position, &'static Rotation, &'static LinearVelocity),
    &'static mut ChassisForces,
);

/// Aerodynamic drag at the centre of pressure (`AeroSettings::pressure_height` above the
/// centre of mass) and downforce (negative: lift) at the first and last axle, added to
/// the chassis' [`ChassisForces`]; both reported in [`VehicleTelemetry`] (`drag`,
/// `downforce`), which the vehicle step does not read.
pub(crate) fn apply_aero(mut vehicles: Query<AeroData>) {
    for (runtime, mut telemetry, (pos, rot, lin), mut forces) in &mut vehicles {
        let Some(settings) = runtime.settings.as_ref() else {
            continue;
        };
        let (v, rot) = (lin.0, rot.0);
        let downforce = settings.aero.downforce(v.dot(rot * Vec3::NEG_Z));
        telemetry.drag = settings.aero.drag_factor() * v.length_squared();
        telemetry.downforce = downforce;
        let speed = v.length();
        if !speed.is_finite() || speed < 1e-3 {
            continue;
        }
        let forces = forces.bypass_change_detection();
        let drag = -settings.aero.drag_factor() * speed * v;
        if drag.is_finite() {
            forces.add_force(drag);
            // At the centre of pressure: the drag's moment about the centre of mass, from
            // its lever (exact; a world point far from the origin would round it).
            let height = settings.aero.pressure_height;
            if height != 0.0 {
                forces.add_torque((rot * Vec3::Y * height).cross(drag));
            }
        }
        let down = rot * Vec3::NEG_Y;
        let (Some(first), Some(last)) = (settings.axles.first(), settings.axles.last()) else {
            continue;
        };
        for (f, z) in [(downforce[0], first.z), (downforce[1], last.z)] {
            if f != 0.0 && f.is_finite() {
                forces.add_force_at_point(down * f, pos.0 + rot * Vec3::new(0.0, 0.0, z));
            }
        }
    }
}
