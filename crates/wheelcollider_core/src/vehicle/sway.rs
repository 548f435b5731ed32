//! The linear model of a car and its trailer (Pacejka, *Tyre and Vehicle Dynamics*,
//! 3rd ed., §1.3.3, "The car-trailer combination"; the same single-track model Sharp &
//! Fernández Alonso use in "Car–caravan snaking, part 1", Proc. IMechE Part C 216,
//! 2002): the speed above which
//! a trailer's sway grows instead of dying out.
//!
//! Both bodies move at a constant forward speed `U` on a flat road, each axle a single
//! tyre with a linear cornering stiffness; the degrees of freedom are the tow vehicle's
//! lateral velocity `v` and yaw rate `r` and the articulation `θ` (the trailer's heading
//! less the tow vehicle's). With the tow vehicle's axles `xᵢ` ahead of its centre of
//! mass, the hitch `c` behind it, the trailer's centre of mass `e` and its axles `dⱼ`
//! behind the coupling, and `H` the hitch's lateral force on the tow vehicle:
//!
//! ```text
//! slip angles   αᵢ = (v + xᵢ·r)/U                  Fᵢ = −Cᵢ·αᵢ
//!               αⱼ = (v − c·r − dⱼ·(r + θ') − U·θ)/U   Fⱼ = −Cⱼ·αⱼ
//! tow           m₁·(v' + U·r) = ΣFᵢ + H             I₁·r' = Σxᵢ·Fᵢ − c·H
//! trailer       m₂·ÿ₂ = ΣFⱼ − H                     I₂·(r' + θ'') = −e·H − Σ(dⱼ − e)·Fⱼ
//!               ÿ₂ = v' + U·r − (c + e)·r' − e·θ''
//! ```
//!
//! `H` eliminated, the three equations give `v'`, `r'` and `θ''` linear in
//! `(v, r, θ, θ')`; the sway is the oscillatory pair of the 4 × 4 system's eigenvalues.
//! The cornering stiffnesses are each tyre's
//! [`cornering_stiffness`](crate::WheelSettings::cornering_stiffness) at its static
//! load with the trailer's nose load on the hitch. Left out: roll and load transfer,
//! the tyres' lag (their relaxation length over `U`, small beside a sway period of
//! about 2 s), compliance and roll steer, the aerodynamic forces. The plugin's test
//! `sway_damping_crosses_zero_near_the_linear_critical_speed` compares the car with it.

use super::VehicleSettings;
use crate::limits::STANDARD_GRAVITY;
use crate::math;

/// The linear car-trailer model's numbers (SI units), from two [`VehicleSettings`] by
/// [`SwayModel::new`] or written by hand.
#[derive(Clone, Debug, PartialEq)]
pub struct SwayModel {
    /// The tow vehicle's mass (kg).
    pub tow_mass: f64,
    /// The tow vehicle's yaw inertia about its centre of mass (kg·m²).
    pub tow_inertia: f64,
    /// The tow vehicle's axles: (distance ahead of its centre of mass (m), cornering
    /// stiffness of the axle's two tyres (N/rad)).
    pub tow_axles: Vec<(f64, f64)>,
    /// The hitch's distance behind the tow vehicle's centre of mass (m).
    pub hitch: f64,
    /// The trailer's mass (kg).
    pub trailer_mass: f64,
    /// The trailer's yaw inertia about its centre of mass (kg·m²).
    pub trailer_inertia: f64,
    /// The trailer's centre of mass' distance behind its coupling (m).
    pub trailer_cg: f64,
    /// The trailer's axles: (distance behind the coupling (m), cornering stiffness of
    /// the axle's two tyres (N/rad)).
    pub trailer_axles: Vec<(f64, f64)>,
}

/// The sway mode at one speed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SwayMode {
    /// Damping ratio `−Re λ / |λ|`: positive dies out, negative grows.
    pub damping_ratio: f64,
    /// Damped frequency `|Im λ| / 2π` (Hz).
    pub frequency: f64,
}

impl SwayModel {
    /// The model of `trailer` behind `tow`, or `None` where `tow` has no hitch or
    /// `trailer` is not a trailer.
    pub fn new(tow: &VehicleSettings, trailer: &VehicleSettings) -> Option<SwayModel> {
        let (hitch, coupling) = (tow.hitch.as_ref()?, trailer.trailer.as_ref()?);
        let nose = trailer.nose_load();
        let tow_cg = tow.chassis.centre_of_mass[2];
        let axle = |s: &VehicleSettings, i: usize, load: f32| {
            let n = s.axles[i].wheel_count() as f64;
            n * s.axles[i].wheel.cornering_stiffness(load as f64 / n)
        };
        let tow_axles = (0..tow.axles.len())
            .map(|i| {
                let load = tow.static_axle_load(i, nose, hitch.position[2]);
                ((tow_cg - tow.axles[i].z) as f64, axle(tow, i, load))
            })
            .collect();
        let trailer_axles = (0..trailer.axles.len())
            .map(|i| {
                let load = trailer.static_axle_load(i, 0.0, 0.0);
                (
                    (trailer.axles[i].z - coupling.coupling[2]) as f64,
                    axle(trailer, i, load),
                )
            })
            .collect();
        Some(SwayModel {
            tow_mass: tow.chassis.mass as f64,
            tow_inertia: tow.chassis.principal_inertia()[1] as f64,
            tow_axles,
            hitch: (hitch.position[2] - tow_cg) as f64,
            trailer_mass: trailer.chassis.mass as f64,
            trailer_inertia: trailer.chassis.principal_inertia()[1] as f64,
            trailer_cg: (trailer.chassis.centre_of_mass[2] - coupling.coupling[2]) as f64,
            trailer_axles,
        })
    }

    /// The trailer's nose load (N) in this model: its weight by the lever rule between
    /// the coupling and its axles' mean distance.
    pub fn nose_load(&self) -> f64 {
        let n = self.trailer_axles.len().max(1) as f64;
        let d = self.trailer_axles.iter().map(|a| a.0).sum::<f64>() / n;
        self.trailer_mass * STANDARD_GRAVITY as f64 * (d - self.trailer_cg) / d.max(1e-3)
    }

    /// The 4 × 4 state matrix at `speed` (m/s, > 0) for the state `(v, r, θ, θ')`.
    pub fn state_matrix(&self, speed: f64) -> [[f64; 4]; 4] {
        let u = speed.max(0.1);
        let (m1, m2, c, e) = (self.tow_mass, self.trailer_mass, self.hitch, self.trailer_cg);
        let (i1, i2) = (self.tow_inertia, self.trailer_inertia);
        // The accelerations' coefficients (rows: the three balances, H eliminated).
        let mass = [
            [m1 + m2, -m2 * (c + e), -m2 * e],
            [-c * m2, i1 + c * m2 * (c + e), c * m2 * e],
            [-e * m2, i2 + e * m2 * (c + e), i2 + e * e * m2],
        ];
        let forces = |x: [f64; 4]| {
            let [v, r, theta, omega] = x;
            let (mut sum, mut tow_moment, mut trailer_sum, mut trailer_moment) = (0.0, 0.0, 0.0, 0.0);
            for &(xi, ci) in &self.tow_axles {
                let f = -ci * (v + xi * r) / u;
                (sum, tow_moment) = (sum + f, tow_moment + xi * f);
            }
            for &(d, cj) in &self.trailer_axles {
                let f = -cj * (v - c * r - d * (r + omega) - u * theta) / u;
                (trailer_sum, trailer_moment) = (trailer_sum + f, trailer_moment + d * f);
            }
            [
                sum + trailer_sum - (m1 + m2) * u * r,
                tow_moment - c * trailer_sum + c * m2 * u * r,
                -trailer_moment + e * m2 * u * r,
            ]
        };
        let mut a = [[0.0; 4]; 4];
        for k in 0..4 {
            let mut x = [0.0; 4];
            x[k] = 1.0;
            let [dv, dr, domega] = solve3(mass, forces(x));
            (a[0][k], a[1][k], a[3][k]) = (dv, dr, domega);
        }
        a[2][3] = 1.0;
        a
    }

    /// The least damped oscillatory mode at `speed` (m/s), or `None` when no
    /// eigenvalue pair oscillates.
    pub fn mode(&self, speed: f64) -> Option<SwayMode> {
        eigenvalues(&self.state_matrix(speed))
            .into_iter()
            .filter(|l| l.1.abs() > 1e-6)
            .map(|(re, im)| SwayMode {
                damping_ratio: -re / math::hypot(re, im),
                frequency: im.abs() / core::f64::consts::TAU,
            })
            .min_by(|a, b| a.damping_ratio.total_cmp(&b.damping_ratio))
    }

    /// The critical speed (m/s): the lowest speed up to `max` at which the sway's
    /// damping ratio reaches 0 (found on a 0.5 m/s grid, then by bisection to 1 mm/s),
    /// or `None` where it stays positive.
    pub fn critical_speed(&self, max: f64) -> Option<f64> {
        let zeta = |u: f64| self.mode(u).map_or(1.0, |m| m.damping_ratio);
        let mut lo = 1.0;
        while lo < max {
            let hi = (lo + 0.5).min(max);
            if zeta(hi) <= 0.0 {
                let (mut a, mut b) = (lo, hi);
                while b - a > 1e-3 {
                    let mid = 0.5 * (a + b);
                    if zeta(mid) > 0.0 { a = mid } else { b = mid }
                }
                return Some(0.5 * (a + b));
            }
            lo = hi;
        }
        None
    }
}

/// `m·x = b` for a 3 × 3 `m` by Cramer's rule (0 where `m` is singular).
fn solve3(m: [[f64; 3]; 3], b: [f64; 3]) -> [f64; 3] {
    let det = |m: &[[f64; 3]; 3]| {
        m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
    };
    let d = det(&m);
    if d.abs() < 1e-300 {
        return [0.0; 3];
    }
    core::array::from_fn(|k| {
        let mut mk = m;
        for (row, bi) in mk.iter_mut().zip(b) {
            row[k] = bi;
        }
        det(&mk) / d
    })
}

/// The eigenvalues `(re, im)` of a 4 × 4 matrix: its characteristic polynomial
/// (Faddeev–LeVerrier) and the polynomial's roots by the Durand–Kerner iteration.
fn eigenvalues(a: &[[f64; 4]; 4]) -> [(f64, f64); 4] {
    // λ⁴ + c₁λ³ + c₂λ² + c₃λ + c₄: Mₖ = A·Mₖ₋₁ + cₖ₋₁·I, cₖ = −tr(A·Mₖ)/k.
    let mul = |x: &[[f64; 4]; 4], y: &[[f64; 4]; 4]| -> [[f64; 4]; 4] {
        core::array::from_fn(|i| core::array::from_fn(|j| (0..4).map(|l| x[i][l] * y[l][j]).sum()))
    };
    let mut coeffs = [1.0, 0.0, 0.0, 0.0, 0.0];
    let mut m = [[0.0; 4]; 4];
    for k in 1..=4 {
        let mut am = mul(a, &m);
        for (i, row) in am.iter_mut().enumerate() {
            row[i] += coeffs[k - 1];
        }
        m = am;
        let trace: f64 = (0..4).map(|i| mul(a, &m)[i][i]).sum();
        coeffs[k] = -trace / k as f64;
    }
    let eval = |z: (f64, f64)| {
        coeffs
            .iter()
            .fold((0.0, 0.0), |p, &c| (p.0 * z.0 - p.1 * z.1 + c, p.0 * z.1 + p.1 * z.0))
    };
    // Start from a circle of the roots' Cauchy bound, off the real axis.
    let bound = 1.0 + coeffs[1..].iter().fold(0.0f64, |m, c| m.max(c.abs()));
    let mut z: [(f64, f64); 4] = core::array::from_fn(|k| {
        let angle = 0.4 + k as f64 * core::f64::consts::TAU / 4.0;
        (bound * math::cos(angle), bound * math::sin(angle))
    });
    for _ in 0..500 {
        let mut moved = 0.0f64;
        for i in 0..4 {
            let mut den = (1.0, 0.0);
            for (j, zj) in z.iter().enumerate() {
                if j != i {
                    let d = (z[i].0 - zj.0, z[i].1 - zj.1);
                    den = (den.0 * d.0 - den.1 * d.1, den.0 * d.1 + den.1 * d.0);
                }
            }
            let p = eval(z[i]);
            let norm = (den.0 * den.0 + den.1 * den.1).max(1e-300);
            let step = ((p.0 * den.0 + p.1 * den.1) / norm, (p.1 * den.0 - p.0 * den.1) / norm);
            z[i] = (z[i].0 - step.0, z[i].1 - step.1);
            moved = moved.max(math::hypot(step.0, step.1));
        }
        if moved < 1e-13 * bound {
            break;
        }
    }
    z
}
