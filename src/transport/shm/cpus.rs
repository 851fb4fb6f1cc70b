//! The CPUs a process may run on, and whether the PEs of a node have one each: what decides
//! whether a waiter spins before it sleeps (`collectives`).
// The masks serve the MPI transport's node jobs only.
#![cfg_attr(not(feature = "mpi"), allow(dead_code))]

/// CPUs the calling process may run on (sched_getaffinity), in increasing order.
pub fn allowed_cpus() -> std::io::Result<Vec<usize>> {
    // SAFETY: cpu_set_t is plain bits; all zeros is a valid empty set.
    let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
    // SAFETY: `set` is a valid cpu_set_t of the size we pass.
    if unsafe { libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: CPU_ISSET reads the set within its CPU_SETSIZE bits.
    Ok((0..libc::CPU_SETSIZE as usize).filter(|&c| unsafe { libc::CPU_ISSET(c, &set) }).collect())
}

/// Bytes of a CPU mask as PEs exchange it (`mask`): one bit per CPU, 1024 CPUs.
pub const MASK_BYTES: usize = 128;

/// This process's CPUs as a bit mask (CPU c is bit c % 8 of byte c / 8); empty if unknown.
pub fn mask() -> [u8; MASK_BYTES] {
    let mut bits = [0u8; MASK_BYTES];
    for c in allowed_cpus().unwrap_or_default().into_iter().filter(|&c| c < MASK_BYTES * 8) {
        bits[c / 8] |= 1 << (c % 8);
    }
    bits
}

/// Whether PEs with these CPU masks (`masks`, MASK_BYTES each) can each have a CPU of their
/// own: their masks together hold at least one CPU per PE. True for PEs bound to distinct
/// CPUs (as mpirun binds them) and for unbound PEs no more numerous than the CPUs.
pub fn one_each(masks: &[u8]) -> bool {
    let pes = masks.len() / MASK_BYTES;
    let mut union = [0u8; MASK_BYTES];
    for m in masks.chunks_exact(MASK_BYTES) {
        union.iter_mut().zip(m).for_each(|(u, b)| *u |= b);
    }
    union.iter().map(|b| b.count_ones() as usize).sum::<usize>() >= pes
}

#[cfg(test)]
mod tests {
    use super::*;

    fn masks(cpus: &[&[usize]]) -> Vec<u8> {
        cpus.iter()
            .flat_map(|set| {
                let mut m = [0u8; MASK_BYTES];
                set.iter().for_each(|&c| m[c / 8] |= 1 << (c % 8));
                m
            })
            .collect()
    }

    #[test]
    fn distinct_cpus_or_enough_shared_ones_give_one_each() {
        assert!(one_each(&masks(&[&[0], &[1]])), "bound to distinct CPUs");
        assert!(one_each(&masks(&[&[0, 1], &[0, 1]])), "2 unbound PEs on 2 CPUs");
        assert!(!one_each(&masks(&[&[0, 1], &[0, 1], &[0, 1], &[0, 1]])), "4 PEs on 2 CPUs");
        assert!(!one_each(&masks(&[&[3], &[3]])), "bound to the same CPU");
        assert!(one_each(&masks(&[&[1000], &[9]])));
    }

    #[test]
    fn this_process_has_a_cpu() {
        assert!(!allowed_cpus().unwrap().is_empty());
        assert!(mask().iter().any(|&b| b != 0));
    }
}
