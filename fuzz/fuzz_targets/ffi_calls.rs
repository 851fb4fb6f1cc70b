//! The C ABI with arbitrary call sequences on a job of one PE (see `ffi_driver`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use rpncomm_fuzz::ffi_driver::{Call, Driver};

fuzz_target!(
    init: {
        // Refused calls are expected by the thousand: no message for each.
        // SAFETY: set before any other thread exists (libFuzzer runs targets on this one).
        unsafe { std::env::set_var("RPNCOMM_QUIET", "1") };
    },
    |calls: Vec<Call>| {
        let mut driver = Driver::new(false);
        driver.run(&calls);
        driver.finish();
    }
);
