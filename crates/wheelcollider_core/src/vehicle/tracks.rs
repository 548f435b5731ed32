//! A tracked vehicle's settings and its steering's share of the step. A vehicle with
//! [`VehicleSettings::tracks`] set is tracked: each axle is a pair of road wheels, every
//! axle driven, none steered; the driven axles' left road wheels turn as one belt and
//! their right ones as the other (each road wheel sweeps the ground with its own spring
//! and damper, and its tyre is the track's grip under it). The driver's steer input
//! makes one belt faster than the other ([`TrackSteering`]); the engine, clutch, gearbox
//! and brakes are the vehicle step's (`docs/tracked.md`).
//!
//! The skid-steer turn's closed form (Wong, *Theory of Ground Vehicles*, ch. 7, the
//! simple analysis of skid steering): with the ground's lateral resistance `μ_t` on a
//! track of contact length `L`, the turning resistance moment is `M_r = μ_t·W·L/4` and
//! the belts' thrusts in a steady turn `F_o,i = μ_r·W/2 ± M_r/B` (`B` the tread, `μ_r`
//! the rolling resistance): `VehicleSettings::predicted_skid_steer`, proved in the car
//! by the plugin's `tracked::tank::a_steady_skid_steer_turn_meets_wongs_closed_form`.

use super::{Driveline, TrackCoupling, TrackDrive, VehicleSettings, WheelFeedback, WheelInput};

/// How a tracked vehicle's steer input makes one belt faster than the other.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub enum TrackSteering {
    /// Geared (regenerative) steering, as a hydrostatic-mechanical steering gear does
    /// (Renk's HSWL, Allison's X1100): a steering drive from the engine turns the belts
    /// `±Δ` about their mean, `Δ = steer · steer_ratio · ω_engine`, so each gear has its
    /// smallest radius and in neutral the belts counter-rotate (a pivot turn). The power
    /// the inner belt gives back drives the outer; the rest loads the engine.
    #[default]
    Geared,
    /// Clutch and brake: the first half of the steer input's travel opens the inner
    /// belt's steering clutch, the second half brakes that belt; the outer belt takes
    /// the engine's torque.
    ClutchBrake,
}

/// A tracked vehicle's steering and belts: what a preset file holds under `tracks`.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default, deny_unknown_fields))]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct TrackSettings {
    /// The steering system.
    pub steering: TrackSteering,
    /// Geared: half the belts' road-wheel speed difference at a full steer input per
    /// rad/s of engine speed, ≥ 0 (dimensionless). In a gear of total ratio `G` the
    /// smallest turn's radius is `(B/2)/(steer_ratio·G)` (`B` the tread).
    pub steer_ratio: f32,
    /// The most torque the steering holds between the belts (N·m at the road wheels,
    /// summed over a belt), ≥ 0: geared, half the belts' torque difference its drive
    /// can hold; clutch and brake, each steering clutch's capacity.
    pub steer_torque: f32,
    /// Clutch and brake: the inner belt's brake at a full steer input (N·m, summed over
    /// its road wheels), ≥ 0.
    pub steer_brake: f32,
    /// Each belt's mass (kg), ≥ 0: it moves at the road wheels' surface speed, so it
    /// adds `m·r²` of inertia to its belt's road wheels, shared among them.
    pub belt_mass: f32,
    /// The length of one track link (m), > 0: the sprocket takes a link each pitch of
    /// belt travel. The physics leaves it out; the sound's clatter and a scene's belt
    /// links follow it.
    pub link_pitch: f32,
}

impl Default for TrackSettings {
    fn default() -> Self {
        Self {
            steering: TrackSteering::Geared,
            steer_ratio: 0.01,
            steer_torque: 1.0e5,
            steer_brake: 1.0e5,
            belt_mass: 1000.0,
            link_pitch: 0.15,
        }
    }
}

impl TrackSettings {
    /// How the steering joins the belts this step for a steer position `steer`
    /// (−1..=1, positive left) and the engine's speed (rad/s).
    pub fn coupling(&self, steer: f32, engine_speed: f32) -> TrackCoupling {
        let steer = steer.clamp(-1.0, 1.0);
        match self.steering {
            TrackSteering::Geared => TrackCoupling::Geared {
                offset: steer * self.steer_ratio * engine_speed.max(0.0),
                capacity: self.steer_torque,
            },
            TrackSteering::ClutchBrake => TrackCoupling::Clutched {
                inner_right: steer < 0.0,
                capacity: self.steer_torque * (1.0 - 2.0 * steer.abs()).max(0.0),
            },
        }
    }

    /// Clutch and brake: the inner belt's brake (N·m, summed over its road wheels) at a
    /// steer position `steer`; 0 for a geared steering.
    pub fn inner_brake(&self, steer: f32) -> f32 {
        match self.steering {
            TrackSteering::Geared => 0.0,
            TrackSteering::ClutchBrake => self.steer_brake * (2.0 * steer.clamp(-1.0, 1.0).abs() - 1.0).max(0.0),
        }
    }

    /// Geared: the torque the steering drive takes from the engine (N·m at the engine)
    /// for a steer position `steer`: the power it passes between the belts, `2·t·Δ`
    /// with `t` half the belts' torque difference of the last step (each road wheel's
    /// drive at its speed: its tyre's torque and its rolling resistance against its
    /// spin), over the engine's speed, `= 2·t·steer·steer_ratio`.
    pub fn engine_load(&self, settings: &VehicleSettings, steer: f32, wheel: impl Fn(usize) -> WheelFeedback) -> f32 {
        if self.steering != TrackSteering::Geared {
            return 0.0;
        }
        let side = |right: bool| -> f32 {
            (0..settings.axles.len())
                .map(|a| wheel(VehicleSettings::wheel_index(a, right)).held_torque())
                .sum()
        };
        let t = 0.5 * (side(true) - side(false));
        let load = 2.0 * t * steer.clamp(-1.0, 1.0) * self.steer_ratio;
        if load.is_finite() { load } else { 0.0 }
    }
}

impl TrackSettings {
    /// The gearbox output's speed from the road wheels' spins (rad/s), as the
    /// driveline's solve reads it: the belts' mean (geared, or clutched and brake with
    /// both clutches closed), or with a clutch-and-brake steering's inner clutch
    /// opening the outer belt's.
    pub fn output_speed(
        &self,
        settings: &VehicleSettings,
        steer: f32,
        n_axles: usize,
        wheel: impl Fn(usize) -> WheelFeedback,
    ) -> f32 {
        let n = n_axles.min(settings.axles.len()).max(1);
        let belt = |right: bool| -> f32 {
            (0..n)
                .map(|a| wheel(VehicleSettings::wheel_index(a, right)).angular_velocity)
                .sum::<f32>()
                / n as f32
        };
        match self.steering {
            TrackSteering::ClutchBrake if steer != 0.0 => belt(steer > 0.0),
            _ => 0.5 * (belt(false) + belt(true)),
        }
    }
}

/// The tracks' share of a vehicle step: the clutch-and-brake steering's brake on the
/// inner belt, and the steering's coupling and the belts' inertia handed to the
/// driveline's solve.
pub(crate) fn step_tracks(
    settings: &VehicleSettings,
    tracks: &TrackSettings,
    steer: f32,
    engine_speed: f32,
    n_axles: usize,
    inputs: &mut [WheelInput],
    line: &mut Driveline,
) {
    let brake = tracks.inner_brake(steer) / n_axles.max(1) as f32;
    if brake > 0.0 {
        for a in 0..n_axles {
            inputs[VehicleSettings::wheel_index(a, steer < 0.0)].brake_torque += brake;
        }
    }
    let r = settings.drive_radius();
    line.tracks = Some(TrackDrive {
        steering: tracks.coupling(steer, engine_speed),
        belt_inertia: tracks.belt_mass * r * r,
    });
}
