//! The options a program sets before or after RPN_COMM_init (RPN_COMM_option, RPN_COMM_option_L,
//! RPN_COMM_optn, RPN_COMM_unit), the character case conversions of RPN_COMM_up2low and
//! RPN_COMM_low2up, and the count of the original's oldest broadcast (RPN_COMM_bcst_world).
//!
//! Option names are matched as the original matches them: RPN_COMM_option and RPN_COMM_option_L
//! compare the start of the name in lower case (so 'STDOUT' and 'stdout_unit' both name the
//! output unit); RPN_COMM_optn names its option exactly ('FILL'), here in any case.

use crate::error::{Error, Result};

/// An integer option of RPN_COMM_option.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IntOption {
    /// 'stdout': the Fortran unit of the library's messages (as RPN_COMM_unit).
    Stdout,
}

/// A logical option of RPN_COMM_option_L.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogicalOption {
    /// 'halo_ew_ext': the east-west halo exchange also carries the halo rows of the north and
    /// south tiles.
    HaloEwExt,
    /// 'async_exch': the halo exchange may overlap its messages.
    AsyncExch,
}

/// The name in lower case, blanks around it removed.
fn lower(name: &str) -> String {
    name.trim().to_ascii_lowercase()
}

/// The refusal of an option name, with the names the routine knows.
fn unknown(name: &str, known: &str) -> Error {
    Error::BadArgument(format!("unknown option '{}' (this routine knows {known})", name.trim()))
}

/// The option of RPN_COMM_option that `name` starts with.
pub fn int_option(name: &str) -> Result<IntOption> {
    if lower(name).starts_with("stdout") {
        return Ok(IntOption::Stdout);
    }
    Err(unknown(name, "'stdout'"))
}

/// The option of RPN_COMM_option_L that `name` starts with.
pub fn logical_option(name: &str) -> Result<LogicalOption> {
    let n = lower(name);
    if n.starts_with("halo_ew_ext") {
        return Ok(LogicalOption::HaloEwExt);
    }
    if n.starts_with("async_exch") {
        return Ok(LogicalOption::AsyncExch);
    }
    Err(unknown(name, "'halo_ew_ext' and 'async_exch'"))
}

/// RPN_COMM_optn's only option, 'FILL': how the halo exchange fills the halo of the grid's
/// outer edges (a mode word, 'BAND' or 'EDGE', a mask of the sides and a value).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct FillOption {
    /// Sides: 1 south, 2 east, 4 north, 8 west.
    pub sides: i32,
    /// The value written.
    pub value: f32,
    /// 'BAND', 'EDGE' or blank (no fill), four characters as the original keeps it.
    pub mode: String,
}

/// RPN_COMM_optn's option `op_type` ('FILL', any case) with its values; the mode keeps its
/// first four characters, as the original's table does.
pub fn optn(op_type: &str, ival: i32, rval: f32, cval: &str) -> Result<FillOption> {
    if !op_type.trim().eq_ignore_ascii_case("FILL") {
        return Err(unknown(op_type, "'FILL'"));
    }
    let mode: String = cval.chars().chain(std::iter::repeat(' ')).take(4).collect();
    Ok(FillOption { sides: ival, value: rval, mode })
}

/// RPN_COMM_bcst_world's count: the integers from the address `start` to the address `end`,
/// both included, as the original measures its two arguments; refused for a `mode` other than 0
/// (a broadcast from PE 0, the only one the original has) and for an `end` before `start`.
pub fn bcst_world_count(start: usize, end: usize, mode: i32) -> Result<i32> {
    if mode != 0 {
        return Err(Error::BadArgument(format!("mode {mode} unknown (0: a broadcast from PE 0 of the grid)")));
    }
    let words = end.checked_sub(start).map(|d| d / 4 + 1).and_then(|n| i32::try_from(n).ok());
    words.ok_or_else(|| Error::BadArgument(format!("end (address {end:#x}) lies before start (address {start:#x})")))
}

/// RPN_COMM_up2low (`upper` false) and RPN_COMM_low2up (`upper` true): `dst` receives `src`'s
/// first characters with the ASCII letters turned to that case, then blanks to its end.
pub fn convert_case(src: &[u8], dst: &mut [u8], upper: bool) {
    let n = src.len().min(dst.len());
    for (d, s) in dst.iter_mut().zip(src) {
        *d = if upper { s.to_ascii_uppercase() } else { s.to_ascii_lowercase() };
    }
    dst[n..].fill(b' ');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_match_by_their_start_in_any_case() {
        assert_eq!(int_option("STDOUT").unwrap(), IntOption::Stdout);
        assert_eq!(int_option("stdout_unit ").unwrap(), IntOption::Stdout);
        assert!(int_option("stdou").is_err());
        assert_eq!(logical_option("Halo_EW_ext").unwrap(), LogicalOption::HaloEwExt);
        assert_eq!(logical_option("async_exchange").unwrap(), LogicalOption::AsyncExch);
        assert!(logical_option("async").is_err());
    }

    #[test]
    fn fill_option() {
        let f = optn("fill", 5, 1.5, "BANDED").unwrap();
        assert_eq!((f.sides, f.value, f.mode.as_str()), (5, 1.5, "BAND"));
        assert_eq!(optn("FILL ", 0, 0.0, "").unwrap().mode, "    ");
        assert!(optn("FIL", 0, 0.0, "").is_err());
        assert!(optn(" ", 0, 0.0, "").is_err(), "a blank name is no option");
    }

    #[test]
    fn bcst_world_counts_from_start_to_end() {
        assert_eq!(bcst_world_count(0x1000, 0x1000, 0).unwrap(), 1);
        assert_eq!(bcst_world_count(0x1000, 0x1010, 0).unwrap(), 5);
        assert!(bcst_world_count(0x1010, 0x1000, 0).is_err());
        assert!(bcst_world_count(0x1000, 0x1010, 1).is_err());
    }

    #[test]
    fn case_conversions() {
        let mut d = [b'x'; 6];
        convert_case(b"aB1z", &mut d, true);
        assert_eq!(&d, b"AB1Z  ");
        let mut d = [b'x'; 2];
        convert_case(b"ABC", &mut d, false);
        assert_eq!(&d, b"ab");
    }
}
