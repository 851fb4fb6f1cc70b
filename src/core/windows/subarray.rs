//! Sub-array (3-D box) transfers: the geometry of a box in the caller's array and in the
//! target's window, and its split into contiguous runs. Both transports move a box run by run
//! (or from this description), so the split lives here, once.
//!
//! Arrays are Fortran-ordered (dimension 1 varies fastest); starts are 0-based element
//! indices, like the offsets of the contiguous operations.

use crate::error::{Error, Result};

/// A 3-D array shape and a box in it, as the caller gives them (unchecked).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BoxArgs {
    /// Extents of the array, dimension 1 first.
    pub shape: [i64; 3],
    /// 0-based index of the box's first element, per dimension.
    pub start: [i64; 3],
}

/// A checked box: `start[d] + count[d] <= shape[d]` in every dimension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CheckedBox {
    /// Extents of the array, dimension 1 first.
    pub shape: [usize; 3],
    /// 0-based index of the box's first element, per dimension.
    pub start: [usize; 3],
}

/// A box transfer, checked on both sides: `count` elements per dimension, from/to a box of
/// the local array and a box of the target's window (seen with the caller's shape).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BoxTransfer {
    /// The box in the caller's array.
    pub local: CheckedBox,
    /// The box in the target's window, seen with the caller's shape.
    pub remote: CheckedBox,
    /// The box's extents.
    pub count: [usize; 3],
}

/// One contiguous run of a box transfer: `len` elements at `local` in the local array and at
/// `remote` in the target's window (element offsets).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Run {
    /// Offset in the local array.
    pub local: usize,
    /// Offset in the target's window.
    pub remote: usize,
    /// Elements.
    pub len: usize,
}

fn non_negative(what: &str, d: usize, side: &str, v: i64) -> Result<usize> {
    usize::try_from(v).map_err(|_| Error::BadArgument(format!("negative box {what} {v} in dimension {} of the {side}", d + 1)))
}

fn check_box(side: &str, args: &BoxArgs, count: [usize; 3]) -> Result<CheckedBox> {
    let mut shape = [0usize; 3];
    let mut start = [0usize; 3];
    for d in 0..3 {
        shape[d] = non_negative("shape extent", d, side, args.shape[d])?;
        start[d] = non_negative("start", d, side, args.start[d])?;
    }
    for d in 0..3 {
        if start[d].checked_add(count[d]).is_none_or(|end| end > shape[d]) {
            return Err(Error::BadArgument(format!(
                "box start {} + extent {} exceeds extent {} of dimension {} of the {side}",
                start[d],
                count[d],
                shape[d],
                d + 1
            )));
        }
    }
    Ok(CheckedBox { shape, start })
}

impl BoxTransfer {
    /// Checks a box transfer: non-negative extents, the box within the local array and within
    /// the target's shape; the target's size is checked by the caller (`remote_total`).
    pub fn check(local: &BoxArgs, remote: &BoxArgs, count: [i64; 3]) -> Result<BoxTransfer> {
        let mut c = [0usize; 3];
        for d in 0..3 {
            c[d] = non_negative("extent", d, "box", count[d])?;
        }
        let local = check_box("local array", local, c)?;
        let remote = check_box("target's window shape", remote, c)?;
        Ok(BoxTransfer { local, remote, count: c })
    }

    /// Elements moved.
    pub fn nelem(&self) -> usize {
        self.count.iter().product()
    }

    /// Elements of the target's shape: what its part of the window must hold at least.
    pub fn remote_total(&self) -> Option<usize> {
        self.remote.shape.iter().try_fold(1usize, |a, &e| a.checked_mul(e))
    }

    /// Elements of the local array's shape (what the caller's array holds).
    pub fn local_total(&self) -> Option<usize> {
        self.local.shape.iter().try_fold(1usize, |a, &e| a.checked_mul(e))
    }

    /// The contiguous runs, in array order. Dimensions that the box spans whole on both
    /// sides merge into the run (a whole plane is one run). Nothing for an empty box.
    pub fn runs(&self) -> Vec<Run> {
        let mut runs = Vec::new();
        self.for_each_run(|r| runs.push(r));
        runs
    }

    /// Calls `f` with each run, in array order, without building a list (a 4 x 64 x 80 face is
    /// 5120 runs).
    pub fn for_each_run(&self, mut f: impl FnMut(Run)) {
        let Some(g) = self.run_grid() else { return };
        for k in 0..g.count[1] {
            for j in 0..g.count[0] {
                f(Run {
                    local: g.local + j * g.local_step[0] + k * g.local_step[1],
                    remote: g.remote + j * g.remote_step[0] + k * g.remote_step[1],
                    len: g.len,
                });
            }
        }
    }

    /// The runs as a 2-D grid (None for an empty box), for copy loops that step pointers
    /// instead of computing each run's place.
    pub fn run_grid(&self) -> Option<RunGrid> {
        if self.nelem() == 0 {
            return None;
        }
        let (l, r, c) = (&self.local, &self.remote, self.count);
        // Strides in elements, per dimension.
        let ls = [1, l.shape[0], l.shape[0] * l.shape[1]];
        let rs = [1, r.shape[0], r.shape[0] * r.shape[1]];
        // How many leading dimensions are contiguous on both sides.
        let mut merged = 1;
        let mut len = c[0];
        while merged < 3 && c[merged - 1] == l.shape[merged - 1] && c[merged - 1] == r.shape[merged - 1] {
            len *= c[merged];
            merged += 1;
        }
        let outer = |d: usize| if d < merged { 1 } else { c[d] };
        Some(RunGrid {
            local: (0..3).map(|d| l.start[d] * ls[d]).sum(),
            remote: (0..3).map(|d| r.start[d] * rs[d]).sum(),
            len,
            count: [outer(1), outer(2)],
            local_step: [ls[1], ls[2]],
            remote_step: [rs[1], rs[2]],
        })
    }
}

/// The runs of a box transfer laid out as a grid of `count[0] x count[1]` runs of `len`
/// elements: run (j, k) is at `local + j * local_step[0] + k * local_step[1]` in the local array
/// and likewise in the target's window (element offsets).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RunGrid {
    /// Offset of the first run in the local array.
    pub local: usize,
    /// Offset of the first run in the target's window.
    pub remote: usize,
    /// Elements per run.
    pub len: usize,
    /// Runs along the second and the third dimension.
    pub count: [usize; 2],
    /// Local offset from one run to the next along the second and the third dimension.
    pub local_step: [usize; 2],
    /// Remote offset from one run to the next along the second and the third dimension.
    pub remote_step: [usize; 2],
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(shape: [i64; 3], start: [i64; 3]) -> BoxArgs {
        BoxArgs { shape, start }
    }

    /// Element-by-element reference: every (local, remote) offset pair of the box.
    fn pairs_by_element(t: &BoxTransfer) -> Vec<(usize, usize)> {
        let mut v = Vec::new();
        for k in 0..t.count[2] {
            for j in 0..t.count[1] {
                for i in 0..t.count[0] {
                    let at = |s: &CheckedBox| (s.start[0] + i) + s.shape[0] * ((s.start[1] + j) + s.shape[1] * (s.start[2] + k));
                    v.push((at(&t.local), at(&t.remote)));
                }
            }
        }
        v
    }

    fn pairs_by_run(t: &BoxTransfer) -> Vec<(usize, usize)> {
        t.runs().iter().flat_map(|r| (0..r.len).map(move |e| (r.local + e, r.remote + e))).collect()
    }

    #[test]
    fn runs_cover_the_box_element_by_element() {
        let cases = [
            (b([6, 5, 4], [1, 2, 0]), b([7, 5, 3], [0, 1, 1]), [3, 2, 2]),
            (b([4, 5, 6], [0, 0, 1]), b([4, 5, 9], [0, 0, 3]), [4, 5, 2]),
            (b([4, 5, 6], [0, 1, 1]), b([4, 8, 9], [0, 0, 3]), [4, 3, 2]),
            (b([1, 1, 1], [0, 0, 0]), b([3, 3, 3], [2, 2, 2]), [1, 1, 1]),
            (b([4, 64, 80], [0, 0, 0]), b([10, 64, 80], [6, 0, 0]), [4, 64, 80]),
        ];
        for (l, r, c) in cases {
            let t = BoxTransfer::check(&l, &r, c).unwrap();
            assert_eq!(pairs_by_run(&t), pairs_by_element(&t), "{l:?} {r:?} {c:?}");
            assert_eq!(t.runs().iter().map(|r| r.len).sum::<usize>(), t.nelem());
        }
    }

    #[test]
    fn whole_dimensions_merge_into_longer_runs() {
        // A full plane on both sides: one run.
        let t = BoxTransfer::check(&b([4, 5, 6], [0, 0, 2]), &b([4, 5, 3], [0, 0, 1]), [4, 5, 2]).unwrap();
        assert_eq!(t.runs(), vec![Run { local: 40, remote: 20, len: 40 }]);
        // Whole along dimension 1 only: one run per k.
        let t = BoxTransfer::check(&b([4, 5, 6], [0, 1, 0]), &b([4, 5, 6], [0, 0, 0]), [4, 2, 3]).unwrap();
        assert_eq!(t.runs().len(), 3);
        // The 4 x 64 x 80 face of a wider target: 64 * 80 runs of 4.
        let t = BoxTransfer::check(&b([4, 64, 80], [0, 0, 0]), &b([10, 64, 80], [6, 0, 0]), [4, 64, 80]).unwrap();
        assert_eq!(t.runs().len(), 64 * 80);
        assert!(t.runs().iter().all(|r| r.len == 4));
    }

    #[test]
    fn empty_box_has_no_runs() {
        let t = BoxTransfer::check(&b([4, 5, 6], [4, 0, 0]), &b([4, 5, 6], [0, 0, 0]), [0, 5, 6]).unwrap();
        assert!(t.runs().is_empty());
        assert_eq!(t.nelem(), 0);
    }

    #[test]
    fn refusals_name_the_dimension_and_side() {
        let e = BoxTransfer::check(&b([6, 6, 6], [0, 3, 0]), &b([6, 6, 6], [0, 0, 0]), [1, 5, 1]).unwrap_err().to_string();
        assert!(e.contains("box start 3 + extent 5 exceeds extent 6 of dimension 2 of the local array"), "{e}");
        let e = BoxTransfer::check(&b([6, 6, 6], [0, 0, 0]), &b([6, 6, 4], [0, 0, 2]), [1, 1, 3]).unwrap_err().to_string();
        assert!(e.contains("dimension 3 of the target's window shape"), "{e}");
        let e = BoxTransfer::check(&b([6, 6, 6], [-1, 0, 0]), &b([6, 6, 6], [0, 0, 0]), [1, 1, 1]).unwrap_err().to_string();
        assert!(e.contains("negative box start -1 in dimension 1 of the local array"), "{e}");
        let e = BoxTransfer::check(&b([6, 6, 6], [0, 0, 0]), &b([6, 6, 6], [0, 0, 0]), [1, -2, 1]).unwrap_err().to_string();
        assert!(e.contains("negative box extent -2 in dimension 2"), "{e}");
        let e = BoxTransfer::check(&b([6, 6, 6], [0, 0, 0]), &b([6, 6, -6], [0, 0, 0]), [1, 1, 1]).unwrap_err().to_string();
        assert!(e.contains("negative box shape extent -6 in dimension 3 of the target's window shape"), "{e}");
    }
}
