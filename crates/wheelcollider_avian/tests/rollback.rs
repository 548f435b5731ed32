//! Rollback: the state a rollback library (bevy_ggrs, lightyear) must save and restore,
//! listed in `docs/plugin.md`, is enough to replay 100 steps bit for bit.
mod common;
use avian3d::prelude::*;
use bevy::prelude::*;
use common::*;
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
/// plugin's per-chassis and per-wheel state, the vehicle's state and input.
fn snapshot(world: &World, car: Entity) -> Vec<Saved> {
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
            ChassisCache,
            VehicleRuntime,
            VehicleInput,
            VehicleTelemetry,
            WheelState,
            WheelInput,
            WheelEffects,
        );
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

#[test]
fn restoring_the_listed_state_replays_bit_for_bit() {
    for name in ["road", "rally"] {
        let mut app = app(60.0);
        flat(&mut app, None);
        let car = spawn_preset_car(&mut app, &preset(name), Transform::from_xyz(0.0, 0.6, 0.0));
        app.world_mut().entity_mut(car).insert(WheelEventsEnabled);
        run(&mut app, steps(1.0, 60.0));
        let start = position(&app, car);
        let saved = snapshot(app.world(), car);
        let (a, pa) = hundred_steps(&mut app, car);
        restore(app.world_mut(), &saved);
        let (b, pb) = hundred_steps(&mut app, car);
        println!("measured: {name}: first run {a:016x} at {pa}, replay {b:016x} at {pb}");
        assert!(
            (pa - start).length() > 2.0,
            "{name}: it drove {} m",
            (pa - start).length()
        );
        assert_eq!(a, b, "{name}: the replay differs");
        assert_eq!(pa.to_array().map(f32::to_bits), pb.to_array().map(f32::to_bits));
    }
}
