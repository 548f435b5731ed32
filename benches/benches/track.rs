//! The budget a game sees: the example scene's proving ground (`examples/inspector/
//! layout.rs`: heightfield hill, banked mesh turn, kerbs, bumps, a grate, ramps, cones and
//! crates as dynamic bodies, the seesaw on its joint, a sliding platform and a turntable)
//! with 1, 8 and 40 cars of the shipped presets driving (events and effects data on),
//! against the same scene with the cars as bare boxes of the same size and mass (the
//! engine's own cost). 60 Hz, one step per update.
//!
//! ```sh
//! cargo bench -p wheelcollider_bench --bench track        # settings table, then 1 and 2 threads
//! cargo bench -p wheelcollider_bench --bench track -- --settings-only  # the settings table
//! ```
//!
//! Method: for each car count the two worlds are stepped side by side, 60 warm-up steps,
//! then 12 rounds of 15 steps each in turn (each after two untimed steps); each world's
//! figure is its fastest round. The cars' cost is the difference; a line through the
//! three counts gives the cost per car (its slope) and the fixed cost per step (its
//! intercept: what the plugin's systems cost whatever the number of cars). Each thread
//! count runs in its own process (Bevy's task pools are process-wide). At 8 cars the
//! difference is split by phase of the step.
//!
//! The settings table: the step with cars under `parallel` off (the single-threaded
//! executor) and on with 1, 2 and 4 compute threads, each setting in its own process,
//! three processes per setting in turn, the median of their fastest rounds.
use bevy::prelude::*;
use wheelcollider_bench::track::{COUNTS, app};
use wheelcollider_bench::{fastest_batches, phases};

/// Each app's fastest round of 15 steps (seconds per step), after 60 warm-up steps.
fn fastest(apps: &mut [App]) -> Vec<f64> {
    let mut runners: Vec<Box<dyn FnMut() + '_>> = apps
        .iter_mut()
        .map(|app| Box::new(move || app.update()) as Box<dyn FnMut()>)
        .collect();
    fastest_batches(&mut runners, 60, 12, 15)
}

fn measure(threads: usize) {
    println!("### {threads} thread(s)\n");
    println!("| cars | step with cars (µs) | with boxes (µs) | the cars' cost (µs) | per car (µs) |");
    println!("| --- | --- | --- | --- | --- |");
    let mut cost = vec![];
    for n in COUNTS {
        let times = fastest(&mut [app(n, false, threads), app(n, true, threads)]);
        let (with, bare) = (times[0] * 1e6, times[1] * 1e6);
        cost.push(with - bare);
        println!(
            "| {n} | {with:.0} | {bare:.0} | {:.0} | {:.1} |",
            with - bare,
            (with - bare) / n as f64
        );
    }
    let (first, last) = (COUNTS[0] as f64, COUNTS[COUNTS.len() - 1] as f64);
    let per_car = (cost[cost.len() - 1] - cost[0]) / (last - first);
    println!(
        "\nper car (slope 1 → 40): {per_car:.1} µs a step; fixed (intercept): {:.0} µs a step\n",
        cost[0] - per_car * first
    );
    // Where the 8 cars' cost goes.
    let mut apps = [app(8, false, threads), app(8, true, threads)];
    let [cars, boxes] = &mut apps;
    let best = phases::fastest_phases([cars, boxes], 60);
    println!("| phase, 8 cars | with cars (µs) | with boxes (µs) | difference (µs) |");
    println!("| --- | --- | --- | --- |");
    for (p, name) in phases::PHASES.iter().enumerate() {
        let (w, b) = (best[0][p] * 1e6, best[1][p] * 1e6);
        println!("| {name} | {w:.0} | {b:.0} | {:.0} |", w - b);
    }
}

/// The threading settings the settings table compares: `parallel` off (Bevy's
/// single-threaded executor in every schedule, one compute thread), then on with 1, 2
/// and 4 compute threads.
const SETTINGS: [&str; 4] = ["off", "1", "2", "4"];
/// Processes per setting (each a fresh task pool); the table gives their median.
const PROCESSES: usize = 3;

/// One process of the settings table: the step with 1, 8 and 40 cars under `setting`,
/// each its fastest round; printed as `step <cars> <µs>` lines for the parent.
fn settings_child(setting: &str) {
    let threads = setting.parse().unwrap_or(1);
    for n in COUNTS {
        let mut cars = app(n, false, threads);
        if setting == "off" {
            wheelcollider_bench::single_threaded(&mut cars);
        }
        let time = fastest(std::slice::from_mut(&mut cars))[0];
        println!("step {n} {:.1}", time * 1e6);
    }
}

/// The proving ground's step with 1, 8 and 40 cars under each of [`SETTINGS`]:
/// [`PROCESSES`] processes per setting, in turn, and each cell their median (µs), with
/// the range.
fn settings(exe: &std::path::Path) {
    let mut times = vec![vec![vec![]; COUNTS.len()]; SETTINGS.len()];
    for _ in 0..PROCESSES {
        for (s, setting) in SETTINGS.iter().enumerate() {
            let out = std::process::Command::new(exe)
                .args(["--setting", setting])
                .output()
                .expect("the bench runs itself");
            assert!(out.status.success());
            for line in String::from_utf8_lossy(&out.stdout).lines() {
                let mut words = line.split_whitespace().skip(1);
                let (Some(n), Some(us)) = (words.next(), words.next()) else {
                    continue;
                };
                let i = COUNTS.iter().position(|c| c.to_string() == n).expect("a count");
                times[s][i].push(us.parse::<f64>().expect("µs"));
            }
        }
    }
    println!("### The step (µs) by threading setting: median (range) of {PROCESSES} processes\n");
    println!("| cars | `parallel` off | on, 1 thread | on, 2 threads | on, 4 threads |");
    println!("| --- | --- | --- | --- | --- |");
    for (i, n) in COUNTS.iter().enumerate() {
        let cells: Vec<String> = times
            .iter_mut()
            .map(|t| {
                let t = &mut t[i];
                t.sort_by(f64::total_cmp);
                format!("{:.0} ({:.0}–{:.0})", t[t.len() / 2], t[0], t[t.len() - 1])
            })
            .collect();
        println!("| {n} | {} |", cells.join(" | "));
    }
    println!();
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let arg = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .map(|i| args.get(i + 1).map(String::as_str).unwrap_or_default())
    };
    if let Some(threads) = arg("--threads") {
        measure(threads.parse().unwrap_or(1));
        return;
    }
    if let Some(setting) = arg("--setting") {
        settings_child(setting);
        return;
    }
    let exe = std::env::current_exe().expect("the bench's own path");
    settings(&exe);
    if args.iter().any(|a| a == "--settings-only") {
        return;
    }
    for threads in [1, 2] {
        let status = std::process::Command::new(&exe)
            .args(["--threads", &threads.to_string()])
            .status()
            .expect("the bench runs itself");
        assert!(status.success());
    }
}
