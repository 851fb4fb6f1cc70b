//! The halo exchanges (RPN_COMM_xch_halo, _halon, and lists of fields, blocking or split in a
//! start and a finish) over the transport's point-to-point channels: neighbours only.
//!
//! An exchange is one round: this PE packs, for each distinct neighbour (at most 8: the sides
//! and the corners, a corner neighbour sending its corner directly), one message holding a
//! header with the call's shape arguments and its faces towards that neighbour of every field,
//! straight into the channel's room (on shared memory: memory the neighbour reads); then it
//! takes each neighbour's message, checks its header against its own arguments, and only once
//! every neighbour agreed unpacks the faces into its halos. Nothing is made per array, no page
//! of the caller is touched but the halos written, and no PE but a neighbour is waited for: a
//! call costs O(neighbours) whatever the array and the job's size. A PE that refuses its own
//! arguments still sends its header (marked refused, no data), so its neighbours refuse too
//! instead of waiting; a PE that skips an exchange is named by the neighbours that wait for it,
//! and found out by the exchange number in the headers once it makes a later one. An exchange
//! that fails still takes every neighbour's message of it, so that none meets a later exchange's
//! receive; what is left over all the same (a PE that skipped one) is dropped by the next
//! exchange (older exchange number).
//!
//! The geometry and the checks are in `core::halo`.

use std::collections::VecDeque;

use super::super::Runtime;
use super::adjoint::add_adjoint_halos;
use crate::core::CollectiveId;
use crate::core::adj_halo::Flow;
use crate::core::collective::{HEADER_WORDS, RECORD_BYTES, word};
use crate::core::halo::{self, HaloBox, HaloCall, HaloField, Header, Side, Verdict};
use crate::core::halo_family;
use crate::diagnostics::{self, list_pes};
use crate::error::{Error, Result};
use crate::transport::channel::{Channels, Message, SLOTS};

/// Exchanges started and not finished at most (a further start finishes the oldest first): the
/// channels hold `SLOTS` messages per neighbour, and a PE can be one exchange ahead of its
/// neighbour, so two in flight never wait for a slot.
const IN_FLIGHT: usize = SLOTS / 2;
/// The collectives that are halo exchanges (a record of one comes from `join_their_collective`).
const HALO_IDS: [CollectiveId; 7] = [
    CollectiveId::XchHalo,
    CollectiveId::XchHalon,
    CollectiveId::XchHalo8,
    CollectiveId::XchHalox,
    CollectiveId::AdjHalo8,
    CollectiveId::AdjHalo4,
    CollectiveId::AdjHalo,
];
/// Index bits of a halo list handle (the rest is the entry's serial number).
const LIST_INDEX_BITS: u32 = 12;

/// A list of fields exchanged together (`RPN_COMM_xch_halo_list_new`), and the outcome of its
/// last split exchange when it was finished early.
struct HaloList {
    serial: u32,
    /// The grid and halo arguments of every field (`nk` and `words` are the fields' own).
    grid: HaloCall,
    fields: Vec<HaloField>,
    in_flight: bool,
    outcome: Option<Result<()>>,
}

/// An exchange whose messages went out and whose neighbours' messages are not taken yet.
struct Pending {
    fields: Vec<HaloField>,
    /// Copies of faces into halos, or the adjoint's sums of halos into parts.
    flow: Flow,
    header: Header,
    sides: [Option<usize>; 8],
    peers: Vec<usize>,
    list: Option<usize>,
    /// Why this PE refused its own arguments: it sent its neighbours headers only and takes
    /// theirs (so that no message of the exchange is left for a later one), writing nothing.
    refused: Option<Error>,
}

/// What the halo exchanges keep between calls.
#[derive(Default)]
pub(in crate::runtime) struct HaloState {
    /// This PE's halo exchanges so far (every message carries the number of its exchange).
    seq: u32,
    in_flight: VecDeque<Pending>,
    lists: Vec<Option<HaloList>>,
    serials: u32,
}

/// `RPNCOMM_HALO_GROUP_BYTES`: where every neighbour is on shared memory, a blocking list exchange
/// whose faces (all sides together) come to more than this many bytes goes as consecutive
/// exchanges of groups of its fields (0: always one exchange; read once).
fn list_group_bytes() -> usize {
    static BYTES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *BYTES.get_or_init(|| std::env::var("RPNCOMM_HALO_GROUP_BYTES").ok().and_then(|v| v.trim().parse().ok()).unwrap_or(DEFAULT_GROUP_BYTES))
}
/// The default of `list_group_bytes`.
const DEFAULT_GROUP_BYTES: usize = 64 << 10;

/// Copies the box `b` of levels 1..=nk of the array at `base` (`c` describes it) to `buf`
/// (`pack`) or from it; returns the bytes of the box.
///
/// # Safety
/// The array at `base` holds what `c` describes and `b` lies inside its bounds; `buf` holds the
/// box's bytes; array and buffer do not overlap.
unsafe fn copy_box(c: &HaloCall, base: usize, b: &HaloBox, buf: *mut u8, pack: bool) -> usize {
    let e = c.elem_bytes();
    let row = (b.i.1 - b.i.0 + 1).max(0) as usize * e;
    let rows = (b.j.1 - b.j.0 + 1).max(0) as usize;
    if row == 0 || rows == 0 {
        return 0;
    }
    let stride = (c.maxx - c.minx + 1) as usize * e;
    let mut at = 0;
    for k in 1..=c.nk {
        let mut g = (base + c.offset(b.i.0, b.j.0, k) * e) as *mut u8;
        for _ in 0..rows {
            // SAFETY: the row lies in the array and `at..at + row` in the buffer (contract).
            unsafe {
                let here = buf.add(at);
                let (from, to) = if pack { (g as *const u8, here) } else { (here as *const u8, g) };
                copy_row(from, to, row);
                g = g.add(stride);
            }
            at += row;
        }
    }
    at
}

/// Copies `len` bytes (a multiple of 4). Short rows (an east/west face's: a few points) are
/// copied in place by 16-, 8- and 4-byte moves, without a call to memcpy for each: a row of a
/// halo of 4 words is one 16-byte move (word by word, the pack and unpack of an east/west face
/// took 2-3x as long: bench/README.md).
///
/// # Safety
/// `from` readable and `to` writable for `len` bytes, not overlapping.
#[inline(always)]
unsafe fn copy_row(from: *const u8, to: *mut u8, len: usize) {
    /// Moves one `T` from `from + at` to `to + at`, unaligned.
    ///
    /// # Safety
    /// `at + size_of::<T>()` bytes readable at `from` and writable at `to`.
    #[inline(always)]
    unsafe fn mv<T>(from: *const u8, to: *mut u8, at: usize) {
        // SAFETY: the contract; unaligned accesses are allowed.
        unsafe { (to.add(at) as *mut T).write_unaligned((from.add(at) as *const T).read_unaligned()) }
    }
    // SAFETY: every move below ends within `len` bytes (`at + size <= len`), which both ranges
    // hold (the caller's contract).
    unsafe {
        match len {
            16 => mv::<u128>(from, to, 0),
            8 => mv::<u64>(from, to, 0),
            4 => mv::<u32>(from, to, 0),
            _ if len <= 64 => {
                let mut at = 0;
                while at + 16 <= len {
                    mv::<u128>(from, to, at);
                    at += 16;
                }
                if at + 8 <= len {
                    mv::<u64>(from, to, at);
                    at += 8;
                }
                if at + 4 <= len {
                    mv::<u32>(from, to, at);
                }
            }
            _ => std::ptr::copy_nonoverlapping(from, to, len),
        }
    }
}

impl Runtime {
    /// Exchanges the halos of `g(minx:maxx, miny:maxy, nk)` with the neighbours on the PE grid
    /// (the family's routines, RPN_COMM_xch_halo's included, enter through `family`, which adds
    /// the pole flip and the rest on top of this): a list of one field.
    /// Refused (nothing written) where this PE's arguments are refused or a neighbour's disagree.
    ///
    /// # Safety
    /// `g` is the caller's array as `c` describes it, readable and writable.
    pub unsafe fn xch_halo(&mut self, g: usize, c: &HaloCall) -> Result<()> {
        // SAFETY: the caller's contract.
        unsafe { self.xch_halo_fields(vec![HaloField { addr: g, call: *c }]) }
    }

    /// Exchanges the halos of every field of `fields` (same grid and halo) in one message per
    /// neighbour, blocking.
    ///
    /// # Safety
    /// Each field's address is its array as its call describes it, readable and writable.
    pub unsafe fn xch_halo_fields(&mut self, fields: Vec<HaloField>) -> Result<()> {
        // SAFETY: the caller's contract.
        unsafe { self.start_exchange(fields, None) }?;
        self.finish_through(self.halo.in_flight.len())
    }

    /// The adjoint of the exchange on `fields` (one field; `runtime::halo::adjoint`): the same
    /// round, halos sent and added into the neighbours' parts, blocking.
    ///
    /// # Safety
    /// As `xch_halo_fields`.
    pub(super) unsafe fn adjoint_fields(&mut self, fields: Vec<HaloField>) -> Result<()> {
        // SAFETY: the caller's contract.
        unsafe { self.start_exchange_agreeing(fields, None, None, Flow::Adjoint) }?;
        self.finish_through(self.halo.in_flight.len())
    }

    /// The grid, this PE's sides and the channels, or why there are none.
    fn halo_setup(&mut self, fields: &[HaloField]) -> Result<[Option<usize>; 8]> {
        let grid = self.grid_comms()?.grid;
        let Some(first) = fields.first() else {
            return Err(Error::BadArgument("a halo list without fields: RPN_COMM_xch_halo_list_add adds them".into()));
        };
        if self.transport.channels().is_none() {
            return Err(Error::Unsupported("halo exchanges need point-to-point channels"));
        }
        Ok(halo::neighbours8(&grid, self.rank(), first.call.periodx, first.call.periody))
    }

    /// Sends this PE's faces of `fields` to its neighbours (one message each) and records the
    /// exchange as in flight (of `list`, when it is a list's split exchange). Refused at once
    /// where this PE's own arguments are (its neighbours are told, and refuse too).
    ///
    /// # Safety
    /// As `xch_halo_fields`, until the exchange is finished.
    unsafe fn start_exchange(&mut self, fields: Vec<HaloField>, list: Option<usize>) -> Result<()> {
        // SAFETY: the caller's contract.
        unsafe { self.start_exchange_agreeing(fields, list, None, Flow::Exchange) }
    }

    /// `start_exchange`, with the header (and this PE's own checks) made of `agree` instead of
    /// the fields sent, when given: the first group of a list sent in groups agrees on them all.
    ///
    /// # Safety
    /// As `start_exchange`.
    unsafe fn start_exchange_agreeing(
        &mut self,
        fields: Vec<HaloField>,
        list: Option<usize>,
        agree: Option<&[HaloCall]>,
        flow: Flow,
    ) -> Result<()> {
        let sides = self.halo_setup(&fields)?;
        while self.halo.in_flight.len() >= IN_FLIGHT {
            // The oldest exchange is a list's (a blocking one is finished before it returns):
            // its outcome waits for its finish.
            let _ = self.finish_through(1);
        }
        let calls: Vec<HaloCall> = fields.iter().map(|f| f.call).collect();
        let agreed = agree.unwrap_or(&calls);
        let local = halo::validate_list(agreed, &sides).and_then(|()| match fields.iter().position(|f| f.addr == 0) {
            Some(f) => Err(Error::NullBuffer { what: "halo array", nelem: calls[f].total_words() as i64 }),
            None => Ok(()),
        });
        self.halo.seq = self.halo.seq.wrapping_add(1);
        let header = Header::of(agreed, halo::routine_code(diagnostics::routine()), self.halo.seq, local.is_err());
        let peers = halo::distinct_peers(&sides);
        // Messages of exchanges that ended in an error before all came (or that this PE refused
        // at once) are dropped first: they would hold the channels' slots. (Not those of the
        // exchanges still in flight.)
        let oldest = self.halo.in_flight.front().map_or(header.seq, |p| p.header.seq);
        let channels = self.transport.channels().expect("checked by halo_setup");
        for &peer in &peers {
            drop_stale(channels, peer, oldest)?;
        }
        // Receives before sends: over MPI each neighbour's message lands in a receive posted
        // for it (its length is what this PE's own arguments make it).
        if local.is_ok() {
            for &peer in &peers {
                channels.expect(peer, expected_bytes(&header, &sides, &fields, peer, flow))?;
            }
        }
        for &peer in &peers {
            let data: usize = match local {
                Ok(()) => halo::message_sides(&sides, peer, true)
                    .map(|s| calls.iter().map(|c| c.box_bytes(&flow.sent(c, s))).sum::<usize>())
                    .sum(),
                Err(_) => 0,
            };
            let len = header.bytes() + data;
            let room = channels.reserve(peer, len)?;
            // SAFETY: the room holds `len` bytes until the post.
            header.write(unsafe { std::slice::from_raw_parts_mut(room, header.bytes()) });
            let mut at = header.bytes();
            if local.is_ok() {
                for s in halo::message_sides(&sides, peer, true) {
                    for f in &fields {
                        // SAFETY: the face lies inside the array (validated bounds, halo no
                        // wider than the part); the room holds the message (`len`).
                        at += unsafe { copy_box(&f.call, f.addr, &flow.sent(&f.call, s), room.add(at), true) };
                    }
                }
            }
            debug_assert_eq!(at, len);
            channels.post(peer, len)?;
        }
        let refused = local.err();
        let failed = refused.is_some();
        self.halo.in_flight.push_back(Pending { fields, flow, header, sides, peers, list: list.filter(|_| !failed), refused });
        if failed {
            // Its neighbours' messages are taken now (after those of the exchanges in flight
            // before it): every exchange, refused or not, takes one message from each.
            return self.finish_through(self.halo.in_flight.len());
        }
        Ok(())
    }

    /// Finishes the `count` oldest exchanges in flight, in order; returns the last one's
    /// outcome. Those of lists keep theirs for their finish.
    fn finish_through(&mut self, count: usize) -> Result<()> {
        let mut last = Ok(());
        for _ in 0..count {
            let Some(p) = self.halo.in_flight.pop_front() else { break };
            // SAFETY: the fields' arrays are the caller's until the exchange is finished
            // (contract of `start_exchange`).
            last = unsafe { self.receive_exchange(&p) };
            if let Some(l) = p.list.and_then(|l| self.halo.lists.get_mut(l)).and_then(Option::as_mut) {
                l.in_flight = false;
                l.outcome = Some(last.clone());
            }
        }
        last
    }

    /// Takes every neighbour's message of the exchange `p`, checks each header, and once all
    /// agree unpacks them into the halos. On an error nothing is written, yet every neighbour's
    /// message of the exchange is still taken (each neighbour sends one, refused or not): none
    /// is left to meet a later exchange's receive. A message of a later exchange (a neighbour
    /// ahead) stays for that exchange.
    ///
    /// # Safety
    /// The fields' arrays are as `p` describes them, writable.
    unsafe fn receive_exchange(&mut self, p: &Pending) -> Result<()> {
        let me = self.rank();
        let channels = self.transport.channels().ok_or(Error::Internal("halo exchange without channels".into()))?;
        let mut waiting = p.peers.clone();
        let mut held: Vec<(usize, Message)> = Vec::with_capacity(waiting.len());
        let mut failure = p.refused.clone();
        // A neighbour that went into a collective of the job instead of this exchange.
        let mut elsewhere = None;
        let mut transport = Ok(());
        while !waiting.is_empty() {
            if let Err(e) = take_arrived(channels, p, me, &mut waiting, &mut held, &mut failure) {
                transport = Err(e);
                break;
            }
            if waiting.is_empty() {
                break;
            }
            // A neighbour gone into a collective of the job, or of a row or column of both (which
            // can never complete while this PE is here): unless its message came meanwhile (it
            // posted it before it went on, so a count seen ahead shows it), this exchange joins
            // the job's collective, or fails naming both (this PE stays out of a row's).
            let job_suspect = waiting.iter().copied().find(|&peer| channels.in_collective_without_me(peer));
            let part_suspect = match job_suspect {
                None => waiting.iter().find_map(|&peer| channels.in_part_collective_without_me(peer).map(|c| (peer, c))),
                Some(_) => None,
            };
            if job_suspect.is_some() || part_suspect.is_some() {
                if let Err(e) = take_arrived(channels, p, me, &mut waiting, &mut held, &mut failure) {
                    transport = Err(e);
                    break;
                }
                match (job_suspect, part_suspect) {
                    (Some(peer), _) if waiting.contains(&peer) => {
                        elsewhere = Some(peer);
                        break;
                    }
                    (_, Some((peer, theirs))) if waiting.contains(&peer) => {
                        let text = format!("PE {peer} is in {theirs} while PE {me} is in {}", diagnostics::routine());
                        failure = Some(Error::Collective(text));
                        break;
                    }
                    _ => continue,
                }
            }
            let what = || {
                let sides: Vec<String> =
                    waiting.iter().map(|&pe| format!("PE {pe} is its {} neighbour", side_of(&p.sides, pe).name())).collect();
                format!(
                    "{} to reach the same collective call (halo exchange {} of PE {me}; {})",
                    list_pes(&waiting),
                    p.header.seq,
                    sides.join(", ")
                )
            };
            if let Err(e) = channels.wait_any(&waiting, &what) {
                transport = Err(e);
                break;
            }
        }
        let mut outcome = transport.and(failure.map_or(Ok(()), Err));
        if outcome.is_ok() && elsewhere.is_none() && p.flow == Flow::Adjoint {
            // SAFETY: the caller's contract; the messages stay until their release below.
            outcome = unsafe { add_adjoint_halos(&p.fields, p.header.bytes(), &p.sides, &held) };
        } else if outcome.is_ok() && elsewhere.is_none() {
            for (peer, m) in &held {
                let mut at = p.header.bytes();
                for s in halo::message_sides(&p.sides, *peer, false) {
                    for f in &p.fields {
                        // SAFETY: the halo box lies inside the array (validated bounds); the
                        // message holds every box (its length was checked against them).
                        at += unsafe { copy_box(&f.call, f.addr, &f.call.halo(s.opposite()), m.data.add(at) as *mut u8, false) };
                    }
                }
            }
        }
        let mut released = Ok(());
        for (peer, _) in held {
            released = released.and(channels.release(peer));
        }
        if let Some(peer) = elsewhere {
            released?;
            return self.join_their_collective(p, peer);
        }
        outcome.and(released)
    }

    /// `peer` is in a collective of the job while this PE is in the exchange `p`: this PE joins
    /// that collective's agreement as the exchange (its record carries the routine and the
    /// exchange's number), so that every PE there fails naming both routines and both PEs
    /// (docs/contract.md rule 11), nothing written; a PE that was not in the exchange takes its number
    /// from the records (`halo_numbers_from`), and the exchanges stay in step afterwards.
    fn join_their_collective(&mut self, p: &Pending, peer: usize) -> Result<()> {
        let id = CollectiveId::from_name(diagnostics::routine())
            .filter(|id| HALO_IDS.contains(id))
            .or_else(|| CollectiveId::from_name(p.header.routine_name()))
            .unwrap_or(CollectiveId::XchHalo);
        let job = self.transport.job().clone();
        self.agree(&job, id, &Ok(()), &[p.header.seq])?;
        Err(Error::Internal(format!("PE {peer} seemed to be in another collective call, yet agreed with halo exchange {}", p.header.seq)))
    }

    /// Called with the records of every agreement (`core::collective::record`, one per PE): a PE
    /// in a halo exchange there joined it from an exchange this PE did not enter (see
    /// `join_their_collective`); this PE counts that exchange as made, so that its next one has
    /// the number of theirs (their messages of the failed one are then dropped as stale).
    pub(in crate::runtime) fn halo_numbers_from(&mut self, records: &[u8]) {
        for row in records.chunks_exact(RECORD_BYTES) {
            let in_halo = CollectiveId::from_code(word(row, 1)).is_some_and(|id| HALO_IDS.contains(&id));
            if in_halo && word(row, 2) >= 1 {
                let seq = word(row, HEADER_WORDS);
                if (seq.wrapping_sub(self.halo.seq) as i32) > 0 {
                    self.halo.seq = seq;
                }
            }
        }
    }
}

/// The length of `peer`'s message of an exchange with this PE's `header`, `sides` and `fields`.
fn expected_bytes(header: &Header, sides: &[Option<usize>; 8], fields: &[HaloField], peer: usize, flow: Flow) -> usize {
    header.bytes()
        + halo::message_sides(sides, peer, false)
            .map(|s| fields.iter().map(|f| flow.received_bytes(&f.call, s)).sum::<usize>())
            .sum::<usize>()
}

/// Drops the messages from `peer` of exchanges before `seq`.
fn drop_stale(channels: &mut dyn Channels, peer: usize, seq: u32) -> Result<()> {
    while let Some(m) = channels.poll(peer)? {
        // SAFETY: the message stays until its release.
        match Header::read(unsafe { m.bytes() }) {
            Some(h) if (h.seq.wrapping_sub(seq) as i32) < 0 => channels.release(peer)?,
            _ => break,
        }
    }
    Ok(())
}

/// The first side of this PE on which `peer` lies.
fn side_of(sides: &[Option<usize>; 8], peer: usize) -> Side {
    Side::ALL.into_iter().find(|s| sides[*s as usize] == Some(peer)).unwrap_or(Side::West)
}

/// Takes the messages of `waiting` peers that have come: those of earlier exchanges are
/// dropped, this exchange's are checked (held when they agree, else dropped) and a later one's
/// left for that exchange; each of these peers leaves `waiting`. The first disagreement goes to
/// `failure`; only a transport's error ends it early.
fn take_arrived(
    channels: &mut dyn Channels,
    p: &Pending,
    me: usize,
    waiting: &mut Vec<usize>,
    held: &mut Vec<(usize, Message)>,
    failure: &mut Option<Error>,
) -> Result<()> {
    let mut i = 0;
    while i < waiting.len() {
        let peer = waiting[i];
        let Some(m) = channels.poll(peer)? else {
            i += 1;
            continue;
        };
        let verdict = if m.cut {
            // Longer than this PE's arguments make it (its bytes are lost): a neighbour's
            // arguments differ (a message of an earlier exchange is never longer than the receive
            // posted: every exchange takes its own).
            channels.release(peer)?;
            Err(Error::Collective(format!(
                "PE {peer} (the {} neighbour of PE {me}) sent more halo than PE {me} expects from it ({} bytes): their nj, nk, halo or element size differ",
                side_of(&p.sides, peer).name(),
                expected_bytes(&p.header, &p.sides, &p.fields, peer, p.flow)
            )))
        } else {
            // SAFETY: the message stays until its release.
            match Header::read(unsafe { m.bytes() }) {
                None => {
                    channels.release(peer)?;
                    Err(Error::Internal(format!("a message from PE {peer} that is not a halo exchange's")))
                }
                Some(h) => match h.check(&p.header, me, peer, side_of(&p.sides, peer)) {
                    Ok(Verdict::Stale) => {
                        channels.release(peer)?;
                        continue;
                    }
                    Ok(Verdict::Agreed) if p.refused.is_some() => {
                        channels.release(peer)?;
                        Ok(())
                    }
                    Ok(Verdict::Agreed) => {
                        let expected = expected_bytes(&p.header, &p.sides, &p.fields, peer, p.flow);
                        if m.len == expected {
                            held.push((peer, m));
                            Ok(())
                        } else {
                            channels.release(peer)?;
                            Err(Error::Collective(format!(
                                "PE {peer} sent {} bytes of halo, PE {me} expects {expected} from it (the PE grid or the decomposition differ)",
                                m.len
                            )))
                        }
                    }
                    Err(e) => {
                        // A message of a later exchange (the peer is ahead) stays for that exchange.
                        if h.seq == p.header.seq {
                            channels.release(peer)?;
                        }
                        Err(e)
                    }
                },
            }
        };
        if let Err(e) = verdict {
            failure.get_or_insert(e);
        }
        waiting.swap_remove(i);
    }
    Ok(())
}

impl Runtime {
    /// RPN_COMM_xch_halo_list_new: an empty list of fields on the grid and halo `grid` (its
    /// `nk` and `words` are ignored: each field gives its own); returns its handle.
    pub fn halo_list_new(&mut self, grid: HaloCall) -> Result<i32> {
        let pey = self.grid_comms()?.grid.pey;
        if halo_family::flip_requested(&grid, pey) {
            return Err(Error::BadArgument(format!(
                "npol_row = {} asks for the pole flip, which lists do not make: exchange such fields with RPN_COMM_xch_halo",
                grid.npol_row
            )));
        }
        // gni matters to the pole flip only: PEs may give different ones (as to RPN_COMM_xch_halo).
        let grid = HaloCall { gni: 0, ..grid };
        self.halo.serials = (self.halo.serials % ((1 << (31 - LIST_INDEX_BITS)) - 1)) + 1;
        let serial = self.halo.serials;
        let list = HaloList { serial, grid, fields: Vec::new(), in_flight: false, outcome: None };
        let index = match self.halo.lists.iter().position(Option::is_none) {
            Some(i) => {
                self.halo.lists[i] = Some(list);
                i
            }
            None if self.halo.lists.len() < (1 << LIST_INDEX_BITS) - 1 => {
                self.halo.lists.push(Some(list));
                self.halo.lists.len() - 1
            }
            None => {
                return Err(Error::Limit(format!("{} halo lists at once: free some (RPN_COMM_xch_halo_list_free)", self.halo.lists.len())));
            }
        };
        Ok(((serial << LIST_INDEX_BITS) | (index as u32 + 1)) as i32)
    }

    /// The index of the list `handle` designates.
    fn halo_list(&self, handle: i32) -> Result<usize> {
        let h = handle as u32;
        let index = (h & ((1 << LIST_INDEX_BITS) - 1)) as usize;
        match self.halo.lists.get(index.wrapping_sub(1)) {
            Some(Some(l)) if handle > 0 && l.serial == h >> LIST_INDEX_BITS => Ok(index - 1),
            _ => Err(Error::InvalidHandle { what: "halo list" }),
        }
    }

    /// RPN_COMM_xch_halo_list_add: adds the array at `g` of `nk` levels of `words`-word elements.
    pub fn halo_list_add(&mut self, handle: i32, g: usize, nk: i32, words: i32) -> Result<()> {
        let i = self.halo_list(handle)?;
        let list = self.halo.lists[i].as_mut().expect("checked");
        if list.in_flight {
            return Err(Error::CallOrder("this halo list is being exchanged: RPN_COMM_xch_halo_finish it first".into()));
        }
        list.fields.push(HaloField { addr: g, call: HaloCall { nk, words, ..list.grid } });
        Ok(())
    }

    /// RPN_COMM_xch_halo_list: exchanges the halos of every field of the list, blocking.
    ///
    /// # Safety
    /// Every field added is still the caller's array, readable and writable.
    pub unsafe fn xch_halo_list(&mut self, handle: i32) -> Result<()> {
        let i = self.halo_list(handle)?;
        let cap = match self.transport.channels() {
            Some(c) if c.shared_memory_only() => list_group_bytes(),
            _ => 0,
        };
        let list = self.halo.lists[i].as_ref().expect("checked");
        let calls: Vec<HaloCall> = list.fields.iter().map(|f| f.call).collect();
        let groups = halo::group_fields(&calls, cap);
        if list.in_flight || groups.len() < 2 {
            // SAFETY: the caller's contract.
            unsafe { self.xch_halo_start(handle) }?;
            return self.xch_halo_finish(handle);
        }
        let fields = list.fields.clone();
        // Exchanges started before this one are finished first (their outcomes kept for their
        // finish): each group's exchange is then the only one in flight.
        let _ = self.finish_through(self.halo.in_flight.len());
        for (k, g) in groups.into_iter().enumerate() {
            // The first group's header describes the whole list, so that every field is agreed
            // (or refused) before any halo is written; a later group cannot disagree.
            let agree = (k == 0).then_some(&calls[..]);
            // SAFETY: the caller's contract (every field is its array until this returns).
            unsafe { self.start_exchange_agreeing(fields[g].to_vec(), None, agree, Flow::Exchange) }?;
            self.finish_through(1)?;
        }
        Ok(())
    }

    /// RPN_COMM_xch_halo_start: sends the list's faces; the halos are filled by the finish.
    ///
    /// # Safety
    /// Every field added is the caller's array, readable and writable, until the finish; the
    /// caller neither writes the faces nor reads or writes the halos until then.
    pub unsafe fn xch_halo_start(&mut self, handle: i32) -> Result<()> {
        let i = self.halo_list(handle)?;
        let list = self.halo.lists[i].as_mut().expect("checked");
        if list.in_flight {
            return Err(Error::CallOrder("this halo list is already being exchanged: RPN_COMM_xch_halo_finish it first".into()));
        }
        list.outcome = None;
        let fields = list.fields.clone();
        // SAFETY: the caller's contract.
        unsafe { self.start_exchange(fields, Some(i)) }?;
        self.halo.lists[i].as_mut().expect("checked").in_flight = true;
        Ok(())
    }

    /// RPN_COMM_xch_halo_finish: waits for the neighbours' faces of the list's exchange and
    /// fills its halos (exchanges started before it are finished first).
    pub fn xch_halo_finish(&mut self, handle: i32) -> Result<()> {
        let i = self.halo_list(handle)?;
        let list = self.halo.lists[i].as_mut().expect("checked");
        if !list.in_flight {
            return list
                .outcome
                .take()
                .unwrap_or_else(|| Err(Error::CallOrder("this halo list was not started (RPN_COMM_xch_halo_start)".into())));
        }
        let position =
            self.halo.in_flight.iter().position(|p| p.list == Some(i)).ok_or(Error::Internal("a started list not in flight".into()))?;
        self.finish_through(position + 1)?;
        self.halo.lists[i].as_mut().expect("checked").outcome.take().unwrap_or(Ok(()))
    }

    /// RPN_COMM_xch_halo_list_free: forgets the list (finished first if in flight).
    pub fn halo_list_free(&mut self, handle: i32) -> Result<()> {
        let i = self.halo_list(handle)?;
        let finished = if self.halo.lists[i].as_ref().is_some_and(|l| l.in_flight) { self.xch_halo_finish(handle) } else { Ok(()) };
        self.halo.lists[i] = None;
        finished
    }

    /// At finalize: exchanges still in flight are finished (the channels go with the transport).
    pub(in crate::runtime) fn release_halo_windows(&mut self) -> Result<()> {
        self.finish_through(self.halo.in_flight.len())
    }
}
