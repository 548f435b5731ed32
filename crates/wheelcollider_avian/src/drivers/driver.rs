//! A robot driver a game adds as a component: [`VehicleDriver`] drives its vehicle along
//! a [`Path`] at the speed the car's own plan allows there (the core's
//! [`SpeedPlan`](wheelcollider_core::vehicle::SpeedPlan), from its tyres, loads, aero,
//! brakes and engine, at the driver's `aggression` of its grip), steering by pure
//! pursuit ([`pursuit_steer`]) with a look-ahead that grows with the speed, braking in
//! time for the corners (it reads the plan half a second ahead for its braking, and
//! where it is for its accelerations: read ahead, they came while it still turned). At
//! the limit it drives as a driver does by feel:
//!
//! - it adds its car's understeer (the steer it held past what its yaw rate needs, per
//!   m/s² its tyres carry across, a banked road's gravity taken off), learned over
//!   [`UNDERSTEER_TIME`] in turns under [`LINEAR_RANGE`] of its lateral limit (nearer it
//!   the front saturates, and learning there would steer it ever further);
//! - above [`CAPPED_STEER_SPEED`] it never steers past the turn's own steer and its
//!   front tyres' peak slip angle (more only scrubs);
//! - running wide of a bend by more than [`WIDE_MARGIN`] it lifts, asking [`WIDE_SLOWING`]
//!   less of its plan's speed per metre wider, its throttle only (braking would spin a
//!   car at its limit).
//!
//! [`VehicleDriverPlugin`] (in `WheelColliderPlugins`) runs it in `FixedUpdate`
//! ([`VehicleDriverSystems`]), before the physics step reads the vehicle's input. It
//! plans its path for its car when it starts, and again when the car's settings or its
//! aggression change (an inspector edit). Its state is in the rollback list
//! ([`visit_rollback_state`](crate::rollback::visit_rollback_state)).
//!
//! In traffic it keeps a time gap to the car ahead on its path (any vehicle, driven or
//! not), brakes for a slower or stopped one in time, passes a slower one on a straight
//! when its road has a lane beside the path (`pass_offset`), and gets itself unstuck:
//! pressing on with no progress for [`STUCK_TIME`] (a wall, a car across its nose), it
//! backs out for [`REVERSE_TIME`], steering its nose towards the path, and drives on.
//!
//! With `reverse` it drives its path backwards: a car with its rear axle on the path,
//! a car towing a trailer with the trailer's axles on it, steering the articulation
//! ([`reversing`](super::reversing)); it stops at an open path's end. A three-point
//! turn is three open paths, forwards, backwards and forwards, each given when the
//! last one ends ([`VehicleDriver::arrived`]).

use std::sync::Arc;

use avian3d::prelude::*;
use bevy::prelude::*;

use super::pursuit::{Path, lookahead, pursuit_curvature, pursuit_steer};
use super::reversing::{Rig, rear_axle_z, reverse_steer, trailer_steer};
use crate::vehicle::towing::Coupled;
use crate::vehicle::{Vehicle, VehicleInput, VehicleRuntime};
use wheelcollider_core::vehicle::{DriverInput, FIRST_GEAR_BACKING, FIRST_GEAR_THROTTLE};
use wheelcollider_core::{limits::STANDARD_GRAVITY, math};

/// A driver's plan and what it was made from.
#[derive(Clone, Debug, PartialEq)]
struct Planned {
    path: Path,
    /// The path it was planned from (a driver given another re-plans).
    source: Arc<Path>,
    /// Whether it was planned to stand on an open path's end.
    stop: bool,
    aggression: f32,
    settings: wheelcollider_core::vehicle::VehicleSettings,
    /// The car's lateral limit at rest (m/s²).
    lateral: f32,
    /// Its front tyres' peak slip angle at their static load (rad).
    front_peak: f32,
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
    /// Drive the path backwards: the car's rear axle on it, or, towing, its trailer's
    /// axles (the module docs). Needs an automatic gearbox with `auto_reverse` (a car
    /// that cannot reverse stands still); it ignores traffic and stops at an open
    /// path's end whatever `at_end` says.
    pub reverse: bool,
    /// The most speed it backs up at (m/s, > 0).
    pub reverse_speed: f32,
    /// The time gap it keeps to the car ahead on its path (s, ≥ 0.3): at speed `v` it
    /// follows `standstill_gap + time_gap·v` behind.
    pub time_gap: f32,
    /// The gap it leaves to a stopped car ahead (m, bumper to bumper by the chassis'
    /// boxes, ≥ 0.5).
    pub standstill_gap: f32,
    /// Whether it backs out when stuck (a vehicle that cannot reverse, a two-wheeler or
    /// one without `auto_reverse`, never does).
    pub unstuck: bool,
    /// How far to the left of its path (m) it moves to pass a slower car: the lane the
    /// path's road has beside it (0, the default: it never passes). It passes on a
    /// straight long enough for the pass with the lane clear, and moves back once the
    /// path's lane is clear behind it.
    pub pass_offset: f32,
    /// The lane it drives in (m to the left of its path; state: 0, or `pass_offset`
    /// while passing).
    pub lane: f32,
    /// The nearest point of the path last step (state).
    pub index: usize,
    /// The laps done on a closed path (state).
    pub laps: u32,
    /// How long it has pressed on without moving (s, state).
    pub stuck: f32,
    /// How long it has left to back out (s, state; 0 when driving on).
    pub reversing: f32,
    /// Its car's understeer as it has felt it (rad of steer per m/s² of lateral
    /// acceleration, ≥ 0, state): the steer it adds to the pursuit's for the turn it asks.
    pub understeer: f32,
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
            reverse: false,
            reverse_speed: 1.5,
            time_gap: 1.5,
            standstill_gap: 3.0,
            unstuck: true,
            pass_offset: 0.0,
            lane: 0.0,
            index: 0,
            laps: 0,
            stuck: 0.0,
            reversing: 0.0,
            understeer: 0.0,
            planned: None,
        }
    }

    /// The same driver backing its path up (`reverse`) at `reverse_speed` (m/s).
    pub fn reversing(mut self, reverse_speed: f32) -> Self {
        self.reverse = true;
        self.reverse_speed = reverse_speed;
        self
    }

    /// The path planned for the car (its speeds the car's plan), once the driver has run.
    pub fn plan(&self) -> Option<&Path> {
        self.planned.as_ref().map(|p| &p.path)
    }

    /// Whether it has reached the end of an open path (the nearest point its last).
    pub fn arrived(&self) -> bool {
        !self.path.closed() && self.index + 1 >= self.path.len()
    }

    /// Gives it a new path (a game's next leg: a three-point turn's reverse), keeping
    /// its settings; its place on the path starts again. (A path written into `path`
    /// is planned too, from the place the driver had.)
    pub fn set_path(&mut self, path: Arc<Path>) {
        self.path = path;
        self.planned = None;
        (self.index, self.laps, self.stuck, self.reversing, self.lane) = (0, 0, 0.0, 0.0, 0.0);
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

/// How far ahead (s) the speed controller reads the plan for its braking: braking starts
/// in time.
const SPEED_PREVIEW: f32 = 0.5;
/// How far ahead (m) it reads the plan for its accelerations: where it is (the next
/// point; from a standstill the plan's first is 0).
const PLAN_NEAR: f32 = 1.0;
/// How long (s) a driver presses on (its throttle over `PRESSING`) below `STUCK_SPEED`
/// before it backs out (`vehicle::traffic`'s stuck driver).
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
/// A driver learns its car's understeer in turns below this share of its lateral limit,
/// where it grows with the lateral acceleration (nearer the limit the front saturates,
/// and steering more only scrubs).
pub const LINEAR_RANGE: f32 = 0.6;
/// How far (m) a driver runs wide of a bend before it lifts…
pub const WIDE_MARGIN: f32 = 1.0;
/// …by how much (a share of its plan's speed per metre wider)…
pub const WIDE_SLOWING: f32 = 0.05;
/// …and at most.
const MOST_LIFT: f32 = 0.3;
/// Above this speed (m/s) a driver never steers past its front tyres' peak slip angle
/// and its turn's own steer (slower, a tight turn may need the whole lock).
pub const CAPPED_STEER_SPEED: f32 = 8.0;
/// How long (s) a driver takes to learn its car's understeer.
pub const UNDERSTEER_TIME: f32 = 1.0;
/// The most understeer (rad per m/s²) a driver counts on: 10° at 0.9 g.
const MAX_UNDERSTEER: f32 = 0.02;
/// How much slower (m/s) than it would go a leader must be for a driver to pass it.
const PASS_SLOWER: f32 = 1.5;
/// The most the path may turn (rad) over the straight a driver passes on.
const PASS_BEND: f32 = 0.15;
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

/// Another vehicle placed on a driver's path: how far ahead of the driver along the
/// path its centre is (m; negative behind), its offset to the left of the path (m),
/// its speed along the path (m/s) and half its box' length and width (m).
#[derive(Clone, Copy, Debug)]
struct Placed {
    ahead: f32,
    offset: f32,
    speed: f32,
    half: Vec2,
}

/// The other vehicles within `range` (m) of a driver at `p` (point `i` of `path`), placed
/// on its path: each at its nearest point from `i` on, within the next `range` of path.
fn place(path: &Path, (i, p): (usize, Vec3), range: f32, me: Entity, others: &[Other]) -> (f32, Vec<Placed>) {
    let points = path.points();
    let n = path.len();
    let spacing = (path.gap(0, 1)).max(0.1);
    let window = ((range / spacing) as usize + 2).min(n);
    let tangent = |j: usize| {
        let next = path.ahead(j, spacing).1;
        (next - points[j]).with_y(0.0).normalize_or_zero()
    };
    let local = |j: usize, q: Vec3| {
        let (d, t) = ((q - points[j]).with_y(0.0), tangent(j));
        (d.dot(t), d.dot(Vec3::Y.cross(t)))
    };
    let (mine, my_offset) = local(i, p);
    let placed = others
        .iter()
        .filter(|o| o.entity != me && o.position.distance(p) < range + o.half.x)
        .map(|o| {
            let j = path.nearest(o.position, i, window, f32::INFINITY);
            let (along, offset) = local(j, o.position);
            Placed {
                ahead: path.gap(i, j) + along - mine,
                offset,
                speed: o.velocity.dot(tangent(j)),
                half: o.half,
            }
        })
        .collect();
    (my_offset, placed)
}

/// Whether a placed car is in the lane at `offset` (m) of a car half `half` its box:
/// within the two boxes' half widths and [`LANE_MARGIN`] of it.
fn in_lane(o: &Placed, offset: f32, half: Vec2) -> bool {
    (o.offset - offset).abs() < half.y + o.half.y + LANE_MARGIN
}

/// The car ahead in either of `lanes` (m, offsets) of a car half `half` its box, within
/// `range` (m): the free gap to it (m, between the boxes along the path) and its speed
/// along the path (m/s).
fn car_ahead(placed: &[Placed], lanes: [f32; 2], half: Vec2, range: f32) -> Option<(f32, f32)> {
    placed
        .iter()
        .filter(|o| lanes.iter().any(|&l| in_lane(o, l, half)))
        .filter(|o| o.ahead > 0.0 && o.ahead < range + half.x + o.half.x)
        .map(|o| (o.ahead - half.x - o.half.x, o.speed))
        .min_by(|a, b| a.0.total_cmp(&b.0))
}

/// Whether the lane at `offset` (m) is free of cars from `behind` (m) behind a car half
/// `half` its box to `ahead` (m) in front of it, box to box.
fn lane_clear(placed: &[Placed], offset: f32, half: Vec2, (behind, ahead): (f32, f32)) -> bool {
    !placed.iter().any(|o| {
        in_lane(o, offset, half) && o.ahead + o.half.x + half.x > -behind && o.ahead - o.half.x - half.x < ahead
    })
}

/// How far (m) along `path` from point `i` the path stays within [`PASS_BEND`] of its
/// heading at `i`, up to `limit` (m).
fn straight_ahead(path: &Path, i: usize, limit: f32) -> f32 {
    let points = path.points();
    let heading = |j: usize| (path.ahead(j, 2.0).1 - points[j]).with_y(0.0).normalize_or_zero();
    let start = heading(i);
    let mut along = 0.0;
    let mut j = i;
    while along < limit {
        let (next, _) = path.ahead(j, 2.0);
        if next == j || heading(next).dot(start) < wheelcollider_core::math::cos(PASS_BEND) {
            break;
        }
        along += points[j].distance(points[next]);
        j = next;
    }
    along
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

/// Within this distance (m) along an open path of its end a driver going forwards has
/// arrived: its plan stands there (`PathEnd::Stop`), and it holds.
const ARRIVED: f32 = 0.1;

/// How far (m) a point `p` near point `i` of `path` has to go to an open path's end:
/// along the path from its nearest point's segment (the last segment's at the last
/// point); infinite on a closed path.
fn remaining(path: &Path, i: usize, p: Vec3) -> f32 {
    if path.closed() {
        return f32::INFINITY;
    }
    let (points, n) = (path.points(), path.len());
    let j = i.min(n - 2);
    let tangent = (points[j + 1] - points[j]).with_y(0.0).normalize_or_zero();
    path.gap(j, n - 1) - (p - points[j]).with_y(0.0).dot(tangent)
}

/// The deceleration (m/s²) a driver plans to stand on an open path's end with at a
/// walk: backing up, and the last of the way forwards (the plan's braking, read ahead,
/// would have it stand short).
const ARRIVING: f32 = 0.6;
/// Within this distance (m) of an open path's end a reversing driver stands.
const REVERSE_THERE: f32 = 0.05;

/// A reversing driver's controls (`reverse`): the car's rear axle, or its trailer's
/// axles when it tows one (`trailer`: its position, rotation and settings), along
/// `path`, in reverse `gear` (the gearbox's next gear; it selects reverse first).
fn backwards(
    d: &mut VehicleDriver,
    path: &Path,
    settings: &wheelcollider_core::vehicle::VehicleSettings,
    (p, q, v): (Vec3, Quat, Vec3),
    trailer: Option<(Vec3, Quat, &wheelcollider_core::vehicle::VehicleSettings)>,
    gear: i32,
) -> DriverInput {
    let forward = q * Vec3::NEG_Z;
    let u = v.dot(forward);
    let can_reverse = settings.gearbox.automatic && settings.gearbox.auto_reverse && settings.two_wheeler.is_none();
    // The point on the path and its heading: the trailer's axles, or the rear axle.
    let rig = trailer.and_then(|(_, _, t)| Rig::of(settings, t).map(|rig| (rig, t)));
    let (guided, heading) = match (trailer, rig) {
        (Some((tp, tq, _)), Some((rig, t))) => {
            // The axles' mean position, `trailer_length` behind the coupling.
            let coupling = t.trailer.as_ref().map_or(0.0, |c| c.coupling[2]);
            (
                tp + tq * Vec3::new(0.0, 0.0, coupling + rig.trailer_length),
                tq * Vec3::NEG_Z,
            )
        }
        _ => (p + q * Vec3::new(0.0, 0.0, rear_axle_z(settings)), forward),
    };
    let n = path.len();
    let i = path.nearest(guided, d.index, (n / 4).max(1), 10.0);
    d.index = i;
    let to_end = remaining(path, i, guided);
    // In reverse the automatic's pedals swap: the throttle brakes, kept under the
    // throttle that selects first gear until the car backs faster than the automatic's
    // `FIRST_GEAR_BACKING`.
    let under_first = 0.9 * FIRST_GEAR_THROTTLE;
    let held_back = DriverInput {
        // Standing: the handbrake holds.
        throttle: under_first,
        handbrake: 1.0,
        ..default()
    };
    if !can_reverse || to_end < REVERSE_THERE {
        return if gear == -1 { held_back } else { held() };
    }
    let back = -u;
    // Selecting reverse: stop, and stand on the brake alone until the automatic takes it.
    if gear != -1 {
        return DriverInput {
            brake: 1.0,
            ..default()
        };
    }
    let reach = match rig {
        Some((rig, _)) => rig.trailer_length.max(3.0),
        None => lookahead(back, 0.5, 3.0, 8.0),
    };
    let (_, target) = path.ahead(i, reach);
    let steer = match (trailer, rig) {
        (Some(_), Some((rig, _))) => {
            let f2 = heading.with_y(0.0).normalize_or_zero();
            let f1 = forward.with_y(0.0).normalize_or_zero();
            let psi = wheelcollider_core::math::atan2(f2.cross(f1).y, f2.dot(f1));
            trailer_steer(settings, rig, (guided, heading), target, psi, u).0
        }
        _ => reverse_steer(settings, guided, forward, target, back),
    };
    let wanted = d
        .reverse_speed
        .max(0.1)
        .min(d.top_speed)
        .min((2.0 * ARRIVING * to_end.max(0.0)).sqrt());
    let e = wanted - back;
    // The brake pedal drives backwards; the throttle brakes.
    let slow = (-0.5 * e).clamp(0.0, 1.0);
    let backing = u < -FIRST_GEAR_BACKING;
    DriverInput {
        brake: if e > -0.1 {
            (0.15 + 0.4 * e).clamp(0.0, 0.6)
        } else {
            0.0
        },
        throttle: if backing { slow } else { slow.min(under_first) },
        handbrake: if backing { 0.0 } else { (2.0 * slow).min(1.0) },
        steer,
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
        &AngularVelocity,
        Option<&VehicleRuntime>,
    )>,
    traffic: Query<(Entity, &Position, &LinearVelocity, &Vehicle)>,
    trailers: Query<(&Coupled, &Position, &Rotation, &Vehicle)>,
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
    for (me, mut d, mut input, vehicle, p, q, v, w, runtime) in &mut cars {
        let settings = &vehicle.0;
        let aggression = d.aggression.clamp(0.05, 1.0);
        // An open path it stops at is planned to stand on its last point.
        let stop = !d.path.closed() && d.at_end == PathEnd::Stop;
        // The settings are compared only when something wrote them (an inspector's
        // edit may write them unchanged).
        let stale = d.planned.as_ref().is_none_or(|p| {
            p.aggression != aggression
                || p.stop != stop
                || !Arc::ptr_eq(&p.source, &d.path)
                || (vehicle.is_changed() && p.settings != *settings)
        });
        if stale {
            let path = (*d.path)
                .clone()
                .with_plan(settings, aggression, 5, (v.0.length(), stop));
            d.planned = Some(Arc::new(Planned {
                path,
                source: d.path.clone(),
                stop,
                aggression,
                settings: settings.clone(),
                lateral: settings.lateral_limit(0.0),
                front_peak: math::atan(
                    settings.axles[0]
                        .wheel
                        .lateral_peak_slip(settings.corner_load(0) as f64),
                ),
            }));
        }
        let Some(planned) = d.planned.clone() else { continue };
        let path = &planned.path;
        if d.reverse {
            let gear = runtime.and_then(|r| r.state.as_ref()).map_or(0, |s| s.next_gear);
            let trailer = trailers.iter().find(|t| t.0.tow == me);
            let trailer = trailer.map(|(_, tp, tq, tv)| (tp.0, tq.0, &tv.0));
            input.0 = backwards(&mut d, path, settings, (p.0, q.0, v.0), trailer, gear);
            continue;
        }
        let n = path.len();
        let i = path.nearest(p.0, d.index, (n / 4).max(1), 10.0);
        if path.closed() && i < d.index && d.index - i > n / 2 {
            d.laps += 1;
        }
        d.index = i;
        let speed = v.0.length();
        let forward = q.0 * Vec3::NEG_Z;
        // Within `ARRIVED` of an open path's end along it, or past it (its plan stands
        // there): it holds, or with `PathEnd::Hold` drives on straight.
        let end = remaining(path, i, p.0) < ARRIVED;
        if end && d.at_end == PathEnd::Stop {
            d.index = n - 1;
            input.0 = held();
            continue;
        }
        let (k, target) = path.ahead(i, lookahead(speed, 0.5, 6.0, 25.0));
        // The lane: the target moved to the left of the path.
        let tangent = (path.ahead(k, 2.0).1 - target).with_y(0.0).normalize_or_zero();
        let target = target + Vec3::Y.cross(tangent) * d.lane;
        let target = if end { p.0 + forward * 10.0 } else { target };
        let mut steer = pursuit_steer(settings, p.0, forward, target, speed);
        if settings.two_wheeler.is_none() && !end {
            let wheelbase = settings.wheelbase_for(0).max(0.5);
            let lock = settings.steering.lock_at(speed).max(1e-3).to_radians();
            // What the tyres carry across (m/s², left positive): the turn's centripetal
            // acceleration less what gravity gives across a banked (or cambered) road,
            // the body's tilt to its left.
            let across = |centripetal: f32| {
                let left = Vec3::Y.cross(forward).normalize_or_zero();
                centripetal - STANDARD_GRAVITY * (q.0 * Vec3::Y).dot(left)
            };
            // The understeer felt: the steer it held past the one its yaw rate needs,
            // over what the tyres carried, learned over `UNDERSTEER_TIME` in a turn.
            let ay = across(speed * w.0.y);
            if speed > 5.0 && ay.abs() > 2.0 && ay.abs() < LINEAR_RANGE * planned.lateral {
                let held = input.0.steer * lock;
                let felt = ((held - math::atan(wheelbase * w.0.y / speed)) / ay).clamp(0.0, MAX_UNDERSTEER);
                d.understeer += (felt - d.understeer) * (dt / UNDERSTEER_TIME).min(1.0);
            }
            // The steer it adds for the pursuit's turn: that understeer at what the
            // tyres will carry in it (on a banked turn, less than the turn's centripetal
            // acceleration; the flat road's understeer there turned a kart in too far).
            let curvature = pursuit_curvature(p.0, forward, target);
            let asked = across(speed * speed * curvature);
            steer = (steer + d.understeer * asked / lock).clamp(-1.0, 1.0);
            // Never past the front tyres' peak: the turn's own steer and their peak slip
            // angle (more only scrubs, and a front past its peak grips less).
            if speed > CAPPED_STEER_SPEED {
                let most = (math::atan(wheelbase * curvature.abs()) + planned.front_peak) / lock;
                steer = steer.clamp(-most, most);
            }
        }
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
        // The plan read ahead for braking, here for accelerating; near an open path's
        // end, at least a walk onto it (no slower than `HOLD_SPEED` until it has
        // arrived).
        let arriving = (2.0 * ARRIVING * remaining(path, i, p.0).max(0.0))
            .sqrt()
            .max(HOLD_SPEED);
        let (near, _) = path.ahead(i, PLAN_NEAR);
        let mut wanted = path
            .speed(ahead)
            .min(path.speed(near))
            .max(arriving.min(path.speed(i).max(HOLD_SPEED)))
            .min(d.top_speed);
        let (time_gap, standstill) = (d.time_gap.max(0.3), d.standstill_gap.max(0.5));
        let half = 0.5 * Vec2::new(settings.chassis.size[2], settings.chassis.size[0]);
        let range = standstill + 3.0 * time_gap * speed + 30.0;
        let (offset, placed) = place(path, (i, p.0), range.max(60.0), me, &others);
        // Running wide of a bend (the path's turn over the next 10 m) it lifts, the more
        // the wider, its throttle only (braking would upset a car at its limit).
        let points = path.points();
        let here = (path.ahead(i, 2.0).1 - points[i]).with_y(0.0);
        let later = (path.ahead(i, 12.0).1 - path.ahead(i, 10.0).1).with_y(0.0);
        let turn = here.cross(later).y;
        let lift = if turn.abs() > 1e-3 {
            let outward = -(offset - d.lane) * turn.signum();
            (WIDE_SLOWING * (outward - WIDE_MARGIN)).clamp(0.0, MOST_LIFT)
        } else {
            0.0
        };
        let mut leader = car_ahead(&placed, [offset, d.lane], half, range);
        // Passing: a leader slower than the plan, a straight long enough to get by at
        // the speed difference, and the passing lane clear; back once the path's lane is
        // clear behind.
        if d.pass_offset > 0.0 {
            if d.lane == 0.0 {
                if let Some((free, lead)) = leader {
                    let gain = wanted - lead;
                    let room = free + 2.0 * half.x + 2.0 * standstill;
                    let needed = room * wanted / gain.max(0.1) + 20.0;
                    if gain > PASS_SLOWER
                        && free < standstill + 2.0 * time_gap * speed + 10.0
                        && straight_ahead(path, i, needed) >= needed
                        && lane_clear(&placed, d.pass_offset, half, (20.0, room + 20.0))
                    {
                        d.lane = d.pass_offset;
                    }
                }
            } else if lane_clear(&placed, 0.0, half, (standstill + 5.0, standstill + time_gap * speed)) {
                d.lane = 0.0;
            }
            leader = car_ahead(&placed, [offset, d.lane], half, range);
        } else {
            d.lane = 0.0;
        }
        let mut urgent = 0.0f32;
        if let Some((free, lead)) = leader {
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
        // Along its heading: a car still rolling backwards (backed out) is slowed by the
        // throttle, never driven on backwards by the brake (an automatic's reverse swaps
        // the pedals).
        let u = v.0.dot(forward);
        let (e, lifted) = (wanted - u, wanted * (1.0 - lift) - u);
        let mut controls = DriverInput {
            throttle: if lifted > -0.2 {
                (0.5 + 0.5 * lifted).clamp(0.0, 1.0)
            } else {
                0.0
            },
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
