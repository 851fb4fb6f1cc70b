//! Which collectives of the parts of splits (a row, a column, a grid of several) each PE has
//! entered, in its block of the job segment, for the halo exchange: a PE that waits for a
//! neighbour gone into a collective of a part both are in, which can never complete while this PE
//! is in the exchange, fails at once naming both routines (docs/halo.md). The collectives of the
//! job are seen by their rounds (`channel::elsewhere`); these are the others'. Each entry is one
//! word, (split number, the part's first member, entries into the part's collectives), stored
//! with the routine's code: the entries of the members of one part only differ while one is being
//! entered, so a neighbour's ahead of this PE's is in a collective this PE has not entered.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

use super::collectives::Collectives;
use super::job::PeBlock;
use super::wait::epoch_reached;
use crate::core::CollectiveId;
use crate::diagnostics;

/// The splits whose parts a halo exchange watches (`in_part_collective_without_me`): the first ones
/// made (a model's rows, columns and grids are made at its start).
const SPLITS_WATCHED: usize = 64;

/// The split number that stands for the whole job, where its collectives are not this segment's
/// own (the MPI transport's calls of MPI over a job of several nodes, or of many PEs).
pub const JOB_PART: u32 = 0xffff;

/// The slot of split `split` in `parts`, for the splits watched.
fn slot_of(split: u32) -> Option<usize> {
    match split as usize {
        _ if split == JOB_PART => Some(SPLITS_WATCHED),
        s @ 1..SPLITS_WATCHED => Some(s),
        _ => None,
    }
}

/// A communicator that is a part of a split: its entries are announced on `home`, the collectives
/// of the job (or node) whose PE blocks the channels read.
pub struct PartOf {
    pub home: Arc<Collectives>,
    /// The split's number (from 1, the same on every PE: splits are collective over the job).
    pub split: u32,
    /// The part's first member, as every PE numbers it (the part's name within its split).
    pub first: usize,
    /// The communicator's name, for messages.
    pub name: &'static str,
}

/// The code of the collective routine `name` (0 for none), looked up once per routine in a row:
/// the routines are `&'static str`s, the last one kept by its address (48 bits) with its code
/// (16 bits) in one word.
fn routine_code(name: &'static str) -> u32 {
    static LAST: AtomicU64 = AtomicU64::new(0);
    let address = name.as_ptr() as u64 & ((1 << 48) - 1);
    let last = LAST.load(Ordering::Relaxed);
    if last & ((1 << 48) - 1) == address {
        return (last >> 48) as u32;
    }
    let code = CollectiveId::from_name(name).map_or(0, CollectiveId::code) & 0xffff;
    LAST.store(address | u64::from(code) << 48, Ordering::Relaxed);
    code
}

/// (split, first member, entries) in one word, for one atomic store.
fn pack(split: u32, first: usize, entries: u32) -> u64 {
    u64::from(split) << 48 | ((first as u64) & 0xffff) << 32 | u64::from(entries)
}

fn unpack(word: u64) -> (u32, usize, u32) {
    ((word >> 48) as u32, ((word >> 32) & 0xffff) as usize, word as u32)
}

/// This PE's part of each split it is in and its entries into its collectives, by split number
/// (process-local; `announce` publishes them in the PE's block).
pub struct PartEntries {
    mine: [AtomicU64; SPLITS_WATCHED + 1],
    /// The parts' names, for messages.
    names: [OnceLock<&'static str>; SPLITS_WATCHED + 1],
}

impl Default for PartEntries {
    fn default() -> Self {
        PartEntries { mine: [const { AtomicU64::new(0) }; SPLITS_WATCHED + 1], names: [const { OnceLock::new() }; SPLITS_WATCHED + 1] }
    }
}

impl PartEntries {
    /// This PE is in the part of split `split` whose first member is `first` (before any
    /// collective of it).
    pub fn register(&self, split: u32, first: usize, name: &'static str) {
        if let Some(slot) = slot_of(split) {
            self.mine[slot].store(pack(split, first, 0), Ordering::Relaxed);
            let _ = self.names[slot].set(name);
        }
    }

    /// This PE, whose block is `block`, enters its `entries`-th collective of that part: three
    /// stores, the word last (Release: what the PE did before, a message posted, is seen with it).
    pub fn announce(&self, block: &PeBlock, split: u32, first: usize, entries: u32) {
        if let Some((word, routine)) = self.enter(split, first, entries) {
            block.part_routine.store(routine, Ordering::Relaxed);
            block.part_entry.store(word, Ordering::Release);
        }
    }

    /// This PE enters its `entries`-th collective of the part `first` of split `split`: what it
    /// announces, (the entry word, the routine's code), None for a split not watched.
    pub fn enter(&self, split: u32, first: usize, entries: u32) -> Option<(u64, u32)> {
        let slot = slot_of(split)?;
        let word = pack(split, first, entries);
        self.mine[slot].store(word, Ordering::Relaxed);
        Some((word, routine_code(diagnostics::routine())))
    }

    /// The routine and part ("RPN_COMM_allreduce on EW") of the PE whose block is `theirs`, when
    /// it entered a collective of a part this PE is in that this PE has not entered.
    pub fn ahead(&self, theirs: &PeBlock) -> Option<String> {
        self.ahead_of(theirs.part_entry.load(Ordering::Acquire), theirs.part_routine.load(Ordering::Relaxed))
    }

    /// The same from what a PE announced (`enter`): its entry word and its routine's code.
    pub fn ahead_of(&self, word: u64, routine: u32) -> Option<String> {
        let (split, first, entries) = unpack(word);
        let slot = slot_of(split)?;
        let (my_split, my_first, mine) = unpack(self.mine[slot].load(Ordering::Relaxed));
        (my_split == split && my_first == first && epoch_reached(entries, mine.wrapping_add(1))).then(|| {
            let routine = CollectiveId::describe(routine);
            format!("{routine} on {}", self.names[slot].get().copied().unwrap_or("a communicator of both"))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A PE's entry is ahead only in a part this PE is in, and only past this PE's own entries.
    #[test]
    fn ahead_of_needs_the_same_part_and_a_later_entry() {
        let mine = PartEntries::default();
        mine.register(3, 0, "EW");
        mine.register(JOB_PART, 0, "the job's communicator");
        mine.enter(3, 0, 4);
        let code = CollectiveId::from_name("RPN_COMM_allreduce").map_or(0, CollectiveId::code);
        let text = mine.ahead_of(pack(3, 0, 5), code).expect("a later entry of the same part");
        assert!(text.ends_with(" on EW"), "{text}");
        assert_eq!(mine.ahead_of(pack(3, 0, 4), code), None, "an entry this PE made too");
        assert_eq!(mine.ahead_of(pack(3, 2, 5), code), None, "another part of the split (another row)");
        assert_eq!(mine.ahead_of(pack(7, 0, 1), code), None, "a split this PE was not told of");
        assert!(mine.ahead_of(pack(JOB_PART, 0, 1), code).is_some_and(|t| t.ends_with("the job's communicator")));
    }
}
