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
use rpncomm_windows::internals::core::message_type::Kind;
use rpncomm_windows::internals::core::requests::LANE_CAPACITY;
use rpncomm_windows::internals::core::{ElementType, Handle, HandleKind, MessageType, Operator};

use crate::{MAX_ELEMENTS, MAX_SLOTS, bounded};

// The request-based and box routines, declared as a C program declares them: their Rust modules
// are private to the library, the symbols are the exported ones. The declarations match
// include/rpncomm_windows.h (tests/c_header.rs keeps the header equal to the library's ABI), and
// the functions take every argument value without undefined behaviour, hence `safe`.
unsafe extern "C" {
    safe fn rpncomm_win_rput_r(
        win: *const Handle,
        larray: *const c_void,
        target: c_int,
        offset: c_int,
        nelem: c_int,
        req: *mut Handle,
    ) -> c_int;
    safe fn rpncomm_win_rget_r(
        win: *const Handle,
        larray: *mut c_void,
        target: c_int,
        offset: c_int,
        nelem: c_int,
        req: *mut Handle,
    ) -> c_int;
    safe fn rpncomm_win_rgetacc_r(
        win: *const Handle,
        larray: *const c_void,
        garray: *mut c_void,
        before: c_int,
        target: c_int,
        offset: c_int,
        nelem: c_int,
        oper: *const Handle,
        req: *mut Handle,
    ) -> c_int;
    safe fn rpncomm_win_wait(req: *mut Handle) -> c_int;
    safe fn rpncomm_win_test(req: *mut Handle, flag: *mut c_int) -> c_int;
    safe fn rpncomm_win_flush(win: *const Handle, target: c_int) -> c_int;
    safe fn rpncomm_win_flush_all(win: *const Handle) -> c_int;
    safe fn rpncomm_win_put_r_box(
        win: *const Handle,
        larray: *const c_void,
        lshape: *const c_int,
        lstart: *const c_int,
        count: *const c_int,
        target: c_int,
        tshape: *const c_int,
        tstart: *const c_int,
    ) -> c_int;
    safe fn rpncomm_win_get_r_box(
        win: *const Handle,
        larray: *mut c_void,
        lshape: *const c_int,
        lstart: *const c_int,
        count: *const c_int,
        target: c_int,
        tshape: *const c_int,
        tstart: *const c_int,
    ) -> c_int;
    safe fn rpncomm_win_getacc_r_box(
        win: *const Handle,
        larray: *const c_void,
        garray: *mut c_void,
        before: c_int,
        lshape: *const c_int,
        lstart: *const c_int,
        count: *const c_int,
        target: c_int,
        tshape: *const c_int,
        tstart: *const c_int,
        oper: *const Handle,
    ) -> c_int;
}

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
    "MPI_LOGICAL",
    "MPI_CHARACTER",
    "MPI_INTEGER2",
    "MPI_DOUBLE_COMPLEX",
    "MPI_2INTEGER",
    "MPI_DATATYPE_NULL",
    "MPI_UB",
    "MPI_MAXLOC",
    "MPI_OP_NULL",
    "",
];

/// The datatype of a message a name designates (None where the collectives refuse it: no such
/// name, or MPI_DATATYPE_NULL, of no size).
fn message_type(name: &Name) -> Option<MessageType> {
    name.text().and_then(|t| MessageType::from_name(&t).ok()).filter(|t| t.kind() != Kind::Null)
}

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
    /// Compare-and-swap of one element (`compare`, `newval`, `oldval`: one element each).
    Cas {
        win: HandleArg,
        compare: Buf,
        newval: Buf,
        oldval: Buf,
        target: Int,
        offset: Int,
        fill: u8,
    },
    FetchOp {
        win: HandleArg,
        operand: Buf,
        oldval: Buf,
        target: Int,
        offset: Int,
        oper: HandleArg,
        fill: u8,
    },
    /// Request-based put (`put`), get, or accumulate (`acc`: `fetch`, `before`, `oper`); the
    /// request variable is a null pointer with `null_req` (the request cannot be waited for then).
    Request {
        win: HandleArg,
        buf: Buf,
        put: bool,
        acc: Option<(Option<Buf>, bool, HandleArg)>,
        target: Int,
        offset: Int,
        nelem: Int,
        fill: u8,
        null_req: bool,
        /// Then waits for it (false) or tests it (true), as its own call below.
        complete: Option<bool>,
    },
    Wait(ReqArg),
    Test(ReqArg),
    Flush {
        win: HandleArg,
        target: Option<Int>,
    },
    /// rpncomm_win_put_r_box, _get_r_box (`put`) or _getacc_r_box (`acc`).
    Box3 {
        win: HandleArg,
        buf: Buf,
        put: bool,
        acc: Option<(Option<Buf>, bool, HandleArg)>,
        geometry: BoxGeometry,
        target: Int,
        fill: u8,
    },
    XchHalo(HaloArgs),
    Limit {
        my_id: Int,
        npe: Int,
        gmin: Int,
        gmax: Int,
        null_outs: bool,
    },
    Bloc(Int, Int),
    CommMpi(Int),
    InitFirst,
    Bcast {
        count: Int,
        dtype: Name,
        root: Int,
        com: Name,
        buf: Buf,
        fill: u8,
    },
    /// rpncomm_flush_at_stop with a null routine only: a real one installs process-wide signal
    /// handlers, which would stand between libFuzzer and its crash reports.
    FlushAtStopNull,
}

/// A request variable passed to wait or test.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum ReqArg {
    /// The variable of a request of this input (live, completed or released).
    Mine(u8),
    /// The variable of the last request started.
    Last,
    NullPtr,
    Zero,
    Raw {
        p: u64,
        t1: i32,
        t2: i32,
    },
}

/// The geometry of a box operation: shapes of -1..=6 per dimension (the driver's array holds the
/// local shape's elements), starts and extents mostly small, any array pointer possibly null.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub struct BoxGeometry {
    lshape: [i8; 3],
    lstart: [Int; 3],
    count: [Int; 3],
    tshape: [Int; 3],
    tstart: [Int; 3],
    /// Bit i set: the i-th of lshape, lstart, count, tshape, tstart is a null pointer.
    nulls: u8,
}

/// The arguments of rpncomm_xch_halo, in small ranges (the array g(minx:maxx, miny:maxy, nk) of
/// n-word elements is allocated at its declared size).
#[derive(Arbitrary, Debug, Clone, Copy)]
pub struct HaloArgs {
    minx: i8,
    maxx: i8,
    miny: i8,
    maxy: i8,
    ni: i8,
    nj: i8,
    nk: i8,
    halox: i8,
    haloy: i8,
    periodx: bool,
    periody: bool,
    gni: i8,
    npol_row: i8,
    n: i8,
    null: bool,
    /// Which of the driver's halo arrays (see `halo_array`).
    array: u8,
    fill: u8,
}

/// Halo arrays and the bytes each holds: whole pages of their own.
const HALO_ARRAYS: usize = 3;
const HALO_ARRAY_BYTES: usize = 4 * 4096;

/// Halo array `which`, made once and never freed. The exchange keeps a window over the caller's
/// array between calls (a model exchanges the same arrays every time step), so an array it saw
/// stays allocated; and such a window copies the whole pages around the array (see
/// fuzz/README.md, defect 2), which are the array's own here.
fn halo_array(which: u8) -> *mut u8 {
    static ARRAYS: std::sync::OnceLock<Vec<usize>> = std::sync::OnceLock::new();
    let arrays = ARRAYS.get_or_init(|| {
        (0..HALO_ARRAYS)
            .map(|_| {
                let block = PageBlock::new(HALO_ARRAY_BYTES);
                let p = block.ptr as usize;
                std::mem::forget(block);
                p
            })
            .collect()
    });
    arrays[which as usize % HALO_ARRAYS] as *mut u8
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

/// What a request-based operation does when it runs.
#[derive(Debug, Clone, Copy)]
enum ReqOp {
    Put,
    Get,
    Acc { before: bool, op: Operator },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ReqState {
    /// Queued, not run yet (its window is open: a close runs every queued operation).
    Pending,
    /// Ran at a completion point: Some(its outcome), or None when not known.
    Done(Option<bool>),
    /// Released by a wait or test, or by the free of its window.
    Released,
}

/// A request-based operation of this input, and what its completion must do.
struct ReqModel {
    /// The caller's request variable as the library left it (None: started with a null pointer).
    var: Option<Handle>,
    window: Handle,
    state: ReqState,
    op: ReqOp,
    offset: usize,
    n: usize,
    /// A configuration call reached the window while it was queued: it may run or be refused
    /// (the library refuses an operation checked against an older configuration).
    uncertain: bool,
    /// Group mode without this PE in the target's pes_from: the transport refuses it when it runs.
    refused_at_run: bool,
    /// Put: the source; accumulate: the operand (kept alive until it ran).
    src: Option<Local>,
    /// Get: the destination; accumulate: the fetch buffer.
    dst: Option<Local>,
    /// What `dst` must hold once it ran, when known.
    expect_dst: Option<Vec<u8>>,
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
    /// The request-based operations of this input, in issue order.
    requests: Vec<ReqModel>,
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

/// A status the driver does not predict (the call's rules are not modelled: the box geometry,
/// the halo exchange): 0 or -1, counted when accepted; what an accepted call did is checked.
fn observed(status: c_int, what: &str) -> bool {
    let ok = status_ok(status, what);
    if ok {
        ACCEPTED.with(|a| *a.borrow_mut().entry(what.to_string()).or_default() += 1);
    }
    ok
}

/// `v` folded into `lo..=hi`.
fn small(v: i8, lo: i32, hi: i32) -> i32 {
    lo + (v as i32).rem_euclid(hi - lo + 1)
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
            requests: Vec::new(),
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
                // (kind_of never picks them: the driver makes no request-based call and no spread)
                HandleKind::Request | HandleKind::Context => Handle::NULL,
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
                // every other name of the original's table makes a handle too, of no window's type
                let message = name.text().is_some_and(|t| MessageType::from_name(&t).is_ok());
                if expect(name.with(|p, n| rpncomm_datyp(p, n, &mut h)), known.is_some() || message, "datyp") {
                    match known {
                        Some(t) => assert_eq!(h, Handle::encode(HandleKind::Datatype, t.code())),
                        None => assert!(h.decode(HandleKind::Datatype).is_ok_and(|c| ElementType::from_code(c).is_none())),
                    }
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
                let valid = h.is_some_and(|h| h.decode(HandleKind::Operator).is_ok_and(|c| Operator::from_code(c).is_some()));
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
                let accepted = w.is_some_and(|i| self.windows[i].open.is_none());
                // a window is freed with requests never waited for, but the call says so
                let unwaited = w.map_or(0, |i| self.outstanding(self.windows[i].handle));
                let st = match h.as_mut() {
                    Some(h) => rpncomm_win_free(h),
                    None => rpncomm_win_free(std::ptr::null_mut()),
                };
                expect(st, accepted && unwaited == 0, "free");
                if accepted {
                    assert_eq!(h.unwrap().is_null(), unwaited == 0, "a freed window variable becomes the null handle");
                    let gone = self.windows.remove(w.unwrap());
                    self.release_requests_of(gone.handle);
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
                self.reconfiguring(w);
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
                if predicted {
                    // the requests not completed yet run first, in issue order
                    self.run_queued(w.unwrap(), None);
                }
                if expect(Self::with_handle(h, |p| rpncomm_win_close(p)), predicted, "close") {
                    self.windows[w.unwrap()].open = None;
                }
                self.verify_done();
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
                self.accumulate(*win, *buf, *fetch, before.get(), target.get(), offset.get(), nelem.get(), *oper, *fill, false)
            }
            Call::Group { win, to, from } => self.group(*win, to, from),
            Call::WinOper { win, oper } => {
                let h = self.handle(*win, HandleKind::Window);
                let w = self.live(h);
                self.reconfiguring(w);
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
            Call::Cas { win, compare, newval, oldval, target, offset, fill } => {
                self.cas(*win, [*compare, *newval, *oldval], target.get(), offset.get(), *fill)
            }
            Call::FetchOp { win, operand, oldval, target, offset, oper, fill } => {
                self.accumulate(*win, *operand, Some(*oldval), 1, target.get(), offset.get(), 1, *oper, *fill, true)
            }
            Call::Request { win, buf, put, acc, target, offset, nelem, fill, null_req, complete } => {
                self.request(*win, *buf, *put, *acc, target.get(), offset.get(), nelem.get(), *fill, *null_req);
                if let Some(test) = complete {
                    self.wait(ReqArg::Last, *test);
                }
            }
            Call::Wait(r) => self.wait(*r, false),
            Call::Test(r) => self.wait(*r, true),
            Call::Flush { win, target } => self.flush(*win, target.map(Int::get)),
            Call::Box3 { win, buf, put, acc, geometry, target, fill } => self.box3(*win, *buf, *put, *acc, geometry, target.get(), *fill),
            Call::XchHalo(a) => self.halo(a),
            Call::Limit { my_id, npe, gmin, gmax, null_outs } => self.limit(my_id.get(), npe.get(), gmin.get(), gmax.get(), *null_outs),
            Call::Bloc(x, y) => {
                let predicted = up && self.grid_set && x.get() == 1 && y.get() == 1;
                expect(rpncomm_bloc(x.get(), y.get()), predicted, "bloc");
            }
            Call::CommMpi(mcom) => {
                let mut h = Handle::NULL;
                // no MPI communicator exists in the shared-memory build
                expect(rpncomm_comm_mpi(mcom.get(), &mut h), false, "comm_mpi");
                assert!(!h.is_null(), "a refused communicator is not the null handle");
            }
            Call::InitFirst => {
                let (mut x, mut y) = (-5, -5);
                if !expect(rpncomm_init_first(&mut x, &mut y), up && !self.grid_set, "init_first") && up {
                    assert_eq!((x, y), (1, 1), "a second init reports the grid kept");
                }
            }
            Call::Bcast { count, dtype, root, com, buf, fill } => {
                let count = bounded(count.get(), MAX_ELEMENTS);
                let t = message_type(dtype);
                let n = count.max(0) as usize;
                let elem = t.map_or(8, |t| t.size());
                let b = self.local(*buf, n, elem, *fill);
                let predicted = up && self.comm_usable(com) && t.is_some() && count >= 0 && root.get() == 0 && (n == 0 || b.is_some());
                let before = Self::read(&b, n * elem);
                let st = dtype.with(|dp, dl| com.with(|cp, cl| rpncomm_bcast(Self::ptr(&b), count, dp, dl, root.get(), cp, cl)));
                if expect(st, predicted, "bcast") && !Self::aliased(&b) {
                    assert!(Self::read(&b, n * elem) == before, "bcast on one PE leaves the root's buffer as it was");
                }
            }
            Call::FlushAtStopNull => {
                expect(rpncomm_flush_at_stop(std::ptr::null()), false, "flush_at_stop");
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn allreduce(&mut self, count: Int, dtype: &Name, op: &Name, com: &Name, send: Buf, recv: Buf, fill: u8) {
        let count = bounded(count.get(), MAX_ELEMENTS);
        let t = message_type(dtype);
        let o = op.text().and_then(|t| Operator::from_name(&t).ok());
        let n = count.max(0) as usize;
        let elem = t.map_or(8, |t| t.size());
        let (s, r) = (self.local(send, n, elem, fill), self.local(recv, n, elem, fill.wrapping_add(1)));
        let predicted = !self.finalized
            && self.comm_usable(com)
            && count >= 0
            && t.zip(o).is_some_and(|(t, o)| t.check_operator(o).is_ok())
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
        let st_ = message_type(sendtype);
        let rt_ = message_type(recvtype);
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
        fetchop: bool,
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
        // fetch-and-op: a one-element getacc_r whose two buffers must both be given
        let null = src.is_none() || (fetchop && dst.is_none());
        let predicted = w.is_some_and(|i| {
            op.zip(dtype).is_some_and(|(op, t)| op.check_type(t).is_ok()) && self.remote_ok(i, target, offset, nelem, null)
        });
        let operand = Self::read(&src, n * elem);
        let st = Self::with_handle(h, |hp| {
            Self::with_handle(o, |op| match fetchop {
                true => rpncomm_win_fetchop_r(hp, Self::ptr(&src) as *const c_void, Self::ptr(&dst), target, offset, op),
                false => rpncomm_win_getacc_r(hp, Self::ptr(&src) as *const c_void, Self::ptr(&dst), before, target, offset, nelem, op),
            })
        });
        let what = if fetchop { "fetchop_r" } else { "getacc_r" };
        if !expect(st, predicted, what) {
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
                    assert!(got == expected, "{what} fetched {got:?}, expected {expected:?}");
                }
            }
            _ => self.forget_aliased_contents(),
        }
    }

    /// A configuration call names window `w` (open, close, group, oper: they count as a new
    /// configuration even when refused): its queued requests may be refused when they run.
    fn reconfiguring(&mut self, w: Option<usize>) {
        let Some(handle) = w.map(|i| self.windows[i].handle) else { return };
        self.requests.iter_mut().filter(|r| r.window == handle && r.state == ReqState::Pending).for_each(|r| r.uncertain = true);
    }

    /// The requests of window `handle` not released yet (each holds a slot of the library).
    fn outstanding(&self, handle: Handle) -> usize {
        self.requests.iter().filter(|r| r.window == handle && r.state != ReqState::Released).count()
    }

    /// Window `handle` was freed: its requests are gone.
    fn release_requests_of(&mut self, handle: Handle) {
        for r in self.requests.iter_mut().filter(|r| r.window == handle) {
            r.state = ReqState::Released;
            (r.src, r.dst) = (None, None);
        }
    }

    /// Runs the queued requests of window `wi` (those to `target` only, when given) in issue
    /// order, as a completion point of the library does; what that point must report: Some(no
    /// failure), or None when unknown. `verify_done` checks the fetched data after the call.
    fn run_queued(&mut self, wi: usize, target: Option<usize>) -> Option<bool> {
        let w = &mut self.windows[wi];
        let elem = w.dtype.size();
        let mut outcome = Some(true);
        let mut forget_all = false;
        // one PE: every request targets PE 0
        for r in self.requests.iter_mut().filter(|r| r.window == w.handle && r.state == ReqState::Pending) {
            if target.is_some_and(|t| t != 0) {
                continue;
            }
            if r.uncertain {
                r.state = ReqState::Done(None);
                w.shadow = None;
                outcome = outcome.filter(|ok| !ok);
                continue;
            }
            if r.refused_at_run {
                r.state = ReqState::Done(Some(false));
                outcome = Some(false);
                continue;
            }
            r.state = ReqState::Done(Some(true));
            let range = r.offset * elem..(r.offset + r.n) * elem;
            let aliased = Self::aliased(&r.src) || Self::aliased(&r.dst);
            forget_all |= aliased && !matches!(r.op, ReqOp::Put);
            let Some(shadow) = w.shadow.as_mut().filter(|_| !aliased) else {
                w.shadow = None;
                continue;
            };
            match r.op {
                ReqOp::Put => shadow[range].copy_from_slice(&Self::read(&r.src, r.n * elem).unwrap_or_default()),
                ReqOp::Get => r.expect_dst = r.dst.as_ref().map(|_| shadow[range].to_vec()),
                ReqOp::Acc { before, op } => {
                    let old = shadow[range.clone()].to_vec();
                    op.apply_bytes(w.dtype, &mut shadow[range.clone()], &Self::read(&r.src, r.n * elem).unwrap_or_default());
                    r.expect_dst = r.dst.as_ref().map(|_| if before { old } else { shadow[range].to_vec() });
                }
            }
        }
        if forget_all {
            self.forget_aliased_contents();
        }
        outcome
    }

    /// After a completion point: what the requests that ran fetched is what the window held.
    fn verify_done(&mut self) {
        for r in self.requests.iter_mut() {
            if let Some(expected) = r.expect_dst.take() {
                let got = Self::read(&r.dst, expected.len()).unwrap_or_default();
                assert!(got == expected, "a request's {:?} fetched {got:?}, expected {expected:?}", r.op);
            }
        }
    }

    /// rpncomm_win_cas_r with buffers `bufs` (compare, newval, oldval).
    fn cas(&mut self, win: HandleArg, bufs: [Buf; 3], target: i32, offset: i32, fill: u8) {
        let h = self.handle(win, HandleKind::Window);
        let w = self.live(h);
        let elem = w.map_or(8, |i| self.windows[i].dtype.size());
        let [c, nv, ov] = [0u8, 1, 2].map(|k| self.local(bufs[k as usize], 1, elem, fill.wrapping_add(k)));
        let null = c.is_none() || nv.is_none() || ov.is_none();
        let predicted = w.is_some_and(|i| self.windows[i].dtype.is_integer() && self.remote_ok(i, target, offset, 1, null));
        let (compare, newval) = (Self::read(&c, elem), Self::read(&nv, elem));
        let st = Self::with_handle(h, |hp| {
            rpncomm_win_cas_r(hp, Self::ptr(&c) as *const c_void, Self::ptr(&nv) as *const c_void, Self::ptr(&ov), target, offset)
        });
        if !expect(st, predicted, "cas_r") {
            return;
        }
        let aliased = Self::aliased(&c) || Self::aliased(&nv) || Self::aliased(&ov);
        let old = Self::read(&ov, elem);
        let range = offset as usize * elem..(offset as usize + 1) * elem;
        let w = &mut self.windows[w.unwrap()];
        match (&mut w.shadow, aliased) {
            (Some(shadow), false) => {
                assert_eq!(old.as_deref(), Some(&shadow[range.clone()]), "cas_r returns the element's value from before");
                if compare.as_deref() == Some(&shadow[range.clone()]) {
                    shadow[range].copy_from_slice(&newval.unwrap());
                }
            }
            _ => self.forget_aliased_contents(),
        }
    }

    /// rpncomm_win_rput_r (`put`), _rget_r, or _rgetacc_r (`acc`): (fetch buffer, before, operator).
    #[allow(clippy::too_many_arguments)]
    fn request(
        &mut self,
        win: HandleArg,
        buf: Buf,
        put: bool,
        acc: Option<(Option<Buf>, bool, HandleArg)>,
        target: i32,
        offset: i32,
        nelem: i32,
        fill: u8,
        null_req: bool,
    ) {
        let h = self.handle(win, HandleKind::Window);
        let w = self.live(h);
        let dtype = w.map(|i| self.windows[i].dtype);
        let elem = dtype.map_or(8, |t| t.size());
        let n = nelem.clamp(0, MAX_ELEMENTS) as usize;
        let local = self.local(buf, n, elem, fill);
        let fetch = acc.and_then(|(f, _, _)| f).and_then(|f| self.local(f, n, elem, fill.wrapping_add(7)));
        let o = acc.and_then(|(_, _, oper)| self.handle(oper, HandleKind::Operator));
        let op = match (acc, o) {
            (None, _) => None,
            (Some(_), None) => w.map(|i| self.windows[i].default_op),
            (Some(_), Some(o)) if o.is_null() => w.map(|i| self.windows[i].default_op),
            (Some(_), Some(o)) => o.decode(HandleKind::Operator).ok().and_then(Operator::from_code),
        };
        let op_ok = acc.is_none() || op.zip(dtype).is_some_and(|(op, t)| op.check_type(t).is_ok());
        let outstanding = w.map_or(0, |i| self.outstanding(self.windows[i].handle));
        // issued as a blocking call is checked, but the target's pes_from (group mode) is the
        // transport's to check, when the operation runs
        let (mut refused_at_run, mut issued) = (false, false);
        if let Some(i) = w {
            let wm = &self.windows[i];
            let in_bounds = offset >= 0 && nelem >= 0 && offset as i64 + nelem as i64 <= wm.size as i64;
            issued = self.remote_ok(i, target, offset, 0, false) && in_bounds && (local.is_some() || nelem == 0);
            refused_at_run = wm.open == Some(Mode::Group) && wm.group.is_some_and(|(_, from)| !from) && nelem > 0;
        }
        let predicted = issued && op_ok && outstanding < LANE_CAPACITY;
        let initial = Handle { p: 7, t1: 7, t2: 7 };
        let mut req = initial;
        let rp: *mut Handle = if null_req { std::ptr::null_mut() } else { &mut req };
        let (lp, fp) = (Self::ptr(&local), Self::ptr(&fetch));
        let before = acc.is_some_and(|(_, b, _)| b);
        let st = Self::with_handle(h, |hp| match (acc, put) {
            (Some(_), _) => Self::with_handle(o, |op| rpncomm_win_rgetacc_r(hp, lp, fp, before as c_int, target, offset, nelem, op, rp)),
            (None, true) => rpncomm_win_rput_r(hp, lp, target, offset, nelem, rp),
            (None, false) => rpncomm_win_rget_r(hp, lp, target, offset, nelem, rp),
        });
        let what = match (acc, put) {
            (Some(_), _) => "rgetacc_r",
            (None, true) => "rput_r",
            (None, false) => "rget_r",
        };
        if !expect(st, predicted, what) {
            // (a refusal of the operator handle comes before the request is written)
            assert!(null_req || req.is_null() || req == initial, "{what}: a refused operation leaves the null request, not {req:?}");
            return;
        }
        if !null_req {
            assert!(!req.is_null() && req != initial, "{what}: no request returned");
            assert!(
                !self.requests.iter().any(|r| r.state != ReqState::Released && r.var == Some(req)),
                "{what}: a request handle given twice"
            );
        }
        let op = match acc {
            Some(_) => ReqOp::Acc { before, op: op.unwrap() },
            None if put => ReqOp::Put,
            None => ReqOp::Get,
        };
        let (src, dst) = match op {
            ReqOp::Put => (local, None),
            ReqOp::Get => (None, local),
            ReqOp::Acc { .. } => (local, fetch),
        };
        self.requests.push(ReqModel {
            var: (!null_req).then_some(req),
            window: h.unwrap(),
            state: ReqState::Pending,
            op,
            offset: offset as usize,
            n,
            uncertain: false,
            refused_at_run,
            src,
            dst,
            expect_dst: None,
        });
    }

    /// rpncomm_win_wait, or rpncomm_win_test (`test`: the same on one PE, where nothing waits
    /// for another PE), on the request variable `arg` designates.
    fn wait(&mut self, arg: ReqArg, test: bool) {
        let what = if test { "test" } else { "wait" };
        let (null_ptr, h) = match arg {
            ReqArg::Mine(i) if !self.requests.is_empty() => {
                let r = &self.requests[i as usize % self.requests.len()];
                (false, r.var.unwrap_or(Handle::NULL))
            }
            ReqArg::Last if !self.requests.is_empty() => (false, self.requests[self.requests.len() - 1].var.unwrap_or(Handle::NULL)),
            ReqArg::Mine(_) | ReqArg::Last | ReqArg::Zero => (false, Handle::NULL),
            ReqArg::NullPtr => (true, Handle::NULL),
            ReqArg::Raw { p, t1, t2 } => (false, Handle { p: p as usize, t1, t2 }),
        };
        let found = (!null_ptr && !h.is_null())
            .then(|| self.requests.iter().position(|r| r.state != ReqState::Released && r.var == Some(h)))
            .flatten();
        let predicted = match found {
            None => Some(false),
            Some(i) => {
                if self.requests[i].state == ReqState::Pending {
                    // runs the queue of its window (of this thread's lane: all of them here)
                    let window = self.requests[i].window;
                    let wi = self.windows.iter().position(|w| w.handle == window).expect("a queued request's window is open");
                    self.run_queued(wi, None);
                }
                match self.requests[i].state {
                    ReqState::Done(outcome) => outcome,
                    _ => unreachable!("ran above"),
                }
            }
        };
        let (mut var, mut flag) = (h, -5);
        let vp: *mut Handle = if null_ptr { std::ptr::null_mut() } else { &mut var };
        let st = if test { rpncomm_win_test(vp, &mut flag) } else { rpncomm_win_wait(vp) };
        match predicted {
            Some(p) => expect(st, p, what),
            None => observed(st, what),
        };
        self.verify_done();
        let Some(i) = found else {
            assert_eq!(var, h, "{what}: a refused request variable is left as it was");
            assert!(!test || flag == 0, "{what}: flag {flag} for a refused request");
            return;
        };
        // released whatever its outcome; the variable becomes the null handle unless the
        // outcome was a refusal of the operation (the library's "bad request")
        if st == RPN_COMM_OK {
            assert!(var.is_null(), "{what}: a completed request variable becomes the null handle");
        }
        assert!(!test || flag == var.is_null() as c_int, "{what}: flag {flag}, variable {var:?}");
        let r = &mut self.requests[i];
        r.var = Some(var);
        r.state = ReqState::Released;
        (r.src, r.dst) = (None, None);
    }

    /// rpncomm_win_flush (`target` given) or rpncomm_win_flush_all.
    fn flush(&mut self, win: HandleArg, target: Option<i32>) {
        let h = self.handle(win, HandleKind::Window);
        let w = self.live(h);
        let accepted = w.is_some_and(|i| self.windows[i].open == Some(Mode::Passive) && target.is_none_or(|t| t == 0));
        let predicted = if accepted { self.run_queued(w.unwrap(), target.map(|t| t as usize)) } else { Some(false) };
        let st = Self::with_handle(h, |hp| match target {
            Some(t) => rpncomm_win_flush(hp, t),
            None => rpncomm_win_flush_all(hp),
        });
        let what = if target.is_some() { "flush" } else { "flush_all" };
        match predicted {
            Some(p) => expect(st, p, what),
            None => observed(st, what),
        };
        self.verify_done();
    }

    /// A box operation: put (`put`), get, or getacc (`acc`); the outcome is not predicted, what an
    /// accepted one did is checked element by element.
    #[allow(clippy::too_many_arguments)]
    fn box3(
        &mut self,
        win: HandleArg,
        buf: Buf,
        put: bool,
        acc: Option<(Option<Buf>, bool, HandleArg)>,
        g: &BoxGeometry,
        target: i32,
        fill: u8,
    ) {
        let h = self.handle(win, HandleKind::Window);
        let w = self.live(h);
        let dtype = w.map(|i| self.windows[i].dtype);
        let elem = dtype.map_or(8, |t| t.size());
        let lshape = g.lshape.map(|v| small(v, -1, 6));
        let lcount = if lshape.iter().all(|&d| d >= 0) { lshape.iter().product::<i32>() as usize } else { 0 };
        let local = self.local(buf, lcount, elem, fill);
        let fetch = acc.and_then(|(f, _, _)| f).and_then(|f| self.local(f, lcount, elem, fill.wrapping_add(7)));
        let o = acc.and_then(|(_, _, oper)| self.handle(oper, HandleKind::Operator));
        let before = acc.is_some_and(|(_, b, _)| b);
        let geometry: [[c_int; 3]; 5] =
            [lshape, g.lstart.map(Int::get), g.count.map(Int::get), g.tshape.map(Int::get), g.tstart.map(Int::get)];
        let gp = |k: usize| if g.nulls & (1 << k) != 0 { std::ptr::null() } else { geometry[k].as_ptr() };
        let (local_before, fetch_before) = (Self::read(&local, lcount * elem), Self::read(&fetch, lcount * elem));
        let (lp, fp) = (Self::ptr(&local), Self::ptr(&fetch));
        let st = Self::with_handle(h, |hp| match (acc, put) {
            (Some(_), _) => Self::with_handle(o, |op| {
                rpncomm_win_getacc_r_box(hp, lp, fp, before as c_int, gp(0), gp(1), gp(2), target, gp(3), gp(4), op)
            }),
            (None, true) => rpncomm_win_put_r_box(hp, lp, gp(0), gp(1), gp(2), target, gp(3), gp(4)),
            (None, false) => rpncomm_win_get_r_box(hp, lp, gp(0), gp(1), gp(2), target, gp(3), gp(4)),
        });
        let what = match (acc, put) {
            (Some(_), _) => "getacc_r_box",
            (None, true) => "put_r_box",
            (None, false) => "get_r_box",
        };
        if !observed(st, what) {
            return;
        }
        let i = w.unwrap_or_else(|| panic!("{what} accepted on no live window"));
        assert!(
            self.windows[i].open.is_some() && target == 0 && g.nulls & 0x1f == 0,
            "{what} accepted: window closed, target {target} or a null array"
        );
        let [_, lstart, count, tshape, tstart] = geometry;
        assert!(count.iter().all(|&c| c >= 0) && tshape.iter().all(|&d| d >= 0), "{what} accepted a negative extent: {geometry:?}");
        // element (i, j, k) of the box: Fortran order in both arrays
        let index = |shape: [c_int; 3], start: [c_int; 3], at: [usize; 3]| -> usize {
            let p = |d: usize| start[d] as usize + at[d];
            p(0) + shape[0] as usize * (p(1) + shape[1] as usize * p(2))
        };
        let size = self.windows[i].size;
        let pairs: Vec<(usize, usize)> = (0..count[2] as usize)
            .flat_map(|k| (0..count[1] as usize).flat_map(move |j| (0..count[0] as usize).map(move |ii| [ii, j, k])))
            .map(|at| (index(lshape, lstart, at), index(tshape, tstart, at)))
            .collect();
        for &(l, r) in &pairs {
            assert!(l < lcount && r < size, "{what} accepted an element outside the arrays: local {l} of {lcount}, window {r} of {size}");
        }
        let aliased = Self::aliased(&local) || Self::aliased(&fetch);
        let op = match o {
            Some(o) if !o.is_null() => o.decode(HandleKind::Operator).ok().and_then(Operator::from_code),
            _ => Some(self.windows[i].default_op),
        };
        let (local_after, fetch_after) = (Self::read(&local, lcount * elem), Self::read(&fetch, lcount * elem));
        let w = &mut self.windows[i];
        let Some(shadow) = w.shadow.as_mut().filter(|_| !aliased) else {
            w.shadow = None;
            if aliased {
                self.forget_aliased_contents();
            }
            return;
        };
        let el = |v: &[u8], at: usize| v[at * elem..(at + 1) * elem].to_vec();
        let (mut expect_local, mut expect_fetch) = (local_before.clone(), fetch_before.clone());
        for &(l, r) in &pairs {
            let range = r * elem..(r + 1) * elem;
            match (acc, put) {
                (Some(_), _) => {
                    let old = shadow[range.clone()].to_vec();
                    let op = op.unwrap_or_else(|| panic!("{what} accepted an invalid operator"));
                    op.apply_bytes(w.dtype, &mut shadow[range.clone()], &el(local_before.as_deref().unwrap_or_default(), l));
                    if let Some(f) = expect_fetch.as_mut() {
                        let v = if before { old } else { shadow[range].to_vec() };
                        f[l * elem..(l + 1) * elem].copy_from_slice(&v);
                    }
                }
                (None, true) => shadow[range].copy_from_slice(&el(local_before.as_deref().unwrap_or_default(), l)),
                (None, false) => {
                    let v = shadow[range].to_vec();
                    if let Some(e) = expect_local.as_mut() {
                        e[l * elem..(l + 1) * elem].copy_from_slice(&v);
                    }
                }
            }
        }
        assert!(local_after == expect_local, "{what}: the local array is not what the box moved");
        assert!(fetch_after == expect_fetch, "{what}: the fetched values are not the window's");
    }

    /// rpncomm_xch_halo on one PE: the outcome is not predicted; an accepted exchange needs the
    /// grid, leaves the interior as it was, everything when neither direction is periodic, and
    /// with x periodic fills the x halo of rows 1..nj from the other side.
    fn halo(&mut self, a: &HaloArgs) {
        let (ni, nj, nk, n) = (small(a.ni, -1, 6), small(a.nj, -1, 6), small(a.nk, -1, 3), small(a.n, -1, 2));
        let (halox, haloy) = (small(a.halox, -1, 3), small(a.haloy, -1, 3));
        let (minx, maxx) = (1 - small(a.minx, -1, 3), ni + small(a.maxx, -1, 3));
        let (miny, maxy) = (1 - small(a.miny, -1, 3), nj + small(a.maxy, -1, 3));
        let (gni, npol_row) = (ni + small(a.gni, -1, 1), small(a.npol_row, -1, 1));
        let (nx, ny) = (maxx - minx + 1, maxy - miny + 1);
        let words = if nx > 0 && ny > 0 && nk > 0 && n > 0 { (nx * ny * nk * n) as usize } else { 0 };
        assert!(words * 4 <= HALO_ARRAY_BYTES);
        let g =
            (!a.null).then(|| Local { ptr: Self::filled(halo_array(a.array), words * 4, a.fill), aliased: false, _storage: Vec::new() });
        let before = Self::read(&g, words * 4);
        let st = halo::rpncomm_xch_halo(
            Self::ptr(&g),
            minx,
            maxx,
            miny,
            maxy,
            ni,
            nj,
            nk,
            halox,
            haloy,
            a.periodx as c_int,
            a.periody as c_int,
            gni,
            npol_row,
            n,
        );
        if !observed(st, "xch_halo") {
            return;
        }
        assert!(!self.finalized && self.grid_set, "xch_halo accepted without a PE grid");
        let (Some(before), Some(after)) = (before, Self::read(&g, words * 4)) else { return };
        if !a.periodx && !a.periody {
            assert!(after == before, "xch_halo on one PE, not periodic, changed the array");
            return;
        }
        let word = |v: &[u8], i: i32, j: i32, k: i32, w: i32| {
            let at = (((k * ny + (j - miny)) * nx + (i - minx)) * n + w) as usize * 4;
            v[at..at + 4].to_vec()
        };
        for k in 0..nk {
            for j in 1..=nj {
                for w in 0..n {
                    for i in 1..=ni {
                        assert_eq!(word(&after, i, j, k, w), word(&before, i, j, k, w), "xch_halo changed the interior at ({i}, {j}, {k})");
                    }
                    if a.periodx && halox <= ni {
                        for h in 1..=halox {
                            assert_eq!(
                                word(&after, 1 - h, j, k, w),
                                word(&before, ni + 1 - h, j, k, w),
                                "periodic x halo at ({}, {j})",
                                1 - h
                            );
                            assert_eq!(word(&after, ni + h, j, k, w), word(&before, h, j, k, w), "periodic x halo at ({}, {j})", ni + h);
                        }
                    }
                }
            }
        }
    }

    /// rpncomm_limit: predicted from its rule (tiles of ceiling(points / npe), the last one what
    /// is left, refused when empty or when a count or offset does not fit an i32).
    fn limit(&mut self, my_id: i32, npe: i32, gmin: i32, gmax: i32, null_outs: bool) {
        let npe = npe.clamp(-2, 64);
        let len = npe.max(0) as usize;
        let (mut count, mut offset) = (vec![-7; len], vec![-7; len]);
        let (mut lo, mut hi) = (-7, -7);
        let (cp, op) = match null_outs {
            true => (std::ptr::null_mut(), std::ptr::null_mut()),
            false => (count.as_mut_ptr(), offset.as_mut_ptr()),
        };
        let (total, npe64) = (gmax as i64 - gmin as i64 + 1, npe as i64);
        let tile = if npe > 0 { (total + npe64 - 1).div_euclid(npe64) } else { 0 };
        let last = total - (npe64 - 1) * tile;
        let fits = |v: i64| i32::try_from(v).is_ok();
        let predicted =
            npe >= 1 && my_id >= 0 && my_id < npe && total >= npe64 && last > 0 && fits(tile) && fits(last) && fits((npe64 - 1) * tile);
        if !expect(rpncomm_limit(my_id, npe, gmin, gmax, &mut lo, &mut hi, cp, op), predicted, "limit") {
            return;
        }
        let counts: Vec<i32> = (0..npe64).map(|p| if p + 1 < npe64 { tile } else { last } as i32).collect();
        let offsets: Vec<i32> = (0..npe64).map(|p| (p * tile) as i32).collect();
        if !null_outs {
            assert_eq!((&count, &offset), (&counts, &offsets), "limit({my_id}, {npe}, {gmin}, {gmax})");
        }
        let first = gmin + offsets[my_id as usize];
        assert_eq!((lo, hi), (first, gmax.min(first + counts[my_id as usize] - 1)), "limit({my_id}, {npe}, {gmin}, {gmax})");
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
        self.reconfiguring(w);
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
        for i in 0..self.windows.len() {
            if self.windows[i].open.is_some() {
                self.run_queued(i, None);
                assert_eq!(rpncomm_win_close(&self.windows[i].handle), RPN_COMM_OK, "closing an open window at the end");
                self.verify_done();
            }
        }
        // the requests not released yet ran at close (or earlier): waited for now
        for r in self.requests.iter_mut().filter(|r| r.state != ReqState::Released) {
            if let Some(mut var) = r.var.filter(|v| !v.is_null()) {
                let st = rpncomm_win_wait(&mut var);
                if r.state == ReqState::Done(Some(true)) {
                    assert_eq!(st, RPN_COMM_OK, "waiting at the end for a request that ran");
                }
                r.state = ReqState::Released;
            }
        }
        for w in std::mem::take(&mut self.windows) {
            // requests started without a variable cannot be waited for: the free says so
            let unwaited = self.outstanding(w.handle);
            let mut h = w.handle;
            let st = rpncomm_win_free(&mut h);
            assert_eq!(st == RPN_COMM_OK, unwaited == 0, "freeing a window at the end ({unwaited} requests never waited for)");
            let mut valid = -5;
            rpncomm_win_valid(&w.handle, &mut valid);
            assert_eq!(valid, 0, "a window freed at the end is gone");
        }
    }
}
