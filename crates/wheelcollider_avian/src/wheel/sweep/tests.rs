//! The sweep's unit tests: the ground filter's rule, the mesh ray search against
//! parry's, and the moving-collider grid against a test of every box.
use super::*;
use wheelcollider_testing::Rng;

/// A filter that takes every hit with a positive distance.
const ANYTHING: GroundFilter = GroundFilter {
    up: Vec3::Y,
    min_cos: -1.0,
};

/// What counts as ground: a hit within the angle of the axis, at a positive
/// distance, not from a sweep that started inside; the normal's length does not
/// matter.
#[test]
fn the_ground_filter_takes_ground_and_nothing_else() {
    let filter = GroundFilter {
        up: Vec3::Y,
        min_cos: 60f32.to_radians().cos(),
    };
    let tilted = |deg: f32| Quat::from_rotation_z(deg.to_radians()) * Vec3::Y;
    assert!(filter.accepts(Vec3::Y, 0.2, false));
    assert!(filter.accepts(2.0 * tilted(59.0), 0.2, false));
    assert!(!filter.accepts(tilted(61.0), 0.2, false), "steeper than the limit");
    assert!(!filter.accepts(Vec3::X, 0.2, false), "a wall");
    assert!(!filter.accepts(Vec3::NEG_Y, 0.2, false), "a ceiling");
    assert!(!filter.accepts(Vec3::Y, 0.2, true), "the sweep started inside");
    assert!(!filter.accepts(Vec3::Y, 0.0, false), "no distance travelled");
}

/// A box of `size` at most a side, centred within `spread` across X and Z and 4 m in Y.
fn random_box(rng: &mut Rng, spread: f32, size: f32) -> (Vec3A, Vec3A) {
    let c = Vec3A::new(
        (rng.unit_f32() - 0.5) * spread,
        (rng.unit_f32() - 0.5) * 4.0,
        (rng.unit_f32() - 0.5) * spread,
    );
    let h = Vec3A::new(rng.unit_f32() * size, rng.unit_f32() * size, rng.unit_f32() * size);
    (c - h, c + h)
}

/// The mesh search gives parry's answer: 4 000 rays (wheel rays, short and near
/// vertical, and a quarter long and slanted, some from below) on a bumpy 60 m mesh of
/// 1.5 m cells, turned and moved, against avian's `Collider::cast_ray`: the same
/// distance and normal (to 1e-6; parry's own triangle test decides both) and the
/// same misses; about half of the rays hit (the test prints how many).
#[test]
fn the_mesh_search_finds_what_parry_finds() {
    let (n, cell) = (41, 1.5);
    let height = |i: usize, j: usize| 0.3 * (0.7 * i as f32).sin() * (0.5 * j as f32).cos();
    let mut vertices = Vec::new();
    for i in 0..n {
        for j in 0..n {
            vertices.push(Vec3::new(i as f32 * cell - 30.0, height(i, j), j as f32 * cell - 30.0));
        }
    }
    let mut indices = Vec::new();
    for i in 0..n as u32 - 1 {
        for j in 0..n as u32 - 1 {
            let (a, b) = (i * n as u32 + j, (i + 1) * n as u32 + j);
            indices.push([a, a + 1, b]);
            indices.push([b, a + 1, b + 1]);
        }
    }
    let collider = Collider::trimesh(vertices, indices);
    let mesh = collider.shape_scaled().as_trimesh().expect("a mesh");
    let (position, rotation) = (
        Vec3::new(3.0, -1.0, 2.0),
        Quat::from_rotation_y(0.4) * Quat::from_rotation_x(0.01),
    );
    let mut rng = Rng::new(11);
    let mut hits = 0;
    for k in 0..4_000 {
        let mut at = |spread: f32| (rng.unit_f32() - 0.5) * spread;
        let (origin, direction, reach) = if k % 4 == 3 {
            let d = Vec3::new(at(2.0), at(2.0), at(2.0)).normalize_or(Vec3::NEG_Y);
            (Vec3::new(at(70.0), at(3.0) - 1.0, at(70.0)), d, 20.0)
        } else {
            let d = Vec3::new(at(0.3), -1.0, at(0.3)).normalize();
            (
                Vec3::new(at(64.0), at(0.4) - 0.4, at(64.0)),
                d,
                0.4 + 0.6 * rng.unit_f32(),
            )
        };
        let ours = trimesh_ray(mesh, position, rotation, origin, direction, reach, &ANYTHING);
        let parry = collider.cast_ray(position, rotation, origin, direction, reach, true);
        match (ours, parry) {
            (Some((d, n)), Some((dp, np))) => {
                assert!((d - dp).abs() <= 1e-6, "ray {k}: {d} against {dp}");
                assert!(n.abs_diff_eq(np, 1e-6), "ray {k}: normal {n} against {np}");
                hits += 1;
            }
            (None, None) => {}
            _ => panic!("ray {k} from {origin} along {direction}: {ours:?} against {parry:?}"),
        }
    }
    println!("measured: {hits} of 4 000 rays hit");
    assert!((1_500..3_900).contains(&hits), "{hits} of 4 000 rays hit");
}

/// Every box tested, written out: not the chassis' (on it, or the body's own
/// collider) and overlapping or touching.
fn brute(all: &[GridEntry], min: Vec3A, max: Vec3A, chassis: Entity) -> bool {
    all.iter().any(|e| {
        let own = e.body == Some(chassis) || e.collider == chassis;
        let apart = (0..3).any(|k| e.min[k] > max[k] || e.max[k] < min[k]);
        !own && !apart
    })
}

/// The grid's answer is the brute-force answer over every box: 600 colliders of mixed
/// sizes (cars, bricks, and platforms that span more than 16 cells), one of them not
/// finite, each body with two colliders (some on the body's entity itself); 5 000 query
/// boxes of wheel-sweep size, each excluding one body's own colliders: a third around
/// a collider of the body asking, a third touching a box's face, a third anywhere. Fails if a bucket misses
/// a cell, the large list is skipped, the own test is wrong or touching boxes do not
/// count (checked by breaking each).
#[test]
fn the_grid_answers_like_a_test_of_every_box() {
    let mut rng = Rng::new(7);
    let mut all = Vec::new();
    for i in 0..600u32 {
        let size = match i % 10 {
            0 => 0.2,
            9 => 40.0,
            _ => 2.5,
        };
        let (min, max) = random_box(&mut rng, 200.0, size);
        let body = Entity::from_raw_u32(i / 2 + 1).expect("valid index");
        // Every seventh is a body's own collider on its entity, without a body.
        let own = i % 7 == 0;
        all.push(GridEntry {
            min,
            max,
            collider: if own {
                body
            } else {
                Entity::from_raw_u32(10_000 + i).expect("valid index")
            },
            body: (!own).then_some(body),
        });
    }
    all[5].max.x = f32::NAN;
    let mut grid = MovingGrid::default();
    grid.rebuild(all.iter().copied());
    assert!(!grid.large.is_empty(), "the platforms cover more than 16 cells");
    let (mut hits, mut asked_trees) = (0, 0);
    for q in 0..5_000u32 {
        let (min, max, chassis) = match q % 3 {
            // Around a collider's own box, as a chassis' wheels are, for its body.
            0 => {
                let e = all[(q as usize / 3) % all.len()];
                let grow = Vec3A::splat(0.5 * rng.unit_f32());
                (e.min - grow, e.max + grow, e.body.unwrap_or(e.collider))
            }
            // Touching a box at its +X face.
            1 => {
                let e = all[(q as usize / 3 * 7 + 1) % all.len()];
                let min = Vec3A::new(e.max.x, e.min.y, e.min.z);
                let size = Vec3A::new(rng.unit_f32(), rng.unit_f32(), rng.unit_f32()) * 2.0;
                (min, min + size, Entity::from_raw_u32(q % 300 + 1).expect("valid index"))
            }
            _ => {
                let (min, max) = random_box(&mut rng, 220.0, 2.0);
                (min, max, Entity::from_raw_u32(q % 300 + 1).expect("valid index"))
            }
        };
        let expected = brute(&all, min, max, chassis);
        match grid.any_in(
            ColliderAabb {
                min: min.into(),
                max: max.into(),
            },
            chassis,
        ) {
            Some(answer) => assert_eq!(answer, expected, "query {q}: {min} .. {max}"),
            None => asked_trees += 1,
        }
        hits += expected as usize;
    }
    // Both answers occur often, and the grid answers the queries of wheel-sweep size
    // itself (those around a platform are larger: the trees answer them).
    assert!((1_000..4_800).contains(&hits), "{hits} of 5 000 queries touch a box");
    assert!(asked_trees < 250, "{asked_trees} queries fell back to the trees");
    // A disabled grid leaves every answer to the trees.
    grid.disable();
    assert_eq!(
        grid.any_in(ColliderAabb::new(Vec3::ZERO, Vec3::ONE), Entity::PLACEHOLDER),
        None
    );
    // An empty scene: nothing moves.
    grid.rebuild(core::iter::empty());
    assert_eq!(
        grid.any_in(ColliderAabb::new(Vec3::ZERO, Vec3::ONE), Entity::PLACEHOLDER),
        Some(false)
    );
}
