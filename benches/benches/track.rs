//! The budget a game sees: the example scene's proving ground (`examples/inspector/
//! layout.rs`: heightfield hill, banked mesh turn, kerbs, bumps, a grate, ramps, cones and
//! crates as dynamic bodies, the seesaw on its joint, a sliding platform and a turntable)
//! with 1, 8 and 40 cars of the shipped presets driving (events and effects data on),
//! against the same scene with the cars as bare boxes of the same size and mass (the
//! engine's own cost). 60 Hz, one step per update.
//!
//! ```sh
//! cargo bench -p wheelcollider_bench --bench track        # one thread, then two
//! ```
//!
//! Method: for each car count the two worlds are stepped side by side, 60 warm-up steps,
//! then 12 rounds of 15 steps each in turn (each after two untimed steps); each world's
//! figure is its fastest round. The cars' cost is the difference; a line through the
//! three counts gives the cost per car (its slope) and the fixed cost per step (its
//! intercept: what the plugin's systems cost whatever the number of cars). Each thread
//! count runs in its own process (Bevy's task pools are process-wide). At 8 cars the
//! difference is split by phase of the step.
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

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "--threads") {
        measure(args.get(i + 1).and_then(|t| t.parse().ok()).unwrap_or(1));
        return;
    }
    let exe = std::env::current_exe().expect("the bench's own path");
    for threads in [1, 2] {
        let status = std::process::Command::new(&exe)
            .args(["--threads", &threads.to_string()])
            .status()
            .expect("the bench runs itself");
        assert!(status.success());
    }
}
