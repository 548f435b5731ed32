//! The robot drivers: steering to a road-wheel angle, pure pursuit along a line (the
//! plugin's `drivers::pursuit`), and a cruise control, each reading the harness's
//! kinematics once per step.

use bevy::prelude::*;
use wheelcollider_avian::drivers::{lookahead, pursuit_steer};
use wheelcollider_core::vehicle::DriverInput;

use crate::sim::Sim;

/// A two-wheeler's look-ahead: (s of travel, least m, most m).
const LEAN_LOOKAHEAD: (f32, f32, f32) = (2.0, 10.0, 80.0);

impl Sim {
    /// Steering input (−1..1) that puts the road wheels at `angle` (deg, positive left)
    /// at the current speed.
    pub(crate) fn steer_for(&self, angle: f32) -> f32 {
        (angle / self.settings.steering.lock_at(self.k.forward_speed).max(1e-3)).clamp(-1.0, 1.0)
    }

    /// Pure-pursuit steering towards `target` (world, on the ground plane): the plugin's
    /// [`pursuit_steer`], at the car's forward speed.
    pub(crate) fn pursue(&self, target: Vec3) -> f32 {
        pursuit_steer(
            &self.settings,
            self.k.position,
            self.k.forward,
            target,
            self.k.forward_speed,
        )
    }

    /// Look-ahead distance of the path-following driver (m). A two-wheeler's looks
    /// further: its rider takes the better part of a second to lean it into a turn
    /// (the countersteer first), and a pursuit whose look-ahead time is shorter than
    /// that weaves.
    pub(crate) fn lookahead(&self) -> f32 {
        match self.settings.two_wheeler {
            Some(_) => lookahead(self.k.speed, LEAN_LOOKAHEAD.0, LEAN_LOOKAHEAD.1, LEAN_LOOKAHEAD.2),
            None => lookahead(self.k.speed, 0.6, 5.0, 30.0),
        }
    }

    /// Steering that keeps the car on the line x = 0, heading −Z.
    pub(crate) fn keep_lane(&self) -> f32 {
        let p = self.k.position;
        self.pursue(Vec3::new(0.0, p.y, p.z - self.lookahead()))
    }

    /// One step holding `target` (m/s) on the line x = 0.
    pub(crate) fn cruise_in_lane(&mut self, target: f32) {
        let steer = self.keep_lane();
        self.cruise_step(target, steer);
    }

    /// Throttle / brake that hold `target` (m/s).
    pub(crate) fn cruise(&self, target: f32) -> (f32, f32) {
        let e = target - self.k.forward_speed;
        if e > -0.5 {
            ((0.3 + 0.4 * e).clamp(0.0, 1.0), 0.0)
        } else {
            (0.0, (-0.1 * e).clamp(0.0, 0.3))
        }
    }

    /// One step with `steer`, holding `target` (m/s) with the cruise control.
    pub(crate) fn cruise_step(&mut self, target: f32, steer: f32) {
        let (throttle, brake) = self.cruise(target);
        self.step(DriverInput {
            throttle,
            brake,
            steer,
            ..Default::default()
        });
    }
}
