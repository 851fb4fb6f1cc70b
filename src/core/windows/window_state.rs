//! The transport-independent state of one window on this PE: exposure state machine,
//! synchronisation mode, group lists, bounds and argument checks, and the client side of
//! the request/reply slots. What this PE can decide alone is refused here, before any
//! transport is asked to move a byte; what depends on the target's side of the epoch (the mode
//! it opened the window in, whether its `pes_from` holds this PE) is refused by the transport,
//! which sees it (`Error::ModeMismatch`, `Error::NotInPesFrom`).

use crate::core::datatype::ElementType;
use crate::core::operator::Operator;
use crate::error::{Error, Result};

/// Synchronisation mode of an exposure epoch, chosen at open.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Active mode over the whole communicator.
    Fence,
    /// Active mode restricted to the PEs of `RPN_COMM_i_win_group`.
    Group,
    /// Passive mode: each operation is complete and atomic when it returns.
    Passive,
}

impl Mode {
    /// The mode's name in messages.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Fence => "active (fence)",
            Mode::Group => "active (group)",
            Mode::Passive => "passive",
        }
    }

    /// Stable small code exchanged between PEs.
    pub fn code(self) -> u32 {
        match self {
            Mode::Fence => 1,
            Mode::Group => 2,
            Mode::Passive => 3,
        }
    }

    /// The mode with this code (None: no such code).
    pub fn from_code(code: u32) -> Option<Mode> {
        [Mode::Fence, Mode::Group, Mode::Passive].into_iter().find(|m| m.code() == code)
    }
}

/// The PEs this PE targets (`pes_to`) and accepts operations from (`pes_from`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GroupSets {
    /// The ranks this PE targets, sorted.
    pub to: Vec<usize>,
    /// The ranks this PE accepts operations from, sorted.
    pub from: Vec<usize>,
    to_member: Vec<bool>,
}

impl GroupSets {
    /// The sets of a PE among `npes`: it targets `to` and accepts operations from `from`
    /// (ranks below `npes`, sorted).
    pub fn new(npes: usize, to: Vec<usize>, from: Vec<usize>) -> Self {
        let mut to_member = vec![false; npes];
        for &pe in &to {
            to_member[pe] = true;
        }
        GroupSets { to, from, to_member }
    }

    /// Whether `pe` is one of the ranks this PE targets.
    pub fn targets(&self, pe: usize) -> bool {
        self.to_member.get(pe).copied().unwrap_or(false)
    }
}

/// A checked remote access: element offset and count that fit the target's window.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RemoteAccess {
    /// Rank of the target PE.
    pub target: usize,
    /// Offset in elements in the target's window.
    pub offset: usize,
    /// Number of elements.
    pub nelem: usize,
    /// Mode of the current exposure.
    pub mode: Mode,
    /// Epoch of the current exposure.
    pub epoch: u32,
}

/// One request of `RPN_COMM_i_win_post` as the caller gives it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PostRequest {
    /// Target PE.
    pub pe: i32,
    /// Offset of the request in the target's window.
    pub offseti: i32,
    /// Length of the request.
    pub nelemi: i32,
    /// Offset of the reply in this PE's window.
    pub offseto: i32,
    /// Length of the reply.
    pub nelemo: i32,
}

/// What a validated post call asks the transport to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PostPlan {
    /// Write `record` into `target`'s secondary window, in the slot this PE holds there: claimed
    /// at its first post to `target` and kept across epochs until the secondary window is made
    /// again or fully reinitialised (the runtime keeps the claimed slots: threads of a PE post at
    /// the same time).
    Requests(Vec<(usize, [i32; 5])>),
    /// Clear this PE's records; with `full`, also reset its counter (the runtime then forgets the
    /// slots it holds).
    Reinitialize {
        /// Also reset the counter of claimed records (and forget the slots held).
        full: bool,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Exposure {
    Closed,
    Open(Mode),
}

/// Per-window state of this PE.
#[derive(Debug, Clone)]
pub struct WindowState {
    rank: usize,
    dtype: ElementType,
    sizes: Vec<usize>,
    exposure: Exposure,
    epoch: u32,
    group: Option<GroupSets>,
    default_oper: Operator,
    /// Records per PE of the secondary window, when there is one.
    secondary: Option<Vec<usize>>,
    /// The name of the window's communicator when it is not the whole job ('EW'), for messages.
    comm_name: Option<&'static str>,
}

#[inline]
fn non_negative(what: &'static str, value: i64) -> Result<usize> {
    usize::try_from(value).map_err(|_| Error::Negative { what, value })
}

impl WindowState {
    /// The state of a new, closed window of `sizes[r]` elements on rank r, this PE being `rank`.
    pub fn new(rank: usize, dtype: ElementType, sizes: Vec<usize>) -> Self {
        WindowState {
            rank,
            dtype,
            sizes,
            exposure: Exposure::Closed,
            epoch: 0,
            group: None,
            default_oper: Operator::Sum,
            secondary: None,
            comm_name: None,
        }
    }

    /// The same state, its messages naming the window's communicator `name` (not the job).
    pub fn over(mut self, name: Option<&'static str>) -> Self {
        self.comm_name = name;
        self
    }

    /// The window's element type.
    pub fn dtype(&self) -> ElementType {
        self.dtype
    }
    /// The number of PEs of the window.
    pub fn npes(&self) -> usize {
        self.sizes.len()
    }
    /// This PE's rank in the window's communicator.
    pub fn rank(&self) -> usize {
        self.rank
    }
    /// Every PE's number of elements.
    pub fn sizes(&self) -> &[usize] {
        &self.sizes
    }
    /// This PE's number of elements.
    pub fn local_size(&self) -> usize {
        self.sizes[self.rank]
    }
    /// Whether the window is exposed (open).
    pub fn is_open(&self) -> bool {
        self.exposure != Exposure::Closed
    }
    /// The mode of the current exposure (None: closed).
    #[inline]
    pub fn mode(&self) -> Option<Mode> {
        match self.exposure {
            Exposure::Open(m) => Some(m),
            Exposure::Closed => None,
        }
    }
    /// The current (or last) epoch.
    pub fn epoch(&self) -> u32 {
        self.epoch
    }
    /// The group of active mode (None: fence mode).
    pub fn group(&self) -> Option<&GroupSets> {
        self.group.as_ref()
    }
    /// The operator of accumulates given none.
    pub fn default_operator(&self) -> Operator {
        self.default_oper
    }
    /// Every PE's number of secondary records (None: no secondary window).
    pub fn secondary_records(&self) -> Option<&[usize]> {
        self.secondary.as_deref()
    }

    /// Starts an exposure epoch; returns its number and mode.
    pub fn open(&mut self, active: bool) -> Result<(u32, Mode)> {
        if self.is_open() {
            return Err(Error::CallOrder("window is already open (open twice)".into()));
        }
        let mode = match (active, &self.group) {
            (false, _) => Mode::Passive,
            (true, None) => Mode::Fence,
            (true, Some(_)) => Mode::Group,
        };
        self.epoch = self.epoch.wrapping_add(1);
        self.exposure = Exposure::Open(mode);
        Ok((self.epoch, mode))
    }

    /// Checks that the window can be closed; the caller calls `closed` once the transport is done.
    pub fn check_close(&self) -> Result<(u32, Mode)> {
        match self.exposure {
            Exposure::Open(mode) => Ok((self.epoch, mode)),
            Exposure::Closed => Err(Error::CallOrder("window is not open (close without open)".into())),
        }
    }

    /// Records that the transport closed the window.
    pub fn closed(&mut self) {
        self.exposure = Exposure::Closed;
    }

    /// The transport failed to open: the epoch did not start.
    pub fn open_failed(&mut self) {
        self.exposure = Exposure::Closed;
        self.epoch = self.epoch.wrapping_sub(1);
    }

    /// Validates a remote get/put/accumulate.
    ///
    /// The accepted case is a few comparisons inlined into each operation; a refusal takes the
    /// out-of-line path that names the reason. (Called, the check returned its Result through
    /// memory, and the caller's reload of it stalled on the store: about 1 ns of a 28 ns
    /// one-element put.)
    #[inline(always)]
    pub fn check_remote(&self, op: &'static str, target: i64, offset: i64, nelem: i64, buffer_is_null: bool) -> Result<RemoteAccess> {
        self.accepted_remote(target, offset, nelem, buffer_is_null)
            .ok_or_else(|| self.refuse_remote(op, target, offset, nelem, buffer_is_null))
    }

    /// The access when `check_remote` accepts it, else None (no reason: `refuse_remote` finds
    /// it). The operations call this and `refuse_remote` themselves: an Option comes back in
    /// registers where a Result of this size does not.
    #[inline(always)]
    pub fn accepted_remote(&self, target: i64, offset: i64, nelem: i64, buffer_is_null: bool) -> Option<RemoteAccess> {
        if let Some(mode) = self.mode()
            && let Ok(t) = usize::try_from(target)
            && t < self.sizes.len()
            && let (Ok(o), Ok(n)) = (usize::try_from(offset), usize::try_from(nelem))
            && !(buffer_is_null && n > 0)
            && o.checked_add(n).is_some_and(|end| end <= self.sizes[t])
            && (mode != Mode::Group || self.group.as_ref().is_some_and(|g| g.targets(t)))
        {
            return Some(RemoteAccess { target: t, offset: o, nelem: n, mode, epoch: self.epoch });
        }
        None
    }

    /// Why `accepted_remote` refused an access: the first rule broken.
    #[cold]
    #[inline(never)]
    pub fn refuse_remote(&self, op: &'static str, target: i64, offset: i64, nelem: i64, buffer_is_null: bool) -> Error {
        match self.remote_steps(op, target, offset, nelem, buffer_is_null) {
            Err(e) => e,
            Ok(_) => Error::Internal(format!("{op}: the access was refused, yet every rule holds step by step")),
        }
    }

    /// The rules of a remote access one by one (the reference `accepted_remote` must agree with).
    fn remote_steps(&self, op: &'static str, target: i64, offset: i64, nelem: i64, buffer_is_null: bool) -> Result<RemoteAccess> {
        let mode = self.mode().ok_or(Error::NotExposed { op })?;
        let target = self.check_rank(target)?;
        let offset_u = non_negative("offset", offset)?;
        let nelem_u = non_negative("nelem", nelem)?;
        if buffer_is_null && nelem_u > 0 {
            return Err(Error::NullBuffer { what: "local", nelem });
        }
        let size = self.sizes[target];
        if offset_u.checked_add(nelem_u).is_none_or(|end| end > size) {
            return Err(Error::OutOfBounds { offset, nelem, size, pe: target });
        }
        if mode == Mode::Group && !self.group.as_ref().is_some_and(|g| g.targets(target)) {
            return Err(Error::NotInPesTo { target });
        }
        Ok(RemoteAccess { target, offset: offset_u, nelem: nelem_u, mode, epoch: self.epoch })
    }

    /// Validates a one-element atomic (compare-and-swap, fetch-and-op) on element `offset` of
    /// PE `target`: the rules of every remote operation for one element, and the caller's
    /// element buffers (`buffers`: what each is called, and whether it is null) present.
    /// `op` names the routine in a refusal that needs it.
    #[inline]
    pub fn check_atomic(&self, op: &'static str, target: i64, offset: i64, buffers: &[(&'static str, bool)]) -> Result<RemoteAccess> {
        if let Some(&(what, _)) = buffers.iter().find(|b| b.1) {
            // a remote rule broken first names that rule (not exposed, bad target ...)
            self.remote_steps(op, target, offset, 1, false)?;
            return Err(Error::NullBuffer { what, nelem: 1 });
        }
        self.check_remote(op, target, offset, 1, false)
    }

    /// Checks that compare-and-swap applies to the window's element type (integers only: the
    /// comparison of reals is not bitwise, and MPI allows only integer types for it).
    pub fn check_cas_type(&self) -> Result<()> {
        match self.dtype.is_integer() {
            true => Ok(()),
            false => Err(Error::CasType { dtype: self.dtype.name() }),
        }
    }

    /// Validates a local get/put: returns (offset, nelem) in elements.
    pub fn check_local(&self, op: &'static str, offset: i64, nelem: i64, buffer_is_null: bool) -> Result<(usize, usize)> {
        if self.is_open() {
            return Err(Error::Exposed { op });
        }
        let offset_u = non_negative("offset", offset)?;
        let nelem_u = non_negative("nelem", nelem)?;
        if buffer_is_null && nelem_u > 0 {
            return Err(Error::NullBuffer { what: "local", nelem });
        }
        let size = self.local_size();
        if offset_u.checked_add(nelem_u).is_none_or(|end| end > size) {
            return Err(Error::OutOfBounds { offset, nelem, size, pe: self.rank });
        }
        Ok((offset_u, nelem_u))
    }

    /// Checks a rank of the window's communicator.
    #[inline]
    pub fn check_rank(&self, rank: i64) -> Result<usize> {
        usize::try_from(rank).ok().filter(|&r| r < self.npes()).ok_or_else(|| Error::BadRank {
            rank,
            npes: self.npes(),
            comm: self.comm_name.map_or(String::new(), |n| format!(" '{n}'")),
        })
    }

    /// Checks an accumulate operator against the window's type.
    pub fn check_operator(&self, op: Operator) -> Result<()> {
        op.check_type(self.dtype)
    }

    /// Sets the operator of accumulates given none (checked against the window's type).
    pub fn set_default_operator(&mut self, op: Operator) -> Result<()> {
        self.check_operator(op)?;
        self.default_oper = op;
        Ok(())
    }

    /// `RPN_COMM_i_win_group`: `[-1]`, `[-1]` returns to fence mode.
    pub fn set_group(&mut self, to: &[i32], from: &[i32]) -> Result<()> {
        if self.is_open() {
            return Err(Error::Exposed { op: "changing groups" });
        }
        if to == [-1] && from == [-1] {
            self.group = None;
            return Ok(());
        }
        let to = self.group_list("pes_to", to)?;
        let from = self.group_list("pes_from", from)?;
        self.group = Some(GroupSets::new(self.npes(), to, from));
        Ok(())
    }

    fn group_list(&self, name: &str, list: &[i32]) -> Result<Vec<usize>> {
        let mut seen = vec![false; self.npes()];
        list.iter()
            .map(|&pe| {
                let r = self
                    .check_rank(pe as i64)
                    .map_err(|_| Error::BadGroup(format!("{name} holds rank {pe}, outside ranks 0 to {}", self.npes() - 1)))?;
                if std::mem::replace(&mut seen[r], true) {
                    return Err(Error::BadGroup(format!("{name} lists PE {pe} twice")));
                }
                Ok(r)
            })
            .collect()
    }

    /// Validates `create_secondary(slots)`: returns the number of records (header included)
    /// and whether an existing secondary window must be replaced.
    pub fn check_secondary(&self, slots: i32) -> Result<(usize, bool)> {
        if self.is_open() {
            return Err(Error::Exposed { op: "RPN_COMM_i_win_create_secondary" });
        }
        match slots {
            0 | i32::MIN => Err(Error::BadArgument(format!("slots = {slots}: a secondary window needs at least 1 record"))),
            s if s > 0 && self.secondary.is_some() => {
                Err(Error::CallOrder("window already has a secondary window (use slots < 0 to reallocate)".into()))
            }
            s => Ok((s.unsigned_abs() as usize, self.secondary.is_some())),
        }
    }

    /// Records the secondary window's records per PE.
    pub fn set_secondary(&mut self, records: Vec<usize>) {
        self.secondary = Some(records);
    }

    /// Forgets the secondary window.
    pub fn drop_secondary(&mut self) {
        self.secondary = None;
    }

    /// Validates a post call and says what to do. `nreq = 0` is a no-op and reads no request.
    pub fn plan_post(&self, requests: &[PostRequest]) -> Result<PostPlan> {
        if self.secondary.is_none() {
            return Err(Error::NoSecondary);
        }
        if let Some(first) = requests.first().filter(|r| r.offseti == -1) {
            if self.mode().is_some_and(|m| m != Mode::Passive) {
                return Err(Error::PostNotPassive);
            }
            return match first.nelemi {
                -1 => Ok(PostPlan::Reinitialize { full: false }),
                -2 => Ok(PostPlan::Reinitialize { full: true }),
                n => Err(Error::BadArgument(format!("offseti(1) = -1 needs nelemi(1) = -1 or -2, got {n}"))),
            };
        }
        match self.mode() {
            None => return Err(Error::NotExposed { op: "RPN_COMM_i_win_post" }),
            Some(Mode::Passive) => {}
            Some(_) => return Err(Error::PostNotPassive),
        }
        let own = self.local_size();
        let fits = |what: &'static str, offset: i32, nelem: i32| -> Result<()> {
            let o = non_negative(what, offset as i64)?;
            let n = non_negative("request length", nelem as i64)?;
            if o + n > own {
                return Err(Error::OutOfBounds { offset: offset as i64, nelem: nelem as i64, size: own, pe: self.rank });
            }
            Ok(())
        };
        let mut planned = Vec::with_capacity(requests.len());
        for r in requests {
            let target = self.check_rank(r.pe as i64)?;
            fits("offseti", r.offseti, r.nelemi)?;
            fits("offseto", r.offseto, r.nelemo)?;
            let record = [self.rank as i32, r.offseti, r.nelemi, r.offseto, r.nelemo];
            planned.push((target, record));
        }
        stagger_by_target(&mut planned, self.rank, self.sizes.len());
        Ok(PostPlan::Requests(planned))
    }
}

/// Orders a post's records by target, starting with the first PE after `rank` and wrapping
/// (stable: records for one target keep their order). PEs that post to everyone at once, each
/// listing the targets from 0 up, would otherwise all write into PE 0's records first, then PE 1's,
/// queueing on the same lines at every step; staggered, each writes into another PE's records.
fn stagger_by_target<T>(planned: &mut [(usize, T)], rank: usize, npes: usize) {
    if npes > 2 {
        planned.sort_by_key(|&(target, _)| (target + npes - rank - 1) % npes);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn posts_start_after_this_pe_and_keep_each_targets_order() {
        let mut planned = vec![(0, 'a'), (1, 'b'), (3, 'c'), (4, 'd'), (3, 'e'), (2, 'f')];
        stagger_by_target(&mut planned, 2, 5);
        assert_eq!(planned, vec![(3, 'c'), (3, 'e'), (4, 'd'), (0, 'a'), (1, 'b'), (2, 'f')]);
        let mut two = vec![(1, 'a'), (0, 'b')];
        stagger_by_target(&mut two, 0, 2);
        assert_eq!(two, vec![(1, 'a'), (0, 'b')]);
    }

    fn window(rank: usize, sizes: &[usize]) -> WindowState {
        WindowState::new(rank, ElementType::Int32, sizes.to_vec())
    }

    #[test]
    fn exposure_state_machine() {
        let mut w = window(0, &[10, 10]);
        assert!(w.check_close().is_err(), "close when not open");
        let (e1, m) = w.open(true).unwrap();
        assert_eq!((e1, m), (1, Mode::Fence));
        assert!(w.open(true).is_err(), "open twice");
        assert!(w.check_local("get_l", 0, 1, false).is_err(), "local op while exposed");
        assert_eq!(w.check_close().unwrap(), (1, Mode::Fence));
        w.closed();
        assert!(w.check_remote("put_r", 1, 0, 1, false).is_err(), "remote op while closed");
        assert_eq!(w.open(false).unwrap(), (2, Mode::Passive));
    }

    #[test]
    fn remote_bounds_use_the_target_size() {
        let mut w = window(0, &[100, 3, 0]);
        w.open(true).unwrap();
        assert!(w.check_remote("put_r", 1, 0, 3, false).is_ok());
        assert!(matches!(w.check_remote("put_r", 1, 1, 3, false), Err(Error::OutOfBounds { pe: 1, size: 3, .. })));
        assert!(w.check_remote("put_r", 2, 0, 0, false).is_ok(), "0 elements on a 0-size window");
        assert!(w.check_remote("put_r", 2, 0, 1, false).is_err());
        assert!(matches!(w.check_remote("put_r", 1, -1, 1, false), Err(Error::Negative { .. })));
        assert!(matches!(w.check_remote("put_r", 1, 0, -1, false), Err(Error::Negative { .. })));
        assert!(matches!(w.check_remote("put_r", 3, 0, 1, false), Err(Error::BadRank { .. })));
        assert!(matches!(w.check_remote("put_r", -1, 0, 1, false), Err(Error::BadRank { .. })));
        assert!(matches!(w.check_remote("put_r", 0, 0, 1, true), Err(Error::NullBuffer { .. })));
        assert!(w.check_remote("put_r", 0, 0, 0, true).is_ok(), "null buffer is fine for 0 elements");
        assert!(w.check_remote("put_r", 0, i32::MAX as i64, i32::MAX as i64, false).is_err(), "no overflow");
    }

    /// A window over a communicator other than the job (a row) names it when it refuses a rank.
    #[test]
    fn a_bad_rank_names_the_communicator() {
        let mut row = WindowState::new(1, ElementType::Int32, vec![2, 3]).over(Some("EW"));
        row.open(true).unwrap();
        let err = row.check_remote("put_r", 2, 0, 1, false).unwrap_err();
        assert_eq!(err.to_string(), "PE 2 is outside the communicator 'EW' (ranks 0 to 1)");
        let mut job = window(0, &[1, 1]);
        job.open(true).unwrap();
        assert_eq!(job.check_remote("put_r", 2, 0, 1, false).unwrap_err().to_string(), "PE 2 is outside the communicator (ranks 0 to 1)");
    }

    /// The inlined check of the operations accepts exactly what the rules taken one by one
    /// accept, closed and in every mode, over ranks, offsets, counts and null buffers around
    /// every limit.
    #[test]
    fn the_fast_remote_check_agrees_with_the_rules_one_by_one() {
        let values = [-2i64, -1, 0, 1, 2, 3, 4, i32::MAX as i64];
        let mut w = window(0, &[3, 0, 4, 1]);
        let mut modes = Vec::new();
        for step in 0..4 {
            match step {
                0 => {}
                1 => drop(w.open(false).unwrap()),
                2 => {
                    w.closed();
                    w.set_group(&[0, 2], &[1]).unwrap();
                    w.open(true).unwrap();
                }
                _ => {
                    w.closed();
                    w.set_group(&[-1], &[-1]).unwrap();
                    w.open(true).unwrap();
                }
            }
            modes.push(w.mode());
            for target in values {
                for offset in values {
                    for nelem in values {
                        for null in [false, true] {
                            let fast = w.accepted_remote(target, offset, nelem, null);
                            let steps = w.remote_steps("put_r", target, offset, nelem, null);
                            assert_eq!(
                                fast,
                                steps.clone().ok(),
                                "state {step}: target {target}, offset {offset}, nelem {nelem}, null {null}: {steps:?}"
                            );
                            if fast.is_none() {
                                assert_eq!(w.refuse_remote("put_r", target, offset, nelem, null), steps.unwrap_err());
                            }
                        }
                    }
                }
            }
        }
        assert_eq!(modes, [None, Some(Mode::Passive), Some(Mode::Group), Some(Mode::Fence)]);
    }

    /// One-element atomics follow the rules of every remote operation (exposed, target in the
    /// window and in pes_to, the element inside the target's part) and need their buffers.
    #[test]
    fn atomics_are_checked_as_remote_operations_of_one_element() {
        let bufs = [("compare", false), ("new value", false), ("result", false)];
        let mut w = window(0, &[2, 1, 0]);
        assert!(matches!(w.check_atomic("cas", 1, 0, &bufs), Err(Error::NotExposed { op: "cas" })), "closed");
        w.open(false).unwrap();
        let acc = w.check_atomic("cas", 1, 0, &bufs).unwrap();
        assert_eq!((acc.target, acc.offset, acc.nelem, acc.mode), (1, 0, 1, Mode::Passive));
        assert!(w.check_atomic("cas", 0, 1, &bufs).is_ok(), "last element of PE 0");
        assert!(matches!(w.check_atomic("cas", 1, 1, &bufs), Err(Error::OutOfBounds { pe: 1, size: 1, .. })), "past PE 1's size");
        assert!(matches!(w.check_atomic("cas", 2, 0, &bufs), Err(Error::OutOfBounds { pe: 2, size: 0, .. })), "0-size target");
        assert!(matches!(w.check_atomic("cas", 1, -1, &bufs), Err(Error::Negative { .. })));
        assert!(matches!(w.check_atomic("cas", 3, 0, &bufs), Err(Error::BadRank { .. })));
        let null_result = [("compare", false), ("new value", false), ("result", true)];
        assert_eq!(w.check_atomic("cas", 1, 0, &null_result), Err(Error::NullBuffer { what: "result", nelem: 1 }));
        assert!(matches!(w.check_atomic("cas", 1, 5, &null_result), Err(Error::OutOfBounds { .. })), "the bounds are named first");
        w.closed();
        w.set_group(&[1], &[1]).unwrap();
        w.open(true).unwrap();
        assert!(w.check_atomic("cas", 1, 0, &bufs).is_ok());
        assert!(matches!(w.check_atomic("cas", 0, 0, &bufs), Err(Error::NotInPesTo { target: 0 })), "outside pes_to");
    }

    #[test]
    fn compare_and_swap_needs_integers() {
        let types = [(ElementType::Int32, true), (ElementType::Int64, true), (ElementType::Real32, false), (ElementType::Real64, false)];
        for (t, ok) in types {
            let w = WindowState::new(0, t, vec![1]);
            assert_eq!(w.check_cas_type().is_ok(), ok, "{}", t.name());
        }
        let err = WindowState::new(0, ElementType::Real64, vec![1]).check_cas_type().unwrap_err();
        assert!(err.to_string().contains("integers"), "{err}");
    }

    #[test]
    fn local_bounds_use_own_size() {
        let w = window(1, &[100, 3]);
        assert_eq!(w.check_local("put_l", 1, 2, false).unwrap(), (1, 2));
        assert!(w.check_local("put_l", 1, 3, false).is_err());
    }

    #[test]
    fn groups() {
        let mut w = window(0, &[1, 1, 1, 1]);
        assert!(w.set_group(&[1, 1], &[2]).is_err(), "duplicates");
        assert!(w.set_group(&[4], &[2]).is_err(), "bad rank");
        assert!(w.set_group(&[1], &[-3]).is_err(), "bad rank in pes_from");
        w.set_group(&[1, 2], &[3]).unwrap();
        assert_eq!(w.open(true).unwrap().1, Mode::Group);
        assert!(w.check_remote("put_r", 1, 0, 1, false).is_ok());
        assert!(matches!(w.check_remote("put_r", 3, 0, 1, false), Err(Error::NotInPesTo { target: 3 })));
        assert!(w.set_group(&[-1], &[-1]).is_err(), "no change while exposed");
        w.closed();
        w.set_group(&[-1], &[-1]).unwrap();
        assert_eq!(w.open(true).unwrap().1, Mode::Fence);
    }

    #[test]
    fn operators_checked_against_type() {
        let mut w = WindowState::new(0, ElementType::Real64, vec![1]);
        assert!(w.set_default_operator(Operator::Band).is_err());
        w.set_default_operator(Operator::Max).unwrap();
        assert_eq!(w.default_operator(), Operator::Max);
    }

    #[test]
    fn post_planning() {
        let req = |pe, offseti, nelemi| PostRequest { pe, offseti, nelemi, offseto: 4, nelemo: 2 };
        let mut w = window(0, &[6, 6]);
        w.open(false).unwrap();
        assert_eq!(w.plan_post(&[req(1, 0, 2)]), Err(Error::NoSecondary));
        assert!(matches!(w.check_secondary(3), Err(Error::Exposed { .. })));
        w.closed();
        assert!(matches!(w.check_secondary(0), Err(Error::BadArgument(_))));
        assert_eq!(w.check_secondary(3).unwrap(), (3, false));
        w.set_secondary(vec![3, 3]);
        assert!(w.check_secondary(3).is_err(), "second create needs slots < 0");
        assert_eq!(w.check_secondary(-4).unwrap(), (4, true));
        assert!(matches!(w.plan_post(&[req(1, 0, 2)]), Err(Error::NotExposed { .. })));
        w.open(true).unwrap();
        assert_eq!(w.plan_post(&[req(1, 0, 2)]), Err(Error::PostNotPassive));
        w.closed();
        w.open(false).unwrap();
        assert_eq!(w.plan_post(&[]).unwrap(), PostPlan::Requests(vec![]));
        assert!(matches!(w.plan_post(&[req(2, 0, 2)]), Err(Error::BadRank { .. })));
        assert!(matches!(w.plan_post(&[req(1, 5, 2)]), Err(Error::OutOfBounds { .. })), "request must fit own window");
        assert_eq!(w.plan_post(&[req(1, 0, 2)]).unwrap(), PostPlan::Requests(vec![(1, [0, 0, 2, 4, 2])]));
        assert_eq!(w.plan_post(&[req(0, -1, -2)]).unwrap(), PostPlan::Reinitialize { full: true });
        assert_eq!(w.plan_post(&[req(0, -1, -1)]).unwrap(), PostPlan::Reinitialize { full: false });
        assert!(w.plan_post(&[req(0, -1, 5)]).is_err());
    }
}
