//! The C ABI of the environment utilities: RPN_COMM_env_var, RPN_COMM_chdir, RPN_COMM_hostid,
//! RPN_COMM_set_timeout_alarm, and the original's C functions f_rpn_comm_chdir,
//! rpn_comm_getenv, and the OpenMP threads that f_omp_get_max_threads and
//! f_omp_set_num_threads (fortran/utils/omp_threads.F90) give.

use std::ffi::{c_char, c_int, c_void};

use super::super::call;
use super::{c_string, room, trimmed};
use crate::runtime::utils::env;

/// RPN_COMM_env_var: the value of variable `name` (trailing blanks ignored) into `value`,
/// blank-filled; all blanks when it is unset. Always 0.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_env_var(name: *const c_char, name_len: usize, value: *mut c_char, value_len: usize) -> c_int {
    // SAFETY: Fortran string arguments of the given lengths.
    let (name, value) = unsafe { (trimmed(name, name_len), room(value, value_len)) };
    let found = name.ok().and_then(|n| env::var(&n)).unwrap_or_default();
    env::fill(found.as_bytes(), value);
    0
}

/// RPN_COMM_chdir: changes the working directory to `path` (trailing blanks ignored): 0, or -1
/// (with a message) when it cannot.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_chdir(path: *const c_char, path_len: usize) -> c_int {
    call("RPN_COMM_chdir", || {
        // SAFETY: Fortran string argument.
        env::chdir(&unsafe { trimmed(path, path_len) }?)
    })
}

/// RPN_COMM_hostid: this host's 32-bit identifier (gethostid).
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_hostid() -> c_int {
    env::hostid()
}

/// RPN_COMM_set_timeout_alarm: SIGALRM ends this process in `seconds` (0 cancels); the seconds
/// that were left of the previous alarm.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_set_timeout_alarm(seconds: c_int) -> c_int {
    env::set_timeout_alarm(seconds)
}

/// The original's C chdir for Fortran: `path` NUL-terminated; 0, or -1 when it cannot (quiet,
/// as the original).
#[unsafe(no_mangle)]
pub extern "C" fn f_rpn_comm_chdir(path: *const c_void) -> c_int {
    // SAFETY: the caller passes a NUL-terminated string (trim(path)//achar(0)).
    match unsafe { c_string(path) } {
        Ok(p) if env::chdir(&p).is_ok() => 0,
        _ => -1,
    }
}

/// f_rpn_comm_chdir under the name a Fortran caller links with one underscore.
#[unsafe(no_mangle)]
pub extern "C" fn f_rpn_comm_chdir_(path: *const c_void) -> c_int {
    f_rpn_comm_chdir(path)
}

/// f_rpn_comm_chdir under the name a Fortran caller links with two underscores.
#[unsafe(no_mangle)]
pub extern "C" fn f_rpn_comm_chdir__(path: *const c_void) -> c_int {
    f_rpn_comm_chdir(path)
}

/// The original's C getenv for Fortran: variable `name` (NUL-terminated) into `value`, `*length`
/// bytes, blank-filled; `value` unchanged when the variable is unset. 0 when it is set, -1 when
/// not (the original returns nothing).
#[unsafe(no_mangle)]
pub extern "C" fn rpn_comm_getenv(name: *const c_void, value: *mut c_void, length: *const c_int) -> c_int {
    // SAFETY: name NUL-terminated; length null or one readable int.
    let (name, len) = unsafe { (c_string(name), length.as_ref().map_or(0, |&l| usize::try_from(l).unwrap_or(0))) };
    match name.ok().and_then(|n| env::var(&n)) {
        Some(v) => {
            // SAFETY: the caller's value holds *length bytes.
            env::fill(v.as_bytes(), unsafe { room(value.cast::<c_char>(), len) });
            0
        }
        None => -1,
    }
}

/// rpn_comm_getenv under the name a Fortran caller links with one underscore.
#[unsafe(no_mangle)]
pub extern "C" fn rpn_comm_getenv_(name: *const c_void, value: *mut c_void, length: *const c_int) -> c_int {
    rpn_comm_getenv(name, value, length)
}

/// rpn_comm_getenv under the name a Fortran caller links with two underscores.
#[unsafe(no_mangle)]
pub extern "C" fn rpn_comm_getenv__(name: *const c_void, value: *mut c_void, length: *const c_int) -> c_int {
    rpn_comm_getenv(name, value, length)
}

/// The program's omp_get_max_threads (1 without an OpenMP runtime, or the count last set by
/// rpncomm_omp_set_num_threads); f_omp_get_max_threads and its underscored names call it.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_omp_get_max_threads() -> c_int {
    env::omp_get_max_threads()
}

/// The program's omp_set_num_threads; f_omp_set_num_threads and its underscored names call it.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_omp_set_num_threads(nthreads: c_int) {
    env::omp_set_num_threads(nthreads);
}
