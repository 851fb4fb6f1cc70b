#!/usr/bin/env python3
"""What ECCC's codes need from RPN_COMM, and whether this library provides it.

A census file (tests/census/<code>.txt) lists, for one code at one commit, every RPN_COMM (and
RPN_MPI) routine its Fortran sources call, with its call sites, and every character literal
those calls pass as a datatype, operator or communicator name. The census files are committed,
so that the check needs no source of the codes.

  census.py scan TREE --name CODE [--label TEXT] [-o FILE]
        scans a source tree and writes its census (standard output by default)
  census.py refresh MIRROR_ROOT [CODE...]
        remakes tests/census/<code>.txt of every code of tests/census/codes.txt (or those named)
        from bare git mirrors MIRROR_ROOT/<owner>+<name>/repo, at the commit codes.txt pins
  census.py check [--build-dir DIR]
        checks every routine of the committed census files against the built library: a link
        symbol of DIR/lib/librpncomm_windows.a (gfortran naming: rpn_comm_<name>_) or a generic
        interface of the installed include files (fortran/*.inc, *.hf) whose specifics are.
        One line per missing routine, last line "N passed, N failed". The name literals are
        checked by the cargo test `census` (tests/census.rs), which asks the library's parsers.

Which argument is a name comes from the original RPN_COMM 4.6.3's signatures
(tests/names/original-4.6.3.txt): dummy arguments named datatype, sendtype, recvtype, rectype
are datatypes, op and oper operators, com communicators, and the single argument of
RPN_COMM_datyp, _oper and _comm. A literal elsewhere that starts with MPI_ is classified by its
shape (an MPI operator name or else a datatype); other literals are not names and not listed.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "tests", "names"))
import fortran_scan  # noqa: E402
import names  # noqa: E402

ORIGINAL = os.path.join(ROOT, "tests", "names", "original-4.6.3.txt")
CODES = os.path.join(HERE, "codes.txt")
KINDS = ("datatype", "operator", "communicator", "reduction")
ARG_KINDS = {
    "datatype": "datatype", "sendtype": "datatype", "recvtype": "datatype", "rectype": "datatype",
    "op": "operator", "oper": "operator",
    "com": "communicator",
}
# routines whose one argument is the name they translate
NAME_ROUTINES = {"rpn_comm_datyp": "datatype", "rpn_comm_oper": "operator", "rpn_comm_comm": "communicator"}
# the routines whose operator applies to the datatype of the same call
REDUCTIONS = {"rpn_comm_allreduce", "rpn_comm_reduce"}
MPI_OPERATORS = {"MPI_SUM", "MPI_MAX", "MPI_MIN", "MPI_PROD", "MPI_LAND", "MPI_LOR", "MPI_LXOR", "MPI_BAND",
                 "MPI_BOR", "MPI_BXOR", "MPI_MAXLOC", "MPI_MINLOC", "MPI_REPLACE", "MPI_NO_OP"}
HEADER_NOTE = """\
# Columns (tab-separated):
#   routine  NAME  SITES  FILES  FIRST_SITE         a routine called (lower case) at SITES call sites in FILES files
#   datatype|operator|communicator  ROUTINE  ARG  'LITERAL'  SITES
#                                                   a literal passed as that name, argument ARG (1-based, or
#                                                   the keyword), at SITES call sites
#   reduction  ROUTINE  'DATATYPE'  'OPERATOR'  SITES  a reduction of that datatype with that operator
# Counted: `call RPN_COMM_x(...)`, `call RPN_COMM_x`, function references RPN_COMM_x(...) and the same for
# RPN_MPI_x, outside comments and literals, in free and fixed source form. Not counted: routines the tree
# defines itself, names the original RPN_COMM defines only as types or constants (structure constructors,
# array constants). Not seen: names passed through a variable or a named constant (only literals written
# in the call are), code the preprocessor builds, and every #if branch is read."""


def load_original(path=ORIGINAL):
    with open(path, encoding="utf-8") as f:
        return names.load(f)


def signatures(original):
    """routine (lower case) -> its dummy arguments, from the original's externals and entries."""
    sig = {}
    for n in original:
        if n.kind in ("external", "entry", "modproc") and n.args:
            sig.setdefault(n.key, n.args)
    return sig


def not_routines(original):
    """Names the original defines only as types, constants or modules."""
    routine = {n.key for n in original if n.kind in ("external", "entry", "modproc", "generic", "bind", "cfunction")}
    return {n.key for n in original if n.kind in ("type", "constant", "module")} - routine


def literal_kind(routine, position, keyword, value, sig):
    """'datatype', 'operator', 'communicator' or None for a literal passed to routine."""
    dummy = keyword
    if dummy is None and routine in NAME_ROUTINES and position == 1:
        return NAME_ROUTINES[routine]
    if dummy is None and routine in sig and position <= len(sig[routine]):
        dummy = sig[routine][position - 1]
    if dummy in ARG_KINDS:
        return ARG_KINDS[dummy]
    shape = value.strip().upper()
    if shape.startswith("MPI_"):
        return "operator" if shape in MPI_OPERATORS else "datatype"
    return None


def census(tree, original):
    """(routines, literals, files, defined): routines maps name -> [sites, set of files, first site];
    literals maps (kind, routine, arg, literal) -> sites."""
    sig, skip = signatures(original), not_routines(original)
    per_file, defined = [], set()
    for rel in fortran_scan.fortran_files(tree):
        form, calls, own = fortran_scan.scan_file(os.path.join(tree, rel), rel)
        if form:
            per_file.append((rel, calls))
            defined |= own
    routines, literals = {}, {}
    for rel, calls in per_file:
        for c in calls:
            if c.routine in defined or c.routine in skip:
                continue
            r = routines.setdefault(c.routine, [0, set(), f"{rel}:{c.line}"])
            r[0] += 1
            r[1].add(rel)
            seen = {}
            for pos, (keyword, value) in enumerate(c.args, 1):
                if value is None:
                    continue
                kind = literal_kind(c.routine, pos, keyword, value, sig)
                if kind:
                    key = (kind, c.routine, keyword or str(pos), value)
                    literals[key] = literals.get(key, 0) + 1
                    seen.setdefault(kind, value)
            if c.routine in REDUCTIONS and "datatype" in seen and "operator" in seen:
                key = ("reduction", c.routine, seen["datatype"], seen["operator"])
                literals[key] = literals.get(key, 0) + 1
    files = set().union(*(r[1] for r in routines.values())) if routines else set()
    return routines, literals, files, defined


def quote(value):
    return "'" + value.replace("'", "''") + "'"


def unquote(text):
    if len(text) < 2 or text[0] != "'" or text[-1] != "'":
        raise ValueError(f"not a quoted literal: {text}")
    return text[1:-1].replace("''", "'")


def render(code, label, tree, original):
    routines, literals, files, defined = census(tree, original)
    sites = sum(r[0] for r in routines.values())
    lines = [f"# RPN_COMM census of {code}: {label}", HEADER_NOTE]
    if defined:
        lines.append("# Defined by the tree itself (calls to them not counted): " + ", ".join(sorted(defined)))
    names_only = {k: n for k, n in literals.items() if k[0] != "reduction"}
    pairs = len(literals) - len(names_only)
    lines.append(f"# Totals: {sites} call sites in {len(files)} files, {len(routines)} routines, "
                 f"{len(names_only)} name literals ({sum(names_only.values())} passings), {pairs} reduction pairs")
    for name in sorted(routines):
        n, where, first = routines[name]
        lines.append(f"routine\t{name}\t{n}\t{len(where)}\t{first}")
    for kind, routine, arg, value in sorted(literals, key=lambda k: (KINDS.index(k[0]), k[1], k[2], k[3])):
        first = quote(arg) if kind == "reduction" else arg
        lines.append(f"{kind}\t{routine}\t{first}\t{quote(value)}\t{literals[(kind, routine, arg, value)]}")
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------------------ codes.txt
def read_codes(path=CODES):
    """(name, repository, commit, subdirectories) per line of codes.txt."""
    out = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.strip() or line.startswith("#"):
                continue
            name, repo, commit, subdirs = line.split()
            out.append((name, repo, commit, subdirs.split(",")))
    return out


def refresh(mirror_root, only):
    for name, repo, commit, subdirs in read_codes():
        if only and name not in only:
            continue
        git_dir = os.path.join(mirror_root, repo.replace("/", "+"), "repo")
        with tempfile.TemporaryDirectory(prefix="census-") as tmp:
            paths = [] if subdirs == ["."] else subdirs
            archive = subprocess.run(["git", "-C", git_dir, "archive", commit, *paths], check=True,
                                     stdout=subprocess.PIPE).stdout
            subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
            label = (f"{repo} {commit}, {','.join(subdirs)}\n# made by: tests/census/census.py refresh "
                     f"<mirrors> {name} (tests/census/codes.txt)")
            text = render(name, label, tmp, load_original())
        with open(os.path.join(HERE, f"{name}.txt"), "w", encoding="utf-8") as f:
            f.write(text)
        print(f"{name}: " + next(li for li in text.splitlines() if li.startswith("# Totals:"))[2:])


# ----------------------------------------------------------------------------------- check
def read_census(path):
    routines, literals = {}, []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.strip() or line.startswith("#"):
                continue
            cols = line.rstrip("\n").split("\t")
            if cols[0] == "routine":
                routines[cols[1]] = (int(cols[2]), cols[4])
            elif cols[0] == "reduction":
                literals.append((cols[0], cols[1], unquote(cols[2]), unquote(cols[3]), int(cols[4])))
            elif cols[0] in KINDS:
                literals.append((cols[0], cols[1], cols[2], unquote(cols[3]), int(cols[4])))
            else:
                raise ValueError(f"{path}: unknown line: {line.rstrip()}")
    return routines, literals


def census_files():
    return sorted(os.path.join(HERE, f"{name}.txt") for name, _, _, _ in read_codes())


def archive_symbols(archive):
    out = subprocess.run(["nm", "-g", "--defined-only", archive], check=True, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True).stdout
    return {f[2] for f in (li.split() for li in out.splitlines()) if len(f) == 3 and f[1] in "TWDBRVGSi"}


def include_generics(root=ROOT):
    """generic name (lower case) -> its specific procedures, from the installed include files."""
    found = {}
    fdir = os.path.join(root, "fortran")
    for base in sorted(os.listdir(fdir)):
        if base.endswith((".inc", ".hf")):
            with open(os.path.join(fdir, base), encoding="utf-8") as f:
                for n in names.fortran_names(f.read(), "fortran/" + base, include=True):
                    if n.kind == "generic":
                        found.setdefault(n.key, set()).update(a.lower() for a in n.args)
    return found


def provided(routine, symbols, generics):
    """None when the library provides routine, else why not."""
    if routine + "_" in symbols:
        return None
    if routine in generics:
        missing = sorted(s for s in generics[routine] if s + "_" not in symbols)
        return None if not missing else f"generic of the include files, specifics not exported: {', '.join(missing)}"
    return f"no symbol {routine}_ in the archive, no generic in the include files"


def check(build_dir):
    passed = failed = 0
    archive = os.path.join(build_dir, "lib", "librpncomm_windows.a")
    if not os.path.exists(archive):
        print(f"FAIL no archive {archive} (make all first)")
        print("0 passed, 1 failed")
        return 1
    symbols, generics = archive_symbols(archive), include_generics()
    for path in census_files():
        code = os.path.basename(path)[:-4]
        routines, literals = read_census(path)
        for routine, (sites, first) in sorted(routines.items()):
            why = provided(routine, symbols, generics)
            if why:
                print(f"MISSING {code}: routine {routine} ({sites} sites, first {first}): {why}")
                failed += 1
            else:
                passed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("scan")
    s.add_argument("tree")
    s.add_argument("--name", required=True)
    s.add_argument("--label", help="what the tree is (repository and commit); default: its path")
    s.add_argument("-o", "--output")
    r = sub.add_parser("refresh")
    r.add_argument("mirror_root")
    r.add_argument("codes", nargs="*")
    c = sub.add_parser("check")
    c.add_argument("--build-dir", default=os.path.join(ROOT, os.environ.get("BUILD_DIR", "build")))
    a = ap.parse_args(argv)
    if a.cmd == "scan":
        label = a.label or os.path.abspath(a.tree)
        text = render(a.name, f"{label}\n# made by: tests/census/census.py scan {a.tree} --name {a.name}", a.tree,
                      load_original())
        if a.output:
            with open(a.output, "w", encoding="utf-8") as f:
                f.write(text)
        else:
            sys.stdout.write(text)
        return 0
    if a.cmd == "refresh":
        refresh(a.mirror_root, a.codes)
        return 0
    return check(a.build_dir)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
