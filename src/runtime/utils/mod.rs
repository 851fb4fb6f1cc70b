//! The original's small utilities: the environment (its variables, the working directory, the
//! host identifier, the alarm), the node's logical CPUs and the unbinding of a PE, the debug
//! flags of RPN_COMM_DEBUG, the libc file calls and the replication of a file to every node.
//!
//! - `debug`: RPN_COMM_DEBUG's `name=value` fields (RPN_COMM_debug_*);
//! - `cpus`: the node's logical CPU configuration (NODE_CPU_CONFIG) and rpn_comm_unbind_process;
//! - `files`: the descriptor calls, the background copy and RPN_COMM_file_bcst;
//! - `env`: the environment, the working directory, the host id, the alarm and the OpenMP threads.

pub mod cpus;
pub mod debug;
pub mod env;
pub mod files;
