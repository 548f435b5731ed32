//! Instruction counts that do not move with the machine: one wheel-step of each sweep on
//! each ground, and of Rapier's raycast vehicle in the same worlds, counted by valgrind's callgrind (`valgrind --tool=callgrind`), so that a
//! change's cost is a number that repeats where the wall clock moves by ±20 %.
//!
//! ```sh
//! cargo bench -p wheelcollider_bench --bench instructions            # the table (about 10 min)
//! cargo bench -p wheelcollider_bench --bench instructions -- --quick # ray on the box only
//! cargo bench -p wheelcollider_bench --bench instructions -- --track # the proving ground
//! cargo bench -p wheelcollider_bench --bench instructions -- --towing # a hitch's cost
//! cargo bench -p wheelcollider_bench --bench instructions -- --thermal # the tyres' heat
//! ```
//!
//! Method: the bench runs itself under callgrind (`--run <world> <ground> <cars> <steps>`):
//! a world of `cars` cars (`avian_app`, one compute thread, single-threaded schedules)
//! stepped [`WARMUP`] times, then `steps` more, and callgrind's total of instructions
//! executed (every thread). Two runs per world, with [`SHORT`] and [`LONG`] measured
//! steps: their difference is the instructions of `LONG − SHORT` steps, without the
//! start-up. The same for the baseline (the bodies without wheels): the wheels' cost
//! per step is the difference. Measured at [`FEW`] and [`MANY`] cars, its slope is the
//! cost per wheel-step and its intercept the wheels' fixed cost per step (what the
//! plugin's systems cost whatever the number of cars).
use bevy::ecs::schedule::SingleThreadedExecutor;
use bevy::prelude::*;
use std::process::Command;
use wheelcollider_avian::prelude::SweepType;
use wheelcollider_bench::{Ground, avian_app};

/// The two car counts.
const FEW: usize = 20;
const MANY: usize = 100;
/// Steps before the count's window.
const WARMUP: usize = 30;
/// The two run lengths (steps after the warm-up).
const SHORT: usize = 10;
const LONG: usize = 40;

fn sweep_of(name: &str) -> Option<SweepType> {
    match name {
        "ray" => Some(SweepType::Ray),
        "sphere" => Some(SweepType::Sphere),
        "cylinder" => Some(SweepType::Cylinder),
        _ => None,
    }
}

fn ground_of(name: &str) -> Ground {
    match name {
        "heightfield" => Ground::Heightfield,
        "trimesh" => Ground::Trimesh,
        _ => Ground::Flat,
    }
}

/// Steps one world `WARMUP + steps` times (the run callgrind counts): the plugin's
/// (`base`, `ray`, `sphere`, `cylinder`) or Rapier's (`rapier-base`, `rapier`).
fn run(world: &str, ground: &str, cars: usize, steps: usize) {
    if let Some(rest) = world.strip_prefix("tow-") {
        let (how, tow) = rest.split_once('-').unwrap_or((rest, "road"));
        let mut app = wheelcollider_bench::towing::app(cars, tow, how == "coupled");
        single_threaded(&mut app);
        for _ in 0..WARMUP + steps {
            app.update();
        }
        return;
    }
    if let Some(kind) = world.strip_prefix("track-") {
        let mut app = wheelcollider_bench::track::app(cars, kind == "boxes", 1);
        single_threaded(&mut app);
        for _ in 0..WARMUP + steps {
            app.update();
        }
        return;
    }
    if let Some(rest) = world.strip_prefix("rapier") {
        let mut scene = wheelcollider_bench::rapier::RapierScene::new(cars, ground_of(ground), rest.is_empty());
        for _ in 0..WARMUP + steps {
            scene.step();
        }
        return;
    }
    let thermal = world.strip_suffix("-thermal");
    let mut app = avian_app(cars, ground_of(ground), sweep_of(thermal.unwrap_or(world)), 1);
    if thermal.is_some() {
        let compound = Some(wheelcollider_avian::prelude::TyreCompound::default());
        let mut q = app
            .world_mut()
            .query::<&mut wheelcollider_avian::prelude::WheelCollider>();
        for mut w in q.iter_mut(app.world_mut()) {
            w.set_compound(compound).expect("a valid compound");
        }
    }
    single_threaded(&mut app);
    for _ in 0..WARMUP + steps {
        app.update();
    }
}

/// One thread runs every system of every schedule in a fixed order: the count repeats.
fn single_threaded(app: &mut App) {
    for (_, schedule) in app.world_mut().resource_mut::<Schedules>().iter_mut() {
        schedule.set_executor(SingleThreadedExecutor::new());
    }
}

/// Callgrind's total instruction count of `--run world ground cars steps`.
fn count(world: &str, ground: &str, cars: usize, steps: usize) -> u64 {
    let exe = std::env::current_exe().expect("the bench's own path");
    let out = std::env::temp_dir().join(format!("wheelcollider-callgrind-{}.out", std::process::id()));
    let status = Command::new("valgrind")
        .args(["--tool=callgrind", "--quiet"])
        .arg(format!("--callgrind-out-file={}", out.display()))
        .arg(&exe)
        .args(["--run", world, ground, &cars.to_string(), &steps.to_string()])
        .status()
        .expect("valgrind on the PATH (Debian: apt-get install valgrind)");
    assert!(status.success(), "valgrind failed: {status}");
    let text = std::fs::read_to_string(&out).expect("callgrind's output");
    let _ = std::fs::remove_file(&out);
    text.lines()
        .find_map(|l| l.strip_prefix("summary:").or_else(|| l.strip_prefix("totals:")))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .expect("a summary line in callgrind's output")
}

/// Instructions per step of one world (over `LONG − SHORT` steps).
fn per_step(world: &str, ground: &str, cars: usize) -> f64 {
    let (short, long) = (count(world, ground, cars, SHORT), count(world, ground, cars, LONG));
    long.saturating_sub(short) as f64 / (LONG - SHORT) as f64
}

/// The wheels' instructions per step (the world with `sweep` less its baseline).
fn wheels_per_step(sweep: &str, ground: &str, cars: usize) -> f64 {
    let base = if sweep == "rapier" { "rapier-base" } else { "base" };
    per_step(sweep, ground, cars) - per_step(base, ground, cars)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "--run") {
        let arg = |k: usize| args.get(i + k).map(String::as_str).unwrap_or_default();
        run(
            arg(1),
            arg(2),
            arg(3).parse().unwrap_or(FEW),
            arg(4).parse().unwrap_or(SHORT),
        );
        return;
    }
    if args.iter().any(|a| a == "--track") {
        track();
        return;
    }
    if args.iter().any(|a| a == "--towing") {
        towing();
        return;
    }
    if args.iter().any(|a| a == "--thermal") {
        thermal();
        return;
    }
    // `cargo bench` passes `--bench`; anything else we ignore but `--quick` and `--track`.
    let quick = args.iter().any(|a| a == "--quick");
    let grounds: &[&str] = if quick {
        &["flat"]
    } else {
        &["flat", "heightfield", "trimesh"]
    };
    let sweeps: &[&str] = if quick {
        &["ray"]
    } else {
        &["ray", "sphere", "cylinder", "rapier"]
    };
    println!(
        "instructions (callgrind), {} steps counted, {FEW} and {MANY} cars: the wheels' cost per wheel-step and fixed per step",
        LONG - SHORT
    );
    println!("| ground | sweep | per wheel-step | fixed per step | baseline per car-step |");
    println!("| --- | --- | --- | --- | --- |");
    for ground in grounds {
        let base = per_step("base", ground, MANY) / MANY as f64;
        for sweep in sweeps {
            let (few, many) = (
                wheels_per_step(sweep, ground, FEW),
                wheels_per_step(sweep, ground, MANY),
            );
            let per_wheel = (many - few) / (4 * (MANY - FEW)) as f64;
            let fixed = few - per_wheel * (4 * FEW) as f64;
            println!("| {ground} | {sweep} | {per_wheel:.0} | {fixed:.0} | {base:.0} |");
        }
    }
}

/// The proving ground (`wheelcollider_bench::track`) with 1, 8 and 40 cars against the
/// same with bare boxes: instructions per step, the cars' share, and the line through
/// the three counts (per car, fixed).
fn track() {
    println!("| cars | per step with cars | with boxes | the cars' share | per car |");
    println!("| --- | --- | --- | --- | --- |");
    let mut share = vec![];
    for n in wheelcollider_bench::track::COUNTS {
        let (cars, boxes) = (per_step("track-cars", "", n), per_step("track-boxes", "", n));
        share.push(cars - boxes);
        println!(
            "| {n} | {cars:.0} | {boxes:.0} | {:.0} | {:.0} |",
            cars - boxes,
            (cars - boxes) / n as f64
        );
    }
    let per_car = (share[2] - share[0]) / 39.0;
    println!(
        "\nper car (slope 1 → 40): {per_car:.0}; fixed (intercept): {:.0}",
        share[0] - per_car
    );
}

/// [`TOW_PAIRS`] tow vehicles with their trailers coupled against the same vehicles
/// apart (each trailer parked on its stand): instructions per step, and what the hitch
/// adds per pair (the joint in avian's solver, the trailer's brakes and telemetry).
fn towing() {
    println!(
        "| tow vehicle and trailer | coupled, per step | apart, per step | the hitch per pair | per pair, % of the two apart |"
    );
    println!("| --- | --- | --- | --- | --- |");
    for (tow, trailer) in [("road", "caravan"), ("tractor", "semitrailer")] {
        let coupled = per_step(&format!("tow-coupled-{tow}"), "", TOW_PAIRS);
        let apart = per_step(&format!("tow-apart-{tow}"), "", TOW_PAIRS);
        let hitch = (coupled - apart) / TOW_PAIRS as f64;
        println!(
            "| {tow} + {trailer} | {coupled:.0} | {apart:.0} | {hitch:.0} | {:+.1} % |",
            100.0 * hitch / (apart / TOW_PAIRS as f64)
        );
    }
}

/// The pairs in each towing world.
const TOW_PAIRS: usize = 10;

/// The ray wheel on the box with its tyres' thermal model on (the summer compound) and
/// off: what the model adds per wheel-step, against the wheel's own cost.
fn thermal() {
    println!("| ray wheel on the box | per wheel-step | fixed per step |");
    println!("| --- | --- | --- |");
    let mut rows = vec![];
    for world in ["ray", "ray-thermal"] {
        let (few, many) = (
            per_step(world, "flat", FEW) - per_step("base", "flat", FEW),
            per_step(world, "flat", MANY) - per_step("base", "flat", MANY),
        );
        let per_wheel = (many - few) / (4 * (MANY - FEW)) as f64;
        let fixed = few - per_wheel * (4 * FEW) as f64;
        println!("| {world} | {per_wheel:.0} | {fixed:.0} |");
        rows.push(per_wheel);
    }
    println!(
        "\nthe thermal model: {:+.0} instructions per wheel-step, {:+.1} % of the wheel's",
        rows[1] - rows[0],
        100.0 * (rows[1] - rows[0]) / rows[0]
    );
}
