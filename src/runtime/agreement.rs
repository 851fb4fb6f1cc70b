//! The agreement step that starts every collective call: before any PE acts, every PE of the
//! communicator says which collective routine it is in (`CollectiveId`), whether its own
//! arguments were valid, and a payload of integers, so that either all PEs go on or all fail
//! with a message, none waits forever for a PE that refused, and PEs that entered different
//! collectives are told so ("PE 1 is in RPN_COMM_barrier while PE 0 is in RPN_COMM_allreduce")
//! instead of pairing one routine's internal steps with another's.
//!
//! Every agreement exchanges records of one fixed size (`RECORD_WORDS`), whatever the routine
//! and its payload: two PEs in different collectives still make the same exchange (same bytes
//! on every transport, one round), read each other's routine and both stop there.

use super::Runtime;
use crate::core::{CollectiveId, Communicator};
use crate::error::{Error, Result};

/// Words of one PE's record: [refused, routine code, payload length, payload, zeros].
const RECORD_WORDS: usize = 32;
/// The longest payload an agreement carries.
pub(super) const MAX_PAYLOAD: usize = RECORD_WORDS - 3;

/// This PE's record.
fn record(id: CollectiveId, local: &Result<()>, payload: &[u32]) -> [u8; 4 * RECORD_WORDS] {
    assert!(payload.len() <= MAX_PAYLOAD, "agreement payloads are small");
    let mut words = [0u32; RECORD_WORDS];
    words[0] = local.is_err() as u32;
    words[1] = id.code();
    words[2] = payload.len() as u32;
    words[3..3 + payload.len()].copy_from_slice(payload);
    let mut bytes = [0u8; 4 * RECORD_WORDS];
    for (at, w) in bytes.chunks_exact_mut(4).zip(words) {
        at.copy_from_slice(&w.to_ne_bytes());
    }
    bytes
}

fn word(row: &[u8], i: usize) -> u32 {
    u32::from_ne_bytes(row[4 * i..4 * i + 4].try_into().expect("4 bytes"))
}

/// Judges the gathered records (`all`, one per PE in rank order) for this PE (`me`, in
/// routine `id`, with its own verdict `local`): first the routines (a PE in another collective
/// is named with its routine), then this PE's own error, then the first PE that refused.
fn judge(all: &[u8], me: usize, id: CollectiveId, local: &Result<()>, len: usize) -> Result<()> {
    let rows = all.chunks_exact(4 * RECORD_WORDS);
    if let Some((pe, row)) = rows.clone().enumerate().find(|(_, row)| word(row, 1) != id.code()) {
        return Err(Error::Collective(CollectiveId::mismatch(pe, word(row, 1), me, id)));
    }
    local.clone()?;
    if let Some(pe) = rows.clone().position(|row| word(row, 0) != 0) {
        return Err(Error::Collective(format!("PE {pe} refused the call (see its message)")));
    }
    if let Some(pe) = rows.clone().position(|row| word(row, 2) as usize != len) {
        return Err(Error::Internal(format!(
            "{id}: PE {pe} agrees on {} integers, this PE on {len}",
            word(&all[pe * 4 * RECORD_WORDS..], 2)
        )));
    }
    Ok(())
}

impl Runtime {
    /// Gathers the routine `id`, `local`'s verdict and `payload` from every PE of `comm` (see
    /// `judge` for the order of the errors); every PE's payload in rank order.
    pub(super) fn agree(&mut self, comm: &Communicator, id: CollectiveId, local: &Result<()>, payload: &[u32]) -> Result<Vec<Vec<u32>>> {
        let mut all = vec![0u8; 4 * RECORD_WORDS * comm.size()];
        self.transport.allgather(comm, &record(id, local, payload), &mut all)?;
        judge(&all, comm.rank(), id, local, payload.len())?;
        Ok(all.chunks_exact(4 * RECORD_WORDS).map(|row| (0..payload.len()).map(|i| word(row, 3 + i)).collect()).collect())
    }

    /// `agree` for a fixed-size payload, into buffers the caller keeps between calls (`bytes`
    /// for the gathered records, `rows` for every PE's payload in rank order), so that a call
    /// made again and again allocates nothing once they have grown.
    pub(super) fn agree_into<const N: usize>(
        &mut self,
        comm: &Communicator,
        id: CollectiveId,
        local: &Result<()>,
        payload: &[u32; N],
        bytes: &mut Vec<u8>,
        rows: &mut Vec<[u32; N]>,
    ) -> Result<()> {
        bytes.resize(4 * RECORD_WORDS * comm.size(), 0);
        self.transport.allgather(comm, &record(id, local, payload), bytes)?;
        judge(bytes, comm.rank(), id, local, N)?;
        rows.clear();
        rows.extend(bytes.chunks_exact(4 * RECORD_WORDS).map(|row| std::array::from_fn(|i| word(row, 3 + i))));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gathered(records: &[[u8; 4 * RECORD_WORDS]]) -> Vec<u8> {
        records.concat()
    }

    #[test]
    fn different_routines_name_both_pes_and_routines_on_each() {
        let all = gathered(&[record(CollectiveId::Allreduce, &Ok(()), &[8]), record(CollectiveId::Barrier, &Ok(()), &[])]);
        let on0 = judge(&all, 0, CollectiveId::Allreduce, &Ok(()), 1).unwrap_err().to_string();
        assert!(on0.ends_with("PE 1 is in RPN_COMM_barrier while PE 0 is in RPN_COMM_allreduce"), "{on0}");
        let on1 = judge(&all, 1, CollectiveId::Barrier, &Ok(()), 0).unwrap_err().to_string();
        assert!(on1.ends_with("PE 0 is in RPN_COMM_allreduce while PE 1 is in RPN_COMM_barrier"), "{on1}");
    }

    #[test]
    fn same_routine_then_own_error_then_first_refusal() {
        let bad = Err(Error::BadArgument("x".into()));
        let all = gathered(&[record(CollectiveId::Bcast, &Ok(()), &[1, 2]), record(CollectiveId::Bcast, &bad, &[0, 0])]);
        assert!(judge(&all, 0, CollectiveId::Bcast, &Ok(()), 2).unwrap_err().to_string().contains("PE 1 refused"));
        assert!(matches!(judge(&all, 1, CollectiveId::Bcast, &bad, 2), Err(Error::BadArgument(_))));
        let fine = gathered(&[record(CollectiveId::Bcast, &Ok(()), &[1, 2]); 3]);
        assert!(judge(&fine, 2, CollectiveId::Bcast, &Ok(()), 2).is_ok());
    }

    #[test]
    fn a_pe_that_wrote_nothing_is_in_no_collective() {
        let all = gathered(&[record(CollectiveId::Barrier, &Ok(()), &[]), [0u8; 4 * RECORD_WORDS]]);
        let e = judge(&all, 0, CollectiveId::Barrier, &Ok(()), 0).unwrap_err().to_string();
        assert!(e.ends_with("PE 1 is in no collective call while PE 0 is in RPN_COMM_barrier"), "{e}");
    }
}
