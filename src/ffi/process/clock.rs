//! The C ABI of the clock: RPN_COMM_wtime.

use crate::runtime;

/// Seconds since an arbitrary origin, from a monotonic clock.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_wtime() -> f64 {
    runtime::wtime()
}
