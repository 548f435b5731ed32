//! Three cameras on the player's car: a smoothed chase camera that pulls back with
//! speed, a bumper camera fixed to the car's nose, and a free orbit camera (right mouse
//! drag to turn, wheel to zoom). C (or V) and the HUD's buttons switch between them.
use bevy::core_pipeline::tonemapping::Tonemapping;
use bevy::input::mouse::{AccumulatedMouseMotion, AccumulatedMouseScroll};
use bevy::light::ShadowFilteringMethod;
use bevy::pbr::{DistanceFog, FogFalloff};
use bevy::prelude::*;
use wheelcollider::prelude::*;

use crate::car_bodies::Style;
use crate::car_visuals::ground_y;

/// Spawns the camera and moves it after the transforms are propagated.
pub struct CamerasPlugin;

impl Plugin for CamerasPlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(CameraMode::Chase)
            .add_systems(Startup, spawn_camera)
            .add_systems(PostUpdate, follow.after(TransformSystems::Propagate));
    }
}

/// Which camera is on.
#[derive(Resource, Clone, Copy, PartialEq, Debug)]
pub enum CameraMode {
    /// Behind and above the car, following it smoothly.
    Chase,
    /// On the car's nose, looking ahead.
    Bumper,
    /// Around the car at a yaw and pitch (°) and distance (m) the mouse sets.
    Orbit { yaw: f32, pitch: f32, distance: f32 },
}

impl CameraMode {
    /// The orbit camera's starting view.
    pub const ORBIT: CameraMode = CameraMode::Orbit {
        yaw: 40.0,
        pitch: 25.0,
        distance: 12.0,
    };

    /// The next camera in the cycle chase → bumper → orbit.
    pub fn next(self) -> Self {
        match self {
            CameraMode::Chase => CameraMode::Bumper,
            CameraMode::Bumper => CameraMode::ORBIT,
            CameraMode::Orbit { .. } => CameraMode::Chase,
        }
    }

    /// The camera's name in the HUD.
    pub fn name(self) -> &'static str {
        match self {
            CameraMode::Chase => "chase",
            CameraMode::Bumper => "bumper",
            CameraMode::Orbit { .. } => "orbit",
        }
    }
}

fn spawn_camera(mut commands: Commands) {
    commands.spawn((
        Camera3d::default(),
        Msaa::Off,
        Tonemapping::AcesFitted,
        // The cheapest filter: a software renderer spends most of a frame on shadows.
        ShadowFilteringMethod::Hardware2x2,
        Transform::from_xyz(0.0, 4.0, 10.0).looking_at(Vec3::ZERO, Vec3::Y),
        DistanceFog {
            color: Color::srgb(0.66, 0.76, 0.88),
            directional_light_color: Color::srgba(1.0, 0.95, 0.85, 0.4),
            directional_light_exponent: 30.0,
            falloff: FogFalloff::from_visibility_colors(
                900.0,
                Color::srgb(0.5, 0.55, 0.6),
                Color::srgb(0.8, 0.85, 0.9),
            ),
        },
    ));
}

/// What the cameras read of the player's car.
type PlayerCar = (
    Entity,
    &'static GlobalTransform,
    &'static Vehicle,
    Option<&'static VehicleTelemetry>,
);

fn follow(
    time: Res<Time>,
    mut mode: ResMut<CameraMode>,
    motion: Res<AccumulatedMouseMotion>,
    scroll: Res<AccumulatedMouseScroll>,
    buttons: Res<ButtonInput<MouseButton>>,
    car: Query<PlayerCar, (With<PlayerVehicle>, Without<Camera3d>)>,
    trailers: Query<(&Coupled, &Vehicle), Without<PlayerVehicle>>,
    mut cam: Query<(&mut Transform, &mut GlobalTransform, &mut Projection), With<Camera3d>>,
) {
    let (Ok((entity, car, vehicle, telemetry)), Ok((mut cam, mut global, mut projection))) =
        (car.single(), cam.single_mut())
    else {
        return;
    };
    // A trailer in tow: the chase camera backs off and rises by its length.
    let towed = trailers
        .iter()
        .find(|(c, _)| c.tow == entity)
        .map_or(0.0, |(_, t)| t.0.chassis.size[2] + 1.0);
    let settings = &vehicle.0;
    let length = settings.chassis.size[2];
    // Bigger cars get the camera further away: 7.5 m behind a 4.3 m hatch.
    let scale = (length / 4.3).clamp(0.5, 1.5);
    let target = car.translation() + Vec3::Y * 0.8 * scale;
    let speed = telemetry.map_or(0.0, |t| t.forward_speed.abs());
    let mut fov = 60f32;
    match &mut *mode {
        CameraMode::Chase => {
            let back = car.rotation() * Vec3::Z;
            let back = back.with_y(0.0).normalize_or(Vec3::Z);
            let distance = (6.5 + 0.06 * speed) * scale + towed;
            let want = target + back * distance + Vec3::Y * (2.0 * scale + 0.4 * towed);
            let k = 1.0 - (-5.0 * time.delta_secs()).exp();
            cam.translation = cam.translation.lerp(want, k);
            // Behind a two-wheeler the camera leans with it, by half its lean.
            let up = if settings.two_wheeler.is_some() {
                (Vec3::Y + car.up().as_vec3()).normalize_or(Vec3::Y)
            } else {
                Vec3::Y
            };
            cam.look_at(target, up);
            fov += (speed * 0.25).min(15.0);
        }
        CameraMode::Bumper => {
            let eye = match Style::of(settings) {
                Style::Kart => 0.95,
                Style::Motorcycle => 1.25,
                _ => 0.7,
            };
            let nose = Vec3::new(0.0, ground_y(settings) + eye, -length / 2.0 - 0.05);
            cam.translation = car.transform_point(nose);
            cam.rotation = car.rotation();
            fov = 75.0;
        }
        CameraMode::Orbit { yaw, pitch, distance } => {
            if buttons.pressed(MouseButton::Right) {
                *yaw -= motion.delta.x * 0.4;
                *pitch = (*pitch + motion.delta.y * 0.4).clamp(3.0, 89.0);
            }
            *distance = (*distance * (1.0 - 0.1 * scroll.delta.y)).clamp(2.0, 250.0);
            let (y, p) = (yaw.to_radians(), pitch.to_radians());
            let offset = Vec3::new(y.sin() * p.cos(), p.sin(), y.cos() * p.cos()) * *distance;
            cam.translation = target + offset;
            cam.look_at(target, Vec3::Y);
        }
    }
    // This runs after transform propagation (so that it sees where the car is drawn):
    // the camera (a root entity) gets its global transform here, not a frame late.
    *global = GlobalTransform::from(*cam);
    if let Projection::Perspective(p) = &mut *projection {
        let fov = fov.to_radians();
        if (p.fov - fov).abs() > 1e-3 {
            p.fov += (fov - p.fov) * (1.0 - (-4.0 * time.delta_secs()).exp());
        }
    }
}
