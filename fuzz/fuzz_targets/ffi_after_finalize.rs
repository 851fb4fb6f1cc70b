//! The C ABI after `rpncomm_finalize` (process-wide, so a target of its own): every call
//! that needs the runtime must be refused with a status, none may crash.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rpncomm_fuzz::ffi_driver::{Call, Driver};
use rpncomm_windows::ffi::{RPN_COMM_ERROR, RPN_COMM_OK, rpncomm_finalize, rpncomm_init};

fuzz_target!(
    init: {
        // SAFETY: set before any other thread exists (libFuzzer runs targets on this one).
        unsafe { std::env::set_var("RPNCOMM_QUIET", "1") };
        let (mut rank, mut npes) = (0, 0);
        assert_eq!(rpncomm_init(&mut rank, &mut npes), RPN_COMM_OK);
        assert_eq!(rpncomm_finalize(), RPN_COMM_OK);
        assert_eq!(rpncomm_finalize(), RPN_COMM_ERROR, "finalize twice");
    },
    |calls: Vec<Call>| {
        let mut driver = Driver::new(true);
        driver.run(&calls);
        driver.finish();
    }
);
