//! A communicator of the shared-memory transport as one PE uses it: its members (job ranks in
//! communicator-rank order), this PE's index among them, and its collectives.
//!
//! - The job's barrier is the job segment's. The communicators of one `split` (the rows of the
//!   grid, say) share one region made for that split, holding one barrier per part (the barrier
//!   type of `barrier`, sized for the part's members, used through its members count and this
//!   PE's rank in the part), laid out in the order of the parts' first members, and one round
//!   word per PE (each PE is in at most one part), read only to say who is late in the report
//!   of a hang.
//! - Allgather goes through the job's per-PE mailboxes: a PE writes only its own, at the start
//!   of a collective, and reads those of its communicator's members between two barriers of
//!   that communicator, in which all of them take part. So a PE never writes its mailbox while
//!   a member of another communicator of it reads it, and the collectives of disjoint
//!   communicators (two rows) run at the same time without waiting for each other.
//! - Waits watch the members only: a PE that finalized outside the communicator does not end
//!   them; a dead PE anywhere still ends the job.

use std::sync::Arc;
// Plain atomics: the round words are only read for messages, and the counter is this PE's own
// (the barrier's protocol, in `barrier`, uses the model-checked ones of `sync`).
use std::sync::atomic::{AtomicU32, Ordering};

use super::barrier::{Barrier, barrier_bytes};
use super::collectives::Collectives;
use super::job::{Awaited, MAILBOX_BYTES};
use super::region::{self, SharedRegion};
use super::wait::{WaitContext, epoch_reached};
use crate::diagnostics::{self, list_pes};
use crate::error::{Error, Result};
use crate::transport::Toward;

const SPLIT_MAGIC: u64 = u64::from_le_bytes(*b"RPNCSPL\x01");
const PAGE: usize = 4096;
/// Bytes between two PEs' round words (each on its own cache line).
const ROUND_STRIDE: usize = 64;
/// Bytes of the reason the creating PE gives the others when it cannot create a region.
const REASON_BYTES: usize = 256;

/// Byte offsets in the region of a split of a job of `npes` PEs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SplitLayout {
    /// (first member, offset of its barrier) of every part, by first member.
    barriers: Vec<(usize, usize)>,
    rounds: usize,
    pub total: usize,
}

impl SplitLayout {
    /// `parts`: (first member, members) of every part, each once.
    pub fn new(npes: usize, parts: &[(usize, usize)]) -> Self {
        let mut parts = parts.to_vec();
        parts.sort_unstable();
        let mut next = PAGE;
        let barriers = parts
            .iter()
            .map(|&(first, members)| {
                let at = next;
                // barrier_bytes is a multiple of the barrier's 128-byte lines: the next stays aligned.
                next += barrier_bytes(members);
                (first, at)
            })
            .collect();
        let rounds = next.next_multiple_of(PAGE);
        SplitLayout { barriers, rounds, total: rounds + (npes * ROUND_STRIDE).next_multiple_of(PAGE) }
    }

    /// Offset of the barrier of the part whose first member is `first`.
    fn barrier_of(&self, first: usize) -> Option<usize> {
        self.barriers.binary_search_by_key(&first, |&(f, _)| f).ok().map(|i| self.barriers[i].1)
    }
}

/// Where a communicator's barrier lives.
enum BarrierPlace {
    /// The job's barrier, in the job segment.
    Job,
    /// A part of a split: its barrier in the split's region (found by its first member).
    Split { region: Arc<SharedRegion>, layout: SplitLayout },
}

pub struct Group {
    pub coll: Arc<Collectives>,
    /// Job ranks of the members, in communicator-rank order.
    members: Arc<[usize]>,
    /// This PE's rank in the communicator.
    index: usize,
    /// The communicator's name, for messages (" of EW").
    name: Option<&'static str>,
    place: BarrierPlace,
    /// Barriers this PE has entered on this communicator (every member goes through the same
    /// rounds in the same order, so the numbers agree).
    rounds: AtomicU32,
    /// The number of the split this communicator is a part of (0: the job), under which its
    /// barriers are announced to the halo exchanges (`Collectives::announce_entry`).
    split: u32,
}

impl Group {
    /// The whole job.
    pub fn job(coll: Arc<Collectives>) -> Self {
        let members: Arc<[usize]> = (0..coll.npes).collect();
        let index = coll.rank;
        Group { coll, members, index, name: None, place: BarrierPlace::Job, rounds: AtomicU32::new(0), split: 0 }
    }

    /// Collective over the job (`job` is the job's group): makes the region of split number
    /// `number` (from 1, the same on every PE), in which every PE's part (`part`, job ranks,
    /// None for none) finds its barrier; returns this PE's part as a group.
    pub fn split(job: &Group, region_name: &str, number: u32, part: Option<&[usize]>, name: &'static str) -> Result<Option<Group>> {
        let me = job.coll.rank;
        let index = match part {
            Some(members) => Some(
                members.iter().position(|&m| m == me).ok_or_else(|| Error::Internal(format!("PE {me} is not in its part {members:?}")))?,
            ),
            None => None,
        };
        let npes = job.coll.npes;
        // Every PE tells its part's first member and size, so that all lay the parts out alike.
        let mine: Vec<u8> = match part {
            Some(members) => [members[0] as u32, members.len() as u32],
            None => [u32::MAX, 0],
        }
        .iter()
        .flat_map(|v| v.to_ne_bytes())
        .collect();
        let mut all = vec![0u8; 8 * npes];
        job.allgather(&mine, &mut all)?;
        let mut parts: Vec<(usize, usize)> = all
            .chunks_exact(8)
            .map(|c| (u32::from_ne_bytes(c[..4].try_into().unwrap()), u32::from_ne_bytes(c[4..].try_into().unwrap())))
            .filter(|&(first, _)| first != u32::MAX)
            .map(|(first, n)| (first as usize, n as usize))
            .collect();
        parts.sort_unstable();
        parts.dedup();
        if parts.windows(2).any(|w| w[0].0 == w[1].0) || parts.iter().any(|&(first, n)| first >= npes || n == 0 || n > npes) {
            return Err(Error::Internal(format!("the parts of a split disagree: {parts:?}")));
        }
        let layout = SplitLayout::new(npes, &parts);
        let region = Arc::new(job.create_region(region_name, layout.total, &[SPLIT_MAGIC, npes as u64, layout.total as u64])?);
        Ok(part.zip(index).map(|(members, index)| {
            job.coll.register_part(number, members[0], name);
            Group {
                coll: Arc::clone(&job.coll),
                members: members.into(),
                index,
                name: Some(name),
                place: BarrierPlace::Split { region, layout },
                rounds: AtomicU32::new(0),
                split: number,
            }
        }))
    }

    /// This PE's rank in the communicator.
    pub fn rank(&self) -> usize {
        self.index
    }

    /// Job ranks of the members, in communicator-rank order.
    pub fn members(&self) -> &[usize] {
        &self.members
    }

    /// Runs `f` waiting on member `rank` (a rank in the communicator).
    pub fn wait_for<T>(&self, rank: usize, waiting_for: &dyn Fn() -> String, f: impl FnOnce(&WaitContext<'_>) -> Result<T>) -> Result<T> {
        self.coll.with_wait(Awaited::One(self.members[rank]), waiting_for, None, f)
    }

    /// Runs `f` waiting on every member (plus `extra_check` while asleep).
    pub fn wait_for_all<T>(
        &self,
        waiting_for: &dyn Fn() -> String,
        extra_check: Option<&dyn Fn() -> Result<()>>,
        f: impl FnOnce(&WaitContext<'_>) -> Result<T>,
    ) -> Result<T> {
        match self.place {
            BarrierPlace::Job => self.coll.with_wait(Awaited::All, waiting_for, extra_check, f),
            BarrierPlace::Split { .. } => self.coll.with_wait(Awaited::Members(&self.members), waiting_for, extra_check, f),
        }
    }

    /// Blocks until every member has called it.
    pub fn barrier(&self) -> Result<()> {
        let BarrierPlace::Split { region, layout } = &self.place else { return self.coll.barrier() };
        let round = self.rounds.fetch_add(1, Ordering::Relaxed).wrapping_add(1);
        self.coll.announce_entry(self.split, self.members[0], round);
        let round_of = |job_rank: usize| {
            // SAFETY: job_rank < npes, so its word lies inside the rounds area of the region
            // (layout made for npes PEs), 64-byte aligned; zero-filled at creation.
            unsafe { AtomicU32::from_ptr(region.as_ptr().add(layout.rounds + job_rank * ROUND_STRIDE) as *mut u32) }
        };
        round_of(self.members[self.index]).store(round, Ordering::Relaxed);
        let at = layout.barrier_of(self.members[0]).ok_or_else(|| Error::Internal("no barrier for this part".into()))?;
        // SAFETY: the layout gives this part (and only it) barrier_bytes(members) bytes at `at`,
        // 128-byte aligned, inside the region, zero-filled at creation (a barrier before round 1).
        let barrier = unsafe { Barrier::at(region.as_ptr().add(at), self.members.len()) };
        let late = || {
            let late: Vec<usize> =
                self.members.iter().copied().filter(|&p| !epoch_reached(round_of(p).load(Ordering::Relaxed), round)).collect();
            format!(
                "{} (job ranks) to reach the same collective call{} (barrier {round} of {})",
                list_pes(&late),
                diagnostics::on_subject(),
                self.name.unwrap_or("the communicator")
            )
        };
        self.wait_for_all(&late, None, |ctx| barrier.arrive_and_wait(round, self.index, ctx))
    }

    /// The round of a rooted collective (`Transport::rooted_round`): the job's rounds, or, over
    /// the members of a split, its allgather (every member reads every block: true).
    pub fn rooted_round(&self, mine: &[u8], all: &mut [u8], root: usize, toward: Toward) -> Result<bool> {
        if let BarrierPlace::Job = self.place {
            return self.coll.rooted_round(mine, all, root, toward, false).map(|()| false);
        }
        self.allgather(mine, all).map(|()| true)
    }

    /// Every member contributes `mine`; `all` receives them in rank order, in blocks of
    /// `all.len()` / members bytes. A block may be shorter than `all`'s where those fit a
    /// mailbox: past it, `all` then gets what the member's mailbox held (the runtime's headers at
    /// the start of the blocks say how long each is), as in `Collectives::allgather`'s rounds.
    pub fn allgather(&self, mine: &[u8], all: &mut [u8]) -> Result<()> {
        if let BarrierPlace::Job = self.place {
            return self.coll.allgather(mine, all);
        }
        let (n, size) = (mine.len(), self.members.len());
        let stride = all.len() / size.max(1);
        if stride * size != all.len() || n > stride || (n != stride && stride > MAILBOX_BYTES) {
            return Err(Error::Internal(format!("allgather of {n} bytes into {} for {size} PEs", all.len())));
        }
        let job = &self.coll.job;
        let mut start = 0;
        while start < stride {
            let len = MAILBOX_BYTES.min(stride - start);
            // (a block shorter than the others' is written whole in the first of these: it fits)
            let own = n.saturating_sub(start).min(len);
            // SAFETY: our mailbox holds MAILBOX_BYTES >= own bytes; until the next barrier of
            // this communicator nobody reads it (see the module's notes).
            unsafe { std::ptr::copy_nonoverlapping(mine[start.min(n)..].as_ptr(), job.mailbox(self.coll.rank), own) };
            self.barrier()?;
            for (r, &p) in self.members.iter().enumerate() {
                let dst = &mut all[r * stride + start..r * stride + start + len];
                // SAFETY: mailbox p holds MAILBOX_BYTES >= len bytes, written by member p before
                // the barrier (its block) and written again only after the next barrier of this
                // communicator.
                unsafe { std::ptr::copy_nonoverlapping(job.mailbox(p), dst.as_mut_ptr(), len) };
            }
            self.barrier()?;
            start += len;
        }
        Ok(())
    }

    /// All-to-all through the mailboxes: `table[p * n + q]` is what member p sends member q
    /// (every member's row, the same table everywhere); this member's blocks lie one after the
    /// other in `send`, in rank order. Returns the blocks addressed to this member, in rank
    /// order. Each byte is copied twice (into the sender's mailbox, out of it by its receiver),
    /// a mailbox's worth per round, whatever the number of members.
    pub fn alltoallv(&self, send: &[u8], table: &[usize]) -> Result<Vec<u8>> {
        let n = self.members.len();
        let me = self.index;
        let row = |p: usize| &table[p * n..(p + 1) * n];
        let longest = (0..n).map(|p| row(p).iter().sum::<usize>()).max().unwrap_or(0);
        // where member p's block for this one starts in p's buffer, and where it goes here
        let from: Vec<usize> = (0..n).map(|p| row(p)[..me].iter().sum()).collect();
        let mut to = vec![0usize; n + 1];
        for p in 0..n {
            to[p + 1] = to[p] + row(p)[me];
        }
        let mut out = vec![0u8; to[n]];
        let job = &self.coll.job;
        let mut start = 0;
        while start < longest {
            let end = start + MAILBOX_BYTES;
            let mine = &send[start.min(send.len())..end.min(send.len())];
            // SAFETY: our mailbox holds MAILBOX_BYTES >= mine.len() bytes; until the next barrier
            // of this communicator nobody reads it (see the module's notes).
            unsafe { std::ptr::copy_nonoverlapping(mine.as_ptr(), job.mailbox(self.coll.rank), mine.len()) };
            self.barrier()?;
            for (p, &job_rank) in self.members.iter().enumerate() {
                let (lo, hi) = (from[p].max(start), (from[p] + row(p)[me]).min(end));
                if lo < hi {
                    let dst = &mut out[to[p] + lo - from[p]..to[p] + hi - from[p]];
                    // SAFETY: member p wrote its bytes start..end (those it has) into its mailbox
                    // before the barrier; lo..hi lies inside them, and nobody writes the mailbox
                    // until the next barrier of this communicator.
                    unsafe { std::ptr::copy_nonoverlapping(job.mailbox(job_rank).add(lo - start), dst.as_mut_ptr(), hi - lo) };
                }
            }
            self.barrier()?;
            start = end;
        }
        Ok(out)
    }

    /// All-to-all as `alltoallv`, through a region every member maps: member r's buffer goes to
    /// `base + r * slot` (one copy), then each member copies out the blocks addressed to it.
    ///
    /// # Safety
    /// `base` points to `members * slot` bytes shared by the members, used by this exchange only
    /// (between its two barriers); `slot` is at least every member's row of `table`.
    pub unsafe fn alltoallv_through(&self, base: *mut u8, slot: usize, send: &[u8], table: &[usize]) -> Result<Vec<u8>> {
        let n = self.members.len();
        let me = self.index;
        let row = |p: usize| &table[p * n..(p + 1) * n];
        if send.len() > slot {
            return Err(Error::Internal(format!("alltoall of {} bytes through slots of {slot}", send.len())));
        }
        // SAFETY: our slot holds `slot` >= send.len() bytes; nobody reads it before the barrier.
        unsafe { std::ptr::copy_nonoverlapping(send.as_ptr(), base.add(me * slot), send.len()) };
        self.barrier()?;
        let mut out = Vec::with_capacity((0..n).map(|p| row(p)[me]).sum());
        for p in 0..n {
            let from: usize = row(p)[..me].iter().sum();
            // SAFETY: member p wrote its row (at most `slot` bytes) into its slot before the
            // barrier; nobody writes the slots until the next barrier.
            out.extend_from_slice(unsafe { std::slice::from_raw_parts(base.add(p * slot + from), row(p)[me]) });
        }
        self.barrier()?;
        Ok(out)
    }

    /// Allgather of one u32 per member.
    pub fn allgather_u32(&self, mine: u32) -> Result<Vec<u32>> {
        let mut all = vec![0u8; 4 * self.members.len()];
        self.allgather(&mine.to_ne_bytes(), &mut all)?;
        Ok(all.chunks_exact(4).map(|c| u32::from_ne_bytes(c.try_into().unwrap())).collect())
    }

    /// Collective: the first member creates region `name` of `len` bytes starting with
    /// `header`, every member maps it and checks the header, then the name is removed (a crash
    /// later leaves nothing in /dev/shm). Fails on every member if it fails on one.
    pub fn create_region(&self, name: &str, len: usize, header: &[u64]) -> Result<SharedRegion> {
        let header_bytes = std::mem::size_of_val(header);
        let mut created = None;
        let mut failure = None;
        if self.index == 0 {
            match SharedRegion::create(name, len) {
                Ok(r) => {
                    // SAFETY: the new region is at least one page, larger than the header.
                    unsafe { std::ptr::copy_nonoverlapping(header.as_ptr() as *const u8, r.as_ptr(), header_bytes) };
                    created = Some(r);
                }
                Err(e) => failure = Some(e),
            }
        }
        let result = self.map_created(name, len, header, created, failure);
        if self.index == 0 {
            region::unlink(name);
        }
        result
    }

    fn map_created(
        &self,
        name: &str,
        len: usize,
        header: &[u64],
        created: Option<SharedRegion>,
        failure: Option<Error>,
    ) -> Result<SharedRegion> {
        // The creator tells the others why it failed, so that every member's message gives the cause.
        let mut reason = [0u8; REASON_BYTES];
        if let Some(e) = &failure {
            let text = e.to_string();
            let len = text.len().min(REASON_BYTES - 1);
            reason[0] = 1;
            reason[1..=len].copy_from_slice(&text.as_bytes()[..len]);
        }
        let mut reasons = vec![0u8; REASON_BYTES * self.members.len()];
        self.allgather(&reason, &mut reasons)?;
        if reasons[0] != 0 {
            return Err(failure.unwrap_or_else(|| {
                let text = String::from_utf8_lossy(&reasons[1..REASON_BYTES]);
                Error::SharedMemory(format!("PE {} could not create the shared memory ({})", self.members[0], text.trim_end_matches('\0')))
            }));
        }
        let mapped = match created {
            Some(r) => Ok(r),
            None => SharedRegion::open(name, len).and_then(|r| {
                // SAFETY: the mapping is at least one page, larger than the header.
                let found = unsafe { std::slice::from_raw_parts(r.as_ptr() as *const u64, header.len()) };
                if found == header {
                    Ok(r)
                } else {
                    Err(Error::SharedMemory(format!("{name}: header {found:x?} does not match {header:x?}")))
                }
            }),
        };
        let status = self.allgather_u32(mapped.is_err() as u32)?;
        match status.iter().position(|&s| s != 0) {
            None => mapped,
            Some(r) => {
                Err(mapped.err().unwrap_or_else(|| Error::SharedMemory(format!("PE {} could not map the shared memory", self.members[r]))))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_layout_holds_a_barrier_per_part_and_a_round_word_per_pe() {
        // The two columns of a 2 x 3 grid: job ranks 0, 2, 4 and 1, 3, 5.
        let l = SplitLayout::new(6, &[(1, 3), (0, 3)]);
        assert_eq!(l.barrier_of(0), Some(PAGE));
        assert_eq!(l.barrier_of(1), Some(PAGE + barrier_bytes(3)));
        assert_eq!(l.barrier_of(2), None);
        assert!(l.barriers.iter().all(|&(_, at)| at % 128 == 0), "barriers stay 128-byte aligned");
        assert!(l.rounds >= PAGE + 2 * barrier_bytes(3));
        assert_eq!((l.rounds % PAGE, l.total % PAGE), (0, 0));
        assert!(l.total >= l.rounds + 6 * ROUND_STRIDE);
    }
}
