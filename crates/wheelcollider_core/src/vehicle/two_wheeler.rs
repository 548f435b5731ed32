//! A two-wheeler's settings: its steering head (the front assembly turning about a
//! tilted axis, by the forces on it) and its rider (who balances it by the torque on the
//! handlebar). A vehicle with [`VehicleSettings::two_wheeler`] set is a two-wheeler: its
//! axles are [`single`](super::AxleSettings::single), the first one's wheel is turned by
//! the head, and the driver's steer input asks the rider for a lean. The Bevy plugin
//! builds the head and the rider from these (`docs/two-wheeler.md`); the vehicle step
//! drives, brakes and shifts it as it does a car.

use super::VehicleSettings;

/// A two-wheeler's steering head and rider: what a preset file holds under
/// `two_wheeler`.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default, deny_unknown_fields))]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct TwoWheelerSettings {
    /// The head axis' tilt back from vertical, the rake (deg), 0..=45 (a sport bike's
    /// 23–25°, a cruiser's 30–34°, the benchmark bicycle's 18°).
    pub rake: f32,
    /// The trail (m), −0.2..=0.5: how far behind the point where the head axis meets the
    /// road the front wheel's contact sits, at rest (a sport bike's 0.09–0.10 m). The
    /// suspension travels along the chassis' vertical, so the trail changes by
    /// `tan(rake)` of the front's compression.
    pub trail: f32,
    /// The front assembly's mass (kg): fork, handlebar, front wheel; part of the
    /// chassis' mass, > 0.
    pub front_mass: f32,
    /// The front assembly's centre of mass at straight ahead (m, chassis frame).
    pub front_centre_of_mass: [f32; 3],
    /// The front assembly's principal moments of inertia about its centre of mass (kg·m²,
    /// about the chassis' X, Y, Z), its wheel's included.
    pub front_inertia: [f32; 3],
    /// The principal axes of [`front_inertia`](Self::front_inertia) turned about the
    /// chassis' X (deg, −90..=90; positive turns +Y towards the back, +Z), as
    /// [`ChassisSettings::inertia_tilt`](super::ChassisSettings::inertia_tilt).
    pub front_inertia_tilt: f32,
    /// The steering damper (N·m·s/rad, ≥ 0).
    pub steering_damper: f32,
    /// The steering lock each way (deg), 1..=60.
    pub lock: f32,
    /// The lean asked of the rider at a full steer input (deg), 0..=60: a positive steer
    /// input leans and turns left, as a car's turns left.
    pub max_lean: f32,
    /// The rider.
    pub rider: RiderSettings,
}

impl Default for TwoWheelerSettings {
    /// The benchmark bicycle's rake, trail and front assembly's mass and inertia
    /// (Meijaard et al., 2007) with the default rider; the front assembly's centre of
    /// mass at the chassis' origin (a preset sets it).
    fn default() -> Self {
        Self {
            rake: 18.0,
            trail: 0.08,
            front_mass: 7.0,
            front_centre_of_mass: [0.0, 0.0, 0.0],
            front_inertia: [0.575, 0.172, 0.409],
            front_inertia_tilt: 0.0,
            steering_damper: 0.0,
            lock: 45.0,
            max_lean: 30.0,
            rider: RiderSettings::default(),
        }
    }
}

/// A rider who balances a two-wheeler by steering: the handlebar torque
/// `T = −k_p·e − k_i·∫e + k_d·φ̇ − k_s·δ̇`, `e = φ* − φ` (the plugin's `Rider`), and the
/// foot put down at walking pace.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default, deny_unknown_fields))]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct RiderSettings {
    /// Handlebar torque per radian of lean error (N·m/rad, ≥ 0).
    pub lean_gain: f32,
    /// Handlebar torque per radian-second of the lean error's integral (N·m/(rad·s), ≥ 0).
    pub integral_gain: f32,
    /// Handlebar torque per rad/s of lean rate (N·m·s/rad, ≥ 0).
    pub lean_rate_gain: f32,
    /// Handlebar torque against the steer rate, per rad/s (N·m·s/rad, ≥ 0): the arms'
    /// own damping.
    pub steer_rate_gain: f32,
    /// The most torque the rider puts on the handlebar (N·m, ≥ 0).
    pub max_torque: f32,
    /// The lean past which the rider has fallen and lets go (deg; 68.75°, 1.2 rad, by default).
    pub let_go: f32,
    /// Whether the rider puts a foot down below [`foot_speed`](Self::foot_speed) (an
    /// assist a game can turn off: without it a bike at rest falls over).
    pub foot_down: bool,
    /// The speed below which a foot is down (m/s, walking pace).
    pub foot_speed: f32,
    /// The lean at which the foot meets the road (deg): within it the bike rests on its
    /// wheels alone.
    pub foot_lean: f32,
    /// How far to the side of the wheels the foot stands (m).
    pub foot_reach: f32,
    /// The rider's mass (kg), part of the chassis' mass: what a weight shift moves
    /// (0: the rider cannot shift).
    pub mass: f32,
    /// How far the rider's own centre of mass moves fore or aft at a full weight shift
    /// ([`DriverInput::weight_shift`](super::DriverInput::weight_shift) ±1) (m): the
    /// chassis' centre of mass moves by this times `mass / chassis mass`.
    pub shift_reach: f32,
    /// Whether the rider keeps the front wheel down under throttle (an assist a game
    /// can turn off, as a real rider's right hand): the throttle eased as the front
    /// wheel's load, as the drive leaves it once the pitch settles, falls from
    /// [`HOLD_FRONT_FROM`] to [`HOLD_FRONT_TO`] of its static load, unless the rider's
    /// weight is back (a wheelie asked for).
    pub hold_front: bool,
    /// The time the rider takes to squeeze the front lever from open to full (s, ≥ 0;
    /// 0: at once): the lever follows the driver's `brake` up at most at `1/squeeze`
    /// per second and opens at once ([`lever`](Self::lever)). A player's brake key is
    /// the full lever in one step, which at speed throws a sport bike onto its fork and
    /// its rear into the air; a rider squeezes progressively as the fork takes the load.
    pub squeeze: f32,
}

/// The share of the front wheel's static load under which a rider who
/// [holds the front down](RiderSettings::hold_front) starts to ease the throttle (read
/// on the settled load: the band leaves room for the pitch's overshoot as the drive
/// comes on, which takes the front's load under the settled one;
/// `two_wheeler::motorcycle`'s launch).
pub const HOLD_FRONT_FROM: f32 = 0.35;
/// The share at which that rider's throttle is closed.
pub const HOLD_FRONT_TO: f32 = 0.15;

impl RiderSettings {
    /// The throttle the rider opens for the driver's `throttle` (0..=1): with
    /// [`hold_front`](Self::hold_front) and the weight not back (`weight_shift ≥ 0`),
    /// scaled down linearly as the front wheel's `front_load` (N) falls from
    /// [`HOLD_FRONT_FROM`] to [`HOLD_FRONT_TO`] of its `static_load` (N); otherwise as
    /// asked. The vehicle step passes the load the last step's drive leaves the front
    /// once the pitch settles (`N_f,static − F·h/L`), not the load itself, which follows
    /// the throttle through the pitch a quarter period late. Proved in the car by
    /// `two_wheeler::motorcycle::full_throttle_from_rest_keeps_the_front_down_with_the_riders_hand`
    /// (the front down, and the same launch at every rate).
    pub fn throttle(&self, throttle: f32, weight_shift: f32, front_load: f32, static_load: f32) -> f32 {
        if !self.hold_front
            || weight_shift < 0.0
            || static_load.is_nan()
            || static_load <= 0.0
            || !front_load.is_finite()
        {
            return throttle;
        }
        let share = front_load / static_load;
        throttle * ((share - HOLD_FRONT_TO) / (HOLD_FRONT_FROM - HOLD_FRONT_TO)).clamp(0.0, 1.0)
    }

    /// How far forward (m, negative back) the chassis' centre of mass moves at the
    /// driver's `weight_shift` (−1..=1) on a chassis of `mass` (kg): `weight_shift ×`
    /// [`shift_reach`](Self::shift_reach) `×` [`mass`](Self::mass) `/ mass`. The plugin
    /// moves the centre by it (`shift_weight`); the rider's hand reads the front's load
    /// with it.
    pub fn centre_shift(&self, weight_shift: f32, mass: f32) -> f32 {
        let shift = if weight_shift.is_finite() {
            weight_shift.clamp(-1.0, 1.0)
        } else {
            0.0
        };
        let moved = shift * self.shift_reach * self.mass / mass.max(1e-3);
        if moved.is_finite() { moved } else { 0.0 }
    }

    /// The front lever (0..=1) the rider holds this step for the driver's `brake`
    /// (0..=1): `level` (the last step's lever, the vehicle's
    /// [`brake_level`](super::VehicleState::brake_level)) raised towards `brake` by at
    /// most `dt /` [`squeeze`](Self::squeeze), or lowered to it at once; written back
    /// into `level`. Proved in the car by
    /// `two_wheeler::motorcycle::a_full_lever_at_speed_is_squeezed_and_keeps_the_rear_down`.
    pub fn lever(&self, brake: f32, level: &mut f32, dt: f32) -> f32 {
        let brake = if brake.is_finite() { brake.clamp(0.0, 1.0) } else { 0.0 };
        let last = if level.is_finite() { level.clamp(0.0, 1.0) } else { 0.0 };
        let lever = if self.squeeze > 0.0 && dt.is_finite() && dt >= 0.0 {
            brake.min(last + dt / self.squeeze)
        } else {
            brake
        };
        *level = lever;
        lever
    }
}

impl Default for RiderSettings {
    /// Gains for a bicycle of some 90 kg with its rider (`two_wheeler::rider` rides the
    /// benchmark bicycle with them); a motorcycle's are larger with its mass.
    fn default() -> Self {
        Self {
            lean_gain: 30.0,
            integral_gain: 20.0,
            lean_rate_gain: 20.0,
            steer_rate_gain: 2.0,
            max_torque: 30.0,
            let_go: 68.75,
            foot_down: true,
            foot_speed: 1.5,
            foot_lean: 5.0,
            foot_reach: 0.4,
            mass: 0.0,
            shift_reach: 0.25,
            hold_front: true,
            squeeze: 0.5,
        }
    }
}

/// The head's geometry in the chassis frame, from a two-wheeler's settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HeadGeometry {
    /// The head axis (unit, pointing up and back by the rake).
    pub axis: [f32; 3],
    /// A point of the axis (m): where it meets the road at rest.
    pub anchor: [f32; 3],
    /// The front wheel's mount (m): the first axle's.
    pub mount: [f32; 3],
}

impl VehicleSettings {
    /// The factor by which a steady turn's lean exceeds a point mass' on thin tyres,
    /// `tan φ = (a_y/g)·k` (`a_y` the lateral acceleration in the road's plane): the
    /// wheels' spin angular momentum turned at the yaw rate adds its gyroscopic moment
    /// to the centrifugal one, `k = 1 + Σ(J/r)/(m·h)` (`J`, `r` each axle's wheel
    /// inertia and radius, `m` the chassis' mass, `h` its centre of mass' height at
    /// rest). Read by the manoeuvre runner's circle and step steer.
    pub fn lean_balance_factor(&self) -> f32 {
        let spin: f32 = self
            .axles
            .iter()
            .map(|a| a.wheel_count() as f32 * a.wheel.inertia() / a.wheel.radius().max(0.01))
            .sum();
        1.0 + spin / (self.chassis.mass * self.centre_of_mass_height()).max(1e-3)
    }

    /// The crown's radius under the centre of mass (m): each axle's
    /// [`crown_radius`](crate::WheelSettings::crown_radius) (at most its radius; 0 for a
    /// sweep other than the ray, which reads it), weighted by the axle's share of the
    /// static load, as the contacts' line passes under the centre of mass. 0 on knife
    /// edges.
    pub fn crown_under_centre(&self) -> f32 {
        let total: f32 = (0..self.axles.len()).map(|i| self.corner_load(i)).sum();
        if total <= 0.0 {
            return 0.0;
        }
        let crown = |a: &super::AxleSettings| match a.wheel.sweep_type() {
            crate::SweepType::Ray => a.wheel.crown_radius().min(a.wheel.radius()),
            _ => 0.0,
        };
        self.axles
            .iter()
            .enumerate()
            .map(|(i, a)| self.corner_load(i) * crown(a))
            .sum::<f32>()
            / total
    }

    /// The lean of the line from the contacts to the centre of mass (rad) when the
    /// chassis leans by `lean` (rad): what balances a steady turn, `tan` of it the
    /// lateral acceleration over `g` (with [`lean_balance_factor`](Self::lean_balance_factor)).
    /// On crowns of radius `ρ` ([`crown_under_centre`](Self::crown_under_centre)) the
    /// contacts sit on the crowns' sides, inside the wheels' plane:
    /// `tan φ' = H·sin φ / (ρ + H·cos φ)`, `H = h − ρ` the centre of mass' reach from
    /// the crowns' centres (`h` its height at rest). On knife edges, `lean` itself.
    pub fn resultant_lean(&self, lean: f32) -> f32 {
        let (crown, reach) = self.crown_reach();
        crate::math::atan2(reach * crate::math::sin(lean), crown + reach * crate::math::cos(lean))
    }

    /// The chassis' lean (rad) whose [`resultant_lean`](Self::resultant_lean) is
    /// `resultant` (rad): `φ = φ' + asin(ρ·sin φ' / H)` (Cossalter, *Motorcycle
    /// Dynamics*, 2nd ed., §1.3). The lean a rider holds for a turn: more than the
    /// knife edge's `φ'` by a few degrees on a motorcycle's tyres.
    pub fn lean_for_resultant(&self, resultant: f32) -> f32 {
        let (crown, reach) = self.crown_reach();
        resultant + crate::math::asin((crown * crate::math::sin(resultant) / reach).clamp(-1.0, 1.0))
    }

    /// The crown under the centre of mass and the centre of mass' reach from the
    /// crowns' centres (m, at least a centimetre).
    fn crown_reach(&self) -> (f32, f32) {
        let crown = self.crown_under_centre();
        (crown, (self.centre_of_mass_height() - crown).max(0.01))
    }

    /// The steering head of a two-wheeler ([`two_wheeler`](Self::two_wheeler)), in the
    /// chassis frame: the axis tilted back by the rake, through the road `trail` ahead of
    /// the first axle's contact at rest (its mount less the wheel's extension and
    /// radius). `None` for a vehicle that is not a two-wheeler.
    pub fn head_geometry(&self) -> Option<HeadGeometry> {
        let bike = self.two_wheeler.as_ref()?;
        let front = self.axles.first()?;
        let rake = bike.rake.to_radians();
        let (sin, cos) = (crate::math::sin(rake), crate::math::cos(rake));
        let w = &front.wheel;
        let road = front.mount_height - (w.suspension_length() - self.static_compression(0)) - w.radius();
        // −Z is forward: the axis meets the road `trail` ahead of the contact.
        Some(HeadGeometry {
            axis: [0.0, cos, sin],
            anchor: [0.0, road, front.z - bike.trail],
            mount: [0.0, front.mount_height, front.z],
        })
    }
}
