//! The API as the C ABI calls it: one runtime per process (the job's transport, its
//! communicators and the table of windows), each call validated by the core and carried out by
//! the transport. User buffers arrive as addresses; the functions that dereference them are
//! `unsafe fn`s whose contract is the API's: a buffer holds `nelem` elements of its type.
//!
//! A folder per concern, the same as `ffi`'s:
//! - `grid`: the PE grids, their blocks, the topology queries, 2D grid descriptors, I/O PE sets;
//! - `collectives`: the agreement step and the collective calls (reductions, gathers,
//!   broadcast, distributions, transposes);
//! - `p2p`: point-to-point messages and the MPI handles a program passes to MPI;
//! - `halo`: the halo exchange and the rest of its family;
//! - `windows`: the window calls, sub-array and request-based operations, the window table;
//! - `process`: a stopped PE flushes its output first; the quiet exit after a refusal;
//! - `stats`: the statistics per routine and per window (`RPNCOMM_STATS`);
//! - `options`: the options of RPN_COMM_option and its kin, kept for the whole process.
//! - `utils`: the original's environment, file, OpenMP, CPU and debug utilities.
//!
//! and the plumbing beside them:
//! - `names`: communicator names and the handles of communicators, datatypes and operators;
//! - `caller_buffers`: copies from and into the caller's buffers.
//!
//! Locking (docs/windows.md, "Threads"): collective and configuration calls take the process's lock
//! (`with_runtime`); the operations (get/put/getacc, local get/put, post) take none: they
//! reach the window table directly (`with_windows`) and pass the window's gate.

mod caller_buffers;
pub mod collectives;
pub mod grid;
mod halo;
mod names;
pub mod options;
pub mod p2p;
pub mod process;
mod stats;
pub mod utils;
pub mod windows;

use std::sync::{Arc, Mutex, OnceLock};
use std::time::Instant;

pub use self::grid::Place;
use self::names::CommHandle;
pub use self::names::{CommName, datatype_handle, operator_of};
pub use self::stats::{ENV_STATS, RoutineTimer, time_routine};
pub use self::windows::BoxOp;
use self::windows::WindowTable;
use crate::core::{Communicator, Handle};
use crate::diagnostics;
use crate::error::{Error, Result};
use crate::transport::Transport;

/// The state of one process: its transport, the communicators it wrapped and its windows.
pub struct Runtime {
    transport: Box<dyn Transport>,
    /// Communicators the transport made (wrapped MPI communicators), by id.
    made: Vec<Communicator>,
    /// Shared with the operations of every thread (`with_windows`).
    windows: Arc<WindowTable>,
    /// The PE grid and its communicators, once RPN_COMM_init set it.
    grid: Option<Box<grid::GridComms>>,
    /// How RPN_COMM_init_multi_level cuts the job into grids (until the grid is made).
    layout: grid::Layout,
    /// The statistics per routine and per window, when `RPNCOMM_STATS` asks for them.
    stats: Option<stats::Recorder>,
    /// The halo exchanges' internal windows and buffers.
    halo: Box<halo::HaloState>,
    /// The transpose's buffers, kept between calls.
    transposes: collectives::transpose::TransposeBuffers,
    /// The contexts of RPN_COMM_spread.
    spreads: crate::core::HandleTable<collectives::spread::SpreadContext>,
    /// How collective calls are checked, and this PE's logs of the calls not checked one by one.
    calls: collectives::check::CallChecks,
    /// The communicators RPN_COMM_custom_comm named: (name as `normalize_name` gives it, Fortran
    /// MPI handle).
    custom: Vec<(String, i32)>,
}

enum Global {
    NotStarted,
    /// (boxed: the runtime is large, the other states empty)
    Running(Box<Runtime>),
    Finalized,
}

/// The process's runtime, behind the lock every collective and configuration call takes.
static GLOBAL: Mutex<Global> = Mutex::new(Global::NotStarted);

/// The process's windows once the runtime started, for the operations (which take no lock).
static WINDOWS: OnceLock<Arc<WindowTable>> = OnceLock::new();

/// Runs `f` on the process's runtime, starting it on first use.
pub fn with_runtime<T>(f: impl FnOnce(&mut Runtime) -> Result<T>) -> Result<T> {
    let mut global = GLOBAL.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Global::NotStarted = *global {
        let rt = Runtime::start()?;
        // Only this first start sets it (a runtime is started once per process).
        let _ = WINDOWS.set(Arc::clone(&rt.windows));
        *global = Global::Running(Box::new(rt));
    }
    match &mut *global {
        Global::Running(rt) => f(rt),
        _ => Err(Error::CallOrder("RPN_COMM_finalize was already called".into())),
    }
}

/// Whether the runtime has started (a routine other than the few that come before it was called).
#[cfg_attr(not(feature = "mpi"), allow(dead_code, reason = "RPN_COMM_world_set exists in the MPI build only"))]
pub fn is_started() -> bool {
    !matches!(*GLOBAL.lock().unwrap_or_else(|poisoned| poisoned.into_inner()), Global::NotStarted)
}

/// Runs the operation `f` on the process's windows, at the same time as other threads'
/// operations (no process-wide lock: see `windows::table`).
pub fn with_windows<T>(f: impl FnOnce(&WindowTable) -> Result<T>) -> Result<T> {
    let windows = match WINDOWS.get() {
        Some(w) => w,
        None => {
            with_runtime(|_| Ok(()))?;
            WINDOWS.get().ok_or_else(|| Error::CallOrder("RPN_COMM_finalize was already called".into()))?
        }
    };
    if windows.is_sealed() {
        return Err(Error::CallOrder("RPN_COMM_finalize was already called".into()));
    }
    f(windows)
}

/// Ends the runtime: later calls are refused.
pub fn finalize() -> Result<()> {
    let mut global = GLOBAL.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    match std::mem::replace(&mut *global, Global::Finalized) {
        Global::Running(mut rt) => {
            // Every PE must be finalizing: a PE still in another collective is named (and this
            // PE's runtime kept, so that its calls after the error still work).
            let job = rt.transport.job().clone();
            if let Err(e) = rt.agree(&job, crate::core::CollectiveId::Finalize, &Ok(()), &[]) {
                *global = Global::Running(rt);
                return Err(e);
            }
            // Operations of other threads still in progress end first; later ones are refused.
            rt.windows.seal();
            let reported = rt.report_stats();
            let released = rt.release_halo_windows();
            rt.transport.finalize().and(reported).and(released)
        }
        Global::NotStarted => Ok(()),
        Global::Finalized => Err(Error::CallOrder("RPN_COMM_finalize was already called".into())),
    }
}

/// Seconds since an arbitrary origin, from a monotonic clock.
pub fn wtime() -> f64 {
    static ORIGIN: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    ORIGIN.get_or_init(Instant::now).elapsed().as_secs_f64()
}

impl Runtime {
    fn start() -> Result<Self> {
        #[cfg(not(feature = "mpi"))]
        let transport: Box<dyn Transport> = Box::new(crate::transport::shm::ShmTransport::from_env()?);
        #[cfg(feature = "mpi")]
        let transport: Box<dyn Transport> = Box::new(crate::transport::mpi::MpiTransport::init()?);
        diagnostics::set_rank(transport.job().rank());
        // after the transport started: an MPI's own handlers (SIGABRT) are chained, not replaced
        process::stop_flush::install();
        let stats = stats::Recorder::from_env();
        let calls = collectives::check::CallChecks::from_env()?;
        Ok(Runtime {
            transport,
            made: Vec::new(),
            windows: Arc::new(WindowTable::new()),
            grid: None,
            layout: grid::Layout::default(),
            stats,
            halo: Box::default(),
            transposes: Default::default(),
            spreads: collectives::spread::new_table(),
            calls,
            custom: Vec::new(),
        })
    }

    /// This PE's rank in the job.
    pub fn rank(&self) -> usize {
        self.transport.job().rank()
    }

    /// The number of PEs in the job.
    pub fn npes(&self) -> usize {
        self.transport.job().size()
    }

    /// The communicator a name designates; None where this PE is a member of none of that
    /// name ('BLOCMASTER' on a PE that is no block's master).
    fn named(&self, name: &str) -> Result<Option<Communicator>> {
        self.of_name(CommName::from_name(name)?)
    }

    /// The communicator of a name: the names of the whole job, or those of the grid ('GRID'
    /// and 'MULTIGRID' are the job until RPN_COMM_init makes the grids).
    fn of_name(&self, name: CommName) -> Result<Option<Communicator>> {
        match name {
            CommName::World | CommName::AllGrids => Ok(Some(self.transport.job().clone())),
            CommName::Grid | CommName::MultiGrid if self.grid.is_none() => Ok(Some(self.transport.job().clone())),
            _ => self.grid_communicator(name),
        }
    }

    /// The communicator a communicator handle designates.
    fn communicator(&self, h: &Handle) -> Result<Communicator> {
        match CommHandle::decode(h)? {
            CommHandle::Named(name) => self.of_name(name)?.ok_or(Error::NotMember(name.name())),
            CommHandle::Transport(id) => {
                self.made.iter().find(|c| c.id() == id).cloned().ok_or(Error::InvalidHandle { what: "communicator" })
            }
        }
    }

    /// A communicator handle for the caller's Fortran MPI communicator (MPI transport only).
    pub fn wrap_communicator(&mut self, fortran_handle: i32) -> Result<Handle> {
        let comm = self.transport.wrap_mpi_communicator(fortran_handle)?;
        let h = CommHandle::encode_transport(comm.id());
        // The transport gives a handle wrapped again the id it had: the new one replaces it.
        self.made.retain(|c| c.id() != comm.id());
        self.made.push(comm);
        Ok(h)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{ElementType, HandleKind};

    /// A job of one PE, as a program started without rpnrun runs.
    fn one_pe() -> Runtime {
        Runtime::start().expect("a job of one PE starts")
    }

    /// Found by fuzzing (fuzz/regressions): a count of 0 with null buffers reached
    /// `slice::from_raw_parts(null, 0)` and `ptr::copy(_, null, 0)`, undefined behaviour
    /// (debug builds stop on it).
    #[test]
    fn zero_count_collectives_accept_null_buffers() {
        let mut rt = one_pe();
        // SAFETY: count 0: the buffers are not accessed.
        unsafe {
            rt.allreduce(0, 0, 0, "MPI_INTEGER", "MPI_SUM", "WORLD").unwrap();
            rt.allgather(0, 0, "MPI_REAL8", 0, 0, "MPI_REAL8", "WORLD").unwrap();
        }
        let dtype = Handle::encode(HandleKind::Datatype, ElementType::Int32.code());
        // SAFETY: a window in memory the library allocates; counts of 0 or refused calls: the
        // null buffers are not accessed.
        unsafe {
            let win = rt.win_create(&dtype, 4, &CommName::World.handle(), 0).unwrap();
            rt.windows().win_put_l(&win, 0, 2, 0).unwrap();
            rt.windows().win_get_l(&win, 0, 4, 0).unwrap();
            assert!(rt.windows().win_get_l(&win, 0, 0, 1).is_err(), "null buffer with elements to copy");
            rt.win_free(&win).unwrap();
        }
    }

    /// A thread frees a window while another thread of the PE operates on it (against the
    /// rules): the operations in progress end first, the later ones are refused with an error,
    /// none touches the freed memory (the window's memory is unmapped by the free).
    #[test]
    fn free_while_another_thread_operates_is_refused_not_undefined() {
        use std::sync::atomic::{AtomicBool, Ordering};
        let mut rt = one_pe();
        let dtype = Handle::encode(HandleKind::Datatype, ElementType::Int32.code());
        // SAFETY: a window in memory the library allocates.
        let win = unsafe { rt.win_create(&dtype, 1 << 16, &CommName::World.handle(), 0) }.unwrap();
        let table = Arc::clone(&rt.windows);
        let started = AtomicBool::new(false);
        std::thread::scope(|s| {
            let worker = s.spawn(|| {
                let buf = vec![7i32; 1 << 16];
                let mut done = 0u64;
                loop {
                    // SAFETY: buf holds the 2^16 elements copied.
                    match unsafe { table.win_put_l(&win, buf.as_ptr() as usize, 0, 1 << 16) } {
                        Ok(()) => done += 1,
                        Err(Error::WindowBusy) => {}
                        Err(Error::InvalidHandle { .. }) => return done,
                        Err(e) => panic!("unexpected error: {e}"),
                    }
                    started.store(true, Ordering::Release);
                }
            });
            while !started.load(Ordering::Acquire) {
                std::thread::yield_now();
            }
            rt.win_free(&win).unwrap();
            assert!(worker.join().unwrap() > 0, "the worker operated before the free");
        });
        assert!(!rt.win_valid(&win));
    }

    /// Wrapping a program's MPI communicator needs the MPI transport: on shared memory it is
    /// refused with a message that says so, and the job's own communicators still work.
    #[cfg(not(feature = "mpi"))]
    #[test]
    fn wrapping_an_mpi_communicator_is_refused_on_shared_memory() {
        let mut rt = one_pe();
        let err = rt.wrap_communicator(0).unwrap_err();
        assert!(err.to_string().contains("MPI"), "{err}");
        let dtype = Handle::encode(HandleKind::Datatype, ElementType::Int32.code());
        let refused = Handle::refused(HandleKind::Communicator);
        // SAFETY: windows in memory the library allocates.
        unsafe {
            assert!(rt.win_create(&dtype, 4, &refused, 0).is_err(), "the refused handle is refused by create");
            let win = rt.win_create(&dtype, 4, &CommName::World.handle(), 0).unwrap();
            rt.win_free(&win).unwrap();
        }
    }

    /// The names of the whole job designate it from the start; those of the grid need the grid
    /// (RPN_COMM_init); a communicator handle nobody made is refused.
    #[test]
    fn names_and_handles_designate_communicators() {
        let mut rt = one_pe();
        for name in ["GRID", "world", "ALLGRIDS", "DOMM", "all ", "UNIVERSE", "defo", "MultiGrid", "ALLDOMAINS"] {
            let comm = rt.named(name).unwrap().unwrap();
            assert!(comm.is_whole_job(1), "{name}");
            assert_eq!(comm, rt.communicator(&CommName::from_name(name).unwrap().handle()).unwrap());
        }
        assert!(rt.named("EW").unwrap_err().to_string().contains("RPN_COMM_init"));
        assert_eq!(rt.set_grid(1, 1).unwrap(), (1, 1));
        for name in ["EW", "NS", "GRIDPEERS", "BLOC", "BLOCMASTER"] {
            let comm = rt.named(name).unwrap().unwrap();
            assert!(comm.is_whole_job(1), "{name}: one PE is the whole job");
            assert_eq!(comm.name(), Some(CommName::from_name(name).unwrap().name()));
        }
        rt.set_blocks(1, 1).unwrap();
        assert!(rt.set_blocks(2, 1).is_err(), "2 blocks along a side of 1 PE");
        assert!(rt.named("EWX").is_err());
        let unknown = names::CommHandle::encode_transport(crate::core::CommId(5));
        assert!(rt.communicator(&unknown).is_err());
    }

    /// A grid must hold the job's PEs, on every PE alike.
    #[test]
    fn a_grid_that_does_not_hold_the_job_is_refused() {
        let mut rt = one_pe();
        assert!(rt.set_grid(2, 1).is_err());
        assert!(rt.set_grid(0, 1).is_err());
        assert_eq!(rt.mype(), (0, 0, 0));
    }

    /// The transport splits the job into the whole job; a part of it is refused by a transport
    /// that did not make it.
    #[cfg(not(feature = "mpi"))]
    #[test]
    fn splitting_the_job_gives_the_job() {
        let mut rt = one_pe();
        let job = rt.transport.split(Some(&[0]), "EW").unwrap().unwrap();
        assert!(job.is_whole_job(1));
        assert_eq!(job.name(), Some("EW"));
        let other = Communicator::new(crate::core::CommId(1), vec![0], 0).unwrap();
        assert!(matches!(rt.transport.barrier(&other), Err(Error::Unsupported(_))), "a communicator the transport never made");
    }
}
