//! The C ABI of the node's CPU configuration (get/set/init/print_logical_cpu_configuration),
//! of rpn_comm_unbind_process and of the debug flags (RPN_COMM_debug_*).

use std::ffi::{c_char, c_int};

use super::{room, trimmed};
use crate::runtime::utils::{cpus, debug, env};

/// get_logical_cpu_configuration: the 5 values into `values` (logical CPUs, sockets, NUMA
/// spaces per socket, threads per core, mapping), read from NODE_CPU_CONFIG first while unknown.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_get_cpu_configuration(values: *mut c_int) {
    if values.is_null() {
        return;
    }
    // SAFETY: the caller's array holds 5 integers.
    unsafe { std::slice::from_raw_parts_mut(values, 5) }.copy_from_slice(&cpus::get());
}

/// set_logical_cpu_configuration: the 5 values of `values`.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_set_cpu_configuration(values: *const c_int) {
    if values.is_null() {
        return;
    }
    let mut v = [0; 5];
    // SAFETY: the caller's array holds 5 integers.
    v.copy_from_slice(unsafe { std::slice::from_raw_parts(values, 5) });
    cpus::set(v);
}

/// init_logical_cpu_configuration: NODE_CPU_CONFIG's values, when it is set.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_init_cpu_configuration() {
    cpus::init();
}

/// The line print_logical_cpu_configuration prints, into `line` (`line_len` bytes,
/// blank-filled); its length.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_cpu_configuration_text(line: *mut c_char, line_len: usize) -> c_int {
    let text = cpus::text();
    // SAFETY: the caller's character variable of line_len bytes.
    env::fill(text.as_bytes(), unsafe { room(line, line_len) });
    c_int::try_from(text.len().min(line_len)).unwrap_or(0)
}

/// Unbinds this process from its cores when FULL_UNBIND is set or when OMP_NUM_THREADS asks for
/// more threads than the cores it is bound to (Linux); the job's first PE says what it did.
/// Fortran's rpn_comm_unbind_process (fortran/utils/) calls it.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_unbind_process() {
    cpus::unbind_process();
}

/// rpncomm_unbind_process under the original's C name, `void rpn_comm_unbind_process(void)`. Not
/// in the header (cbindgen.toml): the name is also the Fortran external's (fortran/utils/), which
/// the bind(C) interface every function of the header gets would shadow.
#[unsafe(export_name = "rpn_comm_unbind_process")]
pub extern "C" fn rpn_comm_unbind_process_c() {
    cpus::unbind_process();
}

/// rpncomm_unbind_process under the name a Fortran caller links with two underscores.
#[unsafe(no_mangle)]
pub extern "C" fn rpn_comm_unbind_process__() {
    cpus::unbind_process();
}

/// RPN_COMM_debug_str: the value of field `name` of RPN_COMM_DEBUG (":name=value:...", read at
/// the first call) into `value` (blank-filled, at most `value_len` characters): 0, or -1 (all
/// blanks) when the variable is unset or has no such field.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_debug_str(name: *const c_char, name_len: usize, value: *mut c_char, value_len: usize) -> c_int {
    // SAFETY: Fortran string arguments of the given lengths.
    let (name, value) = unsafe { (trimmed(name, name_len), room(value, value_len)) };
    let found = name.ok().and_then(|n| debug::debug_field(&n, value.len()));
    env::fill(found.as_deref().unwrap_or("").as_bytes(), value);
    if found.is_some() { 0 } else { -1 }
}
