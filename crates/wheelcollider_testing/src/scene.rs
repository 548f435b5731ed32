//! The parts of a test scene: grounds and terrains, spawning a vehicle from its
//! settings, launching it in gear, coupling a trailer behind it.

use avian3d::prelude::*;
use bevy::prelude::*;
use wheelcollider_avian::prelude::*;
use wheelcollider_avian::vehicle::VehicleRuntime;
use wheelcollider_core::vehicle::RAD_PER_S_TO_RPM;

use crate::app::app;

/// A static half-space at y = 0, with `surface` if given.
pub fn flat(app: &mut App, surface: Option<WheelSurface>) -> Entity {
    let e = app
        .world_mut()
        .spawn((RigidBody::Static, Collider::half_space(Vec3::Y)))
        .id();
    if let Some(s) = surface {
        app.world_mut().entity_mut(e).insert(s);
    }
    e
}

/// Split μ: static ground with its top at y = 0, ice for x < 0 and asphalt for x > 0.
pub fn split_mu(app: &mut App) {
    for (x, surface) in [(-100.0, WheelSurface::ICE), (100.0, WheelSurface::ASPHALT)] {
        app.world_mut().spawn((
            RigidBody::Static,
            Collider::cuboid(200.0, 2.0, 400.0),
            Transform::from_xyz(x, -1.0, 0.0),
            surface,
        ));
    }
}

/// A square terrain centred on the origin with `h.len() - 1` cells of `cell` m a side:
/// `h[i][j]` is the height at z = −side/2 + i·cell, x = −side/2 + j·cell (rows along Z,
/// parry's heightfield layout). A heightfield, or with `mesh` the same surface as a
/// triangle mesh (two triangles a cell, creased on the same diagonal).
pub fn grid_terrain(h: Vec<Vec<f32>>, cell: f32, mesh: bool) -> Collider {
    let cells = h.len() - 1;
    let side = cells as f32 * cell;
    if !mesh {
        // avian's heightfield takes its outer rows along X: transposed, so that the
        // heightfield and the mesh are the same surface (`tracked::tank`'s rough ground
        // reads it back).
        let n = h.len();
        let rows_along_x = (0..n).map(|j| (0..n).map(|i| h[i][j]).collect()).collect();
        return Collider::heightfield(rows_along_x, Vec3::new(side, 1.0, side));
    }
    let n = cells + 1;
    let mut vertices = Vec::new();
    for (i, row) in h.iter().enumerate() {
        for (j, y) in row.iter().enumerate() {
            vertices.push(Vec3::new(
                -side / 2.0 + j as f32 * cell,
                *y,
                -side / 2.0 + i as f32 * cell,
            ));
        }
    }
    let mut indices = Vec::new();
    for i in 0..cells {
        for j in 0..cells {
            let a = (i * n + j) as u32;
            let b = a + n as u32;
            indices.push([a, b, a + 1]);
            indices.push([a + 1, b, b + 1]);
        }
    }
    Collider::trimesh(vertices, indices)
}

/// A race-track kerb across Z at the origin: 5 cm high, ramps of 0.3 m each side of a
/// 0.4 m top (1 m deep), 6 m long along X.
pub fn race_kerb() -> Collider {
    let mut points = vec![];
    for x in [-3.0f32, 3.0] {
        for (z, y) in [(-0.5, 0.0), (-0.2, 0.05), (0.2, 0.05), (0.5, 0.0)] {
            points.push(Vec3::new(x, y, z));
        }
    }
    Collider::convex_hull(points).expect("a kerb")
}

/// Spawns a vehicle from `settings` at `transform`, now.
pub fn spawn_preset_car(app: &mut App, settings: &VehicleSettings, transform: Transform) -> Entity {
    let world = app.world_mut();
    let mut commands = world.commands();
    let e = spawn_vehicle(&mut commands, settings, transform).expect("valid settings");
    world.flush();
    e
}

/// An app at `hz` with flat ground (no surface) and a car from `settings` spawned with
/// its tyres just touching it; nothing run yet.
pub fn on_flat(settings: &VehicleSettings, hz: f64) -> (App, Entity) {
    on_ground(settings, hz, None)
}

/// [`on_flat`] on flat ground of `surface` (none: no surface component).
pub fn on_ground(settings: &VehicleSettings, hz: f64, surface: Option<WheelSurface>) -> (App, Entity) {
    let mut app = app(hz);
    flat(&mut app, surface);
    let car = spawn_preset_car(
        &mut app,
        settings,
        Transform::from_xyz(0.0, settings.touch_height(), 0.0),
    );
    (app, car)
}

/// Sets a vehicle moving forward at `v` (m/s) with its wheels rolling at that speed and
/// their tyres relaxed (no slip carried from before the jump in speed), an automatic
/// gearbox in neutral: the car coasts without its engine until it is driven (the
/// automatic then selects first). An automatic clutch closes on a car coasting
/// in gear; the first gear a parked car leaves selected would brake it hard at speed.
/// [`launch_in_gear`] for the car as if driven up to `v`.
pub fn launch(app: &mut App, car: Entity, v: f32) {
    let forward = app.world().get::<Rotation>(car).unwrap().0 * Vec3::NEG_Z;
    app.world_mut().get_mut::<LinearVelocity>(car).unwrap().0 = forward * v;
    let wheels = app.world().get::<ChassisWheels>(car).unwrap().wheels().to_vec();
    for w in wheels {
        let r = app.world().get::<WheelCollider>(w).unwrap().radius();
        let mut state = app.world_mut().get_mut::<WheelState>(w).unwrap();
        state.step.angular_velocity = v / r;
        (state.step.slip, state.step.patch) = ([0.0; 2], [0.0; 2]);
    }
    if let Some(mut runtime) = app.world_mut().get_mut::<VehicleRuntime>(car) {
        let runtime = &mut *runtime;
        if let (Some(s), Some(state)) = (runtime.settings.as_ref(), runtime.state.as_mut())
            && s.gearbox.automatic
            && v != 0.0
        {
            (state.gear, state.next_gear) = (0, 0);
        }
    }
}

/// [`launch`], with an automatic gearbox in the gear for the speed
/// (`VehicleSettings::gear_for_speed`: the lowest that keeps the engine under its
/// shift-up speed) and the engine turning with the wheels: the state a car driven up to
/// `v` would be in (a truck's twelve gears are not worked up from first, and no engine
/// is left spinning past its limit in a gear too low for the speed).
pub fn launch_in_gear(app: &mut App, car: Entity, v: f32) {
    launch(app, car, v);
    let Some(mut runtime) = app.world_mut().get_mut::<VehicleRuntime>(car) else {
        return;
    };
    let runtime = &mut *runtime;
    if let (Some(s), Some(state)) = (runtime.settings.as_ref(), runtime.state.as_mut())
        && s.gearbox.automatic
        && s.trailer.is_none()
        && v > 0.0
    {
        let gear = s.gear_for_speed(v);
        let engine = v / s.drive_radius() * s.gearbox.total_ratio(gear);
        (state.gear, state.next_gear) = (gear, gear);
        state.engine_speed = engine.max(s.engine.idle_rpm / RAD_PER_S_TO_RPM);
    }
}

/// `tow` at the origin facing −Z (its wheels touching) and `trailer` coupled behind it,
/// turned `yaw` (deg) about the hitch. Nothing run yet but the coupling.
pub fn coupled_pair(app: &mut App, tow: &VehicleSettings, trailer: &VehicleSettings, yaw: f32) -> (Entity, Entity) {
    let at = Transform::from_xyz(0.0, tow.touch_height(), 0.0);
    let car = spawn_preset_car(app, tow, at);
    let mut place = hitched_transform(tow, at, trailer).expect("a hitch and a trailer");
    let ball = at.transform_point(Vec3::from(tow.hitch.as_ref().unwrap().position));
    place.rotate_around(ball, Quat::from_rotation_y(yaw.to_radians()));
    let towed = spawn_preset_car(app, trailer, place);
    let world = app.world_mut();
    couple_trailer(&mut world.commands(), car, towed);
    world.flush();
    (car, towed)
}

/// A stadium of points about 2 m apart on flat ground, counter-clockwise seen from
/// above, starting at the origin heading −Z: two straights of `straight` m joined by
/// half circles of `radius` m (`π·radius/2` points each, rounded). The drivers' tests
/// lap it.
pub fn stadium(straight: f32, radius: f32) -> Vec<Vec3> {
    use std::f32::consts::PI;
    let (ns, nt) = ((straight / 2.0) as usize, (PI * radius / 2.0).round() as usize);
    let mut points = vec![];
    for i in 0..ns {
        points.push(Vec3::new(0.0, 0.0, -straight * i as f32 / ns as f32));
    }
    for k in 0..nt {
        let a = PI * k as f32 / nt as f32;
        points.push(Vec3::new(-radius + radius * a.cos(), 0.0, -straight - radius * a.sin()));
    }
    for i in 0..ns {
        points.push(Vec3::new(
            -2.0 * radius,
            0.0,
            -straight + straight * i as f32 / ns as f32,
        ));
    }
    for k in 0..nt {
        let a = PI * k as f32 / nt as f32;
        points.push(Vec3::new(-radius - radius * a.cos(), 0.0, radius * a.sin()));
    }
    points
}
