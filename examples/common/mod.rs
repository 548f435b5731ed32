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
use wheelcollider::avian::rollback::{RollbackRegistry, StateRole, short_type_name, visit_rollback_state};
use wheelcollider::avian::vehicle::towing::{HitchJoint, couple_trailer, hitched_transform};
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

/// Where the two braking cars meet the yard (m across, m along −Z): the pile of boxes in
/// the road car's path (its weave leaves it 1.9 m right of the course's axis by then),
/// the seesaw in the rally car's (4.4 m right).
pub const PILE: (f32, f32) = (1.85, 112.5);
const SEESAW: (f32, f32) = (4.4, 148.0);

/// A rolled-back prop of the yard: a box of the pile or the seesaw's plank.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Prop {
    /// The box at this height in the pile (0: on the ground).
    Box(usize),
    /// The seesaw's plank.
    Plank,
}

/// The [`road`], then the yard ([`yard`]).
pub fn course(commands: &mut Commands, cars: usize) {
    yard(commands);
    road(commands, cars);
}

/// Flat asphalt along −Z with two speed bumps (6 cm), a kerb (8 cm) under each lane's
/// left wheels and a ramp of 7° whose lip is 0.55 m high, then flat again.
pub fn road(commands: &mut Commands, cars: usize) {
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

/// Where the cars stop: three 60 cm boxes of 40 kg resting on each other, which the road
/// car pushes at about 4 m/s, and a seesaw (a 6 m plank of 150 kg on avian's revolute
/// joint 45 cm up, within ±9°, its near end resting on the ground) that the rally car
/// climbs as it brakes, tipping it past the hinge. The props are rolled back
/// (`Rollback`) and never sleep (`SleepingDisabled`: `docs/plugin.md`, "Sleep"): the
/// scene where avian's joint and contact state between dynamic bodies matter.
fn yard(commands: &mut Commands) {
    let side = 0.6;
    for level in 0..3 {
        commands.spawn((
            Prop::Box(level),
            Name::new(format!("pile box {level}")),
            Rollback,
            SleepingDisabled,
            RigidBody::Dynamic,
            Collider::cuboid(side, side, side),
            Mass(40.0),
            Transform::from_xyz(PILE.0, side * (level as f32 + 0.5), -PILE.1 - side / 2.0),
        ));
    }
    let hinge = Vec3::new(SEESAW.0, 0.45, -SEESAW.1);
    // The hinge is 1 m past the plank's middle: its near end (4 m from the hinge) rests
    // on the ground, a ramp of 6.5°, until a car climbs past the hinge and tips it.
    let tilt = Quat::from_rotation_x((0.45f32 / 4.0).asin());
    let pivot = commands
        .spawn((
            RigidBody::Static,
            // 10 cm below the hinge: the tilted plank turns clear of it.
            Collider::cuboid(2.6, 0.35, 0.3),
            Transform::from_translation(hinge - Vec3::Y * 0.275),
        ))
        .id();
    let plank = commands
        .spawn((
            Prop::Plank,
            Name::new("seesaw plank"),
            Rollback,
            SleepingDisabled,
            RigidBody::Dynamic,
            Collider::cuboid(2.6, 0.1, 6.0),
            Mass(150.0),
            Transform::from_translation(hinge + tilt * Vec3::new(0.0, 0.05, 1.0)).with_rotation(tilt),
        ))
        .id();
    commands.spawn((
        Rollback,
        RevoluteJoint::new(pivot, plank)
            .with_hinge_axis(Vec3::X)
            .with_anchor(hinge)
            .with_angle_limits(-0.16, 0.16),
    ));
}

/// The cars, one per player in its lane; `mass_change` (kg) is added to player 0's
/// chassis (the P2P example's perturbation). Returns them by player.
pub fn spawn_cars(commands: &mut Commands, cars: usize, mass_change: f32) -> Vec<Entity> {
    let mut spawned = Vec::with_capacity(cars);
    for handle in 0..cars {
        let name = PRESETS[handle % PRESETS.len()];
        let mut settings = VehicleSettings::preset(name).expect("a shipped preset");
        if handle == 0 {
            settings.chassis.mass += mass_change;
        }
        let x = lane_x(handle, cars);
        let place = Transform::from_xyz(x, settings.touch_height() + 0.02, 0.0);
        let car = spawn_vehicle(commands, &settings, place).expect("a shipped preset is valid");
        commands.entity(car).insert((Player(handle), WheelEventsEnabled));
        spawned.push(car);
    }
    spawned
}

/// The `caravan` preset coupled behind player 0's road car (spawned by [`spawn_cars`]
/// among `cars`).
#[allow(
    dead_code,
    reason = "the rollback example's `--trailer`; the P2P example does not tow"
)]
pub fn tow_caravan(commands: &mut Commands, tow: Entity, cars: usize) {
    let road = VehicleSettings::preset(PRESETS[0]).expect("a shipped preset");
    let caravan = VehicleSettings::preset("caravan").expect("a shipped trailer");
    let place = Transform::from_xyz(lane_x(0, cars), road.touch_height() + 0.02, 0.0);
    let behind = hitched_transform(&road, place, &caravan).expect("the road car has a ball");
    let trailer = spawn_vehicle(commands, &caravan, behind).expect("a shipped trailer is valid");
    couple_trailer(commands, tow, trailer);
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

/// The app both examples run: headless Bevy, bevy_ggrs at 60 frames a second, physics
/// and the wheels in the rollback schedule (what GGRS saves, loads and repeats), the
/// players' scripted inputs, one GGRS frame of game time per update. The caller adds
/// its session, its scene and its registration ([`register`]).
pub fn ggrs_app() -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, TransformPlugin, bevy::asset::AssetPlugin::default()))
        .add_plugins(GgrsPlugin::<Config>::default())
        .insert_resource(RollbackFrameRate(60))
        .add_plugins((PhysicsPlugins::new(GgrsSchedule), WheelColliderPlugins))
        .init_resource::<InputFrame>()
        .add_systems(ReadInputs, read_inputs)
        .add_systems(GgrsSchedule, drive.before(PhysicsSystems::First))
        .insert_resource(bevy::time::TimeUpdateStrategy::ManualDuration(
            std::time::Duration::from_nanos(1_000_000_000 / 60 + 1),
        ));
    app
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
    mut name: Local<Option<&'static str>>,
) {
    let name = *name.get_or_insert_with(short_type_name::<T>);
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
    fn component<C>(&mut self, role: StateRole)
    where
        C: Component<Mutability = Mutable> + Clone + PartialEq + std::fmt::Debug,
    {
        let name = short_type_name::<C>();
        self.names.push(name);
        if self.leave_out != Some(name) {
            self.app.rollback_component_with_clone::<C>();
            // The broad phase's boxes are rolled back, not compared: avian refreshes a
            // box when its body's pose is written, which a restore does.
            if self.checksums && role != StateRole::BroadPhase {
                self.app.checksum_component::<C>(debug_hash::<C>);
            }
        }
        if self.diagnose && role != StateRole::BroadPhase {
            self.app.add_systems(SaveWorld, diagnose::<C>);
        }
    }
    fn resource<R: Resource<Mutability = Mutable> + Clone>(&mut self) {
        // Rolled back, not checksummed: they are made of what the components decide.
        let name = short_type_name::<R>();
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
    // The hitch's joints: their `JointForces` are the next step's trailer brakes' input.
    app.require_rollback::<Vehicle>()
        .require_rollback::<WheelCollider>()
        .require_rollback::<HitchJoint>();
}
