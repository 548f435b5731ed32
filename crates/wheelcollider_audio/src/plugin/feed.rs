//! The per-frame feeding: the listener, the nearest vehicles, each one's input from
//! its telemetry and wheels, and the impacts (landings, and hard contacts of the
//! chassis estimated from avian's contact impulse over the chassis' mass).

use std::collections::HashSet;

use avian3d::prelude::*;
use bevy::ecs::query::QueryData;
use bevy::prelude::*;
use wheelcollider_avian::prelude::*;
use wheelcollider_avian::vehicle::VehicleRuntime;
use wheelcollider_avian::wheel::skid_intensity;
use wheelcollider_core::vehicle::{EngineSettings, VehicleSettings};

use super::{SoundControl, SoundListener, SoundSettings};
use crate::car::{CarInput, Placement};
use crate::dsp::smoothstep;
use crate::engine::EngineInput;
use crate::gearbox::GearboxInput;
use crate::mixer::{MixControl, lock};
use crate::track::TrackInput;
use crate::tyre::{GroundSound, TyreInput};

/// The feeding system's set, in `PostUpdate` after transform propagation.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FeedSystems;

/// The distance gain at `distance` (m) for `settings`: 1 within the reference
/// distance `r`, then `r / (r + rolloff·(d − r))` (OpenAL's inverse-distance model),
/// faded to 0 over the last 20 % before the maximum distance.
pub fn distance_gain(settings: &SoundSettings, distance: f32) -> f32 {
    let r = settings.reference_distance.max(0.1);
    let max = settings.max_distance.max(r);
    if !distance.is_finite() || distance >= max {
        return 0.0;
    }
    let d = distance.max(r);
    let inverse = r / (r + settings.rolloff.max(0.0) * (d - r));
    inverse * (1.0 - smoothstep(0.8 * max, max, distance))
}

/// The pan (−1 left ..= 1 right) of a sound at `offset` from the listener (world, m)
/// for a listener turned by `rotation`, scaled by `width`: the sideways share of the
/// direction in the listener's frame.
pub fn pan_of(rotation: Quat, offset: Vec3, width: f32) -> f32 {
    let local = rotation.inverse() * offset;
    let length = local.length();
    if length < 1e-3 || !length.is_finite() {
        return 0.0;
    }
    (local.x / length * width.clamp(0.0, 1.0)).clamp(-1.0, 1.0)
}

/// Every new vehicle sends its landings.
pub(super) fn listen_to_vehicle(add: On<Add, Vehicle>, mut commands: Commands) {
    commands.entity(add.entity).try_insert(WheelEventsEnabled);
}

/// What the feeding reads of a vehicle.
#[derive(QueryData)]
pub(super) struct VehicleData {
    entity: Entity,
    vehicle: &'static Vehicle,
    runtime: &'static VehicleRuntime,
    telemetry: &'static VehicleTelemetry,
    driver: &'static VehicleInput,
    transform: &'static GlobalTransform,
    linear: &'static LinearVelocity,
    angular: &'static AngularVelocity,
    centre_of_mass: Option<&'static ComputedCenterOfMass>,
    wheels: &'static ChassisWheels,
}

/// The wheels' side of a car: each wheel's output (with the surface under its hit) and
/// settings.
#[derive(bevy::ecs::system::SystemParam)]
pub(super) struct Wheels<'w, 's> {
    wheels: Query<
        'w,
        's,
        (
            &'static WheelOutput,
            &'static WheelCollider,
            Option<&'static VehicleWheel>,
        ),
    >,
}

/// Lists the nearest vehicles with what each is doing, and their impacts.
pub(super) fn feed(
    settings: Res<SoundSettings>,
    control: Res<SoundControl>,
    listener: Query<&GlobalTransform, With<SoundListener>>,
    vehicles: Query<VehicleData>,
    wheels: Wheels,
    masses: Query<&ComputedMass>,
    mut landings: MessageReader<Landed>,
    contacts: Collisions,
    mut touching: Local<HashSet<(Entity, Entity)>>,
) {
    let (eye, facing) = listener
        .iter()
        .next()
        .map_or((Vec3::ZERO, Quat::IDENTITY), |t| (t.translation(), t.rotation()));
    let mut near: Vec<(f32, Entity)> = vehicles
        .iter()
        .map(|v| (v.transform.translation().distance(eye), v.entity))
        .filter(|(d, _)| *d < settings.max_distance)
        .collect();
    near.sort_by(|a, b| a.0.total_cmp(&b.0));
    near.truncate(settings.cars.min(64));
    let mut c = lock(&control.0);
    (c.volumes, c.muted) = (settings.volumes, settings.muted);
    c.begin_frame();
    for &(distance, entity) in &near {
        let Ok(v) = vehicles.get(entity) else { continue };
        let vehicle = v.runtime.settings.as_ref().unwrap_or(&v.vehicle.0);
        let input = c.car(entity.to_bits(), &vehicle.engine);
        fill_car(input, vehicle, &v, &wheels, &settings);
        input.placement = Placement {
            gain: distance_gain(&settings, distance),
            pan: pan_of(facing, v.transform.translation() - eye, settings.stereo_width),
        };
    }
    c.end_frame();
    let heard = |e: Entity| near.iter().any(|n| n.1 == e);
    for landed in landings.read() {
        if heard(landed.chassis) {
            c.impact(landed.chassis.to_bits(), landed.impact_speed);
        }
    }
    hard_contacts(&mut c, &near, &contacts, &masses, &mut touching);
}

/// A thump for each contact of a heard chassis that was not touching last frame, at
/// the chassis' change of speed in it: the contact's normal impulse over the chassis'
/// mass (N·s / kg = m/s). Avian's collision events would need `CollisionEventsEnabled`
/// before the collider enters its tree; the contact graph needs nothing.
fn hard_contacts(
    c: &mut MixControl,
    near: &[(f32, Entity)],
    contacts: &Collisions,
    masses: &Query<&ComputedMass>,
    touching: &mut HashSet<(Entity, Entity)>,
) {
    let mut now = HashSet::new();
    for &(_, chassis) in near {
        let mass = masses.get(chassis).map_or(0.0, |m| m.value());
        for pair in contacts.collisions_with(chassis).filter(|p| p.is_touching()) {
            let key = (pair.collider1.min(pair.collider2), pair.collider1.max(pair.collider2));
            if !touching.contains(&key) && mass > 0.0 {
                c.impact(chassis.to_bits(), pair.total_normal_impulse_magnitude() / mass);
            }
            now.insert(key);
        }
    }
    *touching = now;
}

/// Peak of the engine's torque curve (N·m), at least 1.
fn peak_torque(engine: &EngineSettings) -> f32 {
    engine.torque_curve.iter().map(|p| p[1]).fold(1.0, f32::max)
}

/// A car's input from its vehicle's settings, telemetry and wheels.
fn fill_car(
    input: &mut CarInput,
    vehicle: &VehicleSettings,
    v: &VehicleDataItem<'_, '_>,
    wheels: &Wheels,
    settings: &SoundSettings,
) {
    let p = &v.telemetry.powertrain;
    let engine = &vehicle.engine;
    let load = p.engine_torque / peak_torque(engine);
    input.engine = EngineInput {
        rpm: p.engine_rpm,
        throttle: p.throttle,
        load,
        limiter: p.limiter,
        // A trailer has no engine to hear.
        running: !p.stalled && vehicle.trailer.is_none(),
    };
    input.gearbox = GearboxInput {
        shaft_rpm: if p.gear_ratio > 0.0 {
            p.engine_rpm * p.clutch_engagement / p.gear_ratio
        } else {
            0.0
        },
        load: load.abs() * p.clutch_engagement,
        reverse: p.gear < 0,
    };
    let com = v
        .transform
        .transform_point(v.centre_of_mass.map_or(Vec3::ZERO, |c| c.0));
    input.speed = v.linear.0.length();
    input.tyres.clear();
    input.tracks.clear();
    // A tracked vehicle's belts: each side's road wheels' mean surface speed.
    let mut belts = [(0.0f32, 0u32); 2];
    for &wheel in v.wheels.wheels() {
        let Ok((out, collider, place)) = wheels.wheels.get(wheel) else {
            continue;
        };
        if let Some(place) = place {
            let belt = &mut belts[place.right as usize];
            *belt = (belt.0 + out.output.angular_velocity * collider.0.radius(), belt.1 + 1);
        }
        let o = &out.output;
        let ground = out
            .hit
            .map_or(GroundSound::ASPHALT, |hit| settings.grounds.of(hit.surface.material));
        let point_velocity = v.linear.0 + v.angular.0.cross(out.contact_position - com);
        let sideways = point_velocity.dot(out.sideways_direction);
        let forward = o.angular_velocity * collider.0.radius() - o.ground_speed;
        input.tyres.push(TyreInput {
            grounded: o.grounded,
            skid: skid_intensity(o.normalized_slip, o.load),
            slip_speed: forward.hypot(sideways),
            rolling_speed: o.ground_speed.abs(),
            ground,
        });
    }
    if let Some(tracks) = &vehicle.tracks {
        for (sum, count) in belts {
            input.tracks.push(TrackInput {
                speed: sum / count.max(1) as f32,
                link_pitch: tracks.link_pitch,
            });
        }
    }
}
