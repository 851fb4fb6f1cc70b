//! Point-to-point messages and the MPI handles a program passes to MPI itself.
//!
//! - `messages`: RPN_COMM_send, recv, isend, irecv and waitall_nostat;
//! - `sendrecv`: RPN_COMM_sendrecv (on both transports);
//! - `shift`: RPN_COMM_move, a shift of buffers between grid neighbours (on both transports);
//! - `mpi_handles`: the Fortran MPI communicator and datatype of a name (RPN_COMM_comm,
//!   RPN_COMM_datyp) and RPN_COMM_split_by_socket;
//! - `comm_helpers`: the original's helpers around handles, datatypes and communicators
//!   (RPN_COMM_split, grank, colors, datyp_indx, world_set, group, custom_comm, ...);
//! - `handle_conversions`: the original's conversions between Fortran and C MPI handles
//!   (RPN_COMM_comm_c2f, _f2c, ..., RPN_COMM_c2f, RPN_COMM_f2c);
//! - `numa_split`: the original's RPNCOMM_Numa_split, by node or socket;
//! - `local_dist`: the original's local distribution tables (RPN_COMM_add_dist_entry, do_dist, ...).

pub mod comm_helpers;
pub mod handle_conversions;
pub mod local_dist;
pub mod messages;
pub mod mpi_handles;
pub mod numa_split;
pub mod sendrecv;
pub mod shift;
