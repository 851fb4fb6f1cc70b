//! The C ABI of the file utilities: the original's descriptor calls for Fortran (f_RPN_COMM_open,
//! _read, _write, _close, _unlink, _copy, _wait), RPN_COMM_file_copy_start and
//! RPN_COMM_file_bcst. The descriptor calls answer as libc does (-1 on error, no message).

use std::ffi::{c_char, c_int, c_void};

use super::super::call;
use super::{c_string, trimmed};
use crate::runtime::utils::files;

/// open(2) of the NUL-terminated `path`: for reading (`rwflag` 0), else for reading and writing,
/// created (mode 0777 less the umask) when missing; the descriptor, or -1.
#[unsafe(no_mangle)]
pub extern "C" fn f_RPN_COMM_open(path: *const c_void, rwflag: c_int) -> c_int {
    // SAFETY: NUL-terminated string from the caller.
    unsafe { c_string(path) }.map_or(-1, |p| files::open(&p, rwflag != 0))
}

/// read(2) of at most `count` bytes of `fd` into `buf`: the bytes read, 0 at the end, -1.
#[unsafe(no_mangle)]
pub extern "C" fn f_RPN_COMM_read(fd: c_int, buf: *mut c_void, count: i64) -> i64 {
    let Ok(count) = usize::try_from(count) else { return -1 };
    if buf.is_null() {
        return -1;
    }
    // SAFETY: the caller's buffer holds count bytes.
    files::read(fd, unsafe { std::slice::from_raw_parts_mut(buf.cast::<u8>(), count) })
}

/// write(2) of `count` bytes of `buf` to `fd`: the bytes written, or -1.
#[unsafe(no_mangle)]
pub extern "C" fn f_RPN_COMM_write(fd: c_int, buf: *const c_void, count: i64) -> i64 {
    let Ok(count) = usize::try_from(count) else { return -1 };
    if buf.is_null() {
        return -1;
    }
    // SAFETY: the caller's buffer holds count bytes.
    files::write(fd, unsafe { std::slice::from_raw_parts(buf.cast::<u8>(), count) })
}

/// close(2) of `fd`: 0 or -1.
#[unsafe(no_mangle)]
pub extern "C" fn f_RPN_COMM_close(fd: c_int) -> c_int {
    files::close(fd)
}

/// unlink(2) of the NUL-terminated `path`: 0 or -1.
#[unsafe(no_mangle)]
pub extern "C" fn f_RPN_COMM_unlink(path: *const c_void) -> c_int {
    // SAFETY: NUL-terminated string from the caller.
    unsafe { c_string(path) }.map_or(-1, |p| files::unlink(&p))
}

/// Copies descriptor `fd1` onto `fd2` to the end of `fd1` and closes both: now (`asynchronous`
/// 0: 0 or -1) or in a background thread (`asynchronous` not 0: the copy's id, 1, for
/// f_RPN_COMM_wait; -1 while another copy runs). (-1, -1, level) sets the level of its
/// messages on stdout instead (0 none, 1 copies, 10 steps).
#[unsafe(no_mangle)]
pub extern "C" fn f_RPN_COMM_copy(fd1: c_int, fd2: c_int, asynchronous: c_int) -> c_int {
    files::copy(fd1, fd2, asynchronous)
}

/// Waits for background copy `id`: 0 when it succeeded, -1 when it failed, for an id other
/// than 1's and when no copy runs.
#[unsafe(no_mangle)]
pub extern "C" fn f_RPN_COMM_wait(id: c_int) -> c_int {
    files::wait(id)
}

/// RPN_COMM_file_copy_start: starts the background copy of file `from` onto file `to` (names
/// without their trailing blanks): its id (1), or -1.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_file_copy_start(from: *const c_char, from_len: usize, to: *const c_char, to_len: usize) -> c_int {
    // SAFETY: Fortran string arguments.
    match unsafe { (trimmed(from, from_len), trimmed(to, to_len)) } {
        (Ok(from), Ok(to)) => files::file_copy_start(&from, &to),
        _ => -1,
    }
}

/// RPN_COMM_file_bcst (collective over the Fortran MPI communicator `fcomm`; MPI build): copies
/// file `name` of rank 0 onto the first PE of every other node: 0, the number of PEs that
/// failed, or -1 (with a message) when refused.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_file_bcst(name: *const c_char, name_len: usize, fcomm: c_int) -> c_int {
    let mut failed = 0;
    let status = call("RPN_COMM_file_bcst", || {
        // SAFETY: Fortran string argument.
        failed = files::file_bcst(&unsafe { trimmed(name, name_len) }?, fcomm)?;
        Ok(())
    });
    if status == 0 { failed } else { status }
}
