//! Windows over a caller's MPI communicator, as the original's "easy" windows
//! (RPN_COMM_ezwin_create: integers, always open for passive access) and shared-memory
//! windows (RPN_COMM_win_allocate_shared: one area that every PE of a node addresses) make them.
//! Both are windows of this library (its table, its checks, its transports): the communicator
//! is wrapped as RPN_COMM_i_comm wraps one, so they exist in the MPI build only; the
//! shared-memory build refuses them (it has no MPI communicators) with one line.

use super::super::Runtime;
use crate::core::{ElementType, Handle, HandleKind};
use crate::error::{Error, Result};

impl Runtime {
    /// Collective over the Fortran MPI communicator `fcomm`: a window of `sz` 4-byte integers
    /// on this PE, in memory the library allocates, opened in passive mode (the original's
    /// easy windows are always reachable, each access locking its target).
    pub fn ezwin_create(&mut self, sz: i32, fcomm: i32) -> Result<Handle> {
        let com = self.wrap_communicator(fcomm)?;
        let dtype = Handle::encode(HandleKind::Datatype, ElementType::Int32.code());
        // SAFETY: array 0: the library allocates the window's memory.
        let h = unsafe { self.win_create(&dtype, sz, &com, 0) }?;
        self.windows.win_open(&h, false)?;
        Ok(h)
    }

    /// Collective over the Fortran MPI communicator `fcomm`: an area of `msize` 4-byte integers
    /// held by its rank 0, which every PE addresses directly; its address in this process.
    /// The PEs must share a node (as MPI_Win_allocate_shared requires).
    pub fn win_allocate_shared(&mut self, fcomm: i32, msize: i64) -> Result<usize> {
        let com = self.wrap_communicator(fcomm)?;
        let rank = self.communicator(&com)?.rank();
        let siz = match rank {
            0 => i32::try_from(msize).map_err(|_| Error::BadArgument(format!("size {msize}: 0 to {} integers", i32::MAX)))?,
            _ => 0,
        };
        let dtype = Handle::encode(HandleKind::Datatype, ElementType::Int32.code());
        // SAFETY: array 0: the library allocates the window's memory.
        let h = unsafe { self.win_create(&dtype, siz, &com, 0) }?;
        let base = self.windows.read(&h, |w| Ok(w.memory.shared_base(0)))?;
        // every PE knows whether it reaches rank 0's area, and all must, or none keeps the window
        let comm = self.communicator(&com)?;
        let mut all = vec![0u8; comm.size()];
        self.transport.allgather(&comm, &[u8::from(base.is_some())], &mut all)?;
        match (all.iter().all(|&r| r == 1), base) {
            (true, Some(b)) => Ok(b as usize),
            _ => {
                let _ = self.win_free(&h);
                Err(Error::BadArgument("the PEs of the communicator are not all on one node: no memory they all address".into()))
            }
        }
    }
}
