//! Writes the shipped road tyre's two curves (longitudinal against κ, lateral against
//! σ), their peaks, the self-aligning torque and the default single curve as an SVG on
//! stdout: `cargo run -p wheelcollider_core --example tyre_curve > docs/img/tyre_curve.svg`.
use std::fmt::Write;
use wheelcollider_core::MagicFormula;
use wheelcollider_core::vehicle::VehicleSettings;

const ROAD: &str = include_str!("../../../assets/presets/road.ron");

/// Plot geometry: slips 0..=1 across, friction coefficient 0..=1.7 up.
struct Frame {
    w: f32,
    h: f32,
    pad: f32,
}

impl Frame {
    const S_MAX: f32 = 1.0;
    const MU_MAX: f32 = 1.7;
    fn x(&self, s: f32) -> f32 {
        self.pad + s / Self::S_MAX * (self.w - 2.0 * self.pad)
    }
    fn y(&self, mu: f32) -> f32 {
        self.h - self.pad - mu / Self::MU_MAX * (self.h - 2.0 * self.pad)
    }
    fn path(&self, f: impl Fn(f32) -> f32) -> String {
        let mut d = String::new();
        for i in 0..=500 {
            let s = i as f32 / 500.0 * Self::S_MAX;
            write!(
                d,
                "{}{:.2},{:.2} ",
                if i == 0 { "M" } else { "L" },
                self.x(s),
                self.y(f(s))
            )
            .unwrap();
        }
        d
    }
    fn grid(&self, svg: &mut String) {
        for i in 0..=10 {
            let s = i as f32 * 0.1;
            writeln!(svg, r##"<line x1="{0}" y1="{1}" x2="{0}" y2="{2}" stroke="#ddd"/><text x="{0}" y="{3}" text-anchor="middle">{4:.1}</text>"##, self.x(s), self.y(0.0), self.y(Self::MU_MAX), self.y(0.0) + 18.0, s).unwrap();
        }
        for i in 0..=8 {
            let mu = i as f32 * 0.2;
            writeln!(svg, r##"<line x1="{0}" y1="{1}" x2="{2}" y2="{1}" stroke="#ddd"/><text x="{3}" y="{4}" text-anchor="end">{5:.1}</text>"##, self.x(0.0), self.y(mu), self.x(Self::S_MAX), self.x(0.0) - 6.0, self.y(mu) + 4.0, mu).unwrap();
        }
        let (w, h) = (self.w, self.h);
        writeln!(
            svg,
            r#"<text x="{}" y="{}" text-anchor="middle">slip: κ (longitudinal), σ = tan α (lateral)</text>"#,
            w / 2.0,
            h - 12.0
        )
        .unwrap();
        writeln!(svg, r#"<text x="16" y="{}" transform="rotate(-90 16 {})" text-anchor="middle">friction coefficient = force / load</text>"#, h / 2.0, h / 2.0).unwrap();
    }
}

fn curve(svg: &mut String, f: &Frame, mf: &MagicFormula, colour: &str, label: &str, row: f32) {
    // Segments, not a path: ImageMagick's SVG renderer closes an open solid path.
    for i in 0..200 {
        let (s0, s1) = (i as f32 / 200.0, (i + 1) as f32 / 200.0);
        writeln!(
            svg,
            r##"<line x1="{:.2}" y1="{:.2}" x2="{:.2}" y2="{:.2}" stroke="{colour}" stroke-width="2.5"/>"##,
            f.x(s0),
            f.y(mf.eval(s0)),
            f.x(s1),
            f.y(mf.eval(s1))
        )
        .unwrap();
    }
    let (ps, pv) = (mf.peak_slip(), mf.peak_value());
    writeln!(
        svg,
        r##"<circle cx="{}" cy="{}" r="5" fill="{colour}"/>"##,
        f.x(ps),
        f.y(pv)
    )
    .unwrap();
    writeln!(
        svg,
        r##"<text x="{}" y="{}" fill="{colour}">{label}: B {} C {} D {} E {}; slope B·C·D {:.1}, peak {:.2} at {:.3}</text>"##,
        f.x(0.25),
        f.y(row),
        mf.b(),
        mf.c(),
        mf.d(),
        mf.e(),
        mf.stiffness(),
        pv,
        ps
    )
    .unwrap();
}

fn main() {
    let road = VehicleSettings::from_ron(ROAD).expect("the road preset parses");
    let wheel = &road.axles[0].wheel;
    let f = Frame {
        w: 760.0,
        h: 420.0,
        pad: 56.0,
    };
    let mut svg = String::new();
    writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{}" height="{}" font-family="sans-serif" font-size="13">"#,
        f.w, f.h
    )
    .unwrap();
    writeln!(svg, r#"<rect width="100%" height="100%" fill="white"/>"#).unwrap();
    f.grid(&mut svg);
    let default = MagicFormula::default();
    writeln!(
        svg,
        r##"<path d="{}" fill="none" stroke="#999" stroke-width="1.5" stroke-dasharray="6,4"/>"##,
        f.path(|s| default.eval(s))
    )
    .unwrap();
    writeln!(svg, r##"<text x="{}" y="{}" fill="#777">dashed: the default single curve (WheelCollider2's), B 10 C 1.65 D 1.5 E 0.97</text>"##, f.x(0.25), f.y(1.62)).unwrap();
    curve(
        &mut svg,
        &f,
        wheel
            .longitudinal_tyre()
            .magic_formula()
            .expect("the road preset's curves are magic formulas"),
        "#1565c0",
        "road, longitudinal",
        0.5,
    );
    let lateral = wheel
        .lateral_tyre()
        .magic_formula()
        .expect("the road preset's curves are magic formulas");
    curve(&mut svg, &f, lateral, "#2e7d32", "road, lateral", 0.4);
    // The aligning torque over (trail at zero slip × load): (1 − σ/σ*)·MFy(σ).
    let (lat, t0) = (wheel.lateral_tyre(), wheel.pneumatic_trail());
    let mz = |s: f32| (1.0 - s / lat.peak_slip()).max(0.0) * lat.eval(s);
    writeln!(
        svg,
        r##"<path d="{}" fill="none" stroke="#c62828" stroke-width="2" stroke-dasharray="2,3"/>"##,
        f.path(mz)
    )
    .unwrap();
    writeln!(svg, r##"<text x="{}" y="{}" fill="#c62828">dotted: self-aligning torque / (trail {:.3} m × load): the trail falls to 0 at the lateral peak</text>"##, f.x(0.25), f.y(0.3), t0).unwrap();
    writeln!(svg, "</svg>").unwrap();
    print!("{svg}");
}
