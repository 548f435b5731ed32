//! No module imports back: in every crate of the workspace, the top-level modules'
//! imports form a graph without a cycle (the core's `wheel` and `vehicle` once imported
//! each other through the driveline's view of a wheel, which now lives with the spin).
//!
//! The graph is read from the sources: a top-level module (`src/x.rs` or `src/x/`)
//! imports another where code outside comments and unit tests names `crate::other`, or a
//! name the crate root re-exports from it. A doc link is not an import. Run
//! `cargo test -p wheelcollider_core --test it module_graph -- --nocapture` to print
//! every crate's graph.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Module → the modules it imports, each with the first file that does.
type Graph = BTreeMap<String, BTreeMap<String, PathBuf>>;

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The words of `s` that are Rust identifiers, in order.
fn words(s: &str) -> impl Iterator<Item = &str> {
    s.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
}

/// The code of a file without its comments and its `#[cfg(test)]` module.
fn code(text: &str) -> String {
    let text = match text.find("#[cfg(test)]\nmod tests") {
        Some(i) => &text[..i],
        None => text,
    };
    text.lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The names `lib.rs` re-exports (`pub use module::{A, B}` / `pub use module::A`), by name.
fn root_exports(lib: &str, modules: &BTreeSet<String>) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for stmt in code(lib).split(';') {
        let Some(rest) = stmt.trim().strip_prefix("pub use ") else {
            continue;
        };
        let mut w = words(rest);
        let Some(first) = w.next().and_then(|m| if m == "self" { w.next() } else { Some(m) }) else {
            continue;
        };
        if modules.contains(first) {
            // Every later word of the statement (path segments included: harmless,
            // a segment is not used bare as `crate::segment` for another module).
            for name in w {
                out.insert(name.to_owned(), first.to_owned());
            }
        }
    }
    out
}

fn graph(src: &Path) -> Graph {
    let mut modules = BTreeSet::new();
    for e in fs::read_dir(src).unwrap().flatten() {
        let p = e.path();
        let name = p.file_stem().unwrap().to_string_lossy().into_owned();
        if p.is_dir() || (p.extension().is_some_and(|x| x == "rs") && name != "lib" && name != "main") {
            modules.insert(name);
        }
    }
    let lib = fs::read_to_string(src.join("lib.rs")).unwrap_or_default();
    let exports = root_exports(&lib, &modules);
    let mut g = Graph::new();
    for m in &modules {
        let mut files = Vec::new();
        let file = src.join(format!("{m}.rs"));
        if file.exists() {
            files.push(file);
        }
        rust_files(&src.join(m), &mut files);
        for f in files {
            if f.file_name().is_some_and(|n| n == "tests.rs") || f.components().any(|c| c.as_os_str() == "tests") {
                continue;
            }
            let body = code(&fs::read_to_string(&f).unwrap());
            // `crate::x` and every name in `crate::{x, y::z}`.
            for (i, _) in body.match_indices("crate::") {
                let after = &body[i + "crate::".len()..];
                let named: Vec<&str> = if let Some(group) = after.strip_prefix('{') {
                    words(&group[..group.find('}').unwrap_or(group.len())]).collect()
                } else {
                    words(after).take(1).collect()
                };
                for name in named {
                    let target = if modules.contains(name) {
                        Some(name.to_owned())
                    } else {
                        exports.get(name).cloned()
                    };
                    if let Some(t) = target.filter(|t| t != m) {
                        g.entry(m.clone()).or_default().entry(t).or_insert_with(|| f.clone());
                    }
                }
            }
        }
    }
    g
}

/// A cycle through `graph`, as the modules in order, if there is one.
fn cycle(g: &Graph) -> Option<Vec<String>> {
    fn visit(g: &Graph, m: &str, path: &mut Vec<String>, done: &mut BTreeSet<String>) -> Option<Vec<String>> {
        if let Some(i) = path.iter().position(|p| p == m) {
            let mut c = path[i..].to_vec();
            c.push(m.to_owned());
            return Some(c);
        }
        if done.contains(m) {
            return None;
        }
        path.push(m.to_owned());
        for next in g.get(m).into_iter().flat_map(|e| e.keys()) {
            if let Some(c) = visit(g, next, path, done) {
                return Some(c);
            }
        }
        path.pop();
        done.insert(m.to_owned());
        None
    }
    let mut done = BTreeSet::new();
    g.keys().find_map(|m| visit(g, m, &mut Vec::new(), &mut done))
}

#[test]
fn no_module_imports_back() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut seen = 0;
    for e in fs::read_dir(&crates).unwrap().flatten() {
        let src = e.path().join("src");
        if !src.join("lib.rs").exists() {
            continue;
        }
        seen += 1;
        let g = graph(&src);
        println!("{}:", e.file_name().to_string_lossy());
        for (m, to) in &g {
            println!("  {m} → {}", to.keys().cloned().collect::<Vec<_>>().join(", "));
        }
        if let Some(c) = cycle(&g) {
            let first = &g[&c[0]][&c[1]];
            panic!(
                "{}: the modules import back: {} (first: {})",
                src.display(),
                c.join(" → "),
                first.display()
            );
        }
    }
    assert!(seen >= 1, "no crate found beside {}", crates.display());
}

/// The check sees a cycle: the core's `wheel` and `vehicle` written as they were.
#[test]
fn a_cycle_is_seen() {
    let dir = std::env::temp_dir().join(format!("module_graph_{}", std::process::id()));
    let src = dir.join("src");
    fs::create_dir_all(src.join("vehicle")).unwrap();
    fs::write(
        src.join("lib.rs"),
        "pub mod vehicle;\npub mod wheel;\npub use wheel::{WheelInput, step};\n",
    )
    .unwrap();
    fs::write(
        src.join("vehicle/mod.rs"),
        "/// [`crate::wheel`] in a doc is not an import.\npub use crate::WheelInput;\n",
    )
    .unwrap();
    fs::write(src.join("wheel.rs"), "impl crate::vehicle::DrivenWheel for Staged {}\n").unwrap();
    let g = graph(&src);
    assert_eq!(
        cycle(&g),
        Some(vec!["vehicle".into(), "wheel".into(), "vehicle".into()])
    );
    fs::write(
        src.join("wheel.rs"),
        "// crate::vehicle in a comment\nimpl crate::spin::DrivenWheel for Staged {}\n",
    )
    .unwrap();
    assert_eq!(cycle(&graph(&src)), None);
    fs::remove_dir_all(&dir).ok();
}
