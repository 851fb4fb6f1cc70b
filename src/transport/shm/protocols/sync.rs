//! The atomics of the shared-memory protocols (waits, passive lock, barrier, epoch signals,
//! slot claim): std's, or loom's when the crate is built with `--cfg loom` for the model
//! tests (tests/loom_protocols.rs), so that the model checker runs the protocol code itself.

#[cfg(loom)]
pub use loom::sync::atomic::{AtomicU32, Ordering};
#[cfg(not(loom))]
pub use std::sync::atomic::{AtomicU32, Ordering};

/// Lets another thread run (loom's scheduler in the model).
pub fn yield_now() {
    #[cfg(loom)]
    loom::thread::yield_now();
    #[cfg(not(loom))]
    std::thread::yield_now();
}

/// Placed between a SeqCst store (or read-modify-write) and a SeqCst load of another word,
/// where the protocol needs the two ordered (the store-then-check of a waker and a sleeper).
/// SeqCst accesses give that by themselves, so this is nothing outside the model; loom models
/// SeqCst accesses as acquire/release only (tokio-rs/loom#180), so in the model it is the
/// SeqCst fence that loom does model.
pub fn order_store_before_load() {
    #[cfg(loom)]
    loom::sync::atomic::fence(Ordering::SeqCst);
}

/// The atomic read-modify-write the slot claim needs, for std's atomics (on shared memory) and
/// for loom's (in the model).
pub trait AtomicCounter {
    fn update(&self, f: impl FnMut(i32) -> Option<i32>) -> Result<i32, i32>;
}

impl AtomicCounter for std::sync::atomic::AtomicI32 {
    fn update(&self, f: impl FnMut(i32) -> Option<i32>) -> Result<i32, i32> {
        self.fetch_update(Ordering::AcqRel, Ordering::Acquire, f)
    }
}

#[cfg(loom)]
impl AtomicCounter for loom::sync::atomic::AtomicI32 {
    fn update(&self, f: impl FnMut(i32) -> Option<i32>) -> Result<i32, i32> {
        self.fetch_update(Ordering::AcqRel, Ordering::Acquire, f)
    }
}
