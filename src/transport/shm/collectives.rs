//! Job-wide collectives over the job segment: barrier and allgather through the per-PE
//! mailboxes. (Communicators other than the job, and the collective creation of shared
//! regions, are in `group`.)

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use super::job::{Awaited, JobSegment, MAILBOX_BYTES};
use super::part_entries::PartEntries;
pub use super::part_entries::PartOf;
use super::rounds::{BLOCK_BYTES, RoundSlots};
use super::spin;
use super::wait::{WaitContext, epoch_reached};
use crate::core::collectives::call_log::ENTRY_BYTES;
use crate::diagnostics::{self, list_pes};
use crate::error::{Error, Result};
use crate::transport::Toward;

pub struct Collectives {
    pub job: Arc<JobSegment>,
    pub rank: usize,
    pub npes: usize,
    /// How long a waiter spins before it yields and sleeps.
    pub spin: Duration,
    /// Number of barriers this PE has entered (process-local).
    barrier_round: AtomicU32,
    /// Number of exchange rounds this PE has made (`rounds`; process-local).
    exchange_round: AtomicU32,
    /// What waits on this job keep doing (`keep_progressing`).
    progress: OnceLock<Box<dyn Fn() + Send + Sync>>,
    /// This PE's parts of splits and its entries into their collectives (`register_part`,
    /// `announce_entry`).
    parts: PartEntries,
    /// Where this communicator's entries are announced, when it is a part of a split whose
    /// collectives have a segment of their own (the MPI transport's communicators of a node).
    announce_to: OnceLock<PartOf>,
    /// Entries into this communicator's collectives (barriers and exchange rounds), for `announce_to`.
    entries: AtomicU32,
    /// Collectives made by MPI's own call this PE has entered (`own_call`; process-local).
    own_calls: AtomicU32,
    /// Who reads this PE's slot of the rounds of each parity (`Readers`), and whom it read in
    /// its last round: what `slot_free` needs to know before the slot is written again.
    slot_readers: [AtomicU32; 2],
    last_read: AtomicU32,
}

/// Whom a PE's block of a round is read by, or whom a PE read in a round (`Collectives::round`):
/// nobody, every PE, or the PE of rank r (`one_pe`).
mod readers {
    pub const NOBODY: u32 = 0;
    pub const EVERY_PE: u32 = u32::MAX;
    pub fn one_pe(rank: usize) -> u32 {
        rank as u32 + 1
    }
}
use readers::{EVERY_PE, NOBODY, one_pe};

impl Collectives {
    /// The collectives of `job` for its PE `rank`. Whether the PEs have a CPU each (then
    /// waiters spin before they sleep): as rpnrun says (`RPNCOMM_CORE_EACH`, it binds the PEs),
    /// else whether they are no more than this process's CPUs.
    pub fn new(job: Arc<JobSegment>, rank: usize) -> Self {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let core_each = std::env::var("RPNCOMM_CORE_EACH").is_ok_and(|v| v == "1") || job.npes() <= cores;
        Self::with_cores(job, rank, core_each)
    }

    /// The same, told whether the PEs have a CPU each (the MPI transport learns it from the
    /// CPU masks of the node's PEs: mpirun binds each to CPUs of its own).
    pub fn with_cores(job: Arc<JobSegment>, rank: usize, core_each: bool) -> Self {
        let npes = job.npes();
        // With a core each, a spin catches the peer's answer without a system call (and gives
        // the core up as soon as another process wants it, see `wait`); oversubscribed, the
        // peer needs our core, so give it up at once.
        let default = if core_each { spin::SPIN_WITH_A_CORE } else { Duration::ZERO };
        let spin = std::env::var("RPNCOMM_SPIN_US").ok().and_then(|s| s.parse().ok()).map_or(default, Duration::from_micros);
        Collectives {
            job,
            rank,
            npes,
            spin,
            barrier_round: AtomicU32::new(0),
            exchange_round: AtomicU32::new(0),
            progress: OnceLock::new(),
            parts: PartEntries::default(),
            announce_to: OnceLock::new(),
            entries: AtomicU32::new(0),
            own_calls: AtomicU32::new(0),
            slot_readers: [AtomicU32::new(NOBODY), AtomicU32::new(NOBODY)],
            last_read: AtomicU32::new(NOBODY),
        }
    }

    /// Records that this PE is in the part of split `split` whose first member is `first`
    /// (before any collective of it), so that a peer's entry into it is recognised.
    pub fn register_part(&self, split: u32, first: usize, name: &'static str) {
        self.parts.register(split, first, name);
    }

    /// This PE enters its `entries`-th collective on the part `first` of split `split`: the
    /// halo exchanges of its neighbours see it (`in_part_collective_without_me`).
    pub fn announce_entry(&self, split: u32, first: usize, entries: u32) {
        self.parts.announce(self.job.pe(self.rank), split, first, entries);
    }

    /// Whether `peer` entered a collective of a part this PE is in that this PE has not entered
    /// (`PartEntries::ahead`): its routine and the part's name ("RPN_COMM_allreduce on EW").
    pub fn in_part_collective_without_me(&self, peer: usize) -> Option<String> {
        self.parts.ahead(self.job.pe(peer))
    }

    /// This PE enters (`Some`: the call, `CallEntry::to_bytes`) or leaves (None) a collective of
    /// this communicator made by MPI's own call where the other PEs make this call as an exchange
    /// round (a sum of reals over the PEs of one node: the MPI transport). A PE waiting in that
    /// round instead is in another call, and learns it (`peer_in_own_call`), as the halo
    /// exchanges of its neighbours do (`announce_entry`, `channel::elsewhere`): two stores of
    /// this PE's block and the call's words, nothing that grows with the PE count.
    #[cfg_attr(not(feature = "mpi"), allow(dead_code, reason = "the MPI transport's reductions of a node"))]
    pub fn own_call(&self, call: Option<&[u8; ENTRY_BYTES]>) {
        let block = self.job.pe(self.rank);
        let Some(call) = call else {
            block.own_call_at.store(0, Ordering::Release);
            return;
        };
        self.entering();
        for (word, bytes) in block.own_call.iter().zip(call.chunks_exact(4)) {
            word.store(u32::from_ne_bytes(bytes.try_into().expect("4 bytes")), Ordering::Relaxed);
        }
        let count = self.own_calls.fetch_add(1, Ordering::Relaxed).wrapping_add(1);
        // (a count of 0, once in 2^32 calls, reads as none: that call goes unseen)
        let round = self.exchange_round.load(Ordering::Relaxed).wrapping_add(1);
        block.own_call_at.store(u64::from(count) << 32 | u64::from(round), Ordering::Release);
    }

    /// Whether `peer` is in a collective made by MPI's own call that this PE has not entered
    /// (it may still be in one this PE has left: MPI lets PEs leave a call at different times);
    /// then the exchange round it stands in place of.
    pub fn peer_own_call_round(&self, peer: usize) -> Option<u32> {
        let at = self.job.pe(peer).own_call_at.load(Ordering::Acquire);
        let count = (at >> 32) as u32;
        (count != 0 && epoch_reached(count, self.own_calls.load(Ordering::Relaxed).wrapping_add(1))).then_some(at as u32)
    }

    /// An error when `peer` is in a collective made by MPI's own call, which this PE has not
    /// entered, where this PE waits for its exchange round `round` (`own_call`): the peer's call.
    fn peer_in_own_call(&self, peer: usize, round: u32) -> Result<()> {
        if self.peer_own_call_round(peer) != Some(round) {
            return Ok(());
        }
        let mut call = [0u8; ENTRY_BYTES];
        for (bytes, word) in call.chunks_exact_mut(4).zip(&self.job.pe(peer).own_call) {
            bytes.copy_from_slice(&word.load(Ordering::Relaxed).to_ne_bytes());
        }
        Err(Error::PeerInOwnCall { pe: peer, call })
    }

    /// Makes this communicator's collectives announce their entries on `part.home` (a part of a
    /// split with a segment of its own); once.
    #[cfg_attr(not(feature = "mpi"), allow(dead_code, reason = "the MPI transport's communicators of a node"))]
    pub fn announce_on(&self, part: PartOf) {
        part.home.register_part(part.split, part.first, part.name);
        let _ = self.announce_to.set(part);
    }

    /// One more entry into this communicator's collectives, announced where `announce_on` says.
    fn entering(&self) {
        if let Some(part) = self.announce_to.get() {
            let entries = self.entries.fetch_add(1, Ordering::Relaxed).wrapping_add(1);
            part.home.announce_entry(part.split, part.first, entries);
        }
    }

    /// Makes every wait on this job call `progress` over and over (once set, for good): the
    /// MPI transport's node jobs keep MPI progressing, since PEs of other nodes may need this
    /// one to act inside MPI while it waits here.
    #[cfg_attr(not(feature = "mpi"), allow(dead_code))]
    pub fn keep_progressing(&self, progress: Box<dyn Fn() + Send + Sync>) {
        let _ = self.progress.set(progress);
    }

    /// Runs `f` with a wait context whose liveness check watches the job and `awaited`
    /// (plus `extra_check`), and whose hang report says `waiting_for`.
    pub fn with_wait<T>(
        &self,
        awaited: Awaited<'_>,
        waiting_for: &dyn Fn() -> String,
        extra_check: Option<&dyn Fn() -> Result<()>>,
        f: impl FnOnce(&WaitContext<'_>) -> Result<T>,
    ) -> Result<T> {
        let alive = || {
            self.job.check_alive(awaited)?;
            extra_check.map_or(Ok(()), |check| check())
        };
        let progress = self.progress.get().map(|p| &**p as &dyn Fn());
        f(&WaitContext { alive: &alive, spin: self.spin, waiting_for: Some(waiting_for), progress })
    }

    /// Blocks until every PE of the job has called it (the tree barrier of the job segment).
    pub fn barrier(&self) -> Result<()> {
        self.entering();
        let round = self.barrier_round.fetch_add(1, Ordering::Relaxed).wrapping_add(1);
        // (Release: a message this PE posted before is seen with it, see `elsewhere`)
        self.job.pe(self.rank).barrier_round.store(round, Ordering::Release);
        let late = || {
            let pes = list_pes(&self.job.late_for_barrier(round));
            format!("{pes} to reach the same collective call{} (job barrier {round})", diagnostics::on_subject())
        };
        self.with_wait(Awaited::All, &late, None, |ctx| self.job.barrier().arrive_and_wait(round, self.rank, ctx))
    }

    /// Every PE contributes `mine`; `all` receives the contributions in rank order, in blocks of
    /// `all.len()` / PEs bytes. Blocks that fit a round (`rounds::BLOCK_BYTES`, every collective
    /// of a few values) are one exchange round, and may be shorter than `all`'s: each PE's is
    /// copied as long as it was published, and never past `all`'s block (the rest of it keeps
    /// what it held), so a PE whose block is shorter than the others' reads theirs whole where
    /// its `all` has room, else what its own blocks hold (the runtime's headers at their start
    /// say which); no PE waits for a round the others do not make. A longer block goes through
    /// the mailboxes, a mailbox's worth between two barriers, as long as `all`'s.
    pub fn allgather(&self, mine: &[u8], all: &mut [u8]) -> Result<()> {
        let n = mine.len();
        let stride = all.len() / self.npes;
        if stride * self.npes != all.len() || n > stride || (n != stride && stride > BLOCK_BYTES) {
            return Err(Error::Internal(format!("allgather of {n} bytes into {} for {} PEs", all.len(), self.npes)));
        }
        if stride <= BLOCK_BYTES {
            return self.exchange_round(mine, all);
        }
        let mut start = 0;
        while start < n {
            let len = MAILBOX_BYTES.min(n - start);
            // SAFETY: our mailbox holds MAILBOX_BYTES >= len bytes; between the previous
            // barrier and the next one only this PE accesses it.
            unsafe { std::ptr::copy_nonoverlapping(mine[start..].as_ptr(), self.job.mailbox(self.rank), len) };
            self.barrier()?;
            for p in 0..self.npes {
                let dst = &mut all[p * n + start..p * n + start + len];
                // SAFETY: mailbox p holds len bytes written before the barrier; nobody writes
                // mailboxes until the next barrier.
                unsafe { std::ptr::copy_nonoverlapping(self.job.mailbox(p), dst.as_mut_ptr(), len) };
            }
            self.barrier()?;
            start += len;
        }
        Ok(())
    }

    /// One exchange round (`rounds`): `mine` published, every other PE's block read as soon as
    /// it is there.
    fn exchange_round(&self, mine: &[u8], all: &mut [u8]) -> Result<()> {
        self.round(mine, all, EVERY_PE, EVERY_PE)
    }

    /// The round of a rooted collective: every PE publishes `mine` (its call's header, read by
    /// a PE in another call, and its data); toward the root, the root reads every PE's block and
    /// the others none, as MPI_Reduce's and MPI_Gather's senders leave before the root has
    /// them; from the root, every other PE reads the root's block, which the root leaves
    /// behind, as MPI_Bcast's root does. `all` has a block of `all.len() / PEs` bytes per PE, in
    /// rank order, for what this PE reads (and its own). A PE reads no more than one round
    /// behind the PEs that do not wait for it (`slot_free`). Where the root may be in MPI's own
    /// call instead (`own_call`), which a sender would not see, a sender waits until the root
    /// entered the round (`senders_meet_root`): not until it has read them.
    pub fn rooted_round(&self, mine: &[u8], all: &mut [u8], root: usize, toward: Toward, senders_meet_root: bool) -> Result<()> {
        let (read, read_by) = match (toward, self.rank == root) {
            (Toward::Root, true) => (EVERY_PE, NOBODY),
            (Toward::Root, false) => (if senders_meet_root { one_pe(root) } else { NOBODY }, one_pe(root)),
            (Toward::Others, true) => (NOBODY, EVERY_PE),
            (Toward::Others, false) => (one_pe(root), NOBODY),
        };
        self.round(mine, all, read, read_by)
    }

    /// A round (`rounds`) in which this PE publishes `mine` for the PEs `read_by` and reads the
    /// blocks of the PEs `read` into `all` (`readers`).
    fn round(&self, mine: &[u8], all: &mut [u8], read: u32, read_by: u32) -> Result<()> {
        let stride = all.len() / self.npes;
        if mine.len() > stride {
            return Err(Error::Internal(format!("a round of {} bytes into blocks of {stride}", mine.len())));
        }
        self.entering();
        // (a load and a store, not an atomic add: one thread at a time makes this PE's rounds,
        // which every PE makes in the same order)
        let round = self.exchange_round.load(Ordering::Relaxed).wrapping_add(1);
        self.exchange_round.store(round, Ordering::Relaxed);
        self.job.pe(self.rank).exchange_round.store(round, Ordering::Release);
        let slots = self.job.rounds();
        self.slot_free(&slots, round)?;
        slots.publish(self.rank, round, mine);
        all[self.rank * stride..][..mine.len()].copy_from_slice(mine);
        let reads = |p: usize| p != self.rank && (read == EVERY_PE || read == one_pe(p));
        for p in (0..self.npes).filter(|&p| reads(p)) {
            self.wait_for_round(&slots, p, round, &mut all[p * stride..(p + 1) * stride])?;
        }
        self.slot_readers[(round & 1) as usize].store(read_by, Ordering::Relaxed);
        self.last_read.store(read, Ordering::Relaxed);
        Ok(())
    }

    /// Waits until PE `p` published `round`, then copies its block into `out` (`RoundSlots::read`).
    fn wait_for_round(&self, slots: &RoundSlots<'_>, p: usize, round: u32, out: &mut [u8]) -> Result<()> {
        let late = || format!("PE {p} to reach the same collective call{} (exchange round {round})", diagnostics::on_subject());
        let own_call = || self.peer_in_own_call(p, round);
        self.with_wait(Awaited::One(p), &late, Some(&own_call), |ctx| slots.read(p, round, ctx, out).map(drop))
    }

    /// Before this PE writes its slot of `round` (which held its block of `round` - 2): every PE
    /// that reads that block has published `round` - 1, so has read it. Known without a look
    /// where this PE read those PEs' blocks of `round` - 1 (every exchange round); else (after a
    /// round in which it read less, the senders of a rooted collective and a broadcast's root)
    /// this PE waits for them: it runs at most one round ahead of them.
    fn slot_free(&self, slots: &RoundSlots<'_>, round: u32) -> Result<()> {
        let readers = self.slot_readers[(round & 1) as usize].load(Ordering::Relaxed);
        let read = self.last_read.load(Ordering::Relaxed);
        if readers == NOBODY || read == EVERY_PE || readers == read {
            return Ok(());
        }
        let before = round.wrapping_sub(1);
        for p in (0..self.npes).filter(|&p| p != self.rank && one_pe(p) != read && (readers == EVERY_PE || readers == one_pe(p))) {
            self.wait_for_round(slots, p, before, &mut [])?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two PEs of one row (split 1, first member 0): the entries of one ahead of the other's are
    /// seen by the other, with the routine and the row's name, until it enters too; a part this
    /// PE is not in, or another split, is not its business.
    #[test]
    fn a_peer_ahead_in_a_row_of_both_is_seen_until_this_pe_enters_too() {
        let (job, fd) = JobSegment::create_anonymous(3, 42).unwrap();
        let other = JobSegment::attach_peer(std::process::id(), std::os::fd::AsRawFd::as_raw_fd(&fd), 3).unwrap();
        let (me, peer) = (Collectives::with_cores(Arc::new(job), 0, false), Collectives::with_cores(Arc::new(other), 1, false));
        for c in [&me, &peer] {
            c.register_part(1, 0, "EW");
        }
        assert_eq!(me.in_part_collective_without_me(1), None, "nobody entered");
        let _routine = diagnostics::enter("RPN_COMM_allreduce");
        peer.announce_entry(1, 0, 1);
        assert_eq!(me.in_part_collective_without_me(1).as_deref(), Some("RPN_COMM_allreduce on EW"));
        me.announce_entry(1, 0, 1);
        assert_eq!(me.in_part_collective_without_me(1), None, "both entered it: in step");
        peer.announce_entry(2, 7, 5);
        assert_eq!(me.in_part_collective_without_me(1), None, "a split this PE has no part of");
        peer.register_part(3, 1, "NS");
        me.register_part(3, 0, "NS");
        peer.announce_entry(3, 1, 1);
        assert_eq!(me.in_part_collective_without_me(1), None, "another part of the split");
    }

    /// A rooted round toward PE 0: PE 1 leaves each round as soon as its block is out, and runs
    /// at most one round ahead of the root (it waits before it would overwrite a block the root
    /// has not read); the root reads each of PE 1's blocks as it was in its round. From the root:
    /// PE 1 reads the root's block, the root leaves at once.
    #[test]
    fn a_rooted_round_lets_the_senders_run_one_round_ahead_of_the_root() {
        let (job, fd) = JobSegment::create_anonymous(2, 44).unwrap();
        let other = JobSegment::attach_peer(std::process::id(), std::os::fd::AsRawFd::as_raw_fd(&fd), 2).unwrap();
        let (root, sender) = (Collectives::with_cores(Arc::new(job), 0, false), Collectives::with_cores(Arc::new(other), 1, false));
        let done = AtomicU32::new(0);
        std::thread::scope(|s| {
            s.spawn(|| {
                for round in 1..=3u8 {
                    sender.rooted_round(&[round; 8], &mut [0; 16], 0, Toward::Root, false).unwrap();
                    done.store(u32::from(round), Ordering::Release);
                }
            });
            std::thread::sleep(Duration::from_millis(50));
            assert_eq!(done.load(Ordering::Acquire), 2, "round 3 waits until the root made round 2");
            for round in 1..=3u8 {
                let mut all = [0u8; 16];
                root.rooted_round(&[0; 8], &mut all, 0, Toward::Root, false).unwrap();
                assert_eq!(all[8..], [round; 8], "PE 1's block of round {round}");
            }
        });
        assert_eq!(done.load(Ordering::Acquire), 3);
        root.rooted_round(&[9; 8], &mut [0; 16], 0, Toward::Others, false).unwrap();
        let mut all = [0u8; 16];
        sender.rooted_round(&[0; 8], &mut all, 0, Toward::Others, false).unwrap();
        assert_eq!(all[..8], [9; 8], "the root's block");
    }

    /// An exchange round whose blocks are shorter than `all`'s: each PE's block is copied as long
    /// as it was published, `all` keeping what it held past it; a block as long as `all`'s
    /// is read whole, a longer one refused.
    #[test]
    fn a_round_copies_each_block_as_long_as_it_was_published() {
        let (job, fd) = JobSegment::create_anonymous(2, 45).unwrap();
        let other = JobSegment::attach_peer(std::process::id(), std::os::fd::AsRawFd::as_raw_fd(&fd), 2).unwrap();
        let (first, second) = (Collectives::with_cores(Arc::new(job), 0, false), Collectives::with_cores(Arc::new(other), 1, false));
        std::thread::scope(|s| {
            s.spawn(|| {
                let mut all = [0xee_u8; 48];
                second.allgather(&[2; 16], &mut all).unwrap();
                assert_eq!(all[..8], [1; 8], "PE 0's 8 bytes");
                assert_eq!(all[8..24], [0xee; 16], "past them, what the buffer held");
                assert_eq!(all[24..40], [2; 16]);
            });
            let mut all = [0xee_u8; 32];
            first.allgather(&[1; 8], &mut all).unwrap();
            assert_eq!(all[16..], [2; 16], "PE 1's 16 bytes, whole");
        });
        assert!(first.allgather(&[1; 40], &mut [0; 64]).is_err(), "a block longer than the buffer's");
    }

    /// A peer in a collective made by MPI's own call is seen by a PE waiting for the exchange
    /// round it would have made there, with its call, while it is in it; not by a PE at another round.
    #[test]
    fn a_peer_in_mpis_own_call_is_seen_at_the_round_it_stands_for() {
        let (job, fd) = JobSegment::create_anonymous(2, 43).unwrap();
        let other = JobSegment::attach_peer(std::process::id(), std::os::fd::AsRawFd::as_raw_fd(&fd), 2).unwrap();
        let (me, peer) = (Collectives::with_cores(Arc::new(job), 0, false), Collectives::with_cores(Arc::new(other), 1, false));
        let call: [u8; ENTRY_BYTES] = std::array::from_fn(|i| i as u8 + 1);
        assert_eq!(me.peer_in_own_call(1, 1), Ok(()), "in no call");
        peer.own_call(Some(&call));
        assert_eq!(me.peer_in_own_call(1, 1), Err(Error::PeerInOwnCall { pe: 1, call }));
        assert_eq!(me.peer_in_own_call(1, 2), Ok(()), "another round");
        me.own_call(Some(&call));
        me.own_call(None);
        assert_eq!(me.peer_in_own_call(1, 1), Ok(()), "a call this PE made and left: the peer is leaving it too");
        peer.own_call(None);
        peer.own_call(Some(&call));
        assert_eq!(me.peer_in_own_call(1, 1), Err(Error::PeerInOwnCall { pe: 1, call }), "its second");
        peer.own_call(None);
        assert_eq!(me.peer_in_own_call(1, 1), Ok(()), "it left the call");
    }
}
