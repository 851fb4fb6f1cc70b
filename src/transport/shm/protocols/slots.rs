//! The slot claim of a secondary window (request/reply): the first integer of a PE's records
//! counts the records taken, the header included (1 when empty); a client takes the next one
//! with one bounded atomic update, so concurrent clients get distinct records and none past
//! the capacity. Checked by the model tests (tests/loom_protocols.rs).

use super::sync::AtomicCounter;

/// Takes the next free record: `Ok(slot)` (1-based, 2..=capacity), or `Err(counter)` when the
/// records are full (counter >= capacity) or the counter is corrupt (< 1).
pub fn claim(counter: &impl AtomicCounter, capacity: usize) -> Result<u32, i32> {
    counter.update(|last| (last >= 1 && (last as usize) < capacity).then_some(last + 1)).map(|last| last as u32 + 1)
}
