//! The quiet end of a PE after a refused call that the library reported: for the Fortran
//! routines without a status argument (the halo family), whose refusals every PE of the call finds.

/// How long a PE that refused a call waits before it ends (see `stop_after_refusal`).
const REFUSAL_GRACE_MS: u64 = 200;

/// Ends this PE with `status` after a refused call that the library reported (its one line):
/// C streams flushed, no ERROR STOP, backtrace or MPI_Abort banner; the
/// launcher ends the job on the non-zero exit. For the Fortran routines without a status
/// argument (the halo family), whose refusals every PE of the call finds.
pub fn stop_after_refusal(status: i32) -> ! {
    // C's streams and Rust's stdout here; the Fortran units are flushed by the caller (standard
    // output and error) and by the Fortran runtime at the exit.
    use std::io::Write;
    let _ = std::io::stdout().flush();
    // SAFETY: fflush(NULL) flushes every C output stream; not in a signal handler.
    unsafe { libc::fflush(std::ptr::null_mut()) };
    // The other PEs that refused the same call print their line meanwhile: the launcher ends
    // them as soon as this PE is gone.
    std::thread::sleep(std::time::Duration::from_millis(REFUSAL_GRACE_MS));
    crate::transport::exit_quietly(status)
}
