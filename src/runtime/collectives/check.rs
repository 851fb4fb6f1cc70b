//! How the collective calls of the PEs are checked against each other (docs/contract.md rule 11).
//!
//! By default a per-step collective (barrier, allreduce, allgather, bcast, reduce, gather; and
//! alltoall, gatherv, scatterv: `by_block`) costs what the original's does, and the transport says how it is made (`CollectivePath`):
//! - an exchange of every PE's data (shared memory; MPI over the PEs of one node): each PE's data
//!   travels behind a header with its routine and arguments, which every PE reads anyway, so a PE
//!   in another routine, or with other arguments, is named at once, before any buffer is written,
//!   as in the checking mode, at no extra round. Over MPI on one node, the sums of reals over 3 PEs
//!   or more stay MPI's one call (`reduces_itself`, `own_reduction`): logged as below, announced
//!   to the node's PEs while it lasts (a PE in an exchange instead names both calls), and the
//!   logs' signatures ride in every exchange's headers;
//! - the one MPI call the original makes (PEs on several nodes): the call goes into this PE's log
//!   of the communicator (`core::collectives::call_log`), whose signatures are compared where the
//!   PEs meet anyway: RPN_COMM_barrier (one MPI_Allreduce of 8 bytes, whatever the PE count) and
//!   every agreement (a window's creation or free, finalize, the grid's set-up: the record carries
//!   it). When they differ, the PEs exchange their logs, every PE names the first call that
//!   differs, with both PEs and both routines, and the job ends: results computed since may be
//!   wrong. A PE left waiting is named by the hang report, with its call.
//!
//! `RPNCOMM_CHECK_COLLECTIVES=each` (the checking mode, a debugging aid) makes every collective
//! start with the agreement step instead (`agreement`): every call checked before any data moves,
//! on every transport, at one more round and P records per call.

use super::super::Runtime;
use crate::core::collectives::call_log::{self, CallEntry, CallLog, ENTRY_BYTES, LOG_BYTES};
use crate::core::{CollectiveId, CommMap, Communicator, MessageType, Operator};
use crate::diagnostics;
use crate::error::{Error, Result};
use crate::transport::{CollectivePath, Toward};

/// The environment variable that selects the checking mode.
pub const ENV_CHECK_COLLECTIVES: &str = "RPNCOMM_CHECK_COLLECTIVES";

/// Bytes of the header before a PE's data in an exchange (`exchange`): its call, whether it
/// refused, the length of its data.
const HEADER_BYTES: usize = 32;
/// An exchange whose header and data take at most this many bytes per PE is one round (the
/// shared-memory transport's exchange rounds carry as much: `shm::rounds::BLOCK_BYTES`); a longer
/// one sends the headers first, so that PEs whose calls differ stop before moving any data.
const ONE_ROUND_BYTES: usize = 1008;
/// The data an exchange carries in one round beside a PE's header.
pub(in crate::runtime) const ROUND_DATA_BYTES: usize = ONE_ROUND_BYTES - HEADER_BYTES;

/// What every PE gives in the low byte of its signature's word in `compare_calls`: a PE whose call
/// met another routine's finds it changed (in 255 cases out of 256 for each of the two words).
const COMPARISON_MARK: u32 = 0xa5;

/// The logs of this PE's unchecked calls, per communicator, and the mode.
pub struct CallChecks {
    each_call: bool,
    logs: CommMap<CallLog>,
    /// This PE's header and data, and every PE's, of the last exchange (kept: no allocation per call).
    mine: Vec<u8>,
    all: Vec<u8>,
}

impl CallChecks {
    /// The mode `RPNCOMM_CHECK_COLLECTIVES` selects: `each` (or `1`) checks every call before any
    /// data moves; unset, empty, `sync` or `0` checks where the PEs meet.
    pub fn from_env() -> Result<Self> {
        let each_call = match std::env::var(ENV_CHECK_COLLECTIVES).ok().as_deref().map(str::trim) {
            None | Some("" | "0" | "sync") => false,
            Some("1" | "each") => true,
            Some(other) => {
                return Err(Error::Setting(format!(
                    "{ENV_CHECK_COLLECTIVES}='{other}': 'each' (check every collective call before any data moves) or 'sync' (where the PEs meet: the default)"
                )));
            }
        };
        Ok(CallChecks { each_call, logs: CommMap::default(), mine: Vec::new(), all: Vec::new() })
    }

    /// The running signature of this PE's unchecked calls on `comm` (0 before the first).
    pub fn signature(&self, comm: &Communicator) -> u64 {
        self.logs.get(&comm.id()).map_or(0, CallLog::signature)
    }
}

/// How long a PE that refused a collective made of MPI's own call waits for the others to say
/// they refused it too, where hang reports are off (`log_call`).
const REFUSAL_LIMIT: std::time::Duration = std::time::Duration::from_secs(30);

/// Appends this PE's header in an exchange to `out`: words [flags (`REFUSED`, `ROOTED`), the
/// call (5 words, its routine first), data bytes, the signature of its logged calls on the
/// communicator folded to 32 bits], laid out as the agreement's records begin
/// (`core::collective::record`), so that a PE in an exchange and one in an agreement read each
/// other's routine. Written 8 bytes at a time from registers: a header built on the stack 4 bytes
/// at a time and then copied 16 at a time stalls the copy (its loads cannot take their bytes
/// from several pending stores), tens of cycles at every collective call.
fn push_header(out: &mut Vec<u8>, entry: CallEntry, flags: u32, len: usize, signature: u64) {
    let pair = |first: u32, second: u32| {
        let mut word = [0u8; 8];
        word[..4].copy_from_slice(&first.to_ne_bytes());
        word[4..].copy_from_slice(&second.to_ne_bytes());
        word
    };
    let folded = signature as u32 ^ (signature >> 32) as u32;
    for word in [pair(flags, entry.routine), pair(entry.bytes, entry.dtype), pair(entry.op, entry.root), pair(len as u32, folded)] {
        out.extend_from_slice(&word);
    }
}

/// A header's flag: the PE refused the call (see its message).
const REFUSED: u32 = 1;
/// A header's flag: the PE made its call as a rooted round (`exchange_rooted`), in which it may
/// read none of the others' headers: a PE that finds its call different ends the job.
const ROOTED: u32 = 2;

/// The flags of a header (`header`).
fn flags(row: &[u8]) -> u32 {
    u32::from_ne_bytes(row[..4].try_into().expect("4 bytes"))
}

/// The folded signature in a header (`header`).
fn header_signature(row: &[u8]) -> u32 {
    u32::from_ne_bytes(row[8 + ENTRY_BYTES..HEADER_BYTES].try_into().expect("4 bytes"))
}

/// `gathered`, the allgather of an exchange or agreement of this PE's call `entry` on `comm`
/// (refused where `local` is an error), unless a PE of it is in a reduction made by MPI's own
/// call (`Error::PeerInOwnCall`): that PE waits in MPI for this one for ever, so this PE names
/// both calls and ends the job.
pub(in crate::runtime) fn end_if_peer_in_own_call(
    comm: &Communicator,
    gathered: Result<()>,
    entry: CallEntry,
    local: &Result<()>,
) -> Result<()> {
    let Err(Error::PeerInOwnCall { pe, call }) = gathered else { return gathered };
    let theirs = CallEntry::from_bytes(&call);
    let me = comm.rank();
    let id = CollectiveId::from_code(entry.routine).unwrap_or(CollectiveId::Barrier);
    let text = match local {
        Err(e) => {
            format!("{e}, while PE {pe} makes {} (MPI's call, which now waits for this PE for ever; the job ends)", theirs.describe())
        }
        Ok(()) if theirs.routine != entry.routine => format!("{} (the job ends)", CollectiveId::mismatch(pe, theirs.routine, me, id)),
        Ok(()) => format!("PE {pe} makes {} while PE {me} makes {} (the job ends)", theirs.describe(), entry.describe()),
    };
    let line = if local.is_err() { text } else { Error::Collective(text).to_string() };
    diagnostics::write_line(id.name(), &line);
    super::super::process::stop_after_refusal(1)
}

/// Whether every header of `rows` gives the call of `own` (this PE's header), accepted: the
/// usual case, found by comparing bytes (what `judge` finds then).
fn alike<'a>(mut rows: impl Iterator<Item = (usize, &'a [u8])>, own: &[u8]) -> bool {
    // (as arrays: compared inline, where slices of a length known at run time call memcmp)
    let call = |row: &[u8]| -> [u8; ENTRY_BYTES] { row[4..4 + ENTRY_BYTES].try_into().expect("a header") };
    let mine = call(own);
    rows.all(|(_, r)| flags(r) & REFUSED == 0 && call(r) == mine)
}

/// Of the PEs' headers (`rows`, with their ranks) for this PE (`me`, making `mine`, with its
/// own verdict `local`): a PE in another routine, else (where neither this PE nor another
/// refused) a PE whose arguments differ; the line naming both PEs.
fn mismatch<'a>(rows: impl Iterator<Item = (usize, &'a [u8])> + Clone, me: usize, mine: &CallEntry, local: &Result<()>) -> Option<String> {
    let entries = rows.clone().map(|(pe, r)| (pe, CallEntry::from_bytes(&r[4..])));
    if let Some((pe, other)) = entries.clone().find(|(_, e)| e.routine != mine.routine) {
        let id = CollectiveId::from_code(mine.routine).unwrap_or(CollectiveId::Barrier);
        return Some(CollectiveId::mismatch(pe, other.routine, me, id));
    }
    if local.is_err() || rows.clone().any(|(_, r)| flags(r) & REFUSED != 0) {
        return None;
    }
    let (pe, other) = entries.clone().find(|(_, e)| e != mine)?;
    Some(format!("PE {pe} makes {} while PE {me} makes {}", other.describe(), mine.describe()))
}

/// Judges every PE's header (`rows`, with their ranks) for this PE (`me`, making `mine`, with
/// its own verdict `local`): first a PE in another routine, then this PE's own error, then the
/// first PE that refused, then a PE whose arguments differ; each names both PEs.
fn judge<'a>(rows: impl Iterator<Item = (usize, &'a [u8])> + Clone, me: usize, mine: &CallEntry, local: &Result<()>) -> Result<()> {
    if let Some(text) = mismatch(rows.clone(), me, mine, local) {
        return Err(Error::Collective(text));
    }
    local.clone()?;
    match rows.clone().find(|(_, r)| flags(r) & REFUSED != 0) {
        Some((pe, _)) => Err(Error::Collective(format!("PE {pe} refused the call (see its message)"))),
        None => Ok(()),
    }
}

/// Whether a header (or an agreement's record, which begins alike) is a rooted round's
/// (`ROOTED`), whose PE may not learn what this one finds.
pub(in crate::runtime) fn made_rooted(row: &[u8]) -> bool {
    flags(row) & ROOTED != 0
}

/// Ends the job after this PE found, in its call `at`, a PE in another call or with other
/// arguments (`found`) that does not learn it itself: a PE of a rooted round
/// (`Runtime::exchange_rooted`), which may have gone on.
pub(in crate::runtime) fn end_job_on_mismatch(at: CollectiveId, found: &Error) -> ! {
    diagnostics::write_line(at.name(), &format!("{found} (the job ends)"));
    super::super::process::stop_after_refusal(1)
}

/// Every PE's data of an exchange, in this PE's buffers until its next collective.
pub(in crate::runtime) struct Exchanged<'a> {
    all: &'a [u8],
    /// From one PE's block to the next.
    stride: usize,
    /// Where the data starts in a block.
    at: usize,
    len: usize,
}

impl Exchanged<'_> {
    /// The data of the PE of rank `pe`.
    pub fn of(&self, pe: usize) -> &[u8] {
        &self.all[pe * self.stride + self.at..][..self.len]
    }

    /// Every PE's data, in rank order.
    pub fn each(&self) -> impl Iterator<Item = &[u8]> {
        (0..self.all.len() / self.stride.max(1)).map(|pe| self.of(pe))
    }
}

impl Runtime {
    /// Whether every collective starts with the agreement step (the checking mode).
    pub(in crate::runtime) fn checks_each_call(&self) -> bool {
        self.calls.each_call
    }

    /// Whether the transport makes the collectives over `comm` with calls of its own (MPI across
    /// nodes), which carry no header: their calls are then logged and compared where the PEs meet
    /// (`compare_calls`).
    pub(in crate::runtime) fn logs_calls(&self, comm: &Communicator) -> bool {
        self.transport.collective_path(comm) == CollectivePath::Own
    }

    /// Whether a reduction of `t` with `op` over `comm` is the transport's own call although its
    /// other collectives are exchanges: over MPI on one node, a sum or product of reals over 3 PEs or more
    /// (MPI's grouping of the operands, which the original's results follow to the last bit): see
    /// `own_reduction`.
    pub(in crate::runtime) fn reduces_itself(&self, comm: &Communicator, t: MessageType, op: Operator) -> bool {
        self.transport.collective_path(comm) == CollectivePath::ExchangeReducingOwn && comm.size() > 2 && !t.reduces_exactly(op)
    }

    /// Logs a call the transport makes with its own collective (`logs_calls`). A call this PE
    /// refuses (`local`) is logged as refused, and this PE learns whether the others refused it
    /// too, on this path only (nothing is added to a call that is made): the PEs that refused it
    /// exchange their signatures in a nonblocking allgather, which MPI never pairs with the
    /// blocking collective of PEs that made the call. Where every PE refused it alike (the same
    /// bad name everywhere: the usual case) they go on in step and its error is returned; where
    /// the others made the call, they wait in MPI's collective for this PE, which never comes
    /// while the program goes on past `ierr` (GEM does): after the hang report's interval this PE
    /// ends the job, naming its call (the original RPN_COMM ends it at once there: MPI's fatal
    /// error handler takes its bad argument).
    pub(in crate::runtime) fn log_call(&mut self, comm: &Communicator, entry: CallEntry, local: &Result<()>) -> Result<()> {
        let logged = if local.is_err() { CallEntry { bytes: call_log::REFUSED, ..entry } } else { entry };
        let log = self.calls.logs.entry(comm.id()).or_default();
        log.note(logged);
        // for the hang report, should the call wait forever
        call_log::publish_last(log.len(), &logged);
        let (Err(e), true) = (local, comm.size() > 1) else { return local.clone() };
        let number = log.len();
        let mine = self.calls.signature(comm).to_ne_bytes().to_vec();
        let limit = diagnostics::hang_report_interval().unwrap_or(REFUSAL_LIMIT);
        let at = CollectiveId::from_code(entry.routine).unwrap_or(CollectiveId::Barrier);
        let on = comm.name().unwrap_or("WORLD");
        match self.transport.allgather_within(comm, mine.clone(), limit) {
            Ok(Some(all)) if all.chunks_exact(mine.len()).all(|s| s == mine) => local.clone(),
            Ok(Some(_)) => self.calls_differ(comm, at),
            Ok(None) => {
                let text = format!(
                    "{e}: not every PE of {on} refused call {number} on {on} ({}) within {:.0} s: the others wait for this PE in MPI's collective, which never comes (the job ends; RPNCOMM_CHECK_COLLECTIVES=each refuses such a call on every PE alike)",
                    CollectiveId::describe(entry.routine),
                    limit.as_secs_f64()
                );
                diagnostics::write_line(diagnostics::routine(), &text);
                super::super::process::stop_after_refusal(1)
            }
            Err(other) => {
                diagnostics::write_line(diagnostics::routine(), &format!("{e}: then {other} (the job ends)"));
                super::super::process::stop_after_refusal(1)
            }
        }
    }

    /// A collective made of an exchange (`CollectivePath::Exchange`): every PE's `data` (each as
    /// long as this PE's), after every PE's call was found the same as this one's (`entry`) and
    /// accepted (`local`); else an error on every PE and nothing moved. The buffers are kept
    /// between calls (these collectives come by the hundred per time step).
    pub(in crate::runtime) fn exchange(
        &mut self,
        comm: &Communicator,
        entry: CallEntry,
        local: &Result<()>,
        data: &[u8],
    ) -> Result<Exchanged<'_>> {
        self.exchange_with_room(comm, entry, local, data, 0)
    }

    /// `exchange`, where the other PEs' data may be longer than this PE's, up to `room` bytes
    /// that fit one round with the header (the round of a gatherv or scatterv, whose PEs carry
    /// blocks of their own lengths): each PE's block is read as long as it was published, not
    /// `room` bytes of every PE, and `Exchanged::of` gives `room` bytes of each (past a PE's own
    /// data, what the buffer held).
    pub(in crate::runtime) fn exchange_with_room(
        &mut self,
        comm: &Communicator,
        entry: CallEntry,
        local: &Result<()>,
        data: &[u8],
        room: usize,
    ) -> Result<Exchanged<'_>> {
        let data = if local.is_ok() { data } else { &[] };
        let room = room.max(data.len());
        let one_round = HEADER_BYTES + room <= ONE_ROUND_BYTES;
        let signature = self.calls.signature(comm);
        let CallChecks { mine, all, .. } = &mut self.calls;
        mine.clear();
        push_header(mine, entry, local.is_err() as u32 * REFUSED, data.len(), signature);
        if one_round {
            mine.extend_from_slice(data);
        }
        let stride = if one_round { HEADER_BYTES + room } else { HEADER_BYTES };
        all.resize(stride * comm.size(), 0);
        end_if_peer_in_own_call(comm, self.transport.allgather(comm, mine, all), entry, local)?;
        let own: [u8; HEADER_BYTES] = mine[..HEADER_BYTES].try_into().expect("a header");
        let rows = all.chunks_exact(stride).enumerate();
        if !(local.is_ok() && alike(rows.clone(), &own)) {
            if let Some(text) = mismatch(rows.clone(), comm.rank(), &entry, local)
                && rows.clone().any(|(_, r)| made_rooted(r))
            {
                end_job_on_mismatch(CollectiveId::from_code(entry.routine).unwrap_or(CollectiveId::Barrier), &Error::Collective(text));
            }
            judge(rows, comm.rank(), &entry, local)?;
        }
        // The PEs' reductions made by MPI's own calls (`own_reduction`) since: the same everywhere?
        if all.chunks_exact(stride).any(|row| header_signature(row) != header_signature(&own)) {
            let at = CollectiveId::from_code(entry.routine).unwrap_or(CollectiveId::Barrier);
            self.calls_differ(comm, at)?;
        }
        let all = &mut self.calls.all;
        if one_round {
            return Ok(Exchanged { all, stride, at: HEADER_BYTES, len: room });
        }
        all.resize(data.len() * comm.size(), 0);
        self.transport.allgather(comm, data, all)?;
        Ok(Exchanged { all, stride: data.len(), at: 0, len: data.len() })
    }

    /// A rooted collective (RPN_COMM_reduce and gather toward `root`, bcast from it) made of an
    /// exchange (`CollectivePath::Exchange`), in one round in which the transport lets the
    /// senders leave before the root has their data and a broadcast's root before the others
    /// have its data, as MPI's rooted collectives do (`Transport::rooted_round`). This PE judges
    /// the headers it reads: the root every PE's toward it, the others the root's from it.
    /// - A PE in another call, or with other arguments, is named by a PE that reads its header,
    ///   which ends the job: the PE named may have gone on, and a PE in an exchange that reads
    ///   this one's header does the same (`ROOTED`).
    /// - A call that differs where no PE reads the other's header (two PEs that each take
    ///   themselves for a broadcast's root) is found at the next exchange or agreement on
    ///   `comm`, whose headers carry the signature of the calls logged, this one included.
    /// - A PE that refused reads every PE's header and fails; the PEs that read its header fail
    ///   too, naming it; where some PEs did not read it, their logs differ from the others' from
    ///   then on, as above.
    ///
    /// Returns the data this PE read: every PE's on the root toward it; the root's from it. A
    /// call whose data does not fit a round is a whole exchange.
    #[allow(clippy::too_many_arguments)]
    pub(in crate::runtime) fn exchange_rooted(
        &mut self,
        comm: &Communicator,
        entry: CallEntry,
        local: &Result<()>,
        data: &[u8],
        root: i32,
        toward: Toward,
    ) -> Result<Exchanged<'_>> {
        if local.is_err() || HEADER_BYTES + data.len() > ONE_ROUND_BYTES {
            // (a PE that refused reads every PE's header, as a PE of the round may, whatever
            // this PE takes for the root)
            let made = self.exchange(comm, entry, local, data).map(|e| (e.stride, e.at, e.len));
            self.note_rooted(comm, entry, made.is_ok());
            let (stride, at, len) = made?;
            return Ok(Exchanged { all: &self.calls.all, stride, at, len });
        }
        let root = usize::try_from(root).ok().filter(|&r| r < comm.size()).unwrap_or(0);
        let signature = self.calls.signature(comm);
        let CallChecks { mine, all, .. } = &mut self.calls;
        mine.clear();
        // (local is Ok here: a refused call took the whole exchange above)
        push_header(mine, entry, ROOTED, data.len(), signature);
        mine.extend_from_slice(data);
        all.resize(mine.len() * comm.size(), 0);
        let whole = self
            .transport
            .rooted_round(comm, mine, all, root, toward)
            .or_else(|e| end_if_peer_in_own_call(comm, Err(e), entry, local).map(|()| false))?;
        let own: [u8; HEADER_BYTES] = mine[..HEADER_BYTES].try_into().expect("a header");
        let me = comm.rank();
        let read = move |pe: usize| whole || pe == me || if toward == Toward::Root { me == root } else { pe == root };
        let rows = all.chunks_exact(mine.len()).enumerate().filter(move |&(pe, _)| read(pe));
        let verdict = if local.is_ok() && alike(rows.clone(), &own) {
            Ok(())
        } else {
            if !whole && let Some(text) = mismatch(rows.clone(), me, &entry, local) {
                end_job_on_mismatch(CollectiveId::from_code(entry.routine).unwrap_or(CollectiveId::Bcast), &Error::Collective(text));
            }
            judge(rows.clone(), me, &entry, local)
        };
        let differ = whole && rows.clone().any(|(_, row)| header_signature(row) != header_signature(&own));
        let stride = mine.len();
        self.note_rooted(comm, entry, verdict.is_ok());
        if differ {
            self.calls_differ(comm, CollectiveId::from_code(entry.routine).unwrap_or(CollectiveId::Bcast))?;
        }
        verdict?;
        Ok(Exchanged { all: &self.calls.all, stride, at: HEADER_BYTES, len: data.len() })
    }

    /// Logs this PE's rooted call `entry` on `comm` (`exchange_rooted`), as refused unless it
    /// was `made`: the signature that the next exchange or agreement compares.
    fn note_rooted(&mut self, comm: &Communicator, entry: CallEntry, made: bool) {
        let logged = if made { entry } else { CallEntry { bytes: call_log::REFUSED, ..entry } };
        self.calls.logs.entry(comm.id()).or_default().note(logged);
    }

    /// `f`, the transport's own reduction for this PE's call `entry` on `comm` where the PEs'
    /// other collectives are exchanges (`reduces_itself`): the call is logged, as on the `Own`
    /// path, and announced to the PEs of the node while it lasts (`Transport::own_call`). A PE
    /// in an exchange instead is named at once (`end_if_peer_in_own_call`); a PE in the same
    /// reduction with other arguments, which MPI may complete, at the next exchange or agreement
    /// on `comm`, which compare the PEs' signatures. No round besides MPI's call.
    pub(in crate::runtime) fn own_reduction<T>(
        &mut self,
        comm: &Communicator,
        entry: CallEntry,
        f: impl FnOnce(&mut dyn crate::transport::Transport) -> Result<T>,
    ) -> Result<T> {
        self.log_call(comm, entry, &Ok(()))?;
        self.transport.own_call(comm, Some(&entry.to_bytes()));
        let at = CollectiveId::from_code(entry.routine).unwrap_or(CollectiveId::Allreduce);
        let result = self.unchecked(comm, at, f);
        self.transport.own_call(comm, None);
        result
    }

    /// Where the PEs meet (RPN_COMM_barrier over MPI's own calls): one allreduce with MAX of the
    /// signature with a mark, and its complement, 8 bytes whatever the PE count; every PE learns
    /// alike whether one PE's calls differ (then `calls_differ`), and a PE whose allreduce met
    /// another PE's call finds the mark changed (then `met_another_call`).
    pub(in crate::runtime) fn compare_calls(&mut self, comm: &Communicator, at: CollectiveId) -> Result<()> {
        // 24 bits of the signature and a mark in one integer, and its complement: 8 bytes, which
        // MPIs reduce in their quickest way (MPICH over TCP: 16 bytes take twice as long)
        let folded = (self.calls.signature(comm) as u32 ^ (self.calls.signature(comm) >> 32) as u32) & 0x00ff_ffff;
        let word = (folded << 8 | COMPARISON_MARK) as i32;
        let mine: Vec<u8> = [word, !word].iter().flat_map(|w| w.to_ne_bytes()).collect();
        let t = MessageType::from_name("MPI_INTEGER")?;
        let max = self
            .unchecked(comm, at, |tr| tr.allreduce_native(comm, &mine, t, Operator::Max))?
            .ok_or_else(|| Error::Internal("compare_calls needs the transport's allreduce".into()))?;
        if max == mine {
            return Ok(());
        }
        let low_bytes = |bytes: &[u8]| [0, 4].map(|at| i32::from_ne_bytes(bytes[at..at + 4].try_into().expect("4 bytes")) as u32 & 0xff);
        if low_bytes(&max) != low_bytes(&mine) {
            // Another PE was not comparing: its call met this one (an allreduce of 8 bytes), and
            // it may never learn it.
            self.met_another_call(comm, at, "")
        }
        self.calls_differ(comm, at)
    }

    /// `f`, the transport's own collective for this PE's call `at` on `comm` (logged): an MPI
    /// error there is the sign of a call that met another routine's, or other arguments, on
    /// another PE, and ends the job as `met_another_call`.
    pub(in crate::runtime) fn unchecked<T>(
        &mut self,
        comm: &Communicator,
        at: CollectiveId,
        f: impl FnOnce(&mut dyn crate::transport::Transport) -> Result<T>,
    ) -> Result<T> {
        match f(self.transport.as_mut()) {
            Err(Error::Mpi(e)) => self.met_another_call(comm, at, &format!(" (MPI: {e})")),
            other => other,
        }
    }

    /// This PE's call `at` on `comm` met another collective call on another PE, which may never
    /// learn it: this PE says what it knows (its calls on `comm`) and ends the job.
    fn met_another_call(&self, comm: &Communicator, at: CollectiveId, why: &str) -> ! {
        let log = self.calls.logs.get(&comm.id()).cloned().unwrap_or_default();
        let on = comm.name().unwrap_or("WORLD");
        let this = match log.last() {
            Some(e) if at != CollectiveId::Barrier => format!("{} (call {} on {on})", e.describe(), log.len()),
            _ => format!("{at} (after call {} on {on})", log.len()),
        };
        let text = format!("{this} met another collective call, or other arguments, on another PE{why} (the job ends)");
        diagnostics::write_line(at.name(), &Error::Collective(text).to_string());
        super::super::process::stop_after_refusal(1)
    }

    /// Every PE found that the PEs' unchecked calls on `comm` differ (the same finding on every
    /// PE: `compare_calls`, or an agreement's records): they exchange their logs, and each prints
    /// the first call that differs, with both PEs and both routines, and ends (results computed
    /// since may be wrong, and the PEs are out of step).
    pub(in crate::runtime) fn calls_differ(&mut self, comm: &Communicator, at: CollectiveId) -> Result<()> {
        let mine = self.calls.logs.get(&comm.id()).cloned().unwrap_or_default().to_bytes();
        let mut all = vec![0u8; LOG_BYTES * comm.size()];
        let on = comm.name().unwrap_or("WORLD");
        let text = match self.transport.allgather(comm, &mine, &mut all) {
            Ok(()) => {
                let logs: Vec<CallLog> = all.chunks_exact(LOG_BYTES).map(CallLog::from_bytes).collect();
                call_log::first_difference(&logs, on).unwrap_or_else(|| format!("the PEs' collective calls on {on} differ"))
            }
            Err(e) => format!("the PEs' collective calls on {on} differ (their calls could not be exchanged: {e})"),
        };
        let error = Error::Collective(format!("{text} (found in {at}; the job ends)"));
        diagnostics::write_line(at.name(), &error.to_string());
        super::super::process::stop_after_refusal(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The header `push_header` writes, refused or not.
    fn header(entry: CallEntry, refused: bool, len: usize, signature: u64) -> [u8; HEADER_BYTES] {
        let mut out = Vec::new();
        push_header(&mut out, entry, refused as u32 * REFUSED, len, signature);
        out.try_into().expect("a header")
    }

    #[test]
    fn a_header_is_flags_call_length_and_folded_signature_as_the_agreement_lays_them_out() {
        let entry = CallEntry::new(CollectiveId::Allreduce, 16, MessageType::from_name("MPI_REAL8").ok(), Some(Operator::Sum), None);
        let h = header(entry, true, 16, 0x0000_0001_0000_0003);
        assert_eq!(flags(&h), REFUSED);
        assert_eq!(h[4..4 + ENTRY_BYTES], entry.to_bytes());
        assert_eq!(h[4 + ENTRY_BYTES..8 + ENTRY_BYTES], 16u32.to_ne_bytes());
        assert_eq!(header_signature(&h), 2);
    }

    fn rows_of(headers: &[[u8; HEADER_BYTES]]) -> impl Iterator<Item = (usize, &[u8])> + Clone {
        headers.iter().map(|h| &h[..]).enumerate()
    }

    #[test]
    fn an_exchange_of_one_round_fits_a_round_of_shared_memory() {
        assert_eq!(ONE_ROUND_BYTES, crate::transport::shm::rounds::BLOCK_BYTES);
    }

    #[test]
    fn another_routine_then_own_error_then_a_refusal_then_other_arguments() {
        let sum = CallEntry::new(CollectiveId::Allreduce, 16, MessageType::from_name("MPI_REAL8").ok(), Some(Operator::Sum), None);
        let barrier = CallEntry::new(CollectiveId::Barrier, 0, None, None, None);
        let headers = [header(sum, false, 16, 0), header(barrier, false, 0, 0)];
        let e = judge(rows_of(&headers), 0, &sum, &Ok(())).unwrap_err().to_string();
        assert!(e.ends_with("PE 1 is in RPN_COMM_barrier while PE 0 is in RPN_COMM_allreduce"), "{e}");

        let headers = [header(sum, false, 16, 0), header(sum, true, 0, 0)];
        let e = judge(rows_of(&headers), 0, &sum, &Ok(())).unwrap_err().to_string();
        assert!(e.contains("PE 1 refused"), "{e}");
        let own = Err(Error::BadArgument("x".into()));
        assert!(matches!(judge(rows_of(&headers), 1, &sum, &own), Err(Error::BadArgument(_))));

        let max = CallEntry { op: Operator::Max.code(), ..sum };
        let headers = [header(sum, false, 16, 0), header(max, false, 16, 0)];
        let e = judge(rows_of(&headers), 0, &sum, &Ok(())).unwrap_err().to_string();
        assert!(e.ends_with("PE 1 makes RPN_COMM_allreduce of 16 bytes of MPI_REAL8 with MPI_MAX while PE 0 makes RPN_COMM_allreduce of 16 bytes of MPI_REAL8 with MPI_SUM"), "{e}");
        assert!(judge(rows_of(&[header(sum, false, 16, 0); 3]), 2, &sum, &Ok(())).is_ok());
    }
}
