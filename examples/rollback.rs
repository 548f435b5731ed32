//! Rollback on a real rollback library: cars driven through bevy_ggrs 0.22's
//! `SyncTestSession`, headless.
//!
//! Each frame the session saves the world, advances it, then rolls back `--check` frames
//! (default 7) and resimulates them, and compares the checksums of every registered
//! component on every car between the first simulation and the resimulation: any state
//! the wheels, the vehicle or avian carry that is not registered makes them differ, and
//! the example exits with an error. The cars are players: their inputs come through
//! GGRS (a script by frame: full throttle with a weaving steer, over two speed bumps, a
//! kerb under the left wheels and a jump, then brakes).
//!
//! ```sh
//! cargo run --release --example rollback                  # two cars, 480 frames
//! cargo run --release --example rollback -- --cars 8
//! cargo run --release --example rollback -- --leave-out WheelState   # must desync
//! ```
//!
//! What it registers is the plugin's list, `wheelcollider::avian::rollback` (the table in
//! `docs/plugin.md`, "Networking and rollback", says what each entry is for). At the
//! end it prints the frame time (the step, the rollback and its resimulated steps, the
//! saves and checksums): the median and 90th percentile over the frames.
use avian3d::prelude::*;
use bevy::ecs::component::Mutable;
use bevy::platform::collections::HashMap;
use bevy::prelude::*;
use bevy_ggrs::prelude::*;
use bevy_ggrs::{LoadWorld, LocalInputs, LocalPlayers, RollbackFrameCount, SaveWorld};
use serde::{Deserialize, Serialize};
use std::hash::{DefaultHasher, Hash, Hasher};
use std::time::{Duration, Instant};
use wheelcollider::avian::rollback::{RollbackRegistry, StateRole, visit_rollback_state};
use wheelcollider::prelude::*;

/// One player's input for one frame, as GGRS sends it: throttle and brake in 1/255,
/// steer in 1/127 (+ left).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
struct DriveInput {
    throttle: u8,
    brake: u8,
    steer: i8,
}

type Config = GgrsConfig<DriveInput>;

/// Which player drives a car.
#[derive(Component)]
struct Player(usize);

/// The command line.
#[derive(Resource, Clone)]
struct Options {
    cars: usize,
    frames: usize,
    check: usize,
    leave_out: Option<String>,
    /// Roll back without checksums (and without the diagnosis): the cost a P2P game
    /// pays for its rollbacks, without the sync test's own hashing.
    no_checksums: bool,
}

/// What the run saw: desyncs, rollbacks, each car's lap, the frame times.
#[derive(Resource, Default)]
struct Report {
    mismatches: Vec<(i32, Vec<i32>)>,
    rollbacks: usize,
    /// Per car: furthest distance along the course (m), frames with no wheel on the
    /// ground after the ramp, highest chassis position (m).
    lap: Vec<(f32, usize, f32)>,
    /// Per car: the frames in which its body had contact points (speculative ones
    /// included) with anything.
    chassis_contacts: Vec<usize>,
    /// The first component that a resimulation saved differently.
    first_difference: Option<String>,
}

/// Each saved frame's hash of each component on each car, and the first that a
/// resimulation saved differently: which component of which entity diverged first.
#[derive(Resource, Default)]
struct Diagnosis {
    saved: HashMap<(i32, &'static str, Entity), u64>,
    first: Option<(i32, &'static str, Entity)>,
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

/// The frame a new input is read for (the session asks once per new frame).
#[derive(Resource, Default)]
struct InputFrame(u32);

const PRESETS: [&str; 4] = ["road", "rally", "gt86", "kart"];
const LANE: f32 = 3.5;
/// Where the lip of the jump is (m along −Z) and its height (m).
const RAMP_END: f32 = 50.0;
const RAMP_HEIGHT: f32 = 0.55;

fn main() {
    let options = match parse_options() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("{e}\nusage: rollback [--cars N] [--frames N] [--check N] [--leave-out Type] [--no-checksums]");
            std::process::exit(2);
        }
    };
    let report = run(&options);
    let ok = summarize(&options, &report);
    std::process::exit(if ok { 0 } else { 1 });
}

fn parse_options() -> Result<Options, String> {
    let mut o = Options {
        cars: 2,
        frames: 480,
        check: 7,
        leave_out: None,
        no_checksums: false,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().ok_or(format!("{a} needs a value"));
        match a.as_str() {
            "--cars" => o.cars = value()?.parse().map_err(|e| format!("--cars: {e}"))?,
            "--frames" => o.frames = value()?.parse().map_err(|e| format!("--frames: {e}"))?,
            "--check" => o.check = value()?.parse().map_err(|e| format!("--check: {e}"))?,
            "--leave-out" => o.leave_out = Some(value()?),
            "--no-checksums" => o.no_checksums = true,
            _ => return Err(format!("unknown argument {a}")),
        }
    }
    if o.cars == 0 || o.check >= 8 {
        return Err("--cars must be at least 1 and --check at most 7 (GGRS' prediction window is 8)".into());
    }
    Ok(o)
}

/// Builds the app and the session, runs `frames` frames; the frame times and the report.
fn run(options: &Options) -> (Report, Vec<Duration>) {
    let mut session = SessionBuilder::<Config>::new()
        .with_num_players(options.cars)
        .expect("a player count GGRS takes")
        .with_check_distance(options.check);
    for handle in 0..options.cars {
        session = session.add_player(PlayerType::Local, handle).expect("a local player");
    }
    let session = session.start_synctest_session().expect("a valid sync test");

    let mut app = App::new();
    app.add_plugins((MinimalPlugins, TransformPlugin, bevy::asset::AssetPlugin::default()))
        .add_plugins(GgrsPlugin::<Config>::default())
        .insert_resource(RollbackFrameRate(60))
        // Physics runs in the rollback schedule: it is what GGRS saves, loads and repeats.
        .add_plugins((PhysicsPlugins::new(GgrsSchedule), WheelColliderPlugins))
        .insert_resource(options.clone())
        .init_resource::<Report>()
        .init_resource::<InputFrame>()
        .init_resource::<Diagnosis>()
        .add_systems(Startup, setup)
        .add_systems(ReadInputs, read_inputs)
        .add_systems(GgrsSchedule, drive.before(PhysicsSystems::First))
        .add_systems(LoadWorld, |mut r: ResMut<Report>| r.rollbacks += 1)
        .add_systems(PostUpdate, watch_lap)
        .add_observer(|t: On<SyncTestMismatch>, mut r: ResMut<Report>| {
            r.mismatches
                .push((t.event().current_frame, t.event().mismatched_frames.clone()));
        })
        .insert_resource(Session::SyncTest(session));
    register(&mut app, options.leave_out.as_deref(), !options.no_checksums);
    // One GGRS frame per update, as fast as the machine goes.
    app.insert_resource(bevy::time::TimeUpdateStrategy::ManualDuration(Duration::from_nanos(
        1_000_000_000 / 60 + 1,
    )));
    app.finish();
    app.cleanup();
    let mut times = Vec::with_capacity(options.frames);
    for _ in 0..options.frames {
        let t = Instant::now();
        app.update();
        times.push(t.elapsed());
        if !app.world().resource::<Report>().mismatches.is_empty() {
            break; // the session does not advance past a mismatch
        }
    }
    let mut report = app.world_mut().remove_resource::<Report>().expect("inserted above");
    report.first_difference = app.world().resource::<Diagnosis>().first.map(|(f, name, e)| {
        let what = app
            .world()
            .get::<Name>(e)
            .map_or("a wheel".to_string(), |n| n.to_string());
        format!("{name} of {what} ({e}) at frame {f}")
    });
    (report, times)
}

/// The hash of a component's `Debug` text: every field, every bit of every float (Rust
/// prints the shortest text that reads back to the same `f32`).
fn debug_hash<T: std::fmt::Debug>(c: &T) -> u64 {
    let mut h = DefaultHasher::new();
    format!("{c:?}").hash(&mut h);
    h.finish()
}

/// Registers with bevy_ggrs what the plugin lists ([`visit_rollback_state`]): each
/// component for rollback and (unless `checksums` is off) in the sync test's checksum,
/// each resource for rollback; all but `leave_out`.
struct Registration<'a> {
    app: &'a mut App,
    leave_out: Option<&'a str>,
    checksums: bool,
    names: Vec<&'static str>,
}

impl Registration<'_> {
    /// Whether to register `T`; remembers its name for the check of `--leave-out`.
    fn wanted<T>(&mut self) -> bool {
        let name = short_name::<T>();
        self.names.push(name);
        self.leave_out != Some(name)
    }
}

impl RollbackRegistry for Registration<'_> {
    fn component<C>(&mut self, _role: StateRole)
    where
        C: Component<Mutability = Mutable> + Clone + std::fmt::Debug,
    {
        if self.wanted::<C>() {
            self.app.rollback_component_with_clone::<C>();
            if self.checksums {
                self.app.checksum_component::<C>(debug_hash::<C>);
            }
        }
        if self.checksums {
            self.app.add_systems(SaveWorld, diagnose::<C>);
        }
    }
    fn resource<R: Resource<Mutability = Mutable> + Clone>(&mut self) {
        // Rolled back, not checksummed: they are made of what the components decide.
        if self.wanted::<R>() {
            self.app.rollback_resource_with_clone::<R>();
        }
    }
}

fn short_name<T>() -> &'static str {
    std::any::type_name::<T>().rsplit("::").next().unwrap_or("?")
}

fn register(app: &mut App, leave_out: Option<&str>, checksums: bool) {
    let mut registration = Registration {
        app,
        leave_out,
        checksums,
        names: vec![],
    };
    visit_rollback_state(&mut registration);
    if let Some(l) = leave_out
        && !registration.names.contains(&l)
    {
        eprintln!("--leave-out {l}: not one of {:?}", registration.names);
        std::process::exit(2);
    }
    app.require_rollback::<Vehicle>().require_rollback::<WheelCollider>();
}

fn setup(mut commands: Commands, options: Res<Options>) {
    course(&mut commands, options.cars);
    for handle in 0..options.cars {
        let name = PRESETS[handle % PRESETS.len()];
        let settings = VehicleSettings::from_file(format!("assets/presets/{name}.ron"))
            .unwrap_or_else(|e| panic!("{e} (run from the workspace's root)"));
        let x = lane_x(handle, options.cars);
        let place = Transform::from_xyz(x, settings.touch_height() + 0.02, 0.0);
        let car = spawn_vehicle(&mut commands, &settings, place).expect("a shipped preset is valid");
        commands.entity(car).insert((Player(handle), WheelEventsEnabled));
    }
}

fn lane_x(handle: usize, cars: usize) -> f32 {
    (handle as f32 - (cars as f32 - 1.0) / 2.0) * LANE
}

/// Flat asphalt along −Z with two speed bumps (6 cm), a kerb (8 cm) under each lane's
/// left wheels and a ramp of 7° whose lip is 0.55 m high, then flat again.
fn course(commands: &mut Commands, cars: usize) {
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

/// Player `h`'s scripted input at `frame` (60 a second).
fn script(frame: u32, h: usize) -> DriveInput {
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

fn read_inputs(mut commands: Commands, players: Res<LocalPlayers>, mut frame: ResMut<InputFrame>) {
    let inputs: HashMap<_, _> = players.0.iter().map(|&h| (h, script(frame.0, h))).collect();
    frame.0 += 1;
    commands.insert_resource(LocalInputs::<Config>(inputs));
}

/// The players' inputs to their cars, inside the rollback schedule.
fn drive(inputs: Res<PlayerInputs<Config>>, mut cars: Query<(&Player, &mut VehicleInput)>) {
    for (player, mut car) in &mut cars {
        let (i, _) = inputs[player.0];
        car.throttle = i.throttle as f32 / 255.0;
        car.brake = i.brake as f32 / 255.0;
        car.steer = i.steer as f32 / 127.0;
    }
}

/// Keeps each car's furthest distance, its airborne frames past the ramp and its highest
/// point (read outside the rollback schedule: once per frame, after the resimulation).
fn watch_lap(
    mut report: ResMut<Report>,
    cars: Query<(Entity, &Player, &Position, &VehicleTelemetry)>,
    contacts: Res<ContactGraph>,
) {
    for (car, player, p, telemetry) in &cars {
        if report.lap.len() <= player.0 {
            report.lap.resize(player.0 + 1, (0.0, 0, f32::MIN));
            report.chassis_contacts.resize(player.0 + 1, 0);
        }
        let touching = contacts.contact_pairs_with(car).any(|pair| !pair.manifolds.is_empty());
        report.chassis_contacts[player.0] += usize::from(touching);
        let lap = &mut report.lap[player.0];
        lap.0 = lap.0.max(-p.z);
        lap.1 += usize::from(telemetry.grounded_wheels == 0 && -p.z > RAMP_END - 5.0);
        lap.2 = lap.2.max(p.y);
    }
}

/// Prints what the run saw; false when it desynced, or did not drive the course.
fn summarize(options: &Options, (report, times): &(Report, Vec<Duration>)) -> bool {
    let mut sorted: Vec<f64> = times
        .iter()
        .skip(10.min(times.len() - 1))
        .map(|d| d.as_secs_f64() * 1e3)
        .collect();
    sorted.sort_by(f64::total_cmp);
    let at = |q: f64| sorted[((sorted.len() - 1) as f64 * q) as usize];
    println!(
        "rollback: {} cars, {} frames, check distance {}{}: {} rollbacks, frame {:.2} ms median, {:.2} ms p90 ({:.3} ms per car-step)",
        options.cars,
        options.frames,
        options.check,
        if options.no_checksums { " without checksums" } else { "" },
        report.rollbacks,
        at(0.5),
        at(0.9),
        at(0.5) / (options.cars * (options.check + 1)) as f64,
    );
    for (h, (distance, airborne, top)) in report.lap.iter().enumerate() {
        let name = PRESETS[h % PRESETS.len()];
        let touched = report.chassis_contacts[h];
        println!(
            "  car {h} ({name}): {distance:.1} m along the course, {airborne} frames airborne past the ramp, highest {top:.2} m, body in contact {touched} frames"
        );
    }
    let drove = report.lap.iter().all(|&(d, air, _)| d > RAMP_END + 10.0 && air >= 3);
    if !drove && options.leave_out.is_none() {
        println!(
            "rollback: a car did not drive over the jump (it must pass {} m and fly at least 3 frames)",
            RAMP_END + 10.0
        );
    }
    match (&options.leave_out, report.mismatches.first()) {
        (None, None) => println!("rollback: no desync"),
        (None, Some((frame, frames))) => println!(
            "rollback: DESYNC: {} mismatches, the first at frame {frame} (frames {frames:?})",
            report.mismatches.len()
        ),
        (Some(l), None) => println!("rollback: without {l} it did not desync: the check cannot fail"),
        (Some(l), Some((frame, _))) => {
            println!("rollback: without {l} it desyncs (first at frame {frame}), as it must")
        }
    }
    if let Some(d) = &report.first_difference {
        println!("rollback: the first component to differ: {d}");
    }
    // GGRS rolls back once per frame from the frame after the first `check + 1`.
    let rolled = options.check == 0 || report.rollbacks + options.check + 2 >= times.len();
    if !rolled && options.leave_out.is_none() {
        println!(
            "rollback: only {} rollbacks in {} frames",
            report.rollbacks,
            times.len()
        );
    }
    let ok = match options.leave_out {
        None => drove && rolled && report.mismatches.is_empty(),
        Some(_) => !report.mismatches.is_empty(),
    };
    println!("rollback: {}", if ok { "passed" } else { "FAILED" });
    ok
}
