//! The track's generated terrain: the traffic loop's banked turn (a triangle mesh) and
//! the grass hill (a heightfield), each drawn from the points its collider uses
//! (`layout.rs`).
use bevy::light::NotShadowCaster;
use bevy::mesh::{Indices, PrimitiveTopology};
use bevy::prelude::*;

use crate::layout::{self, BANKED_Z};
use crate::textures::{Ground, TILE};
use crate::track::{Kit, label};

/// Dresses the traffic loop's banked turn (`layout::banked_turn`): its mesh from the
/// collider's points, textured along the lane.
pub fn banked_turn(commands: &mut Commands, kit: &mut Kit) {
    let (entity, positions, indices) = layout::banked_turn(commands);
    let uvs: Vec<[f32; 2]> = positions
        .iter()
        .map(|&[x, _, z]| {
            let (r, theta) = (Vec2::new(x, z - BANKED_Z).length(), (BANKED_Z - z).atan2(x));
            [r / TILE, theta * 40.0 / TILE]
        })
        .collect();
    let mesh = Mesh::new(PrimitiveTopology::TriangleList, default())
        .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, positions)
        .with_inserted_attribute(Mesh::ATTRIBUTE_UV_0, uvs)
        .with_inserted_indices(Indices::U32(indices.into_iter().flatten().collect()))
        .with_computed_smooth_normals();
    let material = kit.ground(Ground::Asphalt, TILE, TILE);
    commands
        .entity(entity)
        .insert((Mesh3d(kit.meshes.add(mesh)), MeshMaterial3d(material), NotShadowCaster));
    label(
        commands,
        "banked turn 16°",
        Vec3::new(0.0, 6.0, BANKED_Z - layout::BANK.1),
    );
}

/// Dresses the grass hill (`layout::hill`): its mesh from the heightfield's points.
pub fn hill(commands: &mut Commands, kit: &mut Kit) {
    let (entity, points, nx) = layout::hill(commands);
    let nz = points.len() / nx;
    let positions: Vec<[f32; 3]> = points.iter().map(|p| p.to_array()).collect();
    let uvs: Vec<[f32; 2]> = points.iter().map(|p| [p.x / TILE, p.z / TILE]).collect();
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
    commands
        .entity(entity)
        .insert((Mesh3d(kit.meshes.add(mesh)), MeshMaterial3d(material), NotShadowCaster));
    label(
        commands,
        "grass hill (heightfield)",
        layout::HILL_CENTRE + Vec3::Y * 9.5,
    );
}
