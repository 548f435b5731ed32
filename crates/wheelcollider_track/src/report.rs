//! What a manoeuvre produces: its numbers ([`Metric`]), its recorded signals
//! ([`Channel`]) and suggested plots ([`PlotSpec`]), gathered in a [`ManeuverReport`].

/// One number a manoeuvre measured.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Metric {
    /// Identifier (`stop_distance`, `sag_fl`…).
    pub name: String,
    /// The measured value, in `unit`.
    pub value: f64,
    /// Unit (`m`, `s`, `km/h`, `g`, `deg/g`, `1`…).
    pub unit: &'static str,
    /// The closed-form answer (see `docs/maneuvers.md`) where there is one, in the same unit.
    pub expected: Option<f64>,
}

/// A recorded signal, one value per physics step.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Channel {
    /// Name: chassis signals are plain (`speed`), wheel signals are prefixed with the
    /// wheel's label (`fl.load`).
    pub name: String,
    /// Unit.
    pub unit: &'static str,
    /// One value per recorded step.
    pub values: Vec<f32>,
}

/// A plot a front end can draw from the recording: `ys` against `x` (channel names).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct PlotSpec {
    /// Panel title.
    pub title: &'static str,
    /// The x channel (`time` for the time axis).
    pub x: String,
    /// The y channels.
    pub ys: Vec<String>,
}

/// What one manoeuvre produced.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct ManeuverReport {
    /// The manoeuvre's name.
    pub maneuver: &'static str,
    /// The settings's name.
    pub vehicle: String,
    /// Physics rate (Hz).
    pub hz: f64,
    /// The numbers.
    pub metrics: Vec<Metric>,
    /// Time of each recorded step (s).
    #[serde(skip)]
    pub time: Vec<f32>,
    /// Recorded signals (chassis, then each wheel's), same length as `time`.
    #[serde(skip)]
    pub channels: Vec<Channel>,
    /// The wheels' labels (`fl`, `fr`, `rl`, `rr`, or `a0l`… beyond two axles; a
    /// two-wheeler's `front`, `rear`: [`wheel_labels`](crate::wheel_labels)).
    #[serde(skip)]
    pub wheels: Vec<String>,
    /// Suggested plots of the key signals.
    #[serde(skip)]
    pub plots: Vec<PlotSpec>,
}

impl ManeuverReport {
    /// The metric called `name`.
    pub fn metric(&self, name: &str) -> Option<&Metric> {
        self.metrics.iter().find(|m| m.name == name)
    }
    /// The value of the metric called `name`, NaN when there is none.
    pub fn value(&self, name: &str) -> f64 {
        self.metric(name).map_or(f64::NAN, |m| m.value)
    }
    /// The channel called `name`; `time` gives the time axis.
    pub fn channel(&self, name: &str) -> Option<(&'static str, &[f32])> {
        if name == "time" {
            return Some(("s", &self.time));
        }
        self.channels
            .iter()
            .find(|c| c.name == name)
            .map(|c| (c.unit, c.values.as_slice()))
    }
}

/// The report of a manoeuvre being run: what its function measured so far.
#[derive(Default)]
pub(crate) struct Out {
    pub(crate) metrics: Vec<Metric>,
    pub(crate) plots: Vec<PlotSpec>,
    pub(crate) extra: Vec<Channel>,
}

impl Out {
    pub(crate) fn metric(&mut self, name: impl Into<String>, value: f32, unit: &'static str, expected: Option<f32>) {
        self.metrics.push(Metric {
            name: name.into(),
            value: value as f64,
            unit,
            expected: expected.map(|e| e as f64),
        });
    }
    pub(crate) fn plot(&mut self, title: &'static str, x: &str, ys: &[&str]) {
        self.plots.push(PlotSpec {
            title,
            x: x.into(),
            ys: ys.iter().map(|s| s.to_string()).collect(),
        });
    }
}
