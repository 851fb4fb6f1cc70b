//! The per-window statistics against a program whose calls are known exactly
//! (examples/stats_counts.rs): the JSON of `RPNCOMM_STATS=json:FILE` on 2 and 3 PEs, every count
//! and byte total per PE and summed, and times that are non-negative and fit in the window's
//! lifetime; each routine's calls per PE and the share of the wall time inside them; the table of
//! `rpnrun --stats`; a job where only some PEs ask for statistics.

mod common;

use std::collections::BTreeMap;
use std::process::{Command, Output};

use common::{example, leftovers, rpnrun};

/// A JSON value, parsed by hand (no dependency for a test).
#[derive(Debug, Clone, PartialEq)]
enum Json {
    Null,
    Bool(bool),
    Number(f64),
    Text(String),
    List(Vec<Json>),
    Object(BTreeMap<String, Json>),
}

impl Json {
    fn parse(text: &str) -> Json {
        let mut p = Parser { s: text.as_bytes(), i: 0 };
        let v = p.value();
        p.blanks();
        assert_eq!(p.i, p.s.len(), "trailing text after the JSON value");
        v
    }
    fn get(&self, key: &str) -> &Json {
        match self {
            Json::Object(m) => m.get(key).unwrap_or_else(|| panic!("no key {key} in {self:?}")),
            _ => panic!("not an object: {self:?}"),
        }
    }
    fn num(&self) -> f64 {
        match self {
            Json::Number(x) => *x,
            _ => panic!("not a number: {self:?}"),
        }
    }
    fn list(&self) -> &[Json] {
        match self {
            Json::List(v) => v,
            _ => panic!("not a list: {self:?}"),
        }
    }
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn blanks(&mut self) {
        while self.i < self.s.len() && self.s[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }
    fn eat(&mut self, c: u8) {
        self.blanks();
        assert_eq!(self.s.get(self.i), Some(&c), "expected '{}' at byte {}", c as char, self.i);
        self.i += 1;
    }
    fn value(&mut self) -> Json {
        self.blanks();
        match self.s[self.i] {
            b'{' => {
                self.i += 1;
                let mut m = BTreeMap::new();
                self.blanks();
                if self.s[self.i] == b'}' {
                    self.i += 1;
                    return Json::Object(m);
                }
                loop {
                    self.blanks();
                    let Json::Text(k) = self.value() else { panic!("object key is not a string at byte {}", self.i) };
                    self.eat(b':');
                    let v = self.value();
                    assert!(m.insert(k.clone(), v).is_none(), "key {k} twice");
                    self.blanks();
                    self.i += 1;
                    match self.s[self.i - 1] {
                        b',' => continue,
                        b'}' => return Json::Object(m),
                        c => panic!("unexpected '{}' in an object", c as char),
                    }
                }
            }
            b'[' => {
                self.i += 1;
                let mut v = Vec::new();
                self.blanks();
                if self.s[self.i] == b']' {
                    self.i += 1;
                    return Json::List(v);
                }
                loop {
                    v.push(self.value());
                    self.blanks();
                    self.i += 1;
                    match self.s[self.i - 1] {
                        b',' => continue,
                        b']' => return Json::List(v),
                        c => panic!("unexpected '{}' in a list", c as char),
                    }
                }
            }
            b'"' => {
                self.i += 1;
                let mut out = String::new();
                loop {
                    let c = self.s[self.i];
                    self.i += 1;
                    match c {
                        b'"' => return Json::Text(out),
                        b'\\' => {
                            let e = self.s[self.i];
                            self.i += 1;
                            match e {
                                b'u' => {
                                    let hex = std::str::from_utf8(&self.s[self.i..self.i + 4]).unwrap();
                                    out.push(char::from_u32(u32::from_str_radix(hex, 16).unwrap()).unwrap());
                                    self.i += 4;
                                }
                                b'n' => out.push('\n'),
                                other => out.push(other as char),
                            }
                        }
                        c => out.push(c as char),
                    }
                }
            }
            b't' | b'f' | b'n' => {
                for (word, v) in [("true", Json::Bool(true)), ("false", Json::Bool(false)), ("null", Json::Null)] {
                    if self.s[self.i..].starts_with(word.as_bytes()) {
                        self.i += word.len();
                        return v;
                    }
                }
                panic!("bad literal at byte {}", self.i)
            }
            _ => {
                let start = self.i;
                while self.i < self.s.len() && matches!(self.s[self.i], b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E') {
                    self.i += 1;
                }
                let t = std::str::from_utf8(&self.s[start..self.i]).unwrap();
                Json::Number(t.parse().unwrap_or_else(|_| panic!("bad number '{t}'")))
            }
        }
    }
}

fn run(args: &[&str], env: &[(&str, &str)]) -> (Output, u32) {
    let child = Command::new(rpnrun())
        .envs(env.iter().copied())
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    (child.wait_with_output().unwrap(), pid)
}

/// (calls, bytes) of every kind on one PE, as examples/stats_counts.rs makes them.
fn expected(window: usize) -> Vec<(&'static str, u64, u64)> {
    if window == 1 {
        vec![
            ("put_r", 3 * 2 + 4, 3 * 2 * 16 + 4 * 4),
            ("get_r", 3, 3 * 12),
            ("getacc_r", 2 + 4, 2 * 8 + 4 * 4),
            ("put_l", 5, 5 * 32),
            ("get_l", 3, 3 * 256),
            ("post", 2, 2 * 20),
            ("open fence", 3, 0),
            ("close fence", 3, 0),
            ("open group", 2, 0),
            ("close group", 2, 0),
            ("open passive", 4, 0),
            ("close passive", 4, 0),
        ]
    } else {
        vec![
            ("put_r", 1, 8192),
            ("get_r", 70, 70 * 8),
            ("getacc_r", 0, 0),
            ("put_l", 0, 0),
            ("get_l", 0, 0),
            ("post", 0, 0),
            ("open fence", 1, 0),
            ("close fence", 1, 0),
            ("open group", 0, 0),
            ("close group", 0, 0),
            ("open passive", 1, 0),
            ("close passive", 1, 0),
        ]
    }
}

#[test]
fn json_counts_bytes_and_times_are_exact_on_2_and_3_pes() {
    for npes in [2usize, 3] {
        let file = std::env::temp_dir().join(format!("rpncomm-stats-{}-{npes}.json", std::process::id()));
        let _ = std::fs::remove_file(&file);
        let setting = format!("json:{}", file.display());
        let (out, pid) = run(&["-n", &npes.to_string(), example("stats_counts").to_str().unwrap()], &[("RPNCOMM_STATS", &setting)]);
        assert!(out.status.success(), "{npes} PEs: {}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(leftovers(pid), Vec::<String>::new());
        assert!(!String::from_utf8_lossy(&out.stdout).contains("RPN_COMM statistics"), "JSON asked for: no table");
        let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let _ = std::fs::remove_file(&file);
        let report = Json::parse(&text);
        assert_eq!(report.get("npes").num(), npes as f64);
        let windows = report.get("windows").list();
        assert_eq!(windows.len(), 2, "{text}");
        for (n, w) in windows.iter().enumerate() {
            let number = n + 1;
            assert_eq!(w.get("window").num(), number as f64);
            assert_eq!((w.get("root_pe").num(), w.get("root_seq").num()), (0.0, number as f64), "creation order");
            assert_eq!(w.get("pes").num(), npes as f64);
            let (comm, dtype, elements, freed) =
                if number == 1 { ("GRID", "MPI_INTEGER", (64, 64), false) } else { ("WORLD", "MPI_REAL8", (1024, 1023 + npes), true) };
            assert_eq!(w.get("communicator"), &Json::Text(comm.into()));
            assert_eq!(w.get("datatype"), &Json::Text(dtype.into()));
            assert_eq!((w.get("min_elements").num(), w.get("max_elements").num()), (elements.0 as f64, elements.1 as f64));
            assert_eq!(w.get("freed_before_finalize"), &Json::Bool(freed));
            let per_pe = w.get("per_pe").list();
            assert_eq!(per_pe.len(), npes);
            for (rank, p) in per_pe.iter().enumerate() {
                assert_eq!((p.get("pe").num(), p.get("rank").num()), (rank as f64, rank as f64));
                let own = if number == 1 { 64 } else { 1024 + rank };
                assert_eq!(p.get("elements").num(), own as f64);
                let mut data = 0.0;
                for (kind, calls, bytes) in expected(number) {
                    let k = p.get(kind);
                    assert_eq!(
                        (k.get("calls").num(), k.get("bytes").num()),
                        (calls as f64, bytes as f64),
                        "window {number}, PE {rank}, {kind}"
                    );
                    let s = k.get("seconds").num();
                    assert!(s >= 0.0 && (calls > 0 || s == 0.0), "window {number}, PE {rank}, {kind}: {s} s");
                    if !kind.starts_with("open") && !kind.starts_with("close") {
                        data += s;
                    }
                }
                let (sync, data_s, wall) = (p.get("sync_s").num(), p.get("data_s").num(), p.get("wall_s").num());
                assert!((data_s - data).abs() <= 1e-9 * data.max(1.0), "data_s is the sum of the operations' times");
                assert!(sync > 0.0 && data_s > 0.0 && wall > 0.0, "window {number}, PE {rank}: {sync} {data_s} {wall}");
                assert!(sync + data_s <= wall, "window {number}, PE {rank}: sync {sync} + data {data_s} > lifetime {wall}");
            }
            let totals = w.get("totals");
            for (kind, calls, bytes) in expected(number) {
                let t = totals.get(kind);
                assert_eq!(
                    (t.get("calls").num(), t.get("bytes").num()),
                    ((calls * npes as u64) as f64, (bytes * npes as u64) as f64),
                    "{kind}"
                );
            }
            let sync = totals.get("sync_s");
            let (lo, med, hi) = (sync.get("min").num(), sync.get("median").num(), sync.get("max").num());
            assert!(0.0 < lo && lo <= med && med <= hi, "{lo} {med} {hi}");
            let most = sync.get("max_pe").num() as usize;
            assert_eq!(per_pe[most].get("sync_s").num(), hi, "max_pe is the PE that waited most");
        }
        // the routines: every call the program made, once (a window call's inner work is part of it)
        let routines = report.get("routines").list();
        let calls = |name: &str| -> Vec<f64> {
            let r = routines.iter().find(|r| r.get("routine") == &Json::Text(name.into())).unwrap_or_else(|| panic!("no {name}: {text}"));
            r.get("per_pe").list().iter().map(|p| p.get("calls").num()).collect()
        };
        for (name, per_pe) in [
            ("RPN_COMM_init", 1.0),
            ("RPN_COMM_i_win_get_r", 73.0),
            ("RPN_COMM_i_win_put_r", 11.0),
            ("RPN_COMM_barrier", 4.0),
            ("RPN_COMM_i_win_free", 1.0),
            ("RPN_COMM_i_datyp", 2.0),
        ] {
            assert_eq!(calls(name), vec![per_pe; npes], "{name}");
        }
        assert!(!routines.iter().any(|r| r.get("routine") == &Json::Text("RPN_COMM_finalize".into())), "finalize is not timed");
        let inside = report.get("time_inside_routines");
        for p in inside.get("per_pe").list() {
            let (wall, inside, percent) = (p.get("wall_s").num(), p.get("inside_s").num(), p.get("percent").num());
            assert!(0.0 < inside && inside <= wall, "{inside} s inside of {wall} s");
            assert!(0.0 < percent && percent <= 100.0 && (percent - 100.0 * inside / wall).abs() < 1e-6, "{percent}");
        }
    }
}

#[test]
fn rpnrun_stats_prints_one_table() {
    let (out, pid) = run(&["-n", "3", "--stats", example("stats_counts").to_str().unwrap()], &[]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(leftovers(pid), Vec::<String>::new());
    assert_eq!(stdout.matches("RPN_COMM statistics").count(), 1, "one table, printed by PE 0 only:\n{stdout}");
    let lines: Vec<&str> = stdout.lines().collect();
    let header = lines.iter().position(|l| l.starts_with("RPN_COMM statistics")).unwrap();
    assert!(lines[header].contains("3 PEs, 2 windows"), "{}", lines[header]);
    let barrier = lines.iter().find(|l| l.trim_start().starts_with("RPN_COMM_barrier ")).expect("the routines' rows");
    assert_eq!(barrier.split_whitespace().take(3).collect::<Vec<_>>(), ["RPN_COMM_barrier", "12", "4"], "calls: total, per PE");
    let share = lines.iter().find(|l| l.trim_start().starts_with("inside routines (% of wall)")).expect("the share row");
    let share: Vec<f64> = share.split_whitespace().skip(5).map(|x| x.parse().unwrap()).collect();
    assert!(share.len() == 3 && 0.0 < share[0] && share[0] <= share[1] && share[1] <= share[2] && share[2] <= 100.0, "{share:?}");
    let w1 = lines.iter().position(|l| l.starts_with("window 1 ")).expect("window 1");
    let w2 = lines.iter().position(|l| l.starts_with("window 2 ")).expect("window 2");
    assert!(lines[w1].contains("GRID, 3 PEs, MPI_INTEGER, 64 elements per PE"), "{}", lines[w1]);
    assert!(lines[w2].contains("WORLD, 3 PEs, MPI_REAL8, 1024 to 1026 elements per PE, freed before finalize"), "{}", lines[w2]);
    let row = |from: usize, to: usize, name: &str| -> Vec<String> {
        let line =
            lines[from..to].iter().find(|l| l.trim_start().starts_with(&format!("{name} "))).unwrap_or_else(|| panic!("no {name} row"));
        line.split_whitespace().map(String::from).collect()
    };
    let cells = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    // calls: name, total, min, median, max, bytes
    assert_eq!(row(w1, w2, "put_r"), cells(&["put_r", "30", "10", "10", "10", "336"]));
    assert_eq!(row(w1, w2, "post"), cells(&["post", "6", "2", "2", "2", "120"]));
    assert_eq!(row(w1, w2, "close group"), cells(&["close", "group", "6", "2", "2", "2"]));
    assert_eq!(row(w2, lines.len(), "get_r"), cells(&["get_r", "210", "70", "70", "70", "1680"]));
    assert!(!lines[w2..].iter().any(|l| l.trim_start().starts_with("post")), "rows without calls are left out");
    for (from, to) in [(w1, w2), (w2, lines.len())] {
        let sync = row(from, to, "sync wait");
        assert_eq!(sync.len(), 10, "sync wait, total, min, median, max, 'PE n waited most': {sync:?}");
        let ms: Vec<f64> = sync[2..6].iter().map(|s| s.parse().unwrap()).collect();
        assert!(ms.iter().all(|&x| x >= 0.0) && ms[1] <= ms[2] && ms[2] <= ms[3], "{sync:?}");
        assert_eq!(&sync[6..], ["PE", sync[7].as_str(), "waited", "most"]);
        assert_eq!(row(from, to, "moving data").len(), 6);
        assert_eq!(row(from, to, "window lifetime").len(), 6);
    }
}

#[test]
fn statistics_asked_by_some_pes_only_are_refused_with_a_message() {
    let program = example("stats_counts");
    let p = program.to_str().unwrap();
    let (out, pid) = run(&["-n", "1", p, ":", "-n", "1", "-x", "RPNCOMM_STATS=1", p], &[("RPNCOMM_STATS", "0")]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert_eq!(leftovers(pid), Vec::<String>::new());
    assert!(!String::from_utf8_lossy(&out.stdout).contains("RPN_COMM statistics"));
    assert!(stderr.contains("RPNCOMM_STATS is set for PE 1 but not for PE 0"), "{stderr}");
}

/// `--stats` keeps a JSON request given in the environment or with `-x`, and `--stats=json:FILE`
/// makes one: the file is written (a JSON report of the job's PEs) and no table is printed.
#[test]
fn rpnrun_stats_with_a_json_request_writes_the_file() {
    let program = example("stats_counts");
    let p = program.to_str().unwrap();
    for (n, how) in ["environment", "-x", "--stats=json"].iter().enumerate() {
        let file = std::env::temp_dir().join(format!("rpncomm-stats-{}-opt{n}.json", std::process::id()));
        let _ = std::fs::remove_file(&file);
        let setting = format!("json:{}", file.display());
        let x = format!("RPNCOMM_STATS={setting}");
        let inline = format!("--stats={setting}");
        let (out, pid) = match *how {
            "environment" => run(&["--stats", "-n", "2", p], &[("RPNCOMM_STATS", &setting)]),
            "-x" => run(&["--stats", "-x", &x, "-n", "2", p], &[]),
            _ => run(&[&inline, "-n", "2", p], &[]),
        };
        assert!(out.status.success(), "{how}: {}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(leftovers(pid), Vec::<String>::new());
        assert!(!String::from_utf8_lossy(&out.stdout).contains("RPN_COMM statistics"), "{how}: JSON asked for, no table");
        let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{how}: {}: {e}", file.display()));
        let _ = std::fs::remove_file(&file);
        let report = Json::parse(&text);
        assert_eq!(report.get("npes").num(), 2.0, "{how}");
        assert_eq!(report.get("windows").list().len(), 2, "{how}: {text}");
    }
}
