//! AI traffic on the track's loop: T adds a car (the shipped presets in turn, each in
//! its own paint), Shift+T removes them all. Each car steers by pure pursuit (the arc
//! through a point a speed-dependent distance ahead on the loop: the plugin's
//! `drivers::pursuit`), holds the loop's
//! speed profile (corner speeds √(a_y/κ), braked for in time) and keeps its distance
//! to the car ahead. A car that leaves the loop or turns over is replaced.
use std::f32::consts::PI;
use std::sync::Arc;

use avian3d::prelude::*;
use bevy::prelude::*;
use wheelcollider::avian::drivers::{Path, lookahead, pursuit_steer};
use wheelcollider::prelude::*;

use crate::car_visuals::Livery;
use crate::layout::{BANKED_Z, LOOP_X, NORTH_Z};

/// The most AI cars at once.
pub const MAX_CARS: usize = 40;
/// Lateral acceleration the AI allows itself in the bends (m/s²).
const LATERAL: f32 = 6.0;
/// Braking it plans with (m/s²).
const DECEL: f32 = 5.0;
/// Top speed on the straights (m/s).
const TOP: f32 = 27.0;

/// Spawns, drives and replaces the AI cars.
pub struct TrafficPlugin;

impl Plugin for TrafficPlugin {
    fn build(&self, app: &mut App) {
        app.add_message::<TrafficRequest>()
            .insert_resource(Loop::new())
            .add_systems(Startup, load_presets)
            .add_systems(Update, requests)
            .add_systems(FixedUpdate, drive);
    }
}

/// Add AI cars, or remove them all.
#[derive(Message, Clone, Copy, Debug)]
pub enum TrafficRequest {
    /// Add this many cars (up to [`MAX_CARS`]).
    Add(usize),
    /// Remove every AI car.
    Clear,
}

/// An AI driver: where it is on the loop, and how long it has been in trouble (s).
#[derive(Component)]
pub struct AiDriver {
    index: usize,
    trouble: f32,
}

/// The presets traffic cycles through, and how many cars have been added.
#[derive(Resource, Default)]
struct TrafficPresets {
    cars: Vec<VehicleSettings>,
    added: usize,
}

/// The loop as a closed path of points about 2 m apart, with the speed to hold at
/// each (the plugin's `drivers::Path`).
#[derive(Resource, Clone)]
pub struct Loop {
    path: Arc<Path>,
    /// The points a car may be spawned at: on flat ground, not on the banked turn.
    flat: Vec<usize>,
}

impl Loop {
    /// Down the east straight (x = +LOOP_X, towards −Z), round the banked turn, up the
    /// west straight, round the flat north turn. Corner speeds from the circle through
    /// each point and its neighbours 5 points away, braked for at [`DECEL`].
    fn new() -> Self {
        let r = LOOP_X;
        let straight = NORTH_Z - BANKED_Z;
        let (ns, nt) = ((straight / 2.0) as usize, (PI * r / 2.0) as usize);
        let mut points = Vec::new();
        for i in 0..ns {
            points.push(Vec3::new(r, 0.0, NORTH_Z - straight * i as f32 / ns as f32));
        }
        for i in 0..nt {
            let a = PI * i as f32 / nt as f32;
            points.push(Vec3::new(r * a.cos(), 0.0, BANKED_Z - r * a.sin()));
        }
        for i in 0..ns {
            points.push(Vec3::new(-r, 0.0, BANKED_Z + straight * i as f32 / ns as f32));
        }
        for i in 0..nt {
            let a = PI * i as f32 / nt as f32;
            points.push(Vec3::new(-r * a.cos(), 0.0, NORTH_Z + r * a.sin()));
        }
        let n = points.len();
        let flat = (0..n).filter(|i| !(ns..ns + nt).contains(i)).step_by(4).collect();
        Loop {
            path: Arc::new(Path::new(points, true, TOP).with_speed_profile(TOP, LATERAL, DECEL, 5)),
            flat,
        }
    }

    fn point(&self, i: usize) -> Vec3 {
        self.path.points()[i]
    }

    /// Distance (m) along the loop from point `a` forward to point `b`, by the points'
    /// spacing (cheap: every car against every other, each step).
    fn gap(&self, a: usize, b: usize) -> f32 {
        let n = self.path.len();
        ((b + n - a) % n) as f32 * self.point(1).distance(self.point(0))
    }
}

fn load_presets(mut commands: Commands) {
    let cars = ["road", "rally", "gt86", "kart"]
        .iter()
        .filter_map(
            |name| match VehicleSettings::from_file(format!("assets/presets/{name}.ron")) {
                Ok(s) => Some(s),
                Err(e) => {
                    warn!("traffic: {e}");
                    None
                }
            },
        )
        .collect();
    commands.insert_resource(TrafficPresets { cars, added: 0 });
}

/// Cars a new AI car must not be spawned onto.
type Occupied = Or<(With<AiDriver>, With<PlayerVehicle>)>;

fn requests(
    mut commands: Commands,
    mut reader: MessageReader<TrafficRequest>,
    mut presets: ResMut<TrafficPresets>,
    path: Res<Loop>,
    cars: Query<&Position, Occupied>,
    ai: Query<Entity, With<AiDriver>>,
) {
    let mut taken: Vec<Vec3> = cars.iter().map(|p| p.0).collect();
    let mut count = ai.iter().count();
    for request in reader.read() {
        match *request {
            TrafficRequest::Clear => {
                for car in &ai {
                    commands.entity(car).despawn();
                }
                count = 0;
            }
            TrafficRequest::Add(n) => {
                for _ in 0..n {
                    if count >= MAX_CARS || presets.cars.is_empty() {
                        break;
                    }
                    let k = presets.added;
                    let settings = presets.cars[k % presets.cars.len()].clone();
                    // The free-est point on the loop: farthest from every car.
                    let index = path
                        .flat
                        .iter()
                        .copied()
                        .max_by(|&a, &b| {
                            let clear =
                                |i: usize| taken.iter().map(|t| t.distance(path.point(i))).fold(f32::MAX, f32::min);
                            clear(a).total_cmp(&clear(b))
                        })
                        .unwrap_or(0);
                    let at = path.point(index).with_y(settings.touch_height() + 0.15);
                    let next = path.path.ahead(index, 4.0).1.with_y(at.y);
                    let Ok(car) = spawn_vehicle(
                        &mut commands,
                        &settings,
                        Transform::from_translation(at).looking_at(next, Vec3::Y),
                    ) else {
                        continue;
                    };
                    commands.entity(car).insert((
                        Name::new(format!("traffic {} #{k}", settings.name)),
                        AiDriver { index, trouble: 0.0 },
                        Livery(k / presets.cars.len() + 1),
                        WheelEventsEnabled,
                        TransformInterpolation,
                        Visibility::default(),
                    ));
                    taken.push(at);
                    presets.added += 1;
                    count += 1;
                }
            }
        }
    }
}

/// Pure pursuit and the speed profile, with a gap to the car ahead.
fn drive(
    mut commands: Commands,
    time: Res<Time>,
    path: Res<Loop>,
    mut cars: Query<(
        Entity,
        &mut AiDriver,
        &mut VehicleInput,
        &Vehicle,
        &Position,
        &Rotation,
        &LinearVelocity,
    )>,
    mut more: MessageWriter<TrafficRequest>,
) {
    let others: Vec<(Entity, usize, f32)> = cars.iter().map(|(e, ai, .., v)| (e, ai.index, v.0.length())).collect();
    for (entity, mut ai, mut input, vehicle, p, rot, v) in &mut cars {
        let i = path.path.nearest(p.0, ai.index, 60, 10.0);
        ai.index = i;
        let speed = v.0.length();
        let (_, target) = path.path.ahead(i, lookahead(speed, 0.5, 6.0, 25.0));
        input.steer = pursuit_steer(&vehicle.0, p.0, rot.0 * Vec3::NEG_Z, target, speed);

        let mut wanted = path.path.speed((i + 3) % path.path.len());
        for &(other, j, other_speed) in &others {
            let gap = path.gap(i, j);
            if other != entity && gap < 40.0 {
                wanted = wanted.min(other_speed + 0.5 * (gap - 12.0));
            }
        }
        let e = wanted - speed;
        input.throttle = (0.3 * e).clamp(0.0, 1.0);
        input.brake = (-0.3 * e).clamp(0.0, 1.0);

        // Off the loop by more than 12 m, or on its side: replaced after 4 s.
        let off = path.point(i).with_y(p.0.y).distance(p.0) > 12.0;
        let over = (rot.0 * Vec3::Y).y < 0.3;
        ai.trouble = if off || over {
            ai.trouble + time.delta_secs()
        } else {
            0.0
        };
        if ai.trouble > 4.0 {
            commands.entity(entity).despawn();
            more.write(TrafficRequest::Add(1));
        }
    }
}
