//! The track's generated terrain: the traffic loop's banked turn (a triangle mesh) and
//! the grass hill (a heightfield), each drawn from the same points its collider uses.
use std::f32::consts::PI;

use avian3d::prelude::*;
use bevy::light::NotShadowCaster;
use bevy::mesh::{Indices, PrimitiveTopology};
use bevy::prelude::*;
use wheelcollider::prelude::*;

use crate::textures::{Ground, TILE};
use crate::track::{BANKED_Z, Kit, label};

/// The banked turn's inner and outer radius (m) and its bank angle (°).
const BANK: (f32, f32, f32) = (32.0, 48.0, 16.0);

/// The traffic loop's 180° turn: a triangle mesh whose bank rises from 0 to
/// [`BANK`]'s angle over its first and last 20°.
pub fn banked_turn(commands: &mut Commands, kit: &mut Kit) {
    let (inner, outer, bank) = BANK;
    let (along, across) = (72usize, 8usize);
    let mut positions = Vec::new();
    let mut uvs = Vec::new();
    for i in 0..=along {
        let theta = PI * i as f32 / along as f32;
        let ease = (theta.min(PI - theta) / 20f32.to_radians()).min(1.0);
        let tan = (bank.to_radians() * ease * ease * (3.0 - 2.0 * ease)).tan();
        for j in 0..=across {
            let r = inner + (outer - inner) * j as f32 / across as f32;
            // 1 cm above the grass it lies on, so that the two never tie.
            let y = 0.01 + (r - inner) * tan;
            positions.push([r * theta.cos(), y, BANKED_Z - r * theta.sin()]);
            uvs.push([r / TILE, theta * 40.0 / TILE]);
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
    let mesh = Mesh::new(PrimitiveTopology::TriangleList, default())
        .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, positions)
        .with_inserted_attribute(Mesh::ATTRIBUTE_UV_0, uvs)
        .with_inserted_indices(Indices::U32(indices.into_iter().flatten().collect()))
        .with_computed_smooth_normals();
    let material = kit.ground(Ground::Asphalt, TILE, TILE);
    commands.spawn((
        Name::new("banked turn"),
        RigidBody::Static,
        collider,
        Mesh3d(kit.meshes.add(mesh)),
        MeshMaterial3d(material),
        WheelSurface::ASPHALT,
        NotShadowCaster,
    ));
    label(commands, "banked turn 16°", Vec3::new(0.0, 6.0, BANKED_Z - outer));
}

/// A grass hill 7 m high on a heightfield whose edges sit at y = 0.
pub fn hill(commands: &mut Commands, kit: &mut Kit) {
    let (size_x, size_z, centre) = (80.0f32, 220.0f32, Vec3::new(180.0, 0.0, -40.0));
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
    let mut positions = Vec::new();
    let mut uvs = Vec::new();
    for j in 0..nz {
        for i in 0..nx {
            let p = at(i, j);
            positions.push(p.to_array());
            uvs.push([p.x / TILE, p.z / TILE]);
        }
    }
    let mut indices = Vec::new();
    for j in 0..nz as u32 - 1 {
        for i in 0..nx as u32 - 1 {
            let a = j * nx as u32 + i;
            let (b, c, d) = (a + 1, a + nx as u32, a + nx as u32 + 1);
            indices.extend([a, c, b, b, c, d]);
        }
    }
    let mesh = Mesh::new(PrimitiveTopology::TriangleList, default())
        .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, positions)
        .with_inserted_attribute(Mesh::ATTRIBUTE_UV_0, uvs)
        .with_inserted_indices(Indices::U32(indices))
        .with_computed_smooth_normals();
    let material = kit.ground(Ground::Grass, TILE, TILE);
    commands.spawn((
        Name::new("grass hill"),
        RigidBody::Static,
        Collider::heightfield(heights, Vec3::new(size_x, 1.0, size_z)),
        Mesh3d(kit.meshes.add(mesh)),
        MeshMaterial3d(material),
        Transform::from_translation(centre),
        WheelSurface::GRASS,
        NotShadowCaster,
    ));
    label(commands, "grass hill (heightfield)", centre + Vec3::Y * 9.5);
}
