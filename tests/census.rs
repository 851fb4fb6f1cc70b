//! Every name literal that ECCC's codes pass to RPN_COMM (the committed census files of
//! tests/census/, one per code of tests/census/codes.txt) is one the library accepts: datatype,
//! operator and communicator names, and the operator of a reduction on its datatype. The library
//! is asked through the parsers its calls use (`internals::names`); each refused literal is
//! printed with its code, routine, argument and call sites. The routines themselves are checked
//! against the built archive by `tests/census/census.py check`.

use std::fs;
use std::path::{Path, PathBuf};

use rpncomm_windows::internals::names::{accepts_communicator, accepts_datatype, accepts_operator, accepts_reduction};

fn census_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests").join("census")
}

/// The codes of codes.txt: their census files' names.
fn codes() -> Vec<String> {
    let text = fs::read_to_string(census_dir().join("codes.txt")).expect("tests/census/codes.txt");
    text.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')).map(|l| l.split_whitespace().next().unwrap().to_string()).collect()
}

/// A Fortran literal as the census writes it: in single quotes, a quote doubled.
fn unquote(text: &str) -> String {
    let inner = text.strip_prefix('\'').and_then(|t| t.strip_suffix('\'')).unwrap_or_else(|| panic!("not a quoted literal: {text}"));
    inner.replace("''", "'")
}

/// What the library says of one census line (None: a routine line, not a name).
fn refused(line: &str) -> Option<Result<(), String>> {
    let cols: Vec<&str> = line.split('\t').collect();
    let verdict = |ok: bool, what: String| if ok { Ok(()) } else { Err(what) };
    match cols.as_slice() {
        ["routine", ..] => None,
        ["reduction", routine, dtype, op, sites] => {
            let (t, o) = (unquote(dtype), unquote(op));
            Some(verdict(accepts_reduction(&t, &o), format!("reduction '{o}' on '{t}' ({routine}, {sites} sites)")))
        }
        [kind, routine, arg, literal, sites] => {
            let name = unquote(literal);
            let ok = match *kind {
                "datatype" => accepts_datatype(&name),
                "operator" => accepts_operator(&name),
                "communicator" => accepts_communicator(&name),
                other => panic!("unknown census line kind {other}: {line}"),
            };
            Some(verdict(ok, format!("{kind} '{name}' ({routine} argument {arg}, {sites} sites)")))
        }
        _ => panic!("malformed census line: {line}"),
    }
}

#[test]
fn every_name_of_the_census_is_accepted() {
    let (mut checked, mut missing) = (0, Vec::new());
    for code in codes() {
        let path = census_dir().join(format!("{code}.txt"));
        let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for line in text.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')) {
            match refused(line) {
                None => {}
                Some(Ok(())) => checked += 1,
                Some(Err(what)) => missing.push(format!("MISSING {code}: {what}")),
            }
        }
    }
    for m in &missing {
        println!("{m}");
    }
    println!("census names: {checked} accepted, {} refused", missing.len());
    assert!(checked > 0, "the census files list no name literal");
    assert!(missing.is_empty(), "{} census names refused by the library (the MISSING lines above)", missing.len());
}

/// The reader and the parsers can refuse: a made-up line of each kind is refused, a known one
/// accepted.
#[test]
fn census_lines_are_refused_when_the_library_refuses_them() {
    assert_eq!(refused("routine\trpn_comm_bcast\t3\t1\tx.F90:1"), None);
    assert_eq!(refused("communicator\trpn_comm_bcast\t5\t'grid'\t2"), Some(Ok(())));
    assert_eq!(refused("operator\trpn_comm_allreduce\t5\t'mpi_sum'\t2"), Some(Ok(())));
    assert_eq!(refused("datatype\trpn_comm_bcast\t3\t'MPI_REAL8'\t2"), Some(Ok(())));
    assert_eq!(refused("reduction\trpn_comm_allreduce\t'MPI_INTEGER'\t'MPI_BOR'\t1"), Some(Ok(())));
    for line in [
        "communicator\trpn_comm_bcast\t5\t'NOSUCHGROUP'\t1",
        "operator\trpn_comm_allreduce\t5\t'MPI_AVERAGE'\t1",
        "datatype\trpn_comm_bcast\t3\t'MPI_NO_SUCH_TYPE'\t1",
        "reduction\trpn_comm_allreduce\t'MPI_REAL8'\t'MPI_BXOR'\t1",
    ] {
        assert!(matches!(refused(line), Some(Err(_))), "{line} accepted");
    }
    assert_eq!(unquote("'it''s'"), "it's");
}
