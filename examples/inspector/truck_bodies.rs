//! The towing bodies, sized from the preset like the cars': a tractor unit (a cab over
//! the steer axle, the frame and the fifth wheel), and a trailer's box body (a caravan,
//! or a semi-trailer's box).
use bevy::prelude::*;
use wheelcollider::prelude::*;

use crate::car_bodies::{Painter, Style};
use crate::car_visuals::ground_y;

/// A tractor unit: a cab over the steer axle in `livery`, a dark frame under the rest,
/// the fifth wheel's plate, mudguards over the drive axles and rear lamps.
pub fn truck(
    c: &mut ChildSpawnerCommands,
    p: &mut Painter,
    settings: &VehicleSettings,
    livery: usize,
    tail: &Handle<StandardMaterial>,
) {
    let g = ground_y(settings);
    let [w, h, l] = settings.chassis.size;
    let paint = p.material(Style::Truck.paint(livery), 0.3, 0.4);
    let dark = p.material(Color::srgb(0.1, 0.1, 0.11), 0.3, 0.6);
    let glass = p.material(Color::srgb(0.05, 0.07, 0.1), 0.6, 0.1);
    let front = -l / 2.0;
    let cab = 2.3f32.min(0.45 * l);
    let (cab_floor, top) = (g + 1.0, h / 2.0);
    p.part(
        c,
        Cuboid::new(w, top - cab_floor, cab),
        &paint,
        Transform::from_xyz(0.0, (top + cab_floor) / 2.0, front + cab / 2.0),
    );
    p.part(
        c,
        Cuboid::new(w * 0.9, 0.9, 0.04),
        &glass,
        Transform::from_xyz(0.0, cab_floor + 1.45, front - 0.005),
    );
    p.part(
        c,
        Cuboid::new(w + 0.02, 0.35, 0.2),
        &dark,
        Transform::from_xyz(0.0, g + 0.55, front + 0.08),
    );
    let frame_top = settings.hitch.as_ref().map_or(g + 1.05, |h| h.position[1] - 0.1);
    for x in [-0.45f32, 0.45] {
        p.part(
            c,
            Cuboid::new(0.12, 0.3, l - cab),
            &dark,
            Transform::from_xyz(x, frame_top - 0.15, front + cab + (l - cab) / 2.0),
        );
    }
    if let Some(hitch) = &settings.hitch {
        let plate = Vec3::from(hitch.position) - Vec3::Y * 0.05;
        p.part(c, Cylinder::new(0.5, 0.1), &dark, Transform::from_translation(plate));
    }
    for a in settings.axles.iter().filter(|a| a.driven) {
        let r = a.wheel.radius();
        for x in [-1.0f32, 1.0] {
            p.part(
                c,
                Cuboid::new(a.wheel.width() + 0.1, 0.05, 2.0 * r + 0.2),
                &dark,
                Transform::from_xyz(x * a.half_track, g + 2.0 * r + 0.15, a.z),
            );
        }
    }
    for x in [-w / 2.0 + 0.2, w / 2.0 - 0.2] {
        p.part(
            c,
            Cuboid::new(0.2, 0.12, 0.05),
            tail,
            Transform::from_xyz(x, g + 0.8, l / 2.0 + 0.01),
        );
    }
}

/// A caravan or a box semi-trailer: a white box body (the chassis box) on a dark skirt, a window band and a stripe, rear lamps,
/// and the A-frame drawbar to the hitch head.
pub fn caravan(
    c: &mut ChildSpawnerCommands,
    p: &mut Painter,
    settings: &VehicleSettings,
    tail: &Handle<StandardMaterial>,
) {
    let [w, h, l] = settings.chassis.size;
    let white = p.material(Style::Caravan.paint(0), 0.0, 0.5);
    let dark = p.material(Color::srgb(0.12, 0.12, 0.13), 0.2, 0.6);
    let glass = p.material(Color::srgb(0.05, 0.07, 0.1), 0.6, 0.1);
    let stripe = p.material(Color::srgb(0.6, 0.1, 0.1), 0.1, 0.5);
    let floor = -h / 2.0;
    let top = h / 2.0;
    p.part(
        c,
        Cuboid::new(w, top - floor, l),
        &white,
        Transform::from_xyz(0.0, (top + floor) / 2.0, 0.0),
    );
    p.part(
        c,
        Cuboid::new(w + 0.02, 0.12, l + 0.02),
        &dark,
        Transform::from_xyz(0.0, floor + 0.06, 0.0),
    );
    p.part(
        c,
        Cuboid::new(w + 0.03, 0.06, l + 0.03),
        &stripe,
        Transform::from_xyz(0.0, floor + 0.5, 0.0),
    );
    // Windows on a caravan; a semi-trailer's box (longer than 8 m) is blank.
    if l < 8.0 {
        p.part(
            c,
            Cuboid::new(w + 0.02, 0.45, l * 0.55),
            &glass,
            Transform::from_xyz(0.0, top - 0.6, -0.2),
        );
        p.part(
            c,
            Cuboid::new(w * 0.8, 0.45, 0.04),
            &glass,
            Transform::from_xyz(0.0, top - 0.6, -l / 2.0 - 0.005),
        );
    }
    for x in [-w / 2.0 + 0.15, w / 2.0 - 0.15] {
        p.part(
            c,
            Cuboid::new(0.12, 0.2, 0.04),
            tail,
            Transform::from_xyz(x, floor + 0.3, l / 2.0 + 0.01),
        );
    }
    let Some(t) = &settings.trailer else { return };
    let head = Vec3::from(t.coupling);
    for x in [-0.45f32, 0.45] {
        let foot = Vec3::new(x, floor, -l / 2.0);
        let bar = head - foot;
        let along = Transform::from_translation(foot + bar / 2.0).looking_to(bar, Vec3::Y);
        p.part(c, Cuboid::new(0.08, 0.08, bar.length()), &dark, along);
    }
    p.part(c, Sphere::new(0.06), &dark, Transform::from_translation(head));
}
