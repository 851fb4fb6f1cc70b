//! Many open/close epochs in a row on one window, cycling through fence, group and passive
//! mode. In every epoch each PE puts the epoch number into its right neighbour's window,
//! adds 1 to a counter on its left neighbour and to a counter on PE 0, and after close
//! checks what it received: the epoch number, a counter that grew by exactly one (by npes
//! on PE 0). A lost or late update shows at the epoch it happens.
//!
//! Knob: STRESS_EPOCHS (default 2000).

mod stress_util;

use stress_util::{Win, finish, init, knob, must, operator};

fn main() {
    let (me, npes) = init();
    let epochs: usize = knob("STRESS_EPOCHS", 2000);
    let (right, left) = ((me + 1) % npes, (me + npes - 1) % npes);
    // [0] epoch number from the left neighbour, [1] count from the right neighbour, [2] count from everyone
    let win = Win::new("MPI_INTEGER", 3);
    must(win.put_l(&[0i32, 0, 0], 0), "put_l");
    let sum = operator("MPI_SUM");
    let mut errors = 0i64;
    let start = std::time::Instant::now();
    for epoch in 1..=epochs {
        let mode = epoch % 3;
        if mode == 1 {
            must(win.group(&[right as i32], &[left as i32]), "group");
        }
        must(win.open(mode != 2), "open");
        must(win.put_r(&[epoch as i32], right, 0), "put_r");
        must(win.getacc(&[1i32], None, right, 1, Some(&sum)), "getacc");
        if mode != 1 {
            // (group mode: only the right neighbour is in pes_to)
            must(win.getacc(&[1i32], None, 0, 2, Some(&sum)), "getacc");
        }
        must(win.close(), "close");
        if mode == 1 {
            must(win.fence_mode(), "group(-1,-1)");
        }
        let mut got = [0i32; 3];
        must(win.get_l(&mut got, 0), "get_l");
        let to_pe0 = epoch - epoch.div_ceil(3); // epochs so far not in group mode (k % 3 != 1)
        let want = [epoch as i32, epoch as i32, if me == 0 { (npes * to_pe0) as i32 } else { 0 }];
        if got != want {
            if errors < 10 {
                eprintln!("stress_epochs: PE {me}, epoch {epoch} (mode {mode}): window {got:?}, expected {want:?}");
            }
            errors += 1;
        }
    }
    let took = start.elapsed().as_secs_f64();
    let mut w = win;
    must(w.free(), "free");
    finish("stress_epochs", me, errors, &format!("{npes} PEs, {epochs} epochs in {took:.2} s"))
}
