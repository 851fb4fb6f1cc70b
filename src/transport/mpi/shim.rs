//! The C shim (`mpi/shim.c`, compiled with the MPI's `mpicc` by build.rs): declarations and
//! the conversion of its status codes into `Error::Mpi`. MPI handles stay opaque pointers.

use std::ffi::{c_char, c_int, c_void};

use crate::error::{Error, Result};

/// An MPI communicator held by the shim.
#[repr(C)]
pub struct RawComm {
    _opaque: [u8; 0],
}

/// An MPI window held by the shim.
#[repr(C)]
pub struct RawWin {
    _opaque: [u8; 0],
}

pub const PUT: c_int = 1;
pub const GET: c_int = 2;
pub const ACC: c_int = 3;
pub const GETACC: c_int = 4;

pub const NO_LOCK: c_int = 0;
pub const SHARED: c_int = 1;
pub const EXCLUSIVE: c_int = 2;

unsafe extern "C" {
    pub fn rpnmpi_init(started: *mut c_int) -> c_int;
    pub safe fn rpnmpi_finalize() -> c_int;
    pub fn rpnmpi_error_string(code: c_int, buf: *mut c_char, len: c_int);
    pub fn rpnmpi_library_version(buf: *mut c_char, len: c_int);
    pub fn rpnmpi_comm_world(comm: *mut *mut RawComm) -> c_int;
    pub fn rpnmpi_comm_from_fortran(fcomm: c_int, comm: *mut *mut RawComm) -> c_int;
    pub fn rpnmpi_comm_release(comm: *mut RawComm);
    pub fn rpnmpi_comm_rank_size(comm: *const RawComm, rank: *mut c_int, size: *mut c_int) -> c_int;
    pub fn rpnmpi_barrier(comm: *const RawComm) -> c_int;
    pub fn rpnmpi_allgather(comm: *const RawComm, mine: *const c_void, all: *mut c_void, bytes: c_int) -> c_int;
    pub fn rpnmpi_win_create(comm: *const RawComm, base: *mut c_void, bytes: usize, disp_unit: c_int, local: *mut *mut c_void, win: *mut *mut RawWin) -> c_int;
    pub fn rpnmpi_win_free(win: *mut *mut RawWin) -> c_int;
    pub fn rpnmpi_fence(win: *mut RawWin, closing: c_int) -> c_int;
    pub fn rpnmpi_group_open(win: *mut RawWin, from: *const c_int, nfrom: c_int, to: *const c_int, nto: c_int) -> c_int;
    pub fn rpnmpi_group_close(win: *mut RawWin) -> c_int;
    pub fn rpnmpi_sync_self(win: *mut RawWin, rank: c_int) -> c_int;
    pub fn rpnmpi_rma(win: *mut RawWin, kind: c_int, lock: c_int, src: *const c_void, result: *mut c_void, n: c_int, dtype: c_int, target: c_int, disp: i64, op: c_int) -> c_int;
    pub fn rpnmpi_bounded_increment(win: *mut RawWin, target: c_int, limit: c_int, old: *mut c_int) -> c_int;
}

/// The text of a shim or MPI status code.
pub fn error_text(code: c_int) -> String {
    let mut buf = [0u8; 512];
    // SAFETY: the shim writes at most buf.len() bytes, NUL-terminated.
    unsafe { rpnmpi_error_string(code, buf.as_mut_ptr() as *mut c_char, buf.len() as c_int) };
    let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
    String::from_utf8_lossy(&buf[..end]).into_owned()
}

/// The MPI library's name and version (first line).
pub fn library_version() -> String {
    let mut buf = [0u8; 256];
    // SAFETY: the shim writes at most buf.len() bytes, NUL-terminated.
    unsafe { rpnmpi_library_version(buf.as_mut_ptr() as *mut c_char, buf.len() as c_int) };
    let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
    String::from_utf8_lossy(&buf[..end]).trim().to_string()
}

/// `Ok` for status 0, else `Error::Mpi` naming the MPI operation `what`.
pub fn check(code: c_int, what: &str) -> Result<()> {
    if code == 0 { Ok(()) } else { Err(Error::Mpi(format!("{what}: {}", error_text(code)))) }
}
