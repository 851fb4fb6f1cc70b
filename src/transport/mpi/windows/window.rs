//! A window over MPI-3 one-sided communication.
//!
//! Memory: `MPI_Win_allocate` for internal windows, `MPI_Win_create` over the caller's array.
//! Where an MPI cannot create a window over user memory (Debian's Open MPI at one rank, or over
//! TCP, with its pt2pt component disabled), or the transport chose so (see
//! `mpi::stage_user_arrays`), the window is allocated by MPI and the caller's array is staged:
//! copied in at open, out at close. MPICH 4.0 (ch4:ucx) moves data to the wrong place in a
//! window whose base is not 16-byte aligned (it rounds the base down): the window over a
//! caller's array starts at the 16-byte boundary below it, and every displacement on that PE is
//! shifted by the elements in between (its "lead", shared at create; never accessed: bounds are
//! checked against the array); an array not even aligned on its element size is staged through
//! an aligned buffer of ours. Every MPI-allocated part is a multiple of ALIGN bytes long so that
//! the parts MPI packs one after the other stay aligned.
//!
//! Synchronisation: fence mode is MPI_Win_fence; group mode is post(pes_from) + start(pes_to)
//! at open (post first: no deadlock) and complete + wait at close; passive mode is a barrier at
//! open and close, with every operation its own lock/unlock epoch (shared lock for get,
//! exclusive for put and accumulate), so it is complete and atomic when it returns.
//! In active modes an operation completes at close, as in MPI: a fetching accumulate's
//! "after" values are computed then, from the "before" values MPI returns.
//!
//! MPICH 4.0 with its ch4:ucx device (Debian's) does not complete an MPI_Put or MPI_Get to a PE
//! of another node at the fence or MPI_Win_complete that ends the epoch: now and then (21 PE
//! closes in 600 of a plain C program, 4 ranks on 2 simulated nodes over TCP, under load) the
//! fence returns on every PE with a get's buffer not yet written, or a put not yet in the target's
//! memory, and the data lands a little later. Its accumulates are completed there, and its passive unlock completes both. So
//! with that MPI the puts and gets of active epochs are made as MPI_Accumulate(MPI_REPLACE) and
//! MPI_Get_accumulate(MPI_NO_OP), which move the same data (`Workarounds`).

use std::collections::BTreeMap;
use std::ffi::{c_int, c_void};
use std::sync::{Arc, Mutex};

use super::logical::{self, LogicalAccumulates};
use crate::core::subarray::BoxTransfer;
use crate::core::{CollectiveId, ElementType, GroupSets, Mode, Operator, RemoteAccess};
use crate::error::{Error, Result};
use crate::transport::mpi::comm::Comm;
use crate::transport::mpi::shim::{self, RawWin};
use crate::transport::mpi::watchdog;
use crate::transport::{BatchOp, Fetch, TransportWindow, run_each};

const RECORD: usize = 5;
/// Alignment of window bases handed to MPI, and granule of MPI-allocated sizes.
const ALIGN: usize = 64;

/// Window memory of our own, ALIGN-aligned, for a caller's array MPI cannot take as it is.
struct AlignedBuffer {
    ptr: *mut u8,
    layout: std::alloc::Layout,
}

impl AlignedBuffer {
    fn new(bytes: usize) -> Result<Self> {
        let layout = std::alloc::Layout::from_size_align(bytes.max(1).next_multiple_of(ALIGN), ALIGN)
            .map_err(|_| Error::BadArgument(format!("window of {bytes} bytes")))?;
        // SAFETY: the layout has a non-zero size.
        let ptr = unsafe { std::alloc::alloc_zeroed(layout) };
        if ptr.is_null() {
            return Err(Error::Mpi(format!("cannot allocate {bytes} bytes of window memory")));
        }
        Ok(AlignedBuffer { ptr, layout })
    }
}

impl Drop for AlignedBuffer {
    fn drop(&mut self) {
        // SAFETY: allocated in `new` with this layout, freed once.
        unsafe { std::alloc::dealloc(self.ptr, self.layout) };
    }
}

/// The MPI windows not yet freed, in creation order, so that finalize can free them collectively
/// before MPI_Finalize (MPICH's UCX device aborts in MPI_Finalize otherwise).
#[derive(Default)]
pub struct WindowRegistry {
    next: u64,
    live: BTreeMap<u64, usize>,
}

pub type SharedRegistry = Arc<Mutex<WindowRegistry>>;

impl WindowRegistry {
    fn add(&mut self, win: *mut RawWin) -> u64 {
        self.next += 1;
        self.live.insert(self.next, win as usize);
        self.next
    }

    fn remove(&mut self, id: u64) {
        self.live.remove(&id);
    }

    /// Frees every window still registered (collective, creation order); the first error wins.
    pub fn free_all(&mut self) -> Result<()> {
        let mut first = Ok(());
        for (_, win) in std::mem::take(&mut self.live) {
            let mut raw = win as *mut RawWin;
            let _mpi = shim::serial();
            // SAFETY: a live window of the shim, freed once (removed from the registry).
            let rc = unsafe { shim::rpnmpi_win_free(&mut raw) };
            if first.is_ok() {
                first = shim::check(rc, "MPI_Win_free");
            }
        }
        first
    }
}

fn lock_registry(r: &SharedRegistry) -> std::sync::MutexGuard<'_, WindowRegistry> {
    r.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// One MPI window and its registration.
pub(super) struct MpiWin {
    pub(super) raw: *mut RawWin,
    id: u64,
    /// This rank's memory in the window.
    pub(super) local: *mut u8,
}

impl MpiWin {
    /// Collective: a window of `bytes` bytes over `base` (MPI_Win_create) or allocated by MPI.
    pub(super) fn create(
        comm: &Comm,
        registry: &SharedRegistry,
        base: Option<usize>,
        bytes: usize,
        disp_unit: usize,
    ) -> std::result::Result<MpiWin, c_int> {
        let mut raw = std::ptr::null_mut();
        let mut local = std::ptr::null_mut();
        let (base, bytes) = match base {
            Some(a) => (a as *mut c_void, bytes),
            None => (std::ptr::null_mut(), bytes.next_multiple_of(ALIGN)),
        };
        let _mpi = shim::serial();
        let _watch = watchdog::watch(if base.is_null() { "MPI_Win_allocate" } else { "MPI_Win_create" });
        // SAFETY: comm is live; base is null or the caller's array of `bytes` bytes (API
        // contract); out-parameters.
        let rc = unsafe { shim::rpnmpi_win_create(comm.raw(), base, bytes, disp_unit as c_int, &mut local, &mut raw) };
        if rc != 0 {
            return Err(rc);
        }
        let id = lock_registry(registry).add(raw);
        Ok(MpiWin { raw, id, local: local as *mut u8 })
    }

    /// Collective.
    pub(super) fn free(mut self, registry: &SharedRegistry) -> Result<()> {
        lock_registry(registry).remove(self.id);
        let _mpi = shim::serial();
        let _watch = watchdog::watch("MPI_Win_free");
        // SAFETY: a live window, freed once.
        shim::check(unsafe { shim::rpnmpi_win_free(&mut self.raw) }, "MPI_Win_free")
    }

    pub(super) fn sync_self(&self, rank: usize) -> Result<()> {
        let _mpi = shim::serial();
        // SAFETY: live window; rank is this rank in its communicator.
        shim::check(unsafe { shim::rpnmpi_sync_self(self.raw, rank as c_int) }, "MPI_Win_sync")
    }

    /// One remote operation (see `rpnmpi_rma`).
    ///
    /// # Safety
    /// `src` readable and `result` writable for `n` elements of `dtype` as `kind` requires;
    /// `disp + n` within the target's part of the window.
    #[allow(clippy::too_many_arguments)]
    pub(super) unsafe fn rma(
        &self,
        kind: c_int,
        lock: c_int,
        src: *const u8,
        result: *mut u8,
        n: usize,
        dtype: ElementType,
        target: usize,
        disp: usize,
        op: Operator,
    ) -> Result<()> {
        let mpi = shim::serial();
        // SAFETY: the caller's contract.
        unsafe { self.rma_held(&mpi, kind, lock, src, result, n, dtype, target, disp, op) }
    }

    /// `rma` for a caller that already holds `shim::serial()` (`_held`): a sequence of MPI calls
    /// that no other thread's call may come between (a lock epoch of several operations).
    ///
    /// # Safety
    /// As `rma`.
    #[allow(clippy::too_many_arguments)]
    pub(super) unsafe fn rma_held(
        &self,
        _held: &shim::Serial,
        kind: c_int,
        lock: c_int,
        src: *const u8,
        result: *mut u8,
        n: usize,
        dtype: ElementType,
        target: usize,
        disp: usize,
        op: Operator,
    ) -> Result<()> {
        let what = match kind {
            shim::PUT => "MPI_Put",
            shim::GET => "MPI_Get",
            shim::ACC => "MPI_Accumulate",
            _ if n == 1 => "MPI_Fetch_and_op",
            _ => "MPI_Get_accumulate",
        };
        // SAFETY: the caller's contract.
        let rc = unsafe {
            shim::rpnmpi_rma(
                self.raw,
                kind,
                lock,
                src as *const c_void,
                result as *mut c_void,
                n as c_int,
                dtype.code() as c_int,
                target as c_int,
                disp as i64,
                op.code() as c_int,
            )
        };
        shim::check(rc, what)
    }

    /// One MPI_Compare_and_swap (see `rpnmpi_cas`).
    ///
    /// # Safety
    /// `value` and `compare` readable, `result` writable for one element of `dtype` until the
    /// operation completes; `disp` within the target's part of the window.
    #[allow(clippy::too_many_arguments)]
    pub(super) unsafe fn cas(
        &self,
        lock: c_int,
        value: *const u8,
        compare: *const u8,
        result: *mut u8,
        dtype: ElementType,
        target: usize,
        disp: usize,
    ) -> Result<()> {
        let _mpi = shim::serial();
        // SAFETY: the caller's contract.
        let rc = unsafe {
            shim::rpnmpi_cas(
                self.raw,
                lock,
                value as *const c_void,
                compare as *const c_void,
                result as *mut c_void,
                dtype.code() as c_int,
                target as c_int,
                disp as i64,
            )
        };
        shim::check(rc, "MPI_Compare_and_swap")
    }

    /// Puts and gets to one target as one passive access epoch: MPI_Win_lock (exclusive, as a
    /// blocking put takes it), every MPI_Put/MPI_Get, MPI_Win_unlock (which completes them all);
    /// `disp` gives each one's displacement. The first error (all of them share it).
    ///
    /// # Safety
    /// Each operation's buffer is valid for its `nelem` elements; every access fits the target's part.
    pub(super) unsafe fn rma_locked_batch(
        &self,
        target: usize,
        ops: &[(RemoteAccess, BatchOp)],
        dtype: ElementType,
        disp: impl Fn(&RemoteAccess) -> usize,
    ) -> Result<()> {
        let _mpi = shim::serial();
        // SAFETY: live window; target is a rank of its communicator (checked by the core).
        shim::check(unsafe { shim::rpnmpi_lock(self.raw, 1, target as c_int) }, "MPI_Win_lock")?;
        let mut first = Ok(());
        for (acc, op) in ops {
            let (kind, src, result, what) = match *op {
                BatchOp::Put { src } => (shim::PUT, src, std::ptr::null_mut(), "MPI_Put"),
                BatchOp::Get { dst } => (shim::GET, std::ptr::null(), dst, "MPI_Get"),
            };
            // SAFETY: the caller's contract; inside the lock epoch taken above (no lock of its own).
            let rc = unsafe {
                shim::rpnmpi_rma(
                    self.raw,
                    kind,
                    shim::NO_LOCK,
                    src as *const c_void,
                    result as *mut c_void,
                    acc.nelem as c_int,
                    dtype.code() as c_int,
                    target as c_int,
                    disp(acc) as i64,
                    Operator::NoOp.code() as c_int,
                )
            };
            if first.is_ok() {
                first = shim::check(rc, what);
            }
        }
        // SAFETY: the lock epoch taken above.
        let unlocked = shim::check(unsafe { shim::rpnmpi_unlock(self.raw, target as c_int) }, "MPI_Win_unlock");
        first.and(unlocked)
    }

    /// A box put (`shim::PUT`, from `buf`) or get (`shim::GET`, into `buf`) as one MPI
    /// operation with subarray datatypes; `disp`: where the target's shape starts.
    ///
    /// # Safety
    /// `buf` holds the local shape's elements (readable for a put, writable for a get) until
    /// the operation completes; the box was checked against both shapes and the target's size.
    #[allow(clippy::too_many_arguments)]
    pub(super) unsafe fn rma_box(
        &self,
        kind: c_int,
        lock: c_int,
        buf: *mut u8,
        t: &BoxTransfer,
        dtype: ElementType,
        target: usize,
        disp: usize,
    ) -> Result<()> {
        if t.nelem() == 0 {
            return Ok(());
        }
        let ints = |a: [usize; 3]| a.map(|v| v as c_int);
        let (lshape, lstart, count) = (ints(t.local.shape), ints(t.local.start), ints(t.count));
        let (tshape, tstart) = (ints(t.remote.shape), ints(t.remote.start));
        let _mpi = shim::serial();
        // SAFETY: the caller's contract; the arrays are 3 ints each.
        let rc = unsafe {
            shim::rpnmpi_rma_box(
                self.raw,
                kind,
                lock,
                buf as *mut c_void,
                lshape.as_ptr(),
                lstart.as_ptr(),
                count.as_ptr(),
                dtype.code() as c_int,
                target as c_int,
                disp as i64,
                tshape.as_ptr(),
                tstart.as_ptr(),
            )
        };
        shim::check(rc, if kind == shim::PUT { "MPI_Put (box)" } else { "MPI_Get (box)" })
    }
}

/// What a window works around in the MPI library, decided once from its version string
/// (`mpi::workarounds`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Workarounds {
    /// MPI_LAND/LOR/LXOR done by the transport (see `logical`).
    pub emulate_logical: bool,
    /// Puts and gets of active epochs made as accumulates (see the module doc).
    pub active_rma_as_accumulates: bool,
}

/// A fetching accumulate (or a compare-and-swap) of an active-mode epoch, finished at close.
struct PendingFetch {
    dst: *mut u8,
    /// The operand, kept alive until MPI is done with it (MPI needs it disjoint from `dst`).
    operand: Vec<u8>,
    op: Operator,
    before: bool,
}

struct Secondary {
    win: MpiWin,
    records: Vec<usize>,
}

pub struct MpiWindow {
    comm: Arc<Comm>,
    registry: SharedRegistry,
    dtype: ElementType,
    sizes: Vec<usize>,
    /// Elements between each PE's window base and its first element (see the module doc).
    leads: Vec<usize>,
    win: MpiWin,
    /// The caller's array when it is staged (through MPI-allocated memory or `own`).
    staged: Option<usize>,
    /// Our aligned window memory for a caller's array that is not aligned (freed after the window).
    own: Option<AlignedBuffer>,
    secondary: Option<Secondary>,
    /// Fetching accumulates of the current active epoch (threads add to it at the same time).
    pending: std::sync::Mutex<Vec<PendingFetch>>,
    /// MPI_LAND/LOR/LXOR done by the transport (see `logical`), where the MPI loses them; threads
    /// of the PE may add to its epoch's list at the same time.
    logical: Option<std::sync::Mutex<LogicalAccumulates>>,
    /// pes_from and pes_to of the group epoch being opened, as MPI ranks.
    group_ranks: (Vec<c_int>, Vec<c_int>),
    /// Puts and gets of active epochs as accumulates (`Workarounds`).
    active_as_acc: bool,
}

// SAFETY: the raw pointers (MPI window, window memory, the caller's array) stay valid for the
// window's life.
unsafe impl Send for MpiWindow {}
// SAFETY: the `&self` methods threads call at the same time (the operations) change only
// `pending`, behind its mutex, and make MPI calls, which are thread-safe at MPI_THREAD_MULTIPLE
// and else serialised (`shim::serial`).
unsafe impl Sync for MpiWindow {}

fn lock_kind(mode: Mode, exclusive: bool) -> c_int {
    match (mode, exclusive) {
        (Mode::Passive, true) => shim::EXCLUSIVE,
        (Mode::Passive, false) => shim::SHARED,
        _ => shim::NO_LOCK,
    }
}

/// The hang watch of an epoch's open or close (passive mode: its barrier watches itself).
fn epoch_watch(mode: Mode, group_call: &'static str) -> Option<watchdog::WatchGuard> {
    match mode {
        Mode::Passive => None,
        Mode::Group => watchdog::watch(group_call),
        _ => watchdog::watch("MPI_Win_fence"),
    }
}

impl MpiWindow {
    /// Collective over `comm`: the window of `sizes[p]` elements of `dtype` on rank p.
    pub fn create(
        comm: Arc<Comm>,
        registry: SharedRegistry,
        dtype: ElementType,
        sizes: &[usize],
        user_array: Option<usize>,
        force_staged: bool,
        workarounds: Workarounds,
    ) -> Result<Self> {
        let elem = dtype.size();
        let bytes = sizes[comm.rank] * elem;
        let mut staged = None;
        let mut own = None;
        let mut leads = vec![0; sizes.len()];
        let win = match user_array {
            Some(addr) if !force_staged => {
                // a local choice: every PE still calls MPI_Win_create
                let lead = if addr % elem == 0 { addr % 16 } else { 0 };
                let base = if addr % elem == 0 {
                    addr - lead
                } else {
                    staged = Some(addr);
                    own.insert(AlignedBuffer::new(bytes)?).ptr as usize
                };
                let made = MpiWin::create(&comm, &registry, Some(base), bytes + lead, elem);
                // MPI_Win_create is collective: decide together whether to fall back; learn the leads.
                let mine: Vec<u8> = [made.is_err() as u32, (lead / elem) as u32].iter().flat_map(|v| v.to_ne_bytes()).collect();
                let mut all = vec![0u8; 8 * comm.size];
                comm.allgather(&mine, &mut all)?;
                let pairs: Vec<(bool, usize)> = all
                    .chunks_exact(8)
                    .map(|c| (c[..4] != [0; 4], u32::from_ne_bytes(c[4..].try_into().expect("4 bytes")) as usize))
                    .collect();
                let (any_failed, all_failed) = (pairs.iter().any(|p| p.0), pairs.iter().all(|p| p.0));
                match made {
                    Ok(mut win) if !any_failed => {
                        leads = pairs.iter().map(|p| p.1).collect();
                        if staged.is_none() {
                            // MPI returned the window's base, our lead below the array
                            win.local = addr as *mut u8;
                        }
                        win
                    }
                    Ok(_) => return Err(Error::Mpi("MPI_Win_create failed on another PE".into())),
                    Err(rc) if !all_failed => return Err(Error::Mpi(format!("MPI_Win_create: {}", shim::error_text(rc)))),
                    Err(_) => {
                        staged = Some(addr);
                        own = None;
                        MpiWin::create(&comm, &registry, None, bytes, elem)
                            .map_err(|rc| Error::Mpi(format!("MPI_Win_allocate: {}", shim::error_text(rc))))?
                    }
                }
            }
            _ => {
                staged = user_array;
                MpiWin::create(&comm, &registry, None, bytes, elem)
                    .map_err(|rc| Error::Mpi(format!("MPI_Win_allocate: {}", shim::error_text(rc))))?
            }
        };
        // (the same choice on every PE: it depends on the MPI library only)
        let logical = match workarounds.emulate_logical && dtype.is_integer() {
            true => match LogicalAccumulates::create(&comm, &registry) {
                Ok(l) => Some(std::sync::Mutex::new(l)),
                Err(e) => {
                    let _ = win.free(&registry);
                    return Err(e);
                }
            },
            false => None,
        };
        Ok(MpiWindow {
            comm,
            registry,
            dtype,
            sizes: sizes.to_vec(),
            leads,
            win,
            staged,
            own,
            secondary: None,
            pending: Default::default(),
            logical,
            group_ranks: Default::default(),
            active_as_acc: workarounds.active_rma_as_accumulates,
        })
    }

    fn rank(&self) -> usize {
        self.comm.rank
    }

    /// Whether this PE's elements are copied between the caller's array and MPI's memory at
    /// open and close: told, an array not aligned on its element size, or MPI_Win_create
    /// failed on every PE.
    pub fn is_staged(&self) -> bool {
        self.staged.is_some()
    }

    /// The lock kind of a put (`exclusive`) or get of `mode`: in active epochs, as an
    /// accumulate where the MPI needs it (`Workarounds`).
    fn data_lock(&self, mode: Mode, exclusive: bool) -> c_int {
        match mode {
            Mode::Passive => lock_kind(mode, exclusive),
            _ if self.active_as_acc => shim::ACTIVE_ACC,
            _ => shim::NO_LOCK,
        }
    }

    /// MPI displacement of the access's first element in its target's part of the window.
    fn disp(&self, acc: &RemoteAccess) -> usize {
        acc.offset + self.leads[acc.target]
    }

    fn local_bytes(&self) -> usize {
        self.sizes[self.rank()] * self.dtype.size()
    }

    fn stage_in(&self) {
        if let Some(user) = self.staged {
            // SAFETY: the caller's array holds our elements (API contract), the MPI memory has
            // room for as many; distinct allocations.
            unsafe { std::ptr::copy_nonoverlapping(user as *const u8, self.win.local, self.local_bytes()) };
        }
    }

    fn stage_out(&self) {
        if let Some(user) = self.staged {
            // SAFETY: as in stage_in, the other way; the epoch is over, nobody writes our part.
            unsafe { std::ptr::copy_nonoverlapping(self.win.local, user as *mut u8, self.local_bytes()) };
        }
    }

    /// Computes the "after" values of the epoch's fetching accumulates (MPI returned "before").
    fn finish_pending(&mut self) {
        let pending = std::mem::take(self.pending.get_mut().unwrap_or_else(|p| p.into_inner()));
        pending.into_iter().for_each(|p| self.finish(p));
    }

    /// Computes the "after" values of one completed fetching accumulate.
    fn finish(&self, p: PendingFetch) {
        if !p.before {
            // SAFETY: dst holds operand.len() bytes (the caller's garray, API contract), and
            // MPI has written it: the operation is complete.
            let dst = unsafe { std::slice::from_raw_parts_mut(p.dst, p.operand.len()) };
            p.op.apply_bytes(self.dtype, dst, &p.operand);
        }
    }

    fn secondary(&self) -> Result<&Secondary> {
        self.secondary.as_ref().ok_or(Error::NoSecondary)
    }
}

impl TransportWindow for MpiWindow {
    fn local_base(&self) -> *mut u8 {
        match self.staged {
            Some(user) => user as *mut u8,
            // MPI may return a null base for 0 bytes: give an aligned non-null address no one
            // can use (every access is refused at size 0).
            None if self.win.local.is_null() => std::ptr::NonNull::<u64>::dangling().as_ptr() as *mut u8,
            None => self.win.local,
        }
    }

    fn open(&mut self, _epoch: u32, mode: Mode, group: Option<&GroupSets>) -> Result<()> {
        self.stage_in();
        let _watch = epoch_watch(mode, "MPI_Win_post/MPI_Win_start");
        match (mode, group) {
            (Mode::Group, Some(g)) => {
                // (buffers kept from epoch to epoch: no allocation per open)
                let (from, to) = &mut self.group_ranks;
                from.clear();
                from.extend(g.from.iter().map(|&p| p as c_int));
                to.clear();
                to.extend(g.to.iter().map(|&p| p as c_int));
                let _mpi = shim::serial();
                // SAFETY: live window; from/to hold nfrom/nto ranks of its communicator.
                let rc =
                    unsafe { shim::rpnmpi_group_open(self.win.raw, from.as_ptr(), from.len() as c_int, to.as_ptr(), to.len() as c_int) };
                shim::check(rc, "MPI_Win_post/MPI_Win_start")
            }
            (Mode::Passive, _) => {
                self.win.sync_self(self.rank())?;
                self.comm.tagged_barrier(CollectiveId::WinOpen)
            }
            _ => {
                let _mpi = shim::serial();
                // SAFETY: live window.
                shim::check(unsafe { shim::rpnmpi_fence(self.win.raw, 0) }, "MPI_Win_fence")
            }
        }
    }

    fn close(&mut self, epoch: u32, mode: Mode, group: Option<&GroupSets>) -> Result<()> {
        let watch = epoch_watch(mode, "MPI_Win_complete/MPI_Win_wait");
        match (mode, group) {
            (Mode::Group, Some(_)) => {
                let _mpi = shim::serial();
                // SAFETY: live window, in the group epoch opened by `open`.
                shim::check(unsafe { shim::rpnmpi_group_close(self.win.raw) }, "MPI_Win_complete/MPI_Win_wait")?
            }
            (Mode::Passive, _) => {
                self.comm.tagged_barrier(CollectiveId::WinClose)?;
                self.win.sync_self(self.rank())?;
                if let Some(s) = &self.secondary {
                    s.win.sync_self(self.rank())?;
                }
            }
            _ => {
                let _mpi = shim::serial();
                // SAFETY: live window.
                shim::check(unsafe { shim::rpnmpi_fence(self.win.raw, 1) }, "MPI_Win_fence")?
            }
        }
        if let (Some(l), false) = (&mut self.logical, mode == Mode::Passive) {
            // waits for the other PEs' announced logical accumulates: watched as the close is
            l.get_mut().unwrap_or_else(|p| p.into_inner()).finish_epoch(&self.win, self.dtype, epoch, self.comm.rank)?;
        }
        drop(watch);
        self.finish_pending();
        self.stage_out();
        Ok(())
    }

    unsafe fn put(&self, acc: &RemoteAccess, src: *const u8) -> Result<()> {
        // SAFETY: src readable for nelem elements (caller); offset + nelem within the target's
        // window (checked by the core against the sizes shared at create).
        unsafe {
            self.win.rma(
                shim::PUT,
                self.data_lock(acc.mode, true),
                src,
                std::ptr::null_mut(),
                acc.nelem,
                self.dtype,
                acc.target,
                self.disp(acc),
                Operator::Replace,
            )
        }
    }

    unsafe fn get(&self, acc: &RemoteAccess, dst: *mut u8) -> Result<()> {
        // SAFETY: dst writable for nelem elements (caller); bounds checked by the core.
        unsafe {
            self.win.rma(
                shim::GET,
                self.data_lock(acc.mode, false),
                std::ptr::null(),
                dst,
                acc.nelem,
                self.dtype,
                acc.target,
                self.disp(acc),
                Operator::NoOp,
            )
        }
    }

    unsafe fn put_box(&self, acc: &RemoteAccess, transfer: &BoxTransfer, src: *const u8, _elem: usize) -> Result<()> {
        // SAFETY: the caller's contract; MPI only reads `buf` for a put.
        unsafe {
            self.win.rma_box(shim::PUT, self.data_lock(acc.mode, true), src as *mut u8, transfer, self.dtype, acc.target, self.disp(acc))
        }
    }

    unsafe fn get_box(&self, acc: &RemoteAccess, transfer: &BoxTransfer, dst: *mut u8, _elem: usize) -> Result<()> {
        // SAFETY: the caller's contract.
        unsafe { self.win.rma_box(shim::GET, self.data_lock(acc.mode, false), dst, transfer, self.dtype, acc.target, self.disp(acc)) }
    }

    unsafe fn accumulate(&self, acc: &RemoteAccess, src: *const u8, fetch: Option<Fetch>, op: Operator) -> Result<()> {
        let (dtype, target, disp, n) = (self.dtype, acc.target, self.disp(acc), acc.nelem);
        if let Some(l) = self.logical.as_ref().filter(|_| logical::is_logical(op) && n > 0) {
            if acc.mode != Mode::Passive {
                let mut l = l.lock().unwrap_or_else(|p| p.into_inner());
                // SAFETY: src readable, fetch.dst writable until close, for nelem elements (caller).
                return unsafe { l.keep(acc.epoch, dtype, target, disp, src, None, n, fetch, op) };
            }
            // The operand is copied: the caller's garray may be the same array.
            // SAFETY: src readable for nelem elements (caller).
            let operand = unsafe { std::slice::from_raw_parts(src, n * dtype.size()) }.to_vec();
            // SAFETY: operand holds n elements, fetch.dst writable for n (caller); bounds checked
            // by the core.
            return unsafe { LogicalAccumulates::read_modify_write(&self.win, dtype, target, disp, &operand, None, n, fetch, op) };
        }
        let lock = lock_kind(acc.mode, true);
        let Some(fetch) = fetch else {
            // SAFETY: src readable for nelem elements (caller); bounds checked by the core.
            return unsafe { self.win.rma(shim::ACC, lock, src, std::ptr::null_mut(), n, dtype, target, disp, op) };
        };
        if n == 0 {
            return Ok(());
        }
        // MPI wants the operand and the result disjoint; the caller may pass the same array.
        // SAFETY: src readable for nelem elements (caller).
        let operand = unsafe { std::slice::from_raw_parts(src, n * dtype.size()) }.to_vec();
        // SAFETY: operand holds nelem elements; fetch.dst writable for nelem elements (caller).
        unsafe { self.win.rma(shim::GETACC, lock, operand.as_ptr(), fetch.dst, n, dtype, target, disp, op)? };
        let pending = PendingFetch { dst: fetch.dst, operand, op, before: fetch.before };
        if acc.mode == Mode::Passive {
            // complete on return: finish it now
            self.finish(pending);
        } else {
            self.pending.lock().unwrap_or_else(|p| p.into_inner()).push(pending);
        }
        Ok(())
    }

    unsafe fn compare_and_swap(&self, acc: &RemoteAccess, compare: *const u8, new: *const u8, old: *mut u8) -> Result<()> {
        let elem = self.dtype.size();
        // The operands are copied (MPI wants them disjoint from the result, which the caller may
        // pass as the same variable), kept until the operation completes: [new, compare].
        // SAFETY: new and compare readable for one element each (caller).
        let operands: Vec<u8> = unsafe { [std::slice::from_raw_parts(new, elem), std::slice::from_raw_parts(compare, elem)] }.concat();
        if let Some(l) = self.logical.as_ref().filter(|_| elem == 8) {
            // Open MPI: its 8-byte MPI_Compare_and_swap crashes (see `logical`): done as the
            // logical accumulates, under the target's exclusive lock, at close in active modes.
            let (new, compare) = operands.split_at(elem);
            let fetch = Some(Fetch { dst: old, before: true });
            if acc.mode != Mode::Passive {
                let mut l = l.lock().unwrap_or_else(|p| p.into_inner());
                // SAFETY: new holds one element; old writable until close (caller).
                return unsafe {
                    l.keep(
                        acc.epoch,
                        self.dtype,
                        acc.target,
                        self.disp(acc),
                        new.as_ptr(),
                        Some(compare.to_vec()),
                        1,
                        fetch,
                        Operator::Replace,
                    )
                };
            }
            // SAFETY: new and compare hold one element, old writable for one (caller); bounds
            // checked by the core.
            return unsafe {
                LogicalAccumulates::read_modify_write(
                    &self.win,
                    self.dtype,
                    acc.target,
                    self.disp(acc),
                    new,
                    Some(compare),
                    1,
                    fetch,
                    Operator::Replace,
                )
            };
        }
        let lock = lock_kind(acc.mode, true);
        // SAFETY: operands hold the two elements and stay alive until the operation completes
        // (on return in passive mode, else kept in `pending` until the close); old writable for
        // one element (caller); bounds checked by the core. Under an exclusive lock in passive
        // mode, so atomic also against the logical accumulates done by the transport.
        unsafe {
            self.win.cas(lock, operands.as_ptr(), operands.as_ptr().add(elem), old, self.dtype, acc.target, self.disp(acc))?;
        }
        if acc.mode != Mode::Passive {
            // nothing to compute at close (`before`): only the operands kept alive until then
            let kept = PendingFetch { dst: old, operand: operands, op: Operator::NoOp, before: true };
            self.pending.lock().unwrap_or_else(|p| p.into_inner()).push(kept);
        }
        Ok(())
    }

    unsafe fn run_batch(&self, ops: &[(RemoteAccess, BatchOp)], done: &mut dyn FnMut(usize, Result<()>)) {
        if ops.first().is_none_or(|(acc, _)| acc.mode != Mode::Passive) {
            // SAFETY: the caller's contract, passed on.
            return unsafe { run_each(self, ops, done) };
        }
        // Passive: each run of operations to one target under one lock, instead of one each.
        let mut start = 0;
        while start < ops.len() {
            let target = ops[start].0.target;
            let end = start + ops[start..].iter().take_while(|(acc, _)| acc.target == target).count();
            let run = &ops[start..end];
            if run.len() == 1 {
                // SAFETY: the caller's contract, passed on.
                unsafe { run_each(self, run, &mut |_, out| done(start, out)) };
            } else {
                // SAFETY: the caller's contract; the accesses were checked against the target's size.
                let out = unsafe { self.win.rma_locked_batch(target, run, self.dtype, |acc| self.disp(acc)) };
                (start..end).for_each(|i| done(i, out.clone()));
            }
            start = end;
        }
    }

    fn create_secondary(&mut self, records: &[usize]) -> Result<()> {
        if let Some(old) = self.secondary.take() {
            old.win.free(&self.registry)?;
        }
        let me = self.rank();
        let ints = records[me] * RECORD;
        let win = MpiWin::create(&self.comm, &self.registry, None, ints * 4, 4)
            .map_err(|rc| Error::Mpi(format!("MPI_Win_allocate: {}", shim::error_text(rc))))?;
        if ints > 0 {
            // SAFETY: MPI allocated `ints` integers for us; nobody accesses them before the
            // barrier below.
            let recs = unsafe { std::slice::from_raw_parts_mut(win.local as *mut i32, ints) };
            recs.fill(0);
            recs[0] = 1;
        }
        win.sync_self(me)?;
        self.secondary = Some(Secondary { win, records: records.to_vec() });
        // Every counter is initialised before anyone can claim a slot.
        self.comm.barrier()
    }

    fn secondary_base(&self) -> *mut i32 {
        self.secondary.as_ref().map_or(std::ptr::null_mut(), |s| s.win.local as *mut i32)
    }

    fn claim_slot(&self, target: usize, _epoch: u32) -> Result<u32> {
        let s = self.secondary()?;
        let capacity = s.records[target];
        if capacity < 1 {
            return Err(Error::SlotsExhausted { target, capacity });
        }
        let mut last: c_int = 0;
        let _mpi = shim::serial();
        // SAFETY: live window; the counter is integer 0 of target's records (capacity >= 1).
        let rc = unsafe { shim::rpnmpi_bounded_increment(s.win.raw, target as c_int, capacity as c_int, &mut last) };
        shim::check(rc, "MPI_Fetch_and_op (slot claim)")?;
        match last {
            l if l < 1 => Err(Error::Internal(format!("record counter of PE {target} is corrupt ({l})"))),
            l if l as usize >= capacity => Err(Error::SlotsExhausted { target, capacity }),
            l => Ok(l as u32 + 1),
        }
    }

    fn write_record(&self, target: usize, _epoch: u32, slot: u32, record: [i32; 5]) -> Result<()> {
        let s = self.secondary()?;
        let capacity = s.records[target];
        let slot = slot as usize;
        if slot < 2 || slot > capacity {
            return Err(Error::SlotsExhausted { target, capacity });
        }
        // SAFETY: record holds 5 integers; record `slot` (1-based) lies within target's records.
        unsafe {
            s.win.rma(
                shim::PUT,
                shim::EXCLUSIVE,
                record.as_ptr() as *const u8,
                std::ptr::null_mut(),
                RECORD,
                ElementType::Int32,
                target,
                (slot - 1) * RECORD,
                Operator::Replace,
            )
        }
    }

    fn reset_secondary(&self, full: bool) -> Result<()> {
        let me = self.rank();
        let Ok(s) = self.secondary() else { return Ok(()) };
        let first = if full { 0 } else { RECORD };
        let total = s.records[me] * RECORD;
        if total <= first {
            return Ok(());
        }
        let mut values = vec![0i32; total - first];
        if full {
            values[0] = 1;
        }
        // Through MPI, not with local stores: other PEs may be claiming slots here right now.
        // SAFETY: values holds total - first integers, all within our records.
        unsafe {
            s.win.rma(
                shim::PUT,
                shim::EXCLUSIVE,
                values.as_ptr() as *const u8,
                std::ptr::null_mut(),
                values.len(),
                ElementType::Int32,
                me,
                first,
                Operator::Replace,
            )
        }
    }

    fn free(self: Box<Self>) -> Result<()> {
        let MpiWindow { registry, win, secondary, own, logical, .. } = *self;
        if let Some(s) = secondary {
            s.win.free(&registry)?;
        }
        if let Some(l) = logical {
            l.into_inner().unwrap_or_else(|p| p.into_inner()).free(&registry)?;
        }
        let freed = win.free(&registry);
        // `own` may only go once MPI no longer uses it; if MPI_Win_free failed, leak it.
        if freed.is_err() {
            std::mem::forget(own);
        }
        freed
    }
}
