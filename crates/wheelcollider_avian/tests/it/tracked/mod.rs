//! Tracked vehicles: the `leopard2` preset, a hull on seven road wheels a side whose
//! belts the driveline turns as one each, steered by making one belt faster than the
//! other (`docs/tracked.md`).

mod tank;
