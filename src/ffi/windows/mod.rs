//! The C ABI of the windows.
//!
//! - `calls`: the window calls (RPN_COMM_i_win_*): creation, queries, epochs, operations;
//! - `boxes`: the sub-array (3-D box) operations;
//! - `requests`: the request-based operations and their completion.

mod boxes;
mod calls;
mod requests;

pub use self::boxes::*;
pub use self::calls::*;
pub use self::requests::*;

use super::args;
use crate::core::{Handle, HandleKind};
use crate::error::Result;

/// The window handle the caller passes by reference.
fn window(p: *const Handle) -> Result<Handle> {
    // SAFETY: the caller passes its window variable by reference (or null, refused).
    unsafe { args::handle(p, HandleKind::Window) }
}
