#!/usr/bin/env python3
"""Rows of fortran/routines.toml for the routines and C functions a tree declares by hand.

    adopt_rows.py --from DIR [--table TOML] [--write]

For work written before the table (or merged from such a branch): DIR holds a fortran/ whose
routines were added by hand, with their bind(C) interfaces in fortran/<concern>/<concern>_binding.F90
and their interfaces in the include files (`git archive BRANCH fortran | tar -x -C DIR` gives one).
Every bind(C) interface of DIR without a [c.*] row, and every external procedure of DIR's
hand-written files of fortran/<concern>/ without a [routine.*] row, becomes a row: its
declarations as written, `declared` from the include files of DIR that declare it, `generic` from
their generic interfaces, `calls` from the C functions its body calls, `note` from the comment
above a C function. Prints the rows; --write inserts them at the end of their concern's part of
the table. Then: the routine files of DIR into fortran/<concern>/ (without the routines the table
generates: check_routines.py names them), `make`, and check_routines.py.
"""

import argparse
import json
import os
import re
import sys

import table as tbl
from fortran_source import FortranError, Statement, parse_declaration, read_procedures


def _q(text):
    return json.dumps(text, ensure_ascii=False)


def _array(key, items):
    one = f"{key} = [{', '.join(_q(i) for i in items)}]"
    return [one] if len(one) <= 110 else [f"{key} = ["] + [f"  {_q(i)}," for i in items] + ["]"]


def _read(path):
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except FileNotFoundError:
        return ""


def declarations(proc):
    """The texts of the declarations of a procedure's arguments and result, and its NO_ARG_CHECK names."""
    wanted = {a.lower() for a in proc.args} | ({proc.result.lower()} if proc.result else set())
    out, no_arg_check = [], []
    for st in proc.body:
        if st.kind == "directive":
            m = re.search(r"NO_ARG_CHECK\s*::\s*(.*)$", st.text, re.I)
            if m:
                no_arg_check += [n.strip() for n in m.group(1).split(",")]
            continue
        d = parse_declaration(st)
        if d is None or not set(d.entities) & wanted:
            continue
        if not set(d.entities) <= wanted:
            raise FortranError(f"{proc.path}:{st.lineno}: {proc.name}: declare the arguments apart from the locals: {st.text}")
        out.append(re.sub(r"\s+", " ", st.text).strip())
    if proc.result:
        named = [d for d in out if proc.result.lower() in parse_declaration(Statement("code", d, [d], 0)).entities]
        if not named:  # a typed prefix: integer function f(...)
            m = re.match(r"^\s*(\w+\s*(?:\([^)]*\))?)\s+function\b", proc.header.text, re.I)
            if not m:
                raise FortranError(f"{proc.path}:{proc.header.lineno}: {proc.name}: no declaration of its result")
            out.insert(0, f"{m.group(1)} :: {proc.result}")
    return out, no_arg_check


def _comment_above(lines, proc):
    i, note = proc.header.lineno - 2, []
    while i >= 0 and lines[i].strip().startswith("!") and not re.match(r"^!\s*(=|-){3}", lines[i].strip()):
        note.insert(0, lines[i].strip().lstrip("!").strip())
        i -= 1
    return " ".join(n for n in note if not re.match(r"^(interface|generic):", n))


def new_rows(table, tree):
    """{concern: [row text]} of what `tree` (a folder holding fortran/) declares and the table lacks."""
    rows = {c: [] for c in table.concerns}
    cnames = set(table.cfuncs)
    fortran = os.path.join(tree, "fortran")
    def folder(c):
        return os.path.join(tree, table.concerns[c].path)

    for c in table.concerns:
        path = os.path.join(folder(c), f"{c}_binding.F90")
        if not os.path.exists(path):
            continue
        lines = _read(path).split("\n")
        for p in read_procedures(path):
            if not p.bind_name or p.bind_name in cnames:
                continue
            decls, _ = declarations(p)
            row = [f"[c.{p.bind_name}]", f"concern = {_q(c)}"]
            note = _comment_above(lines, p)
            if note:
                row.append(f"note = {_q(note)}")
            row.append(f"args = {_q(', '.join(p.args))}")
            if p.result:
                row.append(f"result = {_q(p.result)}")
            rows[c].append("\n".join(row + _array("decl", decls)))
            cnames.add(p.bind_name)
    includes = {"module": _read(os.path.join(fortran, "RPN_COMM_interfaces.inc")),
                "include": _read(os.path.join(fortran, "RPN_COMM_include_interfaces.inc")),
                "RPN_MPI": _read(os.path.join(fortran, "RPN_MPI_interfaces.hf"))}
    for c in table.concerns:
        if not os.path.isdir(folder(c)):
            continue
        for base in sorted(os.listdir(folder(c))):
            if not base.endswith(".F90") or base in (f"{c}_binding.F90", f"{c}_direct.F90"):
                continue
            path = os.path.join(folder(c), base)
            for p in read_procedures(path):
                if p.module is not None or table.routine(p.name):
                    continue
                decls, no_arg_check = declarations(p)
                declared, generic = [], None
                for where, text in includes.items():
                    if re.search(rf"^\s*(\w+\s+)?(subroutine|function)\s+{p.name}\s*\(", text, re.M | re.I):
                        declared.append(where)
                    elif where == "include" and re.search(rf"external\s*::.*\b{p.name}\b", text, re.I):
                        declared.append("external")
                    for m in re.finditer(r"^\s*interface\s+(\w+)\s*$(.*?)^\s*end\s+interface", text, re.M | re.S | re.I):
                        if re.search(rf"\b{p.name}\b", m.group(2), re.I):
                            generic = m.group(1)
                code = " ".join(st.text for st in p.body if st.kind == "code")
                calls = []
                for name in re.findall(r"\b(rpncomm_\w+)\s*\(", code, re.I):
                    if name.lower() in cnames and name.lower() not in calls:
                        calls.append(name.lower())
                row = [f"[routine.{p.name}]", f"concern = {_q(c)}", f"declared = [{', '.join(_q(d) for d in declared)}]"]
                if generic:
                    row.append(f"generic = {_q(generic)}")
                row += _array("calls", calls)
                row.append(f"args = {_q(', '.join(p.args))}")
                if p.result:
                    row.append(f"result = {_q(p.result)}")
                if no_arg_check:
                    row.append(f"no_arg_check = [{', '.join(_q(n) for n in no_arg_check)}]")
                rows[c].append("\n".join(row + _array("decl", decls)))
    return rows


def insert(text, order, rows):
    """The table's text with the rows at the end of their concern's part (before the next part)."""
    for i, c in enumerate(order):
        if not rows.get(c):
            continue
        block = "\n\n".join(rows[c]) + "\n\n"
        after = order[i + 1:] + ["generics"]
        m = None
        for nxt in after:
            m = re.search(rf"^# =+ {nxt}\n", text, re.M)
            if m:
                break
        at = m.start() if m else len(text)
        text = text[:at] + block + text[at:]
    return text


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--from", dest="tree", required=True, help="a folder holding the hand-written fortran/")
    ap.add_argument("--table", default=tbl.TABLE)
    ap.add_argument("--write", action="store_true", help="insert the rows into the table")
    args = ap.parse_args(argv)
    try:
        table = tbl.load(args.table)
        rows = new_rows(table, args.tree)
    except (FortranError, OSError) as e:
        print(f"adopt_rows: {e}", file=sys.stderr)
        return 2
    count = sum(len(r) for r in rows.values())
    for c, rs in rows.items():
        for r in rs:
            print(r + "\n")
    if args.write and count:
        with open(args.table, encoding="utf-8") as f:
            text = f.read()
        with open(args.table, "w", encoding="utf-8") as f:
            f.write(insert(text, list(table.concerns), rows))
    print(f"adopt_rows: {count} row(s){' written into ' + args.table if args.write and count else ''}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
