//! Signal statistics: crossings, means, RMS, least-squares lines, the extremes of a
//! decaying oscillation and the damping ratio they give.

/// Time (s) at which `values` first reaches `level` (rising), linearly interpolated.
pub(crate) fn crossing(time: &[f32], values: &[f32], level: f32) -> Option<f32> {
    (1..values.len()).find_map(|i| {
        let (a, b) = (values[i - 1], values[i]);
        (a < level && b >= level).then(|| time[i - 1] + (time[i] - time[i - 1]) * (level - a) / (b - a))
    })
}

pub(crate) fn mean(v: &[f32]) -> f32 {
    if v.is_empty() {
        return 0.0;
    }
    v.iter().sum::<f32>() / v.len() as f32
}

pub(crate) fn rms(v: &[f32]) -> f32 {
    if v.is_empty() {
        return 0.0;
    }
    (v.iter().map(|x| x * x).sum::<f32>() / v.len() as f32).sqrt()
}

pub(crate) fn max_abs(v: &[f32]) -> f32 {
    v.iter().fold(0.0f32, |m, x| m.max(x.abs()))
}

/// Least-squares line through (x, y): (slope, intercept).
pub(crate) fn fit_line(points: &[(f32, f32)]) -> Option<(f32, f32)> {
    let n = points.len() as f64;
    if n < 3.0 {
        return None;
    }
    let (sx, sy) = points
        .iter()
        .fold((0.0, 0.0), |(a, b), &(x, y)| (a + x as f64, b + y as f64));
    let (mx, my) = (sx / n, sy / n);
    let (sxx, sxy) = points.iter().fold((0.0, 0.0), |(a, b), &(x, y)| {
        let dx = x as f64 - mx;
        (a + dx * dx, b + dx * (y as f64 - my))
    });
    if sxx <= 1e-12 {
        return None;
    }
    let slope = sxy / sxx;
    Some((slope as f32, (my - slope * mx) as f32))
}

/// The extremes of a decaying oscillation `x` (deviation from rest): their times and
/// values, refined with a parabola through the three samples around each.
pub(crate) fn extremes(time: &[f32], x: &[f32]) -> Vec<(f32, f32)> {
    let mut out = vec![];
    for i in 1..x.len().saturating_sub(1) {
        let (a, b, c) = (x[i - 1], x[i], x[i + 1]);
        let is_max = b > a && b >= c;
        let is_min = b < a && b <= c;
        if !(is_max || is_min) {
            continue;
        }
        let den = a - 2.0 * b + c;
        let off = if den.abs() > 1e-12 { 0.5 * (a - c) / den } else { 0.0 };
        let dt = time[i + 1] - time[i];
        out.push((time[i] + off * dt, b - 0.25 * (a - c) * off));
    }
    out
}

/// Damping ratio from the ratio of two successive (opposite-sign) extremes, half a
/// damped period apart.
pub(crate) fn half_cycle_damping(x1: f32, x2: f32) -> f32 {
    let delta = (x1.abs() / x2.abs().max(1e-9)).ln();
    delta / (std::f32::consts::PI.powi(2) + delta * delta).sqrt()
}

/// The RMS of `v` about its least-squares straight line (over the sample index): what
/// is left of a signal once its drift is taken out.
pub(crate) fn rms_about_line(v: &[f32]) -> f32 {
    let n = v.len();
    if n < 2 {
        return 0.0;
    }
    let points: Vec<(f32, f32)> = v.iter().enumerate().map(|(i, &y)| (i as f32, y)).collect();
    let Some((slope, intercept)) = fit_line(&points) else {
        return rms(v);
    };
    let residual: Vec<f32> = points.iter().map(|&(x, y)| y - slope * x - intercept).collect();
    rms(&residual)
}
