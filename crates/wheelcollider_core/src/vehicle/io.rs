//! What a vehicle step reads and writes: the driver's [`DriverInput`], each wheel's
//! [`WheelFeedback`] from the last step, the [`WheelInput`](crate::WheelInput) it gives each wheel, the
//! [`VehicleState`] it carries and the [`PowertrainReport`] it returns.

use super::{RAD_PER_S_TO_RPM, VehicleSettings};

/// What the driver (a player, an AI, a script) asks for. Values are clamped to their
/// ranges; a non-finite value counts as 0.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct DriverInput {
    /// Accelerator, 0..=1.
    pub throttle: f32,
    /// Brake pedal, 0..=1.
    pub brake: f32,
    /// Steering, −1 (full right) ..= 1 (full left).
    pub steer: f32,
    /// Handbrake, 0..=1.
    pub handbrake: f32,
    /// Clutch pedal, 0 (engaged) ..= 1 (open); read only with a manual clutch.
    pub clutch: f32,
    /// Shift up once (consumed by the step that reads it).
    pub gear_up: bool,
    /// Shift down once (consumed by the step that reads it).
    pub gear_down: bool,
    /// A two-wheeler's rider's weight, −1 (back, over the rear wheel) ..= 1 (forward,
    /// over the tank): the rider's own centre of mass moved by this times
    /// [`RiderSettings::shift_reach`](super::RiderSettings::shift_reach). A car ignores it.
    #[cfg_attr(feature = "serde", serde(default))]
    pub weight_shift: f32,
}

impl DriverInput {
    /// Every value clamped to its range, a non-finite one to 0.
    pub(crate) fn sanitized(&self) -> DriverInput {
        let f = |v: f32, lo: f32, hi: f32| if v.is_finite() { v.clamp(lo, hi) } else { 0.0 };
        DriverInput {
            throttle: f(self.throttle, 0.0, 1.0),
            brake: f(self.brake, 0.0, 1.0),
            steer: f(self.steer, -1.0, 1.0),
            handbrake: f(self.handbrake, 0.0, 1.0),
            clutch: f(self.clutch, 0.0, 1.0),
            weight_shift: f(self.weight_shift, -1.0, 1.0),
            ..*self
        }
    }
}

/// What one wheel did in the last step, read back by the vehicle.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct WheelFeedback {
    /// Spin (rad/s).
    pub angular_velocity: f32,
    /// Wheel inertia (kg·m²).
    pub inertia: f32,
    /// Wheel radius (m).
    pub radius: f32,
    /// Suspension compression (m).
    pub compression: f32,
    /// Tyre load (N).
    pub load: f32,
    /// Longitudinal slip κ (dimensionless): the kinematic one, `(ω·r − vx) / V`, as a
    /// wheel-speed sensor sees it (see [`StepOutput::forward_slip`](crate::StepOutput::forward_slip)).
    pub forward_slip: f32,
    /// The longitudinal curve's peak slip κ* at the wheel's load (dimensionless).
    pub peak_slip: f32,
    /// The tyre's transient lateral slip σ (what its force follows), signed.
    pub sideways_slip: f32,
    /// The lateral curve's peak slip σ* at the wheel's load (0: no lateral curve).
    pub lateral_peak_slip: f32,
    /// Speed of the wheel over the ground along its forward direction (m/s, positive
    /// forward): ABS and traction control measure slip against it.
    pub ground_speed: f32,
    /// The most longitudinal force the tyre can give at its load and grip (N): the
    /// longitudinal curve's peak μ × grip × load.
    pub max_friction_force: f32,
    /// Whether it touched the ground.
    pub grounded: bool,
    /// The tyre's reaction torque on the wheel last step (N·m): radius × forward force,
    /// positive when the ground pushes the car forward (and so holds the wheel back).
    pub tyre_torque: f32,
    /// The rolling resistance's torque on the wheel last step (N·m, ≥ 0): it holds
    /// back the spin, whichever way the wheel turns; 0 while the wheel stands.
    pub rolling_torque: f32,
    /// The tyre's lateral force (N), along the axle (positive to the right).
    pub sideways_force: f32,
    /// The tyre's self-aligning torque (N·m, positive turning the wheel left).
    pub aligning_torque: f32,
}

impl WheelFeedback {
    /// The torque that held the wheel's spin last step (N·m): its tyre's reaction and
    /// its rolling resistance against the spin (0 for a wheel at rest), what a drive
    /// must give it to keep it turning.
    pub fn held_torque(&self) -> f32 {
        let turning = if self.angular_velocity > 0.0 {
            1.0
        } else if self.angular_velocity < 0.0 {
            -1.0
        } else {
            0.0
        };
        self.tyre_torque + self.rolling_torque * turning
    }
}

impl From<(&crate::WheelSettings, &crate::StepOutput)> for WheelFeedback {
    /// A wheel's last step as the vehicle reads it: its settings give the inertia and
    /// radius, its output the rest.
    fn from((settings, o): (&crate::WheelSettings, &crate::StepOutput)) -> Self {
        Self {
            angular_velocity: o.angular_velocity,
            inertia: settings.inertia(),
            radius: settings.radius(),
            compression: o.compression,
            load: o.load,
            forward_slip: o.forward_slip,
            peak_slip: o.peak_slip,
            sideways_slip: o.transient_sideways_slip,
            lateral_peak_slip: o.lateral_peak_slip,
            ground_speed: o.ground_speed,
            max_friction_force: o.max_friction_force,
            grounded: o.grounded,
            tyre_torque: o.forward_force * settings.radius(),
            rolling_torque: o.rolling_resistance_force * settings.radius(),
            sideways_force: o.sideways_force,
            aligning_torque: o.aligning_torque,
        }
    }
}

/// The vehicle's runtime state, carried from step to step. Create it with
/// [`VehicleState::new`] so that its buffers have the vehicle's size (no allocation per
/// step).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct VehicleState {
    /// Engine speed (rad/s).
    pub engine_speed: f32,
    /// Current gear: −1 reverse, 0 neutral, 1..=n forward.
    pub gear: i32,
    /// Gear being shifted into while `shift_timer > 0`.
    pub next_gear: i32,
    /// Time left in the current shift (s).
    pub shift_timer: f32,
    /// Time since the last shift (s); automatic shifting waits a moment between shifts.
    pub since_shift: f32,
    /// The clutch's torque last step (N·m), engine side.
    pub clutch_torque: f32,
    /// Steering position, −1..=1, after the steering rate.
    pub steer: f32,
    /// Traction control's trim on the driven tyres' budget, 0.2..=1: it falls while a
    /// driven wheel slips past its peak anyway (grip the wheels' feedback did not
    /// show), and recovers otherwise.
    pub traction_factor: f32,
    /// How long the car has stood still with the brake held (s): auto-reverse engages
    /// after [`AUTO_REVERSE_DELAY`](super::AUTO_REVERSE_DELAY).
    pub stopped_braking: f32,
    /// The clutch held the engine to the gearbox last step: the engine turned with the
    /// driven wheels, its inertia carried by them.
    pub clutch_locked: bool,
    /// The engine stalled: it makes no torque (its friction still drags) until the
    /// throttle is pressed with the clutch open (the pedal down, or neutral), which
    /// starts it at idle.
    pub stalled: bool,
    /// Each wheel's compliance steer of the last step (deg), wheel by wheel.
    pub compliance_steer: Vec<f32>,
    /// The service brake's level, 0..=1, after its lag: a trailer's brakes'
    /// ([`trailer_controls`](super::trailer_controls)), a two-wheeler rider's squeeze of
    /// the front lever ([`RiderSettings::lever`](super::RiderSettings::lever)); 0 on
    /// other vehicles.
    pub brake_level: f32,
}

impl VehicleState {
    /// A state for `settings`: engine at idle, first gear, wheels straight.
    pub fn new(settings: &VehicleSettings) -> Self {
        Self {
            engine_speed: settings.engine.idle_rpm / RAD_PER_S_TO_RPM,
            gear: 1,
            next_gear: 1,
            shift_timer: 0.0,
            since_shift: 10.0,
            clutch_torque: 0.0,
            steer: 0.0,
            traction_factor: 1.0,
            stopped_braking: 0.0,
            clutch_locked: false,
            stalled: false,
            compliance_steer: vec![0.0; settings.wheel_indices()],
            brake_level: 0.0,
        }
    }

    /// Resets any non-finite value (a game wrote one, or an earlier explosion left one):
    /// the speeds and timers to 0, the traction factor to 1.
    pub(crate) fn sanitize(&mut self) {
        for s in [
            &mut self.engine_speed,
            &mut self.shift_timer,
            &mut self.since_shift,
            &mut self.clutch_torque,
            &mut self.steer,
            &mut self.stopped_braking,
            &mut self.brake_level,
        ] {
            if !s.is_finite() {
                *s = 0.0;
            }
        }
        self.compliance_steer
            .iter_mut()
            .filter(|v| !v.is_finite())
            .for_each(|v| *v = 0.0);
        if !self.traction_factor.is_finite() {
            self.traction_factor = 1.0;
        }
    }
}

/// What one [`step_vehicle`](super::step_vehicle) hands on besides each wheel's
/// [`WheelInput`](crate::WheelInput): its report for the game, and the driveline for
/// the wheels' step.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct VehicleStep {
    /// What the powertrain did (telemetry, the sound's inputs).
    pub report: PowertrainReport,
    /// The driveline for the wheels' step to solve with the tyres
    /// ([`solve_driveline`](super::solve_driveline)): the gearbox output's torque and
    /// inertia, each driven axle's share and the differentials' couplings. The wheels'
    /// input, not a report: `Driveline::default()` (nothing driven) for a trailer.
    pub driveline: super::Driveline,
}

/// What one vehicle step reports: the powertrain's telemetry.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct PowertrainReport {
    /// Engine speed (rpm).
    pub engine_rpm: f32,
    /// Engine torque at the crank (N·m), negative while engine braking.
    pub engine_torque: f32,
    /// Throttle the engine got after idle control, rev limiter, shift cut and traction
    /// control, 0..=1.
    pub throttle: f32,
    /// The rev limiter held the throttle back this step (the engine's own rule; the
    /// sound's crackle reads it).
    pub limiter: bool,
    /// Clutch engagement, 0 (open) ..= 1.
    pub clutch_engagement: f32,
    /// Torque through the clutch (N·m).
    pub clutch_torque: f32,
    /// Gear: −1 reverse, 0 neutral, 1..=n.
    pub gear: i32,
    /// The gearbox's ratio in `gear` (engine turns per output-shaft turn, the final
    /// drive left out; [`GearboxSettings::gear_ratio`](super::GearboxSettings::gear_ratio)),
    /// 0 in neutral.
    pub gear_ratio: f32,
    /// A shift is under way.
    pub shifting: bool,
    /// Total drive torque at the wheels (N·m).
    pub wheel_torque: f32,
    /// Steering position, −1..=1.
    pub steer: f32,
    /// The brake input after auto-reverse swapped the pedals, 0..=1.
    pub brake: f32,
    /// Torque the centre differential moved from the first driven axle to the second
    /// (N·m) in the feed-forward split; what each axle differential moved shows in the
    /// wheels' drive torques.
    pub centre_transfer: f32,
    /// Torque about the steering axes (N·m, positive turning the wheels left) from the
    /// steered wheels' aligning torques and mechanical trail, last step: what a
    /// force-feedback wheel plays (scaled by the game). In a turn it opposes the steer.
    pub steering_torque: f32,
    /// Brake torque yaw stability (ESC) asked for this step, summed over the wheels
    /// (N·m, before ABS); 0 while it is off or idle: an ESC lamp for the HUD.
    pub stability_brake: f32,
    /// The engine has stalled (see [`EngineSettings::stall_rpm`](super::EngineSettings::stall_rpm)):
    /// it makes no torque until it is restarted.
    pub stalled: bool,
    /// The stalled engine was started this step by the wheels turning it through the
    /// locked clutch (a bump start, see
    /// [`EngineSettings::restart_rpm`](super::EngineSettings::restart_rpm)).
    pub bump_started: bool,
}
