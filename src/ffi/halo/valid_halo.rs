//! The original's C functions rpn_comm_get_valid_halo, rpn_comm_set_valid_halo and
//! rpn_comm_inc_valid_halo (the table is `core::valid_halo`). Their arguments are all by
//! reference, so the same function serves C (`rpn_comm_get_valid_halo`) and Fortran (the link
//! names with one and two underscores, `status = rpn_comm_get_valid_halo(array, hx, hy, hz)`),
//! as in the original. They return 0, or -1: an array not in the table (get, inc, no message,
//! as the original), or a full table (set, one line the first time).

use std::ffi::{c_int, c_void};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, PoisonError};

use crate::core::valid_halo::{CAPACITY, ValidHaloError, ValidHalos};
use crate::diagnostics;
use crate::error::Error;

static TABLE: Mutex<ValidHalos> = Mutex::new(ValidHalos::EMPTY);
static FULL_REPORTED: AtomicBool = AtomicBool::new(false);

/// Reads the three widths at `h` (null: 0).
fn read3(h: [*const c_int; 3]) -> [i32; 3] {
    // SAFETY: each non-null pointer is the caller's integer (the functions' contract).
    h.map(|p| if p.is_null() { 0 } else { unsafe { *p } })
}

fn status(routine: &str, r: Result<(), ValidHaloError>) -> c_int {
    match r {
        Ok(()) => 0,
        Err(ValidHaloError::Full) => {
            if !FULL_REPORTED.swap(true, Ordering::Relaxed) {
                diagnostics::report(routine, &Error::BadArgument(format!("the table of valid halos is full ({CAPACITY} arrays)")));
            }
            -1
        }
        Err(ValidHaloError::Unknown) => -1,
    }
}

fn get(array: *const c_void, hx: *mut c_int, hy: *mut c_int, hz: *mut c_int) -> c_int {
    let table = TABLE.lock().unwrap_or_else(PoisonError::into_inner);
    let (widths, st) = match table.get(array as usize) {
        Ok(w) => (w, 0),
        Err(_) => ([-1; 3], -1),
    };
    for (p, v) in [hx, hy, hz].into_iter().zip(widths) {
        if !p.is_null() {
            // SAFETY: the caller's integer (the function's contract).
            unsafe { *p = v };
        }
    }
    st
}

fn set(array: *const c_void, hx: *const c_int, hy: *const c_int, hz: *const c_int) -> c_int {
    let r = TABLE.lock().unwrap_or_else(PoisonError::into_inner).set(array as usize, read3([hx, hy, hz]));
    status("rpn_comm_set_valid_halo", r)
}

fn inc(array: *const c_void, hx: *const c_int, hy: *const c_int, hz: *const c_int) -> c_int {
    let r = TABLE.lock().unwrap_or_else(PoisonError::into_inner).inc(array as usize, read3([hx, hy, hz]));
    status("rpn_comm_inc_valid_halo", r)
}

/// `int rpn_comm_get_valid_halo(void *array, int *hx, int *hy, int *hz)`: the widths recorded
/// for `array`, or -1 in each (status -1) when it has none.
#[unsafe(no_mangle)]
pub extern "C" fn rpn_comm_get_valid_halo(array: *const c_void, hx: *mut c_int, hy: *mut c_int, hz: *mut c_int) -> c_int {
    get(array, hx, hy, hz)
}

/// rpn_comm_get_valid_halo under its Fortran link name.
#[unsafe(no_mangle)]
pub extern "C" fn rpn_comm_get_valid_halo_(array: *const c_void, hx: *mut c_int, hy: *mut c_int, hz: *mut c_int) -> c_int {
    get(array, hx, hy, hz)
}

/// rpn_comm_get_valid_halo under its Fortran link name with two underscores.
#[unsafe(no_mangle)]
pub extern "C" fn rpn_comm_get_valid_halo__(array: *const c_void, hx: *mut c_int, hy: *mut c_int, hz: *mut c_int) -> c_int {
    get(array, hx, hy, hz)
}

/// `int rpn_comm_set_valid_halo(void *array, int *hx, int *hy, int *hz)`: records the widths
/// for `array`; a negative width forgets the array.
#[unsafe(no_mangle)]
pub extern "C" fn rpn_comm_set_valid_halo(array: *const c_void, hx: *const c_int, hy: *const c_int, hz: *const c_int) -> c_int {
    set(array, hx, hy, hz)
}

/// rpn_comm_set_valid_halo under its Fortran link name.
#[unsafe(no_mangle)]
pub extern "C" fn rpn_comm_set_valid_halo_(array: *const c_void, hx: *const c_int, hy: *const c_int, hz: *const c_int) -> c_int {
    set(array, hx, hy, hz)
}

/// rpn_comm_set_valid_halo under its Fortran link name with two underscores.
#[unsafe(no_mangle)]
pub extern "C" fn rpn_comm_set_valid_halo__(array: *const c_void, hx: *const c_int, hy: *const c_int, hz: *const c_int) -> c_int {
    set(array, hx, hy, hz)
}

/// `int rpn_comm_inc_valid_halo(void *array, int *hx, int *hy, int *hz)`: adds to the widths of
/// `array` (negative: less; none below 0).
#[unsafe(no_mangle)]
pub extern "C" fn rpn_comm_inc_valid_halo(array: *const c_void, hx: *const c_int, hy: *const c_int, hz: *const c_int) -> c_int {
    inc(array, hx, hy, hz)
}

/// rpn_comm_inc_valid_halo under its Fortran link name.
#[unsafe(no_mangle)]
pub extern "C" fn rpn_comm_inc_valid_halo_(array: *const c_void, hx: *const c_int, hy: *const c_int, hz: *const c_int) -> c_int {
    inc(array, hx, hy, hz)
}

/// rpn_comm_inc_valid_halo under its Fortran link name with two underscores.
#[unsafe(no_mangle)]
pub extern "C" fn rpn_comm_inc_valid_halo__(array: *const c_void, hx: *const c_int, hy: *const c_int, hz: *const c_int) -> c_int {
    inc(array, hx, hy, hz)
}
