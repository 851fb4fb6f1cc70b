//! A window whose communicator spans nodes, with direct access between the PEs of a node.
//!
//! It is made of two windows on the same memory: a shared-memory window (`shm::window`) over
//! this node's PEs, and an MPI RMA window (`window`) over every PE, created on each PE's part of
//! the shared region (MPI_Win_create). Which one serves an access:
//! - puts and gets of fence and group epochs to a PE of this node: loads and stores in the
//!   shared region (no MPI call), synchronised by the shared-memory epoch protocol;
//! - everything to PEs of other nodes: MPI;
//! - accumulates and one-element atomics (compare-and-swap, fetch-and-op), to any PE: MPI.
//!   CPU atomics and MPI accumulates arriving from the network are not atomic with each other
//!   (an MPI may apply a remote accumulate as a read-modify-write of its own, under its own
//!   lock), so the element-wise atomicity of concurrent accumulates and atomics from PEs of
//!   several nodes holds only if one agent applies them all: MPI;
//! - passive puts and gets: MPI, even on this node, because each must be atomic with respect
//!   to the other operations on its target (docs/contract.md rule 3), those of other nodes included, and
//!   only MPI's lock excludes those;
//! - request/reply slots: MPI (fetch-and-increment from PEs of any node).
//!
//! Epochs open both windows and close both: fence closes with MPI_Win_fence over every PE and
//! the node's barrier; a group epoch is MPI post/start/complete/wait with all of `pes_to` /
//! `pes_from` (accumulates to PEs of this node go through MPI too) and the shared-memory group
//! protocol with those of this node (for the loads and stores), so it costs what its groups cost.

use super::window::MpiWindow;
use crate::core::subarray::BoxTransfer;
use crate::core::{GroupSets, Mode, Operator, RemoteAccess};
use crate::error::Result;
use crate::transport::shm::window::ShmWindow;
use crate::transport::{BatchOp, Fetch, TransportWindow, run_each};

pub struct HybridWindow {
    /// This node's PEs (ranks in the node's group).
    node: ShmWindow,
    /// Every PE, on the node window's memory.
    mpi: MpiWindow,
    /// Rank in the node's group of each rank of the window's communicator on this node.
    node_rank: Vec<Option<usize>>,
}

impl HybridWindow {
    /// Joins the node window and the MPI window made over its memory (`mpi` must not stage:
    /// both must see the same elements).
    pub fn new(node: ShmWindow, mpi: MpiWindow, npes: usize, members: &[usize]) -> Self {
        debug_assert!(!mpi.is_staged());
        let mut node_rank = vec![None; npes];
        for (r, &pe) in members.iter().enumerate() {
            node_rank[pe] = Some(r);
        }
        HybridWindow { node, mpi, node_rank }
    }

    /// The access in the node window, when it is served there (see the module doc).
    fn on_node(&self, acc: &RemoteAccess) -> Option<RemoteAccess> {
        match acc.mode {
            Mode::Passive => None,
            _ => self.node_rank[acc.target].map(|target| RemoteAccess { target, ..*acc }),
        }
    }

    fn node_sets(&self, g: &GroupSets) -> GroupSets {
        node_sets(&self.node_rank, g)
    }
}

/// The group sets of the node window: the PEs of this node in `g`, as node ranks (`node_rank`:
/// the node rank of each PE of the window on this node).
fn node_sets(node_rank: &[Option<usize>], g: &GroupSets) -> GroupSets {
    let near = |list: &[usize]| list.iter().filter_map(|&pe| node_rank[pe]).collect::<Vec<_>>();
    GroupSets::new(node_rank.iter().flatten().count(), near(&g.to), near(&g.from))
}

impl TransportWindow for HybridWindow {
    fn label(&self) -> &str {
        self.node.label()
    }

    fn local_base(&self) -> *mut u8 {
        self.node.local_base()
    }

    fn shared_base(&self, target: usize) -> Option<*mut u8> {
        self.node_rank.get(target).copied().flatten().and_then(|r| self.node.shared_base(r))
    }

    fn open(&mut self, epoch: u32, mode: Mode, group: Option<&GroupSets>) -> Result<()> {
        // The node window first: it copies a staged array in before any PE can reach it.
        match (mode, group) {
            (Mode::Group, Some(g)) => self.node.open(epoch, mode, Some(&self.node_sets(g)))?,
            _ => self.node.open(epoch, mode, group)?,
        }
        self.mpi.open(epoch, mode, group)
    }

    fn close(&mut self, epoch: u32, mode: Mode, group: Option<&GroupSets>) -> Result<()> {
        // MPI first: its operations have landed before the node window copies a staged array out.
        self.mpi.close(epoch, mode, group)?;
        match (mode, group) {
            (Mode::Group, Some(g)) => self.node.close(epoch, mode, Some(&self.node_sets(g))),
            _ => self.node.close(epoch, mode, group),
        }
    }

    unsafe fn put(&self, acc: &RemoteAccess, src: *const u8) -> Result<()> {
        match self.on_node(acc) {
            // SAFETY: the caller's contract; the access was checked against the same sizes.
            Some(near) => unsafe { self.node.put(&near, src) },
            // SAFETY: the caller's contract.
            None => unsafe { self.mpi.put(acc, src) },
        }
    }

    unsafe fn get(&self, acc: &RemoteAccess, dst: *mut u8) -> Result<()> {
        match self.on_node(acc) {
            // SAFETY: the caller's contract; the access was checked against the same sizes.
            Some(near) => unsafe { self.node.get(&near, dst) },
            // SAFETY: the caller's contract.
            None => unsafe { self.mpi.get(acc, dst) },
        }
    }

    unsafe fn put_box(&self, acc: &RemoteAccess, transfer: &BoxTransfer, src: *const u8, elem: usize) -> Result<()> {
        match self.on_node(acc) {
            // SAFETY: the caller's contract; the access was checked against the same sizes.
            Some(near) => unsafe { self.node.put_box(&near, transfer, src, elem) },
            // SAFETY: the caller's contract.
            None => unsafe { self.mpi.put_box(acc, transfer, src, elem) },
        }
    }

    unsafe fn get_box(&self, acc: &RemoteAccess, transfer: &BoxTransfer, dst: *mut u8, elem: usize) -> Result<()> {
        match self.on_node(acc) {
            // SAFETY: the caller's contract; the access was checked against the same sizes.
            Some(near) => unsafe { self.node.get_box(&near, transfer, dst, elem) },
            // SAFETY: the caller's contract.
            None => unsafe { self.mpi.get_box(acc, transfer, dst, elem) },
        }
    }

    unsafe fn accumulate(&self, acc: &RemoteAccess, src: *const u8, fetch: Option<Fetch>, op: Operator) -> Result<()> {
        // SAFETY: the caller's contract.
        unsafe { self.mpi.accumulate(acc, src, fetch, op) }
    }

    unsafe fn compare_and_swap(&self, acc: &RemoteAccess, compare: *const u8, new: *const u8, old: *mut u8) -> Result<()> {
        // Through MPI to any PE, as accumulates: one agent applies every atomic update.
        // SAFETY: the caller's contract.
        unsafe { self.mpi.compare_and_swap(acc, compare, new, old) }
    }

    unsafe fn run_batch(&self, ops: &[(RemoteAccess, BatchOp)], done: &mut dyn FnMut(usize, Result<()>)) {
        match ops.first() {
            // Passive operations all go through MPI (see the module doc), which batches them.
            // SAFETY: the caller's contract, passed on.
            Some((acc, _)) if acc.mode == Mode::Passive => unsafe { self.mpi.run_batch(ops, done) },
            // SAFETY: the caller's contract, passed on (each one routed as `put`/`get` route it).
            _ => unsafe { run_each(self, ops, done) },
        }
    }

    fn create_secondary(&mut self, records: &[usize]) -> Result<()> {
        self.mpi.create_secondary(records)
    }

    fn secondary_base(&self) -> *mut i32 {
        self.mpi.secondary_base()
    }

    fn claim_slot(&self, target: usize, epoch: u32) -> Result<u32> {
        self.mpi.claim_slot(target, epoch)
    }

    fn write_record(&self, target: usize, epoch: u32, slot: u32, record: [i32; 5]) -> Result<()> {
        self.mpi.write_record(target, epoch, slot, record)
    }

    fn reset_secondary(&self, full: bool) -> Result<()> {
        self.mpi.reset_secondary(full)
    }

    fn free(self: Box<Self>) -> Result<()> {
        let HybridWindow { node, mpi, .. } = *self;
        // MPI lets go of the memory before the node window unmaps it (and gives a remapped
        // array its private pages back).
        let freed = Box::new(mpi).free();
        let unmapped = Box::new(node).free();
        freed.and(unmapped)
    }
}

#[cfg(test)]
mod tests {
    use super::node_sets;
    use crate::core::GroupSets;

    #[test]
    fn group_sets_of_the_node_keep_its_pes_as_node_ranks() {
        // PEs 1, 2 and 4 of 6 on this node (node ranks 0, 1, 2)
        let node_rank = [None, Some(0), Some(1), None, Some(2), None];
        let g = GroupSets::new(6, vec![0, 2, 4], vec![1, 3]);
        let near = node_sets(&node_rank, &g);
        assert_eq!(near.to, vec![1, 2]);
        assert_eq!(near.from, vec![0]);
        assert!(near.targets(2) && !near.targets(0));
        let far_only = node_sets(&node_rank, &GroupSets::new(6, vec![3], vec![5]));
        assert!(far_only.to.is_empty() && far_only.from.is_empty());
    }
}
