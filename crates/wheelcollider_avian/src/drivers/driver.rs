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
//! In traffic it keeps a time gap to the car ahead on its path (any vehicle, driven or
//! not), brakes for a slower or stopped one in time, and gets itself unstuck: pressing
//! on with no progress for [`STUCK_TIME`] (a wall, a car across its nose), it backs out
//! for [`REVERSE_TIME`], steering its nose towards the path, and drives on.
//!
//! Not in yet: passing (a lane offset where the path allows), reversing along a path,
//! a towing driver.

use std::sync::Arc;

use avian3d::prelude::*;
use bevy::prelude::*;

use super::pursuit::{Path, lookahead, pursuit_steer};
use crate::vehicle::{Vehicle, VehicleInput};
use wheelcollider_core::vehicle::DriverInput;

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
    /// The time gap it keeps to the car ahead on its path (s, ≥ 0.3): at speed `v` it
    /// follows `standstill_gap + time_gap·v` behind.
    pub time_gap: f32,
    /// The gap it leaves to a stopped car ahead (m, bumper to bumper by the chassis'
    /// boxes, ≥ 0.5).
    pub standstill_gap: f32,
    /// Whether it backs out when stuck (a vehicle that cannot reverse, a two-wheeler or
    /// one without `auto_reverse`, never does).
    pub unstuck: bool,
    /// The nearest point of the path last step (state).
    pub index: usize,
    /// The laps done on a closed path (state).
    pub laps: u32,
    /// How long it has pressed on without moving (s, state).
    pub stuck: f32,
    /// How long it has left to back out (s, state; 0 when driving on).
    pub reversing: f32,
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
            time_gap: 1.5,
            standstill_gap: 3.0,
            unstuck: true,
            index: 0,
            laps: 0,
            stuck: 0.0,
            reversing: 0.0,
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
/// How long (s) a driver presses on (throttle over [`PRESSING`]) below [`STUCK_SPEED`]
/// before it backs out.
pub const STUCK_TIME: f32 = 2.0;
/// How long (s) it backs out: the automatic's half second standing on the brake to
/// select reverse, then one and a half seconds backwards.
pub const REVERSE_TIME: f32 = 2.0;
/// The speed (m/s) under which a driver pressing on is making no progress.
const STUCK_SPEED: f32 = 0.5;
/// Under this speed (m/s), asked for less, a driver stands on both brakes.
const HOLD_SPEED: f32 = 0.5;
/// The throttle over which a driver is pressing on.
const PRESSING: f32 = 0.3;
/// The brake pedal it backs out with (with `auto_reverse` the brake drives backwards).
const BACKING: f32 = 0.5;
/// How fast (1/s) a follower closes the difference between its gap and the one it
/// keeps: its speed is the leader's plus this times the difference.
const FOLLOW_GAIN: f32 = 0.5;
/// The deceleration (m/s²) a follower may count on to close on a slower car: it brakes
/// fully when it needs this much not to run into the standstill gap.
const FOLLOW_BRAKING: f32 = 6.0;
/// The deceleration (m/s²) a follower gets by lifting off: closing slower than this
/// needs no brake.
const LIFT_OFF: f32 = 0.5;
/// How far to either side of its own box (m) another car counts as on its path.
const LANE_MARGIN: f32 = 0.5;

/// Another vehicle as a driver sees it this step.
#[derive(Clone, Copy, Debug)]
struct Other {
    entity: Entity,
    position: Vec3,
    velocity: Vec3,
    /// Half its box' length and width (m).
    half: Vec2,
}

/// The car ahead on `path` of a car at `p` (point `i`, half its box `half`), within
/// `range` (m): the free gap to it (m, between the boxes along the path) and its speed
/// along the path (m/s). A car counts when its nearest point ahead on the path lies
/// within the two boxes' half widths and [`LANE_MARGIN`] of it.
fn car_ahead(
    path: &Path,
    (i, p, half): (usize, Vec3, Vec2),
    range: f32,
    me: Entity,
    others: &[Other],
) -> Option<(f32, f32)> {
    let points = path.points();
    let n = path.len();
    let spacing = (path.gap(0, 1)).max(0.1);
    let window = ((range / spacing) as usize + 2).min(n);
    let tangent = |j: usize| {
        let next = path.ahead(j, spacing).1;
        (next - points[j]).with_y(0.0).normalize_or_zero()
    };
    let along = |j: usize, q: Vec3| (q - points[j]).with_y(0.0).dot(tangent(j));
    let mine = along(i, p);
    others
        .iter()
        .filter(|o| o.entity != me && o.position.distance(p) < range + o.half.x + half.x)
        .filter_map(|o| {
            let j = path.nearest(o.position, i, window, f32::INFINITY);
            let lateral = points[j].with_y(0.0).distance(o.position.with_y(0.0));
            let beside = (lateral * lateral - along(j, o.position).powi(2)).max(0.0).sqrt();
            if beside > half.y + o.half.y + LANE_MARGIN {
                return None;
            }
            let centres = path.gap(i, j) + along(j, o.position) - mine;
            (centres > 0.0 && centres < range + half.x + o.half.x)
                .then(|| (centres - half.x - o.half.x, o.velocity.dot(tangent(j))))
        })
        .min_by(|a, b| a.0.total_cmp(&b.0))
}

/// A car standing still on both brakes: the handbrake keeps an automatic with
/// `auto_reverse` from taking the held brake for a wish to reverse.
fn held() -> DriverInput {
    DriverInput {
        brake: 1.0,
        handbrake: 1.0,
        ..default()
    }
}

/// Each driver's controls for this step.
fn drive(
    time: Res<Time>,
    mut cars: Query<(
        Entity,
        &mut VehicleDriver,
        &mut VehicleInput,
        Ref<Vehicle>,
        &Position,
        &Rotation,
        &LinearVelocity,
    )>,
    traffic: Query<(Entity, &Position, &LinearVelocity, &Vehicle)>,
) {
    let dt = time.delta_secs();
    let others: Vec<Other> = traffic
        .iter()
        .map(|(entity, p, v, vehicle)| Other {
            entity,
            position: p.0,
            velocity: v.0,
            half: 0.5 * Vec2::new(vehicle.0.chassis.size[2], vehicle.0.chassis.size[0]),
        })
        .collect();
    for (me, mut d, mut input, vehicle, p, q, v) in &mut cars {
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
            input.0 = held();
            continue;
        }
        let (_, target) = path.ahead(i, lookahead(speed, 0.5, 6.0, 25.0));
        let target = if end { p.0 + forward * 10.0 } else { target };
        let steer = pursuit_steer(settings, p.0, forward, target, speed);
        // Backing out: the brake held selects reverse and then drives backwards; the
        // wheels turned the other way swing the nose towards the path.
        if d.reversing > 0.0 {
            d.reversing = (d.reversing - dt).max(0.0);
            input.0 = DriverInput {
                brake: BACKING,
                steer: -steer.signum(),
                ..default()
            };
            continue;
        }
        let (ahead, _) = path.ahead(i, SPEED_PREVIEW * speed);
        let mut wanted = path.speed(ahead).min(d.top_speed);
        let (time_gap, standstill) = (d.time_gap.max(0.3), d.standstill_gap.max(0.5));
        let half = 0.5 * Vec2::new(settings.chassis.size[2], settings.chassis.size[0]);
        let range = standstill + 3.0 * time_gap * speed + 30.0;
        let mut urgent = 0.0f32;
        if let Some((free, lead)) = car_ahead(path, (i, p.0, half), range, me, &others) {
            let follow = lead + FOLLOW_GAIN * (free - standstill - time_gap * lead.max(0.0));
            wanted = wanted.min(follow.max(0.0));
            // The deceleration that stops the closing before the standstill gap, past
            // what lifting off gives.
            let closing = speed - lead.max(0.0);
            if closing > 0.0 {
                let needed = closing * closing / (2.0 * (free - standstill).max(0.1));
                urgent = (needed - LIFT_OFF) / FOLLOW_BRAKING;
            }
        }
        let e = wanted - speed;
        let mut controls = DriverInput {
            throttle: if e > -0.2 { (0.5 + 0.5 * e).clamp(0.0, 1.0) } else { 0.0 },
            brake: (-0.4 * e).max(urgent).clamp(0.0, 1.0),
            steer,
            ..default()
        };
        if urgent > 0.0 {
            controls.throttle = 0.0;
        }
        // Asked to stand (a stopped car ahead, a cap of 0): held on both brakes.
        if wanted < HOLD_SPEED && speed < HOLD_SPEED {
            controls = DriverInput { steer, ..held() };
        }
        // Pressing on without moving: stuck.
        let can_reverse = settings.gearbox.automatic && settings.gearbox.auto_reverse && settings.two_wheeler.is_none();
        d.stuck = if d.unstuck && can_reverse && controls.throttle > PRESSING && speed < STUCK_SPEED {
            d.stuck + dt
        } else {
            0.0
        };
        if d.stuck >= STUCK_TIME {
            d.stuck = 0.0;
            d.reversing = REVERSE_TIME;
        }
        input.0 = controls;
    }
}
