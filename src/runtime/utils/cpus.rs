//! The node's logical CPU configuration as the original keeps it (get/set/init/print
//! _logical_cpu_configuration), and rpn_comm_unbind_process.

use std::sync::Mutex;

/// The environment variable that describes a node: "logical_cpus, sockets, numa_spaces,
/// threads_per_core, mapping".
pub const ENV_NODE_CPU_CONFIG: &str = "NODE_CPU_CONFIG";

/// Logical CPUs, sockets per node, NUMA spaces per socket, threads per core, thread mapping
/// (0: every core's thread 0 first, 1: a core's threads numbered together).
pub type CpuConfiguration = [i32; 5];

/// The original's values before any setting: logical CPUs 0 means "not read yet".
const DEFAULT: CpuConfiguration = [0, 2, 1, 1, 0];

static CONFIG: Mutex<CpuConfiguration> = Mutex::new(DEFAULT);

fn config() -> std::sync::MutexGuard<'static, CpuConfiguration> {
    CONFIG.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The fields of `text` read into `into` in order, as a list-directed read: separated by blanks
/// or commas, a '/' ends the list; reading stops at the first field that is not an integer
/// (the fields before it are kept) or at the end of the text (the rest keep their values).
pub fn read_fields(text: &str, into: &mut CpuConfiguration) {
    let list = text.split('/').next().unwrap_or("");
    let fields = list.split(|c: char| c == ',' || c.is_whitespace()).filter(|f| !f.is_empty());
    for (slot, field) in into.iter_mut().zip(fields) {
        match field.parse::<i32>() {
            Ok(v) => *slot = v,
            Err(_) => return,
        }
    }
}

/// init_logical_cpu_configuration: NODE_CPU_CONFIG's fields, when it is set.
pub fn init() {
    if let Ok(text) = std::env::var(ENV_NODE_CPU_CONFIG) {
        read_fields(&text, &mut config());
    }
}

/// set_logical_cpu_configuration.
pub fn set(values: CpuConfiguration) {
    *config() = values;
}

/// get_logical_cpu_configuration: read from NODE_CPU_CONFIG first while none is known.
pub fn get() -> CpuConfiguration {
    if config()[0] == 0 {
        init();
    }
    *config()
}

/// The line print_logical_cpu_configuration prints (the original's format).
pub fn text() -> String {
    let [lcpus, sockets, numa, ht, map] = get();
    format!("{lcpus:>4} logical cpus,{sockets:>4} socket(s),{numa:>4} numa space(s),{ht:>4} thread(s) per core, mapping type {map:>2}")
}

/// rpn_comm_unbind_process: lets this process run on every core of the node when FULL_UNBIND
/// is set or when OMP_NUM_THREADS asks for more threads than the cores it is bound to; the
/// first PE of the job (OMPI_COMM_WORLD_RANK or PMI_RANK 0, or no launcher) says which it did.
pub fn unbind_process() {
    let env = |name| std::env::var(name).ok();
    let threads = env("OMP_NUM_THREADS").and_then(|v| v.trim().parse::<usize>().ok()).unwrap_or(1);
    let first_pe = env("OMPI_COMM_WORLD_RANK").or_else(|| env("PMI_RANK")).is_none_or(|r| r.trim().parse::<i64>().ok() == Some(0));
    let bound = if env("FULL_UNBIND").is_some() { 0 } else { affinity::bound_cores() };
    let cores = affinity::configured_cores();
    if threads > bound {
        if first_pe {
            println!("FULL unbinding will be done, cores={cores}, threads needed={threads}, usable cores={bound}");
        }
        affinity::bind_all(cores);
    } else if first_pe {
        println!("NO unbinding will be done");
    }
}

#[cfg(target_os = "linux")]
mod affinity {
    /// The cores the node has (configured, online or not).
    pub fn configured_cores() -> usize {
        // SAFETY: sysconf reads a system setting, no memory of ours.
        usize::try_from(unsafe { libc::sysconf(libc::_SC_NPROCESSORS_CONF) }).unwrap_or(1)
    }

    /// The cores this process may run on now.
    pub fn bound_cores() -> usize {
        // SAFETY: cpu_set_t is plain data, zero is an empty set.
        let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
        // SAFETY: the set is ours and as large as the size passed.
        if unsafe { libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) } != 0 {
            return 0;
        }
        // SAFETY: CPU_COUNT reads the set only.
        usize::try_from(unsafe { libc::CPU_COUNT(&set) }).unwrap_or(0)
    }

    /// Lets this process run on `cores` cores (a failure leaves the binding as it was, as the
    /// original ignores it).
    pub fn bind_all(cores: usize) {
        // SAFETY: as in bound_cores.
        let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
        for cpu in 0..cores.min(libc::CPU_SETSIZE as usize) {
            // SAFETY: cpu is below the set's size (CPU_SETSIZE).
            unsafe { libc::CPU_SET(cpu, &mut set) };
        }
        // SAFETY: the set is ours and as large as the size passed.
        let _ = unsafe { libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) };
    }
}

#[cfg(not(target_os = "linux"))]
mod affinity {
    // The original unbinds on Linux only; elsewhere there is nothing to unbind.
    pub fn configured_cores() -> usize {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    }
    pub fn bound_cores() -> usize {
        usize::MAX
    }
    pub fn bind_all(_cores: usize) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn list_directed_fields() {
        let mut c = DEFAULT;
        read_fields("64, 2 ,4 2 1", &mut c);
        assert_eq!(c, [64, 2, 4, 2, 1]);
        let mut c = DEFAULT;
        read_fields("8 4", &mut c);
        assert_eq!(c, [8, 4, 1, 1, 0], "fields missing at the end keep their values");
        let mut c = DEFAULT;
        read_fields("8 x 3", &mut c);
        assert_eq!(c, [8, 2, 1, 1, 0], "reading stops at the first bad field");
        let mut c = DEFAULT;
        read_fields("16 1 / 7", &mut c);
        assert_eq!(c, [16, 1, 1, 1, 0], "a slash ends the list");
    }

    #[test]
    fn printed_line() {
        set([48, 2, 1, 2, 1]);
        assert_eq!(text(), "  48 logical cpus,   2 socket(s),   1 numa space(s),   2 thread(s) per core, mapping type  1");
        set(DEFAULT);
    }
}
