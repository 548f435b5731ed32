//! The vehicle's systems: cars synced to the body and wheels, one vehicle step per
//! chassis (wheel feedback in, wheel inputs out, telemetry).

use avian3d::prelude::*;
use bevy::prelude::*;
use wheelcollider_core::vehicle::{ChassisMotion, VehicleState, VehicleStep, WheelFeedback, step_vehicle};

use super::spawn::chassis_inertia;
use super::{Vehicle, VehicleInput, VehicleRuntime, VehicleSettings, VehicleTelemetry, VehicleWheel};
use crate::two_wheeler::{Rider, SteeringHead};
use crate::wheel::{AntiRollBar, ChassisWheels, WheelCollider, WheelDriveline, WheelInput, WheelOutput};

/// Validates changed cars and pushes them to the wheels and the body.
pub(crate) fn sync_vehicles(
    mut vehicles: Query<
        (
            Entity,
            &Vehicle,
            &mut VehicleRuntime,
            Option<&ChassisWheels>,
            Option<(&mut SteeringHead, &mut Rider)>,
        ),
        Changed<Vehicle>,
    >,
    mut wheels: Query<(
        &VehicleWheel,
        &mut WheelCollider,
        &mut Transform,
        Option<&mut AntiRollBar>,
    )>,
    mut bodies: Query<(&mut Mass, &mut AngularInertia, &mut CenterOfMass, &mut Collider)>,
) {
    for (entity, vehicle, mut runtime, children, bike) in &mut vehicles {
        let mut settings = vehicle.0.clone();
        if let Err(e) = settings.validate() {
            warn!("vehicle {entity}: settings refused, keeping the last good one: {e}");
            continue;
        }
        let new_layout = runtime
            .settings
            .as_ref()
            .is_none_or(|s| s.axles.len() != settings.axles.len());
        if new_layout || runtime.state.is_none() {
            runtime.state = Some(VehicleState::new(&settings));
        }
        if let Ok((mut mass, mut inertia, mut com, mut collider)) = bodies.get_mut(entity) {
            let c = &settings.chassis;
            mass.set_if_neq(Mass(c.mass));
            inertia.set_if_neq(chassis_inertia(c));
            com.set_if_neq(CenterOfMass(Vec3::from(c.centre_of_mass)));
            let size = Vec3::from(c.size);
            let current = collider.shape_scaled().as_cuboid().map(|b| b.half_extents * 2.0);
            if current.is_none_or(|s| (s - size).length() > 1e-5) {
                *collider = Collider::cuboid(size.x, size.y, size.z);
            }
        }
        for &w in children.map(|c| c.wheels()).unwrap_or(&[]) {
            let Ok((id, mut collider, mut transform, bar)) = wheels.get_mut(w) else {
                continue;
            };
            let Some(axle) = settings.axles.get(id.axle) else {
                continue;
            };
            let wanted = settings.wheel_settings(id.axle, id.right);
            if collider.0 != wanted {
                collider.0 = wanted;
            }
            let t = Vec3::new(axle.wheel_x(id.right), axle.mount_height, axle.z);
            if transform.translation != t {
                transform.translation = t;
            }
            if let Some(mut bar) = bar
                && bar.stiffness != axle.anti_roll_stiffness
            {
                bar.stiffness = axle.anti_roll_stiffness;
            }
        }
        // A two-wheeler's head and rider (spawned with it) take its numbers.
        if let (Some((mut head, mut rider)), Some(two_wheeler)) = (bike, settings.two_wheeler.as_ref()) {
            head.take_settings(&settings);
            // The front wheel's mount as the head turns it (the loop above put it straight).
            if let Ok((_, _, mut transform, _)) = wheels.get_mut(head.wheel) {
                *transform = head.mount_at(head.angle);
            }
            if rider.settings != two_wheeler.rider {
                rider.settings = two_wheeler.rider.clone();
            }
        }
        runtime.settings = Some(settings);
    }
}

/// Each two-wheeler's [`Rider`] asked for the lean its driver's steer input gives:
/// `steer × max_lean` (a positive steer leans and turns left, as a car's turns left;
/// [`TwoWheelerSettings::max_lean`](wheelcollider_core::vehicle::TwoWheelerSettings::max_lean)).
/// In [`VehicleSystems::Drive`](super::VehicleSystems::Drive), before the rider steers.
pub(crate) fn ask_lean(mut bikes: Query<(&VehicleRuntime, &VehicleInput, &mut Rider)>) {
    for (runtime, input, mut rider) in &mut bikes {
        let Some(bike) = runtime.settings.as_ref().and_then(|s| s.two_wheeler.as_ref()) else {
            continue;
        };
        let steer = if input.0.steer.is_finite() {
            input.0.steer.clamp(-1.0, 1.0)
        } else {
            0.0
        };
        rider.lean = steer * bike.max_lean.to_radians();
    }
}

/// Each two-wheeler's rider's weight where its driver's
/// [`weight_shift`](wheelcollider_core::vehicle::DriverInput::weight_shift) puts it: the
/// chassis' centre of mass moved forward by `weight_shift × shift_reach × rider mass /
/// chassis mass` from the settings' own (back for a negative shift), as the rider's
/// body slides on the seat. The inertia stays the settings' (the rider's own moment
/// about the moved centre is left out: second order in the shift). Avian takes the new
/// centre at the next step's start (its mass properties are prepared before this set);
/// both centres are in the rollback list. In
/// [`VehicleSystems::Drive`](super::VehicleSystems::Drive), with `ask_lean`.
pub(crate) fn shift_weight(mut bikes: Query<(&VehicleRuntime, &VehicleInput, &mut CenterOfMass)>) {
    for (runtime, input, mut centre) in &mut bikes {
        let Some(settings) = runtime.settings.as_ref() else {
            continue;
        };
        let Some(bike) = settings.two_wheeler.as_ref() else {
            continue;
        };
        let moved = bike.rider.centre_shift(input.0.weight_shift, settings.chassis.mass);
        // Forward is the chassis' −Z.
        let wanted = Vec3::from(settings.chassis.centre_of_mass) - Vec3::Z * moved;
        if wanted.is_finite() {
            centre.set_if_neq(CenterOfMass(wanted));
        }
    }
}

type VehicleQuery<'w, 's> = Query<
    'w,
    's,
    (
        &'static mut VehicleRuntime,
        &'static mut VehicleInput,
        &'static mut VehicleTelemetry,
        &'static mut WheelDriveline,
        &'static ChassisWheels,
        &'static Rotation,
        &'static LinearVelocity,
        &'static AngularVelocity,
    ),
>;

/// The wheels a vehicle step reads and writes.
type VehicleWheels<'w, 's> = Query<
    'w,
    's,
    (
        &'static VehicleWheel,
        &'static WheelCollider,
        &'static WheelOutput,
        &'static mut WheelInput,
    ),
>;

/// One vehicle step per chassis: the wheels' feedback in ([`gather_feedback`]), one
/// `step_vehicle`, each wheel's input out ([`write_inputs`]), the driveline for the
/// wheels' step, and the telemetry.
pub(crate) fn drive_vehicles(time: Res<Time>, mut vehicles: VehicleQuery, mut wheels: VehicleWheels) {
    let dt = time.delta_secs();
    if dt <= 0.0 {
        return;
    }
    for (mut runtime, mut input, mut telemetry, mut driveline, children, rot, lin, ang) in &mut vehicles {
        let runtime = &mut *runtime;
        if runtime.settings.is_none() || runtime.state.is_none() {
            continue;
        }
        let grounded = gather_feedback(runtime, children, &wheels);
        let (forward, right, v) = (rot.0 * Vec3::NEG_Z, rot.0 * Vec3::X, lin.0);
        let motion = ChassisMotion {
            forward_speed: v.dot(forward),
            yaw_rate: ang.0.dot(rot.0 * Vec3::Y),
        };
        let (Some(settings), Some(state)) = (runtime.settings.as_ref(), runtime.state.as_mut()) else {
            continue;
        };
        let wheel_count = settings.wheel_count() as u32;
        let VehicleStep {
            report,
            driveline: line,
        } = step_vehicle(
            settings,
            state,
            &mut input.0,
            motion,
            &runtime.feedback,
            &mut runtime.inputs,
            dt,
        );
        write_inputs(runtime, &mut wheels);
        // The wheels' step solves the driveline with their tyres.
        driveline.line = line;
        driveline.wheels = core::array::from_fn(|i| {
            runtime
                .entities
                .get(i)
                .copied()
                .flatten()
                .unwrap_or(Entity::PLACEHOLDER)
        });
        let accel = (v - telemetry.last_velocity) / dt;
        *telemetry = VehicleTelemetry {
            forward_speed: motion.forward_speed,
            speed_kmh: v.length() * 3.6,
            lateral_acceleration: accel.dot(right),
            longitudinal_acceleration: accel.dot(forward),
            yaw_rate: motion.yaw_rate,
            powertrain: report,
            grounded_wheels: grounded,
            wheels: wheel_count,
            last_velocity: v,
            // The aerodynamics' report, written by `body::aero` later in the step.
            ..*telemetry
        };
    }
}

/// Each wheel's last output as the vehicle's feedback, at its index (and its entity);
/// returns how many are grounded. Sized to the settings' wheel count.
fn gather_feedback(runtime: &mut VehicleRuntime, children: &ChassisWheels, wheels: &VehicleWheels) -> u32 {
    let n = runtime.settings.as_ref().map_or(0, |s| s.wheel_indices());
    runtime.feedback.resize(n, WheelFeedback::default());
    runtime.inputs.resize(n, WheelInput::default());
    runtime.entities.clear();
    runtime.entities.resize(n, None);
    let mut grounded = 0;
    for &w in children.wheels() {
        let Ok((id, collider, wheel_output, _)) = wheels.get(w) else {
            continue;
        };
        let i = VehicleSettings::wheel_index(id.axle, id.right);
        if i >= n {
            continue;
        }
        let o = &wheel_output.output;
        grounded += o.grounded as u32;
        runtime.entities[i] = Some(w);
        runtime.feedback[i] = WheelFeedback::from((&collider.0, o));
    }
    grounded
}

/// Each wheel's input from the step's, whole but for the drivetrain's friction,
/// which the gearbox's drag sets when it has one and a game otherwise (if any). The step
/// leaves the bars' force at 0: they are `AntiRollBar`s, solved with the suspension.
fn write_inputs(runtime: &VehicleRuntime, wheels: &mut VehicleWheels) {
    let drag = runtime.settings.as_ref().is_some_and(|s| s.gearbox.drag_torque > 0.0);
    for (i, e) in runtime.entities.iter().enumerate() {
        let Some(Ok((_, _, _, mut wheel_input))) = e.map(|e| wheels.get_mut(e)) else {
            continue;
        };
        let friction = if drag {
            runtime.inputs[i].drivetrain_friction_torque
        } else {
            wheel_input.drivetrain_friction_torque
        };
        *wheel_input = WheelInput {
            drivetrain_friction_torque: friction,
            ..runtime.inputs[i]
        };
    }
}
