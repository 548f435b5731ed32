//! What one step of one wheel produces: [`StepOutput`], the forces to apply and every
//! output of Unity's WheelCollider (and more), filled by [`crate::wheel::step`].

/// Everything one step produces: the forces to apply and every output of the original.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct StepOutput {
    /// Whether the sweep found ground.
    pub grounded: bool,
    /// Suspension compression (m): 0 at full droop, `suspension_length` at the bump stop.
    pub compression: f32,
    /// Current suspension length (m): mount point to wheel centre, in
    /// `0 ..= suspension_length`.
    pub current_suspension_length: f32,
    /// Compression over travel, `compression / suspension_length` (dimensionless, 0 at
    /// full droop, 1 at the bump stop).
    pub compression_rate: f32,
    /// Compression speed (m/s), positive while compressing.
    pub compression_speed: f32,
    /// Spring force (N).
    pub spring_force: f32,
    /// Damper force (N).
    pub damper_force: f32,
    /// Bump-stop force (N), non-zero only past full compression.
    pub bump_stop_force: f32,
    /// Tyre load (N) = max(0, spring + damper + bump stop + anti-roll, over the axis'
    /// cosine for an [`Axial`](crate::SuspensionForceDirection::Axial) suspension, +
    /// jacking): the force applied along the suspension's force direction.
    pub load: f32,
    /// The vertical force the suspension's links (or an axial suspension's tube)
    /// carry from the tyre's horizontal forces (N), positive lifting the body; in
    /// [`load`](Self::load). Last step's tyre forces through the slopes (see
    /// [`WheelSettings::roll_centre_slope`](crate::WheelSettings::roll_centre_slope))
    /// and the tilted axis, bounded by the suspension's own load either way; 0 with
    /// the slopes at 0 and no axial suspension.
    pub jacking_force: f32,
    /// Road bump under the tyre (m), in [−amplitude/2, +amplitude/2].
    pub bump: f32,
    /// Current camber (deg): the ground's plus the static camber.
    pub camber: f32,
    /// Spin (rad/s) after this step.
    pub angular_velocity: f32,
    /// Spin in revolutions per minute.
    pub rpm: f32,
    /// Speed of the wheel over the ground along its forward direction (m/s, positive
    /// forward; 0 in the air): the `vx` of the slips. ABS and traction control measure
    /// slip against it with a small floor, so they see a lock at walking pace.
    pub ground_speed: f32,
    /// Spin angle (rad), in `[0, 2π)`.
    pub angle: f32,
    /// Longitudinal slip κ = (ω·r − vx) / V (0 in the air): with a longitudinal
    /// relaxation length `V = max(|vx|, |ω·r|, floor)`, the floor
    /// [`RELAXED_MIN_DENOMINATOR`](crate::tyre::RELAXED_MIN_DENOMINATOR), so a wheel
    /// spinning reads at most 1 and a locked one −1 above the floor; without one the
    /// original's `V = max(|vx|, MIN_DENOMINATOR)` ([`MIN_DENOMINATOR`](crate::tyre::MIN_DENOMINATOR)).
    pub forward_slip: f32,
    /// Lateral slip σ = vy / V (0 in the air): with a lateral relaxation length
    /// `V = max(|vx|, |ω·r|, floor)`, the floor
    /// [`RELAXED_LATERAL_MIN_DENOMINATOR`](crate::tyre::RELAXED_LATERAL_MIN_DENOMINATOR);
    /// without one `max(|vx|, MIN_DENOMINATOR)`.
    pub sideways_slip: f32,
    /// The longitudinal slip the tyre's force follows: `forward_slip` after the
    /// relaxation lag (equal to it without a relaxation length).
    pub transient_forward_slip: f32,
    /// The lateral slip the tyre's force follows: `sideways_slip` plus the camber's
    /// equivalent slip, after the relaxation lag (its carried part held within twice the
    /// peak slip, see `docs/wheel-model.md` 3c).
    pub transient_sideways_slip: f32,
    /// Combined slip magnitude |(κ, σ)| of the transient slips (dimensionless, ≥ 0).
    pub slip_magnitude: f32,
    /// Normalised combined slip |(κ/κ*, σ/σ*)| (dimensionless, ≥ 0): 1 where the tyre gives its most, above
    /// 1 past the peak (sliding). What skid marks and tyre sound key on.
    pub normalized_slip: f32,
    /// Tyre force along forward (N), rolling resistance included.
    pub forward_force: f32,
    /// Tyre force along sideways (N).
    pub sideways_force: f32,
    /// Rolling resistance (N), the part of the forward force it accounts for
    /// (coefficient · load while the wheel turns, 0 while it is locked).
    pub rolling_resistance_force: f32,
    /// Friction coefficient used this step: the curve at the combined slip × grip (0
    /// without load or slip).
    pub friction: f32,
    /// The longitudinal curve's peak slip κ* at this load (the load law moves it).
    pub peak_slip: f32,
    /// The lateral curve's peak slip σ* at this load.
    pub lateral_peak_slip: f32,
    /// Self-aligning torque (N·m) about the ground normal, positive turning the wheel
    /// to the left (right-handed about up): `t(σ) · Fy` with the pneumatic trail `t`
    /// ([`WheelSettings::pneumatic_trail`](crate::settings::WheelSettings::pneumatic_trail)). It turns the wheel towards the direction
    /// it travels (restoring); the plugin applies it to the chassis.
    pub aligning_torque: f32,
    /// The most force the tyre can give now (N): the curve's peak × grip × load. What
    /// ABS and traction control aim just below.
    pub max_friction_force: f32,
    /// How much static friction holds the patch (0 = the slip model alone, 1 = fully
    /// stuck), from the ground speed below [`STICK_SPEED`](crate::wheel::STICK_SPEED).
    pub static_friction: f32,
    /// The contact patch's sliding power (W): `|Fx·(ω·r − vx)| + |Fy·vy|`, what heats
    /// the tread and the road (see [`crate::thermal`]). 0 in the air.
    pub sliding_power: f32,
    /// The carcass' hysteresis heat under the tyre's forces (W,
    /// [`thermal::deformation_power`](crate::thermal::deformation_power)); 0 without a
    /// [`TyreCompound`](crate::TyreCompound) (its loss factor is the compound's).
    pub deformation_power: f32,
    /// True when a non-finite input (or `dt`) was replaced this step.
    pub rejected_input: bool,
}

impl StepOutput {
    /// Whether every number in the output is finite.
    pub fn is_finite(&self) -> bool {
        [
            self.compression,
            self.current_suspension_length,
            self.compression_rate,
            self.compression_speed,
            self.spring_force,
            self.damper_force,
            self.bump_stop_force,
            self.load,
            self.jacking_force,
            self.bump,
            self.camber,
            self.angular_velocity,
            self.rpm,
            self.ground_speed,
            self.angle,
            self.forward_slip,
            self.sideways_slip,
            self.transient_forward_slip,
            self.transient_sideways_slip,
            self.slip_magnitude,
            self.normalized_slip,
            self.lateral_peak_slip,
            self.aligning_torque,
            self.forward_force,
            self.sideways_force,
            self.rolling_resistance_force,
            self.friction,
            self.peak_slip,
            self.max_friction_force,
            self.static_friction,
            self.sliding_power,
            self.deformation_power,
        ]
        .iter()
        .all(|v| v.is_finite())
    }
}
