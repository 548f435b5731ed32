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
//! cargo bench -p wheelcollider_bench --bench instructions -- --total [ground] # one A/B figure
//! cargo bench -p wheelcollider_bench --features stage-table --bench instructions -- --stages
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
use bevy::prelude::*;
use std::process::Command;
use wheelcollider_avian::prelude::SweepType;
use wheelcollider_bench::callgrind::Profile;
use wheelcollider_bench::{Ground, avian_app, single_threaded};

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

/// Callgrind's output of `--run world ground cars steps`: the run's total instruction
/// count and, when `profile`, every function's counts.
fn callgrind(world: &str, ground: &str, cars: usize, steps: usize, profile: bool) -> (u64, Option<Profile>) {
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
    let total = text
        .lines()
        .find_map(|l| l.strip_prefix("summary:").or_else(|| l.strip_prefix("totals:")))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .expect("a summary line in callgrind's output");
    (total, profile.then(|| Profile::parse(&text)))
}

/// Callgrind's total instruction count of `--run world ground cars steps`.
fn count(world: &str, ground: &str, cars: usize, steps: usize) -> u64 {
    callgrind(world, ground, cars, steps, false).0
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

/// The wheels' cost of `sweep` on `ground` as the line through [`FEW`] and [`MANY`]
/// cars: (per wheel-step, fixed per step).
fn slope(sweep: &str, ground: &str) -> (f64, f64) {
    let (few, many) = (
        wheels_per_step(sweep, ground, FEW),
        wheels_per_step(sweep, ground, MANY),
    );
    let per_wheel = (many - few) / (4 * (MANY - FEW)) as f64;
    (per_wheel, few - per_wheel * (4 * FEW) as f64)
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
    if let Some(i) = args.iter().position(|a| a == "--total") {
        // One A/B figure: the ray wheel-step at MANY cars (the stage table's total row).
        let ground = args.get(i + 1).map_or("flat", String::as_str);
        let total = wheels_per_step("ray", ground, MANY) / (4 * MANY) as f64;
        println!("ray wheel-step on {ground}, {MANY} cars: {total:.1} instructions");
        return;
    }
    if args.iter().any(|a| a == "--stages") {
        if !cfg!(feature = "stage-table") {
            eprintln!(
                "the stage table needs each stage a function of its own: \
                 cargo bench -p wheelcollider_bench --features stage-table --bench instructions -- --stages"
            );
            std::process::exit(2);
        }
        stages(args.iter().any(|a| a == "--functions"));
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
            let (per_wheel, fixed) = slope(sweep, ground);
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
        let (per_wheel, fixed) = slope(world, "flat");
        println!("| {world} | {per_wheel:.0} | {fixed:.0} |");
        rows.push(per_wheel);
    }
    println!(
        "\nthe thermal model: {:+.0} instructions per wheel-step, {:+.1} % of the wheel's",
        rows[1] - rows[0],
        100.0 * (rows[1] - rows[0]) / rows[0]
    );
}

/// A function's name as callgrind reads it from the symbol (its crate's path).
const CAST: &str = "wheelcollider_avian::wheel::sweep::WheelCasts::ray";
const SENSE: &str = "wheelcollider_avian::wheel::contact::sense_wheel";
const ROW: &str = "wheelcollider_avian::wheel::contact::suspension_row";
const SOLVE: &str = "wheelcollider_avian::wheel::suspension::solve_chassis";
const READ: &str = "wheelcollider_core::wheel::stages::read_input";
const SUSPENSION: &str = "wheelcollider_core::wheel::stages::suspension";
const CONDITION: &str = "wheelcollider_core::wheel::heat::tyre_condition";
const SLIPS: &str = "wheelcollider_core::wheel::stages::slips";
const SPINNER: &str = "wheelcollider_core::wheel::spinner::Spinner::new";
const STATIC: &str = "wheelcollider_core::wheel::stages::static_friction";
const SPIN: &str = "wheelcollider_core::wheel::stages::spin";
const FINISH: &str = "wheelcollider_avian::wheel::model::finish_wheel";
const STEP: &str = "wheelcollider_avian::wheel::step::step_wheels";
const SYSTEMS: [&str; 5] = [
    "wheelcollider_avian::wheel::apply::apply_forces",
    "wheelcollider_avian::wheel::events::wheel_events",
    "wheelcollider_avian::wheel::events::landing_events",
    "wheelcollider_avian::wheel::attach::validate_settings",
    "wheelcollider_avian::wheel::visuals::place_models",
];
const PROPAGATION: [&str; 3] = [
    "bevy_transform::systems::parallel::propagate_parent_transforms",
    "bevy_transform::systems::mark_dirty_trees",
    "bevy_transform::systems::sync_simple_transforms",
];

/// The rows of the stage table: a name and the functions whose inclusive counts add up
/// to it (`+`) less those of the functions inside them that other rows count (`−`).
/// Each stage is a function of its own in the build (`#[inline(never)]`), so its
/// inclusive count is its work wherever the compiler inlined its helpers.
fn stage_rows() -> Vec<(&'static str, Vec<&'static str>, Vec<&'static str>)> {
    // What `step_wheels` calls that other rows count (the cast and the row inside
    // `SENSE`, the spin and static friction inside `FINISH`); `apply_forces` and the
    // events are systems of their own, outside it.
    let plumbing_less = vec![SENSE, SOLVE, READ, SUSPENSION, CONDITION, SLIPS, SPINNER, FINISH];
    let mut plumbing = vec![STEP];
    plumbing.extend(&SYSTEMS[3..]);
    vec![
        (
            "the cast (`WheelCasts::ray`: the trees, parry's ray test, the ground filter)",
            vec![CAST],
            vec![],
        ),
        (
            "the contact frame and filter (`sense_wheel` but the cast and the row)",
            vec![SENSE],
            vec![CAST, ROW],
        ),
        (
            "the suspension row and the chassis' solve (and the core's input, compression and load)",
            vec![ROW, SOLVE, READ, SUSPENSION],
            vec![],
        ),
        (
            "the tyre (its condition, slips, curves at the load, static friction)",
            vec![CONDITION, SLIPS, SPINNER, STATIC],
            vec![],
        ),
        (
            "the spin (the implicit solve with the tyre's forces)",
            vec![SPIN],
            vec![],
        ),
        (
            "the forces, outputs and events (`finish_wheel` but the spin, `apply_forces`, the events)",
            vec![FINISH, SYSTEMS[0], SYSTEMS[1], SYSTEMS[2]],
            vec![SPIN, STATIC],
        ),
        (
            "the wheels' ECS plumbing (`step_wheels` but the stages: queries, screening, sums; settings, models)",
            plumbing,
            plumbing_less,
        ),
        (
            "Bevy's transform propagation (with wheels less without)",
            PROPAGATION.to_vec(),
            vec![],
        ),
    ]
}

/// One world's profile over `LONG − SHORT` steps at [`MANY`] cars: each function's
/// inclusive instructions per wheel-step, and the run's total per wheel-step.
fn per_wheel_step(world: &str, ground: &str) -> (impl Fn(&str) -> f64, f64) {
    let (short_total, short) = callgrind(world, ground, MANY, SHORT, true);
    let (long_total, long) = callgrind(world, ground, MANY, LONG, true);
    let (short, long) = (short.expect("a profile"), long.expect("a profile"));
    let scale = ((LONG - SHORT) * 4 * MANY) as f64;
    let total = (long_total - short_total) as f64 / scale;
    (
        move |name: &str| (long.inclusive(name) as f64 - short.inclusive(name) as f64) / scale,
        total,
    )
}

/// The ray wheel-step by stage on each ground: each function's inclusive instructions
/// (callgrind, [`MANY`] cars, the `LONG − SHORT` difference) per wheel-step, the world
/// without wheels subtracted for the propagation and the total. `functions` also lists
/// the stage functions one by one.
fn stages(functions: bool) {
    let rows = stage_rows();
    let grounds = ["flat", "heightfield", "trimesh"];
    let mut table = vec![vec![0.0; grounds.len()]; rows.len() + 3];
    for (g, ground) in grounds.iter().enumerate() {
        let (ray, ray_total) = per_wheel_step("ray", ground);
        let (base, base_total) = per_wheel_step("base", ground);
        let mut sum = 0.0;
        for (r, (_, plus, minus)) in rows.iter().enumerate() {
            let of = |name: &&str| ray(name) - base(name);
            let value = plus.iter().map(of).sum::<f64>() - minus.iter().map(of).sum::<f64>();
            table[r][g] = value;
            sum += value;
        }
        let total = ray_total - base_total;
        table[rows.len()][g] = total - sum;
        table[rows.len() + 1][g] = total;
        table[rows.len() + 2][g] = (total - table[0][g]) / table[0][g];
        if functions {
            println!("{ground}:");
            for name in [
                CAST, SENSE, ROW, SOLVE, READ, SUSPENSION, CONDITION, SLIPS, SPINNER, STATIC, SPIN, FINISH, STEP,
            ]
            .iter()
            .chain(&SYSTEMS)
            .chain(&PROPAGATION)
            {
                println!("  {:>8.1} {name}", ray(name) - base(name));
            }
        }
    }
    println!("| a ray wheel-step, instructions | flat box | heightfield | triangle mesh |");
    println!("| --- | --- | --- | --- |");
    let names: Vec<&str> = rows.iter().map(|r| r.0).collect();
    let last = [
        "the rest (Bevy's schedules and system parameters, avian's step: with wheels less without)",
        "**the wheel-step** (with wheels less without)",
        "everything but the cast, ÷ the cast",
    ];
    for (r, name) in names.iter().chain(&last).enumerate() {
        let cells: Vec<String> = table[r]
            .iter()
            .map(|v| {
                if r == table.len() - 1 {
                    format!("{v:.2}×")
                } else {
                    format!("{v:.0}")
                }
            })
            .collect();
        println!("| {name} | {} |", cells.join(" | "));
    }
}
