//! Reads a callgrind output file (`valgrind --tool=callgrind`, instructions only) into
//! each function's self and inclusive instruction counts, for the instruction bench's
//! stage table.
//!
//! The format (valgrind's manual, "Callgrind Format Specification"): `fn=(id) name`
//! starts a function's block (a bare `fn=(id)` names one defined before); each following
//! line that starts with a position (a number, or `+n`, `-n`, `*`) is a cost line,
//! `position instructions`, counted to the function itself, except the one right after
//! a `calls=` line, which is the inclusive cost of the call to the function the last
//! `cfn=` named. A function's inclusive count is its self count plus its calls' (a call
//! to itself left out).

use std::collections::HashMap;

/// Each function's instruction counts, by its name as callgrind writes it (demangled,
/// the symbol's hash left out).
#[derive(Default, Debug)]
pub struct Profile {
    functions: HashMap<String, Counts>,
}

/// One function's counts.
#[derive(Default, Clone, Copy, Debug)]
pub struct Counts {
    /// Instructions in the function's own code (what the compiler inlined into it
    /// included).
    pub own: u64,
    /// Its own and those of every call it made.
    pub inclusive: u64,
}

/// `name` without a trailing `::h` and 16 hex digits (a legacy Rust symbol's hash).
fn without_hash(name: &str) -> &str {
    match name.rfind("::h") {
        Some(i) if name.len() - i == 19 && name[i + 3..].bytes().all(|b| b.is_ascii_hexdigit()) => &name[..i],
        _ => name,
    }
}

/// The name an `fn=` / `cfn=` value gives, recording a new `(id) name` in `names`.
fn name_of(value: &str, names: &mut HashMap<String, String>) -> String {
    let value = value.trim();
    if let Some(rest) = value.strip_prefix('(') {
        let (id, name) = rest.split_once(')').unwrap_or((rest, ""));
        let name = name.trim();
        if name.is_empty() {
            return names.get(id).cloned().unwrap_or_default();
        }
        let name = without_hash(name).to_string();
        names.insert(id.to_string(), name.clone());
        return name;
    }
    without_hash(value).to_string()
}

impl Profile {
    /// Parses callgrind's output `text`.
    pub fn parse(text: &str) -> Self {
        let mut names = HashMap::new();
        let mut functions: HashMap<String, Counts> = HashMap::new();
        let (mut current, mut callee) = (String::new(), String::new());
        let mut call_line = false;
        for line in text.lines() {
            let first = line.bytes().next().unwrap_or(b' ');
            if first.is_ascii_digit() || first == b'+' || first == b'-' || first == b'*' {
                let cost: u64 = line.split_whitespace().nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
                let counts = functions.entry(current.clone()).or_default();
                if call_line {
                    if callee != current {
                        counts.inclusive += cost;
                    }
                } else {
                    counts.own += cost;
                    counts.inclusive += cost;
                }
                call_line = false;
            } else if let Some(v) = line.strip_prefix("fn=") {
                current = name_of(v, &mut names);
            } else if let Some(v) = line.strip_prefix("cfn=") {
                callee = name_of(v, &mut names);
            } else if line.starts_with("calls=") {
                call_line = true;
            }
        }
        Self { functions }
    }

    /// The counts of the function named exactly `name` (zero if it never ran, or was
    /// inlined everywhere).
    pub fn get(&self, name: &str) -> Counts {
        self.functions.get(name).copied().unwrap_or_default()
    }

    /// The sum of the counts of every function whose name satisfies `matches`, with the
    /// number of them.
    pub fn sum(&self, matches: impl Fn(&str) -> bool) -> (Counts, usize) {
        self.functions
            .iter()
            .filter(|(name, _)| matches(name))
            .fold((Counts::default(), 0), |(c, n), (_, f)| {
                (
                    Counts {
                        own: c.own + f.own,
                        inclusive: c.inclusive + f.inclusive,
                    },
                    n + 1,
                )
            })
    }

    /// Every function's name and counts, the largest inclusive count first.
    pub fn functions(&self) -> Vec<(&str, Counts)> {
        let mut all: Vec<_> = self.functions.iter().map(|(n, c)| (n.as_str(), *c)).collect();
        all.sort_by_key(|(_, c)| std::cmp::Reverse(c.inclusive));
        all
    }

    /// Every function's total own count (the run's instructions).
    pub fn total(&self) -> u64 {
        self.functions.values().map(|c| c.own).sum()
    }
}
