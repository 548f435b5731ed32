//! `VehicleDriver` backing up a path (`reverse`): the road car with the caravan into a
//! bay round a bend, steering the caravan's articulation; the road car alone into a
//! parking place, and a three-point turn.

use crate::common::*;
use bevy::prelude::*;
use std::sync::Arc;
use wheelcollider_avian::drivers::Path;
use wheelcollider_avian::drivers::reversing::rear_axle_z;
use wheelcollider_avian::prelude::*;
use wheelcollider_avian::vehicle::towing::Jackknifed;
use wheelcollider_core::vehicle::VehicleSettings;

use super::pairs::{messages, telemetry};

/// An open path from `start` (world, m) backwards along +Z: `straight` m, a quarter
/// circle of `radius` m turning to −X (to the right of the way it travels), then `into`
/// m along −X; points about 0.5 m apart.
fn bay(start: Vec3, straight: f32, radius: f32, into: f32) -> Vec<Vec3> {
    use std::f32::consts::FRAC_PI_2;
    let step = 0.5;
    let mut points: Vec<Vec3> = (0..(straight / step) as usize)
        .map(|i| start + Vec3::Z * step * i as f32)
        .collect();
    let centre = start + Vec3::new(-radius, 0.0, straight);
    let n = (FRAC_PI_2 * radius / step).round() as usize;
    for k in 0..n {
        let a = FRAC_PI_2 * k as f32 / n as f32;
        points.push(centre + Vec3::new(radius * a.cos(), 0.0, radius * a.sin()));
    }
    let end = centre + Vec3::Z * radius;
    points.extend((0..=(into / step) as usize).map(|i| end - Vec3::X * step * i as f32));
    points.iter().map(|p| p.with_y(0.0)).collect()
}

/// The distance (m, on the ground) from `p` to the polyline `points`.
fn off_path(points: &[Vec3], p: Vec3) -> f32 {
    let p = p.with_y(0.0);
    points
        .windows(2)
        .map(|w| {
            let (a, b) = (w[0].with_y(0.0), w[1].with_y(0.0));
            let t = ((p - a).dot(b - a) / (b - a).length_squared().max(1e-9)).clamp(0.0, 1.0);
            p.distance(a + (b - a) * t)
        })
        .fold(f32::INFINITY, f32::min)
}

/// A trailer's axles' mean position (world, m).
fn trailer_axle(app: &App, trailer: Entity, settings: &VehicleSettings) -> Vec3 {
    let z = settings.axles.iter().map(|a| a.z).sum::<f32>() / settings.axles.len() as f32;
    position(app, trailer) + rotation(app, trailer) * Vec3::new(0.0, 0.0, z)
}

/// A driver backs a trailer into a bay at 30, 60 and 240 Hz at 1.5 m/s: the road car
/// the caravan along a 20 m straight and a 90° bend of 10 m radius 6 m into the bay,
/// the tractor the semitrailer along 25 m, a bend of 15 m and 10 m. The trailer's axles
/// end within 0.3 m of the path's end (the caravan's 0.03–0.04 m, the semitrailer's
/// 0.17–0.18 m) and both stand; the articulation stays within 50° (the hitch's stop is
/// at 90°) and no `Jackknifed` is sent. They never stray more than 0.25 m from the path
/// (the caravan's 0.17 m) or 0.45 m (the semitrailer's 0.38–0.40 m, most in the bend: its
/// three axles and the tractor's two scrub, which the one-axle model the driver steers
/// by leaves out; a shorter or longer look-ahead did not bring it under 0.33 m).
///
/// Checked that it fails: with the driver steering the car's rear axle along the path,
/// the caravan left to itself, the caravan jackknifes in the straight (90°, 10.6 m off
/// the path); with the semitrailer's air brakes on the tow's brake pedal, which drives
/// an automatic backwards, the tractor stands at the start (0.16 m/s at most).
#[test]
fn a_driver_backs_a_trailer_into_a_bay() {
    let rigs = [
        ("road", "caravan", 20.0, 10.0, 6.0, 0.25),
        ("tractor", "semitrailer", 25.0, 15.0, 10.0, 0.45),
    ];
    for (tow, towed, straight, radius, into, off) in rigs {
        for hz in [30.0, 60.0, 240.0] {
            let mut app = app(hz);
            flat(&mut app, Some(WheelSurface::ASPHALT));
            let trailer_settings = preset(towed);
            let (car, trailer) = coupled_pair(&mut app, &preset(tow), &trailer_settings, 0.0);
            run(&mut app, steps(1.0, hz));
            let axle = |app: &App| trailer_axle(app, trailer, &trailer_settings);
            let points = bay(axle(&app), straight, radius, into);
            let end = *points.last().unwrap();
            let path = Arc::new(Path::new(points.clone(), false, 10.0));
            app.world_mut()
                .entity_mut(car)
                .insert(VehicleDriver::new(path, 0.7).reversing(1.5));
            let (mut worst, mut most, mut jackknifed, mut fastest) = (0.0f32, 0.0f32, 0, 0.0f32);
            let mut arrived = None;
            for step in 0..steps(90.0, hz) {
                app.update();
                worst = worst.max(off_path(&points, axle(&app)));
                most = most.max(telemetry(&app, trailer).yaw.abs());
                jackknifed += messages::<Jackknifed>(&app).len();
                fastest = fastest.max(velocity(&app, car).length());
                let still = velocity(&app, car).length() < 0.02 && velocity(&app, trailer).length() < 0.02;
                if arrived.is_none() && still && axle(&app).with_y(0.0).distance(end) < 1.0 {
                    arrived = Some(step as f64 / hz);
                }
                if arrived.is_some_and(|t| step as f64 / hz > t + 2.0) {
                    break;
                }
            }
            let miss = axle(&app).with_y(0.0).distance(end);
            println!(
                "measured: {tow} and {towed} at {hz} Hz: the trailer's axles stood {miss:.3} m from the bay's end \
                 after {arrived:?} s; at most {worst:.3} m off the path, articulation at most {most:.1}°, \
                 fastest {fastest:.2} m/s, jackknifed {jackknifed}"
            );
            assert!(arrived.is_some(), "{tow} {hz} Hz: never stood at the end");
            assert!(miss < 0.3, "{tow} {hz} Hz: {miss} m from the end");
            assert!(worst < off, "{tow} {hz} Hz: {worst} m off the path");
            assert!(most < 50.0 && jackknifed == 0, "{tow} {hz} Hz: {most}°, {jackknifed}");
            assert_sane(&app, car);
            assert_sane(&app, trailer);
        }
    }
}

/// The road car alone backs 8 m straight and round a 6 m quarter circle 4 m into a
/// parking place, at 30, 60 and 240 Hz: its rear axle ends within 0.3 m of the path's
/// end (0.041–0.046 m), never more than 0.3 m off it (0.20 m). Checked that it fails:
/// with the reverse steer's sign turned round it ends 62 m from the end.
#[test]
fn a_driver_backs_a_car_into_a_parking_place() {
    let car_settings = preset("road");
    for hz in [30.0, 60.0, 240.0] {
        let (mut app, car) = on_ground(&car_settings, hz, Some(WheelSurface::ASPHALT));
        run(&mut app, steps(0.5, hz));
        let rear =
            |app: &App| position(app, car) + rotation(app, car) * Vec3::new(0.0, 0.0, rear_axle_z(&car_settings));
        let points = bay(rear(&app), 8.0, 6.0, 4.0);
        let end = *points.last().unwrap();
        let path = Arc::new(Path::new(points.clone(), false, 10.0));
        app.world_mut()
            .entity_mut(car)
            .insert(VehicleDriver::new(path, 0.7).reversing(1.5));
        let (mut worst, mut arrived) = (0.0f32, None);
        for step in 0..steps(40.0, hz) {
            app.update();
            worst = worst.max(off_path(&points, rear(&app)));
            let still = velocity(&app, car).length() < 0.02;
            if arrived.is_none() && still && rear(&app).with_y(0.0).distance(end) < 1.0 {
                arrived = Some(step as f64 / hz);
            }
            if arrived.is_some_and(|t| step as f64 / hz > t + 1.0) {
                break;
            }
        }
        let miss = rear(&app).with_y(0.0).distance(end);
        println!(
            "measured: road at {hz} Hz: its rear axle stood {miss:.3} m from the end after {arrived:?} s; \
             at most {worst:.3} m off the path"
        );
        assert!(arrived.is_some(), "{hz} Hz: never stood at the end");
        assert!(miss < 0.3, "{hz} Hz: {miss} m from the end");
        assert!(worst < 0.3, "{hz} Hz: {worst} m off the path");
        assert_sane(&app, car);
    }
}

/// A driver backs out of a parking place and drives off, at 30, 60 and 240 Hz: the
/// road car backs its rear axle 4 m straight and round a 6 m quarter circle, stands,
/// and given a forward path from there (`arrived`, `set_path`) takes first gear and
/// drives 25 m along it on its own plan, which stands on the path's end. Both legs end
/// within 0.3 m: the reverse one its rear axle (0.036–0.046 m), the forward one the
/// car's centre (0.068–0.074 m). Checked that it fails: held at the reverse leg's end
/// on the brake and the handbrake, as a driver going forwards is, the automatic's
/// reverse drives it on backwards (395 m in the parking test, where the test stops);
/// with the forward plan not stopping at the end (as before), it brakes only there and
/// stands 14 m past it.
#[test]
fn a_driver_backs_out_and_drives_off() {
    let s = preset("road");
    for hz in [30.0, 60.0, 240.0] {
        let (mut app, car) = on_ground(&s, hz, Some(WheelSurface::ASPHALT));
        run(&mut app, steps(0.5, hz));
        let rear = |app: &App| position(app, car) + rotation(app, car) * Vec3::new(0.0, 0.0, rear_axle_z(&s));
        let back = bay(rear(&app), 4.0, 6.0, 0.5);
        let back_end = *back.last().unwrap();
        app.world_mut()
            .entity_mut(car)
            .insert(VehicleDriver::new(Arc::new(Path::new(back, false, 10.0)), 0.7).reversing(1.5));
        let (mut backed, mut forward_end, mut stood) = (None, None, None);
        for step in 0..steps(60.0, hz) {
            app.update();
            let t = step as f64 / hz;
            let still = velocity(&app, car).length() < 0.02;
            let driver = app.world().get::<VehicleDriver>(car).unwrap();
            if backed.is_none() && still && driver.arrived() && t > 2.0 {
                backed = Some(rear(&app).with_y(0.0).distance(back_end));
                // Off again, forwards: 25 m straight ahead of the car.
                let p = position(&app, car).with_y(0.0);
                let ahead = (rotation(&app, car) * Vec3::NEG_Z).with_y(0.0).normalize();
                let points: Vec<Vec3> = (0..=50).map(|i| p + ahead * 0.5 * i as f32).collect();
                forward_end = points.last().copied();
                let mut d = app.world_mut().get_mut::<VehicleDriver>(car).unwrap();
                d.reverse = false;
                d.set_path(Arc::new(Path::new(points, false, 10.0)));
                continue;
            }
            if let (Some(end), None) = (forward_end, stood)
                && still
                && driver.arrived()
            {
                stood = Some((position(&app, car).with_y(0.0).distance(end), t));
                break;
            }
        }
        let gear = app
            .world()
            .get::<wheelcollider_avian::vehicle::VehicleRuntime>(car)
            .and_then(|r| r.state.as_ref().map(|s| s.gear));
        println!(
            "measured: road at {hz} Hz: backed out {backed:?} m from the end; drove off and stood {stood:?} (m from the end, s), gear {gear:?}"
        );
        let backed = backed.expect("never stood at the reverse leg's end");
        let (off, _) = stood.expect("never stood at the forward leg's end");
        assert!(backed < 0.3, "{hz} Hz: {backed}");
        assert!(off < 0.3, "{hz} Hz: {off}");
        assert_eq!(gear, Some(1), "{hz} Hz");
        assert_sane(&app, car);
    }
}
