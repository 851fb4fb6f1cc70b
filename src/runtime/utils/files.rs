//! The original's descriptor calls for Fortran (f_RPN_COMM_open, _read, _write, _close,
//! _unlink), its file copy, synchronous or in a background thread (f_RPN_COMM_copy, _wait,
//! RPN_COMM_file_copy_start), and RPN_COMM_file_bcst, which replicates a file on every node.
//!
//! Descriptors are the C library's: a program may mix these calls with its own.

use std::ffi::{CString, c_int};
use std::sync::Mutex;
use std::sync::atomic::{AtomicI32, Ordering};
use std::thread::JoinHandle;

use crate::error::Result;

/// The bytes a copy or a replication moves at a time (the original's 4 MiB).
const CHUNK: usize = 4 << 20;

/// f_RPN_COMM_copy's messages: 0 none, 1 the copies started and ended, 10 every step.
static DEBUG: AtomicI32 = AtomicI32::new(0);
/// The one background copy (the original allows one at a time; its id is 1).
static BACKGROUND: Mutex<Option<JoinHandle<i32>>> = Mutex::new(None);

fn c_path(path: &str) -> Option<CString> {
    CString::new(path).ok()
}

/// open(2) of `path`: for reading (`write` false) or for reading and writing, created with
/// mode 0777 (less the umask) when missing, not truncated, as the original opens; -1 on error.
pub fn open(path: &str, write: bool) -> c_int {
    let Some(path) = c_path(path) else { return -1 };
    let flags = if write { libc::O_RDWR | libc::O_CREAT } else { libc::O_RDONLY };
    // SAFETY: the path is NUL-terminated; the mode is passed as open's variadic argument wants.
    unsafe { libc::open(path.as_ptr(), flags, 0o777 as libc::c_uint) }
}

/// read(2) into `buf`: the bytes read, 0 at the end of the file, -1 on error.
pub fn read(fd: c_int, buf: &mut [u8]) -> i64 {
    // SAFETY: buf is writable for its length.
    unsafe { libc::read(fd, buf.as_mut_ptr().cast(), buf.len()) as i64 }
}

/// write(2) of `buf`: the bytes written, -1 on error.
pub fn write(fd: c_int, buf: &[u8]) -> i64 {
    // SAFETY: buf is readable for its length.
    unsafe { libc::write(fd, buf.as_ptr().cast(), buf.len()) as i64 }
}

/// close(2): 0, or -1 on error.
pub fn close(fd: c_int) -> c_int {
    // SAFETY: closing a descriptor touches no memory of ours; a bad one gives -1.
    unsafe { libc::close(fd) }
}

/// unlink(2): 0, or -1 on error.
pub fn unlink(path: &str) -> c_int {
    let Some(path) = c_path(path) else { return -1 };
    // SAFETY: the path is NUL-terminated.
    unsafe { libc::unlink(path.as_ptr()) }
}

/// Writes all of `buf` to `fd`: false when a write fails or writes nothing.
fn write_all(fd: c_int, mut buf: &[u8]) -> bool {
    while !buf.is_empty() {
        let n = write(fd, buf);
        if n <= 0 {
            return false;
        }
        buf = &buf[n as usize..];
    }
    true
}

/// Copies `from` onto `to` from their positions to the end of `from`, then closes both: 0, or
/// -1 when a read or a write failed (both closed still), or a close failed.
fn copy_now(from: c_int, to: c_int) -> c_int {
    let debug = DEBUG.load(Ordering::Relaxed);
    if debug >= 10 {
        println!("f_RPN_COMM_copy: copying descriptor {from} onto {to}");
    }
    let mut buf = vec![0u8; CHUNK];
    let copied = loop {
        match read(from, &mut buf) {
            0 => break true,
            n if n < 0 => break false,
            n => {
                if !write_all(to, &buf[..n as usize]) {
                    break false;
                }
            }
        }
    };
    let closed = close(from) + close(to);
    let status = if copied { closed } else { -1 };
    if debug >= 10 {
        println!("f_RPN_COMM_copy: copy of descriptor {from} onto {to} done, status {status}");
    }
    status
}

/// f_RPN_COMM_copy: copies `from` onto `to` and closes both, now (`background` 0: the copy's
/// status) or in a background thread (its id, 1, for `wait`; -1 while another runs). (-1, -1,
/// level) sets the messages' level instead (0).
pub fn copy(from: c_int, to: c_int, background: c_int) -> c_int {
    if from == -1 && to == -1 {
        DEBUG.store(background, Ordering::Relaxed);
        return 0;
    }
    if background == 0 {
        if DEBUG.load(Ordering::Relaxed) >= 1 {
            println!("f_RPN_COMM_copy: synchronous copy of descriptor {from} onto {to}");
        }
        return copy_now(from, to);
    }
    let mut slot = BACKGROUND.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if slot.is_some() {
        return -1;
    }
    if DEBUG.load(Ordering::Relaxed) >= 1 {
        println!("f_RPN_COMM_copy: background copy 1 of descriptor {from} onto {to}");
    }
    match std::thread::Builder::new().name("rpncomm-copy".into()).spawn(move || copy_now(from, to)) {
        Ok(handle) => {
            *slot = Some(handle);
            1
        }
        Err(_) => -1,
    }
}

/// f_RPN_COMM_wait: waits for background copy `id` (1): 0 when it succeeded, -1 when it failed,
/// for another id or when no copy runs.
pub fn wait(id: c_int) -> c_int {
    if id != 1 {
        return -1;
    }
    let Some(handle) = BACKGROUND.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).take() else { return -1 };
    let status = handle.join().unwrap_or(-1);
    if DEBUG.load(Ordering::Relaxed) >= 1 {
        println!("f_RPN_COMM_wait: copy {id} ended with status {status}");
    }
    if status == 0 { 0 } else { -1 }
}

/// RPN_COMM_file_copy_start: starts the background copy of file `from` onto file `to` (created
/// when missing): its id (1), or -1 when a file cannot be opened or a copy already runs.
pub fn file_copy_start(from: &str, to: &str) -> c_int {
    let fd1 = open(from, false);
    if fd1 < 0 {
        return -1;
    }
    let fd2 = open(to, true);
    if fd2 < 0 {
        close(fd1);
        return -1;
    }
    let id = copy(fd1, fd2, 1);
    if id < 0 {
        close(fd1);
        close(fd2);
    }
    id
}

/// RPN_COMM_file_bcst (collective over the Fortran MPI communicator `fcomm`): rank 0 reads file
/// `name` and broadcasts it in chunks; the first rank of every other node writes it under the
/// same name (created when missing). 0, or the number of PEs that failed (the same on every
/// PE; rank 0 says so).
pub fn file_bcst(name: &str, fcomm: i32) -> Result<i32> {
    #[cfg(feature = "mpi")]
    {
        use crate::transport::mpi::collectives::bcast;
        use crate::transport::mpi::comm::Comm;
        use crate::transport::mpi::node::{ENV_NODE_SPLIT, node_split};

        // MPI is started with the runtime (RPN_COMM_init may not have been called yet)
        crate::runtime::with_runtime(|_| Ok(()))?;
        let comm = Comm::from_fortran(fcomm)?;
        let node = comm.node(node_split(std::env::var(ENV_NODE_SPLIT).ok().as_deref())?)?;
        let reader = comm.rank == 0;
        let writer = !reader && node.rank == 0;
        let failures = |mine: bool| -> Result<i32> {
            let mut all = vec![0u8; comm.size];
            comm.allgather(&[u8::from(mine)], &mut all)?;
            Ok(all.iter().map(|&b| i32::from(b)).sum())
        };
        let fd = if reader {
            open(name, false)
        } else if writer {
            open(name, true)
        } else {
            0
        };
        let mut sum = failures(fd < 0)?;
        let mut failed = false;
        if sum == 0 {
            let mut buf = vec![0u8; if reader || writer { CHUNK } else { 0 }];
            loop {
                // the chunk's length first (-1: rank 0 could not read), then its bytes
                let mut len = [0u8; 8];
                if reader {
                    len = read(fd, &mut buf).to_le_bytes();
                }
                bcast(&comm, &mut len, 0)?;
                let n = i64::from_le_bytes(len);
                if n <= 0 {
                    failed |= reader && n < 0;
                    break;
                }
                let n = n as usize;
                if reader || writer {
                    bcast(&comm, &mut buf[..n], 0)?;
                    failed = failed || (writer && !write_all(fd, &buf[..n]));
                } else {
                    bcast(&comm, &mut vec![0u8; n], 0)?;
                }
            }
        }
        // the PEs that opened nothing have nothing to close (the original closes descriptor 0)
        if (reader || writer) && fd >= 0 && close(fd) != 0 {
            failed = true;
        }
        if sum == 0 {
            sum = failures(failed)?;
        }
        if sum > 0 && comm.rank == 0 {
            eprintln!("RPN_COMM_file_bcst: '{name}' not replicated: {sum} PE(s) failed");
        }
        Ok(sum)
    }
    #[cfg(not(feature = "mpi"))]
    {
        let _ = (name, fcomm);
        Err(crate::error::Error::Unsupported(
            "RPN_COMM_file_bcst replicates a file over an MPI communicator: it needs the MPI build (make MPI=1)",
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copy_now_and_in_background() {
        let dir = std::env::temp_dir().join(format!("rpncomm-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let a = dir.join("a");
        let (sa, sb, sc) = (a.to_str().unwrap(), dir.join("b"), dir.join("c"));
        std::fs::write(&a, vec![7u8; CHUNK + 5]).unwrap();
        assert_eq!(copy(open(sa, false), open(sb.to_str().unwrap(), true), 0), 0);
        assert_eq!(std::fs::read(&sb).unwrap().len(), CHUNK + 5);
        assert_eq!(file_copy_start(sa, sc.to_str().unwrap()), 1);
        assert_eq!(wait(1), 0);
        assert_eq!(wait(1), -1, "nothing left to wait for");
        assert_eq!(std::fs::read(&sc).unwrap(), std::fs::read(&a).unwrap());
        assert_eq!(file_copy_start(dir.join("missing").to_str().unwrap(), sc.to_str().unwrap()), -1);
        // an empty file copies as well
        std::fs::write(&a, b"").unwrap();
        assert_eq!(copy(open(sa, false), open(sb.to_str().unwrap(), true), 0), 0);
        assert_eq!(unlink(sb.to_str().unwrap()), 0);
        assert_eq!(unlink(sb.to_str().unwrap()), -1);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
