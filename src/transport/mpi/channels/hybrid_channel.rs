//! The MPI transport's point-to-point channels, node-aware: to a PE of this node the
//! shared-memory channel (`shm::channel`: the sender packs into memory the receiver reads, one
//! copy across cores, no MPI call), to a PE of another node MPI (`channel`), decided per peer. So
//! a halo exchange's on-node neighbours stay on shared memory and only the faces that leave the
//! node go through MPI, as the hybrid windows do for one-sided access.
//!
//! The node's PEs share a small job segment made at MPI start (collective over the node's ranks:
//! `node::node_job`) and the descriptors of their inboxes (`ShmChannels::anonymous`: no name in
//! /dev/shm, so a job that aborts leaves nothing there); a channel's message regions are made
//! when one PE first sends to the other.
//! Both ends of a channel choose the same path: the PEs of a node either all have the segment
//! or none (then every peer goes through MPI). `RPNCOMM_NODE_SPLIT` makes pretend nodes here
//! too; `RPNCOMM_NODE_DIRECT=0`, or a node of one PE, sends everything through MPI.

use std::sync::Arc;

use super::channel::{MpiChannels, wait_for};
use super::far_entries::{FarEntries, LOOK_AFTER};
use crate::error::{Error, Result};
use crate::transport::channel::{Channels, Message};
use crate::transport::mpi::comm::Comm;
use crate::transport::mpi::node;
use crate::transport::shm::channel::{Inbox, ShmChannels, inbox_bytes, sign_inbox};
use crate::transport::shm::collectives::Collectives;
use crate::transport::shm::job::MAX_PES;
use crate::transport::shm::region::AnonymousRegion;

/// The shared-memory channels of this node's PEs.
struct OnNode {
    channels: ShmChannels,
    /// The node rank of each rank of the job on this node.
    node_rank: Vec<Option<usize>>,
}

/// This PE's channels: shared memory on its node, MPI to the other nodes.
pub struct HybridChannels {
    mpi: MpiChannels,
    node: Option<OnNode>,
    /// The node's channels reach every rank (the job is this node): known once, at creation.
    whole_job_on_node: bool,
    /// Where the job spans nodes: the entries into MPI's own collectives, which the PEs of other
    /// nodes read (`far_entries`).
    far: Option<FarEntries>,
}

impl HybridChannels {
    /// Collective over `world` (the channels' own communicator): finds this PE's node and
    /// joins its shared-memory job unless `direct` is false on a PE of the node or the node has
    /// one PE (`split`:
    /// ranks per pretend node, 0 for real nodes). A node that cannot make its job goes through
    /// MPI (all its PEs alike).
    pub fn new(world: Arc<Comm>, split: usize, direct: bool) -> Result<Self> {
        let node = Self::on_node(&world, split, direct)?;
        // The node's channels are agreed by all its PEs; a node holding every rank is the job.
        let whole_job_on_node = node.as_ref().is_some_and(|n| n.node_rank.iter().all(Option::is_some));
        // the same answer on every PE: the node holding every rank holds them for all
        let far = if whole_job_on_node || world.size < 2 { None } else { FarEntries::new(&world)? };
        Ok(HybridChannels { mpi: MpiChannels::new(world), node, whole_job_on_node, far })
    }

    fn on_node(world: &Comm, split: usize, direct: bool) -> Result<Option<OnNode>> {
        let node = world.node(split)?;
        if node.size < 2 || node.size > MAX_PES {
            return Ok(None);
        }
        // One PE told otherwise takes its node's PEs to MPI (both ends of a channel must agree).
        let (_, all_direct) = node.agree_flag(direct)?;
        if !all_direct {
            return Ok(None);
        }
        let Ok((coll, _)) = node::node_job(&node) else { return Ok(None) };
        // No launcher cleans /dev/shm after an MPI job that aborts: the channels name nothing
        // (memfd inboxes and data regions, reached through /proc/<pid>/fd of their maker).
        let inbox = AnonymousRegion::create(inbox_bytes(node.size));
        let token = random_token();
        if let Ok(inbox) = &inbox {
            sign_inbox(inbox, node.rank, token);
        }
        let fd = inbox.as_ref().map_or(-1, |i| i.raw_fd());
        let mut mine = [0u8; 20];
        mine[..4].copy_from_slice(&(world.rank as u32).to_ne_bytes());
        mine[4..8].copy_from_slice(&std::process::id().to_ne_bytes());
        mine[8..12].copy_from_slice(&fd.to_ne_bytes());
        mine[12..].copy_from_slice(&token.to_ne_bytes());
        let mut all = vec![0u8; 20 * node.size];
        node.allgather(&mine, &mut all)?;
        let word = |c: &[u8], at: usize| u32::from_ne_bytes(c[at..at + 4].try_into().expect("4 bytes"));
        let published: Vec<Inbox> = all
            .chunks_exact(20)
            .map(|c| Inbox { pid: word(c, 4), fd: word(c, 8) as i32, token: u64::from_ne_bytes(c[12..].try_into().expect("8 bytes")) })
            .collect();
        let made = match inbox {
            Ok(inbox) if published.iter().all(|p| p.fd >= 0) => ShmChannels::anonymous(coll, inbox, &published),
            Ok(_) => Err(Error::SharedMemory("another PE of the node has no inbox".into())),
            Err(e) => Err(e),
        };
        // Where /proc/<pid>/fd is refused to some PE (or memfd to another), its node goes through
        // MPI, all its PEs alike: both ends of every channel agree.
        let (_, all_made) = node.agree_flag(made.is_ok())?;
        let channels = match made {
            Ok(channels) if all_made => channels,
            _ => return Ok(None),
        };
        let mut node_rank = vec![None; world.size];
        for (r, c) in all.chunks_exact(20).enumerate() {
            if let Some(slot) = node_rank.get_mut(word(c, 0) as usize) {
                *slot = Some(r);
            }
        }
        Ok(Some(OnNode { channels, node_rank }))
    }

    /// The shared-memory collectives of the node's channels (their PEs' blocks, which the channels
    /// read), where the node has them.
    pub fn node_collectives(&self) -> Option<Arc<Collectives>> {
        self.home().map(Arc::clone)
    }

    /// The same, borrowed.
    pub fn home(&self) -> Option<&Arc<Collectives>> {
        self.node.as_ref().map(|n| n.channels.collectives())
    }

    /// The shared-memory collectives of the node's channels where the node is the whole job, its
    /// node ranks the job's ranks: the job's collectives of a few values then run on them, so
    /// that a halo exchange waiting for a neighbour sees it gone into one of them instead
    /// (`in_collective_without_me`). The same answer on every PE.
    pub fn job_collectives(&self) -> Option<Arc<Collectives>> {
        let n = self.node.as_ref().filter(|_| self.whole_job_on_node)?;
        n.node_rank.iter().enumerate().all(|(p, r)| *r == Some(p)).then(|| Arc::clone(n.channels.collectives()))
    }

    /// This PE is in the part `first` of split `split`, whose collectives are MPI's own calls:
    /// whether the PEs of other nodes will see its entries (`announce_far`).
    pub fn register_far(&self, split: u32, first: usize, name: &'static str) -> bool {
        self.far.as_ref().inspect(|f| f.register(split, first, name)).is_some()
    }

    /// This PE enters its `entries`-th collective of that part (two stores).
    pub fn announce_far(&self, split: u32, first: usize, entries: u32) {
        if let Some(far) = &self.far {
            far.announce(split, first, entries);
        }
    }

    /// Before MPI_Finalize, once every PE took its messages: MPI requests go, the node's
    /// channels are unmapped (their names removed).
    pub fn finalize(&mut self) {
        if let Some(mut far) = self.far.take() {
            far.free();
        }
        self.mpi.release_requests();
        self.node = None;
        self.whole_job_on_node = false;
    }

    /// The shared-memory channels and the node rank of `peer`, if it is on this node.
    fn near(&mut self, peer: usize) -> Option<(&mut ShmChannels, usize)> {
        let n = self.node.as_mut()?;
        let r = (*n.node_rank.get(peer)?)?;
        Some((&mut n.channels, r))
    }
}

impl Channels for HybridChannels {
    fn shared_memory_only(&self) -> bool {
        self.whole_job_on_node
    }

    fn in_collective_without_me(&mut self, peer: usize) -> bool {
        self.near(peer).is_some_and(|(shm, r)| shm.in_collective_without_me(r))
    }

    fn in_part_collective_without_me(&mut self, peer: usize) -> Option<String> {
        match self.near(peer) {
            Some((shm, r)) => shm.in_part_collective_without_me(r),
            None => self.far.as_ref().and_then(|f| f.ahead(peer)),
        }
    }

    fn reserve(&mut self, peer: usize, len: usize) -> Result<*mut u8> {
        match self.near(peer) {
            Some((shm, r)) => shm.reserve(r, len),
            None => self.mpi.reserve(peer, len),
        }
    }

    fn post(&mut self, peer: usize, len: usize) -> Result<()> {
        match self.near(peer) {
            Some((shm, r)) => shm.post(r, len),
            None => self.mpi.post(peer, len),
        }
    }

    fn poll(&mut self, peer: usize) -> Result<Option<Message>> {
        match self.near(peer) {
            Some((shm, r)) => shm.poll(r),
            None => self.mpi.poll(peer),
        }
    }

    fn wait_any(&mut self, peers: &[usize], waiting_for: &dyn Fn() -> String) -> Result<()> {
        if let Some(far) = self.far.as_mut() {
            far.forget();
            let me = self.mpi.rank();
            let node_rank = |p: usize| self.node.as_ref().and_then(|n| n.node_rank.get(p).copied().flatten());
            if peers.iter().any(|&p| p != me && node_rank(p).is_none()) {
                return self.wait_looking_far(peers, waiting_for);
            }
        }
        let Some(n) = self.node.as_mut() else { return self.mpi.wait_any(peers, waiting_for) };
        let near: Vec<usize> = peers.iter().filter_map(|&p| n.node_rank.get(p).copied().flatten()).collect();
        let far: Vec<usize> = peers.iter().copied().filter(|&p| n.node_rank.get(p).copied().flatten().is_none()).collect();
        if far.is_empty() {
            return n.channels.wait_any(&near, waiting_for);
        }
        if near.is_empty() {
            return self.mpi.wait_any(&far, waiting_for);
        }
        // Both kinds: neither side's wait sees the other's messages, so test both in turn.
        let mpi = &mut self.mpi;
        let shm = &mut n.channels;
        wait_for(
            || {
                for &r in &near {
                    if shm.poll(r)?.is_some() {
                        return Ok(true);
                    }
                }
                for &p in &far {
                    if mpi.poll(p)?.is_some() {
                        return Ok(true);
                    }
                }
                Ok(false)
            },
            waiting_for,
        )
    }

    fn release(&mut self, peer: usize) -> Result<()> {
        match self.near(peer) {
            Some((shm, r)) => shm.release(r),
            None => self.mpi.release(peer),
        }
    }

    fn expect(&mut self, peer: usize, len: usize) -> Result<()> {
        match self.near(peer) {
            Some((shm, r)) => shm.expect(r, len),
            None => self.mpi.expect(peer, len),
        }
    }
}

impl HybridChannels {
    /// `wait_any` where some of `peers` are on other nodes: their messages are tested, and once
    /// the wait has lasted `LOOK_AFTER`, where they are is read every `LOOK_AFTER`: a neighbour
    /// seen in a collective of a communicator of both that this PE has not entered ends the wait
    /// (`in_part_collective_without_me` then names it).
    fn wait_looking_far(&mut self, peers: &[usize], waiting_for: &dyn Fn() -> String) -> Result<()> {
        let me = self.mpi.rank();
        let node_rank = |p: usize| self.node.as_ref().and_then(|n| n.node_rank.get(p).copied().flatten());
        let near: Vec<usize> = peers.iter().filter_map(|&p| node_rank(p)).collect();
        let other: Vec<usize> = peers.iter().copied().filter(|&p| node_rank(p).is_none()).collect();
        let far_peers: Vec<usize> = other.iter().copied().filter(|&p| p != me).collect();
        let (mpi, far) = (&mut self.mpi, self.far.as_mut().expect("far entries (wait_any)"));
        let mut shm = self.node.as_mut().map(|n| &mut n.channels);
        let mut look_at = std::time::Instant::now() + LOOK_AFTER;
        wait_for(
            || {
                if let Some(shm) = shm.as_mut() {
                    for &r in &near {
                        if shm.poll(r)?.is_some() {
                            return Ok(true);
                        }
                    }
                }
                for &p in &other {
                    if mpi.poll(p)?.is_some() {
                        return Ok(true);
                    }
                }
                let now = std::time::Instant::now();
                if now >= look_at {
                    look_at = now + LOOK_AFTER / 2;
                    for &p in &far_peers {
                        if far.look(p)? {
                            return Ok(true);
                        }
                    }
                }
                Ok(false)
            },
            waiting_for,
        )
    }
}

/// A number no other inbox holds by chance (the kernel's random source, else the clock).
fn random_token() -> u64 {
    let mut bytes = [0u8; 8];
    // SAFETY: getrandom writes at most bytes.len() bytes into the buffer.
    let got = unsafe { libc::getrandom(bytes.as_mut_ptr() as *mut libc::c_void, bytes.len(), 0) };
    if got == bytes.len() as isize {
        u64::from_ne_bytes(bytes)
    } else {
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64);
        now ^ (u64::from(std::process::id()) << 32)
    }
}
