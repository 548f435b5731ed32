//! Holes and curbs: what the three sweep shapes see.
use crate::common;
use avian3d::prelude::*;
use bevy::prelude::*;
use common::*;
use wheelcollider_avian::prelude::*;

/// A chassis held in place (kinematic) with its front axle over a 0.15 m slot: the ray
/// falls in, the sphere and the cylinder (radius 0.3) bridge it.
#[test]
fn ray_drops_into_a_slot_sphere_and_cylinder_bridge_it() {
    for sweep in [SweepType::Ray, SweepType::Sphere, SweepType::Cylinder] {
        let mut app = app(60.0);
        // Two slabs with a 0.15 m gap under z = -1.4 (the front axle).
        let gap = 0.15;
        for (z0, z1) in [(-50.0f32, -1.4 - gap / 2.0), (-1.4 + gap / 2.0, 50.0)] {
            app.world_mut().spawn((
                RigidBody::Static,
                Collider::cuboid(20.0, 1.0, z1 - z0),
                Transform::from_xyz(0.0, -0.5, (z0 + z1) / 2.0),
            ));
        }
        let mut wheel = WheelCollider::default();
        wheel.set_sweep_type(sweep);
        let (chassis, wheels) = spawn_car(&mut app, Transform::from_xyz(0.0, TOUCH_HEIGHT - 0.05, 0.0), wheel);
        app.world_mut().entity_mut(chassis).insert(RigidBody::Kinematic);
        run(&mut app, 3);
        let front = output(&app, wheels[0]);
        let rear = output(&app, wheels[2]);
        assert!(rear.grounded());
        assert!(
            (rear.output.compression - 0.05).abs() < 1e-3,
            "{sweep:?} rear {}",
            rear.output.compression
        );
        match sweep {
            SweepType::Ray => assert!(!front.grounded(), "the ray fell into the slot"),
            _ => {
                assert!(front.grounded(), "{sweep:?} bridges the slot");
                // Over the gap the tyre rests on both edges: a circle of radius 0.3 on
                // edges 0.15 apart sits 0.3 − √(0.3² − 0.075²) = 9.5 mm lower.
                let sink = 0.3 - (0.3f32 * 0.3 - 0.075 * 0.075).sqrt();
                let c = front.output.compression;
                assert!(
                    (c - (0.05 - sink)).abs() < 1e-3,
                    "{sweep:?} front compression {c} vs {}",
                    0.05 - sink
                );
            }
        }
    }
}

/// A low curb (5 cm) whose edge is 0.13 m to the side of the wheel centre: the
/// straight 0.2 m wide cylinder misses it, the same cylinder steered 30° meets it with
/// its edge (its footprint reaches 0.17 m sideways), and the ray never sees it.
#[test]
fn steered_cylinder_meets_a_curb_with_its_edge() {
    let run_case = |sweep: SweepType, steer: f32| {
        let mut app = app(60.0);
        spawn_ground(&mut app, Quat::IDENTITY);
        // Curb right of the front-left wheel (x = -0.8): from x = -0.67 on.
        let curb = app
            .world_mut()
            .spawn((
                RigidBody::Static,
                Collider::cuboid(0.5, 0.05, 20.0),
                Transform::from_xyz(-0.67 + 0.25, 0.025, 0.0),
            ))
            .id();
        let mut wheel = WheelCollider::default();
        wheel.set_sweep_type(sweep);
        let (chassis, wheels) = spawn_car(&mut app, Transform::from_xyz(0.0, TOUCH_HEIGHT - 0.02, 0.0), wheel);
        app.world_mut().entity_mut(chassis).insert(RigidBody::Kinematic);
        set_input(
            &mut app,
            &wheels[..1],
            WheelInput {
                steer_angle: steer,
                ..Default::default()
            },
        );
        run(&mut app, 3);
        let s = output(&app, wheels[0]);
        (s.hit.map(|h| h.entity == curb), s.output.compression)
    };
    let (on_curb, straight) = run_case(SweepType::Cylinder, 0.0);
    assert_eq!(on_curb, Some(false));
    assert!((straight - 0.02).abs() < 1e-3, "straight {straight}");
    let (on_curb, steered) = run_case(SweepType::Cylinder, 30.0);
    assert_eq!(on_curb, Some(true), "the steered cylinder's rim rests on the curb");
    assert!(steered > straight + 0.01, "compression {steered} vs {straight}");
    let (on_curb, _) = run_case(SweepType::Ray, 30.0);
    assert_eq!(on_curb, Some(false));
}

/// Every sweep measures the ground to 0.1 mm whatever its size: shape casts against a
/// 400 m box are refined (parry alone is 2–5 cm off there), and match the half-space.
#[test]
fn sweeps_measure_the_ground_exactly_on_any_ground_size() {
    for (name, collider, y) in [
        ("400 m box", Collider::cuboid(400.0, 2.0, 400.0), -1.0),
        ("40 m box", Collider::cuboid(40.0, 2.0, 40.0), -1.0),
        ("4 m box", Collider::cuboid(4.0, 2.0, 4.0), -1.0),
        ("half-space", Collider::half_space(Vec3::Y), 0.0),
    ] {
        for sweep in [SweepType::Ray, SweepType::Sphere, SweepType::Cylinder] {
            let mut app = app(60.0);
            app.world_mut()
                .spawn((RigidBody::Static, collider.clone(), Transform::from_xyz(0.0, y, 0.0)));
            let mut wheel = WheelCollider::default();
            wheel.set_sweep_type(sweep);
            let (chassis, wheels) = spawn_car(&mut app, Transform::from_xyz(0.0, TOUCH_HEIGHT - 0.02, 0.0), wheel);
            app.world_mut().entity_mut(chassis).insert(RigidBody::Kinematic);
            run(&mut app, 3);
            let c = output(&app, wheels[0]).output.compression;
            assert!((c - 0.02).abs() < 1e-4, "{name}, {sweep:?}: compression {c} vs 0.02");
        }
    }
}
