//! AI traffic on the track's loop: T adds a car (the shipped presets in turn, each in
//! its own paint), Shift+T removes them all; P hands the player's car to the same
//! driver, and P again takes it back. Each car is driven by the plugin's
//! [`VehicleDriver`] on the loop: its own car's speed plan at [`AGGRESSION`] of its grip,
//! pure-pursuit steering, a time gap to the car ahead (the player's too), and backing
//! out when stuck. A car that leaves the loop or turns over is replaced.
use std::f32::consts::PI;
use std::sync::Arc;

use avian3d::prelude::*;
use bevy::prelude::*;
use wheelcollider::avian::drivers::Path;
use wheelcollider::prelude::*;

use crate::car_visuals::Livery;
use crate::layout::{BANKED_Z, LOOP_X, NORTH_Z};

/// The most AI cars at once.
pub const MAX_CARS: usize = 40;
/// The share of its car's grip each AI driver plans with.
const AGGRESSION: f32 = 0.6;
/// Top speed on the straights (m/s).
const TOP: f32 = 27.0;

/// Spawns, drives and replaces the AI cars.
pub struct TrafficPlugin;

impl Plugin for TrafficPlugin {
    fn build(&self, app: &mut App) {
        app.add_message::<TrafficRequest>()
            .insert_resource(Loop::new())
            .add_systems(Startup, load_presets)
            .add_systems(Update, (requests, autopilot))
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

/// An AI car of the traffic (its [`VehicleDriver`] drives it): how long it has been in
/// trouble (s).
#[derive(Component)]
pub struct AiDriver {
    trouble: f32,
}

/// The presets traffic cycles through, and how many cars have been added.
#[derive(Resource, Default)]
struct TrafficPresets {
    cars: Vec<VehicleSettings>,
    added: usize,
}

/// The loop as a closed path of points about 2 m apart (the plugin's
/// `drivers::Path`; each driver plans its own speeds on it).
#[derive(Resource, Clone)]
pub struct Loop {
    path: Arc<Path>,
    /// The points a car may be spawned at: on flat ground, not on the banked turn.
    flat: Vec<usize>,
}

impl Loop {
    /// Down the east straight (x = +LOOP_X, towards −Z), round the banked turn, up the
    /// west straight, round the flat north turn.
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
            path: Arc::new(Path::new(points, true, TOP)),
            flat,
        }
    }

    fn point(&self, i: usize) -> Vec3 {
        self.path.points()[i]
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
                    let mut driver = VehicleDriver::new(path.path.clone(), AGGRESSION);
                    driver.top_speed = TOP;
                    driver.index = index;
                    commands.entity(car).insert((
                        Name::new(format!("traffic {} #{k}", settings.name)),
                        AiDriver { trouble: 0.0 },
                        driver,
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

/// P hands the player's car to a [`VehicleDriver`] on the loop (the inspector's Plots
/// tab then draws its plan while it drives: tune the car and watch the plan change),
/// and P again takes it back.
fn autopilot(
    keys: Res<ButtonInput<KeyCode>>,
    mut commands: Commands,
    path: Res<Loop>,
    player: Query<(Entity, &Position, Has<VehicleDriver>), With<PlayerVehicle>>,
) {
    if !keys.just_pressed(KeyCode::KeyP) {
        return;
    }
    for (car, p, driven) in &player {
        if driven {
            commands.entity(car).remove::<VehicleDriver>();
        } else {
            let mut driver = VehicleDriver::new(path.path.clone(), AGGRESSION);
            driver.index = path.path.nearest(p.0, 0, path.path.len(), f32::INFINITY);
            driver.top_speed = TOP;
            commands.entity(car).insert(driver);
        }
    }
}

/// Replaces a car that left the loop or turned over (its [`VehicleDriver`] drives it).
fn drive(
    mut commands: Commands,
    time: Res<Time>,
    path: Res<Loop>,
    mut cars: Query<(Entity, &mut AiDriver, &VehicleDriver, &Position, &Rotation)>,
    mut more: MessageWriter<TrafficRequest>,
) {
    for (entity, mut ai, driver, p, rot) in &mut cars {
        // Off the loop by more than 12 m, or on its side: replaced after 4 s.
        let off = path.point(driver.index).with_y(p.0.y).distance(p.0) > 12.0;
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
