//! `rpnrun -n N [--timeout S] [--] program [args]`: runs a job of N PEs on this node.

fn main() {
    rpncomm_windows::launcher::main()
}
