//! Element datatypes of a window and their RPN_COMM / MPI names.

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

/// The longest name `UpperName` holds (every name of the library's tables is shorter).
const UPPER_BYTES: usize = 32;

/// A name as `normalize_name` makes it, without an allocation: the collectives look their type,
/// operator and communicator up by name at every call.
pub struct UpperName {
    bytes: [u8; UPPER_BYTES],
    len: usize,
}

impl UpperName {
    /// `name` trimmed and upper-cased; None when it is longer than any name of a table.
    pub fn of(name: &str) -> Option<Self> {
        let trimmed = name.trim_ascii().as_bytes();
        let mut bytes = [0u8; UPPER_BYTES];
        let name = bytes.get_mut(..trimmed.len())?;
        name.copy_from_slice(trimmed);
        name.make_ascii_uppercase();
        Some(UpperName { bytes, len: trimmed.len() })
    }

    /// Whether it is `upper` (an upper-case name of a table).
    pub fn is(&self, upper: &str) -> bool {
        &self.bytes[..self.len] == upper.as_bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
