//! The mixer: cars coming and going, volumes, mute, the limiter, the WAV.

use std::sync::{Arc, Mutex};

use wheelcollider_audio::dsp::decibels;
use wheelcollider_audio::wav::write_wav;
use wheelcollider_audio::{EngineInput, GearboxInput, GroundSound, MixControl, Mixer, Placement, TyreInput, lock};
use wheelcollider_core::vehicle::EngineSettings;

use crate::common::*;

fn mix() -> (Arc<Mutex<MixControl>>, Mixer) {
    let control = Arc::new(Mutex::new(MixControl::default()));
    let mixer = Mixer::new(control.clone(), FS as u32);
    (control, mixer)
}

/// Lists the cars `keys`, each idling at `rpm` with the throttle closed (the note
/// alone: no intake noise to blur a comparison of steps).
fn list(control: &Arc<Mutex<MixControl>>, keys: &[u64], rpm: f32) {
    let mut c = lock(control);
    c.begin_frame();
    for &k in keys {
        c.car(k, &EngineSettings::default()).engine = EngineInput {
            rpm,
            throttle: 0.0,
            load: 0.0,
            limiter: false,
            running: true,
        };
    }
    c.end_frame();
}

fn left(mixer: &mut Mixer, seconds: f32) -> Vec<f32> {
    let mut x = vec![0.0; 2 * (seconds * FS) as usize];
    mixer.render(&mut x);
    x.iter().step_by(2).copied().collect()
}

/// A car that appears or goes fades in and out (no step larger than the steady
/// note's), and a car gone is dropped after its fade.
#[test]
fn cars_come_and_go_without_clicks() {
    let (control, mut mixer) = mix();
    list(&control, &[1], 3000.0);
    let steady = {
        left(&mut mixer, 0.5);
        max_step(&left(&mut mixer, 0.5))
    };
    list(&control, &[], 3000.0);
    let gone = left(&mut mixer, 0.5);
    assert!(
        max_step(&gone) <= steady,
        "the car's end clicks: {} > {steady}",
        max_step(&gone)
    );
    assert_eq!(mixer.cars(), 0, "a car gone is dropped");
    assert!(
        decibels(rms(&gone[(0.4 * FS) as usize..])) < -100.0,
        "silent after 0.4 s"
    );
    list(&control, &[2], 3000.0);
    let fresh = left(&mut mixer, 0.2);
    assert!(
        max_step(&fresh) <= steady,
        "a new car clicks in: {} > {steady}",
        max_step(&fresh)
    );
}

/// Muting silences the mix (below −70 dBFS) within 0.3 s; the master volume scales it (−6 dB for half);
/// a changed engine rebuilds the voice.
#[test]
fn mute_master_and_engine_change() {
    let (control, mut mixer) = mix();
    list(&control, &[1], 3000.0);
    let full = rms(&left(&mut mixer, 0.6)[(0.3 * FS) as usize..]);
    lock(&control).volumes.master *= 0.5;
    let half = rms(&left(&mut mixer, 0.6)[(0.3 * FS) as usize..]);
    let ratio = decibels(half) - decibels(full);
    assert!((ratio + 6.02).abs() < 0.5, "half the master: {ratio} dB");
    lock(&control).muted = true;
    let muted = left(&mut mixer, 0.6);
    let level = decibels(rms(&muted[(0.3 * FS) as usize..]));
    assert!(level < -70.0, "muted: {level} dBFS");
    let mut c = lock(&control);
    c.muted = false;
    c.begin_frame();
    let v8 = EngineSettings {
        cylinders: 8,
        ..Default::default()
    };
    c.car(1, &v8).engine = EngineInput {
        rpm: 3000.0,
        throttle: 0.5,
        load: 0.5,
        limiter: false,
        running: true,
    };
    c.end_frame();
    drop(c);
    let x = left(&mut mixer, 1.0);
    let f = fundamental(&x[(0.3 * FS) as usize..], 120.0, 500.0);
    assert!((f / 200.0 - 1.0).abs() < 0.01, "the V8's note: {f} Hz");
}

/// Twenty cars at full power on one spot stay within ±1 (the soft limiter), and the
/// peak before the limiter is reported.
#[test]
fn many_cars_stay_within_one() {
    let (control, mut mixer) = mix();
    let keys: Vec<u64> = (0..20).collect();
    {
        let mut c = lock(&control);
        c.begin_frame();
        for &k in &keys {
            c.car(k, &EngineSettings::default()).engine = EngineInput {
                rpm: 6500.0,
                throttle: 1.0,
                load: 1.0,
                limiter: true,
                running: true,
            };
            c.impact(k, 20.0);
        }
        c.end_frame();
    }
    let mut x = vec![0.0; 2 * FS as usize];
    mixer.render(&mut x);
    let peak = mixer.take_peak();
    println!(
        "20 cars: peak before the limiter {peak:.2}, after {:.3}",
        x.iter().fold(0.0f32, |m, v| m.max(v.abs()))
    );
    assert!(peak > 1.0, "the test should drive the limiter");
    assert!(x.iter().all(|v| v.is_finite() && v.abs() <= 1.0));
}

/// Non-finite inputs and placements give silence, never a NaN, and leave no voice
/// poisoned: with good inputs again the car sounds as a car that never had them does
/// (within 1 dB). The limiter maps a NaN to 0, so the recovery is what shows that every
/// voice kept its state sane.
#[test]
fn bad_input_is_silent_not_nan() {
    let set = |control: &std::sync::Arc<Mutex<MixControl>>, bad: bool| {
        let nan = if bad { f32::NAN } else { 1.0 };
        let mut c = lock(control);
        c.begin_frame();
        let car = c.car(1, &EngineSettings::default());
        car.engine = EngineInput {
            rpm: if bad { f32::NAN } else { 3000.0 },
            throttle: if bad { f32::INFINITY } else { 0.5 },
            load: 0.5 * nan,
            limiter: bad,
            running: true,
        };
        car.gearbox = GearboxInput {
            shaft_rpm: 1000.0 * nan,
            load: nan,
            reverse: false,
        };
        let tyre = TyreInput {
            grounded: true,
            skid: 0.5 * nan,
            slip_speed: 3.0 * nan,
            rolling_speed: 20.0 * nan,
            ground: GroundSound {
                rumble: nan,
                ..GroundSound::ASPHALT
            },
        };
        car.tyres = vec![tyre; 4];
        car.speed = 30.0 * nan;
        c.volumes.engine = nan;
        c.impact(1, 5.0 * nan);
        c.end_frame();
    };
    let (clean, mut reference) = mix();
    set(&clean, false);
    left(&mut reference, 0.5);
    let expected = decibels(rms(&left(&mut reference, 0.5)));
    let (control, mut mixer) = mix();
    set(&control, true);
    let bad = left(&mut mixer, 0.5);
    assert!(bad.iter().all(|v| v.is_finite()));
    set(&control, false);
    left(&mut mixer, 0.5);
    let level = decibels(rms(&left(&mut mixer, 0.5)));
    println!("after NaN and infinite inputs, good inputs sound at {level:.1} dBFS; never bad: {expected:.1}");
    assert!(
        (level - expected).abs() < 1.0,
        "a voice stayed poisoned: {level} dBFS, not {expected}"
    );
    // A non-finite placement is silence.
    {
        let mut c = lock(&control);
        c.begin_frame();
        c.car(1, &EngineSettings::default()).placement = Placement {
            gain: f32::NAN,
            pan: f32::INFINITY,
        };
        c.end_frame();
    }
    let x = left(&mut mixer, 0.5);
    assert!(x.iter().all(|v| v.is_finite()));
}

/// The WAV is 44 bytes of header and 4 bytes a frame, its samples the mix's.
#[test]
fn wav_layout() {
    let mut bytes = Vec::new();
    write_wav(&mut bytes, &[0.5, -0.5, 1.0, -2.0], 48_000).unwrap();
    assert_eq!(bytes.len(), 44 + 8);
    assert_eq!(&bytes[..4], b"RIFF");
    assert_eq!(u32::from_le_bytes(bytes[24..28].try_into().unwrap()), 48_000);
    let samples: Vec<i16> = bytes[44..]
        .chunks(2)
        .map(|b| i16::from_le_bytes([b[0], b[1]]))
        .collect();
    assert_eq!(samples, [16384, -16384, 32767, -32767]);
}
