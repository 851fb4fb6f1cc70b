//! A named shared-memory region in /dev/shm: created once (owner-only permissions, never
//! over an existing file), its memory reserved up front so a full /dev/shm fails at
//! creation and never with SIGBUS later, mapped read-write by every PE.

use std::fs::{File, OpenOptions};
use std::os::unix::fs::OpenOptionsExt;
use std::os::unix::io::{AsRawFd, OwnedFd};
use std::path::PathBuf;

use memmap2::{MmapOptions, MmapRaw};

use crate::error::{Error, Result};

/// Where named regions live.
pub const SHM_DIR: &str = "/dev/shm";

/// Every file this library creates in /dev/shm starts with this, so launchers can clean up.
pub const NAME_PREFIX: &str = "rpncomm-";

pub fn path_of(name: &str) -> PathBuf {
    PathBuf::from(SHM_DIR).join(name)
}

/// A mapped region; unmapped on drop. The file itself is removed with [`unlink`].
/// No file descriptor is kept: a job may hold thousands of windows, far more than the
/// usual limit of 1024 open files (parts of the region are mapped again elsewhere from
/// the mapping itself, see `remap`).
pub struct SharedRegion {
    map: MmapRaw,
    len: usize,
    /// Mapped from a file (MAP_SHARED), as opposed to private anonymous memory.
    shared: bool,
}

/// Mappings of length 0 are not allowed: every region holds at least one page.
fn map_len(len: usize) -> usize {
    len.max(4096)
}

impl SharedRegion {
    /// Creates the file `name` (must not exist), reserves `len` bytes of memory and maps it.
    pub fn create(name: &str, len: usize) -> Result<Self> {
        let len = map_len(len);
        let path = path_of(name);
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(&path)
            .map_err(|e| Error::os(&format!("cannot create {}", path.display()), e))?;
        let reserved = reserve(&file, len);
        if let Err(e) = reserved {
            let _ = std::fs::remove_file(&path);
            return Err(e);
        }
        Self::map(file, len).inspect_err(|_| {
            let _ = std::fs::remove_file(&path);
        })
    }

    /// Maps the existing region `name`, which must be at least `len` bytes long.
    pub fn open(name: &str, len: usize) -> Result<Self> {
        let len = map_len(len);
        let path = path_of(name);
        let file =
            OpenOptions::new().read(true).write(true).open(&path).map_err(|e| Error::os(&format!("cannot open {}", path.display()), e))?;
        let actual = file.metadata().map_err(|e| Error::os("cannot stat region", e))?.len();
        if actual < len as u64 {
            return Err(Error::SharedMemory(format!("{} holds {actual} bytes, {len} expected", path.display())));
        }
        Self::map(file, len)
    }

    /// Private memory of `len` bytes, for a job of one PE that has no launcher segment.
    pub fn anonymous(len: usize) -> Result<Self> {
        let len = map_len(len);
        let map = MmapOptions::new().len(len).map_anon().map_err(|e| Error::os("cannot allocate memory", e))?;
        Ok(SharedRegion { map: MmapRaw::from(map), len, shared: false })
    }

    fn map(file: File, len: usize) -> Result<Self> {
        let map = MmapOptions::new().len(len).map_raw(&file).map_err(|e| Error::os("cannot map shared memory", e))?;
        // The mapping keeps the file's pages alive; the descriptor is closed here.
        drop(file);
        Ok(SharedRegion { map, len, shared: true })
    }

    /// Maps `len` bytes of the region, from byte `offset`, over the caller's memory at `addr`
    /// (replacing what was mapped there), after copying that memory into the region, so the
    /// caller's data stays where it was and becomes shared.
    ///
    /// # Safety
    /// `addr` and `offset` are page-aligned, `[addr, addr+len)` is mapped, readable and
    /// writable memory of this process that nothing else will unmap or remap meanwhile,
    /// and `offset + len <= self.len()`.
    pub unsafe fn remap(&self, offset: usize, addr: usize, len: usize) -> Result<()> {
        debug_assert!(offset.checked_add(len).is_some_and(|end| end <= self.len()), "remap beyond the region");
        if !self.shared {
            return Err(Error::Internal("anonymous region cannot be remapped".into()));
        }
        // No call between the copy and the replacement goes through the C library: MPI
        // libraries interpose on the memory calls to keep their registration caches right
        // (Open MPI's patcher, UCX's ucm), and their handlers may write to their own heap data,
        // possibly on these very pages; a write made after the copy would be lost.
        // SAFETY: both ranges are valid for len bytes (caller) and distinct mappings.
        unsafe { std::ptr::copy_nonoverlapping(addr as *const u8, self.as_ptr().add(offset), len) };
        // mremap with an old size of 0 maps the same shared pages a second time, at `addr`
        // (MREMAP_FIXED replaces what was mapped there), without a file descriptor. Made as a
        // raw system call: the interposers must not run here (above), and Open MPI 4.1's
        // interposed mremap passes a wrong target address when the old size is 0 (EINVAL).
        // SAFETY: the source is page-aligned and inside our shared mapping (caller:
        // offset + len <= len of the region); the target is memory the caller owns and
        // vouches for; the new mapping shows the same bytes (copied just above).
        let got = unsafe {
            libc::syscall(
                libc::SYS_mremap,
                self.as_ptr().add(offset) as *mut libc::c_void,
                0usize,
                len,
                libc::MREMAP_MAYMOVE | libc::MREMAP_FIXED,
                addr as *mut libc::c_void,
            )
        } as *mut libc::c_void;
        if got == libc::MAP_FAILED || got as usize != addr {
            // The caller's pages are untouched.
            return Err(Error::os("cannot map the window over the caller's array", std::io::Error::last_os_error()));
        }
        // Now tell the interposers that the pages at `addr` changed (their registrations of
        // the old pages are stale), through madvise, which they track: on a shared mapping
        // MADV_DONTNEED loses nothing (the pages come back from the region), and whatever
        // their handlers write lands in the new pages.
        // SAFETY: the range is now our shared mapping of the region.
        unsafe { libc::madvise(addr as *mut libc::c_void, len, libc::MADV_DONTNEED) };
        Ok(())
    }

    pub fn as_ptr(&self) -> *mut u8 {
        self.map.as_mut_ptr()
    }

    /// The region's length in bytes.
    pub fn len(&self) -> usize {
        self.len
    }
}

/// Allocates the file's pages now (tmpfs refuses with ENOSPC when /dev/shm is too small).
fn reserve(file: &File, len: usize) -> Result<()> {
    file.set_len(len as u64).map_err(|e| Error::os("cannot size shared memory", e))?;
    // SAFETY: plain system call on a file descriptor we own for the whole call.
    let rc = unsafe { libc::posix_fallocate(file.as_raw_fd(), 0, len as libc::off_t) };
    if rc != 0 {
        return Err(Error::SharedMemory(format!(
            "cannot reserve {len} bytes in {SHM_DIR}: {} (is /dev/shm large enough?)",
            std::io::Error::from_raw_os_error(rc)
        )));
    }
    Ok(())
}

/// A shared region with no name anywhere (memfd): nothing of it outlives the processes that
/// map it, whatever ends them. Another process of the same user reaches it through
/// `/proc/<pid>/fd/<fd>` of its creator ([`open_peer`]) as long as the creator keeps `fd` open.
pub struct AnonymousRegion {
    pub region: SharedRegion,
    pub fd: OwnedFd,
}

impl AnonymousRegion {
    /// Makes `len` bytes of shared memory (reserved now, as [`SharedRegion::create`] does).
    pub fn create(len: usize) -> Result<Self> {
        let len = map_len(len);
        // SAFETY: a constant NUL-terminated name and flags; the result is checked.
        let raw = unsafe { libc::memfd_create(c"rpncomm-channel".as_ptr(), libc::MFD_CLOEXEC) };
        if raw < 0 {
            return Err(Error::os("cannot make anonymous shared memory (memfd_create)", std::io::Error::last_os_error()));
        }
        // SAFETY: a descriptor just returned to us and owned by nobody else.
        let file = File::from(unsafe { <OwnedFd as std::os::unix::io::FromRawFd>::from_raw_fd(raw) });
        reserve(&file, len)?;
        let map = MmapOptions::new().len(len).map_raw(&file).map_err(|e| Error::os("cannot map shared memory", e))?;
        Ok(AnonymousRegion { region: SharedRegion { map, len, shared: true }, fd: file.into() })
    }

    /// The descriptor a peer opens through /proc (see [`open_peer`]).
    #[cfg_attr(not(feature = "mpi"), allow(dead_code, reason = "anonymous channels serve the MPI transport"))]
    pub fn raw_fd(&self) -> i32 {
        self.fd.as_raw_fd()
    }
}

/// Maps the anonymous region that process `pid` holds open as descriptor `fd` (at least `len`
/// bytes), through `/proc/<pid>/fd/<fd>`: refused where /proc is not readable for it (another
/// user, another PID namespace, a process made non-dumpable).
pub fn open_peer(pid: u32, fd: i32, len: usize) -> Result<SharedRegion> {
    let len = map_len(len);
    let path = format!("/proc/{pid}/fd/{fd}");
    let file = OpenOptions::new().read(true).write(true).open(&path).map_err(|e| Error::os(&format!("cannot open {path}"), e))?;
    let actual = file.metadata().map_err(|e| Error::os("cannot stat region", e))?.len();
    if actual < len as u64 {
        return Err(Error::SharedMemory(format!("{path} holds {actual} bytes, {len} expected")));
    }
    SharedRegion::map(file, len)
}

/// Removes the file of a region (mappings stay valid until unmapped).
pub fn unlink(name: &str) {
    let _ = std::fs::remove_file(path_of(name));
}
