//! RPN_COMM_barrier's timings (RPN_COMM_barrier_data): at detail level 1 the longest wait of the
//! PEs in the last barrier, at level 2 every PE's wait, both kept on the communicator's rank 0
//! until read once; level 0 (the default) measures nothing and costs nothing.

use std::sync::Mutex;
use std::sync::atomic::{AtomicI32, Ordering};
use std::time::Instant;

use super::super::Runtime;
use crate::error::Result;

static DETAIL: AtomicI32 = AtomicI32::new(0);

/// What the last barrier measured, on the communicator's rank 0 (`root`).
struct Timings {
    root: bool,
    longest: Option<f64>,
    each: Option<Vec<f64>>,
}

static LAST: Mutex<Timings> = Mutex::new(Timings { root: false, longest: None, each: None });

impl Runtime {
    /// RPN_COMM_barrier, timed at the detail level RPN_COMM_barrier_data set: each PE's wait
    /// gathered on the communicator's rank 0 (one gather more, only then).
    pub fn barrier_timed(&mut self, name: &str) -> Result<()> {
        let detail = DETAIL.load(Ordering::Relaxed);
        if detail <= 0 {
            return self.barrier(name);
        }
        let start = Instant::now();
        self.barrier(name)?;
        let wait = start.elapsed().as_secs_f64();
        let Some(comm) = self.named(name)? else { return Ok(()) };
        *LAST.lock().unwrap_or_else(|p| p.into_inner()) = Timings { root: false, longest: None, each: None };
        let all = self.transport.gather_to(&comm, &wait.to_ne_bytes(), 0)?;
        let each: Option<Vec<f64>> = all.map(|b| b.chunks_exact(8).map(|c| f64::from_ne_bytes(c.try_into().expect("8 bytes"))).collect());
        let mut last = LAST.lock().unwrap_or_else(|p| p.into_inner());
        last.root = comm.rank() == 0;
        if let Some(each) = each.filter(|_| last.root) {
            last.longest = Some(each.iter().copied().fold(0.0, f64::max));
            if detail >= 2 {
                last.each = Some(each);
            }
        }
        Ok(())
    }
}

/// RPN_COMM_barrier_data: `level` >= 0 sets the detail level (0); below 0 reads what the last
/// barrier measured, once, on the communicator's rank 0: with room for one value the longest wait
/// (1), with more every PE's (their number); -1 where there is nothing to read.
pub fn barrier_data(level: i32, nvalues: i32) -> (i32, Vec<f64>) {
    if level >= 0 {
        DETAIL.store(level, Ordering::Relaxed);
        return (0, Vec::new());
    }
    let mut last = LAST.lock().unwrap_or_else(|p| p.into_inner());
    if DETAIL.load(Ordering::Relaxed) == 0 || !std::mem::replace(&mut last.root, false) {
        return (-1, Vec::new());
    }
    match nvalues {
        1 => last.longest.take().map_or((-1, Vec::new()), |t| (1, vec![t])),
        n if n > 1 => last.each.take().map_or((-1, Vec::new()), |mut each| {
            each.truncate(n as usize);
            (each.len() as i32, each)
        }),
        _ => (-1, Vec::new()),
    }
}
