//! The rows' grammar: `floats!` declares [`VEHICLE_FLOATS`](super::VEHICLE_FLOATS) from
//! the table in `mod.rs`, each entry turned into one [`Row`](crate::rows::Row) by `row!`
//! from its common fields and its place (`at`, `optional` with `typical`, or `get` and
//! `field`; the keywords are the module's docs).

/// One row from its common fields and its place (see the module's docs).
macro_rules! row {
    ({ $($common:tt)* } at: |$s:tt, $i:tt| $p:expr $(,)?) => {
        Row {
            $($common)*
            get: |$s: &VehicleSettings, $i: usize| Some($p),
            field: |$s: &mut VehicleSettings, $i: usize| Some(&mut $p),
            optional: None,
        }
    };
    ({ $($common:tt)* } optional: |$s:tt, $i:tt| $p:expr, typical: none $(,)?) => {
        Row {
            $($common)*
            get: |$s: &VehicleSettings, $i: usize| $p,
            field: |$s: &mut VehicleSettings, $i: usize| $p.as_mut(),
            optional: Some(Optional {
                typical: None,
                set: |$s: &mut VehicleSettings, $i: usize, v: f32| $p = Some(v),
            }),
        }
    };
    ({ $($common:tt)* } optional: |$s:tt, $i:tt| $p:expr, typical: |$ts:tt, $ti:tt| $t:expr $(,)?) => {
        Row {
            $($common)*
            get: |$s: &VehicleSettings, $i: usize| $p,
            field: |$s: &mut VehicleSettings, $i: usize| $p.as_mut(),
            optional: Some(Optional {
                typical: typical(|$ts: &VehicleSettings, $ti: usize| $t),
                set: |$s: &mut VehicleSettings, $i: usize, v: f32| $p = Some(v),
            }),
        }
    };
    ({ $($common:tt)* } get: |$s:tt, $i:tt| $g:expr, field: |$fs:tt, $fi:tt| $f:expr $(,)?) => {
        Row {
            $($common)*
            get: |$s: &VehicleSettings, $i: usize| $g,
            field: |$fs: &mut VehicleSettings, $fi: usize| $f,
            optional: None,
        }
    };
}

/// Declares [`VEHICLE_FLOATS`] from the rows (grammar: the module's docs).
macro_rules! floats {
    ($(
        $path:literal {
            label: $label:literal, unit: $unit:literal, group: $part:ident,
            limit: |$ls:tt, $li:tt| $limit:expr,
            range: |$rs:tt, $ri:tt| $range:expr,
            step: $step:expr,
            $($place:tt)*
        }
    )*) => {
        /// Every scalar number of a vehicle outside its wheels, in the validation's order.
        pub const VEHICLE_FLOATS: &[Row<VehicleSettings, VehiclePart>] = &[$(
            row!({
                path: $path,
                label: $label,
                unit: $unit,
                group: VehiclePart::$part,
                limit: |$ls: &VehicleSettings, $li: usize| $limit,
                range: |$rs: &VehicleSettings, $ri: usize| $range,
                step: $step,
            } $($place)*)
        ),*];
    };
}
