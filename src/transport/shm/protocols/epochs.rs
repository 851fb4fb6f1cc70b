//! The epoch protocol of a window (fence, group/PSCW and passive modes), one PE's side at a
//! time. Each PE publishes the mode and number of the epoch it opened, and the number of the
//! epoch it closed, in its own control block:
//! - an origin operates on a target only after it saw the target open the same epoch;
//! - a PE publishes its close after its operations of the epoch, and (group mode) leaves its
//!   close only after the PEs of its `pes_from` published theirs, so what they wrote into its
//!   memory is visible to it after the close. (Fence and passive closes go through the
//!   window's barrier instead, see `barrier`.)
//!
//! The functions only order the signals; the window keeps where they live and what a mode
//! means. Checked by the model tests (tests/loom_protocols.rs).

use super::sync::{AtomicU32, Ordering};
use super::wait::{Signal, WaitContext, wait_epoch};
use crate::error::Result;

/// Owner side of open: the mode first, then the epoch, so an origin that sees the epoch also
/// sees the mode (and what the owner wrote before, such as its `pes_from` set).
pub fn publish_open(mode: &AtomicU32, opened: &Signal, mode_code: u32, epoch: u32) {
    mode.store(mode_code, Ordering::Release);
    opened.store(epoch);
}

/// Origin side: waits until the target opened `epoch`; returns the mode it opened it in.
pub fn await_open(mode: &AtomicU32, opened: &Signal, epoch: u32, ctx: &WaitContext<'_>) -> Result<u32> {
    wait_epoch(opened, epoch, ctx)?;
    Ok(mode.load(Ordering::Acquire))
}

/// Publishes this PE's close of `epoch`, after its operations of the epoch.
pub fn publish_close(closed: &Signal, epoch: u32) {
    closed.store(epoch);
}

/// Waits until a PE published its close of `epoch`.
pub fn await_close(closed: &Signal, epoch: u32, ctx: &WaitContext<'_>) -> Result<()> {
    wait_epoch(closed, epoch, ctx)
}
