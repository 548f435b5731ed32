//! How a row reaches a number inside a part that may be absent or of another kind (the
//! `get:` / `field:` places of [`VEHICLE_FLOATS`](super::VEHICLE_FLOATS)): a limited-slip
//! differential's, a trailer's overrun brake's, a two-wheeler's. `get` reads it (`None`
//! where the part has no such number), `field` borrows it to clamp or edit.

/// A limited-slip differential's number `$f` (`preload` or `locking`) in `$d`.
macro_rules! lsd {
    (get $d:expr, $f:ident) => {
        match $d {
            DifferentialKind::LimitedSlip { $f, .. } => Some($f),
            _ => None,
        }
    };
    (field $d:expr, $f:ident) => {
        match &mut $d {
            DifferentialKind::LimitedSlip { $f, .. } => Some($f),
            _ => None,
        }
    };
}

/// A two-wheeler's number `$f` (a path inside its `TwoWheelerSettings`) of `$s`.
macro_rules! bike {
    (get $s:expr, $($f:ident).+) => {
        $s.two_wheeler.as_ref().map(|b| b.$($f).+)
    };
    (field $s:expr, $($f:ident).+) => {
        $s.two_wheeler.as_mut().map(|b| &mut b.$($f).+)
    };
}

/// A tracked vehicle's number `$f` (in its `TrackSettings`) of `$s`.
macro_rules! tracked {
    (get $s:expr, $f:ident) => {
        $s.tracks.as_ref().map(|t| t.$f)
    };
    (field $s:expr, $f:ident) => {
        $s.tracks.as_mut().map(|t| &mut t.$f)
    };
}

/// An overrun brake's number `$f` (`response` or `full`) of the trailer of `$s`.
macro_rules! overrun {
    (get $s:expr, $f:ident) => {
        match $s.trailer.as_ref().map(|t| t.brakes) {
            Some(TrailerBrakes::Overrun { $f, .. }) => Some($f),
            _ => None,
        }
    };
    (field $s:expr, $f:ident) => {
        match $s.trailer.as_mut().map(|t| &mut t.brakes) {
            Some(TrailerBrakes::Overrun { $f, .. }) => Some($f),
            _ => None,
        }
    };
}

/// A limited-slip differential's overrun locking in `$d`, where it has its own.
macro_rules! coast {
    (get $d:expr) => {
        match $d {
            DifferentialKind::LimitedSlip { coast_locking, .. } => coast_locking,
            _ => None,
        }
    };
    (field $d:expr) => {
        match &mut $d {
            DifferentialKind::LimitedSlip {
                coast_locking: Some(c), ..
            } => Some(c),
            _ => None,
        }
    };
}
