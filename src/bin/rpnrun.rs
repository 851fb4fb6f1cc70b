//! `rpnrun [options] -n N program [args] [: -n N program [args]]...`: runs a job of PEs on this
//! node (`rpnrun --help`).

fn main() {
    rpncomm_windows::launcher::main()
}
