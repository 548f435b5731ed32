//! Every public component is `Reflect` and registered by the plugins, with its
//! `ReflectComponent` data, so that inspectors, scenes and rollback libraries can find
//! it by type.
use crate::common;
use bevy::ecs::reflect::ReflectComponent;
use bevy::prelude::*;
use bevy::reflect::GetTypeRegistration;
use common::*;
use wheelcollider_avian::prelude::*;
use wheelcollider_avian::replay::{DriveRecorder, DriveReplay};
use wheelcollider_avian::vehicle::{GearState, VehicleRuntime};
use wheelcollider_avian::wheel::LandingState;

fn registered<T: GetTypeRegistration>(app: &App) -> Result<(), String> {
    let registry = app.world().resource::<AppTypeRegistry>().read();
    let id = T::get_type_registration().type_id();
    let name = std::any::type_name::<T>();
    let r = registry.get(id).ok_or(format!("{name} is not registered"))?;
    r.data::<ReflectComponent>()
        .map(|_| ())
        .ok_or(format!("{name} is registered without ReflectComponent"))
}

#[test]
fn every_public_component_is_registered_for_reflection() {
    let app = app(60.0);
    let checks = [
        registered::<WheelCollider>(&app),
        registered::<WheelInput>(&app),
        registered::<WheelState>(&app),
        registered::<WheelOutput>(&app),
        registered::<WheelOf>(&app),
        registered::<ChassisWheels>(&app),
        registered::<WheelModel>(&app),
        registered::<WheelSweepLayers>(&app),
        registered::<AntiRollBar>(&app),
        registered::<WheelSurface>(&app),
        registered::<ChassisState>(&app),
        registered::<WheelEventsEnabled>(&app),
        registered::<WheelEffects>(&app),
        registered::<LandingState>(&app),
        registered::<Vehicle>(&app),
        registered::<VehicleInput>(&app),
        registered::<VehicleWheel>(&app),
        registered::<VehicleTelemetry>(&app),
        registered::<VehicleRuntime>(&app),
        registered::<GearState>(&app),
        registered::<VehicleFromPreset>(&app),
        registered::<DriveRecorder>(&app),
        registered::<DriveReplay>(&app),
    ];
    let missing: Vec<String> = checks.into_iter().filter_map(Result::err).collect();
    assert!(missing.is_empty(), "{missing:#?}");
}
