//! The headless test track: runs standard manoeuvres on a preset and prints the numbers;
//! writes JSON, CSV time series and PNG plots on request. No window.
//!
//! ```text
//! cargo run --release -p wheelcollider_track -- --preset assets/presets/road.ron
//!     [--preset more.ron …] [--maneuver NAME|all] [--json out.json] [--csv DIR]
//!     [--plots DIR] [--hz 60] [--quick] [--compound summer|touring|slick]
//! cargo run --release -p wheelcollider_track -- --compare a.ron b.ron [--maneuver …]
//! cargo run --release -p wheelcollider_track -- --diff old.json new.json [--tolerance 0.5]
//! ```
//!
//! `--diff` runs nothing: it lists every metric of two `--json` files with its change
//! and exits 1 if any moved by more than the tolerance (per cent, default 0.5).
//!
//! `--help` lists the manoeuvres and what each measures (`docs/maneuvers.md` says how).
//!
//! Why `plot` is long: one PNG panel's axes, series and legend with plotters, in drawing
//! order.
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::builder::{PossibleValue, PossibleValuesParser};
use clap::{Arg, ArgAction, ArgGroup, ArgMatches, Command, value_parser};
use plotters::prelude::*;
use wheelcollider_avian::prelude::{CompoundBase, TyreCompound, VehicleSettings};
use wheelcollider_track::{
    HZ_RANGE, Maneuver, ManeuverOptions, ManeuverReport, fits, run_with_trailer, shipped_trailer,
};

/// The command line: its help lists every manoeuvre with [`Maneuver::summary`].
fn command() -> Command {
    let maneuvers = Maneuver::ALL
        .map(|m| PossibleValue::new(m.name()).help(m.summary()))
        .into_iter()
        .chain([PossibleValue::new("all").help("every manoeuvre (the default)")]);
    let path = || value_parser!(PathBuf);
    Command::new("maneuvers")
        .about("The headless test track: standard manoeuvres on vehicle presets, as tables, JSON, CSV and PNG plots")
        .arg(Arg::new("preset").long("preset").value_name("FILE.ron").action(ArgAction::Append).value_parser(path())
            .help("A vehicle preset to run (repeat for more)"))
        .arg(Arg::new("compare").long("compare").num_args(2).value_names(["A.ron", "B.ron"]).value_parser(path())
            .conflicts_with("preset").help("Two presets side by side, with the change from A to B"))
        .arg(Arg::new("maneuver").long("maneuver").visible_alias("manoeuvre").value_name("NAME").value_delimiter(',')
            .value_parser(PossibleValuesParser::new(maneuvers)).default_value("all")
            .help("Which manoeuvres, comma-separated"))
        .arg(Arg::new("trailer").long("trailer").value_name("FILE.ron").value_parser(path())
            .help("The trailer of the towing manoeuvres (default: the shipped one of the hitch's kind)"))
        .arg(Arg::new("compound").long("compound").value_name("NAME")
            .value_parser(["summer", "touring", "slick"])
            .help("Fit every preset's tyres with this compound (temperatures, pressure, wear)"))
        .arg(Arg::new("json").long("json").value_name("FILE").value_parser(path()).help("Every metric as JSON"))
        .arg(Arg::new("csv").long("csv").value_name("DIR").value_parser(path()).help("Time series, one CSV per run"))
        .arg(Arg::new("plots").long("plots").value_name("DIR").value_parser(path()).help("PNG plots per manoeuvre"))
        .arg(Arg::new("hz").long("hz").value_name("RATE").value_parser(parse_hz).default_value("60")
            .help(format!("Physics rate (Hz), {}..={}", HZ_RANGE.start(), HZ_RANGE.end())))
        .arg(Arg::new("quick").long("quick").action(ArgAction::SetTrue)
            .help("Short runs (seconds, rougher numbers), as the tests run them"))
        .arg(Arg::new("diff").long("diff").num_args(2).value_names(["OLD.json", "NEW.json"]).value_parser(path())
            .conflicts_with_all(["preset", "compare"])
            .help("Run nothing: every metric of two --json files with its change; exit 1 if one moved past --tolerance"))
        .arg(Arg::new("tolerance").long("tolerance").value_name("PERCENT").value_parser(parse_tolerance)
            .default_value("0.5").requires("diff").help("--diff's tolerance (per cent)"))
        .group(ArgGroup::new("what").args(["preset", "compare", "diff"]).required(true).multiple(true))
}

fn parse_hz(v: &str) -> Result<f64, String> {
    let hz: f64 = v.parse().map_err(|_| format!("`{v}` is not a number"))?;
    if hz.is_finite() && HZ_RANGE.contains(&hz) {
        Ok(hz)
    } else {
        Err(format!(
            "{hz} Hz is out of range {}..={} Hz",
            HZ_RANGE.start(),
            HZ_RANGE.end()
        ))
    }
}

fn parse_tolerance(v: &str) -> Result<f64, String> {
    match v.parse::<f64>() {
        Ok(t) if t >= 0.0 => Ok(t),
        _ => Err(format!("`{v}` is not a percentage ≥ 0")),
    }
}

struct Args {
    presets: Vec<PathBuf>,
    compare: bool,
    maneuvers: Vec<Maneuver>,
    trailer: Option<PathBuf>,
    compound: Option<CompoundBase>,
    json: Option<PathBuf>,
    csv: Option<PathBuf>,
    plots: Option<PathBuf>,
    options: ManeuverOptions,
}

fn args_of(m: &ArgMatches) -> Args {
    let paths = |id: &str| {
        m.get_many::<PathBuf>(id)
            .into_iter()
            .flatten()
            .cloned()
            .collect::<Vec<_>>()
    };
    let names: Vec<&String> = m.get_many::<String>("maneuver").into_iter().flatten().collect();
    let maneuvers = if names.iter().any(|n| *n == "all") {
        Maneuver::ALL.to_vec()
    } else {
        names.iter().filter_map(|n| n.parse().ok()).collect()
    };
    let compare = m.contains_id("compare");
    Args {
        presets: if compare { paths("compare") } else { paths("preset") },
        compare,
        maneuvers,
        trailer: m.get_one::<PathBuf>("trailer").cloned(),
        compound: m.get_one::<String>("compound").map(|c| match c.as_str() {
            "summer" => CompoundBase::Summer,
            "touring" => CompoundBase::Touring,
            _ => CompoundBase::Slick,
        }),
        json: m.get_one::<PathBuf>("json").cloned(),
        csv: m.get_one::<PathBuf>("csv").cloned(),
        plots: m.get_one::<PathBuf>("plots").cloned(),
        options: ManeuverOptions {
            hz: *m.get_one::<f64>("hz").expect("defaulted"),
            quick: m.get_flag("quick"),
        },
    }
}

fn load(path: &Path) -> Result<VehicleSettings, String> {
    VehicleSettings::from_file(path).map_err(|e| e.to_string())
}

fn stem(path: &Path) -> String {
    path.file_stem()
        .map_or("preset".into(), |s| s.to_string_lossy().into_owned())
}

/// `--diff OLD.json NEW.json [--tolerance PERCENT]`: a Markdown table of every metric's
/// change; exit 1 if one moved by more than the tolerance, 2 on bad input.
fn diff_main(old: &Path, new: &Path, tolerance: f64) -> ExitCode {
    let read = |p: &Path| -> Result<serde_json::Value, String> {
        let text = std::fs::read_to_string(p).map_err(|e| format!("{}: {e}", p.display()))?;
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", p.display()))
    };
    let rows = match read(old).and_then(|o| read(new).and_then(|n| wheelcollider_track::diff::diff(&o, &n))) {
        Ok(rows) => rows,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    println!("| preset | manoeuvre | metric | unit | old | new | change |");
    println!("| --- | --- | --- | --- | ---: | ---: | ---: |");
    let mut outside = 0;
    for r in &rows {
        let within = r.within(tolerance / 100.0);
        outside += usize::from(!within);
        let change = match r.relative() {
            c if c.is_finite() => format!("{:+.3} %", c * 100.0),
            _ => format!("{:+.3e} {}", r.new - r.old, r.unit),
        };
        let mark = if within { "" } else { " ✗" };
        println!(
            "| {} | {} | {} | {} | {} | {} | {change}{mark} |",
            r.preset,
            r.maneuver,
            r.name,
            r.unit,
            fmt(r.old),
            fmt(r.new)
        );
    }
    let worst = rows
        .iter()
        .map(|r| r.relative().abs())
        .filter(|c| c.is_finite())
        .fold(0.0, f64::max);
    println!(
        "\n{} metrics; largest relative change {:.3} %; {outside} outside ±{tolerance} %",
        rows.len(),
        worst * 100.0
    );
    if outside > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

fn main() -> ExitCode {
    let matches = command().get_matches();
    if let Some(mut files) = matches.get_many::<PathBuf>("diff") {
        let (old, new) = (files.next().expect("two"), files.next().expect("two"));
        return diff_main(old, new, *matches.get_one::<f64>("tolerance").expect("defaulted"));
    }
    let args = args_of(&matches);
    // Every preset is read and validated before anything runs.
    let mut cars = vec![];
    for p in &args.presets {
        match load(p) {
            Ok(mut s) => {
                if let Some(base) = args.compound {
                    for a in &mut s.axles {
                        a.wheel
                            .set_compound(Some(TyreCompound::named(base)))
                            .expect("a named compound is valid");
                    }
                }
                cars.push((stem(p), s))
            }
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
        }
    }
    let trailer = match args.trailer.as_deref().map(load).transpose() {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let mut runs: Vec<(String, ManeuverReport)> = vec![];
    for &m in &args.maneuvers {
        let mut row = vec![];
        for (name, settings) in &cars {
            if let Err(why) = fits(settings, m) {
                eprintln!("{name}: {m} skipped: {why}");
                continue;
            }
            let towed = trailer.clone().or_else(|| shipped_trailer(settings));
            let started = std::time::Instant::now();
            match run_with_trailer(settings, towed.as_ref(), m, &args.options) {
                Ok(r) => {
                    eprintln!("{name}: {m} done in {:.1} s", started.elapsed().as_secs_f32());
                    row.push((name.clone(), r));
                }
                Err(e) => {
                    eprintln!("error: {name}: {e}");
                    return ExitCode::from(2);
                }
            }
        }
        if row.is_empty() {
            continue;
        }
        print_table(m, &row, args.compare, args.options.hz);
        if let Some(dir) = &args.plots
            && let Err(e) = plot(dir, m, &row)
        {
            eprintln!("error: plots: {e}");
            return ExitCode::FAILURE;
        }
        runs.extend(row);
    }
    if let Some(dir) = &args.csv
        && let Err(e) = write_csv(dir, &runs)
    {
        eprintln!("error: csv: {e}");
        return ExitCode::FAILURE;
    }
    if let Some(path) = &args.json {
        let doc = serde_json::json!({
            "hz": args.options.hz,
            "quick": args.options.quick,
            "runs": runs.iter().map(|(preset, r)| serde_json::json!({
                "preset": preset,
                "vehicle": r.vehicle,
                "maneuver": r.maneuver,
                "metrics": r.metrics,
            })).collect::<Vec<_>>(),
        });
        let text = serde_json::to_string_pretty(&doc).expect("plain data");
        if let Err(e) = std::fs::write(path, text + "\n") {
            eprintln!("error: {}: {e}", path.display());
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}

fn fmt(v: f64) -> String {
    if !v.is_finite() {
        return "–".into();
    }
    let a = v.abs();
    if a >= 1000.0 {
        format!("{v:.0}")
    } else if a >= 100.0 {
        format!("{v:.1}")
    } else if a >= 1.0 {
        format!("{v:.2}")
    } else {
        format!("{v:.3}")
    }
}

/// A Markdown table: one row per metric, one column per preset (expected values in
/// parentheses); with `--compare`, the change from the first to the second.
fn print_table(m: Maneuver, row: &[(String, ManeuverReport)], compare: bool, hz: f64) {
    println!("\n### {m} ({hz} Hz)\n");
    let mut head = "| metric | unit |".to_string();
    let mut rule = "| --- | --- |".to_string();
    for (name, _) in row {
        head += &format!(" {name} |");
        rule += " ---: |";
    }
    if compare {
        head += " change |";
        rule += " ---: |";
    }
    println!("{head}\n{rule}");
    // Metric names in first-seen order over all presets (shift points differ per car).
    let mut names: Vec<(&str, &str)> = vec![];
    for (_, r) in row {
        for x in &r.metrics {
            if !names.iter().any(|(n, _)| *n == x.name) {
                names.push((&x.name, x.unit));
            }
        }
    }
    for (name, unit) in names {
        let mut line = format!("| {name} | {unit} |");
        for (_, r) in row {
            line += &match r.metric(name) {
                Some(x) => match x.expected {
                    Some(e) => format!(" {} ({}) |", fmt(x.value), fmt(e)),
                    None => format!(" {} |", fmt(x.value)),
                },
                None => " |".into(),
            };
        }
        if compare && row.len() == 2 {
            let (a, b) = (row[0].1.value(name), row[1].1.value(name));
            line += &if a.is_finite() && b.is_finite() && a.abs() > 1e-9 {
                format!(" {:+.1} % |", (b - a) / a.abs() * 100.0)
            } else {
                " |".into()
            };
        }
        println!("{line}");
    }
}

fn write_csv(dir: &Path, runs: &[(String, ManeuverReport)]) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    for (preset, r) in runs {
        let is_wheel = |name: &str, w: &str| name.starts_with(&format!("{w}."));
        let chassis: Vec<_> = r
            .channels
            .iter()
            .filter(|c| !r.wheels.iter().any(|w| is_wheel(&c.name, w)))
            .collect();
        let mut files = vec![(format!("{preset}_{}.csv", r.maneuver), chassis)];
        for w in &r.wheels {
            let cols: Vec<_> = r.channels.iter().filter(|c| is_wheel(&c.name, w)).collect();
            files.push((format!("{preset}_{}_{w}.csv", r.maneuver), cols));
        }
        for (file, cols) in files {
            let mut text = String::from("time_s");
            for c in &cols {
                text += &format!(",{}_{}", c.name, unit_tag(c.unit));
            }
            text.push('\n');
            for (i, t) in r.time.iter().enumerate() {
                text += &format!("{t:.5}");
                for c in &cols {
                    text += &format!(",{}", c.values.get(i).copied().unwrap_or(f32::NAN));
                }
                text.push('\n');
            }
            std::fs::write(dir.join(file), text)?;
        }
    }
    Ok(())
}

/// A unit as a column-name suffix (`m/s²` → `m_s2`).
fn unit_tag(unit: &str) -> String {
    unit.replace("/", "_").replace('²', "2").replace('%', "pct")
}

/// A labelled line: (legend, colour, points).
type Series = (String, HSLColor, Vec<(f32, f32)>);

/// One PNG per manoeuvre: a panel per suggested plot, every preset overlaid.
fn plot(dir: &Path, m: Maneuver, row: &[(String, ManeuverReport)]) -> Result<(), Box<dyn std::error::Error>> {
    static FONT: std::sync::Once = std::sync::Once::new();
    FONT.call_once(|| {
        plotters::style::register_font("sans-serif", FontStyle::Normal, epaint_default_fonts::HACK_REGULAR)
            .map_err(|_| ())
            .expect("the bundled font parses");
    });
    std::fs::create_dir_all(dir)?;
    let Some((_, first)) = row.first() else { return Ok(()) };
    let panels = first.plots.len().max(1);
    let (w, h) = (1000u32, 280 * panels as u32);
    let mut buffer = vec![0u8; (w * h * 3) as usize];
    {
        let root = BitMapBackend::with_buffer(&mut buffer, (w, h)).into_drawing_area();
        root.fill(&WHITE)?;
        for (area, settings) in root.split_evenly((panels, 1)).iter().zip(&first.plots) {
            // Ranges over every preset's data.
            let mut series: Vec<Series> = vec![];
            for (k, (preset, r)) in row.iter().enumerate() {
                let Some((_, xs)) = r.channel(&settings.x) else {
                    continue;
                };
                for (j, y) in settings.ys.iter().enumerate() {
                    let Some((_, ys)) = r.channel(y) else { continue };
                    let pts: Vec<(f32, f32)> = xs
                        .iter()
                        .zip(ys)
                        .filter(|(x, y)| x.is_finite() && y.is_finite())
                        .map(|(&x, &y)| (x, y))
                        .collect();
                    let hue = [0.58, 0.02, 0.33, 0.8][k % 4];
                    let light = 0.35 + 0.35 * j as f64 / settings.ys.len().max(1) as f64;
                    let label = if row.len() > 1 {
                        format!("{preset} {y}")
                    } else {
                        y.clone()
                    };
                    series.push((label, HSLColor(hue, 0.75, light), pts));
                }
            }
            let (mut x0, mut x1, mut y0, mut y1) = (f32::MAX, f32::MIN, f32::MAX, f32::MIN);
            for (_, _, pts) in &series {
                for &(x, y) in pts {
                    x0 = x0.min(x);
                    x1 = x1.max(x);
                    y0 = y0.min(y);
                    y1 = y1.max(y);
                }
            }
            if x0 > x1 {
                continue;
            }
            let pad = ((y1 - y0) * 0.08).max(1e-3);
            let x_unit = first.channel(&settings.x).map_or("", |c| c.0);
            let mut chart = ChartBuilder::on(area)
                .caption(format!("{} — {}", m, settings.title), ("sans-serif", 18))
                .margin(8)
                .x_label_area_size(30)
                .y_label_area_size(60)
                .build_cartesian_2d(x0..x1.max(x0 + 1e-3), (y0 - pad)..(y1 + pad))?;
            chart
                .configure_mesh()
                .x_desc(format!("{} ({x_unit})", settings.x))
                .light_line_style(RGBColor(236, 236, 236))
                .bold_line_style(RGBColor(200, 200, 200))
                .label_style(("sans-serif", 13))
                .draw()?;
            for (label, color, pts) in series {
                let scatter = settings.x != "time";
                let style = color.stroke_width(if scatter { 1 } else { 2 });
                chart
                    .draw_series(LineSeries::new(pts, style))?
                    .label(label)
                    .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], color.stroke_width(2)));
            }
            chart
                .configure_series_labels()
                .background_style(WHITE.mix(0.85))
                .border_style(BLACK)
                .label_font(("sans-serif", 12))
                .position(SeriesLabelPosition::UpperRight)
                .draw()?;
        }
        root.present()?;
    }
    let name = if row.len() == 1 {
        format!("{}_{m}.png", row[0].0)
    } else {
        format!("{m}.png")
    };
    let file = std::fs::File::create(dir.join(name))?;
    let mut enc = png::Encoder::new(std::io::BufWriter::new(file), w, h);
    enc.set_color(png::ColorType::Rgb);
    enc.set_depth(png::BitDepth::Eight);
    enc.write_header()?.write_image_data(&buffer)?;
    Ok(())
}
