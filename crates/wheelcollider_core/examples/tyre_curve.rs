//! Writes the default tyre curve, its peak and its linear slope as an SVG on stdout:
//! `cargo run -p wheelcollider_core --example tyre_curve > docs/img/tyre_curve.svg`.
use std::fmt::Write;
use wheelcollider_core::MagicFormula;

fn main() {
    let mf = MagicFormula::default();
    let (w, h, pad) = (720.0, 400.0, 56.0);
    let (s_max, mu_max) = (1.0f32, 1.7f32);
    let x = |s: f32| pad + s / s_max * (w - 2.0 * pad);
    let y = |mu: f32| h - pad - mu / mu_max * (h - 2.0 * pad);
    let mut svg = String::new();
    writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="13">"#
    )
    .unwrap();
    writeln!(svg, r#"<rect width="100%" height="100%" fill="white"/>"#).unwrap();
    // Grid and axes.
    for i in 0..=10 {
        let s = i as f32 * 0.1;
        writeln!(svg, r##"<line x1="{0}" y1="{1}" x2="{0}" y2="{2}" stroke="#ddd"/><text x="{0}" y="{3}" text-anchor="middle">{4:.1}</text>"##, x(s), y(0.0), y(mu_max), y(0.0) + 18.0, s).unwrap();
    }
    for i in 0..=8 {
        let mu = i as f32 * 0.2;
        writeln!(svg, r##"<line x1="{0}" y1="{1}" x2="{2}" y2="{1}" stroke="#ddd"/><text x="{3}" y="{4}" text-anchor="end">{5:.1}</text>"##, x(0.0), y(mu), x(s_max), x(0.0) - 6.0, y(mu) + 4.0, mu).unwrap();
    }
    writeln!(
        svg,
        r#"<text x="{}" y="{}" text-anchor="middle">slip s</text>"#,
        w / 2.0,
        h - 12.0
    )
    .unwrap();
    writeln!(svg, r#"<text x="16" y="{}" transform="rotate(-90 16 {})" text-anchor="middle">friction coefficient MF(s) = force / load</text>"#, h / 2.0, h / 2.0).unwrap();
    // Linear slope B·C·D.
    let k = mf.stiffness();
    writeln!(
        svg,
        r##"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="#999" stroke-dasharray="5,4"/>"##,
        x(0.0),
        y(0.0),
        x(mu_max / k),
        y(mu_max)
    )
    .unwrap();
    // The curve.
    let mut d = String::new();
    for i in 0..=500 {
        let s = i as f32 / 500.0 * s_max;
        write!(d, "{}{:.2},{:.2} ", if i == 0 { "M" } else { "L" }, x(s), y(mf.eval(s))).unwrap();
    }
    writeln!(
        svg,
        r##"<path d="{d}" fill="none" stroke="#1565c0" stroke-width="2.5"/>"##
    )
    .unwrap();
    // Peak.
    let (ps, pv) = (mf.peak_slip(), mf.peak_value());
    writeln!(svg, r##"<circle cx="{}" cy="{}" r="5" fill="#c62828"/><text x="{}" y="{}" fill="#c62828">peak: s = {:.4}, MF = {:.3}</text>"##, x(ps), y(pv), x(ps) + 10.0, y(pv) - 10.0, ps, pv).unwrap();
    writeln!(
        svg,
        r##"<text x="{}" y="{}" fill="#555">B={} C={} D={} E={}; dashed: slope B·C·D = {:.2}</text>"##,
        x(0.3),
        y(0.35),
        mf.b(),
        mf.c(),
        mf.d(),
        mf.e(),
        k
    )
    .unwrap();
    writeln!(svg, "</svg>").unwrap();
    print!("{svg}");
}
