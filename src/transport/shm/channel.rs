//! Point-to-point channels (`transport::channel`) in shared memory, made between two PEs when
//! one first talks to the other, with no collective.
//!
//! Each pair of PEs shares a control page (`<job>.ch<lo>-<hi>`, made by whichever of the two
//! comes first, opened by the other, which then removes its name): per direction a count of
//! the messages posted (written by the sender), one of the messages released (by the
//! receiver), and for each of the last `SLOTS` messages its generation, slot, slot size and
//! length. The messages themselves lie in a data region of the sender
//! (`<job>.ch<from>-<to>.<generation>`, `SLOTS` slots of one size): the sender writes a message
//! into a free slot, then publishes the count; the receiver reads it
//! there (one copy across cores) and counts it released. A message larger than a slot makes a
//! new generation, twice as large as needed; the old one stays mapped by the sender until the
//! receiver released its last message, and the receiver maps a generation when it meets its
//! first message (and removes its name). So what is kept is bounded by twice the largest
//! message per direction and slot, and every mapping goes at finalize. A message takes the lowest
//! free slot (its descriptor says which), so that in the steady state one slot is used again
//! and again and stays in the caches.
//!
//! Under the MPI transport no launcher cleans /dev/shm after a job that aborts, so there the
//! channels name nothing (`ShmChannels::anonymous`): every region is a memfd, reached by the
//! peer through `/proc/<pid>/fd/<fd>` of its maker while the maker holds it open. Each PE makes
//! one inbox at start, holding for every PE of the node the direction towards this PE (the
//! sender's counts and descriptors, this PE's released count); a descriptor also carries the
//! memfd of its message's generation. A job killed at any moment leaves nothing behind.

use std::collections::HashMap;
use std::os::fd::OwnedFd;
use std::sync::Arc;
use std::sync::atomic::AtomicU64;
use std::time::{Duration, Instant};

use super::collectives::Collectives;
use super::job::Awaited;
use super::region::{self, AnonymousRegion, SharedRegion};
use super::sync::{AtomicU32, Ordering};
use super::wait::{Signal, epoch_reached, wait_until};
use crate::error::{Error, Result};
use crate::transport::channel::{Channels, Loopback, Message, SLOTS};

const PAGE: usize = 4096;
/// Offsets of the two directions in the control page (low rank to high, high to low).
const DIRECTION_AT: [usize; 2] = [0, DIRECTION_BYTES];
/// Bytes of one direction (in a pair's control page, or one sender's part of an inbox).
pub const DIRECTION_BYTES: usize = 1024;
/// How long two PEs may take to make their control page before the wait says so.
const SETUP_SLICE: Duration = Duration::from_micros(200);

/// One word others wait on, alone on its cache line.
#[repr(C, align(64))]
struct Counter {
    signal: Signal,
}

/// What the receiver needs to find message m (this descriptor is the (m % SLOTS)th): in slot
/// `index` of generation `generation` (slots of `size` bytes), `len` bytes long; anonymous
/// channels: the generation is the sender's descriptor `fd`.
#[repr(C)]
struct Slot {
    generation: AtomicU32,
    index: AtomicU32,
    size: AtomicU64,
    len: AtomicU64,
    fd: AtomicU32,
}

/// One direction of a pair's control page.
#[repr(C)]
struct Direction {
    posted: Counter,
    released: Counter,
    slots: [Slot; SLOTS],
}

const _: () = assert!(size_of::<Direction>() <= DIRECTION_BYTES && DIRECTION_AT[1] + size_of::<Direction>() <= PAGE);

/// A data region of a sender: `SLOTS` slots of `size` bytes.
struct Data {
    generation: u32,
    size: usize,
    region: SharedRegion,
    /// Its name in /dev/shm (named channels).
    name: Option<String>,
    /// The sender's descriptor of an anonymous region, open while the receiver may map it.
    fd: Option<OwnedFd>,
}

/// The sending side of one direction.
#[derive(Default)]
struct Sender {
    /// Messages posted so far.
    posted: u64,
    /// The message each slot of the current generation holds (None: free), and the slot of the
    /// message reserved and not yet posted.
    held: [Option<u64>; SLOTS],
    reserved: usize,
    current: Option<Data>,
    /// Older generations and the number of the last message each holds.
    retired: Vec<(Data, u64)>,
}

/// The receiving side of one direction.
#[derive(Default)]
struct Receiver {
    /// Messages released so far.
    released: u64,
    mapped: Option<Data>,
}

/// The channels of this PE with one other PE.
struct Link {
    /// Named channels: the pair's control page and its name.
    control: Option<(SharedRegion, String)>,
    /// Addresses of our sending direction and of the peer's, in the control page or in the
    /// inboxes (kept mapped by the `ShmChannels` that holds this link).
    out: usize,
    inc: usize,
    send: Sender,
    receive: Receiver,
}

impl Link {
    fn direction(at: usize) -> &'static Direction {
        // SAFETY: `at` is a direction inside a control page or an inbox (DIRECTION_BYTES each,
        // checked above), zero-filled at creation (a valid Direction: atomics of zero), 64-byte
        // aligned (page-aligned regions, offsets multiples of DIRECTION_BYTES), mapped as long as
        // the link (its page) or its ShmChannels (the inboxes) lives, and its fields are only
        // accessed through atomics. The borrow is narrowed to `&self` by the callers.
        unsafe { &*(at as *const Direction) }
    }
    fn outgoing(&self) -> &Direction {
        Self::direction(self.out)
    }
    fn incoming(&self) -> &Direction {
        Self::direction(self.inc)
    }
    /// Whether the message after those released has been posted.
    fn arrived(&self) -> bool {
        epoch_reached(self.incoming().posted.signal.load(), (self.receive.released + 1) as u32)
    }
}

/// Where the regions of the channels come from.
enum Regions {
    /// Named in /dev/shm after `prefix` (a launcher cleans up after a failed job).
    Named { prefix: String },
    /// Anonymous: this PE's inbox, the other PEs' inboxes (None: this PE's own) and their pids.
    #[cfg_attr(not(feature = "mpi"), allow(dead_code, reason = "anonymous channels serve the MPI transport"))]
    Anonymous { inbox: AnonymousRegion, inboxes: Vec<Option<SharedRegion>>, pids: Vec<u32> },
}

/// What one PE publishes to the others of its node for anonymous channels.
#[cfg_attr(not(feature = "mpi"), allow(dead_code, reason = "anonymous channels serve the MPI transport"))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Inbox {
    pub pid: u32,
    pub fd: i32,
    /// A random number its owner wrote into it: what a PE maps as another's inbox is checked to
    /// hold it (a /proc/<pid> of another PID namespace would be another process).
    pub token: u64,
}

/// Writes `token` into `inbox` (of this PE, `rank` of the node), where `anonymous` checks it:
/// the place of the direction from this PE to itself, which is never used (loopback).
#[cfg_attr(not(feature = "mpi"), allow(dead_code, reason = "anonymous channels serve the MPI transport"))]
pub fn sign_inbox(inbox: &AnonymousRegion, rank: usize, token: u64) {
    // SAFETY: the inbox holds a direction per PE (`inbox_bytes`), this one unused by channels;
    // its first 8 bytes are 64-byte aligned.
    let word = unsafe { &*(inbox.region.as_ptr().add(rank * DIRECTION_BYTES) as *const AtomicU64) };
    word.store(token, Ordering::Release);
}

/// Bytes of the inbox of a PE of a node of `npes` PEs.
#[cfg_attr(not(feature = "mpi"), allow(dead_code, reason = "anonymous channels serve the MPI transport"))]
pub fn inbox_bytes(npes: usize) -> usize {
    (npes * DIRECTION_BYTES).next_multiple_of(PAGE)
}

/// This PE's shared-memory channels (ranks of `coll`'s job).
pub struct ShmChannels {
    coll: Arc<Collectives>,
    regions: Regions,
    links: HashMap<usize, Link>,
    looped: Loopback,
}

impl ShmChannels {
    /// The channels of PE `coll.rank` of the job whose regions are named after `prefix`.
    pub fn new(coll: Arc<Collectives>, prefix: String) -> Self {
        ShmChannels { coll, regions: Regions::Named { prefix }, links: HashMap::new(), looped: Loopback::default() }
    }

    /// The collectives of the job the channels join (their PEs' blocks: a collective over that
    /// job is seen by `in_collective_without_me`).
    #[cfg_attr(not(feature = "mpi"), allow(dead_code, reason = "the MPI transport shares them with its node's collectives"))]
    pub fn collectives(&self) -> &Arc<Collectives> {
        &self.coll
    }

    /// Channels with no name in /dev/shm: `inbox` is this PE's (`inbox_bytes` long, published
    /// to the others), `peers` what every PE of the job published (this one's included). Every
    /// other inbox is mapped now: an error means this PE cannot reach them (then the node must
    /// take another path, all its PEs alike).
    #[cfg_attr(not(feature = "mpi"), allow(dead_code, reason = "anonymous channels serve the MPI transport"))]
    pub fn anonymous(coll: Arc<Collectives>, inbox: AnonymousRegion, peers: &[Inbox]) -> Result<Self> {
        if peers.len() != coll.npes {
            return Err(Error::Internal(format!("{} inboxes for a job of {}", peers.len(), coll.npes)));
        }
        let len = inbox_bytes(coll.npes);
        let open = |r: usize, p: &Inbox| {
            let theirs = region::open_peer(p.pid, p.fd, len)?;
            // SAFETY: as in `sign_inbox` (the region is `len` = inbox_bytes(npes) long).
            let token = unsafe { &*(theirs.as_ptr().add(r * DIRECTION_BYTES) as *const AtomicU64) }.load(Ordering::Acquire);
            if token != p.token {
                return Err(Error::SharedMemory(format!("/proc/{}/fd/{} is not the inbox of PE {r}", p.pid, p.fd)));
            }
            Ok(Some(theirs))
        };
        let inboxes =
            peers.iter().enumerate().map(|(r, p)| if r == coll.rank { Ok(None) } else { open(r, p) }).collect::<Result<Vec<_>>>()?;
        let pids = peers.iter().map(|p| p.pid).collect();
        Ok(ShmChannels { coll, regions: Regions::Anonymous { inbox, inboxes, pids }, links: HashMap::new(), looped: Loopback::default() })
    }

    fn me(&self) -> usize {
        self.coll.rank
    }

    /// The link with `peer`, made (its control page made or opened) on first use.
    fn link(&mut self, peer: usize) -> Result<&mut Link> {
        if peer >= self.coll.npes {
            return Err(Error::Internal(format!("channel to PE {peer} of a job of {}", self.coll.npes)));
        }
        if !self.links.contains_key(&peer) {
            let me = self.me();
            let link = match &self.regions {
                Regions::Named { prefix } => {
                    let name = format!("{prefix}.ch{}-{}", me.min(peer), me.max(peer));
                    let control = self.control_page(peer, &name)?;
                    let base = control.as_ptr() as usize;
                    let out = usize::from(me > peer);
                    let (out, inc) = (base + DIRECTION_AT[out], base + DIRECTION_AT[1 - out]);
                    Link { control: Some((control, name)), out, inc, send: Sender::default(), receive: Receiver::default() }
                }
                Regions::Anonymous { inbox, inboxes, .. } => {
                    let theirs = inboxes[peer].as_ref().ok_or_else(|| Error::Internal(format!("no inbox of PE {peer}")))?;
                    let out = theirs.as_ptr() as usize + me * DIRECTION_BYTES;
                    let inc = inbox.region.as_ptr() as usize + peer * DIRECTION_BYTES;
                    Link { control: None, out, inc, send: Sender::default(), receive: Receiver::default() }
                }
            };
            self.links.insert(peer, link);
        }
        Ok(self.links.get_mut(&peer).expect("inserted above"))
    }

    /// The control page `name` shared with `peer`: opened if the peer made it (then its name is
    /// removed: both have it mapped), else made. Two PEs that try at once: one makes it, the
    /// other finds it (once sized) on its next try.
    fn control_page(&self, peer: usize, name: &str) -> Result<SharedRegion> {
        let start = Instant::now();
        loop {
            if let Ok(page) = SharedRegion::open(name, PAGE) {
                region::unlink(name);
                return Ok(page);
            }
            if let Ok(page) = SharedRegion::create(name, PAGE) {
                return Ok(page);
            }
            self.coll.job.check_alive(Awaited::One(peer))?;
            if start.elapsed() > Duration::from_secs(30) {
                return Err(Error::SharedMemory(format!("cannot make or open {name}, the channel with PE {peer}")));
            }
            std::thread::sleep(SETUP_SLICE);
        }
    }

    /// Waits until `done` holds for `signal` (of a pair's page), watching `peers`.
    fn wait(&self, signal: &Signal, peers: &[usize], waiting_for: &dyn Fn() -> String, done: impl Fn(u32) -> bool) -> Result<()> {
        self.coll.with_wait(Awaited::Members(peers), waiting_for, None, |ctx| wait_until(signal, ctx, done))
    }
}

/// Whether `peer` entered a barrier or an exchange round of the job (every collective of the job
/// starts with one of them: its agreement, or its exchange), or one of MPI's own calls in place of
/// a round (`Collectives::own_call`), that this PE has not: the counts of
/// the PEs of one job only differ while one is being entered, and a PE waiting for a channel
/// message is in none.
fn elsewhere(coll: &Collectives, peer: usize) -> bool {
    let (theirs, mine) = (coll.job.pe(peer), coll.job.pe(coll.rank));
    let ahead = |theirs: u32, mine: u32| epoch_reached(theirs, mine.wrapping_add(1));
    ahead(theirs.barrier_round.load(Ordering::Acquire), mine.barrier_round.load(Ordering::Relaxed))
        || ahead(theirs.exchange_round.load(Ordering::Acquire), mine.exchange_round.load(Ordering::Relaxed))
        || coll.peer_own_call_round(peer).is_some()
}

/// The size of the slots of a new generation for a message of `len` bytes: twice as large (so
/// that a few larger messages do not each make one), whole pages.
fn slot_size(len: usize) -> usize {
    (2 * len).max(PAGE).next_multiple_of(PAGE)
}

impl Channels for ShmChannels {
    fn shared_memory_only(&self) -> bool {
        true
    }

    fn reserve(&mut self, peer: usize, len: usize) -> Result<*mut u8> {
        if peer == self.me() {
            return Ok(self.looped.reserve(len));
        }
        let me = self.me();
        self.link(peer)?;
        let link = &self.links[&peer];
        let m = link.send.posted;
        // Message m takes the slot of message m - SLOTS: it must have been released.
        if m >= SLOTS as u64 {
            let needed = (m + 1 - SLOTS as u64) as u32;
            let released = &link.outgoing().released.signal;
            if !epoch_reached(released.load(), needed) {
                let what = || format!("PE {peer} to take the halo or channel messages this PE sent it (message {})", m + 1 - SLOTS as u64);
                self.wait(released, &[peer], &what, |v| epoch_reached(v, needed))?;
            }
        }
        let ShmChannels { links, regions, .. } = self;
        let link = links.get_mut(&peer).expect("made above");
        let released = u64::from(link.outgoing().released.signal.load());
        // Generations whose last message the receiver released are unmapped (wrapping counts:
        // compared as the 32-bit numbers the page holds).
        link.send.retired.retain(|(_, last)| !epoch_reached(released as u32, (*last + 1) as u32));
        if link.send.current.as_ref().is_none_or(|d| d.size < len) {
            let generation = link.send.current.as_ref().map_or(1, |d| d.generation.wrapping_add(1));
            let size = slot_size(len);
            let data = match regions {
                Regions::Named { prefix } => {
                    let name = format!("{prefix}.ch{me}-{peer}.{generation}");
                    let region = SharedRegion::create(&name, SLOTS * size)?;
                    Data { generation, size, region, name: Some(name), fd: None }
                }
                Regions::Anonymous { .. } => {
                    let made = AnonymousRegion::create(SLOTS * size)?;
                    Data { generation, size, region: made.region, name: None, fd: Some(made.fd) }
                }
            };
            if let Some(old) = link.send.current.replace(data) {
                link.send.retired.push((old, m.wrapping_sub(1)));
            }
            link.send.held = [None; SLOTS];
        }
        // The lowest free slot: with one exchange in flight, always the same one, whose lines
        // stay in the caches (a rotation over the slots would bring cold memory every time).
        let free = |h: &Option<u64>| h.is_none_or(|held| epoch_reached(released as u32, (held + 1) as u32));
        let index = link.send.held.iter().position(free).ok_or_else(|| Error::Internal(format!("no free slot to PE {peer}")))?;
        link.send.held[index] = Some(m);
        link.send.reserved = index;
        let data = link.send.current.as_ref().expect("made above");
        // SAFETY: slot `index` lies inside the region (SLOTS slots of `size` >= len bytes).
        Ok(unsafe { data.region.as_ptr().add(index * data.size) })
    }

    fn post(&mut self, peer: usize, len: usize) -> Result<()> {
        if peer == self.me() {
            self.looped.post(len);
            return Ok(());
        }
        let link = self.links.get(&peer).ok_or_else(|| Error::Internal(format!("post to PE {peer} without reserve")))?;
        let m = link.send.posted;
        let data = link.send.current.as_ref().ok_or_else(|| Error::Internal("post without reserve".into()))?;
        let slot = &link.outgoing().slots[m as usize % SLOTS];
        slot.generation.store(data.generation, Ordering::Relaxed);
        slot.index.store(link.send.reserved as u32, Ordering::Relaxed);
        slot.size.store(data.size as u64, Ordering::Relaxed);
        slot.len.store(len as u64, Ordering::Relaxed);
        slot.fd.store(data.fd.as_ref().map_or(u32::MAX, |fd| std::os::fd::AsRawFd::as_raw_fd(fd) as u32), Ordering::Relaxed);
        // The message and its slot are published by the count (a SeqCst store: a release).
        link.outgoing().posted.signal.store((m + 1) as u32);
        self.links.get_mut(&peer).expect("found above").send.posted = m + 1;
        Ok(())
    }

    fn poll(&mut self, peer: usize) -> Result<Option<Message>> {
        if peer == self.me() {
            return Ok(self.looped.poll());
        }
        let me = self.me();
        self.link(peer)?;
        let ShmChannels { links, regions, .. } = self;
        let link = links.get_mut(&peer).expect("made above");
        if !link.arrived() {
            return Ok(None);
        }
        let m = link.receive.released;
        let slot = &link.incoming().slots[m as usize % SLOTS];
        let (generation, size, len) = (
            slot.generation.load(Ordering::Relaxed),
            slot.size.load(Ordering::Relaxed) as usize,
            slot.len.load(Ordering::Relaxed) as usize,
        );
        let index = slot.index.load(Ordering::Relaxed) as usize;
        if link.receive.mapped.as_ref().is_none_or(|d| d.generation != generation) {
            // The first message of a new generation: every message of the older one was released.
            let region = match regions {
                Regions::Named { prefix } => {
                    let name = format!("{prefix}.ch{peer}-{me}.{generation}");
                    let region = SharedRegion::open(&name, SLOTS * size)?;
                    region::unlink(&name);
                    region
                }
                // The sender holds the descriptor until this PE released the generation's last
                // message, so it still names this generation's region.
                Regions::Anonymous { pids, .. } => region::open_peer(pids[peer], slot.fd.load(Ordering::Relaxed) as i32, SLOTS * size)?,
            };
            link.receive.mapped = Some(Data { generation, size, region, name: None, fd: None });
        }
        let data = link.receive.mapped.as_ref().expect("mapped above");
        if len > data.size || index >= SLOTS {
            return Err(Error::Internal(format!("message of {len} bytes from PE {peer} in slot {index} of {} bytes", data.size)));
        }
        // SAFETY: the slot lies inside the mapped region (SLOTS slots of `size` bytes).
        Ok(Some(Message { data: unsafe { data.region.as_ptr().add(index * data.size) }, len, cut: false }))
    }

    fn wait_any(&mut self, peers: &[usize], waiting_for: &dyn Fn() -> String) -> Result<()> {
        if peers.contains(&self.me()) && self.looped.poll().is_some() {
            return Ok(());
        }
        let others: Vec<usize> = peers.iter().copied().filter(|&p| p != self.me()).collect();
        if others.is_empty() {
            return Err(Error::Internal("waiting for a message this PE never sent itself".into()));
        }
        for &p in &others {
            self.link(p)?;
        }
        let links: Vec<&Link> = others.iter().map(|p| &self.links[p]).collect();
        let coll = &self.coll;
        let done = || {
            links.iter().any(|l| l.arrived())
                || others.iter().any(|&p| elsewhere(coll, p) || coll.in_part_collective_without_me(p).is_some())
        };
        if done() {
            return Ok(());
        }
        // Asleep on the first peer's count; the others, and a peer gone into a collective, are
        // seen while spinning or after a sleep's slice (a wait for one peer whose message never
        // comes still sees the others').
        self.wait(&links[0].incoming().posted.signal, &others, waiting_for, |_| done())
    }

    fn in_collective_without_me(&mut self, peer: usize) -> bool {
        peer != self.me() && peer < self.coll.npes && elsewhere(&self.coll, peer)
    }

    fn in_part_collective_without_me(&mut self, peer: usize) -> Option<String> {
        if peer == self.me() || peer >= self.coll.npes {
            return None;
        }
        self.coll.in_part_collective_without_me(peer)
    }

    fn release(&mut self, peer: usize) -> Result<()> {
        if peer == self.me() {
            self.looped.release();
            return Ok(());
        }
        let link = self.link(peer)?;
        link.receive.released += 1;
        link.incoming().released.signal.store(link.receive.released as u32);
        Ok(())
    }
}

impl Drop for ShmChannels {
    /// At finalize: the names still in /dev/shm (of messages never received) go with the mappings.
    fn drop(&mut self) {
        for link in self.links.values() {
            if let Some((_, name)) = &link.control {
                region::unlink(name);
            }
            for data in link.send.current.iter().chain(link.send.retired.iter().map(|(d, _)| d)) {
                if let Some(name) = &data.name {
                    region::unlink(name);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transport::shm::job::JobSegment;

    /// Two PEs of one job as two threads: PE 0 sends messages of growing sizes (new
    /// generations), more than SLOTS of them, PE 1 checks each and sends it back.
    #[test]
    fn messages_arrive_in_order_across_generations_and_slots() {
        exchange_and_check(false);
    }

    /// The same through anonymous regions (the MPI transport's): and no name at all in /dev/shm.
    #[test]
    fn anonymous_channels_carry_the_same_and_name_nothing() {
        exchange_and_check(true);
    }

    /// An inbox that cannot be opened (a descriptor the process does not hold: as /proc refusing
    /// it) is an error at start, never later: the caller then sends the node through MPI.
    #[test]
    fn anonymous_channels_refuse_an_inbox_they_cannot_open() {
        let name = format!("rpncomm-test-{}-channels-refused", std::process::id());
        let job = Arc::new(JobSegment::create(&name, 2, std::process::id()).unwrap());
        region::unlink(&name);
        job.claim(0).unwrap();
        let coll = Arc::new(Collectives::with_cores(Arc::clone(&job), 0, false));
        let inbox = AnonymousRegion::create(inbox_bytes(2)).unwrap();
        let other = AnonymousRegion::create(inbox_bytes(2)).unwrap();
        sign_inbox(&other, 1, 5);
        let me = Inbox { pid: std::process::id(), fd: inbox.raw_fd(), token: 0 };
        let missing = [me, Inbox { pid: std::process::id(), fd: 1_000_000, token: 5 }];
        assert!(ShmChannels::anonymous(Arc::clone(&coll), AnonymousRegion::create(inbox_bytes(2)).unwrap(), &missing).is_err());
        // another region where the inbox should be (its token differs)
        let wrong = [me, Inbox { pid: std::process::id(), fd: other.raw_fd(), token: 6 }];
        assert!(ShmChannels::anonymous(Arc::clone(&coll), AnonymousRegion::create(inbox_bytes(2)).unwrap(), &wrong).is_err());
        let right = [me, Inbox { pid: std::process::id(), fd: other.raw_fd(), token: 5 }];
        assert!(ShmChannels::anonymous(coll, inbox, &right).is_ok());
    }

    /// A peer in one of MPI's own calls that this PE has not entered is elsewhere (a halo
    /// exchange waiting for it fails); one this PE has made and left, it is leaving too.
    #[test]
    fn a_peer_in_mpis_own_call_is_elsewhere() {
        let (job, fd) = JobSegment::create_anonymous(2, 44).unwrap();
        let other = JobSegment::attach_peer(std::process::id(), std::os::fd::AsRawFd::as_raw_fd(&fd), 2).unwrap();
        let (me, peer) = (Collectives::with_cores(Arc::new(job), 0, false), Collectives::with_cores(Arc::new(other), 1, false));
        let call = [0; crate::core::collectives::call_log::ENTRY_BYTES];
        assert!(!elsewhere(&me, 1));
        peer.own_call(Some(&call));
        assert!(elsewhere(&me, 1), "in a collective this PE has not entered");
        me.own_call(Some(&call));
        me.own_call(None);
        assert!(!elsewhere(&me, 1), "still in one this PE has left: leaving it too");
        peer.own_call(None);
        assert!(!elsewhere(&me, 1), "it left the call");
    }

    fn exchange_and_check(anonymous: bool) {
        let name = format!("rpncomm-test-{}-channels{}", std::process::id(), if anonymous { "-anon" } else { "" });
        let job = Arc::new(JobSegment::create(&name, 2, std::process::id()).unwrap());
        let inboxes = [AnonymousRegion::create(inbox_bytes(2)).unwrap(), AnonymousRegion::create(inbox_bytes(2)).unwrap()];
        for (r, i) in inboxes.iter().enumerate() {
            sign_inbox(i, r, 77 + r as u64);
        }
        let published: Vec<Inbox> =
            inboxes.iter().enumerate().map(|(r, i)| Inbox { pid: std::process::id(), fd: i.raw_fd(), token: 77 + r as u64 }).collect();
        let mut inboxes = Vec::from(inboxes);
        let mut pe = |rank: usize| {
            job.claim(rank).unwrap();
            let coll = Arc::new(Collectives::with_cores(Arc::clone(&job), rank, false));
            if anonymous {
                ShmChannels::anonymous(coll, inboxes.remove(0), &published).unwrap()
            } else {
                ShmChannels::new(coll, name.clone())
            }
        };
        let (mut a, mut b) = (pe(0), pe(1));
        if anonymous {
            region::unlink(&name);
        }
        let sizes: Vec<usize> = (0..3 * SLOTS).map(|i| 1 + i * 3000).collect();
        let echo = std::thread::spawn({
            let sizes = sizes.clone();
            move || {
                for (i, &len) in sizes.iter().enumerate() {
                    b.wait_any(&[0], &|| "PE 0".into()).unwrap();
                    let m = b.poll(0).unwrap().expect("arrived");
                    // SAFETY: held until the release below.
                    let got = unsafe { m.bytes() }.to_vec();
                    assert_eq!(got.len(), len);
                    assert!(got.iter().all(|&v| v == i as u8), "message {i}");
                    b.release(0).unwrap();
                    let room = b.reserve(0, len).unwrap();
                    // SAFETY: the room holds len bytes until post.
                    unsafe { std::ptr::copy_nonoverlapping(got.as_ptr(), room, len) };
                    b.post(0, len).unwrap();
                }
                // (kept until PE 0 has its messages: dropping it is PE 1's finalize)
                b
            }
        });
        // Two messages ahead of the echoes (as an exchange in flight and the next one): the
        // slots of both directions are reused, and every generation is met in the middle.
        let mut received = 0;
        for (i, &len) in sizes.iter().enumerate() {
            let room = a.reserve(1, len).unwrap();
            // SAFETY: as above.
            unsafe { std::ptr::write_bytes(room, i as u8, len) };
            a.post(1, len).unwrap();
            while received + 2 <= i || (i + 1 == sizes.len() && received < sizes.len()) {
                a.wait_any(&[1], &|| "PE 1".into()).unwrap();
                let m = a.poll(1).unwrap().expect("arrived");
                assert_eq!(m.len, sizes[received]);
                // SAFETY: held until the release below.
                assert_eq!(unsafe { m.bytes() }[m.len - 1], received as u8);
                a.release(1).unwrap();
                received += 1;
            }
        }
        let b = echo.join().unwrap();
        assert!(a.poll(1).unwrap().is_none());
        if anonymous {
            let named = |e: &std::fs::DirEntry| e.file_name().to_string_lossy().starts_with(&name);
            let left: Vec<_> = std::fs::read_dir("/dev/shm").unwrap().flatten().filter(named).collect();
            assert!(left.is_empty(), "anonymous channels named {left:?}");
        }
        drop(b);
        region::unlink(&name);
        drop(a);
        let left: Vec<_> =
            std::fs::read_dir("/dev/shm").unwrap().flatten().filter(|e| e.file_name().to_string_lossy().starts_with(&name)).collect();
        assert!(left.is_empty(), "left in /dev/shm: {left:?}");
    }
}
