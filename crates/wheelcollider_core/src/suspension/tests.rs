//! Unit tests of the implicit suspension solve (the module's private parts).

use super::*;

/// One corner's row under gravity: compression `x`, speed `u`, spring `k`, damping
/// `c` both ways, travel `length`.
fn corner_row(x: f64, u: f64, k: f32, c: f32, length: f32) -> SuspensionRow {
    SuspensionRow {
        compression: x as f32,
        speed: u as f32,
        free_acceleration: 9.81,
        stiffness: k,
        bump_damping: c,
        rebound_damping: c,
        length,
        ..Default::default()
    }
}

/// One corner of `m` kg on its spring, integrated as the physics engine does (a
/// constant force over the step: u' = u + dt·(g − F/m), x' = x + dt·(u + u')/2).
fn corner(m: f64, k: f32, c: f32, hz: f64, seconds: f64, x0: f64) -> Vec<f64> {
    let h = 1.0 / hz;
    let (mut x, mut u) = (x0, 0.0);
    let mut xs = Vec::new();
    let mut out = [SuspensionForce::default()];
    for _ in 0..(seconds * hz) as usize {
        let row = corner_row(x, u, k, c, 1.0e3);
        solve(&[row], &[1.0 / m], h as f32, &mut out);
        let u1 = u + h * (9.81 - out[0].total as f64 / m);
        x += h * (u + u1) / 2.0;
        u = u1;
        xs.push(x);
    }
    xs
}

#[test]
fn sag_is_mg_over_k_at_every_rate_and_stiffness() {
    for hz in [30.0, 60.0, 240.0] {
        for k in [1.0e4f32, 4.0e4, 1.0e6, 1.0e7] {
            let xs = corner(300.0, k, 2000.0, hz, 20.0, 0.0);
            let sag = 300.0 * 9.81 / k as f64;
            let x = *xs.last().unwrap();
            assert!((x - sag).abs() / sag < 1e-3, "{hz} Hz k {k}: {x} vs {sag}");
        }
    }
}

/// Frequency and damping ratio at 60 Hz from the free oscillation: within 1 %.
#[test]
fn frequency_and_damping_ratio_at_60_hz() {
    let (m, k, c) = (300.0f64, 40_000.0f64, 2_000.0f64);
    let sag = m * 9.81 / k;
    let xs = corner(m, k as f32, c as f32, 60.0, 3.0, sag + 0.05);
    let d: Vec<f64> = xs.iter().map(|x| x - sag).collect();
    // Sub-step peak times by parabolic interpolation.
    let peaks: Vec<(f64, f64)> = (1..d.len() - 1)
        .filter(|&i| d[i] > d[i - 1] && d[i] >= d[i + 1])
        .map(|i| {
            let (a, b, cc) = (d[i - 1], d[i], d[i + 1]);
            let off = 0.5 * (a - cc) / (a - 2.0 * b + cc);
            (i as f64 + off, b - 0.25 * (a - cc) * off)
        })
        .collect();
    let zeta = c / (2.0 * (k * m).sqrt());
    let fd = (k / m).sqrt() / std::f64::consts::TAU * (1.0 - zeta * zeta).sqrt();
    let period = (peaks[1].0 - peaks[0].0) / 60.0;
    let delta = (peaks[0].1 / peaks[1].1).ln();
    let z = delta / (4.0 * std::f64::consts::PI.powi(2) + delta * delta).sqrt();
    assert!((1.0 / period - fd).abs() / fd < 0.01, "f {} vs {fd}", 1.0 / period);
    assert!((z - zeta).abs() / zeta < 0.03, "ζ {z} vs {zeta}");
}

/// A corner landing at 3 m/s on springs and dampers from soft to rigid, at 30 to
/// 240 Hz: it never leaves faster than it came (no energy from the solve), never
/// compresses more than an undamped soft spring would, and comes to rest at its sag.
#[test]
fn stiff_springs_and_dampers_never_gain_energy() {
    let m = 300.0;
    for hz in [30.0, 60.0, 240.0] {
        let h = 1.0 / hz;
        for k in [1.0e4f32, 1.0e6, 1.0e7, 1.0e9] {
            for c in [0.0f32, 1.0e4, 1.0e6] {
                let sag = m * 9.81 / k as f64;
                let (mut x, mut u) = (sag, 3.0f64);
                let mut out = [SuspensionForce::default()];
                let mut fastest_out = 0.0f64;
                for _ in 0..(5.0 * hz) as usize {
                    let row = corner_row(x, u, k, c, 1.0e3);
                    solve(&[row], &[1.0 / m], h as f32, &mut out);
                    let u1 = u + h * (9.81 - out[0].total as f64 / m);
                    x += h * (u + u1) / 2.0;
                    u = u1;
                    assert!(
                        x.is_finite() && x < 1.02 * 3.0 * (m / 1.0e4).sqrt() + sag,
                        "{hz} Hz k {k} c {c}: x {x}"
                    );
                    if x >= 0.0 {
                        fastest_out = fastest_out.max(-u);
                    }
                }
                let what = format!("{hz} Hz k {k} c {c}");
                assert!(
                    fastest_out <= 1.01 * 3.0 + 9.81 * h,
                    "{what}: left at {fastest_out} m/s"
                );
                // Settled where damped and not so overdamped that it creeps (c/k: the
                // creep's time constant).
                if c > 0.0 && c / k < 0.5 {
                    assert!((x - sag).abs() <= 0.01 * sag + 1e-6, "{what}: x {x} vs {sag}");
                }
            }
        }
    }
}

/// A spring offset keeps the force where it was: a spring made 100 times stiffer at
/// rest, with the offset that keeps its force, holds the corner still.
#[test]
fn the_spring_offset_keeps_the_force() {
    let (m, k0, k1) = (300.0f64, 4.0e4f32, 4.0e6f32);
    let x = m * 9.81 / k0 as f64;
    let row = SuspensionRow {
        compression: x as f32,
        free_acceleration: 9.81,
        stiffness: k1,
        bump_damping: 2000.0,
        rebound_damping: 2000.0,
        length: 1.0,
        spring_offset: (x * (1.0 - (k0 / k1) as f64)) as f32,
        ..Default::default()
    };
    let mut out = [SuspensionForce::default()];
    solve(&[row], &[1.0 / m], 1.0 / 60.0, &mut out);
    assert!((out[0].total as f64 - m * 9.81).abs() < 0.01 * m * 9.81, "{:?}", out[0]);
}

/// A corner resting on its bump stop (spring too soft to hold it): the stop carries
/// the rest, the tyre's load is the whole force.
#[test]
fn resting_on_the_bump_stop_the_tyre_carries_the_whole_force() {
    let (m, k, length) = (300.0f64, 5_000.0f32, 0.1f32);
    let h = 1.0 / 60.0;
    let (mut x, mut u) = (0.0f64, 0.0f64);
    let mut out = [SuspensionForce::default()];
    for _ in 0..600 {
        let row = corner_row(x, u, k, 1000.0, length);
        solve(&[row], &[1.0 / m], h as f32, &mut out);
        let u1 = u + h * (9.81 - out[0].total as f64 / m);
        x += h * (u + u1) / 2.0;
        u = u1;
    }
    let o = out[0];
    assert!((x - length as f64).abs() < 1e-3, "x {x}");
    assert!((o.total as f64 - m * 9.81).abs() < 0.01 * m * 9.81, "{o:?}");
    assert!((o.tyre_load - o.total).abs() < 0.01 * o.total, "{o:?}");
    assert!((o.spring + o.damper + o.bump_stop - o.total).abs() < 1.0, "{o:?}");
}

/// A corner resting on its bump stop (its spring alone holds two thirds of the weight)
/// over ground that rises into it at 1.9 m/s, a rise its speed reading does not show: the
/// ground ahead of a front wheel inside a 30 m loop at 43 m/s. Told the smaller of the
/// last two steps' rise (as the plugin does once the rise has lasted), the stop holds the
/// travel within 1 mm at every rate (the stop's 1 % compliance: 0.65 mm at 30 Hz) and
/// carries the weight (the corner then climbs at the ground's speed, so the mean force
/// is m·g, within 1 %). Without it the stop reached the travel by the speed alone and
/// sank by the rise every step; its push-out, capped at 0.5 m/s, fell behind by
/// 1.4 m/s (4.2 m past the stop after 3 s at 30 Hz).
#[test]
fn the_bump_stop_keeps_up_with_ground_rising_into_it() {
    let (m, k, length, rise_speed) = (300.0f64, 20_000.0f32, 0.1f32, 1.9f64);
    for hz in [30.0, 60.0, 240.0] {
        let h = 1.0 / hz;
        let (mut x, mut u) = (length as f64, 0.0f64);
        let (mut gain, mut last_gain) = (0.0f64, 0.0f64);
        let (mut deepest, mut impulse, mut seconds) = (0.0f64, 0.0f64, 0.0f64);
        let mut out = [SuspensionForce::default()];
        for i in 0..(3.0 * hz) as usize {
            let row = SuspensionRow {
                ground_rise: gain.min(last_gain).max(0.0) as f32,
                ..corner_row(x, u, k, 2_000.0, length)
            };
            solve(&[row], &[1.0 / m], h as f32, &mut out);
            let u1 = u + h * (9.81 - out[0].total as f64 / m);
            let expected = x + h * (u + u1) / 2.0;
            x = expected + rise_speed * h;
            (last_gain, gain, u) = (gain, x - expected, u1);
            if i as f64 * h > 1.0 {
                deepest = deepest.max(x - length as f64);
                impulse += out[0].total as f64 * h;
                seconds += h;
            }
        }
        let weight = impulse / seconds / (m * 9.81);
        println!(
            "{hz} Hz: deepest {:.2} mm past the stop, mean force {weight:.4} × the weight",
            deepest * 1e3
        );
        assert!(deepest < 1e-3, "{hz} Hz: {deepest} m past the stop");
        assert!((weight - 1.0).abs() < 0.01, "{hz} Hz: {weight} × the weight");
    }
}

/// An anti-roll bar between two corners of one rigid axle: it only moves load.
#[test]
fn an_anti_roll_bar_adds_no_net_force() {
    let mk = |x: f32, partner: usize| SuspensionRow {
        compression: x,
        stiffness: 30_000.0,
        length: 1.0,
        anti_roll: Some((partner, 20_000.0)),
        ..Default::default()
    };
    let rows = [mk(0.03, 1), mk(0.05, 0)];
    let kinv = [1.0 / 600.0, 1.0 / 1200.0, 1.0 / 1200.0, 1.0 / 600.0];
    let mut out = [SuspensionForce::default(); 2];
    solve(&rows, &kinv, 1.0 / 60.0, &mut out);
    assert!((out[0].anti_roll + out[1].anti_roll).abs() < 1e-3, "{out:?}");
    assert!(out[1].anti_roll > 0.0);
}
