//! Prints what one PE of a job sees, for the launcher's option tests: its rank and the number
//! of PEs (from the library), its CPU affinity (Cpus_allowed_list of /proc/self/status), the
//! environment variables named on its command line, and with `lines=N` N numbered long lines on
//! stdout and on stderr. `exit=R:CODE[:MS]` makes PE R exit with CODE after its output (and MS
//! milliseconds).
//! Run: `rpnrun -n 2 target/release/examples/pe_info lines=3 HOME exit=1:3`.

use std::io::Write;

use rpncomm_windows::ffi::*;

fn cpus_allowed() -> String {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status.lines().find_map(|l| l.strip_prefix("Cpus_allowed_list:")).map_or("unknown".into(), |v| v.trim().to_string())
}

fn main() {
    let (mut me, mut npes) = (0, 0);
    assert_eq!(rpncomm_init(&mut me, &mut npes), RPN_COMM_OK);
    println!("pe_info: PE {me} of {npes} pid={} cpus={}", std::process::id(), cpus_allowed());
    let (mut exit_code, mut exit_delay) = (0, 0);
    for arg in std::env::args().skip(1) {
        if let Some(n) = arg.strip_prefix("lines=") {
            let n: usize = n.parse().expect("lines=N");
            // long lines, written in pieces, so that a launcher mixing lines of PEs would show
            let body = format!("{me}").repeat(300);
            for k in 0..n {
                let mut out = std::io::stdout().lock();
                write!(out, "pe_info: PE {me} stdout line {k} ").unwrap();
                out.flush().unwrap();
                writeln!(out, "{body}").unwrap();
                drop(out);
                eprintln!("pe_info: PE {me} stderr line {k} {body}");
            }
        } else if let Some(spec) = arg.strip_prefix("exit=") {
            let fields: Vec<i32> = spec.split(':').map(|f| f.parse().expect("exit=R:CODE[:MS]")).collect();
            if fields[0] == me {
                exit_code = fields[1];
                exit_delay = fields.get(2).copied().unwrap_or(0);
            }
        } else {
            match std::env::var(&arg) {
                Ok(v) => println!("pe_info: PE {me} env {arg}={v}"),
                Err(_) => println!("pe_info: PE {me} env {arg} unset"),
            }
        }
    }
    std::io::stdout().flush().unwrap();
    if exit_code != 0 {
        std::thread::sleep(std::time::Duration::from_millis(exit_delay as u64));
        std::process::exit(exit_code);
    }
    assert_eq!(rpncomm_finalize(), RPN_COMM_OK);
}
