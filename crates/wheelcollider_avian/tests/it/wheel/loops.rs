//! A loop-the-loop: a 30 m triangle mesh circle the cars drive round at 44 m/s, on their
//! bump stops from the entry (6.3 g).
//!
//! It found two faults, both fixed:
//! - **The bump stop sank on the curve.** It reached full travel by the bodies' speed
//!   alone, while the ground rose into the wheel every step (the loop's curve, and the
//!   ground ahead of a front wheel tilted towards it); the push-out, capped at 0.5 m/s,
//!   fell behind. The wheels sat 5–18 cm past their stops, the chassis scraped the loop
//!   and every car fell near the top (the road car reached the top at 7–12 m/s, where it
//!   needs 17). The stop now leaves room for the ground's rise once it has lasted 40 ms
//!   (`SuspensionRow::ground_rise`).
//! - **The chassis' swept contact added energy.** A linear sweep of the chassis, turning
//!   with the loop, met the loop ahead of it every step; avian then held the body back
//!   at the time of impact and kept its velocity. The road car left the loop at 58 m/s
//!   where it could have had 38. `spawn_vehicle` now sweeps with the rotation.
//!
//! Covered: the road car and the GT86 at 60, 120 and 240 Hz, the rally car at 120 and
//! 240 Hz, every sweep. Not covered, and said in `docs/reliability.md`: at 30 Hz every
//! car, and the rally car at 60 Hz, sink past their stops on the climb, scrape and fall
//! (an entry eased in over 20 or 40 m changes nothing); the kart (a 10 m loop at
//! 26 m/s, 7.9 g) rattles on its 6 cm of travel, front and rear axle in turn each step,
//! and falls at every rate with every sweep but the cylinder at 120 and 240 Hz.
use crate::common;
use avian3d::prelude::*;
use bevy::prelude::*;
use common::*;
use std::f32::consts::TAU;
use wheelcollider_avian::prelude::*;

/// Where the loop stops: 0.6 rad short of a full turn, so that the way in passes under
/// its end (5 m up for the 30 m loop) instead of meeting it.
const END: f32 = TAU - 0.6;

/// A loop of radius `r` (m) entered at the origin going −Z, 20 m wide, 256 segments,
/// its centre at height `r`; `FIX_INTERNAL_EDGES` so that the chassis does not catch on
/// the segments' inner edges.
fn loop_mesh(r: f32) -> Collider {
    let (n, half_width) = (256u32, 10.0);
    let mut points = vec![];
    for i in 0..=n {
        let t = i as f32 / n as f32 * END;
        let (y, z) = (r - r * t.cos(), -r * t.sin());
        points.push(Vec3::new(-half_width, y, z));
        points.push(Vec3::new(half_width, y, z));
    }
    let triangles = (0..n)
        .flat_map(|i| [[2 * i, 2 * i + 1, 2 * i + 2], [2 * i + 1, 2 * i + 3, 2 * i + 2]])
        .collect();
    Collider::trimesh_with_config(points, triangles, TrimeshFlags::FIX_INTERNAL_EDGES)
}

/// How one car went round.
struct Lap {
    /// How far round the loop it got (rad), measured about the loop's axis from the entry.
    turned: f32,
    /// Whether its centre came more than 1.5 m off the loop's surface.
    fell: bool,
    /// The smallest cosine between its up axis and the loop's inward normal.
    upright: f32,
    /// Its energy at the end over its energy at the launch.
    kept: f32,
}

/// `name` with `sweep` wheels launched at `v0` (m/s) 30 m before a loop of radius `r`,
/// stepped until it has turned [`END`] less 0.1 rad round it, or for 10 s.
fn lap(name: &str, sweep: SweepType, hz: f64, r: f32, v0: f32) -> Lap {
    let settings = preset_with(name, sweep);
    let mut app = app(hz);
    flat(&mut app, None);
    let entry = -30.0;
    app.world_mut()
        .spawn((RigidBody::Static, loop_mesh(r), Transform::from_xyz(0.0, 0.0, entry)));
    let (car, _, e0) = settled_and_launched(&mut app, &settings, hz, v0);
    let (mut turned, mut last, mut fell, mut upright) = (0.0f32, 0.0f32, false, 1.0f32);
    for _ in 0..steps(10.0, hz) {
        app.update();
        assert_sane(&app, car);
        let p = position(&app, car);
        let (dy, dz) = (p.y - r, p.z - entry);
        let angle = (-dz).atan2(-dy);
        let step = (angle - last + TAU / 2.0).rem_euclid(TAU) - TAU / 2.0;
        last = angle;
        if dz < 0.0 || turned > 0.0 {
            turned += step;
        }
        if turned > 0.3 {
            let inward = Vec3::new(0.0, -dy, -dz).normalize();
            upright = upright.min((rotation(&app, car) * Vec3::Y).dot(inward));
            fell |= (dy * dy + dz * dz).sqrt() < r - 1.5;
        }
        if turned > END - 0.1 || fell {
            break;
        }
    }
    Lap {
        turned,
        fell,
        upright,
        kept: energy(&app, car) / e0,
    }
}

/// Launched at 44 m/s: at 43 the road car had 0.5–1 m/s of margin (it fell at 42.0 with
/// its sphere wheels at 60 Hz), which the tyres' pressure rising with their heat under
/// 3–8 g took away (`docs/tyre-thermal.md`).
///
/// Round the loop at each of `rates`, upright, with no energy gained (1 % allowed) and at
/// most 35 % lost. Drag and rolling resistance under 3–8 times the weight, and at 60 Hz
/// the chassis' scrape at the entry, leave the road car 72–86 % of its energy, the GT86
/// 76–90 %, the rally car 70–74 %.
fn goes_round(name: &str, rates: &[f64]) {
    for sweep in SWEEPS {
        for &hz in rates {
            let l = lap(name, sweep, hz, 30.0, 44.0);
            let what = format!("{name} {sweep:?} {hz} Hz");
            println!(
                "{what}: turned {:.2} rad, upright {:.3}, energy kept {:.3}",
                l.turned, l.upright, l.kept
            );
            assert!(!l.fell && l.turned > END - 0.1, "{what}: fell at {:.2} rad", l.turned);
            assert!(l.upright > 0.95, "{what}: tipped to {:.3}", l.upright);
            assert!(l.kept < 1.01, "{what}: energy rose by {:.1} %", 100.0 * (l.kept - 1.0));
            assert!(l.kept > 0.65, "{what}: kept {:.1} % of its energy", 100.0 * l.kept);
        }
    }
}

#[test]
fn the_road_car_goes_round_a_loop() {
    goes_round("road", &[60.0, 120.0, 240.0]);
}

#[test]
fn the_gt86_and_the_rally_car_go_round_a_loop() {
    goes_round("gt86", &[60.0, 120.0, 240.0]);
    goes_round("rally", &[120.0, 240.0]);
}
