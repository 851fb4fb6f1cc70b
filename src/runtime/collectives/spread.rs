//! RPN_COMM_spread_context and RPN_COMM_spread: the contexts (`type(rpncomm_context)`) and the
//! spread itself, a scatter of variable counts from the root. Both are collective over the
//! context's communicator and start with the agreement step (`CollectiveId::SpreadContext`,
//! `CollectiveId::Spread`): a PE that refuses its arguments makes every PE refuse, none waits.
//! The plan is `core::spread`.

use super::super::Runtime;
use super::super::caller_buffers::{read_caller_bytes, write_caller_bytes};
use crate::core::spread::{SpreadPlan, dest_elements};
use crate::core::{CollectiveId, Communicator, Handle, HandleKind, HandleTable};
use crate::error::{Error, Result};

/// One context of RPN_COMM_spread_context.
pub(in crate::runtime) struct SpreadContext {
    comm: Communicator,
    root: usize,
    /// Points this PE receives.
    npoints: usize,
    /// The root's plan (None on the other PEs).
    plan: Option<SpreadPlan>,
}

/// The contexts made so far (they live as long as the job: the original frees none).
pub(in crate::runtime) fn new_table() -> HandleTable<SpreadContext> {
    HandleTable::new(HandleKind::Context)
}

impl Runtime {
    /// RPN_COMM_spread_context over the communicator named `com`, root `root` (a rank of it):
    /// `pe` (read on the root only, `npts` points) names the destination of each point. Returns
    /// the context's handle.
    ///
    /// # Safety
    /// On the root, `pe` is readable for `npts` integers.
    pub unsafe fn spread_context(&mut self, com: &str, root: i32, pe: *const i32, npts: i32) -> Result<Handle> {
        let comm =
            self.named(com)?.ok_or_else(|| Error::BadArgument(format!("this PE is not a member of communicator '{}'", com.trim())))?;
        let n = comm.size();
        let is_root = usize::try_from(root).is_ok_and(|r| r == comm.rank());
        let local = (|| {
            if !(0..n as i64).contains(&i64::from(root)) {
                return Err(Error::BadArgument(format!("rootpe = {root}: the communicator '{}' has ranks 0 to {}", com.trim(), n - 1)));
            }
            if !is_root {
                return Ok(None);
            }
            let npts = usize::try_from(npts).map_err(|_| Error::BadArgument(format!("npts = {npts}: must not be negative")))?;
            if npts > 0 && pe.is_null() {
                return Err(Error::NullBuffer { what: "pe", nelem: npts as i64 });
            }
            // SAFETY: readable for npts integers on the root (contract).
            let pe = if npts == 0 { &[][..] } else { unsafe { std::slice::from_raw_parts(pe, npts) } };
            SpreadPlan::new(pe, n).map(Some)
        })();
        let agreed = self.agree(&comm, CollectiveId::SpreadContext, &local.as_ref().map(|_| ()).map_err(Clone::clone), &[root as u32])?;
        if let Some(p) = agreed.iter().position(|row| row[0] != root as u32) {
            return Err(Error::Collective(format!("PE {p} gives rootpe = {}, PE {} rootpe = {root}", agreed[p][0] as i32, comm.rank())));
        }
        let plan = local?;
        // each PE's count, from the root
        let (send, send_counts) = match &plan {
            Some(p) => (p.counts.iter().flat_map(|&c| (c as u64).to_ne_bytes()).collect(), vec![8; n]),
            None => (Vec::new(), vec![0; n]),
        };
        let recv_counts: Vec<usize> = (0..n).map(|p| if p == root as usize { 8 } else { 0 }).collect();
        let got = self.transport.alltoallv(&comm, &send, &send_counts, &recv_counts)?;
        let npoints = u64::from_ne_bytes(got[..8].try_into().map_err(|_| Error::Internal("a spread count cut short".into()))?) as usize;
        Ok(self.spreads.insert(SpreadContext { comm, root: root as usize, npoints, plan }))
    }

    /// The points this PE receives from the spreads of context `h` (local).
    pub fn spread_points(&self, h: &Handle) -> Result<usize> {
        Ok(self.spreads.get(h)?.npoints)
    }

    /// RPN_COMM_spread with context `h`: the root sends the points of `source(npts, ndata)`
    /// (real*4, read on the root only) to their PEs; this PE's land in `dest` of shape
    /// `dest_shape`, which must be (ndata, max(1, npoints)) as the original allocates it.
    /// Returns the number of points this PE received.
    ///
    /// # Safety
    /// On the root `source` is readable for `npts * ndata` 4-byte values; `dest` is writable for
    /// `dest_shape[0] x dest_shape[1]` 4-byte values.
    pub unsafe fn spread(&mut self, h: &Handle, source: usize, npts: i32, ndata: i32, dest: usize, dest_shape: [i32; 2]) -> Result<usize> {
        let ctx = self.spreads.get(h)?;
        let (comm, root, npoints) = (ctx.comm.clone(), ctx.root, ctx.npoints);
        let me = comm.rank();
        let local = (|| {
            let ndata = usize::try_from(ndata).map_err(|_| Error::BadArgument(format!("ndata = {ndata}: must not be negative")))?;
            if let Some(plan) = &ctx.plan
                && i64::from(npts) != plan.ntotal as i64
            {
                return Err(Error::BadArgument(format!(
                    "npts = {npts}: the context was made for {} points (RPN_COMM_spread_context)",
                    plan.ntotal
                )));
            }
            let want = [ndata, npoints.max(1)];
            if dest_shape.map(|d| d as i64) != want.map(|d| d as i64) {
                return Err(Error::BadArgument(format!(
                    "dest has the shape ({}, {}), not (ndata, max(1, npoints)) = ({}, {}) for this PE's {npoints} points",
                    dest_shape[0], dest_shape[1], want[0], want[1]
                )));
            }
            let dest_len = dest_elements(ndata, npoints);
            if (ctx.plan.is_some() && source == 0 && npts > 0 && ndata > 0) || (dest == 0 && dest_len > 0) {
                return Err(Error::NullBuffer { what: if dest == 0 { "dest" } else { "source" }, nelem: dest_len as i64 });
            }
            Ok(ndata)
        })();
        let plan = ctx.plan.clone();
        let agreed = self.agree(&comm, CollectiveId::Spread, &local.as_ref().map(|_| ()).map_err(Clone::clone), &[ndata as u32])?;
        if let Some(p) = agreed.iter().position(|row| row[0] != ndata as u32) {
            return Err(Error::Collective(format!("PE {p} gives ndata = {}, PE {me} ndata = {ndata}", agreed[p][0] as i32)));
        }
        let ndata = local?;
        let n = comm.size();
        let (send, send_counts) = match &plan {
            Some(plan) => {
                // SAFETY: the root's table holds npts * ndata values (contract; npts checked).
                let table = unsafe { read_caller_bytes(source, plan.ntotal * ndata * 4) };
                plan.pack(&table, ndata)?
            }
            None => (Vec::new(), vec![0; n]),
        };
        let recv_counts: Vec<usize> = (0..n).map(|p| if p == root { npoints * ndata * 4 } else { 0 }).collect();
        let got = self.transport.alltoallv(&comm, &send, &send_counts, &recv_counts)?;
        if !got.is_empty() {
            // SAFETY: dest holds ndata x max(1, npoints) values (checked), got is npoints x ndata.
            unsafe { write_caller_bytes(&got, dest) };
        }
        Ok(npoints)
    }
}
