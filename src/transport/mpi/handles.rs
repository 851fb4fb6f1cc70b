//! Real MPI handles for the caller's own MPI calls, as Fortran integers: the Fortran handle of a
//! communicator of the shim, MPI_COMM_NULL's, the size of a Fortran status, the datatype of a code of the shim's table, and
//! the communicators of RPN_COMM_split_by_socket.

use std::ffi::c_int;

use super::shim::{self, RawComm};
use crate::error::Result;

unsafe extern "C" {
    fn rpnmpi_comm_c2f(comm: *const RawComm) -> c_int;
    fn rpnmpi_comm_null_f() -> c_int;
    fn rpnmpi_status_size_f() -> c_int;
    fn rpnmpi_split_by_socket_f(forig: c_int, spaces: c_int, out: *mut c_int) -> c_int;
    fn rpnmpi_type_f(code: c_int, ftype: *mut c_int) -> c_int;
    fn rpnmpi_op_f(code: c_int, fop: *mut c_int) -> c_int;
}

/// The Fortran handle of a communicator of the shim.
pub fn comm_handle(raw: *const RawComm) -> Result<i32> {
    let _mpi = shim::serial();
    // SAFETY: a live communicator of the shim.
    Ok(unsafe { rpnmpi_comm_c2f(raw) })
}

/// MPI_COMM_NULL's Fortran handle.
pub fn comm_null() -> Result<i32> {
    let _mpi = shim::serial();
    // SAFETY: no argument.
    Ok(unsafe { rpnmpi_comm_null_f() })
}

/// The integers of a Fortran MPI status (MPI_STATUS_SIZE).
pub fn status_size() -> Result<i32> {
    // SAFETY: no argument; a constant of the MPI library.
    Ok(unsafe { rpnmpi_status_size_f() })
}

/// RPN_COMM_split_by_socket on the Fortran communicator `forig`, each node cut into `spaces`
/// parts: the node, socket and peer communicators (Fortran handles), node rank, socket rank,
/// peer rank and socket size.
pub fn split_by_socket(forig: i32, spaces: i32) -> Result<[i32; 7]> {
    let mut out = [0; 7];
    let rc = {
        let _mpi = shim::serial();
        // SAFETY: out has room for the 7 integers the shim writes.
        unsafe { rpnmpi_split_by_socket_f(forig, spaces, out.as_mut_ptr()) }
    };
    shim::check(rc, "RPN_COMM_split_by_socket's MPI_Comm_split")?;
    Ok(out)
}

/// The Fortran handle of the MPI operator of `code` (`core::Operator`'s, 0: MPI_OP_NULL).
pub fn operator(code: u32) -> Result<i32> {
    let mut f = 0;
    let rc = {
        let _mpi = shim::serial();
        // SAFETY: out-parameter.
        unsafe { rpnmpi_op_f(code as c_int, &mut f) }
    };
    shim::check(rc, "MPI_Op_c2f")?;
    Ok(f)
}

/// The Fortran handle of the MPI datatype of `code` (the table of `runtime::p2p::mpi_handles`).
pub fn datatype(code: usize) -> Result<i32> {
    let mut f = 0;
    let rc = {
        let _mpi = shim::serial();
        // SAFETY: out-parameter.
        unsafe { rpnmpi_type_f(code as c_int, &mut f) }
    };
    shim::check(rc, "MPI_Type_c2f")?;
    Ok(f)
}
