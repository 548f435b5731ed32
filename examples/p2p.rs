//! Peer-to-peer rollback between two processes over UDP on loopback: bevy_ggrs 0.22's
//! `P2PSession`, headless, each peer driving one car of the `rollback` example's course
//! (speed bumps, a kerb, a jump) from its script, with GGRS' input delay and its desync
//! detection on (the peers exchange a checksum of every registered component every
//! `--interval` confirmed frames). A link conditioner on each peer's socket holds every
//! packet it receives for `--latency` ms and drops `--loss` per cent of them (default
//! 50 ms each way, a 100 ms round trip, and 2 %), so inputs arrive late and lost ones
//! are sent again: each peer predicts the other's inputs and rolls back when they
//! arrive, every frame its driver's steering changes.
//!
//! ```sh
//! cargo run --release --example p2p                  # two peers, 1 000 frames: no desync
//! cargo run --release --example p2p -- --perturb     # peer 1's road car 1 kg heavier: must desync
//! cargo run --release --example p2p -- --latency 0 --loss 0   # a quiet link
//! ```
//!
//! Without `--peer`, the example starts itself twice as the two peers (ports picked
//! free on 127.0.0.1), waits for both and prints what each saw; it exits 0 when both
//! reached `--frames` confirmed frames with no desync (with `--perturb`: when a desync
//! was reported, the proof that the check can fail), 1 otherwise. Run one peer by hand
//! on each of two machines with `--peer 0 --port 7000 --remote OTHER:7001` and
//! `--peer 1 --port 7001 --remote FIRST:7000`.
//!
//! What it registers is the plugin's list, `wheelcollider::avian::rollback`, as the
//! `rollback` example does (`docs/plugin.md`, "Multiplayer").
mod common;

use bevy::prelude::*;
use bevy_ggrs::ggrs::{DesyncDetection, Message, NonBlockingSocket, UdpNonBlockingSocket};
use bevy_ggrs::prelude::*;
use bevy_ggrs::{ConfirmedFrameCount, LoadWorld};
use common::Config;
use std::collections::VecDeque;
use std::net::SocketAddr;
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

/// The command line.
#[derive(Clone, Debug)]
struct Options {
    frames: i32,
    input_delay: usize,
    interval: u32,
    fps: u32,
    latency_ms: u32,
    loss_percent: u32,
    perturb: bool,
    /// This process is one peer: (its player handle, its port, the other's address).
    peer: Option<(usize, u16, SocketAddr)>,
}

const USAGE: &str =
    "usage: p2p [--frames N] [--input-delay N] [--interval N] [--fps N] [--latency MS] [--loss PERCENT] [--perturb]
           [--peer 0|1 --port PORT --remote HOST:PORT]";

fn parse_options() -> Result<Options, String> {
    let mut o = Options {
        frames: 1000,
        input_delay: 2,
        interval: 10,
        fps: 60,
        latency_ms: 50,
        loss_percent: 2,
        perturb: false,
        peer: None,
    };
    let (mut handle, mut port, mut remote) = (None, None, None);
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().ok_or(format!("{a} needs a value"));
        let number = |v: String| v.parse::<u32>().map_err(|e| format!("{a}: {e}"));
        match a.as_str() {
            "--frames" => o.frames = number(value()?)?.clamp(1, 100_000) as i32,
            "--input-delay" => o.input_delay = number(value()?)? as usize,
            "--interval" => o.interval = number(value()?)?.max(1),
            "--fps" => o.fps = number(value()?)?.clamp(1, 1000),
            "--latency" => o.latency_ms = number(value()?)?.min(1000),
            "--loss" => o.loss_percent = number(value()?)?.min(50),
            "--perturb" => o.perturb = true,
            "--peer" => handle = Some(number(value()?)? as usize),
            "--port" => port = Some(number(value()?)? as u16),
            "--remote" => remote = Some(value()?.parse::<SocketAddr>().map_err(|e| format!("--remote: {e}"))?),
            _ => return Err(format!("unknown argument {a}")),
        }
    }
    o.peer = match (handle, port, remote) {
        (Some(h), Some(p), Some(r)) if h < 2 => Some((h, p, r)),
        (None, None, None) => None,
        _ => return Err("--peer (0 or 1), --port and --remote go together".into()),
    };
    Ok(o)
}

fn main() -> ExitCode {
    let options = match parse_options() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("{e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match options.peer {
        Some(peer) => {
            let report = run_peer(&options, peer);
            println!("{}", report.line(peer.0));
            ExitCode::from(u8::from(!report.finished(options.frames)))
        }
        None => orchestrate(&options),
    }
}

/// What one peer saw.
#[derive(Resource, Default, Debug)]
struct PeerReport {
    confirmed: i32,
    rollbacks: usize,
    desyncs: Vec<i32>,
    ping_ms: u128,
    disconnected: bool,
    timed_out: bool,
    wall: Duration,
}

impl PeerReport {
    /// Reached `frames` confirmed frames, in touch with the other peer, no desync.
    fn finished(&self, frames: i32) -> bool {
        self.confirmed >= frames && self.desyncs.is_empty() && !self.disconnected && !self.timed_out
    }

    /// One line the orchestrator reads back (`desyncs N` is what it checks).
    fn line(&self, handle: usize) -> String {
        format!(
            "peer {handle}: confirmed {} frames in {:.1} s, {} rollbacks, desyncs {}{}, ping {} ms{}{}",
            self.confirmed,
            self.wall.as_secs_f32(),
            self.rollbacks,
            self.desyncs.len(),
            self.desyncs
                .first()
                .map_or(String::new(), |f| format!(" (first at frame {f})")),
            self.ping_ms,
            if self.disconnected { ", DISCONNECTED" } else { "" },
            if self.timed_out { ", TIMED OUT" } else { "" },
        )
    }
}

/// One peer: its session, its app, `frames` confirmed frames at `fps` (or until a
/// desync with `--perturb`), then half a second more so the other peer hears the last
/// inputs.
fn run_peer(options: &Options, (handle, port, remote): (usize, u16, SocketAddr)) -> PeerReport {
    let socket = Conditioned {
        socket: UdpNonBlockingSocket::bind_to_port(port).unwrap_or_else(|e| panic!("port {port}: {e}")),
        latency: Duration::from_millis(options.latency_ms as u64),
        loss: options.loss_percent as f64 / 100.0,
        held: VecDeque::new(),
        seed: 0x9e37_79b9_7f4a_7c15 ^ handle as u64,
    };
    let session = SessionBuilder::<Config>::new()
        .with_num_players(2)
        .and_then(|b| b.add_player(PlayerType::Local, handle))
        .and_then(|b| b.add_player(PlayerType::Remote(remote), 1 - handle))
        .expect("two players")
        .with_input_delay(options.input_delay)
        .with_desync_detection_mode(DesyncDetection::On {
            interval: options.interval,
        })
        .start_p2p_session(socket)
        .expect("a valid P2P session");
    let mut app = common::ggrs_app();
    app.init_resource::<PeerReport>()
        .add_systems(LoadWorld, |mut r: ResMut<PeerReport>| r.rollbacks += 1)
        .add_systems(PostUpdate, watch_session)
        .insert_resource(Session::P2P(session));
    // Peer 1's copy of car 0 is 1 kg heavier with `--perturb`: its physics differs.
    let mass_change = if options.perturb && handle == 1 { 1.0 } else { 0.0 };
    app.add_systems(Startup, move |mut commands: Commands| {
        common::course(&mut commands, 2);
        common::spawn_cars(&mut commands, 2, mass_change);
    });
    common::register(&mut app, None, true, false);
    // One GGRS frame of game time per update; the loop below paces the updates.
    app.finish();
    app.cleanup();
    let tick = Duration::from_secs_f64(1.0 / options.fps as f64);
    let started = Instant::now();
    let limit = Duration::from_secs_f64(30.0 + 3.0 * options.frames as f64 / options.fps as f64);
    let mut done_at = None;
    loop {
        let t = Instant::now();
        app.update();
        let r = app.world().resource::<PeerReport>();
        let done = r.confirmed >= options.frames || (options.perturb && !r.desyncs.is_empty()) || r.disconnected;
        if done && done_at.is_none() {
            done_at = Some(Instant::now());
        }
        if done_at.is_some_and(|d| d.elapsed() > Duration::from_millis(500)) {
            break;
        }
        if started.elapsed() > limit {
            app.world_mut().resource_mut::<PeerReport>().timed_out = true;
            break;
        }
        std::thread::sleep(tick.saturating_sub(t.elapsed()));
    }
    let mut report = app.world_mut().remove_resource::<PeerReport>().expect("inserted above");
    report.wall = started.elapsed();
    report
}

/// A link conditioner: every packet received is held for `latency` and a share `loss`
/// of them dropped (a seeded generator: the same run drops the same packets).
struct Conditioned {
    socket: UdpNonBlockingSocket,
    latency: Duration,
    loss: f64,
    held: VecDeque<(Instant, SocketAddr, Message)>,
    seed: u64,
}

impl Conditioned {
    /// A uniform number in [0, 1) (xorshift64).
    fn uniform(&mut self) -> f64 {
        self.seed ^= self.seed << 13;
        self.seed ^= self.seed >> 7;
        self.seed ^= self.seed << 17;
        (self.seed >> 11) as f64 / (1u64 << 53) as f64
    }
}

impl NonBlockingSocket<SocketAddr> for Conditioned {
    fn send_to(&mut self, msg: &Message, addr: &SocketAddr) {
        self.socket.send_to(msg, addr);
    }

    fn receive_all_messages(&mut self) -> Vec<(SocketAddr, Message)> {
        let now = Instant::now();
        for (addr, msg) in self.socket.receive_all_messages() {
            if self.uniform() >= self.loss {
                self.held.push_back((now + self.latency, addr, msg));
            }
        }
        let mut due = Vec::new();
        while self.held.front().is_some_and(|(at, ..)| *at <= now) {
            let (_, addr, msg) = self.held.pop_front().expect("checked");
            due.push((addr, msg));
        }
        due
    }
}

/// Reads the session's events (desyncs, checksum checks, disconnection), its confirmed
/// frame and the ping into the report.
fn watch_session(
    mut session: ResMut<Session<Config>>,
    confirmed: Option<Res<ConfirmedFrameCount>>,
    mut report: ResMut<PeerReport>,
) {
    let Session::P2P(session) = &mut *session else {
        return;
    };
    for event in session.events() {
        match event {
            GgrsEvent::DesyncDetected { frame, .. } => report.desyncs.push(frame),
            GgrsEvent::Disconnected { .. } => report.disconnected = true,
            _ => {}
        }
    }
    if let Some(c) = confirmed {
        report.confirmed = report.confirmed.max(c.0);
    }
    for handle in session.remote_player_handles() {
        if let Ok(stats) = session.network_stats(handle) {
            report.ping_ms = stats.ping;
        }
    }
}

/// Starts this example twice as the two peers on free loopback ports, waits for both,
/// prints their lines; success as the module's documentation says.
fn orchestrate(options: &Options) -> ExitCode {
    let free_port = || {
        std::net::UdpSocket::bind("127.0.0.1:0")
            .and_then(|s| s.local_addr())
            .map(|a| a.port())
            .expect("a free UDP port")
    };
    let ports = [free_port(), free_port()];
    let exe = std::env::current_exe().expect("this example's path");
    let children: Vec<_> = (0..2)
        .map(|h| {
            let mut c = Command::new(&exe);
            c.args(["--frames", &options.frames.to_string()])
                .args(["--input-delay", &options.input_delay.to_string()])
                .args(["--interval", &options.interval.to_string()])
                .args(["--fps", &options.fps.to_string()])
                .args(["--latency", &options.latency_ms.to_string()])
                .args(["--loss", &options.loss_percent.to_string()])
                .args(["--peer", &h.to_string(), "--port", &ports[h].to_string()])
                .args(["--remote", &format!("127.0.0.1:{}", ports[1 - h])])
                .stdout(Stdio::piped());
            if options.perturb {
                c.arg("--perturb");
            }
            c.spawn().expect("starts a peer")
        })
        .collect();
    let mut desyncs = 0;
    let mut all_finished = true;
    for child in children {
        let out = child.wait_with_output().expect("a peer's output");
        let text = String::from_utf8_lossy(&out.stdout);
        print!("{text}");
        all_finished &= out.status.success();
        desyncs += text
            .split("desyncs ")
            .nth(1)
            .and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next())
            .and_then(|n| n.parse::<usize>().ok())
            .unwrap_or(0);
    }
    let ok = match options.perturb {
        false => all_finished && desyncs == 0,
        true => desyncs > 0,
    };
    let what = match (options.perturb, ok) {
        (false, true) => "both peers confirmed every frame, no desync",
        (false, false) => "FAILED: a desync, a disconnection or a peer that did not finish",
        (true, true) => "with one side's physics perturbed the desync was reported, as it must be",
        (true, false) => "FAILED: one side's physics was perturbed and no desync was reported",
    };
    println!(
        "p2p: {} frames, input delay {}, {} ms each way, {} % lost: {what}",
        options.frames, options.input_delay, options.latency_ms, options.loss_percent
    );
    ExitCode::from(u8::from(!ok))
}
