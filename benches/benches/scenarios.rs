//! The scenario table: N cars × grounds × sweep types, the baseline without wheels, the
//! raw cast cost, and Rapier's raycast vehicle, all in one run. Prints Markdown.
//!
//! `cargo bench -p wheelcollider_bench --bench scenarios` (add `-- --quick` for a
//! shorter run).
//!
//! `main` dispatches: a mode of one scenario (`--threads-only`, `--phases`,
//! `--marginal`, `--profile`, `--machine`) or the three tables, one function each.
use wheelcollider_avian::prelude::SweepType;
use wheelcollider_bench::{
    Ground, avian_app, avian_app_with, fastest_batches, mean_height, mean_speed, phases, rapier::RapierScene,
    raw_cast_cost, time_steps,
};

const SWEEPS: [SweepType; 3] = [SweepType::Ray, SweepType::Sphere, SweepType::Cylinder];

/// How much faster both cores of this machine run work of the wheels' kind than one:
/// a chain of dependent divisions and square roots, and an update streamed over
/// 1.5 MB per thread (within L2). Prints the two speed-ups (`-- --machine`).
fn machine_scaling() {
    fn chain(n: u64, seed: f64) -> f64 {
        let (mut x, mut y) = (seed, 1.0f64);
        for i in 0..n {
            x = (x * 1.000_001 + (i as f64).sqrt()) % 1000.0;
            y += x / (1.0 + y.abs());
        }
        x + y
    }
    fn stream(data: &mut [f32], rounds: usize) -> f32 {
        let mut sum = 0.0;
        for _ in 0..rounds {
            for v in data.iter_mut() {
                *v = *v * 1.0001 + 1.0;
                sum += *v;
            }
        }
        sum
    }
    let both = |work: &(dyn Fn(usize) -> f64 + Sync)| {
        let start = std::time::Instant::now();
        std::hint::black_box(work(0));
        let one = start.elapsed().as_secs_f64();
        let start = std::time::Instant::now();
        std::thread::scope(|s| {
            let a = s.spawn(|| work(0));
            let b = s.spawn(|| work(1));
            std::hint::black_box((a.join().ok(), b.join().ok()));
        });
        2.0 * one / start.elapsed().as_secs_f64()
    };
    let compute = both(&|k| chain(100_000_000, 1.0 + k as f64));
    let memory = both(&|_| {
        let mut data = vec![1.0f32; 384 * 1024];
        stream(&mut data, 2000) as f64
    });
    println!("two threads against one: dependent divisions and roots {compute:.2}×, L2-resident stream {memory:.2}×");
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    if std::env::args().any(|a| a == "--machine") {
        machine_scaling();
        return;
    }
    // Bevy's task pools are process-wide and set once, so each thread count is measured in
    // its own process: `-- --threads-only N [detached]` prints "step base" in seconds.
    if let Some(i) = std::env::args().position(|a| a == "--threads-only") {
        return threads_only(i, quick);
    }
    if let Some(i) = std::env::args().position(|a| a == "--phases") {
        return phases_table(i);
    }
    if let Some(i) = std::env::args().position(|a| a == "--marginal") {
        return marginal(i);
    }
    if let Some(i) = std::env::args().position(|a| a == "--profile") {
        return profile(i);
    }
    ground_table(quick);
    size_table(quick);
    thread_table(quick);
}

/// `-- --threads-only N [detached]`: one thread count in this process (Bevy's task pools
/// are process-wide and set once); prints "step base" in seconds.
fn threads_only(i: usize, quick: bool) {
    let threads: usize = std::env::args().nth(i + 1).and_then(|t| t.parse().ok()).unwrap_or(1);
    let warmup = if quick { 10 } else { 30 };
    let detached = std::env::args().any(|a| a == "detached");
    let mut base_app = avian_app(1000, Ground::Flat, None, threads);
    let mut app = avian_app_with(1000, Ground::Flat, Some(SweepType::Ray), threads, detached);
    let (batches, batch) = if quick { (4, 10) } else { (12, 15) };
    let times = fastest_batches(
        &mut [Box::new(|| base_app.update()), Box::new(|| app.update())],
        warmup,
        batches,
        batch,
    );
    let (base, t) = (times[0], times[1]);
    println!("{t} {base}");
    eprintln!(
        "compute threads: {}, io {}, async {}, available {}",
        bevy::tasks::ComputeTaskPool::get().thread_num(),
        bevy::tasks::IoTaskPool::get().thread_num(),
        bevy::tasks::AsyncComputeTaskPool::get().thread_num(),
        bevy::tasks::available_parallelism()
    );
}

/// `-- --phases 1|2 [detached]`: where the step's wall time goes, phase by phase, with
/// and without wheels (ray wheels on the box, 1 000 cars).
fn phases_table(i: usize) {
    // Where the step's wall time goes, phase by phase, with and without wheels:
    // `-- --phases 1|2 [detached]` (ray wheels on the box, 1 000 cars).
    let threads: usize = std::env::args().nth(i + 1).and_then(|t| t.parse().ok()).unwrap_or(1);
    let detached = std::env::args().any(|a| a == "detached");
    let mut base_app = avian_app(1000, Ground::Flat, None, threads);
    let mut app = avian_app_with(1000, Ground::Flat, Some(SweepType::Ray), threads, detached);
    let best = phases::fastest_phases([&mut base_app, &mut app], 30);
    println!("| phase ({threads} threads) | baseline (µs) | ray wheels (µs) | difference (µs) |");
    println!("| --- | --- | --- | --- |");
    for (p, name) in phases::PHASES.iter().enumerate() {
        let (b, w) = (best[0][p] * 1e6, best[1][p] * 1e6);
        println!("| {name} | {b:.0} | {w:.0} | {:.0} |", w - b);
    }
    let (b, w): (f64, f64) = (best[0].iter().sum(), best[1].iter().sum());
    println!(
        "| sum of the phases' minima | {:.0} | {:.0} | {:.0} |",
        b * 1e6,
        w * 1e6,
        (w - b) * 1e6
    );
}

/// `-- --marginal ray flat [detached]`: one scenario's marginal cost per wheel-step with
/// little noise (15 interleaved batches of 20 steps with and without wheels).
fn marginal(i: usize) {
    // A/B comparisons of one scenario with little noise: `-- --marginal ray flat`
    // (add `detached` for wheels outside the chassis' hierarchy)
    // interleaves 15 batches of 20 steps of the world with and without wheels and
    // prints the marginal cost per wheel-step from each one's fastest batch.
    let arg = |k: usize| std::env::args().nth(i + k).unwrap_or_default();
    let sweep = match arg(1).as_str() {
        "sphere" => SweepType::Sphere,
        "cylinder" => SweepType::Cylinder,
        _ => SweepType::Ray,
    };
    let ground = match arg(2).as_str() {
        "heightfield" => Ground::Heightfield,
        "trimesh" => Ground::Trimesh,
        _ => Ground::Flat,
    };
    let detached = arg(3) == "detached";
    let mut base_app = avian_app(1000, ground, None, 1);
    let mut app = avian_app_with(1000, ground, Some(sweep), 1, detached);
    let times = fastest_batches(
        &mut [Box::new(|| base_app.update()), Box::new(|| app.update())],
        30,
        15,
        20,
    );
    let (base, t) = (times[0], times[1]);
    let raw = raw_cast_cost(&mut app, sweep, 3);
    println!(
        "{sweep:?} {}: step {:.3} ms, baseline {:.3} ms, marginal {:.3} µs per wheel-step, raw cast {:.3} µs",
        ground.name(),
        t * 1e3,
        base * 1e3,
        (t - base) / 4000.0 * 1e6,
        raw * 1e6
    );
}

/// `-- --profile ray|sphere|cylinder|base [flat|heightfield|trimesh]`: one scenario run
/// for a profiler (base: the same bodies without wheels), 300 steps.
fn profile(i: usize) {
    // Just run one scenario for a profiler: `-- --profile ray|sphere|cylinder|base [flat|heightfield|trimesh]`
    // (base: the same bodies without wheels). 300 steps: the cars do not yet reach
    // each other (after about 12 s their different steering makes them collide).
    let sweep = match std::env::args().nth(i + 1).as_deref() {
        Some("sphere") => Some(SweepType::Sphere),
        Some("cylinder") => Some(SweepType::Cylinder),
        Some("base") => None,
        _ => Some(SweepType::Ray),
    };
    let ground = match std::env::args().nth(i + 2).as_deref() {
        Some("heightfield") => Ground::Heightfield,
        Some("trimesh") => Ground::Trimesh,
        _ => Ground::Flat,
    };
    let mut app = avian_app(1000, ground, sweep, 1);
    for i in 0..12 {
        if std::env::args().any(|a| a == "--heights") {
            println!(
                "step {}: mean chassis y {:.3} m, speed {:.2} m/s",
                i * 10,
                mean_height(&mut app),
                mean_speed(&mut app)
            );
        }
        time_steps(|| app.update(), 0, 10);
    }
    let t = time_steps(|| app.update(), 30, 150);
    println!("{sweep:?}: {:.3} ms per step", t * 1e3);
}

/// The table per wheel-step: every ground, every sweep, the wheels outside the
/// hierarchy and Rapier's raycast vehicle, 1 000 cars on one thread.
fn ground_table(quick: bool) {
    let warmup = if quick { 10 } else { 30 };
    let (batches, batch) = if quick { (4, 10) } else { (12, 15) };
    let us = |s: f64| s * 1e6;
    println!(
        "## Per wheel-step, N = 1 000 cars (4 000 wheels), one thread, {} Hz\n",
        wheelcollider_bench::HZ
    );
    println!(
        "| ground | engine | step (ms) | baseline (ms) | marginal / wheel-step (µs) | raw cast (µs) | logic over cast | vs Rapier | chassis y (m) |"
    );
    println!("| --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    let n = 1000;
    let wheels = (4 * n) as f64;
    for ground in Ground::ALL {
        // Every world of this ground side by side, measured in interleaved batches: each
        // figure is its fastest batch, so that the machine's noise (±20 % per run here)
        // falls on all of them alike.
        let mut base_app = avian_app(n, ground, None, 1);
        let mut apps: Vec<_> = SWEEPS.iter().map(|&s| avian_app(n, ground, Some(s), 1)).collect();
        // Ray wheels outside the chassis' hierarchy (no transform propagation).
        let mut detached = avian_app_with(n, ground, Some(SweepType::Ray), 1, true);
        let mut rapier = RapierScene::new(n, ground, true);
        let mut rapier_base = RapierScene::new(n, ground, false);
        let times = {
            let mut runners: Vec<Box<dyn FnMut() + '_>> = vec![
                Box::new(|| base_app.update()),
                Box::new(|| rapier.step()),
                Box::new(|| rapier_base.step()),
                Box::new(|| detached.update()),
            ];
            for app in apps.iter_mut() {
                runners.push(Box::new(move || app.update()));
            }
            fastest_batches(&mut runners, warmup, batches, batch)
        };
        let (base, r_step, r_base, t_detached) = (times[0], times[1], times[2], times[3]);
        let r_height = rapier.mean_height();
        let r_marginal = (r_step - r_base) / wheels;
        for (k, sweep) in SWEEPS.into_iter().enumerate() {
            let app = &mut apps[k];
            let t = times[4 + k];
            let raw = (0..5).map(|_| raw_cast_cost(app, sweep, 3)).fold(f64::MAX, f64::min);
            let height = mean_height(app);
            let marginal = (t - base) / wheels;
            let vs = if sweep == SweepType::Ray {
                format!("{:.2}×", marginal / r_marginal)
            } else {
                "".into()
            };
            println!(
                "| {} | wheelcollider {:?} | {:.2} | {:.2} | {:.3} | {:.3} | {:+.0} % | {} | {:.2} |",
                ground.name(),
                sweep,
                t * 1e3,
                base * 1e3,
                us(marginal),
                us(raw),
                (marginal / raw - 1.0) * 100.0,
                vs,
                height
            );
        }
        let marginal = (t_detached - base) / wheels;
        println!(
            "| {} | wheelcollider Ray, wheels outside the hierarchy | {:.2} | {:.2} | {:.3} | | | {:.2}× | {:.2} |",
            ground.name(),
            t_detached * 1e3,
            base * 1e3,
            us(marginal),
            marginal / r_marginal,
            mean_height(&mut detached)
        );
        println!(
            "| {} | Rapier raycast vehicle | {:.2} | {:.2} | {:.3} | | | 1.00× | {:.2} |",
            ground.name(),
            r_step * 1e3,
            r_base * 1e3,
            us(r_marginal),
            r_height
        );
    }
}

/// Scaling with the number of cars, ray wheels on the flat box, one thread.
fn size_table(quick: bool) {
    let warmup = if quick { 10 } else { 30 };
    let (batches, batch) = if quick { (4, 10) } else { (12, 15) };
    let us = |s: f64| s * 1e6;
    println!("\n## Scaling, ray wheels on the flat box, one thread\n");
    println!("| cars | step (ms) | baseline (ms) | marginal / wheel-step (µs) |");
    println!("| --- | --- | --- | --- |");
    let sizes: &[usize] = if quick {
        &[1, 10, 100, 1000]
    } else {
        &[1, 10, 100, 1000, 10_000]
    };
    for &n in sizes {
        // Interleaved batches as above; 10 000 cars take 40 ms a step, so fewer.
        let (b, s) = if n >= 10_000 {
            (4, 5)
        } else {
            (batches, batch.max(2000 / n.max(1)).min(200))
        };
        let mut base_app = avian_app(n, Ground::Flat, None, 1);
        let mut app = avian_app(n, Ground::Flat, Some(SweepType::Ray), 1);
        let times = fastest_batches(
            &mut [Box::new(|| base_app.update()), Box::new(|| app.update())],
            warmup,
            b,
            s,
        );
        let (base, t) = (times[0], times[1]);
        println!(
            "| {n} | {:.3} | {:.3} | {:.3} |",
            t * 1e3,
            base * 1e3,
            us((t - base) / (4 * n) as f64)
        );
    }
}

/// Threads: each count in its own process, three processes per count in turn; each row
/// is its count's process with the smallest marginal (the noise here is ±10 %).
fn thread_table(quick: bool) {
    let us = |s: f64| s * 1e6;
    println!("\n## Threads, ray wheels on the flat box, N = 1 000\n");
    println!("| threads | step (ms) | baseline (ms) | marginal / wheel-step (µs) | speed-up of the wheels |");
    println!("| --- | --- | --- | --- | --- |");
    // Each thread count in its own process, three processes per count in turn; each row
    // is its count's process with the smallest marginal (the noise here is ±10 %).
    let run = |threads: usize| {
        let exe = std::env::current_exe().expect("own path");
        let mut cmd = std::process::Command::new(exe);
        cmd.args(["--threads-only", &threads.to_string()]);
        if quick {
            cmd.arg("--quick");
        }
        let out = String::from_utf8(cmd.output().expect("runs").stdout).expect("utf-8");
        let v: Vec<f64> = out.split_whitespace().filter_map(|x| x.parse().ok()).collect();
        (v[0], v[1])
    };
    let mut best = [(0.0, 0.0, f64::MAX); 2];
    for _ in 0..if quick { 1 } else { 3 } {
        for (k, threads) in [1, 2].into_iter().enumerate() {
            let (t, base) = run(threads);
            let marginal = (t - base) / 4000.0;
            if marginal < best[k].2 {
                best[k] = (t, base, marginal);
            }
        }
    }
    for (k, (t, base, marginal)) in best.into_iter().enumerate() {
        println!(
            "| {} | {:.2} | {:.2} | {:.3} | {:.2}× |",
            k + 1,
            t * 1e3,
            base * 1e3,
            us(marginal),
            best[0].2 / marginal
        );
    }
}
