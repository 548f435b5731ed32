//! The proving ground, laid out around a long straight that runs from the start (the
//! origin) towards −Z:
//!
//! | feature | where (x, z in m) |
//! | --- | --- |
//! | main straight, 100 m boards, kerbs | x = 0, z 40 → −390 |
//! | slalom, cones every 12 m | x = 20, z −40 → −172 |
//! | speed bumps | x = −20, z −30 → −80 |
//! | skid pad, R 40 m | centre (−95, −200) |
//! | jump: 10° ramp, gap, 6° landing | x = 100, z −60 → −102 |
//! | seesaw, moving platform, turntable | (70, −150), (−100, −60), (−60, 30) |
//! | 15° slope | (100, 20) |
//! | traffic loop (x = ±40) and its 16° banked turn | turn centre (0, −400) |
//! | grass hill (heightfield), gravel | x 140 → 220 |
//! | ice, a grate over a pit (ray wheels drop in) | x −220 → −140 |
//!
//! Every ground piece has its top at y = 0 and none overlap, so a wheel always knows
//! its surface. The pieces' physics (colliders, surfaces, props, platforms) are spawned
//! by `layout.rs`, which the track benchmark shares; this file dresses them with meshes
//! and adds the lines, boards, labels, light and sky.
use std::f32::consts::FRAC_PI_2;

use bevy::light::{CascadeShadowConfigBuilder, DirectionalLightShadowMap, NotShadowCaster};
use bevy::math::Affine2;
use bevy::prelude::*;
use wheelcollider::prelude::*;

use crate::layout::{self, LOOP_X};
use crate::terrain;
use crate::textures::{self, Ground, TILE};

/// Places the track's pieces at start and moves its platforms.
pub struct TrackPlugin;

impl Plugin for TrackPlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(ClearColor(Color::srgb(0.62, 0.74, 0.9)))
            .add_systems(Startup, setup)
            .add_systems(FixedUpdate, layout::move_platforms)
            .add_systems(PostUpdate, follow_sky.after(TransformSystems::Propagate));
    }
}

/// A name the HUD writes over the scene where the entity is (a feature of the track).
#[derive(Component)]
pub struct TrackLabel(pub String);

/// The sky dome: follows the camera.
#[derive(Component)]
struct SkyDome;

/// What the track's builders share: the asset stores and the plain paints.
pub struct Kit<'a> {
    pub meshes: &'a mut Assets<Mesh>,
    materials: &'a mut Assets<StandardMaterial>,
    images: &'a mut Assets<Image>,
}

impl Kit<'_> {
    fn paint(&mut self, c: Color) -> Handle<StandardMaterial> {
        self.materials.add(StandardMaterial {
            base_color: c,
            perceptual_roughness: 0.85,
            ..default()
        })
    }

    /// A material of `ground`'s texture repeating every [`TILE`] m over a `w` × `d` m face.
    pub fn ground(&mut self, ground: Ground, w: f32, d: f32) -> Handle<StandardMaterial> {
        let image = self.images.add(textures::ground_image(ground));
        self.materials.add(StandardMaterial {
            base_color_texture: Some(image),
            perceptual_roughness: if ground == Ground::Ice { 0.2 } else { 0.95 },
            uv_transform: Affine2::from_scale(Vec2::new(w / TILE, d / TILE)),
            ..default()
        })
    }
}

fn setup(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut images: ResMut<Assets<Image>>,
) {
    let mut kit = Kit {
        meshes: &mut meshes,
        materials: &mut materials,
        images: &mut images,
    };
    ground(&mut commands, &mut kit);
    straight(&mut commands, &mut kit);
    handling_area(&mut commands, &mut kit);
    jump_and_slope(&mut commands, &mut kit);
    platforms(&mut commands, &mut kit);
    terrain::banked_turn(&mut commands, &mut kit);
    terrain::hill(&mut commands, &mut kit);
    light_and_sky(&mut commands, &mut kit);
}

/// Dresses a ground tile: its texture repeating every [`TILE`] m.
fn dress_tile(commands: &mut Commands, kit: &mut Kit, tile: &layout::Tile) {
    let [x0, x1, z0, z1] = tile.rect;
    let size = Vec3::new(x1 - x0, 1.0, z1 - z0);
    let look = match tile.surface.material {
        SurfaceMaterial::Gravel => Ground::Gravel,
        SurfaceMaterial::Ice => Ground::Ice,
        SurfaceMaterial::Grass => Ground::Grass,
        SurfaceMaterial::Asphalt | SurfaceMaterial::Metal => Ground::Asphalt,
    };
    let material = kit.ground(look, size.x, size.z);
    commands.entity(tile.entity).insert((
        Mesh3d(kit.meshes.add(Cuboid::from_size(size))),
        MeshMaterial3d(material),
        // The ground casts no shadow worth its cost (a software renderer spends most
        // of a frame drawing the big tiles into the shadow maps).
        NotShadowCaster,
    ));
}

pub fn label(commands: &mut Commands, text: &str, at: Vec3) {
    commands.spawn((TrackLabel(text.to_string()), Transform::from_translation(at)));
}

fn ground(commands: &mut Commands, kit: &mut Kit) {
    let (tiles, grate, bars) = layout::ground(commands);
    for tile in &tiles {
        dress_tile(commands, kit, tile);
    }
    label(commands, "gravel", Vec3::new(150.0, 2.0, -200.0));
    label(commands, "ice", Vec3::new(-150.0, 2.0, -220.0));
    let [x0, x1, ..] = layout::GRATE;
    let steel = kit.paint(Color::srgb(0.45, 0.45, 0.47));
    let bar = kit.meshes.add(Cuboid::new(x1 - x0, 0.3, 0.3));
    commands.entity(grate).insert(Visibility::default());
    for e in bars {
        commands
            .entity(e)
            .insert((Mesh3d(bar.clone()), MeshMaterial3d(steel.clone())));
    }
    label(commands, "grate (ray wheels drop in)", Vec3::new(-150.0, 2.0, -170.0));
}

/// The straight's lines, 100 m boards and kerbs.
fn straight(commands: &mut Commands, kit: &mut Kit) {
    let white = kit.paint(Color::srgb(0.95, 0.95, 0.95));
    let red = kit.paint(Color::srgb(0.85, 0.12, 0.1));
    let yellow = kit.paint(Color::srgb(0.95, 0.78, 0.1));
    let line = |commands: &mut Commands, kit: &mut Kit, size: Vec3, at: Vec3, m: &Handle<StandardMaterial>| {
        commands.spawn((
            Mesh3d(kit.meshes.add(Cuboid::from_size(size))),
            MeshMaterial3d(m.clone()),
            Transform::from_translation(at),
        ));
    };
    line(
        commands,
        kit,
        Vec3::new(12.0, 0.01, 0.5),
        Vec3::new(0.0, 0.005, -2.0),
        &white,
    );
    let dash = kit.meshes.add(Cuboid::new(0.15, 0.01, 3.0));
    for i in 0..72 {
        let z = 40.0 - 6.0 * i as f32;
        for (x, m) in [(0.0, &white), (-6.0, &white), (6.0, &white)] {
            if x == 0.0 || i % 2 == 0 {
                commands.spawn((
                    Mesh3d(dash.clone()),
                    MeshMaterial3d(m.clone()),
                    Transform::from_xyz(x, 0.005, z),
                    NotShadowCaster,
                ));
            }
        }
        // The traffic loop's lane edges.
        for x in [-LOOP_X - 4.0, -LOOP_X + 4.0, LOOP_X - 4.0, LOOP_X + 4.0] {
            if i % 2 == 1 {
                commands.spawn((
                    Mesh3d(dash.clone()),
                    MeshMaterial3d(yellow.clone()),
                    Transform::from_xyz(x, 0.005, z),
                    NotShadowCaster,
                ));
            }
        }
    }
    label(commands, "start", Vec3::new(0.0, 2.5, -2.0));
    label(commands, "traffic loop", Vec3::new(LOOP_X, 2.5, 0.0));
    // Boards every 100 m from the start line: a post and a white board.
    let post = kit.meshes.add(Cuboid::new(0.12, 2.0, 0.12));
    let board = kit.meshes.add(Cuboid::new(1.4, 0.9, 0.06));
    let grey = kit.paint(Color::srgb(0.3, 0.3, 0.3));
    for k in 1..=3 {
        let z = -2.0 - 100.0 * k as f32;
        for x in [-9.0f32, 9.0] {
            commands.spawn((
                Mesh3d(post.clone()),
                MeshMaterial3d(grey.clone()),
                Transform::from_xyz(x, 1.0, z),
            ));
            commands.spawn((
                Mesh3d(board.clone()),
                MeshMaterial3d(white.clone()),
                Transform::from_xyz(x, 2.2, z),
            ));
        }
        label(commands, &format!("{} m", 100 * k), Vec3::new(9.0, 3.2, z));
    }
    // Kerbs beside the straight's first 60 m: 8 cm, red and white.
    let kerb = kit.meshes.add(Cuboid::new(0.6, 0.08, 2.0));
    for (e, is_red) in layout::kerbs(commands) {
        let m = if is_red { red.clone() } else { white.clone() };
        commands.entity(e).insert((Mesh3d(kerb.clone()), MeshMaterial3d(m)));
    }
    label(commands, "kerbs 8 cm", Vec3::new(-7.0, 2.0, -20.0));
}

/// The slalom, the speed bumps, the skid pad and a stack of crates.
fn handling_area(commands: &mut Commands, kit: &mut Kit) {
    let orange = kit.paint(Color::srgb(1.0, 0.35, 0.02));
    let white = kit.paint(Color::srgb(0.95, 0.95, 0.95));
    let cone = kit.meshes.add(Cone::new(0.18, 0.7));
    let band = kit.meshes.add(ConicalFrustum {
        radius_top: 0.075,
        radius_bottom: 0.11,
        height: 0.12,
    });
    let base = kit.meshes.add(Cuboid::new(0.4, 0.03, 0.4));
    for e in layout::cones(commands) {
        // Knocked-over cones are dynamic bodies: a cone on a square base.
        commands
            .entity(e)
            .insert((Mesh3d(cone.clone()), MeshMaterial3d(orange.clone())))
            .with_children(|c| {
                c.spawn((
                    Mesh3d(band.clone()),
                    MeshMaterial3d(white.clone()),
                    Transform::from_xyz(0.0, 0.08, 0.0),
                ));
                c.spawn((
                    Mesh3d(base.clone()),
                    MeshMaterial3d(orange.clone()),
                    Transform::from_xyz(0.0, -0.335, 0.0),
                ));
            });
    }
    label(commands, "slalom 12 m", Vec3::new(20.0, 2.5, -36.0));

    let yellow = kit.paint(Color::srgb(0.95, 0.78, 0.1));
    let bump = kit.meshes.add(Cuboid::new(5.0, 0.08, 0.6));
    for e in layout::bumps(commands) {
        commands
            .entity(e)
            .insert((Mesh3d(bump.clone()), MeshMaterial3d(yellow.clone())));
    }
    label(commands, "speed bumps", Vec3::new(-20.0, 2.0, -26.0));

    // The skid pad: a 40 m circle marked inside and out of its 4 m lane.
    let flat = Quat::from_rotation_x(-FRAC_PI_2);
    for r in [38.0, 42.0] {
        commands.spawn((
            Mesh3d(kit.meshes.add(Annulus::new(r - 0.15, r + 0.15))),
            MeshMaterial3d(white.clone()),
            Transform::from_xyz(-95.0, 0.01, -200.0).with_rotation(flat),
        ));
    }
    label(commands, "skid pad R 40 m", Vec3::new(-95.0, 3.0, -160.0));

    let wood = kit.paint(Color::srgb(0.7, 0.45, 0.2));
    let cube = kit.meshes.add(Cuboid::new(0.8, 0.8, 0.8));
    for e in layout::crates(commands) {
        commands
            .entity(e)
            .insert((Mesh3d(cube.clone()), MeshMaterial3d(wood.clone())));
    }
}

fn jump_and_slope(commands: &mut Commands, kit: &mut Kit) {
    let concrete = kit.ground(Ground::Concrete, 5.0, 12.0);
    let (ramps, slope) = layout::jump_and_slope(commands);
    for (e, length) in ramps {
        let mesh = kit.meshes.add(Cuboid::new(5.0, 1.0, length));
        commands
            .entity(e)
            .insert((Mesh3d(mesh), MeshMaterial3d(concrete.clone())));
    }
    label(commands, "jump", Vec3::new(100.0, 4.5, -66.0));
    let material = kit.ground(Ground::Concrete, 20.0, 10.0);
    let mesh = kit.meshes.add(Cuboid::new(20.0, 1.0, 10.0));
    commands.entity(slope).insert((Mesh3d(mesh), MeshMaterial3d(material)));
    label(commands, "slope 15°", Vec3::new(100.0, 7.0, 20.0));
}

/// A sliding platform, a turntable and a seesaw.
fn platforms(commands: &mut Commands, kit: &mut Kit) {
    let yellow = kit.paint(Color::srgb(0.95, 0.78, 0.1));
    let steel = kit.paint(Color::srgb(0.4, 0.42, 0.45));
    let p = layout::platforms(commands);
    let mesh = kit.meshes.add(Cuboid::new(8.0, 0.1, 8.0));
    commands
        .entity(p.platform)
        .insert((Mesh3d(mesh), MeshMaterial3d(yellow.clone())));
    label(commands, "moving platform", Vec3::new(-100.0, 2.5, -60.0));
    let mesh = kit.meshes.add(Cylinder::new(6.0, 0.1));
    commands
        .entity(p.turntable)
        .insert((Mesh3d(mesh), MeshMaterial3d(steel.clone())))
        .with_children(|c| {
            // A stripe so that the turning shows.
            c.spawn((
                Mesh3d(kit.meshes.add(Cuboid::new(11.5, 0.02, 0.5))),
                MeshMaterial3d(yellow.clone()),
                Transform::from_xyz(0.0, 0.06, 0.0),
            ));
        });
    label(commands, "turntable", Vec3::new(-60.0, 2.5, 30.0));
    let mesh = kit.meshes.add(Cuboid::new(3.6, 0.9, 0.6));
    commands.entity(p.pivot).insert((Mesh3d(mesh), MeshMaterial3d(steel)));
    let mesh = kit.meshes.add(Cuboid::new(4.0, 0.2, 14.0));
    commands.entity(p.seesaw).insert((Mesh3d(mesh), MeshMaterial3d(yellow)));
    label(commands, "seesaw", layout::HINGE + Vec3::Y * 2.0);
}

fn light_and_sky(commands: &mut Commands, kit: &mut Kit) {
    let sun = textures::sun_direction();
    commands.spawn((
        DirectionalLight {
            illuminance: 10_000.0,
            shadow_maps_enabled: true,
            ..default()
        },
        Transform::from_translation(sun * 100.0).looking_at(Vec3::ZERO, Vec3::Y),
        CascadeShadowConfigBuilder {
            num_cascades: 2,
            maximum_distance: 80.0,
            first_cascade_far_bound: 20.0,
            ..default()
        }
        .build(),
    ));
    commands.insert_resource(DirectionalLightShadowMap { size: 1024 });
    commands.insert_resource(GlobalAmbientLight {
        brightness: 500.0,
        ..default()
    });
    let sky = kit.materials.add(StandardMaterial {
        base_color: Color::WHITE,
        unlit: true,
        fog_enabled: false,
        cull_mode: None,
        ..default()
    });
    commands.spawn((
        SkyDome,
        Mesh3d(kit.meshes.add(textures::sky_mesh())),
        MeshMaterial3d(sky),
        Transform::from_scale(Vec3::splat(900.0)),
        NotShadowCaster,
    ));
}

fn follow_sky(cam: Query<&GlobalTransform, With<Camera3d>>, mut sky: Query<&mut Transform, With<SkyDome>>) {
    if let (Ok(cam), Ok(mut sky)) = (cam.single(), sky.single_mut()) {
        sky.translation = cam.translation();
    }
}
