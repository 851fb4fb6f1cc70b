//! A window in shared memory. One region per window holds, for every PE, a control block
//! (epoch signals, mode, passive lock), its `pes_from` set and its elements; every PE maps
//! the whole region, so remote operations are plain loads, stores and atomics.
//!
//! Synchronisation: each PE publishes the epoch it opened and the epoch it closed.
//! An operation on target T waits (once per epoch) until T has opened the same epoch;
//! close publishes this PE's close and waits for the closes it depends on: in fence and
//! passive mode everyone's, through the window's tree barrier (`barrier`: O(log npes) lines on
//! its critical path, one wake-up per PE even oversubscribed); in group mode those of its
//! `pes_from` PEs.
//!
//! Windows on the caller's array are zero-copy where possible: the array's pages are
//! replaced by a mapping of the region (see `remap`). Where not (the pages are shared with
//! another window, or the mapping is refused), the array is staged: copied into the region
//! at open and back at close (legal because local access is forbidden while exposed).

use std::sync::Arc;
use std::sync::atomic::{AtomicI32, AtomicU8};

use super::atomic_ops::{compare_swap, fetch_op32, fetch_op64, load_element, store_element};
use super::barrier::{Barrier, barrier_bytes};
use super::copy::{copy_bytes, copy_grid};
use super::epochs;
use super::group::Group;
use super::lock::{lock_exclusive, lock_shared, unlock_exclusive, unlock_shared};
use super::region::SharedRegion;
use super::remap;
use super::slots;
use super::sync::{AtomicU32, Ordering};
use super::wait::{Signal, epoch_reached};
use crate::core::subarray::BoxTransfer;
use crate::core::{ElementType, GroupSets, Mode, Operator, RemoteAccess};
use crate::diagnostics::list_pes;
use crate::error::{Error, Result};
use crate::transport::{Fetch, TransportWindow};

const WINDOW_MAGIC: u64 = u64::from_le_bytes(*b"RPNCWIN\x01");
const SECONDARY_MAGIC: u64 = u64::from_le_bytes(*b"RPNCSEC\x01");
const PAGE: usize = 4096;
const RECORD: usize = 5;

/// Written only by the owning PE.
#[repr(C, align(128))]
struct OwnerLine {
    opened: Signal,
    closed: Signal,
    mode: AtomicU32,
}

/// Written by the PEs that operate on the owner's window.
#[repr(C, align(128))]
struct LockLine {
    lock: Signal,
}

#[repr(C)]
struct PeControl {
    owner: OwnerLine,
    lock: LockLine,
}

/// Byte offsets of the parts of a window region.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WindowLayout {
    elem: usize,
    /// The fence/passive close barrier, on the pages after the header page.
    barrier: usize,
    control: usize,
    bitsets: usize,
    bitset_bytes: usize,
    /// Page-aligned start of each PE's data pages.
    data: Vec<usize>,
    /// Offset of each PE's first element in its first page (that of the caller's array
    /// when the window is mapped over it, else 0).
    leads: Vec<usize>,
    total: usize,
}

impl WindowLayout {
    pub fn new(elem: usize, sizes: &[usize], leads: &[usize]) -> Self {
        let npes = sizes.len();
        let barrier = PAGE;
        let control = barrier + barrier_bytes(npes).next_multiple_of(PAGE);
        let bitsets = control + (npes * size_of::<PeControl>()).next_multiple_of(PAGE);
        let bitset_bytes = npes.div_ceil(8).next_multiple_of(64);
        let mut next = bitsets + (npes * bitset_bytes).next_multiple_of(PAGE);
        let data = sizes
            .iter()
            .zip(leads)
            .map(|(&n, &lead)| {
                let at = next;
                next += (lead + n * elem).next_multiple_of(PAGE);
                at
            })
            .collect();
        WindowLayout { elem, barrier, control, bitsets, bitset_bytes, data, leads: leads.to_vec(), total: next }
    }
}

/// Layout of a secondary window: records of 5 integers per PE, each PE on its own pages.
fn secondary_offsets(records: &[usize]) -> (Vec<usize>, usize) {
    let mut next = PAGE;
    let offsets = records
        .iter()
        .map(|&r| {
            let at = next;
            next += (r * RECORD * 4).next_multiple_of(PAGE);
            at
        })
        .collect();
    (offsets, next)
}

/// Where this PE's elements live for the caller.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum LocalMemory {
    /// In the region (array = C_NULL_PTR).
    Internal,
    /// In the caller's array, copied in at open and out at close.
    Staged(usize),
    /// In the caller's array, whose pages `span` are mapped from the region.
    Shared { addr: usize, span: (usize, usize) },
}

struct Secondary {
    region: SharedRegion,
    offsets: Vec<usize>,
    records: Vec<usize>,
}

pub struct ShmWindow {
    /// The window's communicator (ranks in the window are ranks in it).
    group: Arc<Group>,
    dtype: ElementType,
    sizes: Vec<usize>,
    layout: WindowLayout,
    region: SharedRegion,
    local: LocalMemory,
    /// Epoch in which each target was last seen open with a compatible mode: a cache that
    /// threads of this PE fill at the same time (any of them may store the epoch it checked).
    ready: Vec<std::sync::atomic::AtomicU32>,
    secondary: Option<Secondary>,
    /// Name stem for this window's regions.
    name: String,
    /// "window 3": the window as messages name it (the 3rd created in the job).
    label: String,
    secondary_seq: u32,
    /// Fence and passive closes so far (the rounds of the close barrier).
    close_rounds: u32,
}

// SAFETY: the raw pointers inside (region base, caller's array address) designate memory
// that stays mapped for the window's life.
unsafe impl Send for ShmWindow {}
// SAFETY: the `&self` methods that threads call at the same time (the operations) write only
// atomics (`ready`, the passive locks, atomic element operations) or the window's shared
// memory, which other PEs write concurrently anyway (the API's rules on overlapping accesses
// are the caller's, as between PEs); everything else changes only through `&mut self`.
unsafe impl Sync for ShmWindow {}

impl ShmWindow {
    /// Collective: creates the window region `name` for `sizes` elements of `dtype` per PE.
    pub fn create(
        group: Arc<Group>,
        name: String,
        label: String,
        dtype: ElementType,
        sizes: &[usize],
        user_array: Option<usize>,
    ) -> Result<Self> {
        let elem = dtype.size();
        let me = group.rank();
        let span = user_array.filter(|a| a % elem == 0).and_then(|a| remap::reserve(a, sizes[me] * elem));
        let made = Self::create_region(&group, &name, dtype, sizes, user_array.zip(span).map_or(0, |(a, s)| a - s.0));
        let (layout, region) = match made {
            Ok(made) => made,
            Err(e) => {
                if let Some(span) = span {
                    remap::release(span);
                }
                return Err(e);
            }
        };
        let local = match (user_array, span) {
            (None, _) => LocalMemory::Internal,
            (Some(addr), None) => LocalMemory::Staged(addr),
            (Some(addr), Some(span)) => {
                // SAFETY: the span holds the caller's array (API contract: the array is
                // mapped and writable), is page-aligned, and is reserved for this window
                // only; data[me] is page-aligned with room for the span (lead + elements).
                match unsafe { region.remap(layout.data[me], span.0, span.1 - span.0) } {
                    Ok(()) => LocalMemory::Shared { addr, span },
                    Err(_) => {
                        // The region still has room at the same place: stage instead.
                        remap::release(span);
                        LocalMemory::Staged(addr)
                    }
                }
            }
        };
        Ok(ShmWindow {
            ready: sizes.iter().map(|_| std::sync::atomic::AtomicU32::new(0)).collect(),
            group,
            dtype,
            sizes: sizes.to_vec(),
            layout,
            region,
            local,
            secondary: None,
            name,
            label,
            secondary_seq: 0,
            close_rounds: 0,
        })
    }

    /// Collective: agrees on every PE's lead, then creates and maps the region.
    fn create_region(group: &Group, name: &str, dtype: ElementType, sizes: &[usize], lead: usize) -> Result<(WindowLayout, SharedRegion)> {
        let leads: Vec<usize> = group.allgather_u32(lead as u32)?.into_iter().map(|l| l as usize).collect();
        let layout = WindowLayout::new(dtype.size(), sizes, &leads);
        let header = [WINDOW_MAGIC, sizes.len() as u64, dtype.code() as u64, layout.total as u64];
        let region = group.create_region(name, layout.total, &header)?;
        Ok((layout, region))
    }

    fn rank(&self) -> usize {
        self.group.rank()
    }

    fn control(&self, pe: usize) -> &PeControl {
        // SAFETY: pe < npes (validated by the core); the control array lies inside the region
        // at a page-aligned offset, each block 256-byte aligned; it lives as long as `self`.
        unsafe { &*(self.region.as_ptr().add(self.layout.control) as *const PeControl).add(pe) }
    }

    fn bitset(&self, pe: usize) -> &[AtomicU8] {
        // SAFETY: inside the region by construction of the layout; AtomicU8 has the layout of u8.
        unsafe {
            std::slice::from_raw_parts(
                self.region.as_ptr().add(self.layout.bitsets + pe * self.layout.bitset_bytes) as *const AtomicU8,
                self.layout.bitset_bytes,
            )
        }
    }

    /// Address of element `offset` of `pe`'s part.
    fn element(&self, pe: usize, offset: usize) -> *mut u8 {
        debug_assert!(offset <= self.sizes[pe]);
        // SAFETY: offset <= sizes[pe] (checked by the core before any call), so the address
        // is inside (or one past) pe's data area of the region.
        unsafe { self.region.as_ptr().add(self.layout.data[pe] + self.layout.leads[pe] + offset * self.layout.elem) }
    }

    fn local_bytes(&self) -> usize {
        self.sizes[self.rank()] * self.layout.elem
    }

    /// This PE's elements in the shared region, where the other PEs read and write them (the
    /// caller's array itself unless it is staged).
    #[cfg_attr(not(feature = "mpi"), allow(dead_code))]
    pub fn shared_local(&self) -> *mut u8 {
        self.element(self.rank(), 0)
    }

    fn close_barrier(&self) -> Barrier<'_> {
        // SAFETY: the layout gives the barrier barrier_bytes(npes) bytes at a page-aligned
        // offset, zero-filled at creation (a barrier before round 1), used for nothing else.
        unsafe { Barrier::at(self.region.as_ptr().add(self.layout.barrier), self.sizes.len()) }
    }

    /// Waits (once per epoch) until `target` has opened `epoch` in a mode that matches ours.
    /// The check is inlined into every operation; the wait, once per epoch and target, is not.
    #[inline]
    fn ensure_ready(&self, target: usize, epoch: u32, mode: Mode) -> Result<()> {
        if self.ready[target].load(std::sync::atomic::Ordering::Relaxed) == epoch {
            return Ok(());
        }
        self.await_ready(target, epoch, mode)
    }

    #[cold]
    #[inline(never)]
    fn await_ready(&self, target: usize, epoch: u32, mode: Mode) -> Result<()> {
        let ctl = self.control(target);
        let what = || format!("PE {target} to open epoch {epoch} of {}", self.label);
        let code = self.group.wait_for(target, &what, |ctx| epochs::await_open(&ctl.owner.mode, &ctl.owner.opened, epoch, ctx))?;
        let theirs = Mode::from_code(code).unwrap_or(Mode::Fence);
        if theirs != mode {
            return Err(Error::ModeMismatch { target, theirs: theirs.name(), ours: mode.name() });
        }
        if theirs == Mode::Group {
            let me = self.rank();
            if self.bitset(target)[me / 8].load(Ordering::Relaxed) & (1 << (me % 8)) == 0 {
                return Err(Error::NotInPesFrom { target });
            }
        }
        self.ready[target].store(epoch, std::sync::atomic::Ordering::Relaxed);
        Ok(())
    }

    /// Waits until `pe` (another PE) has closed `epoch` (group mode).
    fn wait_closed(&self, pe: usize, epoch: u32) -> Result<()> {
        if pe == self.rank() {
            return Ok(());
        }
        let closed = &self.control(pe).owner.closed;
        let what = || format!("PE {pe} to close epoch {epoch} of {} in {} mode", self.label, Mode::Group.name());
        self.group.wait_for(pe, &what, |ctx| epochs::await_close(closed, epoch, ctx))
    }

    /// Fence and passive close: every PE closes the epoch before any goes on.
    fn close_all(&mut self, epoch: u32, mode: Mode) -> Result<()> {
        self.close_rounds = self.close_rounds.wrapping_add(1);
        let npes = self.sizes.len();
        let late = || {
            let pes: Vec<usize> = (0..npes).filter(|&p| !epoch_reached(self.control(p).owner.closed.load(), epoch)).collect();
            format!("{} to close epoch {epoch} of {} in {} mode", list_pes(&pes), self.label, mode.name())
        };
        // Only looked at while sleeping: a PE that opened this epoch in another mode would
        // never arrive at this barrier (its close waits for its pes_from instead).
        let modes_agree = || {
            (0..npes).try_for_each(|p| {
                let owner = &self.control(p).owner;
                let theirs = Mode::from_code(owner.mode.load(Ordering::Acquire)).unwrap_or(mode);
                match owner.opened.load() == epoch && theirs != mode {
                    true => Err(Error::ModeMismatch { target: p, theirs: theirs.name(), ours: mode.name() }),
                    false => Ok(()),
                }
            })
        };
        let round = self.close_rounds;
        self.group.wait_for_all(&late, Some(&modes_agree), |ctx| self.close_barrier().arrive_and_wait(round, self.rank(), ctx))
    }

    fn with_lock<T>(&self, target: usize, exclusive: bool, f: impl FnOnce() -> T) -> Result<T> {
        let lock = &self.control(target).lock.lock;
        let what = || format!("the passive lock of PE {target} on {} (another PE holds it)", self.label);
        self.group.wait_for(target, &what, |ctx| if exclusive { lock_exclusive(lock, ctx) } else { lock_shared(lock, ctx) })?;
        let out = f();
        if exclusive {
            unlock_exclusive(lock)
        } else {
            unlock_shared(lock)
        }
        Ok(out)
    }

    fn secondary(&self) -> Result<&Secondary> {
        self.secondary.as_ref().ok_or(Error::NoSecondary)
    }

    fn records_of(&self, pe: usize) -> Result<(*mut i32, usize)> {
        let s = self.secondary()?;
        // SAFETY: offsets come from the layout of this region; pe < npes.
        Ok((unsafe { s.region.as_ptr().add(s.offsets[pe]) } as *mut i32, s.records[pe]))
    }
}

impl TransportWindow for ShmWindow {
    fn label(&self) -> &str {
        &self.label
    }

    fn shared_base(&self, target: usize) -> Option<*mut u8> {
        // a staged or remapped caller's array: its other PEs' parts are theirs, not ours to hand out
        match self.local {
            LocalMemory::Internal if target < self.sizes.len() => Some(self.element(target, 0)),
            _ => None,
        }
    }

    fn local_base(&self) -> *mut u8 {
        match self.local {
            LocalMemory::Staged(addr) | LocalMemory::Shared { addr, .. } => addr as *mut u8,
            LocalMemory::Internal => self.element(self.rank(), 0),
        }
    }

    fn open(&mut self, epoch: u32, mode: Mode, group: Option<&GroupSets>) -> Result<()> {
        if let LocalMemory::Staged(user) = self.local {
            // SAFETY: the caller's array holds the window's elements (API contract) and our
            // part of the region holds as many; they do not overlap.
            unsafe { std::ptr::copy_nonoverlapping(user as *const u8, self.element(self.rank(), 0), self.local_bytes()) };
        }
        let me = self.rank();
        if let (Mode::Group, Some(g)) = (mode, group) {
            let bits = self.bitset(me);
            bits.iter().for_each(|b| b.store(0, Ordering::Relaxed));
            for &pe in &g.from {
                bits[pe / 8].fetch_or(1 << (pe % 8), Ordering::Relaxed);
            }
        }
        let owner = &self.control(me).owner;
        epochs::publish_open(&owner.mode, &owner.opened, mode.code(), epoch);
        Ok(())
    }

    fn close(&mut self, epoch: u32, mode: Mode, group: Option<&GroupSets>) -> Result<()> {
        let me = self.rank();
        epochs::publish_close(&self.control(me).owner.closed, epoch);
        match (mode, group) {
            (Mode::Group, Some(g)) => g.from.iter().try_for_each(|&pe| self.wait_closed(pe, epoch))?,
            _ => self.close_all(epoch, mode)?,
        }
        if let LocalMemory::Staged(user) = self.local {
            // SAFETY: as in `open`, in the other direction; every PE that could write our part
            // has closed this epoch.
            unsafe { std::ptr::copy_nonoverlapping(self.element(me, 0), user as *mut u8, self.local_bytes()) };
        }
        Ok(())
    }

    unsafe fn put(&self, acc: &RemoteAccess, src: *const u8) -> Result<()> {
        if acc.nelem == 0 {
            return Ok(());
        }
        self.ensure_ready(acc.target, acc.epoch, acc.mode)?;
        let dst = self.element(acc.target, acc.offset);
        let bytes = acc.nelem * self.layout.elem;
        let elem = self.layout.elem;
        match acc.mode {
            // SAFETY: dst is an aligned element inside the target's part; src is readable (caller).
            Mode::Passive if acc.nelem == 1 => unsafe { store_element(dst, src, elem) },
            // SAFETY: dst..dst+bytes is inside the target's part; src readable for bytes
            // (caller); `copy_bytes` tolerates a source inside the window itself.
            Mode::Passive => self.with_lock(acc.target, true, || unsafe { copy_bytes(src, dst, bytes) })?,
            // SAFETY: as above.
            _ => unsafe { copy_bytes(src, dst, bytes) },
        }
        Ok(())
    }

    unsafe fn get(&self, acc: &RemoteAccess, dst: *mut u8) -> Result<()> {
        if acc.nelem == 0 {
            return Ok(());
        }
        self.ensure_ready(acc.target, acc.epoch, acc.mode)?;
        let src = self.element(acc.target, acc.offset);
        let bytes = acc.nelem * self.layout.elem;
        let elem = self.layout.elem;
        match acc.mode {
            // SAFETY: src is an aligned element inside the target's part; dst writable (caller).
            Mode::Passive if acc.nelem == 1 => unsafe { load_element(dst, src, elem) },
            // SAFETY: src..src+bytes inside the target's part; dst writable for bytes (caller).
            Mode::Passive => self.with_lock(acc.target, false, || unsafe { copy_bytes(src, dst, bytes) })?,
            // SAFETY: as above.
            _ => unsafe { copy_bytes(src, dst, bytes) },
        }
        Ok(())
    }

    unsafe fn put_box(&self, acc: &RemoteAccess, transfer: &BoxTransfer, src: *const u8, elem: usize) -> Result<()> {
        if transfer.nelem() == 0 {
            return Ok(());
        }
        self.ensure_ready(acc.target, acc.epoch, acc.mode)?;
        let base = self.element(acc.target, 0);
        let copy = || {
            let Some(g) = transfer.run_grid() else { return };
            let (from, to) = (g.local_step.map(|s| s * elem), g.remote_step.map(|s| s * elem));
            // SAFETY: every run lies inside the box checked against the target's part (from
            // its element 0); src is readable at every run (caller); `copy_grid` tolerates
            // overlap with the window.
            unsafe { copy_grid(src.add(g.local * elem), base.add(g.remote * elem), g.len * elem, g.count, from, to) }
        };
        // Passive mode: one lock for the whole box, as a contiguous put takes one.
        if acc.mode == Mode::Passive {
            self.with_lock(acc.target, true, copy)
        } else {
            copy();
            Ok(())
        }
    }

    unsafe fn get_box(&self, acc: &RemoteAccess, transfer: &BoxTransfer, dst: *mut u8, elem: usize) -> Result<()> {
        if transfer.nelem() == 0 {
            return Ok(());
        }
        self.ensure_ready(acc.target, acc.epoch, acc.mode)?;
        let base = self.element(acc.target, 0);
        let copy = || {
            let Some(g) = transfer.run_grid() else { return };
            let (from, to) = (g.remote_step.map(|s| s * elem), g.local_step.map(|s| s * elem));
            // SAFETY: every run lies inside the box checked against the target's part (from
            // its element 0); dst is writable at every run (caller).
            unsafe { copy_grid(base.add(g.remote * elem), dst.add(g.local * elem), g.len * elem, g.count, from, to) }
        };
        if acc.mode == Mode::Passive {
            self.with_lock(acc.target, false, copy)
        } else {
            copy();
            Ok(())
        }
    }

    unsafe fn accumulate(&self, acc: &RemoteAccess, src: *const u8, fetch: Option<Fetch>, op: Operator) -> Result<()> {
        if acc.nelem == 0 {
            return Ok(());
        }
        self.ensure_ready(acc.target, acc.epoch, acc.mode)?;
        let base = self.element(acc.target, acc.offset);
        let (dtype, elem, n) = (self.dtype, self.layout.elem, acc.nelem);
        let run = || {
            for i in 0..n {
                // SAFETY: element i < nelem lies inside the target's part (checked bounds) and
                // is aligned; src/fetch.dst hold nelem elements (caller). Each result element
                // is written after its operand was read, so src and fetch.dst may alias.
                unsafe {
                    let at = base.add(i * elem);
                    if elem == 4 {
                        let operand = (src.add(i * 4) as *const u32).read_unaligned();
                        let old = fetch_op32(at as *mut u32, operand, op, dtype);
                        if let Some(f) = fetch {
                            let v = if f.before { old } else { op.apply32(dtype, old, operand) };
                            (f.dst.add(i * 4) as *mut u32).write_unaligned(v);
                        }
                    } else {
                        let operand = (src.add(i * 8) as *const u64).read_unaligned();
                        let old = fetch_op64(at as *mut u64, operand, op, dtype);
                        if let Some(f) = fetch {
                            let v = if f.before { old } else { op.apply64(dtype, old, operand) };
                            (f.dst.add(i * 8) as *mut u64).write_unaligned(v);
                        }
                    }
                }
            }
        };
        // A multi-element passive accumulate is atomic as a whole: hold the target's lock.
        if acc.mode == Mode::Passive && n > 1 {
            self.with_lock(acc.target, true, run)?;
        } else {
            run();
        }
        Ok(())
    }

    unsafe fn compare_and_swap(&self, acc: &RemoteAccess, compare: *const u8, new: *const u8, old: *mut u8) -> Result<()> {
        self.ensure_ready(acc.target, acc.epoch, acc.mode)?;
        let elem = self.layout.elem;
        // SAFETY: compare and new readable for one element (caller), any alignment.
        let (c, n) = unsafe { (read_bits(compare, elem), read_bits(new, elem)) };
        // SAFETY: the element lies inside the target's part (checked bounds), aligned, and is
        // only reached atomically while exposed (accumulates and atomics use atomics on it; a
        // multi-element passive accumulate holds the lock but still updates it atomically).
        let before = unsafe { compare_swap(self.element(acc.target, acc.offset), c, n, elem) };
        // SAFETY: old writable for one element (caller), any alignment; written after the
        // operands were read, so it may alias them.
        unsafe { write_bits(old, before, elem) };
        Ok(())
    }

    fn create_secondary(&mut self, records: &[usize]) -> Result<()> {
        if self.secondary.is_some() {
            // Nobody may still write into the old records when they go away.
            self.group.barrier()?;
            self.secondary = None;
        }
        self.secondary_seq += 1;
        let name = format!("{}s{}", self.name, self.secondary_seq);
        let (offsets, total) = secondary_offsets(records);
        let header = [SECONDARY_MAGIC, records.len() as u64, total as u64];
        let region = self.group.create_region(&name, total, &header)?;
        self.secondary = Some(Secondary { region, offsets, records: records.to_vec() });
        self.reset_secondary(true)?;
        // Every counter is initialised before anyone can claim a slot.
        self.group.barrier()
    }

    fn secondary_base(&self) -> *mut i32 {
        self.records_of(self.rank()).map_or(std::ptr::null_mut(), |(p, _)| p)
    }

    fn claim_slot(&self, target: usize, epoch: u32) -> Result<u32> {
        self.ensure_ready(target, epoch, Mode::Passive)?;
        let (base, capacity) = self.records_of(target)?;
        // SAFETY: the counter is the first, aligned integer of target's records (capacity >= 1).
        let counter = unsafe { AtomicI32::from_ptr(base) };
        slots::claim(counter, capacity).map_err(|last| match last {
            l if l < 1 => Error::SharedMemory(format!("record counter of PE {target} is corrupt ({l})")),
            _ => Error::SlotsExhausted { target, capacity },
        })
    }

    fn write_record(&self, target: usize, epoch: u32, slot: u32, record: [i32; 5]) -> Result<()> {
        self.ensure_ready(target, epoch, Mode::Passive)?;
        let (base, capacity) = self.records_of(target)?;
        let slot = slot as usize;
        if slot < 2 || slot > capacity {
            return Err(Error::SlotsExhausted { target, capacity });
        }
        for (i, v) in record.into_iter().enumerate() {
            // SAFETY: 2 <= slot <= capacity, so the record lies inside target's records.
            unsafe { AtomicI32::from_ptr(base.add((slot - 1) * RECORD + i)) }.store(v, Ordering::Release);
        }
        Ok(())
    }

    fn reset_secondary(&self, full: bool) -> Result<()> {
        let Ok((base, capacity)) = self.records_of(self.rank()) else { return Ok(()) };
        let first = if full { 0 } else { RECORD };
        for i in first..capacity * RECORD {
            // SAFETY: i < capacity * 5 integers of our own records.
            unsafe { AtomicI32::from_ptr(base.add(i)) }.store(0, Ordering::Relaxed);
        }
        if full {
            // SAFETY: the counter is the first integer of our records.
            unsafe { AtomicI32::from_ptr(base) }.store(1, Ordering::Release);
        }
        Ok(())
    }

    fn free(self: Box<Self>) -> Result<()> {
        // Nobody may still touch the memory when it goes away.
        self.group.barrier()?;
        if let LocalMemory::Shared { span, .. } = self.local {
            remap::restore(span, &self.name);
        }
        Ok(())
    }
}

/// One element of `elem_size` (4 or 8) bytes at `p` as bits (zero-extended).
///
/// # Safety
/// `p` readable for `elem_size` bytes (any alignment).
unsafe fn read_bits(p: *const u8, elem_size: usize) -> u64 {
    // SAFETY: the caller's contract.
    unsafe { if elem_size == 4 { (p as *const u32).read_unaligned() as u64 } else { (p as *const u64).read_unaligned() } }
}

/// Writes the low `elem_size` (4 or 8) bytes of `bits` at `p`.
///
/// # Safety
/// `p` writable for `elem_size` bytes (any alignment).
unsafe fn write_bits(p: *mut u8, bits: u64, elem_size: usize) {
    // SAFETY: the caller's contract.
    unsafe { if elem_size == 4 { (p as *mut u32).write_unaligned(bits as u32) } else { (p as *mut u64).write_unaligned(bits) } }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_separates_pes_on_pages() {
        let l = WindowLayout::new(4, &[10, 0, 5000], &[0, 0, 0]);
        assert_eq!(size_of::<PeControl>(), 256);
        assert!(l.data.iter().all(|o| o % PAGE == 0));
        assert_eq!(l.data[1], l.data[0] + PAGE);
        assert_eq!(l.data[2], l.data[1], "a 0-size part takes no room");
        assert_eq!(l.total, l.data[2] + 20000usize.next_multiple_of(PAGE));
        let shifted = WindowLayout::new(4, &[1024, 1], &[4092, 0]);
        assert_eq!(shifted.data[1], shifted.data[0] + 2 * PAGE, "lead + 4 KiB spans two pages");
        let (offsets, total) = secondary_offsets(&[3, 1]);
        assert_eq!(offsets, vec![PAGE, 2 * PAGE]);
        assert_eq!(total, 3 * PAGE);
    }
}
