//! The one error type of the library. The C ABI turns every variant into
//! `RPN_COMM_ERROR` plus a one-line message (see `diagnostics::report`).

use thiserror::Error;

/// Everything that can go wrong in a call, worded for the Fortran programmer who made it.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum Error {
    #[error("invalid {what} handle (never created, freed or corrupted)")]
    InvalidHandle { what: &'static str },
    #[error("window is exposed (open): {op} is not allowed until RPN_COMM_i_win_close")]
    Exposed { op: &'static str },
    #[error("window is not exposed: {op} needs RPN_COMM_i_win_open first")]
    NotExposed { op: &'static str },
    #[error("negative {what} ({value})")]
    Negative { what: &'static str, value: i64 },
    #[error("offset {offset} + nelem {nelem} exceeds the window size {size} on PE {pe}")]
    OutOfBounds { offset: i64, nelem: i64, size: usize, pe: usize },
    /// `comm` names a communicator other than the job (" 'EW'"), else is empty.
    #[error("PE {rank} is outside the communicator{comm} (ranks 0 to {last})", last = .npes.saturating_sub(1))]
    BadRank { rank: i64, npes: usize, comm: String },
    #[error("this PE is not a member of communicator '{0}'")]
    NotMember(&'static str),
    #[error("null {what} buffer with nelem = {nelem}")]
    NullBuffer { what: &'static str, nelem: i64 },
    #[error("bad group: {0}")]
    BadGroup(String),
    #[error("PE {target} is not in this PE's pes_to list (group mode)")]
    NotInPesTo { target: usize },
    #[error("PE {target} does not accept remote operations from this PE (not in its pes_from list)")]
    NotInPesFrom { target: usize },
    #[error("PE {target} exposed the window in {theirs} mode, this PE in {ours} mode")]
    ModeMismatch { target: usize, theirs: &'static str, ours: &'static str },
    #[error("window has no secondary window (call RPN_COMM_i_win_create_secondary first)")]
    NoSecondary,
    #[error("post needs the window open in passive mode")]
    PostNotPassive,
    #[error("secondary window of PE {target} is full ({capacity} records)")]
    SlotsExhausted { target: usize, capacity: usize },
    #[error("unknown {kind} name '{name}'")]
    UnknownName { kind: &'static str, name: String },
    #[error("operator {op} makes no sense for {dtype}")]
    OperatorType { op: &'static str, dtype: &'static str },
    #[error("compare-and-swap needs a window of 4- or 8-byte integers, this one holds {dtype}")]
    CasType { dtype: &'static str },
    #[error("bad argument: {0}")]
    BadArgument(String),
    /// A call made at the wrong point of the program (after finalize, before init, twice):
    /// nothing wrong with its arguments.
    #[error("{0}")]
    CallOrder(String),
    #[error("RPN_COMM_init was already called: the PE grid stays {pex} x {pey} (Userinit is not called again)")]
    AlreadyInitialized { pex: usize, pey: usize },
    /// An environment variable of the library set to a value it does not take (the message
    /// names the variable).
    #[error("{0}")]
    Setting(String),
    /// A limit of the library or the system was reached (no argument is at fault).
    #[error("{0}")]
    Limit(String),
    #[error("collective call inconsistent across PEs: {0}")]
    Collective(String),
    #[error("PE {pe} {how}")]
    PeerGone { pe: usize, how: &'static str },
    /// A PE this one waits for in an exchange round is in a collective made by MPI's own call
    /// instead (`call`: its `CallEntry`'s bytes); the runtime names both calls.
    #[error("collective call inconsistent across PEs: PE {pe} is in another collective call, made by MPI")]
    PeerInOwnCall { pe: usize, call: [u8; 20] },
    #[error("shared memory: {0}")]
    SharedMemory(String),
    #[error("MPI: {0}")]
    Mpi(String),
    #[error("not supported by this transport: {0}")]
    Unsupported(&'static str),
    #[error(
        "another thread of this PE is in a configuration call on this window (open, close, free, group, oper, create_secondary): \
         operations may not overlap those calls (docs/windows.md, \"Threads\")"
    )]
    WindowBusy,
    #[error("internal error: {0}")]
    Internal(String),
    /// A request handle of the request-based operations that designates no request.
    #[error("{0}")]
    BadRequest(String),
    /// RPN_COMM_i_win_free found requests of this PE never waited for (they were completed and freed).
    #[error("{count} request(s) of this PE on the window were never waited for (RPN_COMM_i_win_wait/test): completed and freed now")]
    RequestsNotWaited { count: usize },
    /// A flush outside a passive epoch.
    #[error(
        "the window is not open in passive mode: a flush completes the request-based operations of a passive epoch (RPN_COMM_i_win_open with active = .false.)"
    )]
    FlushNotPassive,
}

pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    /// An operating-system error from `context`, keeping the OS text (ENOSPC, EACCES ...).
    pub fn os(context: &str, err: std::io::Error) -> Self {
        Error::SharedMemory(format!("{context}: {err}"))
    }
}
