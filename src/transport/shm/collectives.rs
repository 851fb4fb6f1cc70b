//! Job-wide collectives over the job segment: barrier, allgather through the per-PE
//! mailboxes, and the collective creation of a shared region (one PE creates it, all map
//! it, the name is removed at once so a crash later leaves nothing in /dev/shm).

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use super::job::{Awaited, JobSegment, MAILBOX_BYTES};
use super::region::{self, SharedRegion};
use super::wait::WaitContext;
use crate::diagnostics::{self, list_pes};
use crate::error::{Error, Result};

/// Bytes of the reason PE 0 gives the others when it cannot create a region.
const REASON_BYTES: usize = 256;

pub struct Collectives {
    pub job: Arc<JobSegment>,
    pub rank: usize,
    pub npes: usize,
    /// How long a waiter spins before it yields and sleeps.
    pub spin: Duration,
    /// Number of barriers this PE has entered (process-local).
    barrier_round: AtomicU32,
}

impl Collectives {
    pub fn new(job: Arc<JobSegment>, rank: usize) -> Self {
        let npes = job.npes();
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        // With a core each, a short spin catches the peer's answer without a system call;
        // oversubscribed, the peer needs our core, so give it up at once.
        let micros = std::env::var("RPNCOMM_SPIN_US")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(if npes <= cores { 10 } else { 0 });
        Collectives { job, rank, npes, spin: Duration::from_micros(micros), barrier_round: AtomicU32::new(0) }
    }

    /// Runs `f` with a wait context whose liveness check watches the job and `awaited`
    /// (plus `extra_check`), and whose hang report says `waiting_for`.
    pub fn with_wait<T>(
        &self,
        awaited: Awaited,
        waiting_for: &dyn Fn() -> String,
        extra_check: Option<&dyn Fn() -> Result<()>>,
        f: impl FnOnce(&WaitContext<'_>) -> Result<T>,
    ) -> Result<T> {
        let alive = || {
            self.job.check_alive(awaited)?;
            extra_check.map_or(Ok(()), |check| check())
        };
        f(&WaitContext { alive: &alive, spin: self.spin, waiting_for: Some(waiting_for) })
    }

    /// Blocks until every PE of the job has called it (a central barrier in the job segment).
    pub fn barrier(&self) -> Result<()> {
        let round = self.barrier_round.fetch_add(1, Ordering::Relaxed).wrapping_add(1);
        self.job.pe(self.rank).barrier_round.store(round, Ordering::Relaxed);
        let late = || {
            let pes = list_pes(&self.job.late_for_barrier(round));
            format!("{pes} to reach the same collective call{} (job barrier {round})", diagnostics::on_subject())
        };
        self.with_wait(Awaited::All, &late, None, |ctx| self.job.barrier().arrive_and_wait(round, self.npes, ctx))
    }

    pub fn allgather(&self, mine: &[u8], all: &mut [u8]) -> Result<()> {
        let n = mine.len();
        if all.len() != n * self.npes {
            return Err(Error::Internal(format!("allgather of {n} bytes into {} for {} PEs", all.len(), self.npes)));
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

    /// Allgather of one u32 per PE.
    pub fn allgather_u32(&self, mine: u32) -> Result<Vec<u32>> {
        let mut all = vec![0u8; 4 * self.npes];
        self.allgather(&mine.to_ne_bytes(), &mut all)?;
        Ok(all.chunks_exact(4).map(|c| u32::from_ne_bytes(c.try_into().unwrap())).collect())
    }

    /// Collective: PE 0 creates region `name` of `len` bytes starting with `header`, every PE
    /// maps it and checks the header, then the name is removed. Fails on every PE if it fails on one.
    pub fn create_region(&self, name: &str, len: usize, header: &[u64]) -> Result<SharedRegion> {
        let header_bytes = std::mem::size_of_val(header);
        let mut created = None;
        let mut failure = None;
        if self.rank == 0 {
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
        if self.rank == 0 {
            region::unlink(name);
        }
        result
    }

    fn map_created(&self, name: &str, len: usize, header: &[u64], created: Option<SharedRegion>, failure: Option<Error>) -> Result<SharedRegion> {
        // PE 0 tells the others why it failed, so that every PE's message gives the cause.
        let mut reason = [0u8; REASON_BYTES];
        if let Some(e) = &failure {
            let text = e.to_string();
            let len = text.len().min(REASON_BYTES - 1);
            reason[0] = 1;
            reason[1..=len].copy_from_slice(&text.as_bytes()[..len]);
        }
        let mut reasons = vec![0u8; REASON_BYTES * self.npes];
        self.allgather(&reason, &mut reasons)?;
        if reasons[0] != 0 {
            return Err(failure.unwrap_or_else(|| {
                let text = String::from_utf8_lossy(&reasons[1..REASON_BYTES]);
                Error::SharedMemory(format!("PE 0 could not create the shared memory ({})", text.trim_end_matches('\0')))
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
            Some(pe) => Err(mapped.err().unwrap_or_else(|| Error::SharedMemory(format!("PE {pe} could not map the shared memory")))),
        }
    }
}
