//! Transports: how PEs synchronise and move window data. The window logic in `core` and
//! the API in `runtime` only talk to these traits.
//!
//! - `shm`: the shared-memory transport (the processes of one node, started by `rpnrun`);
//! - `mpi`: the MPI transport (the MPI build only), shared memory between the PEs of a node;
//! - `channel`: point-to-point channels, ordered messages from one PE to another.

pub mod channel;
#[cfg(feature = "mpi")]
pub mod mpi;
// With MPI, the shared-memory windows, collectives and groups are created and used for the PEs
// of each node (`mpi::node`, `mpi::hybrid`) and the launcher uses the job segment; what is left
// unused is the transport over `rpnrun`'s job (`ShmTransport`) and the job-wide group and
// collectives only it makes.
#[cfg_attr(feature = "mpi", allow(dead_code))]
pub mod shm;

use self::channel::Channels;
use crate::core::collectives::call_log::ENTRY_BYTES;
use crate::core::subarray::BoxTransfer;
use crate::core::{Communicator, ElementType, GroupSets, MessageType, Mode, Operator, RemoteAccess};
use crate::error::{Error, Result};

/// Ends this process with `status` (C streams flushed) after a fault it reported: the launcher
/// (rpnrun, Open MPI's mpirun) ends the job on the non-zero exit, without the banner of the
/// MPI_Abort a PE leaving unfinalized otherwise makes; on MPICH that MPI_Abort still ends the job
/// (hydra would end only this node's PEs), silenced (`rpnmpi_exit_quietly`).
pub fn exit_quietly(status: i32) -> ! {
    #[cfg(feature = "mpi")]
    mpi::shim::rpnmpi_exit_quietly(status);
    #[cfg(not(feature = "mpi"))]
    std::process::exit(status)
}

/// Where a fetching accumulate puts the target's values.
#[derive(Debug, Clone, Copy)]
pub struct Fetch {
    /// The caller's buffer for the fetched values (`nelem` elements).
    pub dst: *mut u8,
    /// Values from before the update (true) or after it.
    pub before: bool,
}

/// One put or get of a batch (`TransportWindow::run_batch`): the caller's buffer.
#[derive(Debug, Clone, Copy)]
pub enum BatchOp {
    /// A put from this buffer.
    Put {
        /// The caller's source (the access's `nelem` elements).
        src: *const u8,
    },
    /// A get into this buffer.
    Get {
        /// The caller's destination (the access's `nelem` elements).
        dst: *mut u8,
    },
}

/// Runs a batch one operation after the other (`TransportWindow::run_batch`'s default).
///
/// # Safety
/// As `TransportWindow::run_batch`.
pub unsafe fn run_each<W: TransportWindow + ?Sized>(w: &W, ops: &[(RemoteAccess, BatchOp)], done: &mut dyn FnMut(usize, Result<()>)) {
    for (i, (acc, op)) in ops.iter().enumerate() {
        let out = match *op {
            // SAFETY: the caller's contract, for this operation.
            BatchOp::Put { src } => unsafe { w.put(acc, src) },
            // SAFETY: as above.
            BatchOp::Get { dst } => unsafe { w.get(acc, dst) },
        };
        done(i, out);
    }
}

/// How a transport makes the per-step collectives (barrier, allreduce, allgather, bcast, reduce,
/// gather) over a communicator; the runtime checks the PEs' calls accordingly
/// (`runtime::collectives::check`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CollectivePath {
    /// With calls of its own (`allreduce_native`, `bcast`, `reduce_to`, `gather_to`, `allgather`:
    /// MPI's over PEs of several nodes), which carry nothing but the data.
    Own,
    /// Every one comes down to its allgather (shared memory), where the runtime carries every
    /// PE's call beside its data.
    Exchange,
    /// As `Exchange`, but the reductions whose result depends on the order of combination are
    /// its own calls (MPI over the PEs of one node: the grouping of MPI_Allreduce and MPI_Reduce,
    /// which the original's sums of reals follow to the last bit).
    ExchangeReducingOwn,
}

/// Which way a rooted collective's data goes (`Transport::rooted_round`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Toward {
    /// Every PE's block to the root (RPN_COMM_reduce, RPN_COMM_gather).
    Root,
    /// The root's block to every PE (RPN_COMM_bcast).
    Others,
}

/// A job: PEs that create windows together. Collective methods run over the communicator they
/// are given (the job itself, or one the transport made); ranks are ranks in that communicator.
pub trait Transport: Send {
    /// The whole job as this PE sees it (what 'GRID', 'WORLD' and 'ALLGRIDS' designate).
    fn job(&self) -> &Communicator;
    /// Blocks until every PE of `comm` has called it. (RPN_COMM_barrier is the runtime's
    /// agreement step instead, which carries the routine: see `runtime::agreement`.)
    #[allow(dead_code, reason = "an untagged barrier: for the transports' own steps and tests")]
    fn barrier(&mut self, comm: &Communicator) -> Result<()>;
    /// Every PE of `comm` contributes `mine`; `all` receives the contributions in rank order, in
    /// blocks of `all.len()` / PEs bytes. The same length everywhere, but over the exchanges of
    /// shared memory (`CollectivePath::Exchange`), where a block that fits a round may be shorter
    /// than `all`'s: each is then copied as long as it was published, and `all` keeps what it
    /// held past it (`Runtime::exchange_with_room`).
    fn allgather(&mut self, comm: &Communicator, mine: &[u8], all: &mut [u8]) -> Result<()>;

    /// `allgather` of `mine`, given up after `limit` where the transport can (None then; the
    /// caller ends the job): for a PE that refused a collective the others may be inside of
    /// (`CollectivePath::Own`), to learn whether they refused it too.
    fn allgather_within(&mut self, comm: &Communicator, mine: Vec<u8>, limit: std::time::Duration) -> Result<Option<Vec<u8>>> {
        let _ = limit;
        let mut all = vec![0u8; mine.len() * comm.size()];
        self.allgather(comm, &mine, &mut all)?;
        Ok(Some(all))
    }
    /// Collective over `comm`: creates this PE's part of a window of `sizes[r]` elements on the
    /// PE of rank r, in the caller's array (`user_array`, an address) or in memory the transport
    /// allocates.
    ///
    /// # Safety
    /// `user_array`, when given, holds this PE's `sizes[comm.rank()]` elements of `dtype` and
    /// stays valid until the window is freed.
    unsafe fn create_window(
        &mut self,
        comm: &Communicator,
        dtype: ElementType,
        sizes: &[usize],
        user_array: Option<usize>,
    ) -> Result<Box<dyn TransportWindow>>;
    /// Leaves the job (after a final barrier).
    fn finalize(&mut self) -> Result<()>;

    /// This PE's point-to-point channels to the others (`channel`), None where the transport
    /// has none.
    fn channels(&mut self) -> Option<&mut dyn Channels> {
        None
    }

    /// Collective over the job: every PE passes `part`, the job ranks (in rank order) of the
    /// part of the job it belongs to, or None where it belongs to none (the parts are disjoint:
    /// the rows of the PE grid, the masters of its blocks); returns this PE's part as a new
    /// communicator (None for None), named `name` in messages. A part that is the whole job
    /// is the job itself. By default only the whole job is one (transports without
    /// communicators of their own).
    fn split(&mut self, part: Option<&[usize]>, name: &'static str) -> Result<Option<Communicator>> {
        let job = self.job();
        if part.is_some() && job.members() == part {
            return Ok(Some(job.clone().named(name)));
        }
        Err(Error::Unsupported("a communicator other than the whole job"))
    }

    /// A communicator for the caller's Fortran MPI communicator handle (not collective).
    fn wrap_mpi_communicator(&mut self, _fortran_handle: i32) -> Result<Communicator> {
        Err(Error::Unsupported("an MPI communicator (mcom) needs the MPI transport (build with MPI=1)"))
    }

    /// Collective over `comm` (RPN_COMM_reduce): every PE's `mine` (elements of `dtype`) combined
    /// with `op`; the result on the PE of rank `root` (None elsewhere). By default from an
    /// allgather, combined in rank order; the MPI transport combines as MPI_Reduce does.
    fn reduce_to(&mut self, comm: &Communicator, mine: &[u8], dtype: MessageType, op: Operator, root: usize) -> Result<Option<Vec<u8>>> {
        let mut all = vec![0u8; mine.len() * comm.size()];
        self.allgather(comm, mine, &mut all)?;
        if comm.rank() != root {
            return Ok(None);
        }
        let mut blocks = all.chunks_exact(mine.len().max(1));
        let mut result = blocks.next().map(<[u8]>::to_vec).unwrap_or_default();
        for other in blocks.take(comm.size() - 1) {
            dtype.combine(op, &mut result, other);
        }
        result.truncate(mine.len());
        Ok(Some(result))
    }

    /// Collective over `comm` (RPN_COMM_gather): every PE's `mine` (same length everywhere), in
    /// rank order, on the PE of rank `root` (None elsewhere).
    /// Collective over `comm` (RPN_COMM_allreduce, after the PEs agreed on the call): every PE's
    /// `mine` combined with `op`, on every PE, where the transport combines as the original does
    /// (the MPI transport: MPI_Allreduce, whose order of combination can change the last bits of a
    /// sum over 3 PEs or more); None (the default) lets the caller combine in rank order.
    fn allreduce_native(&mut self, _comm: &Communicator, _mine: &[u8], _dtype: MessageType, _op: Operator) -> Result<Option<Vec<u8>>> {
        Ok(None)
    }

    /// How the per-step collectives over `comm` are made (see `CollectivePath`).
    fn collective_path(&self, _comm: &Communicator) -> CollectivePath {
        CollectivePath::Exchange
    }

    /// The round of a rooted collective over `comm` made as an exchange (`CollectivePath::
    /// Exchange`): every PE gives `mine` (of one length on every PE: its call's header, then its data);
    /// `all` (a block of `mine`'s length per PE, rank order) receives at least the blocks this PE
    /// needs: every PE's on the root `toward` it, the root's elsewhere from it. Returns whether
    /// it received every PE's (then every PE knows what this one knows). By default an allgather;
    /// the PEs of one node make a round in which the senders leave before the root has their
    /// blocks and the root of a broadcast before the others have its block (MPI's collectives
    /// let them).
    fn rooted_round(&mut self, comm: &Communicator, mine: &[u8], all: &mut [u8], root: usize, toward: Toward) -> Result<bool> {
        let _ = (root, toward);
        self.allgather(comm, mine, all)?;
        Ok(true)
    }

    /// This PE enters (`Some`: the call, `CallEntry::to_bytes`) or leaves (None) a reduction over
    /// `comm` made with the transport's own call where the PEs' other collectives are exchanges
    /// (`CollectivePath::ExchangeReducingOwn`): a PE waiting in an exchange for this one then
    /// fails with `Error::PeerInOwnCall` instead of waiting for ever.
    fn own_call(&mut self, _comm: &Communicator, _call: Option<&[u8; ENTRY_BYTES]>) {}

    /// Collective over `comm` (RPN_COMM_bcast): `buffer` of the PE of rank `root` copied into
    /// `buffer` on every PE (as long everywhere). By default from an allgather (the root's block
    /// kept); the MPI transport makes it MPI_Bcast as the original does.
    fn bcast(&mut self, comm: &Communicator, buffer: &mut [u8], root: usize) -> Result<()> {
        let mut all = vec![0u8; buffer.len() * comm.size()];
        self.allgather(comm, buffer, &mut all)?;
        buffer.copy_from_slice(&all[root * buffer.len()..(root + 1) * buffer.len()]);
        Ok(())
    }

    fn gather_to(&mut self, comm: &Communicator, mine: &[u8], root: usize) -> Result<Option<Vec<u8>>> {
        let mut all = vec![0u8; mine.len() * comm.size()];
        self.allgather(comm, mine, &mut all)?;
        Ok((comm.rank() == root).then_some(all))
    }

    /// Collective over `comm` (RPN_COMM_transpose): `send` holds one block of `block` bytes per
    /// PE in rank order; `recv` (as long) receives the block each PE addressed to this one, in
    /// rank order. The caller gives the buffer so that it can keep it between calls (a fresh one
    /// each call costs its page faults). By default from an allgather (every PE keeps its
    /// blocks: correct on every transport, at PEs times the traffic); the MPI transport makes it
    /// MPI_Alltoall as the original does.
    fn alltoall(&mut self, comm: &Communicator, send: &[u8], block: usize, recv: &mut [u8]) -> Result<()> {
        let (n, me) = (comm.size(), comm.rank());
        check_alltoall(send, block, n, recv)?;
        let mut all = vec![0u8; send.len() * n];
        self.allgather(comm, send, &mut all)?;
        let stride = block * n;
        for (p, to) in recv.chunks_exact_mut(block.max(1)).enumerate().take(n) {
            to.copy_from_slice(&all[p * stride + me * block..p * stride + (me + 1) * block]);
        }
        Ok(())
    }

    /// Collective over `comm` (the distribution routines, the RPN_MPI transpose): this PE sends
    /// `send_counts[p]` bytes to the PE of rank p, the blocks one after the other in `send` in
    /// rank order, and receives `recv_counts[p]` bytes from each, returned one after the other
    /// in rank order. Every pair must agree (p's `send_counts[me]` is this PE's
    /// `recv_counts[p]`; checked). By default from allgathers (every PE's counts, then every
    /// PE's whole buffer: correct on every transport, at PEs times the traffic); the
    /// shared-memory transport copies each block once through the mailboxes, the MPI transport
    /// makes it MPI_Alltoallv.
    fn alltoallv(&mut self, comm: &Communicator, send: &[u8], send_counts: &[usize], recv_counts: &[usize]) -> Result<Vec<u8>> {
        let table = exchange_counts(self, comm, send, send_counts, recv_counts)?;
        self.alltoallv_table(comm, send, &table)
    }

    /// `alltoallv` where every PE knows the whole table alike (`table[p * n + q]`: the bytes PE p
    /// sends PE q; this PE's blocks one after the other in `send`), so that no counts travel. By
    /// default from an allgather of every PE's whole buffer (correct on every transport, at PEs
    /// times the traffic); the shared-memory transport copies each block once through the
    /// mailboxes, the MPI transport makes it MPI_Alltoallv.
    fn alltoallv_table(&mut self, comm: &Communicator, send: &[u8], table: &[usize]) -> Result<Vec<u8>> {
        let (n, me) = (comm.size(), comm.rank());
        let longest = (0..n).map(|p| table[p * n..(p + 1) * n].iter().sum::<usize>()).max().unwrap_or(0);
        let mut padded = send.to_vec();
        padded.resize(longest, 0);
        let mut all = vec![0u8; longest * n];
        self.allgather(comm, &padded, &mut all)?;
        let mut mine = Vec::with_capacity((0..n).map(|p| table[p * n + me]).sum());
        for p in 0..n {
            let at = p * longest + table[p * n..p * n + me].iter().sum::<usize>();
            mine.extend_from_slice(&all[at..at + table[p * n + me]]);
        }
        Ok(mine)
    }

    /// Collective over `comm` (RPN_COMM_gatherv): every PE's `mine`, one after the other in rank
    /// order, on the PE of rank `root` (None elsewhere). `counts[p]` is PE p's length: given on
    /// the root, and on every PE alike where the collectives over `comm` are exchanges
    /// (`CollectivePath::Exchange`, `ExchangeReducingOwn`). By default from `alltoallv_table`;
    /// the MPI transport makes it MPI_Gatherv, as the original does.
    fn gatherv_to(&mut self, comm: &Communicator, mine: &[u8], counts: &[usize], root: usize) -> Result<Option<Vec<u8>>> {
        let n = comm.size();
        let mut table = vec![0usize; n * n];
        for (p, &c) in counts.iter().enumerate().take(n) {
            table[p * n + root] = c;
        }
        let got = self.alltoallv_table(comm, mine, &table)?;
        Ok((comm.rank() == root).then_some(got))
    }

    /// Collective over `comm` (RPN_COMM_scatterv): from `send` on the PE of rank `root`, PE p's
    /// `counts[p]` bytes (one after the other, rank order) to PE p; returns this PE's
    /// (`recv_len` bytes). `counts` as `gatherv_to`'s. By default from `alltoallv_table`; the
    /// MPI transport makes it MPI_Scatterv, as the original does.
    fn scatterv_from(&mut self, comm: &Communicator, send: &[u8], counts: &[usize], recv_len: usize, root: usize) -> Result<Vec<u8>> {
        let (n, me) = (comm.size(), comm.rank());
        let mut table = vec![0usize; n * n];
        table[root * n..(root + 1) * n].copy_from_slice(&counts[..n]);
        let got = self.alltoallv_table(comm, if me == root { send } else { &[] }, &table)?;
        if got.len() != recv_len {
            return Err(Error::Internal(format!("scatterv of {} bytes to a PE that receives {recv_len}", got.len())));
        }
        Ok(got)
    }

    /// The Fortran MPI handle of `comm` for the caller's own MPI calls (RPN_COMM_comm), or
    /// MPI_COMM_NULL's for None (not collective).
    fn fortran_comm(&self, _comm: Option<&Communicator>) -> Result<i32> {
        Err(Error::Unsupported("an MPI communicator handle (RPN_COMM_comm) needs the MPI build (make MPI=1)"))
    }
}

/// Every PE's `send_counts` (row p of the n x n table: what PE p sends to each), after checking
/// this PE's arguments; fails when a pair disagrees (what p sends to q is not what q expects).
pub fn exchange_counts<T: Transport + ?Sized>(
    t: &mut T,
    comm: &Communicator,
    send: &[u8],
    send_counts: &[usize],
    recv_counts: &[usize],
) -> Result<Vec<usize>> {
    let n = comm.size();
    if send_counts.len() != n || recv_counts.len() != n || send.len() != send_counts.iter().sum::<usize>() {
        return Err(Error::Internal(format!(
            "alltoallv of {} bytes with {} / {} counts for {n} PEs",
            send.len(),
            send_counts.len(),
            recv_counts.len()
        )));
    }
    let mine: Vec<u8> = send_counts.iter().flat_map(|&c| (c as u64).to_ne_bytes()).collect();
    let mut all = vec![0u8; mine.len() * n];
    t.allgather(comm, &mine, &mut all)?;
    let table: Vec<usize> = all.chunks_exact(8).map(|c| u64::from_ne_bytes(c.try_into().unwrap_or_default()) as usize).collect();
    let me = comm.rank();
    if let Some(p) = (0..n).find(|&p| table[p * n + me] != recv_counts[p]) {
        return Err(Error::Internal(format!(
            "alltoallv: PE {p} sends {} bytes to PE {me}, which expects {}",
            table[p * n + me],
            recv_counts[p]
        )));
    }
    Ok(table)
}

/// One PE's view of one window. Arguments have been validated by `core::WindowState`.
/// Operations (`put`, `get`, `accumulate`, `claim_slot`, `write_record`, `reset_secondary`)
/// take `&self`: threads of one PE call them at the same time, on one window or several.
/// The others are configuration calls, made by one thread while no operation is in progress
/// on the window (the runtime's window gate sees to it).
pub trait TransportWindow: Send + Sync {
    /// How messages name the window ("window 3": the 3rd created in the job).
    fn label(&self) -> &str {
        "the window"
    }
    /// Address of this PE's elements as the caller sees them while the window is closed.
    fn local_base(&self) -> *mut u8;
    /// Address, in this process, of PE `target`'s elements of an internal window when they are
    /// memory this process maps (a PE of this node); None where only the transport reaches them.
    fn shared_base(&self, _target: usize) -> Option<*mut u8> {
        None
    }
    fn open(&mut self, epoch: u32, mode: Mode, group: Option<&GroupSets>) -> Result<()>;
    fn close(&mut self, epoch: u32, mode: Mode, group: Option<&GroupSets>) -> Result<()>;
    /// # Safety
    /// `src` must be readable for `acc.nelem` elements.
    unsafe fn put(&self, acc: &RemoteAccess, src: *const u8) -> Result<()>;
    /// # Safety
    /// `dst` must be writable for `acc.nelem` elements.
    unsafe fn get(&self, acc: &RemoteAccess, dst: *mut u8) -> Result<()>;
    /// # Safety
    /// `src` readable and, if present, `fetch.dst` writable for `acc.nelem` elements.
    unsafe fn accumulate(&self, acc: &RemoteAccess, src: *const u8, fetch: Option<Fetch>, op: Operator) -> Result<()>;
    /// One-element compare-and-swap on an integer window: the target element becomes `new`
    /// if it equals `compare`; `old` receives its value from before, in one atomic step with
    /// respect to every other atomic and accumulate on the element. Complete when it returns
    /// in passive mode, at the close in active modes (as an accumulate with `garray`).
    ///
    /// # Safety
    /// `compare` and `new` readable, `old` writable for one element of the window's type
    /// (until the operation completes); `acc` is one element (checked).
    unsafe fn compare_and_swap(&self, acc: &RemoteAccess, compare: *const u8, new: *const u8, old: *mut u8) -> Result<()>;
    /// Puts a box (`core::subarray`): `acc` covers the target's whole shape (checked), the box
    /// is read from `src` (the local array) as `transfer` places it. By default one `put` per
    /// contiguous run; a transport that can do better (one lock, one MPI operation) overrides it.
    ///
    /// # Safety
    /// `src` must be readable for the local shape's elements (`elem` bytes each).
    unsafe fn put_box(&self, acc: &RemoteAccess, transfer: &BoxTransfer, src: *const u8, elem: usize) -> Result<()> {
        for run in transfer.runs() {
            let one = RemoteAccess { offset: run.remote, nelem: run.len, ..*acc };
            // SAFETY: the caller's contract, for this run (inside the local shape).
            unsafe { self.put(&one, src.add(run.local * elem))? };
        }
        Ok(())
    }
    /// Gets a box into `dst` (the local array), as `put_box` puts one.
    ///
    /// # Safety
    /// `dst` must be writable for the local shape's elements.
    unsafe fn get_box(&self, acc: &RemoteAccess, transfer: &BoxTransfer, dst: *mut u8, elem: usize) -> Result<()> {
        for run in transfer.runs() {
            let one = RemoteAccess { offset: run.remote, nelem: run.len, ..*acc };
            // SAFETY: the caller's contract, for this run (inside the local shape).
            unsafe { self.get(&one, dst.add(run.local * elem))? };
        }
        Ok(())
    }
    /// Runs the puts and gets that request-based operations queued (`runtime::requests`), in
    /// order, each complete when it returns as its blocking form is, telling `done(i, outcome)`
    /// of each. By default one after the other; a transport that can do better (over MPI, one
    /// passive lock per run of operations to one target) overrides it.
    ///
    /// # Safety
    /// Each operation's buffer is valid for its access's `nelem` elements (readable for a put,
    /// writable for a get).
    unsafe fn run_batch(&self, ops: &[(RemoteAccess, BatchOp)], done: &mut dyn FnMut(usize, Result<()>)) {
        // SAFETY: the caller's contract, passed on.
        unsafe { run_each(self, ops, done) }
    }
    /// Collective: (re)creates the secondary window with `records[p]` records of 5 integers on PE p.
    fn create_secondary(&mut self, records: &[usize]) -> Result<()>;
    /// This PE's records (null when there is no secondary window).
    fn secondary_base(&self) -> *mut i32;
    /// Takes the next free record of `target`'s secondary window (atomic fetch-and-increment, bounded).
    fn claim_slot(&self, target: usize, epoch: u32) -> Result<u32>;
    /// Writes a request record into record `slot` (1-based) of `target`'s secondary window.
    fn write_record(&self, target: usize, epoch: u32, slot: u32, record: [i32; 5]) -> Result<()>;
    /// Clears this PE's records; `full` also resets its counter to 1.
    fn reset_secondary(&self, full: bool) -> Result<()>;
    /// Collective: releases the window.
    fn free(self: Box<Self>) -> Result<()>;
}

/// The lengths an alltoall of `block` bytes per PE over `n` PEs takes: `send` and `recv` hold
/// one block per PE.
pub fn check_alltoall(send: &[u8], block: usize, n: usize, recv: &[u8]) -> Result<()> {
    if send.len() != block * n || recv.len() != block * n {
        return Err(Error::Internal(format!(
            "alltoall of {} bytes sent, {} received, in blocks of {block} for {n} PEs",
            send.len(),
            recv.len()
        )));
    }
    Ok(())
}
