//! Static friction: a braked corner holds on a slope without drift; without the
//! effective masses the slip model alone creeps; past μ it slides.
use crate::common;
use common::*;
use wheelcollider_core::*;

const M: f64 = 300.0;
const COMPRESSION: f32 = 0.09; // load 3 600 N

/// A corner of mass `M` on a slope: `g_x`, `g_y` are gravity's components along the
/// wheel's forward and sideways directions (m/s²). Returns the position history.
fn slope(g_x: f64, g_y: f64, brake: f32, tell_masses: bool, dt: f32, seconds: f32) -> Vec<(f64, f64)> {
    let settings = WheelSettings::default();
    let mut state = StepState {
        compression: COMPRESSION,
        ..Default::default()
    };
    let (mut vx, mut vy, mut x, mut y) = (0.0f64, 0.0f64, 0.0f64, 0.0f64);
    let mass = if tell_masses { M as f32 } else { 0.0 };
    let mut path = Vec::new();
    for _ in 0..(seconds / dt) as usize {
        let contact = Contact {
            forward_mass: mass,
            sideways_mass: mass,
            ..contact(0.4 - COMPRESSION, vx as f32, vy as f32)
        };
        let out = step(
            &settings,
            &mut state,
            StepInput {
                input: WheelInput {
                    brake_torque: brake,
                    ..Default::default()
                },
                contact: Some(contact),
                ..Default::default()
            },
            dt,
        );
        vx += (out.forward_force as f64 / M + g_x) * dt as f64;
        vy += (out.sideways_force as f64 / M + g_y) * dt as f64;
        x += vx * dt as f64;
        y += vy * dt as f64;
        path.push((x, y));
    }
    path
}

#[test]
fn braked_corner_holds_on_20_degree_slope_without_drift() {
    // 20° slope, pointing 30° off the fall line: gravity has both components.
    let gs = G * 20f64.to_radians().sin();
    let (gx, gy) = (-gs * 30f64.to_radians().cos(), -gs * 30f64.to_radians().sin());
    for dt in STEPS {
        let path = slope(gx, gy, 3000.0, true, dt, 12.0);
        let settled = path[(2.0 / dt) as usize];
        let end = *path.last().unwrap();
        let drift = (end.0 - settled.0).hypot(end.1 - settled.1);
        assert!(drift < 1e-6, "dt {dt}: drift {drift} m over 10 s");
        // The patch offset is the Baumgarte spring's: millimetres, not a slide.
        assert!(end.0.hypot(end.1) < 0.02, "dt {dt}: moved {end:?}");
    }
}

/// Without the masses the tyre is viscous at rest and creeps: v = g·sinθ·m·10 / (B·C·D·load).
#[test]
fn slip_model_alone_creeps() {
    let gx = -G * 10f64.to_radians().sin();
    let path = slope(gx, 0.0, 3000.0, false, 1.0 / 60.0, 12.0);
    let creep = (path.last().unwrap().0 - path[120].0) / 10.0;
    let expected = gx * M * 10.0 / (24.75 * 3600.0);
    assert!(
        (creep - expected).abs() < 0.02 * expected.abs(),
        "creep {creep} vs {expected} m/s"
    );
}

/// Steeper than the friction can hold (tan θ > μ·load/(m·g)): the corner slides at the
/// sliding-friction deceleration.
#[test]
fn slides_past_the_friction_limit() {
    let limit = 1.5 * 3600.0 / M; // μ·N/m = 18 m/s²
    let path = slope(-(limit + 2.0), 0.0, 3000.0, true, 1.0 / 60.0, 3.0);
    let x = path.last().unwrap().0;
    assert!(x < -1.0, "slid {x} m");
}

/// An unbraked wheel rolls down: static friction never holds a rolling wheel's
/// forward direction (only rolling resistance does).
#[test]
fn unbraked_wheel_rolls() {
    let gx = -G * 10f64.to_radians().sin();
    let path = slope(gx, 0.0, 0.0, true, 1.0 / 60.0, 3.0);
    // a = g sinθ less rolling resistance and wheel inertia: roughly ½·a·t² ≈ 7 m.
    assert!(path.last().unwrap().0 < -3.0, "{:?}", path.last());
}
