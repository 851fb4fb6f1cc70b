//! The geometry and the sums of the adjoint of the halo exchange (RPN_COMM_adj_halo8,
//! RPN_COMM_adj_halo4, RPN_COMM_adj_halo): every copy of a point held in a neighbour's halo is
//! added back into the part of the PE that owns the point. The plain exchange
//! (`core::halo`) copies a PE's faces into its neighbours' halos; its adjoint sends each halo
//! back to the neighbour that filled it, which adds it in.
//!
//! The original does it in two passes, north/south first (whole halo rows, the x halos
//! included), then east/west (whole halo columns, the y halos included): a corner point reaches
//! its owner through the PE beside it, and on the way some halo points of the receiving PEs
//! get sums too. Here it is one exchange with the eight neighbours (each message checked before
//! anything is added): the north/south neighbours send their whole halo rows, the east/west
//! ones their whole halo columns, the corner ones their corner, and the receiver adds them in the
//! original's order, forming what the PE beside it would have passed on (its column plus the
//! corners it got) before adding that: the same sums, in the same order, the same halo points
//! changed, as the original.

use super::halo::{HaloBox, HaloCall, Side};
use crate::error::{Error, Result};

/// Which way a halo exchange moves values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    /// The plain exchange: each PE's faces are copied into its neighbours' halos.
    Exchange,
    /// Its adjoint: each PE's halos are added into the neighbours' parts they copy.
    Adjoint,
}

impl Flow {
    /// The box of `c`'s array a PE sends to its neighbour on `side`.
    pub fn sent(self, c: &HaloCall, side: Side) -> HaloBox {
        match self {
            Flow::Exchange => c.face(side),
            Flow::Adjoint => adjoint_sent(c, side),
        }
    }

    /// The bytes a PE receives from the neighbour on whose `side` it lies (that neighbour's
    /// `sent(side)`, sized from this PE's own arguments, which the headers show agree).
    pub fn received_bytes(self, c: &HaloCall, side: Side) -> usize {
        match self {
            Flow::Exchange => c.box_bytes(&c.halo(side.opposite())),
            Flow::Adjoint => c.box_bytes(&adjoint_sent(c, side)),
        }
    }
}

/// What the adjoint sends towards `side`: the halo on that side, as whole rows (x halos
/// included) towards north and south, whole columns (y halos included) towards east and west,
/// the corner towards a corner.
pub fn adjoint_sent(c: &HaloCall, side: Side) -> HaloBox {
    let h = c.halo(side);
    match side.step() {
        (0, _) => HaloBox { i: (1 - c.halox, c.ni + c.halox), ..h },
        (_, 0) => HaloBox { j: (1 - c.haloy, c.nj + c.haloy), ..h },
        _ => h,
    }
}

/// Where what comes from the neighbour on `side` is added: the rows (x halos included) or
/// columns (y halos included) of this PE's part next to that side.
fn landing(c: &HaloCall, side: Side) -> HaloBox {
    let f = c.face(side);
    match side.step() {
        (0, _) => HaloBox { i: (1 - c.halox, c.ni + c.halox), ..f },
        _ => HaloBox { j: (1 - c.haloy, c.nj + c.haloy), ..f },
    }
}

/// An element the adjoint sums: real*4 or real*8, as the original's adj_halo4 and adj_halo8.
pub trait Summand: Copy + std::ops::Add<Output = Self> {
    /// Its bytes.
    const BYTES: usize;
    /// The value in `bytes` (native order, `BYTES` long).
    fn read(bytes: &[u8]) -> Self;
}

impl Summand for f32 {
    const BYTES: usize = 4;
    fn read(bytes: &[u8]) -> Self {
        f32::from_ne_bytes(bytes.try_into().expect("4 bytes"))
    }
}

impl Summand for f64 {
    const BYTES: usize = 8;
    fn read(bytes: &[u8]) -> Self {
        f64::from_ne_bytes(bytes.try_into().expect("8 bytes"))
    }
}

/// A neighbour's box as it came, levels outermost then rows then points (as the exchange packs
/// it), addressed by this PE's indices: `at` is where the box lies in this PE's array.
struct Part<'a> {
    bytes: &'a [u8],
    at: HaloBox,
    nk: i32,
}

impl Part<'_> {
    fn new<'a, T: Summand>(bytes: &'a [u8], at: HaloBox, nk: i32, side: Side) -> Result<Part<'a>> {
        let want = at.points() * nk.max(0) as usize * T::BYTES;
        if bytes.len() != want {
            return Err(Error::Internal(format!(
                "the adjoint halo from the {} neighbour holds {} bytes, {want} expected",
                side.name(),
                bytes.len()
            )));
        }
        Ok(Part { bytes, at, nk })
    }

    /// The value for point (i, j) of level k (this PE's indices, inside `at`).
    fn value<T: Summand>(&self, i: i32, j: i32, k: i32) -> T {
        let cols = (self.at.i.1 - self.at.i.0 + 1) as usize;
        let rows = (self.at.j.1 - self.at.j.0 + 1) as usize;
        debug_assert!(k >= 1 && k <= self.nk);
        let n = ((k - 1) as usize * rows + (j - self.at.j.0) as usize) * cols + (i - self.at.i.0) as usize;
        T::read(&self.bytes[n * T::BYTES..(n + 1) * T::BYTES])
    }

    fn holds(&self, i: i32, j: i32) -> bool {
        (self.at.i.0..=self.at.i.1).contains(&i) && (self.at.j.0..=self.at.j.1).contains(&j)
    }
}

/// Adds the neighbours' halos (`parts[s]`: what came from the neighbour on side `s` of this PE,
/// its `adjoint_sent` box towards this PE) into `g`, the array `c` describes, in the original's
/// order: rows from the north, rows from the south, then the columns from the west and from
/// the east, each column first given the corners that the PE beside it got from its own north
/// and south neighbours (what the original's second pass carries). A part's length is checked
/// before anything is added.
pub fn add_halos<T: Summand>(c: &HaloCall, g: &mut [T], parts: &[Option<&[u8]>; 8]) -> Result<()> {
    if g.len() < c.level_points() * c.nk.max(0) as usize {
        return Err(Error::Internal("the adjoint halo's array is shorter than its bounds".into()));
    }
    // Each part placed in this PE's indices: a side's where it is added; a corner's where it
    // lies in the column of the PE beside it (that column's rows next to the corner).
    let place = |s: Side| -> HaloBox {
        let (dx, dy) = s.step();
        let l = landing(c, s);
        match (dx, dy) {
            (0, _) | (_, 0) => l,
            _ => {
                let column = landing(c, if dx < 0 { Side::West } else { Side::East });
                let rows = c.face(if dy < 0 { Side::South } else { Side::North });
                HaloBox { i: column.i, j: rows.j }
            }
        }
    };
    let mut placed: [Option<Part>; 8] = Default::default();
    for s in Side::ALL {
        if let Some(bytes) = parts[s as usize] {
            placed[s as usize] = Some(Part::new::<T>(bytes, place(s), c.nk, s)?);
        }
    }
    let get = |s: Side| placed[s as usize].as_ref();
    for k in 1..=c.nk {
        for s in [Side::North, Side::South] {
            let Some(p) = get(s) else { continue };
            for j in p.at.j.0..=p.at.j.1 {
                for i in p.at.i.0..=p.at.i.1 {
                    let o = c.offset(i, j, k);
                    g[o] = g[o] + p.value::<T>(i, j, k);
                }
            }
        }
        for (s, corners) in [(Side::West, [Side::NorthWest, Side::SouthWest]), (Side::East, [Side::NorthEast, Side::SouthEast])] {
            let Some(p) = get(s) else { continue };
            for j in p.at.j.0..=p.at.j.1 {
                for i in p.at.i.0..=p.at.i.1 {
                    let mut v = p.value::<T>(i, j, k);
                    for corner in corners.iter().filter_map(|&q| get(q)) {
                        if corner.holds(i, j) {
                            v = v + corner.value::<T>(i, j, k);
                        }
                    }
                    let o = c.offset(i, j, k);
                    g[o] = g[o] + v;
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Grid;
    use crate::core::halo::{message_sides, neighbours8};

    fn call(ni: i32, nj: i32, hx: i32, hy: i32, periodx: bool, periody: bool) -> HaloCall {
        HaloCall {
            minx: 1 - hx,
            maxx: ni + hx,
            miny: 1 - hy,
            maxy: nj + hy,
            ni,
            nj,
            nk: 2,
            halox: hx,
            haloy: hy,
            periodx,
            periody,
            gni: 0,
            npol_row: 0,
            words: 2,
        }
    }

    fn pack(c: &HaloCall, g: &[f64], b: &HaloBox) -> Vec<u8> {
        let mut out = Vec::new();
        for k in 1..=c.nk {
            for j in b.j.0..=b.j.1 {
                for i in b.i.0..=b.i.1 {
                    out.extend_from_slice(&g[c.offset(i, j, k)].to_ne_bytes());
                }
            }
        }
        out
    }

    /// The original's two passes, on a whole grid of PEs at once (each PE's array), as a
    /// sequential reference: north to south, south to north, west to east, east to west.
    fn two_passes(grid: &Grid, c: &HaloCall, arrays: &mut [Vec<f64>]) {
        let (hx, hy, ni, nj) = (c.halox, c.haloy, c.ni, c.nj);
        let before: Vec<Vec<f64>> = arrays.to_vec();
        // y pass: rows sent as they were (halo rows are not changed by this pass)
        for (me, mine) in arrays.iter_mut().enumerate() {
            let sides = neighbours8(grid, me, c.periodx, c.periody);
            for (s, rows_to) in [(Side::North, nj - hy), (Side::South, 0)] {
                let Some(from) = sides[s as usize] else { continue };
                for k in 1..=c.nk {
                    for m in 1..=hy {
                        for i in 1 - hx..=ni + hx {
                            let src = if s == Side::North { m - hy } else { nj + m };
                            let v = before[from][c.offset(i, src, k)];
                            mine[c.offset(i, rows_to + m, k)] += v;
                        }
                    }
                }
            }
        }
        let mid: Vec<Vec<f64>> = arrays.to_vec();
        for (me, mine) in arrays.iter_mut().enumerate() {
            let sides = neighbours8(grid, me, c.periodx, c.periody);
            for (s, cols_to) in [(Side::West, 0), (Side::East, ni - hx)] {
                let Some(from) = sides[s as usize] else { continue };
                for k in 1..=c.nk {
                    for m in 1..=hx {
                        for j in 1 - hy..=nj + hy {
                            let src = if s == Side::West { ni + m } else { m - hx };
                            let v = mid[from][c.offset(src, j, k)];
                            mine[c.offset(cols_to + m, j, k)] += v;
                        }
                    }
                }
            }
        }
    }

    /// One exchange of the eight neighbours' boxes, then `add_halos` on each PE.
    fn one_exchange(grid: &Grid, c: &HaloCall, arrays: &mut [Vec<f64>]) {
        let before: Vec<Vec<f64>> = arrays.to_vec();
        for (me, mine) in arrays.iter_mut().enumerate() {
            let sides = neighbours8(grid, me, c.periodx, c.periody);
            let mut parts: Vec<(Side, Vec<u8>)> = Vec::new();
            for (s, from) in Side::ALL.iter().zip(sides) {
                let Some(from) = from else { continue };
                // the neighbour on side s sent its box towards its side s.opposite()
                let theirs = neighbours8(grid, from, c.periodx, c.periody);
                assert!(message_sides(&theirs, me, true).any(|t| t == s.opposite()));
                parts.push((*s, pack(c, &before[from], &adjoint_sent(c, s.opposite()))));
            }
            let mut by_side: [Option<&[u8]>; 8] = [None; 8];
            for (s, b) in &parts {
                by_side[*s as usize] = Some(b);
            }
            add_halos(c, mine, &by_side).unwrap();
        }
    }

    fn filled(c: &HaloCall, n: usize) -> Vec<Vec<f64>> {
        (0..n)
            .map(|pe| (0..c.level_points() * c.nk as usize).map(|x| ((pe * 7919 + x * 31) % 1013) as f64 * 0.125 + 0.1).collect())
            .collect()
    }

    #[test]
    fn one_exchange_equals_the_two_passes_bit_for_bit() {
        for (pex, pey) in [(1, 1), (2, 1), (1, 2), (2, 2), (3, 2), (3, 3), (4, 3)] {
            for (px, py) in [(false, false), (true, false), (false, true), (true, true)] {
                for (hx, hy) in [(1, 1), (2, 1), (1, 3), (0, 2), (2, 0)] {
                    let grid = Grid::xy(pex, pey);
                    let c = call(4, 5, hx, hy, px, py);
                    let mut a = filled(&c, pex * pey);
                    let mut b = a.clone();
                    two_passes(&grid, &c, &mut a);
                    one_exchange(&grid, &c, &mut b);
                    for pe in 0..pex * pey {
                        for (x, (u, v)) in a[pe].iter().zip(&b[pe]).enumerate() {
                            assert_eq!(u.to_bits(), v.to_bits(), "{pex}x{pey} periodic {px}/{py} halo {hx},{hy} PE {pe} element {x}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn interior_sums_are_the_transpose_of_the_exchange() {
        // global field on 2x2 PEs, periodic: each interior point's new value is its own plus every
        // copy of it in the halos, which the test counts from the forward exchange's boxes
        let grid = Grid::xy(2, 2);
        let c = call(3, 3, 1, 1, true, true);
        let mut arrays: Vec<Vec<f64>> = (0..4).map(|_| vec![1.0; c.level_points() * 2]).collect();
        one_exchange(&grid, &c, &mut arrays);
        // with a halo of 1 on 3x3 parts, 2x2 periodic PEs: an edge point has 1 copy, a corner 3
        let v = |pe: usize, i: i32, j: i32| arrays[pe][c.offset(i, j, 1)];
        assert_eq!(v(0, 2, 2), 1.0, "inner point: no copy");
        assert_eq!(v(0, 1, 2), 2.0, "west edge: one copy");
        assert_eq!(v(0, 1, 1), 4.0, "corner: three copies");
        assert_eq!(v(3, 3, 3), 4.0);
    }

    #[test]
    fn short_parts_are_refused() {
        let c = call(3, 3, 1, 1, false, false);
        let mut g = vec![0.0f64; c.level_points() * 2];
        let short = vec![0u8; 8];
        let mut parts: [Option<&[u8]>; 8] = [None; 8];
        parts[Side::North as usize] = Some(&short);
        let e = add_halos(&c, &mut g, &parts).unwrap_err().to_string();
        assert!(e.contains("north neighbour"), "{e}");
        assert!(g.iter().all(|&x| x == 0.0), "nothing added");
    }

    #[test]
    fn flows_size_what_they_send_and_receive_alike() {
        let c = call(4, 5, 2, 1, true, true);
        for s in Side::ALL {
            for f in [Flow::Exchange, Flow::Adjoint] {
                assert_eq!(c.box_bytes(&f.sent(&c, s)), f.received_bytes(&c, s), "{f:?} {}", s.name());
            }
        }
        assert_eq!(adjoint_sent(&c, Side::North), HaloBox { i: (-1, 6), j: (6, 6) });
        assert_eq!(adjoint_sent(&c, Side::West), HaloBox { i: (-1, 0), j: (0, 6) });
        assert_eq!(adjoint_sent(&c, Side::SouthEast), HaloBox { i: (5, 6), j: (0, 0) });
    }
}
