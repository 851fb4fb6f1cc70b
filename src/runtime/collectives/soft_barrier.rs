//! The original's soft barrier (rpn_comm_softbarrier_init, _init_all, rpn_comm_softbarrier): a
//! barrier among the PEs of a communicator that was first registered. The original made it of
//! sockets so that the PEs wait in the kernel rather than spin; here it is the transport's own
//! barrier over that communicator. The MPI build registers the caller's Fortran MPI
//! communicator (that of RPN_COMM_world_get for _init_all); the shared-memory build, one node
//! with no MPI handle, takes any number given to it for the job itself.

use std::sync::Mutex;

use super::super::Runtime;
use crate::core::Handle;
use crate::error::{Error, Result};

/// The registered communicators: the caller's number and, in the MPI build, the library's handle
/// of it (None: the job).
static REGISTERED: Mutex<Vec<(i32, Option<Handle>)>> = Mutex::new(Vec::new());

impl Runtime {
    /// rpn_comm_softbarrier_init: registers the communicator `fcomm` (once; again is a no-op);
    /// returns it.
    pub fn softbarrier_init(&mut self, fcomm: i32) -> Result<i32> {
        let mut reg = REGISTERED.lock().unwrap_or_else(|p| p.into_inner());
        if reg.iter().any(|(f, _)| *f == fcomm) {
            return Ok(fcomm);
        }
        let h = if cfg!(feature = "mpi") { Some(self.wrap_communicator(fcomm)?) } else { None };
        reg.push((fcomm, h));
        Ok(fcomm)
    }

    /// rpn_comm_softbarrier: waits until every PE of the registered communicator `fcomm` has
    /// called it.
    pub fn softbarrier(&mut self, fcomm: i32) -> Result<()> {
        let found = REGISTERED.lock().unwrap_or_else(|p| p.into_inner()).iter().find(|(f, _)| *f == fcomm).cloned();
        let (_, h) = found.ok_or_else(|| {
            Error::BadArgument(format!("communicator {fcomm} was not registered (rpn_comm_softbarrier_init registers it)"))
        })?;
        let comm = match h {
            Some(h) => self.communicator(&h)?,
            None => self.transport.job().clone(),
        };
        if comm.size() > 1 {
            self.transport.barrier(&comm)?;
        }
        Ok(())
    }
}
