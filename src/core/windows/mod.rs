//! A window as this PE sees it, before any transport moves a byte:
//! - `window_state`: the exposure state machine, synchronisation mode, group lists, bounds and
//!   argument checks, and the client side of the request/reply slots;
//! - `subarray`: sub-array (3-D box) transfers and their split into contiguous runs;
//! - `requests`: the requests of the request-based operations, their slots and words.

pub mod requests;
pub mod subarray;
pub mod window_state;
