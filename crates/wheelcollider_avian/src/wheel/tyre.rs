//! A tyre's life in a game: the events that puncture a tyre ([`PunctureTyre`]) and fit
//! new ones ([`FitTyres`]), and its reading for telemetry ([`WheelState::tyre`]). The
//! model is the core's [`wheelcollider_core::thermal`], on a wheel whose settings have a
//! [`compound`](wheelcollider_core::WheelSettings::compound); the air's and the road's
//! temperatures are the [`Weather`](super::Weather) resource's.
//!
//! ```
//! # use bevy::prelude::*;
//! # use wheelcollider_avian::prelude::*;
//! # fn blow_out(mut commands: Commands, wheel: Entity) {
//! commands.trigger(PunctureTyre { wheel });
//! # }
//! ```

use bevy::prelude::*;
use wheelcollider_core::{TyreReading, TyreState, WheelSettings};

use super::components::{ChassisWheels, WheelState};

/// Punctures a wheel's tyre (a blow-out, a nail): it runs on its rim, with the rim's
/// grip and lower by the compound's `rim_drop`, until [`FitTyres`]. A wheel without a
/// compound is left as it is.
#[derive(EntityEvent, Clone, Copy, Debug, PartialEq)]
pub struct PunctureTyre {
    /// The wheel.
    #[event_target]
    pub wheel: Entity,
}

/// Fits new tyres: on a wheel, its own; on a chassis, all its wheels'. Each comes back
/// at the air's temperature with its full tread, unpunctured, at its next step (a pit
/// stop).
#[derive(EntityEvent, Clone, Copy, Debug, PartialEq)]
pub struct FitTyres {
    /// The wheel or the chassis.
    #[event_target]
    pub entity: Entity,
}

pub(super) fn puncture(event: On<PunctureTyre>, mut wheels: Query<&mut WheelState>) {
    if let Ok(mut state) = wheels.get_mut(event.wheel) {
        state.step.tyre.punctured = true;
    }
}

pub(super) fn fit_tyres(event: On<FitTyres>, chassis: Query<&ChassisWheels>, mut wheels: Query<&mut WheelState>) {
    let mut fit = |e: Entity| {
        if let Ok(mut state) = wheels.get_mut(e) {
            state.step.tyre = TyreState::default();
        }
    };
    match chassis.get(event.entity) {
        Ok(list) => list.iter().for_each(&mut fit),
        Err(_) => fit(event.entity),
    }
}

impl WheelState {
    /// The tyre's temperatures, pressure, tread and grip factor, when `settings` (the
    /// wheel's) have a compound and it has been fitted (after its first step).
    pub fn tyre(&self, settings: &WheelSettings) -> Option<TyreReading> {
        let compound = settings.compound()?;
        self.step
            .tyre
            .fitted
            .then(|| TyreReading::of(compound, &self.step.tyre))
    }
}
