//! Which collectives made with MPI's own calls each PE has entered, where the PEs of other nodes
//! can read it: a halo exchange waiting for a neighbour of another node that went into a
//! collective of a communicator of both, which can never complete while this PE waits, learns it
//! and fails naming both routines, as between the PEs of a node (`shm::part_entries`, whose words
//! these are). Each PE publishes a few words in a window made at MPI start over the channels'
//! communicator and held in one lock_all epoch for the job: its last entry (the entry word and
//! the routine's code, two stores by the calling thread, as on its node's segment) and whether it
//! is blocked now (by the watchdog, inside a blocking MPI call; by a wait that has lasted
//! `LOOK_AFTER`). Only a PE that has waited `LOOK_AFTER` reads a neighbour's, by a nonblocking get
//! that the neighbour's MPI serves from inside whatever MPI call it waits in (a PE that computes
//! serves it later: the waiting PE only tests it, and goes on reporting its wait).
//!
//! A neighbour ahead is concluded only when two reads in a row, `LOOK_AFTER` apart, give the same
//! words and show it blocked: a message it posted before it went into a rooted collective it
//! could leave at once (a broadcast's root) has arrived by then, or it is still inside MPI and
//! sends it; one that went on computing is not blocked, and is only reported.

use std::collections::HashMap;
use std::ffi::{c_int, c_void};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use crate::error::Result;
use crate::transport::mpi::comm::Comm;
use crate::transport::mpi::shim::{self, RawReq, RawWin};
use crate::transport::shm::part_entries::PartEntries;

/// How long a PE waits for a neighbour of another node before it reads where that one is, and
/// then between reads.
pub const LOOK_AFTER: Duration = Duration::from_secs(1);

/// Words of a PE's part of the window.
const WORDS: usize = 4;
/// The entry word (`PartEntries::enter`).
const ENTRY: usize = 0;
/// The routine's code.
const ROUTINE: usize = 1;
/// The sequence number of the blocking MPI call the watchdog sees in progress, 0 for none.
const IN_CALL: usize = 2;
/// Not 0 while a wait (`wait::wait_for`) has lasted `LOOK_AFTER`.
const IN_LONG_WAIT: usize = 3;

/// This process's words, the memory of its part of the window (static: the watchdog and the
/// waits write them whether or not the window exists, and after it is freed).
static PUBLISHED: Published = Published([const { AtomicU64::new(0) }; WORDS]);

/// The published words on a cache line of their own: with the static only 8-byte aligned, MPICH 4.0
/// (ch4, UCX) read this window a word early in some builds (every word a place off, the
/// neighbour never seen blocked); aligned, it reads them where they are.
#[repr(align(64))]
struct Published([AtomicU64; WORDS]);

impl std::ops::Index<usize> for Published {
    type Output = AtomicU64;
    fn index(&self, i: usize) -> &AtomicU64 {
        &self.0[i]
    }
}

/// The watchdog sees the blocking MPI call `sequence` in progress (0: none).
pub fn publish_in_call(sequence: u64) {
    if PUBLISHED[IN_CALL].load(Ordering::Relaxed) != sequence {
        PUBLISHED[IN_CALL].store(sequence, Ordering::Relaxed);
    }
}

/// A wait of this PE has lasted `LOOK_AFTER` (true), or ended after that (false).
pub fn publish_long_wait(waiting: bool) {
    PUBLISHED[IN_LONG_WAIT].store(u64::from(waiting), Ordering::Relaxed);
}

/// Whether what was read of a neighbour can be concluded from: the same words in `count` reads in
/// a row, at least two, that show it blocked (in a blocking MPI call, or in a long wait).
fn settled_and_blocked(words: &[u64; WORDS], count: u32) -> bool {
    count >= 2 && (words[IN_CALL] != 0 || words[IN_LONG_WAIT] != 0)
}

/// A get in flight from a neighbour, with the buffer it lands in: a raw allocation (from
/// `Box::into_raw`, back to a Box once the get completed), never a Box while MPI may write it (a
/// Box moved after its address went to MPI would let the compiler take its contents as unchanged).
struct Reading {
    request: *mut RawReq,
    words: *mut [u64; WORDS],
}

impl Drop for Reading {
    fn drop(&mut self) {
        // a get still in flight keeps its buffer for good (MPI may still write it)
        if self.request.is_null() {
            // SAFETY: from Box::into_raw, dropped once, and no get writes it any more (its
            // request completed, or was never made).
            drop(unsafe { Box::from_raw(self.words) });
        }
    }
}

/// This PE's entries, published in the window, and what it read of its neighbours'.
pub struct FarEntries {
    win: *mut RawWin,
    parts: PartEntries,
    reading: HashMap<usize, Reading>,
    /// The last words read from each neighbour, and how many reads in a row gave them.
    seen: HashMap<usize, ([u64; WORDS], u32)>,
}

// SAFETY: the window and the requests are the shim's, used through `&mut self` (one thread at a
// time), and every MPI call takes `shim::serial()`.
unsafe impl Send for FarEntries {}

impl FarEntries {
    /// Collective over `comm`: the window, held in a lock_all epoch; None on every PE when some
    /// PE could not make it (halo exchanges then only report a neighbour of another node).
    pub fn new(comm: &Comm) -> Result<Option<Self>> {
        let mut local: *mut c_void = std::ptr::null_mut();
        let mut win: *mut RawWin = std::ptr::null_mut();
        let made = {
            let _mpi = shim::serial();
            // SAFETY: out-parameters; the window's memory is `PUBLISHED` (static, atomics: MPI
            // only reads it, for the others' gets).
            let rc =
                unsafe { shim::rpnmpi_win_create(comm.raw(), PUBLISHED.0.as_ptr() as *mut c_void, 8 * WORDS, 8, &mut local, &mut win) };
            // SAFETY: the window just made.
            rc == 0 && unsafe { shim::rpnmpi_lock_all(win) } == 0
        };
        let (_, all_made) = comm.agree_flag(made)?;
        let mut far = FarEntries { win, parts: PartEntries::default(), reading: HashMap::new(), seen: HashMap::new() };
        if !all_made {
            far.free();
            return Ok(None);
        }
        Ok(Some(far))
    }

    /// This PE is in the part `first` of split `split` (before any collective of it).
    pub fn register(&self, split: u32, first: usize, name: &'static str) {
        self.parts.register(split, first, name);
    }

    /// This PE enters its `entries`-th collective of that part: two stores, the word last.
    pub fn announce(&self, split: u32, first: usize, entries: u32) {
        if let Some((word, routine)) = self.parts.enter(split, first, entries) {
            PUBLISHED[ROUTINE].store(u64::from(routine), Ordering::Relaxed);
            PUBLISHED[ENTRY].store(word, Ordering::Release);
        }
    }

    /// A new wait: what was read before says nothing of where the neighbours are now.
    pub fn forget(&mut self) {
        self.seen.clear();
    }

    /// Reads where `peer` is: tests the get in flight, or starts one. True once two reads in a
    /// row saw it in the same collective of a part of both that this PE has not entered.
    pub fn look(&mut self, peer: usize) -> Result<bool> {
        let _mpi = shim::serial();
        match self.reading.get_mut(&peer) {
            Some(r) => {
                let mut done: c_int = 0;
                // SAFETY: the get started below, its buffer in `r` until it completed.
                shim::check(unsafe { shim::rpnmpi_test(&mut r.request, &mut done) }, "MPI_Test (MPI_Rget)")?;
                if done == 0 {
                    return Ok(false);
                }
                // SAFETY: the get completed: MPI wrote the buffer and is done with it.
                let words = unsafe { std::ptr::read_volatile(r.words) };
                self.reading.remove(&peer);
                let count = match self.seen.get(&peer) {
                    Some((before, n)) if *before == words => n + 1,
                    _ => 1,
                };
                self.seen.insert(peer, (words, count));
                Ok(self.ahead(peer).is_some())
            }
            None => {
                let words = Box::into_raw(Box::new([0u64; WORDS]));
                let mut request: *mut RawReq = std::ptr::null_mut();
                // SAFETY: the buffer (WORDS words) stays allocated in `reading` until the get
                // completed; the window is in its lock_all epoch.
                let rc =
                    unsafe { shim::rpnmpi_rget_bytes(self.win, words as *mut c_void, (8 * WORDS) as c_int, peer as c_int, &mut request) };
                let reading = Reading { request, words };
                shim::check(rc, "MPI_Rget")?;
                self.reading.insert(peer, reading);
                Ok(false)
            }
        }
    }

    /// The routine and part of `peer`, when two reads in a row saw it blocked in a collective of
    /// a part of both that this PE has not entered ("RPN_COMM_allreduce on the job's
    /// communicator").
    pub fn ahead(&self, peer: usize) -> Option<String> {
        let (words, count) = self.seen.get(&peer)?;
        settled_and_blocked(words, *count).then(|| self.parts.ahead_of(words[ENTRY], words[ROUTINE] as u32)).flatten()
    }

    /// Collective (finalize): the epoch ends, which completes the gets in flight, and the window
    /// goes.
    pub fn free(&mut self) {
        if self.win.is_null() {
            return;
        }
        let _mpi = shim::serial();
        // SAFETY: the window of `new`, freed once (null after); its gets complete at the end of
        // the epoch, so their buffers are MPI's no longer when the requests are released.
        unsafe {
            shim::rpnmpi_unlock_all(self.win);
            for (_, mut r) in self.reading.drain() {
                let mut done: c_int = 0;
                shim::rpnmpi_test(&mut r.request, &mut done);
                shim::rpnmpi_request_free(&mut r.request);
            }
            shim::rpnmpi_win_free(&mut self.win);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_neighbour_is_concluded_from_two_reads_that_show_it_blocked() {
        let in_call = [1, 2, 6, 0];
        let waiting = [1, 2, 0, 1];
        let computing = [1, 2, 0, 0];
        assert!(!settled_and_blocked(&in_call, 1), "one read may miss a message in flight");
        assert!(settled_and_blocked(&in_call, 2));
        assert!(settled_and_blocked(&waiting, 3));
        assert!(!settled_and_blocked(&computing, 5), "a neighbour that computes is only reported");
    }
}
