//! RPN_COMM_transpose, the distributed transpose of GEM's limited-area FFT solver, with the
//! original's layout and results. Along x (type ±1) over 'EW', along y (±2) over 'NS'; the
//! PEs of the line are ranked p = 0..np. Forward (type > 0), this PE's
//! za(size, min1:max1, n2, n3g) holds its columns of the first dimension (local i = 1.. is
//! global p*n1p + i, n1p = ceil(n1g/np)) and every level k of the third; afterwards
//! zb(size, n2, min3:max3, n1g) holds every global column and this PE's levels (global
//! p*n3p + kk + 1 at zb's third index min3 + kk, n3p = ceil(n3g/np); index 1 + kk on one
//! PE, as the original copies then). Backward (type < 0) is the inverse. Positions that
//! stand for no global index (beyond n1g, n3g) are left untouched (the original fills them
//! with whatever its buffers held).
//!
//! The exchange is the transport's alltoall (MPI_Alltoall in the MPI build). The PEs' calls are
//! checked as the per-step collectives' are (`check`): where those are exchanges, one carries
//! RPN_COMM_transpose and the shape, so that a PE in another collective or with another shape
//! fails every PE with one line; across nodes the call is logged; in the checking mode, the
//! agreement step.

use super::super::super::Runtime;
use crate::core::CollectiveId;
use crate::core::Communicator;
use crate::core::collectives::call_log::CallEntry;
use crate::error::{Error, Result};

/// The arguments of one call, in 4-byte words (`size` words per element).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Shape {
    pub min1: i64,
    pub max1: i64,
    pub n1g: usize,
    pub n2: usize,
    pub min3: i64,
    pub max3: i64,
    pub n3g: usize,
    pub size: usize,
}

/// One PE's view of the split of a line of `np` PEs.
#[derive(Debug, Clone, Copy)]
struct Split {
    np: usize,
    n1p: usize,
    n3p: usize,
}

impl Split {
    fn new(s: &Shape, np: usize) -> Split {
        Split { np, n1p: s.n1g.div_ceil(np), n3p: s.n3g.div_ceil(np) }
    }
    /// The caller's own split (RPN_COMM_Xpose1/2): `n1p` columns and `n3p` levels per PE. On
    /// one PE every column and level, whatever was given, as the original copies then.
    fn given(s: &Shape, np: usize, n1p: usize, n3p: usize) -> Split {
        if np == 1 { Split { np, n1p: s.n1g, n3p: s.n3g } } else { Split { np, n1p, n3p } }
    }
    /// Columns of the first dimension PE `p` holds (the last PEs may hold fewer, or none).
    fn cols(&self, s: &Shape, p: usize) -> usize {
        s.n1g.saturating_sub(p * self.n1p).min(self.n1p)
    }
    /// Levels of the third dimension PE `p` holds after a forward transpose.
    fn levels(&self, s: &Shape, p: usize) -> usize {
        s.n3g.saturating_sub(p * self.n3p).min(self.n3p)
    }
    /// Words in one block of the exchange (the largest any pair of PEs sends).
    fn block(&self, s: &Shape) -> usize {
        s.size * s.n2 * self.n1p * self.n3p
    }
    /// Whether zb is the exchange's blocks one after the other, as GEM's solver declares it:
    /// every PE's columns and levels full (n1g = np n1p, n3g = np n3p) and zb's third
    /// dimension n3p levels from its first index. Then the forward transpose receives straight
    /// into zb and the backward one sends straight from it, as the original does.
    fn zb_is_blocks(&self, s: &Shape) -> bool {
        self.np > 1 && s.n1g == self.np * self.n1p && s.n3g == self.np * self.n3p && s.n3w() == self.n3p
    }
    /// zb's third index of the first level this PE holds, as an offset from min3 (the original
    /// copies to index 1 on a single PE, to min3 otherwise).
    fn zb_base(&self, s: &Shape) -> i64 {
        if self.np == 1 { 1 - s.min3 } else { 0 }
    }
}

impl Shape {
    fn n1l(&self) -> usize {
        (self.max1 - self.min1 + 1).max(0) as usize
    }
    fn n3w(&self) -> usize {
        (self.max3 - self.min3 + 1).max(0) as usize
    }
    /// Words of za and zb.
    fn za_words(&self) -> usize {
        self.size * self.n1l() * self.n2 * self.n3g
    }
    fn zb_words(&self) -> usize {
        self.size * self.n2 * self.n3w() * self.n1g
    }
    /// Word offset of za(1, i, j, k) for local column i (0-based from 1) and 0-based j, k.
    fn za_at(&self, i: usize, j: usize, k: usize) -> usize {
        self.size * ((i as i64 + 1 - self.min1) as usize + self.n1l() * (j + self.n2 * k))
    }
    /// Word offset of zb(1, j, min3 + k3, g) for 0-based j, k3 offset and global column g.
    fn zb_at(&self, j: usize, k3: i64, g: usize) -> usize {
        self.size * (j + self.n2 * (k3 as usize + self.n3w() * g))
    }

    /// Why this PE's arrays cannot hold its part (None when they can).
    fn check(&self, split: &Split, me: usize) -> Result<()> {
        if self.size == 0 {
            return Err(Error::BadArgument("size (4-byte words per element) must be at least 1".into()));
        }
        let cols = split.cols(self, me) as i64;
        if cols > 0 && (self.min1 > 1 || self.max1 < cols) {
            return Err(Error::BadArgument(format!(
                "za's first dimension {}:{} must hold this PE's columns 1:{cols} of {} ({} PEs)",
                self.min1, self.max1, self.n1g, split.np
            )));
        }
        let base = split.zb_base(self);
        let levels = split.levels(self, me) as i64;
        if levels > 0 && (base < 0 || base + levels > self.n3w() as i64) {
            return Err(Error::BadArgument(format!(
                "zb's third dimension {}:{} must hold this PE's {levels} levels of {} from index {}",
                self.min3,
                self.max3,
                self.n3g,
                self.min3 + base
            )));
        }
        Ok(())
    }
}

/// The transpose's send and receive buffers, kept between calls: fresh ones each call cost
/// their page faults, two thirds of a call of the limited-area solver's size (bench/README.md).
#[derive(Default)]
pub(in crate::runtime) struct TransposeBuffers {
    send: Vec<u32>,
    recv: Vec<u32>,
}

/// The first `n` words of `v`, grown when shorter (what a call does not write is never read).
fn room(v: &mut Vec<u32>, n: usize) -> &mut [u32] {
    if v.len() < n {
        v.resize(n, 0);
    }
    &mut v[..n]
}

/// `dst`, elements of `size` words, from the elements of `src` at `first`, `first + stride`, ...
fn gather_strided(dst: &mut [u32], src: &[u32], first: usize, stride: usize, size: usize) {
    match size {
        1 => dst.iter_mut().enumerate().for_each(|(j, d)| *d = src[first + j * stride]),
        2 => dst.chunks_exact_mut(2).enumerate().for_each(|(j, d)| {
            let f = first + j * stride;
            d.copy_from_slice(&src[f..f + 2]);
        }),
        _ => dst.chunks_exact_mut(size).enumerate().for_each(|(j, d)| {
            let f = first + j * stride;
            d.copy_from_slice(&src[f..f + size]);
        }),
    }
}

/// The inverse of `gather_strided`: the elements of `src` to `dst` at `first`, `first + stride`, ...
fn scatter_strided(dst: &mut [u32], src: &[u32], first: usize, stride: usize, size: usize) {
    match size {
        1 => src.iter().enumerate().for_each(|(j, v)| dst[first + j * stride] = *v),
        2 => src.chunks_exact(2).enumerate().for_each(|(j, v)| {
            let f = first + j * stride;
            dst[f..f + 2].copy_from_slice(v);
        }),
        _ => src.chunks_exact(size).enumerate().for_each(|(j, v)| {
            let f = first + j * stride;
            dst[f..f + size].copy_from_slice(v);
        }),
    }
}

/// Forward: the blocks this PE (`me`) sends, one per PE of the line, from za into `out`
/// (one block per PE). Level by level: one level's columns of za (n2 rows of them) stay in the
/// first-level cache while they are spread over the block.
fn pack_forward(s: &Shape, sp: &Split, me: usize, za: &[u32], out: &mut [u32]) {
    let block = sp.block(s);
    let run = s.size * s.n2;
    // j runs contiguous in the block, every n1l-th element in za
    let stride = s.size * s.n1l();
    for d in 0..sp.np {
        let b = &mut out[d * block..(d + 1) * block];
        for kk in 0..sp.levels(s, d) {
            for i in 0..sp.cols(s, me) {
                let at = run * (kk + sp.n3p * i);
                gather_strided(&mut b[at..at + run], za, s.za_at(i, 0, d * sp.n3p + kk), stride, s.size);
            }
        }
    }
}

/// Forward: the received blocks (from each PE of the line, in rank order) into zb.
fn unpack_forward(s: &Shape, sp: &Split, me: usize, recv: &[u32], zb: &mut [u32]) {
    let block = sp.block(s);
    let base = sp.zb_base(s);
    // a column's levels lie one after the other in the block and in zb: one copy each
    let run = s.size * s.n2 * sp.levels(s, me);
    for p in 0..sp.np {
        let b = &recv[p * block..(p + 1) * block];
        for i in 0..sp.cols(s, p) {
            let at = s.size * s.n2 * sp.n3p * i;
            let to = s.zb_at(0, base, p * sp.n1p + i);
            zb[to..to + run].copy_from_slice(&b[at..at + run]);
        }
    }
}

/// Backward: the blocks this PE sends, one per PE of the line, from zb into `out`.
fn pack_backward(s: &Shape, sp: &Split, me: usize, zb: &[u32], out: &mut [u32]) {
    let block = sp.block(s);
    let base = sp.zb_base(s);
    // a column's levels lie one after the other in zb and in the block: one copy each
    let run = s.size * s.n2 * sp.levels(s, me);
    for d in 0..sp.np {
        let b = &mut out[d * block..(d + 1) * block];
        for i in 0..sp.cols(s, d) {
            let at = s.size * s.n2 * sp.n3p * i;
            let from = s.zb_at(0, base, d * sp.n1p + i);
            b[at..at + run].copy_from_slice(&zb[from..from + run]);
        }
    }
}

/// Backward: the received blocks into za, level by level (as `pack_forward`).
fn unpack_backward(s: &Shape, sp: &Split, me: usize, recv: &[u32], za: &mut [u32]) {
    let block = sp.block(s);
    let run = s.size * s.n2;
    let stride = s.size * s.n1l();
    for p in 0..sp.np {
        let b = &recv[p * block..(p + 1) * block];
        for kk in 0..sp.levels(s, p) {
            for i in 0..sp.cols(s, me) {
                let at = run * (kk + sp.n3p * i);
                scatter_strided(za, &b[at..at + run], s.za_at(i, 0, p * sp.n3p + kk), stride, s.size);
            }
        }
    }
}

/// The words as bytes, without a copy.
fn as_bytes(words: &[u32]) -> &[u8] {
    // SAFETY: the same memory, 4 bytes per word, u8 aligned everywhere.
    unsafe { std::slice::from_raw_parts(words.as_ptr() as *const u8, words.len() * 4) }
}

/// The words as bytes to write, without a copy.
fn as_bytes_mut(words: &mut [u32]) -> &mut [u8] {
    // SAFETY: the same memory, borrowed mutably as the words were; any byte pattern is a word.
    unsafe { std::slice::from_raw_parts_mut(words.as_mut_ptr() as *mut u8, words.len() * 4) }
}

/// The PEs a transpose runs over: a communicator of the grid by name ('EW', 'NS'), or the
/// caller's Fortran MPI communicator (RPN_COMM_Xpose1/2 and _Xpose148/248 take pe_myrow or
/// pe_mycol; MPI build only).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Line {
    Named(&'static str),
    Mpi(i32),
}

impl Line {
    /// The line of a transpose's `type`: ±1 along x ('EW'), anything else along y ('NS'), as
    /// the original's RPN_COMM_transpose and _transpose48 choose.
    pub fn of_type(kind: i32) -> Line {
        if kind.abs() == 1 { Line::Named("EW") } else { Line::Named("NS") }
    }
}

/// How the PEs of a line split the transpose (RPN_COMM_Xpose1/2 give theirs).
#[derive(Debug, Clone, Copy)]
pub struct Parts {
    pub npe: usize,
    pub n1p: usize,
    pub n3p: usize,
}

impl Runtime {
    /// The communicator of a transpose's line (None: this PE is in no such line).
    pub(super) fn line(&mut self, line: Line) -> Result<Option<Communicator>> {
        match line {
            Line::Named(name) => self.named(name),
            Line::Mpi(h) => self.transport.wrap_mpi_communicator(h).map(Some),
        }
    }

    /// RPN_COMM_transpose (see the module's notes): `kind` ±1 along x, ±2 along y, forward
    /// when positive.
    ///
    /// # Safety
    /// `za` and `zb` are the caller's arrays za(size, min1:max1, n2, n3g) and
    /// zb(size, n2, min3:max3, n1g) of 4-byte words.
    /// A `shape` refused by the caller (a negative count) fails every PE of the line after the
    /// agreement, as any bad argument does.
    pub unsafe fn transpose(&mut self, za: usize, zb: usize, shape: Result<Shape>, kind: i32) -> Result<()> {
        if !matches!(kind.abs(), 1 | 2) {
            return Err(Error::BadArgument(format!("type {kind}: RPN_COMM_transpose takes 1, -1 (along x) or 2, -2 (along y)")));
        }
        // SAFETY: the caller's promise, passed on.
        unsafe { self.xpose("RPN_COMM_transpose", Line::of_type(kind), None, za, zb, shape, kind) }
    }

    /// RPN_COMM_Xpose1 (forward) and _Xpose2 (backward): RPN_COMM_transpose's exchange over
    /// the caller's communicator `pecomm` of `parts.npe` PEs with its split. On one PE a copy
    /// that never looks at `pecomm`, as the original's.
    ///
    /// # Safety
    /// As `transpose`.
    pub unsafe fn xpose_given(
        &mut self,
        za: usize,
        zb: usize,
        shape: Result<Shape>,
        forward: bool,
        pecomm: i32,
        parts: Parts,
    ) -> Result<()> {
        let routine = if forward { "RPN_COMM_Xpose1" } else { "RPN_COMM_Xpose2" };
        let kind = if forward { 1 } else { -1 };
        // SAFETY: the caller's promise, passed on.
        unsafe { self.xpose(routine, Line::Mpi(pecomm), Some(parts), za, zb, shape, kind) }
    }

    /// The transpose over `line` (forward when `kind` > 0), split as `parts` says or in
    /// ceil(n/np) pieces.
    ///
    /// # Safety
    /// As `transpose`.
    #[allow(clippy::too_many_arguments)]
    unsafe fn xpose(
        &mut self,
        routine: &'static str,
        line: Line,
        parts: Option<Parts>,
        za: usize,
        zb: usize,
        shape: Result<Shape>,
        kind: i32,
    ) -> Result<()> {
        let comm = match parts {
            Some(p) if p.npe == 1 => None,
            _ => match self.line(line)? {
                Some(c) => Some(c),
                None => return Ok(()),
            },
        };
        let (np, me) = comm.as_ref().map_or((1, 0), |c| (c.size(), c.rank()));
        let (shape, given) = match shape {
            Ok(s) => (s, Ok(())),
            Err(e) => (Shape { min1: 1, max1: 0, n1g: 0, n2: 0, min3: 1, max3: 0, n3g: 0, size: 1 }, Err(e)),
        };
        let split = match parts {
            Some(p) => Split::given(&shape, np, p.n1p, p.n3p),
            None => Split::new(&shape, np),
        };
        let given = given.and_then(|()| match parts {
            Some(p) if p.npe != np => Err(Error::BadArgument(format!("npe = {} but the communicator has {np} PEs", p.npe))),
            _ => Ok(()),
        });
        let local = given.and_then(|()| shape.check(&split, me)).and_then(|()| {
            let (na, nb) = (shape.za_words() * 4, shape.zb_words() * 4);
            if (na > 0 && za == 0) || (nb > 0 && zb == 0) {
                return Err(Error::NullBuffer { what: "transpose", nelem: shape.za_words() as i64 });
            }
            if na > 0 && nb > 0 && za < zb + nb && zb < za + na {
                return Err(Error::BadArgument("za and zb overlap".into()));
            }
            if (na > 0 && !za.is_multiple_of(4)) || (nb > 0 && !zb.is_multiple_of(4)) {
                return Err(Error::BadArgument("za and zb must be arrays of 4-byte words".into()));
            }
            Ok(())
        });
        let block_bytes = split.block(&shape) * 4;
        if let Some(comm) = &comm {
            let payload =
                [kind as u32, shape.n1g as u32, shape.n2 as u32, shape.n3g as u32, shape.size as u32, split.n1p as u32, split.n3p as u32];
            let id = CollectiveId::Transpose;
            let rows = if self.checks_each_call() || matches!(line, Line::Mpi(_)) {
                self.agree(comm, id, &local, &payload)?
            } else if self.logs_calls(comm) {
                // (MPI across nodes: MPI_Alltoall as the original; a PE whose blocks differ is
                // named by MPI's error, or at the next meeting)
                self.log_call(comm, CallEntry::new(id, block_bytes, None, None, None), &local)?;
                vec![payload.to_vec(); np]
            } else {
                // the shape travels in the exchange of the calls: every PE compares every PE's
                let words: Vec<u8> = payload.iter().flat_map(|w| w.to_ne_bytes()).collect();
                let all = self.exchange(comm, CallEntry::new(id, block_bytes, None, None, None), &local, &words)?;
                all.each().map(|b| b.chunks_exact(4).map(|w| u32::from_ne_bytes(w.try_into().expect("4 bytes"))).collect()).collect()
            };
            local.clone()?;
            if let Some(pe) = rows.iter().position(|r| r != &rows[0]) {
                let d = |r: &[u32]| {
                    format!("type {} with n1g={} n2={} n3g={} size={} split {}x{}", r[0] as i32, r[1], r[2], r[3], r[4], r[5], r[6])
                };
                return Err(Error::Collective(format!("{routine}: PE {pe} calls {}, PE 0 {}", d(&rows[pe]), d(&rows[0]))));
            }
        }
        local?;
        // Forward reads za and updates zb; backward the other way round.
        let (from, from_words, to, to_words) =
            if kind > 0 { (za, shape.za_words(), zb, shape.zb_words()) } else { (zb, shape.zb_words(), za, shape.za_words()) };
        // SAFETY: the caller's arrays are as large as the shape says (the function's contract),
        // of 4-byte words (Fortran integers or reals), and distinct (checked above).
        let source: &[u32] = if from_words == 0 { &[] } else { unsafe { std::slice::from_raw_parts(from as *const u32, from_words) } };
        let words = split.block(&shape) * np;
        let direct = split.zb_is_blocks(&shape);
        // SAFETY: as above; written in place, so that what no global index stands for keeps its value.
        let target: &mut [u32] = if to_words == 0 { &mut [] } else { unsafe { std::slice::from_raw_parts_mut(to as *mut u32, to_words) } };
        let buffers = &mut self.transposes;
        let Some(comm) = comm else {
            // one PE: what it would send itself is what it receives
            let send = room(&mut buffers.send, words);
            if kind > 0 {
                pack_forward(&shape, &split, me, source, send);
                unpack_forward(&shape, &split, me, send, target);
            } else {
                pack_backward(&shape, &split, me, source, send);
                unpack_backward(&shape, &split, me, send, target);
            }
            return Ok(());
        };
        if kind > 0 {
            let send = room(&mut buffers.send, words);
            pack_forward(&shape, &split, me, source, send);
            if direct {
                return self.transport.alltoall(&comm, as_bytes(send), block_bytes, as_bytes_mut(target));
            }
            let recv = room(&mut buffers.recv, words);
            self.transport.alltoall(&comm, as_bytes(send), block_bytes, as_bytes_mut(recv))?;
            unpack_forward(&shape, &split, me, recv, target);
        } else {
            let recv = room(&mut buffers.recv, words);
            if direct {
                self.transport.alltoall(&comm, as_bytes(source), block_bytes, as_bytes_mut(recv))?;
            } else {
                let send = room(&mut buffers.send, words);
                pack_backward(&shape, &split, me, source, send);
                self.transport.alltoall(&comm, as_bytes(send), block_bytes, as_bytes_mut(recv))?;
            }
            unpack_backward(&shape, &split, me, recv, target);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Forward then backward over a simulated line of PEs (the exchange done by hand) gives
    /// every global element where the layout says, and back.
    #[test]
    fn forward_and_back_by_hand_uneven() {
        for (np, n1g, n3g) in [(1, 5, 3), (3, 7, 5), (4, 5, 5), (2, 4, 7)] {
            let s = Shape { min1: 0, max1: 3, n1g, n2: 2, min3: 1, max3: 3, n3g, size: 2 };
            let s = Shape { max1: s.max1.max(n1g.div_ceil(np) as i64 + 1), max3: n3g.div_ceil(np) as i64, ..s };
            let sp = Split::new(&s, np);
            let val = |g: usize, j: usize, k: usize, w: usize| (1000 * g + 100 * j + 10 * k + w) as u32;
            let za: Vec<Vec<u32>> = (0..np)
                .map(|p| {
                    let mut a = vec![u32::MAX; s.za_words()];
                    for i in 0..sp.cols(&s, p) {
                        for j in 0..s.n2 {
                            for k in 0..n3g {
                                for w in 0..s.size {
                                    a[s.za_at(i, j, k) + w] = val(p * sp.n1p + i, j, k, w);
                                }
                            }
                        }
                    }
                    a
                })
                .collect();
            let sent: Vec<Vec<u32>> = (0..np)
                .map(|p| {
                    let mut out = vec![0u32; sp.block(&s) * np];
                    pack_forward(&s, &sp, p, &za[p], &mut out);
                    out
                })
                .collect();
            let b = sp.block(&s);
            for me in 0..np {
                let recv: Vec<u32> = (0..np).flat_map(|p| sent[p][me * b..(me + 1) * b].to_vec()).collect();
                let mut zb = vec![u32::MAX; s.zb_words()];
                unpack_forward(&s, &sp, me, &recv, &mut zb);
                for g in 0..n1g {
                    for kk in 0..sp.levels(&s, me) {
                        for j in 0..s.n2 {
                            let at = s.zb_at(j, sp.zb_base(&s) + kk as i64, g);
                            assert_eq!(zb[at + 1], val(g, j, me * sp.n3p + kk, 1), "np={np} me={me} g={g} kk={kk}");
                        }
                    }
                }
                // and back: this PE's zb returned to every PE's za
                let mut back = vec![0u32; sp.block(&s) * np];
                pack_backward(&s, &sp, me, &zb, &mut back);
                let mut za_back = vec![0u32; s.za_words()];
                // a single PE line only: the full round trip needs every PE's zb
                if np == 1 {
                    unpack_backward(&s, &sp, me, &back, &mut za_back);
                    for i in 0..n1g {
                        assert_eq!(za_back[s.za_at(i, 1, n3g - 1)], za[0][s.za_at(i, 1, n3g - 1)]);
                    }
                }
            }
        }
    }

    /// Where zb is the blocks one after the other, unpacking the received blocks into zb and
    /// packing zb's blocks are the identity: the direct exchange moves the same words.
    #[test]
    fn zb_laid_out_as_the_blocks_needs_no_copy() {
        for (np, me) in [(2, 0), (2, 1), (3, 2)] {
            let s = Shape { min1: 0, max1: 3, n1g: 2 * np, n2: 3, min3: 1, max3: 4, n3g: 4 * np, size: 2 };
            let sp = Split::new(&s, np);
            assert!(sp.zb_is_blocks(&s));
            let recv: Vec<u32> = (0..s.zb_words() as u32).collect();
            let mut zb = vec![0u32; s.zb_words()];
            unpack_forward(&s, &sp, me, &recv, &mut zb);
            assert_eq!(zb, recv);
            let mut sent = vec![0u32; s.zb_words()];
            pack_backward(&s, &sp, me, &zb, &mut sent);
            assert_eq!(sent, zb);
        }
        let ragged = Shape { min1: 0, max1: 3, n1g: 3, n2: 3, min3: 1, max3: 4, n3g: 8, size: 2 };
        assert!(!Split::new(&ragged, 2).zb_is_blocks(&ragged));
    }

    #[test]
    fn arrays_too_small_are_refused() {
        let s = Shape { min1: 1, max1: 2, n1g: 9, n2: 1, min3: 1, max3: 3, n3g: 9, size: 1 };
        let e = s.check(&Split::new(&s, 3), 0).unwrap_err().to_string();
        assert!(e.contains("za's first dimension 1:2 must hold this PE's columns 1:3"), "{e}");
        let s = Shape { max1: 3, max3: 2, ..s };
        assert!(s.check(&Split::new(&s, 3), 2).unwrap_err().to_string().contains("zb's third dimension"));
    }
}
