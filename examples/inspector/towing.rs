//! Towing on the proving ground: the `caravan` preset parked beside the start on its
//! jockey wheel, the `semitrailer` on its landing legs behind and left. H hitches the
//! nearest uncoupled trailer of the hitch's kind within reach behind the player's car
//! (it is put in line behind the ball or fifth wheel and coupled: the road car takes the
//! caravan, the tractor the semi-trailer) or unhitches the one it tows; the HUD shows
//! the articulation, the nose load and the trailer's brake. B hands the player's car to
//! a reversing [`VehicleDriver`]: it backs its trailer (or itself) 15 m straight and
//! round a 10 m quarter circle to its right, as into a bay; B again takes it back.
use std::sync::Arc;

use avian3d::prelude::*;
use bevy::prelude::*;
use wheelcollider::avian::drivers::Path;
use wheelcollider::avian::drivers::reversing::rear_axle_z;
use wheelcollider::inspector::bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use wheelcollider::prelude::*;

/// How far (m) from the player's ball a trailer's hitch head may be for H to hitch it.
const HITCH_REACH: f32 = 4.0;

/// Where the trailers are parked at start: the caravan behind and right of the
/// player's start, facing as it does, its hitch head 3 m from the road car's ball (H
/// hitches it at once); the semi-trailer behind and left, its kingpin 3.5 m from the
/// tractor's fifth wheel (H hitches it at once).
const PARKED: [(&str, Vec3); 2] = [
    ("caravan", Vec3::new(3.0, 0.0, 7.5)),
    ("semitrailer", Vec3::new(-2.6, 0.0, 9.5)),
];

pub struct TowingPlugin;

impl Plugin for TowingPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(Startup, park_trailers)
            .add_systems(Update, (hitch_key, back_up_key))
            .add_systems(EguiPrimaryContextPass, hud);
    }
}

/// Parks the trailers, unless the run is scripted (the README's pictures and the
/// effects' measurement count the cars they were made with).
fn park_trailers(mut commands: Commands, options: Res<crate::Options>) {
    if options.script.is_some() || options.sound_lap.is_some() {
        return;
    }
    for (name, place) in PARKED {
        let settings = VehicleSettings::preset(name).expect("a shipped trailer");
        let stand = settings.trailer.as_ref().map_or(0.4, |t| t.stand);
        // The coupling on its stand: `stand` above the ground.
        let y = stand - settings.trailer.as_ref().map_or(0.0, |t| t.coupling[1]) + 0.02;
        let at = Transform::from_translation(place + Vec3::Y * y);
        let trailer = spawn_vehicle(&mut commands, &settings, at).expect("a shipped trailer is valid");
        commands.entity(trailer).insert(TransformInterpolation);
    }
}

/// H: unhitch the player's trailer, or hitch the nearest one within [`HITCH_REACH`].
fn hitch_key(
    keys: Res<ButtonInput<KeyCode>>,
    mut commands: Commands,
    player: Query<(Entity, &Vehicle, &Transform), With<PlayerVehicle>>,
    trailers: Query<(Entity, &Vehicle, &Transform, Option<&Coupled>)>,
) {
    if !keys.just_pressed(KeyCode::KeyH) {
        return;
    }
    let Ok((car, vehicle, at)) = player.single() else {
        return;
    };
    if let Some((towed, ..)) = trailers.iter().find(|t| t.3.is_some_and(|c| c.tow == car)) {
        uncouple_trailer(&mut commands, towed);
        return;
    }
    let Some(hitch) = &vehicle.0.hitch else {
        info!("{} has no hitch", vehicle.0.name);
        return;
    };
    let ball = at.transform_point(Vec3::from(hitch.position));
    let nearest = trailers
        .iter()
        .filter(|t| t.3.is_none())
        .filter_map(|(e, v, t, _)| {
            let coupling = v.0.trailer.as_ref().filter(|c| c.kind == hitch.kind)?;
            let head = t.transform_point(Vec3::from(coupling.coupling));
            Some((e, v, head.distance(ball)))
        })
        .min_by(|a, b| a.2.total_cmp(&b.2));
    match nearest {
        Some((trailer, v, d)) if d <= HITCH_REACH => {
            if let Some(behind) = hitched_transform(&vehicle.0, *at, &v.0) {
                commands
                    .entity(trailer)
                    .insert((behind, LinearVelocity::ZERO, AngularVelocity::ZERO));
                couple_trailer(&mut commands, car, trailer);
            }
        }
        Some((_, _, d)) => info!("the nearest trailer is {d:.1} m from the ball (reach {HITCH_REACH} m)"),
        None => info!("no trailer to hitch"),
    }
}

/// B: hand the player's car to a reversing [`VehicleDriver`] on a path behind it (its
/// trailer's axles on the path when it tows one): 15 m straight, a quarter circle of
/// 10 m towards the car's right, 5 m on; B again takes it back.
fn back_up_key(
    keys: Res<ButtonInput<KeyCode>>,
    mut commands: Commands,
    player: Query<(Entity, &Vehicle, &Position, &Rotation, Has<VehicleDriver>), With<PlayerVehicle>>,
    trailers: Query<(&Coupled, &Vehicle, &Position, &Rotation)>,
) {
    if !keys.just_pressed(KeyCode::KeyB) {
        return;
    }
    let Ok((car, vehicle, p, q, driven)) = player.single() else {
        return;
    };
    if driven {
        commands.entity(car).remove::<VehicleDriver>();
        return;
    }
    // The point the driver puts on the path, and the way it backs.
    let (start, back) = match trailers.iter().find(|t| t.0.tow == car) {
        Some((_, t, tp, tq)) => {
            let z = t.0.axles.iter().map(|a| a.z).sum::<f32>() / t.0.axles.len().max(1) as f32;
            (tp.0 + tq.0 * Vec3::new(0.0, 0.0, z), tq.0 * Vec3::Z)
        }
        None => (p.0 + q.0 * Vec3::new(0.0, 0.0, rear_axle_z(&vehicle.0)), q.0 * Vec3::Z),
    };
    let (start, back) = (start.with_y(0.0), back.with_y(0.0).normalize_or_zero());
    // Backing along `back`, the car's right is the way's left.
    let left = Vec3::Y.cross(back);
    let (straight, radius, step) = (15.0, 10.0, 0.5);
    let mut points: Vec<Vec3> = (0..(straight / step) as usize)
        .map(|i| start + back * step * i as f32)
        .collect();
    let centre = start + back * straight + left * radius;
    let n = (std::f32::consts::FRAC_PI_2 * radius / step) as usize;
    points.extend((0..n).map(|k| {
        let a = std::f32::consts::FRAC_PI_2 * k as f32 / n as f32;
        centre - left * radius * a.cos() + back * radius * a.sin()
    }));
    let end = centre + back * radius;
    points.extend((0..=10).map(|i| end + left * step * i as f32));
    let path = Arc::new(Path::new(points, false, 10.0));
    commands
        .entity(car)
        .insert(VehicleDriver::new(path, 0.7).reversing(1.5));
}

/// The towed trailer's articulation, nose load and brake under the main HUD.
fn hud(
    mut contexts: EguiContexts,
    player: Query<Entity, With<PlayerVehicle>>,
    trailers: Query<(&Coupled, &HitchTelemetry)>,
) {
    let Ok(car) = player.single() else { return };
    let Ok(ctx) = contexts.ctx_mut() else { return };
    let text = match trailers.iter().find(|(c, _)| c.tow == car) {
        Some((_, t)) => format!(
            "trailer: {:+.0}° {}  nose {:.2} kN  push {:+.2} kN  brake {:.0} %   H unhitch",
            t.yaw,
            if t.jackknifed { "JACKKNIFED" } else { "" },
            t.nose_load / 1000.0,
            t.push / 1000.0,
            t.brake * 100.0
        ),
        None => "H hitches a trailer of the hitch's kind within 4 m".to_string(),
    };
    egui::Area::new(egui::Id::new("towing"))
        .anchor(egui::Align2::RIGHT_TOP, [-12.0, 12.0])
        .show(ctx, |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| {
                ui.label(text);
            });
        });
}
