#!/usr/bin/env python3
"""Checks the hand-written routines of fortran/<concern>/ against their rows of fortran/routines.toml.

    check_routines.py [--table TOML] [--fortran DIR]

Every external procedure (not in a module) of a hand-written file of DIR/<concern>/ (default
fortran/; the generated <concern>_binding.F90 and <concern>_direct.F90 are not read) must have a
[routine.*] row of that concern, and every row its external procedure, once, except the rows of
body "direct", whose routines are generated (and must not be written by hand). The external must have its row's kind
(subroutine or function), dummy arguments (names and order), declaration of each argument and of
the result (type, attributes, dimensions: compared as meaning, not as text, so that
`integer, dimension(n), intent(IN) :: a` matches `integer, intent(in) :: a(n)`), NO_ARG_CHECK
directives, and call exactly the C functions of the row's `calls`. Prints one line per mismatch
("file:line: ...") and exits 1 if there is any.
"""

import argparse
import os
import re
import sys

import table as tbl
from fortran_source import FortranError, Statement, parse_declaration, read_procedures

FORTRAN = os.path.join(tbl.ROOT, "fortran")
C_CALL = re.compile(r"\b(rpncomm_\w+)\s*\(", re.IGNORECASE)
NO_ARG_CHECK = re.compile(r"NO_ARG_CHECK\s*::\s*(.*)$", re.IGNORECASE)


def meaning(decl, name):
    """What the declaration says of `name`: (type, attributes, dimensions), normalised."""
    spec = re.sub(r"\s+", "", decl.type_spec).lower()
    spec = re.sub(r"^character\((\*|len=\*)\)$", "character(len=*)", spec)
    attrs, dims = [], ""
    for a in decl.attrs:
        a = re.sub(r"\s+", "", a).lower()
        if a.startswith("dimension("):
            dims = a[len("dimension"):]
        else:
            attrs.append(a)
    suffix = re.sub(r"\s+", "", decl.entities[name.lower()]).lower()
    if suffix.startswith("("):
        dims = suffix
    return spec, tuple(sorted(attrs)), dims


def show(m):
    spec, attrs, dims = m
    return ", ".join([spec, *attrs] + ([f"dimension{dims}"] if dims else []))


def _result_meaning(proc):
    """The meaning of a function's result, a typed prefix (`integer function f()`) included."""
    found = [d for d in proc.declarations() if proc.result.lower() in d.entities and d.type_spec != "external"]
    if found:
        return meaning(found[0], proc.result)
    m = re.match(r"^\s*(\w+\s*(?:\([^)]*\))?)\s+function\b", proc.header.text, re.I)
    if not m:
        raise FortranError(f"{proc.path}:{proc.header.lineno}: {proc.name}: no declaration of its result {proc.result}")
    st = proc.header
    return meaning(parse_declaration(Statement("code", f"{m.group(1)} :: {proc.result}", st.lines, st.lineno)), proc.result)


def _dummy_meaning(proc, name):
    found = [d for d in proc.declarations() if name.lower() in d.entities]
    if len(found) != 1:
        return None
    return meaning(found[0], name)


def compare(proc, row):
    """The mismatches of one external procedure with its row."""
    where = f"{proc.path}:{proc.header.lineno}: {proc.name}"
    out = []
    if proc.kind != row.kind:
        return [f"{where}: a {proc.kind}, its row ({row.where()}) a {row.kind}"]
    if [a.lower() for a in proc.args] != [a.lower() for a in row.args]:
        return [f"{where}: arguments ({', '.join(proc.args)}), its row ({', '.join(row.args)})"]
    for arg in proc.args:
        mine = _dummy_meaning(proc, arg)
        theirs = meaning(row.declaration_of(arg), arg)
        if mine is None:
            out.append(f"{where}: argument {arg} is not declared once with '::'")
        elif mine != theirs:
            out.append(f"{where}: argument {arg} is `{show(mine)}`, its row says `{show(theirs)}`")
    if row.result:
        mine = _result_meaning(proc)
        theirs = meaning(row.declaration_of(row.result), row.result)
        if mine != theirs:
            out.append(f"{where}: result {proc.result} is `{show(mine)}`, its row says `{show(theirs)}`")
    nac = []
    for st in proc.body:
        m = NO_ARG_CHECK.search(st.text) if st.kind == "directive" else None
        if m:
            nac += [n.strip().lower() for n in m.group(1).split(",")]
    if sorted(nac) != sorted(n.lower() for n in row.no_arg_check):
        out.append(f"{where}: NO_ARG_CHECK of ({', '.join(nac)}), its row's no_arg_check ({', '.join(row.no_arg_check)})")
    code = " ".join(st.text for st in proc.body if st.kind == "code")
    called = []
    for c in C_CALL.findall(code):
        if c.lower() not in called:
            called.append(c.lower())
    listed = [c.lower() for c in row.calls]
    for c in called:
        if c not in listed:
            out.append(f"{where}: calls {c}, which its row's calls do not list")
    for c in listed:
        if c not in called:
            out.append(f"{where}: does not call {c}, which its row's calls list")
    return out


def hand_written_files(fortran, table):
    """The hand-written .F90 files of each concern's folder: (concern, path). `fortran`: the folder
    the concerns' folders are in (fortran/ of the source tree or of a copy)."""
    out = []
    for name, concern in table.concerns.items():
        folder = os.path.join(fortran, os.path.relpath(concern.path, "fortran"))
        if not os.path.isdir(folder):
            continue
        for base in sorted(os.listdir(folder)):
            if base.endswith(".F90") and base not in (f"{name}_binding.F90", f"{name}_direct.F90"):
                out.append((name, os.path.normpath(os.path.join(folder, base))))
    return out


def check(table_path=tbl.TABLE, fortran=FORTRAN):
    """(number of external procedures compared, [mismatch lines])."""
    table = tbl.load(table_path)
    problems, found = [], {}
    for concern, path in hand_written_files(fortran, table):
        for proc in read_procedures(path):
            if proc.module is not None:
                continue  # a module procedure or an interface body: not a public routine
            where = f"{path}:{proc.header.lineno}: {proc.name}"
            row = table.routine(proc.name)
            if row is None:
                problems.append(f"{where}: an external procedure without a [routine.{proc.name}] row in {table_path}")
                continue
            if row.name in found:
                problems.append(f"{where}: defined again (first at {found[row.name]})")
                continue
            found[row.name] = f"{path}:{proc.header.lineno}"
            if row.body == "direct":
                problems.append(f"{where}: written by hand, but its row's body is direct (generated into {concern}_direct.F90)")
                continue
            if row.concern != concern:
                problems.append(f"{where}: in {table.concerns[concern].path}/, its row's concern is {row.concern}")
            problems.extend(compare(proc, row))
    for name, row in table.routines.items():
        if name not in found and row.body != "direct":
            problems.append(f"{row.where()}: no external procedure {name} in {table.concerns[row.concern].path}/")
    return len(found), problems


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--table", default=tbl.TABLE)
    ap.add_argument("--fortran", default=FORTRAN, help="the folder of the concerns' folders")
    args = ap.parse_args(argv)
    try:
        n, problems = check(args.table, args.fortran)
    except (FortranError, OSError) as e:
        print(f"check_routines: {e}", file=sys.stderr)
        return 2
    for p in problems:
        print(p)
    verdict = f"{len(problems)} mismatch(es)" if problems else "all match"
    print(f"check_routines: {n} external procedures against {args.table}: {verdict}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
