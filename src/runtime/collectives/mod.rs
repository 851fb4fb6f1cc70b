//! The collective calls: every one starts with the agreement step, so that PEs in different
//! routines, or with different arguments, all fail with one line before any data moves.
//!
//! - `agreement`: the agreement step every collective call starts with;
//! - `to_all`: barrier, allreduce, allgather and bcast, whose results reach every PE;
//! - `to_root`: reduce and gather, whose results reach one PE;
//! - `by_block`: alltoall, gatherv and scatterv, a block of its own from each PE to each PE, or
//!   between every PE and the root;
//! - `dist`: the distributions (dist, coll, shuf_ezdist, shuf_ezcoll, the x-z transpose);
//! - `transpose`: RPN_COMM_transpose;
//! - `spread`: RPN_COMM_spread_context and RPN_COMM_spread (their contexts).

mod agreement;
mod by_block;
pub mod dist;
pub(super) mod spread;
mod to_all;
mod to_root;
pub mod transpose;
