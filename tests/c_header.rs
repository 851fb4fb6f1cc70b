//! The committed C header (`include/rpncomm_windows.h`, what C programs and the Fortran
//! bindings are checked against) is what cbindgen generates from the C ABI in this build: a
//! change of an exported function that is not carried into the header fails here.

#[test]
fn committed_header_is_the_generated_one() {
    let generated = include_str!(concat!(env!("OUT_DIR"), "/rpncomm_windows.h"));
    let committed = include_str!("../include/rpncomm_windows.h");
    assert!(generated.contains("int rpncomm_win_create("), "generated header lacks the ABI:\n{generated}");
    if generated != committed {
        let line = generated.lines().zip(committed.lines()).position(|(g, c)| g != c).map_or(0, |i| i + 1);
        panic!(
            "include/rpncomm_windows.h differs from the generated header (first at line {line}); \
             copy {}/rpncomm_windows.h over it",
            env!("OUT_DIR")
        );
    }
}

/// The `rerun-if-changed` paths build.rs printed in this build (cargo keeps a build script's output
/// in `output`, beside its `OUT_DIR`).
fn watched_paths() -> Vec<String> {
    let out_dir = std::path::Path::new(env!("OUT_DIR"));
    let output = out_dir.parent().expect("OUT_DIR has a parent").join("output");
    let text = std::fs::read_to_string(&output).unwrap_or_else(|e| panic!("cannot read {}: {e}", output.display()));
    text.lines()
        .filter_map(|l| l.strip_prefix("cargo:rerun-if-changed=").or_else(|| l.strip_prefix("cargo::rerun-if-changed=")))
        .map(String::from)
        .collect()
}

/// The `.rs` files under `dir`, relative to the crate's root, `/`-separated.
fn rust_files(root: &std::path::Path, dir: &str, into: &mut Vec<String>) {
    for entry in std::fs::read_dir(root.join(dir)).unwrap_or_else(|e| panic!("cannot list {dir}: {e}")) {
        let name = entry.expect("a directory entry").file_name().into_string().expect("UTF-8 file names");
        let path = format!("{dir}/{name}");
        if root.join(&path).is_dir() {
            rust_files(root, &path, into);
        } else if name.ends_with(".rs") {
            into.push(path);
        }
    }
}

/// An incremental build regenerates the header whenever a file it is generated from changes: every
/// file that exports a function (`no_mangle`), and every file that defines a struct the header
/// declares, lies under a path build.rs declares with `rerun-if-changed`.
#[test]
fn build_script_reruns_for_every_header_source() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let watched = watched_paths();
    assert!(!watched.is_empty(), "build.rs printed no rerun-if-changed line");
    let covered = |file: &str| watched.iter().any(|w| file == w || file.starts_with(&format!("{}/", w.trim_end_matches('/'))));

    // the structs of the header, by their Rust names (cbindgen.toml renames some)
    let header = include_str!("../include/rpncomm_windows.h");
    let config = std::fs::read_to_string(root.join("cbindgen.toml")).expect("cbindgen.toml");
    let structs: Vec<String> = header
        .lines()
        .filter_map(|l| l.strip_prefix("typedef struct ").and_then(|r| r.split_whitespace().next()))
        .flat_map(|c_name| {
            let renamed_from = config
                .lines()
                .filter_map(|l| l.split_once('='))
                .filter(|(_, to)| to.trim().trim_matches('"') == c_name)
                .map(|(from, _)| from.trim().trim_matches('"').to_string());
            renamed_from.chain(std::iter::once(c_name.to_string())).collect::<Vec<_>>()
        })
        .collect();
    assert!(structs.iter().any(|s| s == "Handle"), "the header declares no rpncomm_handle struct: {structs:?}");

    let mut files = Vec::new();
    rust_files(root, "src", &mut files);
    let mut sources = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(root.join(f)).expect("a source file");
        let exports = text.contains("no_mangle");
        let defines = structs.iter().any(|s| text.contains(&format!("pub struct {s} ")) || text.contains(&format!("pub struct {s}{{")));
        if exports || defines {
            sources.push(f.clone());
        }
    }
    assert!(sources.iter().any(|f| f.starts_with("src/ffi/")), "no exporting file found under src/ffi/: {files:?}");
    let stale: Vec<&String> = sources.iter().filter(|f| !covered(f)).collect();
    assert!(
        stale.is_empty(),
        "the C header is generated from {stale:?}, which no rerun-if-changed of build.rs covers (watched: {watched:?}): \
         an incremental build would keep a stale header; add the file (or its directory) to ABI_SOURCES in build.rs"
    );
}
