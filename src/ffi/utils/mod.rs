//! The C ABI of the original's utilities, under the original's C names where it has them
//! (f_rpn_comm_chdir, rpn_comm_getenv, f_RPN_COMM_open, ..., f_omp_get_max_threads,
//! rpn_comm_unbind_process, with the underscored names it gives Fortran callers) and under
//! `rpncomm_*` names for the Fortran routines of fortran/utils/.
//!
//! - `env`: variables, the working directory, the host id, the alarm, the OpenMP threads;
//! - `files`: the descriptor calls, the copies and RPN_COMM_file_bcst;
//! - `node`: the CPU configuration, the unbinding and the debug flags.

mod env;
mod files;
mod node;

pub use self::env::*;
pub use self::files::*;
pub use self::node::*;

use std::ffi::{CStr, c_char, c_void};

use crate::error::{Error, Result};

/// A NUL-terminated C string (the original's C functions take them; they are `void *` in the
/// header, where a `char *` is a Fortran string followed by its length).
///
/// # Safety
/// `p` is null or points to a NUL-terminated string.
unsafe fn c_string(p: *const c_void) -> Result<String> {
    if p.is_null() {
        return Err(Error::BadArgument("null string".into()));
    }
    // SAFETY: NUL-terminated per the caller's contract.
    Ok(unsafe { CStr::from_ptr(p.cast::<c_char>()) }.to_string_lossy().into_owned())
}

/// A Fortran string without its trailing blanks (the original trims names and paths).
///
/// # Safety
/// As `args::name`.
unsafe fn trimmed(p: *const c_char, len: usize) -> Result<String> {
    // SAFETY: the caller's contract is args::name's.
    Ok(unsafe { super::args::name(p, len) }?.trim_end_matches(' ').to_string())
}

/// The caller's Fortran character variable of `len` bytes, to fill.
///
/// # Safety
/// `p` is null (then `len` is 0) or writable for `len` bytes during the call.
unsafe fn room<'a>(p: *mut c_char, len: usize) -> &'a mut [u8] {
    if p.is_null() {
        return &mut [];
    }
    // SAFETY: writable for len bytes per the caller's contract.
    unsafe { std::slice::from_raw_parts_mut(p.cast::<u8>(), len) }
}
