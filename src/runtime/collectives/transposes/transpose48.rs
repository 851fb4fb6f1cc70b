//! RPN_COMM_transpose48 and the exchanges it makes, RPN_COMM_Xpose148 (forward) and _Xpose248
//! (backward): the transpose of real za(min1:max1, min2:max2, n3g) to real*8
//! zb(min2:max2, min3:max3, n1g), converted on the way (zb = a*za + b forward; za = a*zb + b,
//! rounded to real, backward). The line's PEs cut both the first dimension (n1g) and the
//! levels (n3g) as RPN_COMM_limit does (tiles of ceiling(n / np), the last ones shorter or
//! empty); a PE holds its columns at za's indices 1.. and its levels at zb's third indices 1..,
//! rows j = 1..n2l in both. The exchange is the transport's
//! alltoallv (MPI_Alltoallv in the MPI build) of reals, as the original's.

use super::super::super::Runtime;
use super::transpose::Line;
use crate::core::CollectiveId;
use crate::error::{Error, Result};

/// The arguments of one call.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Shape48 {
    pub min1: i64,
    pub max1: i64,
    pub n1g: usize,
    pub min2: i64,
    pub max2: i64,
    pub n2l: usize,
    pub min3: i64,
    pub max3: i64,
    pub n3g: usize,
}

/// One PE's part of the line: every PE's count and first index (0-based) of the columns and of
/// the levels.
struct Cut {
    icount: Vec<usize>,
    idispl: Vec<usize>,
    kcount: Vec<usize>,
    kdispl: Vec<usize>,
}

/// Every PE's count and first index of `n` points: tiles of ceiling(n / np), the last ones
/// shorter or empty. RPN_COMM_limit's cut, also where its strict mode refuses an empty last tile:
/// the original's transposes take the counts it leaves then, these.
fn cut(np: usize, n: usize) -> (Vec<usize>, Vec<usize>) {
    let tile = n.div_ceil(np);
    let count: Vec<usize> = (0..np).map(|p| n.saturating_sub(p * tile).min(tile)).collect();
    let displ = (0..np).map(|p| (p * tile).min(n)).collect();
    (count, displ)
}

impl Cut {
    fn new(s: &Shape48, np: usize) -> Cut {
        let (icount, idispl) = cut(np, s.n1g);
        let (kcount, kdispl) = cut(np, s.n3g);
        Cut { icount, idispl, kcount, kdispl }
    }
}

fn width(lo: i64, hi: i64) -> usize {
    (hi - lo + 1).max(0) as usize
}

impl Shape48 {
    fn za_len(&self) -> usize {
        width(self.min1, self.max1) * width(self.min2, self.max2) * self.n3g
    }
    fn zb_len(&self) -> usize {
        width(self.min2, self.max2) * width(self.min3, self.max3) * self.n1g
    }
    /// Index of za(i, j, k), 0-based i (local), j, k (global).
    fn za_at(&self, i: usize, j: usize, k: usize) -> usize {
        (1 - self.min1) as usize + i + width(self.min1, self.max1) * ((1 - self.min2) as usize + j + width(self.min2, self.max2) * k)
    }
    /// Index of zb(j, k, i), 0-based j, k (local), i (global).
    fn zb_at(&self, j: usize, k: usize, i: usize) -> usize {
        (1 - self.min2) as usize + j + width(self.min2, self.max2) * ((1 - self.min3) as usize + k + width(self.min3, self.max3) * i)
    }

    /// Why this PE's arrays cannot hold its part (Ok when they can).
    fn check(&self, c: &Cut, me: usize) -> Result<()> {
        let holds = |lo: i64, hi: i64, n: usize| n == 0 || (lo <= 1 && hi >= n as i64);
        let (nil, nkl) = (c.icount[me], c.kcount[me]);
        if !holds(self.min1, self.max1, nil) {
            return Err(Error::BadArgument(format!(
                "za's first dimension {}:{} must hold this PE's columns 1:{nil}",
                self.min1, self.max1
            )));
        }
        if !holds(self.min2, self.max2, self.n2l) {
            return Err(Error::BadArgument(format!("the dimension {}:{} must hold n2l = {} rows from 1", self.min2, self.max2, self.n2l)));
        }
        if !holds(self.min3, self.max3, nkl) {
            return Err(Error::BadArgument(format!(
                "zb's second dimension {}:{} must hold this PE's levels 1:{nkl}",
                self.min3, self.max3
            )));
        }
        Ok(())
    }
}

fn f32_bytes(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_ne_bytes()).collect()
}

fn f32_of(b: &[u8]) -> impl Iterator<Item = f32> + '_ {
    b.chunks_exact(4).map(|c| f32::from_ne_bytes([c[0], c[1], c[2], c[3]]))
}

/// Forward: the reals this PE sends, destination by destination (its columns of each
/// destination's levels, level by level, row by row).
fn pack148(s: &Shape48, c: &Cut, me: usize, za: &[f32]) -> Vec<f32> {
    let mut out = Vec::with_capacity(c.icount[me] * s.n2l * s.n3g);
    for k in 0..s.n3g {
        for j in 0..s.n2l {
            out.extend((0..c.icount[me]).map(|i| za[s.za_at(i, j, k)]));
        }
    }
    out
}

/// Forward: what PE after PE sent (its columns of this PE's levels) into zb, as a*x + b.
fn unpack148(s: &Shape48, c: &Cut, me: usize, recv: &[f32], zb: &mut [f64], a: f64, b: f64) {
    let mut from = recv.iter();
    for p in 0..c.icount.len() {
        for k in 0..c.kcount[me] {
            for j in 0..s.n2l {
                for i in 0..c.icount[p] {
                    zb[s.zb_at(j, k, c.idispl[p] + i)] = a * f64::from(*from.next().expect("the exchange's counts")) + b;
                }
            }
        }
    }
}

/// Backward: the reals (a*x + b, rounded) this PE sends, destination by destination (the
/// destination's columns, each with this PE's levels).
fn pack248(s: &Shape48, c: &Cut, me: usize, zb: &[f64], a: f64, b: f64) -> Vec<f32> {
    let mut out = Vec::with_capacity(s.n1g * c.kcount[me] * s.n2l);
    for i in 0..s.n1g {
        for k in 0..c.kcount[me] {
            out.extend((0..s.n2l).map(|j| (a * zb[s.zb_at(j, k, i)] + b) as f32));
        }
    }
    out
}

/// Backward: what PE after PE sent (this PE's columns of its levels) into za.
fn unpack248(s: &Shape48, c: &Cut, me: usize, recv: &[f32], za: &mut [f32]) {
    let mut from = recv.iter();
    for p in 0..c.kcount.len() {
        for i in 0..c.icount[me] {
            for k in 0..c.kcount[p] {
                for j in 0..s.n2l {
                    za[s.za_at(i, j, c.kdispl[p] + k)] = *from.next().expect("the exchange's counts");
                }
            }
        }
    }
}

impl Runtime {
    /// RPN_COMM_transpose48 (`line` from its type), RPN_COMM_Xpose148 and _Xpose248 (`line` the
    /// caller's communicator of `npe` PEs): forward za to zb, backward zb to za (see the
    /// module's notes). On one PE a copy that never looks at the line, as the original's.
    ///
    /// # Safety
    /// `za` and `zb` are the caller's arrays of reals za(min1:max1, min2:max2, n3g) and
    /// real*8 zb(min2:max2, min3:max3, n1g).
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn transpose48(
        &mut self,
        line: Line,
        npe: Option<usize>,
        za: usize,
        zb: usize,
        shape: Result<Shape48>,
        forward: bool,
        a: f64,
        b: f64,
    ) -> Result<()> {
        let comm = if npe == Some(1) {
            None
        } else {
            match self.line(line)? {
                Some(c) => Some(c),
                None => return Ok(()),
            }
        };
        let (np, me) = comm.as_ref().map_or((1, 0), |c| (c.size(), c.rank()));
        let checked = shape.and_then(|s| {
            if let Some(n) = npe.filter(|&n| n != np) {
                return Err(Error::BadArgument(format!("npe = {n} but the communicator has {np} PEs")));
            }
            let c = Cut::new(&s, np);
            s.check(&c, me)?;
            if (s.za_len() > 0 && (za == 0 || !za.is_multiple_of(4))) || (s.zb_len() > 0 && (zb == 0 || !zb.is_multiple_of(8))) {
                return Err(Error::BadArgument("za and zb must be arrays of reals and of real*8".into()));
            }
            Ok((s, c))
        });
        if let Some(comm) = &comm {
            let payload = match &checked {
                Ok((s, _)) => vec![u32::from(forward), s.n1g as u32, s.n2l as u32, s.n3g as u32],
                Err(_) => vec![u32::from(forward), 0, 0, 0],
            };
            let local = checked.as_ref().map(|_| ()).map_err(Clone::clone);
            let rows = self.agree(comm, CollectiveId::Transpose48, &local, &payload)?;
            local?;
            if let Some(pe) = rows.iter().position(|r| r != &rows[0]) {
                return Err(Error::Collective(format!("PE {pe} passes (forward, n1g, n2l, n3g) {:?}, PE 0 {:?}", rows[pe], rows[0])));
            }
        }
        let (s, c) = checked?;
        // SAFETY: the caller's arrays are as large as the shape says (the function's contract).
        let za = if s.za_len() == 0 { &mut [][..] } else { unsafe { std::slice::from_raw_parts_mut(za as *mut f32, s.za_len()) } };
        // SAFETY: as above; za (reals) and zb (real*8) are different arrays.
        let zb = if s.zb_len() == 0 { &mut [][..] } else { unsafe { std::slice::from_raw_parts_mut(zb as *mut f64, s.zb_len()) } };
        let words = |n: &[usize], m: usize| n.iter().map(|x| x * m * 4).collect::<Vec<usize>>();
        if forward {
            let send = pack148(&s, &c, me, za);
            let recv = match &comm {
                None => send,
                Some(comm) => {
                    let sends = words(&c.kcount, c.icount[me] * s.n2l);
                    let recvs = words(&c.icount, c.kcount[me] * s.n2l);
                    f32_of(&self.transport.alltoallv(comm, &f32_bytes(&send), &sends, &recvs)?).collect()
                }
            };
            unpack148(&s, &c, me, &recv, zb, a, b);
        } else {
            let send = pack248(&s, &c, me, zb, a, b);
            let recv = match &comm {
                None => send,
                Some(comm) => {
                    let sends = words(&c.icount, c.kcount[me] * s.n2l);
                    let recvs = words(&c.kcount, c.icount[me] * s.n2l);
                    f32_of(&self.transport.alltoallv(comm, &f32_bytes(&send), &sends, &recvs)?).collect()
                }
            };
            unpack248(&s, &c, me, &recv, za);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cut_as_rpn_comm_limit_leaves_it() {
        assert_eq!(cut(3, 7), (vec![3, 3, 1], vec![0, 3, 6]));
        // 4 over 3: RPN_COMM_limit refuses (an empty last tile) but leaves these counts
        assert_eq!(cut(3, 4), (vec![2, 2, 0], vec![0, 2, 4]));
        assert_eq!(cut(1, 5), (vec![5], vec![0]));
    }

    /// Forward then backward over a simulated line (the exchange by hand) brings za back, and
    /// zb holds a*za + b where the layout says.
    #[test]
    fn forward_and_back_by_hand() {
        for (np, n1g, n3g) in [(1, 5, 3), (3, 7, 5), (2, 4, 7), (4, 9, 6), (3, 6, 4)] {
            let s = Shape48 { min1: 0, max1: 4, n1g, min2: 0, max2: 3, n2l: 2, min3: 1, max3: 4, n3g };
            let cuts: Vec<Cut> = (0..np).map(|_| Cut::new(&s, np)).collect();
            let val = |g: usize, j: usize, k: usize| (100 * g + 10 * j + k) as f32;
            let za: Vec<Vec<f32>> = (0..np)
                .map(|p| {
                    let mut a = vec![-1.0; s.za_len()];
                    for i in 0..cuts[p].icount[p] {
                        for j in 0..s.n2l {
                            for k in 0..n3g {
                                a[s.za_at(i, j, k)] = val(cuts[p].idispl[p] + i, j, k);
                            }
                        }
                    }
                    a
                })
                .collect();
            let sent: Vec<Vec<f32>> = (0..np).map(|p| pack148(&s, &cuts[p], p, &za[p])).collect();
            // the block PE p sends PE d starts after those for the PEs before d
            let block = |p: usize, d: usize| {
                let n = |q: usize| cuts[p].icount[p] * s.n2l * cuts[p].kcount[q];
                let from: usize = (0..d).map(n).sum();
                sent[p][from..from + n(d)].to_vec()
            };
            let zbs: Vec<Vec<f64>> = (0..np)
                .map(|me| {
                    let recv: Vec<f32> = (0..np).flat_map(|p| block(p, me)).collect();
                    let mut zb = vec![0.0; s.zb_len()];
                    unpack148(&s, &cuts[me], me, &recv, &mut zb, 2.0, 0.5);
                    for g in 0..n1g {
                        for k in 0..cuts[me].kcount[me] {
                            let want = 2.0 * f64::from(val(g, 1, cuts[me].kdispl[me] + k)) + 0.5;
                            assert_eq!(zb[s.zb_at(1, k, g)], want, "np={np} me={me} g={g} k={k}");
                        }
                    }
                    zb
                })
                .collect();
            let back: Vec<Vec<f32>> = (0..np).map(|p| pack248(&s, &cuts[p], p, &zbs[p], 0.5, -0.25)).collect();
            for me in 0..np {
                let block = |p: usize| {
                    let n = |q: usize| cuts[p].icount[q] * s.n2l * cuts[p].kcount[p];
                    let from: usize = (0..me).map(n).sum();
                    back[p][from..from + n(me)].to_vec()
                };
                let recv: Vec<f32> = (0..np).flat_map(block).collect();
                let mut za_back = vec![-1.0; s.za_len()];
                unpack248(&s, &cuts[me], me, &recv, &mut za_back);
                assert_eq!(za_back, za[me], "np={np} me={me}");
            }
        }
    }
}
