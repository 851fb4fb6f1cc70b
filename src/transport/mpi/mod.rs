//! The MPI transport: the PEs are the ranks of an MPI job (started by mpirun/mpiexec, on any
//! number of nodes), windows are MPI-3 RMA windows. The MPI calls themselves are in a small C
//! shim (`mpi/shim.c`) compiled with the MPI's own `mpicc`, so this side does not depend on any
//! MPI's handle ABI. 'GRID', 'WORLD' and 'ALLGRIDS' are (a duplicate of) MPI_COMM_WORLD; the
//! caller's own communicators can be wrapped from their Fortran handles.

pub mod comm;
pub mod shim;
pub mod window;

use std::ffi::c_int;
use std::sync::{Arc, Mutex};

use self::comm::Comm;
use self::window::{MpiWindow, SharedRegistry, WindowRegistry};
use crate::core::ElementType;
use crate::error::{Error, Result};
use crate::transport::{CommId, JOB, Transport, TransportWindow};

pub struct MpiTransport {
    world: Arc<Comm>,
    /// Wrapped communicators: CommId i (>= 1) is wrapped[i - 1], with its Fortran handle.
    wrapped: Vec<(i32, Arc<Comm>)>,
    registry: SharedRegistry,
    /// MPI_Init was called by us (then finalize calls MPI_Finalize).
    started_mpi: bool,
    /// Windows over user arrays go through MPI-allocated memory (see `stage_user_arrays`).
    force_staged: bool,
}

/// Whether windows over the caller's array are staged through MPI-allocated memory instead of
/// created over the array (MPI_Win_create). `RPNCOMM_USER_ARRAYS=staged` or `direct` decides;
/// by default Open MPI stages: its osc/rdma component (4.1) silently drops MPI_LAND, MPI_LOR and
/// MPI_LXOR accumulates on windows made by MPI_Win_create (the call succeeds, the target is
/// unchanged, fetched values are 0), while its MPI_Win_allocate windows are right (and on one
/// node get the faster osc/sm component).
fn stage_user_arrays(library: &str, setting: Option<&str>) -> bool {
    match setting.map(|s| s.trim().to_ascii_lowercase()).as_deref() {
        Some("staged") => true,
        Some("direct") => false,
        _ => library.contains("Open MPI"),
    }
}

impl MpiTransport {
    /// Initialises MPI unless the program already did, and joins MPI_COMM_WORLD.
    pub fn init() -> Result<Self> {
        let mut started: c_int = 0;
        // SAFETY: out-parameter.
        shim::check(unsafe { shim::rpnmpi_init(&mut started) }, "MPI_Init_thread")?;
        let world = match Comm::world() {
            Ok(w) => w,
            Err(e) => {
                if started != 0 {
                    shim::rpnmpi_finalize();
                }
                return Err(e);
            }
        };
        let force_staged = stage_user_arrays(&shim::library_version(), std::env::var("RPNCOMM_USER_ARRAYS").ok().as_deref());
        Ok(MpiTransport {
            world: Arc::new(world),
            wrapped: Vec::new(),
            registry: Arc::new(Mutex::new(WindowRegistry::default())),
            started_mpi: started != 0,
            force_staged,
        })
    }

    /// The MPI library in use (for diagnostics).
    pub fn library_version() -> String {
        shim::library_version()
    }

    fn comm(&self, id: CommId) -> Result<&Arc<Comm>> {
        match id {
            JOB => Ok(&self.world),
            _ => self.wrapped.get(id as usize - 1).map(|(_, c)| c).ok_or(Error::InvalidHandle { what: "communicator" }),
        }
    }
}

impl Transport for MpiTransport {
    fn rank(&self) -> usize {
        self.world.rank
    }

    fn npes(&self) -> usize {
        self.world.size
    }

    fn barrier(&mut self) -> Result<()> {
        self.world.barrier()
    }

    fn allgather(&mut self, mine: &[u8], all: &mut [u8]) -> Result<()> {
        self.world.allgather(mine, all)
    }

    fn create_window(&mut self, dtype: ElementType, sizes: &[usize], user_array: Option<usize>) -> Result<Box<dyn TransportWindow>> {
        self.create_window_in(JOB, dtype, sizes, user_array)
    }

    fn finalize(&mut self) -> Result<()> {
        self.world.barrier()?;
        // Windows left over are freed here: MPI_Finalize with live windows aborts in some MPIs.
        let freed = self.registry.lock().unwrap_or_else(|p| p.into_inner()).free_all();
        self.wrapped.clear();
        if self.started_mpi {
            self.started_mpi = false;
            shim::check(shim::rpnmpi_finalize(), "MPI_Finalize")?;
        }
        freed
    }

    fn wrap_mpi_communicator(&mut self, fortran_handle: i32) -> Result<CommId> {
        let comm = Arc::new(Comm::from_fortran(fortran_handle)?);
        // The same handle wrapped again takes the same id (windows keep the communicator they
        // were created on).
        if let Some(i) = self.wrapped.iter().position(|(h, _)| *h == fortran_handle) {
            self.wrapped[i].1 = comm;
            return Ok(i as CommId + 1);
        }
        self.wrapped.push((fortran_handle, comm));
        Ok(self.wrapped.len() as CommId)
    }

    fn comm_rank_size(&self, comm: CommId) -> Result<(usize, usize)> {
        let c = self.comm(comm)?;
        Ok((c.rank, c.size))
    }

    fn allgather_in(&mut self, comm: CommId, mine: &[u8], all: &mut [u8]) -> Result<()> {
        self.comm(comm)?.allgather(mine, all)
    }

    fn create_window_in(&mut self, comm: CommId, dtype: ElementType, sizes: &[usize], user_array: Option<usize>) -> Result<Box<dyn TransportWindow>> {
        let comm = Arc::clone(self.comm(comm)?);
        Ok(Box::new(MpiWindow::create(comm, Arc::clone(&self.registry), dtype, sizes, user_array, self.force_staged)?))
    }
}

#[cfg(test)]
mod tests {
    use super::stage_user_arrays;

    #[test]
    fn user_arrays_staged_on_open_mpi_unless_told() {
        assert!(stage_user_arrays("Open MPI v4.1.4, package: Debian OpenMPI", None));
        assert!(!stage_user_arrays("MPICH Version:      4.0.2", None));
        assert!(!stage_user_arrays("Open MPI v4.1.4", Some("direct")));
        assert!(stage_user_arrays("MPICH Version: 4.0.2", Some(" Staged")));
    }
}
