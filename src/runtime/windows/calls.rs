//! The window calls (RPN_COMM_i_win_*): each checked by the window's core state, then carried
//! out by the window's transport part. Collective ones agree first (see `collectives::agreement`).

use std::sync::Mutex;

use super::super::Runtime;
use super::super::caller_buffers::copy_local;
use super::super::names::{datatype_of, operator_of};
use super::super::stats::{self, DataOp, WindowInfo};
use super::table::{Window, WindowTable};
use crate::core::{CollectiveId, Communicator, ElementType, Handle, PostPlan, PostRequest, WindowState};
use crate::diagnostics;
use crate::error::{Error, Result};
use crate::transport::Fetch;

impl Runtime {
    /// Collective over `com`: creates a window of `siz` elements of `dtype` on this PE, in the
    /// caller's `array` (an address; 0: memory the library allocates).
    ///
    /// # Safety
    /// When `array` is not 0, it holds `siz` elements of `dtype` and stays valid (and is
    /// accessed only through the window API while the window is exposed) until the window is
    /// freed.
    pub unsafe fn win_create(&mut self, dtype: &Handle, siz: i32, com: &Handle, array: usize) -> Result<Handle> {
        // With a bad communicator handle, the PEs agree over the job (as for any bad argument);
        // a PE outside the named communicator refuses alone: its members create without it.
        let comm_checked = self.communicator(com);
        if let Err(e @ Error::NotMember(_)) = comm_checked {
            return Err(e);
        }
        let comm = comm_checked.as_ref().unwrap_or(self.transport.job()).clone();
        let parsed = comm_checked.and_then(|_| datatype_of(dtype)).and_then(|t| {
            if siz < 0 {
                return Err(Error::Negative { what: "window size", value: siz as i64 });
            }
            Ok(t)
        });
        let code = parsed.as_ref().map_or(0, |t| t.code());
        // This PE's job rank and window number name the window in the statistics of every PE.
        let (job_rank, seq) = (self.rank() as u32, self.stats.as_mut().map_or(0, |s| s.next_seq()));
        let rows = self.agree(
            &comm,
            CollectiveId::WinCreate,
            &parsed.as_ref().map(|_| ()).map_err(Clone::clone),
            &[code, siz.max(0) as u32, job_rank, seq],
        )?;
        let dtype = parsed?;
        if let Some(pe) = rows.iter().position(|r| r[0] != code) {
            let theirs = ElementType::from_code(rows[pe][0]).map_or("?", |t| t.name());
            return Err(Error::Collective(format!("PE {pe} creates the window with {theirs}, this PE with {}", dtype.name())));
        }
        let sizes: Vec<usize> = rows.iter().map(|r| r[1] as usize).collect();
        let user_array = (array != 0).then_some(array);
        // SAFETY: the caller's contract: `array` holds this PE's `siz` elements (= sizes[rank])
        // and lives as long as the window.
        let memory = unsafe { self.transport.create_window(&comm, dtype, &sizes, user_array) }?;
        let stats = self.stats.as_ref().map(|s| {
            let elements = [sizes[comm.rank()], *sizes.iter().min().unwrap_or(&0), *sizes.iter().max().unwrap_or(&0)];
            let (root_pe, root_seq, comm_label) = (rows[0][2], rows[0][3], stats::comm_label(com));
            s.window(WindowInfo { root_pe, root_seq, comm_label, comm_rank: comm.rank(), comm_size: comm.size(), dtype, elements })
        });
        let posted_slots = Mutex::new(vec![None; sizes.len()]);
        let over = comm.name().filter(|_| !comm.is_whole_job(self.npes()));
        let state = WindowState::new(comm.rank(), dtype, sizes).over(over);
        self.windows.insert(Window { state, memory, comm, posted_slots, stats })
    }

    /// The window table, for the operations (`WindowTable::win_put_r` ...).
    #[cfg(test)]
    pub fn windows(&self) -> &WindowTable {
        &self.windows
    }

    /// Runs the configuration call `f` on window `h`, alone on it (see `WindowTable::write`).
    fn window<T>(&self, h: &Handle, f: impl FnOnce(&mut Window) -> Result<T>) -> Result<T> {
        self.windows.write(h, f)
    }

    /// The communicator of window `h`, or the job for an invalid handle (the PEs still agree,
    /// so that the refusal reaches all of them).
    fn comm_of_window(&self, h: &Handle) -> Communicator {
        self.windows.read(h, |w| Ok(w.comm.clone())).unwrap_or_else(|_| self.transport.job().clone())
    }

    /// Names the window `h` in the reports of long waits of the calling thread.
    fn about_window(&self, h: &Handle) -> Option<diagnostics::SubjectGuard> {
        self.windows.read(h, |w| Ok(diagnostics::about(w.memory.label()))).ok()
    }

    /// Collective: (re)creates the secondary window of `h` with `slots` request slots per PE.
    pub fn win_create_secondary(&mut self, h: &Handle, slots: i32) -> Result<()> {
        let _subject = self.about_window(h);
        let comm = self.comm_of_window(h);
        let checked = self.windows.read(h, |w| w.state.check_secondary(slots));
        let records = checked.as_ref().map_or(0, |&(r, _)| r as u32);
        let rows = self.agree(&comm, CollectiveId::WinCreateSecondary, &checked.as_ref().map(|_| ()).map_err(Clone::clone), &[records])?;
        let records: Vec<usize> = rows.iter().map(|r| r[0] as usize).collect();
        self.window(h, |w| {
            w.state.drop_secondary();
            w.forget_posted_slots();
            w.memory.create_secondary(&records)?;
            w.state.set_secondary(records);
            Ok(())
        })
    }

    /// Collective: frees window `h` (refused while it is exposed).
    pub fn win_free(&mut self, h: &Handle) -> Result<()> {
        let _subject = self.about_window(h);
        let comm = self.comm_of_window(h);
        let checked = self.windows.read(h, |w| if w.state.is_open() { Err(Error::Exposed { op: "RPN_COMM_i_win_free" }) } else { Ok(()) });
        self.agree(&comm, CollectiveId::WinFree, &checked, &[])?;
        let w = self.windows.remove(h)?;
        if let (Some(recorder), Some(s)) = (self.stats.as_mut(), w.stats.as_deref()) {
            recorder.freed(s, self.transport.job().rank());
        }
        // Requests never waited for: their operations completed at close; said, and released.
        let not_waited = self.windows.release_requests(h);
        w.memory.free()?;
        match not_waited {
            0 => Ok(()),
            count => Err(Error::RequestsNotWaited { count }),
        }
    }

    /// Whether `h` is a live window.
    pub fn win_valid(&self, h: &Handle) -> bool {
        self.windows.read(h, |_| Ok(())).is_ok()
    }

    /// Whether window `h` is exposed (open).
    pub fn win_check(&mut self, h: &Handle) -> Result<bool> {
        self.windows.read(h, |w| Ok(w.state.is_open()))
    }

    /// The address of this PE's primary (`np` = 1) or secondary (`np` = 2) window memory.
    pub fn win_get_ptr(&mut self, h: &Handle, np: i32) -> Result<usize> {
        self.windows.read(h, |w| match np {
            1 => Ok(w.memory.local_base() as usize),
            2 if w.state.secondary_records().is_some() => Ok(w.memory.secondary_base() as usize),
            2 => Err(Error::NoSecondary),
            _ => Err(Error::BadArgument(format!("np = {np}: 1 (primary) or 2 (secondary) expected"))),
        })
    }

    /// This PE's number of elements in window `h`.
    pub fn win_get_size(&mut self, h: &Handle) -> Result<usize> {
        self.windows.read(h, |w| Ok(w.state.local_size()))
    }

    /// This PE's number of integers in the secondary window of `h`.
    pub fn win_get_size2(&mut self, h: &Handle) -> Result<usize> {
        self.windows.read(h, |w| {
            let records = w.state.secondary_records().ok_or(Error::NoSecondary)?;
            Ok(records[w.state.rank()] * 5)
        })
    }

    /// Sets the group of window `h`: the ranks it targets (`to`) and accepts operations from.
    pub fn win_group(&mut self, h: &Handle, to: &[i32], from: &[i32]) -> Result<()> {
        self.window(h, |w| w.state.set_group(to, from))
    }

    /// Sets the default operator of window `h`.
    pub fn win_oper(&mut self, h: &Handle, oper: &Handle) -> Result<()> {
        let op = operator_of(oper)?;
        self.window(h, |w| w.state.set_default_operator(op))
    }
}

/// Epochs: collective, called by one thread of each PE, but on one window only: they shut its
/// gate (`write`), which makes them alone on it, and need nothing else of the runtime, so they
/// take no process-wide lock either (two atomic read-modify-writes fewer per call, on epochs of
/// a fraction of a microsecond).
impl WindowTable {
    /// Opens (exposes) window `h` in active (fence or group) or passive mode.
    pub fn win_open(&self, h: &Handle, active: bool) -> Result<()> {
        self.write(h, |w| {
            let (epoch, mode) = w.state.open(active)?;
            let _timing = w.stats.as_deref().and_then(|s| s.sync(mode, false));
            let opened = w.memory.open(epoch, mode, w.state.group());
            if opened.is_err() {
                w.state.open_failed();
            }
            opened
        })
    }

    /// Closes window `h`, completing the operations of the epoch.
    pub fn win_close(&self, h: &Handle) -> Result<()> {
        self.write(h, |w| {
            let (epoch, mode) = w.state.check_close()?;
            let _timing = w.stats.as_deref().and_then(|s| s.sync(mode, true));
            // The request-based operations not completed yet complete in this epoch.
            self.complete_all(h, w);
            w.memory.close(epoch, mode, w.state.group())?;
            w.state.closed();
            Ok(())
        })
    }
}

/// The operations: any thread of the PE calls them, at the same time as others (on the same
/// window or not), without a process-wide lock; each passes its window's gate.
impl WindowTable {
    /// Puts `nelem` elements from `larray` at `offset` of PE `target`'s part of window `h`.
    ///
    /// # Safety
    /// When `nelem > 0`, `larray` is readable for `nelem` elements of the window's type until
    /// the operation completes (the window's close, or the return in passive mode).
    pub unsafe fn win_put_r(&self, h: &Handle, larray: usize, target: i32, offset: i32, nelem: i32) -> Result<()> {
        self.read(h, |w| {
            let (target, offset, nelem) = (target as i64, offset as i64, nelem as i64);
            let Some(acc) = w.state.accepted_remote(target, offset, nelem, larray == 0) else {
                return Err(w.state.refuse_remote("RPN_COMM_i_win_put_r", target, offset, nelem, larray == 0));
            };
            let _timing = w.stats.as_deref().and_then(|s| s.data(DataOp::PutR, acc.nelem * w.state.dtype().size()));
            // SAFETY: the caller's contract: `larray` holds `nelem` elements of the window's type.
            unsafe { w.memory.put(&acc, larray as *const u8) }
        })
    }

    /// Gets `nelem` elements at `offset` of PE `target`'s part of window `h` into `larray`.
    ///
    /// # Safety
    /// When `nelem > 0`, `larray` is writable for `nelem` elements of the window's type until
    /// the operation completes (the window's close, or the return in passive mode).
    pub unsafe fn win_get_r(&self, h: &Handle, larray: usize, target: i32, offset: i32, nelem: i32) -> Result<()> {
        self.read(h, |w| {
            let (target, offset, nelem) = (target as i64, offset as i64, nelem as i64);
            let Some(acc) = w.state.accepted_remote(target, offset, nelem, larray == 0) else {
                return Err(w.state.refuse_remote("RPN_COMM_i_win_get_r", target, offset, nelem, larray == 0));
            };
            let _timing = w.stats.as_deref().and_then(|s| s.data(DataOp::GetR, acc.nelem * w.state.dtype().size()));
            // SAFETY: the caller's contract: `larray` has room for `nelem` elements of the window's type.
            unsafe { w.memory.get(&acc, larray as *mut u8) }
        })
    }

    /// Accumulates `larray` into PE `target`'s part of window `h` with `oper` (null handle: the
    /// window's default operator); `garray` (when not 0) receives the target's values from
    /// before or after the update.
    ///
    /// # Safety
    /// When `nelem > 0`, `larray` is readable and `garray` (when not 0) writable for `nelem`
    /// elements of the window's type until the operation completes.
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn win_getacc_r(
        &self,
        h: &Handle,
        larray: usize,
        garray: usize,
        before: bool,
        target: i32,
        offset: i32,
        nelem: i32,
        oper: &Handle,
    ) -> Result<()> {
        // SAFETY: the caller's contract, passed on.
        unsafe { self.accumulate_remote("RPN_COMM_i_win_getacc_r", h, larray, garray, before, target, offset, nelem, oper) }
    }

    /// RPN_COMM_i_win_acc_r (the original's accumulate without fetch): `win_getacc_r` with no
    /// `garray`, its refusals naming this routine.
    ///
    /// # Safety
    /// When `nelem > 0`, `larray` is readable for `nelem` elements of the window's type until the
    /// operation completes.
    pub unsafe fn win_acc_r(&self, h: &Handle, larray: usize, target: i32, offset: i32, nelem: i32, oper: &Handle) -> Result<()> {
        // SAFETY: the caller's contract, passed on (no result buffer).
        unsafe { self.accumulate_remote("RPN_COMM_i_win_acc_r", h, larray, 0, false, target, offset, nelem, oper) }
    }

    /// The accumulate of `win_getacc_r` and `win_acc_r` (`routine` names the call in refusals).
    ///
    /// # Safety
    /// As `win_getacc_r`.
    #[allow(clippy::too_many_arguments)]
    unsafe fn accumulate_remote(
        &self,
        routine: &'static str,
        h: &Handle,
        larray: usize,
        garray: usize,
        before: bool,
        target: i32,
        offset: i32,
        nelem: i32,
        oper: &Handle,
    ) -> Result<()> {
        self.read(h, |w| {
            let op = if oper.is_null() { w.state.default_operator() } else { operator_of(oper)? };
            w.state.check_operator(op)?;
            let (target, offset, nelem) = (target as i64, offset as i64, nelem as i64);
            let Some(acc) = w.state.accepted_remote(target, offset, nelem, larray == 0) else {
                return Err(w.state.refuse_remote(routine, target, offset, nelem, larray == 0));
            };
            let _timing = w.stats.as_deref().and_then(|s| s.data(DataOp::GetaccR, acc.nelem * w.state.dtype().size()));
            let fetch = (garray != 0).then_some(Fetch { dst: garray as *mut u8, before });
            // SAFETY: the caller's contract: `larray` (and `garray` when not null) hold `nelem` elements.
            unsafe { w.memory.accumulate(&acc, larray as *const u8, fetch, op) }
        })
    }

    /// Compare-and-swap on element `offset` of PE `target`'s part of window `h` (an integer
    /// window): the element becomes `*newval` if it equals `*compare`; `*oldval` receives its
    /// value from before. Atomic with respect to every other atomic and accumulate on it.
    ///
    /// # Safety
    /// `compare` and `newval` readable, `oldval` writable for one element of the window's type
    /// (when not 0) until the operation completes.
    pub unsafe fn win_cas_r(&self, h: &Handle, compare: usize, newval: usize, oldval: usize, target: i32, offset: i32) -> Result<()> {
        self.read(h, |w| {
            w.state.check_cas_type()?;
            let buffers = [("compare", compare == 0), ("newval", newval == 0), ("oldval", oldval == 0)];
            let acc = w.state.check_atomic("RPN_COMM_i_win_cas_r", target as i64, offset as i64, &buffers)?;
            let _timing = w.stats.as_deref().and_then(|s| s.data(DataOp::GetaccR, w.state.dtype().size()));
            // SAFETY: the caller's contract: one element in each buffer, none null (checked).
            unsafe { w.memory.compare_and_swap(&acc, compare as *const u8, newval as *const u8, oldval as *mut u8) }
        })
    }

    /// Fetch-and-op on element `offset` of PE `target`'s part of window `h`: the element
    /// becomes `element OP *operand` with `oper` (null handle: the window's default operator);
    /// `*oldval` receives its value from before, in the same atomic step (a one-element
    /// `getacc_r` with `garray` and `before`).
    ///
    /// # Safety
    /// `operand` readable and `oldval` writable for one element of the window's type (when not
    /// 0) until the operation completes.
    pub unsafe fn win_fetchop_r(&self, h: &Handle, operand: usize, oldval: usize, target: i32, offset: i32, oper: &Handle) -> Result<()> {
        self.read(h, |w| {
            let op = if oper.is_null() { w.state.default_operator() } else { operator_of(oper)? };
            w.state.check_operator(op)?;
            let buffers = [("operand", operand == 0), ("oldval", oldval == 0)];
            let acc = w.state.check_atomic("RPN_COMM_i_win_fetchop_r", target as i64, offset as i64, &buffers)?;
            let _timing = w.stats.as_deref().and_then(|s| s.data(DataOp::GetaccR, w.state.dtype().size()));
            let fetch = Some(Fetch { dst: oldval as *mut u8, before: true });
            // SAFETY: the caller's contract: one element in each buffer, none null (checked).
            unsafe { w.memory.accumulate(&acc, operand as *const u8, fetch, op) }
        })
    }

    /// # Safety
    /// When `nelem > 0`, `larray` is valid for `nelem` elements of the window's type (readable
    /// when `into_window`, else writable).
    unsafe fn local_copy(&self, h: &Handle, op: &'static str, larray: usize, offset: i32, nelem: i32, into_window: bool) -> Result<()> {
        self.read(h, |w| {
            let (offset, nelem) = w.state.check_local(op, offset as i64, nelem as i64, larray == 0)?;
            let elem = w.state.dtype().size();
            let _timing = w.stats.as_deref().and_then(|s| s.data(if into_window { DataOp::PutL } else { DataOp::GetL }, nelem * elem));
            // SAFETY: offset + nelem <= local size (checked), so the range lies in this PE's
            // elements; `larray` holds nelem elements (the caller's contract).
            unsafe { copy_local(w.memory.local_base().add(offset * elem), larray, nelem, elem, into_window) };
            Ok(())
        })
    }

    /// Copies `nelem` elements from `larray` into this PE's part of window `h` at `offset`.
    ///
    /// # Safety
    /// When `nelem > 0`, `larray` is readable for `nelem` elements of the window's type.
    pub unsafe fn win_put_l(&self, h: &Handle, larray: usize, offset: i32, nelem: i32) -> Result<()> {
        // SAFETY: the caller's contract, passed on.
        unsafe { self.local_copy(h, "RPN_COMM_i_win_put_l", larray, offset, nelem, true) }
    }

    /// Copies `nelem` elements at `offset` of this PE's part of window `h` into `larray`.
    ///
    /// # Safety
    /// When `nelem > 0`, `larray` is writable for `nelem` elements of the window's type.
    pub unsafe fn win_get_l(&self, h: &Handle, larray: usize, offset: i32, nelem: i32) -> Result<()> {
        // SAFETY: the caller's contract, passed on.
        unsafe { self.local_copy(h, "RPN_COMM_i_win_get_l", larray, offset, nelem, false) }
    }

    /// Posts `requests` into the targets' secondary windows, or reinitialises this PE's.
    pub fn win_post(&self, h: &Handle, requests: &[PostRequest]) -> Result<()> {
        self.read(h, |w| {
            let plan = w.state.plan_post(requests)?;
            let _timing = w.stats.as_deref().and_then(|s| s.data(DataOp::Post, post_bytes(&plan)));
            match plan {
                PostPlan::Reinitialize { full } => {
                    w.memory.reset_secondary(full)?;
                    if full {
                        w.forget_posted_slots();
                    }
                    Ok(())
                }
                PostPlan::Requests(list) => {
                    let epoch = w.state.epoch();
                    for (target, record) in list {
                        // Held across the claim: two threads posting to one target share one slot.
                        let mut slots = w.posted_slots.lock().unwrap_or_else(|p| p.into_inner());
                        let slot = match slots[target] {
                            Some(s) => s,
                            None => *slots[target].insert(w.memory.claim_slot(target, epoch)?),
                        };
                        drop(slots);
                        w.memory.write_record(target, epoch, slot, record)?;
                    }
                    Ok(())
                }
            }
        })
    }
}

/// Bytes a post writes into the targets' secondary windows (a record of 5 integers per request).
fn post_bytes(plan: &PostPlan) -> usize {
    match plan {
        PostPlan::Requests(list) => list.len() * 5 * std::mem::size_of::<i32>(),
        PostPlan::Reinitialize { .. } => 0,
    }
}
