//! One physics step of one wheel, in the wheel's contact frame.
//!
//! The engine-side glue (the plugin) sweeps the ground, turns the hit into a
//! [`Contact`] of scalars, calls [`step`], and applies the returned forces along the
//! suspension axis and the ground-plane forward / sideways directions at the contact.
//!
//! Sign conventions:
//! - forward velocity `vx` and [`StepOutput::forward_force`] are along the wheel's
//!   rolling direction after steer and toe, projected on the ground;
//! - sideways velocity `vy` and [`StepOutput::sideways_force`] are along the axle
//!   (local +X, to the right), projected on the ground;
//! - angular velocity ω > 0 rolls the wheel forward (surface speed ω·r = vx when rolling);
//! - camber > 0 tilts the wheel's top towards −sideways (left), as the original's
//!   `camberAngle` does in the wheel's own frame.
//!
//! Why [`step`] is long (about 280 lines): it is the wheel's data path of one step read top
//! to bottom (sanitise, compression, suspension force, slips, tyre, spin, static friction,
//! outputs), each stage feeding the next through a dozen locals; split into functions it
//! would pass those locals back and forth and hide the order the physics depends on.

pub use crate::output::StepOutput;

use crate::bumps::perlin_bump;
use crate::limits::{MAX_VALUE, RAD_PER_S_TO_RPM};
use crate::relaxation::SlipLag;
use crate::settings::WheelSettings;
use crate::spin::solve_spin;
use crate::tyre::{TyreAtLoad, combined};

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
/// [`crate::spin`]). Over 0.2 % of κ* the magic formula departs from its tangent by at
/// most about `(π/2)²/2 · (2·10⁻³)² ≈ 5·10⁻⁶` of its peak force. Measured on the shipped
/// presets' manoeuvres (`docs/performance.md`): no metric moves by 0.5 % but four that
/// are zero to 0.01 mm or 0.0001 %; 0.3 % also moves the road car's residual yaw rate
/// after the sine with dwell by 0.8 % and the kart's step-steer overshoot by 0.6 %.
pub const UNVERIFIED_SLIP_STEP: f64 = 0.002;

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
    /// This wheel's share of the chassis mass as seen at the contact along the suspension
    /// axis (kg): the effective mass `1 / (1/m + (r×n)·I⁻¹·(r×n))` divided by the number
    /// of grounded wheels. Used by the bump stop to stop the compression in one step.
    /// 0 means unknown: the bump stop then assumes `spring · length / g`, the mass the
    /// spring holds at full compression.
    pub suspension_mass: f32,
    /// This wheel's share of the chassis mass seen at the contact along forward (kg),
    /// like `suspension_mass`. With `sideways_mass`, it turns on static friction at low
    /// speed (see [`step`]); 0 turns it off.
    pub forward_mass: f32,
    /// The same along sideways (kg).
    pub sideways_mass: f32,
    /// How fast the mount approaches the ground along the suspension axis, measured from
    /// the bodies' velocities (m/s, positive compressing). With a `suspension_mass`, the
    /// bump stop uses this instead of the finite-difference compression speed, which
    /// lags: it sees only part of the travel on the first step of a landing, and the
    /// step before's speed once the stop has acted.
    pub approach_speed: f32,
    /// Rolling-resistance coefficient the ground surface adds to the tyre's own, ≥ 0
    /// (grass ≈ 0.05, gravel ≈ 0.02).
    pub surface_rolling_resistance: f32,
    /// Height of the ground surface's own roughness under the tyre (m), added to the
    /// wheel's Perlin bump (the plugin samples it from the surface).
    pub surface_bump: f32,
    /// The suspension force solved outside the step, together with the chassis' other
    /// wheels ([`crate::suspension::solve`], as the plugin does). With it, [`step`] uses
    /// its spring, damper, bar and bump-stop forces and its tyre load, and
    /// [`StepInput::anti_roll_force`] is taken to be in it already. Without it, [`step`]
    /// computes them itself, explicitly from this contact alone (a standalone wheel).
    pub suspension: Option<crate::suspension::SuspensionForce>,
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
            suspension_mass: 0.0,
            forward_mass: 0.0,
            sideways_mass: 0.0,
            approach_speed: 0.0,
            surface_rolling_resistance: 0.0,
            surface_bump: 0.0,
            suspension: None,
        }
    }
}

/// The compression (m, 0 at full droop) and road bump (m) a contact gives: what [`step`]
/// computes first, for code that solves the suspension outside it.
pub fn compression_of(settings: &WheelSettings, contact: &Contact) -> (f32, f32) {
    let bump = perlin_bump(
        contact.hit_x,
        contact.hit_z,
        settings.bump_period(),
        settings.bump_amplitude(),
    ) + (contact.surface_bump as f64).clamp(-1.0, 1.0);
    let (radius, length) = (settings.radius() as f64, settings.suspension_length() as f64);
    let d = (contact.hit_distance as f64).clamp(0.0, length + radius);
    (out32(length - (d + bump - radius)), out32(bump))
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
            self.suspension_mass,
            self.forward_mass,
            self.sideways_mass,
            self.approach_speed,
            self.surface_rolling_resistance,
            self.surface_bump,
        ]
        .iter()
        .all(|v| v.is_finite())
            && self.suspension.is_none_or(|s| {
                [s.spring, s.damper, s.anti_roll, s.bump_stop, s.total, s.tyre_load]
                    .iter()
                    .all(|v| v.is_finite())
            })
    }
}

/// What a vehicle or game code writes each step, plus the contact the sweep found.
///
/// Torques are clamped to ±[`MAX_VALUE`]; brake, drivetrain inertia and friction to
/// ≥ 0; a non-finite value is replaced by 0 and flagged in
/// [`StepOutput::rejected_input`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StepInput {
    /// Drive torque (N·m), signed; positive drives forward.
    pub drive_torque: f32,
    /// Brake torque (N·m), ≥ 0. It slows the wheel towards zero and never reverses it.
    pub brake_torque: f32,
    /// Inertia of the drivetrain behind this wheel (kg·m²), ≥ 0, added to the wheel's.
    pub drivetrain_inertia: f32,
    /// Friction torque of the drivetrain (N·m), ≥ 0; acts like a brake.
    pub drivetrain_friction_torque: f32,
    /// Anti-roll bar force (N), signed; added to the suspension force.
    pub anti_roll_force: f32,
    /// The ground contact, or `None` when the sweep found nothing.
    pub contact: Option<Contact>,
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
}

/// Converts to f32, clamped to ±[`MAX_VALUE`] so that no output overflows.
#[inline]
fn out32(v: f64) -> f32 {
    v.clamp(-(MAX_VALUE as f64), MAX_VALUE as f64) as f32
}

/// The step sizes [`step`] accepts (s); others clamp into this range.
pub const DT_RANGE: core::ops::RangeInclusive<f32> = 1.0e-6..=1.0;

#[inline]
fn finite_or_zero(v: f32, rejected: &mut bool) -> f64 {
    if v.is_finite() {
        v.clamp(-MAX_VALUE, MAX_VALUE) as f64
    } else {
        *rejected = true;
        0.0
    }
}

/// The standalone (explicit) suspension of one wheel from its contact alone (see
/// `docs/wheel-model.md` 2a): (spring, damper, bump stop, load, tyre load), N.
fn explicit_suspension(
    settings: &WheelSettings,
    c: &Contact,
    compression: f64,
    speed: f64,
    anti_roll: f64,
    dt64: f64,
) -> (f64, f64, f64, f64, f64) {
    let length = settings.suspension_length() as f64;
    let spring = compression * settings.suspension_spring() as f64;
    let damping = if speed > 0.0 {
        settings.suspension_bump()
    } else {
        settings.suspension_rebound()
    };
    let damper = speed * damping as f64;
    // Bump stop, speculative: act in the step that would carry the compression past full
    // travel, not the step after.
    let overshoot = compression - length;
    let allowed_speed = if overshoot > 0.0 {
        -BUMP_STOP_BAUMGARTE * overshoot / dt64
    } else {
        -overshoot / dt64
    };
    let stop_speed = if c.suspension_mass > 0.0 {
        (c.approach_speed as f64).clamp(-(MAX_VALUE as f64), MAX_VALUE as f64)
    } else {
        speed
    };
    let bump_stop = if stop_speed > allowed_speed {
        // Unknown mass: assume the corner carries what the spring holds at full
        // compression, k·length/g; springs are sized not to bottom out at rest.
        let m = match c.suspension_mass {
            m if m > 0.0 => m as f64,
            _ => (settings.suspension_spring() as f64 * length / 9.81).max(1.0),
        };
        // A velocity-level contact, stable at any dt: together with the spring and damper,
        // bring the compression speed down to what reaches full travel at the end of this
        // step (past it: push out a fraction of the overshoot).
        let needed = m * (stop_speed - allowed_speed) / dt64;
        (needed - spring - damper).max(0.0)
    } else {
        0.0
    };
    let load = (spring + damper + bump_stop + anti_roll).clamp(0.0, MAX_VALUE as f64);
    // The tyre grips with the suspension's load, not with the bump stop's impulse: that
    // force exists to stop the travel within a step and can be many times the weight, and
    // friction that strong, explicit in the chassis velocity, would throw the body
    // (measured: a 3 m drop onto bumps flipped the car).
    (spring, damper, bump_stop, load, (load - bump_stop).max(0.0))
}

/// Advances one wheel by `dt` seconds and returns its forces and outputs.
///
/// The order is Unity WheelCollider2's (see `docs/wheel-model.md`, "One step"): bump and compression,
/// suspension with the bump stop, slips, an implicit wheel-spin solve with the tyre
/// force, brake, drivetrain friction and rolling resistance (see [`crate::spin`]), and
/// the final tyre forces at the new spin, and static friction at low speed.
///
/// **Static friction.** A slip model alone cannot hold a car on a slope: at rest it is a
/// viscous force, so the car creeps at the speed where the damping balances gravity
/// (≈ 7 cm/s on 10°). When the contact carries the chassis' effective masses
/// ([`Contact::forward_mass`], [`Contact::sideways_mass`]) and the ground speed is below
/// [`STICK_SPEED`], the patch sticks: a force that cancels its velocity within the step
/// and pulls back [`STICK_BAUMGARTE`] of its displacement from where it stuck, bounded by
/// μ·load (and, along forward, by the brake: it acts there only while the wheel is
/// locked). It fades linearly into the slip model up to [`STICK_SPEED`]. Held, the
/// patch settles at a fixed offset `F·dt²/(m·β)` (millimetres) and does not drift. A `dt` that is not finite and positive leaves
/// the state untouched and returns zero forces; a finite one clamps into [`DT_RANGE`].
/// Every output is finite and within ±[`MAX_VALUE`] for any finite input.
///
/// # Example
/// ```
/// use wheelcollider_core::{step, Contact, StepInput, WheelSettings, StepState};
/// let settings = WheelSettings::default();
/// let mut state = StepState::default();
/// // Resting on the ground with 0.05 m of compression: d = length + radius − 0.05.
/// let contact = Contact { hit_distance: 0.35, ..Default::default() };
/// let out = step(&settings, &mut state, StepInput { contact: Some(contact), ..Default::default() }, 1.0 / 60.0);
/// assert!(out.grounded);
/// assert!((out.spring_force - 40_000.0 * 0.05).abs() < 1e-2);
/// ```
pub fn step(settings: &WheelSettings, state: &mut StepState, input: StepInput, dt: f32) -> StepOutput {
    let mut out = StepOutput {
        peak_slip: settings.peak_slip(),
        ..Default::default()
    };
    if !(dt.is_finite() && dt > 0.0) {
        out.rejected_input = true;
        out.angular_velocity = state.angular_velocity;
        out.angle = state.angle;
        return out;
    }
    let dt64 = dt.clamp(*DT_RANGE.start(), *DT_RANGE.end()) as f64;
    let mut rejected = false;
    if !state.angular_velocity.is_finite() {
        state.angular_velocity = 0.0;
        rejected = true;
    }
    if !state.compression.is_finite() {
        state.compression = 0.0;
        rejected = true;
    }
    if !state.angle.is_finite() {
        state.angle = 0.0;
        rejected = true;
    }
    if !state.slip.iter().chain(&state.patch).all(|v| v.is_finite()) {
        (state.slip, state.patch) = ([0.0; 2], [0.0; 2]);
        rejected = true;
    }
    let drive = finite_or_zero(input.drive_torque, &mut rejected);
    let brake = finite_or_zero(input.brake_torque, &mut rejected).max(0.0);
    let dt_inertia = finite_or_zero(input.drivetrain_inertia, &mut rejected).max(0.0);
    let dt_friction = finite_or_zero(input.drivetrain_friction_torque, &mut rejected).max(0.0);
    let anti_roll = finite_or_zero(input.anti_roll_force, &mut rejected);
    let contact = match input.contact {
        Some(c) if c.is_finite() => Some(c),
        Some(_) => {
            rejected = true;
            None
        }
        None => None,
    };

    let radius = settings.radius() as f64;
    let length = settings.suspension_length() as f64;
    let prev_compression = state.compression as f64;

    // --- Suspension (docs/wheel-model.md, step 2) ----------------------------------------
    let (mut vx, mut vy, mut grip, mut camber_deg) = (0.0, 0.0, 0.0, settings.camber_angle() as f64);
    let (mut forward_mass, mut sideways_mass) = (0.0, 0.0);
    let mut surface_rr = 0.0;
    let mut load = 0.0;
    let mut tyre_load = 0.0;
    let mut compression = 0.0;
    if let Some(c) = contact {
        out.grounded = true;
        let bump = perlin_bump(c.hit_x, c.hit_z, settings.bump_period(), settings.bump_amplitude())
            + (c.surface_bump as f64).clamp(-1.0, 1.0);
        out.bump = out32(bump);
        let d = (c.hit_distance as f64).clamp(0.0, length + radius);
        compression = length - (d + bump - radius);
        let speed = (compression - prev_compression) / dt64;
        let (spring, damper, bump_stop, total, tyre) = match c.suspension {
            Some(s) => (
                s.spring as f64,
                s.damper as f64,
                s.bump_stop as f64,
                s.total as f64,
                s.tyre_load as f64,
            ),
            None => explicit_suspension(settings, &c, compression, speed, anti_roll, dt64),
        };
        (load, tyre_load) = (total, tyre);
        out.compression_speed = out32(speed);
        out.spring_force = out32(spring);
        out.damper_force = out32(damper);
        out.bump_stop_force = out32(bump_stop);
        vx = c.forward_velocity as f64;
        vy = c.sideways_velocity as f64;
        grip = (c.grip as f64).clamp(0.0, MAX_VALUE as f64);
        camber_deg += c.ground_camber as f64;
        forward_mass = (c.forward_mass as f64).clamp(0.0, MAX_VALUE as f64);
        sideways_mass = (c.sideways_mass as f64).clamp(0.0, MAX_VALUE as f64);
        surface_rr = (c.surface_rolling_resistance as f64).clamp(0.0, 10.0);
    }
    out.compression = out32(compression);
    out.ground_speed = out32(vx);
    out.current_suspension_length = (length - compression).clamp(0.0, length) as f32;
    out.compression_rate = out32(compression / length);
    out.load = load as f32;
    out.camber = out32(camber_deg);

    // --- Tyre and spin (steps 3–4) ----------------------------------------------------
    // Camber is a few degrees: its sine and cosine in f32 are exact to the model's
    // precision (and skipped for a wheel square to the road).
    let (camber_sin, camber_cos) = if camber_deg == 0.0 {
        (0.0, 1.0)
    } else {
        let (s, c) = (camber_deg.to_radians() as f32).sin_cos();
        (s as f64, c as f64)
    };
    // The tyre grips with the load found above (without the bump stop's landing
    // impulse). Grip is highest with the tyre square to the road, and falls with load
    // (load sensitivity); the slip stiffness follows its own load law through B.
    let load = tyre_load;
    let grip = grip * camber_cos.max(0.0) * settings.load_grip_factor(load);
    let tyre = TyreAtLoad::new(
        settings.longitudinal_tyre(),
        settings.lateral_tyre(),
        settings.load_stiffness_factor(load) as f32,
    );
    let (lon_stiffness, lat_stiffness) = (
        settings.longitudinal_tyre().stiffness() as f64 * tyre.b_scale as f64,
        settings.lateral_tyre().stiffness() as f64 * tyre.b_scale as f64,
    );
    // Camber thrust enters as an equivalent lateral slip so that it shares the friction
    // ellipse: `camber_thrust · sin γ · load` in the linear range.
    let camber_slip = if lat_stiffness > 0.0 {
        settings.camber_thrust() as f64 * camber_sin / lat_stiffness
    } else {
        0.0
    };
    // Slips, and the lag with rolled distance that a relaxation length puts on them.
    let scale = grip * load;
    let lag_x = SlipLag::new(
        settings.longitudinal_relaxation_length(),
        vx,
        lon_stiffness * scale,
        forward_mass,
        dt64,
    );
    let lag_y = SlipLag::new(
        settings.lateral_relaxation_length(),
        vx,
        lat_stiffness * scale,
        sideways_mass,
        dt64,
    );
    let [kappa_0, sigma_0] = if out.grounded {
        state.slip.map(|v| v as f64)
    } else {
        [0.0; 2]
    };
    let sigma = lag_y.follow(sigma_0, vy * lag_y.inv_den + camber_slip);
    let kappa_at = |w: f64| lag_x.follow(kappa_0, (w * radius - vx) * lag_x.inv_den);
    let dkappa_dw = lag_x.weight * radius * lag_x.inv_den;
    let inertia = settings.inertia() as f64 + dt_inertia;
    let rolling_torque = (settings.rolling_resistance() as f64 + surface_rr) * load * radius;
    let coulomb = brake + dt_friction + rolling_torque;
    let (max_fx, max_fy) = (
        settings.longitudinal_tyre().d() as f64 * scale,
        settings.lateral_tyre().d() as f64 * scale,
    );
    out.max_friction_force = out32(settings.longitudinal_tyre().peak_value() as f64 * scale);
    out.peak_slip = out32(tyre.peak_x);
    out.lateral_peak_slip = out32(tyre.peak_y);
    // The solver's last evaluation is usually at its answer: keep it for the forces. A
    // Newton step of at most 0.2 % of the peak slip is taken unverified (see
    // `spin`): the forces are then that evaluation carried along its slope.
    let last = core::cell::Cell::new((f64::NAN, crate::tyre::TyreForces::default()));
    let accept = UNVERIFIED_SLIP_STEP * tyre.peak_x / dkappa_dw.abs();
    let omega = solve_spin(
        inertia / dt64,
        state.angular_velocity as f64,
        drive,
        coulomb,
        radius,
        max_fx,
        accept,
        |w| {
            let t = combined(&tyre, load, grip, kappa_at(w), sigma);
            last.set((w, t));
            (t.fx, t.dfx_dkappa * dkappa_dw)
        },
    )
    .clamp(-MAX_ANGULAR_VELOCITY as f64, MAX_ANGULAR_VELOCITY as f64);

    let kappa = kappa_at(omega);
    let forces = match last.get() {
        (w, t) if w == omega => t,
        (w, t) if (omega - w).abs() <= accept => t.carried_to(&tyre, kappa_at(w), kappa, sigma),
        _ => combined(&tyre, load, grip, kappa, sigma),
    };
    let (mut fx, mut fy) = (forces.fx, forces.fy);
    // Low-speed damping of the lateral deflection (see `SlipLag::new`), within friction.
    fy = (fy - lag_y.damping * vy).clamp(-max_fy, max_fy);
    state.slip = if out.grounded {
        [out32(kappa), out32(sigma)]
    } else {
        [0.0; 2]
    };

    // --- Static friction at low speed ---------------------------------------------------
    let ground_speed = (vx * vx + vy * vy).sqrt();
    let stick = if out.grounded && sideways_mass > 0.0 && forward_mass > 0.0 {
        (1.0 - ground_speed / STICK_SPEED as f64).clamp(0.0, 1.0)
    } else {
        0.0
    };
    if stick > 0.0 {
        // The patch holds to the ground like a velocity-level contact with a Baumgarte
        // anchor: cancel the patch velocity in this step and pull back a fraction of
        // its displacement. Along forward only while the wheel is locked (a rolling
        // wheel's patch does not slide); there the brake's torque bounds the force.
        let locked = omega == 0.0;
        // A rolling tyre's patch renews itself: the sideways anchor is forgotten over
        // STICK_ROLL_LENGTH of rolled distance, so a wheel with toe rolling at a crawl
        // does not wind up an ever-growing force against its partner.
        let keep = (-(omega * radius).abs() * dt64 / STICK_ROLL_LENGTH).exp();
        let mut patch = [
            if locked { state.patch[0] as f64 + vx * dt64 } else { 0.0 },
            state.patch[1] as f64 * keep + vy * dt64,
        ];
        let mut fx_s = if locked {
            let f = -forward_mass * (vx + STICK_BAUMGARTE * patch[0] / dt64) / dt64;
            f.clamp((drive - coulomb) / radius, (drive + coulomb) / radius)
        } else {
            0.0
        };
        let mut fy_s = -sideways_mass * (vy + STICK_BAUMGARTE * patch[1] / dt64) / dt64;
        // Within the friction ellipse: |(fx / Dx, fy / Dy)| ≤ grip · load.
        let ellipse = (fx_s / max_fx.max(1e-9)).hypot(fy_s / max_fy.max(1e-9));
        if ellipse > 1.0 {
            // Sliding: the force saturates at μ·load and the anchor lets go.
            fx_s /= ellipse;
            fy_s /= ellipse;
            patch = [0.0, 0.0];
        }
        if locked {
            fx = stick * fx_s + (1.0 - stick) * fx;
        }
        fy = stick * fy_s + (1.0 - stick) * fy;
        state.patch = [out32(patch[0]), out32(patch[1])];
    } else {
        state.patch = [0.0, 0.0];
    }
    // Self-aligning torque: the lateral force acts a pneumatic trail behind the contact
    // centre; the trail shrinks linearly to 0 at the lateral peak slip.
    let trail = settings.pneumatic_trail() as f64 * (1.0 - (sigma / tyre.peak_y).abs()).max(0.0);
    out.aligning_torque = out32(trail * fy);
    // In the air there is no ground to slip on: both read 0 (a spinning wheel in the air
    // read ω·r / floor, 3.2 for a kart at 120 km/h, which plots took for wheelspin).
    if out.grounded {
        out.forward_slip = out32((omega * radius - vx) * lag_x.inv_den);
        out.sideways_slip = out32(vy * lag_y.inv_den);
    }
    out.transient_forward_slip = out32(kappa);
    out.transient_sideways_slip = out32(sigma);
    out.slip_magnitude = out32(((kappa * kappa + sigma * sigma) as f32).sqrt() as f64);
    out.normalized_slip = out32(forces.normalized);
    out.friction = if load > 0.0 {
        out32((forces.fx * forces.fx + forces.fy * forces.fy).sqrt() / load)
    } else {
        0.0
    };
    out.forward_force = out32(fx);
    out.sideways_force = out32(fy);
    out.static_friction = stick as f32;
    out.rolling_resistance_force = if omega != 0.0 {
        out32(rolling_torque / radius)
    } else {
        0.0
    };

    // --- State (step 7) ---------------------------------------------------------------
    state.angular_velocity = omega as f32;
    // Wrap into [0, 2π) with a floor instead of `rem_euclid` (libm's `fmod`, slow): the
    // same result for the angles one step can reach.
    let angle = state.angle as f64 + omega * dt64;
    let tau = core::f64::consts::TAU;
    state.angle = (angle - (angle / tau).floor() * tau) as f32;
    if !(0.0..core::f32::consts::TAU).contains(&state.angle) {
        state.angle = 0.0;
    }
    state.compression = out32(compression);
    out.angular_velocity = state.angular_velocity;
    out.rpm = state.angular_velocity * RAD_PER_S_TO_RPM;
    out.angle = state.angle;
    out.rejected_input = rejected;
    out
}
