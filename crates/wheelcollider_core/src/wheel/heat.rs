//! The tyre's own stages of [`super::step`]: its condition before the slips (what its
//! temperature, pressure and wear do to its laws) and its heat after the forces (the
//! thermal network a step on). Both do nothing without a
//! [`WheelSettings::compound`]; see [`crate::thermal`].

use super::StepOutput;
use super::StepState;
use super::out32;
use super::stages::{Loaded, PatchForce, Rolled};
use crate::settings::WheelSettings;
use crate::thermal::{self, Ambient, Heating, TyreState};

/// `tyre_condition`: the tyre's condition on the suspension's hand-off: its grip and stiffness
/// factors on the surface's, its rolling resistance's and relaxation's factors. A new
/// tyre is fitted at the air's temperature first.
#[cfg_attr(feature = "stage-table", inline(never))] // a stage of its own in `--stages`
pub(super) fn tyre_condition(settings: &WheelSettings, state: &mut StepState, ambient: &Ambient, loaded: &mut Loaded) {
    let Some(compound) = settings.compound() else {
        return;
    };
    if !state.tyre.fitted {
        state.tyre = TyreState::fitted(compound, ambient.air);
    }
    let c = thermal::condition(compound, &state.tyre);
    loaded.grip *= c.grip;
    loaded.stiffness = [0, 1].map(|i| (loaded.stiffness[i] * c.stiffness[i]).clamp(0.01, 10.0));
    loaded.rolling = c.rolling;
    loaded.relaxation = c.relaxation;
}

/// `heat`: the sliding power into the outputs and, with a compound, the thermal
/// network advanced by `dt` with it, the tyre's own rolling resistance's power and its
/// carcass' hysteresis under the forces.
#[cfg_attr(feature = "stage-table", inline(never))] // a stage of its own in `--stages`
pub(super) fn heat(
    settings: &WheelSettings,
    state: &mut StepState,
    (loaded, rolled, patch): (&Loaded, &Rolled, PatchForce),
    ambient: &Ambient,
    dt: f64,
    out: &mut StepOutput,
) {
    let radius = settings.radius() as f64;
    let sliding = if loaded.grounded {
        (patch.fx * (rolled.omega * radius - loaded.vx)).abs() + (patch.fy * loaded.vy).abs()
    } else {
        0.0
    };
    out.sliding_power = out32(sliding);
    let Some(compound) = settings.compound() else {
        return;
    };
    // The tyre's own hysteresis heats it; a soft ground's rolling resistance is work
    // done in the ground.
    let own = settings.rolling_coefficient(loaded.vx) * loaded.rolling * loaded.load * radius;
    // The carcass' stiffness each way: the tyre's own slip stiffness at this load
    // (as `WheelSettings::slip_stiffness` and `cornering_stiffness`, the load's laws
    // read once for both) over the relaxation length.
    let deformation = if loaded.grounded {
        let (grip, stiffness) = settings.load_factors(loaded.load);
        let per_slip = loaded.load.max(0.0) * grip * stiffness;
        let carcass = |curve: &crate::tyre::TyreCurve, length: f32| {
            curve.stiffness() as f64 * per_slip / (length as f64 * loaded.relaxation)
        };
        thermal::deformation_power(
            compound,
            [patch.fx, patch.fy],
            [
                carcass(settings.longitudinal_tyre(), settings.longitudinal_relaxation_length()),
                carcass(settings.lateral_tyre(), settings.lateral_relaxation_length()),
            ],
            rolled.omega,
        )
    } else {
        0.0
    };
    out.deformation_power = out32(deformation);
    let heating = Heating {
        sliding,
        rolling: (own * rolled.omega).abs() + deformation,
        speed: loaded.vx,
        load: if loaded.grounded { loaded.load } else { 0.0 },
    };
    thermal::advance(compound, &mut state.tyre, &heating, ambient, dt);
}
