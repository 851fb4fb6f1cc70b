//! The text of `rpnrun --help`: every option, every environment variable the library reads,
//! and what the launcher does with the PEs' output and exit status.

use std::fmt::Write;

use super::options::{FLAGS, USAGE};

/// Environment variables read by the library (or set by rpnrun for it): name and meaning.
/// `tests/launcher_options.rs` checks that every `RPNCOMM_*` name in src/ is here.
pub const ENV_VARS: &[(&str, &str)] = &[
    ("RPNCOMM_QUIET", "1: no error line on stderr for a refused call (the status codes are unchanged)"),
    (
        "RPNCOMM_SPIN_US",
        "microseconds a waiting PE spins before it sleeps; default 250 when every PE has a CPU (its \
         affinity mask holds at least as many CPUs as the job has PEs, or rpnrun bound it), 0 when PEs \
         outnumber CPUs",
    ),
    ("RPNCOMM_CORE_EACH", "set by rpnrun to 1 when it bound every PE to CPUs of its own (the PEs then spin before they sleep)"),
    (
        "RPNCOMM_USER_ARRAYS",
        "staged: windows on the caller's array are copied in at open and out at close instead of being \
         shared in place; MPI transport: staged or direct (default direct: MPI_Win_create over the array)",
    ),
    (
        "RPNCOMM_NODE_SPLIT",
        "MPI transport, for testing: k cuts each node into pretend nodes of k consecutive ranks (windows \
         spanning them take the multi-node path); unset or 0: real nodes",
    ),
    (
        "RPNCOMM_NODE_DIRECT",
        "MPI transport: 0 makes windows spanning nodes use MPI for every access, and halo messages to \
         the PEs of the node too; unset or 1: loads and stores between the PEs of a node for the puts \
         and gets of fence and group epochs, shared-memory channels for their halo messages",
    ),
    (
        "RPNCOMM_HALO_GROUP_BYTES",
        "where every PE is on shared memory (one node), a blocking halo list whose faces come to more than \
         this many bytes (all sides together) is exchanged as one exchange per group of its fields of at \
         most that size, agreed as one (default 65536; 0: always one message per neighbour)",
    ),
    (
        "RPNCOMM_MPI_ACTIVE_RMA",
        "MPI transport: accumulate makes the puts and gets of fence and group epochs MPI_Accumulate \
         (MPI_REPLACE) and MPI_Get_accumulate (MPI_NO_OP), direct MPI_Put and MPI_Get; default \
         accumulate with MPICH's ch4:ucx device (it does not always complete puts and gets between \
         nodes at the closing fence), else direct",
    ),
    (
        "RPNCOMM_STATS",
        "1: PE 0 prints a table of the time inside each RPN_COMM routine (and its share of the run) and of \
         every window's calls, bytes, epochs and waits at RPN_COMM_finalize (as rpnrun --stats); json:FILE: writes it to FILE as JSON; set it for every PE",
    ),
    (
        "RPNCOMM_MPI_THREADS",
        "MPI transport: multiple, serialized or single, the thread level asked of MPI (default MULTIPLE \
         when OMP_NUM_THREADS > 1, else SERIALIZED in a program with OpenMP, where the library makes \
         its MPI calls one at a time, else SINGLE; below MULTIPLE the library serves calls from any thread, \
         one at a time)",
    ),
    ("RPNCOMM_HANG_REPORT", "seconds a PE waits for another before it says whom it waits for (default 30, 0: never)"),
    (
        "RPNCOMM_CHECK_COLLECTIVES",
        "each: every collective call is checked against the other PEs' before any data moves (one more \
         round and 256 bytes per PE and call: a debugging aid); unset or sync: the per-step collectives \
         cost the original's and are checked where the PEs meet; set it for every PE",
    ),
    ("RPNCOMM_SEGMENT", "set by rpnrun for each PE: the job's shared-memory segment (do not set by hand)"),
    ("RPNCOMM_RANK", "set by rpnrun for each PE: its rank, 0 to N-1, in the order of the application contexts"),
    ("RPNCOMM_NPES", "set by rpnrun for each PE: the number of PEs of the whole job"),
];

const NOTES: &str = "\
Application contexts: 'rpnrun -n 2 ./atm : -n 2 ./ocn' is one job of 4 PEs (ranks 0-1 run ./atm,
2-3 ./ocn) whose windows span both programs. Options before the first program are the job's; after
a ':' only -n and -x may be given.

Exit status: 0 when every PE exits with 0; otherwise the status of the first PE that failed (128+S
for a PE killed by signal S), which rpnrun names on stderr before it ends the other PEs; 124 after
--timeout; 128+S when rpnrun itself receives signal S; 2 for a bad command line; 1 when the job
cannot start.";

const WIDTH: usize = 100;
const INDENT: &str = "      ";

/// `text` as indented lines of at most WIDTH columns (a longer word stays whole).
fn wrapped(text: &str) -> String {
    let mut out = String::new();
    let mut line = String::from(INDENT);
    for word in text.split_whitespace() {
        if line.len() > INDENT.len() && line.len() + 1 + word.len() > WIDTH {
            out.push_str(&line);
            out.push('\n');
            line = String::from(INDENT);
        }
        if line.len() > INDENT.len() {
            line.push(' ');
        }
        line.push_str(word);
    }
    out.push_str(&line);
    out.push('\n');
    out
}

/// The help text.
pub fn text() -> String {
    let mut out = format!("{USAGE}\n\nRuns a job of PEs of the rpncomm-windows library on this node.\n\nOptions:\n");
    for flag in FLAGS {
        let names = flag.names.join(", ");
        let left = match flag.value {
            Some(v) => format!("{names} {v}"),
            None => names,
        };
        let _ = write!(out, "  {left}\n{}", wrapped(flag.help));
    }
    out.push_str("\nEnvironment variables read by the library (pass them with -x or set them before rpnrun):\n");
    for (name, meaning) in ENV_VARS {
        let _ = write!(out, "  {name}\n{}", wrapped(meaning));
    }
    let _ = write!(out, "\n{NOTES}\n");
    out
}
