//! Drivers shared by the fuzz targets: each turns fuzzer bytes into a sequence of calls
//! (`arbitrary`), runs it against the library and checks what came back against a small
//! model of what the call must do. A failed check panics, which libFuzzer reports as a
//! crash with the input that caused it (any panic aborts under libFuzzer, also one the C
//! ABI would catch: a caught panic still means an internal invariant broke).

pub mod core_driver;
pub mod ffi_driver;

/// Largest window (elements) and secondary window (records) the drivers create: the
/// library trusts any size the memory allows, and a 16 GiB window per input would only
/// measure the machine. Negative and zero sizes are kept as they come.
pub const MAX_ELEMENTS: i32 = 4096;
pub const MAX_SLOTS: i32 = 512;

/// Folds `v` into `-max..=max`, keeping its sign, except `i32::MIN` (an edge case of its own).
pub fn bounded(v: i32, max: i32) -> i32 {
    if v == i32::MIN || v.abs() <= max { v } else { v.signum() * (v.abs() % (max + 1)) }
}
