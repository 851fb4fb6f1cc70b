//! Buffered output survives the end of a job: when a PE is told to stop (SIGTERM from rpnrun or
//! mpirun after another PE failed, SIGINT, SIGHUP) or aborts (SIGABRT), its Fortran units and C
//! streams are flushed before it dies, so that lines printed earlier reach a file or a pipe.
//!
//! Flushing takes the I/O runtime's locks, which a signal handler must not do (the interrupted
//! thread may hold them). So the handler only wakes a thread of ours through a pipe (write and
//! poll are async-signal-safe) and waits, at most `FLUSH_WAIT`, for it to report the flush done;
//! then it puts back the disposition it found and raises the signal again, so the PE ends as it
//! would have (killed by SIGTERM, or in the MPI's own SIGABRT handler). The thread blocks every
//! signal, so the kernel never hands it the signal it would wait for itself.
//!
//! What flushes: the hook the Fortran layer registers at RPN_COMM_init (it flushes the open
//! Fortran units), then C's `fflush(NULL)`.

use std::ffi::c_int;
use std::sync::Once;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicUsize, Ordering};

/// The longest a stopping PE waits for its flush (below rpnrun's 2 s before SIGKILL).
const FLUSH_WAIT_MS: c_int = 1000;

/// The signals that stop a PE and after which its output is flushed.
const SIGNALS: [c_int; 4] = [libc::SIGTERM, libc::SIGINT, libc::SIGHUP, libc::SIGABRT];

/// The registered flush of the Fortran units (an `extern "C" fn()`), 0 while none.
static HOOK: AtomicUsize = AtomicUsize::new(0);
/// Write end of the pipe that wakes the flushing thread, read end of the one it answers on.
static WAKE_FD: AtomicI32 = AtomicI32::new(-1);
static DONE_FD: AtomicI32 = AtomicI32::new(-1);
/// The first stop signal flushes; later ones (another thread, a second signal) do not wait.
static STOPPING: AtomicBool = AtomicBool::new(false);
/// The dispositions found at installation, put back before the signal is raised again.
static mut PREVIOUS: [Option<libc::sigaction>; 4] = [None; 4];
static INSTALL: Once = Once::new();

/// Registers `hook`, called (on the flushing thread) before C's streams are flushed.
pub fn set_hook(hook: extern "C" fn()) {
    HOOK.store(hook as usize, Ordering::SeqCst);
    install();
}

/// Starts the flushing thread and installs the handlers, once per process. A signal the
/// program ignores (SIG_IGN) stays ignored. Failures (no pipe, no thread) leave the signals as
/// they were: output may then be lost as before, nothing else changes.
pub fn install() {
    INSTALL.call_once(|| {
        let (Some((wake_read, wake_write)), Some((done_read, done_write))) = (pipe(), pipe()) else { return };
        if !spawn_flusher(wake_read, done_write) {
            return;
        }
        WAKE_FD.store(wake_write, Ordering::SeqCst);
        DONE_FD.store(done_read, Ordering::SeqCst);
        for (n, &sig) in SIGNALS.iter().enumerate() {
            // SAFETY: sigaction reads and writes only the structures given; the handler is an
            // extern "C" function that stays valid for the life of the process. PREVIOUS is
            // written here, once (under INSTALL), before the handler that reads it is installed.
            unsafe {
                let mut old: libc::sigaction = std::mem::zeroed();
                if libc::sigaction(sig, std::ptr::null(), &mut old) != 0 || old.sa_sigaction == libc::SIG_IGN {
                    continue;
                }
                let mut new: libc::sigaction = std::mem::zeroed();
                new.sa_sigaction = on_stop as *const () as libc::sighandler_t;
                new.sa_flags = libc::SA_RESTART;
                libc::sigemptyset(&mut new.sa_mask);
                (*std::ptr::addr_of_mut!(PREVIOUS))[n] = Some(old);
                libc::sigaction(sig, &new, std::ptr::null_mut());
            }
        }
    });
}

/// A pipe (read end, write end), closed on exec.
fn pipe() -> Option<(c_int, c_int)> {
    let mut fds = [0 as c_int; 2];
    // SAFETY: pipe2 writes two descriptors into the array given.
    let rc = unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) };
    (rc == 0).then_some((fds[0], fds[1]))
}

/// The thread that flushes when woken; it is started with every signal blocked (the mask it
/// inherits), so no stop signal is ever handled on it.
fn spawn_flusher(wake_read: c_int, done_write: c_int) -> bool {
    // SAFETY: sigfillset and pthread_sigmask only read and write the sets given; the caller's
    // mask is put back right after the spawn.
    let saved = unsafe {
        let mut all: libc::sigset_t = std::mem::zeroed();
        let mut saved: libc::sigset_t = std::mem::zeroed();
        libc::sigfillset(&mut all);
        libc::pthread_sigmask(libc::SIG_BLOCK, &all, &mut saved);
        saved
    };
    let spawned = std::thread::Builder::new().name("rpncomm-flush".into()).spawn(move || flusher(wake_read, done_write)).is_ok();
    // SAFETY: as above.
    unsafe { libc::pthread_sigmask(libc::SIG_SETMASK, &saved, std::ptr::null_mut()) };
    spawned
}

fn flusher(wake_read: c_int, done_write: c_int) {
    let mut byte = 0u8;
    loop {
        // SAFETY: reads one byte into a local from a descriptor this thread owns.
        let n = unsafe { libc::read(wake_read, (&raw mut byte).cast(), 1) };
        if n < 0 && std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted {
            continue;
        }
        if n != 1 {
            return; // the pipe is gone: nothing will wake us
        }
        flush_all();
        // SAFETY: writes one byte from a local to a descriptor this thread owns.
        unsafe { libc::write(done_write, (&raw const byte).cast(), 1) };
    }
}

/// Flushes the Fortran units (through the hook) and C's streams; Rust's stdout is line
/// buffered to a terminal and flushed per `println!` otherwise only by its own code.
fn flush_all() {
    let hook = HOOK.load(Ordering::SeqCst);
    if hook != 0 {
        // SAFETY: HOOK only ever holds a `extern "C" fn()` stored by `set_hook`.
        let hook: extern "C" fn() = unsafe { std::mem::transmute::<usize, extern "C" fn()>(hook) };
        hook();
    }
    use std::io::Write;
    let _ = std::io::stdout().flush();
    // SAFETY: fflush(NULL) flushes every C output stream; called outside any signal handler.
    unsafe { libc::fflush(std::ptr::null_mut()) };
}

/// The handler: wake the flusher, wait for it (bounded), restore, re-raise.
extern "C" fn on_stop(sig: c_int) {
    // errno belongs to the interrupted code
    // SAFETY: __errno_location returns this thread's errno.
    let errno = unsafe { *libc::__errno_location() };
    if !STOPPING.swap(true, Ordering::SeqCst) {
        wait_for_flush();
    }
    if let Some(n) = SIGNALS.iter().position(|&s| s == sig) {
        // SAFETY: PREVIOUS was written before this handler was installed and is only read now;
        // sigaction and raise are async-signal-safe. The signal is blocked while its handler
        // runs, so the raised one is delivered, with the disposition put back, on return.
        unsafe {
            if let Some(old) = (*std::ptr::addr_of!(PREVIOUS))[n] {
                libc::sigaction(sig, &old, std::ptr::null_mut());
            }
            libc::raise(sig);
        }
    }
    // SAFETY: as above.
    unsafe { *libc::__errno_location() = errno };
}

/// Async-signal-safe: one write, then poll and read on the answer pipe.
fn wait_for_flush() {
    let (wake, done) = (WAKE_FD.load(Ordering::SeqCst), DONE_FD.load(Ordering::SeqCst));
    if wake < 0 || done < 0 {
        return;
    }
    let byte = 1u8;
    // SAFETY: write, poll and read are async-signal-safe; the buffers are locals.
    unsafe {
        if libc::write(wake, (&raw const byte).cast(), 1) != 1 {
            return;
        }
        let mut pfd = libc::pollfd { fd: done, events: libc::POLLIN, revents: 0 };
        if libc::poll(&mut pfd, 1, FLUSH_WAIT_MS) == 1 {
            let mut answer = 0u8;
            libc::read(done, (&raw mut answer).cast(), 1);
        }
    }
}
