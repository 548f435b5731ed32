//! Skid marks, tyre smoke, dust and snow spray from each wheel's [`WheelEffects`] (the
//! plugin keeps them for cars with [`WheelEventsEnabled`]), and a dust burst on each
//! [`Landed`] event. A tracked vehicle's belts lay a mark and throw dust of their own,
//! from the rear of each belt, instead of each road wheel's. Marks and puffs come from
//! fixed pools that recycle their oldest entity, so a long drift never allocates.
use std::collections::{HashMap, HashSet, VecDeque};
use std::time::{Duration, Instant};

use bevy::light::{NotShadowCaster, NotShadowReceiver};
use bevy::prelude::*;
use wheelcollider::prelude::*;

/// Skid-mark quads kept on the ground at most.
const MAX_MARKS: usize = 3000;
/// Smoke and dust puffs alive at most.
const MAX_PUFFS: usize = 600;
/// Length of one skid-mark quad (m).
const MARK_STEP: f32 = 0.3;

/// Skid marks, smoke and dust.
pub struct EffectsPlugin;

impl Plugin for EffectsPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Pools>()
            .init_resource::<Belts>()
            .init_resource::<EffectsClock>()
            .add_systems(Startup, setup)
            .add_systems(Update, fill_marks.run_if(resource_exists::<FillMarks>))
            .add_systems(
                Update,
                (
                    clock_start,
                    forget_wheels,
                    find_belts,
                    skid_marks,
                    emit_puffs,
                    belt_effects,
                    age_puffs,
                    clock_stop,
                )
                    .chain(),
            )
            .add_observer(landing_dust);
    }
}

/// The wall time the effects' systems take, frame by frame (the script reports it).
#[derive(Resource, Default)]
pub struct EffectsClock {
    started: Option<Instant>,
    /// The time spent since the last [`EffectsClock::take`].
    spent: Duration,
    frames: u32,
}

impl EffectsClock {
    /// The mean time per frame (ms) since the last call and the frames it covers; starts
    /// a new span.
    pub fn take(&mut self) -> (f64, u32) {
        let out = (self.spent.as_secs_f64() * 1e3 / self.frames.max(1) as f64, self.frames);
        (self.spent, self.frames) = (Duration::ZERO, 0);
        out
    }
}

fn clock_start(mut clock: ResMut<EffectsClock>) {
    clock.started = Some(Instant::now());
}

fn clock_stop(mut clock: ResMut<EffectsClock>) {
    if let Some(t) = clock.started.take() {
        clock.spent += t.elapsed();
        clock.frames += 1;
    }
}

/// Inserted to fill the skid-mark pool to its limit with marks on the skid pad (the
/// script's effects budget: the cost with the pools full); removed once done.
#[derive(Resource)]
pub struct FillMarks;

fn fill_marks(mut commands: Commands, mut pools: ResMut<Pools>, assets: Res<EffectAssets>) {
    let missing = MAX_MARKS.saturating_sub(pools.marks.len());
    for k in 0..missing {
        let at = Vec3::new(-95.0 + (k % 60) as f32 * 0.4, 0.015, -200.0 + (k / 60) as f32 * 0.4);
        let entity = commands
            .spawn((
                Mesh3d(assets.quad.clone()),
                MeshMaterial3d(assets.marks[0].clone()),
                Transform::from_translation(at).with_scale(Vec3::new(0.2, 1.0, MARK_STEP)),
                NotShadowCaster,
                NotShadowReceiver,
            ))
            .id();
        pools.marks.push_front(entity);
    }
    commands.remove_resource::<FillMarks>();
}

/// How full the pools are: skid marks and puffs alive, and their limits.
pub fn pool_fill(pools: &Pools) -> [(usize, usize); 2] {
    [(pools.marks.len(), MAX_MARKS), (pools.puffs.len(), MAX_PUFFS)]
}

/// What a ground makes under a sliding or rolling tyre.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    /// Black marks and white smoke when sliding.
    Paved,
    /// Brown ruts and dust whenever the wheel rolls, more when sliding.
    Dirt,
    /// White spray when sliding, no marks.
    Ice,
}

impl Kind {
    fn of(s: &WheelSurface) -> Self {
        if s.grip < 0.3 {
            Kind::Ice
        } else if s.bump_amplitude > 0.01 || s.rolling_resistance > 0.01 {
            Kind::Dirt
        } else {
            Kind::Paved
        }
    }
}

#[derive(Resource)]
struct EffectAssets {
    quad: Handle<Mesh>,
    puff: Handle<Mesh>,
    /// Rubber marks at three strengths, then the dirt rut.
    marks: [Handle<StandardMaterial>; 4],
    smoke: Handle<StandardMaterial>,
    dust: Handle<StandardMaterial>,
    snow: Handle<StandardMaterial>,
}

/// The pools and each wheel's memory: where its mark last ended, its unspent share of
/// a puff, and a random sequence.
#[derive(Resource, Default)]
pub struct Pools {
    marks: VecDeque<Entity>,
    last_mark: HashMap<Entity, Vec3>,
    puffs: VecDeque<Entity>,
    /// Each emitter's unspent share of a puff: a wheel's, a belt's dust (0) and smoke (1).
    carry: HashMap<(Entity, u8), f32>,
    seed: u32,
}

impl Pools {
    /// Uniform in −1..1.
    fn random(&mut self) -> f32 {
        self.seed = self.seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        (self.seed >> 8) as f32 / (1u32 << 23) as f32 - 1.0
    }
}

/// One smoke or dust puff: it rises, slows, grows and shrinks away.
#[derive(Component)]
struct Puff {
    velocity: Vec3,
    age: f32,
    life: f32,
    size: f32,
}

fn setup(mut commands: Commands, mut meshes: ResMut<Assets<Mesh>>, mut materials: ResMut<Assets<StandardMaterial>>) {
    let mut translucent = |r: f32, g: f32, b: f32, a: f32| {
        materials.add(StandardMaterial {
            base_color: Color::srgba(r, g, b, a),
            alpha_mode: AlphaMode::Blend,
            perceptual_roughness: 1.0,
            depth_bias: 2.0,
            ..default()
        })
    };
    let marks = [
        translucent(0.02, 0.02, 0.02, 0.3),
        translucent(0.02, 0.02, 0.02, 0.5),
        translucent(0.02, 0.02, 0.02, 0.7),
        translucent(0.22, 0.16, 0.1, 0.55),
    ];
    let assets = EffectAssets {
        marks,
        smoke: translucent(0.9, 0.9, 0.9, 0.16),
        dust: translucent(0.62, 0.52, 0.38, 0.3),
        snow: translucent(0.95, 0.97, 1.0, 0.5),
        quad: meshes.add(Plane3d::new(Vec3::Y, Vec2::splat(0.5))),
        puff: meshes.add(Sphere::new(0.5).mesh().ico(2).expect("a small ico sphere")),
    };
    commands.insert_resource(assets);
}

/// The road wheels of every tracked vehicle, this frame: their belts make the marks
/// and dust ([`belt_effects`]), not each of them.
#[derive(Resource, Default)]
struct Belts {
    wheels: HashSet<Entity>,
    /// Each belt's road wheels, rearmost first: (chassis, right) → wheels.
    sides: Vec<[Vec<Entity>; 2]>,
}

fn find_belts(mut belts: ResMut<Belts>, cars: Query<(&Vehicle, &ChassisWheels)>, places: Query<&VehicleWheel>) {
    let belts = &mut *belts;
    belts.wheels.clear();
    belts.sides.clear();
    for (vehicle, wheels) in &cars {
        if vehicle.0.tracks.is_none() {
            continue;
        }
        let mut sides: [Vec<(usize, Entity)>; 2] = Default::default();
        for &w in wheels.wheels() {
            if let Ok(place) = places.get(w) {
                sides[place.right as usize].push((place.axle, w));
                belts.wheels.insert(w);
            }
        }
        belts.sides.push(sides.map(|mut side| {
            side.sort_by_key(|a| std::cmp::Reverse(a.0));
            side.into_iter().map(|(_, w)| w).collect()
        }));
    }
}

/// Each belt's mark and dust, from its rearmost road wheel on the ground: a faint
/// imprint on paved ground whenever it rolls (darker as it slides: a pivot scrubs), a
/// rut on dirt; dust behind it on dirt, a little on paved ground past 5 m/s, smoke when
/// it slides on paved ground.
fn belt_effects(
    mut commands: Commands,
    time: Res<Time>,
    belts: Res<Belts>,
    wheels: Query<(&WheelEffects, &WheelOutput)>,
    mut pools: ResMut<Pools>,
    assets: Res<EffectAssets>,
) {
    let dt = time.delta_secs();
    for side in belts.sides.iter().flatten() {
        let slide = side
            .iter()
            .filter_map(|&w| wheels.get(w).ok())
            .map(|(fx, _)| fx.skid_intensity)
            .fold(0.0f32, f32::max);
        let Some((key, patch, speed)) = side.iter().find_map(|&w| {
            let (fx, out) = wheels.get(w).ok()?;
            fx.patch.map(|p| (w, p, out.output.ground_speed.abs()))
        }) else {
            continue;
        };
        let kind = Kind::of(&patch.surface);
        let strength = match kind {
            Kind::Paved if speed > 0.3 || slide > 0.15 => 0.15 + slide,
            Kind::Dirt => 0.5 + slide,
            _ => 0.0,
        };
        lay_mark(&mut commands, &mut pools, &assets, key, &patch, kind, strength);
        let (dust, smoke) = match kind {
            Kind::Dirt => (8.0 * (speed / 8.0).min(2.0) + 40.0 * slide, 0.0),
            Kind::Paved => (
                1.5 * ((speed - 5.0) / 10.0).clamp(0.0, 1.0),
                if slide > 0.1 { 12.0 * slide } else { 0.0 },
            ),
            Kind::Ice => (0.0, 0.0),
        };
        // Dust is bigger off the road.
        let base = if kind == Kind::Dirt { 0.5 } else { 0.3 };
        for (k, look, rate) in [(0, Kind::Dirt, dust), (1, Kind::Paved, smoke)] {
            let carry = pools.carry.entry((key, k)).or_insert(0.0);
            *carry += rate * dt;
            let count = carry.floor() as u32;
            *carry -= count as f32;
            for _ in 0..count {
                let jitter = Vec3::new(pools.random(), 0.0, pools.random()) * patch.width;
                let spread = Vec3::new(pools.random(), 0.5 + 0.5 * pools.random().abs(), pools.random());
                let velocity = patch.normal * 0.8 + spread * 0.8 - patch.forward * speed.min(20.0) * 0.1;
                let size = base + 0.4 * slide + 0.03 * speed.min(20.0);
                let at = patch.point + patch.normal * 0.3 - patch.forward * 0.4 + jitter;
                puff(&mut commands, &mut pools, &assets, look, at, velocity, size);
            }
        }
    }
}

/// Drops the memory of wheels that are gone (a car removed or its preset reloaded).
fn forget_wheels(mut gone: RemovedComponents<WheelEffects>, mut pools: ResMut<Pools>) {
    for wheel in gone.read() {
        pools.last_mark.remove(&wheel);
        pools.carry.retain(|k, _| k.0 != wheel);
    }
}

/// Lays a quad of skid mark each [`MARK_STEP`] a sliding tyre travels (a rut on
/// gravel and grass whenever it rolls).
fn skid_marks(
    mut commands: Commands,
    wheels: Query<(Entity, &WheelEffects)>,
    belts: Res<Belts>,
    mut pools: ResMut<Pools>,
    assets: Res<EffectAssets>,
) {
    for (wheel, effects) in &wheels {
        if belts.wheels.contains(&wheel) {
            continue;
        }
        let Some(patch) = effects.patch else {
            pools.last_mark.remove(&wheel);
            continue;
        };
        let kind = Kind::of(&patch.surface);
        let strength = match kind {
            Kind::Paved => effects.skid_intensity,
            Kind::Dirt => effects.skid_intensity.max(0.5),
            Kind::Ice => 0.0,
        };
        lay_mark(&mut commands, &mut pools, &assets, wheel, &patch, kind, strength);
    }
}

/// Extends the mark `key` lays to `patch` at `strength` (none under 0.15): a quad each
/// [`MARK_STEP`] travelled.
fn lay_mark(
    commands: &mut Commands,
    pools: &mut Pools,
    assets: &EffectAssets,
    key: Entity,
    patch: &ContactPatch,
    kind: Kind,
    strength: f32,
) {
    if strength < 0.15 {
        pools.last_mark.remove(&key);
        return;
    }
    let p = patch.point + patch.normal * 0.015;
    let Some(&prev) = pools.last_mark.get(&key) else {
        pools.last_mark.insert(key, p);
        return;
    };
    let d = p - prev;
    let length = d.length();
    if length < MARK_STEP {
        return;
    }
    pools.last_mark.insert(key, p);
    if length > 3.0 {
        return; // a jump or a teleport: start a new mark
    }
    let material = match kind {
        Kind::Dirt => assets.marks[3].clone(),
        _ => assets.marks[((strength - 0.15) * 3.0).clamp(0.0, 2.0) as usize].clone(),
    };
    let transform = Transform::from_translation((p + prev) / 2.0)
        .looking_to(d, patch.normal)
        .with_scale(Vec3::new(patch.width, 1.0, length + 0.04));
    let entity = if pools.marks.len() < MAX_MARKS {
        commands
            .spawn((Mesh3d(assets.quad.clone()), NotShadowCaster, NotShadowReceiver))
            .id()
    } else {
        pools.marks.pop_front().expect("the pool is full")
    };
    commands.entity(entity).insert((transform, MeshMaterial3d(material)));
    pools.marks.push_back(entity);
}

/// Sends out one puff from the pool (recycling the oldest when it is full).
fn puff(
    commands: &mut Commands,
    pools: &mut Pools,
    assets: &EffectAssets,
    kind: Kind,
    at: Vec3,
    velocity: Vec3,
    size: f32,
) {
    let (material, life) = match kind {
        Kind::Paved => (assets.smoke.clone(), 2.4),
        Kind::Dirt => (assets.dust.clone(), 1.6),
        Kind::Ice => (assets.snow.clone(), 0.8),
    };
    let puff = Puff {
        velocity,
        age: 0.0,
        life: life * (1.0 + 0.25 * pools.random()),
        size,
    };
    let transform = Transform::from_translation(at).with_scale(Vec3::splat(0.01));
    let entity = if pools.puffs.len() < MAX_PUFFS {
        commands.spawn((Mesh3d(assets.puff.clone()), NotShadowCaster)).id()
    } else {
        pools.puffs.pop_front().expect("the pool is full")
    };
    commands
        .entity(entity)
        .insert((puff, transform, MeshMaterial3d(material)));
    pools.puffs.push_back(entity);
}

/// Smoke from sliding tyres on paved ground, dust behind every rolling wheel on dirt
/// (more when sliding), spray on ice; the rate follows the skid intensity.
fn emit_puffs(
    mut commands: Commands,
    time: Res<Time>,
    wheels: Query<(Entity, &WheelEffects, &WheelOutput)>,
    belts: Res<Belts>,
    mut pools: ResMut<Pools>,
    assets: Res<EffectAssets>,
) {
    let dt = time.delta_secs();
    for (wheel, effects, state) in &wheels {
        if belts.wheels.contains(&wheel) {
            continue;
        }
        let Some(patch) = effects.patch else { continue };
        let kind = Kind::of(&patch.surface);
        let speed = state.output.ground_speed.abs();
        let slide = effects.skid_intensity;
        let rate = match kind {
            Kind::Paved if slide > 0.1 => 45.0 * slide,
            Kind::Dirt => 5.0 * (speed / 8.0).min(2.0) + 40.0 * slide,
            Kind::Ice if slide > 0.1 => 25.0 * slide,
            _ => 0.0,
        };
        let carry = pools.carry.entry((wheel, 0)).or_insert(0.0);
        *carry += rate * dt;
        let mut count = carry.floor() as u32;
        *carry -= count as f32;
        while count > 0 {
            count -= 1;
            let jitter = Vec3::new(pools.random(), 0.0, pools.random()) * 0.25;
            let spread = Vec3::new(pools.random(), 0.5 + 0.5 * pools.random().abs(), pools.random());
            let velocity = patch.normal * 0.8 + spread * 0.6 - patch.forward * speed.min(20.0) * 0.08;
            let size = 0.25 + 0.35 * slide + 0.02 * speed.min(20.0);
            puff(
                &mut commands,
                &mut pools,
                &assets,
                kind,
                patch.point + patch.normal * 0.3 + jitter,
                velocity,
                size,
            );
        }
    }
}

/// Moves, grows and shrinks the puffs; a dead one shrinks to nothing until reused.
fn age_puffs(time: Res<Time>, mut puffs: Query<(&mut Puff, &mut Transform)>) {
    let dt = time.delta_secs();
    for (mut p, mut t) in &mut puffs {
        if p.age >= p.life {
            continue;
        }
        p.age = (p.age + dt).min(p.life);
        let drag = (1.0 - 1.2 * dt).max(0.0);
        p.velocity = p.velocity * drag + Vec3::Y * 0.3 * dt;
        t.translation += p.velocity * dt;
        let f = p.age / p.life;
        t.scale = Vec3::splat(p.size * (0.3 + 1.7 * f.sqrt()) * (1.0 - f * f * f));
    }
}

/// A ring of dust (or smoke on paved ground) where a car lands, as big as the impact.
fn landing_dust(
    landed: On<Landed>,
    mut commands: Commands,
    cars: Query<&GlobalTransform>,
    wheels: Query<&WheelEffects>,
    chassis_wheels: Query<&ChassisWheels>,
    mut pools: ResMut<Pools>,
    assets: Res<EffectAssets>,
) {
    let Ok(car) = cars.get(landed.chassis) else { return };
    let patch = chassis_wheels.get(landed.chassis).ok().and_then(|w| {
        w.wheels()
            .iter()
            .find_map(|&e| wheels.get(e).ok().and_then(|fx| fx.patch))
    });
    let (kind, ground) = match patch {
        Some(p) => (Kind::of(&p.surface), p.point.y),
        None => (Kind::Paved, car.translation().y - 0.5),
    };
    let kind = if kind == Kind::Ice { Kind::Paved } else { kind };
    let count = (6.0 + 4.0 * landed.impact_speed).min(36.0) as usize;
    for k in 0..count {
        let a = std::f32::consts::TAU * k as f32 / count as f32;
        let out = Vec3::new(a.cos(), 0.0, a.sin());
        let at = car.translation().with_y(ground) + out * 1.2;
        let velocity = out * (1.0 + 0.4 * landed.impact_speed) + Vec3::Y * 0.6;
        puff(
            &mut commands,
            &mut pools,
            &assets,
            kind,
            at,
            velocity,
            0.6 + 0.1 * landed.impact_speed,
        );
    }
}
