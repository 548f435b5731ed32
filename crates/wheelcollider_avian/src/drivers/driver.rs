//! A robot driver a game adds as a component: [`VehicleDriver`] drives its vehicle along
//! a [`Path`] at the speed the car's own plan allows there (the core's
//! [`SpeedPlan`](wheelcollider_core::vehicle::SpeedPlan), from its tyres, loads, aero,
//! brakes and engine, at the driver's `aggression` of its grip), steering by pure
//! pursuit ([`pursuit_steer`]) with a look-ahead that grows with the speed, braking in
//! time for the corners (it reads the plan half a second ahead).
//!
//! [`VehicleDriverPlugin`] (in `WheelColliderPlugins`) runs it in `FixedUpdate`
//! ([`VehicleDriverSystems`]), before the physics step reads the vehicle's input. The driver plans its path for its car when it
//! starts, and again when the car's settings or its aggression change (an inspector
//! edit). Its state (where it is on the path, its laps) is in the rollback list
//! ([`visit_rollback_state`](crate::rollback::visit_rollback_state)).
//!
//! Not in yet: traffic (gaps, passing), getting unstuck, reversing along a path.

use std::sync::Arc;

use avian3d::prelude::*;
use bevy::prelude::*;

use super::pursuit::{Path, lookahead, pursuit_steer};
use crate::vehicle::{Vehicle, VehicleInput};

/// A driver's plan and what it was made from.
#[derive(Clone, Debug, PartialEq)]
struct Planned {
    path: Path,
    aggression: f32,
    settings: wheelcollider_core::vehicle::VehicleSettings,
}

/// What a driver does at the end of an open path.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PathEnd {
    /// Brake to a stop on the last point and stay there.
    #[default]
    Stop,
    /// Drive on straight at the last point's planned speed.
    Hold,
}

/// A robot driver on a path (the module docs). Add it to a vehicle's chassis with
/// [`VehicleDriver::new`]; it writes the chassis' [`VehicleInput`] every fixed step.
#[derive(Component, Clone, Debug, PartialEq)]
pub struct VehicleDriver {
    /// The path as given (its speeds are not read: the driver plans its own).
    pub path: Arc<Path>,
    /// The share of the car's grip the plan uses, 0.05..=1.
    pub aggression: f32,
    /// The most speed it drives at (m/s), whatever the plan allows.
    pub top_speed: f32,
    /// What it does at an open path's end.
    pub at_end: PathEnd,
    /// The nearest point of the path last step (state).
    pub index: usize,
    /// The laps done on a closed path (state).
    pub laps: u32,
    /// The path planned for the car, and the aggression and settings it was planned
    /// with (state: re-planned when either changes).
    planned: Option<Arc<Planned>>,
}

impl VehicleDriver {
    /// A driver on `path` using `aggression` of its car's grip (clamped to 0.05..=1),
    /// no speed cap, stopping at an open path's end.
    pub fn new(path: Arc<Path>, aggression: f32) -> Self {
        VehicleDriver {
            path,
            aggression: aggression.clamp(0.05, 1.0),
            top_speed: f32::INFINITY,
            at_end: PathEnd::Stop,
            index: 0,
            laps: 0,
            planned: None,
        }
    }

    /// The path planned for the car (its speeds the car's plan), once the driver has run.
    pub fn plan(&self) -> Option<&Path> {
        self.planned.as_ref().map(|p| &p.path)
    }
}

/// The set the driver's system runs in (`FixedUpdate`).
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct VehicleDriverSystems;

/// Runs every [`VehicleDriver`].
pub struct VehicleDriverPlugin;

impl Plugin for VehicleDriverPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(FixedUpdate, drive.in_set(VehicleDriverSystems));
    }
}

/// How far ahead (s) the speed controller reads the plan: braking starts in time.
const SPEED_PREVIEW: f32 = 0.5;

/// Each driver's controls for this step.
fn drive(
    mut cars: Query<(
        &mut VehicleDriver,
        &mut VehicleInput,
        Ref<Vehicle>,
        &Position,
        &Rotation,
        &LinearVelocity,
    )>,
) {
    for (mut d, mut input, vehicle, p, q, v) in &mut cars {
        let settings = &vehicle.0;
        let aggression = d.aggression.clamp(0.05, 1.0);
        // The settings are compared only when something wrote them (an inspector's
        // edit may write them unchanged).
        let stale = d
            .planned
            .as_ref()
            .is_none_or(|p| p.aggression != aggression || (vehicle.is_changed() && p.settings != *settings));
        if stale {
            let path = (*d.path)
                .clone()
                .with_plan(settings, aggression, 5, (v.0.length(), false));
            d.planned = Some(Arc::new(Planned {
                path,
                aggression,
                settings: settings.clone(),
            }));
        }
        let Some(planned) = d.planned.clone() else { continue };
        let path = &planned.path;
        let n = path.len();
        let i = path.nearest(p.0, d.index, (n / 4).max(1), 10.0);
        if path.closed() && i < d.index && d.index - i > n / 2 {
            d.laps += 1;
        }
        d.index = i;
        let speed = v.0.length();
        let forward = q.0 * Vec3::NEG_Z;
        let end = !path.closed() && i + 1 >= n;
        if end && d.at_end == PathEnd::Stop {
            input.0 = wheelcollider_core::vehicle::DriverInput {
                brake: 1.0,
                ..default()
            };
            continue;
        }
        let (_, target) = path.ahead(i, lookahead(speed, 0.5, 6.0, 25.0));
        let target = if end { p.0 + forward * 10.0 } else { target };
        let steer = pursuit_steer(settings, p.0, forward, target, speed);
        let (ahead, _) = path.ahead(i, SPEED_PREVIEW * speed);
        let e = path.speed(ahead).min(d.top_speed) - speed;
        input.0 = wheelcollider_core::vehicle::DriverInput {
            throttle: if e > -0.2 { (0.5 + 0.5 * e).clamp(0.0, 1.0) } else { 0.0 },
            brake: (-0.4 * e).clamp(0.0, 1.0),
            steer,
            ..default()
        };
    }
}
