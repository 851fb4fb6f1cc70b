//! The agreement step of a collective call: before any PE acts, every PE of the communicator
//! says whether its own arguments were valid (plus a payload of integers), so that either all
//! PEs go on or all fail with a message, and none waits forever for a PE that refused.

use super::Runtime;
use crate::core::Communicator;
use crate::error::{Error, Result};

fn as_i32_bytes(values: &[u32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_ne_bytes()).collect()
}

impl Runtime {
    /// Gathers `local`'s verdict and `payload` from every PE of `comm`: this PE's own error
    /// first, then an error naming the first PE that refused, else every PE's payload in rank
    /// order.
    pub(super) fn agree(&mut self, comm: &Communicator, local: &Result<()>, payload: &[u32]) -> Result<Vec<Vec<u32>>> {
        let mut mine = vec![local.is_err() as u32];
        mine.extend_from_slice(payload);
        let n = mine.len() * 4;
        let mut all = vec![0u8; n * comm.size()];
        self.transport.allgather(comm, &as_i32_bytes(&mine), &mut all)?;
        let rows: Vec<Vec<u32>> =
            all.chunks_exact(n).map(|row| row.chunks_exact(4).map(|c| u32::from_ne_bytes(c.try_into().unwrap())).collect()).collect();
        local.clone()?;
        if let Some(pe) = rows.iter().position(|r| r[0] != 0) {
            return Err(Error::Collective(format!("PE {pe} refused the call (see its message)")));
        }
        Ok(rows.into_iter().map(|r| r[1..].to_vec()).collect())
    }
}
