//! Window memory and what is done to it:
//! - `region`: named and anonymous shared-memory regions, mapped by every PE;
//! - `remap`: zero-copy windows on the caller's array (its pages replaced by the region's);
//! - `copy`: bulk copies of window data (non-temporal stores for large ones);
//! - `atomic_ops`: element-wise atomic read-modify-write on window memory.

pub mod atomic_ops;
pub mod copy;
pub mod region;
pub mod remap;
