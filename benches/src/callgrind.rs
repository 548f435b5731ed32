//! Reads a callgrind output file (`valgrind --tool=callgrind`, instructions only) into
//! each function's inclusive instruction count, for the instruction bench's stage table.
//!
//! The format (valgrind's manual, "Callgrind Format Specification"): `fn=(id) name`
//! starts a function's block (a bare `fn=(id)` names one defined before); each following
//! line that starts with a position (a number, or `+n`, `-n`, `*`) is a cost line,
//! `position instructions`, counted to the function itself, except the one right after
//! a `calls=` line, which is the inclusive cost of the call to the function the last
//! `cfn=` named. A function's inclusive count is its self count plus its calls' (a call
//! to itself left out).

use std::collections::HashMap;

/// Each function's inclusive instruction count (its own and its calls'), by its name as
/// callgrind writes it (demangled, the symbol's hash left out).
#[derive(Default, Debug)]
pub struct Profile {
    inclusive: HashMap<String, u64>,
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
        let mut inclusive: HashMap<String, u64> = HashMap::new();
        let (mut current, mut callee) = (String::new(), String::new());
        let mut call_line = false;
        for line in text.lines() {
            let first = line.bytes().next().unwrap_or(b' ');
            if first.is_ascii_digit() || first == b'+' || first == b'-' || first == b'*' {
                let cost: u64 = line.split_whitespace().nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
                // A call's cost counts unless the function calls itself.
                if !call_line || callee != current {
                    *inclusive.entry(current.clone()).or_default() += cost;
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
        Self { inclusive }
    }

    /// The inclusive count of the function named exactly `name` (zero if it never ran,
    /// or was inlined everywhere).
    pub fn inclusive(&self, name: &str) -> u64 {
        self.inclusive.get(name).copied().unwrap_or_default()
    }
}
