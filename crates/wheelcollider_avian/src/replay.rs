//! Record a drive and replay it: the driver's input for every physics step, with the
//! settings and the pose the car started from. Replayed into the same world from the same
//! start, a recording gives the same trajectory bit for bit; replayed with another
//! tuning, it shows what the tuning changed on identical input.
//!
//! ```
//! use bevy::prelude::*;
//! use wheelcollider_avian::prelude::*;
//! use wheelcollider_avian::replay::{DriveRecorder, DriveRecording, DriveReplay};
//!
//! // Start recording a car that has just spawned (or been reset) at `start`:
//! fn record(mut commands: Commands, car: Single<(Entity, &Vehicle, &Transform)>) {
//!     let (e, vehicle, start) = *car;
//!     commands.entity(e).insert(DriveRecorder::new(&vehicle.0, start, 60.0));
//! }
//!
//! // Later: take `recorder.recording`, save it with `to_ron`, and replay it on a car at
//! // the same start with `DriveReplay::new(&recording)`.
//! # let _ = (DriveRecording::default(), DriveReplay::new(&DriveRecording::default()));
//! ```
//!
//! Both run in [`ReplaySystems`], after the wheels' settings are checked and before
//! the vehicle reads its input, so a replay overrides whatever the game's input systems
//! wrote, and the recorder stores exactly what the vehicle ran with.
//!
//! To replay on a car that has been driving, reset it first at the recording's start:
//! `commands.trigger(ResetVehicle { entity: car, to: Some(recording.start()) })`
//! ([`ResetVehicle`](crate::vehicle::ResetVehicle) clears the body's motion, the
//! powertrain and every wheel's state: the vehicle's first step reads the wheels' last
//! outputs). The inspector's replay does exactly this.

use std::sync::Arc;

use bevy::prelude::*;
use wheelcollider_core::vehicle::DriverInput;

#[cfg(feature = "serialize")]
use crate::vehicle::VehicleSettingsError;
use crate::vehicle::{VehicleInput, VehicleSettings, VehicleSystems};
use crate::wheel::WheelSystems;

/// A recorded drive.
#[derive(Clone, Debug, Default, PartialEq, Reflect)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serialize", serde(deny_unknown_fields))]
pub struct DriveRecording {
    /// Physics rate it was recorded at (Hz). Replaying at another rate is possible but
    /// not the same drive.
    pub hz: f64,
    /// The vehicle as it was when the recording started. (Recordings written before
    /// 0.1 name it `spec`; they still read.)
    #[cfg_attr(feature = "serialize", serde(alias = "spec"))]
    pub settings: VehicleSettings,
    /// Where the chassis started (m, world).
    pub start_position: [f32; 3],
    /// How the chassis was turned at the start (unit quaternion x, y, z, w, world).
    pub start_rotation: [f32; 4],
    /// The driver's controls, one per physics step.
    pub inputs: Vec<DriverInput>,
}

impl DriveRecording {
    /// An empty recording of `settings` starting at `start`, at `hz`.
    pub fn new(settings: &VehicleSettings, start: &Transform, hz: f64) -> Self {
        Self {
            hz,
            settings: settings.clone(),
            start_position: start.translation.to_array(),
            start_rotation: start.rotation.to_array(),
            inputs: vec![],
        }
    }

    /// The start pose as a transform.
    pub fn start(&self) -> Transform {
        Transform::from_translation(Vec3::from(self.start_position))
            .with_rotation(Quat::from_array(self.start_rotation).normalize())
    }

    /// Length of the drive (s).
    pub fn duration(&self) -> f64 {
        if self.hz > 0.0 {
            self.inputs.len() as f64 / self.hz
        } else {
            0.0
        }
    }

    /// The recording as RON text (feature `serialize`).
    #[cfg(feature = "serialize")]
    pub fn to_ron(&self) -> String {
        ron::ser::to_string_pretty(self, ron::ser::PrettyConfig::new().depth_limit(3)).expect("a recording serialises")
    }

    /// Reads a recording. A malformed file says where (line, column); a settings that does
    /// not validate names its field; a non-finite start pose, rate or input is refused
    /// (feature `serialize`).
    #[cfg(feature = "serialize")]
    pub fn from_ron(text: &str) -> Result<Self, VehicleSettingsError> {
        // Optional settings may be written bare, as a preset's are.
        let ron = ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME);
        let mut r: DriveRecording = ron.from_str(text)?;
        r.settings.validate().map_err(|e| VehicleSettingsError {
            field: format!("settings.{}", e.field),
            message: e.message,
        })?;
        let bad = |field: String, message: &str| VehicleSettingsError {
            field,
            message: message.into(),
        };
        if !(r.hz.is_finite() && r.hz > 0.0) {
            return Err(bad("hz".into(), "must be a positive number"));
        }
        if !r.start_position.iter().chain(&r.start_rotation).all(|v| v.is_finite())
            || Quat::from_array(r.start_rotation).length() < 1e-3
        {
            return Err(bad(
                "start_position / start_rotation".into(),
                "must be finite (and a rotation)",
            ));
        }
        for (i, c) in r.inputs.iter().enumerate() {
            for v in [c.throttle, c.brake, c.steer, c.handbrake, c.clutch] {
                if !v.is_finite() {
                    return Err(bad(format!("inputs[{i}]"), "must be finite"));
                }
            }
        }
        Ok(r)
    }
}

/// Put on a vehicle to record its drive: every physics step appends the controls the
/// vehicle runs with. Insert it right after the car spawned or was reset at the
/// recording's start; take `recording` when done.
#[derive(Component, Reflect, Clone, Debug, Default)]
#[reflect(Component)]
pub struct DriveRecorder {
    /// The drive so far.
    pub recording: DriveRecording,
}

impl DriveRecorder {
    /// Starts recording `settings` from `start`, at `hz` (the game's fixed physics rate).
    pub fn new(settings: &VehicleSettings, start: &Transform, hz: f64) -> Self {
        Self {
            recording: DriveRecording::new(settings, start, hz),
        }
    }
}

/// Put on a vehicle to replay a drive: every physics step the next recorded controls
/// replace its [`VehicleInput`]. Past the end, the brake is held.
#[derive(Component, Reflect, Clone, Debug)]
#[reflect(Component)]
pub struct DriveReplay {
    #[reflect(ignore)]
    inputs: Arc<[DriverInput]>,
    /// Steps replayed so far.
    pub step: usize,
}

impl DriveReplay {
    /// Replays `recording` from its first step. Put the car at
    /// [`DriveRecording::start`], at rest, first.
    pub fn new(recording: &DriveRecording) -> Self {
        Self {
            inputs: recording.inputs.clone().into(),
            step: 0,
        }
    }

    /// Steps in the recording.
    pub fn len(&self) -> usize {
        self.inputs.len()
    }

    /// Whether the recording has no steps.
    pub fn is_empty(&self) -> bool {
        self.inputs.is_empty()
    }

    /// Whether every recorded step has been replayed.
    pub fn finished(&self) -> bool {
        self.step >= self.inputs.len()
    }
}

/// Feeds the replays: before the vehicles read their input.
fn replay_inputs(mut replays: Query<(&mut DriveReplay, &mut VehicleInput)>) {
    for (mut replay, mut input) in &mut replays {
        input.0 = match replay.inputs.get(replay.step) {
            Some(&c) => c,
            None => DriverInput {
                brake: 1.0,
                ..Default::default()
            },
        };
        replay.step += 1;
    }
}

/// Records what each recording vehicle is about to run with.
fn record_inputs(mut recorders: Query<(&mut DriveRecorder, &VehicleInput)>) {
    for (mut recorder, input) in &mut recorders {
        recorder.recording.inputs.push(input.0);
    }
}

/// The replay systems' set in avian's `PhysicsSchedule`: replayed input written, then
/// recorded; after [`WheelSystems::Prepare`], before [`VehicleSystems::Drive`].
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ReplaySystems;

/// Record and replay of drives ([`DriveRecorder`], [`DriveReplay`]). Needs the
/// [`VehiclePlugin`](crate::VehiclePlugin). Part of
/// [`WheelColliderPlugins`](crate::WheelColliderPlugins).
#[derive(Default)]
pub struct ReplayPlugin;

impl Plugin for ReplayPlugin {
    fn build(&self, app: &mut App) {
        app.register_type::<DriveRecorder>()
            .register_type::<DriveReplay>()
            .configure_sets(
                avian3d::prelude::PhysicsSchedule,
                ReplaySystems.after(WheelSystems::Prepare).before(VehicleSystems::Drive),
            )
            .add_systems(
                avian3d::prelude::PhysicsSchedule,
                (replay_inputs, record_inputs).chain().in_set(ReplaySystems),
            );
    }
}
