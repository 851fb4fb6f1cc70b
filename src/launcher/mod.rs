//! `rpnrun`: starts the PEs of a job on this node, watches them, ends the job when one
//! dies, and leaves nothing behind in /dev/shm.
//!
//! - `options`: the command line (mpirun's syntax where it matters);
//! - `help`: the text of `rpnrun --help`;
//! - `binding`: which CPUs the launcher may use and which CPU each PE gets;
//! - `output`: where the PEs' stdout and stderr go (tagged, per-PE files);
//! - `early_exit`: a PE that leaves without RPN_COMM_finalize while the others need it;
//! - `cleanup`: removal of a job's files in /dev/shm, and of stale ones.

pub mod binding;
pub mod cleanup;
pub mod early_exit;
pub mod help;
pub mod options;
pub mod output;

use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Child, Command, ExitStatus};
use std::sync::atomic::{AtomicI32, Ordering};
use std::time::{Duration, Instant};

use crate::transport::shm::job::{ENV_NPES, ENV_RANK, ENV_SEGMENT, JobSegment, PeState};
use crate::transport::shm::new_job_name;
use binding::Cpu;
use options::{AppContext, EnvVar, Options, Request, StatsRequest};
use output::{Output, Stream};

/// How long PEs get to end after SIGTERM before SIGKILL.
const GRACE: Duration = Duration::from_secs(2);
const POLL: Duration = Duration::from_millis(5);
/// How long the PEs' last output may take to come through once they ended.
const OUTPUT_DRAIN: Duration = Duration::from_secs(5);
/// Tells a PE that rpnrun bound every PE to CPUs of its own (read by the shm transport).
const ENV_CORE_EACH: &str = "RPNCOMM_CORE_EACH";

static PENDING_SIGNAL: AtomicI32 = AtomicI32::new(0);

extern "C" fn on_signal(sig: libc::c_int) {
    PENDING_SIGNAL.store(sig, Ordering::SeqCst);
}

fn install_signal_handlers() {
    for sig in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
        // SAFETY: the handler only stores into an atomic, which is async-signal-safe.
        unsafe { libc::signal(sig, on_signal as *const () as libc::sighandler_t) };
    }
}

fn signal_name(sig: i32) -> String {
    // SAFETY: strsignal returns a pointer to a static or thread-local string (or null).
    let p = unsafe { libc::strsignal(sig) };
    if p.is_null() {
        return format!("signal {sig}");
    }
    // SAFETY: non-null, NUL-terminated string from the C library.
    let text = unsafe { std::ffi::CStr::from_ptr(p) }.to_string_lossy().into_owned();
    format!("signal {sig} ({text})")
}

fn describe(status: ExitStatus) -> String {
    match (status.code(), status.signal()) {
        (Some(c), _) => format!("exited with status {c}"),
        (None, Some(s)) => format!("was killed by {}", signal_name(s)),
        _ => "ended".into(),
    }
}

/// Exit status of the launcher for a PE's status (never 0 for a failure).
fn failure_code(status: ExitStatus) -> i32 {
    match (status.code(), status.signal()) {
        (Some(c), _) if c != 0 => c,
        (None, Some(s)) => 128 + s,
        _ => 1,
    }
}

struct Job {
    segment: JobSegment,
    name: String,
    children: Vec<Option<Child>>,
    pgid: i32,
}

impl Job {
    fn start(opts: &Options, cpus: &[Option<Vec<Cpu>>], output: &Output) -> Result<Job, String> {
        let npes = opts.npes();
        let name = new_job_name();
        let segment = JobSegment::create(&name, npes, std::process::id()).map_err(|e| format!("cannot create the job segment: {e}"))?;
        let mut job = Job { segment, name, children: Vec::new(), pgid: 0 };
        let ranks = opts.contexts.iter().flat_map(|ctx| std::iter::repeat_n(ctx, ctx.npes));
        for (rank, ctx) in ranks.enumerate() {
            let cpu = cpus[rank].as_deref();
            match job.spawn_pe(opts, ctx, rank, cpu, output) {
                Ok(child) => {
                    if opts.report_bindings {
                        eprintln!("{}", binding_report(rank, child.id(), &ctx.program, cpu));
                    }
                    if rank == 0 {
                        job.pgid = child.id() as i32;
                    }
                    job.children.push(Some(child));
                }
                Err(e) => {
                    job.terminate();
                    return Err(e);
                }
            }
        }
        Ok(job)
    }

    fn spawn_pe(&self, opts: &Options, ctx: &AppContext, rank: usize, cpu: Option<&[Cpu]>, output: &Output) -> Result<Child, String> {
        let mut cmd = Command::new(&ctx.program);
        cmd.args(&ctx.args).stdout(output.stdio(rank, Stream::Stdout)?).stderr(output.stdio(rank, Stream::Stderr)?);
        for var in opts.env.iter().chain(&ctx.env) {
            if let Some(value) = &var.value {
                cmd.env(&var.name, value);
            }
            // `-x VAR` alone: the PEs inherit rpnrun's environment, VAR included
        }
        // A bound PE sees only its own CPUs in its mask and would take itself for oversubscribed
        // (no spin); it has cores of its own, which the transport learns from this variable.
        if cpu.is_some() {
            cmd.env(ENV_CORE_EACH, "1");
        }
        match &opts.stats {
            // a JSON request of the PE's own (-x or environment) stands: it asked for a file
            Some(StatsRequest::Table) if !pe_env(opts, ctx, crate::runtime::ENV_STATS).is_some_and(|v| v.starts_with("json:")) => {
                cmd.env(crate::runtime::ENV_STATS, "1");
            }
            Some(StatsRequest::Json(file)) => {
                cmd.env(crate::runtime::ENV_STATS, format!("json:{file}"));
            }
            _ => {}
        }
        if let Some(secs) = opts.hang_report {
            cmd.env(crate::diagnostics::ENV_HANG_REPORT, secs.to_string());
        }
        cmd.env(ENV_SEGMENT, &self.name).env(ENV_RANK, rank.to_string()).env(ENV_NPES, opts.npes().to_string()).process_group(self.pgid);
        let cpu_set = cpu.map(binding::cpu_set_of);
        // SAFETY: prctl and sched_setaffinity are async-signal-safe system calls; the CPU set was
        // built before fork. The PE dies with the launcher and runs on its CPU from its first
        // instruction (/proc/<pid>/status of the program shows it).
        unsafe {
            cmd.pre_exec(move || {
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
                if let Some(set) = &cpu_set {
                    binding::bind_self(set)?;
                }
                Ok(())
            });
        }
        let mut child = cmd.spawn().map_err(|e| format!("cannot start {} (PE {rank}): {e}", ctx.program))?;
        if let Err(e) = output.forward(rank, &mut child) {
            // SAFETY: signals the child we just started and have not reaped.
            unsafe { libc::kill(child.id() as i32, libc::SIGKILL) };
            let _ = child.wait();
            return Err(e);
        }
        Ok(child)
    }

    fn running(&self) -> Vec<usize> {
        (0..self.children.len()).filter(|&r| self.children[r].is_some()).collect()
    }

    fn signal_all(&self, sig: i32) {
        if self.pgid > 0 {
            // SAFETY: signals our own PEs' process group.
            unsafe { libc::kill(-self.pgid, sig) };
        }
        for child in self.children.iter().flatten() {
            // SAFETY: signals a child we started and have not reaped (its pid is still ours).
            unsafe { libc::kill(child.id() as i32, sig) };
        }
    }

    /// Reaps the PEs that ended: (rank, status) of each.
    fn reap(&mut self) -> Vec<(usize, ExitStatus)> {
        let mut ended = Vec::new();
        for (rank, slot) in self.children.iter_mut().enumerate() {
            if let Some(child) = slot
                && let Ok(Some(status)) = child.try_wait()
            {
                ended.push((rank, status));
                *slot = None;
            }
        }
        ended
    }

    /// SIGTERM to every PE left, SIGKILL after the grace period, then reap all.
    fn terminate(&mut self) {
        self.signal_all(libc::SIGTERM);
        let deadline = Instant::now() + GRACE;
        while !self.running().is_empty() && Instant::now() < deadline {
            self.reap();
            std::thread::sleep(POLL);
        }
        if !self.running().is_empty() {
            self.signal_all(libc::SIGKILL);
        }
        for child in self.children.iter_mut().flatten() {
            let _ = child.wait();
        }
        self.children.iter_mut().for_each(|c| *c = None);
    }
}

impl Drop for Job {
    fn drop(&mut self) {
        cleanup::remove_job_files(&self.name);
    }
}

/// `--report-bindings` line of a PE.
fn binding_report(rank: usize, pid: u32, program: &str, cpus: Option<&[Cpu]>) -> String {
    let head = format!("rpnrun: PE {rank} (pid {pid}, {program})");
    match cpus {
        Some([c]) => format!("{head} bound to CPU {} (socket {}, core {})", c.id, c.package, c.core),
        Some(cpus) => {
            let mut sockets: Vec<usize> = cpus.iter().map(|c| c.package).collect();
            sockets.sort_unstable();
            sockets.dedup();
            let ids: Vec<usize> = cpus.iter().map(|c| c.id).collect();
            format!("{head} bound to CPUs {} (socket {})", binding::cpu_list(&ids), binding::cpu_list(&sockets))
        }
        None => {
            let mask = binding::allowed_cpus().map_or_else(|e| format!("unknown: {e}"), |ids| binding::cpu_list(&ids));
            format!("{head} not bound (CPUs {mask})")
        }
    }
}

/// The value of `name` a PE of `ctx` gets: its context's -x, the job's -x, rpnrun's environment.
fn pe_env(opts: &Options, ctx: &AppContext, name: &str) -> Option<String> {
    let given = ctx.env.iter().rev().chain(opts.env.iter().rev()).find(|v| v.name == name);
    match given {
        Some(EnvVar { value: Some(v), .. }) => Some(v.clone()),
        _ => std::env::var(name).ok(),
    }
}

/// How many CPUs each PE is bound to: --cpus-per-pe, else the PE's OMP_NUM_THREADS (its first
/// number: "4,2" is nested parallelism with 4 threads outside), else 1.
fn cpus_per_pe(opts: &Options) -> Vec<usize> {
    let threads = |ctx: &AppContext| {
        let omp = pe_env(opts, ctx, "OMP_NUM_THREADS")?;
        omp.split(',').next()?.trim().parse::<usize>().ok().filter(|&n| n > 0)
    };
    opts.contexts.iter().flat_map(|ctx| std::iter::repeat_n(opts.cpus_per_pe.or_else(|| threads(ctx)).unwrap_or(1), ctx.npes)).collect()
}

/// The CPUs of each PE, from the launcher's affinity mask and the options.
fn bindings(opts: &Options) -> Result<Vec<Option<Vec<Cpu>>>, String> {
    let ids = binding::allowed_cpus().map_err(|e| format!("cannot read rpnrun's CPU affinity: {e}"))?;
    binding::plan(&binding::topology(&ids), &cpus_per_pe(opts), opts.bind_to, opts.map_by)
}

/// Warns about `-x VAR` for a VAR that rpnrun's environment lacks (as mpirun does).
fn warn_unset_variables(opts: &Options) {
    for var in opts.env.iter().chain(opts.contexts.iter().flat_map(|c| &c.env)) {
        if var.value.is_none() && std::env::var_os(&var.name).is_none() {
            eprintln!("rpnrun: warning: -x {}: {} is not set in rpnrun's environment", var.name, var.name);
        }
    }
}

/// Runs a job; returns the launcher's exit status.
pub fn run(opts: &Options) -> i32 {
    cleanup::remove_stale_jobs();
    let cpus = match bindings(opts) {
        Ok(cpus) => cpus,
        Err(e) => {
            eprintln!("rpnrun: {e}");
            return 2;
        }
    };
    warn_unset_variables(opts);
    install_signal_handlers();
    let output = Output::new(opts.tag_output, opts.output_dir.clone());
    let mut job = match Job::start(opts, &cpus, &output) {
        Ok(job) => job,
        Err(e) => {
            output.finish(OUTPUT_DRAIN);
            eprintln!("rpnrun: {e}");
            return 1;
        }
    };
    let code = watch(&mut job, opts);
    output.finish(OUTPUT_DRAIN);
    code
}

/// Waits for the job to end, ending it early when a PE fails, on a signal or at the timeout.
fn watch(job: &mut Job, opts: &Options) -> i32 {
    let started = Instant::now();
    let mut failure: Option<i32> = None;
    let mut exits = early_exit::Exits::default();
    while !job.running().is_empty() {
        for (rank, status) in job.reap() {
            if status.success() {
                let state = job.segment.state(rank);
                exits.record(rank, state);
                if state != PeState::Finalized {
                    job.segment.set_state(rank, PeState::Exited);
                }
                continue;
            }
            eprintln!("rpnrun: PE {rank} {}; ending the job", describe(status));
            job.segment.mark_dead(rank);
            failure.get_or_insert(failure_code(status));
        }
        if failure.is_some() {
            job.terminate();
            break;
        }
        let sig = PENDING_SIGNAL.swap(0, Ordering::SeqCst);
        if sig != 0 {
            eprintln!("rpnrun: received {}; forwarding it to the PEs", signal_name(sig));
            job.signal_all(sig);
            failure.get_or_insert(128 + sig);
        }
        if let Some(limit) = opts.timeout
            && started.elapsed() >= limit
        {
            eprintln!("rpnrun: timeout after {:.1} s; PEs still running: {:?}; ending the job", limit.as_secs_f64(), job.running());
            job.terminate();
            failure = Some(124);
            break;
        }
        std::thread::sleep(POLL);
    }
    failure.unwrap_or_else(|| match exits.early(job.segment.left_waiters()) {
        Some(line) => {
            eprintln!("rpnrun: {line}");
            1
        }
        None => 0,
    })
}

/// Entry point of the `rpnrun` binary.
pub fn main() -> ! {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let code = match options::parse(&argv) {
        Ok(Request::Run(opts)) => run(&opts),
        Ok(Request::Help) => {
            print!("{}", help::text());
            0
        }
        Ok(Request::Version) => {
            println!("rpnrun (rpncomm-windows) {}", env!("CARGO_PKG_VERSION"));
            0
        }
        Err(msg) => {
            eprintln!("rpnrun: {msg}");
            2
        }
    };
    std::process::exit(code)
}
