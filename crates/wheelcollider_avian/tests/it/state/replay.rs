//! Record a drive, save it, load it, replay it: the same trajectory bit for bit; with
//! another tuning, a different one; a broken recording file says where.
use crate::common;
use avian3d::prelude::*;
use bevy::prelude::*;
use common::*;
use wheelcollider_avian::prelude::*;
use wheelcollider_avian::replay::{DriveRecorder, DriveRecording, DriveReplay};
use wheelcollider_core::vehicle::DriverInput;

const HZ: f64 = 60.0;
const STEPS: usize = 1000;

/// Gravel (Perlin roughness) with a few boxes to hit: a world worth replaying.
fn world(app: &mut App) {
    app.world_mut()
        .spawn((RigidBody::Static, Collider::half_space(Vec3::Y), WheelSurface::GRAVEL));
    for i in 0..6 {
        app.world_mut().spawn((
            RigidBody::Dynamic,
            Collider::cuboid(0.5, 0.5, 0.5),
            Transform::from_xyz(-3.0 + i as f32, 0.25, -40.0 - 3.0 * i as f32),
        ));
    }
}

/// A hash of the chassis pose and velocity, bit for bit.
fn pose_bits(app: &App, car: Entity) -> [u32; 10] {
    let p = position(app, car);
    let r = rotation(app, car);
    let v = velocity(app, car);
    [p.x, p.y, p.z, r.x, r.y, r.z, r.w, v.x, v.y, v.z].map(f32::to_bits)
}

/// The driver: pseudo-random pedals and steering, changed every half second.
fn driver(n: usize) -> DriverInput {
    let k = (n / 30) as u32;
    let h = k.wrapping_mul(2_654_435_761) >> 8;
    let f = |s: u32| ((h >> s) & 0xff) as f32 / 255.0;
    DriverInput {
        throttle: if f(0) > 0.3 { f(8) } else { 0.0 },
        brake: if f(0) <= 0.3 { f(16) } else { 0.0 },
        steer: 2.0 * f(4) - 1.0,
        handbrake: if k % 13 == 7 { 1.0 } else { 0.0 },
        ..Default::default()
    }
}

fn drive_and_record(settings: &VehicleSettings) -> (DriveRecording, Vec<[u32; 10]>) {
    let mut app = app(HZ);
    world(&mut app);
    let start = Transform::from_xyz(0.0, settings.touch_height() + 0.01, 0.0);
    let car = spawn_preset_car(&mut app, settings, start);
    app.world_mut()
        .entity_mut(car)
        .insert(DriveRecorder::new(settings, &start, HZ));
    let mut poses = vec![];
    for n in 0..STEPS {
        app.world_mut().get_mut::<VehicleInput>(car).unwrap().0 = driver(n);
        app.update();
        poses.push(pose_bits(&app, car));
    }
    let rec = app.world().get::<DriveRecorder>(car).unwrap().recording.clone();
    (rec, poses)
}

fn replay(rec: &DriveRecording, settings: &VehicleSettings) -> Vec<[u32; 10]> {
    let mut app = app(rec.hz);
    world(&mut app);
    let car = spawn_preset_car(&mut app, settings, rec.start());
    app.world_mut().entity_mut(car).insert(DriveReplay::new(rec));
    let mut poses = vec![];
    for n in 0..rec.inputs.len() {
        // The game's own input is overridden by the replay.
        app.world_mut().get_mut::<VehicleInput>(car).unwrap().0 = DriverInput {
            throttle: 1.0,
            steer: if n % 2 == 0 { 1.0 } else { -1.0 },
            ..Default::default()
        };
        app.update();
        poses.push(pose_bits(&app, car));
    }
    assert!(app.world().get::<DriveReplay>(car).unwrap().finished());
    poses
}

#[test]
fn a_saved_drive_replays_bit_for_bit() {
    for sweep in [SweepType::Ray, SweepType::Sphere, SweepType::Cylinder] {
        let mut settings = preset("road");
        for a in &mut settings.axles {
            a.wheel.set_sweep_type(sweep);
        }
        let (rec, original) = drive_and_record(&settings);
        assert_eq!(rec.inputs.len(), STEPS);
        let loaded = DriveRecording::from_ron(&rec.to_ron()).expect("round trip");
        assert_eq!(loaded, rec, "the text round-trips every input exactly");
        let replayed = replay(&loaded, &loaded.settings);
        let first_difference = original.iter().zip(&replayed).position(|(a, b)| a != b);
        let end = Vec3::from_array([0, 1, 2].map(|i| f32::from_bits(original[STEPS - 1][i])));
        println!(
            "measured: {sweep:?}: {STEPS} recorded steps replayed, first difference at {first_difference:?}; ended at {end:.2}"
        );
        assert_eq!(first_difference, None, "{sweep:?}");
        assert!(end.length() > 20.0, "the drive went somewhere: {end}");
    }
}

#[test]
fn another_tuning_on_the_same_drive_differs() {
    let settings = preset("road");
    let (rec, original) = drive_and_record(&settings);
    let mut soft = rec.settings.clone();
    for a in &mut soft.axles {
        let k = a.wheel.suspension_spring();
        a.wheel.set_suspension_spring(0.6 * k).unwrap();
        // Without a ride height, which would hold the car up whatever the rate.
        a.ride_height = None;
    }
    soft.validate().unwrap();
    let replayed = replay(&rec, &soft);
    let height = |p: &[u32; 10]| f32::from_bits(p[1]);
    let lower = original
        .iter()
        .zip(&replayed)
        .skip(120)
        .map(|(a, b)| height(a) - height(b))
        .sum::<f32>()
        / (STEPS - 120) as f32;
    println!(
        "measured: softer springs (×0.6) on the same drive sit {:.1} mm lower on average",
        lower * 1000.0
    );
    assert!(lower > 0.02, "softer springs sit lower: {lower} m");
    assert!(
        replayed
            .iter()
            .all(|p| p.iter().all(|&b| f32::from_bits(b).is_finite()))
    );
}

#[test]
fn a_broken_recording_says_where() {
    let settings = preset("road");
    let mut rec = DriveRecording::new(&settings, &Transform::IDENTITY, HZ);
    rec.inputs = (0..10).map(driver).collect();
    let text = rec.to_ron();
    let e = DriveRecording::from_ron(&text.replace("throttle:", "throtle:")).unwrap_err();
    assert!(
        e.field.starts_with("line ") && e.to_string().contains("throttle"),
        "{e}"
    );
    let e = DriveRecording::from_ron(&text[..text.len() / 2]).unwrap_err();
    assert!(e.field.starts_with("line "), "{e}");
    let e = DriveRecording::from_ron(&text.replacen("mass: 1350.0", "mass: NaN", 1)).unwrap_err();
    assert_eq!(e.field, "settings.chassis.mass", "{e}");
    let e = DriveRecording::from_ron(&text.replacen("hz: 60.0", "hz: -1.0", 1)).unwrap_err();
    assert_eq!(e.field, "hz", "{e}");
    let e = DriveRecording::from_ron(&text.replacen("steer: ", "steer: NaN, _x: ", 1)).unwrap_err();
    assert!(!e.to_string().is_empty());
}

/// `ResetVehicle` on a car that has been driving: at the next step it stands at the
/// spawn, at rest, engine at idle in first gear, wheels not spinning; a replay started
/// from such a reset follows the recorded drive.
#[test]
fn a_reset_car_stands_at_rest_and_replays_the_drive() {
    let settings = preset("road");
    let (rec, original) = drive_and_record(&settings);
    let mut app = app(HZ);
    world(&mut app);
    let car = spawn_preset_car(&mut app, &settings, rec.start());
    // Drive away backwards first (away from the boxes), fast and turning.
    for n in 0..180 {
        app.world_mut().get_mut::<VehicleInput>(car).unwrap().0 = DriverInput {
            brake: 1.0,
            steer: if n < 90 { 0.5 } else { -0.5 },
            ..Default::default()
        };
        app.update();
    }
    let moved = position(&app, car).distance(rec.start().translation);
    assert!(moved > 3.0, "drove {moved} m before the reset");
    app.world_mut().commands().trigger(ResetVehicle {
        entity: car,
        to: Some(rec.start()),
    });
    app.world_mut().flush();
    app.world_mut().get_mut::<VehicleInput>(car).unwrap().0 = DriverInput::default();
    app.update();
    let p = position(&app, car);
    let v = velocity(&app, car);
    let tel = *app.world().get::<VehicleTelemetry>(car).unwrap();
    println!(
        "measured: one step after the reset: {:.4} m from the start, {:.4} m/s, {:.0} rpm, gear {}",
        p.distance(rec.start().translation),
        v.length(),
        tel.powertrain.engine_rpm,
        tel.powertrain.gear
    );
    // One step from rest 1 cm above touching: a free fall of g·dt, nothing sideways.
    assert!(p.distance(rec.start().translation) < 0.005, "at {p}");
    assert!(v.with_y(0.0).length() < 0.01, "moving at {v}");
    assert!(v.y.abs() <= G * (1.0 / HZ as f32) + 0.01, "moving at {v}");
    assert_eq!(tel.powertrain.gear, 1);
    assert!((tel.powertrain.engine_rpm - settings.engine.idle_rpm).abs() < 0.1 * settings.engine.idle_rpm);
    let wheels = app.world().get::<ChassisWheels>(car).unwrap().wheels().to_vec();
    for w in wheels {
        let spin = app.world().get::<WheelOutput>(w).unwrap().output.angular_velocity;
        assert!(spin.abs() < 0.5, "wheel {w} still spins at {spin} rad/s");
    }
    // Replay from a fresh reset: the same drive, to the millimetre (measured: 0.000 m).
    app.world_mut().commands().trigger(ResetVehicle {
        entity: car,
        to: Some(rec.start()),
    });
    app.world_mut().entity_mut(car).insert(DriveReplay::new(&rec));
    let mut end = Vec3::ZERO;
    for _ in 0..rec.inputs.len() {
        app.update();
        end = position(&app, car);
    }
    let recorded = Vec3::from_array([0, 1, 2].map(|i| f32::from_bits(original[STEPS - 1][i])));
    let length = recorded.distance(rec.start().translation);
    println!(
        "measured: replay after a reset ends {:.3} m from the recorded end ({length:.1} m from the start)",
        end.distance(recorded)
    );
    assert!(
        end.distance(recorded) < 0.02 * length,
        "ended at {end}, recorded {recorded}"
    );
}

/// A recording written before the rename (its vehicle under `spec:`) still reads, to
/// the same recording; a field named neither way is refused.
#[test]
fn a_recording_from_before_the_rename_still_reads() {
    let settings = preset("road");
    let mut rec = DriveRecording::new(&settings, &Transform::IDENTITY, HZ);
    rec.inputs = (0..10).map(driver).collect();
    let text = rec.to_ron();
    assert!(text.contains("settings:"), "{}", &text[..80]);
    let old = text.replacen("settings:", "spec:", 1);
    assert_eq!(DriveRecording::from_ron(&old).expect("an old recording reads"), rec);
    assert!(DriveRecording::from_ron(&text.replacen("settings:", "tuning:", 1)).is_err());
}
