//! Towing worlds for the instruction bench: `n` tow vehicles (a shipped preset with a
//! hitch) each with the shipped trailer of its hitch's kind, coupled behind it, or the
//! same two vehicles apart (the trailer parked on its stand beside it): the difference
//! is what a hitch costs a step (`--towing`, `docs/performance.md`).
use bevy::prelude::*;
use wheelcollider_avian::prelude::*;
use wheelcollider_avian::vehicle::towing::{couple_trailer, hitched_transform};

use crate::headless_app;

/// `n` pairs of `tow` (a shipped preset with a hitch) and its trailer, 30 m apart side
/// by side on flat ground, the tow vehicles at 3/10 throttle; `coupled`: each trailer
/// behind its tow vehicle on the hitch, else parked 6 m to its side. One compute thread.
pub fn app(n: usize, tow: &str, coupled: bool) -> App {
    let mut app = headless_app(1);
    let settings = VehicleSettings::preset(tow).expect("a shipped preset");
    let kind = settings.hitch.as_ref().expect("a tow vehicle").kind;
    let trailer = ["caravan", "semitrailer"]
        .into_iter()
        .filter_map(|t| VehicleSettings::preset(t).ok())
        .find(|t| t.trailer.as_ref().is_some_and(|c| c.kind == kind))
        .expect("a shipped trailer of the hitch's kind");
    let world = app.world_mut();
    world.spawn((
        avian3d::prelude::RigidBody::Static,
        avian3d::prelude::Collider::half_space(Vec3::Y),
    ));
    let mut commands = world.commands();
    let mut cars = vec![];
    for i in 0..n {
        let at = Transform::from_xyz(30.0 * i as f32, settings.touch_height() + 0.01, 0.0);
        let car = spawn_vehicle(&mut commands, &settings, at).expect("valid");
        let mut place = hitched_transform(&settings, at, &trailer).expect("a hitch and a trailer");
        if !coupled {
            place.translation.x += 6.0;
            let stand = trailer.trailer.as_ref().map_or(0.4, |t| t.stand - t.coupling[1]);
            place.translation.y = place.translation.y.max(stand + 0.02);
        }
        let towed = spawn_vehicle(&mut commands, &trailer, place).expect("valid");
        if coupled {
            couple_trailer(&mut commands, car, towed);
        }
        cars.push(car);
    }
    world.flush();
    app.finish();
    app.cleanup();
    app.update();
    for car in cars {
        app.world_mut()
            .get_mut::<VehicleInput>(car)
            .expect("a vehicle")
            .0
            .throttle = 0.3;
    }
    app
}
