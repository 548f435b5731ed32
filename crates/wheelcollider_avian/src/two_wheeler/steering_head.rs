//! The steering head: a front assembly (fork, handlebar, front wheel) that turns about a
//! tilted axis on its chassis, driven by the forces on it, as a bicycle's or a
//! motorcycle's does. Nothing holds it straight: the ground's push at the trail, the
//! front assembly's weight ahead of the axis and the front wheel's gyroscopic torque
//! turn it into a lean, and a rider's torque on the handlebar steers it.
//!
//! The head is one degree of freedom in reduced coordinates, solved here, not a joint
//! between two avian bodies: the chassis is one rigid body with the front assembly in
//! its mass and inertia (at straight ahead), and the head adds what the assembly's
//! turning relative to it changes. A light fork on a revolute joint to a heavy frame is
//! what avian's position-level joints solve least well (their velocity error outgrows a
//! bicycle's weave; `docs/two-wheeler.md`), and the exact coupling of one hinge to a
//! floating body is a few lines (Featherstone's articulated-body step for one joint).
//!
//! Each step, after the wheels' step and the body parts (the front wheel's force and
//! everything else on the chassis this step are known):
//!
//! 1. The torque about the head axis `τ`: the front wheel's force at its contact and its
//!    aligning torque, the front wheel's gyroscopic torque (its spin's angular momentum
//!    turned with the chassis), the steering damper and the rider's arms (both taken
//!    implicitly) and the rider's torque.
//! 2. The head's acceleration `δ̈` from the assembly's equation about the axis,
//!    `I_s·δ̈ = τ − s·I_o·Ω̇ − m·s·(e × (a_o − g))`, with the chassis' angular and
//!    linear accelerations `Ω̇`, `a_o` those its force channel gives it *with* the
//!    head's own reaction, so both are solved together (the equation is affine in `δ̈`).
//! 3. The reaction on the chassis: the force `−m·(s × e)·δ̈` and the torque
//!    `−(I_o·s + m·(o − c) × (s × e))·δ̈` (the assembly's momentum relative to the
//!    chassis changing), and the front wheel's gyroscopic torque from the head's turn.
//! 4. `δ̇`, `δ` by semi-implicit Euler, held within the lock (a stop takes the rate to 0
//!    in the step, its impulse through the reaction); the front wheel's mount turned
//!    about the axis by `δ` for the next step.
//!
//! `s` the axis, `o` a point of it, `c` the chassis' centre of mass, `e` the assembly's
//! centre of mass from `o`, `I_o` its inertia about `o`, `m` its mass, `g` gravity.
//! Left out, each second order in the small motions: the change of the chassis' inertia
//! as the assembly turns, the assembly's own gyroscopic torque (`ω × I·ω`) and the
//! centripetal terms of its turning. Proved by `two_wheeler::benchmark` (the benchmark
//! bicycle's eigenvalues at 30–240 Hz).

use crate::wheel::components::{ChassisForces, WheelCollider, WheelOutput};
use avian3d::prelude::*;
use bevy::prelude::*;
use wheelcollider_core::vehicle::VehicleSettings;

/// A steering head on a chassis: its front wheel turns about `axis` through `anchor`
/// by the forces on the front assembly (see the module docs). Put it on the chassis'
/// rigid body; the front wheel is a child of the same body, its
/// [`WheelInput::steer_angle`](crate::WheelInput::steer_angle) left at 0 (the head
/// turns its mount). The chassis' mass and inertia include the front assembly's (at
/// straight ahead).
///
/// Angles are positive to the left: about `axis`, which points up. A head whose numbers
/// give no finite step (no mass and no inertia about its axis, a non-finite input) stays
/// where it is that step and adds nothing to the chassis.
#[derive(Component, Clone, Debug, PartialEq, Reflect)]
#[reflect(Component)]
pub struct SteeringHead {
    /// The front wheel the head turns (a child of the chassis).
    pub wheel: Entity,
    /// The front wheel's mount at straight ahead (chassis frame).
    pub mount: Transform,
    /// The head axis (chassis frame, unit, pointing up; tilted back by the head angle's
    /// complement, the rake).
    pub axis: Vec3,
    /// A point of the head axis (chassis frame, m).
    pub anchor: Vec3,
    /// The front assembly's mass (kg), with its wheel.
    pub mass: f32,
    /// The front assembly's centre of mass at straight ahead (chassis frame, m).
    pub centre_of_mass: Vec3,
    /// The front assembly's inertia tensor about its centre of mass at straight ahead
    /// (chassis axes, kg·m²), its wheel's included.
    pub inertia: Mat3,
    /// The steering damper (N·m·s/rad, ≥ 0).
    pub damping: f32,
    /// The steering lock (rad, > 0): the head turns at most this far either way.
    pub lock: f32,
    /// The rider's torque on the handlebar this step (N·m, positive turns left).
    pub torque: f32,
    /// The rider's arms' damping on the handlebar this step (N·m·s/rad, ≥ 0), taken
    /// implicitly with the [`damping`](Self::damping): a rider's hands damp the steering
    /// as a damper does, and a stiff one taken explicitly would overshoot.
    pub arms: f32,
    /// The steer angle (rad, positive left).
    pub angle: f32,
    /// The steer rate (rad/s).
    pub rate: f32,
}

impl SteeringHead {
    /// A head on `wheel`, mounted at `mount` at straight ahead, turning about `axis`
    /// through `anchor`, with a front assembly of `mass` (kg) at `centre_of_mass` with
    /// `inertia` (kg·m² about it; all in the chassis frame). No damper, a 45° lock,
    /// straight ahead and still.
    pub fn new(
        wheel: Entity,
        mount: Transform,
        axis: Vec3,
        anchor: Vec3,
        mass: f32,
        centre_of_mass: Vec3,
        inertia: Mat3,
    ) -> Self {
        Self {
            wheel,
            mount,
            axis: axis.normalize_or(Vec3::Y),
            anchor,
            mass,
            centre_of_mass,
            inertia,
            damping: 0.0,
            lock: core::f32::consts::FRAC_PI_4,
            torque: 0.0,
            arms: 0.0,
            angle: 0.0,
            rate: 0.0,
        }
    }

    /// The head of a two-wheeler's settings ([`VehicleSettings::two_wheeler`]) on its
    /// front wheel `wheel`: the axis and anchor of its
    /// [`head_geometry`](VehicleSettings::head_geometry), the front assembly, damper and
    /// lock; straight ahead and still. `None` for a vehicle that is not a two-wheeler.
    pub fn of_vehicle(wheel: Entity, settings: &VehicleSettings) -> Option<Self> {
        let mut head = Self::new(
            wheel,
            Transform::IDENTITY,
            Vec3::Y,
            Vec3::ZERO,
            1.0,
            Vec3::ZERO,
            Mat3::IDENTITY,
        );
        head.take_settings(settings).then_some(head)
    }

    /// Takes a two-wheeler's numbers from `settings` (geometry, front assembly, damper,
    /// lock), keeping its wheel, angle, rate and torque (the angle held within the new
    /// lock). Returns false, changing nothing, for a vehicle that is not a two-wheeler.
    pub fn take_settings(&mut self, settings: &VehicleSettings) -> bool {
        let (Some(bike), Some(geometry)) = (settings.two_wheeler.as_ref(), settings.head_geometry()) else {
            return false;
        };
        self.mount = Transform::from_translation(Vec3::from(geometry.mount));
        self.axis = Vec3::from(geometry.axis).normalize_or(Vec3::Y);
        self.anchor = Vec3::from(geometry.anchor);
        self.mass = bike.front_mass;
        self.centre_of_mass = Vec3::from(bike.front_centre_of_mass);
        let frame = Mat3::from_rotation_x(bike.front_inertia_tilt.to_radians());
        self.inertia = frame * Mat3::from_diagonal(Vec3::from(bike.front_inertia)) * frame.transpose();
        self.damping = bike.steering_damper;
        self.lock = bike.lock.to_radians();
        self.angle = self.angle.clamp(-self.lock, self.lock);
        true
    }

    /// The front wheel's mount at the steer angle `angle` (chassis frame).
    pub fn mount_at(&self, angle: f32) -> Transform {
        let turn = Quat::from_axis_angle(self.axis, angle);
        Transform {
            translation: self.anchor + turn * (self.mount.translation - self.anchor),
            rotation: turn * self.mount.rotation,
            scale: self.mount.scale,
        }
    }
}

/// Every [`SteeringHead`]'s step (the module docs): its torque, its acceleration solved
/// with its chassis', the reaction into the chassis' [`ChassisForces`], its angle, and
/// the front wheel's mount for the next step. First in [`WheelSystems::Apply`](crate::WheelSystems::Apply),
/// after every body part has added to the channel.
pub(crate) fn steer_heads(
    time: Res<Time>,
    mut chassis: Query<(
        &mut SteeringHead,
        &Position,
        &Rotation,
        &AngularVelocity,
        &ComputedMass,
        &ComputedAngularInertia,
        &mut ChassisForces,
    )>,
    mut wheels: Query<(&WheelOutput, &WheelCollider, &mut Transform)>,
) {
    let dt = time.delta_secs();
    if dt <= 0.0 {
        return;
    }
    for (mut head, position, rotation, spin, mass, inertia, mut forces) in &mut chassis {
        let Ok((output, wheel, mut mount)) = wheels.get_mut(head.wheel) else {
            continue;
        };
        let Some(step) = head_step(
            &head,
            (position.0, rotation.0, spin.0),
            (mass, inertia),
            &forces,
            output,
            wheel,
            dt,
        ) else {
            continue;
        };
        forces.add_force(step.force);
        forces.add_torque(step.torque);
        (head.rate, head.angle) = (step.rate, step.angle);
        *mount = head.mount_at(step.angle);
    }
}

/// What one head's step gives: the reaction on the chassis (N, N·m about its centre of
/// mass, world) and the new rate and angle.
struct HeadStep {
    force: Vec3,
    torque: Vec3,
    rate: f32,
    angle: f32,
}

/// One head's step (the module docs, 1–4); `None` when its numbers are not finite.
fn head_step(
    head: &SteeringHead,
    (position, rotation, spin): (Vec3, Quat, Vec3),
    (mass, inertia): (&ComputedMass, &ComputedAngularInertia),
    forces: &ChassisForces,
    output: &WheelOutput,
    wheel: &WheelCollider,
    dt: f32,
) -> Option<HeadStep> {
    let (angle, rate) = (head.angle, head.rate);
    // The assembly in the world at this angle: the axis s, the anchor o, its centre
    // e from o, its inertia about o.
    let turned = rotation * Quat::from_axis_angle(head.axis, angle);
    let s = rotation * head.axis;
    let o = position + rotation * head.anchor;
    let e = turned * (head.centre_of_mass - head.anchor);
    let basis = Mat3::from_quat(turned);
    let inertia_o = basis * head.inertia * basis.transpose()
        + (Mat3::from_diagonal(Vec3::splat(e.length_squared())) - outer(e, e)) * head.mass;
    let c = forces.centre_of_mass();
    // 1. The torque about the axis, and the front wheel's gyroscopic torque from the
    // head's turn (the chassis' own turn is in the wheels' step).
    let momentum = (output.rotation * Vec3::X) * (-wheel.inertia() * output.output.angular_velocity);
    let damping = head.damping.max(0.0) + head.arms.max(0.0);
    let mut tau = head.torque - damping * rate;
    // The damper is taken implicitly (a stiff one would overshoot explicitly). The front
    // tyre's castor damping is not: its force answers the head's turn a step later
    // through its relaxation, and an implicit term for it on top of that lag damps the
    // weave too much (`two_wheeler::benchmark`; `docs/two-wheeler.md`, the 30 Hz shimmy).
    if output.output.grounded {
        tau += s.dot((output.contact_position - o).cross(output.force));
        if let Some(hit) = output.hit {
            tau += s.dot(hit.normal) * output.output.aligning_torque;
        }
    }
    // 2. The acceleration, solved with the chassis' (affine in it: two evaluations).
    let inverse_mass = mass.inverse();
    let inverse_inertia = inertia.rotated(rotation).inverse();
    let lever = o - c;
    let sweep = s.cross(e) * head.mass;
    let k = inertia_o * s + lever.cross(sweep);
    let (f0, t0) = (forces.force(), forces.torque());
    // The front wheel's gyroscopic pair, at the end of the step's rates (both are
    // affine in `x`): the chassis turning the spinning wheel torques the head,
    // `s·(L × Ω')`, and the head turning it torques the chassis, `L × s·δ̇'`. Taken at the
    // start of the step, the pair feeds energy into the weave (a coupling through the
    // velocities, explicit both ways, is a rotation integrated by Euler's method; the
    // measurements: `docs/two-wheeler.md`, `two_wheeler::benchmark`).
    let gyro_on_chassis = |x: f32| momentum.cross(s * (rate + x * dt));
    let residual = |x: f32| {
        let linear = (f0 - sweep * x) * inverse_mass;
        let angular = inverse_inertia * (t0 - k * x + gyro_on_chassis(x));
        let at_anchor = linear + angular.cross(lever);
        let spin_end = spin + angular * dt;
        (inertia_o.mul_vec3(s).dot(s) + damping * dt) * x - tau - s.dot(momentum.cross(spin_end))
            + s.dot(inertia_o * angular)
            + head.mass * s.dot(e.cross(at_anchor))
    };
    let (r0, r1) = (residual(0.0), residual(1.0));
    let mut acceleration = -r0 / (r1 - r0);
    // 4. Integrate; a stop takes the rate to 0 in this step.
    let lock = head.lock.max(0.0);
    let mut new_rate = rate + acceleration * dt;
    let mut new_angle = angle + new_rate * dt;
    if new_angle.abs() > lock {
        new_angle = new_angle.clamp(-lock, lock);
        new_rate = 0.0;
        acceleration = -rate / dt;
    }
    // 3. The reaction of the turning assembly on the chassis.
    let force = -sweep * acceleration;
    let torque = -k * acceleration + momentum.cross(s * new_rate);
    (force.is_finite() && torque.is_finite() && new_rate.is_finite() && new_angle.is_finite()).then_some(HeadStep {
        force,
        torque,
        rate: new_rate,
        angle: new_angle,
    })
}

/// The outer product `a bᵀ`.
fn outer(a: Vec3, b: Vec3) -> Mat3 {
    Mat3::from_cols(a * b.x, a * b.y, a * b.z)
}
