//! What the vehicles' sound costs the audio thread: one second of the mix rendered for
//! 1, 8 and 16 cars, each at full activity (the engine at 5 000 rpm on full throttle,
//! four tyres squealing on gravel, wind at 40 m/s), for each engine layout, against
//! the empty mix (no car: the limiter alone) in the same run.
//!
//! ```sh
//! cargo bench -p wheelcollider_bench --bench audio
//! ```
//!
//! Method: each case renders [`ROUNDS`] seconds of 48 kHz stereo, one second a round;
//! its figure is the median round. The cost per car is (N cars − empty) / N, in
//! milliseconds of one core per second of sound: 10 ms is 1 % of a core.
use std::sync::{Arc, Mutex};
use std::time::Instant;

use wheelcollider_audio::{EngineInput, GroundSound, MixControl, Mixer, TyreInput, lock};
use wheelcollider_core::vehicle::{EngineLayout, EngineSettings};

const ROUNDS: usize = 7;
const RATE: u32 = 48_000;

/// A mixer with `cars` cars of `engine`, all at full activity.
fn mixer(cars: usize, engine: &EngineSettings) -> Mixer {
    let control = Arc::new(Mutex::new(MixControl::default()));
    {
        let mut c = lock(&control);
        c.begin_frame();
        for k in 0..cars as u64 {
            let car = c.car(k, engine);
            car.engine = EngineInput {
                rpm: 5000.0,
                throttle: 1.0,
                load: 1.0,
                limiter: false,
                running: true,
            };
            car.tyres = vec![
                TyreInput {
                    grounded: true,
                    skid: 0.6,
                    slip_speed: 5.0,
                    rolling_speed: 20.0,
                    ground: GroundSound::GRAVEL
                };
                4
            ];
            car.speed = 40.0;
        }
        c.end_frame();
    }
    Mixer::new(control, RATE)
}

/// Median time (ms) to render one second.
fn median_second(mixer: &mut Mixer) -> f64 {
    let mut out = vec![0.0f32; 2 * RATE as usize];
    mixer.render(&mut out); // warm: voices built, smoothers settled
    let mut times: Vec<f64> = (0..ROUNDS)
        .map(|_| {
            let t = Instant::now();
            mixer.render(&mut out);
            std::hint::black_box(&out);
            t.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[ROUNDS / 2]
}

fn main() {
    let engines = [
        ("inline four", EngineSettings::default()),
        (
            "flat four",
            EngineSettings {
                layout: EngineLayout::Flat,
                ..Default::default()
            },
        ),
        (
            "cross-plane V8",
            EngineSettings {
                cylinders: 8,
                layout: EngineLayout::CrossPlaneV8,
                ..Default::default()
            },
        ),
        (
            "two-stroke single",
            EngineSettings {
                cylinders: 1,
                strokes: 2,
                redline_rpm: 14_000.0,
                ..Default::default()
            },
        ),
    ];
    let empty = median_second(&mut mixer(0, &EngineSettings::default()));
    println!("empty mix: {empty:.2} ms per second of sound");
    println!(
        "{:<18} {:>6} {:>12} {:>14}",
        "engine", "cars", "ms / s", "ms / s per car"
    );
    for (name, engine) in &engines {
        for cars in [1, 8, 16] {
            let t = median_second(&mut mixer(cars, engine));
            println!("{name:<18} {cars:>6} {t:>12.2} {:>14.2}", (t - empty) / cars as f64);
        }
    }
}
