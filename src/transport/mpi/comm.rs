//! MPI communicators as the transport uses them: our duplicate of MPI_COMM_WORLD (the job), the
//! communicators split from it (the rows, columns and blocks of the PE grid) and the caller's
//! communicators wrapped from their Fortran handles.

use std::ffi::{c_int, c_void};

use super::shim::{self, RawComm};
use super::{wait, watchdog};
use crate::core::CollectiveId;
use crate::core::collective;
use crate::error::{Error, Result};

pub struct Comm {
    raw: *mut RawComm,
    pub rank: usize,
    pub size: usize,
}

// SAFETY: the handle is immutable after creation; MPI calls on it from several threads are
// allowed at MPI_THREAD_MULTIPLE, and below that every call takes `shim::serial()`.
unsafe impl Send for Comm {}
// SAFETY: as above.
unsafe impl Sync for Comm {}

impl Comm {
    /// A duplicate of MPI_COMM_WORLD (collective over the job).
    pub fn world() -> Result<Comm> {
        let mut raw = std::ptr::null_mut();
        let rc = {
            let _mpi = shim::serial();
            // SAFETY: out-parameter.
            unsafe { shim::rpnmpi_comm_world(&mut raw) }
        };
        shim::check(rc, "MPI_Comm_dup(MPI_COMM_WORLD)")?;
        Self::from_raw(raw)
    }

    /// The caller's communicator `fortran_handle` (validated, not duplicated: a local call).
    pub fn from_fortran(fortran_handle: i32) -> Result<Comm> {
        let mut raw = std::ptr::null_mut();
        let rc = {
            let _mpi = shim::serial();
            // SAFETY: out-parameter; the shim validates the handle before using it.
            unsafe { shim::rpnmpi_comm_from_fortran(fortran_handle, &mut raw) }
        };
        if rc != 0 {
            return Err(Error::BadArgument(format!("MPI communicator {fortran_handle}: {}", shim::error_text(rc))));
        }
        Self::from_raw(raw)
    }

    /// Collective over `self` (MPI_Comm_split): the ranks of one `color` form a communicator,
    /// ranked by `key`; None of color gets none.
    pub fn split(&self, color: Option<u32>, key: usize) -> Result<Option<Comm>> {
        let mut raw = std::ptr::null_mut();
        let color = color.map_or(-1, |c| c as c_int);
        // SAFETY: live communicator; out-parameter.
        shim::check(unsafe { shim::rpnmpi_comm_split(self.raw, color, key as c_int, &mut raw) }, "MPI_Comm_split")?;
        if raw.is_null() { Ok(None) } else { Self::from_raw(raw).map(Some) }
    }

    /// Collective over `self`: its ranks on this rank's node (MPI_Comm_split_type(SHARED)), in
    /// `self`'s order; `split` > 0 cuts each node into pretend nodes of that many ranks.
    pub fn node(&self, split: usize) -> Result<Comm> {
        let mut raw = std::ptr::null_mut();
        let rc = {
            let _mpi = shim::serial();
            // SAFETY: live communicator; out-parameter.
            unsafe { shim::rpnmpi_node_comm(self.raw, split as c_int, &mut raw) }
        };
        shim::check(rc, "MPI_Comm_split_type(SHARED)")?;
        Self::from_raw(raw)
    }

    /// Takes ownership of `raw` (released on drop, also when this fails).
    fn from_raw(raw: *mut RawComm) -> Result<Comm> {
        let mut comm = Comm { raw, rank: 0, size: 0 };
        let (mut rank, mut size): (c_int, c_int) = (0, 0);
        let rc = {
            let _mpi = shim::serial();
            // SAFETY: raw is a live communicator of the shim; out-parameters.
            unsafe { shim::rpnmpi_comm_rank_size(raw, &mut rank, &mut size) }
        };
        // On error `comm` is dropped (released), after the guard above.
        shim::check(rc, "MPI_Comm_rank/size")?;
        comm.rank = rank as usize;
        comm.size = size as usize;
        Ok(comm)
    }

    pub fn raw(&self) -> *const RawComm {
        self.raw
    }

    pub fn barrier(&self) -> Result<()> {
        let _mpi = shim::serial();
        let _watch = watchdog::watch("MPI_Barrier");
        // SAFETY: live communicator.
        shim::check(unsafe { shim::rpnmpi_barrier(self.raw) }, "MPI_Barrier")
    }

    /// A barrier that says which routine it is part of: every rank gives the record of `id`
    /// (`core::collective::record`, the one the runtime's agreements exchange), so that a rank
    /// in another collective on this communicator (RPN_COMM_barrier, an allreduce) is matched
    /// by the same exchange and named, instead of an MPI_Barrier pairing with its internals.
    pub fn tagged_barrier(&self, id: CollectiveId) -> Result<()> {
        let mut all = vec![0u8; collective::RECORD_BYTES * self.size];
        self.allgather(&collective::record(id, false, 0, &[], &[]), &mut all)?;
        collective::check_routines(&all, self.rank, id)
    }

    /// Every rank contributes `mine`; `all` (size * mine.len() bytes) receives them in rank order.
    pub fn allgather(&self, mine: &[u8], all: &mut [u8]) -> Result<()> {
        if all.len() != mine.len() * self.size {
            return Err(Error::Internal(format!("allgather of {} bytes into {} for {} ranks", mine.len(), all.len(), self.size)));
        }
        let bytes = c_int::try_from(mine.len()).map_err(|_| Error::BadArgument(format!("allgather of {} bytes per PE", mine.len())))?;
        if bytes == 0 {
            // nothing to move, and an empty slice's pointer is Open MPI's MPI_IN_PLACE
            return Ok(());
        }
        // Started, then waited on by tests that yield the core (`wait`): every collective's
        // agreement goes through here, and a blocking MPI_Allgather busy-polls, which costs a
        // time slice per call where PEs share cores.
        // SAFETY: mine holds `bytes` bytes, all has room for size * bytes (checked above);
        // neither is touched until the request completed.
        wait::complete("MPI_Allgather", self.size, |req| unsafe {
            shim::rpnmpi_iallgather(self.raw, mine.as_ptr() as *const c_void, all.as_mut_ptr() as *mut c_void, bytes, req)
        })
    }

    /// `allgather` of `mine` given up after `limit`: every rank's block, or None when `limit`
    /// passed first (the buffers are then left to MPI for good: the caller ends the job).
    pub fn allgather_within(&self, mine: Vec<u8>, limit: std::time::Duration) -> Result<Option<Vec<u8>>> {
        let bytes = c_int::try_from(mine.len()).map_err(|_| Error::BadArgument(format!("allgather of {} bytes per PE", mine.len())))?;
        if bytes == 0 {
            return Ok(Some(Vec::new()));
        }
        let mut all = vec![0u8; mine.len() * self.size];
        // SAFETY: mine holds `bytes` bytes, all size * bytes; neither is touched until the request
        // completed, and neither is freed if it did not (leaked below).
        let done = wait::complete_within("MPI_Allgather", limit, |req| unsafe {
            shim::rpnmpi_iallgather(self.raw, mine.as_ptr() as *const c_void, all.as_mut_ptr() as *mut c_void, bytes, req)
        })?;
        if done {
            Ok(Some(all))
        } else {
            std::mem::forget(mine);
            std::mem::forget(all);
            Ok(None)
        }
    }

    /// One flag per rank: `any` true somewhere, `all` true everywhere.
    pub fn agree_flag(&self, mine: bool) -> Result<(bool, bool)> {
        let mut all = vec![0u8; self.size];
        self.allgather(&[mine as u8], &mut all)?;
        Ok((all.iter().any(|&f| f != 0), all.iter().all(|&f| f != 0)))
    }
}

impl Drop for Comm {
    fn drop(&mut self) {
        let _mpi = shim::serial();
        // SAFETY: raw came from the shim and is released once; the shim frees an owned duplicate
        // only while MPI is not finalized.
        unsafe { shim::rpnmpi_comm_release(self.raw) };
    }
}
