//! `rpnrun`: starts the PEs of a job on this node, watches them, ends the job when one
//! dies, and leaves nothing behind in /dev/shm.

pub mod cleanup;
pub mod options;

use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Child, Command, ExitStatus};
use std::sync::atomic::{AtomicI32, Ordering};
use std::time::{Duration, Instant};

use crate::transport::shm::job::{ENV_NPES, ENV_RANK, ENV_SEGMENT, JobSegment, PeState};
use crate::transport::shm::new_job_name;
use options::Options;

/// How long PEs get to end after SIGTERM before SIGKILL.
const GRACE: Duration = Duration::from_secs(2);
const POLL: Duration = Duration::from_millis(5);

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
    fn start(opts: &Options) -> Result<Job, String> {
        let name = new_job_name();
        let segment = JobSegment::create(&name, opts.npes, std::process::id())
            .map_err(|e| format!("cannot create the job segment: {e}"))?;
        let mut job = Job { segment, name, children: Vec::new(), pgid: 0 };
        for rank in 0..opts.npes {
            let mut cmd = Command::new(&opts.program);
            cmd.args(&opts.args)
                .env(ENV_SEGMENT, &job.name)
                .env(ENV_RANK, rank.to_string())
                .env(ENV_NPES, opts.npes.to_string())
                .process_group(job.pgid);
            if let Some(secs) = opts.hang_report {
                cmd.env(crate::diagnostics::ENV_HANG_REPORT, secs.to_string());
            }
            // SAFETY: prctl is async-signal-safe; it makes the PE die with the launcher.
            unsafe {
                cmd.pre_exec(|| {
                    libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
                    Ok(())
                });
            }
            match cmd.spawn() {
                Ok(child) => {
                    if rank == 0 {
                        job.pgid = child.id() as i32;
                    }
                    job.children.push(Some(child));
                }
                Err(e) => {
                    job.terminate();
                    return Err(format!("cannot start {} (PE {rank}): {e}", opts.program));
                }
            }
        }
        Ok(job)
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

/// Runs a job; returns the launcher's exit status.
pub fn run(opts: &Options) -> i32 {
    cleanup::remove_stale_jobs();
    install_signal_handlers();
    let mut job = match Job::start(opts) {
        Ok(job) => job,
        Err(e) => {
            eprintln!("rpnrun: {e}");
            return 1;
        }
    };
    let started = Instant::now();
    let mut failure: Option<i32> = None;
    while !job.running().is_empty() {
        for (rank, status) in job.reap() {
            if status.success() {
                if job.segment.state(rank) != PeState::Finalized {
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
    failure.unwrap_or(0)
}

/// Entry point of the `rpnrun` binary.
pub fn main() -> ! {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let code = match options::parse(&argv) {
        Ok(opts) => run(&opts),
        Err(msg) => {
            eprintln!("rpnrun: {msg}");
            2
        }
    };
    std::process::exit(code)
}
