//! RPN_COMM_spread_context and RPN_COMM_spread (4.6.3): a root PE holds a table of points
//! (`source(npts, ndata)`, a real*4 per point and datum) and a destination for each point
//! (`pe(i)`, a rank of the communicator, or negative for a point that goes nowhere); each PE
//! receives the points sent to it, in their order in the table, as `dest(ndata, npoints)`. The
//! context (the plan) is made once, then any number of tables of the same points are spread
//! with it.

use crate::error::{Error, Result};

/// Where the root sends each point: how many to each PE, and which, grouped by PE in rank order,
/// each group in the points' order (the original's stable sort by destination).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpreadPlan {
    /// The points of the table (`npts`).
    pub ntotal: usize,
    /// Points for each PE, in rank order.
    pub counts: Vec<usize>,
    /// Indices (from 0) of the points sent, PE after PE.
    pub order: Vec<usize>,
}

impl SpreadPlan {
    /// The plan for destinations `pe` over `npes` PEs. A negative destination is a point outside
    /// every PE's domain (not sent, as the original); one past the last rank is refused.
    pub fn new(pe: &[i32], npes: usize) -> Result<Self> {
        if let Some((i, &p)) = pe.iter().enumerate().find(|&(_, &p)| p >= 0 && p as usize >= npes) {
            return Err(Error::BadArgument(format!(
                "pe({}) = {p}: the communicator has {npes} PEs (ranks 0 to {}; negative: a point sent nowhere)",
                i + 1,
                npes - 1
            )));
        }
        let mut counts = vec![0usize; npes];
        for &p in pe.iter().filter(|&&p| p >= 0) {
            counts[p as usize] += 1;
        }
        let mut order: Vec<usize> = (0..pe.len()).filter(|&i| pe[i] >= 0).collect();
        order.sort_by_key(|&i| pe[i]);
        Ok(SpreadPlan { ntotal: pe.len(), counts, order })
    }

    /// The root's messages for a table `source(ntotal, ndata)` of 4-byte values (`source`, its
    /// bytes in Fortran order): for each PE in rank order, its points one after the other, each
    /// its `ndata` values (the order of `dest(ndata, npoints)`); and each PE's byte count.
    pub fn pack(&self, source: &[u8], ndata: usize) -> Result<(Vec<u8>, Vec<usize>)> {
        if source.len() != self.ntotal * ndata * 4 {
            return Err(Error::Internal(format!("a spread table of {} bytes for {} points of {ndata} values", source.len(), self.ntotal)));
        }
        let mut out = Vec::with_capacity(self.order.len() * ndata * 4);
        for &i in &self.order {
            for j in 0..ndata {
                let at = (j * self.ntotal + i) * 4;
                out.extend_from_slice(&source[at..at + 4]);
            }
        }
        Ok((out, self.counts.iter().map(|&c| c * ndata * 4).collect()))
    }
}

/// The elements `dest(ndata, npoints)` must have on a PE receiving `npoints` points: as the
/// original allocates it, at least one point (a PE with none gets a column it does not use).
pub fn dest_elements(ndata: usize, npoints: usize) -> usize {
    ndata * npoints.max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(npts: usize, ndata: usize) -> Vec<u8> {
        // value of point i, datum j: 100 * i + j (1-based), as f32
        let mut t = vec![0u8; npts * ndata * 4];
        for j in 0..ndata {
            for i in 0..npts {
                let v = (100 * (i + 1) + j + 1) as f32;
                t[(j * npts + i) * 4..(j * npts + i) * 4 + 4].copy_from_slice(&v.to_ne_bytes());
            }
        }
        t
    }

    #[test]
    fn points_go_to_their_pe_in_table_order() {
        let plan = SpreadPlan::new(&[2, 0, -1, 2, 1, 0, -5], 3).unwrap();
        assert_eq!(plan.counts, vec![2, 1, 2]);
        assert_eq!(plan.order, vec![1, 5, 4, 0, 3]);
        let (bytes, counts) = plan.pack(&table(7, 2), 2).unwrap();
        assert_eq!(counts, vec![16, 8, 16]);
        let vals: Vec<f32> = bytes.chunks_exact(4).map(|b| f32::from_ne_bytes(b.try_into().unwrap())).collect();
        // PE 0: points 2 and 6; PE 1: point 5; PE 2: points 1 and 4; each (datum 1, datum 2)
        assert_eq!(vals, vec![201.0, 202.0, 601.0, 602.0, 501.0, 502.0, 101.0, 102.0, 401.0, 402.0]);
    }

    #[test]
    fn destinations_past_the_last_pe_are_refused() {
        let e = SpreadPlan::new(&[0, 3], 3).unwrap_err().to_string();
        assert!(e.contains("pe(2) = 3"), "{e}");
        assert_eq!(SpreadPlan::new(&[-1, -2], 3).unwrap().order, Vec::<usize>::new());
        assert_eq!(SpreadPlan::new(&[], 2).unwrap().counts, vec![0, 0]);
    }

    #[test]
    fn a_table_of_another_size_is_refused() {
        let plan = SpreadPlan::new(&[0, 1], 2).unwrap();
        assert!(plan.pack(&table(3, 1), 1).is_err());
        assert_eq!(dest_elements(4, 0), 4);
        assert_eq!(dest_elements(4, 3), 12);
    }
}
