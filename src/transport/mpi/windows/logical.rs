//! Logical accumulates (MPI_LAND, MPI_LOR, MPI_LXOR) done by the transport, for an MPI that
//! loses them: Open MPI 4.1's osc/rdma component accepts them and leaves the target unchanged
//! (fetched values 0), on `MPI_Win_create` windows (and on any window it serves across nodes).
//! The same path does 8-byte compare-and-swap there: Open MPI 4.1's osc/rdma crashes in an
//! 8-byte MPI_Compare_and_swap between processes of one machine (a segmentation fault in
//! btl/vader, raw MPI alike; open-mpi/ompi issues 7967 and 11349).
//! The older work-around staged a caller's array through MPI-allocated memory, copying the
//! whole window at every open and close; this one costs only the logical operations themselves.
//!
//! Passive mode: one read-modify-write under the target's exclusive lock (MPI_Get, flush,
//! compute, MPI_Put, unlock), atomic with respect to every other operation on that target,
//! since all of them take its lock (exclusive for puts and accumulates).
//!
//! Active modes: no lock may be taken inside a fence or PSCW epoch, so the operation is kept
//! until the epoch's closing synchronisation and done then, as above; its `garray` values, like
//! every active-mode result, are there after close. A target must not leave close before the
//! operations meant for it have landed: each origin announces every kept operation to the target
//! during the epoch (+1 on the target's "announced" counter, in a small MPI-allocated window of
//! counters, complete before the origin's closing synchronisation), and after doing it adds 1 to
//! the target's "done" counter. At close, after the epoch's synchronisation (which every
//! announcement of the epoch precedes), a PE reads its announced count and waits until as many
//! are done. Counters come in two sets, by epoch parity: an origin may open the next epoch and
//! announce into it before a slow target has read this one, never two epochs ahead (the next
//! close needs the target). Every counter access is an MPI accumulate, atomic among themselves,
//! inside one lock_all epoch held for the life of the counters window (nobody locks them
//! exclusively), so each costs an operation and a flush, not a lock and an unlock. The announced
//! count, read at every active close, is read in this PE's own memory after MPI_Win_sync, with
//! no MPI operation, where the window has the unified memory model: every announcement of the
//! epoch was complete at this PE (flushed) before its origin's closing synchronisation.

use std::ffi::c_int;
use std::time::{Duration, Instant};

use super::window::{MpiWin, SharedRegistry};
use crate::core::{ElementType, Operator};
use crate::error::{Error, Result};
use crate::transport::Fetch;
use crate::transport::mpi::comm::Comm;
use crate::transport::mpi::shim;

/// Counters per PE: (announced, done) for even epochs, then for odd ones.
const COUNTERS: usize = 4;
const ANNOUNCED: usize = 0;
const DONE: usize = 1;

/// Whether `op` is one the transport does itself.
pub fn is_logical(op: Operator) -> bool {
    matches!(op, Operator::Land | Operator::Lor | Operator::Lxor)
}

/// A logical accumulate of an active-mode epoch, done at close.
struct Kept {
    target: usize,
    disp: usize,
    operand: Vec<u8>,
    /// A compare-and-swap's compare value (then `operand` is the new value, `op` unused).
    compare: Option<Vec<u8>>,
    fetch: Option<Fetch>,
    op: Operator,
}

pub(super) struct LogicalAccumulates {
    /// Held under lock_all from create to free.
    counters: MpiWin,
    /// The counters window has the unified memory model (see `announced_to_me`).
    unified: bool,
    kept: Vec<Kept>,
}

/// Unlocks `target` of `win` whatever happened under the lock (the caller holds `shim::serial()`);
/// the first error wins.
fn unlock_after<T>(win: &MpiWin, target: usize, under: Result<T>) -> Result<T> {
    // SAFETY: live window, locked by us on `target`.
    let unlocked = shim::check(unsafe { shim::rpnmpi_unlock(win.raw, target as c_int) }, "MPI_Win_unlock");
    let value = under?;
    unlocked.map(|()| value)
}

impl LogicalAccumulates {
    /// Collective over `comm`: the counters window.
    pub(super) fn create(comm: &Comm, registry: &SharedRegistry) -> Result<Self> {
        let counters = MpiWin::create(comm, registry, None, COUNTERS * 4, 4)
            .map_err(|rc| Error::Mpi(format!("MPI_Win_allocate (counters): {}", shim::error_text(rc))))?;
        // SAFETY: MPI allocated at least COUNTERS integers for us; nobody else uses them before
        // the caller's next collective (window creation ends with one).
        unsafe { std::slice::from_raw_parts_mut(counters.local as *mut i32, COUNTERS) }.fill(0);
        let held = counters.sync_self(comm.rank).and_then(|()| {
            let mut unified: c_int = 0;
            let _mpi = shim::serial();
            // SAFETY: live window; out-parameter.
            shim::check(unsafe { shim::rpnmpi_win_unified(counters.raw, &mut unified) }, "MPI_Win_get_attr(MPI_WIN_MODEL)")?;
            // SAFETY: live window, in no epoch yet.
            shim::check(unsafe { shim::rpnmpi_lock_all(counters.raw) }, "MPI_Win_lock_all")?;
            Ok(unified != 0)
        });
        match held {
            Ok(unified) => Ok(LogicalAccumulates { counters, unified, kept: Vec::new() }),
            Err(e) => {
                let _ = counters.free(registry);
                Err(e)
            }
        }
    }

    /// Collective.
    pub(super) fn free(self, registry: &SharedRegistry) -> Result<()> {
        let mpi = shim::serial();
        // SAFETY: live window, locked by `create`.
        let unlocked = shim::check(unsafe { shim::rpnmpi_unlock_all(self.counters.raw) }, "MPI_Win_unlock_all");
        drop(mpi);
        let freed = self.counters.free(registry);
        unlocked.and(freed)
    }

    /// One logical accumulate of `n` elements at `disp` of `target` (with `compare`: a
    /// compare-and-swap of one element, `operand` the new value), complete and atomic on return
    /// (an exclusive-lock epoch of its own).
    ///
    /// # Safety
    /// `operand` (and `compare`) hold `n` elements; `fetch.dst`, if any, is writable for `n`
    /// elements; `disp + n` lies within the target's part of `win`.
    #[allow(clippy::too_many_arguments)]
    pub(super) unsafe fn read_modify_write(
        win: &MpiWin,
        dtype: ElementType,
        target: usize,
        disp: usize,
        operand: &[u8],
        compare: Option<&[u8]>,
        n: usize,
        fetch: Option<Fetch>,
        op: Operator,
    ) -> Result<()> {
        let mut values = vec![0u8; n * dtype.size()];
        // Held from the lock to the unlock: at MPI_THREAD_SERIALIZED another thread's operation
        // on this target (its own lock epoch) must not start in between, or it would wait inside
        // MPI for our unlock while holding the serialising lock we need for it.
        let mpi = shim::serial();
        // SAFETY: live window.
        shim::check(unsafe { shim::rpnmpi_lock(win.raw, 1, target as c_int) }, "MPI_Win_lock")?;
        let under_lock = (|| -> Result<Vec<u8>> {
            // SAFETY: values holds n elements; bounds are the caller's.
            unsafe {
                win.rma_held(&mpi, shim::GET, shim::NO_LOCK, std::ptr::null(), values.as_mut_ptr(), n, dtype, target, disp, Operator::NoOp)?
            };
            // SAFETY: live window, locked on target.
            shim::check(unsafe { shim::rpnmpi_flush(win.raw, target as c_int) }, "MPI_Win_flush")?;
            let old = values.clone();
            match compare {
                Some(c) if c == &old[..] => values.copy_from_slice(&operand[..old.len()]),
                Some(_) => {}
                None => op.apply_bytes(dtype, &mut values, &operand[..old.len()]),
            }
            // SAFETY: as for the get; values stays alive and unchanged until the unlock.
            unsafe {
                win.rma_held(
                    &mpi,
                    shim::PUT,
                    shim::NO_LOCK,
                    values.as_ptr(),
                    std::ptr::null_mut(),
                    n,
                    dtype,
                    target,
                    disp,
                    Operator::Replace,
                )?
            };
            Ok(old)
        })();
        let old = unlock_after(win, target, under_lock)?;
        drop(mpi);
        if let Some(f) = fetch {
            let src = if f.before { &old } else { &values };
            // SAFETY: f.dst writable for n elements (caller); our buffers are distinct.
            unsafe { std::ptr::copy_nonoverlapping(src.as_ptr(), f.dst, src.len()) };
        }
        Ok(())
    }

    /// Active mode: keeps the operation (with `compare`: a compare-and-swap of one element) for
    /// the close of `epoch` and announces it to `target`.
    ///
    /// # Safety
    /// `src` readable for `n` elements of `dtype`; `fetch.dst`, if any, writable for `n` elements
    /// until the close.
    #[allow(clippy::too_many_arguments)]
    pub(super) unsafe fn keep(
        &mut self,
        epoch: u32,
        dtype: ElementType,
        target: usize,
        disp: usize,
        src: *const u8,
        compare: Option<Vec<u8>>,
        n: usize,
        fetch: Option<Fetch>,
        op: Operator,
    ) -> Result<()> {
        // SAFETY: src readable for n elements (caller).
        let operand = unsafe { std::slice::from_raw_parts(src, n * dtype.size()) }.to_vec();
        self.add(target, epoch, ANNOUNCED, 1)?;
        self.kept.push(Kept { target, disp, operand, compare, fetch, op });
        Ok(())
    }

    /// After the closing synchronisation of active-mode `epoch`: does this PE's kept operations,
    /// then waits for those announced to it (`me`).
    pub(super) fn finish_epoch(&mut self, win: &MpiWin, dtype: ElementType, epoch: u32, me: usize) -> Result<()> {
        for k in std::mem::take(&mut self.kept) {
            let n = k.operand.len() / dtype.size();
            // SAFETY: the operand holds n elements, fetch.dst was writable for them until this
            // close (keep's contract); the core checked the bounds when the operation was issued.
            unsafe { Self::read_modify_write(win, dtype, k.target, k.disp, &k.operand, k.compare.as_deref(), n, k.fetch, k.op)? };
            self.add(k.target, epoch, DONE, 1)?;
        }
        let announced = self.announced_to_me(me, epoch)?;
        if announced == 0 {
            return Ok(());
        }
        // Origins do them right after their own close: a short wait, yielding the core.
        let start = Instant::now();
        while self.read(me, epoch, DONE)? < announced {
            if start.elapsed() < Duration::from_micros(50) {
                std::thread::yield_now();
            } else {
                std::thread::sleep(Duration::from_micros(20));
            }
        }
        self.add(me, epoch, ANNOUNCED, -announced)?;
        self.add(me, epoch, DONE, -announced)?;
        // our own memory now holds their results
        win.sync_self(me)
    }

    /// The operations announced to this PE (`me`) for `epoch`, all of them complete here.
    fn announced_to_me(&self, me: usize, epoch: u32) -> Result<i32> {
        if !self.unified {
            return self.read(me, epoch, ANNOUNCED);
        }
        let mpi = shim::serial();
        // SAFETY: live window, in its lock_all epoch.
        shim::check(unsafe { shim::rpnmpi_win_sync(self.counters.raw) }, "MPI_Win_sync")?;
        drop(mpi);
        // SAFETY: MPI allocated COUNTERS integers of ours at `local` (aligned: ALIGN); other
        // ranks change them only through MPI accumulates, which the unified model makes plain
        // memory updates, hence the atomic load.
        let counter =
            unsafe { std::sync::atomic::AtomicI32::from_ptr((self.counters.local as *mut i32).add(Self::index(epoch, ANNOUNCED))) };
        Ok(counter.load(std::sync::atomic::Ordering::Acquire))
    }

    fn index(epoch: u32, which: usize) -> usize {
        (epoch % 2) as usize * 2 + which
    }

    fn add(&self, pe: usize, epoch: u32, which: usize, delta: i32) -> Result<()> {
        // SAFETY: one integer operand; the index lies within pe's COUNTERS integers.
        unsafe {
            self.counters.rma(
                shim::ACC,
                shim::FLUSH,
                &delta as *const i32 as *const u8,
                std::ptr::null_mut(),
                1,
                ElementType::Int32,
                pe,
                Self::index(epoch, which),
                Operator::Sum,
            )
        }
    }

    fn read(&self, pe: usize, epoch: u32, which: usize) -> Result<i32> {
        let (zero, mut value) = (0i32, 0i32);
        // SAFETY: one integer each way; the index lies within pe's COUNTERS integers.
        unsafe {
            self.counters.rma(
                shim::GETACC,
                shim::FLUSH,
                &zero as *const i32 as *const u8,
                &mut value as *mut i32 as *mut u8,
                1,
                ElementType::Int32,
                pe,
                Self::index(epoch, which),
                Operator::NoOp,
            )?
        };
        Ok(value)
    }
}
