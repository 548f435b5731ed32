//! The car bodies, built from primitives and tapered boxes sized from the preset
//! (chassis length and width, axle positions, wheel size): a hatch, a rally hatch in
//! livery, a coupé with a wing, a kart with its driver; the towing bodies are in
//! `truck_bodies.rs`, the two-wheelers' in `bike_bodies.rs`, a tracked vehicle's in
//! `tank_bodies.rs`.
//!
//! Why `saloon` and `kart` are long: one statement per part of the body, no logic.
use std::f32::consts::FRAC_PI_2;

use bevy::prelude::*;
use wheelcollider::prelude::*;

use crate::car_visuals::ground_y;

/// A body style, chosen from the preset's name (or its size).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Style {
    Hatch,
    Rally,
    Coupe,
    Kart,
    Caravan,
    Truck,
    Motorcycle,
    Tank,
    /// A tracked carrier: a tall box hull with a cupola, no turret (`m113`).
    Carrier,
}

impl Style {
    pub fn of(settings: &VehicleSettings) -> Self {
        match settings.name.as_str() {
            _ if settings.trailer.is_some() => Style::Caravan,
            _ if settings.two_wheeler.is_some() => Style::Motorcycle,
            "m113" if settings.tracks.is_some() => Style::Carrier,
            _ if settings.tracks.is_some() => Style::Tank,
            _ if settings.hitch.as_ref().is_some_and(|h| h.kind == HitchKind::FifthWheel) => Style::Truck,
            "rally" => Style::Rally,
            "gt86" => Style::Coupe,
            "kart" => Style::Kart,
            _ if settings.chassis.size[2] < 2.5 => Style::Kart,
            _ => Style::Hatch,
        }
    }

    pub fn paint(self, livery: usize) -> Color {
        let palette: &[(f32, f32, f32)] = match self {
            Style::Hatch => &[
                (0.08, 0.3, 0.75),
                (0.7, 0.72, 0.75),
                (0.1, 0.45, 0.25),
                (0.9, 0.45, 0.05),
                (0.05, 0.05, 0.06),
            ],
            Style::Rally => &[(0.95, 0.95, 0.95), (0.1, 0.15, 0.4)],
            Style::Coupe => &[
                (0.8, 0.04, 0.04),
                (0.95, 0.95, 0.95),
                (0.25, 0.35, 0.5),
                (0.95, 0.75, 0.05),
            ],
            Style::Kart => &[(0.95, 0.8, 0.05), (0.1, 0.6, 0.2), (0.85, 0.1, 0.1)],
            Style::Caravan => &[(0.93, 0.93, 0.9)],
            Style::Truck => &[(0.75, 0.08, 0.08), (0.1, 0.25, 0.55), (0.92, 0.92, 0.9)],
            Style::Motorcycle => &[(0.1, 0.2, 0.6), (0.05, 0.05, 0.06), (0.8, 0.05, 0.05)],
            Style::Tank | Style::Carrier => &[(0.28, 0.31, 0.2), (0.2, 0.22, 0.17)],
        };
        let (r, g, b) = palette[livery % palette.len()];
        Color::srgb(r, g, b)
    }
}

/// What the builders share: the asset stores and the car's paints.
pub struct Painter<'a> {
    pub meshes: &'a mut Assets<Mesh>,
    pub materials: &'a mut Assets<StandardMaterial>,
}

impl Painter<'_> {
    pub fn material(&mut self, c: Color, metallic: f32, roughness: f32) -> Handle<StandardMaterial> {
        self.materials.add(StandardMaterial {
            base_color: c,
            metallic,
            perceptual_roughness: roughness,
            ..default()
        })
    }

    pub fn lamp(&mut self, c: LinearRgba) -> Handle<StandardMaterial> {
        self.materials.add(StandardMaterial {
            base_color: Color::from(c),
            emissive: c,
            ..default()
        })
    }

    pub fn part(
        &mut self,
        c: &mut ChildSpawnerCommands,
        mesh: impl Into<Mesh>,
        m: &Handle<StandardMaterial>,
        t: Transform,
    ) {
        c.spawn((Mesh3d(self.meshes.add(mesh.into())), MeshMaterial3d(m.clone()), t));
    }
}

/// A box whose top face is smaller than its bottom: `[half width, front z, rear z, y]`
/// for the bottom and the top face (car frame, front at −Z). Flat-shaded.
fn tapered_box(bottom: [f32; 4], top: [f32; 4]) -> Mesh {
    let corners = |[hw, zf, zr, y]: [f32; 4]| {
        [
            Vec3::new(-hw, y, zf),
            Vec3::new(hw, y, zf),
            Vec3::new(hw, y, zr),
            Vec3::new(-hw, y, zr),
        ]
    };
    let [b0, b1, b2, b3] = corners(bottom);
    let [t0, t1, t2, t3] = corners(top);
    // Each quad wound so that (p1 − p0) × (p2 − p0) points out.
    let quads = [
        [t0, t3, t2, t1],
        [b0, b1, b2, b3],
        [b0, t0, t1, b1],
        [b3, b2, t2, t3],
        [b1, t1, t2, b2],
        [b0, b3, t3, t0],
    ];
    let positions: Vec<[f32; 3]> = quads
        .iter()
        .flat_map(|[p0, p1, p2, p3]| [*p0, *p1, *p2, *p0, *p2, *p3])
        .map(|p| p.to_array())
        .collect();
    let mut mesh = Mesh::new(bevy::mesh::PrimitiveTopology::TriangleList, default())
        .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, positions);
    mesh.compute_flat_normals();
    mesh
}

/// A closed car: skirts with wheel openings, a shoulder up to the belt line, a glass
/// cabin with a roof and pillars, lamps, bumpers; a wing on the coupé, livery, mud
/// flaps and a lamp pod on the rally car.
pub fn saloon(
    c: &mut ChildSpawnerCommands,
    p: &mut Painter,
    settings: &VehicleSettings,
    style: Style,
    livery: usize,
    tail: &Handle<StandardMaterial>,
) {
    let g = ground_y(settings);
    let [cw, _, l] = settings.chassis.size;
    let outer = settings
        .axles
        .iter()
        .map(|a| a.half_track + a.wheel.width() / 2.0)
        .fold(0.0, f32::max);
    let hw = (cw / 2.0).max(outer + 0.01);
    let h = |above: f32| g + above;
    let (sill, belt, roof) = match style {
        Style::Coupe => (0.13, 0.84, 1.3),
        Style::Rally => (0.2, 0.97, 1.47),
        _ => (0.16, 0.95, 1.45),
    };
    let radius = settings.axles.iter().map(|a| a.wheel.radius()).fold(0.0, f32::max);
    let arch = 2.0 * radius + 0.06;
    // The cabin's footprint (fractions of the length from the front) at the belt and
    // at the roof: a hatch's near-vertical tailgate, a coupé's long bonnet and fastback.
    let (base, top) = match style {
        Style::Coupe => ([0.36, 0.86], [0.52, 0.68]),
        _ => ([0.3, 0.96], [0.47, 0.93]),
    };
    let z = |f: f32| -l / 2.0 + f * l;
    let paint = p.material(style.paint(livery), 0.5, 0.35);
    let glass = p.material(Color::srgb(0.12, 0.16, 0.22), 0.7, 0.08);
    let black = p.material(Color::srgb(0.05, 0.05, 0.05), 0.0, 0.7);
    let id = Transform::IDENTITY;

    // The shoulder, rounded off at the nose and the tail.
    p.part(
        c,
        tapered_box(
            [hw, -l / 2.0, l / 2.0, h(arch)],
            [hw - 0.05, z(0.03), z(0.985), h(belt)],
        ),
        &paint,
        id,
    );
    // Skirts between the wheel openings.
    let mut edges = vec![-l / 2.0 + 0.06];
    for a in &settings.axles {
        let gap = a.wheel.radius() + 0.07;
        edges.extend([a.z - gap, a.z + gap]);
    }
    edges.push(l / 2.0 - 0.04);
    edges.sort_by(f32::total_cmp);
    for pair in edges.chunks(2) {
        if let [z0, z1] = *pair
            && z1 > z0
        {
            p.part(
                c,
                tapered_box([hw - 0.03, z0, z1, h(sill)], [hw, z0, z1, h(arch)]),
                &paint,
                id,
            );
        }
    }
    // Bumpers.
    for (zb, zs) in [(-l / 2.0, 1.0), (l / 2.0, -1.0)] {
        p.part(
            c,
            Cuboid::new(2.0 * hw - 0.1, 0.14, 0.14),
            &black,
            Transform::from_xyz(0.0, h(sill + 0.12), zb + zs * 0.07),
        );
    }
    // The cabin: glass, roof, pillars, mirrors.
    let (cb, ct) = (hw - 0.07, hw - 0.24);
    p.part(
        c,
        tapered_box(
            [cb, z(base[0]), z(base[1]), h(belt)],
            [ct, z(top[0]), z(top[1]), h(roof - 0.05)],
        ),
        &glass,
        id,
    );
    p.part(
        c,
        tapered_box(
            [ct + 0.01, z(top[0]) - 0.02, z(top[1]) + 0.01, h(roof - 0.06)],
            [ct - 0.03, z(top[0]) + 0.04, z(top[1]) - 0.03, h(roof)],
        ),
        &paint,
        id,
    );
    let mid = (z(base[0]) + z(base[1])) / 2.0 - 0.1;
    let mid_top = (z(top[0]) + z(top[1])) / 2.0 - 0.1;
    p.part(
        c,
        tapered_box(
            [cb + 0.01, mid - 0.07, mid + 0.07, h(belt)],
            [ct + 0.01, mid_top - 0.07, mid_top + 0.07, h(roof - 0.04)],
        ),
        &paint,
        id,
    );
    for side in [-1.0f32, 1.0] {
        p.part(
            c,
            Cuboid::new(0.16, 0.09, 0.1),
            &paint,
            Transform::from_xyz(side * (cb + 0.06), h(belt + 0.08), z(base[0]) + 0.15),
        );
    }
    // Lamps: headlights always on, brake lights from `tail`.
    let head = p.lamp(LinearRgba::rgb(4.0, 3.8, 3.2));
    let lamp_y = h(arch + 0.6 * (belt - arch));
    for side in [-1.0f32, 1.0] {
        p.part(
            c,
            Cuboid::new(0.34, 0.11, 0.06),
            &head,
            Transform::from_xyz(side * (hw - 0.3), lamp_y, z(0.03 * 0.6) - 0.015),
        );
        p.part(
            c,
            Cuboid::new(0.3, 0.1, 0.06),
            tail,
            Transform::from_xyz(side * (hw - 0.22), lamp_y, z(1.0 - 0.015 * 0.6) + 0.015),
        );
    }
    match style {
        Style::Coupe => {
            let wing_z = l / 2.0 - 0.18;
            p.part(
                c,
                Cuboid::new(1.3, 0.03, 0.22),
                &black,
                Transform::from_xyz(0.0, h(belt + 0.12), wing_z),
            );
            for side in [-0.45f32, 0.45] {
                p.part(
                    c,
                    Cuboid::new(0.03, 0.14, 0.1),
                    &black,
                    Transform::from_xyz(side, h(belt + 0.05), wing_z),
                );
            }
        }
        Style::Rally => rally_kit(
            c,
            p,
            hw,
            l,
            [g, sill, belt, roof],
            [z(base[0]), z(top[0]), z(top[1])],
            settings,
        ),
        _ => {}
    }
}

/// The rally car's stripes over bonnet and roof, side bands, mud flaps and lamp pod.
fn rally_kit(
    c: &mut ChildSpawnerCommands,
    p: &mut Painter,
    hw: f32,
    l: f32,
    [g, sill, belt, roof]: [f32; 4],
    [screen, roof_front, roof_rear]: [f32; 3],
    settings: &VehicleSettings,
) {
    let blue = p.material(Color::srgb(0.05, 0.2, 0.7), 0.3, 0.4);
    let red = p.material(Color::srgb(0.85, 0.08, 0.08), 0.3, 0.4);
    let black = p.material(Color::srgb(0.03, 0.03, 0.03), 0.0, 0.8);
    let lamp = p.lamp(LinearRgba::rgb(5.0, 4.8, 4.0));
    for (x, m) in [(-0.16f32, &blue), (0.16, &red)] {
        let bonnet = screen + l / 2.0;
        p.part(
            c,
            Cuboid::new(0.22, 0.01, bonnet - 0.1),
            m,
            Transform::from_xyz(x, g + belt + 0.003, -l / 2.0 + bonnet / 2.0 + 0.05),
        );
        p.part(
            c,
            Cuboid::new(0.22, 0.01, roof_rear - roof_front - 0.1),
            m,
            Transform::from_xyz(x, g + roof + 0.003, (roof_front + roof_rear) / 2.0),
        );
    }
    for side in [-1.0f32, 1.0] {
        p.part(
            c,
            Cuboid::new(0.01, 0.1, l * 0.55),
            &blue,
            Transform::from_xyz(side * (hw + 0.002), g + belt - 0.16, 0.1),
        );
        p.part(
            c,
            Cuboid::new(0.01, 0.05, l * 0.55),
            &red,
            Transform::from_xyz(side * (hw + 0.002), g + belt - 0.26, 0.1),
        );
        for a in &settings.axles {
            let z = a.z + a.wheel.radius() + 0.12;
            p.part(
                c,
                Cuboid::new(0.3, 0.25, 0.01),
                &black,
                Transform::from_xyz(side * a.half_track, g + sill + 0.02, z),
            );
        }
    }
    // Four spot lamps on a bar across the nose.
    p.part(
        c,
        Cuboid::new(1.1, 0.05, 0.05),
        &black,
        Transform::from_xyz(0.0, g + sill + 0.45, -l / 2.0 - 0.08),
    );
    for k in 0..4 {
        let x = -0.42 + 0.28 * k as f32;
        p.part(
            c,
            Cylinder::new(0.09, 0.05),
            &lamp,
            Transform::from_xyz(x, g + sill + 0.45, -l / 2.0 - 0.12).with_rotation(Quat::from_rotation_x(FRAC_PI_2)),
        );
    }
}

/// A kart: tube frame, floor tray, side pods, nose, seat, engine, steering wheel and a
/// driver in overalls and helmet.
pub fn kart(
    c: &mut ChildSpawnerCommands,
    p: &mut Painter,
    settings: &VehicleSettings,
    livery: usize,
    tail: &Handle<StandardMaterial>,
) {
    let g = ground_y(settings);
    let [_, _, l] = settings.chassis.size;
    let frame = p.material(Style::Kart.paint(livery), 0.6, 0.3);
    let black = p.material(Color::srgb(0.05, 0.05, 0.05), 0.0, 0.7);
    let metal = p.material(Color::srgb(0.6, 0.6, 0.62), 0.9, 0.3);
    let suit = p.material(Color::srgb(0.95, 0.4, 0.05), 0.0, 0.8);
    let helmet = p.material(Color::srgb(0.95, 0.95, 0.95), 0.3, 0.2);
    let visor = p.material(Color::srgb(0.05, 0.05, 0.1), 0.8, 0.05);
    let y = g + 0.07;
    for x in [-0.33f32, 0.33] {
        p.part(
            c,
            Cuboid::new(0.035, 0.035, l * 0.85),
            &metal,
            Transform::from_xyz(x, y, 0.0),
        );
    }
    p.part(
        c,
        Cuboid::new(0.7, 0.02, l * 0.55),
        &black,
        Transform::from_xyz(0.0, y - 0.02, -0.05),
    );
    for z in [-l * 0.36, l * 0.36] {
        p.part(
            c,
            Cuboid::new(0.9, 0.035, 0.035),
            &metal,
            Transform::from_xyz(0.0, y, z),
        );
    }
    for side in [-1.0f32, 1.0] {
        p.part(
            c,
            tapered_box([0.08, -0.3, 0.3, y], [0.06, -0.22, 0.26, y + 0.16]),
            &frame,
            Transform::from_xyz(side * 0.5, 0.0, 0.0),
        );
    }
    p.part(
        c,
        tapered_box(
            [0.45, -l / 2.0, -l / 2.0 + 0.3, y],
            [0.3, -l / 2.0 + 0.08, -l / 2.0 + 0.3, y + 0.2],
        ),
        &frame,
        Transform::IDENTITY,
    );
    p.part(
        c,
        Cuboid::new(1.0, 0.08, 0.08),
        &black,
        Transform::from_xyz(0.0, y + 0.05, l / 2.0 - 0.02),
    );
    p.part(
        c,
        Cuboid::new(0.25, 0.05, 0.05),
        tail,
        Transform::from_xyz(0.0, y + 0.1, l / 2.0 - 0.02),
    );
    // Seat, engine, steering.
    p.part(
        c,
        Cuboid::new(0.42, 0.06, 0.42),
        &black,
        Transform::from_xyz(0.0, y + 0.06, 0.18),
    );
    p.part(
        c,
        Cuboid::new(0.42, 0.5, 0.06),
        &black,
        Transform::from_xyz(0.0, y + 0.3, 0.42).with_rotation(Quat::from_rotation_x(-0.35)),
    );
    p.part(
        c,
        Cuboid::new(0.2, 0.25, 0.25),
        &metal,
        Transform::from_xyz(0.38, y + 0.16, 0.45),
    );
    let wheel_at = Vec3::new(0.0, y + 0.42, -0.32);
    p.part(
        c,
        Cylinder::new(0.015, 0.45),
        &metal,
        Transform::from_translation(wheel_at - Vec3::new(0.0, 0.16, -0.12)).with_rotation(Quat::from_rotation_x(0.9)),
    );
    p.part(
        c,
        Torus::new(0.13, 0.16),
        &black,
        Transform::from_translation(wheel_at).with_rotation(Quat::from_rotation_x(FRAC_PI_2 - 0.35)),
    );
    // The driver.
    let hips = Vec3::new(0.0, y + 0.2, 0.2);
    p.part(
        c,
        Capsule3d::new(0.16, 0.3),
        &suit,
        Transform::from_translation(hips + Vec3::new(0.0, 0.25, 0.06)).with_rotation(Quat::from_rotation_x(-0.3)),
    );
    for side in [-1.0f32, 1.0] {
        p.part(
            c,
            Capsule3d::new(0.065, 0.45),
            &suit,
            Transform::from_translation(hips + Vec3::new(side * 0.1, -0.02, -0.3))
                .with_rotation(Quat::from_rotation_x(FRAC_PI_2 - 0.1)),
        );
        let shoulder = hips + Vec3::new(side * 0.19, 0.42, 0.1);
        let hand = wheel_at + Vec3::new(side * 0.14, 0.0, 0.02);
        let arm = hand - shoulder;
        p.part(
            c,
            Capsule3d::new(0.05, arm.length() - 0.1),
            &suit,
            Transform::from_translation((hand + shoulder) / 2.0)
                .with_rotation(Quat::from_rotation_arc(Vec3::Y, arm.normalize())),
        );
    }
    let head = hips + Vec3::new(0.0, 0.7, 0.12);
    p.part(c, Sphere::new(0.14), &helmet, Transform::from_translation(head));
    p.part(
        c,
        Cuboid::new(0.2, 0.07, 0.05),
        &visor,
        Transform::from_translation(head + Vec3::new(0.0, 0.01, -0.12)),
    );
}
