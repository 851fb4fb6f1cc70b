//! The C shim (`mpi/shim.c`, compiled with the MPI's `mpicc` by build.rs): declarations and
//! the conversion of its status codes into `Error::Mpi`. MPI handles stay opaque pointers.

use std::ffi::{c_char, c_int, c_void};

use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::sync::{Mutex, MutexGuard};

use crate::error::{Error, Result};

/// Thread levels as the shim codes them (`rpnmpi_init`).
pub const THREAD_SINGLE: c_int = 0;
pub const THREAD_SERIALIZED: c_int = 2;
pub const THREAD_MULTIPLE: c_int = 3;

/// The names of the thread levels, by code.
pub fn thread_level_name(code: c_int) -> &'static str {
    ["MPI_THREAD_SINGLE", "MPI_THREAD_FUNNELED", "MPI_THREAD_SERIALIZED", "MPI_THREAD_MULTIPLE"].get(code as usize).copied().unwrap_or("?")
}

/// How this process calls MPI, set once by `set_thread_level` (before any other MPI call).
static POLICY: AtomicU8 = AtomicU8::new(ANY_THREAD);
/// MPI_THREAD_MULTIPLE: any thread, at any time.
const ANY_THREAD: u8 = 0;
/// MPI_THREAD_SERIALIZED: any thread, one call at a time (`SERIAL`).
const ONE_AT_A_TIME: u8 = 1;
/// MPI_THREAD_SINGLE or FUNNELED: one call at a time too. The standard lets only the thread
/// that initialised MPI call, but a program that serialises its calls by OpenMP (`!$omp single`
/// taken by whichever thread comes first, as GEM's solvers do) runs on the original RPN_COMM and
/// on every MPI it runs on: calls from any thread are served, under the same lock.
const SINGLE_LEVEL: u8 = 2;
static SERIAL: Mutex<()> = Mutex::new(());
/// The level MPI gave, for the line said when two threads called at once below SERIALIZED.
static PROVIDED: AtomicU8 = AtomicU8::new(0);

/// Says which threads of this process may call MPI, from the thread level MPI gave (`provided`).
/// Below MPI_THREAD_MULTIPLE, every MPI call of the library is made under one lock (`serial`):
/// an uncontended lock costs about 0.02 us, a twentieth of a fence epoch.
pub fn set_thread_level(provided: c_int) {
    let policy = match provided {
        THREAD_MULTIPLE => ANY_THREAD,
        THREAD_SERIALIZED => ONE_AT_A_TIME,
        _ => SINGLE_LEVEL,
    };
    PROVIDED.store(provided.clamp(0, 3) as u8, Ordering::Relaxed);
    POLICY.store(policy, Ordering::Release);
}

/// What a thread holds while it makes an MPI call: the serialising lock, where there is one.
pub type Serial = Option<MutexGuard<'static, ()>>;

/// To be held around each MPI call: below MPI_THREAD_MULTIPLE, the lock that makes the calls of
/// all threads one at a time. Never refused: where two threads call at once at a level that
/// does not allow even that (SINGLE or FUNNELED, which the program chose by calling MPI_Init
/// itself), the second waits, and the PE notes it (`threads_collided`: the job says so once, at
/// finalize).
pub fn serial() -> Serial {
    match POLICY.load(Ordering::Acquire) {
        ANY_THREAD => None,
        ONE_AT_A_TIME => Some(SERIAL.lock().unwrap_or_else(|p| p.into_inner())),
        _ => Some(match SERIAL.try_lock() {
            Ok(held) => held,
            Err(std::sync::TryLockError::Poisoned(p)) => p.into_inner(),
            Err(std::sync::TryLockError::WouldBlock) => {
                COLLIDED.store(true, Ordering::Relaxed);
                SERIAL.lock().unwrap_or_else(|p| p.into_inner())
            }
        }),
    }
}

/// Two threads of this PE called MPI at once below MPI_THREAD_SERIALIZED (set only then: the
/// calls that do not collide pay nothing for it).
static COLLIDED: AtomicBool = AtomicBool::new(false);

/// Whether two threads of this PE ever called MPI at the same time at a level that does not
/// allow it (`serial` then made them wait for each other).
pub fn threads_collided() -> bool {
    COLLIDED.load(Ordering::Relaxed)
}

/// The one line of the job about threads that called at once (`threads_collided`), from the flag
/// of every PE in rank order: said by the lowest PE that saw it, None on the others (and on all
/// where none did). Once per job, at finalize: said when it happens, it would come once per PE,
/// and no PE can know cheaply whether a PE of another node already said it.
pub fn collided_line(me: usize, flags: &[u8]) -> Option<String> {
    let seen: Vec<usize> = flags.iter().enumerate().filter(|(_, f)| **f != 0).map(|(pe, _)| pe).collect();
    if seen.first() != Some(&me) {
        return None;
    }
    const NAMED: usize = 8;
    let mut pes = seen.iter().take(NAMED).map(usize::to_string).collect::<Vec<_>>().join(", ");
    if seen.len() > NAMED {
        pes.push_str(&format!(" and {} more", seen.len() - NAMED));
    }
    Some(format!(
        "threads of a PE called MPI at the same time at {}, which does not allow it, on {} of the {} PEs (PE {pes}): RPN_COMM made their calls one at a time (said once per job)",
        thread_level_name(PROVIDED.load(Ordering::Relaxed).into()),
        seen.len(),
        flags.len()
    ))
}

/// Lets MPI progress, unless another thread of this process is in an MPI call that holds the
/// serialising lock (it makes progress then).
pub fn progress() {
    match POLICY.load(Ordering::Acquire) {
        ANY_THREAD => {
            rpnmpi_progress();
        }
        _ => {
            if let Ok(_mpi) = SERIAL.try_lock() {
                rpnmpi_progress();
            }
        }
    }
}

/// An MPI communicator held by the shim.
#[repr(C)]
pub struct RawComm {
    _opaque: [u8; 0],
}

/// An MPI window held by the shim.
#[repr(C)]
pub struct RawWin {
    _opaque: [u8; 0],
}

pub const PUT: c_int = 1;
pub const GET: c_int = 2;
pub const ACC: c_int = 3;
pub const GETACC: c_int = 4;

pub const NO_LOCK: c_int = 0;
pub const SHARED: c_int = 1;
pub const EXCLUSIVE: c_int = 2;
/// Inside a lock_all epoch (`rpnmpi_lock_all`): no lock; complete on return (MPI_Win_flush).
pub const FLUSH: c_int = 3;
/// Inside an active-mode epoch, a put or get made as an accumulate (MPI_REPLACE, MPI_NO_OP):
/// see `window::Workarounds::active_rma_as_accumulates`.
pub const ACTIVE_ACC: c_int = 4;

unsafe extern "C" {
    fn rpnmpi_finalize_once() -> c_int;
    pub fn rpnmpi_init(required: c_int, started: *mut c_int, provided: *mut c_int) -> c_int;
    pub safe fn rpnmpi_finalize() -> c_int;
    pub safe fn rpnmpi_exit_quietly(status: c_int) -> !;
    pub fn rpnmpi_error_string(code: c_int, buf: *mut c_char, len: c_int);
    pub fn rpnmpi_library_version(buf: *mut c_char, len: c_int);
    pub fn rpnmpi_library_mentions(word: *const c_char) -> c_int;
    pub fn rpnmpi_comm_world(comm: *mut *mut RawComm) -> c_int;
    pub fn rpnmpi_comm_from_fortran(fcomm: c_int, comm: *mut *mut RawComm) -> c_int;
    pub fn rpnmpi_comm_release(comm: *mut RawComm);
    pub fn rpnmpi_comm_split(parent: *const RawComm, color: c_int, key: c_int, comm: *mut *mut RawComm) -> c_int;
    pub fn rpnmpi_comm_rank_size(comm: *const RawComm, rank: *mut c_int, size: *mut c_int) -> c_int;
    pub fn rpnmpi_barrier(comm: *const RawComm) -> c_int;
    pub fn rpnmpi_win_create(
        comm: *const RawComm,
        base: *mut c_void,
        bytes: usize,
        disp_unit: c_int,
        local: *mut *mut c_void,
        win: *mut *mut RawWin,
    ) -> c_int;
    pub fn rpnmpi_win_free(win: *mut *mut RawWin) -> c_int;
    pub fn rpnmpi_fence(win: *mut RawWin, closing: c_int) -> c_int;
    pub fn rpnmpi_group_open(win: *mut RawWin, from: *const c_int, nfrom: c_int, to: *const c_int, nto: c_int) -> c_int;
    pub fn rpnmpi_group_close(win: *mut RawWin) -> c_int;
    pub fn rpnmpi_sync_self(win: *mut RawWin, rank: c_int) -> c_int;
    pub fn rpnmpi_rma(
        win: *mut RawWin,
        kind: c_int,
        lock: c_int,
        src: *const c_void,
        result: *mut c_void,
        n: c_int,
        dtype: c_int,
        target: c_int,
        disp: i64,
        op: c_int,
    ) -> c_int;
    pub fn rpnmpi_rma_box(
        win: *mut RawWin,
        kind: c_int,
        lock: c_int,
        buf: *mut c_void,
        lshape: *const c_int,
        lstart: *const c_int,
        count: *const c_int,
        dtype: c_int,
        target: c_int,
        disp: i64,
        tshape: *const c_int,
        tstart: *const c_int,
    ) -> c_int;
    pub fn rpnmpi_cas(
        win: *mut RawWin,
        lock: c_int,
        value: *const c_void,
        compare: *const c_void,
        result: *mut c_void,
        dtype: c_int,
        target: c_int,
        disp: i64,
    ) -> c_int;
    pub fn rpnmpi_bounded_increment(win: *mut RawWin, target: c_int, limit: c_int, old: *mut c_int) -> c_int;
}

// Node-aware data path (node.rs).
unsafe extern "C" {
    pub fn rpnmpi_node_comm(comm: *const RawComm, split: c_int, node: *mut *mut RawComm) -> c_int;
    pub safe fn rpnmpi_progress() -> c_int;
}

/// An MPI request held by the shim (point-to-point channels).
#[repr(C)]
pub struct RawReq {
    _opaque: [u8; 0],
}

// Point-to-point channels (channel.rs).
unsafe extern "C" {
    pub fn rpnmpi_chan_isend(
        comm: *const RawComm,
        buf: *const c_void,
        bytes: c_int,
        dest: c_int,
        tag: c_int,
        req: *mut *mut RawReq,
    ) -> c_int;
    pub fn rpnmpi_test(req: *mut *mut RawReq, done: *mut c_int) -> c_int;
    pub fn rpnmpi_rget_bytes(win: *mut RawWin, buf: *mut c_void, bytes: c_int, target: c_int, req: *mut *mut RawReq) -> c_int;
    pub fn rpnmpi_iallgather(comm: *const RawComm, mine: *const c_void, all: *mut c_void, bytes: c_int, req: *mut *mut RawReq) -> c_int;
    pub fn rpnmpi_request_free(req: *mut *mut RawReq) -> c_int;
    pub fn rpnmpi_iprobe(comm: *const RawComm, src: c_int, tag: c_int, found: *mut c_int, bytes: *mut c_int) -> c_int;
    pub fn rpnmpi_chan_recv(comm: *const RawComm, buf: *mut c_void, bytes: c_int, src: c_int, tag: c_int) -> c_int;
    pub fn rpnmpi_chan_irecv(comm: *const RawComm, buf: *mut c_void, bytes: c_int, src: c_int, tag: c_int, req: *mut *mut RawReq) -> c_int;
    pub fn rpnmpi_chan_test_recv(req: *mut *mut RawReq, done: *mut c_int, bytes: *mut c_int, truncated: *mut c_int) -> c_int;
    pub fn rpnmpi_chan_cancel(req: *mut *mut RawReq) -> c_int;
}

// Emulated logical accumulates (logical.rs).
unsafe extern "C" {
    pub fn rpnmpi_lock(win: *mut RawWin, exclusive: c_int, target: c_int) -> c_int;
    pub fn rpnmpi_unlock(win: *mut RawWin, target: c_int) -> c_int;
    pub fn rpnmpi_flush(win: *mut RawWin, target: c_int) -> c_int;
    pub fn rpnmpi_lock_all(win: *mut RawWin) -> c_int;
    pub fn rpnmpi_unlock_all(win: *mut RawWin) -> c_int;
    pub fn rpnmpi_win_unified(win: *mut RawWin, unified: *mut c_int) -> c_int;
    pub fn rpnmpi_win_sync(win: *mut RawWin) -> c_int;
}

/// The text of a shim or MPI status code.
pub fn error_text(code: c_int) -> String {
    let mut buf = [0u8; 512];
    // SAFETY: the shim writes at most buf.len() bytes, NUL-terminated.
    unsafe { rpnmpi_error_string(code, buf.as_mut_ptr() as *mut c_char, buf.len() as c_int) };
    let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
    String::from_utf8_lossy(&buf[..end]).into_owned()
}

/// The MPI library's name and version (first line).
pub fn library_version() -> String {
    let mut buf = [0u8; 256];
    // SAFETY: the shim writes at most buf.len() bytes, NUL-terminated.
    unsafe { rpnmpi_library_version(buf.as_mut_ptr() as *mut c_char, buf.len() as c_int) };
    let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
    String::from_utf8_lossy(&buf[..end]).trim().to_string()
}

/// Whether the MPI library's whole version text (not only the first line `library_version`
/// gives: MPICH names its device further down) contains `word`.
pub fn library_mentions(word: &std::ffi::CStr) -> bool {
    // SAFETY: a NUL-terminated string, only read.
    unsafe { rpnmpi_library_mentions(word.as_ptr()) != 0 }
}

/// `Ok` for status 0, else `Error::Mpi` naming the MPI operation `what`.
pub fn check(code: c_int, what: &str) -> Result<()> {
    if code == 0 { Ok(()) } else { Err(Error::Mpi(format!("{what}: {}", error_text(code)))) }
}

/// MPI_Finalize unless MPI is finalized already.
pub fn finalize_once() -> Result<()> {
    // SAFETY: no argument.
    check(unsafe { rpnmpi_finalize_once() }, "MPI_Finalize")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// At MPI_THREAD_SINGLE (a program that called MPI_Init itself) a thread other than the one
    /// that set the level is served, under the lock: the other thread's hold keeps it out.
    #[test]
    fn any_thread_is_served_one_at_a_time_below_multiple() {
        set_thread_level(THREAD_SINGLE);
        let held = serial();
        assert!(held.is_some(), "the lock is taken at SINGLE");
        let other = std::thread::spawn(|| {
            assert!(SERIAL.try_lock().is_err(), "held by the first thread");
            serial().is_some()
        });
        std::thread::sleep(std::time::Duration::from_millis(20));
        drop(held);
        assert!(other.join().unwrap(), "the second thread is served once the first let go");
        set_thread_level(THREAD_MULTIPLE);
        assert!(serial().is_none(), "no lock at MULTIPLE");
    }

    /// The line about threads that called at once is the lowest seeing PE's only, and names them.
    #[test]
    fn collided_line_is_said_by_the_lowest_pe_that_saw_it() {
        let flags = [0u8, 1, 0, 1];
        assert_eq!(collided_line(0, &flags), None);
        assert_eq!(collided_line(3, &flags), None);
        let line = collided_line(1, &flags).expect("PE 1 is the lowest that saw it");
        assert!(line.contains("on 2 of the 4 PEs (PE 1, 3)"), "{line}");
        assert_eq!(collided_line(0, &[0, 0]), None, "nothing said where no PE saw it");
        let many = vec![1u8; 20];
        assert!(collided_line(0, &many).expect("said").contains("(PE 0, 1, 2, 3, 4, 5, 6, 7 and 12 more)"));
    }
}
