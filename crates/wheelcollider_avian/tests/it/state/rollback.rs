//! Rollback: the state a rollback library (bevy_ggrs, lightyear) must save and restore,
//! listed in `docs/plugin.md`, is enough to replay 100 steps bit for bit, whether it is
//! saved by `Clone` or through reflection alone; without `WheelState` it is not.
use crate::common;
use avian3d::prelude::*;
use bevy::ecs::reflect::ReflectComponent;
use bevy::prelude::*;
use bevy::reflect::PartialReflect;
use common::*;
use std::any::TypeId;
use std::hash::{Hash, Hasher};
use wheelcollider_avian::prelude::*;
use wheelcollider_avian::vehicle::VehicleRuntime;

/// Puts one saved component back.
type Restore = Box<dyn Fn(&mut World) + Send + Sync>;

/// Clones of every listed component of `entity` that it has.
struct Saved {
    entity: Entity,
    save: Vec<Restore>,
}

macro_rules! save {
    ($world:expr, $entity:expr, $saved:expr, $($t:ty),* $(,)?) => {
        $(
            if let Some(c) = $world.get::<$t>($entity).cloned() {
                let e = $entity;
                $saved.push(Box::new(move |w: &mut World| {
                    w.entity_mut(e).insert(c.clone());
                }) as Restore);
            }
        )*
    };
}

/// A snapshot of the chassis and its wheels: the body's pose and velocities, the
/// plugin's per-chassis and per-wheel state, the vehicle's state and input; with
/// `wheel_state` false, without the wheels' `WheelState`.
fn snapshot(world: &World, car: Entity, wheel_state: bool) -> Vec<Saved> {
    let mut out = vec![];
    let mut entities = vec![car];
    entities.extend(world.get::<ChassisWheels>(car).unwrap().wheels());
    for e in entities {
        let mut save = vec![];
        save!(
            world,
            e,
            save,
            Transform,
            Position,
            Rotation,
            LinearVelocity,
            AngularVelocity,
            ChassisState,
            VehicleRuntime,
            VehicleInput,
            VehicleTelemetry,
            WheelOutput,
            WheelInput,
            WheelEffects,
        );
        if wheel_state {
            save!(world, e, save, WheelState);
        }
        out.push(Saved { entity: e, save });
    }
    out
}

fn restore(world: &mut World, saved: &[Saved]) {
    for s in saved {
        assert!(world.get_entity(s.entity).is_ok());
        for f in &s.save {
            f(world);
        }
    }
}

/// 100 steps of throttle and steer; the hash of every step's pose and wheel spins.
fn hundred_steps(app: &mut App, car: Entity) -> (u64, Vec3) {
    {
        let mut input = app.world_mut().get_mut::<VehicleInput>(car).unwrap();
        input.throttle = 0.6;
        input.steer = 0.4;
    }
    let wheels = app.world().get::<ChassisWheels>(car).unwrap().wheels().to_vec();
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    for _ in 0..100 {
        app.update();
        let p = position(app, car);
        let q = rotation(app, car);
        [p.x, p.y, p.z, q.x, q.y, q.z, q.w].map(f32::to_bits).hash(&mut hasher);
        for &w in &wheels {
            state(app, w).output.angular_velocity.to_bits().hash(&mut hasher);
        }
    }
    (hasher.finish(), position(app, car))
}

/// The plugin's listed components, as a reflection-based snapshot takes them: each
/// through its registered `ReflectComponent`, `to_dynamic` to save and `apply` to
/// restore (a field that is `#[reflect(ignore)]` would be lost here). The body's own
/// state is saved by `Clone` ([`snapshot`] without the plugin's).
fn reflected_snapshot(world: &World, car: Entity) -> Vec<Restore> {
    let registry = world.resource::<AppTypeRegistry>().read();
    let types = [
        TypeId::of::<ChassisState>(),
        TypeId::of::<VehicleRuntime>(),
        TypeId::of::<VehicleInput>(),
        TypeId::of::<WheelState>(),
        TypeId::of::<WheelOutput>(),
        TypeId::of::<WheelInput>(),
    ];
    let mut entities = vec![car];
    entities.extend(world.get::<ChassisWheels>(car).unwrap().wheels());
    let mut out: Vec<Restore> = vec![];
    for e in entities {
        for t in types {
            let rc = registry.get(t).unwrap().data::<ReflectComponent>().unwrap().clone();
            let Some(value) = rc.reflect(world.entity(e)) else {
                continue;
            };
            let saved: Box<dyn PartialReflect> = value.to_dynamic();
            out.push(Box::new(move |w: &mut World| {
                rc.apply(w.entity_mut(e), saved.as_partial_reflect());
            }));
        }
    }
    out
}

/// Settles `name` for a second, saves it with `save`, drives 100 steps, restores, drives
/// the same 100 steps again: (the two runs' hashes, end positions, the start).
fn save_drive_restore_drive<S>(
    name: &str,
    save: impl Fn(&World, Entity) -> S,
    restore: impl Fn(&mut World, &S),
) -> ((u64, Vec3), (u64, Vec3), Vec3) {
    let mut app = app(60.0);
    flat(&mut app, None);
    let car = spawn_preset_car(&mut app, &preset(name), Transform::from_xyz(0.0, 0.6, 0.0));
    app.world_mut().entity_mut(car).insert(WheelEventsEnabled);
    run(&mut app, steps(1.0, 60.0));
    let start = position(&app, car);
    let saved = save(app.world(), car);
    let first = hundred_steps(&mut app, car);
    restore(app.world_mut(), &saved);
    let again = hundred_steps(&mut app, car);
    (first, again, start)
}

/// Saved through reflection alone, the plugin's components replay bit for bit: every
/// field a step reads is reflected. Left out, `WheelState` makes the replay differ (the
/// check can fail).
#[test]
fn a_reflection_snapshot_replays_bit_for_bit_and_needs_the_wheel_state() {
    let ((a, pa), (b, pb), start) = save_drive_restore_drive(
        "road",
        |w, car| (snapshot(w, car, false), reflected_snapshot(w, car)),
        |w, (body, plugin)| {
            restore(w, body);
            plugin.iter().for_each(|f| f(w));
        },
    );
    println!("measured: reflected: first run {a:016x} at {pa}, replay {b:016x} at {pb}");
    assert!((pa - start).length() > 2.0, "it drove {} m", (pa - start).length());
    assert_eq!(a, b, "the replay from a reflection snapshot differs");
    let ((a, _), (b, _), _) = save_drive_restore_drive("road", |w, car| snapshot(w, car, false), |w, s| restore(w, s));
    println!("measured: without WheelState: first run {a:016x}, replay {b:016x}");
    assert_ne!(a, b, "a replay without the wheels' state should differ");
}

/// Every shipped preset, saved by `Clone`, replays bit for bit.
#[test]
fn restoring_the_listed_state_replays_bit_for_bit() {
    for name in PRESETS {
        let ((a, pa), (b, pb), start) =
            save_drive_restore_drive(name, |w, car| snapshot(w, car, true), |w, s| restore(w, s));
        println!("measured: {name}: first run {a:016x} at {pa}, replay {b:016x} at {pb}");
        // It drives (the kart, lightest on its throttle, about 0.9 m; the cars 4-6 m).
        let driven = (pa - start).length();
        assert!(driven > 0.5, "{name}: it drove {driven} m");
        assert_eq!(a, b, "{name}: the replay differs");
        assert_eq!(pa.to_array().map(f32::to_bits), pb.to_array().map(f32::to_bits));
    }
}
