//! A flat floor made of triangles rides like a plane: the record of why the wall test
//! once failed with relaxation on and the guard that it cannot again.
use crate::common;
use avian3d::prelude::*;
use bevy::prelude::*;
use common::*;
use wheelcollider_avian::prelude::*;

fn set_controls(app: &mut App, car: Entity, f: impl Fn(&mut VehicleInput)) {
    f(&mut app.world_mut().get_mut::<VehicleInput>(car).unwrap());
}

/// A floor as one triangle mesh, its two triangles meeting on the line x = z (or
/// x = −z with `anti`), with a wall at `wall` (x of its face) or none.
fn floor_mesh(anti: bool, wall: Option<f32>) -> Collider {
    let v = |x: f32, y: f32, z: f32| Vec3::new(x, y, z);
    let mut vertices = vec![
        v(-200.0, 0.0, -200.0),
        v(200.0, 0.0, -200.0),
        v(200.0, 0.0, 200.0),
        v(-200.0, 0.0, 200.0),
    ];
    let mut triangles = if anti {
        vec![[1, 0, 3], [1, 3, 2]]
    } else {
        vec![[0, 2, 1], [0, 3, 2]]
    };
    if let Some(x) = wall {
        vertices.extend([v(x, 0.0, -200.0), v(x, 0.0, 200.0), v(x, 3.0, 200.0), v(x, 3.0, -200.0)]);
        triangles.extend([[4, 5, 6], [4, 6, 7]]);
    }
    Collider::trimesh(vertices, triangles)
}

/// Where the floor is a triangle mesh, cylinder and sphere wheels ride exactly as on a
/// plane, in the motions the wall test drives and slower ones: parked, crawling at
/// 0.5 m/s at full lock (the wheels cross the mesh's internal edge at every angle), and
/// a quarter-throttle pull-away; the floor cut both ways, with and without a wall in
/// the same mesh. Height within 0.1 mm and roll within 0.01° of the plane's, step for
/// step, every preset as shipped (relaxation on) at 60 Hz; measured within 2 µm on the
/// cars. The tractor's within 0.2 mm: on its beam axles' 0.65 m roll centres the
/// links' jacking carries about 0.65 of the full-lock scrub's lateral force into heave,
/// and the last bits by which the mesh's contacts differ from the plane's grow to
/// 0.107 mm over the 12 s (within 2 µm on its old 0.08–0.10 m roll centres; its roll
/// within 0.002°).
///
/// A finding kept as this test: the wall test failed with relaxation
/// on (cylinder wheels 5.3 mm higher, rolled 0.4–0.9°, where they crossed the internal
/// diagonal) because the cylinder was cast with parry's GJK-based shape cast, which
/// stops up to a centimetre short of a triangle near its edges. The closed-form casts
/// (`sweep/triangle_cast.rs`) are exact: a level cylinder's support point lies on both
/// triangles of a flat cut at the same time, with the face's normal. With the cylinder
/// sent back through parry's cast, this test reads 0.89 mm and 0.031° on the road car,
/// and the wall test fails (the kart 5.9 mm higher, rolled 0.47°, relaxation on): the
/// issue's signature. No edge is read as ground on this code, so no active-edge rule
/// is needed for flat meshes.
#[test]
fn a_mesh_floor_rides_like_a_plane_at_a_crawl() {
    for name in PRESETS {
        for sweep in [SweepType::Cylinder, SweepType::Sphere] {
            let settings = preset_with(name, sweep);
            for (anti, wall) in [
                (false, None),
                (true, None),
                (false, Some(-0.5 * settings.chassis.size[0] - 0.1)),
            ] {
                let make = |mesh: bool| {
                    let mut app = app(60.0);
                    if mesh {
                        app.world_mut().spawn((RigidBody::Static, floor_mesh(anti, wall)));
                    } else {
                        flat(&mut app, None);
                    }
                    let car = spawn_preset_car(
                        &mut app,
                        &settings,
                        Transform::from_xyz(0.0, settings.touch_height(), 0.0),
                    );
                    (app, car)
                };
                let (mut a, car_a) = make(true);
                let (mut b, car_b) = make(false);
                let (mut worst_h, mut worst_roll) = (0.0f32, 0.0f32);
                for i in 0..steps(12.0, 60.0) {
                    for (app, car) in [(&mut a, car_a), (&mut b, car_b)] {
                        let speed = velocity(app, car).length();
                        set_controls(app, car, |c| match i {
                            i if i < 120 => (c.brake, c.handbrake) = (1.0, 1.0),
                            i if i < 480 => {
                                // Full lock away from the wall (+1 turns left, towards it).
                                (c.brake, c.handbrake, c.steer) = (0.0, 0.0, -1.0);
                                c.throttle = ((0.5 - speed) * 0.5).clamp(0.0, 1.0);
                            }
                            _ => (c.steer, c.throttle) = (0.0, 0.25),
                        });
                        app.update();
                    }
                    let (pa, pb) = (position(&a, car_a), position(&b, car_b));
                    let roll = |app: &App, car| (rotation(app, car) * Vec3::Y).dot(Vec3::X).asin();
                    worst_h = worst_h.max((pa.y - pb.y).abs());
                    worst_roll = worst_roll.max((roll(&a, car_a) - roll(&b, car_b)).abs().to_degrees());
                }
                eprintln!(
                    "measured: {name} {sweep:?} cut {} wall {}: height within {:.4} mm, roll {:.5}°",
                    if anti { "x = −z" } else { "x = z" },
                    wall.is_some(),
                    worst_h * 1000.0,
                    worst_roll
                );
                let height = if name == "tractor" { 2e-4 } else { 1e-4 };
                assert!(
                    worst_h < height && worst_roll < 0.01,
                    "{name} {sweep:?}: {worst_h} m, {worst_roll}°"
                );
            }
        }
    }
}
