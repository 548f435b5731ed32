//! AI cars following a path: each car's `VehicleInput` is written by a pure-pursuit
//! driver (steer towards a point a speed-dependent distance ahead on the path) with a
//! speed controller that brakes in time for the path's corners. Copy `AiDriver` and
//! `drive_ai` for traffic, opponents or a demo lap. Headless; prints each car's laps and
//! path error every 5 s.
//!
//! `cargo run --release --example ai_path`
use avian3d::prelude::*;
use bevy::prelude::*;
use std::sync::Arc;
use wheelcollider::prelude::*;

/// A closed path, as points every ~2 m (world, on the ground).
#[derive(Clone)]
struct Path(Arc<[Vec3]>);

impl Path {
    /// A stadium: two 120 m straights joined by half circles of radius `r` (m).
    fn stadium(r: f32) -> Self {
        let mut points = vec![];
        let straight = 120.0;
        let n = 60;
        for i in 0..n {
            points.push(Vec3::new(r, 0.0, straight / 2.0 - straight * i as f32 / n as f32));
        }
        for i in 0..n {
            let a = std::f32::consts::PI * i as f32 / n as f32;
            points.push(Vec3::new(r * a.cos(), 0.0, -straight / 2.0 - r * a.sin()));
        }
        for i in 0..n {
            points.push(Vec3::new(-r, 0.0, -straight / 2.0 + straight * i as f32 / n as f32));
        }
        for i in 0..n {
            let a = std::f32::consts::PI * i as f32 / n as f32;
            points.push(Vec3::new(-r * a.cos(), 0.0, straight / 2.0 + r * a.sin()));
        }
        Path(points.into())
    }

    /// Curvature at point `i` (1/m), from the circle through it and its neighbours
    /// 10 points away.
    fn curvature(&self, i: usize) -> f32 {
        let n = self.0.len();
        let (a, b, c) = (self.0[(i + n - 10) % n], self.0[i], self.0[(i + 10) % n]);
        let cross = (b - a).cross(c - b).length();
        2.0 * cross / ((b - a).length() * (c - b).length() * (c - a).length()).max(1e-6)
    }

    /// The speed (m/s) to hold at point `i`: at most `top`, and low enough to brake at
    /// `decel` (m/s²) to each of the next 120 m of points' corner speed √(a_y / κ).
    fn speed_limit(&self, i: usize, top: f32, lateral: f32, decel: f32) -> f32 {
        let n = self.0.len();
        let (mut limit, mut d) = (top, 0.0);
        let mut j = i;
        while d < 120.0 {
            let next = (j + 1) % n;
            d += self.0[j].distance(self.0[next]);
            j = next;
            let corner = (lateral / self.curvature(j).max(1e-4)).sqrt();
            limit = limit.min((corner * corner + 2.0 * decel * d).sqrt());
        }
        limit
    }

    /// Index of the point nearest `p`, searched forward from `from` (the whole path
    /// when the car is far from it).
    fn nearest(&self, p: Vec3, from: usize) -> usize {
        let n = self.0.len();
        let near = self.nearest_in(p, from, n / 4);
        if self.0[near].with_y(p.y).distance(p) < 10.0 {
            near
        } else {
            self.nearest_in(p, 0, n)
        }
    }

    fn nearest_in(&self, p: Vec3, from: usize, count: usize) -> usize {
        let n = self.0.len();
        (0..count)
            .map(|k| (from + k) % n)
            .min_by(|&a, &b| {
                let da = self.0[a].with_y(p.y).distance_squared(p);
                let db = self.0[b].with_y(p.y).distance_squared(p);
                da.total_cmp(&db)
            })
            .unwrap_or(from)
    }

    /// The point `distance` (m) along the path from point `i`.
    fn ahead(&self, i: usize, distance: f32) -> (usize, Vec3) {
        let n = self.0.len();
        let (mut j, mut left) = (i, distance);
        while left > 0.0 {
            let next = (j + 1) % n;
            left -= self.0[j].distance(self.0[next]);
            j = next;
        }
        (j, self.0[j])
    }
}

/// One AI driver: its path, where it is on it, how fast it may go and how well it does.
#[derive(Component)]
struct AiDriver {
    path: Path,
    index: usize,
    /// Top speed on the straights (m/s).
    top_speed: f32,
    /// Lateral acceleration it allows itself in the bends (m/s²).
    lateral_limit: f32,
    laps: u32,
    error_sum: f32,
    error_max: f32,
    samples: u32,
}

fn main() {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        TransformPlugin,
        PhysicsPlugins::default(),
        WheelColliderPlugins,
    ))
    .add_systems(Startup, setup)
    .add_systems(FixedUpdate, (drive_ai, report).chain());
    app.insert_resource(bevy::time::TimeUpdateStrategy::ManualDuration(
        std::time::Duration::from_secs_f64(1.0 / 60.0),
    ));
    app.finish();
    app.cleanup();
    for _ in 0..(60 * 60) {
        app.update();
    }
}

fn setup(mut commands: Commands) {
    commands.spawn((RigidBody::Static, Collider::half_space(Vec3::Y), WheelSurface::ASPHALT));
    let path = Path::stadium(40.0);
    let presets = ["road", "rally", "kart", "gt86", "road", "rally"];
    for (k, name) in presets.iter().enumerate() {
        let settings = VehicleSettings::preset(name).unwrap_or_else(|e| panic!("{e}"));
        // Spread around the path, heading along it.
        let index = k * path.0.len() / presets.len();
        let next = path.0[(index + 1) % path.0.len()];
        let start = path.0[index].with_y(settings.touch_height() + 0.05);
        let pose = Transform::from_translation(start).looking_at(next.with_y(start.y), Vec3::Y);
        let car = spawn_vehicle(&mut commands, &settings, pose).expect("valid");
        commands.entity(car).insert((
            Name::new(format!("{name} #{k}")),
            AiDriver {
                path: path.clone(),
                index,
                top_speed: 25.0,
                lateral_limit: 6.0,
                laps: 0,
                error_sum: 0.0,
                error_max: 0.0,
                samples: 0,
            },
        ));
    }
}

/// Pure pursuit: the steer that puts the front on a circle through the look-ahead
/// point; speed from the tightest curvature in the next 40 m.
fn drive_ai(
    mut cars: Query<(
        &mut AiDriver,
        &mut VehicleInput,
        &Vehicle,
        &Position,
        &Rotation,
        &LinearVelocity,
    )>,
) {
    for (mut ai, mut input, vehicle, p, rot, v) in &mut cars {
        let settings = &vehicle.0;
        let n = ai.path.0.len();
        let i = ai.path.nearest(p.0, ai.index);
        if i < ai.index && ai.index - i > n / 2 {
            ai.laps += 1;
        }
        ai.index = i;
        let error = ai.path.0[i].with_y(p.0.y).distance(p.0);
        ai.error_sum += error;
        ai.error_max = ai.error_max.max(error);
        ai.samples += 1;

        let speed = v.0.length();
        let forward = (rot.0 * Vec3::NEG_Z).with_y(0.0).normalize_or_zero();
        let (_, target) = ai.path.ahead(i, (0.5 * speed).clamp(6.0, 25.0));
        let to = (target - p.0).with_y(0.0);
        let alpha = forward.cross(to).y.atan2(forward.dot(to));
        let wheelbase = settings.wheelbase_for(0).max(0.5);
        let delta = (2.0 * wheelbase * alpha.sin() / to.length().max(1.0))
            .atan()
            .to_degrees();
        input.steer = (delta / settings.steering.lock_at(speed).max(1e-3)).clamp(-1.0, 1.0);

        // The speed it may carry now so that it can still brake (at 5 m/s²) to the
        // corner speed of every point in the next 120 m.
        let target_speed = ai.path.speed_limit(i, ai.top_speed, ai.lateral_limit, 5.0);
        let e = target_speed - speed;
        input.throttle = (0.3 * e).clamp(0.0, 1.0);
        input.brake = (-0.3 * e).clamp(0.0, 1.0);
    }
}

fn report(time: Res<Time>, cars: Query<(&Name, &AiDriver, &VehicleTelemetry)>) {
    let t = time.elapsed_secs();
    if !((t * 60.0).round() as u32).is_multiple_of(300) {
        return;
    }
    println!("t = {t:4.0} s");
    for (name, ai, tel) in &cars {
        println!(
            "    {name:<10} lap {}  {:5.1} km/h  path error mean {:.2} m, max {:.2} m",
            ai.laps,
            tel.speed_kmh,
            ai.error_sum / ai.samples.max(1) as f32,
            ai.error_max
        );
    }
}
