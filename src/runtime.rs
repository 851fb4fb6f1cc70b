//! The API as the C ABI calls it: one runtime per process (the job's transport and the
//! table of windows), each call validated by the core and carried out by the transport.
//! User buffers arrive as addresses; they are only dereferenced by the transport, under
//! the API contract that a buffer holds `nelem` elements of the window's type.

use std::sync::Mutex;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::Instant;

use crate::core::{ElementType, Handle, HandleKind, HandleTable, Operator, PostPlan, PostRequest, WindowState};
use crate::core::datatype::normalize_name;
use crate::diagnostics;
use crate::error::{Error, Result};
use crate::transport::{CommId, Fetch, JOB, Transport, TransportWindow};

/// Communicators the RPN_COMM names designate: every one spans the whole job.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Communicator {
    World = 1,
    Grid = 2,
    AllGrids = 3,
}

impl Communicator {
    pub fn from_name(name: &str) -> Result<Self> {
        match normalize_name(name).as_str() {
            "WORLD" => Ok(Self::World),
            "GRID" | "DOMM" => Ok(Self::Grid),
            "ALLGRIDS" | "ALL" => Ok(Self::AllGrids),
            other => Err(Error::UnknownName { kind: "communicator", name: other.to_string() }),
        }
    }

}

/// Handle codes of wrapped MPI communicators: WRAPPED_BASE + the transport's CommId.
const WRAPPED_BASE: u32 = 0x100;

/// The transport communicator a communicator handle designates.
fn comm_of(h: &Handle) -> Result<CommId> {
    match h.decode(HandleKind::Communicator)? {
        1..=3 => Ok(JOB),
        code if code > WRAPPED_BASE => Ok(code - WRAPPED_BASE),
        _ => Err(Error::InvalidHandle { what: "communicator" }),
    }
}

pub fn datatype_of(h: &Handle) -> Result<ElementType> {
    ElementType::from_code(h.decode(HandleKind::Datatype)?).ok_or(Error::InvalidHandle { what: "datatype" })
}

pub fn operator_of(h: &Handle) -> Result<Operator> {
    Operator::from_code(h.decode(HandleKind::Operator)?).ok_or(Error::InvalidHandle { what: "operator" })
}

struct Window {
    state: WindowState,
    memory: Box<dyn TransportWindow>,
    /// The communicator the window was created over (its collectives run there).
    comm: CommId,
}

pub struct Runtime {
    transport: Box<dyn Transport>,
    windows: HandleTable<Window>,
    grid: (usize, usize),
}

enum Global {
    NotStarted,
    Running(Runtime),
    Finalized,
}

static GLOBAL: Mutex<Global> = Mutex::new(Global::NotStarted);
static RANK: AtomicI64 = AtomicI64::new(-1);

/// This PE's rank once the runtime started (for messages), else -1.
pub fn current_rank() -> i64 {
    RANK.load(Ordering::Relaxed)
}

/// Runs `f` on the process's runtime, starting it on first use.
pub fn with_runtime<T>(f: impl FnOnce(&mut Runtime) -> Result<T>) -> Result<T> {
    let mut global = GLOBAL.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Global::NotStarted = *global {
        *global = Global::Running(Runtime::start()?);
    }
    match &mut *global {
        Global::Running(rt) => f(rt),
        _ => Err(Error::BadArgument("RPN_COMM_finalize was already called".into())),
    }
}

/// Ends the runtime: later calls are refused.
pub fn finalize() -> Result<()> {
    let mut global = GLOBAL.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    match std::mem::replace(&mut *global, Global::Finalized) {
        Global::Running(mut rt) => rt.transport.finalize(),
        Global::NotStarted => Ok(()),
        Global::Finalized => Err(Error::BadArgument("RPN_COMM_finalize was already called".into())),
    }
}

/// Seconds since an arbitrary origin, from a monotonic clock.
pub fn wtime() -> f64 {
    static ORIGIN: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    ORIGIN.get_or_init(Instant::now).elapsed().as_secs_f64()
}

/// A copy of the `len` bytes the caller's buffer at `addr` holds. A buffer of no bytes may
/// be null (the API allows it for a count of 0), which `from_raw_parts` does not.
///
/// # Safety
/// When `len > 0`, `addr` is readable for `len` bytes.
unsafe fn read_caller_bytes(addr: usize, len: usize) -> Vec<u8> {
    if len == 0 {
        return Vec::new();
    }
    // SAFETY: len > 0, so by the caller's contract addr is readable for len bytes.
    unsafe { std::slice::from_raw_parts(addr as *const u8, len) }.to_vec()
}

/// Copies `bytes` into the caller's buffer at `addr` (which may be null when `bytes` is empty).
///
/// # Safety
/// When `bytes` is not empty, `addr` is writable for `bytes.len()` bytes.
unsafe fn write_caller_bytes(bytes: &[u8], addr: usize) {
    if !bytes.is_empty() {
        // SAFETY: writable per the caller's contract; `copy` tolerates overlap with the source.
        unsafe { std::ptr::copy(bytes.as_ptr(), addr as *mut u8, bytes.len()) };
    }
}

fn as_i32_bytes(values: &[u32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_ne_bytes()).collect()
}

impl Runtime {
    fn start() -> Result<Self> {
        #[cfg(not(feature = "mpi"))]
        let transport: Box<dyn Transport> = Box::new(crate::transport::shm::ShmTransport::from_env()?);
        #[cfg(feature = "mpi")]
        let transport: Box<dyn Transport> = Box::new(crate::transport::mpi::MpiTransport::init()?);
        RANK.store(transport.rank() as i64, Ordering::Relaxed);
        let npes = transport.npes();
        Ok(Runtime { transport, windows: HandleTable::new(HandleKind::Window), grid: (npes, 1) })
    }

    pub fn rank(&self) -> usize {
        self.transport.rank()
    }

    pub fn npes(&self) -> usize {
        self.transport.npes()
    }

    pub fn set_grid(&mut self, pex: i32, pey: i32) -> Result<()> {
        let npes = self.npes();
        if pex <= 0 || pey <= 0 || (pex as i64) * (pey as i64) != npes as i64 {
            return Err(Error::BadArgument(format!("Pex x Pey = {pex} x {pey} does not match the {npes} PEs of the job")));
        }
        self.grid = (pex as usize, pey as usize);
        Ok(())
    }

    /// (me, me_x, me_y) on the Pex x Pey grid.
    pub fn mype(&self) -> (usize, usize, usize) {
        let me = self.rank();
        (me, me % self.grid.0, me / self.grid.0)
    }

    pub fn comm_size(&self, name: &str) -> Result<usize> {
        Communicator::from_name(name)?;
        Ok(self.npes())
    }

    pub fn barrier(&mut self, name: &str) -> Result<()> {
        Communicator::from_name(name)?;
        self.transport.barrier()
    }

    /// A communicator handle for the caller's Fortran MPI communicator (MPI transport only).
    pub fn wrap_communicator(&mut self, fortran_handle: i32) -> Result<Handle> {
        let id = self.transport.wrap_mpi_communicator(fortran_handle)?;
        Ok(Handle::encode(HandleKind::Communicator, WRAPPED_BASE + id))
    }

    /// Agreement step of a collective call over `comm`: every PE reports whether its own
    /// arguments were valid (plus `payload`), so that either all PEs go on or all fail, none hangs.
    fn agree(&mut self, comm: CommId, local: &Result<()>, payload: &[u32]) -> Result<Vec<Vec<u32>>> {
        let mut mine = vec![local.is_err() as u32];
        mine.extend_from_slice(payload);
        let n = mine.len() * 4;
        let (_, size) = self.transport.comm_rank_size(comm)?;
        let mut all = vec![0u8; n * size];
        self.transport.allgather_in(comm, &as_i32_bytes(&mine), &mut all)?;
        let rows: Vec<Vec<u32>> = all
            .chunks_exact(n)
            .map(|row| row.chunks_exact(4).map(|c| u32::from_ne_bytes(c.try_into().unwrap())).collect())
            .collect();
        local.clone()?;
        if let Some(pe) = rows.iter().position(|r| r[0] != 0) {
            return Err(Error::Collective(format!("PE {pe} refused the call (see its message)")));
        }
        Ok(rows.into_iter().map(|r| r[1..].to_vec()).collect())
    }

    pub fn win_create(&mut self, dtype: &Handle, siz: i32, com: &Handle, array: usize) -> Result<Handle> {
        // With a bad communicator handle, the PEs agree over the job (as for any bad argument).
        let comm_checked = comm_of(com).and_then(|c| self.transport.comm_rank_size(c).map(|(rank, _)| (c, rank)));
        let (comm, rank) = *comm_checked.as_ref().unwrap_or(&(JOB, 0));
        let parsed = comm_checked.clone().and_then(|_| datatype_of(dtype)).and_then(|t| {
            if siz < 0 {
                return Err(Error::Negative { what: "window size", value: siz as i64 });
            }
            Ok(t)
        });
        let code = parsed.as_ref().map_or(0, |t| t.code());
        let rows = self.agree(comm, &parsed.as_ref().map(|_| ()).map_err(Clone::clone), &[code, siz.max(0) as u32])?;
        let dtype = parsed?;
        if let Some(pe) = rows.iter().position(|r| r[0] != code) {
            let theirs = ElementType::from_code(rows[pe][0]).map_or("?", |t| t.name());
            return Err(Error::Collective(format!("PE {pe} creates the window with {theirs}, this PE with {}", dtype.name())));
        }
        let sizes: Vec<usize> = rows.iter().map(|r| r[1] as usize).collect();
        let user_array = (array != 0).then_some(array);
        let memory = self.transport.create_window_in(comm, dtype, &sizes, user_array)?;
        let state = WindowState::new(rank, dtype, sizes);
        Ok(self.windows.insert(Window { state, memory, comm }))
    }

    fn window(&mut self, h: &Handle) -> Result<&mut Window> {
        self.windows.get_mut(h)
    }

    /// Names the window `h` in the reports of long waits of the calling thread.
    fn about_window(&self, h: &Handle) -> Option<diagnostics::SubjectGuard> {
        self.windows.get(h).ok().map(|w| diagnostics::about(w.memory.label()))
    }

    pub fn win_create_secondary(&mut self, h: &Handle, slots: i32) -> Result<()> {
        let _subject = self.about_window(h);
        let comm = self.windows.get(h).map_or(JOB, |w| w.comm);
        let checked = self.windows.get(h).and_then(|w| w.state.check_secondary(slots));
        let records = checked.as_ref().map_or(0, |&(r, _)| r as u32);
        let rows = self.agree(comm, &checked.as_ref().map(|_| ()).map_err(Clone::clone), &[records])?;
        let records: Vec<usize> = rows.iter().map(|r| r[0] as usize).collect();
        let w = self.window(h)?;
        w.state.drop_secondary();
        w.memory.create_secondary(&records)?;
        w.state.set_secondary(records);
        Ok(())
    }

    pub fn win_free(&mut self, h: &Handle) -> Result<()> {
        let _subject = self.about_window(h);
        let comm = self.windows.get(h).map_or(JOB, |w| w.comm);
        let checked = self.windows.get(h).and_then(|w| {
            if w.state.is_open() { Err(Error::Exposed { op: "RPN_COMM_i_win_free" }) } else { Ok(()) }
        });
        self.agree(comm, &checked, &[])?;
        let w = self.windows.remove(h)?;
        w.memory.free()
    }

    pub fn win_valid(&self, h: &Handle) -> bool {
        self.windows.get(h).is_ok()
    }

    pub fn win_check(&mut self, h: &Handle) -> Result<bool> {
        Ok(self.window(h)?.state.is_open())
    }

    pub fn win_get_ptr(&mut self, h: &Handle, np: i32) -> Result<usize> {
        let w = self.window(h)?;
        match np {
            1 => Ok(w.memory.local_base() as usize),
            2 if w.state.secondary_records().is_some() => Ok(w.memory.secondary_base() as usize),
            2 => Err(Error::NoSecondary),
            _ => Err(Error::BadArgument(format!("np = {np}: 1 (primary) or 2 (secondary) expected"))),
        }
    }

    pub fn win_get_size(&mut self, h: &Handle) -> Result<usize> {
        Ok(self.window(h)?.state.local_size())
    }

    pub fn win_get_size2(&mut self, h: &Handle) -> Result<usize> {
        let w = self.window(h)?;
        let records = w.state.secondary_records().ok_or(Error::NoSecondary)?;
        Ok(records[w.state.rank()] * 5)
    }

    pub fn win_open(&mut self, h: &Handle, active: bool) -> Result<()> {
        let w = self.window(h)?;
        let (epoch, mode) = w.state.open(active)?;
        let opened = w.memory.open(epoch, mode, w.state.group());
        if opened.is_err() {
            w.state.open_failed();
        }
        opened
    }

    pub fn win_close(&mut self, h: &Handle) -> Result<()> {
        let w = self.window(h)?;
        let (epoch, mode) = w.state.check_close()?;
        w.memory.close(epoch, mode, w.state.group())?;
        w.state.closed();
        Ok(())
    }

    pub fn win_put_r(&mut self, h: &Handle, larray: usize, target: i32, offset: i32, nelem: i32) -> Result<()> {
        let w = self.window(h)?;
        let acc = w.state.check_remote("RPN_COMM_i_win_put_r", target as i64, offset as i64, nelem as i64, larray == 0)?;
        // SAFETY: API contract: `larray` holds `nelem` elements of the window's type.
        unsafe { w.memory.put(&acc, larray as *const u8) }
    }

    pub fn win_get_r(&mut self, h: &Handle, larray: usize, target: i32, offset: i32, nelem: i32) -> Result<()> {
        let w = self.window(h)?;
        let acc = w.state.check_remote("RPN_COMM_i_win_get_r", target as i64, offset as i64, nelem as i64, larray == 0)?;
        // SAFETY: API contract: `larray` has room for `nelem` elements of the window's type.
        unsafe { w.memory.get(&acc, larray as *mut u8) }
    }

    #[allow(clippy::too_many_arguments)]
    pub fn win_getacc_r(&mut self, h: &Handle, larray: usize, garray: usize, before: bool, target: i32, offset: i32, nelem: i32, oper: &Handle) -> Result<()> {
        let w = self.window(h)?;
        let op = if oper.is_null() { w.state.default_operator() } else { operator_of(oper)? };
        w.state.check_operator(op)?;
        let acc = w.state.check_remote("RPN_COMM_i_win_getacc_r", target as i64, offset as i64, nelem as i64, larray == 0)?;
        let fetch = (garray != 0).then_some(Fetch { dst: garray as *mut u8, before });
        // SAFETY: API contract: `larray` (and `garray` when not null) hold `nelem` elements.
        unsafe { w.memory.accumulate(&acc, larray as *const u8, fetch, op) }
    }

    fn local_copy(&mut self, h: &Handle, op: &'static str, larray: usize, offset: i32, nelem: i32, into_window: bool) -> Result<()> {
        let w = self.window(h)?;
        let (offset, nelem) = w.state.check_local(op, offset as i64, nelem as i64, larray == 0)?;
        if nelem == 0 {
            // `larray` may be null then, which `copy` does not allow even for 0 bytes.
            return Ok(());
        }
        let elem = w.state.dtype().size();
        // SAFETY: offset + nelem <= local size (checked), so the range lies in this PE's
        // elements; `larray` holds nelem elements (API contract); `copy` allows overlap.
        unsafe {
            let window = w.memory.local_base().add(offset * elem);
            let (src, dst) = if into_window { (larray as *const u8, window) } else { (window as *const u8, larray as *mut u8) };
            std::ptr::copy(src, dst, nelem * elem);
        }
        Ok(())
    }

    pub fn win_put_l(&mut self, h: &Handle, larray: usize, offset: i32, nelem: i32) -> Result<()> {
        self.local_copy(h, "RPN_COMM_i_win_put_l", larray, offset, nelem, true)
    }

    pub fn win_get_l(&mut self, h: &Handle, larray: usize, offset: i32, nelem: i32) -> Result<()> {
        self.local_copy(h, "RPN_COMM_i_win_get_l", larray, offset, nelem, false)
    }

    pub fn win_group(&mut self, h: &Handle, to: &[i32], from: &[i32]) -> Result<()> {
        self.window(h)?.state.set_group(to, from)
    }

    pub fn win_oper(&mut self, h: &Handle, oper: &Handle) -> Result<()> {
        let op = operator_of(oper)?;
        self.window(h)?.state.set_default_operator(op)
    }

    pub fn win_post(&mut self, h: &Handle, requests: &[PostRequest]) -> Result<()> {
        let w = self.window(h)?;
        match w.state.plan_post(requests)? {
            PostPlan::Reinitialize { full } => {
                w.memory.reset_secondary(full);
                if full {
                    w.state.forget_slots();
                }
            }
            PostPlan::Requests(list) => {
                let epoch = w.state.epoch();
                for (target, _, record) in list {
                    let slot = match w.state.cached_slot(target) {
                        Some(s) => s,
                        None => {
                            let s = w.memory.claim_slot(target, epoch)?;
                            w.state.remember_slot(target, s);
                            s
                        }
                    };
                    w.memory.write_record(target, epoch, slot, record)?;
                }
            }
        }
        Ok(())
    }

    fn reduction_args(&self, count: i32, dtype: &str, com: &str) -> Result<(ElementType, usize)> {
        Communicator::from_name(com)?;
        let t = ElementType::from_name(dtype)?;
        let n = usize::try_from(count).map_err(|_| Error::Negative { what: "count", value: count as i64 })?;
        Ok((t, n * t.size()))
    }

    /// # Safety
    /// `send` holds and `recv` has room for `count` elements of `dtype`.
    pub unsafe fn allreduce(&mut self, send: usize, recv: usize, count: i32, dtype: &str, op: &str, com: &str) -> Result<()> {
        let (t, bytes) = self.reduction_args(count, dtype, com)?;
        let op = Operator::from_name(op)?;
        op.check_type(t)?;
        if bytes > 0 && (send == 0 || recv == 0) {
            return Err(Error::NullBuffer { what: "reduction", nelem: count as i64 });
        }
        // SAFETY: caller's contract: send holds `bytes` bytes.
        let mine = unsafe { read_caller_bytes(send, bytes) };
        let mut all = vec![0u8; bytes * self.npes()];
        self.transport.allgather(&mine, &mut all)?;
        let mut chunks = all.chunks_exact(bytes.max(1));
        let mut result = chunks.next().map(<[u8]>::to_vec).unwrap_or_default();
        for other in chunks.take(self.npes() - 1) {
            op.apply_bytes(t, &mut result, other);
        }
        // SAFETY: caller's contract: recv has room for `bytes` bytes (result holds as many).
        unsafe { write_caller_bytes(&result, recv) };
        Ok(())
    }

    /// # Safety
    /// `send` holds `sendcount` elements of `sendtype`; `recv` has room for npes times
    /// `reccount` elements of `rectype`.
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn allgather(&mut self, send: usize, sendcount: i32, sendtype: &str, recv: usize, reccount: i32, rectype: &str, com: &str) -> Result<()> {
        let (_, sbytes) = self.reduction_args(sendcount, sendtype, com)?;
        let (_, rbytes) = self.reduction_args(reccount, rectype, com)?;
        if sbytes != rbytes {
            return Err(Error::BadArgument(format!("sends {sbytes} bytes per PE but receives {rbytes}")));
        }
        if sbytes > 0 && (send == 0 || recv == 0) {
            return Err(Error::NullBuffer { what: "allgather", nelem: sendcount as i64 });
        }
        // SAFETY: caller's contract: send holds sbytes bytes.
        let mine = unsafe { read_caller_bytes(send, sbytes) };
        let mut all = vec![0u8; sbytes * self.npes()];
        self.transport.allgather(&mine, &mut all)?;
        // SAFETY: caller's contract: recv has room for npes * rbytes bytes.
        unsafe { write_caller_bytes(&all, recv) };
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A job of one PE, as a program started without rpnrun runs.
    fn one_pe() -> Runtime {
        Runtime::start().expect("a job of one PE starts")
    }

    /// Found by fuzzing (fuzz/regressions): a count of 0 with null buffers reached
    /// `slice::from_raw_parts(null, 0)` and `ptr::copy(_, null, 0)`, undefined behaviour
    /// (debug builds stop on it).
    #[test]
    fn zero_count_collectives_accept_null_buffers() {
        let mut rt = one_pe();
        // SAFETY: count 0: the buffers are not accessed.
        unsafe {
            rt.allreduce(0, 0, 0, "MPI_INTEGER", "MPI_SUM", "WORLD").unwrap();
            rt.allgather(0, 0, "MPI_REAL8", 0, 0, "MPI_REAL8", "WORLD").unwrap();
        }
        let dtype = Handle::encode(HandleKind::Datatype, ElementType::Int32.code());
        let com = Handle::encode(HandleKind::Communicator, Communicator::World as u32);
        let win = rt.win_create(&dtype, 4, &com, 0).unwrap();
        rt.win_put_l(&win, 0, 2, 0).unwrap();
        rt.win_get_l(&win, 0, 4, 0).unwrap();
        assert!(rt.win_get_l(&win, 0, 0, 1).is_err(), "null buffer with elements to copy");
        rt.win_free(&win).unwrap();
    }

    /// Wrapping a program's MPI communicator needs the MPI transport: on shared memory it is
    /// refused with a message that says so, and the job's own communicators still work.
    #[cfg(not(feature = "mpi"))]
    #[test]
    fn wrapping_an_mpi_communicator_is_refused_on_shared_memory() {
        let mut rt = one_pe();
        let err = rt.wrap_communicator(0).unwrap_err();
        assert!(err.to_string().contains("MPI"), "{err}");
        let dtype = Handle::encode(HandleKind::Datatype, ElementType::Int32.code());
        let refused = Handle::refused(HandleKind::Communicator);
        assert!(rt.win_create(&dtype, 4, &refused, 0).is_err(), "the refused handle is refused by create");
        let com = Handle::encode(HandleKind::Communicator, Communicator::World as u32);
        let win = rt.win_create(&dtype, 4, &com, 0).unwrap();
        rt.win_free(&win).unwrap();
    }
}
