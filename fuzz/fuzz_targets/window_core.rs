//! The window core's state machine and handle table with arbitrary call sequences on jobs
//! of 1 to 16 PEs (see `core_driver`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use rpncomm_fuzz::core_driver::{Input, run};

fuzz_target!(|input: Input| run(&input));
