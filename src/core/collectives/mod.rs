//! What the collectives decide before or beside moving data:
//! - `call_log`: the calls a PE made without checking them against the others' (their running
//!   signature and the last ones), to name the first that differs;
//! - `spread`: RPN_COMM_spread_context's plan (which points go to which PE) and the root's
//!   messages of RPN_COMM_spread.

pub mod call_log;
pub mod spread;
