#!/usr/bin/env python3
"""Writes fortran/RPN_COMM_interfaces.inc from the external procedures of fortran/<concern>/.

The external procedures are the one source of every Fortran signature of the library: the
include file (and through it the module rpn_comm_windows) gets, for each of them, an interface
body made of its header, the declarations of its dummy arguments and result (copied as written,
directives such as `!GCC$ ATTRIBUTES NO_ARG_CHECK` included), the `use ISO_C_BINDING, only:` and
`import ::` its declarations need, and `implicit none`. The `! ===== title` lines of the
externals become the section comments. A `! generic: NAME` comment line just before a procedure
makes it a specific of the generic interface NAME (written after the interface bodies; a
generic may share its name with one of its specifics, as the original's do). A `! interface: WHERE`
comment line just before a procedure leaves it out: it is declared in WHERE (another include, or
nowhere when it takes buffers of any type through an implicit interface).

    gen_interfaces.py [--externals F90 ...] [--output INC]  write the include file (only if it changes)
    gen_interfaces.py --check [--output INC]              exit 1, with a diff, if INC is stale

A declaration that names both a dummy argument and a local variable is refused: it could not be
copied without the local.
"""

import argparse
import difflib
import os
import re
import sys

from fortran_source import FortranError, parse_declaration, read_procedures, read_statements

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
# the files of external procedures, in the order of the include's sections
EXTERNALS = [os.path.join(ROOT, "fortran", f) for f in (
    "grid/grid_init.F90", "grid/grid_topology.F90", "grid/io_pe_sets.F90", "process/process_routines.F90",
    "p2p/p2p_routines.F90", "collectives/collectives_routines.F90", "collectives/distribution.F90",
    "windows/windows_routines.F90", "halo/halo_routines.F90")]
OUTPUT = os.path.join(ROOT, "fortran", "RPN_COMM_interfaces.inc")

PREAMBLE = """\
! RPN_COMM_interfaces.inc -- explicit interfaces of the rpncomm-windows routines
!
! GENERATED from the external procedures of fortran/<concern>/ by fortran/gen/gen_interfaces.py:
! do not edit.
! Change the external procedure instead; make rewrites this file and `make check` fails while
! the committed copy is stale.
!
! Requires RPN_COMM_types.inc to have been included first in the same scope
! (RPN_COMM.inc does that). Dummy arguments are those of the original RPN_COMM
! windows package, so existing calls compile unchanged.

  interface

"""

SECTION = re.compile(r"^!\s*=+\s*(\S.*?)\s*$")
GENERIC = re.compile(r"^!\s*generic:\s*(\w+)\s*$", re.IGNORECASE)
ELSEWHERE = re.compile(r"^!\s*interface:", re.IGNORECASE)
C_NAME = re.compile(r"\bC_[A-Z0-9_]+\b", re.IGNORECASE)
HANDLE_TYPE = re.compile(r"\btype\s*\(\s*(rpncomm_\w+)\s*\)", re.IGNORECASE)
DIRECTIVE_NAMES = re.compile(r"::\s*(.*)$")


def _reindent(lines, indent):
    """`lines` of one statement moved to `indent` spaces, continuation lines kept relative."""
    base = len(lines[0]) - len(lines[0].lstrip())
    out = []
    for line in lines:
        lead = len(line) - len(line.lstrip())
        out.append(" " * max(indent + lead - base, 0) + line.strip() if line.strip() else "")
    return out


def _first_seen(names):
    seen = []
    for n in names:
        if n not in seen:
            seen.append(n)
    return seen


def interface_body(proc):
    """The lines of the interface body of one external procedure."""
    where = f"{proc.path}:{proc.header.lineno}: {proc.name}"
    wanted = {a.lower() for a in proc.args}
    if proc.result:
        wanted.add(proc.result.lower())
    kept, declared = [], set()
    for st in proc.body:
        if st.kind == "directive":
            names = DIRECTIVE_NAMES.search(st.text)
            listed = {n.strip().lower() for n in names.group(1).split(",")} if names else set()
            if listed and listed <= wanted:
                kept.append(st)
            elif listed & wanted:
                raise FortranError(f"{where}: directive names dummies and locals: {st.text}")
            continue
        decl = parse_declaration(st)
        if decl is None:
            continue
        mine = set(decl.entities) & wanted
        if not mine:
            continue
        if mine != set(decl.entities):
            locals_ = ", ".join(sorted(set(decl.entities) - wanted))
            raise FortranError(f"{where}:{st.lineno}: declaration mixes dummies with locals ({locals_}): declare them apart")
        kept.append(st)
        declared |= mine
    missing = [a for a in proc.args + ([proc.result] if proc.result else []) if a.lower() not in declared]
    if missing:
        raise FortranError(f"{where}: no declaration with '::' for {', '.join(missing)}")

    text = " ".join(st.text for st in kept if st.kind == "code")
    c_names = _first_seen(n.upper() for n in C_NAME.findall(text))
    handles = _first_seen(n for n in HANDLE_TYPE.findall(text))
    body = _reindent(proc.header.lines, 4)
    if c_names:
        body.append("      use ISO_C_BINDING, only: " + ", ".join(c_names))
    if handles:
        body.append("      import :: " + ", ".join(handles))
    body.append("      implicit none")
    for st in kept:
        # gfortran reads directives from column 1
        body.extend([st.text] if st.kind == "directive" else _reindent(st.lines, 6))
    body.append(f"    end {proc.kind} {proc.name}")
    return body


def generate(externals=EXTERNALS):
    """The text of RPN_COMM_interfaces.inc for the externals files (a path or a list of them)."""
    if isinstance(externals, str):
        externals = [externals]
    out = [PREAMBLE]
    generics = {}  # generic name -> its specifics, in order
    for path in externals:
        _generate_file(path, out, generics)
    out.append("  end interface\n")
    for name, specifics in generics.items():
        out.append(f"\n  interface {name}\n    procedure :: {', '.join(specifics)}\n  end interface {name}\n")
    return "".join(out)


def _generate_file(path, out, generics):
    source = _read(path)
    procs = {p.header.lineno: p for p in read_procedures(path, source)}
    inside_until = 0  # last line of the procedure just written
    generic = None  # the `! generic: NAME` just read
    elsewhere = False  # an `! interface: WHERE` just read
    for st in read_statements(path, source):
        if st.lineno <= inside_until:
            continue
        if st.kind == "comment":
            m = SECTION.match(st.text.strip())
            if m:
                title = m.group(1)
                out.append(f"  ! {'-' * max(70 - len(title), 3)} {title}\n")
            m = GENERIC.match(st.text.strip())
            if m:
                generic = m.group(1)
            if ELSEWHERE.match(st.text.strip()):
                elsewhere = True
            continue
        p = procs.get(st.lineno)
        if p is not None:
            inside_until = p.end.lineno
            if not elsewhere:
                out.append("\n".join(interface_body(p)) + "\n\n")
                if generic:
                    generics.setdefault(generic, []).append(p.name)
        generic = None
        elsewhere = False


def _read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--externals", nargs="+", default=EXTERNALS, help="the files of external procedures (default: those of fortran/<concern>/)")
    ap.add_argument("--output", default=OUTPUT, help="the include file (default: %(default)s)")
    ap.add_argument("--check", action="store_true", help="do not write: exit 1 if the include file differs")
    args = ap.parse_args(argv)
    try:
        text = generate(args.externals)
    except (FortranError, OSError) as e:
        print(f"gen_interfaces: {e}", file=sys.stderr)
        return 2
    try:
        old = _read(args.output)
    except FileNotFoundError:
        old = None
    if args.check:
        if old == text:
            print(f"gen_interfaces: {args.output} is up to date with its {len(args.externals)} files of external procedures")
            return 0
        print(f"gen_interfaces: {args.output} differs from what the external procedures generate:", file=sys.stderr)
        diff = difflib.unified_diff((old or "").splitlines(True), text.splitlines(True), args.output, "generated")
        sys.stderr.writelines(diff)
        print("gen_interfaces: run `make fortran/RPN_COMM_interfaces.inc` (or make) and commit the result", file=sys.stderr)
        return 1
    if old != text:
        tmp = args.output + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, args.output)
        print(f"gen_interfaces: wrote {args.output}")
    else:
        os.utime(args.output)  # up to date: make must not run this again
    return 0


if __name__ == "__main__":
    sys.exit(main())
