//! A tracked vehicle's body, sized from the preset like the cars': the hull between the
//! belts, a turret with its gun, and each belt drawn around its road wheels (its
//! ground run under them, its return run above, the sprocket and the idler at the
//! ends) with side skirts over the upper run.
use bevy::prelude::*;
use wheelcollider::prelude::*;

use crate::car_bodies::Painter;
use crate::car_visuals::ground_y;

/// The belts' thickness (m), drawn; the model's road wheels roll on the ground.
const BELT: f32 = 0.08;

/// A tank: an olive hull and turret (a darker shade for `livery` 1), dark belts, rear
/// lamps.
pub fn tank(
    c: &mut ChildSpawnerCommands,
    p: &mut Painter,
    settings: &VehicleSettings,
    livery: usize,
    tail: &Handle<StandardMaterial>,
) {
    let g = ground_y(settings);
    let [w, h, l] = settings.chassis.size;
    let olive = [Color::srgb(0.28, 0.31, 0.2), Color::srgb(0.2, 0.22, 0.17)][livery % 2];
    let paint = p.material(olive, 0.1, 0.8);
    let belt = p.material(Color::srgb(0.08, 0.08, 0.08), 0.4, 0.7);
    let steel = p.material(Color::srgb(0.2, 0.21, 0.2), 0.6, 0.5);
    let axles = &settings.axles;
    let (front, rear) = (axles[0].z, axles[axles.len() - 1].z);
    let r = axles[0].wheel.radius();
    let half = axles[0].half_track;
    let width = axles[0].wheel.width();
    // The road wheels' centres at rest, and the belt's runs around them.
    let centre = g + r;
    let run = rear - front + 2.0 * r;
    for x in [-half, half] {
        p.part(
            c,
            Cuboid::new(width, BELT, run),
            &belt,
            Transform::from_xyz(x, g + BELT / 2.0, (front + rear) / 2.0),
        );
        p.part(
            c,
            Cuboid::new(width, BELT, run),
            &belt,
            Transform::from_xyz(x, centre + r + BELT / 2.0, (front + rear) / 2.0),
        );
        // The idler at the front and the sprocket at the rear, a little above the road
        // wheels, each with the belt over it.
        for (z, name_r) in [(front - r * 1.2, r * 0.8), (rear + r * 1.2, r * 0.9)] {
            p.part(
                c,
                Cylinder::new(name_r + BELT, width),
                &belt,
                Transform::from_xyz(x, centre + 0.1, z)
                    .with_rotation(Quat::from_rotation_z(std::f32::consts::FRAC_PI_2)),
            );
            p.part(
                c,
                Cylinder::new(name_r * 0.6, width + 0.02),
                &steel,
                Transform::from_xyz(x, centre + 0.1, z)
                    .with_rotation(Quat::from_rotation_z(std::f32::consts::FRAC_PI_2)),
            );
        }
        // The side skirt over the return run.
        p.part(
            c,
            Cuboid::new(0.03, 0.35, run + 0.6 * r),
            &paint,
            Transform::from_xyz(
                x.signum() * (half + width / 2.0 + 0.02),
                centre + r + 0.05,
                (front + rear) / 2.0,
            ),
        );
    }
    // The hull between the belts, up to the box's top less the turret.
    let inner = 2.0 * half - width - 0.04;
    let hull_floor = centre - 0.05;
    let deck = hull_floor + 0.75 * (h / 2.0 - hull_floor).max(0.6);
    p.part(
        c,
        Cuboid::new(inner, deck - hull_floor, l),
        &paint,
        Transform::from_xyz(0.0, (deck + hull_floor) / 2.0, 0.0),
    );
    // The deck over the belts.
    p.part(
        c,
        Cuboid::new(w, 0.06, l * 0.98),
        &paint,
        Transform::from_xyz(0.0, deck, 0.0),
    );
    // The turret a little ahead of the middle, its gun forward.
    let turret = (0.62 * w, (h / 2.0 - deck).max(0.5), 0.42 * l);
    let tz = -0.05 * l;
    p.part(
        c,
        Cuboid::new(turret.0, turret.1, turret.2),
        &paint,
        Transform::from_xyz(0.0, deck + turret.1 / 2.0, tz),
    );
    let gun = 0.7 * l;
    p.part(
        c,
        Cylinder::new(0.08, gun),
        &steel,
        Transform::from_xyz(0.0, deck + turret.1 * 0.55, tz - turret.2 / 2.0 - gun / 2.0 + 0.3)
            .with_rotation(Quat::from_rotation_x(std::f32::consts::FRAC_PI_2)),
    );
    for x in [-0.35 * inner, 0.35 * inner] {
        p.part(
            c,
            Cuboid::new(0.18, 0.08, 0.03),
            tail,
            Transform::from_xyz(x, deck - 0.15, l / 2.0 + 0.01),
        );
    }
}
