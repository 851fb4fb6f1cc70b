//! Binding PEs to CPUs: which CPUs the launcher may use (its own affinity mask), where they
//! sit (socket, core), and which CPU each PE gets.

use std::collections::VecDeque;
use std::path::Path;

use super::options::{BindTo, MapBy};
pub use crate::transport::shm::cpus::allowed_cpus;

/// A CPU of the launcher's affinity mask and where it sits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cpu {
    pub id: usize,
    /// physical_package_id: the socket.
    pub package: usize,
    /// core_id, unique within a package.
    pub core: usize,
}

fn read_number(path: &Path) -> Option<usize> {
    std::fs::read_to_string(path).ok()?.trim().parse().ok()
}

/// Socket and core of each CPU, from /sys/devices/system/cpu/cpuN/topology (a CPU whose files
/// cannot be read counts as its own core on socket 0).
pub fn topology(ids: &[usize]) -> Vec<Cpu> {
    ids.iter()
        .map(|&id| {
            let dir = format!("/sys/devices/system/cpu/cpu{id}/topology");
            let package = read_number(&Path::new(&dir).join("physical_package_id")).unwrap_or(0);
            let core = read_number(&Path::new(&dir).join("core_id")).unwrap_or(id);
            Cpu { id, package, core }
        })
        .collect()
}

/// The CPUs in the order PEs take them with `--map-by core`: the first hardware thread of every
/// core (socket by socket) before any second one, so PEs get whole cores while there are enough.
fn core_order(cpus: &[Cpu]) -> Vec<Cpu> {
    let mut keyed: Vec<(usize, Cpu)> = cpus
        .iter()
        .map(|c| {
            let thread = cpus.iter().filter(|o| o.package == c.package && o.core == c.core && o.id < c.id).count();
            (thread, *c)
        })
        .collect();
    keyed.sort_by_key(|&(thread, c)| (thread, c.package, c.core, c.id));
    keyed.into_iter().map(|(_, c)| c).collect()
}

/// The CPUs of each PE (`None`: not bound), PE r taking `widths[r]` CPUs (its threads), or why
/// the job cannot be bound as asked.
pub fn plan(cpus: &[Cpu], widths: &[usize], bind_to: Option<BindTo>, map_by: MapBy) -> Result<Vec<Option<Vec<Cpu>>>, String> {
    let needed: usize = widths.iter().sum();
    let bind_to = bind_to.unwrap_or(if needed <= cpus.len() { BindTo::Core } else { BindTo::None });
    if bind_to == BindTo::None {
        return Ok(vec![None; widths.len()]);
    }
    if needed > cpus.len() {
        return Err(format!(
            "--bind-to core: {} PEs need {needed} CPUs but rpnrun's affinity mask has {}; use --bind-to none to oversubscribe",
            widths.len(),
            cpus.len()
        ));
    }
    let ordered = core_order(cpus);
    let chosen = match map_by {
        MapBy::Core => {
            let mut next = ordered.into_iter();
            widths.iter().map(|&w| next.by_ref().take(w).collect()).collect()
        }
        MapBy::Socket => {
            let mut packages: Vec<usize> = ordered.iter().map(|c| c.package).collect();
            packages.sort_unstable();
            packages.dedup();
            let mut queues: Vec<VecDeque<Cpu>> =
                packages.iter().map(|&p| ordered.iter().filter(|c| c.package == p).copied().collect()).collect();
            // PE r starts on the next socket in turn that has CPUs left, and continues on the
            // following ones if that socket runs out
            let sockets = queues.len();
            let mut turn = 0;
            let mut chosen: Vec<Vec<Cpu>> = Vec::with_capacity(widths.len());
            for &w in widths {
                while queues[turn % sockets].is_empty() {
                    turn += 1;
                }
                let mut mine = Vec::with_capacity(w);
                let mut q = turn;
                while mine.len() < w {
                    if let Some(c) = queues[q % sockets].pop_front() {
                        mine.push(c);
                    } else {
                        q += 1;
                    }
                }
                chosen.push(mine);
                turn += 1;
            }
            chosen
        }
    };
    Ok(chosen.into_iter().map(Some).collect())
}

/// "0-3,6" for [0, 1, 2, 3, 6] (the form of /proc/self/status Cpus_allowed_list).
pub fn cpu_list(ids: &[usize]) -> String {
    let mut parts = Vec::new();
    let mut i = 0;
    while i < ids.len() {
        let mut j = i;
        while j + 1 < ids.len() && ids[j + 1] == ids[j] + 1 {
            j += 1;
        }
        parts.push(if j > i { format!("{}-{}", ids[i], ids[j]) } else { ids[i].to_string() });
        i = j + 1;
    }
    parts.join(",")
}

/// The affinity set of some CPUs, built before fork so the child only makes the system call.
pub fn cpu_set_of(cpus: &[Cpu]) -> libc::cpu_set_t {
    // SAFETY: all zeros is a valid empty cpu_set_t.
    let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
    for c in cpus {
        // SAFETY: the ids came from sched_getaffinity, so they are below CPU_SETSIZE.
        unsafe { libc::CPU_SET(c.id, &mut set) };
    }
    set
}

/// Binds the calling process to `set`. Async-signal-safe: called between fork and exec.
pub fn bind_self(set: &libc::cpu_set_t) -> std::io::Result<()> {
    // SAFETY: `set` is a valid cpu_set_t of the size we pass.
    if unsafe { libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), set) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 2 sockets x 4 cores x 2 threads, numbered as Linux does on x86: thread 0 of every core
    /// first (CPUs 0-7), then the second threads (8-15).
    fn two_sockets() -> Vec<Cpu> {
        (0..16).map(|id| Cpu { id, package: (id % 8) / 4, core: id % 4 }).collect()
    }

    fn ids(plan: &[Option<Vec<Cpu>>]) -> Vec<Vec<usize>> {
        plan.iter().map(|c| c.as_ref().unwrap().iter().map(|c| c.id).collect()).collect()
    }

    fn single(plan: &[Option<Vec<Cpu>>]) -> Vec<usize> {
        ids(plan).into_iter().map(|c| c[0]).collect()
    }

    #[test]
    fn default_binds_only_when_every_pe_has_its_cpus() {
        let cpus: Vec<Cpu> = (0..2).map(|id| Cpu { id, package: 0, core: id }).collect();
        assert_eq!(ids(&plan(&cpus, &[1, 1], None, MapBy::Core).unwrap()), vec![vec![0], vec![1]]);
        assert_eq!(plan(&cpus, &[1, 1, 1], None, MapBy::Core).unwrap(), vec![None; 3]);
        assert_eq!(plan(&cpus, &[1, 1], Some(BindTo::None), MapBy::Core).unwrap(), vec![None; 2]);
        assert!(plan(&cpus, &[1, 1, 1], Some(BindTo::Core), MapBy::Core).is_err());
        // two threads each: one PE fits, two do not
        assert_eq!(ids(&plan(&cpus, &[2], None, MapBy::Core).unwrap()), vec![vec![0, 1]]);
        assert_eq!(plan(&cpus, &[2, 2], None, MapBy::Core).unwrap(), vec![None; 2]);
    }

    #[test]
    fn map_by_core_fills_whole_cores_socket_by_socket() {
        let cpus = two_sockets();
        assert_eq!(single(&plan(&cpus, &[1; 6], None, MapBy::Core).unwrap()), vec![0, 1, 2, 3, 4, 5]);
        // the second hardware threads come after every core has a PE
        assert_eq!(single(&plan(&cpus, &[1; 10], None, MapBy::Core).unwrap())[8..], [8, 9]);
        // PEs of 4 threads get 4 whole cores of one socket
        assert_eq!(ids(&plan(&cpus, &[4, 4], None, MapBy::Core).unwrap()), vec![vec![0, 1, 2, 3], vec![4, 5, 6, 7]]);
    }

    #[test]
    fn map_by_socket_deals_round_robin() {
        let cpus = two_sockets();
        assert_eq!(single(&plan(&cpus, &[1; 4], None, MapBy::Socket).unwrap()), vec![0, 4, 1, 5]);
        assert_eq!(ids(&plan(&cpus, &[2; 3], None, MapBy::Socket).unwrap()), vec![vec![0, 1], vec![4, 5], vec![2, 3]]);
        // an uneven mask: socket 1 has one CPU left, then socket 0 takes the rest
        let mask: Vec<Cpu> = cpus.iter().copied().filter(|c| [0, 1, 2, 7].contains(&c.id)).collect();
        assert_eq!(single(&plan(&mask, &[1; 4], None, MapBy::Socket).unwrap()), vec![0, 7, 1, 2]);
        // a PE wider than what its socket has left continues on the next socket
        assert_eq!(ids(&plan(&mask, &[1, 3], None, MapBy::Socket).unwrap()), vec![vec![0], vec![7, 1, 2]]);
    }

    #[test]
    fn lists_cpus_as_the_kernel_does() {
        assert_eq!(cpu_list(&[0, 1, 2, 3, 6]), "0-3,6");
        assert_eq!(cpu_list(&[5]), "5");
        assert_eq!(cpu_list(&[1, 3, 4]), "1,3-4");
    }

    #[test]
    fn reads_this_machines_mask_and_topology() {
        let ids = allowed_cpus().unwrap();
        assert!(!ids.is_empty());
        let cpus = topology(&ids);
        assert_eq!(cpus.iter().map(|c| c.id).collect::<Vec<_>>(), ids);
    }
}
