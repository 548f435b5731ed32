//! Wheel visuals: [`WheelModel`] meshes placed at their wheels every frame,
//! interpolated between physics steps.

use super::components::*;
use bevy::prelude::*;

/// Places each [`WheelModel`] at its wheel's centre with steer, toe, camber and spin,
/// interpolated between the last two physics steps. A model that is a child of the
/// wheel's chassis (for a wheel outside the hierarchy) is placed in the chassis' frame,
/// through the wheel's mount; any other model in the wheel's frame.
#[cfg_attr(feature = "stage-table", inline(never))] // a stage of its own in `--stages`
pub(crate) fn place_models(
    fixed: Option<Res<Time<Fixed>>>,
    wheels: Query<(&WheelCollider, &WheelOutput, &WheelModel, &Transform, Option<&WheelOf>)>,
    mut models: Query<(&mut Transform, Option<&ChildOf>), Without<WheelCollider>>,
) {
    let alpha = fixed.map_or(1.0, |t| t.overstep_fraction().clamp(0.0, 1.0));
    for (wheel, output, model, mount, wheel_of) in &wheels {
        let Ok((mut transform, parent)) = models.get_mut(model.0) else {
            continue;
        };
        let on_chassis = parent.is_some_and(|p| wheel_of.is_some_and(|w| w.0 == p.parent()));
        let (l0, a0, y0) = output.previous_pose;
        let (l1, a1, y1) = (output.output.current_suspension_length, output.output.angle, output.yaw);
        let mut da = a1 - a0;
        if da > core::f32::consts::PI {
            da -= core::f32::consts::TAU;
        } else if da < -core::f32::consts::PI {
            da += core::f32::consts::TAU;
        }
        let length = l0 + (l1 - l0) * alpha;
        let angle = a0 + da * alpha;
        let yaw = y0 + (y1 - y0) * alpha;
        let translation = Vec3::NEG_Y * length;
        // The camber against the body at this compression (the gain's share).
        let camber = wheel.alignment(output.output.compression as f64).0 as f32;
        let rotation = Quat::from_axis_angle(Vec3::Y, yaw.to_radians())
            * Quat::from_axis_angle(Vec3::Z, camber.to_radians())
            * Quat::from_rotation_x(-angle);
        if on_chassis {
            transform.translation = mount.transform_point(translation);
            transform.rotation = mount.rotation * rotation;
        } else {
            transform.translation = translation;
            transform.rotation = rotation;
        }
    }
}
