//! A tow vehicle and its trailer in the test world, for the towing tests (`towing`,
//! `articulated`, `sway`; the pair is coupled by `coupled_pair`): holding a speed, reading the hitch, fitting
//! a circle, the kerb-and-heightfield scene.

use crate::common::*;
use avian3d::prelude::*;
use bevy::ecs::message::Messages;
use bevy::prelude::*;
use wheelcollider_avian::prelude::*;

pub fn messages<M: Message + Clone>(app: &App) -> Vec<M> {
    let m = app.world().resource::<Messages<M>>();
    m.iter_current_update_messages().cloned().collect()
}

pub fn telemetry(app: &App, caravan: Entity) -> HitchTelemetry {
    *app.world().get::<HitchTelemetry>(caravan).expect("a coupled trailer")
}

/// A Kåsa circle fit of points in the ground plane: centre (x, z) and radius.
pub fn circle_fit(points: &[Vec2]) -> (Vec2, f32) {
    // x² + z² + a·x + b·z + c = 0, least squares in (a, b, c).
    let mut m = [[0.0f64; 3]; 3];
    let mut r = [0.0f64; 3];
    for p in points {
        let (x, z) = (p.x as f64, p.y as f64);
        let row = [x, z, 1.0];
        let rhs = -(x * x + z * z);
        for i in 0..3 {
            for j in 0..3 {
                m[i][j] += row[i] * row[j];
            }
            r[i] += row[i] * rhs;
        }
    }
    let det = |m: [[f64; 3]; 3]| {
        m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
    };
    let d = det(m);
    let solve = |k: usize| {
        let mut mk = m;
        for i in 0..3 {
            mk[i][k] = r[i];
        }
        det(mk) / d
    };
    let (a, b, c) = (solve(0), solve(1), solve(2));
    let centre = Vec2::new((-a / 2.0) as f32, (-b / 2.0) as f32);
    (centre, ((a * a + b * b) / 4.0 - c).sqrt() as f32)
}

/// Holds the road car near `v` m/s (negative: in reverse) with throttle and brake.
pub fn hold_speed(app: &mut App, car: Entity, v: f32, steer: f32) {
    let forward = velocity(app, car).dot(rotation(app, car) * Vec3::NEG_Z);
    let error = (v - forward) * v.signum();
    set_controls(app, car, |i| {
        i.throttle = (0.4 * error).clamp(0.0, 0.6);
        i.brake = (-0.4 * error).clamp(0.0, 1.0);
        i.steer = steer;
    });
}

/// An app at `hz` with flat ground, a race kerb at x = `kerb_x` 15 m ahead of the origin
/// and a bumpy 40 m heightfield (±12 cm) from 30 m ahead: the terrain the towing pairs
/// cross.
pub fn kerb_and_heightfield(hz: f64, kerb_x: f32) -> App {
    let n = 41;
    let h: Vec<Vec<f32>> = (0..n)
        .map(|i| {
            (0..n)
                .map(|j| 0.06 * ((i as f32 * 0.9).sin() + (j as f32 * 1.3).cos()))
                .collect()
        })
        .collect();
    let mut app = app(hz);
    flat(&mut app, None);
    app.world_mut()
        .spawn((RigidBody::Static, race_kerb(), Transform::from_xyz(kerb_x, 0.0, -15.0)));
    app.world_mut().spawn((
        RigidBody::Static,
        grid_terrain(h, 1.0, false),
        Transform::from_xyz(0.0, 0.0, -50.0),
    ));
    app
}
