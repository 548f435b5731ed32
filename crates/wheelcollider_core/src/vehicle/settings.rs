//! The vehicle's description: what a preset file holds.
//!
//! Every struct here is plain data with public fields, serde defaults (a field missing
//! in a file takes the default below) and `deny_unknown_fields` (a typo is an error that
//! names the field). [`VehicleSettings::validate`] clamps every number into its documented
//! range and refuses non-finite ones, naming the field's path.
//!
//! Frames: the chassis' local frame is Bevy's: −Z forward, +X right, +Y up. Axles are
//! listed front to back.
//!
//! `validate` reads part by part: the arrays and choices here (`check_chassis`,
//! `check_axle`, `check_engine`, `check_gears`), every scalar from its one declaration
//! in `fields/` ([`VEHICLE_FLOATS`]).

use super::fields::VEHICLE_FLOATS;
use super::{
    AeroSettings, AssistSettings, AxleSuspension, BrakeSettings, ClutchSettings, DifferentialKind, EngineLayout,
    EngineSettings, GearboxSettings, HitchSettings, SteeringSettings, TrackSettings, TrailerSettings,
    TwoWheelerSettings,
};
use crate::limits::MAX_VALUE;
use crate::settings::WheelSettings;

/// An error in a vehicle description: the field's path and what is wrong.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{field}: {message}")]
pub struct VehicleSettingsError {
    /// Path of the field, e.g. `axles[1].wheel.radius` or `engine.torque_curve`.
    pub field: String,
    /// What is wrong with it.
    pub message: String,
}

impl VehicleSettingsError {
    /// An error at the field `field` (its path) saying `message`.
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        VehicleSettingsError {
            field: field.into(),
            message: message.into(),
        }
    }
}

/// A RON syntax or type error, placed by its line and column.
#[cfg(feature = "serde")]
impl From<ron::error::SpannedError> for VehicleSettingsError {
    fn from(e: ron::error::SpannedError) -> Self {
        VehicleSettingsError {
            field: format!("line {}, column {}", e.span.start.line, e.span.start.col),
            message: e.code.to_string(),
        }
    }
}

/// A preset file that could not be loaded: the file, and why.
#[cfg(feature = "serde")]
#[derive(Debug, thiserror::Error)]
pub enum PresetError {
    /// The file could not be read.
    #[error("{}: cannot read: {source}", path.display())]
    Read {
        /// The file.
        path: std::path::PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file is not a valid vehicle: line and column of a syntax or type error, or
    /// the path of the field whose value is wrong.
    #[error("{}: {source}", path.display())]
    Invalid {
        /// The file.
        path: std::path::PathBuf,
        /// Where and what.
        source: VehicleSettingsError,
    },
}

/// One axle: where its wheels sit and what they do. Two wheels, one each side, or one on
/// the centre line ([`single`](Self::single): a two-wheeler's, a trike's front).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default, deny_unknown_fields))]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct AxleSettings {
    /// Position along the chassis (m, local Z; front axles are negative).
    pub z: f32,
    /// Half the track: the wheels' mounts sit at x = ±half_track (m), > 0. Not used by a
    /// [`single`](Self::single) axle.
    pub half_track: f32,
    /// One wheel on the centre line (x = 0) instead of a pair: a two-wheeler's axles, a
    /// trike's front. Its wheel has the axle's left index
    /// ([`VehicleSettings::wheel_index`]`(axle, false)`); the right index is empty
    /// ([`VehicleSettings::has_wheel`]). It takes the axle's whole load, brake and drive
    /// torque; the anti-roll bar, the roll centre, the roll steer and the differential do
    /// not apply to it, nor does yaw stability (it brakes one side of a pair). Camber
    /// and toe are as written (not mirrored).
    pub single: bool,
    /// Height of the suspension mounts in the chassis frame (m, local Y).
    pub mount_height: f32,
    /// The wheel and tyre. Camber and toe are written for the left wheel in the usual
    /// automotive sense (negative camber: top leans in; positive toe: toe-in) and
    /// mirrored for the right one.
    pub wheel: WheelSettings,
    /// Turned by the steering.
    pub steered: bool,
    /// Driven by the engine.
    pub driven: bool,
    /// Braked by the handbrake.
    pub handbrake: bool,
    /// Anti-roll bar stiffness (N/m of compression difference), 0 ..= 10⁷
    /// ([`MAX_SPRING`](crate::limits::MAX_SPRING)). The Bevy plugin solves the bar with
    /// the suspension (stable at any stiffness); it acts only while both wheels of the
    /// axle are grounded.
    pub anti_roll_stiffness: f32,
    /// The axle's differential (used when `driven`).
    pub differential: DifferentialKind,
    /// The kind of suspension: what the geometry's unset fields below default to
    /// ([`AxleGeometry::typical_of`](super::AxleGeometry::typical_of)). `Independent`
    /// (the default): a road car's.
    pub suspension: AxleSuspension,
    /// Roll steer (deg of toe per deg of body roll), −1..=1: positive toes the wheel
    /// in as the body rolls onto it (the outside wheel in a turn) and out as it rolls
    /// off, so the whole axle steers into the turn. On the rear axle that is roll
    /// understeer (typical +0.05..+0.15), on the front axle roll oversteer (front
    /// axles are usually set slightly negative). The roll is the suspension's:
    /// `atan((compression right − left) / track)`. Milliken, *Race Car Vehicle
    /// Dynamics*, §17.5.
    /// `None` (the default): the value typical of the axle's role
    /// ([`AxleGeometry::typical`](super::AxleGeometry::typical)).
    pub roll_steer: Option<f32>,
    /// Lateral-force compliance steer (deg per kN of the wheel's own lateral force),
    /// −2..=2: positive turns the wheel away from its lateral force (towards smaller
    /// slip angles), as a compliant steering rack or bushing does: understeer on the
    /// front axle (road cars about 0.1–0.3 deg/kN), oversteer on the rear. Solved
    /// implicitly against the tyre's cornering stiffness, so it is stable at any value in
    /// range (a negative one is held to a loop gain of −0.5); at most ±5° per wheel.
    /// Milliken §17.6.
    /// `None` (the default): the value typical of the axle's role
    /// ([`AxleGeometry::typical`](super::AxleGeometry::typical)).
    pub compliance_steer: Option<f32>,
    /// Height of the axle's roll centre above the ground (m), clamped to
    /// ±`half_track` (0: at the ground, every roll moment through the springs). The
    /// tyres' lateral forces reach the body through the links as if applied there:
    /// the body's roll moment is `F·(h_cg − h_rc)` and the rest of the load transfer,
    /// `F·h_rc / track`, goes straight to the tyres (geometric load transfer), with
    /// the jacking that comes with it (typical values: `docs/vehicle.md`,
    /// "Geometry"). Sets each wheel's
    /// [`roll_centre_slope`](WheelSettings::roll_centre_slope) to `h_rc / half_track`.
    /// Milliken & Milliken, *Race Car Vehicle Dynamics*, §17.3; `docs/vehicle.md`,
    /// "Geometry".
    /// `None` (the default): the value typical of the axle's role
    /// ([`AxleGeometry::typical`](super::AxleGeometry::typical)).
    pub roll_centre_height: Option<f32>,
    /// Anti-dive (%), −50 ..= 150: the share of the braking pitch transfer that this
    /// axle's links carry instead of its springs (on a rear axle: anti-lift). 100 % on
    /// every axle and the body does not pitch under braking. Milliken's definition,
    /// `tan θ · β · L / h_cg` (β the axle's brake share, L the wheelbase, h_cg the
    /// centre of mass' height at rest), sets each wheel's
    /// [`brake_pitch_slope`](WheelSettings::brake_pitch_slope) to `tan θ` (clamped to
    /// 1). Typical values: `docs/vehicle.md`, "Geometry"; Milliken §17.4.
    /// `None` (the default): the value typical of the axle's role
    /// ([`AxleGeometry::typical`](super::AxleGeometry::typical)).
    pub anti_dive: Option<f32>,
    /// Anti-squat (%), −50 ..= 150: as `anti_dive` for the drive force, with the
    /// axle's share of the drive torque for β (on a front axle: anti-lift). 0 on an
    /// axle that is not driven. Sets each wheel's
    /// [`drive_pitch_slope`](WheelSettings::drive_pitch_slope).
    /// `None` (the default): the value typical of the axle's role
    /// ([`AxleGeometry::typical`](super::AxleGeometry::typical)).
    pub anti_squat: Option<f32>,
    /// The mounts' height above flat ground with the car at rest (m), or `None` (the
    /// default) for where the springs' own sag puts them. Set, it fixes each wheel's
    /// [`spring_preload`](WheelSettings::spring_preload) to `load − rate · x` (the
    /// corner's static load, `x` the compression this height leaves): the car sits
    /// at this height whatever the spring rate, as a coilover's perch sets it.
    /// 0 ..= 1000; it acts within `radius + 0.1·length ..= radius + 0.9·length` (10–90 %
    /// of the travel left below it), held there.
    pub ride_height: Option<f32>,
}

impl AxleSettings {
    /// Its wheels: 1 for a [`single`](Self::single) axle, else 2.
    pub fn wheel_count(&self) -> usize {
        if self.single { 1 } else { 2 }
    }

    /// Where the wheel of side `right` sits across the chassis (m, local X): ∓`half_track`,
    /// 0 on a [`single`](Self::single) axle.
    pub fn wheel_x(&self, right: bool) -> f32 {
        match (self.single, right) {
            (true, _) => 0.0,
            (false, true) => self.half_track,
            (false, false) => -self.half_track,
        }
    }
}

impl Default for AxleSettings {
    fn default() -> Self {
        Self {
            z: 0.0,
            half_track: 0.78,
            single: false,
            mount_height: -0.2,
            wheel: WheelSettings::default(),
            steered: false,
            driven: false,
            handbrake: false,
            anti_roll_stiffness: 0.0,
            differential: DifferentialKind::Open,
            suspension: AxleSuspension::Independent,
            roll_steer: None,
            compliance_steer: None,
            roll_centre_height: None,
            anti_dive: None,
            anti_squat: None,
            ride_height: None,
        }
    }
}

/// The rigid body: a box collider with a mass.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default, deny_unknown_fields))]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct ChassisSettings {
    /// Mass (kg), > 0.
    pub mass: f32,
    /// Full size of the box collider (m): width, height, length; each > 0.
    pub size: [f32; 3],
    /// Centre of mass in the chassis frame (m). A file may spell the key
    /// `center_of_mass`, as avian does.
    #[cfg_attr(feature = "serde", serde(alias = "center_of_mass"))]
    pub centre_of_mass: [f32; 3],
    /// Principal moments of inertia about X (pitch), Y (yaw), Z (roll) (kg·m²); `None`
    /// takes the box's: m·(b² + c²)/12.
    pub inertia: Option<[f32; 3]>,
    /// The principal axes of [`inertia`](Self::inertia) turned about the chassis' X (deg,
    /// −90..=90; 0, the default: along the chassis' axes). Positive turns the yaw axis
    /// (+Y) towards the back (+Z). The product of inertia between roll and yaw it makes
    /// couples them, as in a bicycle with its rider (the `bicycle` preset's −12.97°)
    /// ([`principal_frame_angle`](Self::principal_frame_angle)).
    pub inertia_tilt: f32,
}

impl Default for ChassisSettings {
    fn default() -> Self {
        Self {
            mass: 1300.0,
            size: [1.7, 0.5, 4.2],
            centre_of_mass: [0.0, -0.1, 0.0],
            inertia: None,
            inertia_tilt: 0.0,
        }
    }
}

impl ChassisSettings {
    /// The principal inertia: the given one, or the box's.
    pub fn principal_inertia(&self) -> [f32; 3] {
        self.inertia.unwrap_or_else(|| {
            let [a, b, c] = self.size;
            let m = self.mass / 12.0;
            [m * (b * b + c * c), m * (a * a + c * c), m * (a * a + b * b)]
        })
    }

    /// The angle (rad) about the chassis' X by which the principal axes of
    /// [`principal_inertia`](Self::principal_inertia) are turned
    /// ([`inertia_tilt`](Self::inertia_tilt)).
    pub fn principal_frame_angle(&self) -> f32 {
        self.inertia_tilt.to_radians()
    }
}

/// A whole vehicle: what a preset file describes.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default, deny_unknown_fields))]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct VehicleSettings {
    /// A name for menus and logs.
    pub name: String,
    /// The rigid body.
    pub chassis: ChassisSettings,
    /// The axles, front to back; at least one.
    pub axles: Vec<AxleSettings>,
    /// The engine.
    pub engine: EngineSettings,
    /// The clutch.
    pub clutch: ClutchSettings,
    /// The gearbox.
    pub gearbox: GearboxSettings,
    /// Between the first two driven axles, when there are two or more.
    pub centre_differential: DifferentialKind,
    /// Share of the drive torque sent to the first driven axle by the centre
    /// differential, 0..=1 (0.5: equal; 0.3: rear-biased).
    pub front_torque_share: f32,
    /// Brakes and driver aids.
    pub brakes: BrakeSettings,
    /// Steering.
    pub steering: SteeringSettings,
    /// Aerodynamics.
    pub aero: AeroSettings,
    /// Assists for arcade games (anti-flip, air control, yaw stability), all off by
    /// default.
    pub assists: AssistSettings,
    /// A hitch a trailer of its kind can couple to (`None`, the default: no hitch).
    pub hitch: Option<HitchSettings>,
    /// Makes the vehicle a trailer: its coupling, stand and brakes (`None`, the
    /// default: a vehicle with a driver). A trailer's axles are not driven; its
    /// engine, clutch and gearbox are not used.
    pub trailer: Option<TrailerSettings>,
    /// Makes the vehicle a two-wheeler: its steering head and rider (`None`, the
    /// default: not one). Every axle of a two-wheeler is
    /// [`single`](AxleSettings::single); the first one's wheel is turned by the head (it
    /// is not `steered`), and the driver's steer input asks the rider for a lean.
    pub two_wheeler: Option<TwoWheelerSettings>,
    /// Makes the vehicle tracked: its steering and belts (`None`, the default: not
    /// tracked). Every axle of a tracked vehicle is a pair of road wheels, driven and
    /// not steered; the left ones turn as one belt, the right ones as the other, and the
    /// driver's steer input makes one belt faster than the other.
    pub tracks: Option<TrackSettings>,
}

impl Default for VehicleSettings {
    fn default() -> Self {
        let wheel = WheelSettings::default();
        Self {
            name: "car".into(),
            chassis: ChassisSettings::default(),
            axles: vec![
                AxleSettings {
                    z: -1.35,
                    steered: true,
                    wheel: wheel.clone(),
                    ..Default::default()
                },
                AxleSettings {
                    z: 1.3,
                    driven: true,
                    handbrake: true,
                    wheel,
                    ..Default::default()
                },
            ],
            engine: EngineSettings::default(),
            clutch: ClutchSettings::default(),
            gearbox: GearboxSettings::default(),
            centre_differential: DifferentialKind::Open,
            front_torque_share: 0.5,
            brakes: BrakeSettings::default(),
            steering: SteeringSettings::default(),
            aero: AeroSettings::default(),
            assists: AssistSettings::default(),
            hitch: None,
            trailer: None,
            two_wheeler: None,
            tracks: None,
        }
    }
}

fn clamp_field(path: &dyn Fn() -> String, v: &mut f32, lo: f32, hi: f32) -> Result<(), VehicleSettingsError> {
    if !v.is_finite() {
        return Err(VehicleSettingsError {
            field: path(),
            message: format!("must be a finite number, got {v}"),
        });
    }
    *v = v.clamp(lo, hi);
    Ok(())
}

macro_rules! field {
    ($path:expr, $v:expr, $lo:expr, $hi:expr) => {
        clamp_field(&|| $path.to_string(), &mut $v, $lo, $hi)?
    };
}

/// The chassis' arrays (its mass is in [`VEHICLE_FLOATS`]).
fn check_chassis(c: &mut ChassisSettings) -> Result<(), VehicleSettingsError> {
    const M: f32 = MAX_VALUE;
    for (i, v) in c.size.iter_mut().enumerate() {
        field!(format!("chassis.size[{i}]"), *v, 0.01, 1000.0);
    }
    for (i, v) in c.centre_of_mass.iter_mut().enumerate() {
        field!(format!("chassis.centre_of_mass[{i}]"), *v, -1000.0, 1000.0);
    }
    if let Some(inertia) = c.inertia.as_mut() {
        for (i, v) in inertia.iter_mut().enumerate() {
            field!(format!("chassis.inertia[{i}]"), *v, 1e-3, M);
        }
    }
    Ok(())
}

/// Axle `i`'s wheel (its numbers are in [`VEHICLE_FLOATS`]).
fn check_axle(i: usize, a: &mut AxleSettings) -> Result<(), VehicleSettingsError> {
    let (clean, err) = a.wheel.sanitized();
    if let Some(e) = err {
        return Err(VehicleSettingsError {
            field: format!("axles[{i}].wheel"),
            message: e.to_string(),
        });
    }
    a.wheel = clean;
    Ok(())
}

/// The engine's torque curve and cylinders (its scalars are in [`VEHICLE_FLOATS`]).
fn check_engine(e: &mut EngineSettings) -> Result<(), VehicleSettingsError> {
    const M: f32 = MAX_VALUE;
    if e.torque_curve.is_empty() {
        return Err(VehicleSettingsError::new(
            "engine.torque_curve",
            "needs at least one [rpm, torque] point",
        ));
    }
    for (i, p) in e.torque_curve.iter_mut().enumerate() {
        field!(format!("engine.torque_curve[{i}][0] (rpm)"), p[0], 0.0, 100_000.0);
        field!(format!("engine.torque_curve[{i}][1] (N·m)"), p[1], 0.0, M);
    }
    if e.torque_curve.windows(2).any(|w| w[1][0] <= w[0][0]) {
        return Err(VehicleSettingsError::new(
            "engine.torque_curve",
            "rpm values must increase from point to point",
        ));
    }
    e.cylinders = e.cylinders.clamp(1, 16);
    if e.strokes != 2 && e.strokes != 4 {
        return Err(VehicleSettingsError::new("engine.strokes", "must be 2 or 4"));
    }
    if e.layout == EngineLayout::CrossPlaneV8 && e.cylinders != 8 {
        return Err(VehicleSettingsError::new(
            "engine.layout",
            format!("CrossPlaneV8 needs 8 cylinders, not {}", e.cylinders),
        ));
    }
    Ok(())
}

/// A two-wheeler's layout and arrays (its scalars are in [`VEHICLE_FLOATS`]): every axle
/// single, the front one not steered (its head turns it), at least two axles; the front
/// assembly's centre of mass and inertia finite.
fn check_two_wheeler(s: &mut VehicleSettings) -> Result<(), VehicleSettingsError> {
    let Some(bike) = s.two_wheeler.as_mut() else {
        return Ok(());
    };
    for (i, v) in bike.front_centre_of_mass.iter_mut().enumerate() {
        field!(format!("two_wheeler.front_centre_of_mass[{i}]"), *v, -1000.0, 1000.0);
    }
    for (i, v) in bike.front_inertia.iter_mut().enumerate() {
        field!(format!("two_wheeler.front_inertia[{i}]"), *v, 1e-4, MAX_VALUE);
    }
    if s.axles.len() < 2 {
        return Err(VehicleSettingsError::new("axles", "a two-wheeler needs two axles"));
    }
    if let Some(i) = s.axles.iter().position(|a| !a.single) {
        return Err(VehicleSettingsError::new(
            format!("axles[{i}].single"),
            "every axle of a two-wheeler has one wheel (single: true)",
        ));
    }
    if s.axles[0].steered {
        return Err(VehicleSettingsError::new(
            "axles[0].steered",
            "a two-wheeler's front wheel is turned by its steering head (steered: false)",
        ));
    }
    Ok(())
}

/// A tracked vehicle's layout (its scalars are in [`VEHICLE_FLOATS`]): two to
/// [`MAX_DRIVEN_AXLES`](super::MAX_DRIVEN_AXLES) axles, each a driven pair of road
/// wheels, none steered; not a trailer or a two-wheeler.
fn check_tracks(s: &VehicleSettings) -> Result<(), VehicleSettingsError> {
    if s.tracks.is_none() {
        return Ok(());
    }
    if s.trailer.is_some() || s.two_wheeler.is_some() {
        return Err(VehicleSettingsError::new(
            "tracks",
            "a tracked vehicle is not a trailer or a two-wheeler",
        ));
    }
    if !(2..=super::MAX_DRIVEN_AXLES).contains(&s.axles.len()) {
        return Err(VehicleSettingsError::new(
            "axles",
            format!(
                "a tracked vehicle has 2 to {} road wheels a side",
                super::MAX_DRIVEN_AXLES
            ),
        ));
    }
    for (i, a) in s.axles.iter().enumerate() {
        let wrong = if a.single {
            Some(("single", "a road wheel each side (single: false)"))
        } else if !a.driven {
            Some(("driven", "every road wheel turns with its belt (driven: true)"))
        } else if a.steered {
            Some(("steered", "a tracked vehicle steers with its belts (steered: false)"))
        } else {
            None
        };
        if let Some((field, why)) = wrong {
            return Err(VehicleSettingsError::new(format!("axles[{i}].{field}"), why));
        }
    }
    Ok(())
}

/// The forward gears' ratios (the gearbox's scalars are in [`VEHICLE_FLOATS`]).
fn check_gears(g: &mut GearboxSettings) -> Result<(), VehicleSettingsError> {
    if g.forward.is_empty() {
        return Err(VehicleSettingsError::new(
            "gearbox.forward",
            "needs at least one forward ratio",
        ));
    }
    for (i, r) in g.forward.iter_mut().enumerate() {
        field!(format!("gearbox.forward[{i}]"), *r, 0.01, 100.0);
    }
    Ok(())
}

impl VehicleSettings {
    /// Checks every field: a non-finite number or a missing part is an error naming the
    /// field; everything else is clamped into the range its documentation gives.
    /// Wheel settings are validated when they are read (see [`WheelSettings`]).
    pub fn validate(&mut self) -> Result<(), VehicleSettingsError> {
        check_chassis(&mut self.chassis)?;
        if self.axles.is_empty() {
            return Err(VehicleSettingsError::new("axles", "a vehicle needs at least one axle"));
        }
        for (i, a) in self.axles.iter_mut().enumerate() {
            check_axle(i, a)?;
        }
        check_engine(&mut self.engine)?;
        check_gears(&mut self.gearbox)?;
        super::towing::check_towing(self)?;
        check_two_wheeler(self)?;
        check_tracks(self)?;
        // Every scalar, in the table's order (a limit reads only fields before it).
        for f in VEHICLE_FLOATS {
            for i in f.indices(self) {
                let (lo, hi) = (f.limit)(self, i);
                if let Some(v) = (f.field)(self, i) {
                    clamp_field(&|| f.path_at(i), v, lo, hi)?;
                }
            }
        }
        Ok(())
    }

    /// Parses a RON preset and validates it. The error names the line, column and
    /// field (for syntax and type errors) or the field's path (for values).
    #[cfg(feature = "serde")]
    pub fn from_ron(text: &str) -> Result<VehicleSettings, VehicleSettingsError> {
        // A set optional field may be written bare (`anti_dive: 15.0`) or as `Some(15.0)`.
        let ron = ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME);
        let mut settings: VehicleSettings = ron.from_str(text)?;
        settings.validate()?;
        Ok(settings)
    }

    /// Reads and validates a RON preset file ([`VehicleSettings::from_ron`]); the error
    /// names the file.
    #[cfg(feature = "serde")]
    pub fn from_file(path: impl AsRef<std::path::Path>) -> Result<VehicleSettings, PresetError> {
        let path = path.as_ref();
        let text = std::fs::read_to_string(path).map_err(|source| PresetError::Read {
            path: path.to_owned(),
            source,
        })?;
        VehicleSettings::from_ron(&text).map_err(|source| PresetError::Invalid {
            path: path.to_owned(),
            source,
        })
    }

    /// Writes the preset as pretty RON (every field, so a saved tuning is complete).
    #[cfg(feature = "serde")]
    pub fn to_ron(&self) -> String {
        ron::ser::to_string_pretty(self, ron::ser::PrettyConfig::new().depth_limit(4))
            .unwrap_or_else(|e| format!("// could not write the preset: {e}"))
    }

    /// Wheel index of the left wheel of `axle`: wheels are numbered axle by axle, left
    /// then right, two indices per axle (a [`single`](AxleSettings::single) axle's
    /// wheel is its left one and its right index is empty).
    pub fn wheel_index(axle: usize, right: bool) -> usize {
        2 * axle + right as usize
    }

    /// Number of wheel indices: two per axle (arrays by wheel index are this long).
    pub fn wheel_indices(&self) -> usize {
        2 * self.axles.len()
    }

    /// Number of wheels: two per axle, one per [`single`](AxleSettings::single) axle.
    pub fn wheel_count(&self) -> usize {
        self.axles.iter().map(AxleSettings::wheel_count).sum()
    }

    /// Whether wheel index `index` has a wheel (the right index of a
    /// [`single`](AxleSettings::single) axle has none).
    pub fn has_wheel(&self, index: usize) -> bool {
        self.axles
            .get(index / 2)
            .is_some_and(|a| index.is_multiple_of(2) || !a.single)
    }

    /// The wheel indices of `axle`: its left and right, or its one.
    pub fn wheels_of(&self, axle: usize) -> core::ops::Range<usize> {
        let n = self.axles.get(axle).map_or(0, AxleSettings::wheel_count);
        2 * axle..2 * axle + n
    }

    /// The wheel settings of one wheel, with camber and toe mirrored for the right side
    /// and converted to the wheel model's convention (see
    /// [`crate::wheel`]: camber > 0 tilts the top towards −X; toe turns like steer,
    /// positive to the left).
    pub fn wheel_settings(&self, axle: usize, right: bool) -> WheelSettings {
        let a = &self.axles[axle];
        let mut w = a.wheel.clone();
        // Automotive: negative camber = top leans inwards; toe-in = front points inwards.
        // Camber gain and bump steer mirror with them.
        let (camber, toe) = (a.wheel.camber_angle(), a.wheel.toe_angle());
        let (gain, steer) = (a.wheel.camber_gain(), a.wheel.bump_steer());
        let side = if right && !a.single { [-1.0, 1.0] } else { [1.0, -1.0] };
        let _ = w.set_camber_angle(side[0] * camber);
        let _ = w.set_toe_angle(side[1] * toe);
        let _ = w.set_camber_gain(side[0] * gain);
        let _ = w.set_bump_steer(side[1] * steer);
        let _ = w.set_alignment_compression(self.static_compression(axle));
        let [roll, brake, drive] = self.link_slopes(axle);
        let _ = w.set_roll_centre_slope(roll);
        let _ = w.set_brake_pitch_slope(brake);
        let _ = w.set_drive_pitch_slope(drive);
        if let Some(preload) = self.ride_preload(axle) {
            let _ = w.set_spring_preload(preload);
        }
        w
    }
}
