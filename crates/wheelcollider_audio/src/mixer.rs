//! The mix of every car heard: a control the game writes once per frame
//! ([`MixControl`], shared behind a mutex), and the [`Mixer`] that owns the synths and
//! renders interleaved stereo wherever the samples are wanted (the audio device's
//! thread, a WAV file, a test).
//!
//! The game thread holds the lock only to copy a few numbers per car; the mixer holds
//! it only to copy them out, once per block of [`BLOCK_FRAMES`]. The synths'
//! work happens outside the lock. A car that the control no longer lists fades out
//! over 50 ms and is dropped at −60 dB (within 0.35 s); a new one fades in. The sum goes through a soft limiter
//! ([`soft_limit`]), so the output stays within ±1.

use std::sync::{Arc, Mutex, MutexGuard};

use wheelcollider_core::vehicle::EngineSettings;

use crate::car::{CarInput, CarSynth, Placement, Volumes};
use crate::dsp::{Smoother, soft_limit};

/// Frames rendered between two reads of the control (5.3 ms at 48 kHz).
pub const BLOCK_FRAMES: usize = 256;
/// Impacts kept waiting for a mixer that does not read them (none attached).
const MAX_PENDING_IMPACTS: usize = 64;

/// One car as the control lists it.
#[derive(Clone, Debug)]
struct CarSlot {
    key: u64,
    engine: EngineSettings,
    /// Bumped when the engine changes, so that the mixer rebuilds the car's synth.
    generation: u64,
    input: CarInput,
    heard: bool,
}

/// What the game tells the mixer: the cars to hear, what each is doing, the impacts
/// since the last block, and the volumes.
#[derive(Clone, Debug, Default)]
pub struct MixControl {
    /// The volumes.
    pub volumes: Volumes,
    /// Silence everything (faded over 50 ms).
    pub muted: bool,
    cars: Vec<CarSlot>,
    impacts: Vec<(u64, f32)>,
    generation: u64,
}

impl MixControl {
    /// Starts a frame: every car is unheard until [`MixControl::car`] lists it again.
    pub fn begin_frame(&mut self) {
        for c in &mut self.cars {
            c.heard = false;
        }
    }

    /// The input of the car `key` (any number unique to the car, an entity's bits)
    /// with `engine`, listed as heard this frame; a new car is added, a changed engine
    /// rebuilds its synth.
    pub fn car(&mut self, key: u64, engine: &EngineSettings) -> &mut CarInput {
        let i = match self.cars.iter().position(|c| c.key == key) {
            Some(i) => i,
            None => {
                self.generation += 1;
                self.cars.push(CarSlot {
                    key,
                    engine: engine.clone(),
                    generation: self.generation,
                    input: CarInput::default(),
                    heard: true,
                });
                self.cars.len() - 1
            }
        };
        let slot = &mut self.cars[i];
        if slot.engine != *engine {
            self.generation += 1;
            slot.engine = engine.clone();
            slot.generation = self.generation;
        }
        slot.heard = true;
        &mut slot.input
    }

    /// Ends a frame: the cars not listed since [`MixControl::begin_frame`] go (and fade
    /// out).
    pub fn end_frame(&mut self) {
        self.cars.retain(|c| c.heard);
    }

    /// The cars listed, by key.
    pub fn keys(&self) -> impl Iterator<Item = u64> + '_ {
        self.cars.iter().map(|c| c.key)
    }

    /// The impacts no mixer has taken yet: (car key, impact speed m/s).
    pub fn pending_impacts(&self) -> &[(u64, f32)] {
        &self.impacts
    }

    /// A thump for the car `key`, for an impact at `speed` (m/s). Kept until a mixer
    /// takes it (the last 64 at most).
    pub fn impact(&mut self, key: u64, speed: f32) {
        if self.impacts.len() >= MAX_PENDING_IMPACTS {
            self.impacts.remove(0);
        }
        self.impacts.push((key, speed));
    }
}

/// The shared control: clone it into the game and into one [`Mixer`].
pub type SharedControl = Arc<Mutex<MixControl>>;

/// The control, locked; a panic elsewhere while it was held leaves it usable.
pub fn lock(control: &SharedControl) -> MutexGuard<'_, MixControl> {
    control.lock().unwrap_or_else(|e| e.into_inner())
}

struct MixedCar {
    key: u64,
    generation: u64,
    synth: CarSynth,
    input: CarInput,
    listed: bool,
}

/// Renders the controlled mix as interleaved stereo at its sample rate.
pub struct Mixer {
    control: SharedControl,
    sample_rate: f32,
    cars: Vec<MixedCar>,
    volumes: Volumes,
    muted: bool,
    master: Smoother,
    left: Vec<f32>,
    right: Vec<f32>,
    /// Frames of the present block not yet handed out.
    cursor: usize,
    peak: f32,
}

impl Mixer {
    /// A mixer on `control` at `sample_rate` (Hz, clamped to 8 000 ..= 192 000).
    pub fn new(control: SharedControl, sample_rate: u32) -> Self {
        let fs = sample_rate.clamp(8_000, 192_000) as f32;
        Self {
            control,
            sample_rate: fs,
            cars: Vec::new(),
            volumes: Volumes::default(),
            muted: false,
            master: Smoother::new(0.0, 0.05, fs),
            left: vec![0.0; BLOCK_FRAMES],
            right: vec![0.0; BLOCK_FRAMES],
            cursor: BLOCK_FRAMES,
            peak: 0.0,
        }
    }

    /// The sample rate (Hz).
    pub fn sample_rate(&self) -> u32 {
        self.sample_rate as u32
    }

    /// Cars being rendered (those listed, and those fading out).
    pub fn cars(&self) -> usize {
        self.cars.len()
    }

    /// The largest magnitude of the mix before the soft limiter since the last call,
    /// reset to 0: how much headroom the cars leave.
    pub fn take_peak(&mut self) -> f32 {
        std::mem::take(&mut self.peak)
    }

    /// Copies the control out: new cars, changed engines, inputs, impacts, volumes.
    fn sync(&mut self) {
        let mut c = lock(&self.control);
        self.volumes = c.volumes.sanitized();
        self.muted = c.muted;
        for v in &mut self.cars {
            v.listed = false;
        }
        for slot in &c.cars {
            let i = match self.cars.iter().position(|v| v.key == slot.key) {
                Some(i) if self.cars[i].generation == slot.generation => i,
                found => {
                    let seed = (slot.key ^ (slot.key >> 32)) as u32;
                    let car = MixedCar {
                        key: slot.key,
                        generation: slot.generation,
                        synth: CarSynth::new(&slot.engine, self.sample_rate, seed),
                        input: CarInput::default(),
                        listed: true,
                    };
                    match found {
                        Some(i) => {
                            self.cars[i] = car;
                            i
                        }
                        None => {
                            self.cars.push(car);
                            self.cars.len() - 1
                        }
                    }
                }
            };
            let v = &mut self.cars[i];
            v.input.clone_from(&slot.input);
            v.listed = true;
        }
        for (key, speed) in c.impacts.drain(..) {
            if let Some(v) = self.cars.iter_mut().find(|v| v.key == key) {
                v.synth.impact(speed);
            }
        }
        drop(c);
        for v in &mut self.cars {
            if !v.listed {
                v.input.placement = Placement {
                    gain: 0.0,
                    ..v.input.placement
                };
            }
        }
        // A car faded below −60 dB is dropped.
        self.cars.retain(|v| v.listed || v.synth.gain() > 1e-3);
    }

    fn render_block(&mut self) {
        self.sync();
        self.left.fill(0.0);
        self.right.fill(0.0);
        for v in &mut self.cars {
            v.synth.render(&v.input, &self.volumes, &mut self.left, &mut self.right);
        }
        let target = if self.muted { 0.0 } else { self.volumes.master };
        for (l, r) in self.left.iter_mut().zip(self.right.iter_mut()) {
            let m = self.master.next(target);
            self.peak = self.peak.max((m * *l).abs()).max((m * *r).abs());
            *l = soft_limit(m * *l);
            *r = soft_limit(m * *r);
        }
        self.cursor = 0;
    }

    /// Fills `out` with interleaved stereo frames (left, right, left, …; an odd
    /// length leaves its last sample at 0).
    pub fn render(&mut self, out: &mut [f32]) {
        for frame in out.chunks_mut(2) {
            if frame.len() < 2 {
                frame[0] = 0.0;
                break;
            }
            let (l, r) = self.next_frame();
            frame[0] = l;
            frame[1] = r;
        }
    }

    /// The next stereo frame.
    #[inline]
    pub fn next_frame(&mut self) -> (f32, f32) {
        if self.cursor == BLOCK_FRAMES {
            self.render_block();
        }
        let i = self.cursor;
        self.cursor += 1;
        (self.left[i], self.right[i])
    }
}
