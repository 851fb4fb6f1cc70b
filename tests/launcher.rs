//! Runs the examples as real jobs under `rpnrun` with several PE counts (as rsmpi runs its
//! examples under mpiexec), plus the launcher's failure paths: a PE that dies, a job that
//! hangs, a stale segment. Every run must leave nothing of its own in /dev/shm.

mod common;

use std::path::PathBuf;
use std::process::{Command, Output};

use common::{example, leftovers, rpnrun};
use std::time::{Duration, Instant};

fn run(args: &[&str], program: &PathBuf) -> (Output, Duration, u32) {
    run_with(args, program, &[])
}

fn run_with(args: &[&str], program: &PathBuf, env: &[(&str, &str)]) -> (Output, Duration, u32) {
    let start = Instant::now();
    let child = Command::new(rpnrun())
        .envs(env.iter().copied())
        .args(args)
        .arg(program)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    let out = child.wait_with_output().unwrap();
    (out, start.elapsed(), pid)
}

#[test]
fn ring_example_passes_on_1_2_3_4_8_pes() {
    for n in [1, 2, 3, 4, 8] {
        let (out, _, pid) = run(&["-n", &n.to_string()], &example("window_ring"));
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{n} PEs: {stdout}\n{}", String::from_utf8_lossy(&out.stderr));
        assert!(stdout.contains(&format!("{n} PEs, 0 errors")), "{stdout}");
        assert_eq!(leftovers(pid), Vec::<String>::new());
    }
}

#[test]
fn ring_example_passes_with_staged_user_arrays() {
    let (out, _, pid) = run_with(&["-n", "3"], &example("window_ring"), &[("RPNCOMM_USER_ARRAYS", "staged")]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(leftovers(pid), Vec::<String>::new());
}

#[test]
fn dead_pe_ends_the_job_quickly_and_is_named() {
    let (out, took, pid) = run(&["-n", "4"], &example("fault"));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(took < Duration::from_secs(10), "took {took:?}");
    assert!(stderr.contains("PE 1") && stderr.contains("signal 6"), "{stderr}");
    assert_eq!(leftovers(pid), Vec::<String>::new());
}

#[test]
fn timeout_ends_a_hung_job() {
    let (out, took, pid) = run(&["-n", "3", "--timeout", "1"], &example("hang"));
    assert_eq!(out.status.code(), Some(124), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(took < Duration::from_secs(6), "took {took:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("timeout"));
    assert_eq!(leftovers(pid), Vec::<String>::new());
}

/// Runs `hang CASE` on 3 PEs with reports after 0.3 s and a timeout of 1.5 s; returns stderr.
fn hang_report(case: &str) -> String {
    let mut cmd = Command::new(rpnrun());
    cmd.args(["-n", "3", "--timeout", "1.5", "--hang-report", "0.3", "--"]).arg(example("hang")).arg(case);
    let out = cmd.output().unwrap();
    assert_eq!(out.status.code(), Some(124));
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn waiting_pes_report_whom_they_wait_for() {
    let stderr = hang_report("close");
    for pe in [1, 2] {
        let line = format!("RPN_COMM_i_win_close: PE {pe}: still waiting after ");
        assert!(stderr.contains(&line), "no report of PE {pe} in:\n{stderr}");
    }
    assert!(stderr.contains("for PE 0 to close epoch 1 of window 1 in active (fence) mode"), "{stderr}");
    assert!(!stderr.contains("RPN_COMM_i_win_close: PE 0:"), "PE 0 does not wait:\n{stderr}");

    let stderr = hang_report("barrier");
    assert!(stderr.contains("RPN_COMM_barrier: PE 2: still waiting after "), "{stderr}");
    assert!(stderr.contains("for PE 0 to reach the same collective call"), "{stderr}");

    let stderr = hang_report("open");
    assert!(stderr.contains("RPN_COMM_i_win_put_r: PE 1: still waiting after "), "{stderr}");
    assert!(stderr.contains("for PE 0 to open epoch 1 of window 1"), "{stderr}");

    let stderr = hang_report("halo");
    for pe in [1, 2] {
        let line = format!("RPN_COMM_xch_halo: PE {pe}: still waiting after ");
        assert!(stderr.contains(&line), "no report of PE {pe} in:\n{stderr}");
    }
    assert!(stderr.contains("for PE 0 to reach the same collective call"), "{stderr}");
}

#[test]
fn stale_segment_of_a_dead_launcher_is_removed() {
    // A pid far above pid_max cannot be alive.
    let stale = "/dev/shm/rpncomm-2147483600-00000000deadbeef";
    std::fs::write(stale, b"left by a killed job").unwrap();
    let (out, _, _) = run(&["-n", "1"], &example("window_ring"));
    assert!(out.status.success());
    assert!(!std::path::Path::new(stale).exists(), "stale segment still there");
}

#[test]
fn bad_command_lines_are_refused() {
    let out = Command::new(rpnrun()).args(["-n", "0", "true"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = Command::new(rpnrun()).args(["-n", "2", "/nonexistent/program"]).output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot start"));
}

/// A PE that exits with status 0 without RPN_COMM_finalize while the others wait for it in
/// finalize: every PE exits with 0, yet the job failed; rpnrun says so in one line naming it.
#[test]
fn a_pe_leaving_without_finalize_fails_the_job_naming_it() {
    for n in [2, 3] {
        let (out, _, pid) = run(&["-n", &n.to_string()], &example("early_exit"));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{n} PEs: {stderr}");
        let lines: Vec<&str> = stderr.lines().filter(|l| l.starts_with("rpnrun:")).collect();
        assert_eq!(lines.len(), 1, "{n} PEs: one line from rpnrun: {stderr}");
        assert!(lines[0].starts_with("rpnrun: PE 1 exited with status 0 without calling RPN_COMM_finalize"), "{}", lines[0]);
        assert_eq!(leftovers(pid), Vec::<String>::new());
    }
    // the same program on 1 PE finalizes normally: status 0
    let (out, _, _) = run(&["-n", "1"], &example("early_exit"));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}
