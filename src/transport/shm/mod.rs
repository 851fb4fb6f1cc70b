//! The shared-memory transport: the PEs of one job are processes of one node, started by
//! `rpnrun` with a job segment; windows live in shared regions every PE maps.

pub mod atomic_ops;
pub mod barrier;
pub mod collectives;
pub mod copy;
pub mod epochs;
pub mod futex;
pub mod job;
pub mod lock;
pub mod region;
pub mod remap;
pub mod slots;
pub mod spin;
pub mod sync;
pub mod wait;
pub mod window;

use std::sync::Arc;

use self::collectives::Collectives;
use self::job::{ENV_NPES, ENV_RANK, ENV_SEGMENT, JobSegment, PeState};
use self::window::ShmWindow;
use crate::core::ElementType;
use crate::error::{Error, Result};
use crate::transport::{Transport, TransportWindow};

pub struct ShmTransport {
    coll: Arc<Collectives>,
    /// Stem of the names of this job's regions in /dev/shm.
    prefix: String,
    windows_created: u32,
}

/// A name nobody can guess: the launcher's pid (for stale-job cleanup) and 64 random bits.
pub fn new_job_name() -> String {
    let mut bytes = [0u8; 8];
    // SAFETY: getrandom writes at most bytes.len() bytes into the buffer.
    let got = unsafe { libc::getrandom(bytes.as_mut_ptr() as *mut libc::c_void, bytes.len(), 0) };
    let random = if got == bytes.len() as isize {
        u64::from_ne_bytes(bytes)
    } else {
        // No entropy source: fall back on the clock (still unique per job).
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64)
    };
    format!("{}{}-{random:016x}", region::NAME_PREFIX, std::process::id())
}

fn env_number(name: &str) -> Result<usize> {
    let text = std::env::var(name).map_err(|_| Error::SharedMemory(format!("{name} is not set")))?;
    text.trim().parse().map_err(|_| Error::SharedMemory(format!("{name}='{text}' is not a number")))
}

impl ShmTransport {
    /// Joins the job described by the launcher's environment, or starts a job of one PE.
    pub fn from_env() -> Result<Self> {
        let (job, rank, prefix) = match std::env::var(ENV_SEGMENT) {
            Ok(segment) => {
                let npes = env_number(ENV_NPES)?;
                let rank = env_number(ENV_RANK)?;
                if rank >= npes {
                    return Err(Error::SharedMemory(format!("{ENV_RANK}={rank} is not below {ENV_NPES}={npes}")));
                }
                let job = JobSegment::attach(&segment, npes)?;
                job.claim(rank)?;
                (job, rank, segment)
            }
            Err(_) => {
                let job = JobSegment::private()?;
                job.claim(0)?;
                (job, 0, new_job_name())
            }
        };
        Ok(ShmTransport { coll: Arc::new(Collectives::new(Arc::new(job), rank)), prefix, windows_created: 0 })
    }
}

impl Transport for ShmTransport {
    fn rank(&self) -> usize {
        self.coll.rank
    }

    fn npes(&self) -> usize {
        self.coll.npes
    }

    fn barrier(&mut self) -> Result<()> {
        self.coll.barrier()
    }

    fn allgather(&mut self, mine: &[u8], all: &mut [u8]) -> Result<()> {
        self.coll.allgather(mine, all)
    }

    fn create_window(&mut self, dtype: ElementType, sizes: &[usize], user_array: Option<usize>) -> Result<Box<dyn TransportWindow>> {
        self.windows_created += 1;
        let name = format!("{}.w{}", self.prefix, self.windows_created);
        let label = format!("window {}", self.windows_created);
        Ok(Box::new(ShmWindow::create(Arc::clone(&self.coll), name, label, dtype, sizes, user_array)?))
    }

    fn finalize(&mut self) -> Result<()> {
        self.coll.barrier()?;
        self.coll.job.set_state(self.coll.rank, PeState::Finalized);
        Ok(())
    }
}
