//! A window over MPI-3 one-sided communication.
//!
//! Memory: `MPI_Win_allocate` for internal windows, `MPI_Win_create` over the caller's array.
//! Where an MPI cannot create a window over user memory (Debian's Open MPI at one rank, or over
//! TCP, with its pt2pt component disabled), or the transport chose so (see
//! `mpi::stage_user_arrays`), the window is allocated by MPI and the caller's array is staged:
//! copied in at open, out at close. MPICH 4.0 (ch4:ucx) moves data to the wrong place in a
//! window whose base is not 16-byte aligned (it rounds the base down): a caller's array that is
//! not aligned is staged through an aligned buffer of ours, and every MPI-allocated part is a
//! multiple of ALIGN bytes long so that the parts MPI packs one after the other stay aligned.
//!
//! Synchronisation: fence mode is MPI_Win_fence; group mode is post(pes_from) + start(pes_to)
//! at open (post first: no deadlock) and complete + wait at close; passive mode is a barrier at
//! open and close, with every operation its own lock/unlock epoch (shared lock for get,
//! exclusive for put and accumulate), so it is complete and atomic when it returns.
//! In active modes an operation completes at close, as in MPI: a fetching accumulate's
//! "after" values are computed then, from the "before" values MPI returns.

use std::collections::BTreeMap;
use std::ffi::{c_int, c_void};
use std::sync::{Arc, Mutex};

use super::comm::Comm;
use super::shim::{self, RawWin};
use crate::core::{ElementType, GroupSets, Mode, Operator, RemoteAccess};
use crate::error::{Error, Result};
use crate::transport::{Fetch, TransportWindow};

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
struct MpiWin {
    raw: *mut RawWin,
    id: u64,
    /// This rank's memory in the window.
    local: *mut u8,
}

impl MpiWin {
    /// Collective: a window of `bytes` bytes over `base` (MPI_Win_create) or allocated by MPI.
    fn create(comm: &Comm, registry: &SharedRegistry, base: Option<usize>, bytes: usize, disp_unit: usize) -> std::result::Result<MpiWin, c_int> {
        let mut raw = std::ptr::null_mut();
        let mut local = std::ptr::null_mut();
        let (base, bytes) = match base {
            Some(a) => (a as *mut c_void, bytes),
            None => (std::ptr::null_mut(), bytes.next_multiple_of(ALIGN)),
        };
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
    fn free(mut self, registry: &SharedRegistry) -> Result<()> {
        lock_registry(registry).remove(self.id);
        // SAFETY: a live window, freed once.
        shim::check(unsafe { shim::rpnmpi_win_free(&mut self.raw) }, "MPI_Win_free")
    }

    fn sync_self(&self, rank: usize) -> Result<()> {
        // SAFETY: live window; rank is this rank in its communicator.
        shim::check(unsafe { shim::rpnmpi_sync_self(self.raw, rank as c_int) }, "MPI_Win_sync")
    }

    /// One remote operation (see `rpnmpi_rma`).
    ///
    /// # Safety
    /// `src` readable and `result` writable for `n` elements of `dtype` as `kind` requires;
    /// `disp + n` within the target's part of the window.
    #[allow(clippy::too_many_arguments)]
    unsafe fn rma(&self, kind: c_int, lock: c_int, src: *const u8, result: *mut u8, n: usize, dtype: ElementType, target: usize, disp: usize, op: Operator) -> Result<()> {
        let what = match kind {
            shim::PUT => "MPI_Put",
            shim::GET => "MPI_Get",
            shim::ACC => "MPI_Accumulate",
            _ if n == 1 => "MPI_Fetch_and_op",
            _ => "MPI_Get_accumulate",
        };
        // SAFETY: the caller's contract.
        let rc = unsafe {
            shim::rpnmpi_rma(self.raw, kind, lock, src as *const c_void, result as *mut c_void, n as c_int, dtype.code() as c_int, target as c_int, disp as i64, op.code() as c_int)
        };
        shim::check(rc, what)
    }
}

/// A fetching accumulate of an active-mode epoch, finished at close.
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
    win: MpiWin,
    /// The caller's array when it is staged (through MPI-allocated memory or `own`).
    staged: Option<usize>,
    /// Our aligned window memory for a caller's array that is not aligned (freed after the window).
    own: Option<AlignedBuffer>,
    secondary: Option<Secondary>,
    pending: Vec<PendingFetch>,
}

// SAFETY: the raw pointers (MPI window, window memory, the caller's array) stay valid for the
// window's life and are only used by the thread holding the runtime lock.
unsafe impl Send for MpiWindow {}

fn lock_kind(mode: Mode, exclusive: bool) -> c_int {
    match (mode, exclusive) {
        (Mode::Passive, true) => shim::EXCLUSIVE,
        (Mode::Passive, false) => shim::SHARED,
        _ => shim::NO_LOCK,
    }
}

impl MpiWindow {
    /// Collective over `comm`: the window of `sizes[p]` elements of `dtype` on rank p.
    pub fn create(comm: Arc<Comm>, registry: SharedRegistry, dtype: ElementType, sizes: &[usize], user_array: Option<usize>, force_staged: bool) -> Result<Self> {
        let elem = dtype.size();
        let bytes = sizes[comm.rank] * elem;
        let mut staged = None;
        let mut own = None;
        let win = match user_array {
            Some(addr) if !force_staged => {
                // a local choice: every PE still calls MPI_Win_create
                let base = if addr % 16 == 0 {
                    addr
                } else {
                    staged = Some(addr);
                    own.insert(AlignedBuffer::new(bytes)?).ptr as usize
                };
                let made = MpiWin::create(&comm, &registry, Some(base), bytes, elem);
                // MPI_Win_create is collective: decide together whether to fall back.
                let (any_failed, all_failed) = comm.agree_flag(made.is_err())?;
                match made {
                    Ok(win) if !any_failed => win,
                    Ok(_) => return Err(Error::Mpi("MPI_Win_create failed on another PE".into())),
                    Err(rc) if !all_failed => return Err(Error::Mpi(format!("MPI_Win_create: {}", shim::error_text(rc)))),
                    Err(_) => {
                        staged = Some(addr);
                        own = None;
                        MpiWin::create(&comm, &registry, None, bytes, elem).map_err(|rc| Error::Mpi(format!("MPI_Win_allocate: {}", shim::error_text(rc))))?
                    }
                }
            }
            _ => {
                staged = user_array;
                MpiWin::create(&comm, &registry, None, bytes, elem).map_err(|rc| Error::Mpi(format!("MPI_Win_allocate: {}", shim::error_text(rc))))?
            }
        };
        Ok(MpiWindow { comm, registry, dtype, sizes: sizes.to_vec(), win, staged, own, secondary: None, pending: Vec::new() })
    }

    fn rank(&self) -> usize {
        self.comm.rank
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
        let dtype = self.dtype;
        for p in self.pending.drain(..) {
            if !p.before {
                // SAFETY: dst holds operand.len() bytes (the caller's garray, API contract), and
                // MPI has written it: the epoch is complete.
                let dst = unsafe { std::slice::from_raw_parts_mut(p.dst, p.operand.len()) };
                p.op.apply_bytes(dtype, dst, &p.operand);
            }
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
        match (mode, group) {
            (Mode::Group, Some(g)) => {
                let from: Vec<c_int> = g.from.iter().map(|&p| p as c_int).collect();
                let to: Vec<c_int> = g.to.iter().map(|&p| p as c_int).collect();
                // SAFETY: live window; from/to hold nfrom/nto ranks of its communicator.
                let rc = unsafe { shim::rpnmpi_group_open(self.win.raw, from.as_ptr(), from.len() as c_int, to.as_ptr(), to.len() as c_int) };
                shim::check(rc, "MPI_Win_post/MPI_Win_start")
            }
            (Mode::Passive, _) => {
                self.win.sync_self(self.rank())?;
                self.comm.barrier()
            }
            // SAFETY: live window.
            _ => shim::check(unsafe { shim::rpnmpi_fence(self.win.raw, 0) }, "MPI_Win_fence"),
        }
    }

    fn close(&mut self, _epoch: u32, mode: Mode, group: Option<&GroupSets>) -> Result<()> {
        match (mode, group) {
            // SAFETY: live window, in the group epoch opened by `open`.
            (Mode::Group, Some(_)) => shim::check(unsafe { shim::rpnmpi_group_close(self.win.raw) }, "MPI_Win_complete/MPI_Win_wait")?,
            (Mode::Passive, _) => {
                self.comm.barrier()?;
                self.win.sync_self(self.rank())?;
                if let Some(s) = &self.secondary {
                    s.win.sync_self(self.rank())?;
                }
            }
            // SAFETY: live window.
            _ => shim::check(unsafe { shim::rpnmpi_fence(self.win.raw, 1) }, "MPI_Win_fence")?,
        }
        self.finish_pending();
        self.stage_out();
        Ok(())
    }

    unsafe fn put(&mut self, acc: &RemoteAccess, src: *const u8) -> Result<()> {
        // SAFETY: src readable for nelem elements (caller); offset + nelem within the target's
        // window (checked by the core against the sizes shared at create).
        unsafe { self.win.rma(shim::PUT, lock_kind(acc.mode, true), src, std::ptr::null_mut(), acc.nelem, self.dtype, acc.target, acc.offset, Operator::Replace) }
    }

    unsafe fn get(&mut self, acc: &RemoteAccess, dst: *mut u8) -> Result<()> {
        // SAFETY: dst writable for nelem elements (caller); bounds checked by the core.
        unsafe { self.win.rma(shim::GET, lock_kind(acc.mode, false), std::ptr::null(), dst, acc.nelem, self.dtype, acc.target, acc.offset, Operator::NoOp) }
    }

    unsafe fn accumulate(&mut self, acc: &RemoteAccess, src: *const u8, fetch: Option<Fetch>, op: Operator) -> Result<()> {
        let lock = lock_kind(acc.mode, true);
        let Some(fetch) = fetch else {
            // SAFETY: src readable for nelem elements (caller); bounds checked by the core.
            return unsafe { self.win.rma(shim::ACC, lock, src, std::ptr::null_mut(), acc.nelem, self.dtype, acc.target, acc.offset, op) };
        };
        if acc.nelem == 0 {
            return Ok(());
        }
        // MPI wants the operand and the result disjoint; the caller may pass the same array.
        // SAFETY: src readable for nelem elements (caller).
        let operand = unsafe { std::slice::from_raw_parts(src, acc.nelem * self.dtype.size()) }.to_vec();
        // SAFETY: operand holds nelem elements; fetch.dst writable for nelem elements (caller).
        unsafe { self.win.rma(shim::GETACC, lock, operand.as_ptr(), fetch.dst, acc.nelem, self.dtype, acc.target, acc.offset, op)? };
        let pending = PendingFetch { dst: fetch.dst, operand, op, before: fetch.before };
        if acc.mode == Mode::Passive {
            // complete on return: finish it now
            self.pending.push(pending);
            self.finish_pending();
        } else {
            self.pending.push(pending);
        }
        Ok(())
    }

    fn create_secondary(&mut self, records: &[usize]) -> Result<()> {
        if let Some(old) = self.secondary.take() {
            old.win.free(&self.registry)?;
        }
        let me = self.rank();
        let ints = records[me] * RECORD;
        let win = MpiWin::create(&self.comm, &self.registry, None, ints * 4, 4).map_err(|rc| Error::Mpi(format!("MPI_Win_allocate: {}", shim::error_text(rc))))?;
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

    fn claim_slot(&mut self, target: usize, _epoch: u32) -> Result<u32> {
        let s = self.secondary()?;
        let capacity = s.records[target];
        if capacity < 1 {
            return Err(Error::SlotsExhausted { target, capacity });
        }
        let mut last: c_int = 0;
        // SAFETY: live window; the counter is integer 0 of target's records (capacity >= 1).
        let rc = unsafe { shim::rpnmpi_bounded_increment(s.win.raw, target as c_int, capacity as c_int, &mut last) };
        shim::check(rc, "MPI_Fetch_and_op (slot claim)")?;
        match last {
            l if l < 1 => Err(Error::Internal(format!("record counter of PE {target} is corrupt ({l})"))),
            l if l as usize >= capacity => Err(Error::SlotsExhausted { target, capacity }),
            l => Ok(l as u32 + 1),
        }
    }

    fn write_record(&mut self, target: usize, _epoch: u32, slot: u32, record: [i32; 5]) -> Result<()> {
        let s = self.secondary()?;
        let capacity = s.records[target];
        let slot = slot as usize;
        if slot < 2 || slot > capacity {
            return Err(Error::SlotsExhausted { target, capacity });
        }
        // SAFETY: record holds 5 integers; record `slot` (1-based) lies within target's records.
        unsafe { s.win.rma(shim::PUT, shim::EXCLUSIVE, record.as_ptr() as *const u8, std::ptr::null_mut(), RECORD, ElementType::Int32, target, (slot - 1) * RECORD, Operator::Replace) }
    }

    fn reset_secondary(&mut self, full: bool) {
        let me = self.rank();
        let Ok(s) = self.secondary() else { return };
        let first = if full { 0 } else { RECORD };
        let total = s.records[me] * RECORD;
        if total <= first {
            return;
        }
        let mut values = vec![0i32; total - first];
        if full {
            values[0] = 1;
        }
        // Through MPI, not with local stores: other PEs may be claiming slots here right now.
        // SAFETY: values holds total - first integers, all within our records.
        let done = unsafe { s.win.rma(shim::PUT, shim::EXCLUSIVE, values.as_ptr() as *const u8, std::ptr::null_mut(), values.len(), ElementType::Int32, me, first, Operator::Replace) };
        if let Err(e) = done {
            crate::ffi::report("RPN_COMM_i_win_post", &e);
        }
    }

    fn free(self: Box<Self>) -> Result<()> {
        let MpiWindow { registry, win, secondary, own, .. } = *self;
        if let Some(s) = secondary {
            s.win.free(&registry)?;
        }
        let freed = win.free(&registry);
        // `own` may only go once MPI no longer uses it; if MPI_Win_free failed, leak it.
        if freed.is_err() {
            std::mem::forget(own);
        }
        freed
    }
}
