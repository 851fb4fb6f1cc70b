//! The C ABI of the clocks: RPN_COMM_wtime, and the original's C clocks Rpn_comm_wtime,
//! rpn_comm_wtime_set, rpn_comm_timeofday and rpn_comm_tsc (with the underscored names it gives
//! Fortran callers); save_openmp_state and restore_openmp_state, which keep the OpenMP thread
//! count across a region run on one thread.

use crate::runtime;
use crate::runtime::process::clocks;
use crate::runtime::utils::env;

/// Seconds since an arbitrary origin, from a monotonic clock.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_wtime() -> f64 {
    runtime::wtime()
}

/// A clock function as the original's rpn_comm_wtime_set takes it: no argument, seconds.
pub type ClockFunction = unsafe extern "C" fn() -> f64;

/// Reads the clock `rpn_comm_wtime_set` selected (the dummy one for None).
fn read_selected(function: Option<usize>) -> f64 {
    match function {
        // SAFETY: the address was handed to rpn_comm_wtime_set as a clock function (its
        // documented contract: a function of no argument returning a double).
        Some(f) => unsafe { std::mem::transmute::<usize, ClockFunction>(f)() },
        None => clocks::dummy_reading(),
    }
}

/// The original's Rpn_comm_wtime: the clock selected by `rpn_comm_wtime_set` minus its reading
/// at the selection; before any selection, the dummy clock (1 ns more at every call).
#[unsafe(export_name = "Rpn_comm_wtime")]
pub extern "C" fn rpn_comm_selected_wtime() -> f64 {
    let s = clocks::selected();
    read_selected(s.function) - s.origin
}

/// The original's rpn_comm_wtime_set: `Rpn_comm_wtime` reads `function` from now on (MPI_Wtime,
/// rpn_comm_timeofday, any C or Fortran function of no argument returning a double), counting
/// from its reading now; `rpn_comm_wtime_set` itself (or NULL) selects the dummy clock again.
#[unsafe(no_mangle)]
pub extern "C" fn rpn_comm_wtime_set(function: Option<ClockFunction>) {
    let function = function.map(|f| f as usize).filter(|&f| f != rpn_comm_wtime_set as *const () as usize);
    let origin = read_selected(function);
    clocks::select(function, origin);
}

/// rpn_comm_wtime_set under the name a Fortran caller links with one underscore.
#[unsafe(no_mangle)]
pub extern "C" fn rpn_comm_wtime_set_(function: Option<ClockFunction>) {
    // the Fortran names of the original give its own address for "the dummy clock" too
    let function = function
        .filter(|&f| f as usize != rpn_comm_wtime_set_ as *const () as usize && f as usize != rpn_comm_wtime_set__ as *const () as usize);
    rpn_comm_wtime_set(function)
}

/// rpn_comm_wtime_set under the name a Fortran caller links with two underscores.
#[unsafe(no_mangle)]
pub extern "C" fn rpn_comm_wtime_set__(function: Option<ClockFunction>) {
    rpn_comm_wtime_set_(function)
}

/// The original's rpn_comm_timeofday: seconds since the epoch, to the microsecond.
#[unsafe(no_mangle)]
pub extern "C" fn rpn_comm_timeofday() -> f64 {
    clocks::time_of_day()
}

/// rpn_comm_timeofday under the name a Fortran caller links with one underscore.
#[unsafe(no_mangle)]
pub extern "C" fn rpn_comm_timeofday_() -> f64 {
    clocks::time_of_day()
}

/// rpn_comm_timeofday under the name a Fortran caller links with two underscores.
#[unsafe(no_mangle)]
pub extern "C" fn rpn_comm_timeofday__() -> f64 {
    clocks::time_of_day()
}

/// The original's rpn_comm_tsc: seconds since its first call, from the processor's clock.
#[unsafe(no_mangle)]
pub extern "C" fn rpn_comm_tsc() -> f64 {
    clocks::cycle_seconds()
}

/// rpn_comm_tsc under the name a Fortran caller links with one underscore.
#[unsafe(no_mangle)]
pub extern "C" fn rpn_comm_tsc_() -> f64 {
    clocks::cycle_seconds()
}

/// rpn_comm_tsc under the name a Fortran caller links with two underscores.
#[unsafe(no_mangle)]
pub extern "C" fn rpn_comm_tsc__() -> f64 {
    clocks::cycle_seconds()
}

/// The original's save_openmp_state: keeps the OpenMP thread count (omp_get_max_threads) for
/// restore_openmp_state and runs the next parallel regions on one thread.
#[unsafe(no_mangle)]
pub extern "C" fn save_openmp_state() {
    clocks::save_threads(env::omp_get_max_threads());
    env::omp_set_num_threads(1);
}

/// save_openmp_state under the name a Fortran caller links with one underscore.
#[unsafe(no_mangle)]
pub extern "C" fn save_openmp_state_() {
    save_openmp_state()
}

/// save_openmp_state under the name a Fortran caller links with two underscores.
#[unsafe(no_mangle)]
pub extern "C" fn save_openmp_state__() {
    save_openmp_state()
}

/// The original's restore_openmp_state: the OpenMP thread count save_openmp_state kept (1
/// when it was never called) is the count again.
#[unsafe(no_mangle)]
pub extern "C" fn restore_openmp_state() {
    env::omp_set_num_threads(clocks::saved_threads());
}

/// restore_openmp_state under the name a Fortran caller links with one underscore.
#[unsafe(no_mangle)]
pub extern "C" fn restore_openmp_state_() {
    restore_openmp_state()
}

/// restore_openmp_state under the name a Fortran caller links with two underscores.
#[unsafe(no_mangle)]
pub extern "C" fn restore_openmp_state__() {
    restore_openmp_state()
}
