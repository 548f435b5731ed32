//! Rollback on a real rollback library: cars driven through bevy_ggrs 0.22's
//! `SyncTestSession`, headless.
//!
//! Each frame the session saves the world, advances it, then rolls back `--check` frames
//! (default 7) and resimulates them, and compares the checksums of every registered
//! component on every car between the first simulation and the resimulation: any state
//! the wheels, the vehicle or avian carry that is not registered makes them differ, and
//! the example exits with an error. The cars are players: their inputs come through
//! GGRS (a script by frame: full throttle with a weaving steer, over two speed bumps, a
//! kerb under the left wheels and a jump, then brakes into the yard: the road car into a
//! pile of boxes resting on each other, the rally car over a seesaw on avian's joint,
//! both asleep until the cars wake them).
//!
//! ```sh
//! cargo run --release --example rollback                  # two cars, 600 frames
//! cargo run --release --example rollback -- --cars 8
//! cargo run --release --example rollback -- --leave-out WheelState   # must desync
//! cargo run --release --example rollback -- --trailer     # the road car tows the caravan
//! ```
//!
//! With `--trailer` the road car tows the `caravan` preset over the course (the hitch's
//! joint, the caravan's overrun brakes and `Coupled` in the rollback); the run fails
//! unless the road car flies off the ramp and the caravan climbs it, still coupled.
//!
//! What it registers is the plugin's list, `wheelcollider::avian::rollback` (the table in
//! `docs/plugin.md`, "Multiplayer", says what each entry is for). At the
//! end it prints the frame time (the step, the rollback and its resimulated steps, the
//! saves and checksums): the median and 90th percentile over the frames.
mod common;

use avian3d::prelude::*;
use bevy::prelude::*;
use bevy_ggrs::LoadWorld;
use bevy_ggrs::prelude::*;
use common::{Config, Diagnosis, PILE, PRESETS, Player, Prop, RAMP_END};
use std::time::{Duration, Instant};
use wheelcollider::avian::vehicle::towing::{Coupled, HitchTelemetry};
use wheelcollider::prelude::*;

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
    /// The road car tows the caravan.
    trailer: bool,
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
    /// The yard: how far the pile's top box moved (m), the frames in which a prop
    /// slept, the seesaw's lowest and highest pitch (°).
    pile_moved: f32,
    asleep: usize,
    seesaw: (f32, f32),
    /// With `--trailer`: how far the caravan went along the course (m), whether it
    /// was still coupled at the end, and its lowest and highest point (m).
    caravan: Option<(f32, bool, f32, f32)>,
}

fn main() {
    let options = match parse_options() {
        Ok(o) => o,
        Err(e) => {
            eprintln!(
                "{e}\nusage: rollback [--cars N] [--frames N] [--check N] [--leave-out Type] [--no-checksums] [--trailer]"
            );
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
        frames: 600,
        check: 7,
        leave_out: None,
        no_checksums: false,
        trailer: false,
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
            "--trailer" => o.trailer = true,
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

    let mut app = common::ggrs_app();
    app.insert_resource(options.clone())
        .insert_resource(Report {
            seesaw: (f32::MAX, f32::MIN),
            ..default()
        })
        .add_systems(Startup, setup)
        .add_systems(LoadWorld, |mut r: ResMut<Report>| r.rollbacks += 1)
        .add_systems(PostUpdate, watch_lap)
        .add_observer(|t: On<SyncTestMismatch>, mut r: ResMut<Report>| {
            r.mismatches
                .push((t.event().current_frame, t.event().mismatched_frames.clone()));
        })
        .insert_resource(Session::SyncTest(session));
    let checksums = !options.no_checksums;
    common::register(&mut app, options.leave_out.as_deref(), checksums, checksums);
    // One GGRS frame per update, as fast as the machine goes.
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
    let first = app.world().get_resource::<Diagnosis>().and_then(|d| d.first);
    report.first_difference = first.map(|(f, name, e)| {
        let what = app
            .world()
            .get::<Name>(e)
            .map_or("an unnamed entity".to_string(), |n| n.to_string());
        format!("{name} of {what} ({e}) at frame {f}")
    });
    (report, times)
}

fn setup(mut commands: Commands, options: Res<Options>) {
    common::course(&mut commands, options.cars);
    let cars = common::spawn_cars(&mut commands, options.cars, 0.0);
    if options.trailer {
        common::tow_caravan(&mut commands, cars[0], options.cars);
    }
}

/// Keeps each car's furthest distance, its airborne frames past the ramp and its highest
/// point (read outside the rollback schedule: once per frame, after the resimulation).
fn watch_lap(
    mut report: ResMut<Report>,
    cars: Query<(Entity, &Player, &Position, &VehicleTelemetry)>,
    props: Query<(&Prop, &Position, &Rotation, Has<Sleeping>)>,
    contacts: Res<ContactGraph>,
    trailers: Query<(&Position, Has<Coupled>), With<HitchTelemetry>>,
) {
    for (p, coupled) in &trailers {
        let (far, _, low, high) = report.caravan.unwrap_or((0.0, true, f32::MAX, f32::MIN));
        report.caravan = Some((far.max(-p.z), coupled, low.min(p.y), high.max(p.y)));
    }
    for (prop, p, r, asleep) in &props {
        report.asleep += usize::from(asleep);
        match prop {
            Prop::Box(2) => report.pile_moved = report.pile_moved.max((p.z + PILE.1 + 0.3).abs()),
            Prop::Plank => {
                let pitch = r.0.to_euler(EulerRot::XYZ).0.to_degrees();
                report.seesaw = (report.seesaw.0.min(pitch), report.seesaw.1.max(pitch));
            }
            Prop::Box(_) => {}
        }
    }
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
    println!(
        "  yard: the pile's top box moved {:.2} m, props asleep {} prop-frames, seesaw pitch {:.1}..{:.1}°",
        report.pile_moved, report.asleep, report.seesaw.0, report.seesaw.1
    );
    let drove = match report.caravan {
        // The towing car is slower: it must clear the ramp's lip and fly, the caravan
        // climb the ramp (0.55 m) coupled, the other cars drive as usual.
        Some((far, coupled, low, high)) => {
            println!(
                "  caravan: {far:.1} m along the course, {:.2} m up the ramp, coupled at the end: {coupled}",
                high - low
            );
            let (towing, others) = report.lap.split_at(1);
            coupled
                && high - low > 0.3
                && towing.iter().all(|&(d, air, _)| d > RAMP_END && air >= 3)
                && others.iter().all(|&(d, air, _)| d > RAMP_END + 10.0 && air >= 3)
        }
        None => report.lap.iter().all(|&(d, air, _)| d > RAMP_END + 10.0 && air >= 3),
    };
    if !drove && options.leave_out.is_none() {
        println!(
            "rollback: a car did not drive over the jump (it must pass {} m and fly at least 3 frames; a towing car its lip, its caravan climb it coupled)",
            RAMP_END + 10.0
        );
    }
    // With the two default cars over the whole lap, the yard must have been played with:
    // the pile pushed (10 cm at least) and the seesaw swung (5° at least).
    let yard = options.cars != 2
        || options.trailer
        || options.frames < 600
        || (report.pile_moved > 0.1 && report.seesaw.1 - report.seesaw.0 > 5.0);
    if !yard && options.leave_out.is_none() {
        println!("rollback: the cars did not push the pile and rock the seesaw");
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
        None => drove && yard && rolled && report.mismatches.is_empty(),
        Some(_) => !report.mismatches.is_empty(),
    };
    println!("rollback: {}", if ok { "passed" } else { "FAILED" });
    ok
}
