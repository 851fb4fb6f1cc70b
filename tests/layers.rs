//! The layers of the crate only point down: C ABI (`ffi`) and launcher -> `runtime` ->
//! `transport` -> `core` -> `diagnostics` -> `error`. Every `crate::X` path in a file of `src/`
//! is an edge from the file's top-level module to module X; an edge to a module of the same
//! layer or above fails this test (a module may use itself freely). Below, the same for the modules
//! of `src/runtime/` among themselves, and the layout of every folder of `src/`: a folder per
//! concern, each mapped by its `mod.rs` (the crate root by `lib.rs`).

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

/// The sibling modules of `src/runtime/` a source text names (`super::x`, `super::{x, y::Z}`,
/// `crate::runtime::x`, comments included), from a file `depth` directories below `src/runtime/`
/// (0: `src/runtime/x.rs`; 1: `src/runtime/x/mod.rs` or `x/y.rs`, which write `super::super::`
/// from `x/y.rs`). Names that are not siblings (items of `mod.rs`, the file's own) are dropped by
/// the caller.
fn runtime_edges(text: &str, prefixes: &[&str]) -> Vec<String> {
    let ident = |s: &str| -> String { s.trim_start().chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect() };
    let mut edges = Vec::new();
    for prefix in prefixes {
        let mut from = 0;
        while let Some(at) = text[from..].find(prefix).map(|i| from + i) {
            from = at + prefix.len();
            let rest = &text[from..];
            // part of a longer path (`super::super::x` seen as `super::`, or its tail)
            if rest.starts_with("super::") || text[..at].ends_with("super::") {
                continue;
            }
            let Some(group) = rest.strip_prefix('{') else {
                edges.push(ident(rest));
                continue;
            };
            // the first name of each top-level item of the group (`{a, b::{C, D}}`: a, b)
            let (mut depth, mut item_start) = (0, true);
            for (i, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => item_start = true,
                    _ if item_start && !c.is_whitespace() => {
                        edges.push(ident(&group[i..]));
                        item_start = false;
                    }
                    _ => {}
                }
            }
        }
    }
    edges.retain(|e| !e.is_empty());
    edges
}

/// A cycle of `graph` (module -> the modules it names), as "a -> b -> ... -> a", if there is one.
fn find_cycle(graph: &std::collections::BTreeMap<String, std::collections::BTreeSet<String>>) -> Option<String> {
    fn visit(
        node: &str,
        graph: &std::collections::BTreeMap<String, std::collections::BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut std::collections::BTreeSet<String>,
    ) -> Option<String> {
        if let Some(i) = path.iter().position(|p| p == node) {
            let mut cycle = path[i..].to_vec();
            cycle.push(node.to_string());
            return Some(cycle.join(" -> "));
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_string());
        for next in graph.get(node).into_iter().flatten() {
            if let Some(c) = visit(next, graph, path, done) {
                return Some(c);
            }
        }
        path.pop();
        done.insert(node.to_string());
        None
    }
    let mut done = std::collections::BTreeSet::new();
    graph.keys().find_map(|n| visit(n, graph, &mut Vec::new(), &mut done))
}

/// The modules of one folder of `src/runtime/` (`dir`, whose module path is `path`, e.g.
/// `crate::runtime::windows`), each with its files: a file `x.rs` is module `x`, a subfolder `x/`
/// with all its files is module `x` (counted as one). `mod.rs` is left out: it declares them.
fn folder_modules(dir: &Path) -> std::collections::BTreeMap<String, Vec<PathBuf>> {
    let mut modules = std::collections::BTreeMap::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_str().unwrap().to_string();
        if path.is_dir() {
            let mut files = Vec::new();
            rust_files(&path, &mut files);
            modules.insert(name, files);
        } else if path.extension().is_some_and(|e| e == "rs") && name != "mod" {
            modules.insert(name, vec![path]);
        }
    }
    modules
}

/// Which modules of folder `dir` (module path `path`) each one names: through `super::` (from
/// `x.rs` and `x/mod.rs`), `super::super::` (from `x/y.rs`) or its full path.
fn folder_graph(dir: &Path, path: &str) -> std::collections::BTreeMap<String, std::collections::BTreeSet<String>> {
    let modules = folder_modules(dir);
    let full = format!("{path}::");
    let mut graph = std::collections::BTreeMap::<String, std::collections::BTreeSet<String>>::new();
    for (name, files) in &modules {
        let targets = graph.entry(name.clone()).or_default();
        for file in files {
            let text = std::fs::read_to_string(file).unwrap();
            let nested = file.parent() != Some(dir) && file.file_name().is_some_and(|f| f != "mod.rs");
            let prefixes: &[&str] = if nested { &["super::super::", &full] } else { &["super::", &full] };
            targets.extend(runtime_edges(&text, prefixes).into_iter().filter(|t| t != name && modules.contains_key(t)));
        }
    }
    graph
}

/// The files of `src/runtime/` only point down among themselves: in `src/runtime/` itself (its
/// folders and plumbing files, a folder counted as one module) and within each of its folders, no
/// two modules import each other, and no longer circle either. A module naming a sibling through
/// `super::` or its full path (`crate::runtime::...`) is an edge. `mod.rs` is left out: it declares
/// the siblings, and `src/runtime/mod.rs` holds `Runtime`, whose methods the files implement
/// (`impl Runtime`), so every file may name it.
#[test]
fn runtime_files_do_not_import_each_other() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/runtime");
    let top = folder_modules(&root);
    assert!(top.len() > 8 && top.contains_key("windows"), "runtime modules found: {:?}", top.keys());
    let mut folders = vec![(root.clone(), "crate::runtime".to_string())];
    folders.extend(top.keys().filter(|m| root.join(m).is_dir()).map(|m| (root.join(m), format!("crate::runtime::{m}"))));
    for (dir, path) in folders {
        let graph = folder_graph(&dir, &path);
        let pairs: Vec<String> = graph
            .iter()
            .flat_map(|(a, targets)| targets.iter().filter(|b| *a < **b && graph[*b].contains(a)).map(move |b| format!("{a} <-> {b}")))
            .collect();
        assert!(pairs.is_empty(), "modules of {} that import each other: {}", dir.display(), pairs.join(", "));
        assert_eq!(find_cycle(&graph), None, "modules of {} that import each other in a circle", dir.display());
    }
}

/// The modules a folder's map names: the `//!` doc of its `mod.rs` has a list item per child
/// module, whose head (before the first `:`) names it in backquotes (`` - `table`: ... `` or
/// `` - `window_table`, `gate`: ... ``).
fn map_entries(mod_rs: &str) -> Vec<String> {
    let mut names = Vec::new();
    for line in mod_rs.lines() {
        let Some(doc) = line.strip_prefix("//!") else { continue };
        let Some(item) = doc.trim_start().strip_prefix("- ") else { continue };
        let head = item.split(':').next().unwrap_or("");
        names.extend(head.split('`').skip(1).step_by(2).map(str::to_string));
    }
    names
}

/// Words of file names that name a user or an origin rather than what the file holds.
const NOT_A_CONCERN: &[&str] = &["gem", "midas", "sps", "mach", "original", "origin", "legacy"];

/// What is wrong with the layout of folder `dir` (and, recursively, its subfolders): a child module
/// its map does not describe, a map entry that is no child, more than `MAX_FILES` files in one
/// folder, a file or folder named after a user or an origin. A folder's map is its `mod.rs`; the
/// crate root's (`src/`, the folder that holds `lib.rs`) is `lib.rs`, and its `bin/` holds the
/// binaries, each a crate root of its own, so it needs none.
fn layout_faults(dir: &Path, faults: &mut Vec<String>) {
    const MAX_FILES: usize = 12;
    let map_name = if dir.join("lib.rs").is_file() { "lib" } else { "mod" };
    let mut children = std::collections::BTreeSet::new();
    let mut files = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_str().unwrap().to_string();
        if name.split('_').any(|w| NOT_A_CONCERN.contains(&w)) {
            faults.push(format!("{}: named after a user or an origin, not after what it holds", path.display()));
        }
        if path.is_dir() {
            if path.join("mod.rs").is_file() {
                children.insert(name);
            }
            layout_faults(&path, faults);
        } else {
            files += 1;
            if path.extension().is_some_and(|e| e == "rs") && name != map_name {
                children.insert(name);
            }
        }
    }
    if files > MAX_FILES {
        faults.push(format!("{}: {files} files, more than {MAX_FILES}: split it by concern", dir.display()));
    }
    let binaries = dir.file_name().is_some_and(|n| n == "bin") && dir.parent().is_some_and(|p| p.join("lib.rs").is_file());
    if binaries {
        return;
    }
    let map_file = dir.join(format!("{map_name}.rs"));
    let Ok(map) = std::fs::read_to_string(&map_file) else {
        faults.push(format!("{}: no mod.rs, so no map", dir.display()));
        return;
    };
    let mapped: std::collections::BTreeSet<String> = map_entries(&map).into_iter().collect();
    for child in children.difference(&mapped) {
        faults.push(format!("{}: its map (a `//! - `{child}`: ...` line) does not describe module '{child}'", map_file.display()));
    }
    for stale in mapped.difference(&children) {
        faults.push(format!("{}: its map describes '{stale}', which is no module of the folder", map_file.display()));
    }
}

/// Every folder of `src/` is a folder per concern, each folder's `mod.rs` (the crate root's
/// `lib.rs`) a map of it: a module that its folder's map does not describe, or a map entry left
/// behind by a module gone, fails here; so does a folder of more than 12 files, or a file named
/// after who calls it or where it came from (`gem.rs`, `original_halos.rs`) instead of what it does.
#[test]
fn every_folder_is_mapped_and_small() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut folders = Vec::new();
    let mut stack = vec![src.clone()];
    while let Some(dir) = stack.pop() {
        stack.extend(std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).filter(|p| p.is_dir()));
        folders.push(dir);
    }
    for needed in ["core/windows", "transport/shm/protocols", "transport/mpi/windows", "runtime/halo", "ffi/grid", "launcher"] {
        assert!(folders.contains(&src.join(needed)), "src/{needed} not found: the check walks the wrong tree");
    }
    let mut faults = Vec::new();
    layout_faults(&src, &mut faults);
    assert!(faults.is_empty(), "layout of src/:\n{}", faults.join("\n"));
}

#[test]
fn maps_and_layout_faults_are_found() {
    let map = "//! The windows.\n//!\n//! - `calls`: the calls (see `gate`);\n//! - `table`, `gate`: the table\n//!   and its `lanes`;\n\
               //! and the rest:\n//!   - `names`: names.\nmod calls;\n// - `not_doc`: x\n";
    assert_eq!(map_entries(map), ["calls", "table", "gate", "names"]);
    let dir = std::env::temp_dir().join(format!("layers-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::write(dir.join("mod.rs"), "//! - `kept`: a file.\n//! - `gone`: a file removed.\n").unwrap();
    std::fs::write(dir.join("kept.rs"), "").unwrap();
    std::fs::write(dir.join("unmapped.rs"), "").unwrap();
    std::fs::write(dir.join("sub/mod.rs"), "//! - `gem`: a file named after a user.\n").unwrap();
    std::fs::write(dir.join("sub/gem.rs"), "").unwrap();
    for i in 0..12 {
        std::fs::write(dir.join(format!("sub/f{i}.txt")), "").unwrap();
    }
    let mut faults = Vec::new();
    layout_faults(&dir, &mut faults);
    std::fs::remove_dir_all(&dir).unwrap();
    let has = |what: &str| faults.iter().any(|f| f.contains(what));
    assert!(has("does not describe module 'unmapped'"), "{faults:?}");
    assert!(has("does not describe module 'sub'"), "{faults:?}");
    assert!(has("describes 'gone'"), "{faults:?}");
    assert!(has("gem.rs: named after a user"), "{faults:?}");
    assert!(has("14 files, more than 12"), "{faults:?}");
    assert_eq!(faults.len(), 5, "{faults:?}");

    // A crate root: `lib.rs` is its map, `bin/` needs none, any other folder a `mod.rs`.
    let root = std::env::temp_dir().join(format!("layers-test-root-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    for folder in ["bin", "mapped", "unmapped"] {
        std::fs::create_dir_all(root.join(folder)).unwrap();
    }
    std::fs::write(root.join("lib.rs"), "//! - `error`: the error.\n//! - `mapped`: a folder.\n").unwrap();
    std::fs::write(root.join("error.rs"), "").unwrap();
    std::fs::write(root.join("diagnostics.rs"), "").unwrap();
    std::fs::write(root.join("bin/tool.rs"), "").unwrap();
    std::fs::write(root.join("mapped/mod.rs"), "//! - `part`: a file.\n").unwrap();
    std::fs::write(root.join("mapped/part.rs"), "").unwrap();
    std::fs::write(root.join("unmapped/part.rs"), "").unwrap();
    let mut faults = Vec::new();
    layout_faults(&root, &mut faults);
    std::fs::remove_dir_all(&root).unwrap();
    let has = |what: &str| faults.iter().any(|f| f.contains(what));
    assert!(has("lib.rs: its map (a `//! - `diagnostics`"), "{faults:?}");
    assert!(has("unmapped: no mod.rs, so no map"), "{faults:?}");
    assert_eq!(faults.len(), 2, "{faults:?}");
}

#[test]
fn runtime_edges_and_cycles_are_found() {
    let text = "use super::gate::Gate;\nuse super::{names, window_table::{Window, WindowTable}};\n// see crate::runtime::requests\n\
                use super::super::core::X;";
    assert_eq!(runtime_edges(text, &["super::", "crate::runtime::"]), ["gate", "names", "window_table", "requests"]);
    assert_eq!(runtime_edges("use super::super::names::CommHandle;", &["super::super::"]), ["names"]);
    let graph = |edges: &[(&str, &str)]| {
        let mut g = std::collections::BTreeMap::<String, std::collections::BTreeSet<String>>::new();
        for (a, b) in edges {
            g.entry(a.to_string()).or_default().insert(b.to_string());
            g.entry(b.to_string()).or_default();
        }
        g
    };
    assert_eq!(find_cycle(&graph(&[("a", "b"), ("b", "c")])), None);
    assert_eq!(find_cycle(&graph(&[("a", "b"), ("b", "c"), ("c", "a")])).as_deref(), Some("a -> b -> c -> a"));
    assert_eq!(find_cycle(&graph(&[("x", "y"), ("y", "x")])).as_deref(), Some("x -> y -> x"));
}
