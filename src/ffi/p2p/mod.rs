//! The C ABI of point-to-point messages and of the MPI handles a program passes to MPI.
//!
//! - `messages`: RPN_COMM_send, recv, isend, irecv and waitall_nostat;
//! - `mpi_handles`: RPN_COMM_comm, RPN_COMM_datyp and RPN_COMM_split_by_socket;
//! - `comm_helpers`: the original's helpers around handles, datatypes and communicators;
//! - `handle_conversions`: the original's C conversions between Fortran and C MPI handles;
//! - `numa_split`: the original's RPNCOMM_Numa_split;
//! - `local_dist`: the original's local distribution tables (RPN_COMM_add_dist_entry, do_dist, ...).

mod comm_helpers;
mod handle_conversions;
mod local_dist;
mod messages;
mod mpi_handles;
mod numa_split;

pub use self::comm_helpers::*;
pub use self::handle_conversions::*;
pub use self::local_dist::*;
pub use self::messages::*;
pub use self::mpi_handles::*;
pub use self::numa_split::*;
