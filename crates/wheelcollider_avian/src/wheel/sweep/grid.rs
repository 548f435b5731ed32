//! The grid of moving colliders' boxes that answers the per-chassis screening (see
//! [`MovingGrid`]).

use super::owned_by;
use avian3d::prelude::*;
use bevy::prelude::*;

/// One moving collider's box on the [`MovingGrid`]: the box of its tree leaf (the
/// same box a traversal of the tree tests), with its collider and body.
#[derive(Clone, Copy, Debug)]
pub(crate) struct GridEntry {
    pub min: Vec3A,
    pub max: Vec3A,
    pub collider: Entity,
    pub body: Option<Entity>,
}

impl GridEntry {
    /// Whether the boxes overlap or touch (true for a non-finite box, like the tree's
    /// test).
    #[inline]
    pub(crate) fn overlaps(&self, min: Vec3A, max: Vec3A) -> bool {
        !(self.min.cmpgt(max) | self.max.cmplt(min)).any()
    }

    #[inline]
    fn is_own(&self, chassis: Entity) -> bool {
        owned_by(self.body, self.collider, chassis)
    }
}

/// The boxes of the colliders that can move (avian's dynamic, kinematic and standalone
/// trees) hashed on a grid of square cells in the ground plane (X, Z), rebuilt each step
/// before the wheels run: it answers [`WheelCasts::moving_in`]'s question, "does a
/// moving collider other than the chassis' own touch this box?", with the same answer
/// for a fraction of a tree traversal's cost.
///
/// The cell side is twice the median collider's larger horizontal extent. A box that
/// covers more than [`MovingGrid::MAX_CELLS`] cells is kept in a list that every query
/// tests; a query box that covers more than that is answered by the trees, and so is
/// every query in a step where few chassis share many moving colliders (see
/// [`WheelCasts::rebuild_grid`]).
///
/// What it saves over the trees' box query: `docs/performance.md`.
#[derive(Default)]
pub(crate) struct MovingGrid {
    /// Whether the grid holds this step's colliders (else the trees answer).
    built: bool,
    /// 1 / the cell side (1/m); 0 when there is nothing to hash.
    inv_cell: f32,
    /// Buckets − 1 (a power of two minus one).
    mask: u32,
    /// Where each bucket's entries start in `entries`; one more than the buckets.
    starts: Vec<u32>,
    /// The entries, grouped by bucket (an entry is in every bucket its cells hash to).
    entries: Vec<GridEntry>,
    /// Entries that cover too many cells, or whose box is not finite.
    pub(super) large: Vec<GridEntry>,
    /// Scratch: every moving collider, the extents for the median, and each bucket's
    /// fill position.
    all: Vec<GridEntry>,
    extents: Vec<f32>,
    cursor: Vec<u32>,
    /// Scratch: each collider's cell range, `None` for the large list.
    ranges: Vec<Option<(i32, i32, i32, i32)>>,
}

impl MovingGrid {
    /// The most cells a box may cover on the grid (4 × 4).
    pub const MAX_CELLS: i64 = 16;

    /// The cell range (inclusive) a box covers in X and Z, if finite and small.
    #[inline]
    pub(crate) fn cells(&self, min: Vec3A, max: Vec3A) -> Option<(i32, i32, i32, i32)> {
        // floor(v / cell) by a conversion (`f32::floor` is a libm call on the baseline
        // x86-64 target); rejects NaN and boxes far out (beyond ±2²⁴ cells).
        let cell = |v: f32| {
            let x = v * self.inv_cell;
            (x.abs() <= 16_777_216.0).then(|| {
                let t = x as i32;
                t - ((t as f32) > x) as i32
            })
        };
        let (x0, x1, z0, z1) = (cell(min.x)?, cell(max.x)?, cell(min.z)?, cell(max.z)?);
        let count = (x1 as i64 - x0 as i64 + 1) * (z1 as i64 - z0 as i64 + 1);
        (x0 <= x1 && z0 <= z1 && count <= Self::MAX_CELLS).then_some((x0, x1, z0, z1))
    }

    #[inline]
    pub(crate) fn bucket(&self, x: i32, z: i32) -> usize {
        ((x as u32).wrapping_mul(0x9E37_79B1) ^ (z as u32).wrapping_mul(0x85EB_CA77)).rotate_left(15) as usize
            & self.mask as usize
    }

    /// Every query answers `None` (ask the trees) until the next rebuild.
    pub(crate) fn disable(&mut self) {
        self.built = false;
    }

    /// Rebuilds the grid from the moving colliders' boxes. Allocates only when the
    /// scene grows.
    pub(crate) fn rebuild(&mut self, colliders: impl Iterator<Item = GridEntry>) {
        self.built = true;
        self.all.clear();
        self.large.clear();
        self.entries.clear();
        self.all.extend(colliders);
        self.inv_cell = 0.0;
        if self.all.is_empty() {
            return;
        }
        // The cell: twice the median collider's larger horizontal extent.
        self.extents.clear();
        self.extents.extend(self.all.iter().map(|e| {
            let d = e.max - e.min;
            d.x.max(d.z)
        }));
        let middle = self.extents.len() / 2;
        let (_, median, _) = self.extents.select_nth_unstable_by(middle, f32::total_cmp);
        let cell = (2.0 * *median).clamp(0.5, 1.0e4);
        self.inv_cell = if cell.is_finite() { 1.0 / cell } else { 1.0e-4 };
        // Sized by the count of colliders, not of the cells they cover, so that the
        // buffers do not grow while the same colliders move about: an entry covers at
        // most MAX_CELLS cells, usually one to four.
        let n = self.all.len();
        let buckets = (8 * n).next_power_of_two().max(16);
        self.mask = (buckets - 1) as u32;
        self.entries.reserve(Self::MAX_CELLS as usize * n);
        // Count the cells per bucket, then place the entries (a counting sort).
        self.starts.clear();
        self.starts.resize(buckets + 1, 0);
        let all = core::mem::take(&mut self.all);
        let mut ranges = core::mem::take(&mut self.ranges);
        ranges.clear();
        let mut covered = 0;
        for e in &all {
            let range = self.cells(e.min, e.max);
            match range {
                Some((x0, x1, z0, z1)) => {
                    for x in x0..=x1 {
                        for z in z0..=z1 {
                            let b = self.bucket(x, z);
                            self.starts[b + 1] += 1;
                            covered += 1;
                        }
                    }
                }
                None => self.large.push(*e),
            }
            ranges.push(range);
        }
        for b in 0..buckets {
            self.starts[b + 1] += self.starts[b];
        }
        let placeholder = GridEntry {
            min: Vec3A::ZERO,
            max: Vec3A::ZERO,
            collider: Entity::PLACEHOLDER,
            body: None,
        };
        self.entries.resize(covered, placeholder);
        self.cursor.clear();
        self.cursor.extend_from_slice(&self.starts[..buckets]);
        for (e, range) in all.iter().zip(&ranges) {
            if let Some((x0, x1, z0, z1)) = *range {
                for x in x0..=x1 {
                    for z in z0..=z1 {
                        let b = self.bucket(x, z);
                        self.entries[self.cursor[b] as usize] = *e;
                        self.cursor[b] += 1;
                    }
                }
            }
        }
        self.ranges = ranges;
        self.all = all;
    }

    /// Whether a moving collider not of `chassis` touches the box, or `None` if the box
    /// covers too many cells (ask the trees).
    #[inline]
    pub fn any_in(&self, aabb: ColliderAabb, chassis: Entity) -> Option<bool> {
        if !self.built {
            return None;
        }
        if self.inv_cell == 0.0 {
            return Some(false);
        }
        let (min, max) = (Vec3A::from(aabb.min), Vec3A::from(aabb.max));
        if self.large.iter().any(|e| !e.is_own(chassis) && e.overlaps(min, max)) {
            return Some(true);
        }
        let (x0, x1, z0, z1) = self.cells(min, max)?;
        for x in x0..=x1 {
            for z in z0..=z1 {
                let b = self.bucket(x, z);
                let (start, end) = (self.starts[b] as usize, self.starts[b + 1] as usize);
                if self.entries[start..end]
                    .iter()
                    .any(|e| !e.is_own(chassis) && e.overlaps(min, max))
                {
                    return Some(true);
                }
            }
        }
        Some(false)
    }
}
