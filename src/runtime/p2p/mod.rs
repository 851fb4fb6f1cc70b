//! Point-to-point messages and the MPI handles a program passes to MPI itself.
//!
//! - `messages`: RPN_COMM_send, recv, isend, irecv and waitall_nostat;
//! - `sendrecv`: RPN_COMM_sendrecv (on both transports);
//! - `mpi_handles`: the Fortran MPI communicator and datatype of a name (RPN_COMM_comm,
//!   RPN_COMM_datyp) and RPN_COMM_split_by_socket.

pub mod messages;
pub mod mpi_handles;
pub mod sendrecv;
