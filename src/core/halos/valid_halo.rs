//! The original's table of valid halo widths (rpn_comm_get_valid_halo, _set_, _inc_): a small
//! table, keyed by an array's address, of three widths a caller records for it (how much of
//! its halo holds valid data). Local to the process; no communication. As the original: at
//! most `CAPACITY` arrays, widths kept as 2-byte integers, a negative width in a `set` forgets
//! the array, an `inc` never takes a width below 0.

/// Arrays the table holds at most (the original's MAX_TABLE).
pub const CAPACITY: usize = 256;

/// What the table knows: each array's address and its three widths.
#[derive(Debug, Default)]
pub struct ValidHalos {
    entries: Vec<(usize, [i16; 3])>,
}

impl ValidHalos {
    /// The empty table (a `static`'s initial value).
    pub const EMPTY: ValidHalos = ValidHalos { entries: Vec::new() };
}

/// Why a `set` or an `inc` did nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValidHaloError {
    /// The array is not in the table (get, inc).
    Unknown,
    /// The table holds `CAPACITY` arrays already (set).
    Full,
}

impl ValidHalos {
    /// The widths recorded for `array`.
    pub fn get(&self, array: usize) -> Result<[i32; 3], ValidHaloError> {
        let (_, h) = self.entries.iter().find(|(p, _)| *p == array && array != 0).ok_or(ValidHaloError::Unknown)?;
        Ok(h.map(i32::from))
    }

    /// Records `h` for `array`; a negative width forgets it (not an error when it is unknown).
    pub fn set(&mut self, array: usize, h: [i32; 3]) -> Result<(), ValidHaloError> {
        let forget = h.iter().any(|&v| v < 0);
        let at = self.entries.iter().position(|(p, _)| *p == array);
        match (at, forget) {
            (Some(i), true) => {
                self.entries.remove(i);
            }
            (Some(i), false) => self.entries[i].1 = h.map(|v| v as i16),
            (None, true) => {}
            (None, false) if self.entries.len() >= CAPACITY => return Err(ValidHaloError::Full),
            (None, false) => self.entries.push((array, h.map(|v| v as i16))),
        }
        Ok(())
    }

    /// Adds `d` to the widths of `array` (negative: less), none below 0.
    pub fn inc(&mut self, array: usize, d: [i32; 3]) -> Result<(), ValidHaloError> {
        let (_, h) = self.entries.iter_mut().find(|(p, _)| *p == array && array != 0).ok_or(ValidHaloError::Unknown)?;
        for (w, v) in h.iter_mut().zip(d) {
            // as the original: the sum kept in 2 bytes, then nothing below 0
            *w = (i32::from(*w).wrapping_add(v) as i16).max(0);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_get_inc_forget() {
        let mut t = ValidHalos::default();
        assert_eq!(t.get(64), Err(ValidHaloError::Unknown));
        t.set(64, [1, 2, 3]).unwrap();
        assert_eq!(t.get(64), Ok([1, 2, 3]));
        t.inc(64, [1, -5, 0]).unwrap();
        assert_eq!(t.get(64), Ok([2, 0, 3]));
        assert_eq!(t.inc(128, [1, 1, 1]), Err(ValidHaloError::Unknown));
        t.set(64, [-1, 0, 0]).unwrap();
        assert_eq!(t.get(64), Err(ValidHaloError::Unknown));
        assert_eq!(t.set(64, [-1, 0, 0]), Ok(()));
    }

    #[test]
    fn full_table_refuses_new_arrays() {
        let mut t = ValidHalos::default();
        for a in 1..=CAPACITY {
            t.set(a * 8, [1, 1, 1]).unwrap();
        }
        assert_eq!(t.set(9999 * 8, [1, 1, 1]), Err(ValidHaloError::Full));
        t.set(8, [4, 4, 4]).unwrap();
        assert_eq!(t.get(8), Ok([4, 4, 4]));
    }
}
