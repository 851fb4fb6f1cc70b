//! Transports: how PEs synchronise and move window data. The window logic in `core` and
//! the API in `runtime` only talk to these traits.

/// cbindgen:ignore
#[cfg(feature = "mpi")]
pub mod mpi;
pub mod shm;

use crate::core::{ElementType, GroupSets, Mode, Operator, RemoteAccess};
use crate::error::{Error, Result};

/// A communicator of a transport: `JOB` (every PE of the job; what 'GRID', 'WORLD' and
/// 'ALLGRIDS' designate) or one that `Transport::wrap_mpi_communicator` returned.
pub type CommId = u32;
/// cbindgen:ignore
pub const JOB: CommId = 0;

/// Where a fetching accumulate puts the target's values.
#[derive(Debug, Clone, Copy)]
pub struct Fetch {
    pub dst: *mut u8,
    /// Values from before the update (true) or after it.
    pub before: bool,
}

/// A job: PEs that create windows together.
pub trait Transport: Send {
    fn rank(&self) -> usize;
    fn npes(&self) -> usize;
    /// Blocks until every PE of the job has called it.
    fn barrier(&mut self) -> Result<()>;
    /// Every PE contributes `mine` (same length everywhere); `all` receives the contributions in rank order.
    fn allgather(&mut self, mine: &[u8], all: &mut [u8]) -> Result<()>;
    /// Collective: creates this PE's part of a window of `sizes[p]` elements on each PE p,
    /// in the caller's array (`user_array`, an address) or in memory the transport allocates.
    fn create_window(&mut self, dtype: ElementType, sizes: &[usize], user_array: Option<usize>) -> Result<Box<dyn TransportWindow>>;
    /// Leaves the job (after a final barrier).
    fn finalize(&mut self) -> Result<()>;

    // Communicators other than the whole job: only the MPI transport has them. The defaults
    // serve transports with the job as their one communicator.

    /// A communicator for the caller's Fortran MPI communicator handle.
    fn wrap_mpi_communicator(&mut self, _fortran_handle: i32) -> Result<CommId> {
        Err(Error::Unsupported("an MPI communicator (mcom) needs the MPI transport (build with MPI=1)"))
    }
    /// This PE's rank in `comm` and the size of `comm`.
    fn comm_rank_size(&self, comm: CommId) -> Result<(usize, usize)> {
        match comm {
            JOB => Ok((self.rank(), self.npes())),
            _ => Err(Error::InvalidHandle { what: "communicator" }),
        }
    }
    /// `allgather` over the PEs of `comm`.
    fn allgather_in(&mut self, comm: CommId, mine: &[u8], all: &mut [u8]) -> Result<()> {
        match comm {
            JOB => self.allgather(mine, all),
            _ => Err(Error::InvalidHandle { what: "communicator" }),
        }
    }
    /// `create_window` over the PEs of `comm` (`sizes` indexed by rank in `comm`).
    fn create_window_in(&mut self, comm: CommId, dtype: ElementType, sizes: &[usize], user_array: Option<usize>) -> Result<Box<dyn TransportWindow>> {
        match comm {
            JOB => self.create_window(dtype, sizes, user_array),
            _ => Err(Error::InvalidHandle { what: "communicator" }),
        }
    }
}

/// One PE's view of one window. Arguments have been validated by `core::WindowState`.
pub trait TransportWindow: Send {
    /// How messages name the window ("window 3": the 3rd created in the job).
    fn label(&self) -> &str {
        "the window"
    }
    /// Address of this PE's elements as the caller sees them while the window is closed.
    fn local_base(&self) -> *mut u8;
    fn open(&mut self, epoch: u32, mode: Mode, group: Option<&GroupSets>) -> Result<()>;
    fn close(&mut self, epoch: u32, mode: Mode, group: Option<&GroupSets>) -> Result<()>;
    /// # Safety
    /// `src` must be readable for `acc.nelem` elements.
    unsafe fn put(&mut self, acc: &RemoteAccess, src: *const u8) -> Result<()>;
    /// # Safety
    /// `dst` must be writable for `acc.nelem` elements.
    unsafe fn get(&mut self, acc: &RemoteAccess, dst: *mut u8) -> Result<()>;
    /// # Safety
    /// `src` readable and, if present, `fetch.dst` writable for `acc.nelem` elements.
    unsafe fn accumulate(&mut self, acc: &RemoteAccess, src: *const u8, fetch: Option<Fetch>, op: Operator) -> Result<()>;
    /// Collective: (re)creates the secondary window with `records[p]` records of 5 integers on PE p.
    fn create_secondary(&mut self, records: &[usize]) -> Result<()>;
    /// This PE's records (null when there is no secondary window).
    fn secondary_base(&self) -> *mut i32;
    /// Takes the next free record of `target`'s secondary window (atomic fetch-and-increment, bounded).
    fn claim_slot(&mut self, target: usize, epoch: u32) -> Result<u32>;
    /// Writes a request record into record `slot` (1-based) of `target`'s secondary window.
    fn write_record(&mut self, target: usize, epoch: u32, slot: u32, record: [i32; 5]) -> Result<()>;
    /// Clears this PE's records; `full` also resets its counter to 1.
    fn reset_secondary(&mut self, full: bool);
    /// Collective: releases the window.
    fn free(self: Box<Self>) -> Result<()>;
}
