//! A car in a steady turn at the limit, as [`VehicleSettings::lateral_limit`] reads it
//! (the plan's module docs): each axle's share of the turn's force on its wheels at
//! their loads and one slip, the yaw moments that move the shares, and the drive that
//! holds the speed out of the driven wheels' friction ellipses, solved together in
//! [`PASSES`] rounds. The core's `tests/it/plan.rs` holds it to the closed forms.

use super::*;
use crate::WheelSettings;
use crate::limits::STANDARD_GRAVITY as G;
use crate::math;

/// The least speed (m/s) at which [`VehicleSettings::lateral_limit`] reads the
/// Ackermann's radius (`v²/a`; at rest the turn would be a point).
const ACKERMANN_SPEED: f32 = 10.0;

/// How many rounds [`VehicleSettings::lateral_limit`] takes to solve the drive that holds
/// the speed with the slips it moves (each round's drag is within a fraction of a per
/// cent of the last by the third).
const PASSES: usize = 5;

/// A car's steady turn at speed `v`: what does not change with the lateral acceleration.
pub(crate) struct SteadyTurn<'a> {
    s: &'a VehicleSettings,
    /// The speed (m/s).
    v: f32,
    /// The mass (kg).
    m: f32,
    /// The number of axles.
    n: usize,
    /// Each axle's static load (N).
    static_loads: Vec<f32>,
    /// Their sum (N).
    weight: f32,
    /// The first and the last axle's downforce at `v` (N).
    downforce: [f32; 2],
    /// The centre of mass' height over the roll axis (m).
    d: f32,
    /// Each axle's roll stiffness (N·m/rad) and their sum.
    stiffness: Vec<f32>,
    k_total: f32,
    /// `K/(K − m·g·d)`: the body's roll moving its centre of mass out.
    rolled: f32,
    /// The wheelbase (m).
    wheelbase: f32,
    /// Each axle's drive share.
    drive: Vec<f32>,
}

impl<'a> SteadyTurn<'a> {
    /// The turn of `s` at `v` (m/s).
    pub(crate) fn new(s: &'a VehicleSettings, v: f32) -> Self {
        let m = s.chassis.mass.max(1e-3);
        let n = s.axles.len();
        let static_loads: Vec<f32> = (0..n)
            .map(|i| s.corner_load(i) * s.axles[i].wheel_count() as f32)
            .collect();
        let weight: f32 = static_loads.iter().sum::<f32>().max(1e-3);
        // The roll axis at the centre of mass: the roll centres weighted by the loads.
        let axis = (0..n)
            .map(|i| static_loads[i] * s.axle_geometry(i).roll_centre_height)
            .sum::<f32>()
            / weight;
        let d = s.centre_of_mass_height() - axis;
        let stiffness: Vec<f32> = (0..n).map(|i| s.roll_stiffness(i)).collect();
        let k_total: f32 = stiffness.iter().sum();
        // The body rolls by `φ = m·d·a/(K − m·g·d)` (Milliken & Milliken §18.4), and its
        // centre of mass moves outwards with it: the roll moment is `m·d·(a + g·φ)`,
        // `K/(K − m·g·d)` times the lateral force's alone.
        let toppling = m * G * d;
        let rolled = if k_total > toppling {
            k_total / (k_total - toppling)
        } else {
            1.0
        };
        let mut drive = vec![0.0f32; n];
        s.drive_shares(&mut drive);
        SteadyTurn {
            s,
            v,
            m,
            n,
            static_loads,
            weight,
            downforce: s.aero.downforce(v),
            d,
            stiffness,
            k_total,
            rolled,
            wheelbase: s.wheelbase().max(0.5),
            drive,
        }
    }

    /// Axle `i`'s wheels' loads (N) at lateral acceleration `a` (m/s²): the outer then
    /// the inner, and how many wheels it has.
    fn loads(&self, i: usize, a: f32) -> ([f32; 2], usize) {
        let axle = &self.s.axles[i];
        let aero = if i == 0 {
            self.downforce[0]
        } else if i + 1 == self.n {
            self.downforce[1]
        } else {
            0.0
        };
        let load = self.static_loads[i] + aero;
        if axle.wheel_count() == 1 {
            return ([load, 0.0], 1);
        }
        let roll = if self.k_total > 0.0 {
            self.stiffness[i] / self.k_total
        } else {
            self.static_loads[i] / self.weight
        };
        let t = (2.0 * axle.half_track).max(1e-3);
        let transfer = a / t
            * (self.static_loads[i] / G * self.s.axle_geometry(i).roll_centre_height
                + self.m * self.d * roll * self.rolled);
        let half = 0.5 * load;
        let moved = transfer.clamp(0.0, half);
        ([half + moved, half - moved], 2)
    }

    /// Whether every axle gives its share of the turn's force at `a` (m/s²), the driven
    /// ones with the drive that holds the speed taken out of their friction ellipses.
    /// The drive (the road load and the slips' drag), the yaw moments and the steer
    /// and the slips they move are solved together: [`PASSES`] rounds of the one, then
    /// the other.
    pub(crate) fn holds(&self, a: f32) -> bool {
        let mut left = vec![[1.0f32; 2]; self.n];
        let mut slips = vec![0.0f32; self.n];
        let mut offsets = vec![[0.0f32; 2]; self.n];
        // The steered axles' centre angle (rad) the turn takes.
        let mut centre = 0.0f32;
        // The yaw moment (N·m) against the turn of the tyres' aligning torques and the
        // driven wheels' forces (an inner wheel driven harder than the outer one, a
        // locking differential's): the first axle carries the more for it, the last
        // the less (the yaw balanced over the wheelbase).
        let mut moment = 0.0f32;
        // The tyres' aligning torques (N·m), each turning its wheel towards the way it
        // goes: the car out of the turn.
        let mut aligning = 0.0f32;
        let loads: Vec<([f32; 2], usize)> = (0..self.n).map(|i| self.loads(i, a)).collect();
        for pass in 0..=PASSES {
            let mut drag = self.s.resistance_force(self.v);
            for i in 0..self.n {
                let w = &self.s.axles[i].wheel;
                let (loads, count) = loads[i];
                let wheels: [TurningWheel; 2] = [0, 1].map(|k| TurningWheel {
                    load: loads[k],
                    left: left[i][k],
                    offset: offsets[i][k],
                });
                let wheels = &wheels[..count];
                let couple = if i == 0 && self.n > 1 {
                    moment / self.wheelbase
                } else if i + 1 == self.n && self.n > 1 {
                    -moment / self.wheelbase
                } else {
                    0.0
                };
                // A steered axle's wheels push at their steer to the body: its
                // force across the body is `cos δ` of theirs.
                let steer = if self.s.axles[i].steered {
                    math::cos(centre)
                } else {
                    1.0
                };
                let demand = (self.m * a * self.static_loads[i] / self.weight + couple) / steer.max(0.5);
                let (slip, most) = axle_peak(w, wheels);
                if most < demand {
                    return false;
                }
                // The slip it runs at: its wheels' forces, square to them, lean back
                // from the way it goes by the slip angle.
                let s = axle_slip(w, wheels, demand.max(0.0), slip);
                drag += demand.max(0.0) * s / (1.0 + s * s).sqrt();
                slips[i] = s;
                aligning += axle_aligning(w, wheels, s);
            }
            if pass == PASSES {
                break;
            }
            moment = aligning;
            aligning = 0.0;
            for i in (0..self.n).filter(|&i| self.drive[i] > 0.0) {
                let axle = &self.s.axles[i];
                let w = &axle.wheel;
                let (loads, count) = loads[i];
                let grip = |f: f32| w.longitudinal_tyre().max_value() * w.load_grip_factor(f as f64) as f32 * f;
                let grips = [grip(loads[0]), grip(loads[1])];
                // What the inner wheel's lateral force at the axle's slip leaves.
                let room = {
                    let load = loads[1] as f64;
                    let most = w.lateral_tyre().max_value() * w.load_grip_factor(load) as f32;
                    let slip = (slips[i] + offsets[i][1]).max(0.0);
                    let used = (w.lateral_friction(slip, load) * left[i][1] / most.max(1e-6)).min(1.0);
                    grips[1] * (1.0 - used * used).sqrt()
                };
                let along = axle_drive_split(axle, self.s.drive_radius(), drag * self.drive[i], room, count);
                if count == 2 {
                    moment += (along[1] - along[0]) * axle.half_track;
                }
                for k in 0..count {
                    let used = along[k].abs() / grips[k].max(1e-3);
                    if used >= 1.0 {
                        // A wheel spins: the axle cannot carry the drive.
                        return false;
                    }
                    left[i][k] = (1.0 - used * used).sqrt();
                }
            }
            // The steered axles' wheels turned by the Ackermann at the centre angle
            // the turn takes: the path's `atan(L/R)` (`R = v²/a`, read at no less
            // than `ACKERMANN_SPEED`) and the front's slip angle less the rear's.
            // The linkage's split between the wheels matches the way each goes
            // round the turn (the kinematic `atan(L/(R ∓ t/2))`) only without slip:
            // what the slip angles add to the centre angle, it splits too, and each
            // wheel runs at that much past the axle's slip.
            let floor = self.v.max(ACKERMANN_SPEED);
            let radius = floor * floor / a.max(1e-3);
            let kinematic = math::atan(self.wheelbase / radius);
            centre = (kinematic + math::atan(slips[0]) - math::atan(slips[self.n - 1])).max(0.0);
            for i in (0..self.n).filter(|&i| self.s.axles[i].steered && self.s.axles[i].wheel_count() == 2) {
                let half = self.s.axles[i].half_track;
                if radius <= 2.0 * half {
                    continue;
                }
                let l = self.s.wheelbase_for(i);
                let (ways_in, ways_out) = (math::atan(l / (radius - half)), math::atan(l / (radius + half)));
                let way = math::atan(l / radius);
                // Turning left: the left wheel is the inner one.
                let (inner, outer) = self.s.ackermann_angles(i, centre.to_degrees());
                offsets[i] = [
                    (outer.to_radians() - centre) - (ways_out - way),
                    (inner.to_radians() - centre) - (ways_in - way),
                ];
            }
        }
        true
    }
}

/// One wheel of an axle in a steady turn, as the lateral limit reads it.
#[derive(Clone, Copy, Debug)]
struct TurningWheel {
    /// Its load (N).
    load: f32,
    /// What its drive leaves of its lateral grip (the friction ellipse), 0..=1.
    left: f32,
    /// Its slip past the axle's (its steer past the axle's centre angle, the
    /// Ackermann's: positive on the inner wheel).
    offset: f32,
}

/// An axle's lateral force (N) at the axle's lateral slip `slip` (its wheels run side by
/// side, each `offset` past it), each wheel's force times its `left`.
fn axle_force(w: &WheelSettings, wheels: &[TurningWheel], slip: f32) -> f32 {
    wheels
        .iter()
        .map(|t| t.left * w.lateral_friction((slip + t.offset).max(0.0), t.load as f64) * t.load)
        .sum()
}

/// The most lateral force (N) an axle's `wheels` give together, and the axle's slip
/// there: each wheel peaks at its own slip ([`WheelSettings::lateral_peak_slip`]: a
/// light wheel at a smaller slip than a loaded one) less its offset, so the axle's best
/// lies between (golden-section search).
fn axle_peak(w: &WheelSettings, wheels: &[TurningWheel]) -> (f32, f32) {
    let slips = wheels
        .iter()
        .map(|t| (w.lateral_peak_slip(t.load as f64) - t.offset).max(0.0));
    let (mut lo, mut hi) = slips.fold((f32::INFINITY, 0.0f32), |(lo, hi), s| (lo.min(s), hi.max(s)));
    let force = |s: f32| axle_force(w, wheels, s);
    let ratio = 0.5 * (5.0f32.sqrt() - 1.0);
    for _ in 0..24 {
        if hi - lo < 1e-4 {
            break;
        }
        let (x1, x2) = (hi - ratio * (hi - lo), lo + ratio * (hi - lo));
        if force(x1) < force(x2) {
            lo = x1;
        } else {
            hi = x2;
        }
    }
    let s = 0.5 * (lo + hi);
    (s, force(s))
}

/// An axle's aligning torque (N·m) at its slip `slip`: each wheel's force a pneumatic
/// trail behind its contact, `t₀·(1 − σ/σ*)` (`σ*` its peak slip; none past it).
fn axle_aligning(w: &WheelSettings, wheels: &[TurningWheel], slip: f32) -> f32 {
    wheels
        .iter()
        .map(|t| {
            let s = (slip + t.offset).max(0.0);
            let own = w.lateral_peak_slip(t.load as f64);
            let trail = w.pneumatic_trail() * (1.0 - s / own.max(1e-6)).max(0.0);
            trail * t.left * w.lateral_friction(s, t.load as f64) * t.load
        })
        .sum()
}

/// The axle's slip (below `peak`) at which its `wheels` give `demand` (N).
fn axle_slip(w: &WheelSettings, wheels: &[TurningWheel], demand: f32, peak: f32) -> f32 {
    let (mut lo, mut hi) = (0.0f32, peak);
    for _ in 0..24 {
        let mid = 0.5 * (lo + hi);
        if axle_force(w, wheels, mid) < demand {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// How an axle's differential splits a drive force `force` (N) between its wheels
/// (`count` of them, the outer then the inner) in a steady turn, the inner wheel able to
/// take `room` (N) along the road (what its friction ellipse leaves of its grip beside
/// its lateral force): an open one equally; a locking one sends more to the inner wheel,
/// which turns slower on its smaller circle, by as much as it holds between the two
/// sides (a limited-slip one its preload over the wheels' radius `radius` m plus its
/// locking times the force, a locked one all of it), but no more than the inner wheel
/// has room for: past that it spins up, turns faster than the outer one, and the
/// differential sends the rest outwards (both are seen on the runner's circle:
/// `docs/vehicle.md`).
fn axle_drive_split(axle: &AxleSettings, radius: f32, force: f32, room: f32, count: usize) -> [f32; 2] {
    if count == 1 {
        return [force, 0.0];
    }
    let even = 0.5 * force;
    let most = match axle.differential {
        DifferentialKind::Open => 0.0,
        DifferentialKind::Locked => force.abs(),
        DifferentialKind::LimitedSlip { preload, locking, .. } => {
            (preload / radius.max(1e-3) + locking * force.abs()).min(force.abs())
        }
    };
    let inner = room.clamp(even - 0.5 * most, even + 0.5 * most);
    [force - inner, inner]
}
