//! Waiting on MPI without blocking inside it: a nonblocking call, then tests in a loop that
//! yield the core every few rounds. Blocking MPI calls busy-poll (MPICH, Open MPI alike): with
//! more PEs than cores, a waiting PE then holds its core for a whole time slice (4 ms here) while
//! the PE it waits for cannot run; a PE that yields lets it run at once. With a core per PE the
//! loop costs what MPI's own polling does. A long wait is reported, naming what is waited for.

use std::ffi::c_int;
use std::time::Instant;

use super::channels::far_entries::{self, LOOK_AFTER};
use super::shim::{self, RawReq};
use crate::diagnostics;
use crate::error::Result;

/// Calls `ready` until it says true, yielding the core in between; reports a long wait.
pub fn wait_for(mut ready: impl FnMut() -> Result<bool>, waiting_for: &dyn Fn() -> String) -> Result<()> {
    let start = Instant::now();
    let every = diagnostics::hang_report_interval();
    let mut next = every.map(|e| start + e);
    let mut spins = 0u32;
    // Published once the wait has lasted LOOK_AFTER, for the PEs of other nodes that wait for
    // this one (`far_entries`): the clock is read every 1024 rounds for it.
    let mut long = false;
    let published = Published(&mut long);
    while !ready()? {
        spins = spins.wrapping_add(1);
        if spins.is_multiple_of(16) {
            std::thread::yield_now();
        }
        if !*published.0 && spins.is_multiple_of(1024) && start.elapsed() >= LOOK_AFTER {
            *published.0 = true;
            far_entries::publish_long_wait(true);
        }
        if let (Some(at), Some(e)) = (next, every)
            && Instant::now() >= at
        {
            diagnostics::report_hang(start.elapsed(), &waiting_for());
            next = Some(at + e);
        }
    }
    Ok(())
}

/// Unpublishes a long wait when it ends, however it ends.
struct Published<'a>(&'a mut bool);

impl Drop for Published<'_> {
    fn drop(&mut self) {
        if *self.0 {
            far_entries::publish_long_wait(false);
        }
    }
}

/// Starts a nonblocking collective (`start` makes its request: an MPI call of the shim, whose
/// buffers stay untouched until the request completed) over a communicator of `ranks` ranks, and
/// waits for it by tests that yield the core. `what` names the MPI call. An MPI_Test that
/// returns an error has ended the request (the shim's communicators return errors), so the
/// buffers are MPI's no longer when the error comes back.
pub fn complete(what: &'static str, ranks: usize, start: impl FnOnce(*mut *mut RawReq) -> c_int) -> Result<()> {
    let mut request: *mut RawReq = std::ptr::null_mut();
    {
        let _mpi = shim::serial();
        shim::check(start(&mut request), what)?;
    }
    let routine = diagnostics::routine();
    wait_for(
        || {
            let _mpi = shim::serial();
            let mut done: c_int = 0;
            // SAFETY: the request `start` made (null once completed).
            shim::check(unsafe { shim::rpnmpi_test(&mut request, &mut done) }, what)?;
            Ok(done != 0)
        },
        &|| format!("the other PEs of the communicator ({ranks} ranks) in {routine} ({what})"),
    )
}

/// `complete`, given up after `limit`: true once the request completed, false when `limit` passed
/// first (the request then stays MPI's: its buffers must outlive the process, and the caller ends
/// the job). Polls, yielding the core, then sleeping a little between tests.
pub fn complete_within(what: &'static str, limit: std::time::Duration, start: impl FnOnce(*mut *mut RawReq) -> c_int) -> Result<bool> {
    let mut request: *mut RawReq = std::ptr::null_mut();
    {
        let _mpi = shim::serial();
        shim::check(start(&mut request), what)?;
    }
    let begun = Instant::now();
    loop {
        {
            let _mpi = shim::serial();
            let mut done: c_int = 0;
            // SAFETY: the request `start` made (null once completed).
            shim::check(unsafe { shim::rpnmpi_test(&mut request, &mut done) }, what)?;
            if done != 0 {
                return Ok(true);
            }
        }
        let waited = begun.elapsed();
        if waited >= limit {
            return Ok(false);
        }
        if waited < std::time::Duration::from_millis(1) {
            std::thread::yield_now();
        } else {
            std::thread::sleep(std::time::Duration::from_micros(200));
        }
    }
}
