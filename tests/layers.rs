//! The layers of the crate only point down: C ABI (`ffi`) and launcher -> `runtime` ->
//! `transport` -> `core` -> `diagnostics` -> `error`. Every `crate::X` path in a file of `src/`
//! is an edge from the file's top-level module to module X; an edge to a module of the same
//! layer or above fails this test (a module may use itself freely).

use std::path::{Path, PathBuf};

/// Top-level modules from the bottom layer up; modules on one line share a layer (and may not
/// use each other).
const LAYERS: &[&[&str]] = &[&["error"], &["diagnostics"], &["core"], &["transport"], &["runtime"], &["ffi", "launcher"]];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|layer| layer.contains(&module))
}

/// The top-level modules a source text names through `crate::` paths (`crate::a::b`,
/// `crate::{a, b::c}`), comments included: a path in a doc comment is an edge as well.
fn crate_edges(text: &str) -> Vec<String> {
    let mut edges = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("crate::") {
        rest = &rest[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let inner = &group[..group.find('}').unwrap_or(group.len())];
            for item in inner.split(',') {
                let name: String = item.trim().chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                edges.push(name);
            }
        } else {
            edges.push(rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect());
        }
    }
    edges.retain(|e| !e.is_empty() && e != "self");
    edges
}

/// The top-level module of a file under `src/` (`src/transport/shm/job.rs` -> transport).
fn module_of(src: &Path, file: &Path) -> Option<String> {
    let rel = file.strip_prefix(src).ok()?;
    let first = rel.components().next()?.as_os_str().to_str()?;
    Some(first.trim_end_matches(".rs").to_string())
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// "file: from -> to" for every edge of `text` that does not point down.
fn upward_edges(file: &str, from: &str, text: &str) -> Vec<String> {
    let Some(level) = layer_of(from) else {
        return vec![format!("{file}: module '{from}' is in no layer (add it to LAYERS)")];
    };
    crate_edges(text)
        .into_iter()
        .filter(|to| to != from)
        .filter(|to| layer_of(to).is_none_or(|l| l >= level))
        .map(|to| format!("{file}: {from} -> {to}"))
        .collect()
}

#[test]
fn no_module_uses_a_layer_above_or_beside_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut bad = Vec::new();
    let mut checked = 0;
    for file in &files {
        let module = module_of(&src, file).unwrap();
        // The crate root declares the modules; the binaries are users of the library.
        if module == "lib" || module == "bin" {
            continue;
        }
        let text = std::fs::read_to_string(file).unwrap();
        bad.extend(upward_edges(&file.display().to_string(), &module, &text));
        checked += 1;
    }
    assert!(checked > 30, "only {checked} files found under {}", src.display());
    assert!(bad.is_empty(), "edges that do not point down:\n{}", bad.join("\n"));
}

#[test]
fn edges_are_found_in_every_form() {
    let text =
        "use crate::core::Handle;\nuse crate::{error::Result, diagnostics};\n// see crate::ffi::call\nlet x = crate::runtime::wtime();";
    assert_eq!(crate_edges(text), ["core", "error", "diagnostics", "ffi", "runtime"]);
    assert_eq!(upward_edges("f.rs", "transport", text), ["f.rs: transport -> ffi", "f.rs: transport -> runtime"]);
    assert_eq!(upward_edges("f.rs", "ffi", "use crate::launcher::main;"), ["f.rs: ffi -> launcher"]);
    assert!(upward_edges("f.rs", "ffi", "use crate::runtime::Runtime;").is_empty());
    assert_eq!(upward_edges("f.rs", "new", "").len(), 1, "a module in no layer is reported");
}
