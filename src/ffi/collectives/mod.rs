//! The C ABI of the collective calls.
//!
//! - `to_all`: barrier, allreduce, bcast and allgather;
//! - `to_root`: reduce and gather;
//! - `by_block`: alltoall, gatherv and scatterv;
//! - `dist`: the distributions (dist, coll, shuf_ezdist, shuf_ezcoll, the MPI x-z transpose);
//! - `transpose`: RPN_COMM_transpose;
//! - `spread`: RPN_COMM_spread_context and RPN_COMM_spread;
//! - `soft_barrier`: the original's soft barrier (rpn_comm_softbarrier_init, _init_all, rpn_comm_softbarrier).

mod by_block;
mod dist;
mod soft_barrier;
mod spread;
mod to_all;
mod to_root;
mod transpose;

pub use self::by_block::*;
pub use self::dist::*;
pub use self::soft_barrier::*;
pub use self::spread::*;
pub use self::to_all::*;
pub use self::to_root::*;
pub use self::transpose::*;
