//! The wheel's components: settings, input, state, and the wheel → chassis relationship.
//!
//! | component | who writes it | what |
//! | --- | --- | --- |
//! | [`WheelCollider`] | you, the inspector, a preset | the tuning ([`WheelSettings`], validated) |
//! | [`WheelInput`] | a vehicle, game code, AI | steer, drive and brake torque… each step |
//! | [`WheelState`] | the plugin (a rollback library saves it) | what a wheel carries from one step to the next |
//! | [`WheelOutput`] | the plugin (read-only to you) | every output of the original, in 3D |
//! | [`WheelOf`] / [`ChassisWheels`] | the plugin (or you) | wheel → rigid body relationship |
//! | [`WheelModel`] | you | the visual entity placed at the wheel centre |

use avian3d::prelude::*;
use bevy::ecs::entity::MapEntities;
use bevy::prelude::*;

use super::surface::WheelSurface;
use wheelcollider_core::vehicle::{Driveline, MAX_DRIVEN_AXLES};
use wheelcollider_core::{StepOutput, StepState, SweepType, WheelSettings};

/// A wheel: put it on an entity that is a child of a dynamic rigid body. The entity's
/// [`Transform`] (relative to the body) is the **mount point**: the top of the
/// suspension travel, with the suspension axis along its local up (+Y), the rolling
/// direction along local forward (−Z) and the axle along local right (+X).
///
/// It derefs to [`WheelSettings`], so the core's validated setters work on it
/// (`wheel.set_radius(0.33)`); a value written around them (for example by reflection in
/// an inspector) is re-validated before the next physics step: clamped, and a
/// non-finite field reset to its default with an error in the log.
///
/// # Example
/// ```
/// use bevy::prelude::*;
/// use wheelcollider_avian::prelude::*;
/// let mut wheel = WheelCollider::default();
/// wheel.set_sweep_type(SweepType::Cylinder);
/// wheel.set_radius(0.33).unwrap();
/// let bundle = (wheel, Transform::from_xyz(-0.8, 0.0, -1.3));
/// ```
#[derive(Component, Reflect, Clone, Debug, Default, PartialEq, Deref, DerefMut)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
#[reflect(Component, Default, Debug, Clone)]
#[require(WheelInput, WheelState, WheelOutput, WheelCache, Transform)]
#[cfg_attr(feature = "serialize", serde(transparent))]
pub struct WheelCollider(pub WheelSettings);

/// What drives a wheel this step (steer, drive and brake torque, the drivetrain's
/// inertia and friction): written by a vehicle controller or by game code, read by the
/// wheel's step. The core's type, a component here.
pub use wheelcollider_core::WheelInput;

/// What the sweep hit. Its entities are mapped between worlds ([`MapEntities`]).
#[derive(Reflect, Clone, Copy, Debug, PartialEq, MapEntities)]
pub struct WheelHit {
    /// The collider entity that was hit.
    #[entities]
    pub entity: Entity,
    /// The rigid body the collider belongs to, if any.
    #[entities]
    pub body: Option<Entity>,
    /// Hit point (world, m).
    pub point: Vec3,
    /// Surface normal at the hit (world, unit).
    pub normal: Vec3,
    /// How far the sweep travelled (m); see [`wheelcollider_core::Contact::hit_distance`].
    pub distance: f32,
    /// Whether `body` is a dynamic rigid body (not the wheel's own chassis): it takes
    /// the opposite of the wheel's force.
    pub dynamic: bool,
    /// The surface under the hit: the collider's [`WheelSurface`], else its body's, else
    /// [`WheelSurface::ASPHALT`] (looked up once, in the contact stage; the events and
    /// the sound read it here).
    pub surface: WheelSurface,
}

/// What a wheel carries from one physics step to the next: everything its next step
/// reads besides its settings, its input and the bodies' state. A rollback library saves
/// and restores it with [`WheelOutput`] (which the vehicle reads as feedback) and
/// [`WheelInput`]; `docs/plugin.md` has the whole list. Written by the plugin.
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq)]
#[reflect(Component, Default, Debug, Clone)]
pub struct WheelState {
    /// The core's state: spin, angle, last compression, static-friction anchor,
    /// transient slips.
    pub step: StepState,
    /// Suspension length + radius of the last step (m); 0 before the first step. A
    /// change of either moves the compression without motion (`wheel/edits.rs`).
    pub(crate) geometry: f32,
    /// The spring's relaxed compression (m), moved when the spring is stiffened or the
    /// travel changes at run time and relaxing back to 0 (see
    /// [`wheelcollider_core::SuspensionRow::spring_offset`]).
    pub(crate) spring_offset: f32,
    /// The spring rate (N/m) and preload (N) of the last step.
    pub(crate) stiffness: f32,
    pub(crate) preload: f32,
    /// Whether the last step was grounded, and its road bump (m): the bump's rate is
    /// part of the suspension's speed reading.
    pub(crate) grounded: bool,
    pub(crate) bump: f32,
    /// The ground's rise of the last step; `None` after a step in the air. See
    /// [`wheelcollider_core::SuspensionRow::ground_rise`].
    pub(crate) rise: Option<RiseState>,
}

/// Everything the wheel computed in the last physics step. Read-only to game code: the
/// plugin overwrites it every step.
#[derive(Component, Reflect, Clone, Debug, Default, PartialEq, MapEntities)]
#[reflect(Component, Default, Debug, Clone)]
pub struct WheelOutput {
    /// The hit, if grounded.
    #[entities]
    pub hit: Option<WheelHit>,
    /// The scalar outputs of the wheel model (load, slips, forces, spin…).
    pub output: StepOutput,
    /// Where the forces act (world, m): the hit point projected on the suspension axis.
    pub contact_position: Vec3,
    /// Direction of the longitudinal tyre force (world, unit; zero in the air).
    pub forward_direction: Vec3,
    /// Direction of the lateral tyre force (world, unit; zero in the air).
    pub sideways_direction: Vec3,
    /// Suspension axis (world, unit): the mount's up.
    pub up: Vec3,
    /// The direction the suspension force acted along (world, unit): the contact normal
    /// or the suspension axis, per [`WheelSettings::suspension_force_direction`].
    pub suspension_direction: Vec3,
    /// The mount point (world, m).
    pub mount_position: Vec3,
    /// Wheel centre (world, m) = mount − up · current suspension length.
    pub center: Vec3,
    /// Wheel rotation (world): mount · yaw(steer + toe) · roll(camber) · pitch(spin).
    pub rotation: Quat,
    /// Total force applied to the chassis at `contact_position` (world, N).
    pub force: Vec3,
    /// Steer + toe actually used (deg).
    pub yaw: f32,
    /// The pose one step earlier, which the visuals interpolate from: (suspension
    /// length m, spin angle rad, yaw deg).
    pub(crate) previous_pose: (f32, f32, f32),
}

impl WheelOutput {
    /// Whether the wheel touches the ground.
    pub fn grounded(&self) -> bool {
        self.output.grounded
    }
    /// Tyre load (N).
    pub fn load(&self) -> f32 {
        self.output.load
    }
    /// Spin (rad/s).
    pub fn angular_velocity(&self) -> f32 {
        self.output.angular_velocity
    }
    /// Spin (rpm).
    pub fn rpm(&self) -> f32 {
        self.output.rpm
    }
    /// Longitudinal slip.
    pub fn forward_slip(&self) -> f32 {
        self.output.forward_slip
    }
    /// Lateral slip.
    pub fn sideways_slip(&self) -> f32 {
        self.output.sideways_slip
    }
    /// Combined slip magnitude.
    pub fn slip_magnitude(&self) -> f32 {
        self.output.slip_magnitude
    }
    /// Longitudinal tyre force (N).
    pub fn forward_force(&self) -> f32 {
        self.output.forward_force
    }
    /// Lateral tyre force (N).
    pub fn sideways_force(&self) -> f32 {
        self.output.sideways_force
    }
    /// Current suspension length, mount to wheel centre (m).
    pub fn current_suspension_length(&self) -> f32 {
        self.output.current_suspension_length
    }
    /// Compression over travel (1 at the bump stop).
    pub fn compression_rate(&self) -> f32 {
        self.output.compression_rate
    }
    /// The longitudinal curve's peak slip at the present load.
    pub fn peak_slip(&self) -> f32 {
        self.output.peak_slip
    }
    /// The tyre's self-aligning torque (N·m) about the ground normal, positive turning
    /// the wheel left; the plugin applies it to the chassis.
    pub fn aligning_torque(&self) -> f32 {
        self.output.aligning_torque
    }
}

/// What a grounded wheel's step leaves for the next one's ground rise (see
/// [`wheelcollider_core::SuspensionRow::ground_rise`] and `approach::ground_rise`).
#[derive(Reflect, Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct RiseState {
    /// The step's compression speed (m/s); its compression is
    /// [`StepState::compression`](wheelcollider_core::StepState::compression).
    pub speed: f32,
    /// The gain the step measured (m).
    pub gain: f32,
    /// How long the gains have been positive, this step's included (s).
    pub streak: f32,
}

/// The rigid body a wheel belongs to. Inserted for you when a [`WheelCollider`] is added
/// under a rigid body (its nearest [`RigidBody`] ancestor); insert it yourself to attach
/// a wheel explicitly.
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq, Eq)]
#[reflect(Component, Debug, Clone)]
#[relationship(relationship_target = ChassisWheels)]
pub struct WheelOf(pub Entity);

/// The wheels of a rigid body (the other side of [`WheelOf`]). Despawning the body
/// despawns its wheels, children or not.
#[derive(Component, Reflect, Clone, Debug, Default, PartialEq, Eq)]
#[reflect(Component, Debug, Clone)]
#[relationship_target(relationship = WheelOf, linked_spawn)]
#[require(ChassisState, ChassisForces)]
pub struct ChassisWheels(Vec<Entity>);

impl ChassisWheels {
    /// The wheel entities.
    pub fn wheels(&self) -> &[Entity] {
        &self.0
    }
}

/// What a chassis' wheels carry from one step to the next together: the count of
/// grounded wheels (which share the chassis' mass), the box their sweeps filled, and
/// the forces besides the suspension's load that the body took in the last step. Public
/// so that a rollback library can save and restore it with the rest of a chassis'
/// state; its fields are the plugin's.
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq)]
#[reflect(Component, Default, Clone)]
pub struct ChassisState {
    /// How many of its wheels touched the ground in the last step. The wheels share the
    /// chassis' effective mass among this many for the bump stop and static friction.
    pub(crate) grounded_wheels: u32,
    /// The box that held the sweeps of all its wheels in the last step, in the chassis'
    /// frame (m): the next step's screening for colliders that can move looks in it.
    pub(crate) sweep_box: Option<(Vec3, Vec3)>,
    /// What the body took in the last step besides the suspension's load (world, N and
    /// N·m about the centre of mass): [`ChassisForces::free_force`] as applied. The
    /// next step's suspension solve counts it as it counts gravity (see
    /// `wheel/suspension.rs`).
    pub(crate) free_force: Vec3,
    pub(crate) free_torque: Vec3,
}

/// The one force channel of a chassis in a physics step: the wheels write it in
/// [`WheelSystems::SenseAndSolve`](crate::WheelSystems::SenseAndSolve), every body-level
/// part (a vehicle's aerodynamics and assists, a game's own: a wing, a parachute, a
/// thruster) adds to it in [`WheelSystems::Body`](crate::WheelSystems::Body), and
/// [`WheelSystems::Apply`](crate::WheelSystems::Apply) hands the sum to avian once and
/// keeps its free part for the next step's suspension solve. World frame; torques about
/// the centre of mass of this step. Not state: written anew every step.
///
/// What does not go through it, and so is not in the suspension solve's free part: the
/// forces avian's solver finds itself (a joint's, such as a trailer's hitch, whose
/// force avian reports in `JointForces`; the contacts of the chassis' own collider), and
/// the opposite of a wheel's force on a dynamic body it stands on, which
/// `WheelSystems::Apply` gives straight to that body's `Forces` (`wheel/apply.rs`; for a
/// chassis parked on another, `docs/architecture.md`, "The force channel", says why).
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq)]
#[reflect(Component, Default, Clone)]
pub struct ChassisForces {
    /// The sum of the forces (N), at the centre of mass.
    pub(crate) force: Vec3,
    /// The sum of their moments and of pure torques (N·m).
    pub(crate) torque: Vec3,
    /// The part of `force` and `torque` besides the suspension's load along its
    /// direction (the tyres' forces, everything the body parts add): what the suspension
    /// solve counts as it counts gravity.
    pub(crate) free_force: Vec3,
    pub(crate) free_torque: Vec3,
    /// An angular acceleration given regardless of the body's inertia (rad/s²).
    pub(crate) angular_acceleration: Vec3,
    /// The wheels' spin angular momentum (N·m·s, world) whose gyroscopic torque with the
    /// chassis' own turning, `L × ω`, is in `torque`: [`WheelSystems::Apply`](crate::WheelSystems::Apply)
    /// takes that torque at the step's mean angular velocity instead (see
    /// [`add_rotor`](Self::add_rotor)).
    pub(crate) rotor: Vec3,
    /// The centre of mass the torques are about (world, m).
    pub(crate) centre_of_mass: Vec3,
    /// Whether a grounded wheel stands on another dynamic body, which takes the
    /// opposite force.
    pub(crate) reactions: bool,
}

impl ChassisForces {
    /// Adds a grounded wheel's force at its contact, with its moment, and its tyre's
    /// aligning torque about the ground normal; all of it free but the suspension's load
    /// along its direction (the one part the suspension solve finds itself).
    pub(crate) fn add_wheel(&mut self, output: &WheelOutput) {
        self.force += output.force;
        let arm = output.contact_position - self.centre_of_mass;
        self.torque += arm.cross(output.force);
        let suspension = output.output.load - output.output.jacking_force;
        let tyre = output.force - output.suspension_direction * suspension;
        self.free_force += tyre;
        self.free_torque += arm.cross(tyre);
        if let Some(hit) = output.hit {
            let aligning = hit.normal * output.output.aligning_torque;
            self.torque += aligning;
            self.free_torque += aligning;
        }
    }

    /// Adds a wheel's spin as a rotor in the chassis (grounded or not): its angular
    /// momentum `L = I·ω` along the axle turns with the axle (the chassis' angular
    /// velocity `chassis_rate` plus the steer's rate about the mount's up), and the torque
    /// that turns it, `dL/dt = ω_axle × L`, is the chassis' to give: the chassis gets
    /// `L × ω_axle` (the gyroscopic torque; a leaning bicycle's front wheel steers into
    /// the lean by it, `two_wheeler::benchmark`). `inertia` is the wheel's about its axle
    /// (kg·m²); the rest of the wheel's inertia is the chassis' own.
    ///
    /// The part with the chassis' own turning, `L × ω`, is taken at the step's mean
    /// angular velocity when the channel is applied (`wheel/apply.rs`): a
    /// gyroscopic pair between the chassis' roll and yaw taken at the step's start feeds
    /// energy into them as Euler's method does into a rotation, and a motorcycle's
    /// heavy wheels on its light roll inertia weave up by it (`docs/two-wheeler.md`,
    /// `two_wheeler::benchmark`).
    pub(crate) fn add_rotor(&mut self, output: &WheelOutput, inertia: f32, chassis_rate: Vec3, dt: f32) {
        let spin = output.output.angular_velocity;
        if spin == 0.0 {
            return;
        }
        // A wheel rolling forward (spin > 0) turns about −axle.
        let axle = output.rotation * Vec3::X;
        let momentum = axle * (-inertia * spin);
        let steer_rate = (output.yaw - output.previous_pose.2).to_radians() / dt;
        let turn = chassis_rate + output.up * steer_rate;
        let torque = momentum.cross(turn);
        if torque.is_finite() {
            self.torque += torque;
            self.free_torque += torque;
            self.rotor += momentum;
        }
    }

    /// Adds `force` (N, world) at `point` (world, m), with its moment about the centre
    /// of mass.
    pub fn add_force_at_point(&mut self, force: Vec3, point: Vec3) {
        let moment = (point - self.centre_of_mass).cross(force);
        self.add_force(force);
        self.add_torque(moment);
    }
    /// Adds `force` (N, world) at the centre of mass.
    pub fn add_force(&mut self, force: Vec3) {
        self.force += force;
        self.free_force += force;
    }
    /// Adds a torque (N·m, world).
    pub fn add_torque(&mut self, torque: Vec3) {
        self.torque += torque;
        self.free_torque += torque;
    }
    /// Adds an angular acceleration (rad/s², world) that does not depend on the body's
    /// inertia (the assists' turn of the body).
    pub fn add_angular_acceleration(&mut self, acceleration: Vec3) {
        self.angular_acceleration += acceleration;
    }
    /// The centre of mass this step's torques are about (world, m).
    pub fn centre_of_mass(&self) -> Vec3 {
        self.centre_of_mass
    }
    /// The force so far this step (N, world).
    pub fn force(&self) -> Vec3 {
        self.force
    }
    /// The torque so far this step (N·m, world, about the centre of mass).
    pub fn torque(&self) -> Vec3 {
        self.torque
    }
}

/// Optional, on a chassis: the driveline behind its driven wheels, solved with their
/// tyres in the wheels' step ([`solve_driveline`](wheelcollider_core::vehicle::solve_driveline):
/// the gearbox output, the differentials and the driven wheels' spins as one solve). The
/// vehicle layer writes `line` and `wheels` every step before the wheels' step, which
/// writes `drive`. Without it (or with no axle driven) each wheel spins on its own
/// [`WheelInput`].
///
/// A driven wheel's [`WheelInput::drive_torque`] is then only the solve's first guess,
/// and its [`WheelInput::drivetrain_inertia`] is not read: the driveline's inertia is in
/// `line`. The solve needs all the driven wheels in one group of the chassis (the first
/// [`MAX_WHEELS`](wheelcollider_core::suspension::MAX_WHEELS)); otherwise the wheels
/// spin on their own inputs.
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq, MapEntities)]
#[reflect(Component, Default, Clone)]
pub struct WheelDriveline {
    /// The driveline: the gearbox output's torque and inertia, each driven
    /// axle's share and differential.
    pub line: Driveline,
    /// The wheel entity at each of the driveline's wheel indices (`2·axle` left,
    /// `2·axle + 1` right); [`Entity::PLACEHOLDER`] where there is none.
    #[entities]
    pub wheels: [Entity; 2 * MAX_DRIVEN_AXLES],
    /// The drive torque the last solve gave each wheel index (N·m); 0 for undriven ones.
    pub drive: [f32; 2 * MAX_DRIVEN_AXLES],
    /// Rounds of wheel solves the last solve took (0: not solved).
    pub rounds: u32,
    /// Whether the last solve found the driveline's balance (with a tyre past its peak,
    /// the torque across which it jumps); false where it fell back to every wheel
    /// carrying its axle's share ([`DrivelineSolution::converged`](wheelcollider_core::vehicle::DrivelineSolution::converged)).
    pub converged: bool,
}

impl Default for WheelDriveline {
    fn default() -> Self {
        Self {
            line: Driveline::default(),
            wheels: [Entity::PLACEHOLDER; 2 * MAX_DRIVEN_AXLES],
            drive: [0.0; 2 * MAX_DRIVEN_AXLES],
            rounds: 0,
            converged: false,
        }
    }
}

/// The visual entity of a wheel, a **child of the wheel entity**: its local
/// [`Transform`] is set every frame to the wheel centre with steer, toe, camber and spin,
/// interpolated between physics steps so it is smooth at any frame rate.
///
/// For a wheel outside the chassis' hierarchy (`WheelOf` without `ChildOf`), make the
/// visual a **child of the chassis** instead: its transform is then set in the chassis'
/// frame, through the wheel's mount ([`Transform`] of the wheel), to the same place.
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq, Eq, MapEntities)]
#[reflect(Component, Debug, Clone)]
pub struct WheelModel(#[entities] pub Entity);

/// An anti-roll bar from this wheel to another of the same chassis (put one on each end,
/// naming each other; the vehicle layer does this for each axle with a bar).
///
/// The bar is solved with the suspension, implicitly: its force at this wheel is
/// `stiffness · (x̂_this − x̂_partner)` with the compressions at the end of the step, so
/// any stiffness is stable. While one wheel carries no load (in the air, or touching but
/// released), it hangs where its spring balances the bar, and the bar acts at the loaded
/// wheel alone, in series with that spring
/// ([`hanging_bar_rate`](wheelcollider_core::hanging_bar_rate)); it adds no net force to
/// the chassis.
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq, MapEntities)]
#[reflect(Component, Debug, Clone)]
pub struct AntiRollBar {
    /// The wheel at the bar's other end.
    #[entities]
    pub partner: Entity,
    /// The bar's stiffness (N/m of compression difference), ≥ 0.
    pub stiffness: f32,
}

/// Optional: the collision layers the wheel's sweep hits (its `filters`). Without it the
/// sweep uses the chassis collider's [`CollisionLayers`] filters, or hits everything.
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq)]
#[reflect(Component, Debug, Clone)]
pub struct WheelSweepLayers(pub LayerMask);

/// What a wheel derives from its settings and input, kept between steps only to save
/// work: rebuilt whenever what it was derived from changes, so it is never state (a
/// rollback need not save it). The shape of a sphere or cylinder wheel (so that the
/// per-step sweep allocates nothing), the cosine of the steepest ground, and the steer
/// and camber rotations. Managed by the plugin.
#[derive(Component, Clone, Debug, Default)]
pub(crate) struct WheelCache {
    /// The sweep's shape, for (sweep type, radius m, width m).
    pub(crate) shape: Option<(Collider, SweepType, f32, f32)>,
    /// (max_ground_angle in degrees, its cosine).
    pub(crate) ground_cos: Option<(f32, f32)>,
    /// The steer (steer + toe, deg) and camber (deg) and their rotations about the
    /// mount's Y and Z.
    pub(crate) steer: (f32, f32, Quat, Quat),
}
