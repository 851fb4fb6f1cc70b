//! The agreement step that starts every collective call: before any PE acts, every PE of the
//! communicator says which collective routine it is in (`CollectiveId`), whether its own
//! arguments were valid, and a payload of integers, so that either all PEs go on or all fail
//! with a message, none waits forever for a PE that refused, and PEs that entered different
//! collectives are told so ("PE 1 is in RPN_COMM_barrier while PE 0 is in RPN_COMM_allreduce")
//! instead of pairing one routine's internal steps with another's.
//!
//! Every agreement exchanges records of one fixed size (`RECORD_WORDS`), whatever the routine
//! and its payload: two PEs in different collectives still make the same exchange (same bytes
//! on every transport, one round), read each other's routine and both stop there. What room
//! the payload leaves in the record carries a collective's data when it is small
//! (`agree_inline`): an allreduce of a few values is then one exchange, not two.

use super::Runtime;
use crate::core::{CollectiveId, Communicator};
use crate::error::{Error, Result};

/// Words of one PE's record: [refused, routine code, payload length, data bytes (or
/// NO_DATA), payload, data, zeros].
const RECORD_WORDS: usize = 64;
const HEADER_WORDS: usize = 4;
/// The longest payload an agreement carries.
pub(super) const MAX_PAYLOAD: usize = 32;
/// Data that did not fit in the record (sent by a second exchange).
const NO_DATA: u32 = u32::MAX;
const RECORD_BYTES: usize = 4 * RECORD_WORDS;

/// Every PE's payload in rank order, and every PE's data when the records carried it.
type Agreed = (Vec<Vec<u32>>, Option<Vec<u8>>);

/// This PE's record, with `data` in it when it fits after the payload.
fn record(id: CollectiveId, local: &Result<()>, payload: &[u32], data: &[u8]) -> [u8; RECORD_BYTES] {
    assert!(payload.len() <= MAX_PAYLOAD, "agreement payloads are small");
    let at = 4 * (HEADER_WORDS + payload.len());
    let inline = data.len() <= RECORD_BYTES - at;
    let header = [local.is_err() as u32, id.code(), payload.len() as u32, if inline { data.len() as u32 } else { NO_DATA }];
    let mut bytes = [0u8; RECORD_BYTES];
    for (to, w) in bytes.chunks_exact_mut(4).zip(header.iter().chain(payload)) {
        to.copy_from_slice(&w.to_ne_bytes());
    }
    if inline {
        bytes[at..at + data.len()].copy_from_slice(data);
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
    let rows = all.chunks_exact(RECORD_BYTES);
    if let Some((pe, row)) = rows.clone().enumerate().find(|(_, row)| word(row, 1) != id.code()) {
        return Err(Error::Collective(CollectiveId::mismatch(pe, word(row, 1), me, id)));
    }
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
    pub(super) fn agree(&mut self, comm: &Communicator, id: CollectiveId, local: &Result<()>, payload: &[u32]) -> Result<Vec<Vec<u32>>> {
        self.agree_inline(comm, id, local, payload, &[]).map(|(rows, _)| rows)
    }

    /// `agree`, carrying this PE's `data` of a collective in the same exchange when every PE's
    /// fits in its record: then the second part is every PE's data in rank order (None when
    /// one PE's did not fit, or the PEs gave different lengths: the caller judges the payloads
    /// and exchanges the data itself).
    pub(super) fn agree_inline(
        &mut self,
        comm: &Communicator,
        id: CollectiveId,
        local: &Result<()>,
        payload: &[u32],
        data: &[u8],
    ) -> Result<Agreed> {
        let mut all = vec![0u8; RECORD_BYTES * comm.size()];
        self.transport.allgather(comm, &record(id, local, payload, data), &mut all)?;
        judge(&all, comm.rank(), id, local, payload.len())?;
        let rows: Vec<&[u8]> = all.chunks_exact(RECORD_BYTES).collect();
        let at = 4 * (HEADER_WORDS + payload.len());
        let inline = rows.iter().all(|row| word(row, 3) == data.len() as u32 && data.len() <= RECORD_BYTES - at);
        let gathered = inline.then(|| rows.iter().flat_map(|row| row[at..at + data.len()].iter().copied()).collect());
        Ok((rows.iter().map(|row| (0..payload.len()).map(|i| word(row, HEADER_WORDS + i)).collect()).collect(), gathered))
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
        bytes.resize(RECORD_BYTES * comm.size(), 0);
        self.transport.allgather(comm, &record(id, local, payload, &[]), bytes)?;
        judge(bytes, comm.rank(), id, local, N)?;
        rows.clear();
        rows.extend(bytes.chunks_exact(RECORD_BYTES).map(|row| std::array::from_fn(|i| word(row, HEADER_WORDS + i))));
        Ok(())
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
        let all = gathered(&[record(CollectiveId::Allreduce, &Ok(()), &[8], &[1; 8]), record(CollectiveId::Barrier, &Ok(()), &[], &[])]);
        let on0 = judge(&all, 0, CollectiveId::Allreduce, &Ok(()), 1).unwrap_err().to_string();
        assert!(on0.ends_with("PE 1 is in RPN_COMM_barrier while PE 0 is in RPN_COMM_allreduce"), "{on0}");
        let on1 = judge(&all, 1, CollectiveId::Barrier, &Ok(()), 0).unwrap_err().to_string();
        assert!(on1.ends_with("PE 0 is in RPN_COMM_allreduce while PE 1 is in RPN_COMM_barrier"), "{on1}");
    }

    #[test]
    fn same_routine_then_own_error_then_first_refusal() {
        let bad = Err(Error::BadArgument("x".into()));
        let all = gathered(&[record(CollectiveId::Bcast, &Ok(()), &[1, 2], &[]), record(CollectiveId::Bcast, &bad, &[0, 0], &[])]);
        assert!(judge(&all, 0, CollectiveId::Bcast, &Ok(()), 2).unwrap_err().to_string().contains("PE 1 refused"));
        assert!(matches!(judge(&all, 1, CollectiveId::Bcast, &bad, 2), Err(Error::BadArgument(_))));
        let fine = gathered(&[record(CollectiveId::Bcast, &Ok(()), &[1, 2], &[]); 3]);
        assert!(judge(&fine, 2, CollectiveId::Bcast, &Ok(()), 2).is_ok());
    }

    #[test]
    fn a_pe_that_wrote_nothing_is_in_no_collective() {
        let all = gathered(&[record(CollectiveId::Barrier, &Ok(()), &[], &[]), [0u8; RECORD_BYTES]]);
        let e = judge(&all, 0, CollectiveId::Barrier, &Ok(()), 0).unwrap_err().to_string();
        assert!(e.ends_with("PE 1 is in no collective call while PE 0 is in RPN_COMM_barrier"), "{e}");
    }

    #[test]
    fn small_data_travels_in_the_record_large_data_does_not() {
        let fits = vec![7u8; RECORD_BYTES - 4 * (HEADER_WORDS + 3)];
        let r = record(CollectiveId::Allreduce, &Ok(()), &[1, 2, 3], &fits);
        assert_eq!(word(&r, 3), fits.len() as u32);
        assert_eq!(&r[4 * (HEADER_WORDS + 3)..], &fits[..]);
        let too_long = vec![7u8; fits.len() + 1];
        let r = record(CollectiveId::Allreduce, &Ok(()), &[1, 2, 3], &too_long);
        assert_eq!(word(&r, 3), NO_DATA);
        assert!(r[4 * (HEADER_WORDS + 3)..].iter().all(|&b| b == 0), "nothing of it in the record");
    }
}
