//! The statistics report: every PE's windows as text lines (what the PEs exchange at
//! finalize), merged by window on PE 0 into the table and the JSON.

use std::fmt::Write;

use super::Record;
use super::counters::{DATA_KINDS, KINDS, MODES, clock, sync_kind};
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

/// Every window of the job.
pub(super) struct Report {
    npes: usize,
    windows: Vec<WindowReport>,
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
        for (pe, text) in texts.iter().enumerate() {
            for line in text.lines().filter(|l| !l.trim().is_empty()) {
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
        Ok(Report { npes, windows })
    }

    /// The table `RPNCOMM_STATS=1` prints.
    pub fn table(&self) -> String {
        let names = kind_names();
        let mut t = String::new();
        let _ = writeln!(
            t,
            "RPN_COMM statistics ({}): {}, {}, clock {}\n\
             total: summed over a window's PEs; min, median, max: of one PE; an epoch is an open and its close",
            super::ENV_STATS,
            count(self.npes, "PE"),
            count(self.windows.len(), "window"),
            clock::name()
        );
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
        let _ = writeln!(j, "\n  ]\n}}");
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

    #[test]
    fn strings_are_escaped_for_json() {
        assert_eq!(json_string("a\"b\\c\n"), "\"a\\\"b\\\\c\\u000a\"");
        assert_eq!(ordinal(1), "1st");
        assert_eq!(ordinal(12), "12th");
        assert_eq!(ordinal(23), "23rd");
    }
}
