//! Shared helpers for the core tests: an independent magic formula and small
//! "quarter car" rigs that integrate a mass with the wheel's forces.
#![allow(dead_code)]

use wheelcollider_core::*;

pub const G: f64 = 9.81;
pub const STEPS: [f32; 4] = [1.0 / 30.0, 1.0 / 60.0, 1.0 / 120.0, 1.0 / 240.0];

/// The magic formula written out again, in f64, for independent checks.
pub fn mf_ref(b: f64, c: f64, d: f64, e: f64, s: f64) -> f64 {
    let bs = b * s;
    d * (c * (bs - e * (bs - bs.atan())).atan()).sin()
}

/// Inverse of the default curve on its rising branch, by bisection.
pub fn mf_inverse_default(mu: f64) -> f64 {
    let (mut lo, mut hi) = (0.0, 0.1537); // below the default peak
    assert!(mf_ref(10.0, 1.65, 1.5, 0.97, hi) > mu);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mf_ref(10.0, 1.65, 1.5, 0.97, mid) < mu {
            lo = mid
        } else {
            hi = mid
        }
    }
    0.5 * (lo + hi)
}

/// A contact at hit distance `d` with the given contact-patch velocities.
pub fn contact(d: f32, vx: f32, vy: f32) -> Contact {
    Contact {
        hit_distance: d,
        forward_velocity: vx,
        sideways_velocity: vy,
        ..Default::default()
    }
}

/// One step of a wheel at 4 000 N of load (compression 0.1 m of the default spring),
/// from a fresh state spinning at `omega` (rad/s), on ground moving past it at
/// (`vx`, `vy`) (m/s), with `brake` (N·m) on it; 60 Hz.
pub fn one_step(settings: &WheelSettings, (vx, vy): (f32, f32), omega: f32, brake: f32) -> StepOutput {
    let mut state = StepState {
        compression: 0.1,
        angular_velocity: omega,
        ..Default::default()
    };
    let input = StepInput {
        input: WheelInput {
            brake_torque: brake,
            ..Default::default()
        },
        contact: Some(contact(0.3, vx, vy)),
        ..Default::default()
    };
    step(settings, &mut state, input, 1.0 / 60.0)
}

/// A mass `m` (kg) carried by one wheel over flat ground, moving vertically only.
/// Returns the height history of the mount point above the ground.
pub struct QuarterCar {
    pub settings: WheelSettings,
    pub state: StepState,
    pub mass: f64,
    /// Mount point height above the ground (m) = the ray's hit distance.
    pub height: f64,
    pub velocity: f64,
    /// Pass the mass as the effective mass to the bump stop.
    pub tell_mass: bool,
}

impl QuarterCar {
    pub fn new(mass: f64, height: f64) -> Self {
        Self {
            settings: WheelSettings::default(),
            state: StepState::default(),
            mass,
            height,
            velocity: 0.0,
            tell_mass: true,
        }
    }

    /// One step: sweep (a ray of length suspension + radius), wheel, then semi-implicit
    /// Euler for the mass.
    pub fn step(&mut self, dt: f32) -> StepOutput {
        let reach = (self.settings.suspension_length() + self.settings.radius()) as f64;
        let contact = (self.height <= reach).then(|| Contact {
            hit_distance: self.height.max(0.0) as f32,
            ..Default::default()
        });
        let suspension = Suspension::Explicit {
            mass: if self.tell_mass { self.mass as f32 } else { 0.0 },
            approach_speed: (-self.velocity) as f32,
        };
        let out = step(
            &self.settings,
            &mut self.state,
            StepInput {
                contact,
                suspension,
                ..Default::default()
            },
            dt,
        );
        let dt = dt as f64;
        self.velocity += (out.load as f64 / self.mass - G) * dt;
        self.height += self.velocity * dt;
        out
    }
}

/// The shipped presets' list, shared by every crate's tests (`wheelcollider_testing`).
pub use wheelcollider_testing::presets::{
    PRESETS, TRACKED, TRAILERS, TWO_WHEELERS, VARIANTS, preset, preset_text, presets_dir,
};
