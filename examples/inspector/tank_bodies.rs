//! A tracked vehicle's body, sized from the preset like the cars': the hull between the
//! belts, a turret with its gun (a tank) or a cupola with a machine gun (a carrier), and
//! each belt drawn around its road wheels (its ground run under them, its return run
//! above, the sprocket and the idler at the ends) with side skirts over the upper run.
//! The belts' links move: [`move_belts`] carries each side's links round its belt by
//! the distance that side's road wheels' surfaces travelled.
use std::f32::consts::{FRAC_PI_2, PI};

use bevy::prelude::*;
use wheelcollider::prelude::*;

use crate::car_bodies::Painter;
use crate::car_visuals::ground_y;

/// The belts' thickness (m), drawn; the model's road wheels roll on the ground.
const BELT: f32 = 0.08;

/// What sits on the deck.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Deck {
    /// A turret a little ahead of the middle, its long gun forward (a tank).
    Turret,
    /// A commander's cupola with a machine gun at the front left (a carrier).
    Cupola,
}

/// A tracked vehicle: an olive hull (a darker shade for `livery` 1) with `deck_kind` on
/// it, dark belts with moving links, rear lamps.
pub fn tank(
    c: &mut ChildSpawnerCommands,
    p: &mut Painter,
    settings: &VehicleSettings,
    livery: usize,
    tail: &Handle<StandardMaterial>,
    deck_kind: Deck,
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
    let path = BeltPath::new(front, rear, r, g);
    let pitch = settings.tracks.as_ref().map_or(0.15, |t| t.link_pitch).max(0.05);
    // Every other link drawn: at a tank's pitch each one would blur into the belt.
    let count = (path.total / (2.0 * pitch)).floor().max(4.0) as usize;
    let link = p.meshes.add(Cuboid::new(width + 0.01, BELT + 0.03, 0.06));
    let body = c.target_entity();
    c.commands().entity(body).insert(path.clone());
    for x in [-half, half] {
        for k in 0..count {
            let s0 = k as f32 * path.total / count as f32;
            c.spawn((
                Mesh3d(link.clone()),
                MeshMaterial3d(steel.clone()),
                path.transform(x, s0),
                BeltLink { x, s0 },
            ));
        }
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
        for (z, name_r) in [path.idler, path.sprocket].map(|(z, radius)| (z, radius - BELT / 2.0)) {
            p.part(
                c,
                Cylinder::new(name_r + BELT, width),
                &belt,
                Transform::from_xyz(x, path.hub, z).with_rotation(Quat::from_rotation_z(FRAC_PI_2)),
            );
            p.part(
                c,
                Cylinder::new(name_r * 0.6, width + 0.02),
                &steel,
                Transform::from_xyz(x, path.hub, z).with_rotation(Quat::from_rotation_z(FRAC_PI_2)),
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
    match deck_kind {
        Deck::Turret => turret(c, p, [&paint, &steel], [w, h, l], deck),
        Deck::Cupola => {
            // The cupola over the commander at the front left, its machine gun forward.
            let (cx, cz) = (-0.25 * w, -0.2 * l);
            p.part(
                c,
                Cylinder::new(0.35, 0.3),
                &paint,
                Transform::from_xyz(cx, deck + 0.15, cz),
            );
            p.part(
                c,
                Cylinder::new(0.03, 1.4),
                &steel,
                Transform::from_xyz(cx, deck + 0.38, cz - 0.6).with_rotation(Quat::from_rotation_x(FRAC_PI_2)),
            );
        }
    }
    for x in [-0.35 * inner, 0.35 * inner] {
        p.part(
            c,
            Cuboid::new(0.18, 0.08, 0.03),
            tail,
            Transform::from_xyz(x, deck - 0.15, l / 2.0 + 0.01),
        );
    }
}

/// The turret a little ahead of the middle of a hull `[w, h, l]` (m) whose deck is at
/// `deck`, its gun forward; `[paint, steel]` its materials.
fn turret(
    c: &mut ChildSpawnerCommands,
    p: &mut Painter,
    [paint, steel]: [&Handle<StandardMaterial>; 2],
    [w, h, l]: [f32; 3],
    deck: f32,
) {
    // The turret a little ahead of the middle, its gun forward.
    let turret = (0.62 * w, (h / 2.0 - deck).max(0.5), 0.42 * l);
    let tz = -0.05 * l;
    p.part(
        c,
        Cuboid::new(turret.0, turret.1, turret.2),
        paint,
        Transform::from_xyz(0.0, deck + turret.1 / 2.0, tz),
    );
    let gun = 0.7 * l;
    p.part(
        c,
        Cylinder::new(0.08, gun),
        steel,
        Transform::from_xyz(0.0, deck + turret.1 * 0.55, tz - turret.2 / 2.0 - gun / 2.0 + 0.3)
            .with_rotation(Quat::from_rotation_x(FRAC_PI_2)),
    );
}

/// The closed path a belt's links follow in the body's frame, seen from the side as
/// (z, y): from the front of the ground run rearwards under the road wheels, up round
/// the sprocket at the rear, forwards along the return run over them and down round
/// the idler at the front. A link at distance `s` along it moves rearwards on the
/// ground run as the belt drives forwards.
#[derive(Component, Clone, Debug)]
pub struct BeltPath {
    /// The path's corners, (z, y), closed (the last joins the first).
    points: Vec<Vec2>,
    /// The distance along the path to each corner (m).
    at: Vec<f32>,
    /// The path's length (m).
    total: f32,
    /// The idler's z and the belt's radius round it (m).
    idler: (f32, f32),
    /// The sprocket's z and the belt's radius round it (m).
    sprocket: (f32, f32),
    /// The idler's and sprocket's hub height (m).
    hub: f32,
}

impl BeltPath {
    /// The path round road wheels of radius `r` from `front` to `rear` (z, m) on ground
    /// at height `g`.
    fn new(front: f32, rear: f32, r: f32, g: f32) -> Self {
        let centre = g + r;
        let hub = centre + 0.1;
        let idler = (front - 1.2 * r, 0.8 * r + BELT / 2.0);
        let sprocket = (rear + 1.2 * r, 0.9 * r + BELT / 2.0);
        let (low, high) = (g + BELT / 2.0, centre + r + BELT / 2.0);
        let mut points = vec![Vec2::new(front - 0.3 * r, low), Vec2::new(rear + 0.3 * r, low)];
        // Half a turn round each end: up round the sprocket, down round the idler.
        let arc = |points: &mut Vec<Vec2>, (z, radius): (f32, f32), from: f32, to: f32| {
            for k in 0..=8 {
                let a = from + (to - from) * k as f32 / 8.0;
                points.push(Vec2::new(z + radius * a.cos(), hub + radius * a.sin()));
            }
        };
        arc(&mut points, sprocket, -FRAC_PI_2, FRAC_PI_2);
        points.push(Vec2::new(rear, high));
        points.push(Vec2::new(front, high));
        arc(&mut points, idler, FRAC_PI_2, PI + FRAC_PI_2);
        let mut at = vec![0.0];
        for k in 1..=points.len() {
            let d = points[k % points.len()].distance(points[k - 1]);
            at.push(at[k - 1] + d);
        }
        let total = at.pop().unwrap_or(1.0).max(1e-3);
        Self {
            points,
            at,
            total,
            idler,
            sprocket,
            hub,
        }
    }

    /// A link's transform at distance `s` (m, any: it wraps) along the path, on the
    /// belt at `x`: across the belt, its long side along the path.
    fn transform(&self, x: f32, s: f32) -> Transform {
        let s = s.rem_euclid(self.total);
        let k = self.at.partition_point(|&a| a <= s).clamp(1, self.points.len()) - 1;
        let (a, b) = (self.points[k], self.points[(k + 1) % self.points.len()]);
        let d = b - a;
        let t = ((s - self.at[k]) / d.length().max(1e-6)).clamp(0.0, 1.0);
        let p = a + d * t;
        Transform::from_xyz(x, p.y, p.x).with_rotation(Quat::from_rotation_x((-d.y).atan2(d.x)))
    }
}

/// One link of a belt: the belt's side (x, m) and where on the path it started (m).
#[derive(Component)]
pub struct BeltLink {
    x: f32,
    s0: f32,
}

/// Moves each tracked vehicle's links round its belts by the distance that side's road
/// wheels' surfaces travelled this frame (their mean spin times their radius).
pub fn move_belts(
    time: Res<Time>,
    cars: Query<(&Vehicle, &ChassisWheels)>,
    wheels: Query<(&VehicleWheel, &WheelOutput, &WheelCollider)>,
    bodies: Query<(&BeltPath, &ChildOf)>,
    mut links: Query<(&BeltLink, &ChildOf, &mut Transform)>,
    mut travel: Local<std::collections::HashMap<Entity, [f32; 2]>>,
) {
    let dt = time.delta_secs();
    let mut seen = Vec::new();
    for (link, body, mut transform) in &mut links {
        let Ok((path, car)) = bodies.get(body.parent()) else {
            continue;
        };
        let car = car.parent();
        if !seen.contains(&car) {
            seen.push(car);
            let Ok((vehicle, chassis_wheels)) = cars.get(car) else {
                continue;
            };
            let mut sum = [(0.0f32, 0u32); 2];
            for (place, out, collider) in chassis_wheels.wheels().iter().filter_map(|&w| wheels.get(w).ok()) {
                let side = &mut sum[place.right as usize];
                *side = (side.0 + out.output.angular_velocity * collider.radius(), side.1 + 1);
            }
            let moved = travel.entry(car).or_default();
            if vehicle.0.tracks.is_some() {
                for (t, (v, n)) in moved.iter_mut().zip(sum) {
                    *t = (*t + v / n.max(1) as f32 * dt).rem_euclid(path.total);
                }
            }
        }
        let moved = travel.get(&car).copied().unwrap_or_default();
        *transform = path.transform(link.x, link.s0 + moved[(link.x > 0.0) as usize]);
    }
    travel.retain(|car, _| seen.contains(car));
}
