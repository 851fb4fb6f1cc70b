//! The point-to-point channels of the MPI transport:
//! - `channel`: one MPI message per channel message;
//! - `hybrid_channel`: node-aware, the shared-memory channel to a PE of this node, MPI to others;
//! - `far_entries`: the entries into MPI's own collectives, readable from other nodes.

pub mod channel;
pub mod far_entries;
pub mod hybrid_channel;
