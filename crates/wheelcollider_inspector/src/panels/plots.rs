//! The Plots and Telemetry tabs: `plots` draws one plot per function, in the order egui
//! draws them.

use bevy::prelude::*;
use bevy_egui::egui;
use egui_plot::{HLine, Legend, Line, Plot, PlotPoints, Points, VLine};
use wheelcollider_avian::prelude::*;
use wheelcollider_avian::vehicle::VehicleRuntime;

use super::*;
use crate::InspectorState;

/// One of the tyre-curve plots: each axle's curve as set (diamond: its peak) and each
/// wheel's operating point, |transient slip| against |force| / load in that direction.
fn tyre_plot(ui: &mut egui::Ui, settings: &VehicleSettings, live: &Live, lateral: bool, id: &str) {
    Plot::new(id).height(150.0).legend(Legend::default()).show(ui, |p| {
        for (a, axle) in settings.axles.iter().enumerate() {
            let mf = if lateral {
                axle.wheel.lateral_tyre()
            } else {
                axle.wheel.longitudinal_tyre()
            };
            let pts: PlotPoints = (0..=200)
                .map(|i| {
                    let s = i as f64 / 200.0;
                    [s, mf.eval(s as f32) as f64]
                })
                .collect();
            p.line(Line::new(format!("axle {a}"), pts));
            p.points(
                Points::new(
                    format!("peak {a}"),
                    vec![[mf.peak_slip() as f64, mf.peak_value() as f64]],
                )
                .radius(5.0)
                .shape(egui_plot::MarkerShape::Diamond),
            );
        }
        for (i, _, o) in live {
            if o.load > 1.0 {
                let (slip, force) = if lateral {
                    (o.transient_sideways_slip, o.sideways_force)
                } else {
                    (o.transient_forward_slip, o.forward_force)
                };
                p.points(
                    Points::new(wheel_name(*i), vec![[slip.abs() as f64, (force / o.load).abs() as f64]])
                        .radius(4.0)
                        .color(WHEEL_COLORS[i % 6]),
                );
            }
        }
    });
}

/// Each wheel's index, settings and last output, in wheel order.
type Live = Vec<(usize, WheelSettings, wheelcollider_core::StepOutput)>;

/// The Plots tab: the tyre curves with each wheel's operating point, the friction
/// circle, the wheels' histories, the load transfer, the engine's curve and, for a
/// vehicle with a [`VehicleDriver`], the driver's plan.
pub(super) fn plots(
    ui: &mut egui::Ui,
    state: &InspectorState,
    settings: &VehicleSettings,
    telemetry: &VehicleTelemetry,
    children: &ChassisWheels,
    wheels: &Query<(&VehicleWheel, &mut WheelCollider, &WheelOutput)>,
    driver: Option<&VehicleDriver>,
) {
    let mut live: Live = vec![];
    for &w in children.wheels() {
        if let Ok((id, c, s)) = wheels.get(w) {
            live.push((VehicleSettings::wheel_index(id.axle, id.right), c.0.clone(), s.output));
        }
    }
    live.sort_by_key(|l| l.0);
    for (lateral, title, id) in [
        (
            false,
            "Longitudinal curve: μ against slip κ; dots: each wheel's transient slip and μ now",
            "tyre_x",
        ),
        (
            true,
            "Lateral curve: μ against slip σ = tan α; dots: each wheel now",
            "tyre_y",
        ),
    ] {
        ui.label(title);
        tyre_plot(ui, settings, &live, lateral, id);
    }
    friction_circle_plot(ui, settings, &live);
    history_plots(ui, state);
    engine_plot(ui, settings, telemetry);
    if let Some(plan) = driver.and_then(|d| d.plan().map(|p| (d, p))) {
        driver_plot(ui, plan, telemetry.forward_speed);
    }
}

/// A driver's plan along its path: the speed it plans at each point (m/s) against the
/// distance along the path (m), and where each braking zone starts (the plan's speed
/// turning from rising or level to falling).
pub(crate) fn plan_series(path: &wheelcollider_avian::drivers::Path) -> (Vec<[f64; 2]>, Vec<[f64; 2]>) {
    let points = path.points();
    let mut along = 0.0f64;
    let mut plan = Vec::with_capacity(points.len());
    for (i, p) in points.iter().enumerate() {
        if i > 0 {
            along += points[i - 1].distance(*p) as f64;
        }
        plan.push([along, path.speed(i) as f64]);
    }
    // A fall of more than this (m/s) from one point to the next is braking.
    const FALLING: f64 = 1e-3;
    let braking = (1..plan.len().saturating_sub(1))
        .filter(|&i| plan[i][1] - plan[i + 1][1] > FALLING && plan[i - 1][1] - plan[i][1] <= FALLING)
        .map(|i| plan[i])
        .collect();
    (plan, braking)
}

/// The Plots tab's driver plot (a vehicle with a [`VehicleDriver`]): its planned speed
/// along its path, its braking points, and where the car is now at what speed.
fn driver_plot(ui: &mut egui::Ui, (driver, path): (&VehicleDriver, &wheelcollider_avian::drivers::Path), speed: f32) {
    ui.label("Driver's plan: speed (m/s) along its path (m); diamonds: braking points; dot: the car now");
    let (plan, braking) = plan_series(path);
    let here = plan.get(driver.index).map_or(0.0, |p| p[0]);
    Plot::new("driver_plan")
        .height(150.0)
        .legend(Legend::default())
        .show(ui, |p| {
            p.line(Line::new("plan", PlotPoints::from(plan)));
            p.points(
                Points::new("braking", braking)
                    .radius(5.0)
                    .shape(egui_plot::MarkerShape::Diamond),
            );
            p.points(Points::new("car", vec![[here, speed as f64]]).radius(5.0));
            p.vline(VLine::new("here", here));
        });
}

/// The friction circle: each wheel's sideways and forward force over its load, inside
/// the circle of the highest peak μ.
fn friction_circle_plot(ui: &mut egui::Ui, settings: &VehicleSettings, live: &Live) {
    ui.label("Friction circle: sideways (x) and forward (y) force over load");
    Plot::new("circle").height(200.0).data_aspect(1.0).show(ui, |p| {
        let mu = settings
            .axles
            .iter()
            .map(|a| {
                a.wheel
                    .longitudinal_tyre()
                    .peak_value()
                    .max(a.wheel.lateral_tyre().peak_value())
            })
            .fold(0.0f32, f32::max) as f64;
        let circle: PlotPoints = (0..=64)
            .map(|i| {
                let t = i as f64 / 64.0 * std::f64::consts::TAU;
                [mu * t.cos(), mu * t.sin()]
            })
            .collect();
        p.line(Line::new("peak μ", circle));
        for (i, _, o) in live {
            if o.load > 1.0 {
                let l = o.load as f64;
                p.points(
                    Points::new(
                        wheel_name(*i),
                        vec![[o.sideways_force as f64 / l, o.forward_force as f64 / l]],
                    )
                    .radius(4.0)
                    .color(WHEEL_COLORS[i % 6]),
                );
            }
        }
    });
}

/// The wheels' recorded histories against time: compression, load, the load transfer
/// per axle with the body's roll, the slips and the aligning torque.
fn history_plots(ui: &mut egui::Ui, state: &InspectorState) {
    let t0 = state.times.front().copied().unwrap_or(0.0) as f64;
    let series = |f: &dyn Fn(&crate::WheelSample) -> f32, title: &str, id: &str, ui: &mut egui::Ui| {
        ui.label(title);
        Plot::new(id).height(110.0).legend(Legend::default()).show(ui, |p| {
            for (i, h) in state.history.iter().enumerate() {
                let pts: PlotPoints = state
                    .times
                    .iter()
                    .zip(h)
                    .map(|(t, s)| [*t as f64 - t0, f(s) as f64])
                    .collect();
                p.line(Line::new(wheel_name(i), pts).color(WHEEL_COLORS[i % 6]));
            }
        });
    };
    series(
        &|s| s.compression,
        "Suspension compression (m) against time (s)",
        "comp",
        ui,
    );
    series(&|s| s.load, "Tyre load (N)", "load", ui);
    transfer_plot(ui, state, t0);
    series(&|s| s.forward_slip, "Longitudinal slip", "fslip", ui);
    series(&|s| s.sideways_slip, "Lateral slip", "sslip", ui);
    series(
        &|s| s.aligning_torque,
        "Self-aligning torque (N·m, + turns the wheel left)",
        "mz",
        ui,
    );
}

/// Each axle's lateral load transfer, (right − left) / 2, and the body's roll, against
/// time from `t0` (s).
fn transfer_plot(ui: &mut egui::Ui, state: &InspectorState, t0: f64) {
    ui.label("Load transfer per axle (N, (right − left) / 2) and body roll (°, right axis ×1000)");
    Plot::new("transfer")
        .height(110.0)
        .legend(Legend::default())
        .show(ui, |p| {
            for (a, pair) in state.history.chunks(2).enumerate() {
                if let [left, right] = pair {
                    let pts: PlotPoints = state
                        .times
                        .iter()
                        .zip(left.iter().zip(right))
                        .map(|(t, (l, r))| [*t as f64 - t0, 0.5 * (r.load - l.load) as f64])
                        .collect();
                    p.line(Line::new(format!("axle {a}"), pts));
                }
            }
            let roll: PlotPoints = state
                .times
                .iter()
                .zip(&state.roll)
                .map(|(t, r)| [*t as f64 - t0, 1000.0 * *r as f64])
                .collect();
            p.line(Line::new("roll ×1000 (°)", roll));
        });
}

/// The engine's full-throttle torque against rpm, with the engine now.
fn engine_plot(ui: &mut egui::Ui, settings: &VehicleSettings, telemetry: &VehicleTelemetry) {
    ui.label("Engine: full-throttle torque (N·m) against rpm; line: now");
    let e = &settings.engine;
    Plot::new("engine").height(150.0).show(ui, |p| {
        let pts: PlotPoints = (0..=120)
            .map(|i| {
                let rpm = e.redline_rpm * i as f32 / 120.0;
                [rpm as f64, e.curve_torque(rpm) as f64]
            })
            .collect();
        p.line(Line::new("torque", pts));
        p.vline(VLine::new("rpm", telemetry.powertrain.engine_rpm as f64));
        p.vline(VLine::new("redline", e.redline_rpm as f64).color(egui::Color32::RED));
        p.hline(HLine::new("zero", 0.0).color(egui::Color32::DARK_GRAY));
        p.points(
            Points::new(
                "now",
                vec![[
                    telemetry.powertrain.engine_rpm as f64,
                    telemetry.powertrain.engine_torque as f64,
                ]],
            )
            .radius(5.0),
        );
    });
}

pub(super) fn telemetry_ui(
    ui: &mut egui::Ui,
    t: &VehicleTelemetry,
    runtime: &VehicleRuntime,
    children: &ChassisWheels,
    wheels: &Query<(&VehicleWheel, &mut WheelCollider, &WheelOutput)>,
) {
    let p = &t.powertrain;
    egui::Grid::new("telemetry")
        .num_columns(2)
        .striped(true)
        .show(ui, |ui| {
            let mut row = |k: &str, v: String| {
                ui.label(k);
                ui.monospace(v);
                ui.end_row();
            };
            row(
                "speed",
                format!("{:.1} km/h, {:+.2} m/s fwd", t.speed_kmh, t.forward_speed),
            );
            let stalled = if p.stalled { " (stalled)" } else { "" };
            row(
                "engine",
                format!("{:.0} rpm, {:.0} N·m{stalled}", p.engine_rpm, p.engine_torque),
            );
            let gear = match p.gear {
                -1 => "R".to_string(),
                0 => "N".to_string(),
                g => g.to_string(),
            };
            row("gear", format!("{gear}{}", if p.shifting { " (shifting)" } else { "" }));
            row("throttle / brake", format!("{:.2} / {:.2}", p.throttle, p.brake));
            row(
                "clutch",
                format!("{:.2} engaged, {:.0} N·m", p.clutch_engagement, p.clutch_torque),
            );
            row("wheel torque", format!("{:.0} N·m", p.wheel_torque));
            row("steer", format!("{:+.2}", p.steer));
            row("steering torque", format!("{:+.1} N·m", p.steering_torque));
            row("ESC brake", format!("{:.0} N·m", p.stability_brake));
            row(
                "accel long / lat",
                format!(
                    "{:+.2} / {:+.2} m/s²",
                    t.longitudinal_acceleration, t.lateral_acceleration
                ),
            );
            row("yaw rate", format!("{:+.1} °/s", t.yaw_rate.to_degrees()));
            row(
                "drag / downforce",
                format!("{:.0} N / {:.0} + {:.0} N", t.drag, t.downforce[0], t.downforce[1]),
            );
            if let Some(s) = &runtime.state {
                row("engine speed", format!("{:.1} rad/s", s.engine_speed));
            }
        });
    ui.separator();
    egui::Grid::new("wheels").num_columns(8).striped(true).show(ui, |ui| {
        for h in ["wheel", "ground", "load N", "κ", "α-slip", "Fx N", "Fy N", "comp m"] {
            ui.strong(h);
        }
        ui.end_row();
        let mut rows = vec![];
        for &w in children.wheels() {
            if let Ok((id, _, s)) = wheels.get(w) {
                rows.push((VehicleSettings::wheel_index(id.axle, id.right), s.output));
            }
        }
        rows.sort_by_key(|r| r.0);
        for (i, o) in rows {
            ui.colored_label(WHEEL_COLORS[i % 6], wheel_name(i));
            ui.label(if o.grounded { "yes" } else { "air" });
            ui.monospace(format!("{:.0}", o.load));
            ui.monospace(format!("{:+.3}", o.forward_slip));
            ui.monospace(format!("{:+.3}", o.sideways_slip));
            ui.monospace(format!("{:+.0}", o.forward_force));
            ui.monospace(format!("{:+.0}", o.sideways_force));
            ui.monospace(format!("{:.3}", o.compression));
            ui.end_row();
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use wheelcollider_avian::drivers::Path;

    /// The road car's plan at 0.7 of its grip round a stadium (100 m straights, 40 m
    /// bends, points 2 m apart): the series runs the lap's length, and there are two
    /// braking points, one on each straight, where the plan's speed starts to fall
    /// before a bend (none on a bend: the plan holds its bend speed there). Checked that
    /// it fails: with the level-before test left out every falling point counts (44,
    /// both braking zones' points).
    #[test]
    fn the_plan_plot_marks_one_braking_point_before_each_bend() {
        let points = wheelcollider_testing::scene::stadium(100.0, 40.0);
        let settings = VehicleSettings::preset("road").unwrap();
        let path = Path::new(points, true, 100.0).with_plan(&settings, 0.7, 5, (0.0, false));
        let (plan, braking) = plan_series(&path);
        let bend = std::f64::consts::PI * 40.0;
        let lap = 200.0 + 2.0 * bend;
        assert!(
            (plan.last().unwrap()[0] - lap).abs() < 3.0,
            "{}",
            plan.last().unwrap()[0]
        );
        assert_eq!(braking.len(), 2, "{braking:?}");
        let straights = [(0.0, 100.0), (100.0 + bend, 200.0 + bend)];
        for (b, (from, to)) in braking.iter().zip(straights) {
            assert!(
                b[0] > from && b[0] < to,
                "a braking point at {} m, not on the straight {from}..{to}",
                b[0]
            );
        }
    }
}
