//! Sensing one wheel: its mount in the world, the sweep, what counts as ground, and the
//! contact in the wheel's frame, with the suspension's row for the chassis' implicit
//! solve ([`super::suspension`]).
//!
//! The data path of one wheel in one step: `contact::sense_wheel` (this file) →
//! `suspension::solve_chassis` (all wheels of the chassis together) →
//! `model::finish_wheel` (the core's tyre and spin, the force).
//!
//! Why `ground_contact` is long (about 145 lines): the contact frame, velocities, ground
//! camber, effective masses and surface of one hit, computed from shared vectors in the
//! order the wheel model reads them.

use super::approach::approach_speed;
use super::components::*;
use super::sweep::{CastHit, CastQuery, GroundFilter, WheelCasts};
use avian3d::prelude::*;
use bevy::prelude::*;
use wheelcollider_core::{Contact, STICK_SPEED, SuspensionForceDirection, SuspensionRow, SweepType, compression_of};

/// A body this light or lighter (kg) is treated as having no usable mass for the
/// effective-mass terms.
pub(crate) const MIN_MASS: f32 = 1e-6;

/// Ground bodies: velocity at a point for moving platforms.
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

/// Turns avian's cylinder (axis along Y) to lie along the wheel's axle (X): −90° about Z.
const CYLINDER_TO_AXLE: Quat = Quat::from_xyzw(
    0.0,
    0.0,
    -core::f32::consts::FRAC_1_SQRT_2,
    core::f32::consts::FRAC_1_SQRT_2,
);

/// A sweep that starts this deep inside another dynamic body (m) is a collision between
/// the bodies, for avian's solver: the wheel ignores that body.
const INSIDE_DYNAMIC: f32 = 1e-4;

#[inline]
pub(crate) fn finite_or_zero(v: f32) -> f32 {
    if v.is_finite() { v } else { 0.0 }
}

/// `1/m + (r×u)·I⁻¹(r×u)`, or 0 if that is not a finite positive number.
#[inline]
pub(crate) fn inverse_effective_mass(
    inverse_mass: f32,
    inverse_inertia: &avian3d::math::SymmetricMatrix,
    r: Vec3,
    u: Vec3,
) -> f32 {
    let ru = r.cross(u);
    let k = inverse_mass + ru.dot(inverse_inertia.mul_vec3(ru));
    if k > 0.0 && k.is_finite() { k } else { 0.0 }
}

/// Makes a shape cast's distance exact against the tangent plane of its hit.
///
/// Parry's shape cast (GJK-based time of impact) loses precision against large shapes:
/// measured here, a 0.3 m sphere over a 400 m ground box stops 2.4 cm early and a
/// cylinder 4.7 cm (0.3 mm over a 40 m box). The hit point and normal it returns are
/// accurate, so the distance is recomputed exactly: how far the shape's support point
/// towards the surface travels along −`up` to reach the plane through the hit point.
/// Used when the plane faces the sweep (`up·n > 0.1`) and the correction moves the hit
/// later (the cast's error is always an early stop: 7.8 cm for a 0.14 m kart wheel over
/// a 400 m box), or earlier by less than a quarter of the radius. It is applied to every
/// candidate before the closest is chosen; one refined beyond the sweep's reach does not
/// touch and is skipped ([`WheelCasts::shape`](crate::sweep::WheelCasts::shape)).
#[inline]
fn refine_distance(
    start: Vec3,
    up: Vec3,
    radius: f32,
    cylinder: Option<(Vec3, f32)>,
    point: Vec3,
    normal: Vec3,
    distance: f32,
) -> f32 {
    let Some(n) = normal.try_normalize() else {
        return distance;
    };
    let facing = up.dot(n);
    if facing < 0.1 {
        return distance;
    }
    // Support point of the shape (relative to its centre) in direction −n.
    let v = -n;
    let support = match cylinder {
        None => v * radius,
        Some((axis, half_width)) => {
            let across = (v - axis * v.dot(axis)).normalize_or_zero();
            axis * half_width * v.dot(axis).signum() + across * radius
        }
    };
    // (start − up·t + support − point)·n = 0
    let t = (start + support - point).dot(n) / facing;
    if t.is_finite() && t - distance > -0.25 * radius.max(0.05) {
        t.max(0.0)
    } else {
        distance
    }
}

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
    pub center_of_mass: Vec3,
    /// The chassis collider's layer filters, for wheels without [`WheelSweepLayers`].
    pub filters: Option<LayerMask>,
    /// Grounded wheels of the last step, at least 1.
    pub share: f32,
    /// The chassis' gravity (m/s²): avian's `Gravity` times its `GravityScale`.
    pub gravity: Vec3,
}
/// A wheel's ground contact, as sensed before the suspension is solved.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Grounded {
    /// The contact for the core (its `suspension` is filled in after the solve).
    pub contact: Contact,
    /// What the sweep hit.
    pub hit: WheelHit,
    /// The tyre's forward and sideways directions in the ground plane (world, unit).
    pub forward: Vec3,
    pub sideways: Vec3,
    /// Where the forces act (world): the hit point projected on the suspension axis.
    pub position: Vec3,
    /// The suspension force's direction (world, unit).
    pub direction: Vec3,
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
    /// The compression this step gained beyond the bodies' approach (m): the ground's own
    /// rise (see [`super::suspension::ground_rise`]).
    pub rise_gain: f32,
    /// How long the compression has gained on every step (s), this one's included.
    pub rise_streak: f32,
}

/// One wheel, sensed: its pose for the visuals and state, and its contact if grounded.
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
            ground: None,
        }
    }
}

/// What [`sense_wheel`] reads of one wheel.
pub(crate) struct WheelView<'a> {
    pub entity: Entity,
    pub wheel: &'a WheelCollider,
    pub input: &'a WheelInput,
    pub mount: &'a Transform,
    pub layers: Option<&'a WheelSweepLayers>,
    pub bar: Option<&'a AntiRollBar>,
}

/// The world and the chassis, as every wheel of one chassis senses them.
pub(crate) struct SenseContext<'a, 'w, 's> {
    pub frame: &'a ChassisFrame,
    /// Cast against the static tree alone (see `WheelCasts::moving_in`).
    pub static_only: bool,
    pub dt: f32,
    pub casts: &'a WheelCasts<'w, 's>,
    pub ground: &'a GroundQuery<'w, 's>,
    pub surfaces: Option<&'a SurfaceQuery<'w, 's>>,
}

/// The mount in the world, the steer and camber rotations (kept from the last step while
/// they stay the same): (mount position, up, steered rotation, wheel rotation, yaw deg).
fn mount_frame(frame: &ChassisFrame, view: &WheelView, state: &mut WheelState) -> (Vec3, Vec3, Quat, Quat, f32) {
    let settings = &view.wheel.0;
    let rot = frame.rotation;
    let mount_rot = rot * view.mount.rotation;
    let mount_pos = frame.position + rot * view.mount.translation;
    let up = mount_rot * Vec3::Y;
    let yaw_deg =
        (finite_or_zero(view.input.steer_angle).clamp(-90.0, 90.0) + settings.toe_angle()).clamp(-135.0, 135.0);
    let camber_deg = settings.camber_angle();
    let (cached_yaw, cached_camber, ..) = state.steer_cache;
    if cached_yaw.to_bits() != yaw_deg.to_bits() || cached_camber.to_bits() != camber_deg.to_bits() {
        state.steer_cache = (
            yaw_deg,
            camber_deg,
            Quat::from_axis_angle(Vec3::Y, yaw_deg.to_radians()),
            Quat::from_axis_angle(Vec3::Z, camber_deg.to_radians()),
        );
    }
    let (_, _, yaw, camber_rot) = state.steer_cache;
    let steered = mount_rot * yaw;
    (mount_pos, up, steered, steered * camber_rot, yaw_deg)
}

/// The sweep of one wheel: the closest hit that is ground (see [`GroundFilter`]).
fn sweep(
    ctx: &SenseContext,
    view: &WheelView,
    cache: &mut WheelSweepShape,
    mount_pos: Vec3,
    up: Vec3,
    wheel_rot: Quat,
) -> Option<CastHit> {
    let settings = &view.wheel.0;
    let (radius, length) = (settings.radius(), settings.suspension_length());
    // A rotated unit vector: normalising it again is only needed if the chassis'
    // rotation drifted off unit length.
    let down = if up.is_normalized() {
        Dir3::new_unchecked(-up)
    } else {
        Dir3::new(-up).unwrap_or(Dir3::NEG_Y)
    };
    let mask = view.layers.map(|l| l.0).or(ctx.frame.filters).unwrap_or(LayerMask::ALL);
    let chassis = ctx.frame.entity;
    let reach = length + radius;
    let angle = settings.max_ground_angle();
    let min_cos = match cache.ground_cos {
        Some((a, cos)) if a.to_bits() == angle.to_bits() => cos,
        _ => {
            let cos = angle.to_radians().cos();
            cache.ground_cos = Some((angle, cos));
            cos
        }
    };
    let query = CastQuery {
        mask,
        chassis,
        static_only: ctx.static_only,
        filter: GroundFilter { up, min_cos },
    };
    match settings.sweep_type() {
        SweepType::Ray => ctx.casts.ray(mount_pos, down, reach, &query),
        sweep => {
            // Axis along the axle after steer, toe and camber.
            let axle = (sweep == SweepType::Cylinder).then(|| wheel_rot * Vec3::X);
            let width = settings.width();
            let cache = &mut cache.shape;
            if !matches!(cache, Some((_, s, r, w)) if *s == sweep && *r == radius && *w == width) {
                let shape = match sweep {
                    SweepType::Sphere => Collider::sphere(radius),
                    _ => Collider::cylinder(radius, width),
                };
                *cache = Some((shape, sweep, radius, width));
            }
            let shape = &cache.as_ref().expect("built above").0;
            let shape_rot = match axle {
                None => Quat::IDENTITY,
                Some(_) => wheel_rot * CYLINDER_TO_AXLE,
            };
            let start = mount_pos + up * radius;
            let cylinder = axle.map(|a| (a, width * 0.5));
            let refine = |point, normal, d| refine_distance(start, up, radius, cylinder, point, normal, d);
            ctx.casts.shape(shape, (start, shape_rot), down, reach, &query, refine)
        }
    }
}

/// One wheel's sensing: the mount frame, the sweep, and the contact with its suspension
/// row, for the chassis' solve.
pub(crate) fn sense_wheel(
    ctx: &SenseContext,
    view: &WheelView,
    state: &mut WheelState,
    cache: &mut WheelSweepShape,
) -> Sensed {
    let frame = ctx.frame;
    let (mount_pos, up, steered, wheel_rot, yaw) = mount_frame(frame, view, state);
    relax_spring(&view.wheel.0, state, ctx.dt);
    let mut sensed = Sensed {
        entity: view.entity,
        mount_position: mount_pos,
        up,
        wheel_rotation: wheel_rot,
        yaw,
        spring: view.wheel.suspension_spring(),
        ground: None,
    };
    let Some(hit) = sweep(ctx, view, cache, mount_pos, up, wheel_rot) else {
        return sensed;
    };
    // What the wheel stands on. A moving body gives the velocity to measure against; a
    // dynamic one (another car, a plank) is pushed back and shares the contact's mass.
    // A sweep that starts inside a dynamic body is a collision between the bodies, which
    // avian resolves: the wheel ignores it (two cars side by side).
    let other = hit
        .body
        .filter(|&b| !hit.on_static && b != frame.entity)
        .and_then(|b| ctx.ground.get(b).ok())
        .filter(|g| !g.0.is_static())
        .map(|(kind, pos, rot, lin, ang, com, mass, inertia)| {
            let center = pos.0 + rot.0 * com.0;
            let inverse = match (kind.is_dynamic(), mass, inertia) {
                (true, Some(m), Some(i)) if m.value() > MIN_MASS => Some((m.inverse(), i.rotated(rot.0).inverse())),
                _ => None,
            };
            GroundBody {
                dynamic: kind.is_dynamic(),
                center,
                linear_velocity: lin.0,
                angular_velocity: ang.0,
                inverse,
            }
        });
    if other.is_some_and(|g| g.dynamic) && hit.distance <= INSIDE_DYNAMIC {
        return sensed;
    }
    sensed.ground = Some(ground_contact(ctx, view, state, &sensed, steered, hit, other));
    sensed
}

/// Ground surfaces (grip, rolling resistance, roughness) on colliders or their bodies.
pub(crate) type SurfaceQuery<'w, 's> = Query<'w, 's, &'static super::surface::WheelSurface>;

/// How long a spring offset takes to relax by a factor e (s).
pub(crate) const SPRING_RELAX_TIME: f32 = 0.5;

/// The fastest a spring offset relaxes (m/s): a travel made 80 cm longer raises the car
/// over three seconds instead of throwing it up.
pub(crate) const SPRING_RELAX_SPEED: f32 = 0.25;

/// Keeps the spring's force continuous across run-time edits: a stiffer spring at the
/// same compression, or a longer travel, would push harder at once and release the
/// difference's energy in one step (a parked car's spring typed a hundred times
/// stiffer threw it off the ground). The spring's relaxed compression moves so that the
/// force stays what it was, then relaxes back to 0 with [`SPRING_RELAX_TIME`], at most
/// [`SPRING_RELAX_SPEED`]: the car rises to its new ride height in a second or two. A
/// longer travel or a larger radius moves it in the air too: the wheel then reaches the
/// ground at once as deep as the change, which would otherwise fire the spring with
/// `k` × the change (a kart edited in the air to 1 m of travel landed on 19 kN a wheel).
fn relax_spring(settings: &wheelcollider_core::WheelSettings, state: &mut WheelState, dt: f32) {
    let k = settings.suspension_spring();
    let geometry = settings.suspension_length() + settings.radius();
    if state.geometry > 0.0 && state.geometry != geometry {
        state.spring_offset += geometry - state.geometry;
    }
    if state.stiffness > 0.0 && k > state.stiffness && state.output.grounded {
        let x = state.output.compression;
        state.spring_offset = x - state.stiffness / k * (x - state.spring_offset);
    }
    state.stiffness = k;
    if state.spring_offset == 0.0 {
        // Nothing to relax (the usual case: no edit in the last seconds).
        return;
    }
    let relaxed = state.spring_offset * (-dt / SPRING_RELAX_TIME).exp();
    let step = SPRING_RELAX_SPEED * dt;
    state.spring_offset = finite_or_zero(relaxed.clamp(state.spring_offset - step, state.spring_offset + step));
}

/// A moving body a wheel stands on.
#[derive(Clone, Copy)]
struct GroundBody {
    dynamic: bool,
    /// Its centre of mass (world, m).
    center: Vec3,
    linear_velocity: Vec3,
    angular_velocity: Vec3,
    /// A dynamic body's inverse mass and world inverse inertia.
    inverse: Option<(f32, avian3d::math::SymmetricMatrix)>,
}

/// The contact in the wheel's frame and the suspension's row, for a sweep hit.
fn ground_contact(
    ctx: &SenseContext,
    view: &WheelView,
    state: &WheelState,
    sensed: &Sensed,
    steered: Quat,
    hit: CastHit,
    other: Option<GroundBody>,
) -> Grounded {
    let (frame, settings) = (ctx.frame, &view.wheel.0);
    let (up, mount_pos) = (sensed.up, sensed.mount_position);
    let (forward0, right0) = (steered * Vec3::NEG_Z, steered * Vec3::X);
    let normal = hit.normal.try_normalize().unwrap_or(up);
    let forward = forward0.reject_from_normalized(normal).normalize_or_zero();
    let sideways = right0.reject_from_normalized(normal).normalize_or_zero();
    let position = mount_pos + up * (hit.point - mount_pos).dot(up);
    // Camber from the ground: the angle from the normal to the mount's up, about
    // forward, positive when the top leans to −sideways. atan2 with the core's fast atan
    // in the usual case (the normal within 90° of the mount's up).
    let n_p = normal.reject_from(forward0);
    let up_p = up.reject_from(forward0);
    let (sin_c, cos_c) = (n_p.cross(up_p).dot(-forward0), n_p.dot(up_p));
    let ground_camber = if cos_c > 0.0 {
        wheelcollider_core::fast_atan(sin_c / cos_c)
    } else {
        sin_c.atan2(cos_c)
    }
    .to_degrees();
    // Velocities relative to the ground body: the chassis' at the hit (the tyre) and at
    // the force's point (the suspension), the ground's at the hit alone. The force's
    // point lies on the suspension axis, off a small body under a sphere or cylinder
    // wheel (a log, a crate): the body's spin carried out to it is no motion of its
    // surface. Read there, a log rolling at 5 m/s (50 rad/s) under a rear wheel 0.3 m
    // from its centre read as 12 m/s of approach, and the damper shot it out at up to
    // 17.5 m/s (`tests/platforms.rs`).
    let com = frame.center_of_mass;
    let own = |p: Vec3| frame.linear_velocity + frame.angular_velocity.cross(p - com);
    let ground = other.map_or(Vec3::ZERO, |g| {
        g.linear_velocity + g.angular_velocity.cross(hit.point - g.center)
    });
    let velocity = own(hit.point) - ground;
    let surface = ctx
        .surfaces
        .and_then(|q| q.get(hit.entity).ok().or_else(|| hit.body.and_then(|b| q.get(b).ok())))
        .map(|s| s.sanitized());
    // The effective masses for static friction (below STICK_SPEED) and for a relaxation
    // length's stability bound and low-speed damping (any speed, when the wheel has
    // one): the chassis' at the contact, reduced by a dynamic ground's, a strict share
    // over the grounded wheels.
    let r = position - com;
    let ground_inverse_along = |u: Vec3| match other.and_then(|g| g.inverse.map(|i| (i, hit.point - g.center))) {
        Some(((im, ii), rg)) => inverse_effective_mass(im, &ii, rg, u),
        None => 0.0,
    };
    let masses = velocity.length_squared() < STICK_SPEED * STICK_SPEED
        || settings.lateral_relaxation_length() > 0.0
        || settings.longitudinal_relaxation_length() > 0.0;
    let stick_mass = |u: Vec3| {
        let k = inverse_effective_mass(frame.inverse_mass, &frame.inverse_inertia, r, u) + ground_inverse_along(u);
        if masses && k > 0.0 { 1.0 / k / frame.share } else { 0.0 }
    };
    let mut contact = Contact {
        hit_distance: hit.distance,
        forward_velocity: velocity.dot(forward),
        sideways_velocity: velocity.dot(sideways),
        ground_camber: finite_or_zero(ground_camber),
        hit_x: hit.point.x,
        hit_z: hit.point.z,
        grip: surface.map_or(1.0, |s| s.grip),
        surface_rolling_resistance: surface.map_or(0.0, |s| s.rolling_resistance),
        surface_bump: surface.map_or(0.0, |s| s.bump(hit.point.x, hit.point.z)),
        suspension_mass: 0.0,
        forward_mass: stick_mass(forward),
        sideways_mass: stick_mass(sideways),
        // The row's speed, set below.
        approach_speed: 0.0,
        suspension: None,
    };
    // The suspension's row. Its speed is the mount's approach to the ground from the
    // bodies' velocities ([`approach_speed`]), plus the road bump's own rate. Not
    // the rate at which the compression changes: a wheel that rolls onto a kerb or a
    // triangle's edge jumps its compression in a step, and read as a speed that jump
    // would be metres per second of approach (a bump stop that stops it throws the car;
    // measured: 180° over a 12 cm kerb at 100 km/h). The spring takes the jump as a
    // position instead.
    let (compression, bump) = compression_of(settings, &contact);
    let bump_rate = if state.output.grounded {
        (bump - state.output.bump) / ctx.dt
    } else {
        0.0
    };
    let direction = match settings.suspension_force_direction() {
        SuspensionForceDirection::ContactNormal => normal,
        SuspensionForceDirection::SuspensionAxis => up,
    };
    let approach = approach_speed(own(position) - ground, up, normal);
    let speed = finite_or_zero(approach + bump_rate);
    let along_ground = (contact.forward_velocity, contact.sideways_velocity);
    let (rise_gain, ground_rise, rise_streak) =
        super::suspension::ground_rise(settings, state, compression, speed, along_ground, ctx.dt);
    let row = SuspensionRow {
        compression,
        speed,
        free_acceleration: finite_or_zero(-frame.gravity.dot(up)),
        stiffness: settings.suspension_spring(),
        bump_damping: settings.suspension_bump(),
        rebound_damping: settings.suspension_rebound(),
        length: settings.suspension_length(),
        spring_offset: state.spring_offset,
        extra_force: finite_or_zero(view.input.anti_roll_force),
        ground_rise,
        anti_roll: None,
        anti_roll_hanging: 0.0,
    };
    contact.approach_speed = row.speed;
    let ground_inverse = match other.and_then(|g| g.inverse.map(|i| (i, hit.point - g.center))) {
        Some(((im, ii), rg)) => {
            let v = im * up.dot(direction) + (ii.mul_vec3(rg.cross(up))).dot(rg.cross(direction));
            finite_or_zero(v).max(0.0)
        }
        None => 0.0,
    };
    Grounded {
        contact,
        hit: WheelHit {
            entity: hit.entity,
            body: hit.body,
            point: hit.point,
            normal,
            distance: hit.distance,
            dynamic: other.is_some_and(|g| g.dynamic),
        },
        forward,
        sideways,
        position,
        direction,
        row,
        ang: frame.inverse_inertia.mul_vec3(r.cross(up)),
        moment: r.cross(direction),
        axis_moment: r.cross(up),
        ground_inverse,
        bar: view.bar.map(|b| (b.partner, b.stiffness)),
        rise_gain,
        rise_streak,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cylinder_to_axle_is_minus_90_about_z() {
        let q = Quat::from_rotation_z(-core::f32::consts::FRAC_PI_2);
        assert!(CYLINDER_TO_AXLE.abs_diff_eq(q, 1e-7));
        assert!((CYLINDER_TO_AXLE * Vec3::Y).abs_diff_eq(Vec3::X, 1e-6));
    }
}
