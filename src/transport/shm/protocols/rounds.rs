//! The exchange rounds of the job's small allgathers (every collective of a few hundred bytes
//! per PE): each PE writes its block of round r into a slot of its own, then publishes r in
//! the slot's round word; each PE reads every other's block as soon as that word says r. No
//! barrier: at two PEs a round is one line moved each way, where a barrier-framed mailbox
//! exchange moves two barriers' lines besides.
//!
//! Two slots per PE, used by alternate rounds. A PE writes its slot of round r + 2 only after
//! every PE that reads its block of round r has published round r + 1, so has read it: known
//! without a look after an exchange round (this PE read every PE's block of round r + 1), waited
//! for after a rooted round, in which it read fewer (`Collectives::rooted_round`). So nobody still
//! reads the slot being written, and a reader waiting for round r finds exactly r in the word
//! once it is reached (never r + 2).

use super::sync::{AtomicU32, Ordering};
use super::wait::{Signal, WaitContext, wait_epoch};
use crate::error::Result;

/// Bytes of one slot: its round word, its length, its block.
pub const SLOT_BYTES: usize = 1024;
/// Bytes before the block (the round word and its sleepers, the length).
const HEAD_BYTES: usize = 16;
/// The longest block a round carries.
pub const BLOCK_BYTES: usize = SLOT_BYTES - HEAD_BYTES;

#[repr(C)]
struct SlotHead {
    round: Signal,
    len: AtomicU32,
}

/// Bytes of shared memory the rounds of `npes` PEs take.
pub fn rounds_bytes(npes: usize) -> usize {
    2 * npes * SLOT_BYTES
}

/// The slots of `npes` PEs over their memory.
pub struct RoundSlots<'a> {
    base: *mut u8,
    npes: usize,
    _memory: std::marker::PhantomData<&'a u8>,
}

impl<'a> RoundSlots<'a> {
    /// The slots of `npes` PEs whose memory starts at `base`.
    ///
    /// # Safety
    /// `base` is 128-byte aligned, points to [`rounds_bytes`]`(npes)` bytes, zero-filled before
    /// the first round, that stay mapped for `'a` and are used by every PE of the job as these
    /// slots only (each PE writing its own two slots, in the rounds' order).
    pub unsafe fn at(base: *mut u8, npes: usize) -> Self {
        debug_assert_eq!(base as usize % 128, 0);
        RoundSlots { base, npes, _memory: std::marker::PhantomData }
    }

    fn slot(&self, rank: usize, round: u32) -> *mut u8 {
        assert!(rank < self.npes, "slot of PE {rank} outside the rounds");
        // SAFETY: rank < npes: the slot lies inside the rounds_bytes(npes) bytes at `base`.
        unsafe { self.base.add((2 * rank + (round & 1) as usize) * SLOT_BYTES) }
    }

    fn head(&self, rank: usize, round: u32) -> &SlotHead {
        // SAFETY: the slot lies inside `base` (checked in `slot`), 16-byte aligned (an aligned
        // base plus multiples of SLOT_BYTES); its head is atomics only, zero-filled at creation.
        unsafe { &*(self.slot(rank, round) as *const SlotHead) }
    }

    /// Publishes this PE's (`rank`) `block` of `round` (at most `BLOCK_BYTES`).
    pub fn publish(&self, rank: usize, round: u32, block: &[u8]) {
        assert!(block.len() <= BLOCK_BYTES, "a round carries {BLOCK_BYTES} bytes at most");
        let head = self.head(rank, round);
        // SAFETY: the block area of our own slot of this round's parity, inside `base`; no PE
        // reads it until the round word says `round` (see the module's notes).
        unsafe { std::ptr::copy_nonoverlapping(block.as_ptr(), self.slot(rank, round).add(HEAD_BYTES), block.len()) };
        head.len.store(block.len() as u32, Ordering::Relaxed);
        // (the store releases the block and its length)
        head.round.store(round);
    }

    /// Waits until PE `rank` published `round`, then copies the start of its block into `out`:
    /// as much as it published and `out` holds (the rest of `out` keeps what it held). Returns
    /// the length it published.
    pub fn read(&self, rank: usize, round: u32, ctx: &WaitContext<'_>, out: &mut [u8]) -> Result<usize> {
        let head = self.head(rank, round);
        wait_epoch(&head.round, round, ctx)?;
        let published = head.len.load(Ordering::Relaxed) as usize;
        let len = out.len().min(published).min(BLOCK_BYTES);
        // SAFETY: PE `rank` wrote its block before publishing the round (acquired by the wait);
        // it writes this slot again only after this PE's next round (module notes); `len` bytes
        // lie inside the slot's block area.
        unsafe { std::ptr::copy_nonoverlapping(self.slot(rank, round).add(HEAD_BYTES), out.as_mut_ptr(), len) };
        Ok(published)
    }
}
