//! The statistics report: every PE's routines and windows as text lines (what the PEs exchange
//! at finalize), merged by routine and by window on PE 0 into the table and the JSON.

use std::fmt::Write;

use super::Record;
use super::counters::{DATA_KINDS, KINDS, MODES, clock, sync_kind};
use super::routines::RoutineTotals;
use crate::core::ElementType;
use crate::error::{Error, Result};

/// One line per window: numbers separated by blanks, then `|` and the communicator's name.
pub(super) fn encode(records: &[Record], seconds_per_tick: f64) -> String {
    let mut out = String::new();
    for r in records {
        let i = &r.info;
        let _ = write!(
            out,
            "{} {} {} {} {} {} {} {} {} {} {}",
            i.root_pe,
            i.root_seq,
            r.job_rank,
            i.comm_rank,
            i.comm_size,
            i.dtype.code(),
            i.elements[0],
            i.elements[1],
            i.elements[2],
            r.freed as u8,
            r.wall_ticks as f64 * seconds_per_tick
        );
        for t in &r.totals {
            let _ = write!(out, " {} {} {}", t.count, t.bytes, t.ticks * seconds_per_tick);
        }
        let _ = writeln!(out, " |{}", i.comm_label.replace('\n', " "));
    }
    out
}

/// The routine whose time the table also shows apart: it includes the start of the library
/// (of MPI too, in the MPI build, unless the program started it), long against short runs.
const INIT: &str = "RPN_COMM_init";

/// One line per routine (`routine CALLS SECONDS |NAME`), then `wall SECONDS`: this PE's time
/// from its first call to the report.
pub(super) fn encode_routines(routines: &[RoutineTotals], wall_ticks: u64, seconds_per_tick: f64) -> String {
    let mut out = String::new();
    for r in routines {
        let _ = writeln!(out, "routine {} {} |{}", r.calls, r.ticks as f64 * seconds_per_tick, r.name);
    }
    let _ = writeln!(out, "wall {}", wall_ticks as f64 * seconds_per_tick);
    out
}

/// One routine over all PEs (index: job rank; 0 on a PE that never called it).
#[derive(Debug, Clone)]
struct RoutineReport {
    name: String,
    calls: Vec<u64>,
    seconds: Vec<f64>,
}

impl RoutineReport {
    fn total_s(&self) -> f64 {
        self.seconds.iter().sum()
    }
    fn total_calls(&self) -> u64 {
        self.calls.iter().sum()
    }
    /// Mean microseconds per call over all PEs (None: no call, only time of later steps).
    fn us_per_call(&self) -> Option<f64> {
        let n = self.total_calls();
        (n > 0).then(|| self.total_s() / n as f64 * 1e6)
    }
}

/// (min, mean, max) of `v` (zeros when empty).
fn min_mean_max(v: &[f64]) -> (f64, f64, f64) {
    if v.is_empty() {
        return (0.0, 0.0, 0.0);
    }
    let lo = v.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    (lo, v.iter().sum::<f64>() / v.len() as f64, hi)
}

/// One window on one PE.
#[derive(Debug, Clone)]
struct PeNumbers {
    job_rank: usize,
    comm_rank: usize,
    elements: usize,
    wall_s: f64,
    count: [u64; KINDS],
    bytes: [u64; KINDS],
    seconds: [f64; KINDS],
}

impl PeNumbers {
    fn sync_s(&self) -> f64 {
        self.seconds[DATA_KINDS.len()..].iter().sum()
    }
    fn data_s(&self) -> f64 {
        self.seconds[..DATA_KINDS.len()].iter().sum()
    }
    fn wall_s(&self) -> f64 {
        self.wall_s
    }
}

/// The times reported per window: table row, JSON key, value on one PE.
type PeTime = fn(&PeNumbers) -> f64;
const TIMES: [(&str, &str, PeTime); 3] = [
    ("sync wait", "sync_s", PeNumbers::sync_s),
    ("moving data", "data_s", PeNumbers::data_s),
    ("window lifetime", "wall_s", PeNumbers::wall_s),
];

/// One window over all its PEs.
#[derive(Debug, Clone)]
struct WindowReport {
    root_pe: usize,
    root_seq: usize,
    comm_label: String,
    comm_size: usize,
    dtype: ElementType,
    min_elements: usize,
    max_elements: usize,
    freed: bool,
    /// In rank order of the window's communicator.
    pes: Vec<PeNumbers>,
}

/// Every routine and window of the job.
pub(super) struct Report {
    npes: usize,
    windows: Vec<WindowReport>,
    /// By total time over the PEs, the longest first.
    routines: Vec<RoutineReport>,
    /// Each PE's wall time from its first call to the report (index: job rank).
    walls: Vec<f64>,
}

fn parse_line(line: &str) -> Option<(WindowReport, PeNumbers)> {
    let (numbers, label) = line.split_once(" |")?;
    let f: Vec<&str> = numbers.split_whitespace().collect();
    if f.len() != 11 + 3 * KINDS {
        return None;
    }
    let u = |i: usize| f[i].parse::<usize>().ok();
    let mut pe = PeNumbers {
        job_rank: u(2)?,
        comm_rank: u(3)?,
        elements: u(6)?,
        wall_s: f[10].parse().ok()?,
        count: [0; KINDS],
        bytes: [0; KINDS],
        seconds: [0.0; KINDS],
    };
    for k in 0..KINDS {
        pe.count[k] = f[11 + 3 * k].parse().ok()?;
        pe.bytes[k] = f[12 + 3 * k].parse().ok()?;
        pe.seconds[k] = f[13 + 3 * k].parse().ok()?;
    }
    let window = WindowReport {
        root_pe: u(0)?,
        root_seq: u(1)?,
        comm_label: label.to_string(),
        comm_size: u(4)?,
        dtype: ElementType::from_code(f[5].parse().ok()?)?,
        min_elements: u(7)?,
        max_elements: u(8)?,
        freed: u(9)? != 0,
        pes: Vec::new(),
    };
    Some((window, pe))
}

/// The values of `v` sorted: (min, median, max); the median of an even count is the lower one,
/// a value some PE has.
fn spread<T: Copy + PartialOrd>(v: &[T]) -> (T, T, T) {
    let mut s = v.to_vec();
    s.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
    (s[0], s[(s.len() - 1) / 2], s[s.len() - 1])
}

/// "1 PE", "2 PEs": a number and its noun, singular for one.
fn count(n: usize, noun: &str) -> String {
    if n == 1 { format!("1 {noun}") } else { format!("{n} {noun}s") }
}

fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// The names of the counted kinds: the operations, then "open fence" ... "close passive".
fn kind_names() -> Vec<String> {
    let mut names: Vec<String> = DATA_KINDS.iter().map(|s| s.to_string()).collect();
    for close in [false, true] {
        for m in MODES {
            debug_assert_eq!(sync_kind(m, close), names.len());
            names.push(format!("{} {}", if close { "close" } else { "open" }, mode_word(m)));
        }
    }
    names
}

fn mode_word(m: crate::core::Mode) -> &'static str {
    match m {
        crate::core::Mode::Fence => "fence",
        crate::core::Mode::Group => "group",
        crate::core::Mode::Passive => "passive",
    }
}

fn json_number(x: f64) -> String {
    if x.is_finite() { format!("{x:e}") } else { "null".into() }
}

fn json_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

impl Report {
    /// Merges the PEs' texts (`texts[p]`: PE p's lines) by window.
    pub fn merge(npes: usize, texts: &[&str]) -> Result<Report> {
        let mut windows: Vec<WindowReport> = Vec::new();
        let mut routines: Vec<RoutineReport> = Vec::new();
        let mut walls = vec![0.0; npes];
        for (pe, text) in texts.iter().enumerate() {
            let unreadable = |line: &str| Error::Internal(format!("statistics of PE {pe}: unreadable line '{line}'"));
            for line in text.lines().filter(|l| !l.trim().is_empty()) {
                if let Some(rest) = line.strip_prefix("routine ") {
                    let (numbers, name) = rest.split_once(" |").ok_or_else(|| unreadable(line))?;
                    let (calls, seconds) = numbers.split_once(' ').ok_or_else(|| unreadable(line))?;
                    let calls: u64 = calls.parse().map_err(|_| unreadable(line))?;
                    let seconds: f64 = seconds.parse().map_err(|_| unreadable(line))?;
                    let r = match routines.iter().position(|r| r.name == name) {
                        Some(i) => &mut routines[i],
                        None => {
                            routines.push(RoutineReport { name: name.to_string(), calls: vec![0; npes], seconds: vec![0.0; npes] });
                            routines.last_mut().expect("just pushed")
                        }
                    };
                    let (c, s) = (r.calls.get_mut(pe).ok_or_else(|| unreadable(line))?, &mut r.seconds[pe]);
                    *c += calls;
                    *s += seconds;
                    continue;
                }
                if let Some(rest) = line.strip_prefix("wall ") {
                    *walls.get_mut(pe).ok_or_else(|| unreadable(line))? = rest.trim().parse().map_err(|_| unreadable(line))?;
                    continue;
                }
                let (w, numbers) =
                    parse_line(line).ok_or_else(|| Error::Internal(format!("statistics of PE {pe}: unreadable line '{line}'")))?;
                match windows.iter_mut().find(|x| (x.root_pe, x.root_seq) == (w.root_pe, w.root_seq)) {
                    Some(x) => x.pes.push(numbers),
                    None => windows.push(WindowReport { pes: vec![numbers], ..w }),
                }
            }
        }
        for w in &mut windows {
            w.pes.sort_by_key(|p| p.comm_rank);
        }
        windows.sort_by_key(|w| (w.root_seq, w.root_pe));
        routines.sort_by(|a, b| b.total_s().total_cmp(&a.total_s()).then_with(|| a.name.cmp(&b.name)));
        Ok(Report { npes, windows, routines, walls })
    }

    /// Each PE's time inside the routines (all of them, or all but RPN_COMM_init).
    fn inside(&self, with_init: bool) -> Vec<f64> {
        (0..self.npes).map(|pe| self.routines.iter().filter(|r| with_init || r.name != INIT).map(|r| r.seconds[pe]).sum()).collect()
    }

    /// Each PE's share of its wall time spent inside the routines, in percent.
    fn percent(&self, with_init: bool) -> Vec<f64> {
        self.inside(with_init).iter().zip(&self.walls).map(|(i, w)| if *w > 0.0 { 100.0 * i / w } else { 0.0 }).collect()
    }

    /// The routines part of the table.
    fn routines_table(&self, t: &mut String) {
        let _ = writeln!(t, "\nroutines: seconds inside each, per PE (the calls the program made; RPN_COMM_finalize is not timed)");
        if self.routines.is_empty() {
            let _ = writeln!(t, "  no routine was timed");
            return;
        }
        let summary = ["all routines", "wall since RPN_COMM_init", "inside routines (% of wall)", "without RPN_COMM_init (%)"];
        let width = self.routines.iter().map(|r| r.name.len()).chain(summary.iter().map(|s| s.len())).max().unwrap_or(0) + 2;
        let _ = writeln!(
            t,
            "  {:<width$} {:>11} {:>13}{:>12}{:>12}{:>12}{:>11}",
            "routine", "calls", "per PE", "min (s)", "mean (s)", "max (s)", "us/call"
        );
        // (a space before the counts: a range of calls per PE, "20823-22387", never runs into the total)
        let per_pe = |calls: &[u64]| {
            let lo = calls.iter().min().copied().unwrap_or(0);
            let hi = calls.iter().max().copied().unwrap_or(0);
            if lo == hi { lo.to_string() } else { format!("{lo}-{hi}") }
        };
        let row = |t: &mut String, name: &str, calls: &[u64], seconds: &[f64], us: Option<f64>| {
            let (lo, mean, hi) = min_mean_max(seconds);
            let us = us.map_or("-".to_string(), |u| format!("{u:.1}"));
            let total: u64 = calls.iter().sum();
            let _ = writeln!(t, "  {name:<width$} {total:>11} {:>13}{lo:>12.6}{mean:>12.6}{hi:>12.6}{us:>11}", per_pe(calls));
        };
        for r in &self.routines {
            row(t, &r.name, &r.calls, &r.seconds, r.us_per_call());
        }
        let calls: Vec<u64> = (0..self.npes).map(|pe| self.routines.iter().map(|r| r.calls[pe]).sum()).collect();
        let inside = self.inside(true);
        let n: u64 = calls.iter().sum();
        row(t, summary[0], &calls, &inside, (n > 0).then(|| inside.iter().sum::<f64>() / n as f64 * 1e6));
        let (lo, mean, hi) = min_mean_max(&self.walls);
        let _ = writeln!(t, "  {:<width$}{:>26}{lo:>12.6}{mean:>12.6}{hi:>12.6}", summary[1], "");
        for (label, with_init) in [(summary[2], true), (summary[3], false)] {
            if !with_init && !self.routines.iter().any(|r| r.name == INIT) {
                continue;
            }
            let (lo, mean, hi) = min_mean_max(&self.percent(with_init));
            let _ = writeln!(t, "  {label:<width$}{:>26}{lo:>12.1}{mean:>12.1}{hi:>12.1}", "");
        }
    }

    /// The routines part of the JSON (keys "routines" and "time_inside_routines").
    fn routines_json(&self, j: &mut String) {
        let mmm = |v: &[f64]| {
            let (lo, mean, hi) = min_mean_max(v);
            format!("{{\"min\": {}, \"mean\": {}, \"max\": {}}}", json_number(lo), json_number(mean), json_number(hi))
        };
        let inside = self.inside(true);
        let (percent, percent_no_init) = (self.percent(true), self.percent(false));
        let _ = write!(
            j,
            ",\n  \"time_inside_routines\": {{\"wall_s\": {}, \"inside_s\": {}, \"percent\": {}, \"percent_without_init\": {}, \"per_pe\": [",
            mmm(&self.walls),
            mmm(&inside),
            mmm(&percent),
            mmm(&percent_no_init)
        );
        for pe in 0..self.npes {
            let _ = write!(
                j,
                "{}\n    {{\"pe\": {pe}, \"wall_s\": {}, \"inside_s\": {}, \"percent\": {}}}",
                if pe > 0 { "," } else { "" },
                json_number(self.walls[pe]),
                json_number(inside[pe]),
                json_number(percent[pe])
            );
        }
        let _ = write!(j, "\n  ]}},\n  \"routines\": [");
        for (n, r) in self.routines.iter().enumerate() {
            let (lo, mean, hi) = min_mean_max(&r.seconds);
            let calls = |pe: usize| r.calls[pe];
            let _ = write!(
                j,
                "{}\n    {{\"routine\": {}, \"calls\": {}, \"min_calls\": {}, \"max_calls\": {}, \"min_s\": {}, \"mean_s\": {}, \
                 \"max_s\": {}, \"us_per_call\": {}, \"per_pe\": [{}]}}",
                if n > 0 { "," } else { "" },
                json_string(&r.name),
                r.total_calls(),
                (0..self.npes).map(calls).min().unwrap_or(0),
                (0..self.npes).map(calls).max().unwrap_or(0),
                json_number(lo),
                json_number(mean),
                json_number(hi),
                r.us_per_call().map_or("null".into(), json_number),
                (0..self.npes)
                    .map(|pe| format!("{{\"calls\": {}, \"seconds\": {}}}", r.calls[pe], json_number(r.seconds[pe])))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
        let _ = write!(j, "\n  ]");
    }

    /// The table `RPNCOMM_STATS=1` prints.
    pub fn table(&self) -> String {
        let names = kind_names();
        let mut t = String::new();
        let windows = if self.windows.is_empty() { "no window".to_string() } else { count(self.windows.len(), "window") };
        let _ = writeln!(t, "RPN_COMM statistics ({}): {}, {windows}, clock {}", super::ENV_STATS, count(self.npes, "PE"), clock::name());
        self.routines_table(&mut t);
        if self.windows.is_empty() {
            let _ = writeln!(t, "\nwindows: none was created");
        } else {
            let _ = writeln!(
                t,
                "\nwindows (total: summed over a window's PEs; min, median, max: of one PE; an epoch is an open and its close)"
            );
        }
        for (n, w) in self.windows.iter().enumerate() {
            let elements = if w.min_elements == w.max_elements {
                format!("{} per PE", count(w.min_elements, "element"))
            } else {
                format!("{} to {} elements per PE", w.min_elements, w.max_elements)
            };
            let _ = writeln!(
                t,
                "\nwindow {} (PE {}'s {} window): {}, {}, {}, {}{}",
                n + 1,
                w.root_pe,
                ordinal(w.root_seq),
                w.comm_label,
                count(w.comm_size, "PE"),
                w.dtype.name(),
                elements,
                if w.freed { ", freed before finalize" } else { "" }
            );
            if w.pes.len() != w.comm_size {
                let _ = writeln!(t, "  (numbers from {} of its {} PEs)", w.pes.len(), w.comm_size);
            }
            let _ = writeln!(t, "  {:<16}{:>12}{:>10}{:>10}{:>10}{:>14}", "calls", "total", "min", "median", "max", "bytes");
            for (k, name) in names.iter().enumerate() {
                let counts: Vec<u64> = w.pes.iter().map(|p| p.count[k]).collect();
                let total: u64 = counts.iter().sum();
                if total == 0 {
                    continue;
                }
                let (lo, med, hi) = spread(&counts);
                let bytes: u64 = w.pes.iter().map(|p| p.bytes[k]).sum();
                let bytes = if k < DATA_KINDS.len() { bytes.to_string() } else { String::new() };
                let row = format!("  {name:<16}{total:>12}{lo:>10}{med:>10}{hi:>10}{bytes:>14}");
                let _ = writeln!(t, "{}", row.trim_end());
            }
            let _ = writeln!(t, "  {:<16}{:>12}{:>10}{:>10}{:>10}", "time (ms)", "total", "min", "median", "max");
            for (i, (name, _, f)) in TIMES.iter().enumerate() {
                let v: Vec<f64> = w.pes.iter().map(f).collect();
                let (lo, med, hi) = spread(&v);
                let total: f64 = v.iter().sum();
                let most = if i == 0 {
                    let pe = w.pes.iter().zip(&v).max_by(|a, b| a.1.total_cmp(b.1)).map_or(0, |(p, _)| p.job_rank);
                    format!("   PE {pe} waited most")
                } else {
                    String::new()
                };
                let ms = |x: f64| format!("{:.3}", x * 1e3);
                let _ = writeln!(t, "  {name:<16}{:>12}{:>10}{:>10}{:>10}{most}", ms(total), ms(lo), ms(med), ms(hi));
            }
        }
        t
    }

    /// The same as JSON (`RPNCOMM_STATS=json:FILE`).
    pub fn json(&self) -> String {
        let names = kind_names();
        let mut j = String::new();
        let _ = write!(j, "{{\n  \"npes\": {},\n  \"clock\": {},\n  \"windows\": [", self.npes, json_string(clock::name()));
        for (n, w) in self.windows.iter().enumerate() {
            let _ = write!(
                j,
                "{}\n    {{\"window\": {}, \"root_pe\": {}, \"root_seq\": {}, \"communicator\": {}, \"pes\": {}, \
                 \"datatype\": {}, \"element_bytes\": {}, \"min_elements\": {}, \"max_elements\": {}, \
                 \"freed_before_finalize\": {},",
                if n > 0 { "," } else { "" },
                n + 1,
                w.root_pe,
                w.root_seq,
                json_string(&w.comm_label),
                w.comm_size,
                json_string(w.dtype.name()),
                w.dtype.size(),
                w.min_elements,
                w.max_elements,
                w.freed
            );
            // totals over the PEs, then each PE
            let _ = write!(j, "\n     \"totals\": {{");
            for (k, name) in names.iter().enumerate() {
                let count: u64 = w.pes.iter().map(|p| p.count[k]).sum();
                let bytes: u64 = w.pes.iter().map(|p| p.bytes[k]).sum();
                let _ = write!(j, "{}{}: {{\"calls\": {count}, \"bytes\": {bytes}}}", if k > 0 { ", " } else { "" }, json_string(name));
            }
            for (_, name, f) in TIMES {
                let v: Vec<f64> = w.pes.iter().map(f).collect();
                let (lo, med, hi) = spread(&v);
                let (most, _) = w.pes.iter().zip(&v).max_by(|a, b| a.1.total_cmp(b.1)).map(|(p, x)| (p.job_rank, *x)).unwrap_or((0, 0.0));
                let _ = write!(
                    j,
                    ", {}: {{\"total\": {}, \"min\": {}, \"median\": {}, \"max\": {}, \"max_pe\": {most}}}",
                    json_string(name),
                    json_number(v.iter().sum()),
                    json_number(lo),
                    json_number(med),
                    json_number(hi)
                );
            }
            let _ = write!(j, "}},\n     \"per_pe\": [");
            for (i, p) in w.pes.iter().enumerate() {
                let _ = write!(
                    j,
                    "{}\n       {{\"pe\": {}, \"rank\": {}, \"elements\": {}, \"sync_s\": {}, \"data_s\": {}, \"wall_s\": {}",
                    if i > 0 { "," } else { "" },
                    p.job_rank,
                    p.comm_rank,
                    p.elements,
                    json_number(p.sync_s()),
                    json_number(p.data_s()),
                    json_number(p.wall_s)
                );
                for (k, name) in names.iter().enumerate() {
                    let _ = write!(
                        j,
                        ", {}: {{\"calls\": {}, \"bytes\": {}, \"seconds\": {}}}",
                        json_string(name),
                        p.count[k],
                        p.bytes[k],
                        json_number(p.seconds[k])
                    );
                }
                j.push('}');
            }
            let _ = write!(j, "\n     ]}}");
        }
        let _ = write!(j, "\n  ]");
        self.routines_json(&mut j);
        let _ = writeln!(j, "\n}}");
        j
    }
}

#[cfg(test)]
mod tests {
    use super::super::WindowInfo;
    use super::super::counters::KindTotals;
    use super::*;

    fn record(job_rank: usize, puts: u64, wall: u64, label: &str) -> Record {
        let mut totals = [KindTotals::default(); KINDS];
        totals[0] = KindTotals { count: puts, bytes: 4 * puts, ticks: 10.0 * puts as f64 };
        totals[sync_kind(crate::core::Mode::Fence, true)] = KindTotals { count: 2, bytes: 0, ticks: 100.0 };
        Record {
            info: WindowInfo {
                root_pe: 0,
                root_seq: 1,
                comm_label: label.into(),
                comm_rank: job_rank,
                comm_size: 2,
                dtype: ElementType::Int32,
                elements: [8, 8, 8],
            },
            job_rank,
            freed: true,
            totals,
            wall_ticks: wall,
        }
    }

    #[test]
    fn lines_round_trip_and_merge_by_window() {
        let a = encode(&[record(0, 3, 1000, "GRID")], 1e-9);
        let b = encode(&[record(1, 5, 2000, "GRID")], 1e-9);
        let r = Report::merge(2, &[&b, &a]).unwrap();
        assert_eq!(r.windows.len(), 1);
        let w = &r.windows[0];
        assert_eq!((w.pes[0].comm_rank, w.pes[0].count[0], w.pes[1].count[0]), (0, 3, 5));
        assert_eq!(w.pes[1].bytes[0], 20);
        assert!((w.pes[1].sync_s() - 100e-9).abs() < 1e-15);
        let table = r.table();
        assert!(table.contains("window 1 (PE 0's 1st window): GRID, 2 PEs, MPI_INTEGER, 8 elements per PE, freed"), "{table}");
        assert!(table.lines().any(|l| l.split_whitespace().collect::<Vec<_>>() == ["put_r", "8", "3", "3", "5", "32"]), "{table}");
        assert!(!table.contains("get_r"), "rows of no call are left out");
        let json = r.json();
        assert!(json.contains("\"put_r\": {\"calls\": 8, \"bytes\": 32}"), "{json}");
        assert!(json.contains("\"close fence\": {\"calls\": 4, \"bytes\": 0}"), "{json}");
        assert!(Report::merge(2, &["1 2 3 |x"]).is_err());
    }

    fn routine(name: &'static str, calls: u64, ticks: u64) -> RoutineTotals {
        RoutineTotals { name, calls, ticks }
    }

    #[test]
    fn routines_merge_over_pes_with_their_share_of_the_wall_time() {
        // 1 tick = 1 µs; PE 0: 10 s of wall, 1 s inside; PE 1: 10 s, 3 s inside
        let pe0 = encode_routines(
            &[routine("RPN_COMM_init", 1, 500_000), routine("RPN_COMM_xch_halo", 100, 400_000), routine("RPN_COMM_bcast", 2, 100_000)],
            10_000_000,
            1e-6,
        );
        let pe1 = encode_routines(&[routine("RPN_COMM_init", 1, 500_000), routine("RPN_COMM_xch_halo", 120, 2_500_000)], 10_000_000, 1e-6);
        let r = Report::merge(2, &[&pe0, &pe1]).unwrap();
        assert_eq!(
            r.routines.iter().map(|r| r.name.as_str()).collect::<Vec<_>>(),
            ["RPN_COMM_xch_halo", "RPN_COMM_init", "RPN_COMM_bcast"]
        );
        let halo = &r.routines[0];
        assert_eq!((halo.calls.clone(), halo.total_calls()), (vec![100, 120], 220));
        assert!((halo.us_per_call().unwrap() - 2.9e6 / 220.0).abs() < 1e-6);
        assert_eq!(r.routines[2].calls, [2, 0], "a PE that never called a routine has zeros");
        let p = r.percent(true);
        assert!((p[0] - 10.0).abs() < 1e-9 && (p[1] - 30.0).abs() < 1e-9, "{p:?}");
        let p = r.percent(false);
        assert!((p[0] - 5.0).abs() < 1e-9 && (p[1] - 25.0).abs() < 1e-9, "{p:?}");

        let table = r.table();
        assert!(table.starts_with("RPN_COMM statistics (RPNCOMM_STATS): 2 PEs, no window, clock "), "{table}");
        assert!(table.contains("\nwindows: none was created\n"), "{table}");
        let cells = |label: &str| -> Vec<String> {
            let line = table.lines().find(|l| l.trim_start().starts_with(label)).unwrap_or_else(|| panic!("no {label} row:\n{table}"));
            line[2 + label.len()..].split_whitespace().map(String::from).collect()
        };
        assert_eq!(cells("RPN_COMM_xch_halo"), ["220", "100-120", "0.400000", "1.450000", "2.500000", "13181.8"]);
        assert_eq!(cells("RPN_COMM_bcast"), ["2", "0-2", "0.000000", "0.050000", "0.100000", "50000.0"]);
        assert_eq!(cells("all routines"), ["224", "103-121", "1.000000", "2.000000", "3.000000", "17857.1"]);
        assert_eq!(cells("wall since RPN_COMM_init"), ["10.000000", "10.000000", "10.000000"]);
        assert_eq!(cells("inside routines (% of wall)"), ["10.0", "20.0", "30.0"]);
        assert_eq!(cells("without RPN_COMM_init (%)"), ["5.0", "15.0", "25.0"]);

        let json = r.json();
        assert!(json.contains("\"windows\": [\n  ],\n  \"time_inside_routines\": {"), "{json}");
        assert!(json.contains("\"percent\": {\"min\": 9.99"), "{json}");
        assert!(json.contains("\"mean\": 2e1, \"max\": 3e1}, \"percent_without_init\": {\"min\": "), "{json}");
        assert!(
            json.contains("{\"routine\": \"RPN_COMM_xch_halo\", \"calls\": 220, \"min_calls\": 100, \"max_calls\": 120, \"min_s\": "),
            "{json}"
        );
        assert!(Report::merge(2, &["routine x 1 |RPN_COMM_bcast"]).is_err());
        assert!(Report::merge(1, &["wall 1", "wall 2"]).is_err(), "a line of a PE the job does not have");
    }

    #[test]
    fn strings_are_escaped_for_json() {
        assert_eq!(json_string("a\"b\\c\n"), "\"a\\\"b\\\\c\\u000a\"");
        assert_eq!(ordinal(1), "1st");
        assert_eq!(ordinal(12), "12th");
        assert_eq!(ordinal(23), "23rd");
    }
}
