//! What follows from a settings without running it: the engine's torque at an rpm and
//! throttle, the gearbox's ratios, the drive and brake shares, the drive and resistance
//! forces, the ride height and the steering geometry.

use super::*;
use crate::limits::STANDARD_GRAVITY;

/// The widest spacing (m) between neighbouring axles that share their load as one
/// bogie (a truck's tandem is 1.3–1.8 m; see
/// [`VehicleSettings::static_axle_load`]).
pub const BOGIE_SPREAD: f32 = 2.0;

/// The heave frequency (Hz) of the lightest chassis the inspector offers
/// ([`VehicleSettings::lightest_sprung_mass`]).
pub const LIGHTEST_HEAVE_HZ: f32 = 20.0;

impl VehicleSettings {
    /// Each axle's share of the drive torque (0 for axles that are not driven): the
    /// first two driven axles split by `front_torque_share`, further ones share equally.
    pub fn drive_shares(&self, out: &mut [f32]) {
        out.iter_mut().for_each(|s| *s = 0.0);
        let driven: usize = self.axles.iter().filter(|a| a.driven).count();
        let mut k = 0;
        for (i, a) in self.axles.iter().enumerate() {
            if !a.driven || i >= out.len() {
                continue;
            }
            out[i] = match driven {
                2 if k == 0 => self.front_torque_share,
                2 => 1.0 - self.front_torque_share,
                n => 1.0 / n as f32,
            };
            k += 1;
        }
    }

    /// Brake share of each axle: `front_bias` on the first, the rest equally on the
    /// others.
    pub fn brake_share(&self, axle: usize) -> f32 {
        let n = self.axles.len();
        match (n, axle) {
            (1, _) => 1.0,
            (_, 0) => self.brakes.front_bias,
            _ => (1.0 - self.brakes.front_bias) / (n - 1) as f32,
        }
    }

    /// Radius of the first driven axle's wheels (m), or the first axle's.
    pub fn drive_radius(&self) -> f32 {
        self.axles
            .iter()
            .find(|a| a.driven)
            .or(self.axles.first())
            .map(|a| a.wheel.radius())
            .unwrap_or(0.3)
    }

    /// Rolling-resistance force on flat ground at speed `v` (N): each axle's coefficient
    /// times its static load, plus the same coefficient on the downforce.
    pub fn rolling_resistance_force(&self, v: f32) -> f32 {
        let n = self.axles.len().max(1) as f32;
        let c: f32 = self
            .axles
            .iter()
            .map(|a| a.wheel.rolling_coefficient(v as f64) as f32)
            .sum::<f32>()
            / n;
        let down = 0.5 * self.aero.air_density * (self.aero.downforce_front + self.aero.downforce_rear) * v * v;
        c * (self.chassis.mass * STANDARD_GRAVITY + down).max(0.0)
    }

    /// Drive force at the wheels in `gear` at road speed `v` (m/s) and full throttle (N),
    /// with no tyre slip; 0 past the redline.
    pub fn drive_force(&self, gear: i32, v: f32) -> f32 {
        let r = self.drive_radius();
        let ratio = self.gearbox.total_ratio(gear).abs();
        let rpm = v / r * ratio * RAD_PER_S_TO_RPM;
        if ratio == 0.0 || rpm > self.engine.redline_rpm {
            return 0.0;
        }
        self.engine.curve_torque(rpm.max(self.engine.idle_rpm)) * ratio * self.gearbox.efficiency / r
    }

    /// The forward gear an automatic gearbox would be in at a steady `v` (m/s): the
    /// lowest whose engine speed stays under 95 % of the shift-up speed (the top gear
    /// past them all). For a car put in motion at speed (a test, a game's spawn on the
    /// road) with its engine turning with its wheels.
    pub fn gear_for_speed(&self, v: f32) -> i32 {
        let rpm = |g: i32| v.abs() / self.drive_radius() * self.gearbox.total_ratio(g) * RAD_PER_S_TO_RPM;
        let top = self.gearbox.top_gear();
        (1..=top)
            .find(|&g| rpm(g) <= 0.95 * self.gearbox.shift_up_rpm)
            .unwrap_or(top)
    }

    /// The lightest chassis (kg, 1 ..= 100 000) the inspector offers for these springs:
    /// the mass whose heave on all of them rings at [`LIGHTEST_HEAVE_HZ`]
    /// (`Σk / (2π·20 Hz)²`); a lighter body is a spring's projectile. A preset may still
    /// set less (the validation's limit is 1 kg). The inspector's edge probe
    /// (`every_field_typed_at_the_bottom_of_its_range`) types it; the figures are in
    /// `docs/inspector.md`.
    pub fn lightest_sprung_mass(&self) -> f32 {
        let k: f32 = self
            .axles
            .iter()
            .map(|a| a.wheel_count() as f32 * a.wheel.suspension_spring())
            .sum();
        let w = core::f32::consts::TAU * LIGHTEST_HEAVE_HZ;
        (k / (w * w)).clamp(1.0, 100_000.0)
    }

    /// Resistance on flat ground at `v` (N): aerodynamic drag, rolling resistance and
    /// the drivetrain's drag torque at the driven wheels.
    pub fn resistance_force(&self, v: f32) -> f32 {
        let driven: usize = self.axles.iter().filter(|a| a.driven).map(|a| a.wheel_count()).sum();
        let drivetrain = driven as f32 * self.gearbox.drag_torque / self.drive_radius();
        self.aero.drag_factor() * v * v + self.rolling_resistance_force(v) + drivetrain
    }

    /// Height of the chassis origin above flat ground (m) at which the lowest wheel just
    /// touches it with the suspension fully extended: spawn a little above this.
    pub fn touch_height(&self) -> f32 {
        self.axles
            .iter()
            .map(|a| -(a.mount_height - a.wheel.suspension_length() - a.wheel.radius()))
            .fold(0.0, f32::max)
    }

    /// Each wheel of `axle`'s static load (N): its share (half, or all on a
    /// [`single`](AxleSettings::single) axle) of
    /// [`static_axle_load`](Self::static_axle_load) with nothing on the hitch.
    pub fn corner_load(&self, axle: usize) -> f32 {
        self.static_axle_load(axle, 0.0, 0.0) / self.axles[axle].wheel_count() as f32
    }

    /// `axle`'s static load (N, ≥ 0) with `extra` N more pressing down at `extra_z` (m,
    /// along the chassis; a trailer's nose load on the hitch, 0 for none).
    ///
    /// Two axles take the weight by the lever rule. With more, the axles form groups
    /// (neighbours no more than [`BOGIE_SPREAD`] apart that all steer or all do not: a
    /// truck's tandem or tridem), each sharing its load equally as a load-equalising
    /// bogie does; two groups take the weight by the lever rule between their centres,
    /// one shares it, and three or more take it as a rigid body on the springs
    /// (`k·(a + b·z)` per axle, `a` and `b` from the force and moment balance).
    /// A trailer's axles share its weight less its [`nose_load`](Self::nose_load)
    /// equally (its coupling is the other support; `extra` is not used).
    pub fn static_axle_load(&self, axle: usize, extra: f32, extra_z: f32) -> f32 {
        let w = self.chassis.mass * STANDARD_GRAVITY;
        let n = self.axles.len().max(1);
        if self.trailer.is_some() {
            return ((w - self.nose_load()) / n as f32).max(0.0);
        }
        let total = w + extra;
        let zc = if extra != 0.0 && total.abs() > 1e-6 {
            (w * self.chassis.centre_of_mass[2] + extra * extra_z) / total
        } else {
            self.chassis.centre_of_mass[2]
        };
        let mut groups = self.axle_groups();
        let load = match (groups.next(), groups.next(), groups.next()) {
            (None, ..) | (Some(_), None, _) => total / n as f32,
            (Some((f0, f1)), Some((r0, r1)), None) => {
                let (zf, zr) = (self.group_centre(f0, f1), self.group_centre(r0, r1));
                // Each side by its own lever (not the other's remainder): a two-axle car's
                // loads are the bits they always were.
                let (arm, (lo, hi)) = if axle < r0 {
                    (zr - zc, (f0, f1))
                } else {
                    (zc - zf, (r0, r1))
                };
                let share = if (zr - zf).abs() < 1e-3 {
                    0.5 * total
                } else {
                    total * arm / (zr - zf)
                };
                share / (hi - lo) as f32
            }
            _ => self.sprung_share(axle, total, zc),
        };
        load.max(0.0)
    }

    /// The axles' groups as index ranges `[start, end)`, front to back (see
    /// [`static_axle_load`](Self::static_axle_load)); two axles are two groups. Computed
    /// as it is read (no allocation: the vehicle step reads it).
    pub fn axle_groups(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        let n = self.axles.len();
        let joins = move |i: usize| {
            n > 2 && i > 0 && i < n && {
                let (a, prev) = (&self.axles[i], &self.axles[i - 1]);
                (a.z - prev.z).abs() <= BOGIE_SPREAD && a.steered == prev.steered
            }
        };
        let mut start = 0;
        (0..n).filter_map(move |i| {
            if joins(i + 1) {
                return None;
            }
            let group = (start, i + 1);
            start = i + 1;
            Some(group)
        })
    }

    /// The mean `z` of the axles `lo..hi` (m).
    fn group_centre(&self, lo: usize, hi: usize) -> f32 {
        self.axles[lo..hi].iter().map(|a| a.z).sum::<f32>() / (hi - lo).max(1) as f32
    }

    /// A rigid body's share on `axle` (N) among springs of each axle's rate: `k·(a + b·z)`
    /// with `Σ = total` and the moment about the centre of mass `zc` balanced.
    fn sprung_share(&self, axle: usize, total: f32, zc: f32) -> f32 {
        let (mut s0, mut s1, mut s2) = (0.0f64, 0.0f64, 0.0f64);
        for a in &self.axles {
            let (k, z) = (a.wheel.suspension_spring().max(1.0) as f64, a.z as f64);
            (s0, s1, s2) = (s0 + k, s1 + k * z, s2 + k * z * z);
        }
        let (t, m) = (total as f64, total as f64 * zc as f64);
        let det = s0 * s2 - s1 * s1;
        if det.abs() < 1e-9 * s0 * s0 {
            return total / self.axles.len() as f32;
        }
        let (a, b) = ((t * s2 - s1 * m) / det, (s0 * m - s1 * t) / det);
        let ax = &self.axles[axle];
        (ax.wheel.suspension_spring().max(1.0) as f64 * (a + b * ax.z as f64)) as f32
    }

    /// The compression of `axle`'s springs at rest on flat ground (m): what its
    /// [`ride_height`](AxleSettings::ride_height) leaves, or the static load over the
    /// rate (preload included), within the travel.
    pub fn static_compression(&self, axle: usize) -> f32 {
        let a = &self.axles[axle];
        let (r, l) = (a.wheel.radius(), a.wheel.suspension_length());
        match a.ride_height {
            Some(h) => (l + r - h).clamp(0.1 * l, 0.9 * l),
            None => {
                let load = self.corner_load(axle) - a.wheel.spring_preload();
                (load / a.wheel.suspension_spring().max(1.0)).clamp(0.0, l)
            }
        }
    }

    /// The spring preload (N) that puts `axle` at its
    /// [`ride_height`](AxleSettings::ride_height): `load − rate · x`; `None` without one.
    pub fn ride_preload(&self, axle: usize) -> Option<f32> {
        let a = &self.axles[axle];
        a.ride_height?;
        Some(self.corner_load(axle) - a.wheel.suspension_spring() * self.static_compression(axle))
    }

    /// Height of the centre of mass above flat ground at rest (m): the chassis origin's
    /// [`touch_height`](Self::touch_height) plus the centre of mass' height in the
    /// chassis, less the axles' mean [`static_compression`](Self::static_compression).
    pub fn centre_of_mass_height(&self) -> f32 {
        let n = self.axles.len().max(1) as f32;
        let sag: f32 = (0..self.axles.len()).map(|i| self.static_compression(i)).sum::<f32>() / n;
        self.touch_height() + self.chassis.centre_of_mass[1] - sag
    }

    /// The wheelbase (m): from the first axle to the last along the chassis.
    pub fn wheelbase(&self) -> f32 {
        let (lo, hi) = self
            .axles
            .iter()
            .fold((f32::MAX, f32::MIN), |(lo, hi), a| (lo.min(a.z), hi.max(a.z)));
        (hi - lo).max(0.0)
    }

    /// The links' slopes of `axle`'s wheels (roll centre, braking, driving; see
    /// [`WheelSettings::roll_centre_slope`](crate::WheelSettings::roll_centre_slope)) from the axle's
    /// `roll_centre_height`, `anti_dive` and `anti_squat` ([`Self::axle_geometry`]):
    /// `h_rc / half_track` (0 on a [`single`](AxleSettings::single) axle), and
    /// `pct / 100 · h_cg / (β · L)` with β the axle's brake or drive share; 0 where β
    /// or L is 0. The wheel's setters clamp them to ±1.
    pub fn link_slopes(&self, axle: usize) -> [f32; 3] {
        let a = self.axle_geometry(axle);
        // One wheel on the centre line has no roll centre across it.
        let roll = if self.axles[axle].single {
            0.0
        } else {
            a.roll_centre_height / self.axles[axle].half_track.max(0.01)
        };
        let (h, l) = (self.centre_of_mass_height(), self.wheelbase());
        let pitch = |pct: f32, share: f32| {
            if pct == 0.0 || share <= 0.0 || l <= 0.0 {
                0.0
            } else {
                pct / 100.0 * h / (share * l)
            }
        };
        let mut drive = [0.0; 16];
        self.drive_shares(&mut drive);
        let drive_share = drive.get(axle).copied().unwrap_or(0.0);
        [
            roll,
            pitch(a.anti_dive, self.brake_share(axle)),
            pitch(a.anti_squat, drive_share),
        ]
    }

    /// Wheelbase seen by the steered `axle` (m): the distance to the centre of the
    /// rearmost group of axles that do not steer (a tandem's centre; see
    /// [`axle_groups`](Self::axle_groups)), or to the last axle.
    pub fn wheelbase_for(&self, axle: usize) -> f32 {
        let z = self.axles[axle].z;
        let rear = self
            .axle_groups()
            .filter(|&(lo, _)| !self.axles[lo].steered)
            .last()
            .or_else(|| self.axle_groups().last())
            .map(|(lo, hi)| self.group_centre(lo, hi))
            .unwrap_or(z);
        (rear - z).abs()
    }
}
