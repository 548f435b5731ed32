//! Debug drawing (feature `debug`): suspension line, tyre circle / sphere / both
//! cylinder rims, a spoke that turns with the wheel, the contact point and the forces.
//!
//! Add [`WheelDebugPlugin`] (it needs Bevy's gizmo plugin, part of `DefaultPlugins`)
//! and tune it through the [`WheelGizmos`] resource.

use crate::wheel::{WheelCollider, WheelOutput, WheelVisualSystems};
use bevy::color::palettes::css;
use bevy::prelude::*;
use wheelcollider_core::SweepType;

/// What the wheel gizmos draw.
#[derive(Resource, Reflect, Clone, Debug, PartialEq)]
#[reflect(Resource)]
pub struct WheelGizmos {
    /// Draw anything at all.
    pub enabled: bool,
    /// Draw wheels that use the ray sweep.
    pub ray: bool,
    /// Draw wheels that use the sphere sweep.
    pub sphere: bool,
    /// Draw wheels that use the cylinder sweep.
    pub cylinder: bool,
    /// Draw the tyre force and load vectors.
    pub forces: bool,
    /// Metres of arrow per newton of force.
    pub force_scale: f32,
}

impl Default for WheelGizmos {
    fn default() -> Self {
        Self {
            enabled: true,
            ray: true,
            sphere: true,
            cylinder: true,
            forces: true,
            force_scale: 2.0e-4,
        }
    }
}

/// Draws the wheels with gizmos in `PostUpdate`, in [`WheelVisualSystems::Gizmos`].
pub struct WheelDebugPlugin;

impl Plugin for WheelDebugPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<WheelGizmos>()
            .register_type::<WheelGizmos>()
            .add_systems(PostUpdate, draw_wheels.in_set(WheelVisualSystems::Gizmos));
    }
}

fn draw_wheels(mut gizmos: Gizmos, config: Res<WheelGizmos>, wheels: Query<(&WheelCollider, &WheelOutput)>) {
    if !config.enabled {
        return;
    }
    for (wheel, output) in &wheels {
        let sweep = wheel.sweep_type();
        let shown = match sweep {
            SweepType::Ray => config.ray,
            SweepType::Sphere => config.sphere,
            SweepType::Cylinder => config.cylinder,
        };
        if !shown || !output.center.is_finite() {
            continue;
        }
        let r = wheel.radius();
        let colour = if output.grounded() { css::LIME } else { css::ORANGE };
        gizmos.line(output.mount_position, output.center, css::YELLOW);
        // A circle in the wheel plane (its normal along the axle).
        let to_axle = Quat::from_rotation_y(core::f32::consts::FRAC_PI_2);
        let axle = output.rotation * Vec3::X;
        match sweep {
            SweepType::Ray => {
                gizmos.circle(Isometry3d::new(output.center, output.rotation * to_axle), r, colour);
            }
            SweepType::Sphere => {
                gizmos.sphere(Isometry3d::new(output.center, output.rotation), r, colour);
            }
            SweepType::Cylinder => {
                let half = axle * wheel.width() * 0.5;
                for side in [-1.0, 1.0] {
                    gizmos.circle(
                        Isometry3d::new(output.center + half * side, output.rotation * to_axle),
                        r,
                        colour,
                    );
                }
                for k in 0..4 {
                    let a = k as f32 * core::f32::consts::FRAC_PI_2;
                    let rim = output.rotation * Quat::from_rotation_x(a) * Vec3::Y * r;
                    gizmos.line(output.center - half + rim, output.center + half + rim, colour);
                }
            }
        }
        // The spoke turns with the wheel.
        gizmos.line(
            output.center,
            output.center + output.rotation * Vec3::NEG_Y * r,
            css::WHITE,
        );
        if let Some(hit) = output.hit {
            gizmos.sphere(Isometry3d::from_translation(output.contact_position), 0.03, css::RED);
            gizmos.line(hit.point, output.contact_position, css::RED);
            if config.forces {
                let s = config.force_scale;
                let p = output.contact_position;
                gizmos.arrow(p, p + output.up * output.load() * s, css::AQUA);
                gizmos.arrow(p, p + output.forward_direction * output.forward_force() * s, css::BLUE);
                gizmos.arrow(
                    p,
                    p + output.sideways_direction * output.sideways_force() * s,
                    css::FUCHSIA,
                );
            }
        }
    }
}
