//! Arbitrary call sequences on the C ABI, in one process (a job of one PE, as a program
//! started without `rpnrun` is). Windows are created internal or on driver-owned arrays,
//! opened and closed in every mode, accessed with arbitrary targets, offsets, counts,
//! operators and handles (live, freed, forged from arbitrary bytes).
//!
//! The driver keeps a model of every live window (open or not, mode, groups, secondary
//! window, slot counter, and the bytes the window must hold) and checks each status,
//! out-parameter and data transfer against it. Arguments respect the API contract the
//! library cannot check: a buffer holds the `nelem` elements the call names (the driver
//! allocates it so) and a string is readable for its length; every other argument is
//! arbitrary. At the end of an input, every window is closed and freed, which must succeed.

use std::ffi::{c_char, c_int, c_void};
use std::sync::atomic::{AtomicBool, Ordering};

use libfuzzer_sys::arbitrary::{self, Arbitrary};
use rpncomm_windows::ffi::*;
use rpncomm_windows::internals::core::{ElementType, Handle, HandleKind, Operator};

use crate::{MAX_ELEMENTS, MAX_SLOTS, bounded};

/// An integer argument: mostly small (the interesting values are near 0 on one PE).
#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum Int {
    /// 0..=3: ranks, offsets and counts that fit small windows.
    Tiny(u8),
    Small(i8),
    Any(i32),
}

impl Int {
    pub fn get(self) -> i32 {
        match self {
            Int::Tiny(v) => (v % 4) as i32,
            Int::Small(v) => v as i32,
            Int::Any(v) => v,
        }
    }
}

const NAMES: &[&str] = &[
    "WORLD",
    "GRID",
    "ALLGRIDS",
    "DOMM",
    "ALL",
    "MPI_INTEGER",
    "MPI_REAL",
    "MPI_INTEGER8",
    "MPI_REAL8",
    "MPI_DOUBLE_PRECISION",
    "MPI_INT",
    "MPI_FLOAT",
    "MPI_DOUBLE",
    "MPI_SUM",
    "MPI_PROD",
    "MPI_MIN",
    "MPI_MAX",
    "MPI_BAND",
    "MPI_BOR",
    "MPI_BXOR",
    "MPI_LAND",
    "MPI_LOR",
    "MPI_LXOR",
    "MPI_REPLACE",
    "MPI_NO_OP",
    "MPI_COMPLEX",
    "",
];

/// A Fortran string argument (pointer and length, no NUL).
#[derive(Arbitrary, Debug)]
pub enum Name {
    Known { which: u8, lower: bool, pad: u8 },
    Raw(Vec<u8>),
    Null { len: u8 },
}

impl Name {
    /// The bytes passed, or None for a null pointer (with its length).
    fn bytes(&self) -> (Option<Vec<u8>>, usize) {
        match self {
            Name::Known { which, lower, pad } => {
                let mut s = NAMES[*which as usize % NAMES.len()].to_string();
                if *lower {
                    s = s.to_ascii_lowercase();
                }
                s.extend(std::iter::repeat_n(' ', *pad as usize % 8));
                let b = s.into_bytes();
                let n = b.len();
                (Some(b), n)
            }
            Name::Raw(b) => (Some(b.clone()), b.len()),
            Name::Null { len } => (None, *len as usize % 3),
        }
    }

    fn with<R>(&self, f: impl FnOnce(*const c_char, usize) -> R) -> R {
        let (bytes, len) = self.bytes();
        match bytes {
            Some(b) => f(b.as_ptr() as *const c_char, len),
            None => f(std::ptr::null(), len),
        }
    }

    /// The name as the library must read it (trailing blanks and case ignored), when readable.
    fn text(&self) -> Option<String> {
        match self.bytes() {
            (Some(b), _) => Some(String::from_utf8_lossy(&b).trim().to_ascii_uppercase()),
            (None, 0) => Some(String::new()),
            (None, _) => None,
        }
    }
}

/// A name of the whole job (usable from the start).
fn comm_whole_job(name: &Name) -> bool {
    name.text().is_some_and(|t| {
        matches!(t.as_str(), "WORLD" | "GRID" | "DOMM" | "DEFO" | "ALLGRIDS" | "ALL" | "MULTIGRID" | "ALLDOMAINS" | "UNIVERSE")
    })
}

/// A name of the PE grid (usable once the grid is set; on one PE each is the PE alone).
fn comm_of_grid(name: &Name) -> bool {
    name.text().is_some_and(|t| matches!(t.as_str(), "EW" | "NS" | "GRIDPEERS" | "BLOC" | "BLOCMASTER"))
}

fn comm_known(name: &Name) -> bool {
    comm_whole_job(name) || comm_of_grid(name)
}

fn kind_of(k: u8) -> HandleKind {
    [HandleKind::Datatype, HandleKind::Operator, HandleKind::Communicator, HandleKind::Window][k as usize % 4]
}

/// A handle argument passed by reference.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum HandleArg {
    /// A valid handle of the kind the argument needs (a live window for a window).
    Right(u8),
    NullPtr,
    Zero,
    /// A live window of this input.
    Live(u8),
    /// The handle of a window freed earlier in this input.
    Freed(u8),
    /// A valid datatype, operator or communicator handle (a live window for the window kind).
    Valid {
        kind: u8,
        which: u8,
    },
    /// A well-signed handle of any kind with an arbitrary code.
    Coded {
        kind: u8,
        code: u32,
    },
    /// The right signature with arbitrary integers.
    Signed {
        kind: u8,
        t1: i32,
        t2: i32,
    },
    Raw {
        p: u64,
        t1: i32,
        t2: i32,
    },
}

/// Where an operation's local data lives.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum Buf {
    Null,
    /// A buffer of exactly the elements the call names, `misalign` bytes off 8-byte alignment.
    Fresh {
        misalign: u8,
    },
    /// The memory of a live window (as returned by `rpncomm_win_get_ptr`), when large enough.
    WindowMemory(u8),
}

/// The `array` of a window creation.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum ArrayArg {
    Internal,
    /// Whole pages of its own, the array starting `lead` bytes into them.
    Own {
        lead: u16,
    },
    /// Carved from a pool shared with other windows' arrays (several windows on one page).
    Packed,
}

/// An integer list with its count; `count` (when negative) replaces the true length.
#[derive(Arbitrary, Debug)]
pub struct List {
    values: Vec<Int>,
    negative_count: Option<Int>,
    null: bool,
}

#[derive(Arbitrary, Debug)]
pub enum Call {
    Init,
    SetGrid(Int, Int),
    Mype,
    Wtime,
    Comm(Name),
    CommSize(Name),
    Barrier(Name),
    Datyp(Name),
    Oper(Name),
    ValidOper(HandleArg),
    Allreduce {
        count: Int,
        dtype: Name,
        op: Name,
        com: Name,
        send: Buf,
        recv: Buf,
        fill: u8,
    },
    Allgather {
        sendcount: Int,
        sendtype: Name,
        recvcount: Int,
        recvtype: Name,
        com: Name,
        send: Buf,
        recv: Buf,
        fill: u8,
    },
    Create {
        dtype: HandleArg,
        siz: Int,
        com: HandleArg,
        array: ArrayArg,
        fill: u8,
    },
    CreateSecondary {
        win: HandleArg,
        slots: Int,
    },
    Free(HandleArg),
    Valid(HandleArg),
    Check(HandleArg),
    /// Also reads (and when closed, writes) the whole memory the pointer designates.
    GetPtr {
        win: HandleArg,
        np: Int,
        write: Option<u8>,
    },
    GetSize(HandleArg),
    GetSize2(HandleArg),
    Open {
        win: HandleArg,
        active: Int,
    },
    Close(HandleArg),
    GetR {
        win: HandleArg,
        buf: Buf,
        target: Int,
        offset: Int,
        nelem: Int,
    },
    GetL {
        win: HandleArg,
        buf: Buf,
        offset: Int,
        nelem: Int,
    },
    PutR {
        win: HandleArg,
        buf: Buf,
        target: Int,
        offset: Int,
        nelem: Int,
        fill: u8,
    },
    PutL {
        win: HandleArg,
        buf: Buf,
        offset: Int,
        nelem: Int,
        fill: u8,
    },
    GetAccR {
        win: HandleArg,
        buf: Buf,
        fetch: Option<Buf>,
        before: Int,
        target: Int,
        offset: Int,
        nelem: Int,
        oper: HandleArg,
        fill: u8,
    },
    Group {
        win: HandleArg,
        to: List,
        from: List,
    },
    WinOper {
        win: HandleArg,
        oper: HandleArg,
    },
    Post {
        win: HandleArg,
        requests: Vec<[Int; 5]>,
        negative_nreq: Option<Int>,
        null_arrays: bool,
    },
    /// A short cut to deep states: a valid create, a secondary window of 1..=8 records when
    /// `slots` is set, and an open (each made as its own call above, with the same checks).
    Ready {
        dtype: u8,
        siz: u8,
        array: ArrayArg,
        slots: Option<u8>,
        active: bool,
        fill: u8,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Fence,
    Group,
    Passive,
}

#[derive(Debug)]
struct SecondaryModel {
    records: usize,
    /// The words of this PE's secondary window, when known.
    words: Option<Vec<i32>>,
    cached_slot: Option<u32>,
}

impl SecondaryModel {
    fn new(records: usize) -> Self {
        let mut words = vec![0; records * 5];
        words[0] = 1;
        SecondaryModel { records, words: Some(words), cached_slot: None }
    }
}

#[derive(Debug)]
struct WindowModel {
    handle: Handle,
    dtype: ElementType,
    size: usize,
    user: Option<*mut u8>,
    open: Option<Mode>,
    /// (pes_to holds PE 0, pes_from holds PE 0) when a group is set.
    group: Option<(bool, bool)>,
    default_op: Operator,
    /// The bytes the window holds, when known.
    shadow: Option<Vec<u8>>,
    secondary: Option<SecondaryModel>,
}

impl WindowModel {
    fn bytes(&self) -> usize {
        self.size * self.dtype.size()
    }
}

/// Memory a call reads or writes: a driver allocation or a window's memory.
struct Local {
    ptr: *mut u8,
    /// Whether the memory belongs to a window (then the data checks are skipped: the
    /// transfer may overlap the window it comes from).
    aliased: bool,
    _storage: Vec<u64>,
}

fn fill_bytes(seed: u8, n: usize) -> Vec<u8> {
    (0..n).map(|i| seed.wrapping_mul(31).wrapping_add(i as u8).rotate_left(i as u32 % 7)).collect()
}

/// Page-aligned memory of whole pages for window arrays. A window on the caller's array
/// maps the region over the array's pages, copying the whole pages (neighbours of the array
/// included); on a heap block of its own, those neighbours are ASan redzones, which that
/// copy would be reported for. On whole pages of its own the array's neighbours are the
/// block's own bytes (other arrays of the block, for packed arrays).
struct PageBlock {
    ptr: *mut u8,
    layout: std::alloc::Layout,
}

impl PageBlock {
    fn new(bytes: usize) -> Self {
        let layout = std::alloc::Layout::from_size_align(bytes.max(1).next_multiple_of(4096), 4096).unwrap();
        // SAFETY: the layout has a non-zero size.
        let ptr = unsafe { std::alloc::alloc_zeroed(layout) };
        assert!(!ptr.is_null(), "out of memory");
        PageBlock { ptr, layout }
    }
}

impl Drop for PageBlock {
    fn drop(&mut self) {
        // SAFETY: allocated in `new` with this layout.
        unsafe { std::alloc::dealloc(self.ptr, self.layout) };
    }
}

pub struct Driver {
    windows: Vec<WindowModel>,
    freed: Vec<Handle>,
    /// Storage of the windows' arrays (dropped after the windows were freed).
    arrays: Vec<PageBlock>,
    pool: PageBlock,
    pool_used: usize,
    /// The runtime was finalized before the run: every call that needs it must fail.
    finalized: bool,
    /// rpncomm_set_grid succeeded: the grid's communicators exist.
    grid_set: bool,
}

/// rpncomm_set_grid succeeded in this process, in this input or an earlier one: the runtime, and
/// with it the grid, lives as long as the process (libFuzzer runs every input in one).
static GRID_SET: AtomicBool = AtomicBool::new(false);

fn status_ok(status: c_int, what: &str) -> bool {
    assert!(status == RPN_COMM_OK || status == RPN_COMM_ERROR, "{what}: status {status} is neither 0 nor -1");
    status == RPN_COMM_OK
}

thread_local! {
    /// Accepted calls per routine in the current input, for FUZZ_STATS (see `Driver::finish`).
    static ACCEPTED: std::cell::RefCell<std::collections::BTreeMap<String, u32>> = Default::default();
}

fn expect(status: c_int, predicted: bool, what: &str) -> bool {
    let ok = status_ok(status, what);
    if ok {
        ACCEPTED.with(|a| *a.borrow_mut().entry(what.to_string()).or_default() += 1);
    }
    assert_eq!(ok, predicted, "{what}: status {status}, expected {}", if predicted { "success" } else { "an error" });
    ok
}

impl Driver {
    pub fn new(finalized: bool) -> Self {
        Driver {
            windows: Vec::new(),
            freed: Vec::new(),
            arrays: Vec::new(),
            pool: PageBlock::new(4 * 4096),
            pool_used: 0,
            finalized,
            grid_set: GRID_SET.load(Ordering::Relaxed),
        }
    }

    /// Whether communicator `name` can be used now.
    fn comm_usable(&self, name: &Name) -> bool {
        comm_whole_job(name) || (self.grid_set && comm_of_grid(name))
    }

    /// The handle `arg` designates where a handle of kind `expected` is due.
    fn handle(&self, arg: HandleArg, expected: HandleKind) -> Option<Handle> {
        let pick = |n: usize, i: u8| (n > 0).then(|| i as usize % n);
        Some(match arg {
            HandleArg::Right(which) => {
                let kind = [HandleKind::Datatype, HandleKind::Operator, HandleKind::Communicator, HandleKind::Window]
                    .iter()
                    .position(|&k| k == expected)
                    .unwrap() as u8;
                return self.handle(HandleArg::Valid { kind, which }, expected);
            }
            HandleArg::NullPtr => return None,
            HandleArg::Zero => Handle::NULL,
            HandleArg::Live(i) => pick(self.windows.len(), i).map_or(Handle::NULL, |i| self.windows[i].handle),
            HandleArg::Freed(i) => pick(self.freed.len(), i).map_or(Handle::NULL, |i| self.freed[i]),
            HandleArg::Valid { kind, which } => match kind_of(kind) {
                HandleKind::Datatype => Handle::encode(HandleKind::Datatype, ElementType::ALL[which as usize % 4].code()),
                HandleKind::Operator => Handle::encode(HandleKind::Operator, Operator::ALL[which as usize % 12].code()),
                HandleKind::Communicator => Handle::encode(HandleKind::Communicator, 1 + which as u32 % 3),
                HandleKind::Window => pick(self.windows.len(), which).map_or(Handle::NULL, |i| self.windows[i].handle),
                // (kind_of never picks it: the driver makes no request-based call)
                HandleKind::Request => Handle::NULL,
            },
            HandleArg::Coded { kind, code } => Handle::encode(kind_of(kind), code),
            HandleArg::Signed { kind, t1, t2 } => Handle { p: Handle::encode(kind_of(kind), 0).p, t1, t2 },
            HandleArg::Raw { p, t1, t2 } => Handle { p: p as usize, t1, t2 },
        })
    }

    /// The model of the live window `h` designates, if any.
    fn live(&self, h: Option<Handle>) -> Option<usize> {
        let h = h?;
        let found = self.windows.iter().position(|w| w.handle == h);
        if found.is_some() {
            assert!(!self.finalized);
        }
        found
    }

    fn with_handle<R>(h: Option<Handle>, f: impl FnOnce(*const Handle) -> R) -> R {
        match h {
            Some(h) => f(&h),
            None => f(std::ptr::null()),
        }
    }

    /// Memory for `n` elements of `elem` bytes (`None`: null pointer).
    fn local(&self, buf: Buf, n: usize, elem: usize, seed: u8) -> Option<Local> {
        let bytes = n * elem;
        match buf {
            Buf::Null => None,
            Buf::WindowMemory(i) if !self.windows.is_empty() => {
                let w = &self.windows[i as usize % self.windows.len()];
                if w.bytes() < bytes || w.bytes() == 0 {
                    return self.local(Buf::Fresh { misalign: 0 }, n, elem, seed);
                }
                let mut p: *mut c_void = std::ptr::null_mut();
                let st = rpncomm_win_get_ptr(&w.handle, 1, &mut p);
                assert!(status_ok(st, "get_ptr of a live window") && !p.is_null());
                Some(Local { ptr: p as *mut u8, aliased: true, _storage: Vec::new() })
            }
            Buf::WindowMemory(_) | Buf::Fresh { .. } => {
                let misalign = match buf {
                    Buf::Fresh { misalign } => misalign as usize % 8,
                    _ => 0,
                };
                let mut storage = vec![0u64; (bytes + misalign).div_ceil(8).max(1)];
                // SAFETY: misalign + bytes <= the storage's bytes.
                let ptr = unsafe { (storage.as_mut_ptr() as *mut u8).add(misalign) };
                let data = fill_bytes(seed, bytes);
                // SAFETY: ptr is valid for `bytes` bytes (just allocated).
                unsafe { std::ptr::copy_nonoverlapping(data.as_ptr(), ptr, bytes) };
                Some(Local { ptr, aliased: false, _storage: storage })
            }
        }
    }

    fn read(local: &Option<Local>, bytes: usize) -> Option<Vec<u8>> {
        let l = local.as_ref()?;
        let mut v = vec![0u8; bytes];
        // SAFETY: the local memory holds at least `bytes` bytes (allocated for them).
        unsafe { std::ptr::copy(l.ptr, v.as_mut_ptr(), bytes) };
        Some(v)
    }

    fn ptr(local: &Option<Local>) -> *mut c_void {
        local.as_ref().map_or(std::ptr::null_mut(), |l| l.ptr as *mut c_void)
    }

    fn aliased(local: &Option<Local>) -> bool {
        local.as_ref().is_some_and(|l| l.aliased)
    }

    /// A buffer aliasing a window may be changed by a call: forget what every window holds
    /// (cheaper than working out which one).
    fn forget_aliased_contents(&mut self) {
        self.windows.iter_mut().for_each(|w| w.shadow = None);
    }

    /// Storage for a window array of `bytes` bytes; returns its address.
    fn array(&mut self, arg: ArrayArg, bytes: usize, seed: u8) -> Option<*mut u8> {
        let lead = match arg {
            ArrayArg::Internal => return None,
            // a lead of 0..4095 bytes, 8-byte aligned or not
            ArrayArg::Own { lead } => lead as usize % 4096,
            ArrayArg::Packed => {
                let at = self.pool_used.next_multiple_of(8);
                if at + bytes <= self.pool.layout.size() {
                    self.pool_used = at + bytes;
                    // SAFETY: at + bytes lie inside the pool.
                    return Some(Self::filled(unsafe { self.pool.ptr.add(at) }, bytes, seed));
                }
                0
            }
        };
        let block = PageBlock::new(lead + bytes);
        // SAFETY: lead + bytes fit the block.
        let p = unsafe { block.ptr.add(lead) };
        self.arrays.push(block);
        Some(Self::filled(p, bytes, seed))
    }

    fn filled(p: *mut u8, bytes: usize, seed: u8) -> *mut u8 {
        let data = fill_bytes(seed, bytes);
        // SAFETY: p is valid for `bytes` bytes (see `array`).
        unsafe { std::ptr::copy_nonoverlapping(data.as_ptr(), p, bytes) };
        p
    }

    pub fn run(&mut self, calls: &[Call]) {
        for call in calls {
            self.step(call);
        }
    }

    fn step(&mut self, call: &Call) {
        let up = !self.finalized;
        match call {
            Call::Init => {
                let (mut r, mut n) = (-5, -5);
                if expect(rpncomm_init(&mut r, &mut n), up, "init") {
                    assert_eq!((r, n), (0, 1));
                }
            }
            Call::SetGrid(x, y) => {
                let (mut px, mut py) = (x.get(), y.get());
                if expect(rpncomm_set_grid(&mut px, &mut py), up && x.get() == 1 && y.get() == 1, "set_grid") {
                    assert_eq!((px, py), (1, 1));
                    self.grid_set = true;
                    GRID_SET.store(true, Ordering::Relaxed);
                }
            }
            Call::Mype => {
                let (mut m, mut x, mut y) = (-5, -5, -5);
                if expect(rpncomm_mype(&mut m, &mut x, &mut y), up, "mype") {
                    assert_eq!((m, x, y), (0, 0, 0));
                }
            }
            Call::Wtime => assert!(rpncomm_wtime() >= 0.0),
            Call::Comm(name) => {
                let mut h = Handle::NULL;
                if expect(name.with(|p, n| rpncomm_comm(p, n, &mut h)), comm_known(name), "comm") {
                    assert!(h.decode(HandleKind::Communicator).is_ok_and(|c| (1..=8).contains(&c)));
                } else {
                    assert!(!h.is_null(), "a refused lookup gives a refused handle, not the null one");
                }
            }
            Call::CommSize(name) => {
                let mut s = -5;
                if expect(name.with(|p, n| rpncomm_comm_size(p, n, &mut s)), up && self.comm_usable(name), "comm_size") {
                    assert_eq!(s, 1);
                }
            }
            Call::Barrier(name) => {
                expect(name.with(|p, n| rpncomm_barrier(p, n)), up && self.comm_usable(name), "barrier");
            }
            Call::Datyp(name) => {
                let mut h = Handle::NULL;
                let known = name.text().and_then(|t| ElementType::from_name(&t).ok());
                if expect(name.with(|p, n| rpncomm_datyp(p, n, &mut h)), known.is_some(), "datyp") {
                    assert_eq!(h, Handle::encode(HandleKind::Datatype, known.unwrap().code()));
                }
            }
            Call::Oper(name) => {
                let mut h = Handle::NULL;
                let known = name.text().and_then(|t| Operator::from_name(&t).ok());
                if expect(name.with(|p, n| rpncomm_oper(p, n, &mut h)), known.is_some(), "oper") {
                    assert_eq!(h, Handle::encode(HandleKind::Operator, known.unwrap().code()));
                    assert_eq!(rpncomm_valid_oper(&h), 1);
                }
            }
            Call::ValidOper(arg) => {
                let h = self.handle(*arg, HandleKind::Operator);
                let valid = h.is_some_and(|h| h.decode(HandleKind::Operator).is_ok_and(|c| (1..=12).contains(&c)));
                assert_eq!(Self::with_handle(h, |p| rpncomm_valid_oper(p)), valid as c_int, "valid_oper {h:?}");
            }
            Call::Allreduce { count, dtype, op, com, send, recv, fill } => self.allreduce(*count, dtype, op, com, *send, *recv, *fill),
            Call::Allgather { sendcount, sendtype, recvcount, recvtype, com, send, recv, fill } => {
                self.allgather(*sendcount, sendtype, *recvcount, recvtype, com, *send, *recv, *fill)
            }
            Call::Create { dtype, siz, com, array, fill } => self.create(*dtype, *siz, *com, *array, *fill),
            Call::CreateSecondary { win, slots } => {
                let h = self.handle(*win, HandleKind::Window);
                let slots = bounded(slots.get(), MAX_SLOTS);
                let w = self.live(h);
                let predicted = w.is_some_and(|i| {
                    let w = &self.windows[i];
                    w.open.is_none() && slots != 0 && slots != i32::MIN && (slots < 0 || w.secondary.is_none())
                });
                let st = Self::with_handle(h, |p| rpncomm_win_create_secondary(p, slots));
                if expect(st, predicted, "create_secondary") {
                    self.windows[w.unwrap()].secondary = Some(SecondaryModel::new(slots.unsigned_abs() as usize));
                }
            }
            Call::Free(win) => {
                let mut h = self.handle(*win, HandleKind::Window);
                let w = self.live(h);
                let predicted = w.is_some_and(|i| self.windows[i].open.is_none());
                let st = match h.as_mut() {
                    Some(h) => rpncomm_win_free(h),
                    None => rpncomm_win_free(std::ptr::null_mut()),
                };
                if expect(st, predicted, "free") {
                    assert!(h.unwrap().is_null(), "a freed window variable becomes the null handle");
                    let gone = self.windows.remove(w.unwrap());
                    self.freed.push(gone.handle);
                }
            }
            Call::Valid(win) => {
                let h = self.handle(*win, HandleKind::Window);
                let live = self.live(h).is_some();
                let mut v = -5;
                expect(Self::with_handle(h, |p| rpncomm_win_valid(p, &mut v)), live, "win_valid");
                assert_eq!(v, live as c_int);
            }
            Call::Check(win) => {
                let h = self.handle(*win, HandleKind::Window);
                let w = self.live(h);
                let mut o = -5;
                if expect(Self::with_handle(h, |p| rpncomm_win_check(p, &mut o)), w.is_some(), "win_check") {
                    assert_eq!(o, self.windows[w.unwrap()].open.is_some() as c_int);
                } else {
                    assert_eq!(o, 0);
                }
            }
            Call::GetPtr { win, np, write } => self.get_ptr(*win, np.get(), *write),
            Call::GetSize(win) => {
                let h = self.handle(*win, HandleKind::Window);
                let w = self.live(h);
                let mut s = -5;
                if expect(Self::with_handle(h, |p| rpncomm_win_get_size(p, &mut s)), w.is_some(), "get_size") {
                    assert_eq!(s as usize, self.windows[w.unwrap()].size);
                } else {
                    assert_eq!(s, -1);
                }
            }
            Call::GetSize2(win) => {
                let h = self.handle(*win, HandleKind::Window);
                let w = self.live(h);
                let records = w.and_then(|i| self.windows[i].secondary.as_ref().map(|s| s.records));
                let mut s = -5;
                if expect(Self::with_handle(h, |p| rpncomm_win_get_size2(p, &mut s)), records.is_some(), "get_size2") {
                    assert_eq!(s as usize, records.unwrap() * 5);
                } else {
                    assert_eq!(s, -1);
                }
            }
            Call::Open { win, active } => {
                let h = self.handle(*win, HandleKind::Window);
                let w = self.live(h);
                let predicted = w.is_some_and(|i| self.windows[i].open.is_none());
                if expect(Self::with_handle(h, |p| rpncomm_win_open(p, active.get())), predicted, "open") {
                    let w = &mut self.windows[w.unwrap()];
                    w.open = Some(match (active.get() != 0, w.group) {
                        (false, _) => Mode::Passive,
                        (true, None) => Mode::Fence,
                        (true, Some(_)) => Mode::Group,
                    });
                }
            }
            Call::Close(win) => {
                let h = self.handle(*win, HandleKind::Window);
                let w = self.live(h);
                let predicted = w.is_some_and(|i| self.windows[i].open.is_some());
                if expect(Self::with_handle(h, |p| rpncomm_win_close(p)), predicted, "close") {
                    self.windows[w.unwrap()].open = None;
                }
            }
            Call::GetR { win, buf, target, offset, nelem } => {
                self.transfer(*win, *buf, Some(target.get()), offset.get(), nelem.get(), false, 0)
            }
            Call::GetL { win, buf, offset, nelem } => self.transfer(*win, *buf, None, offset.get(), nelem.get(), false, 0),
            Call::PutR { win, buf, target, offset, nelem, fill } => {
                self.transfer(*win, *buf, Some(target.get()), offset.get(), nelem.get(), true, *fill)
            }
            Call::PutL { win, buf, offset, nelem, fill } => self.transfer(*win, *buf, None, offset.get(), nelem.get(), true, *fill),
            Call::GetAccR { win, buf, fetch, before, target, offset, nelem, oper, fill } => {
                self.accumulate(*win, *buf, *fetch, before.get(), target.get(), offset.get(), nelem.get(), *oper, *fill)
            }
            Call::Group { win, to, from } => self.group(*win, to, from),
            Call::WinOper { win, oper } => {
                let h = self.handle(*win, HandleKind::Window);
                let w = self.live(h);
                let o = self.handle(*oper, HandleKind::Operator);
                let op = o.and_then(|o| o.decode(HandleKind::Operator).ok()).and_then(Operator::from_code);
                let predicted = w.is_some_and(|i| op.is_some_and(|op| op.check_type(self.windows[i].dtype).is_ok()));
                let st = Self::with_handle(h, |hp| Self::with_handle(o, |op| rpncomm_win_oper(hp, op)));
                if expect(st, predicted, "win_oper") {
                    self.windows[w.unwrap()].default_op = op.unwrap();
                }
            }
            Call::Post { win, requests, negative_nreq, null_arrays } => self.post(*win, requests, *negative_nreq, *null_arrays),
            Call::Ready { dtype, siz, array, slots, active, fill } => {
                let before = self.windows.len();
                self.step(&Call::Create {
                    dtype: HandleArg::Valid { kind: 0, which: *dtype },
                    siz: Int::Any(*siz as i32 % 64),
                    com: HandleArg::Valid { kind: 2, which: 0 },
                    array: *array,
                    fill: *fill,
                });
                if self.windows.len() > before {
                    let win = HandleArg::Live((self.windows.len() - 1) as u8);
                    if let Some(n) = slots {
                        self.step(&Call::CreateSecondary { win, slots: Int::Any(1 + *n as i32 % 8) });
                    }
                    self.step(&Call::Open { win, active: Int::Any(*active as i32) });
                }
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn allreduce(&mut self, count: Int, dtype: &Name, op: &Name, com: &Name, send: Buf, recv: Buf, fill: u8) {
        let count = bounded(count.get(), MAX_ELEMENTS);
        let t = dtype.text().and_then(|t| ElementType::from_name(&t).ok());
        let o = op.text().and_then(|t| Operator::from_name(&t).ok());
        let n = count.max(0) as usize;
        let elem = t.map_or(8, |t| t.size());
        let (s, r) = (self.local(send, n, elem, fill), self.local(recv, n, elem, fill.wrapping_add(1)));
        let predicted = !self.finalized
            && self.comm_usable(com)
            && count >= 0
            && t.zip(o).is_some_and(|(t, o)| o.check_type(t).is_ok())
            && (n == 0 || (s.is_some() && r.is_some()));
        let sent = Self::read(&s, n * elem);
        let st = dtype.with(|dp, dl| {
            op.with(|opp, ol| com.with(|cp, cl| rpncomm_allreduce(Self::ptr(&s), Self::ptr(&r), count, dp, dl, opp, ol, cp, cl)))
        });
        if expect(st, predicted, "allreduce") && !Self::aliased(&s) && !Self::aliased(&r) {
            assert_eq!(
                Self::read(&r, n * elem).unwrap_or_default(),
                sent.unwrap_or_default(),
                "allreduce on one PE returns the contribution"
            );
        }
        if Self::aliased(&r) {
            self.forget_aliased_contents();
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn allgather(&mut self, sendcount: Int, sendtype: &Name, recvcount: Int, recvtype: &Name, com: &Name, send: Buf, recv: Buf, fill: u8) {
        let (sc, rc) = (bounded(sendcount.get(), MAX_ELEMENTS), bounded(recvcount.get(), MAX_ELEMENTS));
        let st_ = sendtype.text().and_then(|t| ElementType::from_name(&t).ok());
        let rt_ = recvtype.text().and_then(|t| ElementType::from_name(&t).ok());
        let sbytes = sc.max(0) as usize * st_.map_or(8, |t| t.size());
        let rbytes = rc.max(0) as usize * rt_.map_or(8, |t| t.size());
        let (s, r) = (self.local(send, sbytes, 1, fill), self.local(recv, rbytes, 1, fill.wrapping_add(1)));
        let predicted = !self.finalized
            && self.comm_usable(com)
            && st_.is_some()
            && rt_.is_some()
            && sc >= 0
            && rc >= 0
            && sbytes == rbytes
            && (sbytes == 0 || (s.is_some() && r.is_some()));
        let sent = Self::read(&s, sbytes);
        let status = sendtype.with(|sp, sl| {
            recvtype.with(|rp, rl| com.with(|cp, cl| rpncomm_allgather(Self::ptr(&s), sc, sp, sl, Self::ptr(&r), rc, rp, rl, cp, cl)))
        });
        if expect(status, predicted, "allgather") && !Self::aliased(&s) && !Self::aliased(&r) {
            assert_eq!(
                Self::read(&r, rbytes).unwrap_or_default(),
                sent.unwrap_or_default(),
                "allgather on one PE returns the contribution"
            );
        }
        if Self::aliased(&r) {
            self.forget_aliased_contents();
        }
    }

    fn create(&mut self, dtype: HandleArg, siz: Int, com: HandleArg, array: ArrayArg, fill: u8) {
        let (d, c) = (self.handle(dtype, HandleKind::Datatype), self.handle(com, HandleKind::Communicator));
        let siz = bounded(siz.get(), MAX_ELEMENTS);
        let t = d.and_then(|d| d.decode(HandleKind::Datatype).ok()).and_then(ElementType::from_code);
        let com_ok = c.is_some_and(|c| {
            c.decode(HandleKind::Communicator).is_ok_and(|v| (1..=3).contains(&v) || (self.grid_set && (4..=8).contains(&v)))
        });
        let predicted = !self.finalized && t.is_some() && com_ok && siz >= 0;
        // The driver sizes the array by the datatype it names (the API contract); an
        // unusable datatype is refused before the array is looked at.
        let bytes = siz.max(0) as usize * t.map_or(8, |t| t.size());
        let user = self.array(array, bytes, fill);
        let mut h = Handle { p: 1, t1: 2, t2: 3 };
        let st = Self::with_handle(d, |dp| {
            Self::with_handle(c, |cp| rpncomm_win_create(&mut h, dp, siz, cp, user.map_or(std::ptr::null_mut(), |p| p as *mut c_void)))
        });
        if expect(st, predicted, "win_create") {
            assert!(!h.is_null() && self.live(Some(h)).is_none() && !self.freed.contains(&h), "a new handle: {h:?}");
            let shadow = match user {
                Some(_) => fill_bytes(fill, bytes),
                None => vec![0; bytes],
            };
            self.windows.push(WindowModel {
                handle: h,
                dtype: t.unwrap(),
                size: siz as usize,
                user,
                open: None,
                group: None,
                default_op: Operator::Sum,
                shadow: Some(shadow),
                secondary: None,
            });
        } else {
            assert!(h.is_null(), "a refused creation leaves the null handle");
        }
    }

    fn get_ptr(&mut self, win: HandleArg, np: i32, write: Option<u8>) {
        let h = self.handle(win, HandleKind::Window);
        let w = self.live(h);
        let predicted = w.is_some_and(|i| np == 1 || (np == 2 && self.windows[i].secondary.is_some()));
        // not null beforehand, to see that an error sets it to NULL
        let mut p: *mut c_void = std::ptr::dangling_mut::<c_void>();
        if !expect(Self::with_handle(h, |hp| rpncomm_win_get_ptr(hp, np, &mut p)), predicted, "get_ptr") {
            assert!(p.is_null(), "get_ptr leaves NULL on error");
            return;
        }
        assert!(!p.is_null());
        let w = &mut self.windows[w.unwrap()];
        if np == 1 {
            if let Some(user) = w.user {
                assert_eq!(p as *mut u8, user, "the window's memory is the caller's array");
            }
            let bytes = w.bytes();
            let mut now = vec![0u8; bytes];
            // SAFETY: the library says the window's elements are there (what is checked).
            unsafe { std::ptr::copy_nonoverlapping(p as *const u8, now.as_mut_ptr(), bytes) };
            if w.open.is_none() {
                if let Some(shadow) = &w.shadow {
                    assert!(now == *shadow, "window memory differs from what was put into it");
                }
                if let Some(seed) = write {
                    let data = fill_bytes(seed, bytes);
                    // SAFETY: as above; the window is closed, so local access is allowed.
                    unsafe { std::ptr::copy_nonoverlapping(data.as_ptr(), p as *mut u8, bytes) };
                    w.shadow = Some(data);
                }
            }
        } else {
            let s = w.secondary.as_mut().unwrap();
            let words = s.records * 5;
            let mut now = vec![0i32; words];
            // SAFETY: the library says this PE's records are there.
            unsafe { std::ptr::copy_nonoverlapping(p as *const i32, now.as_mut_ptr(), words) };
            if let Some(expected) = &s.words {
                assert_eq!(&now, expected, "secondary window differs from the records posted");
            }
            if let Some(seed) = write {
                let data: Vec<i32> = fill_bytes(seed, words).into_iter().map(|b| b as i8 as i32 % 4).collect();
                // SAFETY: as above.
                unsafe { std::ptr::copy_nonoverlapping(data.as_ptr(), p as *mut i32, words) };
                s.words = Some(data);
            }
        }
    }

    /// Whether a remote access with these arguments must be accepted on window `i` (one PE).
    fn remote_ok(&self, i: usize, target: i32, offset: i32, nelem: i32, null: bool) -> bool {
        let w = &self.windows[i];
        let Some(mode) = w.open else { return false };
        let in_bounds = offset >= 0 && nelem >= 0 && offset as i64 + nelem as i64 <= w.size as i64;
        let group_ok = match (mode, w.group) {
            (Mode::Group, Some((to, from))) => to && (nelem == 0 || from),
            _ => true,
        };
        target == 0 && in_bounds && (!null || nelem == 0) && group_ok
    }

    /// Put or get, remote (`target` given) or local.
    #[allow(clippy::too_many_arguments)]
    fn transfer(&mut self, win: HandleArg, buf: Buf, target: Option<i32>, offset: i32, nelem: i32, put: bool, fill: u8) {
        let h = self.handle(win, HandleKind::Window);
        let w = self.live(h);
        let elem = w.map_or(8, |i| self.windows[i].dtype.size());
        let n = nelem.clamp(0, MAX_ELEMENTS) as usize;
        let local = self.local(buf, n, elem, fill);
        let null = local.is_none();
        let predicted = w.is_some_and(|i| match target {
            Some(t) => self.remote_ok(i, t, offset, nelem, null),
            None => {
                let w = &self.windows[i];
                w.open.is_none() && offset >= 0 && nelem >= 0 && offset as i64 + nelem as i64 <= w.size as i64 && (!null || nelem == 0)
            }
        });
        let sent = if put { Self::read(&local, n * elem) } else { None };
        let lp = Self::ptr(&local);
        let st = Self::with_handle(h, |hp| match (target, put) {
            (Some(t), true) => rpncomm_win_put_r(hp, lp, t, offset, nelem),
            (Some(t), false) => rpncomm_win_get_r(hp, lp, t, offset, nelem),
            (None, true) => rpncomm_win_put_l(hp, lp, offset, nelem),
            (None, false) => rpncomm_win_get_l(hp, lp, offset, nelem),
        });
        let what = match (target, put) {
            (Some(_), true) => "put_r",
            (Some(_), false) => "get_r",
            (None, true) => "put_l",
            (None, false) => "get_l",
        };
        if !expect(st, predicted, what) {
            return;
        }
        let aliased = Self::aliased(&local);
        let range = offset as usize * elem..(offset as usize + n) * elem;
        let w = &mut self.windows[w.unwrap()];
        if put {
            match (&mut w.shadow, aliased) {
                (Some(shadow), false) => shadow[range].copy_from_slice(&sent.unwrap_or_default()),
                _ => w.shadow = None,
            }
        } else if aliased {
            self.forget_aliased_contents();
        } else if let Some(shadow) = &w.shadow {
            assert_eq!(Self::read(&local, n * elem).unwrap_or_default(), shadow[range].to_vec(), "{what} returns what the window holds");
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn accumulate(
        &mut self,
        win: HandleArg,
        buf: Buf,
        fetch: Option<Buf>,
        before: i32,
        target: i32,
        offset: i32,
        nelem: i32,
        oper: HandleArg,
        fill: u8,
    ) {
        let h = self.handle(win, HandleKind::Window);
        let w = self.live(h);
        let o = self.handle(oper, HandleKind::Operator);
        let dtype = w.map(|i| self.windows[i].dtype);
        let elem = dtype.map_or(8, |t| t.size());
        let n = nelem.clamp(0, MAX_ELEMENTS) as usize;
        let src = self.local(buf, n, elem, fill);
        let dst = fetch.and_then(|f| self.local(f, n, elem, fill.wrapping_add(7)));
        let op = match o {
            None => w.map(|i| self.windows[i].default_op),
            Some(o) if o.is_null() => w.map(|i| self.windows[i].default_op),
            Some(o) => o.decode(HandleKind::Operator).ok().and_then(Operator::from_code),
        };
        let predicted = w.is_some_and(|i| {
            op.zip(dtype).is_some_and(|(op, t)| op.check_type(t).is_ok()) && self.remote_ok(i, target, offset, nelem, src.is_none())
        });
        let operand = Self::read(&src, n * elem);
        let st = Self::with_handle(h, |hp| {
            Self::with_handle(o, |op| {
                rpncomm_win_getacc_r(hp, Self::ptr(&src) as *const c_void, Self::ptr(&dst), before, target, offset, nelem, op)
            })
        });
        if !expect(st, predicted, "getacc_r") {
            return;
        }
        let aliased = Self::aliased(&src) || Self::aliased(&dst);
        let fetched = Self::read(&dst, n * elem);
        let range = offset as usize * elem..(offset as usize + n) * elem;
        let w = &mut self.windows[w.unwrap()];
        match (&mut w.shadow, aliased) {
            (Some(shadow), false) => {
                let old = shadow[range.clone()].to_vec();
                op.unwrap().apply_bytes(dtype.unwrap(), &mut shadow[range.clone()], &operand.unwrap_or_default());
                if let Some(got) = fetched {
                    let expected = if before != 0 { old } else { shadow[range].to_vec() };
                    assert!(got == expected, "getacc_r fetched {got:?}, expected {expected:?}");
                }
            }
            _ => self.forget_aliased_contents(),
        }
    }

    fn list(l: &List) -> (Vec<i32>, i32, bool) {
        let values: Vec<i32> = l.values.iter().map(|v| v.get()).collect();
        let n = match l.negative_count.map(Int::get) {
            Some(c) if c < 0 => c,
            _ => values.len() as i32,
        };
        (values, n, l.null)
    }

    fn group(&mut self, win: HandleArg, to: &List, from: &List) {
        let h = self.handle(win, HandleKind::Window);
        let w = self.live(h);
        let ((tv, tn, tnull), (fv, fn_, fnull)) = (Self::list(to), Self::list(from));
        let readable = |v: &[i32], n: i32, null: bool| n >= 0 && (n == 0 || !null) && n as usize <= v.len();
        let args_ok = readable(&tv, tn, tnull) && readable(&fv, fn_, fnull);
        let (ts, fs) = (if tn > 0 { &tv[..tn as usize] } else { &[][..] }, if fn_ > 0 { &fv[..fn_ as usize] } else { &[][..] });
        let reset = ts == [-1] && fs == [-1];
        // one PE: a valid list holds 0 at most once
        let valid = |l: &[i32]| l.iter().all(|&p| p == 0) && l.len() <= 1;
        let predicted = w.is_some_and(|i| self.windows[i].open.is_none()) && args_ok && (reset || (valid(ts) && valid(fs)));
        let ptr = |v: &Vec<i32>, null: bool| if null { std::ptr::null() } else { v.as_ptr() };
        let st = Self::with_handle(h, |hp| rpncomm_win_group(hp, ptr(&tv, tnull), tn, ptr(&fv, fnull), fn_));
        if expect(st, predicted, "win_group") {
            self.windows[w.unwrap()].group = if reset { None } else { Some((ts == [0], fs == [0])) };
        }
    }

    fn post(&mut self, win: HandleArg, requests: &[[Int; 5]], negative_nreq: Option<Int>, null_arrays: bool) {
        let h = self.handle(win, HandleKind::Window);
        let w = self.live(h);
        let cols: Vec<Vec<i32>> = (0..5).map(|c| requests.iter().map(|r| r[c].get()).collect()).collect();
        let nreq = match negative_nreq.map(Int::get) {
            Some(n) if n < 0 => n,
            _ => requests.len() as i32,
        };
        let ptr = |c: usize| if null_arrays { std::ptr::null() } else { cols[c].as_ptr() };
        let st = Self::with_handle(h, |hp| rpncomm_win_post(hp, ptr(0), ptr(1), ptr(2), ptr(3), ptr(4), nreq));
        // Outcome predicted request by request, as the library runs them.
        let Some(i) = w else {
            expect(st, false, "post on a dead window");
            return;
        };
        let readable = nreq >= 0 && (nreq == 0 || !null_arrays);
        let wm = &mut self.windows[i];
        let (size, open) = (wm.size as i64, wm.open);
        let Some(sec) = wm.secondary.as_mut().filter(|_| readable) else {
            expect(st, false, "post without secondary window or readable arrays");
            return;
        };
        if let Some(first) = requests.first().filter(|r| r[1].get() == -1 && nreq > 0) {
            let ok = open.is_none_or(|m| m == Mode::Passive) && matches!(first[2].get(), -1 | -2);
            if expect(st, ok, "post (reinitialise)") {
                if let Some(words) = sec.words.as_mut() {
                    words[5..].iter_mut().for_each(|v| *v = 0);
                }
                if first[2].get() == -2 {
                    *sec = SecondaryModel::new(sec.records);
                }
            }
            return;
        }
        let fits = |o: i32, n: i32| o >= 0 && n >= 0 && o as i64 + n as i64 <= size;
        let all_valid =
            requests[..nreq as usize].iter().all(|r| r[0].get() == 0 && fits(r[1].get(), r[2].get()) && fits(r[3].get(), r[4].get()));
        if open != Some(Mode::Passive) || !all_valid {
            expect(st, false, "post (invalid)");
            return;
        }
        // each request takes a slot (the first time) and writes its record
        let mut ok = true;
        for r in &requests[..nreq as usize] {
            let Some(words) = sec.words.as_mut() else {
                status_ok(st, "post");
                sec.cached_slot = None;
                return;
            };
            let slot = match sec.cached_slot {
                Some(s) => s,
                None => {
                    let last = words[0];
                    if last < 1 || last as usize >= sec.records {
                        ok = false;
                        break;
                    }
                    words[0] = last + 1;
                    sec.cached_slot = Some(last as u32 + 1);
                    last as u32 + 1
                }
            } as usize;
            let record = [0, r[1].get(), r[2].get(), r[3].get(), r[4].get()];
            words[(slot - 1) * 5..slot * 5].copy_from_slice(&record);
        }
        expect(st, ok, "post");
    }

    /// Closes and frees every window left: on one PE both must succeed. With FUZZ_STATS set,
    /// prints the calls accepted in this input (to see which paths a corpus reaches).
    pub fn finish(mut self) {
        let accepted = ACCEPTED.with(|a| std::mem::take(&mut *a.borrow_mut()));
        if std::env::var_os("FUZZ_STATS").is_some() {
            eprintln!("accepted: {accepted:?}");
        }
        for w in std::mem::take(&mut self.windows) {
            if w.open.is_some() {
                assert_eq!(rpncomm_win_close(&w.handle), RPN_COMM_OK, "closing an open window at the end");
            }
            let mut h = w.handle;
            assert_eq!(rpncomm_win_free(&mut h), RPN_COMM_OK, "freeing a window at the end");
        }
    }
}
