//! The engine's voice.

use wheelcollider_audio::{EngineInput, EngineVoice};
use wheelcollider_core::vehicle::{EngineLayout, EngineSettings};

use crate::common::*;

/// An engine with `cylinders`, `strokes` and `layout`, idling at 800 rpm, limited at
/// 7 000.
fn engine(cylinders: u32, strokes: u32, layout: EngineLayout) -> EngineSettings {
    EngineSettings {
        cylinders,
        strokes,
        layout,
        idle_rpm: 800.0,
        redline_rpm: 7000.0,
        ..Default::default()
    }
}

fn input(rpm: f32, throttle: f32) -> EngineInput {
    EngineInput {
        rpm,
        throttle,
        load: throttle,
        limiter: false,
        running: true,
    }
}

/// `seconds` of the voice at a steady `input`, after 0.3 s to settle.
fn render(voice: &mut EngineVoice, input: &EngineInput, seconds: f32) -> Vec<f32> {
    let mut settle = vec![0.0; (0.3 * FS) as usize];
    voice.render(input, 1.0, &mut settle);
    let mut out = vec![0.0; (seconds * FS) as usize];
    voice.render(input, 1.0, &mut out);
    out
}

/// The note's fundamental is the firing frequency `rpm · cylinders / 120` within 1 %
/// from idle to the limiter, for 1, 4 and 8 cylinders (four-stroke, evenly firing).
#[test]
fn fundamental_is_the_firing_frequency() {
    for cylinders in [1, 4, 8] {
        let settings = engine(cylinders, 4, EngineLayout::Inline);
        for rpm in [800.0, 1500.0, 3000.0, 4500.0, 6000.0, 6950.0] {
            let mut voice = EngineVoice::new(&settings, FS, 7);
            let x = render(&mut voice, &input(rpm, 0.5), 1.0);
            let expected = rpm * cylinders as f32 / 120.0;
            let f = fundamental(&x, 0.6 * expected, 2.5 * expected);
            let error = (f / expected - 1.0).abs();
            println!(
                "{cylinders} cyl at {rpm} rpm: {f:.2} Hz, expected {expected:.2} ({:.3} %)",
                100.0 * error
            );
            assert!(
                error < 0.01,
                "{cylinders} cylinders at {rpm} rpm: {f} Hz, expected {expected}"
            );
        }
    }
}

/// A two-stroke fires every revolution: a single's note is `rpm / 60` (the kart).
#[test]
fn two_stroke_fires_every_revolution() {
    let settings = engine(1, 2, EngineLayout::Inline);
    for rpm in [2500.0, 8000.0, 13_000.0] {
        let mut voice = EngineVoice::new(
            &EngineSettings {
                redline_rpm: 14_000.0,
                ..settings.clone()
            },
            FS,
            3,
        );
        let x = render(&mut voice, &input(rpm, 0.7), 1.0);
        let expected = rpm / 60.0;
        let f = fundamental(&x, 0.6 * expected, 2.5 * expected);
        println!("two-stroke single at {rpm} rpm: {f:.2} Hz, expected {expected:.2}");
        assert!((f / expected - 1.0).abs() < 0.01, "{rpm} rpm: {f} Hz");
        assert!((settings.firing_frequency(rpm) / expected - 1.0).abs() < 1e-6);
    }
}

/// At a fixed rpm, loudness (RMS) and brightness (spectral centroid) rise with the
/// throttle, step by step.
#[test]
fn loudness_and_centroid_rise_with_throttle() {
    let settings = engine(4, 4, EngineLayout::Inline);
    for rpm in [1500.0, 4000.0, 6500.0] {
        let mut last = (f32::MIN, 0.0);
        for throttle in [0.0, 0.25, 0.5, 0.75, 1.0] {
            let mut voice = EngineVoice::new(&settings, FS, 11);
            let x = render(&mut voice, &input(rpm, throttle), 0.7);
            let (level, c) = (decibels(rms(&x)), centroid(&x));
            println!("{rpm} rpm, throttle {throttle}: {level:.1} dBFS, centroid {c:.0} Hz");
            assert!(
                level > last.0 + 0.5,
                "{rpm} rpm: louder with throttle {throttle}? {level} after {}",
                last.0
            );
            assert!(
                c > last.1 * 1.02,
                "{rpm} rpm: brighter with throttle {throttle}? {c} Hz after {}",
                last.1
            );
            last = (level, c);
        }
    }
}

fn decibels(v: f32) -> f32 {
    wheelcollider_audio::dsp::decibels(v)
}

/// An rpm step from 3 000 to 6 000 (a shift's blip, the limiter) makes no
/// sample-to-sample jump larger than the steady 6 000 rpm note's (within 1 %): the
/// harmonics share one phase, which the step does not reset.
#[test]
fn rpm_step_does_not_click() {
    let settings = engine(4, 4, EngineLayout::Inline);
    let mut steady = EngineVoice::new(&settings, FS, 5);
    // Closed throttle: the note alone, no intake noise to blur the comparison.
    let steady_step = max_step(&render(&mut steady, &input(6000.0, 0.0), 0.5));
    let mut voice = EngineVoice::new(&settings, FS, 5);
    render(&mut voice, &input(3000.0, 0.0), 0.2);
    let mut jump = vec![0.0; (0.5 * FS) as usize];
    voice.render(&input(6000.0, 0.0), 1.0, &mut jump);
    let jump_step = max_step(&jump);
    println!("largest step: {jump_step:.4} through the jump, {steady_step:.4} steady at 6 000 rpm");
    // Within 1 %: after the jump the note is the steady one, met at another phase.
    assert!(
        jump_step <= 1.01 * steady_step,
        "the jump clicks: {jump_step} > {steady_step}"
    );
}

/// The characters: an evenly firing inline four has nothing at half its firing
/// frequency; a boxer with unequal headers rumbles there, and a cross-plane V8
/// burbles at its cycle frequency (rpm / 120), each within 6–30 dB of its firing
/// line.
#[test]
fn layouts_have_their_characters() {
    let rpm = 3000.0;
    let cases = [
        (4, EngineLayout::Inline, 2.0 * rpm / 120.0, None),
        (4, EngineLayout::Flat, 2.0 * rpm / 120.0, Some((-30.0, -6.0))),
        (8, EngineLayout::CrossPlaneV8, rpm / 120.0, Some((-30.0, -6.0))),
    ];
    for (cylinders, layout, sub, band) in cases {
        let mut voice = EngineVoice::new(&engine(cylinders, 4, layout), FS, 9);
        let x = render(&mut voice, &input(rpm, 0.6), 1.0);
        let firing = amplitude_at(&x, rpm * cylinders as f32 / 120.0);
        let below = 20.0 * (amplitude_at(&x, sub) / firing).log10();
        println!("{layout:?}: {sub} Hz at {below:.1} dB of the firing line");
        match band {
            None => assert!(below < -40.0, "{layout:?}: {below} dB"),
            Some((lo, hi)) => assert!((lo..=hi).contains(&below), "{layout:?}: {below} dB"),
        }
    }
}

/// A stalled engine falls silent; at the limiter the engine crackles: the cut adds
/// bursts (the difference from the same voice without the cut: at least a fifth of the
/// note's RMS, present in 10–90 % of 5 ms windows).
#[test]
fn stall_silences_and_limiter_crackles() {
    let settings = engine(4, 4, EngineLayout::Inline);
    let mut voice = EngineVoice::new(&settings, FS, 13);
    let off = EngineInput {
        running: false,
        ..input(800.0, 0.0)
    };
    let x = render(&mut voice, &off, 0.5);
    assert!(decibels(rms(&x)) < -80.0, "stalled: {} dBFS", decibels(rms(&x)));
    let note = |limiter| {
        let mut voice = EngineVoice::new(&settings, FS, 13);
        let i = EngineInput {
            limiter,
            throttle: 0.0,
            load: -0.2,
            ..input(6950.0, 0.0)
        };
        render(&mut voice, &i, 1.0)
    };
    let (cut, clean) = (note(true), note(false));
    let pops: Vec<f32> = cut.iter().zip(&clean).map(|(a, b)| a - b).collect();
    let (level, note_level) = (rms(&pops), rms(&clean));
    let window = (0.005 * FS) as usize;
    let windows = pops.chunks(window).count() as f32;
    let busy = pops.chunks(window).filter(|w| rms(w) > 0.1 * note_level).count() as f32 / windows;
    println!(
        "crackle: {:.1} dB of the note, in {:.0} % of 5 ms windows",
        20.0 * (level / note_level).log10(),
        100.0 * busy
    );
    assert!(level > 0.2 * note_level && (0.1..0.9).contains(&busy));
}
