//! The options a program sets (RPN_COMM_option, RPN_COMM_option_L, RPN_COMM_optn,
//! RPN_COMM_unit): kept for the whole process, before or after RPN_COMM_init (a program often sets
//! its output unit first), so they live beside the runtime rather than in it.

use std::sync::Mutex;

use crate::core::options::{self, FillOption, IntOption, LogicalOption};
use crate::error::Result;

/// The options' values.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Options {
    /// The Fortran unit of the library's messages (None: never set; the messages go to
    /// standard error whatever it is, the Rust core having no Fortran units).
    pub stdout_unit: Option<i32>,
    /// 'halo_ew_ext'.
    pub halo_ew_ext: bool,
    /// 'async_exch'.
    pub async_exch: bool,
    /// RPN_COMM_optn's 'FILL'.
    pub fill: FillOption,
}

static OPTIONS: Mutex<Options> = Mutex::new(Options {
    stdout_unit: None,
    halo_ew_ext: false,
    async_exch: false,
    fill: FillOption { sides: 0, value: 0.0, mode: String::new() },
});

fn with_options<T>(f: impl FnOnce(&mut Options) -> T) -> T {
    f(&mut OPTIONS.lock().unwrap_or_else(|p| p.into_inner()))
}

/// The options as they stand (no routine of the library acts on them yet).
#[cfg(test)]
fn current() -> Options {
    with_options(|o| o.clone())
}

/// RPN_COMM_option: the integer option `name` takes `value`.
pub fn set_int(name: &str, value: i32) -> Result<()> {
    let which = options::int_option(name)?;
    with_options(|o| match which {
        IntOption::Stdout => o.stdout_unit = Some(value),
    });
    Ok(())
}

/// RPN_COMM_option_L: the logical option `name` takes `value`.
pub fn set_logical(name: &str, value: bool) -> Result<()> {
    let which = options::logical_option(name)?;
    with_options(|o| match which {
        LogicalOption::HaloEwExt => o.halo_ew_ext = value,
        LogicalOption::AsyncExch => o.async_exch = value,
    });
    Ok(())
}

/// RPN_COMM_optn: the option `op_type` takes its three values.
pub fn set_optn(op_type: &str, ival: i32, rval: f32, cval: &str) -> Result<()> {
    let fill = options::optn(op_type, ival, rval, cval)?;
    with_options(|o| o.fill = fill);
    Ok(())
}

/// RPN_COMM_unit: the Fortran unit of the library's messages.
pub fn set_unit(unit: i32) {
    with_options(|o| o.stdout_unit = Some(unit));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_are_kept() {
        set_int("STDOUT", 6).unwrap();
        assert!(set_int("nothing", 6).is_err());
        set_logical("halo_ew_ext", true).unwrap();
        set_optn("FILL", 3, 2.5, "EDGE").unwrap();
        let o = current();
        assert_eq!((o.stdout_unit, o.halo_ew_ext, o.fill.sides, o.fill.mode.as_str()), (Some(6), true, 3, "EDGE"));
        set_unit(7);
        assert_eq!(current().stdout_unit, Some(7));
    }
}
