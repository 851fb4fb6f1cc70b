//! MPI communicators as the transport uses them: our duplicate of MPI_COMM_WORLD (the job) and
//! the caller's communicators wrapped from their Fortran handles.

use std::ffi::{c_int, c_void};

use super::shim::{self, RawComm};
use crate::error::{Error, Result};

pub struct Comm {
    raw: *mut RawComm,
    pub rank: usize,
    pub size: usize,
}

// SAFETY: the handle is only used by the thread that holds the runtime lock (one call at a time,
// MPI initialised with MPI_THREAD_SERIALIZED).
unsafe impl Send for Comm {}
// SAFETY: as above; shared references are only used under the same lock.
unsafe impl Sync for Comm {}

impl Comm {
    /// A duplicate of MPI_COMM_WORLD (collective over the job).
    pub fn world() -> Result<Comm> {
        let mut raw = std::ptr::null_mut();
        // SAFETY: out-parameter.
        shim::check(unsafe { shim::rpnmpi_comm_world(&mut raw) }, "MPI_Comm_dup(MPI_COMM_WORLD)")?;
        Self::from_raw(raw)
    }

    /// The caller's communicator `fortran_handle` (validated, not duplicated: a local call).
    pub fn from_fortran(fortran_handle: i32) -> Result<Comm> {
        let mut raw = std::ptr::null_mut();
        // SAFETY: out-parameter; the shim validates the handle before using it.
        let rc = unsafe { shim::rpnmpi_comm_from_fortran(fortran_handle, &mut raw) };
        if rc != 0 {
            return Err(Error::BadArgument(format!("MPI communicator {fortran_handle}: {}", shim::error_text(rc))));
        }
        Self::from_raw(raw)
    }

    /// Takes ownership of `raw` (released on drop, also when this fails).
    fn from_raw(raw: *mut RawComm) -> Result<Comm> {
        let mut comm = Comm { raw, rank: 0, size: 0 };
        let (mut rank, mut size): (c_int, c_int) = (0, 0);
        // SAFETY: raw is a live communicator of the shim; out-parameters.
        shim::check(unsafe { shim::rpnmpi_comm_rank_size(raw, &mut rank, &mut size) }, "MPI_Comm_rank/size")?;
        comm.rank = rank as usize;
        comm.size = size as usize;
        Ok(comm)
    }

    pub fn raw(&self) -> *const RawComm {
        self.raw
    }

    pub fn barrier(&self) -> Result<()> {
        // SAFETY: live communicator.
        shim::check(unsafe { shim::rpnmpi_barrier(self.raw) }, "MPI_Barrier")
    }

    /// Every rank contributes `mine`; `all` (size * mine.len() bytes) receives them in rank order.
    pub fn allgather(&self, mine: &[u8], all: &mut [u8]) -> Result<()> {
        if all.len() != mine.len() * self.size {
            return Err(Error::Internal(format!("allgather of {} bytes into {} for {} ranks", mine.len(), all.len(), self.size)));
        }
        let bytes = c_int::try_from(mine.len()).map_err(|_| Error::BadArgument(format!("allgather of {} bytes per PE", mine.len())))?;
        // SAFETY: mine holds `bytes` bytes, all has room for size * bytes (checked above).
        let rc = unsafe { shim::rpnmpi_allgather(self.raw, mine.as_ptr() as *const c_void, all.as_mut_ptr() as *mut c_void, bytes) };
        shim::check(rc, "MPI_Allgather")
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
        // SAFETY: raw came from the shim and is released once; the shim frees an owned duplicate
        // only while MPI is not finalized.
        unsafe { shim::rpnmpi_comm_release(self.raw) };
    }
}
