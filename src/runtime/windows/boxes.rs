//! Sub-array (3-D box) operations: RPN_COMM_i_win_put_r_box, get_r_box and getacc_r_box.
//! The box is checked in `core::subarray` and against the window's state like a contiguous
//! access covering the target's whole shape; then the window's transport part moves its runs
//! (put and get: in one call: under one lock in passive mode on shared memory, one MPI operation
//! with derived datatypes over MPI; get-accumulate: one accumulate per run), so every mode and transport behaves as for the contiguous operations.

use super::super::names::operator_of;
use super::super::stats::DataOp;
use super::table::{Window, WindowTable};
use crate::core::subarray::{BoxArgs, BoxTransfer};
use crate::core::{Handle, Operator, RemoteAccess};
use crate::error::{Error, Result};
use crate::transport::Fetch;

/// A box operation as the caller gives it: the local array (shape, box start), the box's
/// extents, the target and its window's shape as the caller sees it with the box start there.
#[derive(Debug, Clone, Copy)]
pub struct BoxOp {
    /// The local array's shape and the box's start in it.
    pub local: BoxArgs,
    /// The box's extents.
    pub count: [i64; 3],
    /// The target PE.
    pub target: i32,
    /// The target window's shape as the caller sees it, and the box's start there.
    pub remote: BoxArgs,
}

/// What a box call moves: the checked geometry and the access to the target's whole shape.
struct Accepted {
    transfer: BoxTransfer,
    whole: RemoteAccess,
}

fn accept(w: &Window, op: &'static str, b: &BoxOp, buffer_is_null: bool) -> Result<Accepted> {
    let transfer = BoxTransfer::check(&b.local, &b.remote, b.count)?;
    let nelem = transfer.nelem();
    if buffer_is_null && nelem > 0 {
        return Err(Error::NullBuffer { what: "local", nelem: nelem as i64 });
    }
    let total = transfer.remote_total().and_then(|t| i64::try_from(t).ok()).unwrap_or(i64::MAX);
    let target = i64::from(b.target);
    match w.state.accepted_remote(target, 0, total, false) {
        Some(whole) => Ok(Accepted { transfer, whole }),
        None => Err(match w.state.refuse_remote(op, target, 0, total, false) {
            Error::OutOfBounds { size, pe, .. } => {
                let s = transfer.remote.shape;
                Error::BadArgument(format!(
                    "target's window shape {} x {} x {} ({total} elements) exceeds its window size {size} on PE {pe}",
                    s[0], s[1], s[2]
                ))
            }
            e => e,
        }),
    }
}

impl WindowTable {
    /// Puts a box of the local array `larray` into a box of PE `target`'s part of window `h`.
    ///
    /// # Safety
    /// `larray` holds the local shape's elements of the window's type (when the box is not
    /// empty), readable until the operation completes.
    pub unsafe fn win_put_r_box(&self, h: &Handle, larray: usize, b: &BoxOp) -> Result<()> {
        self.read(h, |w| {
            let a = accept(w, "RPN_COMM_i_win_put_r_box", b, larray == 0)?;
            let elem = w.state.dtype().size();
            let _timing = w.stats.as_deref().and_then(|s| s.data(DataOp::PutR, a.transfer.nelem() * elem));
            // SAFETY: every run lies in the local shape (checked), which `larray` holds.
            unsafe { w.memory.put_box(&a.whole, &a.transfer, larray as *const u8, elem) }
        })
    }

    /// Gets a box of PE `target`'s part of window `h` into a box of the local array `larray`.
    ///
    /// # Safety
    /// `larray` holds the local shape's elements of the window's type (when the box is not
    /// empty), writable until the operation completes.
    pub unsafe fn win_get_r_box(&self, h: &Handle, larray: usize, b: &BoxOp) -> Result<()> {
        self.read(h, |w| {
            let a = accept(w, "RPN_COMM_i_win_get_r_box", b, larray == 0)?;
            let elem = w.state.dtype().size();
            let _timing = w.stats.as_deref().and_then(|s| s.data(DataOp::GetR, a.transfer.nelem() * elem));
            // SAFETY: every run lies in the local shape (checked), which `larray` holds.
            unsafe { w.memory.get_box(&a.whole, &a.transfer, larray as *mut u8, elem) }
        })
    }

    /// Accumulates a box of `larray` into a box of PE `target`'s part of window `h` with
    /// `oper` (null: the window's default operator); `garray` (when not 0, same shape as
    /// `larray`) receives the target's values from before or after the update, at the box's
    /// place.
    ///
    /// # Safety
    /// `larray` readable and `garray` (when not 0) writable for the local shape's elements of
    /// the window's type until the operation completes (when the box is not empty).
    pub unsafe fn win_getacc_r_box(&self, h: &Handle, larray: usize, garray: usize, before: bool, b: &BoxOp, oper: &Handle) -> Result<()> {
        self.read(h, |w| {
            let op: Operator = if oper.is_null() { w.state.default_operator() } else { operator_of(oper)? };
            w.state.check_operator(op)?;
            let a = accept(w, "RPN_COMM_i_win_getacc_r_box", b, larray == 0)?;
            let elem = w.state.dtype().size();
            let _timing = w.stats.as_deref().and_then(|s| s.data(DataOp::GetaccR, a.transfer.nelem() * elem));
            for run in a.transfer.runs() {
                let acc = RemoteAccess { offset: run.remote, nelem: run.len, ..a.whole };
                // SAFETY: the run lies in the local shape (checked), which `larray` and
                // `garray` (when given) hold.
                unsafe {
                    let fetch = (garray != 0).then(|| Fetch { dst: (garray as *mut u8).add(run.local * elem), before });
                    w.memory.accumulate(&acc, (larray as *const u8).add(run.local * elem), fetch, op)?;
                }
            }
            Ok(())
        })
    }
}
