//! What the collectives and the point-to-point routines send: the datatypes of their messages,
//! the root's blocks of a gather or scatter of varying counts, and the envelope of a message
//! through the channels.
//!
//! - `message_type`: the datatypes of messages by name (the original's table): size, kind of
//!   element, the operators that combine them, and their arithmetic;
//! - `blocks`: the root's blocks of RPN_COMM_gatherv and scatterv, checked;
//! - `envelope`: tag, datatype and length ahead of a point-to-point message's bytes.

pub mod blocks;
pub mod envelope;
pub mod message_type;
