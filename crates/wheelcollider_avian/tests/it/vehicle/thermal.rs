//! The tyres' temperature, pressure and wear in the car (the core's `thermal`; closed
//! forms in `docs/tyre-thermal.md`), with the chassis' real masses at 30–240 Hz: a
//! steady circle's tyres heat to where heat in equals heat out, a handbrake slide heats
//! the rear treads by their sliding energy, a punctured tyre's wheel sits on its rim.
use crate::common;

use avian3d::prelude::*;
use bevy::prelude::*;
use common::*;
use wheelcollider_avian::prelude::*;
use wheelcollider_core::RELAXED_LATERAL_MIN_DENOMINATOR;
use wheelcollider_core::thermal::{self, TyreState};

fn wheel_list(app: &App, car: Entity) -> Vec<Entity> {
    app.world().get::<ChassisWheels>(car).unwrap().wheels().to_vec()
}

fn reading(app: &App, w: Entity) -> TyreReading {
    let settings = &app.world().get::<WheelCollider>(w).unwrap().0;
    app.world()
        .get::<WheelState>(w)
        .unwrap()
        .tyre(settings)
        .expect("a compound")
}

/// The steady rise (K over the air) of the surface and the carcass, with the gas in
/// balance with the carcass: the two-node solve of `G·T = Q` written out by hand.
fn steady_rise(c: &TyreCompound, (q_s, q_c): (f64, f64), speed: f64, road: f64, track_rise: f64) -> [f64; 2] {
    let film = thermal::film(speed);
    let sc = c.surface_carcass_conductance as f64;
    let (sa, ca) = (film * c.surface_area as f64, film * c.sidewall_area as f64);
    let (a, b, d) = (sc + sa + road, -sc, sc + ca);
    let (r1, r2) = (q_s + road * track_rise, q_c);
    let det = a * d - b * b;
    [(r1 * d - b * r2) / det, (a * r2 - b * r1) / det]
}

/// The preset `name` with its tyres' heat capacities a fiftieth of theirs (the steady
/// state does not read them; it comes in seconds) and their window open (the force
/// stays the same as they warm).
fn quick_tyres(name: &str) -> VehicleSettings {
    let mut settings = preset(name);
    for a in &mut settings.axles {
        let mut c = *a.wheel.compound().unwrap();
        c.surface_capacity /= 50.0;
        c.carcass_capacity /= 50.0;
        c.gas_capacity /= 50.0;
        c.window_loss = 0.0;
        a.wheel.set_compound(Some(c)).unwrap();
    }
    settings
}

/// One tyre's heat in and what cools it, summed over steps: sliding power, rolling
/// resistance's power, ground speed, load, the carcass' hysteresis (W, W, m/s, N, W).
#[derive(Clone, Copy, Default)]
struct HeatSums {
    sums: [f64; 5],
    n: usize,
}

impl HeatSums {
    /// Adds wheel `w`'s last step (its radius `radius`, m).
    fn add(&mut self, app: &App, w: Entity, radius: f32) {
        let o = output(app, w).output;
        let rolling = (o.rolling_resistance_force * o.angular_velocity * radius).abs();
        for (s, v) in self.sums.iter_mut().zip([
            o.sliding_power,
            rolling,
            o.ground_speed.abs(),
            o.load,
            o.deformation_power,
        ]) {
            *s += v as f64;
        }
        self.n += 1;
    }

    /// The means: sliding, rolling, speed, load, hysteresis.
    fn mean(&self) -> [f64; 5] {
        self.sums.map(|x| x / self.n.max(1) as f64)
    }

    /// The steady rise of wheel `w`'s surface and carcass over the air (K) for these
    /// mean heats, against the conductances at the mean speed and load and the tyre's
    /// pressure now.
    fn steady_rise(&self, app: &App, w: Entity, weather: &Weather) -> [f64; 2] {
        let [slide, rolling, speed, load, deformation] = self.mean();
        let c = *app.world().get::<WheelCollider>(w).unwrap().0.compound().unwrap();
        let road = thermal::road_conductance(&c, load, reading(app, w).pressure as f64, speed);
        let q = (c.friction_heat_share as f64 * slide, rolling + deformation);
        steady_rise(&c, q, speed, road, (weather.track - weather.air) as f64)
    }
}

/// The GT86 on a steady 0.6 g left circle at 15 m/s, its touring tyres' heat
/// capacities a fiftieth of theirs (the steady state does not read them; it comes in
/// seconds) and their window open (the force stays the same as they warm): every
/// tyre's surface and carcass rise over the air within 2 % of the steady state of its
/// own mean heat in (the tread's share of its sliding power, its rolling resistance's
/// power and its carcass' hysteresis) against the conductances at its mean speed, load
/// and pressure. At 30, 60 and
/// 240 Hz. Checked to fail: with the road's conduction dropped from the closed form the
/// first tyre misses by a third.
#[test]
fn a_steady_circles_tyres_heat_to_where_heat_in_equals_heat_out() {
    let settings = quick_tyres("gt86");
    let weather = Weather::default();
    for hz in [30.0, 60.0, 240.0] {
        let (mut app, car) = on_flat(&settings, hz);
        run(&mut app, steps(1.0, hz));
        launch(&mut app, car, 15.0);
        let ws = wheel_list(&app, car);
        let (v, ay, seconds, avg) = (15.0f32, 6.0f32, 40.0, 8.0);
        let mut sums = vec![HeatSums::default(); ws.len()];
        let (mut steer, total) = (0.0f32, steps(seconds, hz));
        for i in 0..total {
            let r = app.world().get::<AngularVelocity>(car).unwrap().0.y;
            let speed = velocity(&app, car).dot(rotation(&app, car) * Vec3::NEG_Z);
            let target = ay / v;
            steer = (steer + 20.0 * (target - r) / hz as f32).clamp(-1.0, 1.0);
            set_controls(&mut app, car, |c| {
                c.steer = steer + 3.0 * (target - r);
                c.throttle = (0.15 + 0.5 * (v - speed)).clamp(0.0, 1.0);
                c.brake = 0.0;
            });
            app.update();
            if i >= total - steps(avg, hz) {
                for (k, w) in ws.iter().enumerate() {
                    sums[k].add(&app, *w, settings.axles[k / 2].wheel.radius());
                }
            }
        }
        for (k, w) in ws.iter().enumerate() {
            let [slide, rolling, _, load, deformation] = sums[k].mean();
            let t = reading(&app, *w);
            let [xs, xc] = sums[k].steady_rise(&app, *w, &weather);
            let (ms, mc) = ((t.surface - weather.air) as f64, (t.carcass - weather.air) as f64);
            println!(
                "measured {hz} Hz wheel {k}: {slide:.0} W sliding, {rolling:.0} W rolling, {deformation:.0} W hysteresis, {load:.0} N; surface +{ms:.2} K (closed form +{xs:.2}), carcass +{mc:.2} K (+{xc:.2}), {:.1} kPa",
                t.pressure
            );
            assert!((ms / xs - 1.0).abs() < 0.02, "{hz} Hz wheel {k}: surface {ms} vs {xs}");
            assert!((mc / xc - 1.0).abs() < 0.02, "{hz} Hz wheel {k}: carcass {mc} vs {xc}");
        }
    }
}

/// The road car at 20 m/s, handbrake on and the wheel turned for 1.5 s: the rear treads
/// take their sliding energy almost whole (the surface layer's conduction, convection
/// and road losses over 1.5 s are a few percent of it): each rear surface's rise lies
/// within 85–101 % of `share·∫P_slide dt / C_s`, and more than 1.15 times the front's on
/// its side (the fronts slide sideways through the turn-in; 1.25 before the centre of
/// mass rose to 0.55 m, which moves load off the inner rear: 16.5 K against the inner
/// front's 13.8 at 30 Hz, 22.0 against 16.5 at the old height). At
/// 30, 60 and 240 Hz. The sliding power is summed here from the outputs' forces and slip
/// velocities. Checked to fail: with the model's sliding power taken from the
/// longitudinal slip alone, the front's reads 1.2 kJ of the forces' 22.3 kJ and its tread
/// warms by 1.1 K where 17 K is due.
#[test]
fn a_handbrake_slide_heats_the_rear_treads_by_their_sliding_energy() {
    let mut settings = preset("road");
    // The player's handbrake turn, stability control off (with it on, it brakes the
    // fronts against the yaw the handbrake starts).
    settings.assists.yaw_stability.enabled = false;
    let steer = 0.3;
    for hz in [30.0, 60.0, 240.0] {
        let (mut app, car) = on_flat(&settings, hz);
        run(&mut app, steps(1.0, hz));
        launch_in_gear(&mut app, car, 20.0);
        let ws = wheel_list(&app, car);
        let start: Vec<f32> = ws.iter().map(|w| reading(&app, *w).surface).collect();
        let (mut energy, mut reported) = (vec![0.0f64; ws.len()], vec![0.0f64; ws.len()]);
        for _ in 0..steps(1.5, hz) {
            set_controls(&mut app, car, |c| {
                c.handbrake = 1.0;
                c.steer = steer;
                c.throttle = 0.0;
            });
            app.update();
            for (k, w) in ws.iter().enumerate() {
                // The patch's sliding power from its forces and slip velocities, apart from
                // the model's own sum: `vy = σ·max(|vx|, |ω·r|, floor)` (the lateral slip's
                // denominator with a relaxation length).
                let o = output(&app, *w).output;
                let (vx, r) = (o.ground_speed as f64, settings.axles[k / 2].wheel.radius() as f64);
                let slip_x = o.angular_velocity as f64 * r - vx;
                let reference = vx
                    .abs()
                    .max((slip_x + vx).abs())
                    .max(RELAXED_LATERAL_MIN_DENOMINATOR as f64);
                let vy = o.sideways_slip as f64 * reference;
                let power = (o.forward_force as f64 * slip_x).abs() + (o.sideways_force as f64 * vy).abs();
                energy[k] += power / hz;
                reported[k] += o.sliding_power as f64 / hz;
            }
        }
        let c = *settings.axles[1].wheel.compound().unwrap();
        let rise: Vec<f64> = ws
            .iter()
            .zip(&start)
            .map(|(w, t0)| (reading(&app, *w).surface - t0) as f64)
            .collect();
        for k in 0..4 {
            let adiabatic = c.friction_heat_share as f64 * energy[k] / c.surface_capacity as f64;
            println!(
                "measured {hz} Hz wheel {k}: {:.1} kJ slid, surface +{:.2} K (adiabatic +{adiabatic:.2})",
                energy[k] / 1000.0,
                rise[k]
            );
            assert!(
                (reported[k] / energy[k] - 1.0).abs() < 0.01,
                "{hz} Hz wheel {k}: {} vs {}",
                reported[k],
                energy[k]
            );
            if k >= 2 {
                let ratio = rise[k] / adiabatic;
                assert!(
                    (0.85..1.01).contains(&ratio),
                    "{hz} Hz wheel {k}: {ratio:.3} of adiabatic"
                );
            }
        }
        // Each rear tread (the inner one and the outer one) against the front on its side.
        for side in 0..2 {
            let (front, rear) = (rise[side], rise[side + 2]);
            assert!(
                rear > 1.15 * front && rear > 5.0,
                "{hz} Hz side {side}: rear +{rear:.1} K, front +{front:.1} K"
            );
        }
    }
}

/// A punctured tyre (the [`PunctureTyre`] event) runs on its rim: its wheel's centre
/// sits `radius − rim_drop` above the ground (the suspension reads a road that much
/// further away), the others' `radius`, within 1 mm, and its grip factor is the rim's;
/// [`FitTyres`] on the chassis puts it back. At 30 and 240 Hz.
#[test]
fn a_punctured_tyre_runs_on_its_rim_until_new_tyres_are_fitted() {
    // The ray: its hit lies on the suspension axis (a cylinder's on its lower edge, which
    // the body's roll towards the flat lifts off the axis).
    let settings = preset_with("road", SweepType::Ray);
    for hz in [30.0, 240.0] {
        let (mut app, car) = on_flat(&settings, hz);
        run(&mut app, steps(1.0, hz));
        let ws = wheel_list(&app, car);
        app.world_mut().trigger(PunctureTyre { wheel: ws[2] });
        run(&mut app, steps(3.0, hz));
        let c = *settings.axles[1].wheel.compound().unwrap();
        let r = settings.axles[1].wheel.radius();
        for (k, w) in ws.iter().enumerate() {
            let o = output(&app, *w);
            let ground = o.hit.map(|h| h.point.y).unwrap_or(f32::NAN);
            let height = o.center.y - ground;
            let expected = if k == 2 { r - c.rim_drop } else { r };
            println!("measured {hz} Hz wheel {k}: centre {height:.4} m over the ground (closed form {expected:.4})");
            assert!(
                (height - expected).abs() < 1e-3,
                "{hz} Hz wheel {k}: {height} vs {expected}"
            );
        }
        let flat = reading(&app, ws[2]);
        assert!(flat.punctured && flat.pressure == 0.0 && (flat.grip - c.rim_grip).abs() < 1e-6);
        app.world_mut().trigger(FitTyres { entity: car });
        run(&mut app, steps(3.0, hz));
        let o = output(&app, ws[2]);
        let height = o.center.y - o.hit.unwrap().point.y;
        assert!((height - r).abs() < 1e-3 && !reading(&app, ws[2]).punctured, "{height}");
    }
}

/// The road car cruising at 120 km/h on its summer tyres until they settle (heat
/// capacities a fiftieth, window open, as the circle above): each tyre's gauge
/// pressure within 2 % of the network's steady state of its own mean heat in (the
/// rolling resistance's power at speed, the carcass' hysteresis, the tread's share of
/// the sliding power) against the conductances at its speed, load and pressure, the gas
/// at the carcass' temperature; and the rise over the cold 230 kPa inside the 10–45 kPa
/// that tyre makers' pressure guides give for a warm road tyre (an estimate of theirs:
/// 0.1–0.45 bar); the carcass' rise within 1 % of the closed form's. At 30, 60 and
/// 240 Hz. Checked to fail: with the rolling resistance's speed term left out of the
/// heat it puts in (the force keeping it) the carcass reads +29.24 K against +30.62.
#[test]
fn the_road_cars_tyres_settle_at_120_kmh_at_the_networks_hot_pressure() {
    let settings = quick_tyres("road");
    let weather = Weather::default();
    let v = 120.0 / 3.6;
    for hz in [30.0, 60.0, 240.0] {
        let (mut app, car) = on_flat(&settings, hz);
        run(&mut app, steps(1.0, hz));
        launch_in_gear(&mut app, car, v);
        let ws = wheel_list(&app, car);
        let (seconds, avg) = (40.0, 8.0);
        let mut sums = vec![HeatSums::default(); ws.len()];
        let total = steps(seconds, hz);
        let mut integral = 0.0f32;
        for i in 0..total {
            let speed = velocity(&app, car).dot(rotation(&app, car) * Vec3::NEG_Z);
            integral = (integral + (v - speed) / hz as f32).clamp(-1.0, 1.0);
            set_controls(&mut app, car, |c| {
                c.steer = 0.0;
                c.throttle = (0.3 + 0.5 * (v - speed) + 0.5 * integral).clamp(0.0, 1.0);
                c.brake = 0.0;
            });
            app.update();
            if i >= total - steps(avg, hz) {
                for (k, w) in ws.iter().enumerate() {
                    sums[k].add(&app, *w, settings.axles[k / 2].wheel.radius());
                }
            }
        }
        let speed = velocity(&app, car).length();
        for (k, w) in ws.iter().enumerate() {
            let [slide, rolling, _, _, deformation] = sums[k].mean();
            let c = *app.world().get::<WheelCollider>(*w).unwrap().0.compound().unwrap();
            let t = reading(&app, *w);
            let [_, xc] = sums[k].steady_rise(&app, *w, &weather);
            // The gas settles at the carcass' temperature: the ideal gas at it.
            let gas = TyreState {
                gas: weather.air as f64 + xc,
                fitted: true,
                ..TyreState::fitted(&c, weather.air)
            };
            let expected = gas.pressure(&c);
            let rise = t.pressure - c.cold_pressure;
            println!(
                "measured {hz} Hz wheel {k} at {speed:.2} m/s: {rolling:.0} W rolling, {deformation:.1} W hysteresis, {slide:.1} W sliding; carcass +{:.2} K (closed form +{xc:.2}), {:.1} kPa (closed form {expected:.1}), +{rise:.1} kPa over cold",
                t.carcass - weather.air,
                t.pressure
            );
            let carcass = (t.carcass - weather.air) as f64;
            assert!(
                (carcass / xc - 1.0).abs() < 0.01,
                "{hz} Hz wheel {k}: carcass +{carcass} vs +{xc}"
            );
            assert!(
                (t.pressure as f64 / expected - 1.0).abs() < 0.02,
                "{hz} Hz wheel {k}: {} vs {expected}",
                t.pressure
            );
            assert!((10.0..=45.0).contains(&rise), "{hz} Hz wheel {k}: +{rise} kPa");
        }
    }
}

/// A punctured front-left tyre drags: its rolling resistance is the rim's
/// (`rim_rolling` × the tyre's coefficient at speed × its load, within 1 %), and the
/// road car coasting at 15 m/s with the wheel held straight yaws towards the flat
/// (left) where the same car on four good tyres runs straight (under 0.2° in 3 s). At
/// 30, 60 and 240 Hz. Checked to fail: with the flat's rolling resistance the tyre's own
/// it reads 35.2 N against 352.3.
#[test]
fn a_flat_tyre_drags_and_the_car_pulls_towards_it() {
    let settings = preset_with("road", SweepType::Ray);
    for hz in [30.0, 60.0, 240.0] {
        let mut heading = [0.0f32; 2];
        for (i, flat) in [false, true].into_iter().enumerate() {
            let (mut app, car) = on_flat(&settings, hz);
            run(&mut app, steps(1.0, hz));
            let ws = wheel_list(&app, car);
            if flat {
                app.world_mut().trigger(PunctureTyre { wheel: ws[0] });
                run(&mut app, steps(1.0, hz));
            }
            launch(&mut app, car, 15.0);
            let start = rotation(&app, car) * Vec3::NEG_Z;
            for _ in 0..steps(3.0, hz) {
                set_controls(&mut app, car, |c| (c.steer, c.throttle, c.brake) = (0.0, 0.0, 0.0));
                app.update();
            }
            let end = rotation(&app, car) * Vec3::NEG_Z;
            // Positive: turned left (counter-clockwise seen from above).
            heading[i] = start.cross(end).y.asin().to_degrees();
            if flat {
                let w = &app.world().get::<WheelCollider>(ws[0]).unwrap().0;
                let c = *w.compound().unwrap();
                let o = output(&app, ws[0]).output;
                let v = o.ground_speed as f64;
                let expected = c.rim_rolling as f64 * w.rolling_coefficient(v) * o.load as f64;
                let measured = o.rolling_resistance_force.abs() as f64;
                println!(
                    "measured {hz} Hz: flat's rolling resistance {measured:.1} N at {:.0} N (closed form {expected:.1})",
                    o.load
                );
                assert!((measured / expected - 1.0).abs() < 0.01, "{measured} vs {expected}");
            }
        }
        println!(
            "measured {hz} Hz: heading after 3 s coasting from 15 m/s: {:.2}° on good tyres, {:.2}° with the front left flat",
            heading[0], heading[1]
        );
        assert!(heading[0].abs() < 0.2, "{hz} Hz: good tyres turned {}", heading[0]);
        assert!(heading[1] > 0.5, "{hz} Hz: the flat car turned {}", heading[1]);
    }
}

/// The pressure's effect on the longitudinal slip stiffness in the car: the road car
/// braking steadily from 20 m/s at a quarter pedal (0.3 g, ABS off), once on tyres at
/// their nominal 230 kPa and once 20 % under-inflated (peak grip kept: the pressure's
/// grip term off). The same braking force at slips in the ratio of the stiffness law,
/// `κ_under / κ_nominal = 1 / (1 + a·dp + b·dp²)` (a −1.0, b 0.5: the curve's B scaled,
/// so the ratio holds at any force), for the front and the rear axle within 3 % (5 %
/// asked). At 30, 60 and 240 Hz. Checked to fail: with one gain for both directions
/// (the old +0.4) the under-inflated fronts read 1.09× the nominal's slip where 0.82×
/// is due.
#[test]
fn under_inflated_tyres_brake_at_more_slip_by_the_stiffness_law() {
    let run_at = |hz: f64, under: bool| {
        let mut s = preset("road");
        s.brakes.abs = false;
        for a in &mut s.axles {
            let mut c = *a.wheel.compound().unwrap();
            c.pressure_grip = 0.0;
            c.window_loss = 0.0;
            if under {
                c.cold_pressure = 0.8 * c.nominal_pressure;
            }
            a.wheel.set_compound(Some(c)).unwrap();
        }
        let (mut app, car) = on_flat(&s, hz);
        run(&mut app, steps(1.0, hz));
        launch(&mut app, car, 20.0);
        let ws = wheel_list(&app, car);
        let mut sums = [[0.0f64; 3]; 2];
        for i in 0..steps(1.5, hz) {
            set_controls(&mut app, car, |c| (c.steer, c.throttle, c.brake) = (0.0, 0.0, 0.25));
            app.update();
            if i >= steps(0.5, hz) {
                for (k, w) in ws.iter().enumerate() {
                    let o = output(&app, *w).output;
                    let s = &mut sums[k / 2];
                    s[0] += o.forward_slip as f64;
                    s[1] += o.forward_force as f64;
                    s[2] += reading(&app, *w).pressure as f64;
                }
            }
        }
        sums
    };
    for hz in [30.0, 60.0, 240.0] {
        let (nominal, under) = (run_at(hz, false), run_at(hz, true));
        for axle in 0..2 {
            let dp = under[axle][2] / nominal[axle][2] - 1.0;
            let law = 1.0 / (1.0 - dp + 0.5 * dp * dp);
            let slip = under[axle][0] / nominal[axle][0];
            let force = under[axle][1] / nominal[axle][1];
            println!(
                "measured {hz} Hz axle {axle}: dp {dp:+.3}; slip × {slip:.4} (law {law:.4}) at force × {force:.4}"
            );
            assert!((force - 1.0).abs() < 0.01, "{hz} Hz axle {axle}: force × {force}");
            assert!(
                (slip / law - 1.0).abs() < 0.03,
                "{hz} Hz axle {axle}: slip × {slip} vs {law}"
            );
        }
    }
}
