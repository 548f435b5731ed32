//! The test track: drive a car from a preset, open the inspector, tune it live.
//!
//! ```text
//! cargo run --release --example inspector --features inspector [-- --preset assets/presets/rally.ron]
//! ```
//!
//! Keys: W/S or ↑/↓ throttle and brake (reverse when stopped), A/D or ←/→ steer, Space
//! handbrake, Q/E gear down/up, V chase/orbit camera (orbit: right mouse drag, wheel to
//! zoom), R reset the car, F1 the inspector. A gamepad works too.
//!
//! `--script DIR` drives a fixed input sequence, saves screenshots into DIR and exits:
//! that is how the pictures in the README are made (see docs/inspector.md).
//!
//! Why `track` is long: it builds the test track's scenery, one block per feature of the
//! track (ramps, kerbs, bumps, platforms); there is no logic to split.
use std::f32::consts::FRAC_PI_2;

use avian3d::prelude::*;
use bevy::input::mouse::{AccumulatedMouseMotion, AccumulatedMouseScroll};
use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};
use bevy::window::WindowResolution;
use wheelcollider::inspector::bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use wheelcollider::inspector::{InspectorState, InspectorTarget, Request, Tab, WheelInspectorPlugin};
use wheelcollider::prelude::*;

#[derive(Resource, Clone)]
struct Options {
    preset: String,
    script: Option<std::path::PathBuf>,
}

fn main() {
    let mut options = Options {
        preset: "assets/presets/road.ron".into(),
        script: None,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--preset" => options.preset = args.next().expect("--preset needs a file"),
            "--script" => options.script = Some(args.next().expect("--script needs a directory").into()),
            other => {
                eprintln!("unknown argument {other}; use --preset FILE or --script DIR");
                std::process::exit(2);
            }
        }
    }
    // Fail before opening a window if the preset is broken.
    let spec = match wheelcollider::inspector::load_preset(options.preset.as_ref()) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
    App::new()
        .add_plugins(DefaultPlugins.set(WindowPlugin {
            primary_window: Some(Window {
                title: "wheelcollider: test track".into(),
                resolution: WindowResolution::new(1280, 720),
                ..default()
            }),
            ..default()
        }))
        .add_plugins((
            PhysicsPlugins::default(),
            WheelColliderPlugins,
            VehicleInputPlugin,
            WheelInspectorPlugin::default(),
        ))
        .insert_resource(ClearColor(Color::srgb(0.55, 0.7, 0.9)))
        .insert_resource(options)
        .insert_resource(StartSpec(spec))
        .insert_resource(CameraMode::Chase)
        .add_systems(Startup, (track, spawn_car))
        .add_systems(Update, (wheel_models, keys).chain())
        .add_systems(PreUpdate, script.after(VehicleInputSystems))
        .add_systems(Update, move_platform)
        .add_systems(PostUpdate, camera.after(TransformSystems::Propagate))
        .add_systems(EguiPrimaryContextPass, hud)
        .run();
}

#[derive(Resource)]
struct StartSpec(VehicleSettings);

#[derive(Resource, Clone, Copy, PartialEq, Eq)]
enum CameraMode {
    Chase,
    Orbit { yaw: i32, pitch: i32, distance: i32 },
}

#[derive(Component)]
struct Platform;

fn track(mut commands: Commands, mut meshes: ResMut<Assets<Mesh>>, mut materials: ResMut<Assets<StandardMaterial>>) {
    let mut mat = |c: Color| {
        materials.add(StandardMaterial {
            base_color: c,
            perceptual_roughness: 0.9,
            ..default()
        })
    };
    let asphalt = mat(Color::srgb(0.22, 0.22, 0.24));
    let gravel = mat(Color::srgb(0.55, 0.47, 0.36));
    let grass = mat(Color::srgb(0.25, 0.5, 0.2));
    let ice = mat(Color::srgb(0.8, 0.9, 1.0));
    let white = mat(Color::srgb(0.95, 0.95, 0.95));
    let red = mat(Color::srgb(0.85, 0.15, 0.1));
    let concrete = mat(Color::srgb(0.6, 0.6, 0.58));
    let yellow = mat(Color::srgb(0.95, 0.75, 0.1));
    let crate_mat = mat(Color::srgb(0.7, 0.45, 0.2));

    // Ground tiles, top faces at y = 0, side by side (never overlapping, so a wheel
    // always knows its surface).
    let mut tile = |name: &str, x0: f32, x1: f32, z0: f32, z1: f32, m: &Handle<StandardMaterial>, s: WheelSurface| {
        let size = Vec3::new(x1 - x0, 1.0, z1 - z0);
        commands.spawn((
            Name::new(name.to_string()),
            RigidBody::Static,
            Collider::cuboid(size.x, size.y, size.z),
            Mesh3d(meshes.add(Cuboid::from_size(size))),
            MeshMaterial3d(m.clone()),
            Transform::from_xyz((x0 + x1) / 2.0, -0.5, (z0 + z1) / 2.0),
            s,
        ));
    };
    tile("asphalt", -80.0, 80.0, -260.0, 60.0, &asphalt, WheelSurface::ASPHALT);
    tile("gravel", 80.0, 160.0, -260.0, -60.0, &gravel, WheelSurface::GRAVEL);
    tile("grass", 80.0, 160.0, -60.0, 60.0, &grass, WheelSurface::GRASS);
    tile("ice", -160.0, -80.0, -260.0, -120.0, &ice, WheelSurface::ICE);
    tile(
        "asphalt west",
        -160.0,
        -80.0,
        -60.0,
        60.0,
        &asphalt,
        WheelSurface::ASPHALT,
    );
    // A grate between the west tiles: 0.3 m bars with 0.12 m slots over a pit. Ray wheels
    // drop into the slots; sphere and cylinder wheels roll over.
    let (gx0, gx1, gz0, gz1) = (-160.0f32, -80.0f32, -120.0f32, -60.0f32);
    commands.spawn((
        Name::new("pit floor"),
        RigidBody::Static,
        Collider::cuboid(gx1 - gx0, 1.0, gz1 - gz0),
        Transform::from_xyz((gx0 + gx1) / 2.0, -0.9, (gz0 + gz1) / 2.0),
    ));
    let bar = meshes.add(Cuboid::new(gx1 - gx0, 0.3, 0.3));
    let mut z = gz0 + 0.15;
    while z < gz1 {
        commands.spawn((
            RigidBody::Static,
            Collider::cuboid(gx1 - gx0, 0.3, 0.3),
            Mesh3d(bar.clone()),
            MeshMaterial3d(concrete.clone()),
            Transform::from_xyz((gx0 + gx1) / 2.0, -0.15, z),
        ));
        z += 0.42;
    }
    // A safety floor far below everything.
    commands.spawn((
        RigidBody::Static,
        Collider::half_space(Vec3::Y),
        Transform::from_xyz(0.0, -20.0, 0.0),
    ));

    // Lane lines on the straight and the 40 m skid-pad circle.
    let line = meshes.add(Cuboid::new(0.15, 0.01, 3.0));
    for i in 0..25 {
        commands.spawn((
            Mesh3d(line.clone()),
            MeshMaterial3d(white.clone()),
            Transform::from_xyz(0.0, 0.005, -6.0 * i as f32),
        ));
    }
    commands.spawn((
        Mesh3d(meshes.add(Annulus::new(39.8, 40.2))),
        MeshMaterial3d(white.clone()),
        Transform::from_xyz(0.0, 0.01, -200.0).with_rotation(Quat::from_rotation_x(-FRAC_PI_2)),
    ));
    // Curbs along the straight: 8 cm, red and white.
    let curb = meshes.add(Cuboid::new(0.6, 0.08, 2.0));
    for i in 0..30 {
        for x in [-7.0, 7.0] {
            commands.spawn((
                RigidBody::Static,
                Collider::cuboid(0.6, 0.08, 2.0),
                Mesh3d(curb.clone()),
                MeshMaterial3d(if i % 2 == 0 { red.clone() } else { white.clone() }),
                Transform::from_xyz(x, 0.04, -2.0 * i as f32 - 10.0),
            ));
        }
    }
    // Speed bumps on a side lane.
    let bump = meshes.add(Cuboid::new(5.0, 0.08, 0.6));
    for i in 0..6 {
        commands.spawn((
            RigidBody::Static,
            Collider::cuboid(5.0, 0.08, 0.6),
            Mesh3d(bump.clone()),
            MeshMaterial3d(yellow.clone()),
            Transform::from_xyz(25.0, 0.04, -20.0 - 12.0 * i as f32),
        ));
    }
    // A ramp and a jump.
    let ramp = |angle_deg: f32, length: f32| {
        let a = angle_deg.to_radians();
        let size = Vec3::new(5.0, 1.0, length);
        let rot = Quat::from_rotation_x(a);
        (size, rot, length * 0.5 * a.sin())
    };
    for (x, z, deg, len) in [(-30.0, -40.0, 8.0, 12.0), (45.0, -60.0, 14.0, 7.0)] {
        let (size, rot, mid) = ramp(deg, len);
        let centre = Vec3::new(x, mid, z) - rot * Vec3::Y * 0.5;
        commands.spawn((
            Name::new("ramp"),
            RigidBody::Static,
            Collider::cuboid(size.x, size.y, size.z),
            Mesh3d(meshes.add(Cuboid::from_size(size))),
            MeshMaterial3d(concrete.clone()),
            Transform::from_translation(centre).with_rotation(rot),
        ));
    }
    // A 15° slope up to the west plateau's level... a hill to park on.
    let slope = Quat::from_rotation_z(15f32.to_radians());
    commands.spawn((
        Name::new("slope 15°"),
        RigidBody::Static,
        Collider::cuboid(20.0, 1.0, 10.0),
        Mesh3d(meshes.add(Cuboid::new(20.0, 1.0, 10.0))),
        MeshMaterial3d(concrete.clone()),
        Transform::from_xyz(-55.0, 2.1, 20.0).with_rotation(slope),
    ));
    // A moving platform (kinematic) and loose boxes to push.
    commands.spawn((
        Name::new("platform"),
        Platform,
        RigidBody::Kinematic,
        Collider::cuboid(8.0, 0.1, 8.0),
        Mesh3d(meshes.add(Cuboid::new(8.0, 0.1, 8.0))),
        MeshMaterial3d(yellow.clone()),
        Transform::from_xyz(-40.0, 0.05, -100.0),
    ));
    let cube = meshes.add(Cuboid::new(0.8, 0.8, 0.8));
    for i in 0..4 {
        for j in 0..(4 - i) {
            commands.spawn((
                RigidBody::Dynamic,
                Collider::cuboid(0.8, 0.8, 0.8),
                Mass(25.0),
                Mesh3d(cube.clone()),
                MeshMaterial3d(crate_mat.clone()),
                Transform::from_xyz(30.0 + j as f32 * 0.85 + i as f32 * 0.42, 0.4 + 0.8 * i as f32, -130.0),
            ));
        }
    }
    commands.spawn((
        DirectionalLight {
            illuminance: 9000.0,
            shadow_maps_enabled: true,
            ..default()
        },
        Transform::from_xyz(30.0, 60.0, 20.0).looking_at(Vec3::ZERO, Vec3::Y),
    ));
    commands.insert_resource(GlobalAmbientLight {
        brightness: 600.0,
        ..default()
    });
    commands.spawn((
        Camera3d::default(),
        Msaa::Off,
        bevy::core_pipeline::tonemapping::Tonemapping::AcesFitted,
        Transform::from_xyz(0.0, 4.0, 10.0).looking_at(Vec3::ZERO, Vec3::Y),
    ));
}

fn spawn_car(
    mut commands: Commands,
    spec: Res<StartSpec>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    let y = spec.0.touch_height() + 0.05;
    let car = spawn_vehicle(&mut commands, &spec.0, Transform::from_xyz(0.0, y, 0.0)).expect("validated");
    commands.entity(car).insert((
        PlayerVehicle,
        InspectorTarget,
        TransformInterpolation,
        Visibility::default(),
    ));
    body_mesh(&mut commands, car, &spec.0, &mut meshes, &mut materials);
}

fn body_mesh(
    commands: &mut Commands,
    car: Entity,
    spec: &VehicleSettings,
    meshes: &mut Assets<Mesh>,
    materials: &mut Assets<StandardMaterial>,
) {
    let [_, h, l] = spec.chassis.size;
    // Narrower than the track so that the wheels show beside the body.
    let track = spec
        .axles
        .iter()
        .map(|a| 2.0 * a.half_track - a.wheel.width())
        .fold(f32::MAX, f32::min);
    let w = track.max(0.3) - 0.05;
    let paint = materials.add(StandardMaterial {
        base_color: Color::srgb(0.1, 0.35, 0.8),
        perceptual_roughness: 0.4,
        metallic: 0.2,
        ..default()
    });
    let glass = materials.add(Color::srgb(0.1, 0.12, 0.15));
    commands.entity(car).with_children(|c| {
        c.spawn((
            Mesh3d(meshes.add(Cuboid::new(w, h * 0.6, l))),
            MeshMaterial3d(paint),
            Transform::from_xyz(0.0, h * 0.2, 0.0),
        ));
        c.spawn((
            Mesh3d(meshes.add(Cuboid::new(w * 0.85, h * 0.7, l * 0.45))),
            MeshMaterial3d(glass),
            Transform::from_xyz(0.0, h * 0.85, l * 0.05),
        ));
    });
}

/// Gives every new vehicle wheel a tyre, a rim and a spoke that show steer, spin and
/// compression.
fn wheel_models(
    mut commands: Commands,
    new: Query<(Entity, &WheelCollider), Added<VehicleWheel>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    for (wheel, collider) in &new {
        let (r, w) = (collider.radius(), collider.width());
        let tyre = materials.add(Color::srgb(0.05, 0.05, 0.05));
        let rim = materials.add(Color::srgb(0.8, 0.8, 0.85));
        let model = commands
            .spawn((Transform::default(), Visibility::default(), ChildOf(wheel)))
            .with_children(|m| {
                m.spawn((
                    Mesh3d(meshes.add(Cylinder::new(r, w))),
                    MeshMaterial3d(tyre),
                    Transform::from_rotation(Quat::from_rotation_z(FRAC_PI_2)),
                ));
                m.spawn((
                    Mesh3d(meshes.add(Cuboid::new(w * 1.02, r * 1.5, r * 0.25))),
                    MeshMaterial3d(rim),
                ));
            })
            .id();
        commands
            .entity(wheel)
            .insert((WheelModel(model), Visibility::default()));
    }
}

fn move_platform(time: Res<Time>, mut q: Query<(&mut LinearVelocity, &Transform), With<Platform>>) {
    for (mut v, t) in &mut q {
        let target = -40.0 + 10.0 * (time.elapsed_secs() * 0.3).sin();
        v.0 = Vec3::new((target - t.translation.x) * 2.0, 0.0, 0.0);
    }
}

fn keys(keys: Res<ButtonInput<KeyCode>>, mut mode: ResMut<CameraMode>, mut inspector: ResMut<InspectorState>) {
    if keys.just_pressed(KeyCode::KeyV) {
        *mode = match *mode {
            CameraMode::Chase => CameraMode::Orbit {
                yaw: 40,
                pitch: 25,
                distance: 12,
            },
            CameraMode::Orbit { .. } => CameraMode::Chase,
        };
    }
    if keys.just_pressed(KeyCode::KeyR) {
        inspector.requests.push(Request::Reset);
    }
}

#[allow(clippy::too_many_arguments)]
fn camera(
    time: Res<Time>,
    mut mode: ResMut<CameraMode>,
    motion: Res<AccumulatedMouseMotion>,
    scroll: Res<AccumulatedMouseScroll>,
    buttons: Res<ButtonInput<MouseButton>>,
    car: Query<&GlobalTransform, With<PlayerVehicle>>,
    mut cam: Query<&mut Transform, With<Camera3d>>,
) {
    let (Ok(car), Ok(mut cam)) = (car.single(), cam.single_mut()) else {
        return;
    };
    let target = car.translation() + Vec3::Y * 0.8;
    match &mut *mode {
        CameraMode::Chase => {
            let back = car.rotation() * Vec3::Z;
            let back = Vec3::new(back.x, 0.0, back.z).normalize_or(Vec3::Z);
            let want = target + back * 7.5 + Vec3::Y * 2.2;
            let k = 1.0 - (-6.0 * time.delta_secs()).exp();
            cam.translation = cam.translation.lerp(want, k);
            cam.look_at(target, Vec3::Y);
        }
        CameraMode::Orbit { yaw, pitch, distance } => {
            if buttons.pressed(MouseButton::Right) {
                *yaw -= motion.delta.x as i32 / 2;
                *pitch = (*pitch + motion.delta.y as i32 / 2).clamp(5, 85);
            }
            *distance = (*distance - scroll.delta.y as i32).clamp(3, 60);
            let (y, p) = ((*yaw as f32).to_radians(), (*pitch as f32).to_radians());
            let offset = Vec3::new(y.sin() * p.cos(), p.sin(), y.cos() * p.cos()) * *distance as f32;
            cam.translation = target + offset;
            cam.look_at(target, Vec3::Y);
        }
    }
}

fn hud(mut contexts: EguiContexts, car: Query<&VehicleTelemetry, With<PlayerVehicle>>, inspector: Res<InspectorState>) {
    let Ok(ctx) = contexts.ctx_mut() else { return };
    if let Ok(t) = car.single() {
        let p = &t.powertrain;
        let gear = match p.gear {
            -1 => "R".to_string(),
            0 => "N".to_string(),
            g => g.to_string(),
        };
        egui::Area::new(egui::Id::new("hud"))
            .anchor(egui::Align2::LEFT_TOP, [12.0, 12.0])
            .show(ctx, |ui| {
                egui::Frame::popup(ui.style()).show(ui, |ui| {
                    ui.heading(format!("{:>5.0} km/h   gear {gear}", t.speed_kmh));
                    ui.add(
                        egui::ProgressBar::new(p.engine_rpm / 8000.0)
                            .desired_width(220.0)
                            .text(format!("{:.0} rpm", p.engine_rpm)),
                    );
                    ui.label(format!(
                        "lat {:+.2} g   long {:+.2} g   {} / {} wheels down",
                        t.lateral_acceleration / 9.81,
                        t.longitudinal_acceleration / 9.81,
                        t.grounded_wheels,
                        t.wheels
                    ));
                });
            });
    }
    let help = "W/S throttle · brake (reverse when stopped)   A/D steer   Space handbrake   Q/E gears   V camera   R reset   F1 inspector";
    egui::Area::new(egui::Id::new("help"))
        .anchor(egui::Align2::LEFT_BOTTOM, [12.0, -10.0])
        .show(ctx, |ui| {
            ui.colored_label(egui::Color32::WHITE, help);
            if !inspector.visible {
                ui.colored_label(egui::Color32::LIGHT_GRAY, "inspector hidden: F1");
            }
        });
}

/// The scripted run: a fixed input sequence, screenshots, exit.
#[allow(clippy::too_many_arguments)] // a Bevy system: each argument is something it uses
fn script(
    mut commands: Commands,
    time: Res<Time>,
    options: Res<Options>,
    mut car: Query<(&mut VehicleInput, &mut Vehicle), With<PlayerVehicle>>,
    mut inspector: ResMut<InspectorState>,
    mut gizmos: ResMut<WheelGizmos>,
    mut cue: Local<u32>,
    mut shots: Local<u32>,
    mut exit: MessageWriter<AppExit>,
) {
    let Some(dir) = &options.script else { return };
    let t = time.elapsed_secs();
    let Ok((mut input, mut vehicle)) = car.single_mut() else {
        return;
    };
    input.throttle = if t > 1.0 && t < 7.0 { 1.0 } else { 0.0 };
    input.steer = if t > 4.0 && t < 7.0 { 0.35 } else { 0.0 };
    input.brake = if t > 7.0 && t < 8.0 { 0.6 } else { 0.0 };
    // Record the drive above, replay it, detune the engine to 70 %, replay it again: the
    // Sim tab then plots the two replays and their difference.
    if let Some(&when) = [0.9, 8.9, 9.1, 17.1].get(*cue as usize)
        && t >= when
    {
        inspector.requests.push(match *cue {
            0 => Request::Record,
            1 => Request::StopRecording,
            2 => Request::Replay,
            _ => {
                for point in &mut vehicle.0.engine.torque_curve {
                    point[1] *= 0.7;
                }
                Request::Replay
            }
        });
        *cue += 1;
    }
    gizmos.enabled = true;
    let plan = [
        // A first capture, thrown away: here the first screenshot of a run returned an
        // early frame (the car at its spawn, no egui) however late it was taken.
        (2.0, Tab::Telemetry, ""),
        (4.5, Tab::Telemetry, "track_telemetry.png"),
        (6.5, Tab::Plots, "track_plots.png"),
        (8.5, Tab::Tune, "track_tune.png"),
        (25.5, Tab::Sim, "track_replay.png"),
    ];
    if let Some((at, tab, name)) = plan.get(*shots as usize) {
        if t > *at - 0.4 {
            inspector.tab = *tab;
        }
        if t > *at {
            std::fs::create_dir_all(dir).ok();
            let mut shot = commands.spawn(Screenshot::primary_window());
            if !name.is_empty() {
                shot.observe(save_to_disk(dir.join(name)));
            }
            *shots += 1;
        }
    } else if t > 27.5 {
        exit.write(AppExit::Success);
    }
}
