//! Real MPI handles for the caller's own MPI calls, as Fortran integers: the Fortran handle of a
//! communicator of the shim, MPI_COMM_NULL's, the datatype of a code of the shim's table, and
//! the communicators of RPN_COMM_split_by_socket and split_by_node, groups, MPI_INFO_NULL,
//! MPI_STATUS_SIZE and the world communicator of RPN_COMM_world_set.

use std::ffi::c_int;

use super::shim::{self, RawComm};
use crate::error::Result;

unsafe extern "C" {
    fn rpnmpi_comm_c2f(comm: *const RawComm) -> c_int;
    fn rpnmpi_comm_null_f() -> c_int;
    fn rpnmpi_split_by_socket_f(forig: c_int, spaces: c_int, out: *mut c_int) -> c_int;
    fn rpnmpi_type_f(code: c_int, ftype: *mut c_int) -> c_int;
    fn rpnmpi_op_f(code: c_int, fop: *mut c_int) -> c_int;
    fn rpnmpi_world_set_f(fcomm: c_int);
    fn rpnmpi_world_get_f() -> c_int;
    fn rpnmpi_split_by_node_f(forig: c_int, split: c_int, out: *mut c_int) -> c_int;
    fn rpnmpi_comm_rank_size_f(fcomm: c_int, rank: *mut c_int, size: *mut c_int) -> c_int;
    fn rpnmpi_comm_group_f(fcomm: c_int, fgroup: *mut c_int) -> c_int;
    fn rpnmpi_group_member_f(fgroup: c_int, member: *mut c_int) -> c_int;
    fn rpnmpi_group_null_f() -> c_int;
    fn rpnmpi_info_null_f() -> c_int;
    fn rpnmpi_status_size_f() -> c_int;
    fn rpnmpi_type_extent_f(ftype: c_int, extent: *mut i64) -> c_int;
    fn rpnmpi_win_null_f() -> c_int;
    fn rpnmpi_handle_f2c(kind: c_int, f: c_int, c: *mut i64) -> c_int;
    fn rpnmpi_handle_c2f(kind: c_int, c: i64, f: *mut c_int) -> c_int;
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

/// RPN_COMM_world_set: the Fortran communicator the job is made of when the library starts.
pub fn world_set(fcomm: i32) {
    let _mpi = shim::serial();
    // SAFETY: stores an integer; no MPI call.
    unsafe { rpnmpi_world_set_f(fcomm) }
}

/// RPN_COMM_world_get: the communicator RPN_COMM_world_set gave, else MPI_COMM_WORLD's handle.
pub fn world_get() -> i32 {
    let _mpi = shim::serial();
    // SAFETY: no argument.
    unsafe { rpnmpi_world_get_f() }
}

/// RPN_COMM_split_by_node's split of the Fortran communicator `forig` (collective over it): the
/// node and peer communicators. The nodes are those the library's windows see: the pretend ones
/// of `RPNCOMM_NODE_SPLIT` where it is set (checked when the transport started).
pub fn split_by_node(forig: i32) -> Result<(i32, i32)> {
    let split = super::node::node_split(std::env::var(super::node::ENV_NODE_SPLIT).ok().as_deref()).unwrap_or(0);
    let mut out = [0; 2];
    let rc = {
        let _mpi = shim::serial();
        // SAFETY: out has room for the 2 integers the shim writes.
        unsafe { rpnmpi_split_by_node_f(forig, split as c_int, out.as_mut_ptr()) }
    };
    shim::check(rc, "RPN_COMM_split_by_node's MPI_Comm_split")?;
    Ok((out[0], out[1]))
}

/// Rank and size of the Fortran communicator `fcomm`.
pub fn rank_size(fcomm: i32) -> Result<(i32, i32)> {
    let (mut rank, mut size) = (0, 0);
    let rc = {
        let _mpi = shim::serial();
        // SAFETY: out-parameters.
        unsafe { rpnmpi_comm_rank_size_f(fcomm, &mut rank, &mut size) }
    };
    shim::check(rc, "MPI_Comm_rank")?;
    Ok((rank, size))
}

/// The group of the Fortran communicator `fcomm` (MPI_GROUP_NULL's for MPI_COMM_NULL's).
pub fn comm_group(fcomm: i32) -> Result<i32> {
    let mut g = 0;
    let rc = {
        let _mpi = shim::serial();
        // SAFETY: out-parameter.
        unsafe { rpnmpi_comm_group_f(fcomm, &mut g) }
    };
    shim::check(rc, "MPI_Comm_group")?;
    Ok(g)
}

/// Whether this process is a member of the Fortran group `fgroup`.
pub fn group_member(fgroup: i32) -> Result<bool> {
    let mut member = 0;
    let rc = {
        let _mpi = shim::serial();
        // SAFETY: out-parameter.
        unsafe { rpnmpi_group_member_f(fgroup, &mut member) }
    };
    shim::check(rc, "MPI_Group_rank")?;
    Ok(member != 0)
}

/// MPI_GROUP_NULL's Fortran handle.
pub fn group_null() -> i32 {
    let _mpi = shim::serial();
    // SAFETY: no argument.
    unsafe { rpnmpi_group_null_f() }
}

/// MPI_INFO_NULL's Fortran handle.
pub fn info_null() -> i32 {
    let _mpi = shim::serial();
    // SAFETY: no argument.
    unsafe { rpnmpi_info_null_f() }
}

/// MPI_STATUS_SIZE of the MPI's Fortran bindings.
pub fn status_size() -> i32 {
    let _mpi = shim::serial();
    // SAFETY: no argument.
    unsafe { rpnmpi_status_size_f() }
}

/// The extent in bytes of the caller's Fortran MPI datatype `ftype`.
pub fn type_extent(ftype: i32) -> Result<i64> {
    let mut extent = 0;
    let rc = {
        let _mpi = shim::serial();
        // SAFETY: out-parameter.
        unsafe { rpnmpi_type_extent_f(ftype, &mut extent) }
    };
    shim::check(rc, "MPI_Type_get_extent")?;
    Ok(extent)
}

/// The C handle (its bits) of the Fortran handle `f` of an MPI object of `kind` (the shim's
/// codes: 0 datatype .. 7 communicator).
pub fn handle_f2c(kind: i32, f: i32) -> Result<i64> {
    let mut c = 0;
    let rc = {
        let _mpi = shim::serial();
        // SAFETY: out-parameter; MPI's f2c functions accept any integer.
        unsafe { rpnmpi_handle_f2c(kind, f, &mut c) }
    };
    shim::check(rc, "MPI_*_f2c")?;
    Ok(c)
}

/// The Fortran handle of the C handle `c` (its bits) of an MPI object of `kind`.
///
/// `c` must be a C handle MPI gave (`handle_f2c`'s): MPI's c2f functions may read through it.
pub fn handle_c2f(kind: i32, c: i64) -> Result<i32> {
    let mut f = 0;
    let rc = {
        let _mpi = shim::serial();
        // SAFETY: out-parameter; `c` is a C handle of `kind` that MPI gave (the caller's check).
        unsafe { rpnmpi_handle_c2f(kind, c, &mut f) }
    };
    shim::check(rc, "MPI_*_c2f")?;
    Ok(f)
}

/// MPI_WIN_NULL's Fortran handle.
pub fn win_null() -> i32 {
    let _mpi = shim::serial();
    // SAFETY: no argument.
    unsafe { rpnmpi_win_null_f() }
}
