//! Rollback: the state a rollback library (bevy_ggrs, lightyear) must save and restore,
//! as `wheelcollider_avian::rollback::visit_rollback_state` lists it, is enough to replay 100 steps bit for bit, whether it is
//! saved by `Clone` or through reflection alone; without `WheelState` it is not.
use crate::common;
use bevy::ecs::component::Mutable;
use bevy::ecs::reflect::ReflectComponent;
use bevy::prelude::*;
use bevy::reflect::PartialReflect;
use common::*;
use std::any::TypeId;
use std::hash::{Hash, Hasher};
use wheelcollider_avian::prelude::*;
use wheelcollider_avian::rollback::{RollbackRegistry, StateRole, visit_rollback_state};
use wheelcollider_avian::vehicle::VehicleRuntime;

/// Puts one saved component back.
pub(crate) type Restore = Box<dyn Fn(&mut World) + Send + Sync>;

/// Clones of every listed component of `entity` that it has.
pub(crate) struct Saved {
    entity: Entity,
    save: Vec<Restore>,
}

/// Clones what the plugin's list names ([`visit_rollback_state`]) from a car's
/// entities and the world, but the types in `skip`.
struct Saver<'w> {
    world: &'w World,
    entities: Vec<Entity>,
    skip: Vec<TypeId>,
    saved: Vec<Saved>,
    resources: Vec<Restore>,
}

impl RollbackRegistry for Saver<'_> {
    fn component<C>(&mut self, _role: StateRole)
    where
        C: Component<Mutability = Mutable> + Clone + PartialEq + std::fmt::Debug,
    {
        if self.skip.contains(&TypeId::of::<C>()) {
            return;
        }
        for (i, &e) in self.entities.iter().enumerate() {
            if let Some(c) = self.world.get::<C>(e).cloned() {
                self.saved[i].save.push(Box::new(move |w: &mut World| {
                    w.entity_mut(e).insert(c.clone());
                }));
            }
        }
    }
    fn resource<R: Resource<Mutability = Mutable> + Clone>(&mut self) {
        if let Some(r) = self.world.get_resource::<R>().cloned() {
            self.resources
                .push(Box::new(move |w: &mut World| w.insert_resource(r.clone())));
        }
    }
}

/// A snapshot of the chassis and its wheels (and avian's contact state) by `Clone`:
/// everything the plugin lists but the types in `skip`.
pub(crate) fn snapshot(world: &World, car: Entity, skip: &[TypeId]) -> (Vec<Saved>, Vec<Restore>) {
    let mut entities = vec![car];
    entities.extend(world.get::<ChassisWheels>(car).unwrap().wheels());
    let saved = entities.iter().map(|&entity| Saved { entity, save: vec![] }).collect();
    let mut saver = Saver {
        world,
        entities,
        skip: skip.to_vec(),
        saved,
        resources: vec![],
    };
    visit_rollback_state(&mut saver);
    (saver.saved, saver.resources)
}

pub(crate) fn restore(world: &mut World, (saved, resources): &(Vec<Saved>, Vec<Restore>)) {
    resources.iter().for_each(|f| f(world));
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
            output(app, w).output.angular_velocity.to_bits().hash(&mut hasher);
        }
    }
    (hasher.finish(), position(app, car))
}

/// The plugin's own components among those it lists.
const PLUGIN_STATE: [fn() -> TypeId; 6] = [
    TypeId::of::<ChassisState>,
    TypeId::of::<VehicleRuntime>,
    TypeId::of::<VehicleInput>,
    TypeId::of::<WheelState>,
    TypeId::of::<WheelOutput>,
    TypeId::of::<WheelInput>,
];

/// The plugin's listed components, as a reflection-based snapshot takes them: each
/// through its registered `ReflectComponent`, `to_dynamic` to save and `apply` to
/// restore (a field that is `#[reflect(ignore)]` would be lost here). The body's own
/// state is saved by `Clone` ([`snapshot`] without the plugin's).
fn reflected_snapshot(world: &World, car: Entity) -> Vec<Restore> {
    let registry = world.resource::<AppTypeRegistry>().read();
    let types = PLUGIN_STATE.map(|t| t());
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
    let settings = preset(name);
    let car = spawn_preset_car(
        &mut app,
        &settings,
        Transform::from_xyz(0.0, settings.touch_height(), 0.0),
    );
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
        |w, car| (snapshot(w, car, &PLUGIN_STATE.map(|t| t())), reflected_snapshot(w, car)),
        |w, (body, plugin)| {
            restore(w, body);
            plugin.iter().for_each(|f| f(w));
        },
    );
    println!("measured: reflected: first run {a:016x} at {pa}, replay {b:016x} at {pb}");
    assert!((pa - start).length() > 2.0, "it drove {} m", (pa - start).length());
    assert_eq!(a, b, "the replay from a reflection snapshot differs");
    let ((a, _), (b, _), _) = save_drive_restore_drive(
        "road",
        |w, car| snapshot(w, car, &[TypeId::of::<WheelState>()]),
        |w, s| restore(w, s),
    );
    println!("measured: without WheelState: first run {a:016x}, replay {b:016x}");
    assert_ne!(a, b, "a replay without the wheels' state should differ");
}

/// Every shipped preset and tracked vehicle, saved by `Clone`, replays bit for bit (a
/// tracked vehicle's belts are its road wheels' spins: nothing of its own to save).
#[test]
fn restoring_the_listed_state_replays_bit_for_bit() {
    for name in PRESETS.iter().chain(TRACKED.iter()) {
        let ((a, pa), (b, pb), start) =
            save_drive_restore_drive(name, |w, car| snapshot(w, car, &[]), |w, s| restore(w, s));
        println!("measured: {name}: first run {a:016x} at {pa}, replay {b:016x} at {pb}");
        // It drives (the kart, lightest on its throttle, about 0.9 m; the cars 4-6 m).
        let driven = (pa - start).length();
        assert!(driven > 0.5, "{name}: it drove {driven} m");
        assert_eq!(a, b, "{name}: the replay differs");
        assert_eq!(pa.to_array().map(f32::to_bits), pb.to_array().map(f32::to_bits));
    }
}
