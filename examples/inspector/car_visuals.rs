//! A car you recognise for each shipped preset, built from primitives and tapered boxes
//! sized from the preset (chassis length and width, axle positions, wheel size): a hatch
//! (`road`), a rally hatch in livery (`rally`), a coupé with a wing (`gt86`), a kart with
//! its driver (`kart`). Wheels get tyres, dark rims with bright spokes (so that spin,
//! steer and camber show) and the cars brake lights that light when braking.
//!
//! The look is rebuilt whenever the preset's name or dimensions change, so loading
//! another preset in the inspector changes the car in place.
use std::f32::consts::{FRAC_PI_2, TAU};

use crate::bike_bodies::motorcycle;
use crate::car_bodies::{Painter, Style, kart, saloon};
use crate::tank_bodies::{Deck, move_belts, tank};
use crate::truck_bodies::{caravan, truck};

use bevy::prelude::*;
use wheelcollider::prelude::*;

/// Dresses vehicles and lights their brake lights.
pub struct CarVisualsPlugin;

impl Plugin for CarVisualsPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(Update, (dress_cars, brake_lights, move_belts).chain());
    }
}

/// A colour variant for a car (traffic cars get different paint); 0 without.
#[derive(Component, Clone, Copy, Default)]
pub struct Livery(pub usize);

/// The look a car was last dressed with.
#[derive(Component)]
pub struct CarLook {
    /// What the look was built from; rebuilt when it changes.
    key: String,
    /// The entity holding the body's parts (a child of the chassis).
    body: Entity,
    /// The brake lights' material, and whether it is lit.
    tail: Handle<StandardMaterial>,
    lit: bool,
}

/// What a look depends on: the preset's name, its chassis and its wheels.
fn look_key(settings: &VehicleSettings, livery: usize) -> String {
    let wheels: Vec<_> = settings
        .axles
        .iter()
        .map(|a| (a.z, a.half_track, a.wheel.radius(), a.wheel.width()))
        .collect();
    format!("{} {:?} {wheels:?} {livery}", settings.name, settings.chassis.size)
}

/// The ground's height in the chassis' frame when the car stands on flat ground: the
/// wheels' touch height less the springs' static sag.
pub fn ground_y(settings: &VehicleSettings) -> f32 {
    let stiffness: f32 = settings
        .axles
        .iter()
        .map(|a| a.wheel_count() as f32 * a.wheel.suspension_spring())
        .sum();
    let min_travel = settings
        .axles
        .iter()
        .map(|a| a.wheel.suspension_length())
        .fold(f32::MAX, f32::min);
    let sag = (settings.chassis.mass * 9.81 / stiffness.max(1.0)).min(min_travel);
    -settings.touch_height() + sag
}

fn dress_cars(
    mut commands: Commands,
    cars: Query<(Entity, Ref<Vehicle>, Option<&CarLook>, Option<&Livery>)>,
    wheels: Query<(Entity, &VehicleWheel, &WheelOf, Option<&WheelModel>)>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    let mut painter = Painter {
        meshes: &mut meshes,
        materials: &mut materials,
    };
    for (car, vehicle, look, livery) in &cars {
        if look.is_some() && !vehicle.is_changed() {
            continue;
        }
        let livery = livery.map_or(0, |l| l.0);
        let settings = &vehicle.0;
        let key = look_key(settings, livery);
        if look.is_some_and(|l| l.key == key) {
            continue;
        }
        let our_wheels: Vec<_> = wheels.iter().filter(|w| w.2.0 == car).collect();
        if our_wheels.is_empty() {
            continue; // spawned this frame: its wheels come with the commands
        }
        if let Some(old) = look {
            commands.entity(old.body).despawn();
        }
        let style = Style::of(settings);
        let tail = painter.lamp(LinearRgba::rgb(0.6, 0.0, 0.0));
        let body = commands
            .spawn((Transform::default(), Visibility::default(), ChildOf(car)))
            .id();
        commands.entity(body).with_children(|c| match style {
            Style::Kart => kart(c, &mut painter, settings, livery, &tail),
            Style::Caravan => caravan(c, &mut painter, settings, &tail),
            Style::Truck => truck(c, &mut painter, settings, livery, &tail),
            Style::Motorcycle => motorcycle(c, &mut painter, settings, livery, &tail),
            Style::Tank => tank(c, &mut painter, settings, livery, &tail, Deck::Turret),
            Style::Carrier => tank(c, &mut painter, settings, livery, &tail, Deck::Cupola),
            _ => saloon(c, &mut painter, settings, style, livery, &tail),
        });
        commands.entity(car).insert((
            CarLook {
                key,
                body,
                tail,
                lit: false,
            },
            Visibility::default(),
        ));
        for (wheel, place, _, model) in our_wheels {
            if let Some(old) = model {
                commands.entity(old.0).despawn();
            }
            let w = &settings.axles[place.axle.min(settings.axles.len() - 1)].wheel;
            let model = commands
                .spawn((Transform::default(), Visibility::default(), ChildOf(wheel)))
                .id();
            commands
                .entity(model)
                .with_children(|c| wheel_model(c, &mut painter, w.radius(), w.width(), style));
            commands
                .entity(wheel)
                .insert((WheelModel(model), Visibility::default()));
        }
    }
}

/// A tyre (a tube), a dark rim barrel, five bright spokes and a hub on each face.
fn wheel_model(c: &mut ChildSpawnerCommands, p: &mut Painter, r: f32, w: f32, style: Style) {
    let rubber = p.material(Color::srgb(0.04, 0.04, 0.045), 0.0, 0.9);
    let dark = p.material(Color::srgb(0.12, 0.12, 0.13), 0.3, 0.6);
    let rim_colour = match style {
        Style::Rally => Color::srgb(0.95, 0.95, 0.95),
        Style::Coupe => Color::srgb(0.3, 0.3, 0.32),
        _ => Color::srgb(0.8, 0.8, 0.83),
    };
    let rim = p.material(rim_colour, 0.8, 0.3);
    let axle_x = Quat::from_rotation_y(FRAC_PI_2);
    let bead = if style == Style::Kart { 0.6 } else { 0.66 };
    p.part(
        c,
        Extrusion::new(Annulus::new(r * bead, r), w),
        &rubber,
        Transform::from_rotation(axle_x),
    );
    p.part(
        c,
        Extrusion::new(Annulus::new(r * (bead - 0.06), r * bead), w * 0.84),
        &rim,
        Transform::from_rotation(axle_x),
    );
    p.part(
        c,
        Cylinder::new(r * bead, w * 0.6),
        &dark,
        Transform::from_rotation(Quat::from_rotation_z(FRAC_PI_2)),
    );
    for side in [-1.0f32, 1.0] {
        let x = side * (w * 0.3 + 0.006);
        for k in 0..5 {
            let spin = Quat::from_rotation_x(TAU * k as f32 / 5.0);
            p.part(
                c,
                Cuboid::new(0.012, r * bead * 0.92, r * 0.13),
                &rim,
                Transform::from_translation(Vec3::new(x, 0.0, 0.0) + spin * Vec3::Y * r * bead * 0.46)
                    .with_rotation(spin),
            );
        }
        p.part(
            c,
            Cylinder::new(r * 0.16, 0.03),
            &rim,
            Transform::from_xyz(x, 0.0, 0.0).with_rotation(Quat::from_rotation_z(FRAC_PI_2)),
        );
    }
}

/// Brake lights: bright while the brake pedal is pressed, dim otherwise.
fn brake_lights(mut cars: Query<(&mut CarLook, &VehicleInput)>, mut materials: ResMut<Assets<StandardMaterial>>) {
    for (mut look, input) in &mut cars {
        let lit = input.brake > 0.05;
        if lit != look.lit
            && let Some(mut m) = materials.get_mut(&look.tail)
        {
            m.emissive = if lit {
                LinearRgba::rgb(3.0, 0.02, 0.01)
            } else {
                LinearRgba::rgb(0.6, 0.0, 0.0)
            };
            look.lit = lit;
        }
    }
}
