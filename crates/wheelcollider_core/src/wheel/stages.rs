//! The stages of [`super::step`], in the order it runs them, each with its typed
//! hand-off to the next (the table in `wheel/mod.rs`). Every stage works in f64 and
//! writes its own outputs; nothing is computed twice.

use super::explicit::{SuspensionParts, explicit_suspension};
use super::spinner::Spinner;
use super::{
    Contact, STICK_BAUMGARTE, STICK_ROLL_LENGTH, STICK_SPEED, StepInput, StepOutput, StepState, Suspension,
    compression_of, out32,
};
use crate::limits::{MAX_VALUE, RAD_PER_S_TO_RPM};
use crate::math;
use crate::relaxation::{MIN_SLOPE_RATIO, SlipLag};
use crate::settings::WheelSettings;
use crate::tyre::{TyreAtLoad, TyreForces, slip_denominator};

/// What drives the wheel, sanitised (N·m, kg·m², N).
#[derive(Clone, Copy)]
pub(super) struct Torques {
    pub drive: f64,
    /// ≥ 0.
    pub brake: f64,
    /// The drivetrain's inertia behind the wheel, ≥ 0.
    pub inertia: f64,
    /// The drivetrain's friction torque, ≥ 0.
    pub friction: f64,
    /// An explicit anti-roll force (N).
    pub anti_roll: f64,
    /// The steer angle (deg), ±90; with the toe, the yaw that turns the tyre's forces
    /// into the chassis' frame for the links' slopes.
    pub steer: f64,
    /// Whether a non-finite input or state was replaced.
    pub rejected: bool,
}

/// The suspension stage's hand-off: what the ground gives the tyre.
pub(super) struct Loaded {
    pub grounded: bool,
    /// Compression (m).
    pub compression: f64,
    /// The contact's speeds over the ground (m/s).
    pub vx: f64,
    pub vy: f64,
    /// The surface's grip, ≥ 0.
    pub grip: f64,
    /// The factors on the tyre's longitudinal slip stiffness and its cornering
    /// stiffness: the surface's (in 0.01..=10) times the tyre's condition's.
    pub stiffness: [f64; 2],
    /// The static camber plus the ground's (deg).
    pub camber: f64,
    /// The chassis' effective masses at the contact (kg), ≥ 0.
    pub forward_mass: f64,
    pub sideways_mass: f64,
    /// The surface's rolling-resistance coefficient, in 0..=10.
    pub surface_rolling_resistance: f64,
    /// The tyre's condition's factors (1 without a compound) on its own rolling
    /// resistance and relaxation lengths; its grip and stiffness factors are in `grip`
    /// and `stiffness`.
    pub rolling: f64,
    pub relaxation: f64,
    /// The tyre's load (N): the suspension's, without the bump stop's impulse, with the
    /// links' jacking.
    pub load: f64,
    /// Which side of the centre of mass the contact lies, ahead and right (±1, or 0
    /// within 1 mm), and the sine and cosine of the wheel's yaw in the chassis (steer
    /// and toe): what turns the tyre's forces into the links' jacking.
    pub side: [f64; 2],
    pub yaw: (f64, f64),
    /// The load per newton of the tyre's sideways force an axial suspension takes
    /// through its tube ([`SuspensionForceDirection::load_factors`]; 0 otherwise).
    pub axial: f64,
}

/// The spin stage's hand-off: the new spin and the tyre at it.
pub(super) struct Rolled {
    /// Spin (rad/s).
    pub omega: f64,
    /// The transient slips at the new spin.
    pub kappa: f64,
    pub sigma: f64,
    /// The combined-slip tyre forces at (κ, σ).
    pub forces: TyreForces,
    /// The lateral force with the low-speed damping, within friction (N).
    pub fy: f64,
    /// Rolling resistance (N·m) and all the torques that only resist the spin (N·m).
    pub rolling_torque: f64,
    pub coulomb: f64,
    /// The brake's torque (N·m, ≥ 0): what part of a force against the travel the
    /// brake makes (the links' brake geometry), the rest coming through the drive.
    pub brake: f64,
    /// The friction ellipse's semi-axes at this load and grip (N).
    pub max_force: [f64; 2],
}

#[inline]
fn finite_or_zero(v: f32, rejected: &mut bool) -> f64 {
    if v.is_finite() {
        v.clamp(-MAX_VALUE, MAX_VALUE) as f64
    } else {
        *rejected = true;
        0.0
    }
}

/// `read_input`: the carried state and the inputs, a non-finite value replaced by 0 (and
/// flagged); the contact and its suspension, or `None` when either is not finite.
/// A punctured tyre's wheel rides lower by its compound's `rim_drop`: its contact's
/// road is that much lower (`tests/it/thermal.rs`).
#[cfg_attr(feature = "stage-table", inline(never))] // a stage of its own in `--stages`
pub(super) fn read_input(
    settings: &WheelSettings,
    state: &mut StepState,
    input: &StepInput,
) -> (Torques, Option<(Contact, Suspension)>) {
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
    if !state.jacking.is_finite() {
        state.jacking = 0.0;
        rejected = true;
    }
    let tyre = &state.tyre;
    if ![tyre.surface, tyre.carcass, tyre.gas, tyre.tread]
        .iter()
        .all(|v| v.is_finite())
    {
        // Refitted at the next condition stage.
        state.tyre = Default::default();
        rejected = true;
    }
    let drives = &input.input;
    let mut torques = Torques {
        drive: finite_or_zero(drives.drive_torque, &mut rejected),
        brake: finite_or_zero(drives.brake_torque, &mut rejected).max(0.0),
        inertia: finite_or_zero(drives.drivetrain_inertia, &mut rejected).max(0.0),
        friction: finite_or_zero(drives.drivetrain_friction_torque, &mut rejected).max(0.0),
        anti_roll: finite_or_zero(drives.anti_roll_force, &mut rejected),
        steer: finite_or_zero(drives.steer_angle, &mut rejected).clamp(-90.0, 90.0),
        rejected,
    };
    let ground = match input.contact {
        Some(mut c) if c.is_finite() && input.suspension.is_finite() => {
            // The travel reads `d + bump`: a larger bump is a road further away.
            c.surface_bump += crate::thermal::rim_drop(settings.compound(), &state.tyre, settings.radius());
            Some((c, input.suspension))
        }
        Some(_) => {
            torques.rejected = true;
            None
        }
        None => None,
    };
    (torques, ground)
}

/// `suspension`: the compression, the suspension's forces and the tyre's load, and what the
/// contact gives the tyre (speeds, grip, camber, masses). In the air: no load.
#[cfg_attr(feature = "stage-table", inline(never))] // a stage of its own in `--stages`
pub(super) fn suspension(
    settings: &WheelSettings,
    state: &StepState,
    ground: Option<(Contact, Suspension)>,
    torques: &Torques,
    dt: f64,
    out: &mut StepOutput,
) -> Loaded {
    let length = settings.suspension_length() as f64;
    let mut loaded = Loaded {
        grounded: false,
        compression: 0.0,
        vx: 0.0,
        vy: 0.0,
        grip: 0.0,
        stiffness: [1.0; 2],
        camber: settings.camber_angle() as f64,
        forward_mass: 0.0,
        sideways_mass: 0.0,
        surface_rolling_resistance: 0.0,
        rolling: 1.0,
        relaxation: 1.0,
        load: 0.0,
        side: [0.0; 2],
        yaw: (0.0, 1.0),
        axial: 0.0,
    };
    let mut load = 0.0;
    if let Some((c, suspension)) = ground {
        out.grounded = true;
        let travel = match suspension {
            Suspension::Solved { travel, .. } => travel,
            Suspension::Explicit { .. } => compression_of(settings, &c),
        };
        out.bump = out32(travel.bump);
        let compression = travel.compression;
        let speed = (compression - state.compression as f64) / dt;
        let SuspensionParts {
            spring,
            damper,
            bump_stop,
            total,
            tyre_load: tyre,
        } = match suspension {
            Suspension::Solved { force: s, .. } => SuspensionParts {
                spring: s.spring as f64,
                damper: s.damper as f64,
                bump_stop: s.bump_stop as f64,
                total: s.total as f64,
                tyre_load: s.tyre_load as f64,
            },
            Suspension::Explicit { mass, approach_speed } => explicit_suspension(
                settings,
                (compression, speed),
                (mass, approach_speed),
                torques.anti_roll,
                dt,
            ),
        };
        // An axial suspension's spring carries its force over the axis' tilt from the
        // normal (`two_wheeler::motorcycle`'s steady turn).
        let (gain, axial) = settings.suspension_force_direction().load_factors(c.ground_camber);
        let (total, tyre) = (total * gain as f64, tyre * gain as f64);
        loaded.axial = axial as f64;
        // The links' and the tube's jacking from the last step's forces, bounded by the
        // suspension's own load so that the tyre's load stays within 0 ..= twice it.
        let jacking = (state.jacking as f64).clamp(-tyre, tyre);
        (load, loaded.load) = (total + jacking, tyre + jacking);
        out.jacking_force = out32(jacking);
        out.compression_speed = out32(speed);
        out.spring_force = out32(spring);
        out.damper_force = out32(damper);
        out.bump_stop_force = out32(bump_stop);
        loaded.grounded = true;
        loaded.compression = compression;
        loaded.vx = c.forward_velocity as f64;
        loaded.vy = c.sideways_velocity as f64;
        loaded.grip = (c.grip as f64).clamp(0.0, MAX_VALUE as f64);
        if c.speed_fade > 0.0 {
            let slide = math::hypot(
                loaded.vx - state.angular_velocity as f64 * settings.radius() as f64,
                loaded.vy,
            );
            loaded.grip *= math::exp(-(c.speed_fade as f64).min(1.0) * slide);
        }
        loaded.stiffness = [(c.stiffness as f64).clamp(MIN_SURFACE_STIFFNESS, 10.0); 2];
        let (camber, toe) = settings.alignment(compression);
        loaded.camber = camber + c.ground_camber as f64;
        if settings.has_links() {
            (loaded.side, loaded.yaw) = link_frame(&c, torques.steer + toe);
        }
        loaded.forward_mass = (c.forward_mass as f64).clamp(0.0, MAX_VALUE as f64);
        loaded.sideways_mass = (c.sideways_mass as f64).clamp(0.0, MAX_VALUE as f64);
        loaded.surface_rolling_resistance = (c.surface_rolling_resistance as f64).clamp(0.0, 10.0);
    }
    out.compression = out32(loaded.compression);
    out.ground_speed = out32(loaded.vx);
    out.current_suspension_length = (length - loaded.compression).clamp(0.0, length) as f32;
    out.compression_rate = out32(loaded.compression / length);
    out.load = load as f32;
    out.camber = out32(loaded.camber);
    loaded
}

/// What the links' jacking needs of the contact: which side of the centre of mass it
/// lies, ahead and right (±1, or 0 within 1 mm), and the sine and cosine of the wheel's
/// `yaw` (deg) in the chassis.
fn link_frame(c: &Contact, yaw: f64) -> ([f64; 2], (f64, f64)) {
    let side = |v: f32| if v.abs() > 1e-3 { v.signum() as f64 } else { 0.0 };
    let (sin, cos) = math::sin_cos(yaw.clamp(-135.0, 135.0).to_radians() as f32);
    ([side(c.arm[0]), side(c.arm[1])], (sin as f64, cos as f64))
}

/// `slips`' hand-off: the tyre at this load, and the slips' lag.
pub(super) struct Slips<'a> {
    /// The curves with the load's stiffness factor, the surface's and the camber's
    /// peaks.
    pub tyre: TyreAtLoad<'a>,
    /// The grip: the surface's, the camber's (`WheelSettings::camber_grip_loss`) and the
    /// load's (load sensitivity).
    pub grip: f64,
    /// The lag of the longitudinal and the lateral slip.
    pub lag: [SlipLag; 2],
    /// The lateral slip the tyre acts at this step (the camber's equivalent slip
    /// included), and the bounded transient slip kept for the next step.
    pub sigma: f64,
    pub sigma_state: f64,
    /// The lateral deflection's rate (m/s): the contact's sideways velocity less what
    /// rolling takes up, `vy − V·(σ − σ_camber)` (`V` the slip's reference speed); 0
    /// in a steady turn at any speed, about the sideways velocity at a standstill.
    pub deflection_rate: f64,
    /// The friction ellipse's semi-axes at this load and grip (N).
    pub max_force: [f64; 2],
}

/// The grip below which a surface's grip no longer raises the curves' B (the
/// stiffness then falls with the grip, so that a grip of 0 is no force at all).
const MIN_STIFF_GRIP: f64 = 0.01;

/// The least surface stiffness factor ([`Contact::stiffness`]).
const MIN_SURFACE_STIFFNESS: f64 = 0.01;

/// How far the lateral transient slip may wind up, in multiples of its peak slip
/// (`docs/wheel-model.md` 3c; `tests/it/tyre_dynamics.rs`,
/// `a_slow_slide_does_not_wind_up`).
pub(crate) const SLIP_BOUND: f64 = 2.0;

/// `slips`: the tyre at this load, grip and camber, the slips with their relaxation
/// lag (the lateral one final, the longitudinal one a function of the spin the next
/// stage solves), and the curve's peaks into `out`.
#[cfg_attr(feature = "stage-table", inline(never))] // a stage of its own in `--stages`
pub(super) fn slips<'a>(
    settings: &'a WheelSettings,
    state: &StepState,
    loaded: &Loaded,
    dt: f64,
    out: &mut StepOutput,
) -> Slips<'a> {
    let (vx, vy, load) = (loaded.vx, loaded.vy, loaded.load);
    // Camber is a few degrees: its sine and cosine in f32 are exact to the model's
    // precision (and skipped for a wheel square to the road).
    let (camber_sin, camber_cos) = if loaded.camber == 0.0 {
        (0.0, 1.0)
    } else {
        let (s, c) = math::sin_cos(loaded.camber.to_radians() as f32);
        (s as f64, c as f64)
    };
    // The surface scales the peak (D), not the slope: B rises as the grip falls, so
    // the slip stiffness is the tyre's times the surface's own factor (3e). Load
    // sensitivity falls on both, through the load's law.
    let surface = loaded.grip.max(MIN_STIFF_GRIP);
    let (load_grip, load_stiffness) = settings.load_factors(load);
    // `1 − k·(1 − cos γ)`, written so that k = 1 gives `cos γ` to the bit.
    let camber_cos = camber_cos.max(0.0);
    let camber_grip = camber_cos + (1.0 - settings.camber_grip_loss() as f64) * (1.0 - camber_cos);
    let grip = loaded.grip * camber_grip * load_grip;
    let b_scale = loaded.stiffness.map(|k| load_stiffness * k / surface);
    let (lon, lat) = (settings.longitudinal_tyre(), settings.lateral_tyre());
    let (lon_stiffness, lat_stiffness) = (lon.stiffness() as f64 * b_scale[0], lat.stiffness() as f64 * b_scale[1]);
    // Camber thrust enters as an equivalent lateral slip so that it shares the friction
    // ellipse: `camber_thrust · sin γ · load` in the linear range.
    let camber_slip = if lat_stiffness > 0.0 {
        settings.camber_thrust() as f64 * camber_sin / lat_stiffness
    } else {
        0.0
    };
    let scale = grip * load;
    let (kappa_0, sigma_0) = if loaded.grounded {
        (state.slip[0] as f64, state.slip[1] as f64)
    } else {
        (0.0, 0.0)
    };
    // One reference speed for both slips (the spin at the step's start: the spin solve
    // keeps κ linear in the new spin).
    let surface = if loaded.grounded {
        state.angular_velocity as f64 * settings.radius() as f64
    } else {
        0.0
    };
    let den_x = slip_denominator(settings.longitudinal_relaxation_length(), false, vx, surface);
    let den_y = slip_denominator(settings.lateral_relaxation_length(), true, vx, surface);
    let kinematic = vy / den_y + camber_slip;
    // σ > 0 makes a force towards −sideways, where a wheel with γ > 0 leans (3f): the
    // side of the slip the force acts at, the carried one with a relaxation length.
    let side = if settings.lateral_relaxation_length() > 0.0 {
        sigma_0
    } else {
        kinematic
    };
    let into = if side == 0.0 {
        0.0
    } else {
        loaded.camber * side.signum()
    };
    let mut tyre = TyreAtLoad::new(lon, lat, b_scale.map(|b| b as f32), settings.camber_peak_factor(into));
    tyre.den_ratio = den_x / den_y;
    // The curve's slope only shortens a relaxation length: without one, not needed.
    let relaxed = settings.longitudinal_relaxation_length() > 0.0 || settings.lateral_relaxation_length() > 0.0;
    let [slope_x, slope_y] = if relaxed {
        tyre.slope_ratios(kappa_0, sigma_0, MIN_SLOPE_RATIO)
    } else {
        [1.0; 2]
    };
    let lag_x = SlipLag::new(
        settings.longitudinal_relaxation_length() * loaded.relaxation as f32,
        den_x,
        lon_stiffness * scale,
        loaded.forward_mass,
        dt,
        slope_x,
    );
    let lag_y = SlipLag::new(
        settings.lateral_relaxation_length() * loaded.relaxation as f32,
        den_y,
        lat_stiffness * scale,
        loaded.sideways_mass,
        dt,
        slope_y,
    );
    let lagged = lag_y.follow(sigma_0, kinematic);
    let (sigma, sigma_state) = if lag_y.weight < 1.0 {
        bounded(lagged, kinematic, SLIP_BOUND * tyre.peak_y)
    } else {
        (lagged, lagged)
    };
    out.max_friction_force = out32(lon.peak_value() as f64 * scale);
    out.peak_slip = out32(tyre.peak_x);
    out.lateral_peak_slip = out32(tyre.peak_y);
    Slips {
        tyre,
        grip,
        lag: [lag_x, lag_y],
        sigma,
        sigma_state,
        deflection_rate: vy - den_y * (sigma - camber_slip),
        max_force: [
            lon.max_value() as f64 * scale,
            lat.max_value() as f64 * scale * tyre.lateral_peak,
        ],
    }
}

/// A transient slip `lagged` bounded to `±bound` (the state kept), and the slip the
/// tyre acts at: the bounded state, stretched by `|kinematic| / bound` while the
/// kinematic slip lies beyond the bound on the same side, so that a steady slide still
/// reads its kinematic slip. The deflection a slide winds up stays within the bound
/// and unwinds over a fraction of a relaxation length when the slide turns (the
/// relaxation length shortening towards full sliding, Pacejka ch. 7).
fn bounded(lagged: f64, kinematic: f64, bound: f64) -> (f64, f64) {
    if bound.is_nan() || bound <= 0.0 {
        return (lagged, lagged);
    }
    let state = lagged.clamp(-bound, bound);
    let stretch = if kinematic * state > 0.0 {
        (kinematic.abs() / bound).max(1.0)
    } else {
        1.0
    };
    (state * stretch, state)
}

/// `spin`: the spin solved implicitly with the tyre's force (see [`crate::spin`]), or
/// `given` by a driveline solve; the tyre's forces at the new spin, the lateral force's
/// low-speed damping; the transient slips are kept in `state`.
#[cfg_attr(feature = "stage-table", inline(never))] // a stage of its own in `--stages`
pub(super) fn spin(
    state: &mut StepState,
    loaded: &Loaded,
    slips: &Slips,
    spinner: &Spinner,
    given: Option<(f64, f64)>,
) -> Rolled {
    let omega = match given {
        Some((w, _)) => w,
        None => spinner.solve(slips, spinner.drive, 0.0),
    };
    let kappa = spinner.kappa_at(slips, omega);
    let forces = spinner.forces(slips, omega);
    // The lag reads its denominator at the step's start spin (so κ stays linear in the
    // new spin); where the spin ran up within the step the lagged slip passes the
    // kinematic one at the new spin (`|ω'·r|` now the denominator): a lag never passes
    // its target, so it stops there. The force is read past the peak there (wheelspin
    // onset, a lock), where the curve is flat. `tests/it/vehicle/slip.rs`.
    let kappa = spinner.within_kinematic(kappa, omega);
    let max_force = slips.max_force;
    // Low-speed damping of the lateral deflection's rate (see `SlipLag::new`), within
    // friction: it damps the transient and leaves a steady turn's force to the curve.
    let fy = (forces.fy - slips.lag[1].damping * slips.deflection_rate).clamp(-max_force[1], max_force[1]);
    state.slip = if loaded.grounded {
        [out32(kappa), out32(slips.sigma_state)]
    } else {
        [0.0; 2]
    };
    Rolled {
        omega,
        kappa,
        sigma: slips.sigma,
        forces,
        fy,
        rolling_torque: spinner.rolling_torque,
        coulomb: spinner.coulomb,
        brake: spinner.brake,
        max_force,
    }
}

/// The patch's forces after static friction (`static_friction`), for the outputs (`write_output`).
#[derive(Clone, Copy, Debug)]
pub(super) struct PatchForce {
    /// Forward force (N).
    pub fx: f64,
    /// Sideways force (N).
    pub fy: f64,
    /// How much the patch sticks, 0 ..= 1.
    pub stick: f64,
}

/// `static_friction`: static friction below [`STICK_SPEED`], blended into the slip model's forces.
/// Keeps the patch's anchor in `state`.
#[cfg_attr(feature = "stage-table", inline(never))] // a stage of its own in `--stages`
pub(super) fn static_friction(
    settings: &WheelSettings,
    state: &mut StepState,
    loaded: &Loaded,
    rolled: &Rolled,
    torques: &Torques,
    dt: f64,
) -> PatchForce {
    let (vx, vy, omega) = (loaded.vx, loaded.vy, rolled.omega);
    let (mut fx, mut fy) = (rolled.forces.fx, rolled.fy);
    let ground_speed = (vx * vx + vy * vy).sqrt();
    let stick = if loaded.grounded && loaded.sideways_mass > 0.0 && loaded.forward_mass > 0.0 {
        (1.0 - ground_speed / STICK_SPEED as f64).clamp(0.0, 1.0)
    } else {
        0.0
    };
    if stick <= 0.0 {
        state.patch = [0.0, 0.0];
        return PatchForce { fx, fy, stick };
    }
    let radius = settings.radius() as f64;
    // The patch holds to the ground like a velocity-level contact with a Baumgarte
    // anchor: cancel the patch velocity in this step and pull back a fraction of its
    // displacement. Along forward only while the wheel is locked (a rolling wheel's
    // patch does not slide); there the brake's torque bounds the force.
    let locked = omega == 0.0;
    // A rolling tyre's patch renews itself: the sideways anchor is forgotten over
    // STICK_ROLL_LENGTH of rolled distance, so a wheel with toe rolling at a crawl does
    // not wind up an ever-growing force against its partner.
    let keep = math::exp(-(omega * radius).abs() * dt / STICK_ROLL_LENGTH);
    let mut patch = [
        if locked { state.patch[0] as f64 + vx * dt } else { 0.0 },
        state.patch[1] as f64 * keep + vy * dt,
    ];
    let (drive, coulomb) = (torques.drive, rolled.coulomb);
    let mut fx_s = if locked {
        let f = -loaded.forward_mass * (vx + STICK_BAUMGARTE * patch[0] / dt) / dt;
        f.clamp((drive - coulomb) / radius, (drive + coulomb) / radius)
    } else {
        0.0
    };
    let mut fy_s = -loaded.sideways_mass * (vy + STICK_BAUMGARTE * patch[1] / dt) / dt;
    // Within the friction ellipse: |(fx / Dx, fy / Dy)| ≤ grip · load.
    let [max_fx, max_fy] = rolled.max_force;
    let ellipse = math::hypot(fx_s / max_fx.max(1e-9), fy_s / max_fy.max(1e-9));
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
    PatchForce { fx, fy, stick }
}

/// `write_output`: the outputs (slips, forces, aligning torque, spin) and the state the next
/// step reads (spin, angle, compression).
#[cfg_attr(feature = "stage-table", inline(never))] // a stage of its own in `--stages`
pub(super) fn write_output(
    settings: &WheelSettings,
    state: &mut StepState,
    loaded: &Loaded,
    rolled: &Rolled,
    PatchForce { fx, fy, stick }: PatchForce,
    dt: f64,
    out: &mut StepOutput,
) {
    let radius = settings.radius() as f64;
    let (omega, kappa, sigma, forces) = (rolled.omega, rolled.kappa, rolled.sigma, rolled.forces);
    // Self-aligning torque: the lateral force acts a pneumatic trail behind the contact
    // centre (ahead of it in reverse); the trail shrinks linearly to 0 as the combined
    // slip reaches the peak (3d; `tests/it/tyre_dynamics.rs`).
    let trail = settings.pneumatic_trail() as f64 * (1.0 - forces.normalized).max(0.0);
    let heading = (loaded.vx / STICK_SPEED as f64).clamp(-1.0, 1.0);
    out.aligning_torque = out32(heading * trail * fy);
    // In the air there is no ground to slip on: both read 0.
    if loaded.grounded {
        let surface = omega * radius;
        let den = |length: f32, lateral| slip_denominator(length, lateral, loaded.vx, surface);
        out.forward_slip = out32((surface - loaded.vx) / den(settings.longitudinal_relaxation_length(), false));
        out.sideways_slip = out32(loaded.vy / den(settings.lateral_relaxation_length(), true));
    }
    out.transient_forward_slip = out32(kappa);
    out.transient_sideways_slip = out32(sigma);
    out.slip_magnitude = out32(((kappa * kappa + sigma * sigma) as f32).sqrt() as f64);
    out.normalized_slip = out32(forces.normalized);
    out.friction = if loaded.load > 0.0 {
        out32((forces.fx * forces.fx + forces.fy * forces.fy).sqrt() / loaded.load)
    } else {
        0.0
    };
    out.forward_force = out32(fx);
    out.sideways_force = out32(fy);
    out.static_friction = stick as f32;
    out.rolling_resistance_force = if omega != 0.0 {
        out32(rolled.rolling_torque / radius)
    } else {
        0.0
    };
    state.angular_velocity = omega as f32;
    // Wrap into [0, 2π) with a floor instead of `rem_euclid` (libm's `fmod`, slow): the
    // same result for the angles one step can reach.
    let angle = state.angle as f64 + omega * dt;
    let tau = core::f64::consts::TAU;
    state.angle = (angle - (angle / tau).floor() * tau) as f32;
    if !(0.0..core::f32::consts::TAU).contains(&state.angle) {
        state.angle = 0.0;
    }
    state.compression = out32(loaded.compression);
    // The links follow the forces through their bushings' lag (`LINK_LAG`), its exact
    // first-order response over the step (the same time constant at every rate). In
    // the air they carry nothing, at once.
    let follow = -math::exp_m1(-dt / LINK_LAG);
    state.jacking = match loaded.grounded {
        true => {
            out32(state.jacking as f64 + follow * (jacking(settings, loaded, rolled, fx, fy) - state.jacking as f64))
        }
        false => 0.0,
    };
    out.angular_velocity = state.angular_velocity;
    out.rpm = state.angular_velocity * RAD_PER_S_TO_RPM;
    out.angle = state.angle;
}

/// The time constant (s) of the first-order lag with which the links' jacking follows
/// the tyre's forces: the compliance of their bushings. The jacking is read from the
/// last step's forces, so it must not follow them within one step (it would close a
/// loop through the load). Guarded by `world::crashes::a_car_dropped_on_another_car_rests_on_it`
/// and `driving_off_a_ledge_at_an_angle_only_loses_energy`.
pub(crate) const LINK_LAG: f64 = 0.02;

/// The vertical force (N, positive lifting the body) the links carry from a grounded
/// tyre's forces `fx`, `fy` (the wheel's forward and sideways), with an axial
/// suspension's tube's (`fy` times the axis' tilt's tangent): each force turned into the
/// chassis' frame, times its slope, upwards when it pushes towards the centre of mass
/// (`WheelSettings::roll_centre_slope`; `docs/vehicle.md`, "Geometry"). The
/// longitudinal force takes the brake's slope for the part the brake makes (a force
/// against the spin up to the brake's torque over the radius, reacted at the
/// upright) and the drive's for the rest (the drive and engine braking, reacted
/// through the drive shafts), so coasting jacks like driving and the choice does not
/// flip at a standstill (`tests/it/vehicle/geometry.rs`,
/// `engine_braking_jacks_through_the_drive_geometry`).
fn jacking(settings: &WheelSettings, loaded: &Loaded, rolled: &Rolled, fx: f64, fy: f64) -> f64 {
    // An axial suspension's tube: the tyre's force across the tilted axis changes the
    // ground's load, `−F_t·a / (a·n)` (`SuspensionForceDirection::Axial`).
    let tube = fy * loaded.axial;
    if !settings.has_links() {
        return tube;
    }
    let (sin, cos) = loaded.yaw;
    // The brake's force opposes the spin; a locked wheel's, whichever way it holds.
    let braked = if rolled.omega == 0.0 || fx * rolled.omega < 0.0 {
        (rolled.brake / settings.radius() as f64).min(fx.abs())
    } else {
        0.0
    };
    let brake = braked.copysign(fx);
    // The forces in the chassis' frame: ahead by the brake, ahead by the rest, right.
    let ahead = [brake * cos, (fx - brake) * cos + fy * sin];
    let right = fy * cos - fx * sin;
    let pitch = ahead[0] * settings.brake_pitch_slope() as f64 + ahead[1] * settings.drive_pitch_slope() as f64;
    tube - (loaded.side[0] * pitch + loaded.side[1] * right * settings.roll_centre_slope() as f64)
}
