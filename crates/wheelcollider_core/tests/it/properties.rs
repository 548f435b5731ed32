//! Property tests: no finite input, in any setting, produces a non-finite output or
//! state.
use proptest::prelude::*;
use wheelcollider_core::*;

fn finite() -> impl Strategy<Value = f32> {
    prop_oneof![
        -1.0e3f32..1.0e3,
        prop::num::f32::NORMAL | prop::num::f32::SUBNORMAL | prop::num::f32::ZERO,
    ]
}

fn settings() -> impl Strategy<Value = WheelSettings> {
    (prop::collection::vec(finite(), 39), any::<u8>()).prop_map(|(v, sweep)| {
        let mut s = WheelSettings::default();
        s.set_sweep_type([SweepType::Ray, SweepType::Sphere, SweepType::Cylinder][sweep as usize % 3]);
        s.set_radius(v[0]).unwrap();
        s.set_inertia(v[1]).unwrap();
        s.set_width(v[2]).unwrap();
        s.set_suspension_spring(v[3]).unwrap();
        s.set_suspension_bump(v[4]).unwrap();
        s.set_suspension_rebound(v[5]).unwrap();
        s.set_suspension_length(v[6]).unwrap();
        s.set_camber_angle(v[7]).unwrap();
        s.set_toe_angle(v[8]).unwrap();
        // A curve outside the formula's domain is refused (the old one stays): both are
        // cases to cover.
        let _ = s.set_tyre(v[9], v[10], v[11], v[12]);
        let _ = s.set_lateral_tyre(v[19], v[20], v[21], v[22]);
        s.set_stiffness_peak_load(v[23]).unwrap();
        s.set_longitudinal_relaxation_length(v[24]).unwrap();
        s.set_lateral_relaxation_length(v[25]).unwrap();
        s.set_pneumatic_trail(v[26]).unwrap();
        s.set_camber_thrust(v[13]).unwrap();
        s.set_rolling_resistance(v[14]).unwrap();
        s.set_bump_amplitude(v[15]).unwrap();
        s.set_bump_period(v[16]).unwrap();
        s.set_load_sensitivity(v[17]).unwrap();
        s.set_nominal_load(v[18]).unwrap();
        s.set_camber_peak_gain(v[27]).unwrap();
        s.set_camber_peak_angle(v[28]).unwrap();
        s.set_roll_centre_slope(v[29]).unwrap();
        s.set_brake_pitch_slope(v[30]).unwrap();
        s.set_drive_pitch_slope(v[31]).unwrap();
        s.set_spring_preload(v[32]).unwrap();
        s.set_bump_rubber_gap(v[33]).unwrap();
        s.set_bump_rubber_rate(v[34]).unwrap();
        s.set_camber_gain(v[35]).unwrap();
        s.set_bump_steer(v[36]).unwrap();
        s.set_alignment_compression(v[37]).unwrap();
        s.set_rolling_resistance_speed(v[38]).unwrap();
        s
    })
}

fn input() -> impl Strategy<Value = StepInput> {
    (prop::collection::vec(finite(), 26), any::<bool>()).prop_map(|(v, grounded)| StepInput {
        input: WheelInput {
            drive_torque: v[0],
            brake_torque: v[1],
            drivetrain_inertia: v[2],
            drivetrain_friction_torque: v[3],
            anti_roll_force: v[4],
            steer_angle: v[21],
        },
        contact: grounded.then_some(Contact {
            hit_distance: v[5],
            forward_velocity: v[6],
            sideways_velocity: v[7],
            ground_camber: v[8],
            hit_x: v[9],
            hit_z: v[10],
            grip: v[11],
            stiffness: v[18],
            speed_fade: v[25],
            forward_mass: v[13],
            sideways_mass: v[14],
            surface_rolling_resistance: v[16],
            surface_bump: v[17],
            arm: [v[19], v[20]],
        }),
        suspension: Suspension::Explicit {
            mass: v[12],
            approach_speed: v[15],
        },
        ambient: Ambient {
            air: v[22],
            track: v[23],
            road_cooling: v[24],
        },
    })
}

/// A compound of any finite numbers (each clamped by its setter), or none.
fn compound() -> impl Strategy<Value = Option<TyreCompound>> {
    let n = TyreCompound::FLOATS.len();
    (prop::collection::vec(finite(), n), any::<bool>()).prop_map(|(v, on)| {
        on.then(|| {
            let mut c = TyreCompound::default();
            for (f, v) in TyreCompound::FLOATS.iter().zip(v) {
                f.set(&mut c, 0, v).unwrap();
            }
            c
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn finite_in_finite_out(s in settings(), c in compound(), punctured in any::<bool>(), inputs in prop::collection::vec(input(), 1..6), state in (finite(), finite(), finite(), finite(), finite(), finite(), finite(), finite()), dt in finite()) {
        let mut s = s;
        s.set_compound(c).unwrap();
        let tyre = TyreState { punctured, ..Default::default() };
        let mut state = StepState { angular_velocity: state.0, angle: state.1, compression: state.2, patch: [state.3, state.4], slip: [state.5, state.6], jacking: state.7, tyre };
        for i in inputs {
            let out = step(&s, &mut state, i, dt);
            prop_assert!(out.is_finite(), "{out:?}");
            prop_assert!(out.load >= 0.0);
            prop_assert!(state.angular_velocity.is_finite() && state.angle.is_finite() && state.compression.is_finite());
            let t = state.tyre;
            prop_assert!([t.surface, t.carcass, t.gas, t.tread].iter().all(|v| v.is_finite()), "{t:?}");
            prop_assert!((0.0..std::f32::consts::TAU).contains(&state.angle) || dt <= 0.0);
        }
    }

    /// Non-finite inputs are replaced and flagged, never passed through.
    #[test]
    fn non_finite_input_is_rejected(s in settings(), mut i in input(), which in 0usize..6, bad in prop_oneof![Just(f32::NAN), Just(f32::INFINITY), Just(f32::NEG_INFINITY)]) {
        match which {
            0 => i.input.drive_torque = bad,
            1 => i.input.brake_torque = bad,
            2 => i.input.anti_roll_force = bad,
            3 => i.input.drivetrain_inertia = bad,
            4 => i.contact = Some(Contact { forward_velocity: bad, ..i.contact.unwrap_or_default() }),
            _ => i.contact = Some(Contact { hit_distance: bad, ..i.contact.unwrap_or_default() }),
        }
        let out = step(&s, &mut StepState::default(), i, 1.0 / 60.0);
        prop_assert!(out.is_finite());
        prop_assert!(out.rejected_input);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// With no drive and no brake, a 300 kg corner's kinetic energy (chassis and wheel)
    /// never rises, from any sliding, spinning start, at 30–240 Hz.
    #[test]
    fn friction_never_adds_energy(vx0 in -40.0f64..40.0, vy0 in -15.0f64..15.0, w0 in -200.0f32..200.0, comp in 0.01f32..0.1, dt_i in 0usize..4) {
        let dt = [1.0f32 / 30.0, 1.0 / 60.0, 1.0 / 120.0, 1.0 / 240.0][dt_i];
        let settings = WheelSettings::default();
        let mut state = StepState { compression: comp, angular_velocity: w0, ..Default::default() };
        let (m, mut vx, mut vy) = (300.0f64, vx0, vy0);
        let energy = |vx: f64, vy: f64, w: f64| 0.5 * m * (vx * vx + vy * vy) + 0.5 * w * w;
        let mut e = energy(vx, vy, w0 as f64);
        let tol = 1e-6 * e + 1e-6;
        for i in 0..(2.0 / dt) as usize {
            let c = Contact { hit_distance: 0.4 - comp, forward_velocity: vx as f32, sideways_velocity: vy as f32, ..Default::default() };
            let out = step(&settings, &mut state, StepInput { contact: Some(c), ..Default::default() }, dt);
            vx += out.forward_force as f64 / m * dt as f64;
            vy += out.sideways_force as f64 / m * dt as f64;
            let e_new = energy(vx, vy, out.angular_velocity as f64);
            prop_assert!(e_new <= e + tol, "energy rose at step {}: {} → {}", i, e, e_new);
            e = e_new;
        }
    }
}
