//! rpnrun's mpirun-style options, each run for real: binding read back from the PEs'
//! /proc/self/status, --report-bindings, tagged output, --output-filename files, -x in both
//! forms, MPMD jobs of two programs sharing windows, the exit status of failing PEs, the
//! refusal of unknown options, --help and --version. Every job must leave nothing in /dev/shm.
//! The expectations follow from the test's own CPU mask, so they hold on any machine.

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::{example, leftovers, rpnrun};

/// Runs rpnrun with `args` (OMP_NUM_THREADS only from `env`: it sets the CPUs per PE); also
/// checks that the job left nothing in /dev/shm.
fn rpnrun_with(args: &[&str], env: &[(&str, &str)]) -> Output {
    let child = Command::new(rpnrun())
        .env_remove("OMP_NUM_THREADS")
        .args(args)
        .envs(env.iter().copied())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    let out = child.wait_with_output().unwrap();
    assert_eq!(leftovers(pid), Vec::<String>::new(), "rpnrun {args:?} left files in /dev/shm");
    out
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// rpnrun `args`, which must succeed; returns (stdout, stderr).
fn ok(args: &[&str]) -> (String, String) {
    let out = rpnrun_with(args, &[]);
    assert!(out.status.success(), "rpnrun {args:?}: {:?}\n{}", out.status, text(&out.stderr));
    (text(&out.stdout), text(&out.stderr))
}

fn pe_info() -> String {
    example("pe_info").display().to_string()
}

/// "0-2,5" -> [0, 1, 2, 5]
fn parse_cpu_list(list: &str) -> Vec<usize> {
    list.split(',')
        .flat_map(|part| match part.split_once('-') {
            Some((a, b)) => (a.parse().unwrap()..=b.parse().unwrap()).collect::<Vec<usize>>(),
            None => vec![part.parse().unwrap()],
        })
        .collect()
}

/// CPUs this test process (and so the rpnrun it starts) may run on.
fn my_cpus() -> Vec<usize> {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    parse_cpu_list(status.lines().find_map(|l| l.strip_prefix("Cpus_allowed_list:")).unwrap().trim())
}

fn socket_of(cpu: usize) -> usize {
    std::fs::read_to_string(format!("/sys/devices/system/cpu/cpu{cpu}/topology/physical_package_id"))
        .map_or(0, |s| s.trim().parse().unwrap())
}

/// What pe_info printed as its first line, per rank: (pid, CPUs allowed).
fn pe_lines(stdout: &str, npes: usize) -> Vec<(u32, Vec<usize>)> {
    let mut found = vec![None; npes];
    for line in stdout.lines() {
        let Some(rest) = line.strip_prefix("pe_info: PE ") else { continue };
        let Some((rank, rest)) = rest.split_once(&format!(" of {npes} pid=")) else { continue };
        let (pid, cpus) = rest.split_once(" cpus=").unwrap();
        found[rank.parse::<usize>().unwrap()] = Some((pid.parse().unwrap(), parse_cpu_list(cpus)));
    }
    found.into_iter().enumerate().map(|(r, f)| f.unwrap_or_else(|| panic!("no line of PE {r} in:\n{stdout}"))).collect()
}

fn env_line(stdout: &str, rank: usize, var: &str) -> String {
    let prefix = format!("pe_info: PE {rank} env {var}");
    stdout.lines().find_map(|l| l.strip_prefix(&prefix)).unwrap_or_else(|| panic!("no {prefix} in:\n{stdout}")).to_string()
}

#[test]
fn core_binding_gives_each_pe_its_own_cpu() {
    let mask = my_cpus();
    let n = mask.len().min(2);
    let n_arg = n.to_string();
    for explicit in [false, true] {
        let mut args = vec!["-n", &n_arg];
        if explicit {
            args.extend(["--bind-to", "core"]);
        }
        let info = pe_info();
        args.extend([info.as_str(), "RPNCOMM_CORE_EACH"]);
        let (stdout, _) = ok(&args);
        let pes = pe_lines(&stdout, n);
        let cpus: BTreeSet<usize> = pes.iter().map(|(_, c)| c[0]).collect();
        for (rank, (_, c)) in pes.iter().enumerate() {
            assert_eq!(c.len(), 1, "PE {rank} bound to {c:?} ({args:?})");
            assert!(mask.contains(&c[0]), "PE {rank} on CPU {} outside the mask {mask:?}", c[0]);
            // a bound PE is told it has a core of its own (it keeps the spin of that case)
            assert_eq!(env_line(&stdout, rank, "RPNCOMM_CORE_EACH"), "=1");
        }
        assert_eq!(cpus.len(), n, "PEs share a CPU: {pes:?}");
    }
}

#[test]
fn more_pes_than_cpus_run_unbound_by_default_and_core_binding_is_refused() {
    let mask = my_cpus();
    let n = (mask.len() + 1).to_string();
    let (stdout, _) = ok(&["-n", &n, &pe_info(), "RPNCOMM_CORE_EACH"]);
    for (rank, (_, cpus)) in pe_lines(&stdout, mask.len() + 1).iter().enumerate() {
        assert_eq!(cpus, &mask, "PE {rank}");
        assert_eq!(env_line(&stdout, rank, "RPNCOMM_CORE_EACH"), " unset");
    }
    let out = rpnrun_with(&["-n", &n, "--bind-to", "core", &pe_info()], &[]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("--bind-to core") && stderr.contains(&format!("{n} PEs")), "{stderr}");
    assert!(out.stdout.is_empty(), "no PE may start");
}

#[test]
fn pes_with_threads_get_a_cpu_per_thread() {
    let mask = my_cpus();
    if mask.len() < 2 {
        eprintln!("one CPU in the mask: no room for a PE of two threads, nothing to check");
        return;
    }
    let info = pe_info();
    // OMP_NUM_THREADS from -x or from rpnrun's environment, or --cpus-per-pe
    for (args, env) in [
        (vec!["-x", "OMP_NUM_THREADS=2", "-n", "1", &info], vec![]),
        (vec!["-n", "1", &info], vec![("OMP_NUM_THREADS", "2,1")]),
        (vec!["--cpus-per-pe", "2", "--report-bindings", "-n", "1", &info], vec![]),
    ] {
        let out = rpnrun_with(&args, &env);
        assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
        let (pid, cpus) = pe_lines(&text(&out.stdout), 1).remove(0);
        assert_eq!(cpus.len(), 2, "{args:?} {env:?}: {cpus:?}");
        assert!(cpus.iter().all(|c| mask.contains(c)), "{cpus:?} outside {mask:?}");
        if args.contains(&"--report-bindings") {
            // the list as the kernel wrote it in the PE's /proc/self/status
            let stdout = text(&out.stdout);
            let raw = stdout.lines().find_map(|l| l.split_once(" cpus=")).unwrap().1;
            let line = format!("rpnrun: PE 0 (pid {pid}, {info}) bound to CPUs {raw} (socket ");
            let stderr = text(&out.stderr);
            assert!(stderr.starts_with(&line), "no '{line}' in {stderr}");
        }
    }
    // more threads than the mask has CPUs: not bound
    let n = mask.len() / 2 + 1;
    let out = rpnrun_with(&["-x", "OMP_NUM_THREADS=2", "-n", &n.to_string(), &info], &[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(pe_lines(&text(&out.stdout), n).iter().all(|(_, c)| c == &mask), "{}", text(&out.stdout));
}

#[test]
fn bind_to_none_leaves_the_whole_mask() {
    let mask = my_cpus();
    let (stdout, _) = ok(&["-n", "2", "--bind-to", "none", &pe_info()]);
    for (_, cpus) in pe_lines(&stdout, 2) {
        assert_eq!(cpus, mask);
    }
}

#[test]
fn map_by_socket_spreads_pes_over_sockets() {
    let mask = my_cpus();
    let sockets: BTreeSet<usize> = mask.iter().map(|&c| socket_of(c)).collect();
    let n = mask.len().min(sockets.len().max(2));
    let (stdout, _) = ok(&["-n", &n.to_string(), "--map-by", "socket", &pe_info()]);
    let pes = pe_lines(&stdout, n);
    let cpus: BTreeSet<usize> = pes.iter().map(|(_, c)| c[0]).collect();
    assert!(pes.iter().all(|(_, c)| c.len() == 1) && cpus.len() == n, "{pes:?}");
    let first: BTreeSet<usize> = pes.iter().take(sockets.len()).map(|(_, c)| socket_of(c[0])).collect();
    assert_eq!(first.len(), sockets.len().min(n), "the first PEs are not on distinct sockets: {pes:?}");
}

#[test]
fn report_bindings_names_each_pe_and_its_cpu() {
    let mask = my_cpus();
    for n in [mask.len().min(2), mask.len() + 1] {
        let info = pe_info();
        let (stdout, stderr) = ok(&["--report-bindings", "-n", &n.to_string(), &info]);
        let pes = pe_lines(&stdout, n);
        for (rank, (pid, cpus)) in pes.iter().enumerate() {
            let head = format!("rpnrun: PE {rank} (pid {pid}, {info}) ");
            let line = stderr.lines().find(|l| l.starts_with(&head)).unwrap_or_else(|| panic!("no '{head}' in:\n{stderr}"));
            let expect = if n <= mask.len() {
                format!("bound to CPU {} (socket {}, ", cpus[0], socket_of(cpus[0]))
            } else {
                let list = std::fs::read_to_string("/proc/self/status").unwrap();
                let list = list.lines().find_map(|l| l.strip_prefix("Cpus_allowed_list:")).unwrap().trim().to_string();
                format!("not bound (CPUs {list})")
            };
            assert!(line[head.len()..].starts_with(&expect), "'{line}' does not say '{expect}'");
        }
        assert_eq!(stderr.lines().filter(|l| l.starts_with("rpnrun: PE ")).count(), n, "{stderr}");
    }
}

/// Checks that every line of `out` is PE-tagged and whole: "[1,R]<stream>:pe_info: PE R ..." with
/// the body of R's long lines intact; returns the count of lines per rank.
fn check_tagged(out: &str, stream: &str, npes: usize) -> Vec<usize> {
    let mut count = vec![0; npes];
    for line in out.lines() {
        let rest = line.strip_prefix("[1,").unwrap_or_else(|| panic!("untagged line on {stream}: {line}"));
        let (rank, rest) = rest.split_once(']').unwrap();
        let rank: usize = rank.parse().unwrap();
        let rest = rest.strip_prefix(&format!("<{stream}>:")).unwrap_or_else(|| panic!("wrong stream tag: {line}"));
        assert!(rest.starts_with(&format!("pe_info: PE {rank} ")), "tag and content disagree: {line}");
        if rest.contains(" line ") {
            let body = rest.rsplit(' ').next().unwrap();
            assert_eq!(body, rank.to_string().repeat(300), "line mixed with another: {line}");
        }
        count[rank] += 1;
    }
    count
}

#[test]
fn tag_output_prefixes_whole_lines_per_stream() {
    let (stdout, stderr) = ok(&["-n", "3", "--bind-to", "none", "--tag-output", &pe_info(), "lines=200"]);
    // stdout: the first line and 200 long lines per PE; stderr: 200 long lines per PE
    assert_eq!(check_tagged(&stdout, "stdout", 3), vec![201; 3]);
    assert_eq!(check_tagged(&stderr, "stderr", 3), vec![200; 3]);
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rpnrun-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn output_filename_writes_one_file_per_pe_and_stream() {
    let dir = temp_dir("output");
    let dir_arg = dir.display().to_string();
    let (stdout, stderr) = ok(&["-n", "2", "--output-filename", &dir_arg, &pe_info(), "lines=3"]);
    assert!(stdout.is_empty() && stderr.is_empty(), "output on the terminal:\n{stdout}\n{stderr}");
    for rank in 0..2 {
        let out = read(&dir.join(format!("rank.{rank}/stdout")));
        assert!(out.starts_with(&format!("pe_info: PE {rank} of 2 pid=")), "{out}");
        assert_eq!(out.lines().filter(|l| l.starts_with(&format!("pe_info: PE {rank} stdout line "))).count(), 3, "{out}");
        let err = read(&dir.join(format!("rank.{rank}/stderr")));
        assert_eq!(err.lines().filter(|l| l.starts_with(&format!("pe_info: PE {rank} stderr line "))).count(), 3, "{err}");
    }
    // with --tag-output the files hold tagged lines, and a second job truncates them
    ok(&["-n", "2", "--tag-output", "--output-filename", &dir_arg, &pe_info(), "lines=1"]);
    for rank in 0..2 {
        assert_eq!(check_tagged(&read(&dir.join(format!("rank.{rank}/stdout"))), "stdout", 2)[rank], 2);
        assert_eq!(check_tagged(&read(&dir.join(format!("rank.{rank}/stderr"))), "stderr", 2)[rank], 1);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn x_passes_variables_with_and_without_value() {
    let out = rpnrun_with(
        &[
            "-x",
            "RPNRUN_T_A=hello world",
            "-x",
            "RPNRUN_T_B",
            "-x",
            "RPNRUN_T_C=new",
            "-n",
            "2",
            &pe_info(),
            "RPNRUN_T_A",
            "RPNRUN_T_B",
            "RPNRUN_T_C",
        ],
        &[("RPNRUN_T_B", "from rpnrun"), ("RPNRUN_T_C", "old")],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    for rank in 0..2 {
        assert_eq!(env_line(&stdout, rank, "RPNRUN_T_A"), "=hello world");
        assert_eq!(env_line(&stdout, rank, "RPNRUN_T_B"), "=from rpnrun");
        assert_eq!(env_line(&stdout, rank, "RPNRUN_T_C"), "=new");
    }
    // after a ':' -x is for that context's PEs only; -x of an unset variable warns
    let info = pe_info();
    let (stdout, stderr) =
        ok(&["-x", "RPNRUN_T_UNSET", "-n", "1", &info, "RPNRUN_T_D", ":", "-n", "1", "-x", "RPNRUN_T_D=2", &info, "RPNRUN_T_D"]);
    assert_eq!(env_line(&stdout, 0, "RPNRUN_T_D"), " unset");
    assert_eq!(env_line(&stdout, 1, "RPNRUN_T_D"), "=2");
    assert!(stderr.contains("warning: -x RPNRUN_T_UNSET"), "{stderr}");
}

#[test]
fn mpmd_job_of_two_programs_shares_windows() {
    let (atm, ocn) = (example("mpmd_atmosphere").display().to_string(), example("mpmd_ocean").display().to_string());
    // ranks follow the contexts: 0-1 atmosphere, 2-3 ocean; each PE reads its left neighbour
    let (stdout, _) = ok(&["-n", "2", &atm, ":", "-n", "2", &ocn]);
    for line in [
        "mpmd: PE 0 of 4 (atmosphere) got from PE 3: ocean",
        "mpmd: PE 1 of 4 (atmosphere) got from PE 0: atmosphere",
        "mpmd: PE 2 of 4 (ocean) got from PE 1: atmosphere",
        "mpmd: PE 3 of 4 (ocean) got from PE 2: ocean",
        "mpmd: sum of model codes 6",
    ] {
        assert!(stdout.lines().any(|l| l == line), "no '{line}' in:\n{stdout}");
    }
    // three contexts, the first program twice
    let (stdout, _) = ok(&["-n", "1", &atm, ":", "-np", "1", &ocn, ":", "--np", "2", &atm]);
    for line in [
        "mpmd: PE 1 of 4 (ocean) got from PE 0: atmosphere",
        "mpmd: PE 2 of 4 (atmosphere) got from PE 1: ocean",
        "mpmd: sum of model codes 5",
    ] {
        assert!(stdout.lines().any(|l| l == line), "no '{line}' in:\n{stdout}");
    }
}

#[test]
fn exit_status_is_the_first_failing_pes() {
    let out = rpnrun_with(&["-n", "3", &pe_info(), "exit=1:3"], &[]);
    assert_eq!(out.status.code(), Some(3), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("rpnrun: PE 1 exited with status 3"), "{}", text(&out.stderr));
    // PE 0 would exit with 5 later: the job's status stays PE 2's, the first failure
    let out = rpnrun_with(&["-n", "3", &pe_info(), "exit=2:7", "exit=0:5:3000"], &[]);
    assert_eq!(out.status.code(), Some(7), "{}", text(&out.stderr));
    // a PE killed by a signal: 128 + the signal, and the PE named
    let out = rpnrun_with(&["-n", "2", &example("fault").display().to_string()], &[]);
    assert_eq!(out.status.code(), Some(128 + 6), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("rpnrun: PE 1 was killed by signal 6"), "{}", text(&out.stderr));
}

#[test]
fn unknown_options_get_one_line_naming_them() {
    for (args, flag) in [
        (vec!["--frobnicate", "-n", "2", "true"], "--frobnicate"),
        (vec!["-n", "2", "-q", "true"], "-q"),
        (vec!["-n", "2", "--bind-to=hwthread", "true"], "hwthread"),
        (vec!["-n", "1", "true", ":", "-n", "1", "--tag-output", "true"], "--tag-output"),
    ] {
        let out = rpnrun_with(&args, &[]);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = text(&out.stderr);
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.starts_with("rpnrun: ") && stderr.contains(flag), "{args:?}: {stderr}");
    }
}

/// Every RPNCOMM_* name in upper case (an environment variable's) that appears in the library's sources.
fn environment_variables_in_sources() -> BTreeSet<String> {
    fn walk(dir: &Path, names: &mut BTreeSet<String>) {
        for entry in std::fs::read_dir(dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, names);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let src = read(&path);
                for (at, _) in src.match_indices("RPNCOMM_") {
                    // the whole identifier: a variable's is upper case (RPNCOMM_Shmget is the
                    // original's C function)
                    let name: String = src[at..].chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
                    if name.len() > "RPNCOMM_".len() && !name.chars().any(|c| c.is_ascii_lowercase()) {
                        names.insert(name);
                    }
                }
            }
        }
    }
    let mut names = BTreeSet::new();
    walk(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), &mut names);
    names
}

#[test]
fn help_lists_every_option_and_environment_variable() {
    let (stdout, _) = ok(&["--help"]);
    let listed = |word: &str| stdout.split(|c: char| c.is_whitespace() || c == ',').any(|w| w == word);
    for option in [
        "-n",
        "-np",
        "--np",
        "-x",
        "--bind-to",
        "--map-by",
        "--cpus-per-pe",
        "--cpus-per-proc",
        "--report-bindings",
        "--tag-output",
        "--output-filename",
        "--timeout",
        "--hang-report",
        "--oversubscribe",
        "--allow-run-as-root",
        "--help",
        "--version",
    ] {
        assert!(listed(option), "--help does not list {option}:\n{stdout}");
    }
    let vars = environment_variables_in_sources();
    assert!(vars.len() >= 7, "{vars:?}");
    for var in vars {
        assert!(listed(&var), "--help does not list {var}, which src/ reads:\n{stdout}");
    }
    let (short, _) = ok(&["-h"]);
    assert_eq!(short, stdout);
}

#[test]
fn version_is_the_crates() {
    let (stdout, _) = ok(&["--version"]);
    assert_eq!(stdout, format!("rpnrun (rpncomm-windows) {}\n", env!("CARGO_PKG_VERSION")));
}
