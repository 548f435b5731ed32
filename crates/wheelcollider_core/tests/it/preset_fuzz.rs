//! Malformed, truncated and wrong-typed presets: every shipped preset mutated at random
//! (truncated, bytes deleted, numbers swapped for NaN / ±inf / huge / negative / a
//! string, field names misspelt, junk inserted). Loading never panics; an error names
//! the place (line and column, or the field path); a preset that loads is valid and
//! finite in every field.
use crate::common::{PRESETS, preset_text};
use proptest::prelude::*;
use wheelcollider_core::vehicle::VehicleSettings;

const REPLACEMENTS: [&str; 14] = [
    "NaN",
    "inf",
    "-inf",
    "-1.0",
    "0.0",
    "0",
    "1e30",
    "-1e30",
    "1e-30",
    "\"heavy\"",
    "()",
    "[]",
    "true",
    "",
];

/// Byte ranges of the number literals in `text`.
fn numbers(text: &str) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    let mut out = vec![];
    let mut i = 0;
    while i < b.len() {
        let starts = (b[i].is_ascii_digit() || b[i] == b'-') && (i == 0 || !b[i - 1].is_ascii_alphanumeric());
        if starts {
            let s = i;
            i += 1;
            while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'.' || b[i] == b'e' || b[i] == b'-') {
                i += 1;
            }
            if b[s..i].iter().any(|c| c.is_ascii_digit()) {
                out.push((s, i));
            }
        } else {
            i += 1;
        }
    }
    out
}

/// Byte ranges of the field names (`name:`) in `text`.
fn fields(text: &str) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    let mut out = vec![];
    for (i, &c) in b.iter().enumerate() {
        if c == b':' {
            let mut s = i;
            while s > 0 && (b[s - 1].is_ascii_alphanumeric() || b[s - 1] == b'_') {
                s -= 1;
            }
            if s < i {
                out.push((s, i));
            }
        }
    }
    out
}

#[derive(Clone, Debug)]
enum Mutation {
    Truncate(f64),
    Delete(f64, usize),
    Number(f64, usize),
    Misspell(f64),
    Insert(f64, char),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (0.0..1.0f64).prop_map(Mutation::Truncate),
        (0.0..1.0f64, 1..8usize).prop_map(|(a, n)| Mutation::Delete(a, n)),
        (0.0..1.0f64, 0..REPLACEMENTS.len()).prop_map(|(a, r)| Mutation::Number(a, r)),
        (0.0..1.0f64).prop_map(Mutation::Misspell),
        (0.0..1.0f64, prop::char::any()).prop_map(|(a, c)| Mutation::Insert(a, c)),
    ]
}

fn apply(text: &str, m: &Mutation) -> String {
    let at = |f: f64, n: usize| ((f * n as f64) as usize).min(n.saturating_sub(1));
    let boundary = |mut i: usize| {
        while !text.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    match *m {
        Mutation::Truncate(f) => text[..boundary(at(f, text.len()))].to_string(),
        Mutation::Delete(f, n) => {
            let s = boundary(at(f, text.len()));
            let e = boundary((s + n).min(text.len()));
            format!("{}{}", &text[..s], &text[e..])
        }
        Mutation::Number(f, r) => {
            let nums = numbers(text);
            let Some(&(s, e)) = nums.get(at(f, nums.len())) else {
                return text.to_string();
            };
            format!("{}{}{}", &text[..s], REPLACEMENTS[r], &text[e..])
        }
        Mutation::Misspell(f) => {
            let names = fields(text);
            let Some(&(s, e)) = names.get(at(f, names.len())) else {
                return text.to_string();
            };
            format!("{}{}x{}", &text[..s], &text[s..e], &text[e..])
        }
        Mutation::Insert(f, c) => {
            let s = boundary(at(f, text.len()));
            format!("{}{c}{}", &text[..s], &text[s..])
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]
    #[test]
    fn a_mutated_preset_loads_valid_or_says_where(which in 0..PRESETS.len(), muts in prop::collection::vec(mutation(), 1..4)) {
        let mut text = preset_text(PRESETS[which]);
        for m in &muts {
            text = apply(&text, m);
        }
        match VehicleSettings::from_ron(&text) {
            Ok(settings) => {
                // Valid: validating again changes nothing, and no number is non-finite.
                let mut again = settings.clone();
                prop_assert!(again.validate().is_ok());
                prop_assert_eq!(&again, &settings);
                let written = settings.to_ron();
                prop_assert!(!written.contains("NaN") && !written.contains("inf"), "{}", written);
                prop_assert_eq!(VehicleSettings::from_ron(&written).unwrap(), settings);
            }
            Err(e) => {
                prop_assert!(!e.message.is_empty());
                if let Some(pos) = e.field.strip_prefix("line ") {
                    // A parse error: line and column inside the text.
                    let line: usize = pos.split(',').next().unwrap().trim().parse().unwrap();
                    prop_assert!(line >= 1 && line <= text.lines().count() + 1, "{}", e);
                } else {
                    // A refused value: the field path, which the text has.
                    let last = e.field.rsplit('.').next().unwrap();
                    let name = last.split(['[', ' ']).next().unwrap();
                    prop_assert!(!name.is_empty() && text.contains(name), "{}", e);
                }
            }
        }
    }
}

#[test]
fn the_mutators_find_numbers_and_fields() {
    // The fuzz test above is only as good as its mutations: make sure they bite.
    for name in PRESETS {
        let text = preset_text(name);
        let p = text.as_str();
        assert!(numbers(p).len() > 40, "{}", numbers(p).len());
        assert!(fields(p).len() > 40);
        let nan = apply(p, &Mutation::Number(0.5, 0));
        assert!(
            VehicleSettings::from_ron(&nan).is_err(),
            "NaN in the middle of a preset is refused"
        );
    }
}
