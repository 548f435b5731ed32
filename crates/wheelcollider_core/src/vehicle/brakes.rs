//! Brakes and the driver aids: service brakes with their front / rear split, the
//! handbrake, ABS and traction control.
//!
//! Both aids work on the tyre's **longitudinal budget**: the most longitudinal force
//! it can give under its present lateral slip (the friction ellipse of the combined
//! slip, [`TyreCurve::longitudinal_budget`]), at its present load and grip. ABS caps
//! each wheel's brake torque at that force × radius; traction control caps the drive
//! torque at what the driven tyres can take plus what the rotating parts need to keep
//! up with the car. Caps, not switches: a wheel is held at its budget instead of being
//! let go and grabbed again. Each aid also watches the slip and backs off in proportion
//! past the peak; ABS measures a lock against the wheel's ground speed with a floor of
//! [`LOCK_SPEED_FLOOR`], so that it sees one at walking pace.

use super::{DifferentialKind, VehicleSettings, VehicleState, WheelFeedback};
use crate::tyre::TyreCurve;

/// ABS holds each braked wheel at this fraction of its budget.
pub const ABS_PEAK_FRACTION: f32 = 0.97;
/// Traction control lets each driven wheel use this fraction of its budget (a little
/// more than ABS: a driven wheel past its peak spins up where a braked one locks).
pub const TRACTION_PEAK_FRACTION: f32 = 0.985;
/// Below this speed (m/s) ABS is off, as in real cars (about 4 km/h): the wheels may
/// lock to stop.
pub const ABS_MIN_SPEED: f32 = 1.0;
/// Floor (m/s) of the ground speed ABS measures a lock against: a wheel locked at
/// 1 m/s reads a slip of −1.
pub const LOCK_SPEED_FLOOR: f32 = 0.5;
/// ABS lets a wheel go entirely when it turns this much slower than the ground
/// (measured slip; −1 is locked), whatever the tyre's curve says.
pub const LOCK_SLIP: f32 = 0.8;

/// Service brakes, handbrake and the driver aids.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default, deny_unknown_fields))]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct BrakeSettings {
    /// Brake torque of the whole car at full pedal (N·m), ≥ 0, shared by the axles.
    pub max_torque: f32,
    /// Share of `max_torque` on the first (front) axle, 0..=1; the rest is shared
    /// equally by the other axles.
    pub front_bias: f32,
    /// Handbrake torque per wheel on the axles marked `handbrake` (N·m), ≥ 0.
    pub handbrake_torque: f32,
    /// Anti-lock brakes: keep each braked wheel just short of its peak slip (above
    /// [`ABS_MIN_SPEED`], 1 m/s). Off by default.
    pub abs: bool,
    /// Traction control: hold the drive torque at what the driven tyres can react
    /// (their longitudinal budget under their present lateral slip) so that they stay
    /// near their peak slip. Off by default.
    pub traction_control: bool,
    /// While the handbrake is pulled, the handbraked axles get no drive: the clutch
    /// opens when every driven axle is handbraked (a rear-driven car), otherwise the
    /// centre coupling opens and the other axles take the drive (a rally car's
    /// hydraulic handbrake). Off by default: the handbrake fights the engine.
    pub handbrake_disconnects_drive: bool,
    /// ABS holds the handbrake too, as the service brakes (with [`abs`](Self::abs) on):
    /// a motorcycle's rear pedal, a service brake on a control of its own. Off by
    /// default: a car's handbrake locks the wheels it holds, as it is there to.
    pub handbrake_abs: bool,
}

impl Default for BrakeSettings {
    fn default() -> Self {
        Self {
            max_torque: 8000.0,
            front_bias: 0.65,
            handbrake_torque: 2500.0,
            abs: false,
            traction_control: false,
            handbrake_disconnects_drive: false,
            handbrake_abs: false,
        }
    }
}

/// The slip of wheel `w` against its ground speed, with the floor
/// [`LOCK_SPEED_FLOOR`]: −1 for a locked wheel at any speed above the floor.
pub(crate) fn measured_slip(w: &WheelFeedback) -> f32 {
    let v = w.ground_speed;
    (w.angular_velocity * w.radius - v) / v.abs().max(LOCK_SPEED_FLOOR)
}

/// Wheel `w`'s longitudinal budget on its axle's longitudinal `curve`: the tyre's slip
/// (its own κ, as in [`WheelFeedback::forward_slip`]) where the force along the wheel
/// is largest under the present lateral slip, and that force (N; 0 in the air).
pub(crate) fn budget(w: &WheelFeedback, curve: &TyreCurve) -> (f32, f32) {
    if !w.grounded {
        return (w.peak_slip, 0.0);
    }
    let lateral = if w.lateral_peak_slip > 0.0 {
        w.sideways_slip / w.lateral_peak_slip
    } else {
        0.0
    };
    let (k, fraction) = curve.longitudinal_budget(lateral);
    (k * w.peak_slip, fraction * w.max_friction_force)
}

/// What the driver aids need to know of the rest of the car for one axle's brakes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Aids {
    /// Handbrake input, 0..=1.
    pub handbrake: f32,
    /// ABS is on and active: the car's deceleration at every tyre's budget (m/s²).
    pub abs: Option<f32>,
    /// Drivetrain inertia each wheel of the axle carried last step (kg·m²).
    pub carried: f32,
    /// Yaw stability's brake torque on the left and right wheel (N·m, ≥ 0), added to
    /// the service brake's before ABS.
    pub stability: [f32; 2],
}

/// The deceleration (m/s², ≥ 0) the car gets with every tyre at its budget: what ABS
/// brakes the wheels' rotating inertia down with.
pub(crate) fn budget_deceleration(
    settings: &VehicleSettings,
    n_axles: usize,
    wheel: impl Fn(usize) -> WheelFeedback,
) -> f32 {
    let force: f32 = (0..2 * n_axles)
        .filter(|&i| settings.has_wheel(i))
        .map(|i| budget(&wheel(i), settings.axles[i / 2].wheel.longitudinal_tyre()).1)
        .sum();
    ABS_PEAK_FRACTION * force / settings.chassis.mass.max(1.0)
}

/// ABS on one wheel: the service brake torque `service` (N·m) capped at the wheel's
/// budget × radius plus the torque that slows its rotating inertia (its own and the
/// drivetrain's it carries, `inertia`) with the car (`decel`, m/s²), released in
/// proportion as the wheel's slip passes 1.2× the budget's slip (fully at 2.2×), and
/// released outright when the wheel is nearly locked ([`LOCK_SLIP`], measured at
/// walking pace).
fn abs_cap(service: f32, w: &WheelFeedback, curve: &TyreCurve, inertia: f32, decel: f32) -> f32 {
    if !w.grounded {
        return service;
    }
    let (target, force) = budget(w, curve);
    let dir = if w.ground_speed >= 0.0 { 1.0 } else { -1.0 };
    if -measured_slip(w) * dir > LOCK_SLIP {
        return 0.0;
    }
    let slip = -w.forward_slip * dir;
    let target = target.max(1e-3);
    let release = ((slip - 1.2 * target) / target).clamp(0.0, 1.0);
    let cap = ABS_PEAK_FRACTION * w.radius * force + inertia * decel / w.radius.max(0.01);
    service.min(cap * (1.0 - release))
}

/// Brake torque (N·m, ≥ 0 before the caller's clamp) of each wheel of `axle`: its share
/// of the service brake at pedal `brake` (half the axle's; all of it on a
/// [`single`](super::AxleSettings::single) axle, whose right entry is then unused) plus
/// yaw stability's, limited by ABS, plus the handbrake's (limited with them under
/// [`BrakeSettings::handbrake_abs`]).
pub(crate) fn axle_brake_torques(
    settings: &VehicleSettings,
    axle: usize,
    brake: f32,
    aids: Aids,
    wheels: [WheelFeedback; 2],
) -> [f32; 2] {
    let per_wheel = 1.0 / settings.axles[axle].wheel_count() as f32;
    let service = settings.brakes.max_torque * settings.brake_share(axle) * per_wheel * brake;
    let hand = if settings.axles[axle].handbrake {
        settings.brakes.handbrake_torque * aids.handbrake
    } else {
        0.0
    };
    let curve = settings.axles[axle].wheel.longitudinal_tyre();
    // The handbrake under ABS (a motorcycle's rear pedal) joins the torque ABS caps.
    let (held, free) = if settings.brakes.handbrake_abs {
        (hand, 0.0)
    } else {
        (0.0, hand)
    };
    let [wl, wr] = wheels;
    [(wl, aids.stability[0]), (wr, aids.stability[1])].map(|(w, stability)| {
        let service = service + stability + held;
        let service = match aids.abs {
            Some(decel) if service > 0.0 => abs_cap(service, &w, curve, w.inertia + aids.carried, decel),
            _ => service,
        };
        service + free
    })
}

/// The budgets `b` of a driven axle's two wheels at the load they will have once the
/// axle's drive force rises to what the budgets give: the drive's pitch moment takes
/// `k` (N per N, per wheel) off an axle ahead of the centre of mass, and it arrives
/// within a pitch period, faster than the feedback's last-step load at a coarse step
/// (`the_launch_does_not_depend_on_the_step`). With `μ_i = b_i / N_i` and the axle's
/// force `A` from `A_prev` (its
/// tyres' force last step): `A = Σ μ_i·(N_i − k·(A − A_prev))`, solved for `A`; a
/// falling force gives no load back (the cap does not rise ahead of the load).
fn anticipated(pair: &[WheelFeedback; 2], budgets: [f32; 2], dir: f32, k: f32) -> [f32; 2] {
    let mu = [0, 1].map(|i| {
        if pair[i].grounded && pair[i].load > 0.0 {
            budgets[i] / pair[i].load
        } else {
            0.0
        }
    });
    let before: f32 = pair
        .iter()
        .map(|w| {
            if w.radius > 0.0 {
                w.tyre_torque / w.radius * dir
            } else {
                0.0
            }
        })
        .sum();
    let total = budgets[0] + budgets[1];
    let rise = ((total - before) / (1.0 + k * (mu[0] + mu[1]))).max(0.0);
    [0, 1].map(|i| (budgets[i] - mu[i] * k * rise).max(0.0))
}

/// Traction control: the most drive torque at the gearbox output (N·m, ≥ 0) that the
/// driven tyres can take, or `None` when it is off.
///
/// Each grounded driven wheel can react [`TRACTION_PEAK_FRACTION`] of its budget × radius;
/// an open axle differential passes twice its weaker wheel's, a limited-slip one
/// `(2·weaker + preload)/(1 − locking)` (its torque difference within capacity) up to
/// the sum, a locked one the sum;
/// an open centre differential is limited by the axle that runs out first for its
/// share, a locking one passes the sum. On top comes the torque the rotating parts
/// need to keep up with the car accelerating at what the tyres give
/// (`(ΣJ_wheels + reflected) · a / r`, `a = Σ budget / mass`). An axle the drive
/// unloads has its budgets read at the load it will have ([`anticipated`]). The trim
/// `state.traction_factor` falls (4 /s per unit of excess) while a driven wheel's slip
/// still passes 1.5× its budget's slip and recovers at 0.5 /s, never below 0.2.
pub(crate) fn traction_limit(
    settings: &VehicleSettings,
    state: &mut VehicleState,
    shares: &[f32],
    ratio: f32,
    reflected: f32,
    wheel: impl Fn(usize) -> WheelFeedback,
    dt: f32,
) -> Option<f32> {
    if !settings.brakes.traction_control {
        state.traction_factor = 1.0;
        return None;
    }
    let dir = ratio.signum();
    let (mut force, mut inertia, mut worst) = (0.0f32, reflected, 0.0f32);
    let (mut by_share, mut sum, mut radius) = (f32::MAX, 0.0f32, 0.0f32);
    // The load the drive's own pitch moment takes off an axle ahead of the centre of
    // mass (behind it in reverse) per newton of the axle's drive force, per wheel:
    // `h / (2L)`.
    let (height, base) = (settings.centre_of_mass_height(), settings.wheelbase());
    let transfer = if base > 0.0 {
        (height / (2.0 * base)).max(0.0)
    } else {
        0.0
    };
    for (a, &share) in shares.iter().enumerate() {
        if share <= 0.0 {
            continue;
        }
        let curve = settings.axles[a].wheel.longitudinal_tyre();
        let pair = [wheel(2 * a), wheel(2 * a + 1)];
        let mut budgets = pair.map(|w| {
            let (target, f) = budget(&w, curve);
            if w.grounded {
                worst = worst.max(w.forward_slip * dir / target.max(1e-3));
            }
            f
        });
        let unloads = (settings.axles[a].z - settings.chassis.centre_of_mass[2]) * dir < 0.0;
        if unloads && transfer > 0.0 {
            budgets = anticipated(&pair, budgets, dir, transfer);
        }
        let single = settings.axles[a].single;
        let caps = [0, 1].map(|i| {
            if single && i == 1 {
                return 0.0;
            }
            let (w, f) = (&pair[i], budgets[i]);
            force += f;
            inertia += w.inertia;
            radius = radius.max(w.radius);
            TRACTION_PEAK_FRACTION * w.radius * f
        });
        let weak = caps[0].min(caps[1]);
        let axle = match settings.axles[a].differential {
            _ if single => caps[0],
            DifferentialKind::Open => 2.0 * weak,
            // |T_strong − T_weak| ≤ preload + k·T_in with T_in = T_strong + T_weak.
            DifferentialKind::LimitedSlip { preload, locking, .. } if locking < 1.0 => {
                ((2.0 * weak + preload) / (1.0 - locking)).min(caps[0] + caps[1])
            }
            _ => caps[0] + caps[1],
        };
        by_share = by_share.min(axle / share);
        sum += axle;
    }
    let tyres = match settings.centre_differential {
        DifferentialKind::Open if by_share < f32::MAX => by_share,
        _ => sum,
    };
    let accel = TRACTION_PEAK_FRACTION * force / settings.chassis.mass.max(1.0);
    let spin_up = inertia * accel / radius.max(0.01);
    state.traction_factor = if worst > 1.5 {
        state.traction_factor - 4.0 * (worst - 1.5).min(1.0) * dt
    } else {
        state.traction_factor + 0.5 * dt
    }
    .clamp(0.2, 1.0);
    Some((tyres + spin_up) * state.traction_factor)
}
