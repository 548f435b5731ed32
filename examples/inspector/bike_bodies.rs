//! The two-wheelers' bodies, sized from the preset like the cars' (the axles' places,
//! the wheels' size, the head's rake): a naked motorcycle and its rider. The fork is
//! drawn fixed to the frame; the front wheel turns with the steering head.
use std::f32::consts::FRAC_PI_2;

use bevy::prelude::*;
use wheelcollider::prelude::*;

use crate::car_bodies::{Painter, Style};
use crate::car_visuals::ground_y;

/// A naked motorcycle: the fork at the head's rake, the tank, seat and tail, the engine
/// and exhaust, the swingarm, the handlebar and headlight, and a rider in leathers and a
/// helmet with hands on the bar and feet on the pegs.
pub fn motorcycle(
    c: &mut ChildSpawnerCommands,
    p: &mut Painter,
    settings: &VehicleSettings,
    livery: usize,
    tail: &Handle<StandardMaterial>,
) {
    let g = ground_y(settings);
    let (front, rear) = (&settings.axles[0], &settings.axles[settings.axles.len() - 1]);
    let (zf, zr) = (front.z, rear.z);
    let (rf, rr) = (front.wheel.radius(), rear.wheel.radius());
    let rake = settings.two_wheeler.as_ref().map_or(25.0, |t| t.rake).to_radians();
    let paint = p.material(Style::Motorcycle.paint(livery), 0.4, 0.3);
    let black = p.material(Color::srgb(0.05, 0.05, 0.06), 0.1, 0.7);
    let metal = p.material(Color::srgb(0.62, 0.62, 0.65), 0.9, 0.3);
    let gold = p.material(Color::srgb(0.8, 0.6, 0.2), 0.9, 0.3);
    let leather = p.material(Color::srgb(0.1, 0.1, 0.12), 0.1, 0.6);
    let helmet = p.material(Color::srgb(0.9, 0.9, 0.92), 0.3, 0.2);
    let visor = p.material(Color::srgb(0.05, 0.05, 0.1), 0.8, 0.05);
    let lamp = p.lamp(LinearRgba::rgb(2.0, 2.0, 1.7));
    // The fork: from the front axle up along the head axis (leaning back by the rake).
    let axis = Vec3::new(0.0, rake.cos(), rake.sin());
    let hub = Vec3::new(0.0, g + rf, zf);
    let fork = 0.78;
    let head = hub + axis * fork;
    for x in [-0.07f32, 0.07] {
        p.part(
            c,
            Cylinder::new(0.022, fork),
            &gold,
            Transform::from_translation(hub + axis * fork / 2.0 + Vec3::X * x)
                .with_rotation(Quat::from_rotation_arc(Vec3::Y, axis)),
        );
    }
    p.part(
        c,
        Cuboid::new(0.2, 0.05, 0.08),
        &black,
        Transform::from_translation(head - axis * 0.05).with_rotation(Quat::from_rotation_x(rake)),
    );
    p.part(
        c,
        Cylinder::new(0.012, 0.78),
        &black,
        Transform::from_translation(head + Vec3::new(0.0, 0.06, 0.08)).with_rotation(Quat::from_rotation_z(FRAC_PI_2)),
    );
    p.part(
        c,
        Cylinder::new(0.085, 0.06),
        &lamp,
        Transform::from_translation(head + Vec3::new(0.0, -0.12, -0.1)).with_rotation(Quat::from_rotation_x(FRAC_PI_2)),
    );
    // Frame, tank, seat and tail, from the head back to past the rear wheel.
    let pivot = Vec3::new(0.0, g + rr + 0.06, zf + 0.62 * (zr - zf));
    p.part(
        c,
        Cuboid::new(0.06, 0.06, (pivot - head).length()),
        &black,
        Transform::from_translation((pivot + head) / 2.0)
            .with_rotation(Quat::from_rotation_arc(Vec3::Z, (pivot - head).normalize())),
    );
    let top = head.y - 0.02;
    p.part(
        c,
        Cuboid::new(0.3, 0.2, 0.5),
        &paint,
        Transform::from_xyz(0.0, top - 0.08, head.z + 0.32).with_rotation(Quat::from_rotation_x(-0.12)),
    );
    p.part(
        c,
        Cuboid::new(0.26, 0.07, 0.5),
        &black,
        Transform::from_xyz(0.0, top - 0.15, head.z + 0.78),
    );
    p.part(
        c,
        Cuboid::new(0.18, 0.08, 0.32),
        &paint,
        Transform::from_xyz(0.0, top - 0.08, zr + 0.02).with_rotation(Quat::from_rotation_x(0.25)),
    );
    p.part(
        c,
        Cuboid::new(0.12, 0.04, 0.03),
        tail,
        Transform::from_xyz(0.0, top - 0.06, zr + 0.19),
    );
    // Engine and exhaust under the tank; the swingarm to the rear axle.
    p.part(
        c,
        Cuboid::new(0.34, 0.32, 0.42),
        &metal,
        Transform::from_xyz(0.0, g + rf + 0.1, head.z + 0.38),
    );
    p.part(
        c,
        Cylinder::new(0.05, 0.45),
        &black,
        Transform::from_xyz(0.12, g + 0.22, head.z + 0.75).with_rotation(Quat::from_rotation_x(FRAC_PI_2)),
    );
    let axle = Vec3::new(0.0, g + rr, zr);
    for x in [-0.1f32, 0.1] {
        p.part(
            c,
            Cuboid::new(0.03, 0.06, (axle - pivot).length()),
            &black,
            Transform::from_translation((axle + pivot) / 2.0 + Vec3::X * x)
                .with_rotation(Quat::from_rotation_arc(Vec3::Z, (axle - pivot).normalize())),
        );
    }
    // The rider: hips on the seat, leaning to the bar, feet on the pegs.
    let hips = Vec3::new(0.0, top - 0.02, head.z + 0.78);
    let shoulders = hips + Vec3::new(0.0, 0.5, -0.22);
    p.part(
        c,
        Capsule3d::new(0.17, 0.36),
        &leather,
        Transform::from_translation((hips + shoulders) / 2.0)
            .with_rotation(Quat::from_rotation_arc(Vec3::Y, (shoulders - hips).normalize())),
    );
    let bar = head + Vec3::new(0.0, 0.06, 0.08);
    for side in [-1.0f32, 1.0] {
        let shoulder = shoulders + Vec3::X * side * 0.19;
        let hand = bar + Vec3::X * side * 0.34;
        limb(c, p, &leather, shoulder, hand, 0.05);
        let hip = hips + Vec3::X * side * 0.12;
        let knee = Vec3::new(side * 0.2, hips.y - 0.12, hips.z - 0.32);
        let peg = Vec3::new(side * 0.17, g + rr + 0.05, hips.z + 0.05);
        limb(c, p, &leather, hip, knee, 0.07);
        limb(c, p, &leather, knee, peg, 0.06);
    }
    let helmet_at = shoulders + Vec3::new(0.0, 0.24, -0.06);
    p.part(c, Sphere::new(0.14), &helmet, Transform::from_translation(helmet_at));
    p.part(
        c,
        Cuboid::new(0.2, 0.07, 0.05),
        &visor,
        Transform::from_translation(helmet_at + Vec3::new(0.0, 0.01, -0.12)),
    );
}

/// A limb (a capsule of `radius`) from `a` to `b`.
fn limb(c: &mut ChildSpawnerCommands, p: &mut Painter, m: &Handle<StandardMaterial>, a: Vec3, b: Vec3, radius: f32) {
    let d = b - a;
    p.part(
        c,
        Capsule3d::new(radius, (d.length() - 2.0 * radius).max(0.01)),
        m,
        Transform::from_translation((a + b) / 2.0).with_rotation(Quat::from_rotation_arc(Vec3::Y, d.normalize())),
    );
}
