//! What a networking library needs of a vehicle: an existing entity made a vehicle, a
//! chassis' marker on its wheels, entities mapped between worlds, state compared.

use crate::common::*;
use bevy::ecs::entity::{EntityHashMap, MapEntities};
use bevy::prelude::*;
use wheelcollider_avian::prelude::*;
use wheelcollider_avian::vehicle::VehicleRuntime;

/// A marker a networking library would put on the chassis (its prediction marker).
#[derive(Component, Clone, Debug, PartialEq)]
struct Marker(u32);

fn wheels_of(app: &App, car: Entity) -> Vec<Entity> {
    app.world()
        .get::<ChassisWheels>(car)
        .expect("a chassis")
        .wheels()
        .to_vec()
}

/// `insert_vehicle` on an entity that already exists drives bit for bit as
/// `spawn_vehicle`'s car: 2 s of throttle and steer on the road car, at 60 Hz; an
/// invalid settings changes nothing and says why.
#[test]
fn an_existing_entity_made_a_vehicle_drives_as_a_spawned_one() {
    let settings = preset("road");
    let place = Transform::from_xyz(0.0, settings.touch_height(), 0.0);
    let drive = |inserted: bool| {
        let (mut app, _) = (app(60.0), ());
        flat(&mut app, None);
        let car = if inserted {
            let e = app.world_mut().spawn((place, Name::new("replicated"))).id();
            let world = app.world_mut();
            insert_vehicle(&mut world.commands(), e, &settings, WheelPlacement::Children).expect("valid");
            world.flush();
            e
        } else {
            spawn_preset_car(&mut app, &settings, place)
        };
        set_controls(&mut app, car, |i| {
            i.throttle = 0.6;
            i.steer = 0.3;
        });
        run(&mut app, 120);
        (position(&app, car), rotation(&app, car), wheels_of(&app, car).len())
    };
    let (spawned, inserted) = (drive(false), drive(true));
    println!("measured: spawned {:?}, inserted {:?}", spawned.0, inserted.0);
    assert!(spawned.0.length() > 1.0, "the car drove: {:?}", spawned.0);
    assert_eq!(spawned, inserted);

    let mut app = app(60.0);
    let e = app.world_mut().spawn(place).id();
    let mut bad = settings.clone();
    bad.chassis.mass = f32::NAN;
    let world = app.world_mut();
    let error = insert_vehicle(&mut world.commands(), e, &bad, WheelPlacement::Children).unwrap_err();
    world.flush();
    println!("measured: {error}");
    assert!(error.to_string().contains("mass"), "{error}");
    assert!(app.world().get::<Vehicle>(e).is_none() && app.world().get::<ChassisWheels>(e).is_none());
}

/// `mark_wheels_with::<M>()`: a marker inserted on a chassis reaches its four wheels
/// (with its value), a car spawned already marked marks its wheels as they join, and
/// removing it from the chassis removes it from the wheels.
#[test]
fn a_chassis_marker_reaches_its_wheels() {
    let mut app = app(60.0);
    app.mark_wheels_with::<Marker>();
    flat(&mut app, None);
    let settings = preset("road");
    let car = spawn_preset_car(
        &mut app,
        &settings,
        Transform::from_xyz(0.0, settings.touch_height(), 0.0),
    );
    run(&mut app, 1);
    let marked = |app: &App, car| {
        wheels_of(app, car)
            .iter()
            .filter_map(|&w| app.world().get::<Marker>(w).cloned())
            .collect::<Vec<_>>()
    };
    assert!(marked(&app, car).is_empty());
    app.world_mut().entity_mut(car).insert(Marker(7));
    run(&mut app, 1);
    assert_eq!(marked(&app, car), vec![Marker(7); 4]);
    app.world_mut().entity_mut(car).remove::<Marker>();
    run(&mut app, 1);
    assert!(marked(&app, car).is_empty());

    let second = {
        let world = app.world_mut();
        let e = world
            .spawn((Transform::from_xyz(5.0, settings.touch_height(), 0.0), Marker(9)))
            .id();
        insert_vehicle(&mut world.commands(), e, &settings, WheelPlacement::OutsideHierarchy).expect("valid");
        world.flush();
        e
    };
    run(&mut app, 1);
    assert_eq!(marked(&app, second), vec![Marker(9); 4]);
}

/// Every entity a vehicle's components hold is mapped by `MapEntities` (what a
/// networking library or a scene does between two worlds): the anti-roll bar's partner,
/// the ground a wheel stands on (`WheelOutput`'s hit), the driveline's wheels, the
/// runtime's wheel list. Checked by mapping each to a fresh entity and finding none of
/// the old ones left in its `Debug` text.
#[test]
fn a_vehicles_entities_are_mapped_between_worlds() {
    let settings = preset("road");
    let (mut app, car) = on_flat(&settings, 60.0);
    run(&mut app, 30);
    let wheels = wheels_of(&app, car);
    let ground = output(&app, wheels[0]).hit.expect("grounded").entity;
    let mut map = EntityHashMap::<Entity>::default();
    for (i, &e) in wheels.iter().chain([&car, &ground]).enumerate() {
        map.insert(e, Entity::from_raw_u32(900_000 + i as u32).expect("a valid index"));
    }
    let old: Vec<String> = map.keys().map(|e| format!("{e:?}")).collect();
    let unmapped = |text: String| {
        old.iter()
            .filter(|o| text.contains(o.as_str()))
            .cloned()
            .collect::<Vec<_>>()
    };
    let world = app.world();
    let mut bar = *world.get::<AntiRollBar>(wheels[0]).expect("the road car has bars");
    bar.map_entities(&mut map);
    let mut out = world.get::<WheelOutput>(wheels[0]).unwrap().clone();
    out.map_entities(&mut map);
    let mut line = *world.get::<WheelDriveline>(car).unwrap();
    line.map_entities(&mut map);
    let mut runtime = world.get::<VehicleRuntime>(car).unwrap().clone();
    let before = runtime.clone();
    runtime.map_entities(&mut map);
    for text in [
        format!("{bar:?}"),
        format!("{out:?}"),
        format!("{line:?}"),
        format!("{runtime:?}"),
    ] {
        assert!(
            unmapped(text.clone()).is_empty(),
            "unmapped {:?} in {text}",
            unmapped(text.clone())
        );
    }
    assert!(
        format!("{runtime:?}") != format!("{before:?}"),
        "the runtime names its wheels"
    );
    // What a prediction library compares: equal state is equal whatever the mapping.
    assert_eq!(runtime, before);
}

/// `VehicleRuntime`'s equality is its state's: a clone is equal, one step of throttle
/// later it is not (the engine sped up), and the scratch buffers do not count.
#[test]
fn a_runtime_equals_another_with_the_same_state() {
    let settings = preset("road");
    let (mut app, car) = on_flat(&settings, 60.0);
    run(&mut app, 30);
    let before = app.world().get::<VehicleRuntime>(car).unwrap().clone();
    set_controls(&mut app, car, |i| i.throttle = 1.0);
    run(&mut app, 1);
    let after = app.world().get::<VehicleRuntime>(car).unwrap().clone();
    assert_eq!(before, before.clone());
    assert_ne!(before, after);
    let mut same_state = VehicleRuntime::default();
    same_state.state = before.state.clone();
    same_state.settings = before.settings.clone();
    assert_eq!(same_state, before, "buffers are not state");
}
