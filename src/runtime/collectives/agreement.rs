//! The agreement step that starts the collective calls not made as `check` says (and every one
//! in the checking mode): before any PE acts, every PE of the
//! communicator says which collective routine it is in (`CollectiveId`), whether its own
//! arguments were valid, and a payload of integers, so that either all PEs go on or all fail
//! with a message, none waits forever for a PE that refused, and PEs that entered different
//! collectives are told so ("PE 1 is in RPN_COMM_barrier while PE 0 is in RPN_COMM_allreduce")
//! instead of pairing one routine's internal steps with another's.
//!
//! Every agreement exchanges records of one fixed size (`core::collective::record`), whatever the routine
//! and its payload: two PEs in different collectives still make the same exchange (same bytes
//! on every transport, one round), read each other's routine and both stop there. What room
//! the payload leaves in the record carries a collective's data when it is small
//! (`agree_inline`): an allreduce of a few values is then one exchange, not two.

use super::super::Runtime;
use super::check::{end_if_peer_in_own_call, end_job_on_mismatch, made_rooted};
use crate::core::collective::{self, HEADER_WORDS, RECORD_BYTES, check_routines, data_offset, word};
use crate::core::collectives::call_log::CallEntry;
use crate::core::{CollectiveId, Communicator};
use crate::error::{Error, Result};

/// Every PE's payload in rank order, and every PE's data when the records carried it.
type Agreed = (Vec<Vec<u32>>, Option<Vec<u8>>);

/// This PE's record, with the `signature` of its unchecked calls on the communicator.
fn record(id: CollectiveId, local: &Result<()>, signature: u64, payload: &[u32], data: &[u8]) -> [u8; RECORD_BYTES] {
    collective::record(id, local.is_err(), signature, payload, data)
}

/// Judges the gathered records (`all`, one per PE in rank order) for this PE (`me`, in
/// routine `id`, with its own verdict `local`): first the routines (a PE in another collective
/// is named with its routine), then this PE's own error, then the first PE that refused.
fn judge(all: &[u8], me: usize, id: CollectiveId, local: &Result<()>, len: usize) -> Result<()> {
    let rows = all.chunks_exact(RECORD_BYTES);
    check_routines(all, me, id)?;
    local.clone()?;
    if let Some(pe) = rows.clone().position(|row| word(row, 0) != 0) {
        return Err(Error::Collective(format!("PE {pe} refused the call (see its message)")));
    }
    if let Some(pe) = rows.clone().position(|row| word(row, 2) as usize != len) {
        return Err(Error::Internal(format!("{id}: PE {pe} agrees on {} integers, this PE on {len}", word(&all[pe * RECORD_BYTES..], 2))));
    }
    Ok(())
}

impl Runtime {
    /// Gathers the routine `id`, `local`'s verdict and `payload` from every PE of `comm` (see
    /// `judge` for the order of the errors); every PE's payload in rank order.
    pub(in crate::runtime) fn agree(
        &mut self,
        comm: &Communicator,
        id: CollectiveId,
        local: &Result<()>,
        payload: &[u32],
    ) -> Result<Vec<Vec<u32>>> {
        self.agree_inline(comm, id, local, payload, &[]).map(|(rows, _)| rows)
    }

    /// `agree`, carrying this PE's `data` of a collective in the same exchange when every PE's
    /// fits in its record: then the second part is every PE's data in rank order (None when
    /// one PE's did not fit, or the PEs gave different lengths: the caller judges the payloads
    /// and exchanges the data itself).
    pub(in crate::runtime) fn agree_inline(
        &mut self,
        comm: &Communicator,
        id: CollectiveId,
        local: &Result<()>,
        payload: &[u32],
        data: &[u8],
    ) -> Result<Agreed> {
        let mut all = vec![0u8; RECORD_BYTES * comm.size()];
        let signature = self.calls.signature(comm);
        let gathered = self.transport.allgather(comm, &record(id, local, signature, payload, data), &mut all);
        end_if_peer_in_own_call(comm, gathered, CallEntry::new(id, 0, None, None, None), local)?;
        // (a PE may have joined from a halo exchange this PE never entered)
        self.halo_numbers_from(&all);
        // The PEs meet here: their unchecked calls so far must be the same (`check`). Where
        // every PE is in this routine, every PE reads the same records and finds it alike.
        if let Err(e) = check_routines(&all, comm.rank(), id) {
            if all.chunks_exact(RECORD_BYTES).any(made_rooted) {
                end_job_on_mismatch(id, &e);
            }
            return Err(e);
        }
        if all.chunks_exact(RECORD_BYTES).any(|row| collective::signature(row) != signature) {
            self.calls_differ(comm, id)?;
        }
        judge(&all, comm.rank(), id, local, payload.len())?;
        let rows: Vec<&[u8]> = all.chunks_exact(RECORD_BYTES).collect();
        let at = data_offset(payload.len());
        let inline = rows.iter().all(|row| word(row, 3) == data.len() as u32 && data.len() <= RECORD_BYTES - at);
        let gathered = inline.then(|| rows.iter().flat_map(|row| row[at..at + data.len()].iter().copied()).collect());
        Ok((rows.iter().map(|row| (0..payload.len()).map(|i| word(row, HEADER_WORDS + i)).collect()).collect(), gathered))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gathered(records: &[[u8; RECORD_BYTES]]) -> Vec<u8> {
        records.concat()
    }

    #[test]
    fn different_routines_name_both_pes_and_routines_on_each() {
        let all =
            gathered(&[record(CollectiveId::Allreduce, &Ok(()), 0, &[8], &[1; 8]), record(CollectiveId::Barrier, &Ok(()), 0, &[], &[])]);
        let on0 = judge(&all, 0, CollectiveId::Allreduce, &Ok(()), 1).unwrap_err().to_string();
        assert!(on0.ends_with("PE 1 is in RPN_COMM_barrier while PE 0 is in RPN_COMM_allreduce"), "{on0}");
        let on1 = judge(&all, 1, CollectiveId::Barrier, &Ok(()), 0).unwrap_err().to_string();
        assert!(on1.ends_with("PE 0 is in RPN_COMM_allreduce while PE 1 is in RPN_COMM_barrier"), "{on1}");
    }

    #[test]
    fn same_routine_then_own_error_then_first_refusal() {
        let bad = Err(Error::BadArgument("x".into()));
        let all = gathered(&[record(CollectiveId::Bcast, &Ok(()), 0, &[1, 2], &[]), record(CollectiveId::Bcast, &bad, 0, &[0, 0], &[])]);
        assert!(judge(&all, 0, CollectiveId::Bcast, &Ok(()), 2).unwrap_err().to_string().contains("PE 1 refused"));
        assert!(matches!(judge(&all, 1, CollectiveId::Bcast, &bad, 2), Err(Error::BadArgument(_))));
        let fine = gathered(&[record(CollectiveId::Bcast, &Ok(()), 0, &[1, 2], &[]); 3]);
        assert!(judge(&fine, 2, CollectiveId::Bcast, &Ok(()), 2).is_ok());
    }

    #[test]
    fn a_pe_that_wrote_nothing_is_in_no_collective() {
        let all = gathered(&[record(CollectiveId::Barrier, &Ok(()), 0, &[], &[]), [0u8; RECORD_BYTES]]);
        let e = judge(&all, 0, CollectiveId::Barrier, &Ok(()), 0).unwrap_err().to_string();
        assert!(e.ends_with("PE 1 is in no collective call while PE 0 is in RPN_COMM_barrier"), "{e}");
    }
}
