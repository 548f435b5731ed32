//! The tyre's relaxation: the lag with rolled distance that a relaxation length puts
//! on a slip, its stability bound and its low-speed damping (`docs/wheel-model.md`,
//! 3c). Used by [`crate::step`].

/// The lag a relaxation length puts on one slip (see `docs/wheel-model.md`, 3c):
/// `s' = s + w · (s_kinematic − s)` with `w = 1 − exp(−den · dt / L)`, the exact
/// first-order response over a step of `den · dt` metres, so it is the same at every
/// step rate. `den` is the slip's reference speed, never below the slip's floor, so at
/// a standstill the slip still relaxes, at `floor / L` per second (it is the contact
/// patch's deflection: `L·ds/dt = v − den·s`). No relaxation length: `w = 1` (the force follows the slip
/// at once, with the original's 10 m/s floor).
pub(crate) struct SlipLag {
    /// The weight of the kinematic slip in this step's slip, in (0, 1].
    pub weight: f64,
    /// 1 / the slip's denominator, its reference speed.
    pub inv_den: f64,
    /// Low-speed damping (N·s/m) on the deflection's rate in this direction.
    pub damping: f64,
}

/// The least fraction of the relaxation length a tyre at or past its peak keeps.
pub(crate) const MIN_SLOPE_RATIO: f64 = 0.05;

/// The damping ratio the low-speed damping tops the relaxation's own up to.
const LOW_SPEED_DAMPING_RATIO: f64 = 0.7;

impl SlipLag {
    /// `length` the relaxation length (m), `den` the slip's denominator (its reference
    /// speed, m/s, > 0), `stiffness` the
    /// slip stiffness at this load (N per unit slip), `mass` the chassis' effective
    /// mass at the contact in this direction (kg, 0 if unknown), `slope` the curve's
    /// slope at the present slip over its slope at zero slip (in
    /// [`MIN_SLOPE_RATIO`]`..=1`, see `TyreAtLoad::slope_ratios`).
    ///
    /// The length used is `length · slope`: the carcass' stiffness `K / L` stays, and
    /// the lag shortens as the tyre nears its peak, to a twentieth of it at and past
    /// the peak, so a sliding tyre's slip follows the slide within a few centimetres
    /// (docs/wheel-model.md 3c; `tests/it/tyre_dynamics.rs`,
    /// `a_slow_slide_does_not_wind_up`).
    ///
    /// The lag is also what keeps the explicit chassis update stable: at low speed a
    /// velocity `v` moves the force by about `K · dt · v / L` per step, so a length
    /// shorter than `K · dt² / m` would overshoot. With a known mass, `L` is raised to
    /// that (the force then cancels the motion in about one step, like static
    /// friction); without one, as set.
    ///
    /// With a lag, a slowly rolling tyre is a spring `K / L` on the mass `m` damped only
    /// by the lag's decay `den / L`: its damping ratio `den · √(m / (K·L)) / 2` is small
    /// at a crawl (0.14 for the rally car at 2 m/s). With a known mass, a viscous
    /// damping on the deflection's rate (the patch velocity less what rolling takes up,
    /// 0 in a steady turn: `Slips::deflection_rate`) tops it up to
    /// [`LOW_SPEED_DAMPING_RATIO`]; it
    /// vanishes by itself once the speed damps the lag enough (about 9 m/s for the rally
    /// car), and is at most `m / (2·dt)`, which keeps it stable. Real tyres' structural
    /// damping does this; MF-Tyre adds low-speed damping for the same reason (Pacejka,
    /// ch. 8).
    pub fn new(length: f32, den: f64, stiffness: f64, mass: f64, dt: f64, slope: f64) -> Self {
        let length = length as f64;
        if length <= 0.0 {
            return Self {
                weight: 1.0,
                inv_den: 1.0 / den,
                damping: 0.0,
            };
        }
        let (length, damping) = if mass > 0.0 {
            let length = length.max(stiffness * dt * dt / mass);
            let omega = (stiffness / (length * mass)).sqrt();
            let c = mass * (2.0 * LOW_SPEED_DAMPING_RATIO * omega - den / length);
            (length, c.clamp(0.0, 0.5 * mass / dt))
        } else {
            (length, 0.0)
        };
        // The deflection's damping belongs to the tyre in adhesion: a sliding patch is
        // held by friction alone, so it fades with the curve's slope as the length does,
        // and a locked wheel gets no lateral force outside its friction circle
        // (`wheelcollider_track`'s `abs_in_a_turn_stops_shorter_and_holds_the_circle`).
        let slope = slope.clamp(MIN_SLOPE_RATIO, 1.0);
        let length = length * slope;
        Self {
            weight: -crate::math::exp_m1(-den * dt / length),
            inv_den: 1.0 / den,
            damping: damping * slope,
        }
    }

    /// This step's slip from the last one and the kinematic slip.
    #[inline]
    pub fn follow(&self, previous: f64, kinematic: f64) -> f64 {
        previous + self.weight * (kinematic - previous)
    }
}
