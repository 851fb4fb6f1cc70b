//! The original's local distribution tables (RPN_COMM_alloc_dist_table, add_dist_entry,
//! dist_pattern, dist_offsets, get_dist_meta, get_dist_dims, do_dist): a pattern is a set of
//! exchanges, each of one root PE with some client PEs of a named communicator, all of the same
//! number of integers; every PE keeps the part of it it takes part in (its clients where it is the
//! root, its roots where it is a client) and the place of each of its exchanges in a data buffer
//! of its own. RPN_COMM_do_dist then moves the data from the roots to their clients or back.
//!
//! Messages go through the transport's point-to-point channels (shared memory and MPI alike): one
//! message per peer and call, the exchanges with that peer in row order behind an envelope (tag:
//! the pattern number), so that no number of exchanges can fill a channel both ways at once.

use std::collections::BTreeMap;
use std::sync::Mutex;

use super::super::Runtime;
use super::super::caller_buffers::{read_caller_bytes, write_caller_bytes};
use crate::core::MessageType;
use crate::core::envelope::{ENVELOPE_BYTES, Envelope};
use crate::error::{Error, Result};

/// The table's size when RPN_COMM_add_dist_entry makes it (the original's default).
const DEFAULT_PATTERNS: i32 = 16;

/// One exchange of a pattern as this PE sees it, the original's four numbers: the row of the
/// caller's table (from 1), the other PE (its rank in the communicator), the number of integers
/// and their place in the data buffer (from 1; negative where this PE is a client).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Exchange {
    /// Row of the caller's table, from 1.
    pub row: i32,
    /// The other PE's rank in the communicator.
    pub pe: i32,
    /// Number of integers.
    pub length: i32,
    /// Place in the data buffer, from 1; negative where this PE is a client.
    pub offset: i32,
}

/// This PE's part of a pattern.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pattern {
    /// Where this PE is the root: one per client.
    pub clients: Vec<Exchange>,
    /// Where this PE is a client: one per exchange.
    pub sources: Vec<Exchange>,
    /// Per row: the place of its data (negative for a client), 0 where this PE takes no part.
    pub offsets: Vec<i32>,
    /// Integers of the data buffer.
    pub ndata: i32,
    /// The communicator's name.
    pub comm: String,
}

/// The patterns and the table's capacity (None until made).
struct Table {
    capacity: usize,
    patterns: Vec<Pattern>,
}

static TABLE: Mutex<Option<Table>> = Mutex::new(None);

fn table() -> std::sync::MutexGuard<'static, Option<Table>> {
    TABLE.lock().unwrap_or_else(|p| p.into_inner())
}

/// RPN_COMM_alloc_dist_table: makes the table of `nentries` patterns (once only).
pub fn alloc_dist_table(nentries: i32) -> Result<i32> {
    let mut t = table();
    if t.is_some() {
        return Err(Error::BadArgument("the distribution table exists already (it is made once)".into()));
    }
    let capacity = usize::try_from(nentries).ok().filter(|&n| n > 0).ok_or_else(|| Error::BadArgument(format!("{nentries} entries")))?;
    *t = Some(Table { capacity, patterns: Vec::new() });
    Ok(nentries)
}

/// RPN_COMM_dist_pattern: whether `pattern` is one of the table's (a question, never an error).
pub fn dist_pattern(pattern: i32) -> bool {
    with_pattern(pattern, |_| ()).is_ok()
}

fn with_pattern<T>(pattern: i32, f: impl FnOnce(&Pattern) -> T) -> Result<T> {
    let t = table();
    let p = usize::try_from(pattern)
        .ok()
        .and_then(|p| p.checked_sub(1))
        .and_then(|i| t.as_ref()?.patterns.get(i))
        .ok_or_else(|| Error::BadArgument(format!("{pattern} is no distribution pattern (RPN_COMM_add_dist_entry makes them)")))?;
    Ok(f(p))
}

/// RPN_COMM_dist_offsets: the place of each row's data (see `Pattern::offsets`), when the
/// caller's room of `noffsets` holds them.
pub fn dist_offsets(pattern: i32, noffsets: i32) -> Result<Vec<i32>> {
    let offsets = with_pattern(pattern, |p| p.offsets.clone())?;
    if i64::from(noffsets) < offsets.len() as i64 {
        return Err(Error::BadArgument(format!("room for {noffsets} offsets, the pattern has {} rows", offsets.len())));
    }
    Ok(offsets)
}

/// RPN_COMM_get_dist_meta: per exchange (clients, then sources) its offset, length, row (negative
/// where this PE is a client) and other PE; `nmeta` must be their number.
pub fn dist_meta(pattern: i32, nmeta: i32) -> Result<Vec<[i32; 4]>> {
    let meta: Vec<[i32; 4]> = with_pattern(pattern, |p| {
        let mine = p.clients.iter().map(|e| [e.offset, e.length, e.row, e.pe]);
        mine.chain(p.sources.iter().map(|e| [e.offset, e.length, -e.row, e.pe])).collect()
    })?;
    if i64::from(nmeta) != meta.len() as i64 {
        return Err(Error::BadArgument(format!("nmeta = {nmeta}, the pattern has {} exchanges on this PE", meta.len())));
    }
    Ok(meta)
}

/// RPN_COMM_get_dist_dims: the data buffer's size and the number of exchanges of this PE.
pub fn dist_dims(pattern: i32) -> Result<(i32, i32)> {
    with_pattern(pattern, |p| (p.ndata, (p.clients.len() + p.sources.len()) as i32))
}

/// This PE's part (`me`, of `npes` in the communicator `comm`) of the pattern the caller's table
/// describes: `nrows` rows of `max_clients + 3` integers each, [offset (output), length, root,
/// clients...], -1 (any negative number) for no client.
pub fn build(table: &[i32], max_clients: usize, nrows: usize, me: usize, npes: usize, comm: &str) -> Result<Pattern> {
    let width = max_clients + 3;
    if table.len() < width * nrows {
        return Err(Error::BadArgument(format!("a table of {} integers for {nrows} rows of {width}", table.len())));
    }
    let (me, mut offset) = (me as i32, 1i32);
    let mut p = Pattern { clients: Vec::new(), sources: Vec::new(), offsets: vec![0; nrows], ndata: 0, comm: comm.to_string() };
    for (j, row) in table.chunks_exact(width).take(nrows).enumerate() {
        let (length, root, clients) = (row[1], row[2], &row[3..]);
        let n = j as i32 + 1;
        if length < 0 {
            return Err(Error::BadArgument(format!("row {n}: a length of {length}")));
        }
        let listed: Vec<i32> = clients.iter().copied().filter(|&c| c >= 0 && c != root).collect();
        if let Some(c) = listed.iter().enumerate().find_map(|(i, c)| listed[..i].contains(c).then_some(c)) {
            return Err(Error::BadArgument(format!("row {n}: PE {c} is a client twice")));
        }
        if root == me {
            if let Some(&c) = listed.iter().find(|&&c| c as usize >= npes) {
                return Err(Error::BadRank { rank: c.into(), npes, comm: format!(" '{comm}'") });
            }
            p.clients.extend(listed.iter().map(|&c| Exchange { row: n, pe: c, length, offset }));
        } else if listed.contains(&me) {
            if root < 0 || root as usize >= npes {
                return Err(Error::BadRank { rank: root.into(), npes, comm: format!(" '{comm}'") });
            }
            p.sources.push(Exchange { row: n, pe: root, length, offset: -offset });
        } else {
            continue;
        }
        p.offsets[j] = if root == me { offset } else { -offset };
        offset = offset.checked_add(length).ok_or_else(|| Error::BadArgument("the data buffer passes 2**31 integers".into()))?;
    }
    p.ndata = offset - 1;
    Ok(p)
}

impl Runtime {
    /// RPN_COMM_add_dist_entry: adds this PE's part of the pattern `table` describes (see
    /// `build`) over the communicator `comm`; its number, its offsets (per row) and its data
    /// buffer's size. The table of 16 patterns is made on first use.
    pub fn add_dist_entry(&self, table: &[i32], max_clients: i32, nrows: i32, comm: &str) -> Result<(i32, Vec<i32>, i32, i32)> {
        let max_clients = usize::try_from(max_clients).map_err(|_| Error::Negative { what: "max_clients", value: max_clients.into() })?;
        let nrows = usize::try_from(nrows).map_err(|_| Error::Negative { what: "nrows", value: nrows.into() })?;
        let c =
            self.named(comm)?.ok_or_else(|| Error::BadArgument(format!("this PE is not a member of communicator '{}'", comm.trim())))?;
        let pattern = build(table, max_clients, nrows, c.rank(), c.size(), comm.trim())?;
        let mut t = table_made()?;
        let t = t.as_mut().expect("made above");
        if t.patterns.len() >= t.capacity {
            return Err(Error::Limit(format!("the distribution table is full ({} patterns)", t.capacity)));
        }
        let (offsets, ndata, nmeta) = (pattern.offsets.clone(), pattern.ndata, (pattern.clients.len() + pattern.sources.len()) as i32);
        t.patterns.push(pattern);
        Ok((t.patterns.len() as i32, offsets, ndata, nmeta))
    }

    /// RPN_COMM_do_dist: moves the data of pattern `pattern` in `values` (`nvalues` integers, each
    /// exchange at its offset): from each root to its clients (`from_root`), or back.
    ///
    /// # Safety
    /// `values` holds `nvalues` integers.
    pub unsafe fn do_dist(&mut self, pattern: i32, from_root: bool, values: usize, nvalues: i32) -> Result<()> {
        let p = with_pattern(pattern, Clone::clone)?;
        let int = MessageType::from_name("MPI_INTEGER")?;
        let word = int.size();
        if let Some(e) =
            p.clients.iter().chain(&p.sources).find(|e| i64::from(e.offset.abs()) + i64::from(e.length) - 1 > i64::from(nvalues))
        {
            return Err(Error::BadArgument(format!(
                "row {} takes integers {} to {} of values, which holds {nvalues}",
                e.row,
                e.offset.abs(),
                e.offset.abs() + e.length - 1
            )));
        }
        if values == 0 && p.ndata > 0 {
            return Err(Error::NullBuffer { what: "values", nelem: nvalues.into() });
        }
        let comm =
            self.named(&p.comm)?.ok_or_else(|| Error::BadArgument(format!("this PE is not a member of communicator '{}'", p.comm)))?;
        let (sending, receiving) = if from_root { (&p.clients, &p.sources) } else { (&p.sources, &p.clients) };
        let by_peer = |list: &[Exchange]| -> Result<BTreeMap<usize, Vec<Exchange>>> {
            let mut m: BTreeMap<usize, Vec<Exchange>> = BTreeMap::new();
            for e in list {
                let peer = comm.job_rank(e.pe as usize).ok_or_else(|| Error::BadRank {
                    rank: e.pe.into(),
                    npes: comm.size(),
                    comm: format!(" '{}'", p.comm),
                })?;
                m.entry(peer).or_default().push(*e);
            }
            Ok(m)
        };
        let (sends, receives) = (by_peer(sending)?, by_peer(receiving)?);
        let channels = self.transport.channels().ok_or(Error::Unsupported("RPN_COMM_do_dist needs point-to-point channels"))?;
        for (&peer, list) in &sends {
            let bytes: usize = list.iter().map(|e| e.length as usize * word).sum();
            let mut message = Envelope { tag: pattern, dtype: int.code(), bytes: bytes as u64 }.encode().to_vec();
            for e in list {
                // SAFETY: the caller's contract: values holds nvalues integers, which the exchange fits (checked above).
                message.extend_from_slice(&unsafe {
                    read_caller_bytes(values + (e.offset.unsigned_abs() as usize - 1) * word, e.length as usize * word)
                });
            }
            let room = channels.reserve(peer, message.len())?;
            // SAFETY: reserve gave room for the message, writable until post.
            unsafe { std::ptr::copy_nonoverlapping(message.as_ptr(), room, message.len()) };
            channels.post(peer, message.len())?;
        }
        for (&peer, list) in &receives {
            let from = comm.rank_of(peer).unwrap_or(peer);
            let expected: usize = list.iter().map(|e| e.length as usize * word).sum();
            let m = loop {
                if let Some(m) = channels.poll(peer)? {
                    break m;
                }
                // (its message may have come since the poll above: it posts it before it goes on)
                if channels.in_collective_without_me(peer) && channels.poll(peer)?.is_none() {
                    return Err(Error::Collective(format!("PE {from} is in a collective call, not in RPN_COMM_do_dist")));
                }
                let what = || format!("RPN_COMM_do_dist: the data of PE {from} (pattern {pattern})");
                channels.wait_any(&[peer], &what)?;
            };
            if m.cut {
                channels.release(peer)?;
                return Err(Error::BadArgument(format!("the message from PE {from} is longer than pattern {pattern} says")));
            }
            // SAFETY: the message stays until its release below.
            let bytes = unsafe { m.bytes() };
            let Some(e) = Envelope::decode(bytes) else {
                return Err(Error::Collective(format!("the next message from PE {from} is another routine's, not RPN_COMM_do_dist's")));
            };
            e.accept(from, pattern, expected)?;
            if e.bytes as usize != expected {
                channels.release(peer)?;
                return Err(Error::BadArgument(format!(
                    "PE {from} sends {} bytes for pattern {pattern}, this PE's table says {expected} (the PEs' tables differ)",
                    e.bytes
                )));
            }
            let mut at = ENVELOPE_BYTES;
            for x in list {
                let n = x.length as usize * word;
                // SAFETY: the caller's contract: values holds nvalues integers, which the exchange fits.
                unsafe { write_caller_bytes(&bytes[at..at + n], values + (x.offset.unsigned_abs() as usize - 1) * word) };
                at += n;
            }
            channels.release(peer)?;
        }
        Ok(())
    }
}

/// The table, made with the default size where it was not.
fn table_made() -> Result<std::sync::MutexGuard<'static, Option<Table>>> {
    let made = table().is_some();
    if !made {
        alloc_dist_table(DEFAULT_PATTERNS)?;
    }
    Ok(table())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rows of [offset, length, root, client, client].
    fn rows(r: &[[i32; 5]]) -> Vec<i32> {
        r.iter().flatten().copied().collect()
    }

    #[test]
    fn roots_and_clients() {
        let t = rows(&[[0, 2, 1, 0, 2], [0, 3, 0, 1, -1], [0, 1, 2, 0, -1]]);
        let root1 = build(&t, 2, 3, 1, 3, "GRID").unwrap();
        assert_eq!(root1.clients, [Exchange { row: 1, pe: 0, length: 2, offset: 1 }, Exchange { row: 1, pe: 2, length: 2, offset: 1 }]);
        assert_eq!(root1.sources, [Exchange { row: 2, pe: 0, length: 3, offset: -3 }]);
        assert_eq!((root1.offsets.as_slice(), root1.ndata), (&[1, -3, 0][..], 5));
        let pe0 = build(&t, 2, 3, 0, 3, "GRID").unwrap();
        assert_eq!(pe0.offsets, [-1, 3, -6]);
        assert_eq!(pe0.ndata, 6);
        assert_eq!(pe0.clients.len() + pe0.sources.len(), 3);
    }

    #[test]
    fn the_root_is_no_client_of_itself_and_refusals() {
        let p = build(&rows(&[[0, 2, 0, 0, 1]]), 2, 1, 0, 2, "GRID").unwrap();
        assert_eq!(p.clients, [Exchange { row: 1, pe: 1, length: 2, offset: 1 }]);
        assert!(build(&rows(&[[0, 2, 0, 1, 1]]), 2, 1, 0, 2, "GRID").is_err(), "a client twice");
        assert!(build(&rows(&[[0, -1, 0, 1, -1]]), 2, 1, 0, 2, "GRID").is_err(), "a negative length");
        assert!(build(&rows(&[[0, 1, 0, 5, -1]]), 2, 1, 0, 2, "GRID").is_err(), "a client outside");
        assert!(build(&rows(&[[0, 1, 7, 0, -1]]), 2, 1, 0, 2, "GRID").is_err(), "a root outside");
        assert!(build(&[0; 4], 2, 1, 0, 2, "GRID").is_err(), "a short table");
    }
}
