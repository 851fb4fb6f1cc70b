//! The node-aware data path of the MPI transport.
//!
//! A window whose communicator lies on one node (every rank in the same
//! `MPI_Comm_split_type(MPI_COMM_TYPE_SHARED)` group) is a shared-memory window: the PEs reach
//! each other's elements with loads, stores and CPU atomics, exactly as under `rpnrun`. MPI only
//! agrees on the name of a small job segment made for the window's communicator (its barrier,
//! mailboxes and liveness words); from there on the window is the shared-memory transport's
//! (`shm::window`), with its epoch protocol, passive lock, request/reply slots and zero-copy
//! user arrays. A window whose communicator spans nodes is a `hybrid` window: a shared-memory
//! window over the PEs of each node, and one MPI RMA window over all of them on that same
//! memory; puts and gets of active epochs to a PE of one's own node are loads and stores,
//! everything else goes through MPI (see `hybrid` for why accumulates and passive operations
//! do). `RPNCOMM_NODE_DIRECT=0` makes spanning windows MPI for every access, and so does a
//! communicator with one rank on every node (nothing to reach directly there).
//!
//! The placement of a communicator is learnt at its first window and kept (`Placements`) with
//! its job segment(s), so later windows over it cost no MPI collective but the check that every
//! rank still knows it (one allgather).
//!
//! `RPNCOMM_NODE_SPLIT=k` (testing knob) cuts each real node into pretend nodes of k
//! consecutive ranks, so that one machine can run the cross-node path.

use std::ffi::c_int;
use std::sync::{Arc, Weak};

use super::comm::Comm;
use super::shim;
use crate::error::{Error, Result};
use crate::transport::shm::collectives::Collectives;
use crate::transport::shm::cpus;
use crate::transport::shm::group::Group;
use crate::transport::shm::job::{JobSegment, MAX_PES};
use crate::transport::shm::{new_job_name, region};

/// The testing knob's environment variable.
pub const ENV_NODE_SPLIT: &str = "RPNCOMM_NODE_SPLIT";
/// The knob that makes windows spanning nodes MPI for every access ("0").
pub const ENV_NODE_DIRECT: &str = "RPNCOMM_NODE_DIRECT";
/// Bytes of a job segment's name as PE 0 hands it to the others.
const NAME_BYTES: usize = 128;

/// `RPNCOMM_NODE_SPLIT`: unset, empty or 0 means real nodes (0); otherwise ranks per pretend node.
pub fn node_split(setting: Option<&str>) -> Result<usize> {
    match setting.map(str::trim) {
        None | Some("") => Ok(0),
        Some(text) => match text.parse::<usize>() {
            Ok(k) if k <= c_int::MAX as usize => Ok(k),
            _ => Err(Error::Setting(format!("{ENV_NODE_SPLIT}='{text}': a number of ranks per pretend node (0: real nodes)"))),
        },
    }
}

/// `RPNCOMM_NODE_DIRECT`: unset, empty or "1" means direct access on the node (hybrid windows),
/// "0" every access of a spanning window through MPI.
pub fn node_direct(setting: Option<&str>) -> Result<bool> {
    match setting.map(str::trim) {
        None | Some("" | "1") => Ok(true),
        Some("0") => Ok(false),
        Some(text) => Err(Error::Setting(format!("{ENV_NODE_DIRECT}='{text}': 1 (direct access on the node) or 0 (MPI for every access)"))),
    }
}

/// Collective over `comm` (ranks of one node): a job segment of its ranks, created by rank 0 and
/// mapped by all, with no name in /dev/shm (a memfd the others open through /proc/<pid>/fd:
/// nothing left there whenever a PE dies), or where that is refused to some PE, named until
/// everyone has it. Returns the collectives over it and the stem for the names of its regions.
pub(super) fn node_job(comm: &Comm) -> Result<(Arc<Collectives>, String)> {
    let (job, name) = match shared_job(comm, true) {
        Ok(made) => made,
        Err(_) => shared_job(comm, false)?,
    };
    // Spin or sleep: bound by mpirun, a PE sees only its own CPU, so ask the node's masks.
    let mut masks = vec![0u8; cpus::MASK_BYTES * comm.size];
    comm.allgather(&cpus::mask(), &mut masks)?;
    let coll = Collectives::with_cores(Arc::new(job), comm.rank, cpus::one_each(&masks));
    // While a PE waits here, PEs of other nodes may need it to act inside MPI (a passive lock,
    // the last messages of a collective, emulated RMA over TCP): its waits keep MPI progressing.
    coll.keep_progressing(Box::new(shim::progress));
    Ok((Arc::new(coll), name))
}

/// The most PEs whose collectives of a few values are exchanges of the node's shared memory
/// (each PE reads every PE's block: 16 x 40 bytes for an allreduce of one value).
const ONE_NODE_EXCHANGE_PES: usize = 16;

/// Collective over `comm`: the shared-memory collectives of its ranks where all are on this node
/// (and `direct`: `RPNCOMM_NODE_DIRECT` is not 0), for its collectives of a few values, which
/// then cost a few cache lines instead of MPI's calls; None where they go through MPI (the same
/// answer on every rank). A communicator of one rank has nothing to exchange, and one of more
/// than `ONE_NODE_EXCHANGE_PES` would read every PE's block in every call (a flat exchange; MPI's
/// calls grow as log P): None.
///
/// `job`: the job's own shared-memory collectives (`HybridChannels::job_collectives`: the whole
/// job on this node), for a communicator of every rank of the job in the job's order, whose
/// calls then run there; the same answer on every rank.
pub(super) fn one_node_collectives(
    comm: &Comm,
    split: usize,
    direct: bool,
    job: Option<&Arc<Collectives>>,
) -> Result<Option<Arc<Collectives>>> {
    if comm.size == 1 || comm.size > ONE_NODE_EXCHANGE_PES {
        return Ok(None);
    }
    if let Some(job) = job {
        return Ok(Some(Arc::clone(job)));
    }
    let node = comm.node(split)?;
    let (_, all_fit) = comm.agree_flag(direct && node.size == comm.size && node.size <= MAX_PES)?;
    if !all_fit {
        return Ok(None);
    }
    let made = node_job(comm);
    let (_, all_made) = comm.agree_flag(made.is_ok())?;
    Ok(match (made, all_made) {
        (Ok((coll, _)), true) => Some(coll),
        _ => None,
    })
}

/// Collective over `comm`, the job segment of `node_job`: `anonymous`, a memfd of rank 0 (its
/// pid and descriptor handed to the others), else a named region whose name is removed once
/// everyone has it. An error on every PE alike when some PE could not map it.
fn shared_job(comm: &Comm, anonymous: bool) -> Result<(JobSegment, String)> {
    // Rank 0's answer: kind (1 named, 2 anonymous, 0 failed), then the name (anonymous: its pid
    // and descriptor, then the stem of the names of the windows' regions), or why it failed.
    let mut mine = [0u8; NAME_BYTES + 1];
    let mut created = None;
    let mut descriptor = None;
    if comm.rank == 0 {
        let name = new_job_name();
        debug_assert!(name.len() + 24 <= NAME_BYTES);
        let made = if anonymous {
            JobSegment::create_anonymous(comm.size, std::process::id()).map(|(job, fd)| {
                let text = format!("{} {} {name}", std::process::id(), std::os::fd::AsRawFd::as_raw_fd(&fd));
                descriptor = Some(fd);
                (job, text, 2)
            })
        } else {
            JobSegment::create(&name, comm.size, std::process::id()).map(|job| (job, name.clone(), 1))
        };
        match made {
            Ok((job, text, kind)) => {
                mine[..text.len()].copy_from_slice(text.as_bytes());
                mine[NAME_BYTES] = kind;
                created = Some(job);
            }
            Err(e) => {
                let why = e.to_string();
                let n = why.len().min(NAME_BYTES);
                mine[..n].copy_from_slice(&why.as_bytes()[..n]);
            }
        }
    }
    let mut all = vec![0u8; (NAME_BYTES + 1) * comm.size];
    let shared = comm.allgather(&mine, &mut all);
    let first = &all[..NAME_BYTES + 1];
    let text = String::from_utf8_lossy(&first[..first[..NAME_BYTES].iter().position(|&b| b == 0).unwrap_or(NAME_BYTES)]).into_owned();
    let words: Vec<&str> = text.split(' ').collect();
    let joined = shared.and_then(|()| match (created, first[NAME_BYTES], words.as_slice()) {
        (Some(job), 2, [_, _, stem]) => Ok((job, stem.to_string())),
        (Some(job), _, _) => Ok((job, text.clone())),
        (None, 1, _) => Ok((JobSegment::attach(&text, comm.size)?, text.clone())),
        (None, 2, [pid, fd, stem]) => match (pid.parse::<u32>(), fd.parse::<i32>()) {
            (Ok(pid), Ok(fd)) => {
                let job = JobSegment::attach_peer(pid, fd, comm.size)?;
                // (the segment holds its maker's pid: another process of that number, in another
                // PID namespace, would not have written it)
                if job.launcher_pid() != pid {
                    return Err(Error::SharedMemory(format!("/proc/{pid}/fd/{fd} is not PE 0's job segment")));
                }
                Ok((job, stem.to_string()))
            }
            _ => Err(Error::Internal(format!("PE 0 handed '{text}' for the node's job segment"))),
        },
        (None, _, _) => Err(Error::SharedMemory(format!("PE 0 could not create the node's job segment: {text}"))),
    });
    let joined = joined.and_then(|(job, name)| job.claim(comm.rank).map(|()| (job, name)));
    // Everyone has mapped it (or failed) before the name or the descriptor goes.
    let agreed = comm.agree_flag(joined.is_err());
    if comm.rank == 0 && first[NAME_BYTES] == 1 {
        region::unlink(&text);
    }
    drop(descriptor);
    let (any_failed, _) = agreed?;
    let (job, name) = joined?;
    if any_failed {
        return Err(Error::SharedMemory("another PE could not map the node's job segment".into()));
    }
    Ok((job, name))
}

/// The shared-memory job of a communicator's ranks on this node.
struct NodeJob {
    /// The node's job as a shared-memory group (one per job: it counts the barrier's rounds).
    group: Arc<Group>,
    stem: String,
    windows: u32,
    /// Where the communicator spans nodes: its ranks on this node, in node-rank order.
    members: Option<Arc<[usize]>>,
}

/// Where a new window's PEs are, and what reaches them.
pub enum Placement {
    /// Every rank on this node: a shared-memory window over `group`, regions named from `name`.
    OneNode { group: Arc<Group>, name: String },
    /// Ranks on several nodes: `members` (ranks of the window's communicator) are on this
    /// node, with `group` for their shared-memory part of the window (a `hybrid` window).
    Spanning { group: Arc<Group>, name: String, members: Arc<[usize]> },
    /// Ranks on several nodes, every access through MPI.
    Mpi,
}

/// What the transport has learnt of its communicators' placement.
#[derive(Default)]
pub struct Placements {
    known: Vec<(Weak<Comm>, Option<NodeJob>)>,
}

impl Placements {
    /// Collective over `comm`: where the PEs of a window over it are (see `Placement`).
    /// `split`: the testing knob; `direct`: whether spanning windows reach this node's PEs
    /// directly.
    pub fn for_window(&mut self, comm: &Arc<Comm>, split: usize, direct: bool) -> Result<Placement> {
        self.known.retain(|(c, _)| c.strong_count() > 0);
        let at = self.known.iter().position(|(c, _)| c.upgrade().is_some_and(|c| Arc::ptr_eq(&c, comm)));
        // A rank that wrapped the communicator anew has forgotten it: then all learn it again.
        let (_, all_know) = comm.agree_flag(at.is_some())?;
        let at = match (at, all_know) {
            (Some(i), true) => i,
            (known, _) => {
                if let Some(i) = known {
                    self.known.remove(i);
                }
                let job = learn(comm, split, direct)?;
                self.known.push((Arc::downgrade(comm), job));
                self.known.len() - 1
            }
        };
        let Some(job) = self.known[at].1.as_mut() else { return Ok(Placement::Mpi) };
        job.windows += 1;
        let (group, name) = (Arc::clone(&job.group), format!("{}.w{}", job.stem, job.windows));
        Ok(match &job.members {
            None => Placement::OneNode { group, name },
            Some(members) => Placement::Spanning { group, name, members: Arc::clone(members) },
        })
    }
}

/// Collective over `comm`: the shared-memory job of its ranks on this node, None where every
/// access goes through MPI (the same answer on every rank).
fn learn(comm: &Comm, split: usize, direct: bool) -> Result<Option<NodeJob>> {
    if comm.size == 1 {
        let (coll, stem) = node_job(comm)?;
        return Ok(Some(NodeJob { group: Arc::new(Group::job(coll)), stem, windows: 0, members: None }));
    }
    let node = comm.node(split)?;
    // A node holding all ranks holds them for everyone: the same answer on every rank. Whether
    // spanning windows go direct is agreed too (a rank told otherwise takes all to MPI).
    let one_node = node.size == comm.size;
    let (_, all_fit) = comm.agree_flag(node.size <= MAX_PES && (one_node || direct))?;
    // With one rank on every node there is no PE to reach directly, and a node part would only
    // add its own open and close to every epoch: plain MPI windows.
    let (some_shared, _) = comm.agree_flag(node.size > 1)?;
    if !all_fit || !some_shared {
        return Ok(None);
    }
    let made = node_job(&node);
    let members = match (one_node, &made) {
        (true, _) | (false, Err(_)) => None,
        (false, Ok(_)) => {
            let mut all = vec![0u8; 4 * node.size];
            node.allgather(&(comm.rank as u32).to_ne_bytes(), &mut all)?;
            Some(all.chunks_exact(4).map(|c| u32::from_ne_bytes(c.try_into().expect("4 bytes")) as usize).collect::<Arc<[usize]>>())
        }
    };
    if one_node {
        let (coll, stem) = made?;
        return Ok(Some(NodeJob { group: Arc::new(Group::job(coll)), stem, windows: 0, members: None }));
    }
    // Spanning: if some node could not make its job segment, every access goes through MPI.
    let (_, all_made) = comm.agree_flag(made.is_ok())?;
    match (made, all_made) {
        (Ok((coll, stem)), true) => Ok(Some(NodeJob { group: Arc::new(Group::job(coll)), stem, windows: 0, members })),
        _ => Ok(None),
    }
}

#[cfg(test)]
mod tests {
    use super::{node_direct, node_split};

    #[test]
    fn node_direct_knob() {
        assert!(node_direct(None).unwrap());
        assert!(node_direct(Some("1")).unwrap());
        assert!(!node_direct(Some(" 0")).unwrap());
        assert!(node_direct(Some("yes")).is_err());
    }

    #[test]
    fn node_split_knob() {
        assert_eq!(node_split(None).unwrap(), 0);
        assert_eq!(node_split(Some(" ")).unwrap(), 0);
        assert_eq!(node_split(Some("2")).unwrap(), 2);
        assert_eq!(node_split(Some("0")).unwrap(), 0);
        assert!(node_split(Some("two")).is_err());
    }
}
