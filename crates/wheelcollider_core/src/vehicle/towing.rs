//! Towing: the hitch on a tow vehicle, a trailer's coupling and its brakes, and the
//! closed forms of articulated vehicles (`docs/vehicle.md`, "Towing").
//!
//! A trailer is a [`VehicleSettings`] with a [`TrailerSettings`] and no driven axle: its
//! wheels, sweeps, tyres and brakes are a vehicle's, [`step_vehicle`](super::step_vehicle)
//! skips its powertrain, and its [`DriverInput`] comes from the tow vehicle through
//! [`trailer_controls`] (the brakes) instead of a driver. A tow vehicle carries a
//! [`HitchSettings`]. The hitch itself (the joint between the two bodies) is the plugin's.
//!
//! | kind | tow vehicle | trailer | articulation |
//! | --- | --- | --- | --- |
//! | [`HitchKind::Ball`] | a tow ball (ISO 1103, 50 mm) | a caravan's or boat trailer's hitch head | yaw to `yaw_limit`, pitch and roll together within `tilt_limit` |
//! | [`HitchKind::FifthWheel`] | a fifth wheel plate | a semi-trailer's kingpin | yaw to `yaw_limit`, pitch within `tilt_limit`, roll locked |

use super::{DriverInput, VehicleSettings, VehicleSettingsError};
use crate::limits::STANDARD_GRAVITY;

/// What couples a trailer to its tow vehicle. A trailer couples only to a hitch of its
/// own kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub enum HitchKind {
    /// A tow ball and a hitch head (caravans, boat and car trailers): a ball joint.
    #[default]
    Ball,
    /// A fifth wheel and a kingpin (semi-trailers): yaw free, pitch limited, roll
    /// carried from one body to the other.
    FifthWheel,
}

/// The tow vehicle's hitch: where it is and how far it lets the trailer turn.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default, deny_unknown_fields))]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct HitchSettings {
    /// Ball or fifth wheel.
    pub kind: HitchKind,
    /// The coupling point in the tow vehicle's chassis frame (m): the ball's centre, or
    /// the fifth wheel's kingpin socket. Each coordinate within ±1000.
    pub position: [f32; 3],
    /// The largest yaw between the tow vehicle and the trailer (deg), 5 ..= 120: the
    /// drawbar on the bumper, the trailer's nose on the cab. A trailer held there is
    /// jackknifed (the plugin reports it).
    pub yaw_limit: f32,
    /// The largest tilt of the trailer against the tow vehicle (deg), 1 ..= 60: pitch
    /// and roll together on a ball, pitch alone on a fifth wheel (which carries roll).
    pub tilt_limit: f32,
    /// The force (N) above which the hitch lets go (the plugin uncouples and reports
    /// it), 0 ..= 10⁸; 0: it never breaks.
    pub break_force: f32,
}

impl Default for HitchSettings {
    fn default() -> Self {
        Self {
            kind: HitchKind::Ball,
            position: [0.0, -0.2, 2.5],
            yaw_limit: 90.0,
            tilt_limit: 25.0,
            break_force: 0.0,
        }
    }
}

/// A trailer's brakes. ECE Regulation No. 13 requires service brakes on trailers
/// above 750 kg: overrun brakes up to 3 500 kg, continuous (air) brakes above.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub enum TrailerBrakes {
    /// No service brake (a light trailer): only the parking brake.
    None,
    /// Overrun (inertia) brakes: the hitch head slides on the drawbar against a damper,
    /// and the trailer's push on the tow vehicle applies its brakes. The brake level
    /// rises from 0 at a push of `response` × the trailer's weight to 1 at `full` ×
    /// its weight, through the damper's lag. They do not act while the trailer rolls
    /// backwards (the automatic reversing shoes of overrun brakes), so the trailer can
    /// be reversed.
    Overrun {
        /// The push (fraction of the trailer's weight) at which the brakes start,
        /// 0 ..= 0.5; ECE R13 Annex 12 asks for 0.02–0.04.
        response: f32,
        /// The push (fraction of the trailer's weight) for full brakes, above
        /// `response` (held at least 0.01 above it), ..= 1.
        full: f32,
        /// The damper's time constant (s), 0.01 ..= 5.
        lag: f32,
    },
    /// Continuous (air) brakes: they follow the tow vehicle's brake pedal through the
    /// air lines' lag; the trailer's own [`BrakeSettings`](super::BrakeSettings) (its
    /// ABS among them) apply the level.
    Air {
        /// The lines' time constant (s), 0.01 ..= 5 (typical values: `docs/vehicle.md`,
        /// "Towing").
        lag: f32,
    },
}

impl Default for TrailerBrakes {
    fn default() -> Self {
        TrailerBrakes::Overrun {
            response: 0.04,
            full: 0.1,
            lag: 0.15,
        }
    }
}

/// What makes a vehicle a trailer: its coupling, its stand and its brakes.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default, deny_unknown_fields))]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct TrailerSettings {
    /// Ball (hitch head) or fifth wheel (kingpin): couples only to a hitch of this kind.
    pub kind: HitchKind,
    /// The coupling point in the trailer's chassis frame (m): the hitch head's ball
    /// socket, or the kingpin. Each coordinate within ±1000; ahead of the axles.
    pub coupling: [f32; 3],
    /// The jockey wheel or landing legs: how far below the coupling point (m) the
    /// trailer's nose rests while it is uncoupled, 0.05 ..= 10 (lowered when it is
    /// uncoupled, raised when it is coupled).
    pub stand: f32,
    /// The service brakes. While uncoupled the parking brake (the handbrake of the
    /// trailer's axles marked `handbrake`) is on.
    pub brakes: TrailerBrakes,
}

impl Default for TrailerSettings {
    fn default() -> Self {
        Self {
            kind: HitchKind::Ball,
            coupling: [0.0, -0.2, -3.0],
            stand: 0.4,
            brakes: TrailerBrakes::default(),
        }
    }
}

/// What a trailer's brakes read from its tow vehicle and its hitch, each step.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TowInput {
    /// Coupled to a tow vehicle.
    pub coupled: bool,
    /// The tow vehicle's brake pedal, 0..=1.
    pub pedal: f32,
    /// How hard the trailer pushes the tow vehicle along the trailer's forward axis
    /// (N), negative while it is pulled.
    pub push: f32,
    /// The trailer's speed along its forward axis (m/s), negative backwards.
    pub forward_speed: f32,
    /// How much the push falls (N) per unit of the trailer's own brake level: its full
    /// brake force times the tow vehicle's share of the pair's mass (the pair
    /// decelerating together; [`push_per_level`]). Overrun brakes update their level
    /// implicitly with it, so a short damper does not chatter; 0 (unknown) updates it
    /// from the last step's push alone.
    pub push_per_level: f32,
}

/// [`TowInput::push_per_level`] for the trailer `trailer` (its settings) behind a tow
/// vehicle of `tow_mass` (kg): the pair decelerating together, the trailer's brake
/// force `F_t` moves the push by `−m_tow/(m_tow + m_trailer)·F_t`, and `F_t` at full
/// level is its brakes' torque over its first axle's radius, at most its tyres' peak
/// grip on its weight (N per unit level, ≥ 0).
pub fn push_per_level(trailer: &VehicleSettings, tow_mass: f32) -> f32 {
    let (m_t, m_c) = (trailer.chassis.mass.max(0.0), tow_mass.max(0.0));
    let Some(axle) = trailer.axles.first() else {
        return 0.0;
    };
    let grip = axle.wheel.longitudinal_tyre().peak_value() * m_t * STANDARD_GRAVITY;
    let full = (trailer.brakes.max_torque / axle.wheel.radius().max(0.01)).min(grip);
    let total = m_c + m_t;
    if total > 0.0 && full.is_finite() {
        (m_c / total * full).max(0.0)
    } else {
        0.0
    }
}

/// The trailer's controls for one step: the service brake level its brakes reach
/// (carried in `level`, 0..=1, from step to step) and the parking brake while it is
/// uncoupled. `mass` is the trailer's (kg), `dt` the step (s).
///
/// ```
/// use wheelcollider_core::vehicle::{TowInput, TrailerBrakes, TrailerSettings, trailer_controls};
/// let caravan = TrailerSettings::default(); // overrun brakes from 4 % to 10 % of the weight
/// let push = 0.07 * 1500.0 * 9.81; // half way
/// let mut level = 0.0;
/// for _ in 0..600 {
///     let tow = TowInput { coupled: true, pedal: 1.0, push, forward_speed: 10.0, push_per_level: 0.0 };
///     trailer_controls(&caravan, 1500.0, &mut level, tow, 1.0 / 60.0);
/// }
/// assert!((level - 0.5).abs() < 1e-3);
/// let parked = trailer_controls(&caravan, 1500.0, &mut level, TowInput::default(), 1.0 / 60.0);
/// assert_eq!(parked.handbrake, 1.0);
/// ```
pub fn trailer_controls(trailer: &TrailerSettings, mass: f32, level: &mut f32, tow: TowInput, dt: f32) -> DriverInput {
    let finite = |v: f32| if v.is_finite() { v } else { 0.0 };
    let weight = (finite(mass) * STANDARD_GRAVITY).max(1e-3);
    // The first-order lag, exact for a demand held over the step.
    let blend = |lag: f32| {
        if lag > 0.0 {
            -crate::math::exp_m1(-finite(dt).max(0.0) / lag.max(0.01))
        } else {
            1.0
        }
    };
    let last = finite(*level).clamp(0.0, 1.0);
    let follow = |demand: f32, b: f32| last + (demand.clamp(0.0, 1.0) - last) * b;
    *level = match trailer.brakes {
        _ if !tow.coupled => follow(0.0, 1.0),
        TrailerBrakes::None => follow(0.0, 1.0),
        TrailerBrakes::Overrun { response, full, lag } => {
            let b = blend(lag);
            let span = (full - response).max(0.01);
            if finite(tow.forward_speed) < 0.0 {
                follow(0.0, b)
            } else {
                // Implicit in the level: the push this step is the last one's less what
                // the change of the trailer's own braking takes off it,
                // `P − G·(L' − L)` (`G` = `push_per_level` over the weight), so the
                // loop's factor is `(1 − b)/(1 + b·G/span)`, in [0, 1) at any lag and
                // rate (`tests/it/vehicle/towing.rs`,
                // `overrun_brakes_with_a_short_damper_hold_a_steady_level`).
                let g = finite(tow.push_per_level).max(0.0) / weight;
                let own = finite(tow.push) / weight + g * last;
                let linear = (last * (1.0 - b) + b * (own - response) / span) / (1.0 + b * g / span);
                // Where the law is at an end at that level, the end holds.
                let demand = (own - g * linear - response) / span;
                if (0.0..=1.0).contains(&demand) {
                    linear
                } else {
                    follow(demand, b)
                }
            }
        }
        TrailerBrakes::Air { lag } => follow(finite(tow.pedal), blend(lag)),
    }
    .clamp(0.0, 1.0);
    DriverInput {
        brake: *level,
        handbrake: if tow.coupled { 0.0 } else { 1.0 },
        ..Default::default()
    }
}

/// Low-speed off-tracking on a steady circle (kinematic, no tyre slip): with the tow
/// vehicle's rear axle on radius `r` (m) and the hitch `b` (m) behind it, the hitch
/// runs on `R_h = √(r² + b²)` and the trailer's axle, `l_t` (m) behind the hitch, on
/// `R_t = √(R_h² − l_t²)`; returns `(R_h, R_t)` (`R_t` 0 where the trailer is longer
/// than the hitch's radius). Gillespie, *Fundamentals of Vehicle Dynamics*, §6
/// ("Off-tracking").
pub fn off_tracking(r: f32, b: f32, l_t: f32) -> (f32, f32) {
    let r_h = (r * r + b * b).sqrt();
    (r_h, (r_h * r_h - l_t * l_t).max(0.0).sqrt())
}

/// The rate (1/s) at which a trailer's articulation θ grows while its tow vehicle
/// reverses straight at `speed` (m/s) with the steering centred: the trailer's axle
/// rolls without slip, so `dθ/dt = (|v| / l_t) · sin θ` with `l_t` (m) the hitch to
/// the trailer's axle, and `tan(θ/2)` grows as `exp(|v| t / l_t)`. Forwards the same
/// rate damps it. (The hitch's offset behind the tow vehicle's axle drops out with
/// the steering centred.)
pub fn reversing_divergence(speed: f32, l_t: f32) -> f32 {
    speed.abs() / l_t.max(1e-3)
}

impl VehicleSettings {
    /// A trailer's static load on its hitch (N), its nose weight: by the lever rule
    /// about the axles' mean position, `m·g·(z_axles − z_cg) / (z_axles − z_coupling)`;
    /// negative for a tail-heavy trailer. 0 for a vehicle that is not a trailer.
    pub fn nose_load(&self) -> f32 {
        let Some(t) = &self.trailer else {
            return 0.0;
        };
        let n = self.axles.len().max(1) as f32;
        let axles = self.axles.iter().map(|a| a.z).sum::<f32>() / n;
        let arm = axles - t.coupling[2];
        if arm.abs() < 1e-3 {
            return 0.0;
        }
        self.chassis.mass * STANDARD_GRAVITY * (axles - self.chassis.centre_of_mass[2]) / arm
    }

    /// The distance (m) along the trailer from its coupling to its axles' mean
    /// position: the `l_t` of [`off_tracking`] and [`reversing_divergence`]; 0 for a
    /// vehicle that is not a trailer.
    pub fn trailer_length(&self) -> f32 {
        let Some(t) = &self.trailer else {
            return 0.0;
        };
        let n = self.axles.len().max(1) as f32;
        self.axles.iter().map(|a| a.z).sum::<f32>() / n - t.coupling[2]
    }
}

fn clamped(path: &str, v: &mut f32, lo: f32, hi: f32) -> Result<(), VehicleSettingsError> {
    if !v.is_finite() {
        return Err(VehicleSettingsError::new(
            path,
            format!("must be a finite number, got {v}"),
        ));
    }
    *v = v.clamp(lo, hi);
    Ok(())
}

/// The hitch's and the coupling's positions within ±1 km; a trailer with a driven axle,
/// or a coupling not ahead of every axle, is an error (the numbers are in
/// [`VEHICLE_FLOATS`](super::VEHICLE_FLOATS)).
pub(crate) fn check_towing(s: &mut VehicleSettings) -> Result<(), VehicleSettingsError> {
    if let Some(h) = s.hitch.as_mut() {
        for (i, v) in h.position.iter_mut().enumerate() {
            clamped(&format!("hitch.position[{i}]"), v, -1000.0, 1000.0)?;
        }
    }
    let Some(t) = s.trailer.as_mut() else {
        return Ok(());
    };
    for (i, v) in t.coupling.iter_mut().enumerate() {
        clamped(&format!("trailer.coupling[{i}]"), v, -1000.0, 1000.0)?;
    }
    if let Some(i) = s.axles.iter().position(|a| a.driven) {
        return Err(VehicleSettingsError::new(
            format!("axles[{i}].driven"),
            "a trailer's axles are not driven",
        ));
    }
    let coupling = t.coupling[2];
    if s.axles.iter().any(|a| a.z <= coupling) {
        return Err(VehicleSettingsError::new(
            "trailer.coupling",
            "the coupling must be ahead of (at a smaller z than) every axle",
        ));
    }
    Ok(())
}
