//! What a PE remembers of the collective calls it made on one communicator without checking
//! them against the other PEs' first (docs/contract.md rule 11: a check on every call would cost a
//! round and grow with the PE count). A running signature of every call, compared where the PEs
//! meet anyway (a barrier, the agreement of a window's creation or free, finalize) with a few
//! bytes whatever the PE count; and the last calls themselves, exchanged only when the
//! signatures differ, to name the first call that differs with both PEs and both routines.

use std::sync::atomic::{AtomicU64, Ordering, fence};

use super::super::CollectiveId;
use super::super::{MessageType, Operator};

/// Calls kept for the report of a divergence.
pub const KEPT: usize = 16;
/// No root, type or operator in a call's arguments.
pub const NONE: u32 = u32::MAX;
/// The byte count of a call the PE refused (its arguments were wrong).
pub const REFUSED: u32 = u32::MAX;

/// One collective call as every PE must make it alike: the routine and the arguments that
/// must agree (byte count, element type, operator, root; `NONE` where the routine has none).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CallEntry {
    /// The routine's `CollectiveId` code.
    pub routine: u32,
    /// Bytes of data per PE (`REFUSED` for a call the PE refused).
    pub bytes: u32,
    /// The element type's `MessageType` code.
    pub dtype: u32,
    /// The operator's `Operator` code.
    pub op: u32,
    /// The root's rank in the communicator.
    pub root: u32,
}

/// Bytes of a `CallEntry` as it travels between PEs (5 words, native order).
pub const ENTRY_BYTES: usize = 20;

impl CallEntry {
    /// The call of `id` with these arguments (None where the routine has none).
    pub fn new(id: CollectiveId, bytes: usize, dtype: Option<MessageType>, op: Option<Operator>, root: Option<usize>) -> Self {
        CallEntry {
            routine: id.code(),
            bytes: bytes as u32,
            dtype: dtype.map_or(NONE, MessageType::code),
            op: op.map_or(NONE, Operator::code),
            root: root.map_or(NONE, |r| r as u32),
        }
    }

    /// The routine and its arguments, for messages: "RPN_COMM_allreduce of 16 bytes of MPI_REAL8
    /// with MPI_SUM", "RPN_COMM_bcast of 4 bytes from root 0".
    pub fn describe(&self) -> String {
        let mut text = CollectiveId::describe(self.routine);
        if self.routine == CollectiveId::Barrier.code() {
            return text;
        }
        if self.bytes == REFUSED {
            return text + " (refused: its arguments were wrong)";
        }
        // (the PEs of a gatherv or scatterv give counts of their own: the call names none)
        if ![CollectiveId::Gatherv.code(), CollectiveId::Scatterv.code()].contains(&self.routine) {
            text += &format!(" of {} bytes", self.bytes);
        }
        if let Some(t) = MessageType::from_code(self.dtype) {
            text += &format!(" of {}", t.name());
        }
        if let Some(op) = Operator::from_code(self.op) {
            text += &format!(" with {}", op.name());
        }
        if self.root != NONE {
            text += &format!(" (root {})", self.root as i32);
        }
        text
    }

    fn words(&self) -> [u32; 5] {
        [self.routine, self.bytes, self.dtype, self.op, self.root]
    }

    /// The entry as it travels.
    pub fn to_bytes(self) -> [u8; ENTRY_BYTES] {
        let mut out = [0u8; ENTRY_BYTES];
        for (to, w) in out.chunks_exact_mut(4).zip(self.words()) {
            to.copy_from_slice(&w.to_ne_bytes());
        }
        out
    }

    /// The entry in `bytes` (at least `ENTRY_BYTES`; a PE that wrote nothing reads as routine 0).
    pub fn from_bytes(bytes: &[u8]) -> Self {
        let w = |i: usize| u32::from_ne_bytes(bytes[4 * i..4 * i + 4].try_into().expect("4 bytes"));
        CallEntry { routine: w(0), bytes: w(1), dtype: w(2), op: w(3), root: w(4) }
    }
}

/// The calls of one PE on one communicator: how many, their running signature, the last `KEPT`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CallLog {
    calls: u64,
    signature: u64,
    last: [CallEntry; KEPT],
}

/// Bytes of a `CallLog` as it travels between PEs.
pub const LOG_BYTES: usize = 16 + KEPT * ENTRY_BYTES;

/// One step of the signature: the call's five words packed in three, each folded in by a
/// rotation and a multiplication by an odd constant (as FxHash), then the high half folded into
/// the low one, which the headers keep: any change of a call, of the order or of the count
/// changes it. Cheaper than a full mix per word (this runs at every collective call), and the
/// signature only has to tell a program's sequences of calls apart, not resist an adversary.
fn mix(signature: u64, entry: &CallEntry) -> u64 {
    let [routine, bytes, dtype, op, root] = entry.words().map(u64::from);
    let mut h = signature;
    for v in [routine << 32 | bytes, dtype << 32 | op, root] {
        h = (h.rotate_left(26) ^ v).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
    h ^ (h >> 32)
}

impl CallLog {
    /// Records a call.
    pub fn note(&mut self, entry: CallEntry) {
        self.signature = mix(self.signature, &entry);
        self.last[(self.calls % KEPT as u64) as usize] = entry;
        self.calls += 1;
    }

    /// The running signature of every call so far (0 before the first).
    pub fn signature(&self) -> u64 {
        self.signature
    }

    /// The number of calls so far.
    pub fn len(&self) -> u64 {
        self.calls
    }

    /// Whether no call was made.
    pub fn is_empty(&self) -> bool {
        self.calls == 0
    }

    /// The last call, if any.
    pub fn last(&self) -> Option<CallEntry> {
        self.calls.checked_sub(1).and_then(|i| self.call(i))
    }

    /// Call number `i` (0-based), when it is one of the last `KEPT`.
    fn call(&self, i: u64) -> Option<CallEntry> {
        (i < self.calls && i + KEPT as u64 >= self.calls).then(|| self.last[(i % KEPT as u64) as usize])
    }

    /// The log as it travels (`LOG_BYTES`): the count, the signature, the kept calls oldest first.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(LOG_BYTES);
        out.extend_from_slice(&self.calls.to_ne_bytes());
        out.extend_from_slice(&self.signature.to_ne_bytes());
        // in call order, oldest first
        for i in 0..KEPT as u64 {
            let at = self.calls.saturating_sub(KEPT as u64) + i;
            out.extend_from_slice(&self.call(at).unwrap_or_default().to_bytes());
        }
        out
    }

    /// The log in `bytes` (`LOG_BYTES`, as `to_bytes` made them).
    pub fn from_bytes(bytes: &[u8]) -> Self {
        let u = |at: usize| u64::from_ne_bytes(bytes[at..at + 8].try_into().expect("8 bytes"));
        let (calls, signature) = (u(0), u(8));
        let mut last = [CallEntry::default(); KEPT];
        for i in 0..KEPT as u64 {
            let at = calls.saturating_sub(KEPT as u64) + i;
            last[(at % KEPT as u64) as usize] = CallEntry::from_bytes(&bytes[16 + i as usize * ENTRY_BYTES..]);
        }
        CallLog { calls, signature, last }
    }
}

/// Where the logs of every PE (rank order) part: the first call (1-based number) where a PE
/// made another call than PE 0, or none where PE 0 made one, as "call 7 on GRID: PE 1 made ...
/// while PE 0 made ..."; None when every PE's log is the same.
pub fn first_difference(logs: &[CallLog], on: &str) -> Option<String> {
    let first = logs.first()?;
    if logs.iter().all(|l| l.calls == first.calls && l.signature == first.signature) {
        return None;
    }
    let made = |log: &CallLog, i: u64| match log.call(i) {
        Some(e) => e.describe(),
        None if i >= log.calls => format!("no further collective call ({} in all)", log.calls),
        None => "an older call".to_string(),
    };
    let newest = logs.iter().map(|l| l.calls).max().unwrap_or(0);
    let oldest = logs.iter().map(|l| l.calls.saturating_sub(KEPT as u64)).max().unwrap_or(0);
    for i in oldest..newest {
        let reference = first.call(i);
        if let Some((pe, log)) = logs.iter().enumerate().skip(1).find(|(_, l)| l.call(i) != reference) {
            return Some(format!("call {} on {on}: PE {pe} made {} while PE 0 made {}", i + 1, made(log, i), made(first, i)));
        }
    }
    let pe = logs.iter().position(|l| l.signature != first.signature).unwrap_or(0);
    Some(format!(
        "the collective calls on {on} of PE {pe} and PE 0 differ before their last {KEPT} (PE {pe} made {}, PE 0 {})",
        logs[pe].calls, first.calls
    ))
}

/// The last call this process logged, for the hang report of a wait inside it (a watchdog
/// thread reads it while the call waits): a sequence number, odd while it changes, then the
/// call's number on its communicator and its words two by two.
static LAST: [AtomicU64; 5] = [const { AtomicU64::new(0) }; 5];

/// Publishes call number `number` (1-based), `entry`, as the last this process logged (a few
/// stores: made at every logged call).
pub fn publish_last(number: u64, entry: &CallEntry) {
    let sequence = LAST[0].load(Ordering::Relaxed) | 1;
    LAST[0].store(sequence, Ordering::Relaxed);
    fence(Ordering::Release);
    let w = entry.words().map(u64::from);
    for (slot, value) in LAST[1..].iter().zip([number, w[0] << 32 | w[1], w[2] << 32 | w[3], w[4]]) {
        slot.store(value, Ordering::Relaxed);
    }
    LAST[0].store(sequence + 1, Ordering::Release);
}

/// The last call `publish_last` published, as "call 57 on its communicator: RPN_COMM_allreduce of
/// 16 bytes of MPI_REAL8 with MPI_SUM", when it is a call of `routine` (None: another routine,
/// none yet, or being changed).
pub fn describe_last(routine: &str) -> Option<String> {
    let before = LAST[0].load(Ordering::Acquire);
    let [number, a, b, c] = [1, 2, 3, 4].map(|i| LAST[i].load(Ordering::Relaxed));
    fence(Ordering::Acquire);
    if before % 2 == 1 || before == 0 || LAST[0].load(Ordering::Relaxed) != before {
        return None;
    }
    let entry = CallEntry { routine: (a >> 32) as u32, bytes: a as u32, dtype: (b >> 32) as u32, op: b as u32, root: c as u32 };
    (CollectiveId::describe(entry.routine) == routine).then(|| format!("call {number} on its communicator: {}", entry.describe()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn allreduce(bytes: usize, op: Operator) -> CallEntry {
        CallEntry::new(CollectiveId::Allreduce, bytes, MessageType::from_name("MPI_REAL8").ok(), Some(op), None)
    }

    #[test]
    fn same_calls_same_signature_any_change_shows() {
        let (mut a, mut b) = (CallLog::default(), CallLog::default());
        for log in [&mut a, &mut b] {
            log.note(allreduce(16, Operator::Sum));
        }
        assert_eq!(a.signature(), b.signature());
        a.note(allreduce(8, Operator::Max));
        b.note(allreduce(8, Operator::Min));
        assert_ne!(a.signature(), b.signature());
        let (mut c, mut d) = (CallLog::default(), CallLog::default());
        c.note(allreduce(8, Operator::Sum));
        c.note(allreduce(16, Operator::Sum));
        d.note(allreduce(16, Operator::Sum));
        d.note(allreduce(8, Operator::Sum));
        assert_ne!(c.signature(), d.signature(), "the order counts");
    }

    #[test]
    fn the_first_difference_names_both_pes_and_calls() {
        let mut logs = vec![CallLog::default(); 3];
        for log in &mut logs {
            log.note(allreduce(16, Operator::Sum));
        }
        assert_eq!(first_difference(&logs, "GRID"), None);
        logs[0].note(allreduce(8, Operator::Max));
        logs[1].note(allreduce(8, Operator::Max));
        logs[2].note(CallEntry::new(CollectiveId::Bcast, 4, None, None, Some(0)));
        let text = first_difference(&logs, "GRID").unwrap();
        assert_eq!(
            text,
            "call 2 on GRID: PE 2 made RPN_COMM_bcast of 4 bytes (root 0) while PE 0 made RPN_COMM_allreduce of 8 bytes of MPI_REAL8 with MPI_MAX"
        );
    }

    #[test]
    fn a_missing_call_and_a_travelled_log_read_alike() {
        let mut logs = vec![CallLog::default(); 2];
        for i in 0..40 {
            logs[0].note(allreduce(8 * (i % 3 + 1), Operator::Sum));
            logs[1].note(allreduce(8 * (i % 3 + 1), Operator::Sum));
        }
        logs[0].note(CallEntry::new(CollectiveId::Barrier, 0, None, None, None));
        let travelled: Vec<CallLog> = logs.iter().map(|l| CallLog::from_bytes(&l.to_bytes())).collect();
        assert_eq!(travelled, logs);
        let text = first_difference(&travelled, "EW").unwrap();
        assert_eq!(text, "call 41 on EW: PE 1 made no further collective call (40 in all) while PE 0 made RPN_COMM_barrier");
    }

    #[test]
    fn the_last_call_published_is_told_for_its_routine_only() {
        publish_last(57, &allreduce(16, Operator::Sum));
        assert_eq!(
            describe_last("RPN_COMM_allreduce").as_deref(),
            Some("call 57 on its communicator: RPN_COMM_allreduce of 16 bytes of MPI_REAL8 with MPI_SUM")
        );
        assert_eq!(describe_last("RPN_COMM_bcast"), None);
    }

    #[test]
    fn a_difference_older_than_the_kept_calls_is_still_told() {
        let mut logs = vec![CallLog::default(); 2];
        logs[1].note(allreduce(8, Operator::Sum));
        logs[0].note(allreduce(8, Operator::Max));
        for log in &mut logs {
            for _ in 0..KEPT {
                log.note(allreduce(8, Operator::Sum));
            }
        }
        assert!(first_difference(&logs, "GRID").unwrap().contains("differ before their last 16"));
    }
}
