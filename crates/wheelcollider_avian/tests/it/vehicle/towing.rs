//! Towing in full cars with real masses: the road car and the caravan preset coupled on
//! avian's joint, against closed forms (the nose load by the lever rule, off-tracking on
//! a steady circle, the reversing divergence), and the hitch's life: coupling refused
//! and done, a break, a jackknife, a caravan parked on a slope, every sweep and rate
//! over kerbs and a heightfield.

use crate::common::*;
use avian3d::prelude::*;
use bevy::prelude::*;
use wheelcollider_avian::prelude::*;
use wheelcollider_avian::vehicle::towing::*;
use wheelcollider_core::vehicle::{off_tracking, reversing_divergence};

use super::pairs::*;

/// The road car's ball and the caravan's hitch head, in the world.
fn hitch_gap(app: &App, car: Entity, caravan: Entity) -> f32 {
    let (tow, trailer) = (preset("road"), preset("caravan"));
    let ball = position(app, car) + rotation(app, car) * Vec3::from(tow.hitch.unwrap().position);
    let head = position(app, caravan) + rotation(app, caravan) * Vec3::from(trailer.trailer.unwrap().coupling);
    ball.distance(head)
}

/// [`pair`]: the road car (no auto-reverse) and the caravan, both on `sweep` wheels.
fn rig(app: &mut App, sweep: SweepType, yaw: f32) -> (Entity, Entity) {
    let mut trailer = preset("caravan");
    trailer.axles[0].wheel.set_sweep_type(sweep);
    coupled_pair(app, &preset_with("road", sweep), &trailer, yaw)
}

/// At rest the caravan hangs its nose load on the ball, by the lever rule about its
/// tyres' contact: `m·g·(x_contact − x_cg)/(x_contact − x_hitch)` with the horizontal
/// positions along the caravan as they are at rest (the car squats under the load, so
/// the caravan sits nose down; level, the preset's numbers give 1 030 N, 7 % of its
/// weight). The joint's force along the car's down axis matches it within 3 %, the
/// caravan's tyres carry the rest (their loads and the hitch's add up to its weight
/// within 1 %), and the ball and the hitch head stay together within 5 mm, at 30–240 Hz.
#[test]
fn the_caravan_hangs_its_nose_load_on_the_ball() {
    let trailer = preset("caravan");
    let weight = trailer.chassis.mass * G;
    for hz in RATES {
        let mut app = app(hz);
        flat(&mut app, None);
        let (car, caravan) = rig(&mut app, SweepType::Ray, 0.0);
        run(&mut app, steps(3.0, hz));
        let t = telemetry(&app, caravan);
        let gap = hitch_gap(&app, car, caravan);
        let (p, q) = (position(&app, caravan), rotation(&app, caravan));
        let forward = q * Vec3::NEG_Z;
        let heading = Vec3::new(forward.x, 0.0, forward.z).normalize();
        let wheels = app.world().get::<ChassisWheels>(caravan).unwrap().wheels().to_vec();
        let contact = wheels.iter().map(|&w| output(&app, w).contact_position).sum::<Vec3>() / 2.0;
        let loads: f32 = wheels.iter().map(|&w| output(&app, w).output.load).sum();
        let cg = p + q * Vec3::from(trailer.chassis.centre_of_mass);
        let head = p + q * Vec3::from(trailer.trailer.as_ref().unwrap().coupling);
        let lever = weight * (cg - contact).dot(heading) / (head - contact).dot(heading);
        println!(
            "measured at {hz} Hz: nose load {:.1} N (lever rule at rest {lever:.1}, level {:.1}), tyres {loads:.0} N, \
             sum {:.2} % of the weight, gap {:.2} mm, push {:.1} N",
            t.nose_load,
            trailer.nose_load(),
            100.0 * (loads + t.nose_load) / weight,
            gap * 1e3,
            t.push
        );
        assert!(
            (t.nose_load / lever - 1.0).abs() < 0.03,
            "{hz} Hz: {} vs {lever}",
            t.nose_load
        );
        assert!(((loads + t.nose_load) / weight - 1.0).abs() < 0.01, "{hz} Hz");
        assert!(gap < 5e-3, "{hz} Hz: the hitch opened {gap} m");
        assert!(t.coupled && t.yaw.abs() < 0.5, "{t:?}");
    }
}

/// Low-speed off-tracking: the road car tows the caravan round a steady circle at
/// 2.5 m/s with the steering held; the fitted radii of the car's rear axle (R), the
/// ball and the caravan's axle match the kinematic closed form `R_h = √(R² + b²)`,
/// `R_t = √(R_h² − l_t²)` (b = 0.85 m, l_t = 4.5 m) within 3 %, and the three circles
/// share their centre within 0.3 m, at 30, 60 and 240 Hz.
#[test]
fn off_tracking_on_a_steady_circle_matches_the_closed_form() {
    let (tow, trailer) = (preset("road"), preset("caravan"));
    let b = tow.hitch.as_ref().unwrap().position[2] - tow.axles[1].z;
    let l_t = trailer.trailer_length();
    for hz in [30.0, 60.0, 240.0] {
        let mut app = app(hz);
        flat(&mut app, None);
        let (car, caravan) = rig(&mut app, SweepType::Ray, 0.0);
        let mut tracks = [vec![], vec![], vec![]];
        for step in 0..steps(34.0, hz) {
            hold_speed(&mut app, car, 2.5, 0.5);
            app.update();
            if step < steps(18.0, hz) {
                continue;
            }
            let (p, q) = (position(&app, car), rotation(&app, car));
            let (pt, qt) = (position(&app, caravan), rotation(&app, caravan));
            let points = [
                p + q * Vec3::new(0.0, 0.0, tow.axles[1].z),
                p + q * Vec3::from(tow.hitch.as_ref().unwrap().position),
                pt + qt * Vec3::new(0.0, 0.0, trailer.axles[0].z),
            ];
            for (track, point) in tracks.iter_mut().zip(points) {
                track.push(Vec2::new(point.x, point.z));
            }
        }
        let [(c_r, r), (c_h, r_h), (c_t, r_t)] = tracks.map(|t| circle_fit(&t));
        let (want_h, want_t) = off_tracking(r, b, l_t);
        println!(
            "measured at {hz} Hz: R {r:.3} m, hitch {r_h:.3} m (closed form {want_h:.3}), caravan axle {r_t:.3} m \
             (closed form {want_t:.3}); centres {c_r} {c_h} {c_t}; speed {:.2} m/s",
            velocity(&app, car).length()
        );
        assert!(r > 5.0 && r < 15.0, "{hz} Hz: the car's circle {r} m");
        assert!((r_h / want_h - 1.0).abs() < 0.03, "{hz} Hz: hitch {r_h} vs {want_h}");
        assert!(
            (r_t / want_t - 1.0).abs() < 0.03,
            "{hz} Hz: caravan axle {r_t} vs {want_t}"
        );
        assert!(
            c_r.distance(c_h) < 0.3 && c_r.distance(c_t) < 0.3,
            "{hz} Hz: centres {c_r} {c_h} {c_t}"
        );
    }
}

/// Reversing with the steering centred, the caravan's articulation grows as the closed
/// form says: `tan(θ/2)` grows as `exp(|v|·t/l_t)` (the caravan's axle rolls without
/// slip), measured between 4° and 20° within 12 % at 60 and 120 Hz; then it reaches the
/// ball's 90° stop and `Jackknifed` is sent once, at 89–91°, with the hitch closed;
/// braked there, the jackknifed pair comes to rest.
#[test]
fn reversing_the_articulation_grows_at_the_closed_form_rate_and_jackknifes() {
    let l_t = preset("caravan").trailer_length();
    for hz in [60.0, 120.0] {
        let mut app = app(hz);
        flat(&mut app, None);
        let (car, caravan) = rig(&mut app, SweepType::Ray, 2.0);
        // A manual gearbox held in reverse (the automatic takes first gear on throttle).
        app.world_mut().get_mut::<Vehicle>(car).unwrap().0.gearbox.automatic = false;
        run(&mut app, steps(1.0, hz));
        set_gear(&mut app, car, -1);
        let (mut t4, mut t20, mut speeds) = (None, None, vec![]);
        let (mut jackknifes, mut t_jack) = (vec![], None);
        for step in 0..steps(40.0, hz) {
            hold_speed(&mut app, car, -1.2, 0.0);
            app.update();
            let t = step as f64 / hz;
            let yaw = telemetry(&app, caravan).yaw.abs();
            if t4.is_none() && yaw >= 4.0 {
                t4 = Some(t);
            }
            if t4.is_some() && t20.is_none() {
                speeds.push(velocity(&app, car).length());
                if yaw >= 20.0 {
                    t20 = Some(t);
                }
            }
            jackknifes.extend(messages::<Jackknifed>(&app));
            // Held at the stop for 2 s: it is reported once.
            t_jack = t_jack.or((!jackknifes.is_empty()).then_some(t));
            if t_jack.is_some_and(|j| t > j + 2.0) {
                break;
            }
        }
        let (t4, t20) = (t4.expect("passed 4°"), t20.expect("passed 20°"));
        let v = speeds.iter().sum::<f32>() / speeds.len() as f32;
        let tan = |deg: f32| (deg.to_radians() / 2.0).tan();
        let rate = (tan(20.0) / tan(4.0)).ln() / (t20 - t4) as f32;
        let want = reversing_divergence(v, l_t);
        println!(
            "measured at {hz} Hz: divergence {rate:.4} 1/s (closed form {want:.4} at {v:.2} m/s); jackknifed {jackknifes:?}"
        );
        assert!((rate / want - 1.0).abs() < 0.12, "{hz} Hz: {rate} vs {want}");
        assert_eq!(jackknifes.len(), 1, "{hz} Hz: {jackknifes:?}");
        let yaw = jackknifes[0].yaw.abs();
        assert!((89.0..=91.0).contains(&yaw), "{hz} Hz: jackknifed at {yaw}°");
        assert!(
            hitch_gap(&app, car, caravan) < 0.01,
            "{hz} Hz: the hitch opened at the stop"
        );
        // Jackknifed at standstill: braked, the pair comes to rest and stays there.
        for _ in 0..steps(3.0, hz) {
            set_controls(&mut app, car, |i| (i.throttle, i.brake) = (0.0, 1.0));
            app.update();
        }
        let still = velocity(&app, car).length().max(velocity(&app, caravan).length());
        println!("measured at {hz} Hz: jackknifed and braked 3 s, fastest body {still:.4} m/s");
        assert!(still < 0.05, "{hz} Hz: {still}");
        assert_sane(&app, car);
        assert_sane(&app, caravan);
    }
}

/// Coupling is refused with the reason (too far, a tow vehicle with no hitch, the two
/// the wrong way round)
/// and done within reach; uncoupled, the caravan rests on its stand with the hitch head
/// at the ball's height (0.40 m, within 3 cm) and stays put while the car drives away.
#[test]
fn coupling_is_checked_and_an_uncoupled_caravan_stands_on_its_jockey_wheel() {
    let mut app = app(60.0);
    flat(&mut app, None);
    let (tow, trailer) = (preset("road"), preset("caravan"));
    let at = Transform::from_xyz(0.0, tow.touch_height(), 0.0);
    let car = spawn_preset_car(&mut app, &tow, at);
    let far = hitched_transform(&tow, at, &trailer)
        .unwrap()
        .with_translation(Vec3::new(0.0, 1.5, 9.0));
    let caravan = spawn_preset_car(&mut app, &trailer, far);
    let kart = spawn_preset_car(&mut app, &preset("kart"), Transform::from_xyz(6.0, 0.5, 0.0));
    let world = app.world_mut();
    couple_trailer(&mut world.commands(), car, caravan);
    couple_trailer(&mut world.commands(), kart, caravan);
    couple_trailer(&mut world.commands(), caravan, car);
    world.flush();
    let refused: Vec<String> = messages::<CouplingRefused>(&app)
        .into_iter()
        .map(|r| r.reason)
        .collect();
    println!("measured: refused {refused:?}");
    assert_eq!(refused.len(), 3, "{refused:?}");
    assert!(
        refused[0].contains("reach") && refused[1].contains("no hitch"),
        "{refused:?}"
    );
    assert!(app.world().get::<Coupled>(caravan).is_none());

    // Uncoupled from the start: it settles on its stand.
    run(&mut app, steps(3.0, 60.0));
    let head = |app: &App| {
        position(app, caravan) + rotation(app, caravan) * Vec3::from(trailer.trailer.clone().unwrap().coupling)
    };
    let rest = head(&app);
    println!("measured: the uncoupled hitch head rests {:.3} m up", rest.y);
    assert!((rest.y - 0.40).abs() < 0.03, "{rest}");
    app.world_mut()
        .entity_mut(caravan)
        .insert(hitched_transform(&tow, at, &trailer).unwrap());
    app.world_mut().entity_mut(car).insert(at);
    run(&mut app, 1);
    let world = app.world_mut();
    couple_trailer(&mut world.commands(), car, caravan);
    world.flush();
    assert_eq!(messages::<TrailerCoupled>(&app).len(), 1);
    run(&mut app, steps(2.0, 60.0));
    let world = app.world_mut();
    uncouple_trailer(&mut world.commands(), caravan);
    world.flush();
    let uncoupled = messages::<TrailerUncoupled>(&app);
    assert_eq!(uncoupled.len(), 1);
    assert_eq!(uncoupled[0].broken_at, None);
    let parked = position(&app, caravan);
    for _ in 0..steps(4.0, 60.0) {
        hold_speed(&mut app, car, 3.0, 0.0);
        app.update();
    }
    let (moved, drove) = (position(&app, caravan).distance(parked), position(&app, car).z);
    println!(
        "measured: caravan moved {moved:.3} m while the car drove to z = {drove:.1}; head at {:.3} m",
        head(&app).y
    );
    assert!(drove < -5.0, "the car drove away: {drove}");
    assert!(moved < 0.1, "the parked caravan moved {moved} m");
    assert!((head(&app).y - 0.40).abs() < 0.03);
}

/// An uncoupled caravan on a 10 % slope, nose downhill and then uphill, holds on its
/// parking brake and stand: it moves less than 2 cm in 5 s.
#[test]
fn an_uncoupled_caravan_holds_on_a_slope() {
    let trailer = preset("caravan");
    for sign in [1.0f32, -1.0] {
        let mut app = app(60.0);
        let slope = Quat::from_rotation_x(sign * 0.1f32.atan());
        spawn_ground(&mut app, slope);
        let place = Transform::from_rotation(slope) * Transform::from_xyz(0.0, 1.5, 0.0);
        let caravan = spawn_preset_car(&mut app, &trailer, place);
        run(&mut app, steps(2.0, 60.0));
        let start = position(&app, caravan);
        run(&mut app, steps(5.0, 60.0));
        let moved = position(&app, caravan).distance(start);
        println!(
            "measured: on the slope ({sign}) the caravan moved {:.1} mm in 5 s",
            moved * 1e3
        );
        assert!(moved < 0.02, "{sign}: {moved} m");
        assert_sane(&app, caravan);
    }
}

/// A hitch with a break force lets go when the car pulls away hard: `TrailerUncoupled`
/// with the force that broke it (above the 1 500 N set), and the caravan stops.
#[test]
fn a_hitch_breaks_above_its_force() {
    let mut app = app(60.0);
    flat(&mut app, None);
    let (car, caravan) = rig(&mut app, SweepType::Ray, 0.0);
    run(&mut app, steps(1.0, 60.0));
    // Settled (the spawn's drop would break it): the break force set as a game or the
    // inspector sets it.
    app.world_mut()
        .get_mut::<Vehicle>(car)
        .unwrap()
        .0
        .hitch
        .as_mut()
        .unwrap()
        .break_force = 1500.0;
    let mut broken = vec![];
    for _ in 0..steps(5.0, 60.0) {
        set_controls(&mut app, car, |i| i.throttle = 1.0);
        app.update();
        broken.extend(messages::<TrailerUncoupled>(&app));
    }
    println!("measured: {broken:?}");
    assert_eq!(broken.len(), 1, "{broken:?}");
    assert!(broken[0].broken_at.is_some_and(|f| f > 1500.0), "{broken:?}");
    assert!(app.world().get::<Coupled>(caravan).is_none());
    run(&mut app, steps(5.0, 60.0));
    let (v, gap) = (velocity(&app, caravan).length(), hitch_gap(&app, car, caravan));
    println!("measured: after 5 s the caravan rolls at {v:.2} m/s, {gap:.1} m behind");
    assert!(v < 0.2 && gap > 3.0, "{v} {gap}");
}

/// The pair over a kerb and a bumpy heightfield at 10 m/s with every sweep on both
/// vehicles, at 20–480 Hz: the hitch stays closed within 1 cm, everything finite, the
/// caravan past the terrain with its wheels on the flat ground beyond it.
#[test]
fn the_pair_crosses_kerbs_and_a_heightfield_with_every_sweep_and_rate() {
    for hz in [20.0, 30.0, 60.0, 120.0, 240.0, 480.0] {
        for sweep in SWEEPS {
            let mut app = kerb_and_heightfield(hz, -0.8);
            let (car, caravan) = rig(&mut app, sweep, 0.0);
            let mut worst: f32 = 0.0;
            // 12 s: the car ends 20 m past the terrain, the caravan on flat ground.
            for _ in 0..steps(12.0, hz) {
                hold_speed(&mut app, car, 10.0, 0.0);
                app.update();
                worst = worst.max(hitch_gap(&app, car, caravan));
            }
            assert_sane(&app, car);
            assert_sane(&app, caravan);
            let grounded = app.world().get::<VehicleTelemetry>(caravan).unwrap().grounded_wheels;
            println!(
                "measured at {hz} Hz, {sweep:?}: widest hitch gap {:.2} mm, car at z {:.1}, caravan wheels grounded {grounded}",
                worst * 1e3,
                position(&app, car).z
            );
            assert!(worst < 0.01, "{hz} Hz {sweep:?}: gap {worst}");
            assert!(position(&app, caravan).z < -72.0, "{hz} Hz {sweep:?}: the pair stalled");
            assert_eq!(grounded, 2, "{hz} Hz {sweep:?}");
        }
    }
}

/// The roll between the two bodies (deg): the trailer's right axis against the tow
/// vehicle's floor.
fn relative_roll(app: &App, car: Entity, trailer: Entity) -> f32 {
    let rel = rotation(app, car).inverse() * rotation(app, trailer);
    (rel * Vec3::X).y.clamp(-1.0, 1.0).asin().to_degrees()
}

/// A fifth wheel carries roll, a ball does not: the pair (the road car and the caravan,
/// both given the kind) drives at 6 m/s over a 12 cm ramp under the caravan's left wheel
/// alone; on a ball the caravan rolls against the car (more than 1.5°), on a fifth wheel
/// it stays within 0.3° of the car's roll while the hitch stays closed.
#[test]
fn a_fifth_wheel_carries_roll_and_a_ball_does_not() {
    let mut worst = [0.0f32; 2];
    for (i, kind) in [HitchKind::Ball, HitchKind::FifthWheel].into_iter().enumerate() {
        let mut app = app(60.0);
        flat(&mut app, None);
        // A 12 cm bump 2 m long under the caravan's left wheel's line (x = −0.95).
        let bump = Collider::convex_hull(vec![
            Vec3::new(-1.1, 0.0, -1.5),
            Vec3::new(-0.8, 0.0, -1.5),
            Vec3::new(-1.1, 0.12, -0.5),
            Vec3::new(-0.8, 0.12, -0.5),
            Vec3::new(-1.1, 0.12, 0.5),
            Vec3::new(-0.8, 0.12, 0.5),
            Vec3::new(-1.1, 0.0, 1.5),
            Vec3::new(-0.8, 0.0, 1.5),
        ])
        .unwrap();
        app.world_mut()
            .spawn((RigidBody::Static, bump, Transform::from_xyz(-0.05, 0.0, -8.0)));
        let mut tow = preset_with("road", SweepType::Ray);
        // The car's left track is 0.77 m out: its wheels pass inside the bump.
        tow.hitch.as_mut().unwrap().kind = kind;
        let mut trailer = preset("caravan");
        trailer.trailer.as_mut().unwrap().kind = kind;
        let (car, caravan) = coupled_pair(&mut app, &tow, &trailer, 0.0);
        run(&mut app, steps(1.0, 60.0));
        let mut gap: f32 = 0.0;
        for _ in 0..steps(6.0, 60.0) {
            hold_speed(&mut app, car, 6.0, 0.0);
            app.update();
            worst[i] = worst[i].max(relative_roll(&app, car, caravan).abs());
            gap = gap.max(hitch_gap(&app, car, caravan));
        }
        println!(
            "measured: {kind:?}: largest roll against the car {:.2}°, widest gap {:.2} mm",
            worst[i],
            gap * 1e3
        );
        assert!(
            position(&app, caravan).z < -12.0,
            "{kind:?}: the caravan passed the bump"
        );
        assert!(gap < 0.01, "{kind:?}: gap {gap}");
    }
    assert!(worst[0] > 1.5, "a ball lets the caravan roll: {}", worst[0]);
    assert!(worst[1] < 0.3, "a fifth wheel holds the roll: {}", worst[1]);
}

/// Air brakes in the car: the caravan given air brakes (lag 0.3 s) and brakes strong
/// enough to lock its wheels (8 000 N·m), behind the road car braking hard from
/// 80 km/h. Its brake level follows the car's pedal as `1 − exp(−t/τ)` (0.632 at one
/// time constant, within 0.01); with its ABS on its wheels stay short of a lock (slip
/// above −0.3 while faster than 2 m/s), with it off they lock (below −0.9).
#[test]
fn air_brakes_follow_the_pedal_and_the_trailers_abs_keeps_its_wheels_turning() {
    let hz = 120.0;
    let mut worst = [0.0f32; 2];
    for (i, abs) in [true, false].into_iter().enumerate() {
        let mut app = app(hz);
        flat(&mut app, None);
        let mut trailer = preset("caravan");
        trailer.trailer.as_mut().unwrap().brakes = TrailerBrakes::Air { lag: 0.3 };
        (trailer.brakes.abs, trailer.brakes.max_torque) = (abs, 8000.0);
        let (car, caravan) = coupled_pair(&mut app, &preset_with("road", SweepType::Ray), &trailer, 0.0);
        run(&mut app, steps(1.0, hz));
        launch(&mut app, car, 22.0);
        launch(&mut app, caravan, 22.0);
        let mut at_lag = None;
        for step in 1..=steps(4.0, hz) {
            set_controls(&mut app, car, |i| (i.throttle, i.brake) = (0.0, 1.0));
            app.update();
            if step == steps(0.3, hz) {
                at_lag = Some(telemetry(&app, caravan).brake);
            }
            if velocity(&app, caravan).length() > 2.0 {
                for &w in app.world().get::<ChassisWheels>(caravan).unwrap().wheels() {
                    worst[i] = worst[i].min(output(&app, w).output.forward_slip);
                }
            }
        }
        let level = at_lag.unwrap();
        println!(
            "measured: ABS {abs}: brake level {level:.4} after one lag (1 − 1/e = 0.6321), lowest slip {:.3}",
            worst[i]
        );
        assert!((level - (1.0 - (-1.0f32).exp())).abs() < 0.01, "{level}");
        assert_sane(&app, caravan);
    }
    assert!(worst[0] > -0.3, "ABS on: {}", worst[0]);
    assert!(worst[1] < -0.9, "ABS off: {}", worst[1]);
}

/// Despawning either vehicle of a coupled pair at 15 m/s leaves the other free: the
/// joint goes with it (no joint entity left), the caravan left by its car is
/// uncoupled and slows to rest on its stand and parking brake within 5 s without being
/// held anywhere, and the car whose caravan vanished keeps driving at its 15 m/s.
#[test]
fn despawning_either_vehicle_of_a_pair_frees_the_other() {
    for despawn_car in [true, false] {
        let mut app = app(60.0);
        flat(&mut app, None);
        let (car, caravan) = rig(&mut app, SweepType::Ray, 0.0);
        run(&mut app, steps(1.0, 60.0));
        launch(&mut app, car, 15.0);
        launch(&mut app, caravan, 15.0);
        run(&mut app, steps(0.5, 60.0));
        let (gone, left) = if despawn_car { (car, caravan) } else { (caravan, car) };
        app.world_mut().entity_mut(gone).despawn();
        let (v0, p0) = (velocity(&app, left).length(), position(&app, left));
        for _ in 0..steps(5.0, 60.0) {
            if !despawn_car {
                hold_speed(&mut app, car, 15.0, 0.0);
            }
            app.update();
        }
        let mut joints = app.world_mut().query::<&HitchJoint>();
        let joints = joints.iter(app.world()).count();
        let (v, moved) = (velocity(&app, left).length(), position(&app, left).distance(p0));
        println!(
            "measured: despawned the {}: the other from {v0:.1} to {v:.2} m/s over {moved:.1} m, {joints} joints left",
            if despawn_car { "car" } else { "caravan" }
        );
        assert_eq!(joints, 0);
        assert!(app.world().get::<Coupled>(caravan).is_none_or(|_| !despawn_car));
        assert_sane(&app, left);
        if despawn_car {
            // Its parking brake (1 600 N·m on 0.3 m wheels, 3.6 m/s² on 1.5 t) and its
            // stand stop it from 15 m/s within 5 s, some 30 m on.
            assert!(v < 0.5 && moved > 20.0, "{v} {moved}");
        } else {
            assert!((v - 15.0).abs() < 1.0 && moved > 60.0, "{v} {moved}");
        }
    }
}

/// Overrun brakes in the car: the road car brakes from 80 km/h with the caravan in tow
/// (a quarter pedal, so that the level sits between the law's ends), at 30–240 Hz. The caravan's push applies its brakes by the law `(push/(m g) −
/// 0.04)/(0.10 − 0.04)`: after 1.5 s of steady braking its level is the law's at the
/// push of the last 0.5 s, within 0.05 (the damper's lag of 0.15 s averages the
/// push's jitter and trails its slow change), between 0.1 and 0.9.
#[test]
fn overrun_brakes_apply_by_the_push_in_the_car() {
    let weight = preset("caravan").chassis.mass * G;
    for hz in RATES {
        let mut app = app(hz);
        flat(&mut app, None);
        let (car, caravan) = rig(&mut app, SweepType::Ray, 0.0);
        run(&mut app, steps(1.0, hz));
        launch(&mut app, car, 22.0);
        launch(&mut app, caravan, 22.0);
        let (n, mut pushes) = (steps(1.5, hz), vec![]);
        for step in 0..n {
            set_controls(&mut app, car, |i| (i.throttle, i.brake) = (0.0, 0.25));
            app.update();
            if step >= n - steps(0.5, hz) {
                pushes.push(telemetry(&app, caravan).push);
            }
        }
        let t = telemetry(&app, caravan);
        // The push over the last 0.5 s (the damper averages the step-to-step jitter).
        let push = pushes.iter().sum::<f32>() / pushes.len() as f32;
        let law = ((push / weight - 0.04) / 0.06).clamp(0.0, 1.0);
        println!(
            "measured at {hz} Hz: mean push {push:.0} N ({:.3} of the weight), brake level {:.3} (law {law:.3}), speed {:.1} m/s",
            push / weight,
            t.brake,
            velocity(&app, caravan).length()
        );
        // Between the law's ends, where the push sets the level.
        assert!(t.brake > 0.1 && t.brake < 0.9, "{hz} Hz: the level is at an end: {t:?}");
        assert!((t.brake - law).abs() < 0.05, "{hz} Hz: {} vs {law}", t.brake);
    }
}

/// Overrun brakes with a short damper (30 ms, the setter allows 10) do not chatter: the
/// road car brakes from 80 km/h at a quarter pedal with the caravan in tow, at 30 and
/// 60 Hz. Over the last second of 2 s of braking the caravan's brake level stays within
/// 0.05 RMS of its mean, and the mean is the closed form within 5 %: the push `P` of a
/// pair decelerating together, `P = (m_t·F_c − m_c·F_t)/M` with the car's braking force
/// `F_c` (its tyres' forces, measured) and the caravan's `F_t = L·F_max` (its brakes'
/// full force, 3 000 N·m over 0.3 m, times the level `L`), through the law
/// `L = (P/W − 0.04)/0.06`: `L = (m_t·F_c/(M·W) − 0.04) / (0.06 + m_c·F_max/(M·W))`.
/// Checked: with the level updated explicitly from the last step's push (as it was)
/// the level swings between its ends (the loop's eigenvalue `1 − b(1 + G)` leaves the
/// unit circle for a lag under about 2.7 steps).
#[test]
fn overrun_brakes_with_a_short_damper_hold_a_steady_level() {
    let mut caravan = preset("caravan");
    caravan.trailer.as_mut().unwrap().brakes = TrailerBrakes::Overrun {
        response: 0.04,
        full: 0.10,
        lag: 0.03,
    };
    let road = preset_with("road", SweepType::Ray);
    let (m_c, m_t) = (road.chassis.mass, caravan.chassis.mass);
    let (weight, total) = (m_t * G, m_c + m_t);
    let f_max = caravan.brakes.max_torque / caravan.axles[0].wheel.radius();
    let mut failed = vec![];
    for hz in [30.0, 60.0] {
        let mut app = app(hz);
        flat(&mut app, None);
        let (car, trailer) = coupled_pair(&mut app, &road, &caravan, 0.0);
        run(&mut app, steps(1.0, hz));
        launch(&mut app, car, 22.0);
        launch(&mut app, trailer, 22.0);
        let wheels = app.world().get::<ChassisWheels>(car).unwrap().wheels().to_vec();
        let (n, mut levels, mut forces) = (steps(2.0, hz), vec![], vec![]);
        for step in 0..n {
            set_controls(&mut app, car, |i| (i.throttle, i.brake) = (0.0, 0.25));
            app.update();
            if step >= n - steps(1.0, hz) {
                levels.push(app.world().get::<HitchTelemetry>(trailer).unwrap().brake);
                forces.push(
                    -wheels
                        .iter()
                        .map(|&w| output(&app, w).output.forward_force)
                        .sum::<f32>(),
                );
            }
        }
        let mean = levels.iter().sum::<f32>() / levels.len() as f32;
        let rms = (levels.iter().map(|l| (l - mean).powi(2)).sum::<f32>() / levels.len() as f32).sqrt();
        let f_c = forces.iter().sum::<f32>() / forces.len() as f32;
        let closed = (m_t * f_c / (total * weight) - 0.04) / (0.06 + m_c * f_max / (total * weight));
        println!(
            "measured at {hz} Hz, 30 ms damper: brake level {mean:.3} ± {rms:.3} RMS, closed form {closed:.3} (the car's force {f_c:.0} N)"
        );
        if rms > 0.05 || (mean / closed - 1.0).abs() > 0.05 {
            failed.push(format!("{hz} Hz: {mean} ± {rms} against {closed}"));
        }
    }
    assert!(failed.is_empty(), "{failed:#?}");
}
