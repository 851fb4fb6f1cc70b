//! Helpers of the integration tests that run programs under the launcher.
#![allow(dead_code)] // each test file uses its own subset

use std::path::PathBuf;

/// The launcher built with the tests.
pub fn rpnrun() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_rpnrun"))
}

/// An example program (integration tests live in target/<profile>/deps, examples in
/// target/<profile>/examples).
pub fn example(name: &str) -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let path = exe.parent().unwrap().parent().unwrap().join("examples").join(name);
    assert!(path.exists(), "{} not built (cargo test builds examples)", path.display());
    path
}

/// Files in /dev/shm that a launcher with this pid created.
pub fn leftovers(launcher_pid: u32) -> Vec<String> {
    let prefix = format!("rpncomm-{launcher_pid}-");
    std::fs::read_dir("/dev/shm")
        .unwrap()
        .flatten()
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|n| n.starts_with(&prefix))
        .collect()
}
