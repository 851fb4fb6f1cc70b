//! The documentation keeps up with the library: every routine it exports is named in README.md or
//! a page of docs/, and every relative link of those pages leads to a file (and heading) that
//! exists.
//!
//! Exported: every `RPN_COMM_*` / `rpn_comm_*` procedure of the Fortran layer (the external
//! routines, the interfaces the `rpn_comm_windows` module makes public, the module procedures
//! bound to C), and every function declared by the C header `include/rpncomm_windows.h`.
//! A name counts as documented where it appears whole (not as the start of a longer name);
//! Fortran names in any case, C names exactly.

use std::collections::{BTreeSet, HashMap};
use std::fs;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// README.md and every docs/*.md, sorted.
fn doc_files() -> Vec<PathBuf> {
    let mut files = vec![root().join("README.md")];
    let mut pages: Vec<PathBuf> = fs::read_dir(root().join("docs"))
        .expect("docs/ exists")
        .map(|e| e.expect("docs/ is readable").path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    pages.sort();
    files.extend(pages);
    files
}

/// `path` as the repository names it (relative to its root), for messages.
fn shown(path: &Path) -> String {
    path.strip_prefix(root()).unwrap_or(path).display().to_string()
}

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn is_word(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The first identifier at the start of `s`.
fn ident(s: &str) -> &str {
    let end = s.find(|c: char| !is_word(c)).unwrap_or(s.len());
    &s[..end]
}

/// The procedure a Fortran statement defines or declares (`subroutine X`, `integer function X`,
/// `recursive subroutine X`, ...), if it is one; `end subroutine X` is not.
fn fortran_procedure(line: &str) -> Option<String> {
    let code = line.split('!').next().unwrap_or("").trim();
    let lower = code.to_ascii_lowercase();
    if lower.starts_with("end") {
        return None;
    }
    for kw in ["subroutine ", "function "] {
        let mut from = 0;
        while let Some(at) = lower[from..].find(kw) {
            let pos = from + at;
            // a keyword, not the end of a longer word; whatever precedes it is a prefix
            // (type, recursive, pure, ...), never an assignment or a call
            let before_ok = pos == 0 || lower.as_bytes()[pos - 1] == b' ';
            let prefix = &lower[..pos];
            if before_ok && !prefix.contains(['=', '(', '\'', '"']) && !prefix.contains("call ") {
                let name = ident(code[pos + kw.len()..].trim_start());
                if !name.is_empty() {
                    return Some(name.to_string());
                }
            }
            from = pos + kw.len();
        }
    }
    None
}

/// Every `rpn_comm_*` procedure (any case) defined or declared in the Fortran layer: fortran/**.F90
/// (the external routines, module procedures) and fortran/*.inc (the interfaces that
/// `rpn_comm_windows` includes and makes public).
fn fortran_exports() -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    // fortran/ and its folders per concern
    let mut files: Vec<PathBuf> = Vec::new();
    let mut dirs = vec![root().join("fortran")];
    while let Some(dir) = dirs.pop() {
        for entry in fs::read_dir(&dir).expect("fortran/ is readable") {
            let path = entry.expect("fortran/ is readable").path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "F90" || e == "inc") {
                files.push(path);
            }
        }
    }
    files.sort();
    for file in files {
        for line in read(&file).lines() {
            if let Some(name) = fortran_procedure(line)
                && name.to_ascii_lowercase().starts_with("rpn_comm_")
            {
                names.insert(name);
            }
        }
    }
    // what `use rpn_comm_windows` gives: its own procedures and those of the files it includes
    let module = read(&root().join("fortran/rpn_comm_windows.F90"));
    for line in module.lines() {
        let t = line.trim();
        if t.to_ascii_lowercase().starts_with("include") {
            let inc = t.split(['\'', '"']).nth(1).expect("include 'file'");
            let text = read(&root().join("fortran").join(inc));
            names.extend(text.lines().filter_map(fortran_procedure));
        }
    }
    names
}

/// Every function the C header declares (`int rpncomm_xxx(`, at the start of a line).
fn c_exports() -> BTreeSet<String> {
    read(&root().join("include/rpncomm_windows.h"))
        .lines()
        .filter(|l| l.starts_with(|c: char| c.is_ascii_alphabetic()) && !l.starts_with("typedef"))
        .filter_map(|l| {
            let at = l.find("rpncomm_")?;
            let name = ident(&l[at..]);
            l[at + name.len()..].starts_with('(').then(|| name.to_string())
        })
        .collect()
}

/// The names of `names` that `text` never mentions as a whole word (`fold`: in any case).
fn undocumented(names: &BTreeSet<String>, text: &str, fold: bool) -> Vec<String> {
    let hay = if fold { text.to_ascii_lowercase() } else { text.to_string() };
    let mentioned = |name: &str| {
        let needle = if fold { name.to_ascii_lowercase() } else { name.to_string() };
        hay.match_indices(&needle).any(|(at, _)| {
            let before = hay[..at].chars().next_back();
            let after = hay[at + needle.len()..].chars().next();
            !before.is_some_and(is_word) && !after.is_some_and(is_word)
        })
    };
    names.iter().filter(|n| !mentioned(n)).cloned().collect()
}

/// GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|&c| c.is_alphanumeric() || c == ' ' || c == '-' || c == '_')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The lines of a markdown text outside fenced code blocks.
fn prose_lines(text: &str) -> Vec<&str> {
    let mut fenced = false;
    text.lines()
        .filter(|l| {
            if l.trim_start().starts_with("```") {
                fenced = !fenced;
                return false;
            }
            !fenced
        })
        .collect()
}

/// The anchors of a markdown text's headings (repeated headings get -1, -2, ... as on GitHub).
fn anchors(text: &str) -> BTreeSet<String> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut out = BTreeSet::new();
    for l in prose_lines(text) {
        let t = l.trim_start();
        if t.starts_with('#') {
            let base = slug(t.trim_start_matches('#'));
            let n = seen.entry(base.clone()).or_insert(0);
            out.insert(if *n == 0 { base.clone() } else { format!("{base}-{n}") });
            *n += 1;
        }
    }
    out
}

/// The targets of the inline links `[text](target)` of a markdown text, outside code.
fn link_targets(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for l in prose_lines(text) {
        if l.starts_with("    ") && !l.trim_start().starts_with(['-', '|', '[']) {
            continue; // indented code block
        }
        // drop inline code spans
        let prose: String = l.split('`').step_by(2).collect::<Vec<_>>().join(" ");
        let mut rest = prose.as_str();
        while let Some(at) = rest.find("](") {
            let tail = &rest[at + 2..];
            let Some(end) = tail.find(')') else { break };
            out.push(tail[..end].trim().to_string());
            rest = &tail[end..];
        }
    }
    out
}

/// The relative links of the markdown file `file` (whose text is `text`) that lead nowhere:
/// no such file, or no such heading in the markdown file they name.
fn broken_links(file: &Path, text: &str) -> Vec<String> {
    let dir = file.parent().expect("a file has a folder");
    let mut broken = Vec::new();
    for target in link_targets(text) {
        if target.contains("://") || target.starts_with("mailto:") {
            continue;
        }
        let (path, anchor) = match target.split_once('#') {
            Some((p, a)) => (p, Some(a)),
            None => (target.as_str(), None),
        };
        let dest = if path.is_empty() { file.to_path_buf() } else { dir.join(path) };
        if !dest.exists() {
            broken.push(format!("{}: ({target}): no file {}", shown(file), shown(&dest)));
            continue;
        }
        if let Some(anchor) = anchor
            && dest.extension().is_some_and(|e| e == "md")
            && !anchors(&read(&dest)).contains(anchor)
        {
            broken.push(format!("{}: ({target}): no heading #{anchor} in {}", shown(file), shown(&dest)));
        }
    }
    broken
}

#[test]
fn every_exported_routine_is_documented() {
    let text: String = doc_files().iter().map(|f| read(f)).collect::<Vec<_>>().join("\n");
    let fortran = fortran_exports();
    let c = c_exports();
    // the parsers still find the library (a broken parser must not pass for "all documented")
    assert!(fortran.len() >= 45, "only {} Fortran routines found: {fortran:?}", fortran.len());
    assert!(c.len() >= 45, "only {} C functions found: {c:?}", c.len());
    let mut missing = undocumented(&fortran, &text, true);
    missing.extend(undocumented(&c, &text, false));
    assert!(
        missing.is_empty(),
        "{} exported routine(s) documented nowhere in README.md or docs/*.md: {}",
        missing.len(),
        missing.join(", ")
    );
}

#[test]
fn every_relative_link_resolves() {
    let broken: Vec<String> = doc_files().iter().flat_map(|f| broken_links(f, &read(f))).collect();
    assert!(broken.is_empty(), "{} broken link(s):\n{}", broken.len(), broken.join("\n"));
}

#[test]
fn the_checks_find_what_is_missing() {
    // a name is documented only whole
    let names: BTreeSet<String> = ["RPN_COMM_i_win_get_r", "RPN_COMM_i_win_put_r"].map(String::from).into();
    let missing = undocumented(&names, "see `rpn_comm_i_win_get_r_box` and RPN_COMM_i_win_put_r.", true);
    assert_eq!(missing, ["RPN_COMM_i_win_get_r"]);
    let c: BTreeSet<String> = ["rpncomm_win_open".to_string()].into();
    assert_eq!(undocumented(&c, "RPNCOMM_WIN_OPEN", false), ["rpncomm_win_open"]);
    // procedure statements, not their ends or calls
    assert_eq!(fortran_procedure("  integer function RPN_COMM_mype(Me) result(s)").as_deref(), Some("RPN_COMM_mype"));
    assert_eq!(fortran_procedure("    subroutine rpn_comm_flush_units() bind(C)").as_deref(), Some("rpn_comm_flush_units"));
    assert_eq!(fortran_procedure("end subroutine RPN_COMM_init"), None);
    assert_eq!(fortran_procedure("  call RPN_COMM_init(f, me, n, x, y) ! subroutine x"), None);
    // links: a missing file, a missing heading, and the ones that hold
    let dir = std::env::temp_dir().join(format!("rpncomm-docs-test-{}", std::process::id()));
    fs::create_dir_all(&dir).unwrap();
    let page = dir.join("page.md");
    let text = "# Page\n\n## The `BUILD` variable: out of tree\n\n[a](page.md#the-build-variable-out-of-tree) \
                [b](#page) [c](gone.md) [d](page.md#nowhere) `[e](in-code.md)` [f](https://example.org/x)\n\
                ```\n[g](fenced.md)\n```\n";
    fs::write(&page, text).unwrap();
    let broken = broken_links(&page, text);
    fs::remove_dir_all(&dir).unwrap();
    assert_eq!(broken.len(), 2, "{broken:?}");
    assert!(broken[0].contains("(gone.md): no file"), "{broken:?}");
    assert!(broken[1].contains("(page.md#nowhere): no heading #nowhere"), "{broken:?}");
}
