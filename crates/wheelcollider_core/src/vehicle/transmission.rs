//! Clutch and gearbox: their settings, the gear selection (manual requests, the
//! automatic's shift points, auto-reverse), the shift itself, and the clutch as a
//! friction coupling between the engine and the gearbox input.
//!
//! The clutch is solved as a velocity constraint, the way a contact solver treats
//! friction: the torque that brings the engine and the gearbox input to one speed at
//! the end of the step, `T = Δω_predicted / (dt·(1/J_e + r²·η/J_driven))`, clamped to
//! its capacity (`max_torque × engagement`). Below capacity it locks; above, it slips
//! with the capacity's torque, as a dry clutch does. Nothing is accumulated from step
//! to step, so there is no integrator to ring.

use super::{DriverInput, RAD_PER_S_TO_RPM, VehicleSettings, VehicleState, WheelFeedback, finite};

/// With `auto_reverse`, how long (s) the car must stand still with the brake held before
/// reverse is selected: braking to a stop does not drive it backwards at once.
pub const AUTO_REVERSE_DELAY: f32 = 0.5;

/// In reverse, an automatic takes first gear on more throttle than this (with
/// `auto_reverse` the throttle brakes backwards) while the car backs slower than
/// [`FIRST_GEAR_BACKING`]: a driver braking a reversing car to a stand with it asks to
/// go forwards (`VehicleDriver`'s reversing keeps under it).
pub const FIRST_GEAR_THROTTLE: f32 = 0.1;

/// Backing faster than this (m/s), an automatic stays in reverse whatever the throttle.
pub const FIRST_GEAR_BACKING: f32 = 0.5;

/// An automatic kicks down one gear on at least this throttle (a foot to the floor)…
pub const KICKDOWN_THROTTLE: f32 = 0.9;

/// …when the lower gear keeps the engine under this share of `shift_up_rpm`: after it
/// upshifts again at `shift_up_rpm` the lower gear would turn the engine at the whole of
/// it, so a kicked-down car does not hunt between two gears.
pub const KICKDOWN_RPM: f32 = 0.8;

/// The clutch between engine and gearbox.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default, deny_unknown_fields))]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct ClutchSettings {
    /// Torque the fully engaged clutch transmits before it slips (N·m), ≥ 0; about 1.5×
    /// the engine's peak torque.
    pub max_torque: f32,
    /// Engage automatically with engine speed (for pulling away). Off: the input's
    /// clutch pedal decides.
    pub automatic: bool,
    /// Engine speed (rpm) at which the automatic clutch is fully engaged; it starts to
    /// bite halfway between idle and this.
    pub engage_rpm: f32,
}

impl Default for ClutchSettings {
    fn default() -> Self {
        Self {
            max_torque: 500.0,
            automatic: true,
            engage_rpm: 2000.0,
        }
    }
}

/// The gearbox and its shifting.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default, deny_unknown_fields))]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct GearboxSettings {
    /// Forward ratios, first gear first (engine turns / output turns), each > 0. At least
    /// one.
    pub forward: Vec<f32>,
    /// Reverse ratio (> 0; the sign is applied for you).
    pub reverse: f32,
    /// Final drive ratio, > 0.
    pub final_drive: f32,
    /// Fraction of the torque that reaches the wheels, in 0.5..=1.
    pub efficiency: f32,
    /// Time a shift takes (s), in 0..=2: the clutch is open and the throttle cut.
    pub shift_time: f32,
    /// Rotating inertia behind the clutch (kg·m², at the gearbox's input shaft), ≥ 0:
    /// clutch disc, input shaft and gears. In gear it is reflected to the driven
    /// wheels by the total ratio squared; 0.01–0.05 for a car.
    pub inertia: f32,
    /// Shift by itself; otherwise only on the input's gear-up / gear-down.
    pub automatic: bool,
    /// With `automatic`: stopped, the brake input selects reverse and then drives
    /// backwards (and the throttle brakes), as in most driving games. Not while the
    /// handbrake is pulled, so brake + handbrake holds the car on a hill.
    pub auto_reverse: bool,
    /// Automatic upshift above this engine speed (rpm).
    pub shift_up_rpm: f32,
    /// Automatic downshift below this engine speed (rpm).
    pub shift_down_rpm: f32,
    /// Rev-matched shifts: at the end of a shift the engine is brought to the speed
    /// the wheels give through the new gear (a blip on a downshift), so the clutch
    /// closes without a jolt; on by default (an automatic's control does it). Off, the
    /// engine meets the gearbox at whatever speed the shift left it, and the clutch
    /// closes the difference with its torque: a downshift at speed jolts the car.
    pub auto_blip: bool,
    /// The gearbox's and differentials' spin losses (N·m at each driven wheel), ≥ 0:
    /// a friction torque on the driven wheels in any gear, neutral too (0: none; a
    /// car's is some 5–15). Above 0 it is the driven wheels'
    /// `WheelInput::drivetrain_friction_torque`; at 0 the plugin leaves that field to
    /// the game.
    pub drag_torque: f32,
}

impl Default for GearboxSettings {
    fn default() -> Self {
        Self {
            forward: vec![3.6, 2.1, 1.45, 1.1, 0.88, 0.73],
            reverse: 3.4,
            final_drive: 3.6,
            efficiency: 0.9,
            shift_time: 0.25,
            inertia: 0.02,
            automatic: true,
            auto_reverse: true,
            shift_up_rpm: 6300.0,
            shift_down_rpm: 2600.0,
            auto_blip: true,
            drag_torque: 0.0,
        }
    }
}

impl GearboxSettings {
    /// Whether the pedals are swapped with `next_gear` selected: an automatic with
    /// `auto_reverse` in reverse drives on the brake pedal and brakes on the throttle.
    /// A trailer's service brakes follow the pedal that brakes
    /// (`tests/it/vehicle/reversing.rs`: a tractor backing its semitrailer up).
    pub fn swaps_pedals(&self, next_gear: i32) -> bool {
        self.automatic && self.auto_reverse && next_gear == -1
    }

    /// Ratio of `gear` times the final drive, signed (negative in reverse, 0 in neutral
    /// or for a gear the box does not have).
    pub fn total_ratio(&self, gear: i32) -> f32 {
        let r = self.gear_ratio(gear);
        (if gear < 0 { -r } else { r }) * self.final_drive
    }

    /// The ratio of `gear` alone (engine turns per output-shaft turn, the final drive
    /// left out), unsigned: the reverse ratio for −1, 0 in neutral or for a gear the box
    /// does not have.
    pub fn gear_ratio(&self, gear: i32) -> f32 {
        match gear {
            -1 => self.reverse,
            g if g >= 1 => self.forward.get(g as usize - 1).copied().unwrap_or(0.0),
            _ => 0.0,
        }
    }

    /// The highest forward gear.
    pub fn top_gear(&self) -> i32 {
        self.forward.len() as i32
    }
}

/// Starts a shift to `gear` (clamped to reverse ..= top) unless it is already the target.
fn request(gearbox: &GearboxSettings, state: &mut VehicleState, gear: i32) {
    let gear = gear.clamp(-1, gearbox.top_gear());
    if gear != state.next_gear {
        state.next_gear = gear;
        state.shift_timer = gearbox.shift_time;
        state.since_shift = 0.0;
    }
}

/// Gear selection, auto-reverse and the shift in progress. Returns the throttle and
/// brake after auto-reverse swapped the pedals, and whether a shift is under way.
pub(crate) fn select_gear(
    settings: &VehicleSettings,
    state: &mut VehicleState,
    raw: &DriverInput,
    v: f32,
    wheels: &[WheelFeedback],
    dt: f32,
) -> (f32, f32, bool) {
    let gb = &settings.gearbox;
    let (mut throttle, mut brake) = (raw.throttle, raw.brake);
    state.since_shift += dt;
    let target = state.next_gear;
    if raw.gear_up {
        request(gb, state, target + 1);
    } else if raw.gear_down {
        request(gb, state, target - 1);
    } else if gb.automatic {
        automatic(settings, state, raw, v, wheels, dt);
    }
    if gb.swaps_pedals(state.next_gear) {
        // Backwards, the pedals swap: brake drives, throttle brakes.
        core::mem::swap(&mut throttle, &mut brake);
    }
    let shifting = state.shift_timer > 0.0 || state.next_gear != state.gear;
    if shifting {
        state.shift_timer -= dt;
        if state.shift_timer <= 0.0 {
            state.shift_timer = 0.0;
            let (old, new) = (gb.total_ratio(state.gear), gb.total_ratio(state.next_gear));
            state.gear = state.next_gear;
            // A rev-matched shift (`auto_blip`): the engine meets the gearbox at the speed the driven
            // wheels give through the new gear (never below idle), so the clutch closes
            // without a jolt. (Carrying the rpm across by the ratio of ratios left the
            // engine short by what it lost during the shift, and closing that gap in one
            // step threw the car back by 0.25 g.)
            if gb.auto_blip && old != 0.0 && new != 0.0 && old.signum() == new.signum() {
                let idle = settings.engine.idle_rpm / RAD_PER_S_TO_RPM;
                state.engine_speed = (driven_wheel_speed(settings, wheels) * new).max(idle);
            }
        }
    }
    (throttle, brake, shifting)
}

/// The mean spin (rad/s) of the driven axles' wheels, weighted by their drive shares.
fn driven_wheel_speed(settings: &VehicleSettings, wheels: &[WheelFeedback]) -> f32 {
    let mut shares = [0.0f32; 16];
    let n = settings.axles.len().min(16);
    settings.drive_shares(&mut shares[..n]);
    DrivenSide::new(settings, &shares[..n], |i| super::feedback(wheels, i)).speed
}

/// The automatic: auto-reverse after standing braked, first gear out of reverse or
/// neutral, shifts up and down on the engine speed, and a kickdown on a floored
/// throttle ([`KICKDOWN_THROTTLE`], [`KICKDOWN_RPM`]).
fn automatic(
    settings: &VehicleSettings,
    state: &mut VehicleState,
    raw: &DriverInput,
    v: f32,
    wheels: &[WheelFeedback],
    dt: f32,
) {
    let gb = &settings.gearbox;
    let top = gb.top_gear();
    let (throttle, brake) = (raw.throttle, raw.brake);
    let rpm = state.engine_speed * RAD_PER_S_TO_RPM;
    let settled = state.shift_timer <= 0.0 && state.since_shift > gb.shift_time + 0.4;
    // The handbrake says "stay here": no auto-reverse while it is pulled (a car held
    // on a hill with both brakes must not reverse down it).
    let holding = v.abs() < 0.5 && state.gear >= 0 && brake > 0.1 && throttle < 0.05 && raw.handbrake < 0.1;
    state.stopped_braking = if holding { state.stopped_braking + dt } else { 0.0 };
    if gb.auto_reverse && holding && state.stopped_braking >= AUTO_REVERSE_DELAY {
        request(gb, state, -1);
    } else if (state.gear == -1
        && (throttle > FIRST_GEAR_THROTTLE || (!gb.auto_reverse && throttle > 0.0))
        && v > -FIRST_GEAR_BACKING)
        || (state.gear == 0 && throttle > 0.0)
    {
        request(gb, state, 1);
    } else if settled && state.gear >= 1 {
        let ratio = gb.total_ratio(state.gear);
        // Upshift on the engine speed the road speed gives, not on a wheelspin's.
        let radius = wheels.iter().map(|w| w.radius).fold(0.0f32, f32::max).max(0.01);
        let road_rpm = v.abs() / radius * ratio * RAD_PER_S_TO_RPM;
        if state.gear < top && rpm > gb.shift_up_rpm && road_rpm > 0.9 * gb.shift_up_rpm {
            request(gb, state, state.gear + 1);
        } else if state.gear > 1 && ratio > 0.0 {
            // Down below `shift_down_rpm`, only when the lower gear keeps the engine
            // below the upshift point; and on a floored throttle (a kickdown) while
            // the lower gear keeps it under `KICKDOWN_RPM` of it: a driver's roll-on
            // out of a corner gets the gear with the most force
            // (`vehicle::plan`'s laps).
            let step = gb.total_ratio(state.gear - 1) / ratio;
            let down = rpm < gb.shift_down_rpm && rpm * step < 0.95 * gb.shift_up_rpm;
            let kickdown = throttle >= KICKDOWN_THROTTLE && road_rpm.max(rpm) * step < KICKDOWN_RPM * gb.shift_up_rpm;
            if down || kickdown {
                request(gb, state, state.gear - 1);
            }
        }
    }
}

/// Clutch engagement, 0 (open) ..= 1: open in neutral and during a shift; an automatic
/// clutch bites halfway between idle and `engage_rpm` and is fully engaged at
/// `engage_rpm` (smoothstep), read at the faster of the engine (`rpm`) and the gearbox
/// input (`input_rpm`, the driven wheels' speed through the gears): an automated
/// manual closes its clutch when the car drives the gearbox, so a car coasting in gear
/// brakes on its engine and a rolling car push-starts one, closing gently
/// ([`closing_capacity`]) and never on an input past the redline
/// (`tests/it/vehicle/slip.rs`, `coasting_in_gear_down_a_hill_reaches_a_terminal_speed`).
/// A manual one follows the pedal.
pub(crate) fn clutch_engagement(
    settings: &VehicleSettings,
    ratio: f32,
    shifting: bool,
    [rpm, input_rpm]: [f32; 2],
    pedal: f32,
) -> f32 {
    if ratio == 0.0 || shifting {
        0.0
    } else if settings.clutch.automatic {
        let bite = 0.5 * (settings.engine.idle_rpm + settings.clutch.engage_rpm);
        // Not past the redline: an automated manual does not close on an input that
        // would over-rev its engine.
        let input_rpm = if input_rpm <= settings.engine.redline_rpm {
            input_rpm
        } else {
            0.0
        };
        let x = ((rpm.max(input_rpm) - bite) / (settings.clutch.engage_rpm - bite)).clamp(0.0, 1.0);
        x * x * (3.0 - 2.0 * x)
    } else {
        1.0 - pedal
    }
}

/// How long (s) an automatic clutch takes to bring a slower engine up to its gearbox
/// input when it closes on a rolling car: the time constant of the engine's speed as
/// the clutch slips (an automated manual's re-engagement, a few tenths of a second).
pub const CLOSING_TIME: f32 = 0.3;

/// The most torque (N·m) an automatic clutch passes while it closes on a rolling car
/// (the gearbox input `input`, rad/s, faster than the running engine): what brings the
/// engine's speed up to the input's with the time constant [`CLOSING_TIME`] against its
/// own drag (`engine_torque`, N·m, ≤ 0 off the throttle), `J_e·(ω_in − ω_e)/τ − T_e`.
/// The clutch slips meanwhile (the difference in the two speeds' energy goes into its
/// plates) and locks once the speeds meet, without the jolt of the engine's momentum
/// dumped in one step (the 40 t combination's stops at 30 Hz,
/// `tests/it/vehicle/articulated.rs`). Unbounded otherwise (the engine faster, driving
/// the car, or a manual clutch).
pub(crate) fn closing_capacity(
    settings: &VehicleSettings,
    state: &VehicleState,
    input: f32,
    engine_torque: f32,
) -> f32 {
    if !settings.clutch.automatic || state.clutch_locked || input <= state.engine_speed {
        return f32::MAX;
    }
    (settings.engine.inertia * (input - state.engine_speed) / CLOSING_TIME - engine_torque).max(0.0)
}

/// The gearbox output's side of the clutch: the driven axles' mean wheel speed weighted
/// by their shares (rad/s; an axle's speed is its wheels' mean, its one wheel's on a
/// single axle), their inertia (kg·m²) and their tyres' last reaction (N·m).
#[derive(Clone, Copy)]
pub(crate) struct DrivenSide {
    /// Speed at the gearbox output (rad/s).
    pub speed: f32,
    /// Inertia of the driven wheels (kg·m²).
    pub inertia: f32,
    /// The driven tyres' reaction last step (N·m).
    pub tyre_torque: f32,
}

impl DrivenSide {
    pub(crate) fn new(settings: &VehicleSettings, shares: &[f32], wheel: impl Fn(usize) -> WheelFeedback) -> Self {
        let (mut speed, mut inertia, mut tyre_torque) = (0.0, 0.0, 0.0);
        for (a, s) in shares.iter().enumerate() {
            if *s > 0.0 {
                let wheels = settings.wheels_of(a);
                let n = wheels.len().max(1) as f32;
                for w in wheels.map(&wheel) {
                    speed += s * w.angular_velocity / n;
                    inertia += w.inertia;
                    tyre_torque += w.tyre_torque;
                }
            }
        }
        DrivenSide {
            speed,
            inertia,
            tyre_torque,
        }
    }
}

/// The engine's load at its present speed (N·m) from the last step: with the clutch
/// locked in gear, what the driven wheels take through the ratio and the efficiency,
/// their tyres' reaction, their rolling resistance and the gearbox's drag (the torque
/// that holds the engine's speed); otherwise the clutch's last torque.
pub(crate) fn engine_load(
    settings: &VehicleSettings,
    state: &VehicleState,
    shares: &[f32],
    ratio: f32,
    wheel: impl Fn(usize) -> WheelFeedback,
) -> f32 {
    if !(state.clutch_locked && ratio != 0.0) {
        return state.clutch_torque;
    }
    let drag = settings.gearbox.drag_torque;
    let at_wheels: f32 = (0..shares.len())
        .filter(|&a| shares[a] > 0.0)
        .flat_map(|a| settings.wheels_of(a))
        .map(|i| {
            let w = wheel(i);
            let turning = if w.angular_velocity > 0.0 {
                1.0
            } else if w.angular_velocity < 0.0 {
                -1.0
            } else {
                0.0
            };
            w.held_torque() + drag * turning
        })
        .sum();
    let at_engine = at_wheels / ratio;
    let eta = settings.gearbox.efficiency;
    finite(if at_engine >= 0.0 {
        at_engine / eta
    } else {
        at_engine * eta
    })
}

/// What the clutch passed this step.
pub(crate) struct ClutchStep {
    /// Drive torque at the gearbox output (N·m), to be split by the differentials.
    pub wheel_torque: f32,
    /// Inertia reflected to the gearbox output (kg·m²): the gearbox's in gear, plus the
    /// engine's while the clutch is locked, each × ratio².
    pub reflected_inertia: f32,
}

/// The clutch this step, as a friction coupling between the engine and the gearbox
/// input. The torque that would bring both to one speed at the end of the step (with
/// the engine's torque and the tyres' last reaction fed forward) is compared with the
/// capacity:
///
/// - **Locked** (within capacity): the engine becomes part of the driven wheels. They
///   get its torque × ratio × efficiency and carry its inertia `J_e·r²` in their own
///   implicit spin solve, so the tyre sees the whole rotating mass within the step
///   (wheelspin onset, lock-up, landings). A speed difference left from slipping is
///   closed by the engine's momentum, `J_e·r·Δω/dt`. The engine's speed is read back
///   from the wheels at the next step.
/// - **Slipping**: the capacity's torque passes and the engine turns on its own.
pub(crate) fn clutch_step(
    settings: &VehicleSettings,
    state: &mut VehicleState,
    side: &DrivenSide,
    ratio: f32,
    engine_torque: f32,
    capacity: f32,
    dt: f32,
) -> ClutchStep {
    let eta = settings.gearbox.efficiency;
    let j_e = settings.engine.inertia;
    let driven = DrivenSide {
        inertia: side.inertia + reflected_inertia(settings, ratio, false),
        ..*side
    };
    let sync = clutch_torque(settings, state, &driven, ratio, engine_torque, dt);
    state.clutch_locked = capacity > 0.0 && ratio != 0.0 && side.inertia > 0.0 && sync.abs() <= capacity;
    let reflected_inertia = reflected_inertia(settings, ratio, state.clutch_locked);
    // Power from the engine loses (1 − η) on its way to the wheels; on the overrun the
    // wheels drive the engine and the losses add to its braking: ÷ η.
    let through = |torque: f32| if torque >= 0.0 { torque * eta } else { torque / eta };
    if state.clutch_locked {
        state.clutch_torque = sync;
        let catch_up = j_e * ratio * (state.engine_speed - ratio * side.speed) / dt;
        ClutchStep {
            wheel_torque: finite(through(engine_torque) * ratio + catch_up),
            reflected_inertia,
        }
    } else {
        state.clutch_torque = sync.clamp(-capacity, capacity);
        let before = state.engine_speed;
        super::engine::integrate(&settings.engine, state, engine_torque, dt);
        if settings.clutch.automatic && ratio != 0.0 && before > ratio * side.speed {
            state.engine_speed = centrifugal_bite(settings, before, state.engine_speed, engine_torque, dt);
        }
        ClutchStep {
            wheel_torque: through(state.clutch_torque) * ratio,
            reflected_inertia,
        }
    }
}

/// The engine's speed (rad/s) at the end of a step in which an automatic clutch slips
/// with the engine faster than its input: the explicit step's `free` speed from `start`,
/// but no further than where the centrifugal clutch's capacity at that speed takes the
/// engine's torque, `J_e·(ω − ω₀)/dt = T_e − T_max·engagement(ω)` (the clutch's
/// engagement evaluated at the step's end, so that one long step cannot rev the engine
/// past its bite and lock the clutch at a speed a short one never reaches:
/// `tests/it/vehicle/tyre_in_car.rs`, `a_full_throttle_launch_does_not_depend_on_the_step_rate`).
fn centrifugal_bite(settings: &VehicleSettings, start: f32, free: f32, engine_torque: f32, dt: f32) -> f32 {
    let j_e = settings.engine.inertia;
    let residual = |w: f32| {
        let engaged = clutch_engagement(settings, 1.0, false, [w * RAD_PER_S_TO_RPM, 0.0], 0.0);
        j_e * (w - start) / dt - engine_torque + settings.clutch.max_torque * engaged
    };
    if free <= start || residual(free) <= 0.0 {
        return free;
    }
    // The residual rises with ω (the engagement is monotone): bisect [start, free].
    let (mut lo, mut hi) = (start, free);
    for _ in 0..24 {
        let mid = 0.5 * (lo + hi);
        if residual(mid) > 0.0 {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    lo
}

/// The inertia (kg·m²) the driven wheels carry at the gearbox output through the total
/// `ratio`: the gearbox's in gear, plus the engine's with the clutch `locked`.
pub(crate) fn reflected_inertia(settings: &VehicleSettings, ratio: f32, locked: bool) -> f32 {
    let engine = if locked { settings.engine.inertia } else { 0.0 };
    finite((settings.gearbox.inertia + engine) * ratio * ratio)
}

/// With [`BrakeSettings::handbrake_disconnects_drive`](super::BrakeSettings) and the
/// handbrake pulled: the handbraked axles' drive shares go to 0 and the others are
/// scaled back up to the whole. Returns true when no driven axle is left (the clutch
/// opens).
pub(crate) fn disconnect_handbraked(settings: &VehicleSettings, shares: &mut [f32], handbrake: f32) -> bool {
    if !settings.brakes.handbrake_disconnects_drive || handbrake < 0.1 {
        return false;
    }
    let mut left = 0.0;
    for (a, s) in shares.iter_mut().enumerate() {
        if settings.axles[a].handbrake {
            *s = 0.0;
        }
        left += *s;
    }
    if left > 0.0 {
        shares.iter_mut().for_each(|s| *s /= left);
        false
    } else {
        true
    }
}

/// The torque (N·m, engine side) that brings the engine and the gearbox input to one
/// speed at the end of the step, with the engine's torque and the tyres' last reaction
/// fed forward (not clamped).
fn clutch_torque(
    settings: &VehicleSettings,
    state: &VehicleState,
    side: &DrivenSide,
    ratio: f32,
    engine_torque: f32,
    dt: f32,
) -> f32 {
    if side.inertia > 0.0 {
        let j_e = settings.engine.inertia;
        let slip = state.engine_speed - side.speed * ratio;
        let num = slip + dt * (engine_torque / j_e + ratio * side.tyre_torque / side.inertia);
        let den = dt * (1.0 / j_e + ratio * ratio * settings.gearbox.efficiency / side.inertia);
        finite(num / den)
    } else {
        0.0
    }
}
