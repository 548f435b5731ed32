//! The data handed from one stage of a chassis' wheel step to the next (the table in
//! `wheel/mod.rs`). Only types live here; each stage's logic is in its own file and
//! reads these, so no stage imports another.
//!
//! ```text
//! ChassisContext ─┐
//! WheelView ──────┴─ contact::sense_wheel ─► Sensed { ground: Option<Grounded> }
//!   [Sensed; n] ─── suspension::solve_chassis ─► [Option<SuspensionForce>; n]
//!   Sensed + force ─ model::finish_wheel ─► WheelState, WheelOutput
//! ```

use super::components::*;
use super::sweep::WheelCasts;
use avian3d::prelude::*;
use bevy::prelude::*;
use wheelcollider_core::{Contact, SuspensionRow, Travel};

/// A body this light or lighter (kg) is treated as having no usable mass for the
/// effective-mass terms.
pub(crate) const MIN_MASS: f32 = 1e-6;

/// Ground bodies: velocity at a point for moving platforms, mass for dynamic ones.
pub(crate) type GroundQuery<'w, 's> = Query<
    'w,
    's,
    (
        &'static RigidBody,
        &'static Position,
        &'static Rotation,
        &'static LinearVelocity,
        &'static AngularVelocity,
        &'static ComputedCenterOfMass,
        Option<&'static ComputedMass>,
        Option<&'static ComputedAngularInertia>,
    ),
>;

/// Ground surfaces (grip, rolling resistance, roughness) on colliders or their bodies.
pub(crate) type SurfaceQuery<'w, 's> = Query<'w, 's, &'static super::surface::WheelSurface>;

/// The wheels' query of the step: read through `get_unchecked`, one chassis' wheels per
/// task (see `step.rs`).
pub(crate) type WheelQuery<'w, 's> = Query<
    'w,
    's,
    (
        &'static WheelCollider,
        &'static WheelInput,
        &'static mut WheelState,
        &'static mut WheelOutput,
        &'static mut WheelCache,
        &'static Transform,
        (Option<&'static WheelSweepLayers>, Option<&'static AntiRollBar>),
    ),
>;

/// What every wheel of one chassis reads, computed once per chassis and step.
pub(crate) struct ChassisFrame {
    pub entity: Entity,
    pub position: Vec3,
    pub rotation: Quat,
    pub linear_velocity: Vec3,
    pub angular_velocity: Vec3,
    /// 0 for a body without usable mass (1/kg).
    pub inverse_mass: f32,
    /// The world inverse inertia (1/(kg·m²)); zero without usable mass.
    pub inverse_inertia: avian3d::math::SymmetricMatrix,
    /// The centre of mass in the world (m).
    pub centre_of_mass: Vec3,
    /// The chassis collider's layer filters, for wheels without [`WheelSweepLayers`].
    pub filters: Option<LayerMask>,
    /// Grounded wheels of the last step, at least 1.
    pub share: f32,
    /// The chassis' gravity (m/s²): avian's `Gravity` times its `GravityScale`.
    pub gravity: Vec3,
    /// What the chassis took in the last step besides the suspension's load (world): the
    /// tyres' forces and every body part's, their sum (N) and moment about the centre of
    /// mass (N·m) ([`ChassisForces`](super::ChassisForces)' free part). The suspension
    /// solve counts them in each wheel's free acceleration, as it counts gravity.
    pub free: (Vec3, Vec3),
}

/// One chassis' step: its frame, the world its wheels sense, and the step's size. Built
/// once per chassis in `step.rs`; every stage of its wheels reads it.
pub(crate) struct ChassisContext<'a, 'w, 's> {
    pub frame: ChassisFrame,
    /// The box (chassis frame, m) in which no collider that can move was found: a wheel
    /// whose sweep lies in it casts against the static tree alone
    /// (see `WheelCasts::moving_in`).
    pub screened: Option<(Vec3, Vec3)>,
    /// The step (s), > 0.
    pub dt: f32,
    /// How many groups the chassis' wheels are solved in (more than
    /// `MAX_WHEELS` wheels: several), ≥ 1.
    pub groups: usize,
    pub casts: &'a WheelCasts<'w, 's>,
    pub ground: &'a GroundQuery<'w, 's>,
    /// `None` when the scene has no surfaces (then no wheel looks one up).
    pub surfaces: Option<&'a SurfaceQuery<'w, 's>>,
    /// The air's and the road's temperatures (read by tyres with a compound).
    pub weather: super::surface::Weather,
}

/// What sensing reads of one wheel.
pub(crate) struct WheelView<'a> {
    pub entity: Entity,
    pub wheel: &'a WheelCollider,
    pub input: &'a WheelInput,
    pub mount: &'a Transform,
    pub layers: Option<&'a WheelSweepLayers>,
    pub bar: Option<&'a AntiRollBar>,
    /// Whether this wheel's sweep casts against the static tree alone.
    pub static_only: bool,
}

/// A moving body a wheel stands on.
#[derive(Clone, Copy)]
pub(crate) struct GroundBody {
    pub dynamic: bool,
    /// Its centre of mass (world, m).
    pub center: Vec3,
    pub linear_velocity: Vec3,
    pub angular_velocity: Vec3,
    /// A dynamic body's inverse mass and world inverse inertia.
    pub inverse: Option<(f32, avian3d::math::SymmetricMatrix)>,
}

/// A wheel's ground contact, as sensed before the suspension is solved.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Grounded {
    /// The contact for the core.
    pub contact: Contact,
    /// Where the contact puts the suspension (the row's compression, and the core's).
    pub travel: Travel,
    /// What the sweep hit.
    pub hit: WheelHit,
    /// The tyre's forward and sideways directions in the ground plane (world, unit).
    pub forward: Vec3,
    pub sideways: Vec3,
    /// Where the forces act (world): the hit point projected on the suspension axis.
    pub position: Vec3,
    /// The suspension force's direction (world, unit).
    pub direction: Vec3,
    /// The ground's load per newton of the suspension's force along `direction`: 1, or
    /// `1 / cos` of the axis' tilt from the normal for an axial suspension
    /// ([`SuspensionForceDirection::load_factors`](wheelcollider_core::SuspensionForceDirection::load_factors)).
    pub gain: f32,
    /// The suspension's row in the chassis' solve.
    pub row: SuspensionRow,
    /// `I⁻¹·(r × up)`: the angular part of the row (its compression speed is the mount's
    /// approach along the suspension axis `up`), through the chassis' inverse inertia.
    pub ang: Vec3,
    /// `r × direction`: the moment arm of the force.
    pub moment: Vec3,
    /// `r × up`: the moment arm of a force along the axis itself.
    pub axis_moment: Vec3,
    /// The ground body's own inverse mass along the row (dynamic ground), 1/kg.
    pub ground_inverse: f32,
    /// The wheel's anti-roll bar: (the other wheel, stiffness N/m).
    pub bar: Option<(Entity, f32)>,
    /// This step's reading of the ground's rise, kept for the next step.
    pub rise: RiseState,
}

/// One wheel, sensed: its pose for the visuals and outputs, and its contact if grounded.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Sensed {
    pub entity: Entity,
    pub mount_position: Vec3,
    pub up: Vec3,
    pub wheel_rotation: Quat,
    /// Steer + toe (deg).
    pub yaw: f32,
    /// The wheel's spring rate (N/m): what its anti-roll bar partner reads while this
    /// wheel hangs unloaded.
    pub spring: f32,
    /// A wheel's first step (no state yet): it starts at rest at its compression.
    pub first: bool,
    pub ground: Option<Grounded>,
}

impl Default for Sensed {
    fn default() -> Self {
        Self {
            entity: Entity::PLACEHOLDER,
            mount_position: Vec3::ZERO,
            up: Vec3::Y,
            wheel_rotation: Quat::IDENTITY,
            yaw: 0.0,
            spring: 0.0,
            first: false,
            ground: None,
        }
    }
}
