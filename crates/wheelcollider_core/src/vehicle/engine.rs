//! The engine: its settings (a torque curve, idle, redline, inertia, engine braking),
//! what follows from them (torque at an rpm and throttle, the throttle for a torque,
//! peak power), and its part of a step: idle control, the rev limiter and the
//! integration of its speed.
//!
//! The engine is a rotating body of its own: `J_e·dω_e/dt = T_engine − T_clutch`.

use super::RAD_PER_S_TO_RPM;
use super::VehicleState;

/// Width of the rev limiter (rpm): the throttle is cut to hold the engine this far below
/// the redline at most.
pub const LIMITER_BAND_RPM: f32 = 100.0;

/// The engine: a torque curve, idle control, rev limiter and engine braking.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default, deny_unknown_fields))]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct EngineSettings {
    /// Full-throttle torque (N·m) against engine speed (rpm): `[rpm, torque]` points in
    /// increasing rpm, linearly interpolated, held flat beyond the last; below the
    /// first it falls linearly to 0 at [`stall_rpm`](Self::stall_rpm) (held flat with
    /// no stall speed). At least one point; rpm ≥ 0, torque ≥ 0.
    pub torque_curve: Vec<[f32; 2]>,
    /// The speed (rpm) below which the engine cannot run, 0 ..= idle − 50 (0: it never
    /// stalls, the curve held flat down to 0 rpm). Its torque falls to its friction
    /// there; an engine that drops below it (dragged down through a locked clutch: a
    /// manual car pulling away in sixth) stalls and stays stalled until restarted
    /// (see [`VehicleState::stalled`](super::VehicleState::stalled)). Petrol engines
    /// about half their idle speed.
    pub stall_rpm: f32,
    /// Idle speed (rpm) that the idle control holds, ≥ 100.
    pub idle_rpm: f32,
    /// The rev limiter's speed (rpm), > idle.
    pub redline_rpm: f32,
    /// Rotating inertia of the engine and flywheel (kg·m²), ≥ 0.01.
    pub inertia: f32,
    /// Engine braking torque at the redline with the throttle closed (N·m), ≥ 0; it
    /// scales with rpm and with (1 − throttle)².
    pub braking_torque: f32,
    /// The torque it takes to turn the stalled engine over (N·m), ≥ 0: its compression
    /// and static friction, a friction that holds it still up to this torque. Through
    /// the engaged clutch and the gears it holds a stalled car parked in gear (about
    /// `breakaway · ratio / η` at the driven wheels). About 24 N·m per litre of
    /// displacement for a four-stroke and 48 for a two-stroke (a breakaway mean
    /// effective pressure of 3 bar, `p·V/(4π)` per cycle of two revolutions: an
    /// estimate, three times the ≈ 1 bar motored friction mean effective pressure of a
    /// petrol engine at low speed that Heywood, *Internal Combustion Engine
    /// Fundamentals*, ch. 13, gives); 0: none.
    pub breakaway_torque: f32,
    /// Road-speed governor (km/h, ≥ 0; 0: none): the engine's control cuts the
    /// throttle over the last [`SPEED_LIMIT_BAND`] km/h below it, as many cars are
    /// limited (250 km/h for most German ones).
    pub speed_limit: f32,
    /// Cylinders, 1 ..= 16 (clamped): with [`strokes`](Self::strokes), the firing
    /// frequency `rpm / 60 · cylinders · 2 / strokes` (Hz) that the engine's sound is
    /// built on. The physics does not read it.
    pub cylinders: u32,
    /// Strokes per working cycle: 4 (a four-stroke fires each cylinder every second
    /// revolution) or 2 (a two-stroke, every revolution: a kart's engine).
    pub strokes: u32,
    /// How the cylinders are arranged and fire: the sound's character.
    pub layout: EngineLayout,
}

/// How an engine's cylinders are arranged, which sets the spacing and strength of its
/// exhaust pulses: what the sound's character follows (`docs/audio.md`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub enum EngineLayout {
    /// In line (and a single cylinder): evenly spaced pulses into one exhaust.
    #[default]
    Inline,
    /// Horizontally opposed (boxer), with unequal-length headers: one bank's pulses
    /// arrive late, so a rumble at half the firing frequency rides on the note.
    Flat,
    /// A V with a flat-plane crank or merged banks (V6, flat-plane V8, V10, V12): evenly
    /// spaced pulses.
    V,
    /// A cross-plane V8 (firing order 1-8-4-3-6-5-7-2): each bank fires unevenly, so
    /// its exhaust burbles at the cycle's frequency. Needs 8 cylinders.
    CrossPlaneV8,
}

/// Width (km/h) of the road-speed governor's throttle cut below
/// [`EngineSettings::speed_limit`].
pub const SPEED_LIMIT_BAND: f32 = 3.0;

impl Default for EngineSettings {
    fn default() -> Self {
        Self {
            torque_curve: vec![[1000.0, 250.0], [4000.0, 320.0], [6500.0, 260.0]],
            idle_rpm: 850.0,
            redline_rpm: 6800.0,
            inertia: 0.2,
            braking_torque: 60.0,
            breakaway_torque: 48.0,
            speed_limit: 0.0,
            stall_rpm: 0.0,
            cylinders: 4,
            strokes: 4,
            layout: EngineLayout::Inline,
        }
    }
}

impl EngineSettings {
    /// Full-throttle torque at `rpm` (N·m), from the curve.
    pub fn curve_torque(&self, rpm: f32) -> f32 {
        let c = &self.torque_curve;
        let Some(first) = c.first() else { return 0.0 };
        if rpm <= first[0] {
            if self.stall_rpm > 0.0 && first[0] > self.stall_rpm {
                return first[1] * ((rpm - self.stall_rpm) / (first[0] - self.stall_rpm)).clamp(0.0, 1.0);
            }
            return first[1];
        }
        for w in c.windows(2) {
            if rpm <= w[1][0] {
                let t = (rpm - w[0][0]) / (w[1][0] - w[0][0]);
                return w[0][1] + t * (w[1][1] - w[0][1]);
            }
        }
        c[c.len() - 1][1]
    }

    /// Closed-throttle braking torque at `rpm` (N·m, positive), ∝ rpm.
    pub fn braking_at(&self, rpm: f32) -> f32 {
        self.braking_torque * (rpm / self.redline_rpm).clamp(0.0, 1.5)
    }

    /// Engine torque at `rpm` and `throttle` (N·m): `throttle·curve − (1 − throttle)²·braking`.
    pub fn torque(&self, rpm: f32, throttle: f32) -> f32 {
        let closed = 1.0 - throttle;
        throttle * self.curve_torque(rpm) - closed * closed * self.braking_at(rpm)
    }

    /// The throttle (0..=1) at which the engine makes `torque` at `rpm`: the inverse of
    /// [`EngineSettings::torque`], which rises monotonically with throttle.
    pub fn throttle_for(&self, rpm: f32, torque: f32) -> f32 {
        let c = self.curve_torque(rpm);
        let b = self.braking_at(rpm);
        // b·t² − (c + 2b)·t + (b + torque) = 0, smaller root.
        let t = if b > 1e-6 {
            let p = c + 2.0 * b;
            let disc = (p * p - 4.0 * b * (b + torque)).max(0.0);
            (p - disc.sqrt()) / (2.0 * b)
        } else if c > 1e-6 {
            torque / c
        } else {
            0.0
        };
        if t.is_finite() { t.clamp(0.0, 1.0) } else { 0.0 }
    }

    /// The engine speed (rpm) at which the wheels turning a stalled engine through the
    /// locked clutch start it (a bump start): halfway between the stall speed and idle.
    pub fn restart_rpm(&self) -> f32 {
        0.5 * (self.stall_rpm + self.idle_rpm)
    }

    /// The firing frequency at `rpm` (Hz): `rpm / 60 · cylinders · 2 / strokes`.
    pub fn firing_frequency(&self, rpm: f32) -> f32 {
        rpm / 60.0 * self.cylinders as f32 * 2.0 / self.strokes as f32
    }

    /// Peak power (W) and the rpm where the curve makes it.
    pub fn peak_power(&self) -> (f32, f32) {
        let mut best = (0.0, 0.0);
        let n = 400;
        for i in 0..=n {
            let rpm = self.redline_rpm * i as f32 / n as f32;
            let p = self.curve_torque(rpm) * rpm / RAD_PER_S_TO_RPM;
            if p > best.0 {
                best = (p, rpm);
            }
        }
        best
    }
}

/// Idle control and the rev limiter, then the throttle the engine got, its torque (N·m)
/// and whether the limiter held the throttle back. Idle control gives at least the
/// throttle that brings the engine halfway back to idle this step against `load`, the
/// engine's load at its present speed (N·m); the limiter at most the throttle that holds
/// it at the redline. With the load right, the limiter holds the redline whatever the
/// step (`tracked::tank::the_tank_reaches_its_published_top_speed`, a top speed on the
/// governor).
pub(crate) fn governed_torque(
    engine: &EngineSettings,
    state: &VehicleState,
    (throttle, load): (f32, f32),
    rpm: f32,
    dt: f32,
) -> (f32, f32, bool) {
    if state.stalled {
        return (0.0, engine.torque(rpm, 0.0), false);
    }
    let mut throttle = throttle;
    let clutch_torque_est = load;
    let idle = engine.idle_rpm / RAD_PER_S_TO_RPM;
    let red = (engine.redline_rpm - 0.5 * LIMITER_BAND_RPM) / RAD_PER_S_TO_RPM;
    let j_e = engine.inertia;
    if state.engine_speed < idle * 1.05 {
        let need = j_e * 0.5 * (idle - state.engine_speed) / dt + clutch_torque_est;
        throttle = throttle.max(engine.throttle_for(rpm, need));
    }
    let mut limited = false;
    if state.engine_speed > red - 2.0 * LIMITER_BAND_RPM / RAD_PER_S_TO_RPM {
        let allow = j_e * 0.5 * (red - state.engine_speed) / dt + clutch_torque_est;
        let held = throttle.min(engine.throttle_for(rpm, allow));
        limited = held < throttle;
        throttle = held;
    }
    (throttle, engine.torque(rpm, throttle), limited)
}

/// Stalling and restarting: an engine below its [`stall_rpm`](EngineSettings::stall_rpm)
/// stalls, whatever its clutch (its torque is 0 there: an engine left running below it
/// could never climb back); a stalled one starts at idle when the `throttle` is pressed
/// with the clutch `open` (an automatic clutch, open below its bite, always is: its
/// engine starts again on the throttle, as an automatic's does), or is **bump
/// started** when the wheels turn it through the locked clutch at
/// [`restart_rpm`](EngineSettings::restart_rpm) or more. Returns whether it was bump
/// started. An automatic clutch opens before its engine falls that far, except when a
/// locked clutch reads the engine's speed back from driven wheels that slowed at once
/// (the tractor's tandem hopping as it backs the semitrailer up:
/// `tests/it/vehicle/reversing.rs`).
pub(crate) fn stall_or_start(
    engine: &EngineSettings,
    state: &mut VehicleState,
    manual: bool,
    throttle: f32,
    open: bool,
) -> bool {
    let stall = engine.stall_rpm / RAD_PER_S_TO_RPM;
    if state.stalled {
        if (open || !manual) && throttle > 0.1 {
            state.stalled = false;
            state.engine_speed = state.engine_speed.max(engine.idle_rpm / RAD_PER_S_TO_RPM);
        } else if !open && state.clutch_locked && state.engine_speed * RAD_PER_S_TO_RPM >= engine.restart_rpm() {
            state.stalled = false;
            return true;
        }
    } else if stall > 0.0 && state.engine_speed < stall {
        state.stalled = true;
    }
    false
}

/// The road-speed governor: `throttle` scaled down linearly over the last
/// [`SPEED_LIMIT_BAND`] km/h below the limit, to 0 at it (`speed`, m/s).
pub(crate) fn governed_speed(engine: &EngineSettings, throttle: f32, speed: f32) -> f32 {
    if engine.speed_limit > 0.0 {
        throttle * ((engine.speed_limit - speed.abs() * 3.6) / SPEED_LIMIT_BAND).clamp(0.0, 1.0)
    } else {
        throttle
    }
}

/// Integrates the engine's speed over one step: its torque against the clutch's, and a
/// stalled engine's breakaway friction (implicitly: it holds the engine still while the
/// rest cannot overcome it, and never turns it back).
pub(crate) fn integrate(engine: &EngineSettings, state: &mut VehicleState, engine_torque: f32, dt: f32) {
    let free = state.engine_speed + (engine_torque - state.clutch_torque) * dt / engine.inertia;
    let hold = if state.stalled {
        engine.breakaway_torque * dt / engine.inertia
    } else {
        0.0
    };
    let speed = if free.abs() <= hold {
        0.0
    } else {
        free - hold.copysign(free)
    };
    state.engine_speed = speed.clamp(0.0, 2.0e4);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vehicle::VehicleSettings;

    /// An automatic's engine read back below its stall speed (a locked clutch on driven
    /// wheels that slowed at once) stalls, and starts again at idle on the throttle: it
    /// is never left turning below the stall speed with no torque to climb back. The
    /// tractor's, at 270 rpm (what it read backing the semitrailer up). Checked that it
    /// fails with the stall kept to a manual clutch: the engine stays at 270 rpm.
    #[test]
    fn an_automatics_engine_below_its_stall_speed_stalls_and_starts_again() {
        let settings = VehicleSettings::preset("tractor").unwrap();
        let engine = &settings.engine;
        let mut state = VehicleState::new(&settings);
        state.engine_speed = 270.0 / RAD_PER_S_TO_RPM;
        stall_or_start(engine, &mut state, false, 0.6, false);
        assert!(state.stalled, "not stalled at 270 rpm");
        stall_or_start(engine, &mut state, false, 0.6, false);
        let rpm = state.engine_speed * RAD_PER_S_TO_RPM;
        assert!(!state.stalled && (rpm - engine.idle_rpm).abs() < 1e-3, "{rpm} rpm");
        // Off the throttle it stays stalled.
        state.engine_speed = 270.0 / RAD_PER_S_TO_RPM;
        stall_or_start(engine, &mut state, false, 0.0, false);
        stall_or_start(engine, &mut state, false, 0.0, false);
        assert!(state.stalled);
    }
}
