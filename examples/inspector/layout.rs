//! The proving ground's physics, without a mesh: every collider with its surface, the
//! dynamic props (cones, crates, the seesaw), the moving platforms and the terrain's
//! shapes. `track.rs` and `terrain.rs` dress these entities for the window; the bench
//! `benches/benches/track.rs` includes this file and steps them bare, so the scene a
//! game-like benchmark measures is the scene a person drives. Depends on nothing that
//! draws (bevy without render, avian, the plugin).
use std::f32::consts::PI;

use avian3d::prelude::*;
use bevy::prelude::*;
use wheelcollider_avian::prelude::{SurfaceMaterial, WheelSurface};

/// The traffic loop's straights run at x = ±`LOOP_X` (m).
pub const LOOP_X: f32 = 40.0;
/// The traffic loop's banked turn is centred at (0, `BANKED_Z`) (m).
pub const BANKED_Z: f32 = -400.0;
/// The traffic loop's flat turn is centred at (0, `NORTH_Z`) (m).
pub const NORTH_Z: f32 = 20.0;
/// The grate over the pit, `[x0, x1, z0, z1]` (m), and its bars' pitch (m).
pub const GRATE: [f32; 4] = [-220.0, -140.0, -200.0, -140.0];
const GRATE_PITCH: f32 = 0.42;

/// A kinematic platform sliding along X around `home`.
#[derive(Component)]
pub struct Slider {
    home: f32,
}

/// Slides each platform ±10 m along X with a 21 s period.
pub fn move_platforms(time: Res<Time>, mut q: Query<(&mut LinearVelocity, &Transform, &Slider)>) {
    for (mut v, t, s) in &mut q {
        let target = s.home + 10.0 * (time.elapsed_secs() * 0.3).sin();
        v.0 = Vec3::new((target - t.translation.x) * 2.0, 0.0, 0.0);
    }
}

/// A ground tile: `x0..x1` × `z0..z1` (m), top at y = 0.
pub struct Tile {
    pub entity: Entity,
    pub rect: [f32; 4],
    pub surface: WheelSurface,
}

/// The ground tiles (none overlap), the pit under the grate and a safety floor far
/// below; the grate's body and its bars (each a 0.3 m square bar, its child) are
/// returned apart.
pub fn ground(commands: &mut Commands) -> (Vec<Tile>, Entity, Vec<Entity>) {
    let tiles = [
        ("asphalt", [-140.0, 140.0, -400.0, 70.0], WheelSurface::ASPHALT),
        ("asphalt west", [-220.0, -140.0, -140.0, 70.0], WheelSurface::ASPHALT),
        ("gravel", [140.0, 220.0, -400.0, -150.0], WheelSurface::GRAVEL),
        ("ice", [-220.0, -140.0, -400.0, -200.0], WheelSurface::ICE),
        ("grass south", [-220.0, 220.0, -480.0, -400.0], WheelSurface::GRASS),
        ("grass north", [-220.0, 220.0, 70.0, 120.0], WheelSurface::GRASS),
    ]
    .map(|(name, rect @ [x0, x1, z0, z1], surface)| {
        let entity = commands
            .spawn((
                Name::new(name),
                RigidBody::Static,
                Collider::cuboid(x1 - x0, 1.0, z1 - z0),
                Transform::from_xyz((x0 + x1) / 2.0, -0.5, (z0 + z1) / 2.0),
                surface,
            ))
            .id();
        Tile { entity, rect, surface }
    });
    // The grate between the west tiles: 0.3 m bars with 0.12 m slots over a pit. Ray
    // wheels drop into the slots; sphere and cylinder wheels roll over.
    let [x0, x1, z0, z1] = GRATE;
    commands.spawn((
        Name::new("pit floor"),
        RigidBody::Static,
        Collider::cuboid(x1 - x0, 1.0, z1 - z0),
        Transform::from_xyz((x0 + x1) / 2.0, -0.9, (z0 + z1) / 2.0),
    ));
    // One static body of steel (one entry in the inspector's surfaces), a collider
    // per bar.
    let grate = commands
        .spawn((
            Name::new("grate"),
            RigidBody::Static,
            Transform::default(),
            WheelSurface {
                material: SurfaceMaterial::Metal,
                ..WheelSurface::ASPHALT
            },
        ))
        .id();
    let mut bars = vec![];
    let mut z = z0 + 0.15;
    while z < z1 {
        bars.push(
            commands
                .spawn((
                    Collider::cuboid(x1 - x0, 0.3, 0.3),
                    Transform::from_xyz((x0 + x1) / 2.0, -0.15, z),
                    ChildOf(grate),
                ))
                .id(),
        );
        z += GRATE_PITCH;
    }
    commands.spawn((
        RigidBody::Static,
        Collider::half_space(Vec3::Y),
        Transform::from_xyz(0.0, -20.0, 0.0),
    ));
    (Vec::from(tiles), grate, bars)
}

/// Kerbs beside the straight's first 60 m: 8 cm high, 0.6 × 2 m; `true` for the red
/// ones (every other).
pub fn kerbs(commands: &mut Commands) -> Vec<(Entity, bool)> {
    let mut out = vec![];
    for i in 0..30 {
        for x in [-7.0, 7.0] {
            let e = commands.spawn((
                RigidBody::Static,
                Collider::cuboid(0.6, 0.08, 2.0),
                Transform::from_xyz(x, 0.04, -2.0 * i as f32 - 10.0),
                WheelSurface::ASPHALT,
            ));
            out.push((e.id(), i % 2 == 0));
        }
    }
    out
}

/// The slalom's twelve cones, dynamic bodies of 3 kg: a cone on a square base.
pub fn cones(commands: &mut Commands) -> Vec<Entity> {
    (0..12)
        .map(|i| {
            commands
                .spawn((
                    Name::new("cone"),
                    RigidBody::Dynamic,
                    Collider::compound(vec![
                        (Vec3::ZERO, Quat::IDENTITY, Collider::cone(0.18, 0.7)),
                        (
                            Vec3::new(0.0, -0.335, 0.0),
                            Quat::IDENTITY,
                            Collider::cuboid(0.4, 0.03, 0.4),
                        ),
                    ]),
                    Mass(3.0),
                    Transform::from_xyz(20.0, 0.351, -40.0 - 12.0 * i as f32),
                ))
                .id()
        })
        .collect()
}

/// Six speed bumps, 8 cm high and 0.6 m deep, 10 m apart.
pub fn bumps(commands: &mut Commands) -> Vec<Entity> {
    (0..6)
        .map(|i| {
            commands
                .spawn((
                    RigidBody::Static,
                    Collider::cuboid(5.0, 0.08, 0.6),
                    Transform::from_xyz(-20.0, 0.04, -30.0 - 10.0 * i as f32),
                ))
                .id()
        })
        .collect()
}

/// A pyramid of ten 0.8 m crates of 25 kg.
pub fn crates(commands: &mut Commands) -> Vec<Entity> {
    let mut out = vec![];
    for i in 0..4 {
        for j in 0..(4 - i) {
            out.push(
                commands
                    .spawn((
                        RigidBody::Dynamic,
                        Collider::cuboid(0.8, 0.8, 0.8),
                        Mass(25.0),
                        Transform::from_xyz(60.0 + j as f32 * 0.85 + i as f32 * 0.42, 0.4 + 0.8 * i as f32, -20.0),
                    ))
                    .id(),
            );
        }
    }
    out
}

/// A static box whose top face is a ramp of `deg` over `length` m rising towards −Z
/// (or +Z for a negative angle), its low end's top edge at height 0 at `z_low`; the box
/// is 5 × 1 × `length` m.
fn ramp(commands: &mut Commands, x: f32, z_low: f32, deg: f32, length: f32) -> Entity {
    let a = deg.to_radians();
    let rot = Quat::from_rotation_x(a);
    let top_mid = Vec3::new(
        x,
        0.5 * length * a.abs().sin(),
        z_low - a.signum() * 0.5 * length * a.cos(),
    );
    commands
        .spawn((
            Name::new("ramp"),
            RigidBody::Static,
            Collider::cuboid(5.0, 1.0, length),
            Transform::from_translation(top_mid - rot * Vec3::Y * 0.5).with_rotation(rot),
        ))
        .id()
}

/// The jump (up 10° over 12 m to 2.08 m, a 10 m gap, down 6° over 20 m) and the 15°
/// slope (20 × 1 × 10 m): the two ramps with their lengths, then the slope.
pub fn jump_and_slope(commands: &mut Commands) -> ([(Entity, f32); 2], Entity) {
    let up = ramp(commands, 100.0, -60.0, 10.0, 12.0);
    let down = ramp(commands, 100.0, -82.0 - 20.0 * 6f32.to_radians().cos(), -6.0, 20.0);
    let slope = commands
        .spawn((
            Name::new("slope 15°"),
            RigidBody::Static,
            Collider::cuboid(20.0, 1.0, 10.0),
            Transform::from_xyz(100.0, 2.1, 20.0).with_rotation(Quat::from_rotation_z(15f32.to_radians())),
        ))
        .id();
    ([(up, 12.0), (down, 20.0)], slope)
}

/// The sliding platform (8 × 0.1 × 8 m), the turntable (radius 6 m, 0.25 rad/s) and the
/// seesaw: a 14 m plank of 500 kg on a hinge 1 m up (avian's revolute joint, which needs
/// its `xpbd_joints` feature), free within ±9°, resting on one end, over a pivot block
/// (3.6 × 0.9 × 0.6 m) whose top is 10 cm under the hinge so that the plank turns clear
/// of it.
pub struct Platforms {
    pub platform: Entity,
    pub turntable: Entity,
    pub pivot: Entity,
    pub seesaw: Entity,
}

/// The seesaw's hinge (m).
pub const HINGE: Vec3 = Vec3::new(70.0, 1.0, -150.0);

pub fn platforms(commands: &mut Commands) -> Platforms {
    let platform = commands
        .spawn((
            Name::new("platform"),
            Slider { home: -100.0 },
            RigidBody::Kinematic,
            Collider::cuboid(8.0, 0.1, 8.0),
            Transform::from_xyz(-100.0, 0.05, -60.0),
        ))
        .id();
    let turntable = commands
        .spawn((
            Name::new("turntable"),
            RigidBody::Kinematic,
            AngularVelocity(Vec3::Y * 0.25),
            Collider::cylinder(6.0, 0.1),
            Transform::from_xyz(-60.0, 0.05, 30.0),
        ))
        .id();
    let pivot = commands
        .spawn((
            RigidBody::Static,
            Collider::cuboid(3.6, 0.9, 0.6),
            Transform::from_translation(HINGE - Vec3::Y * 0.55),
        ))
        .id();
    let seesaw = commands
        .spawn((
            Name::new("seesaw"),
            RigidBody::Dynamic,
            Collider::cuboid(4.0, 0.2, 14.0),
            Mass(500.0),
            Transform::from_translation(HINGE + Vec3::Y * 0.1).with_rotation(Quat::from_rotation_x(-0.15)),
        ))
        .id();
    commands.spawn(
        RevoluteJoint::new(pivot, seesaw)
            .with_hinge_axis(Vec3::X)
            .with_anchor(HINGE)
            .with_angle_limits(-0.16, 0.16),
    );
    Platforms {
        platform,
        turntable,
        pivot,
        seesaw,
    }
}

/// The banked turn's inner and outer radius (m) and its bank angle (°).
pub const BANK: (f32, f32, f32) = (32.0, 48.0, 16.0);

/// The traffic loop's 180° turn, a triangle mesh whose bank rises from 0 to [`BANK`]'s
/// angle over its first and last 20°: the entity, its vertices (rows of 9 across the
/// lane, 73 rows round the turn) and triangles.
pub fn banked_turn(commands: &mut Commands) -> (Entity, Vec<[f32; 3]>, Vec<[u32; 3]>) {
    let (inner, outer, bank) = BANK;
    let (along, across) = (72usize, 8usize);
    let mut positions = Vec::new();
    for i in 0..=along {
        let theta = PI * i as f32 / along as f32;
        let ease = (theta.min(PI - theta) / 20f32.to_radians()).min(1.0);
        let tan = (bank.to_radians() * ease * ease * (3.0 - 2.0 * ease)).tan();
        for j in 0..=across {
            let r = inner + (outer - inner) * j as f32 / across as f32;
            // 1 cm above the grass it lies on, so that the two never tie.
            let y = 0.01 + (r - inner) * tan;
            positions.push([r * theta.cos(), y, BANKED_Z - r * theta.sin()]);
        }
    }
    let mut indices = Vec::new();
    let row = (across + 1) as u32;
    for i in 0..along as u32 {
        for j in 0..across as u32 {
            let (a, b) = (i * row + j, i * row + j + 1);
            let (c, d) = (a + row, b + row);
            // b is outwards of a, c further round: (b − a) × (c − a) points up.
            indices.extend([[a, b, c], [b, d, c]]);
        }
    }
    let collider = Collider::trimesh(positions.iter().map(|p| Vec3::from(*p)).collect(), indices.clone());
    let entity = commands
        .spawn((
            Name::new("banked turn"),
            RigidBody::Static,
            collider,
            WheelSurface::ASPHALT,
        ))
        .id();
    (entity, positions, indices)
}

/// The grass hill's centre (m).
pub const HILL_CENTRE: Vec3 = Vec3::new(180.0, 0.0, -40.0);

/// A grass hill 7 m high on a heightfield whose edges sit at y = 0: the entity and its
/// points in the hill's frame, `nx` along X by `nz` along Z, row by row along Z
/// (`points[j * nx + i]`), and `nx`.
pub fn hill(commands: &mut Commands) -> (Entity, Vec<Vec3>, usize) {
    let (size_x, size_z) = (80.0f32, 220.0f32);
    let (nx, nz) = (41usize, 111usize);
    let height = |x: f32, z: f32| {
        let d = Vec2::new(x / 34.0, z / 50.0).length();
        if d < 1.0 {
            7.0 * (0.5 + 0.5 * (PI * d).cos())
        } else {
            0.0
        }
    };
    // Rows run along X, columns along Z, the field centred on its transform.
    let at = |i: usize, j: usize| {
        let x = (i as f32 / (nx - 1) as f32 - 0.5) * size_x;
        let z = (j as f32 / (nz - 1) as f32 - 0.5) * size_z;
        Vec3::new(x, height(x, z), z)
    };
    let heights: Vec<Vec<f32>> = (0..nx).map(|i| (0..nz).map(|j| at(i, j).y).collect()).collect();
    let points = (0..nz)
        .flat_map(|j| (0..nx).map(move |i| (i, j)))
        .map(|(i, j)| at(i, j))
        .collect();
    let entity = commands
        .spawn((
            Name::new("grass hill"),
            RigidBody::Static,
            Collider::heightfield(heights, Vec3::new(size_x, 1.0, size_z)),
            Transform::from_translation(HILL_CENTRE),
            WheelSurface::GRASS,
        ))
        .id();
    (entity, points, nx)
}

/// Every piece, bare: what the bench steps.
#[allow(dead_code)] // The example dresses the pieces one by one instead.
pub fn spawn_bare(commands: &mut Commands) {
    ground(commands);
    kerbs(commands);
    cones(commands);
    bumps(commands);
    crates(commands);
    jump_and_slope(commands);
    platforms(commands);
    banked_turn(commands);
    hill(commands);
}
