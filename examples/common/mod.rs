//! What the rollback examples share: the course, the players' scripted inputs, the cars,
//! and the registration of the plugin's rollback list with bevy_ggrs.
use avian3d::prelude::*;
use bevy::ecs::component::Mutable;
use bevy::platform::collections::HashMap;
use bevy::prelude::*;
use bevy_ggrs::prelude::*;
use bevy_ggrs::{LocalInputs, LocalPlayers, RollbackFrameCount, SaveWorld};
use serde::{Deserialize, Serialize};
use std::hash::{DefaultHasher, Hash, Hasher};
use wheelcollider::avian::rollback::{RollbackRegistry, StateRole, visit_rollback_state};
use wheelcollider::prelude::*;

/// One player's input for one frame, as GGRS sends it: throttle and brake in 1/255,
/// steer in 1/127 (+ left).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DriveInput {
    pub throttle: u8,
    pub brake: u8,
    pub steer: i8,
}

/// The GGRS configuration of both examples.
pub type Config = GgrsConfig<DriveInput>;

/// Which player drives a car.
#[derive(Component)]
pub struct Player(pub usize);

/// The frame a new input is read for (the session asks once per new frame).
#[derive(Resource, Default)]
pub struct InputFrame(pub u32);

/// The car each player drives, in turn.
pub const PRESETS: [&str; 4] = ["road", "rally", "gt86", "kart"];
/// The lanes' spacing (m).
pub const LANE: f32 = 3.5;
/// Where the lip of the jump is (m along −Z) and its height (m).
pub const RAMP_END: f32 = 50.0;
const RAMP_HEIGHT: f32 = 0.55;

/// Player `handle`'s lane (m along X) among `cars`.
pub fn lane_x(handle: usize, cars: usize) -> f32 {
    (handle as f32 - (cars as f32 - 1.0) / 2.0) * LANE
}

/// Flat asphalt along −Z with two speed bumps (6 cm), a kerb (8 cm) under each lane's
/// left wheels and a ramp of 7° whose lip is 0.55 m high, then flat again.
pub fn course(commands: &mut Commands, cars: usize) {
    let width = LANE * cars as f32 + 10.0;
    commands.spawn((RigidBody::Static, Collider::half_space(Vec3::Y), WheelSurface::ASPHALT));
    for z in [12.0, 20.0] {
        // A cylinder lying across the road, sunk so that 6 cm show.
        commands.spawn((
            RigidBody::Static,
            Collider::cylinder(0.5, width),
            Transform::from_xyz(0.0, 0.06 - 0.5, -z).with_rotation(Quat::from_rotation_z(std::f32::consts::FRAC_PI_2)),
        ));
    }
    for handle in 0..cars {
        // Centred under the left wheels (left is −X facing −Z), 10 m long.
        let x = lane_x(handle, cars) - 0.75;
        commands.spawn((
            RigidBody::Static,
            Collider::cuboid(0.7, 0.16, 10.0),
            Transform::from_xyz(x, 0.0, -33.0),
        ));
    }
    let angle = (RAMP_HEIGHT / 4.5).asin();
    let (half_len, half_thick) = (2.25, 0.2);
    let normal = Vec3::new(0.0, angle.cos(), angle.sin());
    let top_mid = Vec3::new(0.0, RAMP_HEIGHT / 2.0, -RAMP_END + half_len * angle.cos());
    commands.spawn((
        RigidBody::Static,
        Collider::cuboid(width, 2.0 * half_thick, 2.0 * half_len),
        Transform::from_translation(top_mid - normal * half_thick).with_rotation(Quat::from_rotation_x(angle)),
    ));
}

/// The cars, one per player in its lane; `mass_change` (kg) is added to player 0's
/// chassis (the P2P example's perturbation).
pub fn spawn_cars(commands: &mut Commands, cars: usize, mass_change: f32) {
    for handle in 0..cars {
        let name = PRESETS[handle % PRESETS.len()];
        let mut settings = VehicleSettings::from_file(format!("assets/presets/{name}.ron"))
            .unwrap_or_else(|e| panic!("{e} (run from the workspace's root)"));
        if handle == 0 {
            settings.chassis.mass += mass_change;
        }
        let x = lane_x(handle, cars);
        let place = Transform::from_xyz(x, settings.touch_height() + 0.02, 0.0);
        let car = spawn_vehicle(commands, &settings, place).expect("a shipped preset is valid");
        commands.entity(car).insert((Player(handle), WheelEventsEnabled));
    }
}

/// Player `h`'s scripted input at `frame` (60 a second): full throttle with a weave over
/// the bumps, the kerb and the jump, then the brakes from 7 s.
pub fn script(frame: u32, h: usize) -> DriveInput {
    let t = frame as f32 / 60.0;
    let weave = if t < 3.0 {
        0.1 * (std::f32::consts::TAU * t / 1.5 + h as f32).sin()
    } else {
        0.0
    };
    let braking = t > 7.0;
    DriveInput {
        throttle: if (0.2..7.0).contains(&t) { 255 } else { 0 },
        brake: if braking { 255 } else { 0 },
        steer: (weave * 127.0) as i8,
    }
}

/// GGRS' `ReadInputs`: the local players' scripted inputs for the next frame.
pub fn read_inputs(mut commands: Commands, players: Res<LocalPlayers>, mut frame: ResMut<InputFrame>) {
    let inputs: HashMap<_, _> = players.0.iter().map(|&h| (h, script(frame.0, h))).collect();
    frame.0 += 1;
    commands.insert_resource(LocalInputs::<Config>(inputs));
}

/// The players' inputs to their cars, inside the rollback schedule.
pub fn drive(inputs: Res<PlayerInputs<Config>>, mut cars: Query<(&Player, &mut VehicleInput)>) {
    for (player, mut car) in &mut cars {
        let (i, _) = inputs[player.0];
        car.throttle = i.throttle as f32 / 255.0;
        car.brake = i.brake as f32 / 255.0;
        car.steer = i.steer as f32 / 127.0;
    }
}

/// The hash of a component's `Debug` text: every field, every bit of every float (Rust
/// prints the shortest text that reads back to the same `f32`). `DefaultHasher::new()`
/// has fixed keys: two processes hash alike.
pub fn debug_hash<T: std::fmt::Debug>(c: &T) -> u64 {
    let mut h = DefaultHasher::new();
    format!("{c:?}").hash(&mut h);
    h.finish()
}

/// A type's name without its path.
pub fn short_name<T>() -> &'static str {
    std::any::type_name::<T>().rsplit("::").next().unwrap_or("?")
}

/// Each saved frame's hash of each component on each car, and the first that a
/// resimulation saved differently: which component of which entity diverged first.
#[derive(Resource, Default)]
pub struct Diagnosis {
    saved: HashMap<(i32, &'static str, Entity), u64>,
    /// The frame, component and entity of the first difference.
    pub first: Option<(i32, &'static str, Entity)>,
}

fn diagnose<T: Component + std::fmt::Debug>(
    frame: Res<RollbackFrameCount>,
    components: Query<(Entity, &T), With<Rollback>>,
    mut diagnosis: ResMut<Diagnosis>,
) {
    let name = short_name::<T>();
    for (e, c) in &components {
        let h = debug_hash(c);
        let old = *diagnosis.saved.entry((frame.0, name, e)).or_insert(h);
        if old != h && diagnosis.first.is_none_or(|(f, ..)| frame.0 < f) {
            diagnosis.first = Some((frame.0, name, e));
        }
    }
}

/// Registers with bevy_ggrs what the plugin lists ([`visit_rollback_state`]): each
/// component for rollback and (unless `checksums` is off) in the session's checksum,
/// each resource for rollback; all but `leave_out`.
struct Registration<'a> {
    app: &'a mut App,
    leave_out: Option<&'a str>,
    checksums: bool,
    diagnose: bool,
    names: Vec<&'static str>,
}

impl RollbackRegistry for Registration<'_> {
    fn component<C>(&mut self, _role: StateRole)
    where
        C: Component<Mutability = Mutable> + Clone + std::fmt::Debug,
    {
        let name = short_name::<C>();
        self.names.push(name);
        if self.leave_out != Some(name) {
            self.app.rollback_component_with_clone::<C>();
            if self.checksums {
                self.app.checksum_component::<C>(debug_hash::<C>);
            }
        }
        if self.diagnose {
            self.app.add_systems(SaveWorld, diagnose::<C>);
        }
    }
    fn resource<R: Resource<Mutability = Mutable> + Clone>(&mut self) {
        // Rolled back, not checksummed: they are made of what the components decide.
        let name = short_name::<R>();
        self.names.push(name);
        if self.leave_out != Some(name) {
            self.app.rollback_resource_with_clone::<R>();
        }
    }
}

/// Registers the plugin's rollback list (all but `leave_out`, which must be one of its
/// names: the process exits with 2 otherwise), the checksums when asked, and the
/// diagnosis of the first difference (with [`Diagnosis`]) when asked.
pub fn register(app: &mut App, leave_out: Option<&str>, checksums: bool, diagnose: bool) {
    let mut registration = Registration {
        app,
        leave_out,
        checksums,
        diagnose,
        names: vec![],
    };
    visit_rollback_state(&mut registration);
    if let Some(l) = leave_out
        && !registration.names.contains(&l)
    {
        eprintln!("--leave-out {l}: not one of {:?}", registration.names);
        std::process::exit(2);
    }
    if diagnose {
        app.init_resource::<Diagnosis>();
    }
    app.require_rollback::<Vehicle>().require_rollback::<WheelCollider>();
}
