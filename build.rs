//! Generates the C header `include/rpncomm_windows.h` from the C ABI in `src/ffi`, and with
//! the `mpi` feature compiles the MPI shim (`mpi/shim.c`) with the MPI's compiler wrapper.

use std::path::Path;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=src/ffi");
    println!("cargo:rerun-if-changed=src/core/handle.rs");
    println!("cargo:rerun-if-changed=cbindgen.toml");
    let crate_dir = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let config = cbindgen::Config::from_file(format!("{crate_dir}/cbindgen.toml")).expect("cbindgen.toml is valid");
    match cbindgen::Builder::new().with_crate(&crate_dir).with_config(config).generate() {
        Ok(bindings) => {
            bindings.write_to_file(format!("{crate_dir}/include/rpncomm_windows.h"));
        }
        // A header that cannot be generated must not stop a build of the library itself.
        Err(e) => println!("cargo:warning=cbindgen could not generate the C header: {e}"),
    }
    if std::env::var_os("CARGO_FEATURE_MPI").is_some() {
        build_mpi_shim(&crate_dir);
    }
}

fn run(cmd: &mut Command) -> String {
    let out = cmd.output().unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    if !out.status.success() {
        panic!("{cmd:?} failed:\n{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    }
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Compiles `mpi/shim.c` with `$MPICC` (default `mpicc`) into a static library that rustc bundles
/// into `librpncomm_windows.a`, and tells rustc where the MPI library itself is (for `rpnrun` and
/// `cargo test`; programs using the archive are linked by `mpifort`/`mpicc`, which add it).
fn build_mpi_shim(crate_dir: &str) {
    println!("cargo:rerun-if-env-changed=MPICC");
    println!("cargo:rerun-if-changed=mpi/shim.c");
    println!("cargo:rerun-if-changed=mpi/rpncomm_mpi_shim.h");
    let mpicc = std::env::var("MPICC").unwrap_or_else(|_| "mpicc".into());
    let out_dir = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    let obj = Path::new(&out_dir).join("shim.o");
    let lib = Path::new(&out_dir).join("librpncomm_mpi_shim.a");
    run(Command::new(&mpicc)
        .args(["-O2", "-fPIC", "-Wall", "-c"])
        .arg(format!("{crate_dir}/mpi/shim.c"))
        .arg("-o")
        .arg(&obj));
    let _ = std::fs::remove_file(&lib);
    run(Command::new("ar").arg("crs").arg(&lib).arg(&obj));
    println!("cargo:rustc-link-search=native={out_dir}");
    println!("cargo:rustc-link-lib=static=rpncomm_mpi_shim");

    // Open MPI's wrappers answer --showme:link, MPICH's -link_info.
    let link = Command::new(&mpicc)
        .arg("--showme:link")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
        .unwrap_or_else(|| run(Command::new(&mpicc).arg("-link_info")));
    for word in link.split_whitespace() {
        if let Some(dir) = word.strip_prefix("-L") {
            println!("cargo:rustc-link-search=native={dir}");
        } else if let Some(name) = word.strip_prefix("-l") {
            println!("cargo:rustc-link-lib=dylib={name}");
        }
    }
}
