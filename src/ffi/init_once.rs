//! RPN_COMM_init once per program: a second call is refused and keeps the grid.

use std::ffi::c_int;

use super::{args, call_init_step};
use crate::error::Error;
use crate::runtime::with_runtime;

/// Called by RPN_COMM_init before it runs Userinit: `RPN_COMM_OK` when the PE grid is not set
/// yet; otherwise (a second RPN_COMM_init) reports the refusal, puts the grid kept in `*pex`,
/// `*pey` and returns `RPN_COMM_ERROR`. Local to the PE (no collective), so a PE that calls
/// RPN_COMM_init twice makes no other PE wait.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_init_first(pex: *mut c_int, pey: *mut c_int) -> c_int {
    call_init_step("RPN_COMM_init", || {
        let refused = with_runtime(|rt| Ok(rt.refuse_second_init()))?;
        if let Err(Error::AlreadyInitialized { pex: x, pey: y }) = &refused {
            // SAFETY: out-parameters from the caller (null is skipped).
            unsafe {
                args::put(pex, *x as c_int);
                args::put(pey, *y as c_int);
            }
        }
        refused
    })
}
