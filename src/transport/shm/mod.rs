//! The shared-memory transport: the PEs of one job are processes of one node, started by
//! `rpnrun` with a job segment; windows live in shared regions every PE maps.
//!
//! A folder per concern:
//! - `protocols`: how PEs wait for and signal each other in shared words (waits, barrier,
//!   epochs, passive lock, slot claim) and the atomics they use, std's or loom's;
//! - `memory`: shared regions, the remapping of a caller's array, bulk copies and element-wise
//!   atomics on window memory;
//!
//! and what the transport is made of:
//! - `job`: the job segment that `rpnrun` makes (header, job barrier, PE blocks, mailboxes);
//! - `group`: a communicator as one PE uses it, and its collectives;
//! - `collectives`: the job-wide barrier and allgather through the mailboxes;
//! - `window`: a window in shared memory;
//! - `channel`: point-to-point channels between two PEs;
//! - `part_entries`: the collectives of rows and columns each PE entered, which a halo exchange
//!   watches;
//! - `cpus`: the CPUs a process may run on, and whether the PEs have one each.
//!
//! The modules of the folders are also reachable here (`shm::barrier`, `shm::region`, ...), the
//! paths the rest of the crate and the loom models use.

pub mod channel;
pub mod collectives;
pub mod cpus;
pub mod group;
pub mod job;
pub mod memory;
pub mod part_entries;
pub mod protocols;
pub mod window;

pub use self::memory::{atomic_ops, copy, region, remap};
pub use self::protocols::{barrier, epochs, lock, rounds, slots, spin, sync, wait};

use std::collections::HashMap;
use std::sync::Arc;

use self::channel::ShmChannels;
use self::collectives::Collectives;
use self::group::Group;
use self::job::{ENV_NPES, ENV_RANK, ENV_SEGMENT, JobSegment, PeState};
use self::window::ShmWindow;
use crate::core::{CommId, CommMap, Communicator, ElementType};
use crate::error::{Error, Result};
use crate::transport::channel::Channels;
use crate::transport::{Toward, Transport, TransportWindow};

/// The shared-memory transport of one PE: the job's collectives, the communicators it made
/// and the windows it creates.
/// The header of an all-to-all scratch region (its magic, members and slot size), one page.
const SCRATCH_HEADER: usize = 4096;
const SCRATCH_MAGIC: u64 = u64::from_le_bytes(*b"RPNCA2A\x01");

pub struct ShmTransport {
    coll: Arc<Collectives>,
    job: Communicator,
    /// The communicators this PE is a member of, the job first, by id.
    groups: CommMap<Arc<Group>>,
    /// Splits made so far (the ids of their communicators: every PE makes the same splits in
    /// the same order, so the ids agree).
    splits: u32,
    /// Stem of the names of this job's regions in /dev/shm.
    prefix: String,
    /// Windows created so far over each communicator (every member creates the same ones).
    windows_created: HashMap<CommId, u32>,
    /// Point-to-point channels to the other PEs, made on first use.
    channels: ShmChannels,
    /// Each communicator's all-to-all scratch region (one slot per member) and how many have
    /// been made for it, for exchanges larger than a mailbox (every member makes the same ones).
    scratch: HashMap<CommId, (Option<(region::SharedRegion, usize)>, u32)>,
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
        let coll = Arc::new(Collectives::new(Arc::new(job), rank));
        let groups = CommMap::from_iter([(CommId::JOB, Arc::new(Group::job(Arc::clone(&coll))))]);
        let channels = ShmChannels::new(Arc::clone(&coll), prefix.clone());
        Ok(ShmTransport {
            job: Communicator::job(coll.npes, rank)?,
            coll,
            groups,
            splits: 0,
            prefix,
            windows_created: HashMap::new(),
            scratch: HashMap::new(),
            channels,
        })
    }

    /// The group of `comm`, refused unless this transport made it (with those members).
    /// All-to-all over `comm` (`table[p * n + q]`: bytes p sends q): through the mailboxes when
    /// every PE's buffer fits one (a single round), else through the communicator's scratch
    /// region, remade larger when an exchange outgrows it (collective: every member sees the same
    /// table and the same history), so that any size takes two barriers.
    fn exchange(&mut self, comm: &Communicator, send: &[u8], table: &[usize]) -> Result<Vec<u8>> {
        let group = Arc::clone(self.group(comm)?);
        let n = comm.size();
        let longest = (0..n).map(|p| table[p * n..(p + 1) * n].iter().sum::<usize>()).max().unwrap_or(0);
        if longest <= job::MAILBOX_BYTES {
            return group.alltoallv(send, table);
        }
        let entry = self.scratch.entry(comm.id()).or_insert((None, 0));
        if entry.0.as_ref().is_none_or(|(_, slot)| *slot < longest) {
            entry.0 = None;
            entry.1 += 1;
            let slot = longest.next_power_of_two();
            let name = format!("{}.c{}.{}.x{}", self.prefix, comm.id().0, group.members()[0], entry.1);
            let region = group.create_region(&name, SCRATCH_HEADER + slot * n, &[SCRATCH_MAGIC, n as u64, slot as u64])?;
            entry.0 = Some((region, slot));
        }
        let Some((region, slot)) = entry.0.as_ref() else { return Err(Error::Internal("no scratch region".into())) };
        // SAFETY: the region holds the header and n slots of `slot` >= longest bytes each.
        unsafe { group.alltoallv_through(region.as_ptr().add(SCRATCH_HEADER), *slot, send, table) }
    }

    fn group(&self, comm: &Communicator) -> Result<&Arc<Group>> {
        // (the job is always the job: no comparison of its members at every collective call)
        self.groups
            .get(&comm.id())
            .filter(|g| comm.id() == CommId::JOB || comm.members() == Some(g.members()))
            .ok_or(Error::Unsupported("a communicator the shared-memory transport did not make"))
    }
}

impl Transport for ShmTransport {
    fn job(&self) -> &Communicator {
        &self.job
    }

    fn barrier(&mut self, comm: &Communicator) -> Result<()> {
        self.group(comm)?.barrier()
    }

    fn allgather(&mut self, comm: &Communicator, mine: &[u8], all: &mut [u8]) -> Result<()> {
        self.group(comm)?.allgather(mine, all)
    }

    fn rooted_round(&mut self, comm: &Communicator, mine: &[u8], all: &mut [u8], root: usize, toward: Toward) -> Result<bool> {
        self.group(comm)?.rooted_round(mine, all, root, toward)
    }

    fn alltoallv(&mut self, comm: &Communicator, send: &[u8], send_counts: &[usize], recv_counts: &[usize]) -> Result<Vec<u8>> {
        let table = super::exchange_counts(self, comm, send, send_counts, recv_counts)?;
        self.exchange(comm, send, &table)
    }

    fn alltoallv_table(&mut self, comm: &Communicator, send: &[u8], table: &[usize]) -> Result<Vec<u8>> {
        let (n, me) = (comm.size(), comm.rank());
        if table.len() != n * n || send.len() != table[me * n..(me + 1) * n].iter().sum::<usize>() {
            return Err(Error::Internal(format!("alltoallv of {} bytes with a table of {} counts for {n} PEs", send.len(), table.len())));
        }
        self.exchange(comm, send, table)
    }

    fn alltoall(&mut self, comm: &Communicator, send: &[u8], block: usize, recv: &mut [u8]) -> Result<()> {
        super::check_alltoall(send, block, comm.size(), recv)?;
        // every PE sends `block` bytes to every PE: no counts to exchange
        let got = self.exchange(comm, send, &vec![block; comm.size() * comm.size()])?;
        recv.copy_from_slice(&got);
        Ok(())
    }

    unsafe fn create_window(
        &mut self,
        comm: &Communicator,
        dtype: ElementType,
        sizes: &[usize],
        user_array: Option<usize>,
    ) -> Result<Box<dyn TransportWindow>> {
        let group = Arc::clone(self.group(comm)?);
        let count = self.windows_created.entry(comm.id()).or_insert(0);
        *count += 1;
        // Windows of other parts of the same split are created at the same time: the name
        // holds the communicator and its first member.
        let (name, label) = match comm.id() {
            CommId::JOB => (format!("{}.w{count}", self.prefix), format!("window {count}")),
            CommId(id) => (
                format!("{}.c{id}.{}.w{count}", self.prefix, group.members()[0]),
                format!("window {count} over {}", comm.name().unwrap_or("a communicator")),
            ),
        };
        Ok(Box::new(ShmWindow::create(group, name, label, dtype, sizes, user_array)?))
    }

    fn split(&mut self, part: Option<&[usize]>, name: &'static str) -> Result<Option<Communicator>> {
        // Parts are disjoint: if one is the whole job, it is every PE's.
        if part.is_some() && part == self.job.members() {
            return Ok(Some(self.job.clone().named(name)));
        }
        self.splits += 1;
        let id = CommId(self.splits);
        let region = format!("{}.c{}", self.prefix, self.splits);
        let made = Group::split(&self.groups[&CommId::JOB], &region, self.splits, part, name)?;
        let Some(group) = made else { return Ok(None) };
        let comm = Communicator::new(id, group.members().to_vec(), self.coll.rank)?.named(name);
        self.groups.insert(id, Arc::new(group));
        Ok(Some(comm))
    }

    fn channels(&mut self) -> Option<&mut dyn Channels> {
        Some(&mut self.channels)
    }

    fn finalize(&mut self) -> Result<()> {
        self.coll.barrier()?;
        // Every PE is done with the channels: their memory goes.
        self.channels = ShmChannels::new(Arc::clone(&self.coll), self.prefix.clone());
        self.coll.job.set_state(self.coll.rank, PeState::Finalized);
        Ok(())
    }
}
