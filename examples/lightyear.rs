//! Client-server multiplayer on lightyear 0.30: one server and two clients in one process,
//! headless, over lightyear's in-memory crossbeam links (or real UDP sockets on
//! localhost with `--udp`), each link holding every packet it receives for `--latency` ms
//! and dropping `--loss` per cent of them (lightyear's link conditioner; default 50 ms
//! each way and 2 %). The server simulates every car; each client predicts its own car
//! (lightyear's prediction, with the wheels rolled back by `WheelColliderLightyearPlugin`)
//! and interpolates the others. The drivers are scripted by tick (the `rollback`
//! example's road: speed bumps, a kerb, the jump; then a circle each), sent as a small
//! input type through lightyear's native input plugin.
//!
//! ```sh
//! cargo run --example lightyear                        # 60 s, two client cars
//! cargo run --example lightyear -- --cars 8            # six more cars the server drives
//! cargo run --example lightyear -- --perturb           # client 0 predicts its car 20 kg heavier
//! cargo run --example lightyear -- --perturb --without-wheel-rollback   # must exceed the bound
//! cargo run --example lightyear -- --udp               # real sockets on 127.0.0.1
//! ```
//!
//! It prints, per client, the round trip lightyear measured, the rollbacks it made and
//! the largest correction: the pose the client first predicted for a tick against the
//! server's pose at that tick, after the link has settled (`--settle` s); and the frame
//! cost of each app. It exits 0 when every largest correction is within `--bound-cm` (5)
//! and `--bound-deg` (1), each round trip holds the two delays (the conditioner acted)
//! and some rollback happened. `--perturb` makes client 0 predict its car `--perturb-kg`
//! (20) heavier than the server's: the wheels' rollback keeps the corrections small. With
//! `--without-wheel-rollback` client 0 runs without `WheelColliderLightyearPlugin`, and
//! the run exits 0 only when client 0's corrections exceed the bound: with `--perturb`,
//! the proof that the check can fail and that the plugin's registration is what holds it.
#[allow(
    dead_code,
    reason = "the lightyear example takes the road and the scripts; the rest is bevy_ggrs'"
)]
mod common;

use avian3d::prelude::*;
use bevy::ecs::entity::MapEntities;
use bevy::platform::collections::HashMap;
use bevy::prelude::*;
use common::{PRESETS, lane_x};
use lightyear::avian3d::plugin::{AvianReplicationMode, LightyearAvianPlugin};
use lightyear::crossbeam::CrossbeamIo;
use lightyear::netcode::NetcodeServer;
use lightyear::prelude::client::input::InputSystems;
use lightyear::prelude::client::*;
use lightyear::prelude::input::native::*;
use lightyear::prelude::server::*;
use lightyear::prelude::*;
use serde::{Deserialize, Serialize};
use std::net::{Ipv4Addr, SocketAddr};
use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use wheelcollider::avian::prelude::*;
use wheelcollider_lightyear::lightyear;
use wheelcollider_lightyear::{RolledBack, WheelColliderLightyearPlugin};

/// The command line.
#[derive(Clone, Debug, Resource)]
struct Options {
    seconds: f32,
    cars: usize,
    latency_ms: u32,
    loss_percent: f32,
    perturb: bool,
    perturb_kg: f32,
    without_wheel_rollback: bool,
    udp: bool,
    settle: f32,
    bound_cm: f32,
    bound_deg: f32,
}

/// The command line, with clap (the project's parser, as the `maneuvers` runner's).
fn parse_options() -> Options {
    use clap::{Arg, ArgAction, Command, value_parser};
    let number = |name: &'static str, unit: &'static str, default: &'static str, help: &'static str| {
        Arg::new(name)
            .long(name)
            .value_name(unit)
            .value_parser(value_parser!(f32))
            .default_value(default)
            .help(help)
    };
    let flag = |name: &'static str, help: &'static str| Arg::new(name).long(name).action(ArgAction::SetTrue).help(help);
    let m = Command::new("lightyear")
        .about("A server and two predicting clients on lightyear, corrections measured")
        .arg(number("seconds", "S", "60", "How long to run (real time)"))
        .arg(number("cars", "N", "2", "Cars: the two clients' and the server's own"))
        .arg(number("latency", "MS", "50", "Delay of every receiving end"))
        .arg(number("loss", "PERCENT", "2", "Packets every receiving end drops"))
        .arg(flag("perturb", "Client 0 predicts its car --perturb-kg heavier"))
        .arg(number("perturb-kg", "KG", "20", "The perturbation's mass"))
        .arg(flag(
            "without-wheel-rollback",
            "Client 0 without WheelColliderLightyearPlugin: must exceed the bound",
        ))
        .arg(flag("udp", "Real UDP sockets on 127.0.0.1 instead of in-memory links"))
        .arg(number("settle", "S", "5", "Corrections counted after this long"))
        .arg(number(
            "bound-cm",
            "CM",
            "5",
            "The largest correction allowed (position)",
        ))
        .arg(number(
            "bound-deg",
            "DEG",
            "1",
            "The largest correction allowed (angle)",
        ))
        .get_matches();
    let get = |name: &str| *m.get_one::<f32>(name).expect("has a default");
    Options {
        seconds: get("seconds").clamp(1.0, 3600.0),
        cars: (get("cars") as usize).clamp(2, 64),
        latency_ms: get("latency").clamp(0.0, 1000.0) as u32,
        loss_percent: get("loss").clamp(0.0, 50.0),
        perturb: m.get_flag("perturb"),
        perturb_kg: get("perturb-kg").clamp(-500.0, 5000.0),
        without_wheel_rollback: m.get_flag("without-wheel-rollback"),
        udp: m.get_flag("udp"),
        settle: get("settle").max(0.0),
        bound_cm: get("bound-cm").max(0.0),
        bound_deg: get("bound-deg").max(0.0),
    }
}

/// The physics rate, and lightyear's tick.
const HZ: f64 = 60.0;
/// The clients that drive (the other cars are the server's).
const CLIENTS: usize = 2;
/// A car's start before the first client connects (it waits).
const NOT_STARTED: u32 = u32::MAX;
/// The server's port with `--udp`.
const UDP_PORT: u16 = 5888;

/// A replicated car: its preset (an index into [`PRESETS`]), who drives it (a client's
/// id, or the server for `player >= CLIENTS`) and the tick its driver's script starts.
#[derive(Component, Serialize, Deserialize, Clone, Copy, Debug, PartialEq)]
struct Car {
    preset: u8,
    player: u8,
    start: u32,
}

/// The driver's input for one tick, as lightyear sends it: throttle and brake in 1/255,
/// steer in 1/127 (+ left).
#[derive(Serialize, Deserialize, Clone, Copy, Debug, Default, PartialEq, Reflect)]
struct Pedals {
    throttle: u8,
    brake: u8,
    steer: i8,
}

impl MapEntities for Pedals {
    fn map_entities<M: EntityMapper>(&mut self, _: &mut M) {}
}

impl Pedals {
    fn apply(self, input: &mut VehicleInput) {
        input.throttle = self.throttle as f32 / 255.0;
        input.brake = self.brake as f32 / 255.0;
        input.steer = self.steer as f32 / 127.0;
    }
}

/// Player `h`'s lane among `lanes`: the two clients' cars on the outer lanes (their
/// circles turn away from the others), the server's between them.
fn lane(h: usize, lanes: usize) -> f32 {
    let index = match h {
        0 => 0,
        1 => lanes - 1,
        _ => h - 1,
    };
    lane_x(index, lanes)
}

/// Player `h`'s input `frame` ticks after its start: the `rollback` example's run over
/// the bumps, the kerb and the jump (7 s), easing off; then a client's car turns a circle
/// of about 17 m away from the other lanes, its steer swinging a little (client 0 to the
/// left, client 1 to the right), and the server's cars drive on straight.
fn script(frame: u32, h: usize) -> Pedals {
    let t = frame as f32 / HZ as f32;
    if t < 7.0 {
        let i = common::script(frame, h);
        return Pedals {
            throttle: i.throttle,
            brake: i.brake,
            steer: i.steer,
        };
    }
    let away = match h {
        0 => 1.0,
        1 => -1.0,
        _ => 0.0,
    };
    let steer = away * (0.25 + 0.08 * (t * 0.9).sin());
    Pedals {
        throttle: if t < 9.0 { 0 } else { 60 },
        brake: if t < 9.0 { 150 } else { 0 },
        steer: (steer * 127.0) as i8,
    }
}

/// Car `car`'s scripted input at `tick`: nothing before its start.
fn pedals_at(tick: u32, car: &Car) -> Pedals {
    let frame = tick.wrapping_sub(car.start);
    if frame < u32::MAX / 2 {
        script(frame, car.player as usize)
    } else {
        Pedals::default()
    }
}

/// A car that arrived predicted and has no vehicle yet.
type ArrivedPredicted = (With<Predicted>, Without<Vehicle>);
/// The client's own car, a vehicle.
type OwnCar = (With<Predicted>, With<Vehicle>);

/// One car's pose at one tick: position (m) and rotation.
type Pose = (Vec3, Quat);

/// What the three apps record, shared across them (one process).
#[derive(Default)]
struct Record {
    /// The server's pose of each player's car at each tick.
    server: HashMap<(u8, u32), Pose>,
    /// Each client's first prediction of its own car's pose at each tick.
    predicted: [HashMap<u32, Pose>; CLIENTS],
}

/// The shared record, a resource of every app.
#[derive(Resource, Clone, Default)]
struct Shared(Arc<Mutex<Record>>);

/// Which client an app is (a resource of the client apps).
#[derive(Resource, Clone, Copy)]
struct ClientIndex(usize);

fn main() -> ExitCode {
    let options = parse_options();
    let shared = Shared::default();
    let tick = Duration::from_secs_f64(1.0 / HZ);
    let server_addr = SocketAddr::new(Ipv4Addr::LOCALHOST.into(), UDP_PORT);
    let mut server = server_app(&options, &shared, tick);
    let server_entity = server
        .world_mut()
        .query_filtered::<Entity, With<Server>>()
        .single(server.world())
        .expect("the server entity");
    let mut clients: Vec<App> = (0..CLIENTS)
        .map(|i| client_app(&options, &shared, tick, i, server_addr, &mut server, server_entity))
        .collect();
    if let Some(list) = clients[CLIENTS - 1].world().get_resource::<RolledBack>() {
        println!(
            "the wheels' and vehicle's state in lightyear's rollback: {}",
            list.0.join(", ")
        );
    }
    server.world_mut().trigger(Start { entity: server_entity });
    for c in &mut clients {
        let entity = c
            .world_mut()
            .query_filtered::<Entity, With<Client>>()
            .single(c.world())
            .expect("the client entity");
        c.world_mut().trigger(Connect { entity });
    }

    // One frame every 1/60 s of real time: the server, then each client.
    let frames = (options.seconds as f64 * HZ) as u32;
    let mut cost = [Duration::ZERO; CLIENTS + 1];
    let started = Instant::now();
    for frame in 0..frames {
        let due = started + tick * frame;
        if let Some(wait) = due.checked_duration_since(Instant::now()) {
            std::thread::sleep(wait);
        }
        for (i, app) in std::iter::once(&mut server).chain(clients.iter_mut()).enumerate() {
            let t0 = Instant::now();
            app.update();
            cost[i] += t0.elapsed();
        }
    }
    let ms = |d: Duration| d.as_secs_f64() * 1e3 / frames as f64;
    println!(
        "frame cost ({} cars, {} s): server {:.2} ms, clients {:.2} / {:.2} ms (mean per frame, this build)",
        options.cars,
        options.seconds,
        ms(cost[0]),
        ms(cost[1]),
        ms(cost[2])
    );
    report(&options, &shared, &mut clients)
}

/// Prints what each client saw and decides the exit code (see the module's docs).
fn report(options: &Options, shared: &Shared, clients: &mut [App]) -> ExitCode {
    let record = shared.0.lock().expect("one thread");
    let settle = (options.settle as f64 * HZ) as u32;
    let first_server_tick = record.server.keys().map(|k| k.1).min().unwrap_or(0);
    let mut over = [false; CLIENTS];
    let mut rolled = [0u32; CLIENTS];
    let mut delayed = [false; CLIENTS];
    for (i, app) in clients.iter_mut().enumerate() {
        rolled[i] = app
            .world()
            .get_resource::<PredictionMetrics>()
            .map_or(0, |m| m.rollbacks);
        // The conditioner acted: the round trip lightyear measured holds both ends' delay.
        let rtt = app
            .world_mut()
            .query_filtered::<&Link, With<Client>>()
            .single(app.world())
            .map_or(Duration::ZERO, |l| l.stats.rtt);
        delayed[i] = rtt.as_secs_f64() * 1e3 >= 1.6 * options.latency_ms as f64;
        let (mut worst_m, mut worst_deg, mut compared) = (0.0f32, 0.0f32, 0usize);
        for (&tick, &(p, q)) in &record.predicted[i] {
            if tick < first_server_tick.saturating_add(settle) {
                continue;
            }
            if let Some(&(ps, qs)) = record.server.get(&(i as u8, tick)) {
                compared += 1;
                worst_m = worst_m.max(p.distance(ps));
                worst_deg = worst_deg.max(q.angle_between(qs).to_degrees());
            }
        }
        over[i] = worst_m * 100.0 > options.bound_cm || worst_deg > options.bound_deg;
        println!(
            "client {i}: round trip {:.0} ms, {} rollbacks, {compared} ticks compared after {} s, largest correction {:.2} cm / {:.3}°{}",
            rtt.as_secs_f64() * 1e3,
            rolled[i],
            options.settle,
            worst_m * 100.0,
            worst_deg,
            match (i, options.perturb, options.without_wheel_rollback) {
                (0, true, _) => " (perturbed)",
                (0, _, true) => " (its wheels not rolled back)",
                _ => "",
            }
        );
        if compared == 0 {
            println!("client {i}: no tick to compare: the car never arrived");
            return ExitCode::FAILURE;
        }
    }
    let broken = options.without_wheel_rollback;
    let ok = if broken {
        over[0]
    } else {
        !over.iter().any(|&o| o) && rolled.iter().any(|&r| r > 0) && delayed.iter().all(|&d| d)
    };
    println!(
        "{}",
        match (broken, ok) {
            (false, true) =>
                "ok: every correction within the bound, the links delayed as asked, and rollbacks happened",
            (false, false) => "FAILED: a correction over the bound, a link not delayed, or no rollback at all",
            (true, true) => "ok: client 0's corrections exceed the bound, as they must",
            (true, false) => "FAILED: client 0 stayed within the bound: the check cannot see it",
        }
    );
    if ok { ExitCode::SUCCESS } else { ExitCode::FAILURE }
}

/// What every app has: headless Bevy, avian (its transform sync and interpolation are
/// lightyear's), the wheels and vehicles, the shared record.
fn base_app(shared: &Shared) -> App {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        TransformPlugin,
        bevy::asset::AssetPlugin::default(),
        bevy_state::app::StatesPlugin,
    ))
    .add_plugins(
        PhysicsPlugins::default()
            .build()
            .disable::<PhysicsTransformPlugin>()
            .disable::<PhysicsInterpolationPlugin>(),
    )
    .add_plugins(WheelColliderPlugins)
    .insert_resource(shared.clone());
    app
}

/// The protocol both sides add after lightyear's client or server plugins: the input,
/// the car's marker, avian's bodies, the wheels' rollback.
fn protocol(app: &mut App, wheels: bool) {
    app.add_plugins(InputPlugin::<Pedals>::default());
    app.component::<Car>().replicate();
    app.add_plugins(LightyearAvianPlugin {
        replication_mode: AvianReplicationMode::Position {
            sync_to_transform: false,
        },
        rollback_resources: true,
        ..default()
    });
    if wheels {
        app.add_plugins(WheelColliderLightyearPlugin);
    }
}

/// The link conditioner of every receiving end.
fn conditioner(options: &Options) -> RecvLinkConditioner {
    RecvLinkConditioner::new(
        LinkConditionerConfig::default()
            .with_incoming_latency(Duration::from_millis(options.latency_ms as u64))
            .with_fixed_loss(options.loss_percent / 100.0),
    )
}

fn server_app(options: &Options, shared: &Shared, tick: Duration) -> App {
    let mut app = base_app(shared);
    app.add_plugins(ServerPlugins { tick_duration: tick });
    protocol(&mut app, true);
    app.insert_resource(options.clone());
    app.add_systems(Startup, server_scene)
        .add_observer(car_for_new_client)
        .add_systems(FixedUpdate, server_drive)
        .add_systems(FixedPostUpdate, record_server.after(PhysicsSystems::Last));
    // Each link the server accepts gets its own copy of the conditioner.
    let mut server = app.world_mut().spawn((
        Name::new("server"),
        Server::new(Some(conditioner(options))),
        NetcodeServer::new(lightyear::netcode::prelude::server::NetcodeConfig {
            server_addr_check: options.udp,
            ..default()
        }),
    ));
    if options.udp {
        server.insert((
            LocalAddr(SocketAddr::new(Ipv4Addr::LOCALHOST.into(), UDP_PORT)),
            ServerUdpIo::default(),
        ));
    }
    app.finish();
    app.cleanup();
    app
}

fn client_app(
    options: &Options,
    shared: &Shared,
    tick: Duration,
    index: usize,
    server_addr: SocketAddr,
    server: &mut App,
    server_entity: Entity,
) -> App {
    let mut app = base_app(shared);
    app.add_plugins(ClientPlugins { tick_duration: tick });
    protocol(&mut app, !(options.without_wheel_rollback && index == 0));
    app.insert_resource(options.clone())
        .insert_resource(ClientIndex(index))
        .insert_resource(PredictionManager::default());
    app.add_systems(Startup, client_scene)
        .add_systems(FixedPreUpdate, client_input.in_set(InputSystems::WriteClientInputs))
        .add_systems(FixedUpdate, client_drive)
        .add_systems(Update, give_arrived_cars_their_wheels)
        .add_systems(FixedPostUpdate, record_prediction.after(PhysicsSystems::Last));
    let auth = Authentication::Manual {
        server_addr,
        client_id: index as u64,
        private_key: Default::default(),
        protocol_id: 0,
    };
    let netcode = NetcodeClient::new(auth, lightyear::netcode::client_plugin::NetcodeConfig::default())
        .expect("a manual netcode client");
    let mut client = app.world_mut().spawn((
        Name::new(format!("client {index}")),
        Client,
        ReplicationReceiver,
        Link::default().with_conditioner(conditioner(options)),
        netcode,
    ));
    if options.udp {
        client.insert((
            LocalAddr(SocketAddr::new(Ipv4Addr::LOCALHOST.into(), 0)),
            PeerAddr(server_addr),
            UdpIo::default(),
        ));
    } else {
        let (to_server, to_client) = CrossbeamIo::new_pair();
        client.insert(to_server);
        server.world_mut().spawn((
            LinkOf { server: server_entity },
            Link::default(),
            PeerAddr(SocketAddr::new(Ipv4Addr::LOCALHOST.into(), 1 + index as u16)),
            Linked,
            to_client,
        ));
    }
    app.finish();
    app.cleanup();
    app
}

/// The server's road, and the cars it drives itself (players `CLIENTS..cars`).
fn server_scene(mut commands: Commands, options: Res<Options>) {
    let lanes = options.cars.max(CLIENTS);
    common::road(&mut commands, lanes);
    for player in CLIENTS..options.cars {
        spawn_car(&mut commands, player, lanes, NOT_STARTED, None);
    }
}

/// The client's road: the server's, static, so that its predictions meet the same kerbs.
fn client_scene(mut commands: Commands, options: Res<Options>) {
    common::road(&mut commands, options.cars.max(CLIENTS));
}

/// Spawns player `player`'s car in its lane with its vehicle, replicated to every client:
/// predicted by its driver (`owner`, a link), interpolated by the others.
fn spawn_car(commands: &mut Commands, player: usize, lanes: usize, start: u32, owner: Option<(Entity, u64)>) {
    let preset = player % PRESETS.len();
    let settings = VehicleSettings::preset(PRESETS[preset]).expect("a shipped preset");
    let at = Vec3::new(lane(player, lanes), settings.touch_height() + 0.02, 0.0);
    let car = commands
        .spawn((
            Name::new(format!("car {player}")),
            Car {
                preset: preset as u8,
                player: player as u8,
                start,
            },
            Position(at),
            Rotation::default(),
            Transform::from_translation(at),
            Replicate::to_clients(NetworkTarget::All),
        ))
        .id();
    match owner {
        Some((link, id)) => {
            commands.entity(car).insert((
                PredictionTarget::to_clients(NetworkTarget::Single(PeerId::Netcode(id))),
                InterpolationTarget::to_clients(NetworkTarget::AllExceptSingle(PeerId::Netcode(id))),
                ControlledBy {
                    owner: link,
                    lifetime: default(),
                },
            ));
        }
        None => {
            commands
                .entity(car)
                .insert(InterpolationTarget::to_clients(NetworkTarget::All));
        }
    }
    insert_vehicle(commands, car, &settings, WheelPlacement::OutsideHierarchy).expect("a shipped preset is valid");
}

/// A client connected: its car, whose script starts 2 s after this tick; the first
/// client's start is the server's cars' too, so that every car runs its script in step
/// with the others (side by side, none runs into another).
fn car_for_new_client(
    add: On<Add, Connected>,
    mut commands: Commands,
    links: Query<&RemoteId, With<LinkOf>>,
    mut waiting: Query<&mut Car>,
    timeline: Res<LocalTimeline>,
    options: Res<Options>,
) {
    let Ok(remote) = links.get(add.entity) else {
        return;
    };
    let id = remote.0.to_bits();
    commands.entity(add.entity).insert(ReplicationSender);
    let start = timeline.tick().0.wrapping_add((2.0 * HZ) as u32);
    let start = match waiting.iter().find(|c| c.start != NOT_STARTED) {
        Some(started) => started.start,
        None => start,
    };
    for mut car in &mut waiting {
        if car.start == NOT_STARTED {
            car.start = start;
        }
    }
    spawn_car(
        &mut commands,
        id as usize,
        options.cars.max(CLIENTS),
        start,
        Some((add.entity, id)),
    );
}

/// The server's drivers: a client's car from its input, its own cars from their script.
fn server_drive(
    timeline: Res<LocalTimeline>,
    mut cars: Query<(&Car, &mut VehicleInput, Option<&ActionState<Pedals>>)>,
) {
    for (car, mut input, action) in &mut cars {
        let pedals = match action {
            Some(a) => a.0,
            None => pedals_at(timeline.tick().0, car),
        };
        pedals.apply(&mut input);
    }
}

/// The client's own car's input for this tick: its script.
fn client_input(
    timeline: Res<LocalTimeline>,
    mut cars: Query<(&Car, &mut ActionState<Pedals>), With<InputMarker<Pedals>>>,
) {
    for (car, mut action) in &mut cars {
        action.0 = pedals_at(timeline.tick().0, car);
    }
}

/// The client's predicted car follows its input (every tick, rollbacks included).
fn client_drive(mut cars: Query<(&ActionState<Pedals>, &mut VehicleInput), With<Predicted>>) {
    for (action, mut input) in &mut cars {
        action.0.apply(&mut input);
    }
}

/// A car arrived predicted: its vehicle (client 0's 20 kg heavier with `--perturb`), and
/// the input marker. An interpolated car gets no body: it is drawn, not simulated.
fn give_arrived_cars_their_wheels(
    mut commands: Commands,
    arrived: Query<(Entity, &Car), ArrivedPredicted>,
    options: Res<Options>,
    me: Res<ClientIndex>,
) {
    for (entity, car) in &arrived {
        let mut settings = VehicleSettings::preset(PRESETS[car.preset as usize]).expect("a shipped preset");
        if options.perturb && me.0 == 0 {
            settings.chassis.mass += options.perturb_kg;
        }
        insert_vehicle(&mut commands, entity, &settings, WheelPlacement::OutsideHierarchy)
            .expect("a shipped preset is valid");
        commands.entity(entity).insert(InputMarker::<Pedals>::default());
    }
}

/// The server's pose of every car at this tick.
fn record_server(timeline: Res<LocalTimeline>, shared: Res<Shared>, cars: Query<(&Car, &Position, &Rotation)>) {
    let mut record = shared.0.lock().expect("one thread");
    for (car, p, r) in &cars {
        record.server.insert((car.player, timeline.tick().0), (p.0, r.0));
    }
}

/// The client's first prediction of its own car at this tick (not a rollback's replay).
fn record_prediction(
    timeline: Res<LocalTimeline>,
    rollback: Option<Res<Rollback>>,
    shared: Res<Shared>,
    me: Res<ClientIndex>,
    cars: Query<(&Position, &Rotation), OwnCar>,
) {
    if rollback.is_some() {
        return;
    }
    let mut record = shared.0.lock().expect("one thread");
    for (p, r) in &cars {
        record.predicted[me.0].entry(timeline.tick().0).or_insert((p.0, r.0));
    }
}
