//! The tyre in the car (#50).
use crate::common;

use avian3d::prelude::*;
use bevy::prelude::*;
use common::*;
use wheelcollider_avian::prelude::*;

fn input(app: &mut App, car: Entity, f: impl FnOnce(&mut VehicleInput)) {
    f(&mut app.world_mut().get_mut::<VehicleInput>(car).unwrap());
}

fn wheels(app: &App, car: Entity) -> Vec<(Entity, VehicleWheel)> {
    app.world()
        .get::<ChassisWheels>(car)
        .unwrap()
        .wheels()
        .iter()
        .map(|&w| (w, *app.world().get::<VehicleWheel>(w).unwrap()))
        .collect()
}

/// Holds `car` on a steady left circle at `v` (m/s) and `ay` (m/s²) for `seconds`,
/// steering on the yaw rate and holding the speed; returns, averaged over the last
/// `avg` seconds, per wheel: (load, geometric tan α, sideways force, camber).
fn circle(settings: &VehicleSettings, hz: f64, v: f32, ay: f32, seconds: f64, avg: f64) -> Vec<[f64; 4]> {
    let (mut app, car) = on_flat(settings, hz);
    run(&mut app, steps(1.0, hz));
    launch(&mut app, car, v);
    let ws = wheels(&app, car);
    let mut sums = vec![[0.0f64; 4]; ws.len()];
    let mut n = 0;
    let (mut steer, total) = (0.0f32, steps(seconds, hz));
    for i in 0..total {
        let r = app.world().get::<AngularVelocity>(car).unwrap().0.y;
        let fwd = rotation(&app, car) * Vec3::NEG_Z;
        let speed = velocity(&app, car).dot(fwd);
        let target = ay / v;
        steer = (steer + 2.0 * (target - r) / hz as f32 * 10.0).clamp(-1.0, 1.0);
        let e = v - speed;
        input(&mut app, car, |i| {
            i.steer = steer + 3.0 * (target - r);
            i.throttle = (0.15 + 0.5 * e).clamp(0.0, 1.0);
            i.brake = 0.0;
        });
        app.update();
        if i >= total - steps(avg, hz) {
            n += 1;
            for (k, (w, _)) in ws.iter().enumerate() {
                let o = state(&app, *w);
                sums[k][0] += o.output.load as f64;
                sums[k][1] += o.output.sideways_slip as f64;
                sums[k][2] += o.output.sideways_force as f64;
                sums[k][3] += o.output.camber as f64;
            }
        }
    }
    let speed = velocity(&app, car).length();
    let r = app.world().get::<AngularVelocity>(car).unwrap().0.y;
    println!("  v {speed:.2} ay {:.3}", speed * r);
    sums.iter().map(|s| s.map(|x| x / n as f64)).collect()
}

#[test]
fn probe_circle() {
    let s = preset("road");
    let rear = &s.axles[1].wheel;
    for v in [3.0, 5.0, 10.0, 20.0, 30.0] {
        let w = circle(&s, 60.0, v, 0.2 * 9.81, 12.0, 3.0);
        for k in 2..4 {
            let [load, slip, fy, camber] = w[k];
            let c = rear.cornering_stiffness(load);
            println!(
                "v {v} wheel {k}: load {load:.0} slip {slip:.5} fy {fy:.1} camber {camber:.2} fy/α {:.0} C {c:.0}",
                fy / slip.atan()
            );
        }
        let (f, a): (f64, f64) = (w[2][2] + w[3][2], w[2][1].atan() * rear.cornering_stiffness(w[2][0]) + w[3][1].atan() * rear.cornering_stiffness(w[3][0]));
        println!("v {v}: rear sum fy {f:.1} Cα sum {a:.1} ratio {:.3}", f / a);
    }
}

#[test]
fn probe_spin_trace() {
    let settings = preset("gt86");
    let hz = 60.0;
    let (mut app, car) = on_flat(&settings, hz);
    run(&mut app, steps(1.0, hz));
    launch(&mut app, car, 20.0 / 3.6);
    app.world_mut().get_mut::<AngularVelocity>(car).unwrap().0 = Vec3::Y * 3.0;
    app.world_mut().get_mut::<VehicleInput>(car).unwrap().0.handbrake = 1.0;
    let ws = wheels(&app, car);
    let mut p0 = None;
    for i in 0..steps(3.0, hz) {
        run(&mut app, 1);
        let v = velocity(&app, car);
        let rot = rotation(&app, car);
        let side = v.dot(rot * Vec3::X);
        let roll = app.world().get::<AngularVelocity>(car).unwrap().0.dot(rot * Vec3::Z);
        if v.length() < 0.05 && p0.is_none() { p0 = Some(position(&app, car)); }
        if i % 3 == 0 && i > 50 {
            let s: Vec<String> = ws.iter().map(|(w, _)| { let o = state(&app, *w); format!("{:.3}/{:.0}/{:.2}", o.output.transient_sideways_slip, o.output.sideways_force, o.output.static_friction) }).collect();
            println!("t {:.2} |v| {:.3} side {side:.3} roll {roll:.3} d {:.4} {}", i as f64 / hz, v.length(), p0.map(|p| (position(&app, car) - p).length()).unwrap_or(0.0), s.join(" "));
        }
    }
}
