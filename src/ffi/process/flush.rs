//! Registration of the flush that runs when a PE is stopped (see `runtime::process::stop_flush`).

use std::ffi::{c_int, c_void};

use super::super::call_init_step;
use crate::error::Error;
use crate::runtime::process::stop_flush;

/// Registers `hook`, a `void (*)(void)` passed as an address, to be called when this PE is
/// stopped by SIGTERM, SIGINT, SIGHUP or SIGABRT (another PE failed and the launcher ends the
/// job, or this PE aborts), before C's output streams are flushed and the PE ends as the signal
/// says. RPN_COMM_init registers the flush of the Fortran units. Null is refused.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_flush_at_stop(hook: *const c_void) -> c_int {
    call_init_step("RPN_COMM_init", || {
        if hook.is_null() {
            return Err(Error::BadArgument("null flush routine".into()));
        }
        // SAFETY: the caller passes the address of a function taking and returning nothing
        // (C_FUNLOC of a bind(C) subroutine without arguments); code and data addresses have
        // the same size on every platform the library builds for.
        let hook: extern "C" fn() = unsafe { std::mem::transmute::<*const c_void, extern "C" fn()>(hook) };
        stop_flush::set_hook(hook);
        Ok(())
    })
}
