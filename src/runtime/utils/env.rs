//! The process's environment as the original's small C and Fortran utilities give it: the
//! variables, the working directory, the host identifier, the alarm and the OpenMP threads.

use std::ffi::{CStr, c_int};
use std::sync::atomic::{AtomicI32, Ordering};

use crate::error::{Error, Result};

/// A variable's value, None where it is unset (not UTF-8: its bytes, lossily).
pub fn var(name: &str) -> Option<String> {
    std::env::var_os(name).map(|v| v.to_string_lossy().into_owned())
}

/// `value` copied into `room` bytes, blank-filled (a Fortran character variable's contents).
pub fn fill(value: &[u8], room: &mut [u8]) {
    let n = value.len().min(room.len());
    room[..n].copy_from_slice(&value[..n]);
    room[n..].fill(b' ');
}

/// Changes this process's working directory (RPN_COMM_chdir, f_rpn_comm_chdir).
pub fn chdir(path: &str) -> Result<()> {
    std::env::set_current_dir(path).map_err(|e| Error::BadArgument(format!("directory '{path}': {e}")))
}

/// The 32-bit identifier of this host (gethostid), as the original gives it.
pub fn hostid() -> i32 {
    // SAFETY: gethostid reads a system setting, no memory of ours.
    let id = unsafe { libc::gethostid() };
    // the identifier is 32 bits wide; C's long only holds it
    id as i32
}

/// Sets SIGALRM to end this process in `seconds` (0: cancels it), as libc's alarm; the seconds
/// left of the previous alarm (0 when there was none). A negative count cancels.
pub fn set_timeout_alarm(seconds: i32) -> i32 {
    let seconds = u32::try_from(seconds).unwrap_or(0);
    // SAFETY: alarm only sets this process's timer.
    let left = unsafe { libc::alarm(seconds) };
    i32::try_from(left).unwrap_or(i32::MAX)
}

/// Threads set by f_omp_set_num_threads where the program has no OpenMP runtime.
static OMP_THREADS: AtomicI32 = AtomicI32::new(1);

/// The program's OpenMP runtime function `name` (a `CStr` ending in NUL), when it has one.
fn omp_function(name: &CStr) -> Option<*mut libc::c_void> {
    // SAFETY: dlsym reads the loaded objects' symbol tables; the name is NUL-terminated.
    let f = unsafe { libc::dlsym(libc::RTLD_DEFAULT, name.as_ptr()) };
    (!f.is_null()).then_some(f)
}

/// omp_get_max_threads of the program's OpenMP runtime; without one (a program built without
/// OpenMP runs one thread), the count last set here, 1 at first.
pub fn omp_get_max_threads() -> i32 {
    match omp_function(c"omp_get_max_threads") {
        Some(f) => {
            // SAFETY: the OpenMP runtime's omp_get_max_threads takes nothing and returns an int.
            let f: extern "C" fn() -> c_int = unsafe { std::mem::transmute::<*mut libc::c_void, extern "C" fn() -> c_int>(f) };
            f()
        }
        None => OMP_THREADS.load(Ordering::Relaxed),
    }
}

/// omp_set_num_threads of the program's OpenMP runtime; without one, kept for
/// omp_get_max_threads.
pub fn omp_set_num_threads(n: i32) {
    match omp_function(c"omp_set_num_threads") {
        Some(f) => {
            // SAFETY: the OpenMP runtime's omp_set_num_threads takes an int, returns nothing.
            let f: extern "C" fn(c_int) = unsafe { std::mem::transmute::<*mut libc::c_void, extern "C" fn(c_int)>(f) };
            f(n)
        }
        None => OMP_THREADS.store(n.max(1), Ordering::Relaxed),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blank_filled() {
        let mut room = [b'x'; 6];
        fill(b"abc", &mut room);
        assert_eq!(&room, b"abc   ");
        fill(b"abcdefgh", &mut room);
        assert_eq!(&room, b"abcdef");
    }
}
