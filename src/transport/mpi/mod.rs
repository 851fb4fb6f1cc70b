//! The MPI transport: the PEs are the ranks of an MPI job (started by mpirun/mpiexec, on any
//! number of nodes), windows are MPI-3 RMA windows. The MPI calls themselves are in a small C
//! shim (`mpi/shim.c`) compiled with the MPI's own `mpicc`, so this side does not depend on any
//! MPI's handle ABI. 'GRID', 'WORLD' and 'ALLGRIDS' are (a duplicate of) MPI_COMM_WORLD; the
//! caller's own communicators can be wrapped from their Fortran handles.
//!
//! A folder per concern:
//! - `windows`: the windows (MPI RMA; hybrid across nodes with direct access on a node) and
//!   the logical accumulates the transport does itself;
//! - `channels`: the point-to-point channels (MPI; node-aware, shared memory to a PE of this node);
//!
//! and what they stand on:
//! - `shim`: the C shim's declarations and its status codes;
//! - `comm`: MPI communicators as the transport uses them;
//! - `node`: the node-aware data path (which PEs share a node, their small job segment);
//! - `collectives`: the MPI collectives beside the agreement's allgather;
//! - `p2p`: point-to-point messages on the caller's Fortran communicators;
//! - `handles`: real MPI handles for the caller's own MPI calls;
//! - `wait`: waiting on a nonblocking MPI call by tests that yield the core;
//! - `watchdog`: hang reports of blocking MPI calls.

pub mod channels;
pub mod collectives;
pub mod comm;
pub mod handles;
pub mod node;
pub mod p2p;
pub mod shim;
pub mod wait;
pub mod watchdog;
pub mod windows;

use std::ffi::c_int;
use std::sync::{Arc, Mutex};

use self::channels::hybrid_channel::HybridChannels;
use self::comm::Comm;
use self::node::Placement;
use self::windows::hybrid::HybridWindow;
use self::windows::window::{MpiWindow, SharedRegistry, WindowRegistry, Workarounds};
use crate::core::collectives::call_log::ENTRY_BYTES;
use crate::core::{CommId, Communicator, ElementType, MessageType, Operator};
use crate::error::{Error, Result};
use crate::transport::channel::Channels;
use crate::transport::shm::collectives::Collectives;
use crate::transport::shm::part_entries::{JOB_PART, PartOf};
use crate::transport::shm::window::ShmWindow;
use crate::transport::{CollectivePath, Toward, Transport, TransportWindow};

/// Whether halo messages to on-node neighbours take the shared-memory channels (see `new`).
const ON_NODE_HALO_CHANNELS: bool = true;

/// The MPI transport of one PE: our duplicate of MPI_COMM_WORLD, the caller's communicators
/// wrapped so far and the live windows.
pub struct MpiTransport {
    world: Arc<Comm>,
    /// The job (every rank of MPI_COMM_WORLD), as the runtime names it.
    job: Communicator,
    /// Wrapped communicators: CommId i (>= 1) is wrapped[i - 1], with its Fortran handle.
    wrapped: Vec<(i32, Arc<Comm>)>,
    /// Communicators split from the job: CommId SPLIT_BASE + i is split[i].
    split: Vec<Arc<Comm>>,
    /// Splits made so far (every PE makes the same, in the same order: their numbers agree).
    splits_made: u32,
    registry: SharedRegistry,
    /// Windows over user arrays go through MPI-allocated memory (see `stage_user_arrays`).
    force_staged: bool,
    /// What to tell the user when MPI cannot make a window (see `window_failure_hint`).
    window_hint: String,
    /// What windows work around in this MPI (MPI_LAND/LOR/LXOR done by the transport, active
    /// puts and gets as accumulates: see `window::Workarounds`).
    workarounds: Workarounds,
    /// The MPI reaches a node's PEs through shared memory in windows it allocates, and not in
    /// windows on other memory (Open MPI): internal windows spanning nodes stay MPI's own.
    allocated_windows_share_memory: bool,
    /// `RPNCOMM_NODE_SPLIT` (0: real nodes; see `node`).
    node_split: usize,
    /// Windows spanning nodes reach the PEs of this node directly (`RPNCOMM_NODE_DIRECT`, see `hybrid`).
    node_direct: bool,
    placements: node::Placements,
    /// Windows created so far over each communicator (they are named "window N [over EW]").
    windows_created: std::collections::HashMap<CommId, u32>,
    /// Point-to-point channels to the other PEs: shared memory on this node, MPI to the others
    /// (`hybrid_channel`).
    channels: HybridChannels,
    /// The shared-memory collectives of the job and of its splits whose PEs are all on this node
    /// (None: on several nodes, through MPI), learnt when each is made (`node::one_node_collectives`).
    one_node: crate::core::CommMap<Option<Arc<Collectives>>>,
    /// The communicators whose collectives are MPI's own calls, as their entries are announced
    /// on the node channels' segment (`announce_own`): (split number, first member, entries).
    own_parts: crate::core::CommMap<(u32, usize, u32)>,
}

/// Whether windows over the caller's array are staged through MPI-allocated memory (copied in at
/// open, out at close) instead of created over the array (MPI_Win_create): only when
/// `RPNCOMM_USER_ARRAYS=staged` says so (or MPI cannot create the window).
fn stage_user_arrays(setting: Option<&str>) -> bool {
    setting.is_some_and(|s| s.trim().eq_ignore_ascii_case("staged"))
}

/// Whether the transport does MPI_LAND, MPI_LOR and MPI_LXOR accumulates itself (`logical`):
/// with Open MPI, whose osc/rdma component (4.1) silently drops them (the call succeeds, the
/// target is unchanged, fetched values are 0) on MPI_Win_create windows, and on any window it
/// serves between nodes. Staging user arrays through MPI_Win_allocate memory avoided it on one
/// node only, at the cost of copying the whole window per epoch.
fn emulate_logical(library: &str) -> bool {
    library.contains("Open MPI")
}

/// Overrides the choice of `active_rma_as_accumulates`: `accumulate` or `direct`.
const ENV_ACTIVE_RMA: &str = "RPNCOMM_MPI_ACTIVE_RMA";

/// Whether the puts and gets of fence and group epochs are made as accumulates (MPI_REPLACE,
/// MPI_NO_OP; `window::Workarounds`): with MPICH's ch4:ucx device, whose fence and PSCW close do
/// not always complete its MPI_Put and MPI_Get between nodes (test_requests failed 7 runs in 40
/// across two simulated nodes). `RPNCOMM_MPI_ACTIVE_RMA=accumulate` or `direct` decides instead.
/// `library`: the version's first line; `ucx`: whether the whole text names the ch4:ucx device.
fn active_rma_as_accumulates(library: &str, ucx: bool, setting: Option<&str>) -> bool {
    match setting.map(|s| s.trim().to_ascii_lowercase()).as_deref() {
        Some("accumulate" | "accumulates") => true,
        Some("direct") => false,
        _ => library.contains("MPICH") && ucx,
    }
}

/// Ids of the communicators split from the job start here (those below are wrapped ones).
const SPLIT_BASE: u32 = 1 << 20;

/// Who initialised MPI (`rpnmpi_init`'s `started`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum MpiStart {
    /// The program, before its first RPN_COMM call: MPI's configuration is as it found it.
    ByProgram,
    ByUs,
    /// We did, after taking osc/pt2pt off the installed exclusion list (Open MPI 4, see shim.c).
    ByUsWithPt2pt,
}

/// The major version of an Open MPI library string ("Open MPI v4.1.4, ..."), None for others.
fn open_mpi_major(library: &str) -> Option<u32> {
    let rest = library.split("Open MPI v").nth(1)?;
    rest.split(|c: char| !c.is_ascii_digit()).next()?.parse().ok()
}

/// Whether an Open MPI component selection ("^ucx,pt2pt", "rdma,sm", "") leaves osc/pt2pt out.
fn excludes_pt2pt(selection: &str) -> bool {
    let listed = selection.trim_start_matches('^').split(',').any(|c| c.trim() == "pt2pt");
    if selection.starts_with('^') { listed } else { !selection.trim().is_empty() && !listed }
}

/// What to do when MPI cannot create a window (appended to MPI's own error, one line). The usual
/// cause is a network between nodes over which the MPI has no one-sided component enabled.
fn window_failure_hint(library: &str, start: MpiStart, osc_setting: Option<&str>) -> String {
    let what = "MPI cannot make a one-sided window that reaches every PE";
    match open_mpi_major(library) {
        Some(major) if major < 5 => match (osc_setting, start) {
            (Some(v), _) if excludes_pt2pt(v) => format!(
                "{what}: OMPI_MCA_osc (or mpirun --mca osc) is '{v}', which leaves no Open MPI osc component for these PEs (over TCP between nodes only pt2pt works): unset it or include pt2pt"
            ),
            (_, MpiStart::ByProgram) => format!(
                "{what}: the program started MPI before RPN_COMM, so RPN_COMM could not enable Open MPI's osc/pt2pt (the only one-sided path over TCP between nodes, excluded by the installed openmpi-mca-params.conf): run with mpirun --mca osc ^ucx (or export OMPI_MCA_osc=^ucx)"
            ),
            _ => format!(
                "{what}, even with Open MPI's osc/pt2pt allowed: check that the nodes reach each other (mpirun --mca btl_base_verbose 100)"
            ),
        },
        Some(_) => format!(
            "{what}: Open MPI's osc/rdma needs a BTL to every PE (e.g. mpirun --mca btl tcp,self,sm between nodes without RDMA hardware) or osc/ucx (--mca pml ucx --mca osc ucx)"
        ),
        None => format!("{what}: check this MPI's RMA support on the network between the nodes ({library})"),
    }
}

/// The thread level to ask MPI for. MPI_THREAD_MULTIPLE where threads of a PE may call the
/// operations at the same time (docs/windows.md, "Threads"): `RPNCOMM_MPI_THREADS=multiple`, or by default
/// when OMP_NUM_THREADS asks for more than one thread (not always MULTIPLE: some one-sided
/// components refuse windows at that level, Open MPI 4.1's osc/pt2pt for nodes joined by TCP).
/// Else MPI_THREAD_SERIALIZED when the program has an OpenMP runtime (`openmp`: its threads may
/// call the library, one MPI call at a time behind the library's lock), else MPI_THREAD_SINGLE,
/// as MPI_Init: Open MPI 4.1 takes its internal locks at every level above SINGLE, FUNNELED
/// included, and its fence, PSCW and lock/put/unlock then cost 1.2-1.6x more (bench/README.md).
/// `single` and `serialized` (or `funneled`, the same to this library) force those.
fn required_thread_level(setting: Option<&str>, omp_num_threads: Option<&str>, openmp: bool) -> c_int {
    match setting.map(|s| s.trim().to_ascii_lowercase()).as_deref() {
        Some("multiple") => shim::THREAD_MULTIPLE,
        Some("serialized" | "serialised" | "funneled" | "funnelled") => shim::THREAD_SERIALIZED,
        Some("single") => shim::THREAD_SINGLE,
        _ => {
            // "4" or "4,2" (nested levels): the first level's count.
            let threads = omp_num_threads.and_then(|v| v.split(',').next()?.trim().parse::<u32>().ok()).unwrap_or(1);
            match (threads > 1, openmp) {
                (true, _) => shim::THREAD_MULTIPLE,
                (false, true) => shim::THREAD_SERIALIZED,
                (false, false) => shim::THREAD_SINGLE,
            }
        }
    }
}

/// Whether the program has an OpenMP runtime (libgomp, libomp, libiomp5: all export
/// `omp_get_max_threads`), so that its threads may call the library.
fn has_openmp_runtime() -> bool {
    // SAFETY: a look-up in the symbols already loaded, with a NUL-terminated name.
    !unsafe { libc::dlsym(libc::RTLD_DEFAULT, c"omp_get_max_threads".as_ptr()) }.is_null()
}

impl MpiTransport {
    /// Initialises MPI unless the program already did, and joins MPI_COMM_WORLD.
    pub fn init() -> Result<Self> {
        let node_split = node::node_split(std::env::var(node::ENV_NODE_SPLIT).ok().as_deref())?;
        let (mut started, mut provided): (c_int, c_int) = (0, 0);
        let required = required_thread_level(
            std::env::var("RPNCOMM_MPI_THREADS").ok().as_deref(),
            std::env::var("OMP_NUM_THREADS").ok().as_deref(),
            has_openmp_runtime(),
        );
        // SAFETY: out-parameters.
        shim::check(unsafe { shim::rpnmpi_init(required, &mut started, &mut provided) }, "MPI_Init_thread")?;
        shim::set_thread_level(provided);
        let world = match Comm::world() {
            Ok(w) => w,
            Err(e) => {
                if started != 0 {
                    shim::rpnmpi_finalize();
                }
                return Err(e);
            }
        };
        if provided < required && world.rank == 0 {
            eprintln!(
                "RPN_COMM: this MPI gives {} (asked {}): calls of the threads of a PE are serialised, one MPI call at a time",
                shim::thread_level_name(provided),
                shim::thread_level_name(required)
            );
        }
        let library = shim::library_version();
        let force_staged = stage_user_arrays(std::env::var("RPNCOMM_USER_ARRAYS").ok().as_deref());
        let workarounds = Workarounds {
            emulate_logical: emulate_logical(&library),
            active_rma_as_accumulates: active_rma_as_accumulates(
                &library,
                shim::library_mentions(c"ch4:ucx"),
                std::env::var(ENV_ACTIVE_RMA).ok().as_deref(),
            ),
        };
        let start = match started {
            0 => MpiStart::ByProgram,
            1 => MpiStart::ByUs,
            _ => MpiStart::ByUsWithPt2pt,
        };
        let window_hint = window_failure_hint(&library, start, std::env::var("OMPI_MCA_osc").ok().as_deref());
        let job = Communicator::job(world.size, world.rank)?;
        let world = Arc::new(world);
        // The channels' messages travel on a duplicate of their own: `world` is handed to the
        // caller (RPN_COMM_comm('WORLD')), whose MPI_ANY_TAG receives must never take them.
        let channel_comm = Arc::new(Comm::world()?);
        let node_direct = node::node_direct(std::env::var(node::ENV_NODE_DIRECT).ok().as_deref())?;
        // On-node neighbours take the shared-memory channels, whose regions have no name in
        // /dev/shm (memfd): a job that aborts (a refused exchange, a killed PE) leaves nothing.
        let channels = HybridChannels::new(channel_comm, node_split, node_direct && ON_NODE_HALO_CHANNELS)?;
        let on_node = node::one_node_collectives(&world, node_split, node_direct, channels.job_collectives().as_ref())?;
        let mut own_parts = crate::core::CommMap::default();
        if on_node.is_none() {
            let job_name = "the job's communicator";
            let home = channels.node_collectives().inspect(|home| home.register_part(JOB_PART, 0, job_name));
            if channels.register_far(JOB_PART, 0, job_name) || home.is_some() {
                own_parts.insert(CommId::JOB, (JOB_PART, 0, 0));
            }
        }
        Ok(MpiTransport {
            job,
            channels,
            world,
            wrapped: Vec::new(),
            split: Vec::new(),
            splits_made: 0,
            registry: Arc::new(Mutex::new(WindowRegistry::default())),
            force_staged,
            window_hint,
            workarounds,
            allocated_windows_share_memory: library.contains("Open MPI"),
            node_split,
            node_direct,
            placements: node::Placements::default(),
            windows_created: Default::default(),
            one_node: std::iter::once((CommId::JOB, on_node)).collect(),
            own_parts,
        })
    }

    /// Collective over `comm`: an MPI window (see `window`), its creation errors completed with
    /// what to do about them. `memory`: the caller's array, or the shared region of a hybrid
    /// window (never staged: MPI must work on the memory the node's PEs see).
    fn mpi_window(&self, comm: Arc<Comm>, dtype: ElementType, sizes: &[usize], memory: Option<usize>, hybrid: bool) -> Result<MpiWindow> {
        let staged = self.force_staged && !hybrid;
        MpiWindow::create(comm, Arc::clone(&self.registry), dtype, sizes, memory, staged, self.workarounds).map_err(|e| match e {
            Error::Mpi(text) if text.starts_with("MPI_Win_allocate") || text.starts_with("MPI_Win_create") => {
                Error::Mpi(format!("{text}; {}", self.window_hint))
            }
            other => other,
        })
    }

    /// The MPI communicator of `comm`.
    fn comm(&self, comm: &Communicator) -> Result<&Arc<Comm>> {
        match comm.id() {
            CommId::JOB => Ok(&self.world),
            CommId(id) if id >= SPLIT_BASE => {
                self.split.get((id - SPLIT_BASE) as usize).ok_or(Error::InvalidHandle { what: "communicator" })
            }
            CommId(id) => {
                self.wrapped.get((id as usize).wrapping_sub(1)).map(|(_, c)| c).ok_or(Error::InvalidHandle { what: "communicator" })
            }
        }
    }
}

impl MpiTransport {
    /// One more entry into a collective of `comm` made with MPI's own calls, announced on the node
    /// channels' segment (three stores) and, where the job spans nodes, in this PE's words of
    /// the far entries' window (two stores), so that a PE waiting in a halo exchange for this one
    /// sees it gone into a collective of theirs (`Collectives::announce_entry`, `far_entries`).
    /// Nothing for a communicator whose collectives run in the node's shared memory (they
    /// announce themselves).
    fn announce_own(&mut self, comm: &Communicator) {
        if let Some((split, first, entries)) = self.own_parts.get_mut(&comm.id()) {
            *entries = entries.wrapping_add(1);
            if let Some(home) = self.channels.home() {
                home.announce_entry(*split, *first, *entries);
            }
            self.channels.announce_far(*split, *first, *entries);
        }
    }
}

impl Transport for MpiTransport {
    fn job(&self) -> &Communicator {
        &self.job
    }

    fn barrier(&mut self, comm: &Communicator) -> Result<()> {
        self.announce_own(comm);
        self.comm(comm)?.barrier()
    }

    fn allgather_within(&mut self, comm: &Communicator, mine: Vec<u8>, limit: std::time::Duration) -> Result<Option<Vec<u8>>> {
        match self.one_node.get(&comm.id()) {
            Some(Some(on_node)) => {
                let mut all = vec![0u8; mine.len() * comm.size()];
                on_node.allgather(&mine, &mut all)?;
                Ok(Some(all))
            }
            _ => {
                self.announce_own(comm);
                self.comm(comm)?.allgather_within(mine, limit)
            }
        }
    }

    fn allgather(&mut self, comm: &Communicator, mine: &[u8], all: &mut [u8]) -> Result<()> {
        match self.one_node.get(&comm.id()) {
            Some(Some(on_node)) => on_node.allgather(mine, all),
            _ => {
                self.announce_own(comm);
                self.comm(comm)?.allgather(mine, all)
            }
        }
    }

    fn rooted_round(&mut self, comm: &Communicator, mine: &[u8], all: &mut [u8], root: usize, toward: Toward) -> Result<bool> {
        match self.one_node.get(&comm.id()) {
            // (over 2 PEs, the root may be in MPI's own call for a sum of reals instead: `reduces_itself`)
            Some(Some(on_node)) => on_node.rooted_round(mine, all, root, toward, comm.size() > 2).map(|()| false),
            _ => self.allgather(comm, mine, all).map(|()| true),
        }
    }

    unsafe fn create_window(
        &mut self,
        comm: &Communicator,
        dtype: ElementType,
        sizes: &[usize],
        user_array: Option<usize>,
    ) -> Result<Box<dyn TransportWindow>> {
        let count = self.windows_created.entry(comm.id()).or_insert(0);
        *count += 1;
        let label = match (comm.id(), comm.name()) {
            (CommId::JOB, _) | (_, None) => format!("window {count}"),
            (_, Some(name)) => format!("window {count} over {name}"),
        };
        let comm = Arc::clone(self.comm(comm)?);
        let (group, name, members) = match self.placements.for_window(&comm, self.node_split, self.node_direct)? {
            // One node: a shared-memory window (loads, stores, CPU atomics; see `node`).
            Placement::OneNode { group, name } => {
                return Ok(Box::new(ShmWindow::create(group, name, label, dtype, sizes, user_array)?));
            }
            Placement::Mpi => return Ok(Box::new(self.mpi_window(comm, dtype, sizes, user_array, false)?)),
            Placement::Spanning { group, name, members } => (group, name, members),
        };
        // Open MPI's osc/rdma reaches the PEs of a node through shared memory only in windows
        // it allocates itself (MPI_Win_allocate); on other memory (MPI_Win_create) each passive
        // operation between them is a few microseconds of single-copy system calls (0.5 vs
        // 3.9 us for a passive put, make bench MPI=1). There, internal windows stay MPI's own;
        // windows on caller's arrays are MPI_Win_create anyway and gain the direct path.
        let (any_array, _) = comm.agree_flag(user_array.is_some())?;
        if self.allocated_windows_share_memory && !any_array {
            return Ok(Box::new(self.mpi_window(comm, dtype, sizes, None, false)?));
        }
        // Several nodes: this node's part in shared memory, MPI over it (see `hybrid`).
        let node_sizes: Vec<usize> = members.iter().map(|&pe| sizes[pe]).collect();
        let node = ShmWindow::create(group, name, label, dtype, &node_sizes, user_array);
        // Both MPI windows below are collective over every node: agree first.
        let (any_failed, _) = comm.agree_flag(node.is_err())?;
        let node = match (node, any_failed) {
            (Ok(node), false) => node,
            (Err(e), _) => return Err(e),
            (Ok(node), true) => {
                Box::new(node).free()?;
                return Err(Error::SharedMemory("another node could not make its part of the window".into()));
            }
        };
        let shared = node.shared_local() as usize;
        let mpi = match self.mpi_window(Arc::clone(&comm), dtype, sizes, Some(shared), true) {
            Ok(mpi) => mpi,
            Err(e) => {
                Box::new(node).free()?;
                return Err(e);
            }
        };
        if mpi.is_staged() {
            // MPI could not take the shared memory on any PE (the same answer everywhere):
            // every access through MPI, on memory of its own.
            Box::new(mpi).free()?;
            Box::new(node).free()?;
            return Ok(Box::new(self.mpi_window(comm, dtype, sizes, user_array, false)?));
        }
        Ok(Box::new(HybridWindow::new(node, mpi, sizes.len(), &members)))
    }

    fn channels(&mut self) -> Option<&mut dyn Channels> {
        Some(&mut self.channels)
    }

    fn finalize(&mut self) -> Result<()> {
        self.world.barrier()?;
        // The job's one line about threads that called MPI at once (`shim::collided_line`).
        let mut collided = vec![0u8; self.world.size];
        self.world.allgather(&[u8::from(shim::threads_collided())], &mut collided)?;
        if let Some(line) = shim::collided_line(self.world.rank, &collided) {
            crate::diagnostics::write_line(crate::diagnostics::routine(), &line);
        }
        // Every PE took its messages (its exchanges are finished): the sends are complete or
        // about to be, and their requests can go before MPI_Finalize.
        self.channels.finalize();
        // Windows left over are freed here: MPI_Finalize with live windows aborts in some MPIs.
        let freed = self.registry.lock().unwrap_or_else(|p| p.into_inner()).free_all();
        self.wrapped.clear();
        self.split.clear();
        // As the original's RPN_COMM_finalize: MPI_Finalize whoever initialised MPI (a program
        // that called MPI_Init itself, as GEM does, ends MPI through RPN_COMM_finalize).
        shim::finalize_once()?;
        freed
    }

    fn split(&mut self, part: Option<&[usize]>, name: &'static str) -> Result<Option<Communicator>> {
        if part.is_some() && part == self.job.members() {
            return Ok(Some(self.job.clone().named(name)));
        }
        self.splits_made += 1;
        let me = self.job.rank();
        let key = match part {
            Some(members) => Some(
                members.iter().position(|&m| m == me).ok_or_else(|| Error::Internal(format!("PE {me} is not in its part {members:?}")))?,
            ),
            None => None,
        };
        // Color: the part's first member, which no other part holds; key: the rank in the part.
        let made = self.world.split(part.map(|m| m[0] as u32), key.unwrap_or(0))?;
        let (Some(comm), Some(members)) = (made, part) else { return Ok(None) };
        if (comm.rank, comm.size) != (key.unwrap_or(0), members.len()) {
            return Err(Error::Internal(format!(
                "MPI_Comm_split gave rank {} of {}, expected {key:?} of {}",
                comm.rank,
                comm.size,
                members.len()
            )));
        }
        let id = CommId(SPLIT_BASE + self.split.len() as u32);
        // a communicator of the whole job in its order shares the job's (`one_node_collectives`)
        let whole_job = members.len() == self.world.size && members.iter().enumerate().all(|(i, &m)| i == m);
        let job_collectives = self.channels.job_collectives().filter(|_| whole_job);
        let on_node = node::one_node_collectives(&comm, self.node_split, self.node_direct, job_collectives.as_ref())?;
        // a part's own segment: its entries are announced on the node's channels' segment, so that
        // a halo exchange waiting for a neighbour sees it gone into one of its collectives
        match (&on_node, &job_collectives, self.channels.node_collectives()) {
            (Some(part), None, Some(home)) => part.announce_on(PartOf { home, split: self.splits_made, first: members[0], name }),
            (None, _, home) => {
                if let Some(home) = &home {
                    home.register_part(self.splits_made, members[0], name);
                }
                if self.channels.register_far(self.splits_made, members[0], name) || home.is_some() {
                    self.own_parts.insert(id, (self.splits_made, members[0], 0));
                }
            }
            _ => {}
        }
        self.one_node.insert(id, on_node);
        self.split.push(Arc::new(comm));
        Ok(Some(Communicator::new(id, members.to_vec(), me)?.named(name)))
    }

    fn reduce_to(&mut self, comm: &Communicator, mine: &[u8], dtype: MessageType, op: Operator, root: usize) -> Result<Option<Vec<u8>>> {
        self.announce_own(comm);
        collectives::reduce(self.comm(comm)?, mine, dtype, op, root)
    }

    fn allreduce_native(&mut self, comm: &Communicator, mine: &[u8], dtype: MessageType, op: Operator) -> Result<Option<Vec<u8>>> {
        self.announce_own(comm);
        collectives::allreduce(self.comm(comm)?, mine, dtype, op)
    }

    fn collective_path(&self, comm: &Communicator) -> CollectivePath {
        match self.one_node.get(&comm.id()) {
            Some(Some(_)) => CollectivePath::ExchangeReducingOwn,
            _ => CollectivePath::Own,
        }
    }

    fn own_call(&mut self, comm: &Communicator, call: Option<&[u8; ENTRY_BYTES]>) {
        if let Some(Some(on_node)) = self.one_node.get(&comm.id()) {
            on_node.own_call(call);
        }
    }

    fn bcast(&mut self, comm: &Communicator, buffer: &mut [u8], root: usize) -> Result<()> {
        self.announce_own(comm);
        collectives::bcast(self.comm(comm)?, buffer, root)
    }

    fn gather_to(&mut self, comm: &Communicator, mine: &[u8], root: usize) -> Result<Option<Vec<u8>>> {
        self.announce_own(comm);
        collectives::gather(self.comm(comm)?, mine, root)
    }

    fn alltoall(&mut self, comm: &Communicator, send: &[u8], block: usize, recv: &mut [u8]) -> Result<()> {
        self.announce_own(comm);
        collectives::alltoall(self.comm(comm)?, send, block, recv)
    }

    fn alltoallv(&mut self, comm: &Communicator, send: &[u8], send_counts: &[usize], recv_counts: &[usize]) -> Result<Vec<u8>> {
        self.announce_own(comm);
        collectives::alltoallv(self.comm(comm)?, send, send_counts, recv_counts)
    }

    fn alltoallv_table(&mut self, comm: &Communicator, send: &[u8], table: &[usize]) -> Result<Vec<u8>> {
        let (n, me) = (comm.size(), comm.rank());
        let recv_counts: Vec<usize> = (0..n).map(|p| table[p * n + me]).collect();
        self.announce_own(comm);
        collectives::alltoallv(self.comm(comm)?, send, &table[me * n..(me + 1) * n], &recv_counts)
    }

    fn gatherv_to(&mut self, comm: &Communicator, mine: &[u8], counts: &[usize], root: usize) -> Result<Option<Vec<u8>>> {
        self.announce_own(comm);
        collectives::gatherv(self.comm(comm)?, mine, counts, root)
    }

    fn scatterv_from(&mut self, comm: &Communicator, send: &[u8], counts: &[usize], recv_len: usize, root: usize) -> Result<Vec<u8>> {
        self.announce_own(comm);
        collectives::scatterv(self.comm(comm)?, send, counts, recv_len, root)
    }

    fn fortran_comm(&self, comm: Option<&Communicator>) -> Result<i32> {
        match comm {
            Some(c) => handles::comm_handle(self.comm(c)?.raw()),
            None => handles::comm_null(),
        }
    }

    fn wrap_mpi_communicator(&mut self, fortran_handle: i32) -> Result<Communicator> {
        let comm = Arc::new(Comm::from_fortran(fortran_handle)?);
        let (rank, size) = (comm.rank, comm.size);
        // The same handle wrapped again takes the same id (windows keep the communicator they
        // were created on).
        let index = match self.wrapped.iter().position(|(h, _)| *h == fortran_handle) {
            Some(i) => {
                self.wrapped[i].1 = comm;
                i
            }
            None => {
                self.wrapped.push((fortran_handle, comm));
                self.wrapped.len() - 1
            }
        };
        Communicator::opaque(CommId(index as u32 + 1), rank, size)
    }
}

#[cfg(test)]
mod tests {
    use super::{
        MpiStart, active_rma_as_accumulates, emulate_logical, excludes_pt2pt, open_mpi_major, required_thread_level, shim,
        stage_user_arrays, window_failure_hint,
    };

    #[test]
    fn multiple_thread_level_with_openmp_threads_or_when_told() {
        assert_eq!(required_thread_level(None, None, false), shim::THREAD_SINGLE);
        assert_eq!(required_thread_level(None, Some("1"), false), shim::THREAD_SINGLE);
        assert_eq!(required_thread_level(None, None, true), shim::THREAD_SERIALIZED);
        assert_eq!(required_thread_level(None, Some("1"), true), shim::THREAD_SERIALIZED);
        assert_eq!(required_thread_level(None, Some("4"), false), shim::THREAD_MULTIPLE);
        assert_eq!(required_thread_level(None, Some("2,1"), true), shim::THREAD_MULTIPLE);
        assert_eq!(required_thread_level(Some("multiple"), None, false), shim::THREAD_MULTIPLE);
        assert_eq!(required_thread_level(Some(" Serialized"), Some("8"), false), shim::THREAD_SERIALIZED);
        assert_eq!(required_thread_level(Some("funneled"), None, false), shim::THREAD_SERIALIZED);
        assert_eq!(required_thread_level(Some("single"), Some("4"), true), shim::THREAD_SINGLE);
    }

    #[test]
    fn the_test_binary_has_no_openmp_runtime() {
        assert!(!super::has_openmp_runtime());
    }

    #[test]
    fn pt2pt_exclusion() {
        assert!(excludes_pt2pt("^ucx,pt2pt"));
        assert!(excludes_pt2pt("rdma"));
        assert!(!excludes_pt2pt("^ucx"));
        assert!(!excludes_pt2pt("sm,pt2pt"));
        assert!(!excludes_pt2pt(""));
    }

    #[test]
    fn window_failure_hints_say_what_to_do() {
        let ompi4 = "Open MPI v4.1.4, package: Debian OpenMPI";
        assert_eq!(open_mpi_major(ompi4), Some(4));
        assert_eq!(open_mpi_major("Open MPI v5.0.11, package: Open MPI"), Some(5));
        assert_eq!(open_mpi_major("MPICH Version:      4.0.2"), None);
        assert!(window_failure_hint(ompi4, MpiStart::ByProgram, None).contains("--mca osc ^ucx"));
        assert!(window_failure_hint(ompi4, MpiStart::ByUs, Some("rdma")).contains("'rdma'"));
        assert!(window_failure_hint(ompi4, MpiStart::ByUs, Some("^ucx,pt2pt")).contains("include pt2pt"));
        assert!(window_failure_hint(ompi4, MpiStart::ByUsWithPt2pt, None).contains("even with"));
        assert!(window_failure_hint("MPICH Version: 4.0.2", MpiStart::ByUs, None).contains("MPICH"));
        for hint in [window_failure_hint(ompi4, MpiStart::ByUs, None), window_failure_hint("Open MPI v5.0.1", MpiStart::ByUs, None)] {
            assert!(!hint.contains('\n'));
        }
    }

    #[test]
    fn user_arrays_staged_only_when_told() {
        assert!(!stage_user_arrays(None));
        assert!(!stage_user_arrays(Some("direct")));
        assert!(stage_user_arrays(Some(" Staged")));
    }

    #[test]
    fn logical_accumulates_emulated_on_open_mpi() {
        assert!(emulate_logical("Open MPI v4.1.4, package: Debian OpenMPI"));
        assert!(!emulate_logical("MPICH Version:      4.0.2"));
    }

    #[test]
    fn active_puts_and_gets_as_accumulates_on_mpich_ucx_or_when_told() {
        let mpich = "MPICH Version:\t4.0.2";
        assert!(active_rma_as_accumulates(mpich, true, None));
        assert!(!active_rma_as_accumulates(mpich, true, Some("direct")));
        assert!(!active_rma_as_accumulates(mpich, false, None));
        assert!(!active_rma_as_accumulates("Open MPI v4.1.4, package: Debian OpenMPI", false, None));
        assert!(active_rma_as_accumulates("Open MPI v4.1.4", false, Some(" Accumulate")));
    }
}
