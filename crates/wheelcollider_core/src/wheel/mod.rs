//! One physics step of one wheel, in the wheel's contact frame.
//!
//! The engine-side glue (the plugin) sweeps the ground, turns the hit into a
//! [`Contact`] of scalars, solves the suspension of the chassis' wheels together
//! ([`crate::suspension::solve`], at the [`Travel`] that [`compression_of`] gives), calls
//! [`step`] with that force ([`Suspension::Solved`]), and applies the returned forces
//! along the suspension axis and the ground-plane forward / sideways directions at the
//! contact. A wheel on its own passes [`Suspension::Explicit`] and the step computes its
//! suspension from the contact alone.
//!
//! [`step`] runs eight stages, each a function of `stages.rs` (the tyre's condition and
//! heat: `heat.rs`) with a typed hand-off, each
//! writing its own outputs:
//!
//! | stage | reads | hands on |
//! | --- | --- | --- |
//! | `read_input` | [`StepInput`], [`StepState`] | `Torques` (sanitised), the contact if finite |
//! | `suspension` | the contact, [`Suspension`] | `Loaded`: the tyre's load, the contact's speeds, grip, camber, masses |
//! | `tyre_condition` | [`StepState::tyre`], [`WheelSettings::compound`] | `Loaded`'s grip, stiffness, rolling resistance and relaxation by the tyre's temperature, pressure and wear |
//! | `slips` | `Loaded` | `Slips`: the tyre at this load, the slips' relaxation lag, the lateral slip |
//! | `spin` | `Loaded`, `Slips`, `Torques` | `Rolled`: the spin, the transient slips, the tyre forces at the new spin |
//! | `static_friction` | `Loaded`, `Rolled` | the forces with the patch held below [`STICK_SPEED`] |
//! | `write_output` | all of the above | [`StepOutput`], [`StepState`] for the next step |
//! | `heat` | `Loaded`, `Rolled`, the forces, [`Ambient`] | [`StepState::tyre`]: the thermal network a step on, the tread worn |
//!
//! Sign conventions:
//! - forward velocity `vx` and [`StepOutput::forward_force`] are along the wheel's
//!   rolling direction after steer and toe, projected on the ground;
//! - sideways velocity `vy` and [`StepOutput::sideways_force`] are along the axle
//!   (local +X, to the right), projected on the ground;
//! - angular velocity ω > 0 rolls the wheel forward (surface speed ω·r = vx when rolling);
//! - camber > 0 tilts the wheel's top towards −sideways (left), as the original's
//!   `camberAngle` does in the wheel's own frame.

mod explicit;
mod heat;
mod spinner;
mod stages;

pub use crate::output::StepOutput;

use crate::bumps::perlin_bump;
use crate::limits::MAX_VALUE;
use crate::settings::WheelSettings;
use crate::suspension::SuspensionForce;
use crate::thermal::{Ambient, TyreState};
#[cfg(feature = "bevy_ecs")]
use bevy_ecs::reflect::ReflectComponent;
#[cfg(feature = "bevy_reflect")]
use bevy_reflect::std_traits::ReflectDefault;

/// The largest wheel spin (rad/s) the model keeps; faster clamps (≈ 95 000 rpm).
pub const MAX_ANGULAR_VELOCITY: f32 = 1.0e4;
pub use crate::suspension::BUMP_STOP_BAUMGARTE;
/// Below this ground speed (m/s) static friction fades in: 0 at this speed, full at
/// rest (see [`step`]).
pub const STICK_SPEED: f32 = 0.5;
/// Baumgarte factor of the static-friction anchor: the fraction of the patch
/// displacement pulled back per step.
pub const STICK_BAUMGARTE: f64 = 0.2;
/// Rolled distance (m) over which a rolling wheel forgets its sideways static-friction
/// anchor (e-folding): a rolling tyre's contact patch is always new rubber.
pub const STICK_ROLL_LENGTH: f64 = 0.01;
/// The spin solve takes a Newton step without evaluating the tyre at its end when the
/// step changes the longitudinal slip by at most this fraction of the peak slip κ* (see
/// [`crate::spin`]). Over this fraction the magic formula departs from its tangent by at
/// most about `(π/2)²/2 · (2·10⁻³)² ≈ 5·10⁻⁶` of its peak force; its effect on the
/// shipped presets' manoeuvres is in `docs/performance.md`.
pub const UNVERIFIED_SLIP_STEP: f64 = 0.002;

/// The step sizes [`step`] accepts (s); others clamp into this range.
pub const DT_RANGE: core::ops::RangeInclusive<f32> = 1.0e-6..=1.0;

/// What the sweep found, reduced to the wheel's contact frame.
///
/// All values are read by [`step`]; a non-finite value makes the contact count as not
/// found (the wheel is airborne for that step) and sets
/// [`StepOutput::rejected_input`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Contact {
    /// How far the sweep travelled from its start to the hit (m), in
    /// `0 ..= suspension_length + radius`. For the ray, the mount point's travel; for
    /// the sphere and cylinder (started `radius` above the mount), the shape centre's.
    pub hit_distance: f32,
    /// Velocity of the wheel's contact point relative to the ground body, along forward
    /// (m/s).
    pub forward_velocity: f32,
    /// The same along sideways (m/s).
    pub sideways_velocity: f32,
    /// The camber the ground adds (deg): the signed angle from the hit normal to the
    /// mount's up about forward. The static camber is added by [`step`].
    pub ground_camber: f32,
    /// World X of the hit point (m), for the Perlin bump.
    pub hit_x: f32,
    /// World Z of the hit point (m), for the Perlin bump.
    pub hit_z: f32,
    /// Surface friction multiplier (1 = the tyre's own curve; gravel ≈ 0.7, ice ≈ 0.1),
    /// clamped ≥ 0.
    pub grip: f32,
    /// Surface factor on the tyre's slip and cornering stiffness (1 = the tyre's own),
    /// clamped to 0.01 ..= 10. The grip scales the curve's peak and this its slope, so
    /// the peak slip moves by `grip / stiffness` (gravel's late peak: below 1; ice keeps
    /// the tyre's stiffness). See `docs/wheel-model.md` 3e.
    pub stiffness: f32,
    /// How fast the surface's grip fades with the patch's sliding speed (s/m), clamped
    /// to 0 ..= 1: the grip is multiplied by `e^(−speed_fade · v_slide)`, `v_slide =
    /// |(vx − ω·r, vy)|` at the step's start spin (Burckhardt's `e^(−c4·s·v)`, `s·v`
    /// the sliding speed). 0 (the default): the tyre's own curve at every speed; wet
    /// asphalt 0.02. See `docs/wheel-model.md` 3e.
    pub speed_fade: f32,
    /// This wheel's share of the chassis mass seen at the contact along forward (kg):
    /// the effective mass `1 / (1/m + (r×u)·I⁻¹·(r×u))` divided by the number of grounded
    /// wheels. With `sideways_mass`, it turns on static friction at low speed (see
    /// [`step`]) and bounds a relaxation length's lag; 0 turns both off.
    pub forward_mass: f32,
    /// The same along sideways (kg).
    pub sideways_mass: f32,
    /// Rolling-resistance coefficient the ground surface adds to the tyre's own, ≥ 0
    /// (grass ≈ 0.05, gravel ≈ 0.02).
    pub surface_rolling_resistance: f32,
    /// Height of the ground surface's own roughness under the tyre (m), added to the
    /// wheel's Perlin bump (the plugin samples it from the surface).
    pub surface_bump: f32,
    /// Where the contact lies from the chassis' centre of mass in the chassis' frame
    /// (m): ahead of it (along the chassis' forward) and to its right. Only the signs
    /// are read: which way the links' slopes
    /// ([`WheelSettings::roll_centre_slope`] and the pitch slopes) lift the body. A
    /// component within 1 mm of 0 turns its slope off; (0, 0), the default, turns
    /// jacking off.
    pub arm: [f32; 2],
}

impl Default for Contact {
    fn default() -> Self {
        Self {
            hit_distance: 0.0,
            forward_velocity: 0.0,
            sideways_velocity: 0.0,
            ground_camber: 0.0,
            hit_x: 0.0,
            hit_z: 0.0,
            grip: 1.0,
            stiffness: 1.0,
            speed_fade: 0.0,
            forward_mass: 0.0,
            sideways_mass: 0.0,
            surface_rolling_resistance: 0.0,
            surface_bump: 0.0,
            arm: [0.0; 2],
        }
    }
}

impl Contact {
    fn is_finite(&self) -> bool {
        [
            self.hit_distance,
            self.forward_velocity,
            self.sideways_velocity,
            self.ground_camber,
            self.hit_x,
            self.hit_z,
            self.grip,
            self.stiffness,
            self.speed_fade,
            self.forward_mass,
            self.sideways_mass,
            self.surface_rolling_resistance,
            self.surface_bump,
            self.arm[0],
            self.arm[1],
        ]
        .iter()
        .all(|v| v.is_finite())
    }
}

/// Where a contact puts the suspension: what [`compression_of`] computes, the solve of
/// the chassis' wheels reads, and [`step`] takes back with the solved force
/// ([`Suspension::Solved`]) instead of computing it again. In f64, as the step works.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Travel {
    /// Compression (m): 0 at full droop, `suspension_length` at the bump stop, more past
    /// it (the hit inside the travel).
    pub compression: f64,
    /// The road bump under the tyre (m): the wheel's Perlin bump plus the surface's own
    /// roughness.
    pub bump: f64,
}

/// The compression and road bump a contact gives (see [`Travel`]): the first thing a
/// grounded [`step`] needs, for code that solves the suspension outside it.
pub fn compression_of(settings: &WheelSettings, contact: &Contact) -> Travel {
    let bump = perlin_bump(
        contact.hit_x,
        contact.hit_z,
        settings.bump_period(),
        settings.bump_amplitude(),
    ) + (contact.surface_bump as f64).clamp(-1.0, 1.0);
    let (radius, length) = (settings.radius() as f64, settings.suspension_length() as f64);
    let d = (contact.hit_distance as f64).clamp(0.0, length + radius);
    Travel {
        compression: length - (d + bump - radius),
        bump,
    }
}

/// How a grounded [`step`] finds its suspension force.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Suspension {
    /// Solved outside the step together with the chassis' other wheels
    /// ([`crate::suspension::solve`], as the plugin does) at `travel` (from
    /// [`compression_of`] on this step's contact). [`step`] uses its spring, damper, bar
    /// and bump-stop forces and its tyre load; [`WheelInput::anti_roll_force`] is taken to
    /// be in it already.
    Solved {
        /// The solved force.
        force: SuspensionForce,
        /// The compression and bump it was solved at.
        travel: Travel,
    },
    /// Computed by [`step`] explicitly from the contact alone (a standalone wheel;
    /// `docs/wheel-model.md` 2a).
    Explicit {
        /// This wheel's share of the chassis mass as seen at the contact along the
        /// suspension axis (kg). Used by the bump stop to stop the compression in one
        /// step; 0 means unknown: the bump stop then assumes `spring · length / g`, the
        /// mass the spring holds at full compression.
        mass: f32,
        /// How fast the mount approaches the ground along the suspension axis, read
        /// from the bodies' velocities (m/s, positive compressing). With a `mass`, the
        /// bump stop reads this instead of the finite-difference compression speed,
        /// which lags a landing by a step.
        approach_speed: f32,
    },
}

impl Default for Suspension {
    /// [`Suspension::Explicit`] with neither mass nor approach speed.
    fn default() -> Self {
        Self::Explicit {
            mass: 0.0,
            approach_speed: 0.0,
        }
    }
}

impl Suspension {
    fn is_finite(&self) -> bool {
        match self {
            Self::Solved { force: s, travel } => {
                [s.spring, s.damper, s.anti_roll, s.bump_stop, s.total, s.tyre_load]
                    .iter()
                    .all(|v| v.is_finite())
                    && travel.compression.is_finite()
                    && travel.bump.is_finite()
            }
            Self::Explicit { mass, approach_speed } => mass.is_finite() && approach_speed.is_finite(),
        }
    }
}

/// What drives a wheel in one step: written by a vehicle ([`crate::vehicle::step_vehicle`]
/// writes one per wheel) or by game code. The one type of both layers: the plugin's
/// wheel reads it as a component (feature `bevy_ecs`), and [`StepInput`] carries it into
/// [`step`].
///
/// Values are clamped when used (brake and drivetrain terms ≥ 0, steer to ±90°); a
/// non-finite value is treated as 0 and flagged in [`StepOutput::rejected_input`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize), serde(default))]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
#[cfg_attr(feature = "bevy_reflect", reflect(Default, Debug, Clone))]
#[cfg_attr(feature = "bevy_ecs", derive(bevy_ecs::component::Component))]
#[cfg_attr(feature = "bevy_ecs", reflect(Component))]
pub struct WheelInput {
    /// Steer angle (deg), a yaw about the suspension axis added to the toe. Positive
    /// turns **left** (counter-clockwise seen from above, Bevy's right-handed
    /// convention). Applied by the engine-side glue, which senses the contact in the
    /// steered frame; [`step`] does not read it.
    pub steer_angle: f32,
    /// Drive torque (N·m), signed; positive drives forward.
    pub drive_torque: f32,
    /// Brake torque (N·m), ≥ 0. It slows the wheel towards zero and never reverses it.
    pub brake_torque: f32,
    /// Inertia of the drivetrain behind this wheel (kg·m²), ≥ 0, added to the wheel's in
    /// its spin solve. A vehicle writes it every step: its share of the gearbox's and,
    /// while the clutch is locked, the engine's inertia, reflected through the ratios.
    pub drivetrain_inertia: f32,
    /// Friction torque of the drivetrain (N·m), ≥ 0; acts like a brake.
    pub drivetrain_friction_torque: f32,
    /// An extra force (N), signed, added to this wheel's suspension force while it is
    /// grounded (explicitly, as it is given). The plugin solves anti-roll bars with the
    /// suspension instead (its `AntiRollBar`), stable at any stiffness, and its vehicle
    /// layer leaves this at 0.
    pub anti_roll_force: f32,
}

/// What [`step`] reads besides the settings and the state: what drives the wheel, the
/// contact the sweep found and how its suspension is found.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StepInput {
    /// What drives the wheel (its `steer_angle` is the glue's and not read here).
    pub input: WheelInput,
    /// The ground contact, or `None` when the sweep found nothing.
    pub contact: Option<Contact>,
    /// How the suspension's force is found while there is a contact.
    pub suspension: Suspension,
    /// The air and the road around the tyre: read only with a
    /// [`WheelSettings::compound`] (its thermal model).
    pub ambient: Ambient,
}

/// The runtime state of one wheel, carried from step to step.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct StepState {
    /// Spin (rad/s); positive rolls forward.
    pub angular_velocity: f32,
    /// Spin angle (rad), in `[0, 2π)`, for the visual model.
    pub angle: f32,
    /// Suspension compression of the last step (m), for the damper.
    pub compression: f32,
    /// How far the contact patch has moved from where it stuck (m), along forward and
    /// sideways; the static-friction anchor. 0 while the tyre slides or rolls.
    pub patch: [f32; 2],
    /// The tyre's transient slips (κ, σ) of the last step: the kinematic slips after
    /// the relaxation lag (see [`WheelSettings::lateral_relaxation_length`]). 0 in the
    /// air.
    pub slip: [f32; 2],
    /// The vertical force the links (or an axial suspension's tube) carry from the last
    /// step's tyre forces (N), positive lifting the body: this step's
    /// [`StepOutput::jacking_force`]. 0 in the air.
    pub jacking: f32,
    /// The tyre's temperatures, tread and puncture: kept only with a
    /// [`WheelSettings::compound`] (see [`crate::thermal`]).
    pub tyre: TyreState,
}

/// Converts to f32, clamped to ±[`MAX_VALUE`] so that no output overflows.
#[inline]
fn out32(v: f64) -> f32 {
    v.clamp(-(MAX_VALUE as f64), MAX_VALUE as f64) as f32
}

/// Advances one wheel by `dt` seconds and returns its forces and outputs.
///
/// The order is Unity WheelCollider2's (see `docs/wheel-model.md`, "One step"): bump and
/// compression, suspension with the bump stop, slips, an implicit wheel-spin solve with
/// the tyre force, brake, drivetrain friction and rolling resistance (see
/// [`crate::spin`]), and the final tyre forces at the new spin, and static friction at
/// low speed.
///
/// **Static friction.** A slip model alone cannot hold a car on a slope: at rest it is a
/// viscous force, so the car creeps at the speed where the damping balances gravity.
/// When the contact carries the chassis' effective masses ([`Contact::forward_mass`],
/// [`Contact::sideways_mass`]) and the ground speed is below [`STICK_SPEED`], the patch
/// sticks: a force that cancels its velocity within the step and pulls back
/// [`STICK_BAUMGARTE`] of its displacement from where it stuck, bounded by μ·load (and,
/// along forward, by the brake: it acts there only while the wheel is locked). It fades
/// linearly into the slip model up to [`STICK_SPEED`]. Held, the patch settles at a
/// fixed offset `F·dt²/(m·β)` and does not drift (`static_friction` tests).
///
/// A `dt` that is not finite and positive leaves the state untouched and returns zero
/// forces; a finite one clamps into [`DT_RANGE`]. Every output is finite and within
/// ±[`MAX_VALUE`] for any finite input (`properties` tests).
///
/// # Example
/// ```
/// use wheelcollider_core::{step, Contact, StepInput, WheelSettings, StepState};
/// let settings = WheelSettings::default();
/// let mut state = StepState::default();
/// // Resting on the ground with 0.05 m of compression: d = length + radius − 0.05.
/// let contact = Contact { hit_distance: 0.35, ..Default::default() };
/// let input = StepInput { contact: Some(contact), ..Default::default() };
/// let out = step(&settings, &mut state, input, 1.0 / 60.0);
/// assert!(out.grounded);
/// assert!((out.spring_force - 40_000.0 * 0.05).abs() < 1e-2);
/// ```
pub fn step(settings: &WheelSettings, state: &mut StepState, input: StepInput, dt: f32) -> StepOutput {
    match stage(settings, state, input, dt) {
        Ok(staged) => staged.finish(state, None),
        Err(out) => out,
    }
}

/// A wheel's [`step`] run up to its spin (the stages from `read_input` to `slips`: the
/// inputs, the suspension, the slips), so that a driveline solve can couple several wheels' spins
/// ([`crate::vehicle::solve_driveline`]) before each [`Staged::finish`]es.
pub struct Staged<'a> {
    settings: &'a WheelSettings,
    torques: stages::Torques,
    loaded: stages::Loaded,
    slips: stages::Slips<'a>,
    spinner: spinner::Spinner,
    ambient: Ambient,
    dt: f64,
    out: StepOutput,
}

/// Runs the stages from `read_input` to `slips` of [`step`] on one wheel (see [`Staged`]). A `dt` that is not finite
/// and positive gives `Err` with the output [`step`] returns for it (the state
/// untouched).
// The error (the step's whole output, for a `dt` that is not finite and positive) is
// smaller than the `Staged` it stands for: boxing it saves no space and would allocate.
#[allow(clippy::result_large_err)]
pub fn stage<'a>(
    settings: &'a WheelSettings,
    state: &mut StepState,
    input: StepInput,
    dt: f32,
) -> Result<Staged<'a>, StepOutput> {
    let mut out = StepOutput {
        peak_slip: settings.peak_slip(),
        ..Default::default()
    };
    if !(dt.is_finite() && dt > 0.0) {
        out.rejected_input = true;
        out.angular_velocity = state.angular_velocity;
        out.angle = state.angle;
        return Err(out);
    }
    let dt = dt.clamp(*DT_RANGE.start(), *DT_RANGE.end()) as f64;
    let (torques, ground) = stages::read_input(settings, state, &input);
    let mut loaded = stages::suspension(settings, state, ground, &torques, dt, &mut out);
    heat::tyre_condition(settings, state, &input.ambient, &mut loaded);
    let slips = stages::slips(settings, state, &loaded, dt, &mut out);
    let spinner = spinner::Spinner::new(settings, state, &loaded, &slips, &torques, dt);
    Ok(Staged {
        settings,
        torques,
        loaded,
        slips,
        spinner,
        ambient: input.ambient,
        dt,
        out,
    })
}

/// A staged wheel in the driveline solve: its spin for a drive torque in place of its
/// input's (nothing is kept but the tyre's last evaluation, which [`Staged::finish`]
/// reuses), its spin solve's terms and its tyre's torque at a spin.
impl crate::spin::DrivenWheel for Staged<'_> {
    fn respond(&self, drive: f64, inertia: f64) -> (f64, f64) {
        self.spinner.respond(&self.slips, drive, inertia / self.dt)
    }

    fn terms(&self) -> crate::spin::SpinTerms {
        self.spinner.terms(&self.slips)
    }

    fn tyre_torque(&self, w: f64) -> (f64, f64) {
        self.spinner.tyre_torque(&self.slips, w)
    }
}

impl Staged<'_> {
    /// The stages from `spin` to `heat`: the spin (solved here, or `driven`: the spin
    /// and the drive torque a driveline solve found), static friction, the outputs and
    /// the tyre's heat.
    /// Borrowed, not consumed: a chassis keeps its staged wheels in place through the
    /// driveline solve and finishes each where it lies.
    pub fn finish(&self, state: &mut StepState, driven: Option<(f64, f64)>) -> StepOutput {
        let max = MAX_ANGULAR_VELOCITY as f64;
        let given = driven.map(|(w, drive)| (w.clamp(-max, max), drive));
        let mut torques = self.torques;
        if let Some((_, drive)) = given {
            torques.drive = drive;
        }
        let rolled = stages::spin(state, &self.loaded, &self.slips, &self.spinner, given);
        let (settings, dt, mut out) = (self.settings, self.dt, self.out);
        let held = stages::static_friction(settings, state, &self.loaded, &rolled, &torques, dt);
        stages::write_output(settings, state, &self.loaded, &rolled, held, dt, &mut out);
        heat::heat(
            settings,
            state,
            (&self.loaded, &rolled, held),
            &self.ambient,
            dt,
            &mut out,
        );
        out.rejected_input = torques.rejected;
        out
    }
}
