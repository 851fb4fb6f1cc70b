//! Element datatypes of a window and their RPN_COMM / MPI names.

use std::sync::atomic::{AtomicUsize, Ordering};

use crate::error::{Error, Result};

/// The element types a window can hold: 4- and 8-byte integers and reals.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ElementType {
    /// 32-bit integer (MPI_INTEGER).
    Int32,
    /// 32-bit real (MPI_REAL).
    Real32,
    /// 64-bit integer (MPI_INTEGER8).
    Int64,
    /// 64-bit real (MPI_REAL8).
    Real64,
}

impl ElementType {
    /// Every element type.
    pub const ALL: [ElementType; 4] = [Self::Int32, Self::Real32, Self::Int64, Self::Real64];

    /// Size of one element in bytes.
    pub fn size(self) -> usize {
        match self {
            Self::Int32 | Self::Real32 => 4,
            Self::Int64 | Self::Real64 => 8,
        }
    }

    /// Whether the type is an integer type (bitwise and logical operators apply).
    pub fn is_integer(self) -> bool {
        matches!(self, Self::Int32 | Self::Int64)
    }

    /// The name used in messages.
    pub fn name(self) -> &'static str {
        match self {
            Self::Int32 => "MPI_INTEGER",
            Self::Real32 => "MPI_REAL",
            Self::Int64 => "MPI_INTEGER8",
            Self::Real64 => "MPI_REAL8",
        }
    }

    /// Parses an RPN_COMM datatype name ('MPI_INTEGER', 'MPI_REAL8', ...); blanks and case are ignored.
    pub fn from_name(name: &str) -> Result<Self> {
        match normalize_name(name).as_str() {
            "MPI_INTEGER" | "MPI_INTEGER4" | "MPI_INT" => Ok(Self::Int32),
            "MPI_REAL" | "MPI_REAL4" | "MPI_FLOAT" => Ok(Self::Real32),
            "MPI_INTEGER8" | "MPI_LONG_LONG" | "MPI_INT64_T" => Ok(Self::Int64),
            "MPI_REAL8" | "MPI_DOUBLE_PRECISION" | "MPI_DOUBLE" => Ok(Self::Real64),
            other => Err(Error::UnknownName { kind: "datatype", name: other.to_string() }),
        }
    }

    /// Stable small code used inside handles and across PEs.
    pub fn code(self) -> u32 {
        match self {
            Self::Int32 => 1,
            Self::Real32 => 2,
            Self::Int64 => 3,
            Self::Real64 => 4,
        }
    }

    /// The element type with this code (None: no such code).
    pub fn from_code(code: u32) -> Option<Self> {
        Self::ALL.into_iter().find(|t| t.code() == code)
    }
}

/// Fortran names arrive blank-padded and in any case.
pub fn normalize_name(name: &str) -> String {
    name.trim().to_ascii_uppercase()
}

/// The place in `table` of the entry whose name (upper case, `name_of`) `name` is, in any case
/// and blank-padded, without an allocation: the collectives look their type, operator and
/// communicator up by name at every call. `last` remembers the place found last, tried first: a
/// program names the same few at every call.
pub fn find_named<T>(table: &[T], name_of: impl Fn(&T) -> &str, name: &str, last: &AtomicUsize) -> Option<usize> {
    let hit = last.load(Ordering::Relaxed);
    // (the usual call names it as the table does, unpadded: one comparison of bytes, where the
    // trim and the comparison in any case cost a few instructions per byte)
    if table.get(hit).is_some_and(|e| same_bytes(name.as_bytes(), name_of(e).as_bytes())) {
        return Some(hit);
    }
    let name = name.trim_ascii();
    if table.get(hit).is_some_and(|e| name.eq_ignore_ascii_case(name_of(e))) {
        return Some(hit);
    }
    let found = table.iter().position(|e| name.eq_ignore_ascii_case(name_of(e)))?;
    last.store(found, Ordering::Relaxed);
    Some(found)
}

/// `a == b` for the short names of the tables: two overlapping word loads per side where the
/// slices' equality calls memcmp (a few dozen instructions, at every collective call).
pub fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    let word = |s: &[u8], at: usize| u64::from_ne_bytes(s[at..at + 8].try_into().expect("8 bytes"));
    let half = |s: &[u8], at: usize| u32::from_ne_bytes(s[at..at + 4].try_into().expect("4 bytes"));
    match n {
        8..=16 => word(a, 0) == word(b, 0) && word(a, n - 8) == word(b, n - 8),
        4..=7 => half(a, 0) == half(b, 0) && half(a, n - 4) == half(b, n - 4),
        _ => a == b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_bytes_is_slice_equality_at_every_length() {
        let names: [&[u8]; 8] = [b"", b"EW", b"NS", b"GRID", b"MPI_MAX", b"MPI_REAL8", b"MPI_DOUBLE_PRECISION", b"MPI_LOGICAL"];
        for a in names {
            for b in names {
                assert_eq!(same_bytes(a, b), a == b, "{a:?} {b:?}");
            }
        }
        for n in 0..=20usize {
            let a: Vec<u8> = (0..n as u8).collect();
            for i in 0..n {
                let mut b = a.clone();
                b[i] ^= 0x20;
                assert!(!same_bytes(&a, &b), "length {n}, byte {i}");
            }
            assert!(same_bytes(&a, &a.clone()));
        }
    }

    #[test]
    fn a_name_is_found_in_any_case_padded_the_last_one_first() {
        let table = ["MPI_SUM", "MPI_MAX"];
        let last = AtomicUsize::new(0);
        assert_eq!(find_named(&table, |n| n, " mpi_max  ", &last), Some(1));
        assert_eq!(last.load(Ordering::Relaxed), 1);
        assert_eq!(find_named(&table, |n| n, "MPI_Max", &last), Some(1));
        assert_eq!(find_named(&table, |n| n, "MPI_SUM", &last), Some(0));
        assert_eq!(find_named(&table, |n| n, "MPI_MIN", &last), None);
        assert_eq!(last.load(Ordering::Relaxed), 0, "a name not found leaves the last one found");
    }

    #[test]
    fn names_parse_with_padding_and_case() {
        assert_eq!(ElementType::from_name("mpi_integer   ").unwrap(), ElementType::Int32);
        assert_eq!(ElementType::from_name("MPI_DOUBLE_PRECISION").unwrap(), ElementType::Real64);
        assert_eq!(ElementType::from_name("MPI_REAL8").unwrap(), ElementType::Real64);
        assert!(matches!(ElementType::from_name("MPI_COMPLEX"), Err(Error::UnknownName { .. })));
    }

    #[test]
    fn codes_round_trip() {
        for t in ElementType::ALL {
            assert_eq!(ElementType::from_code(t.code()), Some(t));
        }
        assert_eq!(ElementType::from_code(0), None);
    }
}
