//! The C ABI of the collective calls.
//!
//! - `to_all`: barrier, allreduce, bcast and allgather;
//! - `to_root`: reduce and gather;
//! - `by_block`: alltoall, gatherv and scatterv;
//! - `dist`: the distributions (dist, coll, shuf_ezdist, shuf_ezcoll, the MPI x-z transpose);
//! - `transpose`: RPN_COMM_transpose and the other transposes of RPN_COMM (_transpose_44,
//!   _Xpose1/2, _transpose48, _Xpose148/248);
//! - `mpi_transpose`: the RPN_MPI layer's x-z (row given) and x-y transposes, their timings;
//! - `global_sum`: RPN_COMM_globalsum, and RPN_COMM_compress / _expand;
//! - `spread`: RPN_COMM_spread_context and RPN_COMM_spread;
//! - `soft_barrier`: the original's soft barrier (rpn_comm_softbarrier_init, _init_all, rpn_comm_softbarrier).

mod by_block;
pub(crate) mod dist;
mod global_sum;
mod mpi_transpose;
mod soft_barrier;
mod spread;
mod to_all;
mod to_root;
mod transpose;

pub use self::by_block::*;
pub use self::dist::*;
pub use self::global_sum::*;
pub use self::mpi_transpose::*;
pub use self::soft_barrier::*;
pub use self::spread::*;
pub use self::to_all::*;
pub use self::to_root::*;
pub use self::transpose::*;
