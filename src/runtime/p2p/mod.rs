//! Point-to-point messages and the MPI handles a program passes to MPI itself.
//!
//! - `messages`: RPN_COMM_send, recv, isend, irecv and waitall_nostat;
//! - `sendrecv`: RPN_COMM_sendrecv (on both transports);
//! - `mpi_handles`: the Fortran MPI communicator and datatype of a name (RPN_COMM_comm,
//!   RPN_COMM_datyp) and RPN_COMM_split_by_socket;
//! - `comm_helpers`: the original's helpers around handles, datatypes and communicators
//!   (RPN_COMM_split, grank, colors, datyp_indx, world_set, group, custom_comm, ...);
//! - `local_dist`: the original's local distribution tables (RPN_COMM_add_dist_entry, do_dist, ...).

pub mod comm_helpers;
pub mod local_dist;
pub mod messages;
pub mod mpi_handles;
pub mod sendrecv;
