//! The tyres', gearbox's, wind's, impacts' and belts' voices.

use wheelcollider_audio::dsp::decibels;
use wheelcollider_audio::{
    GearboxInput, GearboxVoice, GroundSound, ImpactVoice, TrackInput, TrackVoice, TyreGains, TyreInput, TyreVoice,
    WindVoice,
};

use crate::common::*;

fn squeal_rms(skid: f32, slip_speed: f32) -> f32 {
    let mut voice = TyreVoice::new(FS, 21);
    let input = TyreInput {
        grounded: true,
        skid,
        slip_speed,
        rolling_speed: 15.0,
        ground: GroundSound::ASPHALT,
    };
    let gains = TyreGains { squeal: 1.0, road: 0.0 };
    let mut settle = vec![0.0; (0.2 * FS) as usize];
    voice.render(&input, gains, &mut settle);
    let mut x = vec![0.0; (0.5 * FS) as usize];
    voice.render(&input, gains, &mut x);
    rms(&x)
}

/// At zero skid intensity the squeal is silent (below −60 dBFS; in fact exactly 0),
/// however fast the tread slips.
#[test]
fn squeal_silent_without_skid() {
    for slip in [0.0, 2.0, 10.0] {
        let rms = squeal_rms(0.0, slip);
        let level = decibels(rms);
        println!("skid 0, slip {slip} m/s: {level:.1} dBFS");
        assert!(level < -60.0, "slip {slip}: {level} dBFS");
        assert_eq!(rms, 0.0, "slip {slip}: not silence");
    }
}

/// The squeal rises monotonically with the skid intensity, from −60 dB at 0.01 to
/// about −20 dBFS at 1.
#[test]
fn squeal_rises_with_skid() {
    let mut last = -200.0;
    for skid in [0.01, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0] {
        let level = decibels(squeal_rms(skid, 4.0));
        println!("skid {skid}: {level:.1} dBFS");
        assert!(level > last + 1.0, "skid {skid}: {level} after {last}");
        last = level;
    }
    assert!((-30.0..-10.0).contains(&last), "full squeal at {last} dBFS");
}

/// Grass does not squeal; gravel crunches: its road noise has more peaks (a higher
/// crest factor) than asphalt's hiss at the same speed.
#[test]
fn grounds_sound_different() {
    let render = |ground: GroundSound, skid: f32, gains: TyreGains| {
        let mut voice = TyreVoice::new(FS, 5);
        let input = TyreInput {
            grounded: true,
            skid,
            slip_speed: 5.0,
            rolling_speed: 15.0,
            ground,
        };
        let mut x = vec![0.0; FS as usize];
        voice.render(&input, gains, &mut x);
        x[(0.2 * FS) as usize..].to_vec()
    };
    let grass = render(GroundSound::GRASS, 1.0, TyreGains { squeal: 1.0, road: 0.0 });
    assert!(
        decibels(rms(&grass)) < -60.0,
        "grass squeals at {}",
        decibels(rms(&grass))
    );
    let road = TyreGains { squeal: 0.0, road: 1.0 };
    let crest = |x: &[f32]| x.iter().fold(0.0f32, |m, v| m.max(v.abs())) / rms(x);
    let (gravel, asphalt) = (
        render(GroundSound::GRAVEL, 0.0, road),
        render(GroundSound::ASPHALT, 0.0, road),
    );
    println!(
        "crest factor: gravel {:.1}, asphalt {:.1}",
        crest(&gravel),
        crest(&asphalt)
    );
    assert!(crest(&gravel) > 1.3 * crest(&asphalt));
}

/// The gearbox whines at the output shaft's speed × 27 teeth; reverse (straight-cut,
/// 17 teeth) whines louder.
#[test]
fn reverse_whines_louder() {
    let render = |reverse| {
        let mut voice = GearboxVoice::new(FS);
        let input = GearboxInput {
            shaft_rpm: 2000.0,
            load: 0.5,
            reverse,
        };
        let mut x = vec![0.0; FS as usize];
        voice.render(&input, 1.0, &mut x);
        x[(0.3 * FS) as usize..].to_vec()
    };
    let (forward, reverse) = (render(false), render(true));
    let f_forward = fundamental(&forward, 500.0, 2000.0);
    println!(
        "forward whine {f_forward:.1} Hz at {:.1} dBFS, reverse {:.1} dBFS",
        decibels(rms(&forward)),
        decibels(rms(&reverse))
    );
    assert!((f_forward / (2000.0 / 60.0 * 27.0) - 1.0).abs() < 0.01);
    assert!(decibels(rms(&reverse)) > decibels(rms(&forward)) + 10.0);
}

/// The wind's amplitude is ∝ v²: doubling the speed raises its level by 12 dB (± 1.5).
#[test]
fn wind_follows_v2() {
    let level = |v: f32| {
        let mut voice = WindVoice::new(FS, 3);
        let mut x = vec![0.0; (1.5 * FS) as usize];
        voice.render(v, 1.0, &mut x);
        decibels(rms(&x[(0.5 * FS) as usize..]))
    };
    let (slow, fast) = (level(20.0), level(40.0));
    println!("wind at 20 m/s {slow:.1} dBFS, at 40 m/s {fast:.1} dBFS");
    assert!((fast - slow - 12.04).abs() < 1.5, "{} dB", fast - slow);
    assert!(WindVoice::amplitude(f32::NAN) == 0.0 && WindVoice::amplitude(1e9) == 2.0);
}

/// A harder impact thumps louder; one below 0.3 m/s is silent; the thump dies away
/// within 1.2 s.
#[test]
fn impact_louder_with_speed() {
    let level = |speed: f32| {
        let mut voice = ImpactVoice::new(FS, 1);
        voice.trigger(speed);
        let mut x = vec![0.0; (1.5 * FS) as usize];
        voice.render(1.0, &mut x);
        let tail = rms(&x[(1.3 * FS) as usize..]);
        (decibels(rms(&x[..(0.3 * FS) as usize])), tail)
    };
    let mut last = -200.0;
    for speed in [0.5, 2.0, 4.0, 8.0] {
        let (l, tail) = level(speed);
        println!("impact at {speed} m/s: {l:.1} dBFS");
        assert!(l > last + 2.0 && tail == 0.0, "{speed} m/s: {l} dBFS, tail {tail}");
        last = l;
    }
    assert!(level(0.2).0 < -150.0);
}

/// A belt at `speed` (m/s) on 0.15 m links for a second: the RMS of its last half and
/// its strikes.
fn clatter(speed: f32) -> (f32, u64) {
    let mut voice = TrackVoice::new(FS, 7);
    let input = TrackInput {
        speed,
        link_pitch: 0.15,
    };
    let mut out = vec![0.0; FS as usize];
    voice.render(&input, 1.0, &mut out);
    (rms(&out[FS as usize / 2..]), voice.strikes())
}

#[test]
fn clatter_silent_at_rest() {
    assert_eq!(clatter(0.0), (0.0, 0));
}

/// At 3 m/s on 0.15 m links, a second holds 20 strikes (±1 for where it starts).
/// Checked that it fails with the rate read as `speed·pitch`: 0 strikes.
#[test]
fn clatter_strikes_once_a_link() {
    let (_, strikes) = clatter(3.0);
    assert!((19..=21).contains(&strikes), "{strikes}");
}

/// Louder at 4 m/s than at a walk (0.5 m/s) by more than half again, and within range.
#[test]
fn clatter_louder_with_speed() {
    let (slow, _) = clatter(0.5);
    let (fast, _) = clatter(4.0);
    println!("measured: belt clatter RMS {slow:.4} at 0.5 m/s, {fast:.4} at 4 m/s");
    assert!(slow > 0.0 && fast > 1.5 * slow, "{slow} {fast}");
    assert!(fast < 0.5, "{fast}");
}
