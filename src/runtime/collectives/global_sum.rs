//! RPN_COMM_globalsum: the sum over the whole grid of each of the `nptsz` fields
//! array(1:nil, 1:njl, k) of reals, on every PE, added in the original's order so that the
//! result has the same bits: each global row j is added up from west to east (its points in
//! order, PE after PE), then the rows from south to north, from 0.0, in real arithmetic.
//! Every PE's points go to the grid's first PE (the transport's alltoallv), which adds them and
//! broadcasts the sums.

use super::super::Runtime;
use crate::core::CollectiveId;
use crate::error::{Error, Result};

/// One PE's field: `nil` points of `njl` rows, `nptsz` fields.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SumShape {
    pub minx: i64,
    pub maxx: i64,
    pub miny: i64,
    pub maxy: i64,
    pub nptsz: usize,
    pub nil: usize,
    pub njl: usize,
}

impl SumShape {
    fn nx(&self) -> usize {
        (self.maxx - self.minx + 1).max(0) as usize
    }
    fn ny(&self) -> usize {
        (self.maxy - self.miny + 1).max(0) as usize
    }
    fn len(&self) -> usize {
        self.nx() * self.ny() * self.nptsz
    }
    fn check(&self) -> Result<()> {
        if self.nil > 0 && self.njl > 0 && (self.minx > 1 || self.maxx < self.nil as i64 || self.miny > 1 || self.maxy < self.njl as i64) {
            return Err(Error::BadArgument(format!(
                "array({}:{}, {}:{}, nptsz) must hold the points (1:{}, 1:{})",
                self.minx, self.maxx, self.miny, self.maxy, self.nil, self.njl
            )));
        }
        Ok(())
    }
    /// This PE's points, field by field, row by row.
    fn points(&self, array: &[f32]) -> Vec<f32> {
        let mut out = Vec::with_capacity(self.nptsz * self.njl * self.nil);
        for k in 0..self.nptsz {
            for j in 0..self.njl {
                let row = (1 - self.minx) as usize + self.nx() * ((1 - self.miny) as usize + j + self.ny() * k);
                out.extend_from_slice(&array[row..row + self.nil]);
            }
        }
        out
    }
}

/// The sums of the fields of the PEs of a grid of `pex` x `pey`: `fields[x + pex*y]` is the
/// points of the PE at (x, y) as `SumShape::points` lays them out, of `shape[x + pex*y]`
/// = (nil, njl) points and rows.
pub fn sum_in_order(nptsz: usize, pex: usize, pey: usize, shape: &[(usize, usize)], fields: &[Vec<f32>]) -> Vec<f32> {
    let mut sum = vec![0.0f32; nptsz];
    for (k, total) in sum.iter_mut().enumerate() {
        for y in 0..pey {
            // the rows of this line of PEs: as many as its PEs have (the original's njl)
            let rows = (0..pex).map(|x| shape[x + pex * y].1).max().unwrap_or(0);
            for j in 0..rows {
                let mut row = 0.0f32;
                for x in 0..pex {
                    let (nil, njl) = shape[x + pex * y];
                    if j < njl {
                        let at = nil * (j + njl * k);
                        row = fields[x + pex * y][at..at + nil].iter().fold(row, |r, v| r + v);
                    }
                }
                *total += row;
            }
        }
    }
    sum
}

fn f32_bytes(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_ne_bytes()).collect()
}

fn f32_of(b: &[u8]) -> Vec<f32> {
    b.chunks_exact(4).map(|c| f32::from_ne_bytes([c[0], c[1], c[2], c[3]])).collect()
}

impl Runtime {
    /// RPN_COMM_globalsum (see the module's notes): `sum(nptsz)` the same on every PE of the grid.
    ///
    /// # Safety
    /// `array` is the caller's array(minx:maxx, miny:maxy, nptsz) of reals, `sum` room for
    /// `nptsz` reals.
    pub unsafe fn global_sum(&mut self, array: usize, shape: Result<SumShape>, sum: usize) -> Result<()> {
        let (grid, _) = self.grid_and_blocks()?;
        let comm = self.named("GRID")?.ok_or_else(|| Error::Internal("no grid communicator".into()))?;
        let (np, me) = (comm.size(), comm.rank());
        let checked = shape.and_then(|s| {
            s.check()?;
            if (s.len() > 0 && (array == 0 || !array.is_multiple_of(4))) || (s.nptsz > 0 && (sum == 0 || !sum.is_multiple_of(4))) {
                return Err(Error::BadArgument("array and sum must be arrays of reals".into()));
            }
            Ok(s)
        });
        let payload = match &checked {
            Ok(s) => vec![s.nptsz as u32, s.nil as u32, s.njl as u32],
            Err(_) => vec![0, 0, 0],
        };
        let local = checked.as_ref().map(|_| ()).map_err(Clone::clone);
        let rows = self.agree(&comm, CollectiveId::GlobalSum, &local, &payload)?;
        local?;
        let s = checked?;
        if let Some(pe) = rows.iter().position(|r| r[0] != rows[0][0]) {
            return Err(Error::Collective(format!("PE {pe} sums {} fields, PE 0 {}", rows[pe][0], rows[0][0])));
        }
        // SAFETY: the caller's array of reals as large as the shape says.
        let array = if s.len() == 0 { &[][..] } else { unsafe { std::slice::from_raw_parts(array as *const f32, s.len()) } };
        let mine = s.points(array);
        let counts: Vec<usize> = rows.iter().map(|r| r[0] as usize * r[1] as usize * r[2] as usize * 4).collect();
        let mut to_root = vec![0; np];
        to_root[0] = mine.len() * 4;
        let from = if me == 0 { counts.clone() } else { vec![0; np] };
        let all = self.transport.alltoallv(&comm, &f32_bytes(&mine), &to_root, &from)?;
        let mut total = vec![0u8; s.nptsz * 4];
        if me == 0 {
            let (pex, pey) = (grid.pex, grid.pey);
            let mut fields = vec![Vec::new(); np];
            let mut shape = vec![(0, 0); np];
            let mut at = 0;
            for (p, n) in counts.iter().enumerate() {
                let (x, y) = grid.grid_coords(p);
                fields[x + pex * y] = f32_of(&all[at..at + n]);
                shape[x + pex * y] = (rows[p][1] as usize, rows[p][2] as usize);
                at += n;
            }
            total = f32_bytes(&sum_in_order(s.nptsz, pex, pey, &shape, &fields));
        }
        self.transport.bcast(&comm, &mut total, 0)?;
        // SAFETY: the caller's room for nptsz reals.
        let out = if s.nptsz == 0 { &mut [][..] } else { unsafe { std::slice::from_raw_parts_mut(sum as *mut f32, s.nptsz) } };
        out.iter_mut().zip(f32_of(&total)).for_each(|(o, v)| *o = v);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A row is added point after point across the PEs of its line (not PE by PE, then
    /// together): the order shows in the bits.
    #[test]
    fn rows_add_across_the_line_in_order() {
        let big = 1.0e8f32;
        // 2 x 1 PEs, one row each of 2 points: ((0 + big) + 1) + (1 + -big)) differs
        let fields = vec![vec![big, 1.0], vec![1.0, -big]];
        let s = sum_in_order(1, 2, 1, &[(2, 1), (2, 1)], &fields);
        assert_eq!(s[0], (((big + 1.0) + 1.0) + -big));
        // two lines of PEs: rows from south to north
        let fields = vec![vec![1.0, 2.0, 3.0, 4.0], vec![10.0, 20.0, 30.0, 40.0]];
        let s = sum_in_order(2, 1, 2, &[(1, 2), (1, 2)], &fields);
        assert_eq!(s, vec![1.0 + 2.0 + 10.0 + 20.0, 3.0 + 4.0 + 30.0 + 40.0]);
    }

    #[test]
    fn points_skip_the_halo() {
        let s = SumShape { minx: 0, maxx: 2, miny: 1, maxy: 2, nptsz: 1, nil: 2, njl: 1 };
        assert_eq!(s.points(&[9.0, 1.0, 2.0, 9.0, 9.0, 9.0]), vec![1.0, 2.0]);
        assert!(SumShape { maxx: 1, ..s }.check().is_err());
    }
}
