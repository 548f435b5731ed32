//! Two runs' numbers side by side: every metric of two `--json` files of the runner
//! (`maneuvers --diff OLD.json NEW.json`), for an A/B of a physics change.
//!
//! A metric is matched by (preset, manoeuvre, name). Its change is relative to the old
//! value. Near zero (a creep of hundredths of a millimetre, a yaw rate that should be
//! zero) a relative change means little: read the old and new values there.

use serde_json::Value;

/// One metric in both runs.
#[derive(Clone, Debug, PartialEq)]
pub struct MetricChange {
    /// The preset's file stem.
    pub preset: String,
    /// The manoeuvre's name.
    pub maneuver: String,
    /// The metric's name.
    pub name: String,
    /// Its unit.
    pub unit: String,
    /// The old and new values (NaN where a run lacks the metric or it was not finite).
    pub old: f64,
    /// See `old`.
    pub new: f64,
}

impl MetricChange {
    /// The change as a fraction of the old value (NaN if a side is missing; infinite if
    /// the old value is 0 and the new one is not).
    pub fn relative(&self) -> f64 {
        if self.old == self.new {
            0.0
        } else {
            (self.new - self.old) / self.old.abs()
        }
    }

    /// Whether the change is within `tolerance` (a fraction) of the old value. A metric
    /// missing on one side is not within.
    pub fn within(&self, tolerance: f64) -> bool {
        let d = (self.new - self.old).abs();
        if !d.is_finite() {
            return self.old.to_bits() == self.new.to_bits();
        }
        d <= tolerance * self.old.abs()
    }
}

/// Every metric of `old` and `new` (the runner's JSON documents), in `new`'s order, then
/// those only in `old`. Errors name what is missing from a document.
pub fn diff(old: &Value, new: &Value) -> Result<Vec<MetricChange>, String> {
    let (old, new) = (metrics(old, "old")?, metrics(new, "new")?);
    let mut out: Vec<MetricChange> = new
        .iter()
        .map(|(key, unit, v)| MetricChange {
            preset: key.0.clone(),
            maneuver: key.1.clone(),
            name: key.2.clone(),
            unit: unit.clone(),
            old: old.iter().find(|(k, ..)| k == key).map_or(f64::NAN, |m| m.2),
            new: *v,
        })
        .collect();
    for (key, unit, v) in &old {
        if !new.iter().any(|(k, ..)| k == key) {
            out.push(MetricChange {
                preset: key.0.clone(),
                maneuver: key.1.clone(),
                name: key.2.clone(),
                unit: unit.clone(),
                old: *v,
                new: f64::NAN,
            });
        }
    }
    Ok(out)
}

type Keyed = ((String, String, String), String, f64);

/// The document's metrics as ((preset, manoeuvre, name), unit, value).
fn metrics(doc: &Value, which: &str) -> Result<Vec<Keyed>, String> {
    let runs = doc["runs"]
        .as_array()
        .ok_or_else(|| format!("{which}: no `runs` array (not a `maneuvers --json` file?)"))?;
    let mut out = vec![];
    for (i, run) in runs.iter().enumerate() {
        let text = |key: &str| {
            run[key]
                .as_str()
                .map(str::to_owned)
                .ok_or_else(|| format!("{which}: runs[{i}] has no `{key}`"))
        };
        let (preset, maneuver) = (text("preset")?, text("maneuver")?);
        let list = run["metrics"]
            .as_array()
            .ok_or_else(|| format!("{which}: runs[{i}] has no `metrics`"))?;
        for m in list {
            let name = m["name"]
                .as_str()
                .ok_or_else(|| format!("{which}: a metric of runs[{i}] has no name"))?;
            let unit = m["unit"].as_str().unwrap_or("").to_owned();
            let value = m["value"].as_f64().unwrap_or(f64::NAN);
            out.push(((preset.clone(), maneuver.clone(), name.to_owned()), unit, value));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(values: &[(&str, f64)]) -> Value {
        let metrics: Vec<Value> = values
            .iter()
            .map(|(n, v)| serde_json::json!({"name": n, "unit": "m", "value": v}))
            .collect();
        serde_json::json!({"runs": [{"preset": "road", "maneuver": "braking", "metrics": metrics}]})
    }

    #[test]
    fn changes_are_matched_and_judged() {
        let old = doc(&[("stop_distance", 40.0), ("creep", 0.01), ("gone", 1.0)]);
        let new = doc(&[("stop_distance", 40.3), ("creep", 0.012), ("added", 2.0)]);
        let rows = diff(&old, &new).unwrap();
        assert_eq!(rows.len(), 4);
        // 0.75 %: outside 0.5 %, inside 1 %.
        assert!((rows[0].relative() - 0.0075).abs() < 1e-12);
        assert!(!rows[0].within(0.005) && rows[0].within(0.01));
        // +20 %: outside 19 %, inside 21 %.
        assert!((rows[1].relative() - 0.2).abs() < 1e-12);
        assert!(!rows[1].within(0.19) && rows[1].within(0.21));
        // A metric on one side only is never within.
        assert!(rows[2].old.is_nan() && !rows[2].within(1.0));
        assert_eq!(rows[3].name, "gone");
        assert!(rows[3].new.is_nan() && !rows[3].within(1.0));
    }

    #[test]
    fn a_file_that_is_not_a_run_says_so() {
        let err = diff(&serde_json::json!({"hz": 60}), &doc(&[])).unwrap_err();
        assert!(err.contains("old: no `runs`"), "{err}");
    }
}
