//! The collective calls, checked against the other PEs' so that PEs in different routines, or
//! with different arguments, are named with one line (docs/contract.md rule 11).
//!
//! - `check`: how: the calls GEM makes every step at the original's cost (logged and compared
//!   where the PEs meet, or checked in the exchange itself), the checking mode;
//! - `agreement`: the agreement step the other collectives start with (and every one in the
//!   checking mode);
//! - `to_all`: barrier, allreduce, allgather and bcast, whose results reach every PE;
//! - `to_root`: reduce and gather, whose results reach one PE;
//! - `by_block`: alltoall, gatherv and scatterv, a block of its own from each PE to each PE, or
//!   between every PE and the root;
//! - `dist`: the distributions (dist, coll, shuf_ezdist, shuf_ezcoll, the x-z transpose);
//! - `redist`: RPN_COMM_grid_redist(_n), a window of levels reassembled on output PEs;
//! - `transposes`: RPN_COMM_transpose and the original's other transposes (Xpose1/2,
//!   transpose_44, transpose48, Xpose148/248, the RPN_MPI x-z and x-y transposes);
//! - `global_sum`: RPN_COMM_globalsum, added in the original's order;
//! - `spread`: RPN_COMM_spread_context and RPN_COMM_spread (their contexts);
//! - `soft_barrier`: the original's soft barrier over a registered communicator;
//! - `barrier_data`: RPN_COMM_barrier's timings (RPN_COMM_barrier_data).

mod agreement;
pub mod barrier_data;
mod by_block;
pub mod check;
pub mod dist;
pub mod global_sum;
pub mod redist;
mod soft_barrier;
pub(super) mod spread;
mod to_all;
mod to_root;
pub mod transposes;

pub use self::transposes::{mpi_transpose, transpose, transpose48};
