//! The C ABI of point-to-point messages and of the MPI handles a program passes to MPI.
//!
//! - `messages`: RPN_COMM_send, recv, isend, irecv and waitall_nostat;
//! - `mpi_handles`: RPN_COMM_comm, RPN_COMM_datyp and RPN_COMM_split_by_socket;
//! - `comm_helpers`: the original's helpers around handles, datatypes and communicators;
//! - `local_dist`: the original's local distribution tables (RPN_COMM_add_dist_entry, do_dist, ...).

mod comm_helpers;
mod local_dist;
mod messages;
mod mpi_handles;

pub use self::comm_helpers::*;
pub use self::local_dist::*;
pub use self::messages::*;
pub use self::mpi_handles::*;
