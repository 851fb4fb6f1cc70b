//! The counters of one window on this PE, and the clock that times its calls.
//!
//! Cost is what matters here: a passive put costs about 30 ns, so the hot path may spend a
//! nanosecond or two. Hence:
//! - each thread counts in its own cache-aligned block of the window (taken on its first call):
//!   one writer per block, so a count is a plain load and store (no atomic read-modify-write,
//!   no line shared between threads) and none is lost when threads call operations at once;
//!   threads beyond `THREAD_SLOTS` share one more slot with atomic additions (exact, slower);
//! - the clock is the CPU's time-stamp counter (about 10 ns a read on the 2-core AMD EPYC VM,
//!   against 25 ns for clock_gettime(CLOCK_MONOTONIC); CLOCK_MONOTONIC_COARSE reads in 6 ns but
//!   ticks every 4 ms, useless for epochs of a microsecond), converted to seconds with the
//!   ratio of its ticks to `Instant` over the whole run; `Instant` where the counter is not
//!   invariant or not x86_64;
//! - every call of a kind is timed while its count is below `EXACT`, then one call in
//!   `SYNC_GAP` (open, close) or `DATA_GAP` (put, get, getacc, post; at random gaps, so that no
//!   periodic pattern of calls is always or never timed), and every call that moves
//!   `LARGE_BYTES` or more; the untimed calls are estimated at the mean of the timed small ones.

use crate::core::Mode;
use std::cell::Cell;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering::Relaxed};

/// The kinds of call counted: the operations, then open and close per mode.
pub const DATA_KINDS: [&str; 6] = ["put_r", "get_r", "getacc_r", "put_l", "get_l", "post"];
pub const MODES: [Mode; 3] = [Mode::Fence, Mode::Group, Mode::Passive];
pub const KINDS: usize = DATA_KINDS.len() + 2 * MODES.len();

/// A data operation (index into `DATA_KINDS`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DataOp {
    PutR = 0,
    GetR = 1,
    GetaccR = 2,
    PutL = 3,
    GetL = 4,
    Post = 5,
}

/// The kind index of an open (`close` false) or a close in `mode`.
pub fn sync_kind(mode: Mode, close: bool) -> usize {
    let m = MODES.iter().position(|&x| x == mode).expect("every mode is listed");
    DATA_KINDS.len() + m + if close { MODES.len() } else { 0 }
}

const EXACT: u64 = 64;
const SYNC_GAP: u64 = 16;
const DATA_GAP: u64 = 64;
pub const LARGE_BYTES: u64 = 4096;
const THREAD_SLOTS: usize = 128;

/// Ticks of the clock (see the module's notes).
pub mod clock {
    use std::sync::OnceLock;
    use std::time::Instant;

    fn origin() -> Instant {
        static ORIGIN: OnceLock<Instant> = OnceLock::new();
        *ORIGIN.get_or_init(Instant::now)
    }

    /// Whether ticks come from an invariant time-stamp counter (same rate on every core, in
    /// every power state: what the kernel's constant_tsc and nonstop_tsc flags say).
    pub fn is_tsc() -> bool {
        static TSC: OnceLock<bool> = OnceLock::new();
        *TSC.get_or_init(|| {
            #[cfg(target_arch = "x86_64")]
            {
                // CPUID leaf 0x8000_0007, EDX bit 8: invariant TSC. Hypervisors often hide the
                // bit while passing the flags on to the guest kernel, hence /proc/cpuinfo too.
                let leaf = std::arch::x86_64::__cpuid(0x8000_0000).eax;
                let invariant = leaf >= 0x8000_0007 && std::arch::x86_64::__cpuid(0x8000_0007).edx & (1 << 8) != 0;
                invariant
                    || std::fs::read_to_string("/proc/cpuinfo").is_ok_and(|c| {
                        c.lines().find(|l| l.starts_with("flags")).is_some_and(|l| {
                            let flags: Vec<&str> = l.split_whitespace().collect();
                            flags.contains(&"constant_tsc") && flags.contains(&"nonstop_tsc")
                        })
                    })
            }
            #[cfg(not(target_arch = "x86_64"))]
            false
        })
    }

    /// The clock now, in ticks.
    #[inline]
    pub fn ticks() -> u64 {
        #[cfg(target_arch = "x86_64")]
        if is_tsc() {
            // SAFETY: RDTSC exists on every x86_64 CPU and only reads the counter.
            return unsafe { std::arch::x86_64::_rdtsc() };
        }
        origin().elapsed().as_nanos() as u64
    }

    /// The clock's name in reports.
    pub fn name() -> &'static str {
        if is_tsc() { "tsc" } else { "monotonic" }
    }

    /// A reading of both clocks, to convert ticks to seconds later.
    #[derive(Debug, Clone, Copy)]
    pub struct Reading {
        ticks: u64,
        at: Instant,
    }

    impl Reading {
        pub fn now() -> Self {
            Reading { ticks: ticks(), at: Instant::now() }
        }

        /// Seconds per tick between `self` and `later` (1e-9 for `Instant` ticks).
        pub fn seconds_per_tick(&self, later: &Reading) -> f64 {
            let dt = later.ticks.wrapping_sub(self.ticks);
            if !is_tsc() || dt == 0 {
                return 1e-9;
            }
            later.at.duration_since(self.at).as_secs_f64() / dt as f64
        }
    }
}

/// This thread's index among the threads that counted (never reused).
fn thread_index() -> usize {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    thread_local! {
        static INDEX: Cell<usize> = const { Cell::new(usize::MAX) };
    }
    INDEX.with(|i| {
        if i.get() == usize::MAX {
            i.set(NEXT.fetch_add(1, Relaxed));
        }
        i.get()
    })
}

/// Adds `v` to `a`, returning the old value; a plain load and store for the slot's one writer.
#[inline]
fn bump(a: &AtomicU64, v: u64, one_writer: bool) -> u64 {
    if one_writer {
        let old = a.load(Relaxed);
        a.store(old.wrapping_add(v), Relaxed);
        old
    } else {
        a.fetch_add(v, Relaxed)
    }
}

#[derive(Default)]
struct KindCounters {
    count: AtomicU64,
    bytes: AtomicU64,
    timed: AtomicU64,
    timed_ticks: AtomicU64,
    small_timed: AtomicU64,
    small_timed_ticks: AtomicU64,
    /// The count at which the next small call is timed.
    next_sample: AtomicU64,
}

#[derive(Default)]
#[repr(align(64))]
struct ThreadCounters {
    kinds: [KindCounters; KINDS],
    random: AtomicU64,
}

impl ThreadCounters {
    /// A gap of 1 to 2 * mean - 1 calls (mean `mean`), from this slot's xorshift generator.
    fn gap(&self, mean: u64, one_writer: bool) -> u64 {
        let mut x = self.random.load(Relaxed);
        if x == 0 {
            x = 0x9E37_79B9_7F4A_7C15 ^ (self as *const Self as u64);
        }
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        if one_writer {
            self.random.store(x, Relaxed);
        } else {
            self.random.fetch_xor(x, Relaxed);
        }
        1 + x % (2 * mean - 1)
    }
}

/// The totals of one kind of call.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct KindTotals {
    pub count: u64,
    pub bytes: u64,
    /// Estimated ticks inside the calls (exact for the timed ones).
    pub ticks: f64,
}

/// The counters of one window on this PE.
pub struct WindowCounters {
    /// The slot of the first thread that counted in the process (the one that calls in most
    /// programs), inline: one load fewer on its path than the others' slots.
    first: ThreadCounters,
    /// The slots of threads 1 to THREAD_SLOTS, taken on their first call.
    slots: Box<[OnceLock<Box<ThreadCounters>>]>,
    shared: ThreadCounters,
}

/// The timing of one call, ended when it is dropped (at the end of the call).
pub struct Timing<'a> {
    kind: &'a KindCounters,
    one_writer: bool,
    small: bool,
    start: u64,
}

impl Drop for Timing<'_> {
    fn drop(&mut self) {
        let d = clock::ticks().wrapping_sub(self.start);
        bump(&self.kind.timed, 1, self.one_writer);
        bump(&self.kind.timed_ticks, d, self.one_writer);
        if self.small {
            bump(&self.kind.small_timed, 1, self.one_writer);
            bump(&self.kind.small_timed_ticks, d, self.one_writer);
        }
    }
}

impl Default for WindowCounters {
    fn default() -> Self {
        WindowCounters {
            first: ThreadCounters::default(),
            slots: (1..THREAD_SLOTS).map(|_| OnceLock::new()).collect(),
            shared: ThreadCounters::default(),
        }
    }
}

impl WindowCounters {
    #[inline]
    fn mine(&self) -> (&ThreadCounters, bool) {
        match thread_index() {
            0 => (&self.first, true),
            t => match self.slots.get(t - 1) {
                Some(slot) => (slot.get_or_init(Box::default), true),
                None => (&self.shared, false),
            },
        }
    }

    /// Counts a call of kind `kind` moving `bytes`; returns its timing when it is one of the
    /// timed calls.
    #[inline]
    fn count(&self, kind: usize, bytes: u64, mean_gap: u64) -> Option<Timing<'_>> {
        let (mine, one_writer) = self.mine();
        let k = &mine.kinds[kind];
        let i = bump(&k.count, 1, one_writer);
        bump(&k.bytes, bytes, one_writer);
        let small = bytes < LARGE_BYTES;
        if small {
            if i < k.next_sample.load(Relaxed) {
                return None;
            }
            let gap = if i < EXACT { 1 } else { mine.gap(mean_gap, one_writer) };
            k.next_sample.store(i + gap, Relaxed);
        }
        Some(Timing { kind: k, one_writer, small, start: clock::ticks() })
    }

    /// Counts a put, get, getacc or post moving `bytes`.
    #[inline]
    pub fn data(&self, op: DataOp, bytes: u64) -> Option<Timing<'_>> {
        self.count(op as usize, bytes, DATA_GAP)
    }

    /// Counts an open (`close` false) or a close in `mode`.
    pub fn sync(&self, mode: Mode, close: bool) -> Option<Timing<'_>> {
        self.count(sync_kind(mode, close), 0, SYNC_GAP)
    }

    /// The totals of every kind, over every thread.
    pub fn totals(&self) -> [KindTotals; KINDS] {
        let mut out = [KindTotals::default(); KINDS];
        for counters in [&self.first].into_iter().chain(self.slots.iter().filter_map(OnceLock::get).map(|b| &**b)).chain([&self.shared]) {
            for (t, k) in out.iter_mut().zip(&counters.kinds) {
                let count = k.count.load(Relaxed);
                let timed = k.timed.load(Relaxed);
                let small_timed = k.small_timed.load(Relaxed);
                let mean_small = if small_timed == 0 { 0.0 } else { k.small_timed_ticks.load(Relaxed) as f64 / small_timed as f64 };
                t.count += count;
                t.bytes += k.bytes.load(Relaxed);
                t.ticks += k.timed_ticks.load(Relaxed) as f64 + count.saturating_sub(timed) as f64 * mean_small;
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_exact_and_small_calls_are_sampled_after_the_first() {
        let w = WindowCounters::default();
        let mut timed = 0;
        for _ in 0..10_000 {
            timed += w.data(DataOp::PutR, 4).is_some() as u64;
        }
        for _ in 0..3 {
            assert!(w.data(DataOp::GetR, LARGE_BYTES).is_some(), "large calls are always timed");
        }
        let t = w.totals();
        assert_eq!((t[0].count, t[0].bytes), (10_000, 40_000));
        assert_eq!((t[1].count, t[1].bytes), (3, 3 * LARGE_BYTES));
        let expected = EXACT + (10_000 - EXACT) / DATA_GAP;
        assert!(timed > expected / 2 && timed < expected * 2, "{timed} timed, about {expected} expected");
        assert!(t[0].ticks > 0.0 && t[1].ticks > 0.0);
    }

    #[test]
    fn threads_lose_no_count() {
        let w = WindowCounters::default();
        std::thread::scope(|s| {
            for _ in 0..4 {
                s.spawn(|| {
                    for _ in 0..5000 {
                        drop(w.data(DataOp::Post, 20));
                        drop(w.sync(Mode::Passive, false));
                    }
                });
            }
        });
        let t = w.totals();
        assert_eq!((t[DataOp::Post as usize].count, t[DataOp::Post as usize].bytes), (20_000, 400_000));
        assert_eq!(t[sync_kind(Mode::Passive, false)].count, 20_000);
        assert_eq!(t[sync_kind(Mode::Passive, true)].count, 0);
    }

    #[test]
    fn calibration_gives_a_plausible_rate() {
        let a = clock::Reading::now();
        std::thread::sleep(std::time::Duration::from_millis(5));
        let b = clock::Reading::now();
        let s = a.seconds_per_tick(&b);
        // from 10 MHz to 10 GHz
        assert!(s > 1e-10 && s < 1e-7, "{s} s per tick");
    }
}
