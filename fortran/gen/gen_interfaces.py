#!/usr/bin/env python3
"""Writes the Fortran interfaces of the library from fortran/routines.toml.

The table is the one source of every signature (its header lists its rows). From it:

    fortran/RPN_COMM_interfaces.inc          interface bodies of the routines declared "module"
    fortran/RPN_COMM_include_interfaces.inc  those declared "include", the `integer, external` ones
    fortran/RPN_MPI_interfaces.hf            those declared "RPN_MPI", with the RPN_MPI_Loc type
    fortran/RPN_COMM_interfaces.hf           those declared "hf", buffers of any type per compiler
    fortran/<concern>/<concern>_binding.F90  the bind(C) interfaces of the [c.*] rows, a module each
    fortran/<concern>/<concern>_direct.F90   the routines of body = "direct", whole (direct_call)

Each interface body has the row's header, `use ISO_C_BINDING, only:` the C kinds it names (an
include; a bind(C) module has them by host association: `import ::`), `import ::` the derived
types it names, `implicit none`, the NO_ARG_CHECK directives and the row's declarations. The
generic interfaces (`generic = NAME` of the rows) follow the bodies of their file.

    gen_interfaces.py [--table TOML] [--root DIR]   write the files under DIR (only those that change)
    gen_interfaces.py --check [--table TOML] [--root DIR]  exit 1, with a diff, if a file is stale
"""

import argparse
import difflib
import os
import re
import sys

import table as tbl
from fortran_source import FortranError

ROOT = tbl.ROOT
INTERFACES = "fortran/RPN_COMM_interfaces.inc"
INCLUDE_ONLY = "fortran/RPN_COMM_include_interfaces.inc"
RPN_MPI = "fortran/RPN_MPI_interfaces.hf"
ALL_HF = "fortran/RPN_COMM_interfaces.hf"
# the preprocessor macro of ALL_HF: 1 where the compiler has assumed-type dummies (type(*))
ASSUMED_TYPE = "RPN_COMM_HF_ASSUMED_TYPE_"
# the routines of the original 4.6.12's RPN_COMM_interfaces.hf taking buffers of any type that the
# library does not provide (not in the table), named in ALL_HF's header (none now)
HF_OMITTED = ()
WIDTH = 100  # longest generated line; longer statements are continued with '&'

C_NAME = re.compile(r"\bC_[A-Z0-9_]+\b", re.IGNORECASE)
DERIVED = re.compile(r"\btype\s*\(\s*(\w+)\s*\)", re.IGNORECASE)
GENERATED = "GENERATED from fortran/routines.toml by fortran/gen/gen_interfaces.py: do not edit."


def binding_path(concern):
    """The bind(C) module of a Concern."""
    return f"{concern.path}/{concern.name}_binding.F90"


def _split_top(text):
    """`text` split after the commas outside parentheses and strings (the pieces keep their comma)."""
    parts, depth, quote, start = [], 0, None, 0
    for i, c in enumerate(text):
        if quote:
            quote = None if c == quote else quote
        elif c in "'\"":
            quote = c
        elif c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(text[start:i + 1])
            start = i + 1
    parts.append(text[start:])
    return [p.strip() for p in parts if p.strip()]


def wrap(text, indent, cont=None):
    """One statement as lines of at most WIDTH characters, continued with '&' after a comma;
    continuation lines start `cont` spaces in (default: indent + 4)."""
    return wrap_pieces(_split_top(text), indent, cont)


def wrap_pieces(pieces, indent, cont=None):
    """The pieces joined by spaces as lines of at most WIDTH characters (if they allow it),
    continued with '&' between two pieces."""
    cont = indent + 4 if cont is None else cont
    lines, line = [], " " * indent
    for piece in pieces:
        candidate = line + ("" if line.endswith(" ") or not line.strip() else " ") + piece
        if len(candidate) > WIDTH - 2 and line.strip():
            lines.append(line + " &")
            line = " " * cont + piece
        else:
            line = candidate
    lines.append(line)
    return lines


def _first_seen(names):
    seen = []
    for n in names:
        if n not in seen:
            seen.append(n)
    return seen


def interface_body(row, c_kinds="use", indent=4, per_compiler=False):
    """The lines of the interface body of a row. c_kinds: 'use' (`use ISO_C_BINDING, only:`) or
    'import' (the kinds come from the host, as in a module that uses ISO_C_BINDING). per_compiler:
    the type(*) dummies are declared `logical` where the macro ASSUMED_TYPE is 0 (a compiler
    without assumed type), which get an IGNORE_TKR directive instead of NO_ARG_CHECK."""
    texts = [d.statement.text for d in row.decls]
    joined = " ".join(texts)
    kinds = _first_seen(n.upper() for n in C_NAME.findall(joined))
    derived = _first_seen(n for n in DERIVED.findall(joined) if n != "*" and not n.upper().startswith("C_"))
    opening = f"{row.kind} {row.name}("
    pieces = [a + "," for a in row.args[:-1]] + [(row.args[-1] if row.args else "") + ")"]
    pieces[0] = opening + pieces[0]
    if row.result and row.result.lower() != row.name.lower():
        pieces.append(f"result({row.result})")
    if row.bind_name:
        pieces.append(f"bind(C, name='{row.bind_name}')")
    body = wrap_pieces(pieces, indent, indent + len(opening))
    inner = indent + 2
    imports = list(derived)
    if kinds and c_kinds == "use":
        body.append(" " * inner + "use ISO_C_BINDING, only: " + ", ".join(kinds))
    elif kinds:
        imports = kinds + imports
    if imports:
        body.extend(wrap("import :: " + ", ".join(imports), inner))
    body.append(" " * inner + "implicit none")
    per_compiler = per_compiler and bool(row.no_arg_check)
    if per_compiler:
        body += [f"#if {ASSUMED_TYPE}", "!GCC$ ATTRIBUTES NO_ARG_CHECK :: " + ", ".join(row.no_arg_check),
                 "#else", "!DIR$ IGNORE_TKR " + ", ".join(row.no_arg_check), "#endif"]
    elif row.no_arg_check:
        # gfortran reads its directives from column 1
        body.append("!GCC$ ATTRIBUTES NO_ARG_CHECK :: " + ", ".join(row.no_arg_check))
    for d, text in zip(row.decls, texts):
        if per_compiler and re.sub(r"\s+", "", d.type_spec).lower() == "type(*)":
            body += [f"#if {ASSUMED_TYPE}"] + wrap(text, inner) + ["#else"]
            body += wrap(re.sub(r"^\s*type\s*\(\s*\*\s*\)", "logical", text, flags=re.I), inner) + ["#endif"]
        else:
            body.extend(wrap(text, inner))
    body.append(" " * indent + f"end {row.kind} {row.name}")
    return body


def _comment(text, indent):
    """`text` as comment lines of at most WIDTH characters."""
    lines, line = [], ""
    for word in text.split():
        if line and len(" " * indent + "! " + line + " " + word) > WIDTH:
            lines.append(" " * indent + "! " + line)
            line = word
        else:
            line = f"{line} {word}".strip()
    if line:
        lines.append(" " * indent + "! " + line)
    return lines


def _section(title):
    return f"  ! {'-' * max(70 - len(title), 3)} {title}"


def _bodies_by_concern(table, rows, c_kinds="use", per_compiler=False):
    """The interface bodies of `rows`, in the table's order, a section per concern
    (`interface_body`'s c_kinds and per_compiler)."""
    out = []
    for concern in table.concerns.values():
        mine = [r for r in rows if r.concern == concern.name]
        if not mine:
            continue
        out += [_section(concern.title), ""]
        for r in mine:
            if r.note:
                out += _comment(r.note, 4)
            out += interface_body(r, c_kinds, per_compiler=per_compiler) + [""]
    return out


def _generics(table, rows):
    """The generic interfaces whose specifics are among `rows`."""
    out = []
    for name, note in table.generics.items():
        specifics = [r.name for r in rows if r.generic == name]
        if not specifics:
            continue
        out.append("")
        if note:
            out += _comment(note, 2)
        out.append(f"  interface {name}")
        out += wrap("procedure :: " + ", ".join(specifics), 4)
        out.append(f"  end interface {name}")
    return out


def interfaces_inc(table):
    rows = [r for r in table.routines.values() if "module" in r.declared and table.concerns[r.concern].include is None]
    out = [
        "! RPN_COMM_interfaces.inc -- explicit interfaces of the rpncomm-windows routines",
        "!",
        f"! {GENERATED}",
        "! Change the table instead; make rewrites this file and `make check` fails while the committed",
        "! copy is stale.",
        "!",
        "! Requires RPN_COMM_types.inc to have been included first in the same scope (RPN_COMM.inc does",
        "! that; so does the module rpn_comm_windows). Dummy arguments are those of the original",
        "! RPN_COMM, so existing calls compile unchanged.",
        "",
        "  interface",
        "",
    ]
    out += _bodies_by_concern(table, rows)
    out.append("  end interface")
    out += _generics(table, rows)
    return "\n".join(out) + "\n"


def concern_inc(table, concern):
    """The include file of a concern's own "module" routines (its `include`)."""
    rows = [r for r in table.routines.values() if "module" in r.declared and r.concern == concern.name]
    out = _comment(f"{concern.include} -- the interfaces of the routines of {concern.binding}", 0)
    out += [
        "!",
        f"! {GENERATED}",
        "!",
        "! Included by RPN_COMM.inc after RPN_COMM_types.inc, and by the module rpn_comm_windows; the",
        f"! routines are in {concern.path}/.",
        "",
        "  interface",
        "",
    ]
    for r in rows:
        if r.note:
            out += _comment(r.note, 4)
        out += interface_body(r) + [""]
    out.append("  end interface")
    out += _generics(table, rows)
    return "\n".join(out) + "\n"


def include_interfaces_inc(table):
    rows = [r for r in table.routines.values() if "include" in r.declared]
    externals = [r for r in table.routines.values() if "external" in r.declared]
    out = [
        "! RPN_COMM_include_interfaces.inc -- interfaces that the include gives and the module does not",
        "!",
        f"! {GENERATED}",
        "!",
        "! Included by RPN_COMM.inc (not by the module rpn_comm_windows, whose users may declare these",
        "! names themselves): the routines the original RPN_COMM's own include declares, with the",
        "! original's interfaces, so that code written for the original (under implicit none) compiles",
        "! unchanged. The routines taking buffers of any type (RPN_COMM_send, recv, isend, irecv,",
        "! waitall_nostat, reduce, gather, ...) are not declared, as in the original: they are called",
        "! through implicit interfaces.",
        "",
    ]
    for r in externals:
        decl = r.declaration_of(r.result)
        out.append("  ! as in the original's include: a function taking arrays of any type, without an interface")
        out.append(f"  {decl.type_spec}, external :: {r.name}")
    out += ["", "  interface", ""]
    out += _bodies_by_concern(table, rows)
    out.append("  end interface")
    out += _generics(table, rows)
    return "\n".join(out) + "\n"


def rpn_mpi_hf(table):
    rows = [r for r in table.routines.values() if "RPN_MPI" in r.declared]
    out = [
        "! RPN_MPI_interfaces.hf -- included by RPN_MPI.hf: the RPN_MPI address type and the interfaces of",
        "! the RPN_MPI routines the library provides (docs/gem.md). Needs ISO_C_BINDING in scope.",
        f"! {GENERATED}",
        "! A routine RPN_COMM.inc declares too is left out where IN_<its name> is defined.",
        "",
        "  type, bind(C) :: RPN_MPI_Loc       ! a wrapped array address (LoC gives one)",
        "    type(C_PTR) :: p",
        "  end type RPN_MPI_Loc",
        "",
        "  interface",
        "",
    ]
    for r in rows:
        guard = "include" in r.declared
        if guard:
            out.append(f"#if ! defined(IN_{r.name})")
        out += interface_body(r, c_kinds="import")
        if guard:
            out.append("#endif")
        out.append("")
    out.append("  end interface")
    out += _generics(table, rows)
    return "\n".join(out) + "\n"


def interfaces_hf(table):
    """The include a program written for the original 4.6.12 includes for explicit interfaces of
    every routine, those taking buffers of any type included (its own file of that name)."""
    # (4.6.12's dummy names where they differ from 4.6.3's, for keyword calls: hf_names)
    rows = [r.renamed(r.hf_names) for r in table.routines.values() if "hf" in r.declared]
    buffers = [r.name for r in rows if r.no_arg_check]
    out = [
        "! RPN_COMM_interfaces.hf -- explicit interfaces of the RPN_COMM routines, those taking buffers of",
        "! any type, kind and rank included",
        "!",
        f"! {GENERATED}",
        "!",
        "! The include of this name of the original RPN_COMM 4.6.12, for the routines the library has, so",
        "! that a program written for it compiles with its interfaces checked. Use it with the C",
        "! preprocessor (free form), after RPN_COMM_types.inc (its handle types), in a scope that neither",
        "! includes RPN_COMM.inc nor uses the module rpn_comm_windows (they declare some of these names):",
        "!       include 'RPN_COMM_constants.inc'",
        "!       include 'RPN_COMM_types.inc'",
        "! #include <RPN_COMM_interfaces.hf>",
        "!",
        "! A buffer of any type is an assumed-type, assumed-size dummy, type(*), dimension(*), where the",
        "! compiler has assumed type (gfortran, with NO_ARG_CHECK so that a scalar passes too; Flang,",
        "! which takes a scalar as it is); other compilers get logical, dimension(*) and an IGNORE_TKR",
        "! directive.",
    ]
    out += _comment(f"The routines taking such buffers ({len(buffers)}): {', '.join(buffers)}.", 0)
    if HF_OMITTED:
        out += _comment("Not declared: the routines of the original's file that the library does not provide, "
                        f"among them those taking buffers: {', '.join(HF_OMITTED)}.", 0)
    out += [
        "",
        "#if defined(__GFORTRAN__) || defined(__flang__)",
        f"#define {ASSUMED_TYPE} 1",
        "#else",
        f"#define {ASSUMED_TYPE} 0",
        "#endif",
        "",
        "  interface",
        "",
    ]
    out += _bodies_by_concern(table, rows, per_compiler=True)
    out.append("  end interface")
    out += _generics(table, rows)
    out += ["", f"#undef {ASSUMED_TYPE}"]
    return "\n".join(out) + "\n"


def binding_f90(table, concern):
    rows = [r for r in table.cfuncs.values() if r.concern == concern.name]
    handles = _first_seen(n for r in rows for d in r.decls for n in DERIVED.findall(d.statement.text)
                          if n.lower().startswith("rpncomm_"))
    out = _comment(f"{concern.name}_binding.F90 -- bind(C) interfaces of {concern.binding}", 0)
    out += ["!", f"! {GENERATED}"]
    out += [
        "!",
        "! The C functions of the Rust core's C ABI (include/rpncomm_windows.h, cbindgen from src/ffi) that",
        f"! the routines of {concern.path}/ call; fortran/gen/check_c_binding.py (make check) checks",
        "! every interface against that header. Conventions: status 0 = RPN_COMM_OK, -1 = RPN_COMM_ERROR;",
        "! strings are (pointer, length) without NUL; logicals are int 0/1; handles by reference.",
        "",
        f"module rpn_comm_{concern.name}_binding",
        "  use ISO_C_BINDING",
    ]
    if handles:
        out += wrap("use rpn_comm_windows_types, only: " + ", ".join(handles), 2)
    out.append("  implicit none")
    if handles:
        out += wrap("private :: " + ", ".join(handles), 2)
    if concern.binding_preamble.strip():
        out += concern.binding_preamble.rstrip("\n").split("\n")
    out += ["", "  interface", ""]
    for r in rows:
        if r.note:
            out += _comment(r.note, 4)
        out += interface_body(r, c_kinds="import") + [""]
    out += ["  end interface", "", f"end module rpn_comm_{concern.name}_binding"]
    return "\n".join(out) + "\n"


def _is(decl, spec, *attrs, array=None, name=None):
    """Whether `decl` (of entity `name`) has the type `spec` (lower case, no spaces), the attributes
    `attrs` among its own, and is an array or not (None: either)."""
    if re.sub(r"\s+", "", decl.type_spec).lower() != spec:
        return False
    own = [re.sub(r"\s+", "", a).lower() for a in decl.attrs]
    if not all(a in own for a in attrs):
        return False
    if array is not None:
        is_array = any(a.startswith("dimension(") for a in own) or decl.entities[name.lower()].startswith("(")
        return is_array == array
    return True


def _intent(decl):
    found = [a.lower() for a in decl.attrs if a.lower().replace(" ", "").startswith("intent(")]
    return found[0].replace(" ", "")[7:-1] if found else None


def direct_call(row, cfunc):
    """(the variable receiving the C function's status, [the C call's argument expressions]) of a
    routine whose body is the one call of `cfunc`; TableError saying why when its arguments cannot
    be passed by these rules (in order, each routine argument to the next C argument(s)):
        character(len=*), intent(IN)       -> the characters and len(s, kind=C_SIZE_T)
        integer, intent(IN) scalar          -> int(x, C_INT) (C: integer(C_INT), value)
        logical, intent(IN) scalar          -> merge(1_C_INT, 0_C_INT, x) (C: integer(C_INT), value)
        the same type(...) (a handle, type(*), type(C_PTR)) passed the same way, or an integer
        passed by reference to integer(C_INT) of the same intent and rank -> x itself
    The status goes to a function's integer result, or else to the last argument, ierr."""
    where = row.where()
    args = list(row.args)
    if row.result:
        target = row.result
        if not _is(row.declaration_of(target), "integer"):
            raise tbl.TableError(f"{where}: a direct body returns the C status: the result must be integer")
    else:
        if not args or args[-1].lower() != "ierr" or _intent(row.declaration_of(args[-1])) != "out":
            raise tbl.TableError(f"{where}: a direct body returns the C status in its last argument, ierr, intent(OUT)")
        target = args.pop()
    exprs, j = [], 0
    cargs = cfunc.args
    for a in args:
        f = row.declaration_of(a)
        c = cfunc.declaration_of(cargs[j]) if j < len(cargs) else None
        cname = cargs[j] if c is not None else None
        if c is None:
            raise tbl.TableError(f"{where}: a direct body: {cfunc.name} has no argument left for {a}")
        if _is(f, "character(len=*)", "intent(in)", array=False, name=a):
            nxt = cfunc.declaration_of(cargs[j + 1]) if j + 1 < len(cargs) else None
            if not (_is(c, "character(kind=c_char)") and nxt is not None and _is(nxt, "integer(c_size_t)", "value")):
                raise tbl.TableError(f"{where}: a direct body: the string {a} needs characters and a C_SIZE_T length in {cfunc.name}")
            exprs += [a, f"len({a}, kind=C_SIZE_T)"]
            j += 2
            continue
        by_value = _is(c, "integer(c_int)", "value", array=False, name=cname)
        if _is(f, "integer", "intent(in)", array=False, name=a) and by_value:
            exprs.append(f"int({a}, C_INT)")
        elif _is(f, "logical", "intent(in)", array=False, name=a) and by_value:
            exprs.append(f"merge(1_C_INT, 0_C_INT, {a})")
        elif (re.sub(r"\s+", "", f.type_spec).lower() == re.sub(r"\s+", "", c.type_spec).lower() and f.type_spec.lower().startswith("type")
              and ("value" in f.attrs) == ("value" in c.attrs) and _intent(f) == _intent(c)):
            exprs.append(a)
        elif (_is(f, "integer") and _is(c, "integer(c_int)") and "value" not in c.attrs and _intent(f) == _intent(c)
              and _is(f, "integer", array=True, name=a) == _is(c, "integer(c_int)", array=True, name=cname)):
            exprs.append(a)
        else:
            raise tbl.TableError(f"{where}: a direct body cannot pass {a} ({f.statement.text}) to {cfunc.name}'s {cname} ({c.statement.text})")
        j += 1
    if j != len(cargs):
        raise tbl.TableError(f"{where}: a direct body passes {j} of the {len(cargs)} arguments of {cfunc.name}")
    return target, exprs


def direct_routine(table, row):
    """The lines of a routine whose body is generated: its one C call, the status returned."""
    cfunc = table.cfuncs[row.calls[0]]
    target, exprs = direct_call(row, cfunc)
    texts = [d.statement.text for d in row.decls]
    call = f"{target} = {cfunc.name}({', '.join(exprs)})"
    # the kinds of the declarations and of the call, literals' kinds (1_C_INT) included
    kinds = _first_seen(n.upper() for n in re.findall(r"(?<![A-Za-z0-9])C_[A-Z0-9_]+\b", " ".join(texts + [call]), re.I))
    handles = _first_seen(n for n in DERIVED.findall(" ".join(texts)) if n.lower().startswith("rpncomm_"))
    out = _comment(row.note, 0) if row.note else []
    opening = f"{row.kind} {row.name}("
    pieces = [a + "," for a in row.args[:-1]] + [(row.args[-1] if row.args else "") + ")"]
    pieces[0] = opening + pieces[0]
    if row.result and row.result.lower() != row.name.lower():
        pieces.append(f"result({row.result})")
    out += wrap_pieces(pieces, 0, len(opening))
    if kinds:
        out.append("  use ISO_C_BINDING, only: " + ", ".join(kinds))
    if handles:
        out += wrap("use rpn_comm_windows_types, only: " + ", ".join(handles), 2)
    out.append(f"  use rpn_comm_{cfunc.concern}_binding, only: {cfunc.name}")
    out.append("  implicit none")
    if row.no_arg_check:
        out.append("!GCC$ ATTRIBUTES NO_ARG_CHECK :: " + ", ".join(row.no_arg_check))
    for text in texts:
        out += wrap(text, 2)
    out += wrap_pieces([f"{target} = {cfunc.name}(" + exprs[0] + ","] + [e + "," for e in exprs[1:-1]] + [exprs[-1] + ")"]
                       if len(exprs) > 1 else [f"{call}"], 2, 2 + len(f"{target} = {cfunc.name}("))
    out.append(f"end {row.kind} {row.name}")
    return out


def direct_path(concern):
    """The generated routines of a Concern."""
    return f"{concern.path}/{concern.name}_direct.F90"


def direct_f90(table, concern):
    rows = [r for r in table.routines.values() if r.concern == concern.name and r.body == "direct"]
    out = _comment(f"{concern.name}_direct.F90 -- the routines of {concern.binding} whose body is one C call", 0)
    out += [
        "!",
        f"! {GENERATED}",
        "!",
        "! External procedures with the original RPN_COMM's names and dummy arguments (their rows say",
        "! body = \"direct\"): each passes its arguments to one C function of the Rust core, which checks",
        "! them and reports errors, and returns its status (fortran/gen/gen_interfaces.py, direct_call,",
        "! has the conversions). The other routines of the concern are written by hand beside this file.",
        "",
    ]
    for r in rows:
        out += direct_routine(table, r) + [""]
    return "\n".join(out)


def generate(table):
    """{path relative to the root: text} of every generated file."""
    files = {INTERFACES: interfaces_inc(table), INCLUDE_ONLY: include_interfaces_inc(table), RPN_MPI: rpn_mpi_hf(table),
             ALL_HF: interfaces_hf(table)}
    for concern in table.concerns.values():
        if concern.include:
            files[f"fortran/{concern.include}"] = concern_inc(table, concern)
    # a concern's bind(C) module and generated routines, where it has rows for them
    for concern in table.concerns.values():
        if any(r.concern == concern.name for r in table.cfuncs.values()):
            files[binding_path(concern)] = binding_f90(table, concern)
    for concern in table.concerns.values():
        if any(r.concern == concern.name and r.body == "direct" for r in table.routines.values()):
            files[direct_path(concern)] = direct_f90(table, concern)
    return files


def _read(path):
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except FileNotFoundError:
        return None


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--table", default=tbl.TABLE, help="the table (default: %(default)s)")
    ap.add_argument("--root", default=ROOT, help="where the generated files are (default: the source tree)")
    ap.add_argument("--check", action="store_true", help="do not write: exit 1 if a generated file differs")
    args = ap.parse_args(argv)
    try:
        files = generate(tbl.load(args.table))
    except (FortranError, OSError) as e:
        print(f"gen_interfaces: {e}", file=sys.stderr)
        return 2
    stale = 0
    for rel, text in files.items():
        path = os.path.join(args.root, rel)
        old = _read(path)
        if args.check:
            if old != text:
                stale += 1
                print(f"gen_interfaces: {path} differs from what {args.table} generates:", file=sys.stderr)
                diff = difflib.unified_diff((old or "").splitlines(True), text.splitlines(True), path, "generated")
                sys.stderr.writelines(diff)
        elif old != text:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path + ".tmp", "w", encoding="utf-8") as f:
                f.write(text)
            os.replace(path + ".tmp", path)
            print(f"gen_interfaces: wrote {path}")
    if args.check:
        if stale:
            print("gen_interfaces: run `make` (or fortran/gen/gen_interfaces.py) and commit the result", file=sys.stderr)
            return 1
        print(f"gen_interfaces: the {len(files)} generated files are up to date with {args.table}")
        return 0
    # up to date or rewritten: make must not run this again before the table changes
    os.utime(os.path.join(args.root, INTERFACES))
    return 0


if __name__ == "__main__":
    sys.exit(main())
