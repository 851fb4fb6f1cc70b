//! The protocols by which the PEs of a node synchronise through words of shared memory, checked
//! by the model tests (tests/loom_protocols.rs):
//! - `sync`: the atomics of these protocols, std's or loom's (`--cfg loom`);
//! - `wait`: waiting on a word (spin, then sleep), watching that the job is alive;
//! - `spin`: how long a waiter spins before it yields the core;
//! - `futex`: futex wait and wake on shared words (modelled under loom);
//! - `barrier`: the combining-tree barrier of fences, passive closes and collectives;
//! - `epochs`: a window's epoch signals (open, close) one PE's side at a time;
//! - `lock`: the passive-mode reader-writer lock of one PE's window;
//! - `slots`: the slot claim of a secondary window (request/reply);
//! - `rounds`: the exchange rounds of the job's small allgathers (no barrier).

pub mod barrier;
pub mod epochs;
pub mod futex;
pub mod lock;
pub mod rounds;
pub mod slots;
pub mod spin;
pub mod sync;
pub mod wait;
