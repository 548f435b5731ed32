//! The `spin` stage's solve for one step ([`Spinner`]): what the implicit spin solve and
//! the tyre read, built once per step so that a driveline solve can ask a wheel for its
//! spin at several drive torques before the step finishes.

use super::StepState;
use super::UNVERIFIED_SLIP_STEP;
use super::stages::{Loaded, Slips, Torques};
use crate::settings::WheelSettings;
use crate::spin::{SpinTerms, solve_spin};
use crate::tyre::{TyreForces, combined, slip_denominator};

/// The `spin` stage's solve for one step: what [`solve_spin`] and the tyre read, built once
/// so that a driveline solve can ask for the spin at several drive torques.
pub(crate) struct Spinner {
    /// The longitudinal slip carried from the last step.
    kappa_0: f64,
    /// The longitudinal relaxation length (m).
    relaxation_length: f32,
    vx: f64,
    load: f64,
    radius: f64,
    /// The spin at the start of the step (rad/s).
    omega: f64,
    /// Wheel and drivetrain inertia over the step (kg·m²/s).
    j_over_dt: f64,
    /// ∂κ/∂ω (s).
    dkappa_dw: f64,
    /// The spin solve's step accepted without the tyre at its end (rad/s).
    accept: f64,
    /// Rolling resistance (N·m) and all the torques that only resist the spin (N·m).
    pub(super) rolling_torque: f64,
    pub(super) coulomb: f64,
    /// The wheel's own drive torque (N·m), for a spin no driveline solve gives.
    pub(super) drive: f64,
    /// The brake's torque (N·m, ≥ 0).
    pub(super) brake: f64,
    /// The solve's last tyre evaluation: (spin, forces).
    last: core::cell::Cell<(f64, TyreForces)>,
}

impl Spinner {
    #[cfg_attr(feature = "stage-table", inline(never))] // a stage of its own in `--stages`
    pub(super) fn new(
        settings: &WheelSettings,
        state: &StepState,
        loaded: &Loaded,
        slips: &Slips,
        torques: &Torques,
        dt: f64,
    ) -> Self {
        let radius = settings.radius() as f64;
        let lag_x = &slips.lag[0];
        let dkappa_dw = lag_x.weight * radius * lag_x.inv_den;
        let rolling_torque = (settings.rolling_coefficient(loaded.vx) * loaded.rolling
            + loaded.surface_rolling_resistance)
            * loaded.load
            * radius;
        Spinner {
            kappa_0: if loaded.grounded { state.slip[0] as f64 } else { 0.0 },
            relaxation_length: settings.longitudinal_relaxation_length(),
            vx: loaded.vx,
            load: loaded.load,
            radius,
            omega: state.angular_velocity as f64,
            j_over_dt: (settings.inertia() as f64 + torques.inertia) / dt,
            dkappa_dw,
            // A Newton step of at most UNVERIFIED_SLIP_STEP of the peak slip is taken
            // unverified (see `spin`): the forces are then that evaluation carried
            // along its slope.
            accept: UNVERIFIED_SLIP_STEP * slips.tyre.peak_x / dkappa_dw.abs(),
            rolling_torque,
            coulomb: torques.brake + torques.friction + rolling_torque,
            drive: torques.drive,
            brake: torques.brake,
            last: core::cell::Cell::new((f64::NAN, TyreForces::default())),
        }
    }

    pub(super) fn kappa_at(&self, slips: &Slips, w: f64) -> f64 {
        let lag = &slips.lag[0];
        lag.follow(self.kappa_0, (w * self.radius - self.vx) * lag.inv_den)
    }

    /// `kappa`, a lagged slip at the new spin `w`, kept from passing the kinematic slip
    /// at `w` read against `w`'s own reference speed (see `stages::spin`). Without a
    /// relaxation length the slips are kinematic already.
    pub(super) fn within_kinematic(&self, kappa: f64, w: f64) -> f64 {
        if self.relaxation_length <= 0.0 {
            return kappa;
        }
        let surface = w * self.radius;
        let target = (surface - self.vx) / slip_denominator(self.relaxation_length, false, self.vx, surface);
        if (kappa - target) * (target - self.kappa_0) > 0.0 {
            target
        } else {
            kappa
        }
    }

    pub(super) fn forces_at(&self, s: &Slips, w: f64) -> TyreForces {
        let t = combined(&s.tyre, self.load, s.grip, self.kappa_at(s, w), s.sigma);
        self.last.set((w, t));
        t
    }

    /// The new spin (rad/s) for a drive torque `drive` (N·m), clamped to
    /// ±[`MAX_ANGULAR_VELOCITY`](super::MAX_ANGULAR_VELOCITY).
    /// `extra`: inertia over the step added to the wheel's (kg·m²/s).
    pub(super) fn solve(&self, slips: &Slips, drive: f64, extra: f64) -> f64 {
        let max = super::MAX_ANGULAR_VELOCITY as f64;
        let terms = SpinTerms {
            j_over_dt: self.j_over_dt + extra,
            ..self.terms(slips)
        };
        solve_spin(&terms, drive, self.accept, |w| {
            let t = self.forces_at(slips, w);
            let slope = t.dfx_dkappa * self.dkappa_dw;
            (self.radius * t.fx, self.radius * slope)
        })
        .clamp(-max, max)
    }

    /// The new spin for `drive` with `extra` inertia over the step (kg·m²/s), and its
    /// slope per N·m of drive (≥ 0; 0 while the brake holds the wheel at rest): what a
    /// driveline solve linearises.
    pub(super) fn respond(&self, slips: &Slips, drive: f64, extra: f64) -> (f64, f64) {
        let w = self.solve(slips, drive, extra);
        if w == 0.0 {
            return (w, 0.0);
        }
        let (at, t) = self.last.get();
        let slope = if (w - at).abs() <= self.accept {
            t.dfx_dkappa
        } else {
            self.forces_at(slips, w).dfx_dkappa
        };
        // Past the tyre's peak its slope falls below 0: the spin is then bounded by
        // the inertia alone, at a tenth of it at most.
        let j = self.j_over_dt + extra;
        let den = (j + self.radius * slope * self.dkappa_dw).max(0.1 * j);
        (w, 1.0 / den)
    }

    /// The terms of the spin solve.
    pub(super) fn terms(&self, slips: &Slips) -> SpinTerms {
        SpinTerms {
            j_over_dt: self.j_over_dt,
            omega: self.omega,
            coulomb: self.coulomb,
            max_torque: self.radius * slips.max_force[0],
        }
    }

    /// The tyre's torque against the spin, `r·Fx` (N·m), at the spin `w`, and its slope
    /// per rad/s.
    pub(super) fn tyre_torque(&self, slips: &Slips, w: f64) -> (f64, f64) {
        let t = self.forces_at(slips, w);
        (self.radius * t.fx, self.radius * t.dfx_dkappa * self.dkappa_dw)
    }

    /// The tyre's forces at the spin `w`, from the solve's last evaluation where it
    /// lies within the accepted step.
    pub(super) fn forces(&self, s: &Slips, w: f64) -> TyreForces {
        match self.last.get() {
            (at, t) if at == w => t,
            (at, t) if (w - at).abs() <= self.accept => {
                t.carried_to(&s.tyre, self.kappa_at(s, at), self.kappa_at(s, w), s.sigma)
            }
            _ => self.forces_at(s, w),
        }
    }
}
