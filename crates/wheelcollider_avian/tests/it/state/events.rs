//! Wheel and vehicle events fire exactly once per transition and never while a state
//! holds: a drop (contact, landing with its closed-form impact speed), a locked-wheel
//! stop (skid started, then ended), asphalt onto gravel (surface changed), a launch
//! (gear changes), and none at all without the opt-in marker.
use crate::common;
use avian3d::prelude::*;
use bevy::prelude::*;
use common::*;
use std::collections::HashMap;
use wheelcollider_avian::prelude::*;

const HZ: f64 = 60.0;

/// Every event the observers saw, by kind and entity.
#[derive(Resource, Default, Debug)]
struct Seen {
    contact_started: HashMap<Entity, u32>,
    contact_ended: HashMap<Entity, u32>,
    skid_started: HashMap<Entity, u32>,
    skid_ended: HashMap<Entity, u32>,
    surface_changed: Vec<(Entity, WheelSurface, WheelSurface)>,
    landed: Vec<Landed>,
    gears: Vec<(i32, i32)>,
    /// `Landed` as read from its message buffer, by a `MessageReader`.
    landed_messages: u32,
}

fn count(map: &mut HashMap<Entity, u32>, e: Entity) {
    *map.entry(e).or_default() += 1;
}

/// An app whose observers record every event into [`Seen`].
fn app_with_observers() -> App {
    let mut app = app(HZ);
    app.init_resource::<Seen>();
    let world = app.world_mut();
    world.add_observer(|e: On<WheelContactStarted>, mut s: ResMut<Seen>| count(&mut s.contact_started, e.wheel));
    world.add_observer(|e: On<WheelContactEnded>, mut s: ResMut<Seen>| count(&mut s.contact_ended, e.wheel));
    world.add_observer(|e: On<SkidStarted>, mut s: ResMut<Seen>| count(&mut s.skid_started, e.wheel));
    world.add_observer(|e: On<SkidEnded>, mut s: ResMut<Seen>| count(&mut s.skid_ended, e.wheel));
    world.add_observer(|e: On<SurfaceChanged>, mut s: ResMut<Seen>| s.surface_changed.push((e.wheel, e.from, e.to)));
    world.add_observer(|e: On<Landed>, mut s: ResMut<Seen>| s.landed.push(*e.event()));
    world.add_observer(|e: On<GearChanged>, mut s: ResMut<Seen>| s.gears.push((e.from, e.to)));
    app.add_systems(FixedPostUpdate, |mut r: MessageReader<Landed>, mut s: ResMut<Seen>| {
        s.landed_messages += r.read().count() as u32;
    });
    app
}

/// A preset car (`edit` applied) at height `y`, with events enabled on its chassis when
/// `events`.
fn car(app: &mut App, name: &str, y: f32, events: bool, edit: impl Fn(&mut VehicleSettings)) -> Entity {
    let mut settings = preset(name);
    edit(&mut settings);
    let car = spawn_preset_car(app, &settings, Transform::from_xyz(0.0, y, 0.0));
    if events {
        app.world_mut().entity_mut(car).insert(WheelEventsEnabled);
    }
    car
}

fn seen(app: &App) -> &Seen {
    app.world().resource::<Seen>()
}

fn wheels_of(app: &App, car: Entity) -> Vec<Entity> {
    app.world().get::<ChassisWheels>(car).unwrap().wheels().to_vec()
}

fn controls(app: &mut App, car: Entity, f: impl Fn(&mut VehicleInput)) {
    f(&mut app.world_mut().get_mut::<VehicleInput>(car).unwrap());
}

#[test]
fn a_drop_lands_once_with_the_free_fall_speed() {
    let mut app = app_with_observers();
    flat(&mut app, None);
    let car = car(&mut app, "road", 1.5, true, |_| {});
    run(&mut app, steps(3.0, HZ));
    let s = seen(&app);
    println!("measured: drop: {:?}", s.landed);
    assert_eq!(s.landed.len(), 1, "one landing");
    let l = s.landed[0];
    // Released at rest: it touches at g·t, t the time in the air plus the step in which
    // it touched (measured 4.087 m/s against 4.087).
    let expected = G * (l.airborne_time + 1.0 / HZ as f32);
    assert!(
        (l.impact_speed - expected).abs() < 0.02 * expected,
        "{l:?} vs {expected}"
    );
    for w in wheels_of(&app, car) {
        assert_eq!(s.contact_started.get(&w), Some(&1), "each wheel touches once");
        assert_eq!(s.contact_ended.get(&w), None, "and stays down");
    }
    // The message buffer carries the same single landing.
    assert_eq!(s.landed_messages, 1);
}

#[test]
fn locked_wheels_skid_once_and_stop_skidding_once() {
    let mut app = app_with_observers();
    flat(&mut app, None);
    let car = car(&mut app, "rally", 0.6, true, |s| s.gearbox.auto_reverse = false);
    run(&mut app, steps(1.0, HZ));
    launch(&mut app, car, 20.0);
    controls(&mut app, car, |c| c.brake = 1.0);
    run(&mut app, steps(1.0, HZ));
    let wheels = wheels_of(&app, car);
    let s = seen(&app);
    println!("measured: braking: skids started {:?}", s.skid_started);
    for w in &wheels {
        assert_eq!(s.skid_started.get(w), Some(&1), "every locked wheel skids once");
        assert_eq!(s.skid_ended.get(w), None, "and keeps skidding while locked");
        let effects = app.world().get::<WheelEffects>(*w).unwrap();
        assert!(effects.skid_intensity > 0.9 && effects.patch.is_some(), "{effects:?}");
    }
    controls(&mut app, car, |c| c.brake = 0.0);
    run(&mut app, steps(1.0, HZ));
    let s = seen(&app);
    for w in &wheels {
        assert_eq!(s.skid_started.get(w), Some(&1));
        assert_eq!(s.skid_ended.get(w), Some(&1), "released, each stops skidding once");
    }
}

#[test]
fn rolling_onto_gravel_changes_surface_once_per_wheel() {
    let mut app = app_with_observers();
    // Asphalt behind z = −5, gravel ahead (the car drives towards −Z): two boxes, one top.
    app.world_mut().spawn((
        RigidBody::Static,
        Collider::cuboid(40.0, 1.0, 100.0),
        Transform::from_xyz(0.0, -0.5, 45.0),
    ));
    app.world_mut().spawn((
        RigidBody::Static,
        Collider::cuboid(40.0, 1.0, 100.0),
        Transform::from_xyz(0.0, -0.5, -55.0),
        WheelSurface::GRAVEL,
    ));
    let car = car(&mut app, "road", 0.6, true, |_| {});
    let width = preset("road").axles[0].wheel.width();
    run(&mut app, steps(1.0, HZ));
    launch(&mut app, car, 10.0);
    controls(&mut app, car, |c| c.throttle = 0.3);
    run(&mut app, steps(2.0, HZ));
    let s = seen(&app);
    println!("measured: surface changes {}", s.surface_changed.len());
    let wheels = wheels_of(&app, car);
    for w in &wheels {
        let changes: Vec<_> = s.surface_changed.iter().filter(|c| c.0 == *w).collect();
        assert_eq!(changes.len(), 1, "{w}: {changes:?}");
        assert_eq!(
            (changes[0].1, changes[0].2),
            (WheelSurface::ASPHALT, WheelSurface::GRAVEL)
        );
        let patch = app.world().get::<WheelEffects>(*w).unwrap().patch.unwrap();
        assert_eq!(patch.surface, WheelSurface::GRAVEL);
        assert!((patch.width - width).abs() < 1e-6);
    }
}

#[test]
fn every_finished_shift_is_one_gear_change() {
    let mut app = app_with_observers();
    flat(&mut app, None);
    let car = car(&mut app, "road", 0.6, true, |_| {});
    run(&mut app, steps(1.0, HZ));
    controls(&mut app, car, |c| c.throttle = 1.0);
    let mut gears = vec![];
    for _ in 0..steps(12.0, HZ) {
        run(&mut app, 1);
        let g = app.world().get::<VehicleTelemetry>(car).unwrap().powertrain.gear;
        if gears.last() != Some(&g) {
            gears.push(g);
        }
    }
    let s = seen(&app);
    let expected: Vec<(i32, i32)> = gears.windows(2).map(|w| (w[0], w[1])).collect();
    println!("measured: gears {gears:?}, events {:?}", s.gears);
    assert!(expected.len() >= 3, "{gears:?}");
    assert_eq!(s.gears, expected);
}

#[test]
fn nothing_fires_without_the_marker() {
    let mut app = app_with_observers();
    flat(&mut app, None);
    let car = car(&mut app, "rally", 1.5, false, |_| {});
    run(&mut app, steps(2.0, HZ));
    launch(&mut app, car, 20.0);
    controls(&mut app, car, |c| c.brake = 1.0);
    run(&mut app, steps(1.0, HZ));
    let s = seen(&app);
    assert!(s.landed.is_empty() && s.contact_started.is_empty() && s.skid_started.is_empty() && s.gears.is_empty());
    assert_eq!(s.landed_messages, 0);
    for w in wheels_of(&app, car) {
        assert!(app.world().get::<WheelEffects>(w).is_none());
    }
}
