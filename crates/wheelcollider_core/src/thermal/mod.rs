//! A tyre's temperature, pressure and wear: three lumped thermal nodes (the tread's
//! surface, the carcass and the inflation gas), the gas' pressure, the grip window,
//! the tread's abrasion and a puncture. Off unless a wheel has a [`TyreCompound`]
//! ([`WheelSettings::compound`](crate::WheelSettings::compound)); `docs/tyre-thermal.md`
//! has the formulas and their sources.
//!
//! **The network.** With `T_s`, `T_c`, `T_g` the surface's, carcass' and gas'
//! temperatures and `C` their heat capacities:
//!
//! ```text
//! C_s·dT_s/dt = β·P_slide − G_sc·(T_s − T_c) − h(v)·A_s·(T_s − T_air) − G_road·(T_s − T_track)
//! C_c·dT_c/dt = P_roll + P_def + G_sc·(T_s − T_c) − G_cg·(T_c − T_g) − h(v)·A_w·(T_c − T_air)
//! C_g·dT_g/dt =             G_cg·(T_c − T_g)
//! ```
//!
//! `P_slide = |Fx·(ω·r − vx)| + |Fy·vy|` is the contact patch's sliding power and `β`
//! the tread's share of it; `P_roll` the rolling resistance's power (its hysteresis);
//! `P_def` the carcass' hysteresis under the tyre's forces ([`deformation_power`]);
//! `h(v)` the film coefficient of air moving at `v` ([`film`], McAdams);
//! `G_road = road_conductance · (load / p) · √(v / v_ref)` (`v_ref` = [`ROAD_REFERENCE_SPEED`]) over the patch while
//! grounded ([`road_conductance`]), times the surface's cooling factor. [`advance`]
//! integrates it with backward Euler (one
//! tridiagonal solve a step): stable at any step, and the conduction between the nodes
//! conserves their heat exactly (`tests/it/thermal.rs`).
//!
//! **What it does to the tyre** ([`condition`]): the peak grip by the surface's
//! temperature (the window), the pressure (`1 − g·dp²`), the tread left and a puncture;
//! the slip stiffness, the relaxation lengths and the rolling resistance by the
//! pressure, `p = (p_cold + p_atm)·T_g / T_cold − p_atm` (ideal gas at constant volume).

mod compound;

pub use compound::{CompoundBase, TyreCompound, TyreCompoundDef};

/// Standard atmospheric pressure (kPa): gauge to absolute.
pub const ATMOSPHERE: f64 = 101.325;
/// 0 °C in kelvin.
pub const ZERO_CELSIUS: f64 = 273.15;
/// McAdams' film coefficient of air on a surface at rest (W/(m²·K)), and its rise per
/// m/s of air speed: `h = 5.7 + 3.8·v` up to [`CONVECTION_FAST`]'s speed (W. H.
/// McAdams, *Heat Transmission*, 3rd ed., 1954).
pub const CONVECTION: [f64; 2] = [5.7, 3.8];
/// Where McAdams' low-speed form ends (m/s) and the exponent of his turbulent form
/// beyond it, `h ∝ v^n` ([`film`] carries it past the range of his data).
pub const CONVECTION_FAST: [f64; 2] = [5.0, 0.78];
/// The speed (m/s) at which [`TyreCompound::road_conductance`] is the film across the
/// patch; it scales with `√(v / this)` ([`road_conductance`]).
pub const ROAD_REFERENCE_SPEED: f64 = 20.0;
/// The least speed (m/s) the road's conduction reads: a tyre at rest keeps a small
/// conduction into the road it stands on (an estimate).
const MIN_ROAD_SPEED: f64 = 1.0;
/// The least patch pressure (kPa) the road's conduction reads: a flat tyre's patch does
/// not grow without bound.
const MIN_PATCH_PRESSURE: f64 = 50.0;
/// The temperatures the model keeps (°C): a node is clamped into this range (rubber
/// burns long before its top).
pub const TEMPERATURE_RANGE: [f64; 2] = [-100.0, 1000.0];
/// How much faster a worn tread conducts than a new one, at most.
const MAX_WEAR_CONDUCTION: f64 = 4.0;

/// The air and the road around a tyre, per step: the plugin fills it from its weather
/// and the surface under the wheel.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize), serde(default))]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct Ambient {
    /// Air temperature (°C).
    pub air: f32,
    /// The road surface's temperature under the tyre (°C).
    pub track: f32,
    /// The surface's factor on the conduction from the tread to the road (1 dry; a wet
    /// road cools through its water film, ≈ 3).
    pub road_cooling: f32,
}

impl Default for Ambient {
    /// 20 °C air over a 25 °C dry road.
    fn default() -> Self {
        Self {
            air: 20.0,
            track: 25.0,
            road_cooling: 1.0,
        }
    }
}

/// One tyre's thermal and wear state, carried from step to step in
/// [`StepState::tyre`](crate::StepState::tyre). Zero (the default) means new: the first
/// step with a compound puts every node at the air temperature and the full tread on.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize), serde(default))]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct TyreState {
    /// The tread's surface temperature (°C). The state is in f64: a carcass warming by
    /// a hundredth of a kelvin a second moves by less than an f32's resolution in a
    /// 240 Hz step (`tests/it/thermal.rs`, `conduction_between_the_nodes_conserves_heat`).
    pub surface: f64,
    /// The carcass' temperature (°C).
    pub carcass: f64,
    /// The inflation gas' temperature (°C).
    pub gas: f64,
    /// Tread depth left (mm).
    pub tread: f64,
    /// Whether the tyre has been fitted (the nodes set); a new state is not.
    pub fitted: bool,
    /// Whether the tyre is punctured: it runs on its rim (see [`TyreCompound::rim_grip`]).
    pub punctured: bool,
}

impl TyreState {
    /// A new tyre of `compound` at the air's temperature.
    pub fn fitted(compound: &TyreCompound, air: f32) -> Self {
        let air = air as f64;
        Self {
            surface: air,
            carcass: air,
            gas: air,
            tread: compound.tread_depth as f64,
            fitted: true,
            punctured: false,
        }
    }

    /// The gauge inflation pressure (kPa) at the gas' temperature; 0 when punctured.
    pub fn pressure(&self, compound: &TyreCompound) -> f64 {
        if self.punctured {
            return 0.0;
        }
        let cold = compound.cold_temperature as f64 + ZERO_CELSIUS;
        let gas = (self.gas + ZERO_CELSIUS).max(1.0);
        ((compound.cold_pressure as f64 + ATMOSPHERE) * gas / cold - ATMOSPHERE).max(0.0)
    }

    /// How much of the tread is gone, 0 (new) ..= 1.
    pub fn worn(&self, compound: &TyreCompound) -> f64 {
        (1.0 - self.tread / compound.tread_depth as f64).clamp(0.0, 1.0)
    }
}

/// What the tyre's state does to its laws this step: factors on the settings' own.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Condition {
    /// On the peak friction (the curves' D).
    pub grip: f64,
    /// On the longitudinal slip stiffness and the cornering stiffness.
    pub stiffness: [f64; 2],
    /// On the rolling-resistance coefficient.
    pub rolling: f64,
    /// On both relaxation lengths.
    pub relaxation: f64,
}

impl Condition {
    /// No change: the tyre as its settings say.
    pub const NEUTRAL: Condition = Condition {
        grip: 1.0,
        stiffness: [1.0; 2],
        rolling: 1.0,
        relaxation: 1.0,
    };
}

/// The grip window's factor at a surface temperature `t` (°C): 1 inside, falling with
/// the square of the distance outside (`window_loss` at 10 K), never below the floor.
pub fn window_grip(compound: &TyreCompound, t: f64) -> f64 {
    let (lo, hi) = (
        compound.window_low.min(compound.window_high) as f64,
        compound.window_high.max(compound.window_low) as f64,
    );
    let d = ((lo - t).max(t - hi)).max(0.0) / 10.0;
    (1.0 - compound.window_loss as f64 * d * d).max(compound.window_floor as f64)
}

/// The factor on the abrasion at a surface temperature `t` (°C): 1 up to the window's
/// top, rising by [`TyreCompound::hot_wear`] per 10 K above it (rubber's abrasion grows
/// as it softens past its working range: Grosch, "The abrasion of rubber", *Proc. R.
/// Soc. A* 1967, relates it to temperature and speed).
pub fn hot_wear(compound: &TyreCompound, t: f64) -> f64 {
    let over = (t - compound.window_high.max(compound.window_low) as f64).max(0.0) / 10.0;
    1.0 + compound.hot_wear as f64 * over
}

/// How much lower a tyre of `radius` (m) rides (m): its compound's
/// [`rim_drop`](TyreCompound::rim_drop) when punctured, clamped to 0.9 of the radius (a
/// rim is not smaller than that), else 0.
pub fn rim_drop(compound: Option<&TyreCompound>, state: &TyreState, radius: f32) -> f32 {
    match compound {
        Some(c) if state.punctured => c.rim_drop.min(0.9 * radius),
        _ => 0.0,
    }
}

/// What `state` does to the tyre's laws (see [`Condition`]).
pub fn condition(compound: &TyreCompound, state: &TyreState) -> Condition {
    if state.punctured {
        return Condition {
            grip: compound.rim_grip as f64,
            stiffness: [compound.rim_grip as f64; 2],
            rolling: compound.rim_rolling as f64,
            relaxation: 1.0,
        };
    }
    let dp = (state.pressure(compound) / compound.nominal_pressure as f64 - 1.0).clamp(-1.0, 1.0);
    let grip = window_grip(compound, state.surface)
        * (1.0 - compound.pressure_grip as f64 * dp * dp).max(0.1)
        * (1.0 - compound.wear_grip as f64 * state.worn(compound));
    let factor = |gain: f32| (1.0 + gain as f64 * dp).clamp(0.1, 10.0);
    let slip =
        1.0 + compound.pressure_slip_stiffness as f64 * dp + compound.pressure_slip_stiffness_square as f64 * dp * dp;
    Condition {
        grip,
        stiffness: [slip.clamp(0.1, 10.0), factor(compound.pressure_cornering_stiffness)],
        rolling: factor(compound.pressure_rolling),
        relaxation: factor(compound.pressure_relaxation),
    }
}

/// The heat a step puts into a tyre and what cools it (W, m/s, N).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Heating {
    /// The contact patch's sliding power, all of it (W); the tread takes
    /// [`TyreCompound::friction_heat_share`] of it.
    pub sliding: f64,
    /// The rolling resistance's power and the carcass' hysteresis under the tyre's
    /// forces ([`deformation_power`]) (W): into the carcass.
    pub rolling: f64,
    /// The air's speed past the tyre (m/s): the car's.
    pub speed: f64,
    /// The tyre's load (N); 0 in the air (no conduction to the road).
    pub load: f64,
}

/// The film coefficient of air moving at `speed` past a tyre (W/(m²·K)): McAdams'
/// low-speed form ([`CONVECTION`]) up to [`CONVECTION_FAST`]'s speed, his turbulent
/// form `∝ |v|^n` above, its coefficient set so that the two meet there (McAdams' own
/// coefficient would leave a step). The values and the comparison with McAdams':
/// `docs/tyre-thermal.md`; `tests/it/thermal.rs`, `the_air_and_the_road_cool_by_their_laws`.
pub fn film(speed: f64) -> f64 {
    let v = speed.abs();
    let [fast, exponent] = CONVECTION_FAST;
    let low = |v: f64| CONVECTION[0] + CONVECTION[1] * v;
    if v <= fast {
        low(v)
    } else {
        low(fast) * crate::math::powf(v / fast, exponent)
    }
}

/// The conductance from the tread into the road across the contact patch (W/K):
/// `road_conductance · A · √(v / v_ref)`, `A` the patch's area (the load over the
/// inflation pressure, the pressure at least 50 kPa), `v_ref` =
/// [`ROAD_REFERENCE_SPEED`], the speed at least 1 m/s. The √v: the patch's rubber
/// touches the road for `L/v`, and the heat a surface conducts into a cooler half-space
/// over a contact time `t` falls as `1/√t` (Carslaw & Jaeger, *Conduction of Heat in
/// Solids*, 2nd ed., 1959, §2.9). 0 in the air (no load).
pub fn road_conductance(compound: &TyreCompound, load: f64, pressure: f64, speed: f64) -> f64 {
    let patch = load.max(0.0) / pressure.max(MIN_PATCH_PRESSURE) / 1000.0;
    let contact = (speed.abs().max(MIN_ROAD_SPEED) / ROAD_REFERENCE_SPEED).sqrt();
    compound.road_conductance as f64 * patch * contact
}

/// The heat the carcass' hysteresis makes under the tyre's forces (W): each force
/// strains the carcass by `F/k` (`k` its stiffness, the slip stiffness over the
/// relaxation length: Pacejka ch. 7), storing `F²/(2k)`; every revolution cycles that
/// strain once, and a cycle of a material of loss factor `tan δ` dissipates `2π·tan δ`
/// times its peak energy: `P = tan δ · (Fx²/k_x + Fy²/k_y) · |ω| / 2`, `tan δ` =
/// [`TyreCompound::carcass_loss`]. `stiffness` is `[k_x, k_y]` (N/m); a direction with
/// a rigid carcass (no relaxation length: `k` infinite or 0) makes none.
pub fn deformation_power(compound: &TyreCompound, force: [f64; 2], stiffness: [f64; 2], omega: f64) -> f64 {
    let energy: f64 = (0..2)
        .map(|i| {
            if stiffness[i] > 0.0 && stiffness[i].is_finite() {
                force[i] * force[i] / stiffness[i]
            } else {
                0.0
            }
        })
        .sum();
    compound.carcass_loss as f64 * energy * omega.abs() * 0.5
}

/// The network's conductances (W/K) at a state and a heating: surface–carcass,
/// carcass–gas, surface–air, carcass–air, surface–road.
pub fn conductances(compound: &TyreCompound, state: &TyreState, heating: &Heating, ambient: &Ambient) -> [f64; 5] {
    let c = compound;
    let depth = state.tread.max(c.tread_depth as f64 / MAX_WEAR_CONDUCTION);
    let sc = c.surface_carcass_conductance as f64 * (c.tread_depth as f64 / depth).min(MAX_WEAR_CONDUCTION);
    let film = film(heating.speed);
    let road =
        road_conductance(c, heating.load, state.pressure(c), heating.speed) * (ambient.road_cooling as f64).max(0.0);
    [
        sc,
        c.carcass_gas_conductance as f64,
        film * c.surface_area as f64,
        film * c.sidewall_area as f64,
        road,
    ]
}

/// Advances `state` by `dt` seconds of `heating` in `ambient` (backward Euler, see the
/// module's doc), fitting a new tyre first; the tread wears by its share of the sliding
/// energy. Returns the heat the tread took (W).
pub fn advance(compound: &TyreCompound, state: &mut TyreState, heating: &Heating, ambient: &Ambient, dt: f64) -> f64 {
    if !state.fitted {
        *state = TyreState::fitted(compound, ambient.air);
    }
    let [sc, cg, sa, ca, road] = conductances(compound, state, heating, ambient);
    let (air, track) = (ambient.air as f64, ambient.track as f64);
    let q_s = compound.friction_heat_share as f64 * heating.sliding.max(0.0);
    let q_c = heating.rolling.max(0.0);
    let [cs, cc, cgas] = [
        compound.surface_capacity as f64 / dt,
        compound.carcass_capacity as f64 / dt,
        compound.gas_capacity as f64 / dt,
    ];
    // (C/dt + G)·T' = C/dt·T + Q + G_ambient·T_ambient: tridiagonal, solved by
    // elimination from the gas up to the surface.
    let (ts, tc, tg) = (state.surface, state.carcass, state.gas);
    let (a11, a22, a33) = (cs + sc + sa + road, cc + sc + cg + ca, cgas + cg);
    let (b1, b2, b3) = (
        cs * ts + q_s + sa * air + road * track,
        cc * tc + q_c + ca * air,
        cgas * tg,
    );
    // Row 3 gives T_g = (b3 + cg·T_c) / a33; into row 2, then row 1.
    let a22_ = a22 - cg * cg / a33;
    let b2_ = b2 + cg * b3 / a33;
    let a11_ = a11 - sc * sc / a22_;
    let b1_ = b1 + sc * b2_ / a22_;
    let ts_new = b1_ / a11_;
    let tc_new = (b2_ + sc * ts_new) / a22_;
    let tg_new = (b3 + cg * tc_new) / a33;
    let finite = ts_new.is_finite() && tc_new.is_finite() && tg_new.is_finite();
    if finite {
        let keep = |t: f64| t.clamp(TEMPERATURE_RANGE[0], TEMPERATURE_RANGE[1]);
        (state.surface, state.carcass, state.gas) = (keep(ts_new), keep(tc_new), keep(tg_new));
    }
    let worn = compound.abrasion as f64 * hot_wear(compound, state.surface) * q_s * dt * 1e-6;
    state.tread = (state.tread - worn).max(0.0);
    q_s
}

/// What a player's telemetry shows of one tyre: its state with the pressure worked out
/// (°C, kPa gauge, mm).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct TyreReading {
    /// The tread's surface temperature (°C).
    pub surface: f32,
    /// The carcass' temperature (°C).
    pub carcass: f32,
    /// The inflation gas' temperature (°C).
    pub gas: f32,
    /// The gauge pressure (kPa).
    pub pressure: f32,
    /// Tread depth left (mm).
    pub tread: f32,
    /// The factor the tyre's condition puts on its peak grip (see [`condition`]).
    pub grip: f32,
    /// Whether it is punctured.
    pub punctured: bool,
}

impl TyreReading {
    /// The reading of `state` on `compound`.
    pub fn of(compound: &TyreCompound, state: &TyreState) -> Self {
        Self {
            surface: state.surface as f32,
            carcass: state.carcass as f32,
            gas: state.gas as f32,
            pressure: state.pressure(compound) as f32,
            tread: state.tread as f32,
            grip: condition(compound, state).grip as f32,
            punctured: state.punctured,
        }
    }
}
