//! RPN_COMM_compress and _expand (and their 8-byte twins): an array(minx:maxx, miny:maxy, nk)
//! with halos squeezed in place to its points (nil, njl, nk) at the front of the same memory, and
//! back. Rows move one at a time: forward when squeezing (a row never lands on one not yet
//! moved), backward when spreading.

use crate::error::{Error, Result};

/// The layout of one call, `words` 4-byte words per element.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Squeeze {
    /// The array's bounds: array(minx:maxx, miny:maxy, nk).
    pub minx: i64,
    /// See `minx`.
    pub maxx: i64,
    /// See `minx`.
    pub miny: i64,
    /// See `minx`.
    pub maxy: i64,
    /// Its points (1:nil, 1:njl) in each of the `nk` levels.
    pub nil: usize,
    /// See `nil`.
    pub njl: usize,
    /// Levels.
    pub nk: usize,
    /// 4-byte words per element (1, or 2 for the 8-byte twins).
    pub words: usize,
}

impl Squeeze {
    fn nx(&self) -> usize {
        (self.maxx - self.minx + 1).max(0) as usize
    }
    fn ny(&self) -> usize {
        (self.maxy - self.miny + 1).max(0) as usize
    }
    /// Words of the whole array.
    pub fn len(&self) -> usize {
        self.nx() * self.ny() * self.nk * self.words
    }
    /// Whether the array has no word.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Refused when the points (1:nil, 1:njl) are not inside the array.
    pub fn check(&self) -> Result<()> {
        if self.nil > 0
            && self.njl > 0
            && self.nk > 0
            && (self.minx > 1 || self.maxx < self.nil as i64 || self.miny > 1 || self.maxy < self.njl as i64)
        {
            return Err(Error::BadArgument(format!(
                "array({}:{}, {}:{}, nk) must hold the points (1:{}, 1:{})",
                self.minx, self.maxx, self.miny, self.maxy, self.nil, self.njl
            )));
        }
        Ok(())
    }
    /// First word of row (j, k) in the array with halos and squeezed (0-based j, k).
    fn rows(&self, j: usize, k: usize) -> (usize, usize) {
        let halo = (1 - self.minx) as usize + self.nx() * ((1 - self.miny) as usize + j + self.ny() * k);
        (halo * self.words, self.nil * (j + self.njl * k) * self.words)
    }
}

/// Squeezes (`expand` false) or spreads `array` as `s` says (checked first).
pub fn squeeze(array: &mut [u32], s: &Squeeze, expand: bool) -> Result<()> {
    s.check()?;
    let run = s.nil * s.words;
    if run == 0 {
        return Ok(());
    }
    let each = (0..s.nk).flat_map(|k| (0..s.njl).map(move |j| (j, k)));
    if expand {
        for (j, k) in each.collect::<Vec<_>>().into_iter().rev() {
            let (halo, flat) = s.rows(j, k);
            array.copy_within(flat..flat + run, halo);
        }
    } else {
        for (j, k) in each {
            let (halo, flat) = s.rows(j, k);
            array.copy_within(halo..halo + run, flat);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squeeze_then_spread_gives_the_points_back() {
        for words in [1, 2] {
            let s = Squeeze { minx: -1, maxx: 4, miny: 0, maxy: 3, nil: 3, njl: 2, nk: 2, words };
            let orig: Vec<u32> = (0..s.len() as u32).collect();
            let mut a = orig.clone();
            squeeze(&mut a, &s, false).unwrap();
            // the first point is (1, 1, 1): column 2 of row 1 (miny = 0) of a row of 6
            assert_eq!(&a[..words], &orig[(2 + 6) * words..(3 + 6) * words]);
            squeeze(&mut a, &s, true).unwrap();
            for k in 0..2 {
                for j in 0..2 {
                    let (h, _) = s.rows(j, k);
                    assert_eq!(a[h..h + 3 * words], orig[h..h + 3 * words]);
                }
            }
        }
        let bad = Squeeze { minx: 2, maxx: 4, miny: 1, maxy: 3, nil: 3, njl: 2, nk: 1, words: 1 };
        assert!(squeeze(&mut [0; 9], &bad, false).is_err());
    }
}
