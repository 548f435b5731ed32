//! Sensing one wheel: its mount in the world, the sweep, what counts as ground, and the
//! contact in the wheel's frame with its row for the chassis' suspension solve. The
//! first stage of a wheel's step (the table in `wheel/mod.rs`); it reads the
//! [`contracts`](super::contracts) and writes a [`Sensed`].
//!
//! `ground_contact` reads one hit in the order the row and the core read it: its frame
//! (`ContactGeometry`), the velocities and surface, the tyre's `Contact`
//! (`tyre_contact`), the suspension's row, and the ground body's mass.

use super::approach::{approach_speed, ground_rise};
use super::components::*;
use super::contracts::{ChassisContext, ChassisFrame, GroundBody, Grounded, MIN_MASS, Sensed, WheelView};
use super::surface::WheelSurface;
use super::sweep::{CastHit, CastQuery, GroundFilter, WheelProfile};
use avian3d::prelude::*;
use bevy::prelude::*;
use wheelcollider_core::math;
use wheelcollider_core::{
    Contact, STICK_SPEED, SuspensionForceDirection, SuspensionRow, SweepType, Travel, compression_of, finite_or_zero,
};

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

/// `1/m + (r×u)·I⁻¹(r×u)`, or 0 if that is not a finite positive number.
#[inline]
fn inverse_effective_mass(
    inverse_mass: f32,
    inverse_inertia: &avian3d::math::SymmetricMatrix,
    r: Vec3,
    u: Vec3,
) -> f32 {
    let ru = r.cross(u);
    let k = inverse_mass + ru.dot(inverse_inertia.mul_vec3(ru));
    if k > 0.0 && k.is_finite() { k } else { 0.0 }
}

/// The mount in the world, the steer and camber rotations (kept from the last step while
/// they stay the same): (mount position, up, steered rotation, wheel rotation, yaw deg).
///
/// The camber and toe are the settings' at the last step's compression (`compression`,
/// m): their gain and bump steer act a step late on the sweep's shape and frame.
fn mount_frame(
    frame: &ChassisFrame,
    view: &WheelView,
    cache: &mut WheelCache,
    compression: f32,
) -> (Vec3, Vec3, Quat, Quat, f32) {
    let settings = &view.wheel.0;
    let rot = frame.rotation;
    let mount_rot = rot * view.mount.rotation;
    let mount_pos = frame.position + rot * view.mount.translation;
    let up = mount_rot * Vec3::Y;
    let (camber_deg, toe) = match settings.camber_gain() != 0.0 || settings.bump_steer() != 0.0 {
        true => {
            let (camber, toe) = settings.alignment(compression as f64);
            (finite_or_zero(camber as f32), finite_or_zero(toe as f32))
        }
        false => (settings.camber_angle(), settings.toe_angle()),
    };
    let yaw_deg = (finite_or_zero(view.input.steer_angle).clamp(-90.0, 90.0) + toe).clamp(-135.0, 135.0);
    let (cached_yaw, cached_camber, ..) = cache.steer;
    if cached_yaw.to_bits() != yaw_deg.to_bits() || cached_camber.to_bits() != camber_deg.to_bits() {
        cache.steer = (
            yaw_deg,
            camber_deg,
            Quat::from_axis_angle(Vec3::Y, yaw_deg.to_radians()),
            Quat::from_axis_angle(Vec3::Z, camber_deg.to_radians()),
        );
    }
    let (_, _, yaw, camber_rot) = cache.steer;
    let steered = mount_rot * yaw;
    (mount_pos, up, steered, steered * camber_rot, yaw_deg)
}

/// The sweep of one wheel: the closest hit that is ground (see [`GroundFilter`]).
fn sweep(
    ctx: &ChassisContext,
    view: &WheelView,
    cache: &mut WheelCache,
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
            let cos = math::cos(angle.to_radians());
            cache.ground_cos = Some((angle, cos));
            cos
        }
    };
    let query = CastQuery {
        mask,
        chassis,
        static_only: view.static_only,
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
            let profile = WheelProfile {
                start: mount_pos + up * radius,
                up,
                radius,
                cylinder: axle.map(|a| (a, width * 0.5)),
            };
            ctx.casts
                .shape(shape, (profile.start, shape_rot), down, reach, &query, &profile)
        }
    }
}

/// One wheel's sensing into `sensed` (written where the chassis keeps it, not moved
/// there): the settings' edits taken in ([`super::edits`]), the mount frame, the sweep,
/// and the contact with its suspension row, for the chassis' solve.
pub(crate) fn sense_wheel(
    ctx: &ChassisContext,
    view: &WheelView,
    state: &mut WheelState,
    cache: &mut WheelCache,
    sensed: &mut Sensed,
) {
    let frame = &ctx.frame;
    let first = super::edits::take_edits(&view.wheel.0, state, ctx.dt);
    let (mount_pos, up, steered, wheel_rot, yaw) = mount_frame(frame, view, cache, state.step.compression);
    *sensed = Sensed {
        entity: view.entity,
        mount_position: mount_pos,
        up,
        wheel_rotation: wheel_rot,
        yaw,
        spring: view.wheel.suspension_spring(),
        first,
        ground: None,
    };
    let Some(hit) = sweep(ctx, view, cache, mount_pos, up, wheel_rot) else {
        return;
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
        return;
    }
    sensed.ground = Some(ground_contact(ctx, view, state, sensed, steered, (hit, other)));
}

/// This wheel's share of the effective mass along `u` (kg) at the arm `r` from the
/// chassis' centre of mass: the chassis' at the contact, reduced by a dynamic ground
/// body's at the hit, divided among the grounded wheels; 0 if not a finite positive
/// number. What static friction (below `STICK_SPEED`) and a relaxation length's
/// stability bound and low-speed damping (any speed, when the wheel has one) read.
fn effective_mass(frame: &ChassisFrame, r: Vec3, (hit, other): (&CastHit, Option<GroundBody>), u: Vec3) -> f32 {
    let ground = match other.and_then(|g| g.inverse.map(|i| (i, hit.point - g.center))) {
        Some(((im, ii), rg)) => inverse_effective_mass(im, &ii, rg, u),
        None => 0.0,
    };
    let k = inverse_effective_mass(frame.inverse_mass, &frame.inverse_inertia, r, u) + ground;
    if k > 0.0 { 1.0 / k / frame.share } else { 0.0 }
}

/// Camber from the ground (deg): the angle from the `normal` to the mount's `up` about
/// the steered forward `forward0`, positive when the top leans to −sideways. atan2 with
/// the core's fast atan in the usual case (the normal within 90° of the mount's up).
fn ground_camber(normal: Vec3, up: Vec3, forward0: Vec3) -> f32 {
    let n_p = normal.reject_from(forward0);
    let up_p = up.reject_from(forward0);
    let (sin_c, cos_c) = (n_p.cross(up_p).dot(-forward0), n_p.dot(up_p));
    if cos_c > 0.0 {
        wheelcollider_core::fast_atan(sin_c / cos_c)
    } else {
        math::atan2(sin_c, cos_c)
    }
    .to_degrees()
}

/// The suspension's row for `contact`, with its travel and this step's rise reading.
/// Its speed is the mount's approach to the ground from the bodies' velocities
/// (`approach`, from [`approach_speed`]) plus the road bump's own rate; not the rate at
/// which the compression changes (see `approach.rs`).
#[cfg_attr(feature = "stage-table", inline(never))] // a stage of its own in `--stages`
fn suspension_row(
    ctx: &ChassisContext,
    view: &WheelView,
    state: &WheelState,
    contact: &Contact,
    approach: f32,
    up: Vec3,
) -> (Travel, SuspensionRow, RiseState) {
    let settings = &view.wheel.0;
    // A punctured tyre rides lower: its road is further away (the core's `read_input`).
    let drop = wheelcollider_core::thermal::rim_drop(settings.compound(), &state.step.tyre, settings.radius());
    let travel = if drop == 0.0 {
        compression_of(settings, contact)
    } else {
        let lowered = Contact {
            surface_bump: contact.surface_bump + drop,
            ..*contact
        };
        compression_of(settings, &lowered)
    };
    let (compression, bump) = (travel.compression as f32, travel.bump as f32);
    let bump_rate = if state.grounded {
        (bump - state.bump) / ctx.dt
    } else {
        0.0
    };
    let speed = finite_or_zero(approach + bump_rate);
    let along_ground = (contact.forward_velocity, contact.sideways_velocity);
    let (rise, ground_rise) = ground_rise(settings, state, (compression, speed), along_ground, ctx.dt);
    // The spring's line where it is now (its preload, release and bump rubber), read at
    // the compression its offset leaves it (an edit's offset shifts the whole law).
    let at = travel.compression.min(settings.suspension_length() as f64) - state.spring_offset as f64;
    let (stiffness, preload) = settings.spring_law(at);
    let row = SuspensionRow {
        compression,
        speed,
        free_acceleration: finite_or_zero(-ctx.frame.gravity.dot(up)),
        stiffness: stiffness as f32,
        preload: preload as f32,
        bump_damping: settings.suspension_bump(),
        rebound_damping: settings.suspension_rebound(),
        length: settings.suspension_length(),
        spring_offset: state.spring_offset,
        extra_force: finite_or_zero(view.input.anti_roll_force),
        ground_rise,
        anti_roll: None,
        anti_roll_hanging: 0.0,
    };
    (travel, row, rise)
}

/// The contact in the wheel's frame and the suspension's row, for a sweep hit.
fn ground_contact(
    ctx: &ChassisContext,
    view: &WheelView,
    state: &WheelState,
    sensed: &Sensed,
    steered: Quat,
    (hit, other): (CastHit, Option<GroundBody>),
) -> Grounded {
    let (frame, settings) = (&ctx.frame, &view.wheel.0);
    let up = sensed.up;
    let crowned = crown_hit(settings, sensed, &hit);
    let hit = crowned.unwrap_or(hit);
    let geometry = ContactGeometry::of(sensed, steered, &hit, crowned.is_some());
    // The tyre's velocity relative to the ground body, both read at the middle of the
    // tread: the hit moved along the axle into the wheel's plane. A cylinder's hit on
    // flat ground lies anywhere across its tread, and a yawing chassis moves each point
    // of it differently: read at the hit, a tyre slips by `ω·w/2` more or less than it
    // does (`tracked::tank`'s skid-steer radius against its belts' speeds, with every
    // sweep, proves it; `docs/tracked.md`). The ground's is read
    // at the same point (a turntable turning a parked car with it: `world::platforms`),
    // on the contact's line, not at the force's point on the suspension axis, which can
    // lie off a small body under a sphere or cylinder wheel (a log, a crate), where the
    // body's spin carried out to it is no motion of its surface (`world::platforms`' log
    // run over).
    let com = frame.centre_of_mass;
    let own = |p: Vec3| frame.linear_velocity + frame.angular_velocity.cross(p - com);
    let axle = steered * Vec3::X;
    let tread = hit.point - axle * (hit.point - geometry.position).dot(axle);
    let ground = other.map_or(Vec3::ZERO, |g| {
        g.linear_velocity + g.angular_velocity.cross(tread - g.center)
    });
    let velocity = own(tread) - ground;
    let surface = ctx
        .surfaces
        .and_then(|q| q.get(hit.entity).ok().or_else(|| hit.body.and_then(|b| q.get(b).ok())))
        .map(|s| s.sanitized());
    let contact = tyre_contact(ctx, settings, (&hit, other), &geometry, velocity, surface);
    let normal = geometry.normal;
    let kind = settings.suspension_force_direction();
    let direction = match kind {
        SuspensionForceDirection::SuspensionAxis => up,
        _ => normal,
    };
    // An axial suspension's load per newton of its force (`SuspensionForceDirection::Axial`).
    let (gain, _) = kind.load_factors(contact.ground_camber);
    let approach = approach_speed(
        own(geometry.position) - ground,
        frame.linear_velocity - ground,
        up,
        normal,
        steered * Vec3::NEG_Z,
    );
    let (travel, row, rise) = suspension_row(ctx, view, state, &contact, approach, up);
    let r = geometry.position - com;
    Grounded {
        contact,
        travel,
        hit: WheelHit {
            entity: hit.entity,
            body: hit.body,
            point: hit.point,
            normal,
            distance: hit.distance,
            dynamic: other.is_some_and(|g| g.dynamic),
            surface: surface.unwrap_or(WheelSurface::ASPHALT),
        },
        forward: geometry.forward,
        sideways: geometry.sideways,
        position: geometry.position,
        direction,
        gain,
        row,
        ang: frame.inverse_inertia.mul_vec3(r.cross(up)),
        moment: r.cross(direction),
        axis_moment: r.cross(up),
        ground_inverse: gain * ground_inverse(other, hit.point, up, direction),
        bar: view.bar.map(|b| (b.partner, b.stiffness)),
        rise,
    }
}

/// A ray wheel's hit moved onto its crown ([`WheelSettings::crown_radius`](wheelcollider_core::WheelSettings::crown_radius)
/// `ρ`), on the ground's plane at the hit. The wheel's axle `a` leans by `γ` against the
/// ground's normal `n` (`sin γ = n·a`): its centre rides `ρ·(1 − cos γ)` higher along
/// `n` than a knife edge's, which along the suspension axis shortens the hit's distance
/// by that over `n·up`; the contact is the crown's lowest point, from the centre
/// `R − ρ` along the wheel's plane towards the ground, then `ρ` down the normal
/// (moved from the knife edge's hit by the difference, so that a pitch alone leaves
/// the ray's contact as it was). `None`
/// for a knife edge (`ρ` = 0) and for the shape sweeps. The steady turn in
/// `two_wheeler::motorcycle` is its coupled test.
fn crown_hit(settings: &wheelcollider_core::WheelSettings, sensed: &Sensed, hit: &CastHit) -> Option<CastHit> {
    let radius = settings.radius();
    let crown = settings.crown_radius().min(radius);
    if crown <= 0.0 || settings.sweep_type() != SweepType::Ray {
        return None;
    }
    let normal = hit.normal.try_normalize()?;
    let up = sensed.up;
    let cos_up = normal.dot(up);
    if cos_up <= 0.0 {
        return None;
    }
    let axle = sensed.wheel_rotation * Vec3::X;
    let sin_lean = normal.dot(axle).clamp(-1.0, 1.0);
    let cos_lean = (1.0 - sin_lean * sin_lean).sqrt();
    let lift = crown * (1.0 - cos_lean) / cos_up;
    // From the knife edge's contact at `R` along the plane towards the ground: the
    // centre's lift, back `ρ` along the plane, and `ρ` down the normal. Upright (the
    // axle in the ground's plane) it is the knife edge's, whatever the pitch.
    let towards_ground = (axle * sin_lean - normal).normalize_or(-up);
    let contact = hit.point + up * lift - (towards_ground + normal) * crown;
    let point = contact - normal * (contact - hit.point).dot(normal);
    Some(CastHit {
        point,
        distance: hit.distance - lift,
        ..*hit
    })
}

/// The contact's frame: the ground's normal, the tyre's forward and sideways in the
/// ground plane, the contact point (on the suspension axis; a crowned ray's on its
/// crown, `crown_hit`), and the ground's camber against the wheel.
struct ContactGeometry {
    normal: Vec3,
    forward: Vec3,
    sideways: Vec3,
    position: Vec3,
    ground_camber: f32,
}

impl ContactGeometry {
    /// The frame of `hit` under the wheel `sensed`, steered by `steered`; `on_crown`
    /// when `hit` is a crowned ray's contact, where the forces act.
    fn of(sensed: &Sensed, steered: Quat, hit: &CastHit, on_crown: bool) -> Self {
        let (up, mount_pos) = (sensed.up, sensed.mount_position);
        let (forward0, right0) = (steered * Vec3::NEG_Z, steered * Vec3::X);
        let normal = hit.normal.try_normalize().unwrap_or(up);
        Self {
            normal,
            forward: forward0.reject_from_normalized(normal).normalize_or_zero(),
            sideways: right0.reject_from_normalized(normal).normalize_or_zero(),
            position: if on_crown {
                hit.point
            } else {
                mount_pos + up * (hit.point - mount_pos).dot(up)
            },
            ground_camber: ground_camber(normal, up, forward0),
        }
    }
}

/// What the tyre reads of the contact: the slip velocities (`velocity`, the chassis'
/// against the ground's at the hit), the surface's grip, stiffness, rolling resistance
/// and bump, the effective masses against sticking (only when the wheel is slow or has
/// relaxation) and the arm the links' slopes read.
fn tyre_contact(
    ctx: &ChassisContext,
    settings: &wheelcollider_core::WheelSettings,
    (hit, other): (&CastHit, Option<GroundBody>),
    geometry: &ContactGeometry,
    velocity: Vec3,
    surface: Option<WheelSurface>,
) -> Contact {
    let frame = &ctx.frame;
    let r = geometry.position - frame.centre_of_mass;
    let needed = velocity.length_squared() < STICK_SPEED * STICK_SPEED
        || settings.lateral_relaxation_length() > 0.0
        || settings.longitudinal_relaxation_length() > 0.0;
    let stick_mass = |u: Vec3| {
        if needed {
            effective_mass(frame, r, (hit, other), u)
        } else {
            0.0
        }
    };
    Contact {
        hit_distance: hit.distance,
        forward_velocity: velocity.dot(geometry.forward),
        sideways_velocity: velocity.dot(geometry.sideways),
        ground_camber: finite_or_zero(geometry.ground_camber),
        hit_x: hit.point.x,
        hit_z: hit.point.z,
        grip: surface.map_or(1.0, |s| s.grip),
        stiffness: surface.map_or(1.0, |s| s.stiffness),
        speed_fade: surface.map_or(0.0, |s| s.speed_fade),
        surface_rolling_resistance: surface.map_or(0.0, |s| s.rolling_resistance),
        surface_bump: surface.map_or(0.0, |s| s.bump(hit.point.x, hit.point.z)),
        forward_mass: stick_mass(geometry.forward),
        sideways_mass: stick_mass(geometry.sideways),
        // Read only by the links' slopes.
        arm: if settings.has_links() {
            [r.dot(frame.rotation * Vec3::NEG_Z), r.dot(frame.rotation * Vec3::X)]
        } else {
            [0.0; 2]
        },
    }
}

/// The ground body's inverse effective mass (1/kg) between the suspension's `up` and
/// the force's `direction` at `point`; 0 for static ground.
fn ground_inverse(other: Option<GroundBody>, point: Vec3, up: Vec3, direction: Vec3) -> f32 {
    match other.and_then(|g| g.inverse.map(|i| (i, point - g.center))) {
        Some(((im, ii), rg)) => {
            let v = im * up.dot(direction) + (ii.mul_vec3(rg.cross(up))).dot(rg.cross(direction));
            finite_or_zero(v).max(0.0)
        }
        None => 0.0,
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
