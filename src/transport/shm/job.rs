//! The job segment: the shared control block of one job, created by the launcher before the
//! PEs start. It holds a validated header, the job barrier (on the pages after the header),
//! one block per PE (liveness state, last barrier round reached) and one mailbox per PE for
//! the collectives (allgather, allreduce, window creation).

use std::os::fd::OwnedFd;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

use super::barrier::{Barrier, barrier_bytes};
use super::region::{self, AnonymousRegion, SharedRegion};
use super::rounds::{RoundSlots, rounds_bytes};
use super::wait::epoch_reached;
use crate::error::{Error, Result};

pub const JOB_MAGIC: u64 = u64::from_le_bytes(*b"RPNCJOB\x01");
/// Version of the job segment's layout (a segment of another version is refused).
pub const JOB_VERSION: u32 = 7;
/// Bytes a PE can publish per collective step.
pub const MAILBOX_BYTES: usize = 64 * 1024;
/// Largest job the shared-memory transport accepts (one node).
pub const MAX_PES: usize = 1024;

const PAGE: usize = 4096;

/// Environment variables the launcher sets for each PE.
pub const ENV_SEGMENT: &str = "RPNCOMM_SEGMENT";
pub const ENV_RANK: &str = "RPNCOMM_RANK";
pub const ENV_NPES: &str = "RPNCOMM_NPES";

#[repr(C)]
struct JobHeader {
    magic: u64,
    version: u32,
    npes: u32,
    header_bytes: u32,
    pe_block_bytes: u32,
    mailbox_bytes: u32,
    launcher_pid: u32,
    total_bytes: u64,
    /// 0 while the job is healthy; rank + 1 of the first PE found dead.
    dead_pe: AtomicU32,
    /// 0, or rank + 1 of the first PE that left the program (without RPN_COMM_finalize) while
    /// another PE waited for it: the launcher then fails the job although every PE exited with 0.
    left_waiters: AtomicU32,
}

/// Liveness of a PE, as the launcher and the PE itself record it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u32)]
pub enum PeState {
    NotStarted = 0,
    Running = 1,
    Finalized = 2,
    Exited = 3,
}

/// Whom a waiter waits for (job ranks).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Awaited<'a> {
    One(usize),
    All,
    /// The members of a communicator.
    Members(&'a [usize]),
}

/// One PE's block, alone on its cache lines.
#[repr(C, align(128))]
pub struct PeBlock {
    /// The last job-barrier round this PE reached (for the report of a hang).
    pub barrier_round: AtomicU32,
    /// The last exchange round of the job this PE entered (`rounds`; for the halo exchange, which
    /// tells a neighbour gone into a collective by it).
    pub exchange_round: AtomicU32,
    state: AtomicU32,
    pid: AtomicU32,
    /// The last collective this PE entered on a part of a split (a row, a column, a grid of
    /// several), as `Collectives::announce_entry` packs it: for the halo exchange too.
    pub part_entry: AtomicU64,
    /// The routine of that collective (`CollectiveId` code), for the exchange's message.
    pub part_routine: AtomicU32,
    /// Where this PE is in a collective made by MPI's own call instead of an exchange round (a
    /// sum of reals over the PEs of one node), 0 when in none: the number of such calls it has
    /// entered (this one included) in the high word, the exchange round it stands in place of in
    /// the low word. A PE waiting in that round for this one, which has made fewer such calls, is
    /// in another call (`Collectives::own_call`).
    pub own_call_at: AtomicU64,
    /// That call (a `CallEntry`'s words), written before `own_call_at`.
    pub own_call: [AtomicU32; OWN_CALL_WORDS],
}

/// Words of the call in `PeBlock::own_call`.
pub const OWN_CALL_WORDS: usize = crate::core::collectives::call_log::ENTRY_BYTES / 4;

/// Sizes of the parts of a job segment for `npes` PEs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct JobLayout {
    pub npes: usize,
    pub barrier: usize,
    pub pe_blocks: usize,
    pub mailboxes: usize,
    pub rounds: usize,
    pub total: usize,
}

impl JobLayout {
    pub fn new(npes: usize) -> Self {
        let barrier = PAGE;
        let pe_blocks = barrier + barrier_bytes(npes).next_multiple_of(PAGE);
        let mailboxes = pe_blocks + (npes * size_of::<PeBlock>()).next_multiple_of(PAGE);
        let rounds = mailboxes + npes * MAILBOX_BYTES;
        let total = rounds + rounds_bytes(npes).next_multiple_of(PAGE);
        JobLayout { npes, barrier, pe_blocks, mailboxes, rounds, total }
    }
}

/// A mapped job segment.
pub struct JobSegment {
    region: SharedRegion,
    layout: JobLayout,
}

// SAFETY: the segment is plain shared memory; all shared mutable state in it is accessed
// through atomics, and mailboxes are only accessed between barriers (see `Collectives`).
unsafe impl Send for JobSegment {}
// SAFETY: as above; `&JobSegment` only exposes atomics and raw mailbox pointers.
unsafe impl Sync for JobSegment {}

impl JobSegment {
    /// Creates and initialises the segment `name` for `npes` PEs (the launcher's side).
    pub fn create(name: &str, npes: usize, launcher_pid: u32) -> Result<Self> {
        if npes == 0 || npes > MAX_PES {
            return Err(Error::Limit(format!("{npes} PEs: the shared-memory transport takes 1 to {MAX_PES} PEs")));
        }
        let layout = JobLayout::new(npes);
        let region = SharedRegion::create(name, layout.total)?;
        Ok(Self::initialise(region, layout, launcher_pid))
    }

    /// A private segment for a program started without the launcher (a job of one PE).
    pub fn private() -> Result<Self> {
        let layout = JobLayout::new(1);
        let region = SharedRegion::anonymous(layout.total)?;
        Ok(Self::initialise(region, layout, std::process::id()))
    }

    fn initialise(region: SharedRegion, layout: JobLayout, launcher_pid: u32) -> Self {
        let header = JobHeader {
            magic: JOB_MAGIC,
            version: JOB_VERSION,
            npes: layout.npes as u32,
            header_bytes: size_of::<JobHeader>() as u32,
            pe_block_bytes: size_of::<PeBlock>() as u32,
            mailbox_bytes: MAILBOX_BYTES as u32,
            launcher_pid,
            total_bytes: layout.total as u64,
            dead_pe: AtomicU32::new(0),
            left_waiters: AtomicU32::new(0),
        };
        const { assert!(size_of::<JobHeader>() <= PAGE) };
        // SAFETY: the region is at least layout.total > PAGE >= size_of::<JobHeader>() bytes,
        // page-aligned, freshly created and zero-filled (so is the barrier after the header),
        // and nobody else maps it yet.
        unsafe { (region.as_ptr() as *mut JobHeader).write(header) };
        JobSegment { region, layout }
    }

    /// A segment with no name (memfd) for `npes` PEs, and the descriptor other processes open it
    /// by ([`JobSegment::attach_peer`]) while it stays open: nothing in /dev/shm, whatever ends
    /// the job.
    pub fn create_anonymous(npes: usize, launcher_pid: u32) -> Result<(Self, OwnedFd)> {
        if npes == 0 || npes > MAX_PES {
            return Err(Error::Limit(format!("{npes} PEs: the shared-memory transport takes 1 to {MAX_PES} PEs")));
        }
        let layout = JobLayout::new(npes);
        let made = AnonymousRegion::create(layout.total)?;
        Ok((Self::initialise(made.region, layout, launcher_pid), made.fd))
    }

    /// Maps the anonymous segment process `pid` holds open as `fd` (see `create_anonymous`).
    pub fn attach_peer(pid: u32, fd: i32, npes: usize) -> Result<Self> {
        Self::check_npes(npes)?;
        let layout = JobLayout::new(npes);
        Self::checked(region::open_peer(pid, fd, layout.total)?, layout, &format!("of process {pid}"))
    }

    fn check_npes(npes: usize) -> Result<()> {
        if npes == 0 || npes > MAX_PES {
            return Err(Error::SharedMemory(format!("{ENV_NPES}={npes} is outside 1 to {MAX_PES}")));
        }
        Ok(())
    }

    /// Maps the launcher's segment `name` and checks its header before trusting any of it.
    pub fn attach(name: &str, npes: usize) -> Result<Self> {
        Self::check_npes(npes)?;
        let layout = JobLayout::new(npes);
        Self::checked(SharedRegion::open(name, layout.total)?, layout, name)
    }

    /// The segment in `region`, once its header says it is one of `layout`.
    fn checked(region: SharedRegion, layout: JobLayout, name: &str) -> Result<Self> {
        let npes = layout.npes;
        let seg = JobSegment { region, layout };
        let h = seg.header();
        let expected = (
            JOB_MAGIC,
            JOB_VERSION,
            npes as u32,
            size_of::<JobHeader>() as u32,
            size_of::<PeBlock>() as u32,
            MAILBOX_BYTES as u32,
            layout.total as u64,
        );
        let found = (h.magic, h.version, h.npes, h.header_bytes, h.pe_block_bytes, h.mailbox_bytes, h.total_bytes);
        if found != expected {
            return Err(Error::SharedMemory(format!(
                "job segment {name} has an unexpected header (magic/version/layout {found:x?}, expected {expected:x?})"
            )));
        }
        Ok(seg)
    }

    fn header(&self) -> &JobHeader {
        // SAFETY: the region starts with a JobHeader (written by `initialise`, checked by
        // `attach`); it is page-aligned, at least a page long, and lives as long as `self`.
        unsafe { &*(self.region.as_ptr() as *const JobHeader) }
    }

    /// The barrier of all the job's PEs.
    pub fn barrier(&self) -> Barrier<'_> {
        // SAFETY: the layout gives the barrier barrier_bytes(npes) bytes at a page-aligned
        // offset, zero-filled at creation, used for nothing else; they live as long as `self`.
        unsafe { Barrier::at(self.region.as_ptr().add(self.layout.barrier), self.layout.npes) }
    }

    /// The PEs that have not reached job-barrier `round` yet.
    pub fn late_for_barrier(&self, round: u32) -> Vec<usize> {
        (0..self.npes()).filter(|&p| !epoch_reached(self.pe(p).barrier_round.load(Ordering::Relaxed), round)).collect()
    }

    /// The number of PEs of the job.
    pub fn npes(&self) -> usize {
        self.layout.npes
    }

    /// The pid of the launcher that created the segment (a job of one PE without launcher: its own).
    pub fn launcher_pid(&self) -> u32 {
        self.header().launcher_pid
    }

    /// The control block of PE `rank`.
    pub fn pe(&self, rank: usize) -> &PeBlock {
        assert!(rank < self.layout.npes, "rank {rank} outside the job");
        // SAFETY: rank < npes, so the block lies inside the region (layout computed from npes);
        // blocks are 128-byte aligned (page-aligned base + multiples of 128).
        unsafe { &*(self.region.as_ptr().add(self.layout.pe_blocks) as *const PeBlock).add(rank) }
    }

    /// The slots of the job's exchange rounds.
    pub fn rounds(&self) -> RoundSlots<'_> {
        // SAFETY: the layout gives the rounds rounds_bytes(npes) bytes at a page-aligned offset,
        // zero-filled at creation, used for nothing else; they live as long as `self`.
        unsafe { RoundSlots::at(self.region.as_ptr().add(self.layout.rounds), self.layout.npes) }
    }

    /// The mailbox of `rank`: MAILBOX_BYTES of shared memory.
    pub fn mailbox(&self, rank: usize) -> *mut u8 {
        assert!(rank < self.layout.npes, "rank {rank} outside the job");
        // SAFETY: inside the region by construction of the layout.
        unsafe { self.region.as_ptr().add(self.layout.mailboxes + rank * MAILBOX_BYTES) }
    }

    /// Takes `rank` for the calling process: refused when another process already took it
    /// (a second program started with the same job's environment must not act as that PE).
    pub fn claim(&self, rank: usize) -> Result<()> {
        let block = self.pe(rank);
        match block.state.compare_exchange(PeState::NotStarted as u32, PeState::Running as u32, Ordering::SeqCst, Ordering::SeqCst) {
            Ok(_) => {
                block.pid.store(std::process::id(), Ordering::Relaxed);
                Ok(())
            }
            Err(_) => Err(Error::SharedMemory(format!(
                "rank {rank} of this job is already taken (by process {})",
                block.pid.load(Ordering::Relaxed)
            ))),
        }
    }

    /// Sets the state of PE `rank`.
    pub fn set_state(&self, rank: usize, state: PeState) {
        let block = self.pe(rank);
        block.state.store(state as u32, Ordering::SeqCst);
        if state == PeState::Running {
            block.pid.store(std::process::id(), Ordering::Relaxed);
        }
    }

    /// The state of PE `rank`.
    pub fn state(&self, rank: usize) -> PeState {
        match self.pe(rank).state.load(Ordering::SeqCst) {
            1 => PeState::Running,
            2 => PeState::Finalized,
            3 => PeState::Exited,
            _ => PeState::NotStarted,
        }
    }

    /// Records that `rank` died (first death wins) and wakes every waiter so it notices.
    pub fn mark_dead(&self, rank: usize) {
        let _ = self.header().dead_pe.compare_exchange(0, rank as u32 + 1, Ordering::SeqCst, Ordering::SeqCst);
        self.set_state(rank, PeState::Exited);
        self.barrier().wake_all();
    }

    /// The first PE found dead, if any.
    pub fn dead_pe(&self) -> Option<usize> {
        match self.header().dead_pe.load(Ordering::SeqCst) {
            0 => None,
            r => Some(r as usize - 1),
        }
    }

    /// The first PE that exited while another waited for it (see `check_alive`), if any.
    pub fn left_waiters(&self) -> Option<usize> {
        match self.header().left_waiters.load(Ordering::SeqCst) {
            0 => None,
            r => Some(r as usize - 1),
        }
    }

    /// Liveness check used by waiters: fails once the job lost a PE or one of the `awaited`
    /// PEs left (ended or finalized).
    pub fn check_alive(&self, awaited: Awaited<'_>) -> Result<()> {
        if let Some(pe) = self.dead_pe() {
            return Err(Error::PeerGone { pe, how: "died; the job is ending" });
        }
        let left = |pe| match self.state(pe) {
            PeState::Exited => {
                let _ = self.header().left_waiters.compare_exchange(0, pe as u32 + 1, Ordering::SeqCst, Ordering::SeqCst);
                Err(Error::PeerGone { pe, how: "exited while others wait for it" })
            }
            PeState::Finalized => Err(Error::PeerGone { pe, how: "called RPN_COMM_finalize while others wait for it" }),
            _ => Ok(()),
        };
        match awaited {
            Awaited::One(pe) => left(pe),
            Awaited::All => (0..self.npes()).try_for_each(left),
            Awaited::Members(pes) => pes.iter().try_for_each(|&pe| left(pe)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The MPI transport's node segment: no name, reached through /proc/<pid>/fd while its maker
    /// holds the descriptor; a segment of another size is refused.
    #[test]
    fn anonymous_segment_is_shared_through_its_descriptor() {
        let (job, fd) = JobSegment::create_anonymous(3, 42).unwrap();
        let raw = std::os::fd::AsRawFd::as_raw_fd(&fd);
        let other = JobSegment::attach_peer(std::process::id(), raw, 3).unwrap();
        job.claim(1).unwrap();
        assert_eq!(other.state(1), PeState::Running);
        assert_eq!(other.launcher_pid(), 42);
        assert!(JobSegment::attach_peer(std::process::id(), raw, 5).is_err());
    }

    #[test]
    fn layout_is_page_aligned_and_grows_with_pes() {
        let a = JobLayout::new(1);
        let b = JobLayout::new(16);
        assert_eq!(a.mailboxes % PAGE, 0);
        assert!(b.total > a.total);
        assert_eq!(size_of::<PeBlock>(), 128);
    }

    #[test]
    fn create_attach_and_reject_bad_header() {
        let name = format!("rpncomm-test-{}-job", std::process::id());
        let seg = JobSegment::create(&name, 3, 42).unwrap();
        let other = JobSegment::attach(&name, 3).unwrap();
        assert_eq!(other.launcher_pid(), 42);
        assert!(JobSegment::attach(&name, 2).is_err(), "npes must match");
        other.claim(1).unwrap();
        assert_eq!(seg.state(1), PeState::Running);
        assert!(seg.claim(1).is_err(), "a rank is taken once");
        assert!(seg.check_alive(Awaited::One(1)).is_ok());
        seg.mark_dead(2);
        assert_eq!(other.dead_pe(), Some(2));
        assert!(other.check_alive(Awaited::All).is_err());
        // Corrupt the magic: attach must refuse.
        // SAFETY: test-only write into the mapped header of a segment we own.
        unsafe { (seg.region.as_ptr() as *mut u64).write(0x1234) };
        assert!(JobSegment::attach(&name, 3).is_err());
        super::super::region::unlink(&name);
    }
}
