//! A vehicle of single axles (a two-wheeler's): each axle's one wheel takes the axle's
//! whole load, brake and drive, and its right index stays empty.
use crate::common::preset;
use wheelcollider_core::limits::STANDARD_GRAVITY;
use wheelcollider_core::vehicle::*;

/// The MT-07's two single axles: two wheels at indices 0 and 2 of four; their static
/// loads sum to the weight; a full brake puts the front's share of the brakes on the
/// front wheel and the rest on the rear, a full throttle the whole wheel torque on the
/// rear, nothing on the empty indices; the driveline hands the rear on as single.
/// Checked that it fails: with `corner_load` halving a single axle's load as a pair's,
/// the load check reads half the weight.
#[test]
fn a_single_axle_takes_its_axles_whole_load_brake_and_drive() {
    let mut s = preset("mt07");
    s.brakes.abs = false;
    s.gearbox.automatic = false;
    // The lever at once: the rider's squeeze is `the_riders_fingers_squeeze_the_lever_progressively`'s.
    s.two_wheeler.as_mut().unwrap().rider.squeeze = 0.0;
    assert_eq!((s.wheel_count(), s.wheel_indices()), (2, 4));
    assert_eq!([0, 1, 2, 3].map(|i| s.has_wheel(i)), [true, false, true, false]);
    let weight = s.chassis.mass * STANDARD_GRAVITY;
    let loads = s.corner_load(0) + s.corner_load(1);
    println!(
        "measured: static loads {:.1} + {:.1} N against the weight {weight:.1} N",
        s.corner_load(0),
        s.corner_load(1)
    );
    assert!((loads / weight - 1.0).abs() < 1e-5, "{loads} against {weight}");

    // Rolling at 10 m/s on both wheels.
    let wheel = |a: usize| WheelFeedback {
        angular_velocity: 10.0 / s.axles[a].wheel.radius(),
        inertia: s.axles[a].wheel.inertia(),
        radius: s.axles[a].wheel.radius(),
        load: s.corner_load(a),
        grounded: true,
        ground_speed: 10.0,
        ..Default::default()
    };
    let feedback = [wheel(0), WheelFeedback::default(), wheel(1), WheelFeedback::default()];
    let motion = ChassisMotion::straight(10.0);
    let dt = 1.0 / 60.0;

    let mut state = VehicleState::new(&s);
    let mut inputs = [WheelInput::default(); 4];
    let mut input = DriverInput {
        brake: 1.0,
        ..Default::default()
    };
    step_vehicle(&s, &mut state, &mut input, motion, &feedback, &mut inputs, dt);
    let brakes = inputs.map(|i| i.brake_torque);
    let front = s.brakes.max_torque * s.brake_share(0);
    let rear = s.brakes.max_torque * s.brake_share(1);
    println!("measured: brake torques {brakes:?} N·m against {front} and {rear}");
    assert!(
        (brakes[0] - front).abs() < 1e-3 && (brakes[2] - rear).abs() < 1e-3,
        "{brakes:?}"
    );
    assert_eq!((brakes[1], brakes[3]), (0.0, 0.0));

    let mut state = VehicleState::new(&s);
    (state.gear, state.next_gear) = (2, 2);
    state.engine_speed = 10.0 / s.drive_radius() * s.gearbox.total_ratio(2);
    state.clutch_locked = true;
    let mut inputs = [WheelInput::default(); 4];
    let mut input = DriverInput {
        throttle: 1.0,
        ..Default::default()
    };
    let step = step_vehicle(&s, &mut state, &mut input, motion, &feedback, &mut inputs, dt);
    let drive = inputs.map(|i| i.drive_torque);
    println!(
        "measured: drive torques {drive:?} N·m, the wheel torque {}",
        step.report.wheel_torque
    );
    assert!(step.report.wheel_torque > 100.0);
    assert!((drive[2] - step.report.wheel_torque).abs() < 1e-3, "{drive:?}");
    assert_eq!((drive[0], drive[1], drive[3]), (0.0, 0.0, 0.0));
    assert!(step.driveline.axles[1].single && step.driveline.axles[1].share == 1.0);
    assert_eq!(step.driveline.axles[1].wheels(1), 2..3);
}

/// A two-wheeler's layout is checked by name: an axle with a pair of wheels, a front
/// wheel `steered` by the vehicle's steering (its head turns it) or a single axle are
/// errors that name the field; the steering head's geometry puts the axis through the
/// road `trail` ahead of the front contact, tilted back by the rake.
#[test]
fn a_two_wheelers_layout_is_checked_and_its_head_is_where_its_trail_says() {
    let mut s = preset("mt07");
    s.axles[1].single = false;
    assert_eq!(s.validate().unwrap_err().field, "axles[1].single");
    let mut s = preset("mt07");
    s.axles[0].steered = true;
    assert_eq!(s.validate().unwrap_err().field, "axles[0].steered");
    let mut s = preset("mt07");
    s.axles.pop();
    assert_eq!(s.validate().unwrap_err().field, "axles");

    let s = preset("mt07");
    let bike = s.two_wheeler.as_ref().unwrap();
    let head = s.head_geometry().unwrap();
    // Where the axis meets the road, and the front contact below the wheel's centre.
    let front = &s.axles[0];
    let centre_y = front.mount_height - (front.wheel.suspension_length() - s.static_compression(0));
    let road = centre_y - front.wheel.radius();
    let [_, ay, az] = head.anchor;
    let [_, sy, sz] = head.axis;
    let at_road = az + (road - ay) / sy * sz;
    let trail = at_road - front.z;
    println!(
        "measured: the head axis meets the road {:.4} m ahead of the front contact (trail {}), rake {:.2}°",
        -trail,
        bike.trail,
        sz.atan2(sy).to_degrees()
    );
    assert!((-trail - bike.trail).abs() < 1e-5, "trail {trail}");
    assert!((sz.atan2(sy).to_degrees() - bike.rake).abs() < 1e-4);
    assert!(preset("road").head_geometry().is_none());
}

/// The rider's hand on the throttle (`RiderSettings::throttle`): as asked while the front
/// wheel carries 35 % of its static load or more, closed at 15 % and under, linear
/// between (half at 25 %); as asked with the weight back or `hold_front` off. The
/// MT-07's launch in the plugin (`two_wheeler::motorcycle`) is the coupled test.
#[test]
fn the_riders_hand_eases_the_throttle_as_the_front_unloads() {
    let rider = RiderSettings::default();
    let at = |share: f32| rider.throttle(1.0, 0.0, share * 1000.0, 1000.0);
    assert_eq!(at(1.0), 1.0);
    assert_eq!(at(0.35), 1.0);
    assert!((at(0.25) - 0.5).abs() < 1e-5, "{}", at(0.25));
    assert_eq!(at(0.15), 0.0);
    assert_eq!(at(0.0), 0.0);
    assert_eq!(rider.throttle(0.8, -0.5, 0.0, 1000.0), 0.8, "a wheelie asked for");
    let off = RiderSettings {
        hold_front: false,
        ..RiderSettings::default()
    };
    assert_eq!(off.throttle(0.8, 0.0, 0.0, 1000.0), 0.8);
    assert_eq!(rider.throttle(0.8, 0.0, f32::NAN, 1000.0), 0.8, "no reading, no easing");
}

/// The rider's fingers on the front lever (`RiderSettings::lever`): the lever rises by
/// `dt / squeeze` a step towards the asked brake (full after `squeeze`, 0.5 s by
/// default: 30 steps of 1/60 s), opens to the asked brake at once, and follows the
/// brake as asked with `squeeze` 0; a NaN level or input reads as 0. The MT-07's full
/// lever at 120 km/h in the plugin (`two_wheeler::motorcycle`) is the coupled test.
#[test]
fn the_riders_fingers_squeeze_the_lever_progressively() {
    let rider = RiderSettings::default();
    assert_eq!(rider.squeeze, 0.5);
    let dt = 1.0 / 60.0;
    let mut level = 0.0;
    let mut steps = 0;
    while rider.lever(1.0, &mut level, dt) < 1.0 {
        steps += 1;
        assert!(steps < 100, "never full");
    }
    assert_eq!(steps, 29, "full on the 30th step");
    assert_eq!(level, 1.0);
    assert_eq!(rider.lever(0.2, &mut level, dt), 0.2, "opened at once");
    assert!((rider.lever(0.6, &mut level, dt) - (0.2 + dt / 0.5)).abs() < 1e-6);
    let at_once = RiderSettings {
        squeeze: 0.0,
        ..RiderSettings::default()
    };
    let mut level = 0.0;
    assert_eq!(at_once.lever(1.0, &mut level, dt), 1.0);
    let mut level = f32::NAN;
    assert!((rider.lever(1.0, &mut level, dt) - dt / 0.5).abs() < 1e-6);
    assert_eq!(rider.lever(f32::NAN, &mut level, dt), 0.0);
}

/// The lean on round crowns (`VehicleSettings::resultant_lean` and
/// `lean_for_resultant`): on the MT-07 with crowns of half its tyres' widths (0.06 and
/// 0.09 m), the two are each other's inverse within 1e-5 rad from 0 to 50°, and the
/// resultant's tangent is the geometry's, the centre of mass' lateral offset from the
/// contacts over its height: `H·sin φ / (ρ + H·cos φ)` with `ρ` the crowns weighted by
/// the static loads and `H` the centre of mass' height less it. At 30° the chassis leans
/// 3.5–4.5° more than its resultant (Cossalter's few degrees for a sport bike). On the
/// preset's knife edges both are the identity. Checked that it fails: with the crowns
/// weighted equally instead of by the loads, the crown under the centre of mass reads
/// 0.075 against 0.0762 m.
#[test]
fn the_crowns_lean_a_two_wheeler_further_than_its_resultant() {
    let knife = preset("mt07");
    let mut crowned = knife.clone();
    for (axle, crown) in crowned.axles.iter_mut().zip([0.06, 0.09]) {
        axle.wheel.set_crown_radius(crown).unwrap();
    }
    let loads = [crowned.corner_load(0), crowned.corner_load(1)];
    let rho = (loads[0] * 0.06 + loads[1] * 0.09) / (loads[0] + loads[1]);
    let reach = crowned.centre_of_mass_height() - rho;
    assert!((crowned.crown_under_centre() - rho).abs() < 1e-6);
    for i in 0..=50 {
        let lean = (i as f32).to_radians();
        let resultant = crowned.resultant_lean(lean);
        let geometry = reach * lean.sin() / (rho + reach * lean.cos());
        assert!(
            (resultant.tan() - geometry).abs() < 1e-5,
            "{i}°: {} against {geometry}",
            resultant.tan()
        );
        assert!((crowned.lean_for_resultant(resultant) - lean).abs() < 1e-5, "{i}°");
        assert!(
            (knife.resultant_lean(lean) - lean).abs() < 1e-6 && (knife.lean_for_resultant(lean) - lean).abs() < 1e-6
        );
    }
    let extra = 30f32.to_radians() - crowned.resultant_lean(30f32.to_radians());
    println!(
        "measured: crown {rho:.4} m under the centre of mass, reach {reach:.3} m; at 30° the resultant leans {:.2}° less",
        extra.to_degrees()
    );
    assert!((3.5..4.5).contains(&extra.to_degrees()), "{}°", extra.to_degrees());
}
