//! Textures generated in code (no downloads): the ground's surfaces, tiled so that speed
//! reads at a glance, and a sky dome with a sun.
use bevy::asset::RenderAssetUsages;
use bevy::image::{ImageAddressMode, ImageFilterMode, ImageSampler, ImageSamplerDescriptor};
use bevy::mesh::VertexAttributeValues;
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};

/// Texels per side of a ground texture.
const SIZE: usize = 256;
/// Metres one ground texture covers (its grid lines are this far apart).
pub const TILE: f32 = 8.0;

/// The look of a ground texture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ground {
    /// Dark grey with a faint painted grid.
    Asphalt,
    /// Light panels with dark joints.
    Concrete,
    /// Mown stripes.
    Grass,
    /// Coarse speckle.
    Gravel,
    /// Pale, smooth, streaked.
    Ice,
}

/// A deterministic hash of a texel to 0..1.
fn hash(x: i32, y: i32, seed: u32) -> f32 {
    let mut h =
        (x as u32).wrapping_mul(0x8da6_b343) ^ (y as u32).wrapping_mul(0xd816_3841) ^ seed.wrapping_mul(0xcb1a_b31f);
    h ^= h >> 13;
    h = h.wrapping_mul(0x5bd1_e995);
    h ^= h >> 15;
    (h & 0xffff) as f32 / 65535.0
}

/// Smooth value noise with a period of `cell` texels, tiling over [`SIZE`].
fn value_noise(x: usize, y: usize, cell: usize, seed: u32) -> f32 {
    let cells = (SIZE / cell) as i32;
    let (fx, fy) = (x as f32 / cell as f32, y as f32 / cell as f32);
    let (x0, y0) = (fx.floor() as i32, fy.floor() as i32);
    let (tx, ty) = (fx - x0 as f32, fy - y0 as f32);
    let (sx, sy) = (tx * tx * (3.0 - 2.0 * tx), ty * ty * (3.0 - 2.0 * ty));
    let at = |i: i32, j: i32| hash(i.rem_euclid(cells), j.rem_euclid(cells), seed);
    let top = at(x0, y0) + (at(x0 + 1, y0) - at(x0, y0)) * sx;
    let bottom = at(x0, y0 + 1) + (at(x0 + 1, y0 + 1) - at(x0, y0 + 1)) * sx;
    top + (bottom - top) * sy
}

/// One texel's colour (sRGB, 0..1).
fn texel(ground: Ground, x: usize, y: usize) -> [f32; 3] {
    let fine = hash(x as i32, y as i32, 1) - 0.5;
    let blotch = value_noise(x, y, 32, 2) - 0.5;
    // Distance (texels) to the tile's edge: the grid lines and joints.
    let edge = x.min(y).min(SIZE - 1 - x).min(SIZE - 1 - y);
    match ground {
        Ground::Asphalt => {
            let line = if edge < 2 { 0.1 } else { 0.0 };
            let g = 0.23 + 0.05 * fine + 0.04 * blotch + line;
            [g, g, g * 1.04]
        }
        Ground::Concrete => {
            let joint = if edge < 2 { -0.15 } else { 0.0 };
            let g = 0.62 + 0.03 * fine + 0.05 * blotch + joint;
            [g, g * 0.99, g * 0.95]
        }
        Ground::Grass => {
            let stripe = if (x / (SIZE / 2)).is_multiple_of(2) {
                0.04
            } else {
                -0.02
            };
            let g = 0.42 + 0.12 * fine + 0.1 * blotch + stripe;
            [0.45 * g, g, 0.3 * g]
        }
        Ground::Gravel => {
            let stone = hash(x as i32 / 2, y as i32 / 2, 3) - 0.5;
            let g = 0.55 + 0.25 * stone + 0.06 * blotch;
            [g, g * 0.9, g * 0.78]
        }
        Ground::Ice => {
            let streak = value_noise(x, y / 8, 16, 4) - 0.5;
            let g = 0.86 + 0.03 * fine + 0.06 * streak;
            [g * 0.9, g * 0.96, g]
        }
    }
}

/// A ground texture with its mipmaps (box-filtered in code; without them the grid
/// shimmers in the distance), repeating, trilinear.
pub fn ground_image(ground: Ground) -> Image {
    let mut level: Vec<[f32; 3]> = (0..SIZE * SIZE).map(|i| texel(ground, i % SIZE, i / SIZE)).collect();
    let mut data = Vec::new();
    let mut size = SIZE;
    let mut levels = 0;
    loop {
        for c in &level {
            data.extend(c.iter().map(|v| (v.clamp(0.0, 1.0) * 255.0).round() as u8));
            data.push(255);
        }
        levels += 1;
        if size == 1 {
            break;
        }
        let half = size / 2;
        level = (0..half * half)
            .map(|i| {
                let (x, y) = (2 * (i % half), 2 * (i / half));
                let at = |dx: usize, dy: usize| level[(y + dy) * size + x + dx];
                let sum = [at(0, 0), at(1, 0), at(0, 1), at(1, 1)];
                std::array::from_fn(|k| sum.iter().map(|c| c[k]).sum::<f32>() / 4.0)
            })
            .collect();
        size = half;
    }
    let extent = Extent3d {
        width: SIZE as u32,
        height: SIZE as u32,
        depth_or_array_layers: 1,
    };
    let base = data[..SIZE * SIZE * 4].to_vec();
    let mut image = Image::new(
        extent,
        TextureDimension::D2,
        base,
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::RENDER_WORLD,
    );
    image.data = Some(data);
    image.texture_descriptor.mip_level_count = levels;
    image.sampler = ImageSampler::Descriptor(ImageSamplerDescriptor {
        address_mode_u: ImageAddressMode::Repeat,
        address_mode_v: ImageAddressMode::Repeat,
        mag_filter: ImageFilterMode::Linear,
        min_filter: ImageFilterMode::Linear,
        mipmap_filter: ImageFilterMode::Linear,
        ..default()
    });
    image
}

/// The direction towards the sun (world, unit).
pub fn sun_direction() -> Vec3 {
    Vec3::new(0.45, 0.62, 0.35).normalize()
}

/// A unit sphere whose vertex colours are the sky: pale at the horizon, blue above, a
/// glow and a disc around the sun, greyish green below the horizon.
pub fn sky_mesh() -> Mesh {
    let mut mesh = Sphere::new(1.0).mesh().uv(48, 24);
    let Some(VertexAttributeValues::Float32x3(positions)) = mesh.attribute(Mesh::ATTRIBUTE_POSITION) else {
        return mesh;
    };
    let sun = sun_direction();
    let colors: Vec<[f32; 4]> = positions
        .iter()
        .map(|p| {
            let d = Vec3::from(*p).normalize_or_zero();
            let horizon = Vec3::new(0.62, 0.74, 0.9);
            let zenith = Vec3::new(0.12, 0.3, 0.72);
            let ground = Vec3::new(0.35, 0.4, 0.33);
            let mut c = if d.y >= 0.0 {
                horizon.lerp(zenith, d.y.powf(0.6))
            } else {
                horizon.lerp(ground, (-d.y * 8.0).min(1.0))
            };
            let s = d.dot(sun).max(0.0);
            c += Vec3::new(1.0, 0.9, 0.7) * (0.35 * s.powf(24.0) + 4.0 * s.powf(900.0));
            [c.x, c.y, c.z, 1.0]
        })
        .collect();
    mesh.insert_attribute(Mesh::ATTRIBUTE_COLOR, colors);
    mesh
}
