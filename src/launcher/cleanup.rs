//! Removal of a job's files in /dev/shm, and of stale ones left by jobs whose launcher died.

use std::os::unix::fs::MetadataExt;

use crate::transport::shm::region::{NAME_PREFIX, SHM_DIR};

/// Removes every file of the job whose names start with `job` (segment and regions).
pub fn remove_job_files(job: &str) {
    for name in shm_names() {
        if name.starts_with(job) {
            let _ = std::fs::remove_file(format!("{SHM_DIR}/{name}"));
        }
    }
}

fn shm_names() -> Vec<String> {
    std::fs::read_dir(SHM_DIR).map(|dir| dir.flatten().filter_map(|e| e.file_name().into_string().ok()).collect()).unwrap_or_default()
}

fn process_alive(pid: i32) -> bool {
    // SAFETY: signal 0 only checks that the process exists.
    let rc = unsafe { libc::kill(pid, 0) };
    rc == 0 || std::io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
}

/// Removes our files whose creating process (pid in the name) no longer exists.
/// Returns how many were removed.
pub fn remove_stale_jobs() -> usize {
    // SAFETY: getuid has no preconditions.
    let uid = unsafe { libc::getuid() };
    let mut removed = 0;
    for name in shm_names() {
        let Some(rest) = name.strip_prefix(NAME_PREFIX) else { continue };
        let Some(pid) = rest.split('-').next().and_then(|p| p.parse::<i32>().ok()) else { continue };
        let path = format!("{SHM_DIR}/{name}");
        let ours = std::fs::metadata(&path).is_ok_and(|m| m.uid() == uid);
        if ours && pid > 0 && !process_alive(pid) && std::fs::remove_file(&path).is_ok() {
            removed += 1;
        }
    }
    removed
}
