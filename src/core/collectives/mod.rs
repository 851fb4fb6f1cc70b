//! The plans of the collectives that move data as a plan made beforehand says:
//! - `spread`: RPN_COMM_spread_context's plan (which points go to which PE) and the root's
//!   messages of RPN_COMM_spread.

pub mod spread;
