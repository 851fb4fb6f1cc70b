//! PE 1 leaves the program with status 0 without RPN_COMM_finalize while the other PEs go on
//! to finalize (which waits for every PE): the launcher must exit non-zero naming PE 1. The
//! others report a refused finalize, as a program ignoring it would, and exit with 0 too.
//! Run with at least 2 PEs.

use rpncomm_windows::ffi::*;

fn main() {
    let (mut me, mut npes) = (0, 0);
    rpncomm_init(&mut me, &mut npes);
    println!("PE {me} of {npes} started");
    if me == 1 {
        println!("PE 1 leaves without RPN_COMM_finalize");
        return;
    }
    let status = rpncomm_finalize();
    println!("PE {me}: RPN_COMM_finalize returned {status}");
}
