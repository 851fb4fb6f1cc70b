//! Generates the C header of the C ABI (`src/ffi`) into the build's output, never into the
//! source tree: `$OUT_DIR/rpncomm_windows.h` and a copy beside the library
//! (`<target>/<profile>/rpncomm_windows.h`, which `make` installs). The committed
//! `include/rpncomm_windows.h` must equal it (`tests/c_header.rs`). With the `mpi` feature,
//! also compiles the MPI shim (`mpi/shim.c`) with the MPI's compiler wrapper.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The files cbindgen is given: the C ABI's module (cbindgen follows its `mod` declarations into
/// the other files of `src/ffi/`) and the handle type the functions take.
const ABI_SOURCES: [&str; 2] = ["src/ffi/mod.rs", "src/core/handle.rs"];

/// The path watched for each of `ABI_SOURCES` (a change there regenerates the header): a module
/// root (`mod.rs`) stands for its whole directory, whose files cbindgen reads through the root's
/// `mod` declarations (cargo watches a directory recursively, so a new file of `src/ffi/` is
/// covered too); any other file for itself. `tests/c_header.rs` checks that every file exporting a
/// function, or defining a struct of the header, is covered.
fn watched(src: &str) -> &str {
    match src.strip_suffix("/mod.rs") {
        Some(dir) => dir,
        None => src,
    }
}

fn main() {
    let crate_dir = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let out_dir = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    generate_header(&crate_dir, &out_dir);
    if std::env::var_os("CARGO_FEATURE_MPI").is_some() {
        build_mpi_shim(&crate_dir);
    }
}

fn generate_header(crate_dir: &str, out_dir: &Path) {
    println!("cargo:rerun-if-changed=cbindgen.toml");
    // the submodules of src/ffi, which cbindgen reads through mod.rs
    println!("cargo:rerun-if-changed=src/ffi");
    let config = cbindgen::Config::from_file(format!("{crate_dir}/cbindgen.toml")).expect("cbindgen.toml is valid");
    let mut builder = cbindgen::Builder::new().with_config(config);
    for src in ABI_SOURCES {
        println!("cargo:rerun-if-changed={}", watched(src));
        builder = builder.with_src(format!("{crate_dir}/{src}"));
    }
    let header = out_dir.join("rpncomm_windows.h");
    match builder.generate() {
        Ok(bindings) => {
            bindings.write_to_file(&header);
        }
        // A header that cannot be generated must not stop a build of the library itself; the
        // header test then fails with the reason.
        Err(e) => {
            println!("cargo:warning=cbindgen could not generate the C header: {e}");
            std::fs::write(&header, format!("/* cbindgen could not generate the C header: {e} */\n")).expect("OUT_DIR is writable");
        }
    }
    // OUT_DIR is <target>/<profile>/build/<package>-<hash>/out.
    if let Some(profile_dir) = out_dir.ancestors().nth(3) {
        let _ = std::fs::copy(&header, profile_dir.join("rpncomm_windows.h"));
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
    run(Command::new(&mpicc).args(["-O2", "-fPIC", "-Wall", "-c"]).arg(format!("{crate_dir}/mpi/shim.c")).arg("-o").arg(&obj));
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
