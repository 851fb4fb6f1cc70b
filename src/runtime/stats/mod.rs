//! Statistics (`RPNCOMM_STATS`, `rpnrun --stats`): the time each PE spent inside each RPN_COMM
//! routine and what each window's calls did on every PE, gathered at RPN_COMM_finalize and printed
//! once by PE 0 as a table (`RPNCOMM_STATS=1`) or written as JSON (`RPNCOMM_STATS=json:FILE`).
//!
//! Off (the default), a window carries no counters and each call pays one test of an `Option`.
//! On, every window counts its calls per thread (`counters`); a window freed before finalize
//! leaves its numbers with the recorder. At finalize the PEs exchange their windows' numbers
//! (a collective over the job, as text lines) and PE 0 merges and reports them (`report`).
//!
//! - `routines`: the calls and time of each routine (timed by the C ABI);
//! - `counters`: the per-window, per-thread counters and the clock;
//! - `report`: the merge over PEs, the table and the JSON.

mod counters;
mod report;
mod routines;

use std::path::PathBuf;

pub(super) use self::counters::DataOp;
use self::counters::{KINDS, KindTotals, Timing, WindowCounters, clock};
pub use self::routines::{RoutineTimer, time_routine};
use super::Runtime;
use super::names::CommHandle;
use crate::core::{ElementType, Handle, Mode};
use crate::diagnostics;
use crate::error::{Error, Result};

/// Environment variable: `1` prints the table at finalize, `json:FILE` writes it as JSON.
pub const ENV_STATS: &str = "RPNCOMM_STATS";

#[derive(Debug, Clone, PartialEq, Eq)]
enum Output {
    Table,
    Json(PathBuf),
}

/// What `RPNCOMM_STATS` asks for (None: statistics off); a value it cannot read is reported.
fn output_from(value: Option<&str>) -> std::result::Result<Option<Output>, String> {
    match value.map(str::trim) {
        None | Some("") | Some("0") => Ok(None),
        Some("1") => Ok(Some(Output::Table)),
        Some(v) => match v.strip_prefix("json:") {
            Some(file) if !file.is_empty() => Ok(Some(Output::Json(PathBuf::from(file)))),
            _ => Err(format!("{ENV_STATS}={v}: expected 1 (table), json:FILE or 0; statistics off")),
        },
    }
}

/// `RPNCOMM_STATS` as this process read it, once (the routines' timing asks before the runtime
/// starts, the recorder when it starts: both see the same).
fn setting() -> &'static std::result::Result<Option<Output>, String> {
    static SETTING: std::sync::OnceLock<std::result::Result<Option<Output>, String>> = std::sync::OnceLock::new();
    SETTING.get_or_init(|| output_from(std::env::var(ENV_STATS).ok().as_deref()))
}

/// What a window is, as the statistics name it. A window is known across PEs by the PE of rank
/// 0 in its communicator (`root_pe`, a job rank) and that PE's count of windows created
/// (`root_seq`): every PE of the window has the same pair.
#[derive(Debug, Clone)]
pub(super) struct WindowInfo {
    pub root_pe: u32,
    pub root_seq: u32,
    pub comm_label: String,
    pub comm_rank: usize,
    pub comm_size: usize,
    pub dtype: ElementType,
    /// Elements of this PE, and the fewest and most of any PE.
    pub elements: [usize; 3],
}

/// The name of the communicator a handle designates ("GRID", "MPI communicator 2").
pub(super) fn comm_label(com: &Handle) -> String {
    match CommHandle::decode(com) {
        Ok(CommHandle::Named(name)) => format!("{name:?}").to_uppercase(),
        Ok(CommHandle::Transport(id)) => format!("MPI communicator {}", id.0),
        Err(_) => "?".into(),
    }
}

/// The statistics of one window on this PE.
pub(super) struct WindowStats {
    info: WindowInfo,
    counters: WindowCounters,
    created: u64,
}

impl WindowStats {
    /// Counts a put, get, getacc or post of `bytes`; the returned timing ends when dropped.
    #[inline]
    pub fn data(&self, op: DataOp, bytes: usize) -> Option<Timing<'_>> {
        self.counters.data(op, bytes as u64)
    }

    /// Counts an open (`close` false) or close in `mode`; the returned timing ends when dropped.
    pub fn sync(&self, mode: Mode, close: bool) -> Option<Timing<'_>> {
        self.counters.sync(mode, close)
    }

    fn finish(&self, job_rank: usize, freed: bool) -> Record {
        Record {
            info: self.info.clone(),
            job_rank,
            freed,
            totals: self.counters.totals(),
            wall_ticks: clock::ticks().wrapping_sub(self.created),
        }
    }
}

/// One window's numbers on one PE, in ticks.
struct Record {
    info: WindowInfo,
    job_rank: usize,
    freed: bool,
    totals: [KindTotals; KINDS],
    wall_ticks: u64,
}

/// This PE's statistics: the output asked for and the numbers of the windows already freed.
pub(super) struct Recorder {
    output: Output,
    start: clock::Reading,
    start_ticks: u64,
    created: u32,
    freed: Vec<Record>,
}

impl Recorder {
    /// The recorder `RPNCOMM_STATS` asks for (None: statistics off).
    pub fn from_env() -> Option<Self> {
        match setting() {
            Ok(output) => output.clone().map(|output| Recorder {
                output,
                start: clock::Reading::now(),
                start_ticks: clock::ticks(),
                created: 0,
                freed: Vec::new(),
            }),
            Err(message) => {
                diagnostics::write_line("RPN_COMM_init", message);
                None
            }
        }
    }

    /// The number of the window this PE creates next (1 for its first).
    pub fn next_seq(&mut self) -> u32 {
        self.created += 1;
        self.created
    }

    /// The statistics of a new window.
    pub fn window(&self, info: WindowInfo) -> Box<WindowStats> {
        Box::new(WindowStats { info, counters: WindowCounters::default(), created: clock::ticks() })
    }

    /// Keeps the numbers of a window being freed.
    pub fn freed(&mut self, w: &WindowStats, job_rank: usize) {
        self.freed.push(w.finish(job_rank, true));
    }
}

impl Runtime {
    /// At finalize, collective over the job: every PE says whether it records statistics; when
    /// all do, they exchange their windows' numbers and PE 0 prints or writes the report.
    pub(super) fn report_stats(&mut self) -> Result<()> {
        let job = self.transport.job().clone();
        let mut on = vec![0u8; job.size()];
        self.transport.allgather(&job, &[self.stats.is_some() as u8], &mut on)?;
        let Some(recorder) = self.stats.take() else { return Ok(()) };
        if on.contains(&0) {
            let (set, unset): (Vec<usize>, Vec<usize>) = (0..on.len()).partition(|&pe| on[pe] != 0);
            if set[0] == job.rank() {
                diagnostics::write_line(
                    "RPN_COMM_finalize",
                    &format!(
                        "{ENV_STATS} is set for {} but not for {}: no statistics (set it for every PE: rpnrun --stats, \
                         or mpirun -x {ENV_STATS})",
                        diagnostics::list_pes(&set),
                        diagnostics::list_pes(&unset)
                    ),
                );
            }
            return Ok(());
        }
        let end = clock::Reading::now();
        let now = clock::ticks();
        let seconds_per_tick = recorder.start.seconds_per_tick(&end);
        let rank = job.rank();
        let live = self.windows.sealed_windows().filter_map(|w| w.stats.as_deref()).map(|w| w.finish(rank, false));
        let records: Vec<Record> = recorder.freed.into_iter().chain(live).collect();
        let mut mine = report::encode(&records, seconds_per_tick);
        // This PE's wall time runs from the start of its first call (RPN_COMM_init's) to now.
        let (routines, first) = routines::totals();
        let wall_ticks = now.saturating_sub(first.unwrap_or(recorder.start_ticks));
        mine.push_str(&report::encode_routines(&routines, wall_ticks, seconds_per_tick));

        // Lines of different lengths: the lengths first, then every PE's text padded to the longest.
        let mut lengths = vec![0u8; 8 * job.size()];
        self.transport.allgather(&job, &(mine.len() as u64).to_le_bytes(), &mut lengths)?;
        let lengths: Vec<usize> = lengths.chunks_exact(8).map(|c| u64::from_le_bytes(c.try_into().unwrap()) as usize).collect();
        let longest = lengths.iter().copied().max().unwrap_or(0);
        let mut padded = mine.into_bytes();
        padded.resize(longest, b' ');
        let mut all = vec![0u8; longest * job.size()];
        self.transport.allgather(&job, &padded, &mut all)?;
        if rank != 0 {
            return Ok(());
        }
        let texts: Vec<&str> = all
            .chunks_exact(longest.max(1))
            .zip(&lengths)
            .map(|(chunk, &n)| std::str::from_utf8(&chunk[..n]).map_err(|_| Error::Internal("statistics text is not UTF-8".into())))
            .collect::<Result<_>>()?;
        let report = report::Report::merge(job.size(), &texts)?;
        match &recorder.output {
            Output::Table => {
                let text = report.table();
                let _ = std::io::Write::write_all(&mut std::io::stdout().lock(), text.as_bytes());
                Ok(())
            }
            Output::Json(path) => std::fs::write(path, report.json())
                .map_err(|e| Error::Limit(format!("{ENV_STATS}=json:{}: cannot write the statistics: {e}", path.display()))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_variable_reads_as_documented() {
        assert_eq!(output_from(None), Ok(None));
        assert_eq!(output_from(Some("0")), Ok(None));
        assert_eq!(output_from(Some(" 1 ")), Ok(Some(Output::Table)));
        assert_eq!(output_from(Some("json:/tmp/s.json")), Ok(Some(Output::Json("/tmp/s.json".into()))));
        assert!(output_from(Some("json:")).is_err());
        assert!(output_from(Some("yes")).unwrap_err().contains("RPNCOMM_STATS=yes"));
    }

    #[test]
    fn communicators_are_named_as_users_name_them() {
        assert_eq!(comm_label(&super::super::CommName::Grid.handle()), "GRID");
        assert_eq!(comm_label(&CommHandle::encode_transport(crate::core::CommId(2))), "MPI communicator 2");
    }
}
