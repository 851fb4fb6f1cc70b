//! The C ABI. Each function reads its raw arguments (`args`), calls the runtime, and turns
//! an error into `RPN_COMM_ERROR` (-1) plus one line on stderr naming the RPN_COMM routine,
//! the PE and the reason (`RPNCOMM_QUIET=1` silences it). No panic crosses this boundary.
//!
//! The Fortran module calls these functions through `bind(C)` interfaces; C programs use
//! them through `include/rpncomm_windows.h`.
//!
//! Safety of every entry point: pointer arguments are null or valid for what the routine's
//! documentation (and the RPN_COMM API) says they hold. They are called from C and Fortran,
//! where an `unsafe` qualifier would mean nothing, so they are plain `extern "C"` functions
//! and every dereference sits in an `unsafe` block with its justification.
//!
//! A folder per concern, the same as the runtime's:
//! - `grid`: init, blocks, the topology queries, 2D grid descriptors, I/O PE sets;
//! - `collectives`: barrier, reductions, gathers, broadcast, distributions, transposes;
//! - `distributions`: the original's older distributions (fast_dist, move);
//! - `p2p`: point-to-point messages and the MPI handles a program passes to MPI;
//! - `halo`: the halo exchange and the rest of its family;
//! - `windows`: the window calls, sub-array and request-based operations;
//! - `process`: finalize, the flush at a stop, the exit after a refusal, the clock;
//! - `options`: the options of RPN_COMM_option and its kin, the case conversions, the size of
//!   an MPI status;
//! - `utils`: the environment, file, OpenMP, CPU and debug utilities;
//!
//! and the plumbing beside them (with `call`, below):
//! - `args`: the reading of raw C arguments;
//! - `names`: the handles of communicators, datatypes and operators.
#![allow(clippy::not_unsafe_ptr_arg_deref)]

mod args;
pub mod collectives;
pub mod distributions;
pub mod grid;
pub mod halo;
mod names;
pub mod options;
pub mod p2p;
pub mod process;
pub mod utils;
pub mod windows;

// Every entry point at `ffi::` as well, where the crate's examples and tests find them.
pub use self::collectives::*;
pub use self::distributions::*;
pub use self::grid::*;
pub use self::halo::*;
pub use self::names::*;
pub use self::options::*;
pub use self::p2p::*;
pub use self::process::*;
pub use self::utils::*;
pub use self::windows::*;

use std::ffi::c_int;
use std::panic::{AssertUnwindSafe, catch_unwind};

use crate::diagnostics;
use crate::error::{Error, Result};
use crate::runtime;

pub use crate::core::Handle as RpncommHandle;

/// Status of a call that succeeded.
pub const RPN_COMM_OK: c_int = 0;
/// Status of a call that was refused or failed (a message on stderr says why).
pub const RPN_COMM_ERROR: c_int = -1;

/// Runs one API call: status 0 on success, -1 (with its message) on error or panic.
fn call(routine: &'static str, f: impl FnOnce() -> Result<()>) -> c_int {
    run_call(routine, runtime::time_routine(routine, true), f)
}

/// `call` for a later step of RPN_COMM_init (of any of its forms) made through an entry point of
/// its own: its time goes to RPN_COMM_init's in the statistics, without a call of its own.
fn call_init_step(routine: &'static str, f: impl FnOnce() -> Result<()>) -> c_int {
    run_call(routine, runtime::time_routine("RPN_COMM_init", false), f)
}

fn run_call(routine: &'static str, timer: Option<runtime::RoutineTimer>, f: impl FnOnce() -> Result<()>) -> c_int {
    let _routine = diagnostics::enter(routine);
    // ends after the error message, which is part of the call
    let _timer = timer;
    let outcome = catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|panic| {
        let what = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "panic".into());
        Err(Error::Internal(what))
    });
    match outcome {
        Ok(()) => RPN_COMM_OK,
        Err(e) => {
            diagnostics::report(routine, &e);
            RPN_COMM_ERROR
        }
    }
}
