//! RPN_COMM_alltoall, RPN_COMM_gatherv and RPN_COMM_scatterv, with the original's arguments
//! (4.6.3: MPI_Alltoall, MPI_Gatherv, MPI_Scatterv over a named communicator); a PE outside the
//! communicator returns at once, as there. Checked as `check` says, at the cost of the original's
//! call:
//! - over MPI's own calls (PEs on several nodes) each is that one call, logged. The root's counts
//!   and displacements are known to the root alone: each PE's block of a gatherv travels behind
//!   its length, which the root checks against its counts, and each block of a scatterv behind
//!   the root's count, which its PE checks against its own; a PE that finds them unlike names
//!   both PEs and ends the job (the others may have gone on). Other differences are found in the
//!   logs' signatures where the PEs meet next;
//! - over an exchange (shared memory; MPI on one node) each PE's call and length travel in one
//!   round (its header, and its data where it fits: the call is then that round), which every PE
//!   reads: a PE in another routine or with another block is named at once; the root of a
//!   gatherv or scatterv checks its counts there and ends the job when one is unlike. Data that
//!   did not fit follow in the transport's exchange (the mailboxes; MPI_Gatherv, MPI_Scatterv or
//!   MPI_Alltoall on one node).
//!
//! In the checking mode each starts with the agreement step (routine, root, this PE's byte
//! count); the root checks its counts against every PE's and a second step tells every PE its
//! verdict, so that all fail together before any byte moves.

use super::super::Runtime;
use super::super::caller_buffers::{caller_bytes, read_caller_bytes, write_caller_bytes};
use super::check::{ROUND_DATA_BYTES, end_job_on_mismatch};
use crate::core::blocks::{self, Block, Names};
use crate::core::collectives::call_log::CallEntry;
use crate::core::{CollectiveId, Communicator, MessageType};
use crate::error::{Error, Result};

/// A byte count as two payload words (low, high).
fn words(bytes: usize) -> [u32; 2] {
    let b = bytes as u64;
    [b as u32, (b >> 32) as u32]
}

/// The byte count of `words` at `at` of a payload row.
fn bytes_at(row: &[u32], at: usize) -> usize {
    (u64::from(row[at]) | (u64::from(row[at + 1]) << 32)) as usize
}

/// `root` as a rank of `comm`.
fn root_rank(comm: &Communicator, root: i32) -> Result<usize> {
    usize::try_from(root).ok().filter(|&r| r < comm.size()).ok_or_else(|| Error::BadRank {
        rank: i64::from(root),
        npes: comm.size(),
        comm: comm.name().map_or(String::new(), |n| format!(" '{n}'")),
    })
}

/// The caller's `n` integers at `addr` (an array argument of the root).
///
/// # Safety
/// `addr` is null or holds `n` integers.
unsafe fn read_ints(addr: usize, n: usize, what: &'static str) -> Result<Vec<i32>> {
    if addr == 0 && n > 0 {
        return Err(Error::NullBuffer { what, nelem: n as i64 });
    }
    // SAFETY: the caller's contract: addr holds n integers.
    let bytes = unsafe { read_caller_bytes(addr, 4 * n) };
    Ok(bytes.chunks_exact(4).map(|c| i32::from_ne_bytes(c.try_into().expect("4 bytes"))).collect())
}

/// The address `at` bytes into the caller's buffer `base`.
fn offset(base: usize, at: usize) -> Result<usize> {
    base.checked_add(at).ok_or_else(|| Error::BadArgument("a displacement reaches past the address space".into()))
}

/// Bytes of a length in front of a block (`framed`, `length_at`).
const LENGTH_BYTES: usize = 8;

/// `data` behind its length: a block of a gatherv or scatterv in the default mode.
fn framed(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(LENGTH_BYTES + data.len());
    out.extend_from_slice(&(data.len() as u64).to_ne_bytes());
    out.extend_from_slice(data);
    out
}

/// The length at the start of `bytes` (`framed`); u64::MAX where they are too short to hold one.
fn length_at(bytes: &[u8]) -> u64 {
    bytes.get(..LENGTH_BYTES).map_or(u64::MAX, |b| u64::from_ne_bytes(b.try_into().expect("8 bytes")))
}

/// The root's counts (`blocks`) against the PEs' lengths (`lengths`): the line naming the first
/// PE whose length is not the root's count for it (`verb`: "sends", "receives").
fn unlike_counts(blocks: &[Block], lengths: &[usize], names: Names, verb: &str) -> Option<Error> {
    match blocks::check_lengths(blocks, lengths, names, verb) {
        Ok(()) => None,
        Err(Error::BadArgument(text)) | Err(Error::Collective(text)) => Some(Error::Collective(text)),
        Err(other) => Some(other),
    }
}

/// The blocks of a gatherv made with MPI's own call (`framed`) whose length MPI never wrote, which
/// it leaves all bits set (`transport::mpi::collectives::gatherv`): a PE that sends more than the
/// root's count for it, whose block MPI truncates; where several are missing (Open MPI may end the
/// whole call at the first), the line names them all.
fn truncated_blocks(lengths: &[usize], blocks: &[Block], names: Names) -> Option<Error> {
    let missing: Vec<usize> = (0..lengths.len()).filter(|&p| lengths[p] as u64 == u64::MAX).collect();
    match missing[..] {
        [] => None,
        [p] => Some(Error::Collective(format!(
            "{}({}) makes {} bytes for PE {p}, which sends more (MPI truncated its block)",
            names.counts,
            p + 1,
            blocks[p].len
        ))),
        _ => Some(Error::Collective(format!(
            "MPI truncated or dropped the blocks of PEs {}: one at least sends more than {} gives it",
            missing.iter().map(usize::to_string).collect::<Vec<_>>().join(", "),
            names.counts
        ))),
    }
}

/// The root's count for itself (`blocks[me]`) against its own length `bytes`: refused here, before
/// any PE acts, where they differ.
fn own_length(blocks: &[Block], me: usize, bytes: usize, names: Names, verb: &str) -> Result<()> {
    match blocks.get(me) {
        Some(b) if b.len != bytes => {
            Err(Error::BadArgument(format!("{}({}) makes {} bytes for PE {me}, which {verb} {bytes} bytes", names.counts, me + 1, b.len)))
        }
        _ => Ok(()),
    }
}

/// Every PE's length and, where it fitted, data, from the round of a gatherv or scatterv over an
/// exchange (`Runtime::lengths_round`).
struct Lengths {
    lengths: Vec<usize>,
    /// Every PE's data carried in the round (None where it did not fit).
    inline: Vec<Option<Vec<u8>>>,
}

/// Every PE agrees on the root: the first PE that gives another is named.
fn same_root(id: CollectiveId, rows: &[Vec<u32>]) -> Result<()> {
    match rows.iter().position(|r| r[0] != rows[0][0]) {
        Some(pe) => Err(Error::Collective(format!("{id}: PE {pe} gives root {}, PE 0 root {}", rows[pe][0] as i32, rows[0][0] as i32))),
        None => Ok(()),
    }
}

impl Runtime {
    /// The round of a gatherv or scatterv over an exchange (`check`): every PE's call, its
    /// `length` and its `data` where it fits the round, read by every PE (a PE in another routine
    /// is named there, on every PE). Every PE's block has room for the round's length, so that
    /// it is one round on every communicator, and is read as long as it is
    /// (`exchange_with_room`): P times the data and 48 bytes per PE, not P rounds' worth.
    fn lengths_round(&mut self, comm: &Communicator, entry: CallEntry, local: &Result<()>, length: usize, data: &[u8]) -> Result<Lengths> {
        const AT: usize = 2 * LENGTH_BYTES;
        let fits = AT + data.len() <= ROUND_DATA_BYTES;
        let mut block = Vec::with_capacity(AT + data.len());
        block.extend_from_slice(&(length as u64).to_ne_bytes());
        let carried = if fits { data.len() as u64 } else { u64::MAX };
        block.extend_from_slice(&carried.to_ne_bytes());
        if fits {
            block.extend_from_slice(data);
        }
        let all = self.exchange_with_room(comm, entry, local, &block, ROUND_DATA_BYTES)?;
        let lengths = all.each().map(|b| length_at(b) as usize).collect();
        let inline = all
            .each()
            .map(|b| {
                let carried = length_at(&b[LENGTH_BYTES..]);
                (carried as usize <= ROUND_DATA_BYTES - AT).then(|| b[AT..AT + carried as usize].to_vec())
            })
            .collect();
        Ok(Lengths { lengths, inline })
    }

    /// RPN_COMM_alltoall: `sendcount` elements of `sendtype` to every PE of `com` (the blocks in
    /// rank order in `send`), `recvcnt` elements of `recvtype` from each into `recv`, in rank
    /// order. The byte counts must be equal, on every PE.
    ///
    /// # Safety
    /// `send` holds and `recv` has room for (PEs of `com`) blocks.
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn alltoall(
        &mut self,
        send: usize,
        sendcount: i32,
        sendtype: &str,
        recv: usize,
        recvcnt: i32,
        recvtype: &str,
        com: &str,
    ) -> Result<()> {
        let Some(comm) = self.named(com)? else { return Ok(()) };
        let n = comm.size();
        let checked = (|| {
            let sbytes = MessageType::from_name(sendtype)?.message_size("sendcount", sendcount)?;
            let rbytes = MessageType::from_name(recvtype)?.message_size("recvcnt", recvcnt)?;
            if sbytes != rbytes {
                return Err(Error::BadArgument(format!("sends {sbytes} bytes to each PE but receives {rbytes} from each")));
            }
            let total = sbytes.checked_mul(n).ok_or_else(|| Error::BadArgument(format!("{n} blocks of {sbytes} bytes")))?;
            if total > 0 && (send == 0 || recv == 0) {
                return Err(Error::NullBuffer { what: "alltoall", nelem: i64::from(sendcount) });
            }
            Ok(sbytes)
        })();
        let id = CollectiveId::Alltoall;
        let local = checked.as_ref().map(drop).map_err(Clone::clone);
        if !self.checks_each_call() {
            let entry = CallEntry::new(id, *checked.as_ref().unwrap_or(&0), None, None, None);
            // SAFETY: the caller's contract: send holds n blocks (read only when the arguments
            // are valid), not written by this call.
            let mine = checked.as_ref().map_or(&[][..], |&block| unsafe { caller_bytes(send, block * n) });
            let mut got = vec![0u8; mine.len()];
            if self.logs_calls(&comm) {
                self.log_call(&comm, entry, &local)?;
                let block = checked?;
                self.unchecked(&comm, id, |tr| tr.alltoall(&comm, mine, block, &mut got))?;
            } else if mine.len() <= ROUND_DATA_BYTES {
                // one round: every PE's blocks beside its call
                let all = self.exchange(&comm, entry, &local, mine)?;
                let block = checked?;
                let me = comm.rank();
                for (p, row) in all.each().enumerate() {
                    got[p * block..(p + 1) * block].copy_from_slice(&row[me * block..(me + 1) * block]);
                }
            } else {
                // the calls first (a round of headers), then the transport's exchange
                self.exchange(&comm, entry, &local, &[])?;
                let block = checked?;
                self.unchecked(&comm, id, |tr| tr.alltoall(&comm, mine, block, &mut got))?;
            }
            // SAFETY: the caller's contract: recv has room for n blocks (got holds as many).
            unsafe { write_caller_bytes(&got, recv) };
            return Ok(());
        }
        let rows = self.agree(&comm, id, &local, &words(*checked.as_ref().unwrap_or(&0)))?;
        let block = checked?;
        if let Some(pe) = rows.iter().position(|r| r != &rows[0]) {
            return Err(Error::Collective(format!(
                "{id}: PE {pe} sends {} bytes to each PE, PE 0 {}",
                bytes_at(&rows[pe], 0),
                bytes_at(&rows[0], 0)
            )));
        }
        // SAFETY: the caller's contract: send holds n blocks.
        let mine = unsafe { read_caller_bytes(send, block * n) };
        let mut got = vec![0u8; block * n];
        self.transport.alltoall(&comm, &mine, block, &mut got)?;
        // SAFETY: the caller's contract: recv has room for n blocks (got holds as many).
        unsafe { write_caller_bytes(&got, recv) };
        Ok(())
    }

    /// RPN_COMM_gatherv: `sendcount` elements of `sendtype` from every PE of `com` into `recv`
    /// on the PE of rank `root`, PE p's at `disp[p]` elements of `rectype`, `reccountv[p]`
    /// elements long (the root's arrays; the others' are not read).
    ///
    /// # Safety
    /// `send` holds `sendcount` elements; on the root `reccountv` and `disp` hold one integer per
    /// PE of `com` and `recv` has room for every block.
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn gatherv(
        &mut self,
        send: usize,
        sendcount: i32,
        sendtype: &str,
        recv: usize,
        reccountv: usize,
        disp: usize,
        rectype: &str,
        root: i32,
        com: &str,
    ) -> Result<()> {
        let Some(comm) = self.named(com)? else { return Ok(()) };
        let (n, me) = (comm.size(), comm.rank());
        let names = Names { counts: "reccountv", displs: "disp" };
        let checked = (|| {
            let sbytes = MessageType::from_name(sendtype)?.message_size("sendcount", sendcount)?;
            if sbytes > 0 && send == 0 {
                return Err(Error::NullBuffer { what: "gatherv send", nelem: i64::from(sendcount) });
            }
            let blocks = if root_rank(&comm, root)? == me {
                let t = MessageType::from_name(rectype)?;
                // SAFETY: the caller's contract: on the root both arrays hold n integers.
                let (counts, displs) = unsafe { (read_ints(reccountv, n, "reccountv")?, read_ints(disp, n, "disp")?) };
                let b = blocks::blocks(t, &counts, &displs, true, names)?;
                own_length(&b, me, sbytes, names, "sends")?;
                if recv == 0 && b.iter().any(|b| b.len > 0) {
                    return Err(Error::NullBuffer { what: "gatherv receive", nelem: counts.iter().map(|&c| i64::from(c)).sum() });
                }
                Some(b)
            } else {
                None
            };
            Ok((sbytes, blocks))
        })();
        let id = CollectiveId::Gatherv;
        if !self.checks_each_call() {
            let checked = checked.and_then(|(sbytes, blocks)| Ok((sbytes, blocks, root_rank(&comm, root)?)));
            let local = checked.as_ref().map(drop).map_err(Clone::clone);
            let entry = CallEntry::new(id, 0, None, None, checked.as_ref().ok().map(|c| c.2));
            // SAFETY: the caller's contract: send holds sbytes bytes (read only when the
            // arguments are valid), not written by this call.
            let mine = checked.as_ref().map_or(&[][..], |c| unsafe { caller_bytes(send, c.0) });
            let (data, blocks) = if self.logs_calls(&comm) {
                self.log_call(&comm, entry, &local)?;
                let (_, blocks, root) = checked?;
                // every PE's block behind its length, which the root checks
                let counts: Vec<usize> = blocks.iter().flatten().map(|b| LENGTH_BYTES + b.len).collect();
                let got = self.unchecked(&comm, id, |tr| tr.gatherv_to(&comm, &framed(mine), &counts, root))?;
                let (Some(got), Some(blocks)) = (got, blocks) else { return Ok(()) };
                let (mut lengths, mut data) = (Vec::with_capacity(n), Vec::with_capacity(n));
                let mut at = 0;
                for b in &blocks {
                    lengths.push(length_at(&got[at..]) as usize);
                    data.push(got[at + LENGTH_BYTES..][..b.len].to_vec());
                    at += LENGTH_BYTES + b.len;
                }
                if let Some(found) = truncated_blocks(&lengths, &blocks, names).or_else(|| unlike_counts(&blocks, &lengths, names, "sends"))
                {
                    end_job_on_mismatch(id, &found);
                }
                (data, blocks)
            } else {
                let round = self.lengths_round(&comm, entry, &local, mine.len(), mine)?;
                let (_, blocks, root) = checked?;
                if let Some(found) = blocks.as_deref().and_then(|b| unlike_counts(b, &round.lengths, names, "sends")) {
                    end_job_on_mismatch(id, &found);
                }
                // the blocks that did not fit the round
                let rest: Vec<usize> = round.inline.iter().zip(&round.lengths).map(|(i, &l)| if i.is_some() { 0 } else { l }).collect();
                let mut later = if rest.iter().any(|&l| l > 0) {
                    let own = if rest[me] > 0 { mine } else { &[] };
                    self.unchecked(&comm, id, |tr| tr.gatherv_to(&comm, own, &rest, root))?.unwrap_or_default()
                } else {
                    Vec::new()
                };
                let Some(blocks) = blocks else { return Ok(()) };
                let data = round
                    .inline
                    .into_iter()
                    .zip(&round.lengths)
                    .map(|(i, &len)| i.unwrap_or_else(|| later.drain(..len).collect()))
                    .collect();
                (data, blocks)
            };
            for (Block { at, .. }, bytes) in blocks.iter().zip(&data) {
                // SAFETY: the caller's contract: recv has room for every block (checked disjoint).
                unsafe { write_caller_bytes(bytes, offset(recv, *at)?) };
            }
            return Ok(());
        }
        let sbytes = checked.as_ref().map_or(0, |(s, _)| *s);
        let payload = [root as u32, words(sbytes)[0], words(sbytes)[1]];
        let rows = self.agree(&comm, id, &checked.as_ref().map(drop).map_err(Clone::clone), &payload)?;
        let (sbytes, blocks) = checked?;
        same_root(id, &rows)?;
        let root = root_rank(&comm, root)?;
        let sent: Vec<usize> = rows.iter().map(|r| bytes_at(r, 1)).collect();
        let verdict = blocks.as_deref().map_or(Ok(()), |b| blocks::check_lengths(b, &sent, names, "sends"));
        self.agree(&comm, id, &verdict, &[])?;
        // SAFETY: the caller's contract: send holds sbytes bytes.
        let mine = unsafe { read_caller_bytes(send, sbytes) };
        let mut send_counts = vec![0; n];
        send_counts[root] = sbytes;
        let recv_counts = if me == root { sent.clone() } else { vec![0; n] };
        let got = self.transport.alltoallv(&comm, &mine, &send_counts, &recv_counts)?;
        if let Some(blocks) = blocks {
            let mut from = 0;
            for Block { at, len } in blocks {
                // SAFETY: the caller's contract: recv has room for every block (checked disjoint).
                unsafe { write_caller_bytes(&got[from..from + len], offset(recv, at)?) };
                from += len;
            }
        }
        Ok(())
    }

    /// RPN_COMM_scatterv: from `send` on the PE of rank `root` of `com`, `sendcount[p]` elements
    /// of `sendtype` at `disp[p]` elements to PE p, into its `recv` (`reccountv` elements of
    /// `rectype`; the root's arrays, the others' are not read).
    ///
    /// # Safety
    /// On the root `sendcount` and `disp` hold one integer per PE of `com` and `send` holds every
    /// block; `recv` has room for `reccountv` elements.
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn scatterv(
        &mut self,
        send: usize,
        sendcount: usize,
        disp: usize,
        sendtype: &str,
        recv: usize,
        reccountv: i32,
        rectype: &str,
        root: i32,
        com: &str,
    ) -> Result<()> {
        let Some(comm) = self.named(com)? else { return Ok(()) };
        let (n, me) = (comm.size(), comm.rank());
        let names = Names { counts: "sendcount", displs: "disp" };
        let checked = (|| {
            let rbytes = MessageType::from_name(rectype)?.message_size("reccountv", reccountv)?;
            if rbytes > 0 && recv == 0 {
                return Err(Error::NullBuffer { what: "scatterv receive", nelem: i64::from(reccountv) });
            }
            let blocks = if root_rank(&comm, root)? == me {
                let t = MessageType::from_name(sendtype)?;
                // SAFETY: the caller's contract: on the root both arrays hold n integers.
                let (counts, displs) = unsafe { (read_ints(sendcount, n, "sendcount")?, read_ints(disp, n, "disp")?) };
                let b = blocks::blocks(t, &counts, &displs, false, names)?;
                own_length(&b, me, rbytes, names, "receives")?;
                if send == 0 && b.iter().any(|b| b.len > 0) {
                    return Err(Error::NullBuffer { what: "scatterv send", nelem: counts.iter().map(|&c| i64::from(c)).sum() });
                }
                Some(b)
            } else {
                None
            };
            Ok((rbytes, blocks))
        })();
        let id = CollectiveId::Scatterv;
        if !self.checks_each_call() {
            let checked = checked.and_then(|(rbytes, blocks)| Ok((rbytes, blocks, root_rank(&comm, root)?)));
            let local = checked.as_ref().map(drop).map_err(Clone::clone);
            let entry = CallEntry::new(id, 0, None, None, checked.as_ref().ok().map(|c| c.2));
            let mut outgoing = Vec::new();
            if let Ok((_, Some(blocks), _)) = &checked {
                for Block { at, len } in blocks {
                    // SAFETY: the caller's contract: on the root send holds every block.
                    outgoing.extend_from_slice(unsafe { caller_bytes(offset(send, *at)?, *len) });
                }
            }
            let got = if self.logs_calls(&comm) {
                self.log_call(&comm, entry, &local)?;
                let (rbytes, blocks, root) = checked?;
                // every block behind the root's count for it, which its PE checks
                let mut framed_blocks = Vec::with_capacity(outgoing.len() + LENGTH_BYTES * n);
                let mut from = 0;
                for b in blocks.iter().flatten() {
                    framed_blocks.extend_from_slice(&framed(&outgoing[from..from + b.len]));
                    from += b.len;
                }
                let counts: Vec<usize> = blocks.iter().flatten().map(|b| LENGTH_BYTES + b.len).collect();
                let got = self.unchecked(&comm, id, |tr| tr.scatterv_from(&comm, &framed_blocks, &counts, LENGTH_BYTES + rbytes, root))?;
                let length = length_at(&got);
                if length != rbytes as u64 {
                    // (all bits set: MPI truncated the block, longer than this PE receives)
                    let sent = if length == u64::MAX { "more".to_string() } else { format!("{length} bytes") };
                    let text = format!(
                        "{}({}) makes {sent} for PE {me}, which receives {rbytes} bytes (the counts of root PE {root})",
                        names.counts,
                        me + 1
                    );
                    end_job_on_mismatch(id, &Error::Collective(text));
                }
                got[LENGTH_BYTES..].to_vec()
            } else {
                let on_root = checked.as_ref().is_ok_and(|c| c.1.is_some());
                let carried = if on_root { &outgoing[..] } else { &[] };
                let round = self.lengths_round(&comm, entry, &local, *checked.as_ref().map_or(&0, |c| &c.0), carried)?;
                let (rbytes, blocks, root) = checked?;
                if let Some(found) = blocks.as_deref().and_then(|b| unlike_counts(b, &round.lengths, names, "receives")) {
                    end_job_on_mismatch(id, &found);
                }
                let from: usize = round.lengths[..me].iter().sum();
                match &round.inline[root] {
                    Some(all) if all.len() == round.lengths.iter().sum::<usize>() => all[from..from + rbytes].to_vec(),
                    _ => self.unchecked(&comm, id, |tr| tr.scatterv_from(&comm, &outgoing, &round.lengths, rbytes, root))?,
                }
            };
            // SAFETY: the caller's contract: recv has room for rbytes bytes (got holds as many).
            unsafe { write_caller_bytes(&got, recv) };
            return Ok(());
        }
        let rbytes = checked.as_ref().map_or(0, |(r, _)| *r);
        let payload = [root as u32, words(rbytes)[0], words(rbytes)[1]];
        let rows = self.agree(&comm, id, &checked.as_ref().map(drop).map_err(Clone::clone), &payload)?;
        let (rbytes, blocks) = checked?;
        same_root(id, &rows)?;
        let root = root_rank(&comm, root)?;
        let wanted: Vec<usize> = rows.iter().map(|r| bytes_at(r, 1)).collect();
        let verdict = blocks.as_deref().map_or(Ok(()), |b| blocks::check_lengths(b, &wanted, names, "receives"));
        self.agree(&comm, id, &verdict, &[])?;
        let mut outgoing = Vec::new();
        for Block { at, len } in blocks.iter().flatten() {
            // SAFETY: the caller's contract: on the root send holds every block.
            outgoing.extend_from_slice(&unsafe { read_caller_bytes(offset(send, *at)?, *len) });
        }
        let send_counts = if me == root { wanted } else { vec![0; n] };
        let mut recv_counts = vec![0; n];
        recv_counts[root] = rbytes;
        let got = self.transport.alltoallv(&comm, &outgoing, &send_counts, &recv_counts)?;
        // SAFETY: the caller's contract: recv has room for rbytes bytes (got holds as many).
        unsafe { write_caller_bytes(&got, recv) };
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A gatherv's block that MPI truncated (its length never written) is named with the root's
    /// count; several are named together; none leaves the lengths to `unlike_counts`.
    #[test]
    fn blocks_mpi_truncated_are_named() {
        let names = Names { counts: "reccountv", displs: "disp" };
        let t = MessageType::from_name("MPI_REAL8").unwrap();
        let b = blocks::blocks(t, &[2, 2, 2], &[0, 2, 4], true, names).unwrap();
        let cut = u64::MAX as usize;
        assert!(truncated_blocks(&[16, 16, 16], &b, names).is_none());
        let one = truncated_blocks(&[16, 16, cut], &b, names).unwrap().to_string();
        assert!(one.contains("reccountv(3) makes 16 bytes for PE 2, which sends more"), "{one}");
        let two = truncated_blocks(&[cut, 16, cut], &b, names).unwrap().to_string();
        assert!(two.contains("blocks of PEs 0, 2"), "{two}");
    }

    #[test]
    fn byte_counts_travel_as_two_words() {
        for b in [0usize, 1, u32::MAX as usize, (u32::MAX as usize) + 5, 1 << 40] {
            let w = words(b);
            assert_eq!(bytes_at(&[7, w[0], w[1]], 1), b);
        }
    }

    #[test]
    fn a_block_travels_behind_its_length() {
        let f = framed(&[7, 8, 9]);
        assert_eq!((length_at(&f), &f[LENGTH_BYTES..]), (3, &[7u8, 8, 9][..]));
        assert_eq!(length_at(&f[..LENGTH_BYTES - 1]), u64::MAX, "too short to hold one");
    }

    /// One PE: every routine is a copy; refusals write nothing.
    #[test]
    fn one_pe_copies_and_refusals() {
        let mut rt = Runtime::start().unwrap();
        rt.set_grid(1, 1).unwrap();
        let send = [1.5f64, 2.5, 3.5];
        let mut recv = [0f64; 5];
        let (counts, displs) = ([3i32], [2i32]);
        let at = |a: &[f64]| a.as_ptr() as usize;
        // SAFETY: buffers of the sizes given.
        unsafe {
            rt.alltoall(at(&send), 2, "MPI_REAL8", recv.as_mut_ptr() as usize, 2, "mpi_real8", "GRID").unwrap();
            assert_eq!(recv, [1.5, 2.5, 0.0, 0.0, 0.0]);
            recv = [0.0; 5];
            let (c, d) = (counts.as_ptr() as usize, displs.as_ptr() as usize);
            rt.gatherv(at(&send), 3, "MPI_REAL8", recv.as_mut_ptr() as usize, c, d, "MPI_REAL8", 0, "GRID").unwrap();
            assert_eq!(recv, [0.0, 0.0, 1.5, 2.5, 3.5]);
            let mut back = [0f64; 3];
            rt.scatterv(at(&recv), c, d, "MPI_REAL8", back.as_mut_ptr() as usize, 3, "MPI_REAL8", 0, "GRID").unwrap();
            assert_eq!(back, send);
            recv = [9.0; 5];
            let e = rt.gatherv(at(&send), 2, "MPI_REAL8", recv.as_mut_ptr() as usize, c, d, "MPI_REAL8", 0, "GRID").unwrap_err();
            assert!(e.to_string().contains("reccountv(1) makes 24 bytes for PE 0, which sends 16 bytes"), "{e}");
            assert!(rt.alltoall(at(&send), 1, "MPI_REAL8", recv.as_mut_ptr() as usize, 1, "MPI_REAL4", "GRID").is_err());
            assert!(rt.gatherv(at(&send), 3, "MPI_REAL8", recv.as_mut_ptr() as usize, c, d, "MPI_REAL8", 1, "GRID").is_err());
            assert_eq!(recv, [9.0; 5], "nothing written");
        }
    }
}
