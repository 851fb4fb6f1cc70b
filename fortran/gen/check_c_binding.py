#!/usr/bin/env python3
"""Checks the Fortran bind(C) interfaces against the C header the Rust core exports.

    check_c_binding.py [--header H] [--fortran F90] [--types INC] [--constants INC]

For every procedure with bind(C) in F90 (default: every fortran/<concern>/<concern>_binding.F90,
generated from the [c.*] rows of fortran/routines.toml) the function of
the same C name must be in H (default include/rpncomm_windows.h, written by cbindgen from
src/ffi), with as many arguments, each of a compatible type passed the same way:

    C                          Fortran
    int, int32_t               integer(C_INT) or integer(C_INT32_T), value
    int64_t, size_t, double    integer(C_INT64_T), integer(C_SIZE_T), real(C_DOUBLE), value
    T * (T one of the above)   the same type without value (scalar or array)
    const char * + size_t      character(kind=C_CHAR) by reference, then integer(C_SIZE_T), value
    void *                     type(C_PTR), value (an address) or type(*) by reference (a buffer)
    any T * / T **             type(C_PTR), value / type(C_PTR) by reference
    struct rpncomm_handle *    type(<a handle type of RPN_COMM_types.inc>) by reference
    return int / double / void integer(C_INT) / real(C_DOUBLE) function / subroutine

A const pointer must not be intent(OUT)/(INOUT) and a non-const one not intent(IN). The handle
types of INC (default fortran/RPN_COMM_types.inc) must have the layout of struct rpncomm_handle,
and every integer #define of the header must have the same value in RPN_COMM_constants.inc.
Every function of the header must be bound once. Prints one line per mismatch ("file:line: ...")
and exits 1 if there is any.
"""

import argparse
import os
import re
import sys
import tomllib

import c_header
from fortran_source import FortranError, Statement, parse_declaration, read_procedures, read_statements

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
HEADER = os.path.join(ROOT, "include", "rpncomm_windows.h")


def _bindings():
    """The bind(C) module of each concern of fortran/routines.toml that has [c.*] rows."""
    with open(os.path.join(ROOT, "fortran", "routines.toml"), "rb") as f:
        table = tomllib.load(f)
    with_rows = {row.get("concern") for row in table.get("c", {}).values()}
    out = []
    for name, concern in table.get("concern", {}).items():
        if name in with_rows:
            folder = concern.get("folder", name)
            out.append(os.path.join(ROOT, "fortran", folder, f"{name}_binding.F90") if folder else
                       os.path.join(ROOT, "fortran", f"{name}_binding.F90"))
    return out


BINDINGS = _bindings()
TYPES = os.path.join(ROOT, "fortran", "RPN_COMM_types.inc")
CONSTANTS = os.path.join(ROOT, "fortran", "RPN_COMM_constants.inc")

# C scalar type -> the Fortran (type, kind) pairs that match it
SCALARS = {
    "int": {("integer", "C_INT"), ("integer", "C_INT32_T")},
    "int32_t": {("integer", "C_INT"), ("integer", "C_INT32_T")},
    "int64_t": {("integer", "C_INT64_T")},
    "size_t": {("integer", "C_SIZE_T")},
    "double": {("real", "C_DOUBLE")},
    "float": {("real", "C_FLOAT")},
    "bool": {("logical", "C_BOOL")},
    "char": {("character", "C_CHAR")},
}
# C field types that hold an address (the `p` of a handle)
ADDRESS_FIELDS = {"size_t", "uintptr_t"}


class Dummy:
    """A Fortran dummy argument (or function result) as the checker sees it."""

    def __init__(self, name, decl):
        self.name = name
        spec = decl.type_spec
        m = re.match(r"^(\w+|type)\s*(?:\((.*)\))?$", spec, re.I)
        self.type = m.group(1).lower()
        kind, length = None, None
        for part in [p.strip() for p in (m.group(2) or "").split(",") if p.strip()]:
            key, eq, val = part.partition("=")
            if not eq:
                kind = key.strip()
            elif key.strip().lower() == "kind":
                kind = val.strip()
            elif key.strip().lower() == "len":
                length = val.strip()
        if kind and kind != "*":
            # ISO_C_BINDING kinds in upper case, derived type names in lower case
            kind = kind.upper() if kind.upper().startswith("C_") else kind.lower()
        if length not in (None, "1"):
            kind = f"{kind}, len={length}"  # not a C char: matches nothing
        self.kind = kind
        self.value = "value" in decl.attrs
        intent = [a for a in decl.attrs if a.startswith("intent(")]
        self.intent = intent[0][7:-1] if intent else None
        self.array = any(a.startswith("dimension(") for a in decl.attrs) or decl.entities[name.lower()].startswith("(")
        self.lineno = decl.statement.lineno

    def __str__(self):
        kind = f"({self.kind})" if self.kind else ""
        extra = (", dimension" if self.array else "") + (", value" if self.value else "")
        extra += f", intent({self.intent})" if self.intent else ""
        return f"{self.type}{kind}{extra}"


def _type_is(dummy, pairs):
    return (dummy.type, dummy.kind) in pairs


def mismatch(c, f, handle_types):
    """Why the C parameter type `c` and the Fortran dummy `f` do not match (None if they do)."""
    if c.pointers == 0:
        if c.base not in SCALARS or c.base == "char":
            return f"C {c} by value is not supported by the checker"
        if not f.value:
            return f"C takes {c} by value, Fortran passes a reference (VALUE missing)"
        if f.array:
            return f"C takes one {c}, Fortran declares an array"
        if not _type_is(f, SCALARS[c.base]):
            return f"C {c}, Fortran {f}"
        return None
    if f.type == "type" and f.kind == "C_PTR":
        if f.value and c.pointers == 1:
            return None  # an address passed as a pointer
        if not f.value and c.pointers == 2:
            return None  # a pointer returned through a reference
        return f"C {c}, Fortran {f}: type(C_PTR) is `T *` by value or `T **` by reference"
    if c.pointers > 1:
        return f"C {c}: a pointer to a pointer needs type(C_PTR) by reference, Fortran {f}"
    if f.value:
        return f"C {c} is a pointer, Fortran passes the value (VALUE)"
    if c.base == "void":
        if not (f.type == "type" and f.kind == "*"):
            return f"C {c}, Fortran {f}: a void pointer needs type(*) or type(C_PTR), value"
    elif c.base == "rpncomm_handle":
        if not (f.type == "type" and f.kind in handle_types):
            return f"C {c}, Fortran {f}: a handle needs one of the types of RPN_COMM_types.inc"
    elif c.base in SCALARS:
        if not _type_is(f, SCALARS[c.base]):
            return f"C {c}, Fortran {f}"
    else:
        return f"C {c} is not supported by the checker"
    if c.const and f.intent in ("out", "inout"):
        return f"C {c} is const (not written), Fortran declares intent({f.intent})"
    if not c.const and f.intent == "in":
        return f"C {c} may be written through, Fortran declares intent(in)"
    return None


def _result_dummy(proc):
    """The Dummy of a function's result (a typed prefix `integer(C_INT) function f()` included)."""
    try:
        return Dummy(proc.result, proc.declaration_of(proc.result))
    except FortranError:
        m = re.match(r"^\s*(\w+\s*(?:\([^)]*\))?)\s+function\b", proc.header.text, re.I)
        if not m:
            raise
        st = proc.header
        decl = parse_declaration(Statement("code", f"{m.group(1)} :: {proc.result}", st.lines, st.lineno))
        return Dummy(proc.result, decl)


def check_procedure(proc, cfunc, handle_types):
    """The mismatches of one bind(C) interface with its C prototype, as 'line: message' strings."""
    out = []
    where = f"{proc.path}:{proc.header.lineno}: {proc.bind_name}"
    if len(proc.args) != len(cfunc.params):
        return [f"{where}: {len(proc.args)} arguments in Fortran, {len(cfunc.params)} in C (header line {cfunc.lineno})"]
    if cfunc.ret.base == "void" and cfunc.ret.pointers == 0:
        if proc.kind != "subroutine":
            out.append(f"{where}: C returns void, Fortran declares a function")
    elif proc.kind != "function":
        out.append(f"{where}: C returns {cfunc.ret}, Fortran declares a subroutine")
    elif cfunc.ret.pointers == 0 and cfunc.ret.base in SCALARS:
        res = _result_dummy(proc)
        if not _type_is(res, SCALARS[cfunc.ret.base]):
            out.append(f"{where}: C returns {cfunc.ret}, Fortran result {res}")
    elif cfunc.ret.pointers >= 1:
        res = _result_dummy(proc)
        if not (res.type == "type" and res.kind == "C_PTR"):
            out.append(f"{where}: C returns {cfunc.ret}, Fortran result {res} (type(C_PTR) expected)")
    else:
        out.append(f"{where}: C returns {cfunc.ret}: not supported by the checker")
    for i, (arg, cparam) in enumerate(zip(proc.args, cfunc.params), start=1):
        f = Dummy(arg, proc.declaration_of(arg))
        why = mismatch(cparam.ctype, f, handle_types)
        if why:
            out.append(f"{proc.path}:{f.lineno}: {proc.bind_name} argument {i} ({arg} / C {cparam.name}): {why}")
        if cparam.ctype.base == "char" and cparam.ctype.pointers == 1:
            nxt = cfunc.params[i] if i < len(cfunc.params) else None
            if nxt is None or nxt.ctype.base != "size_t" or nxt.ctype.pointers:
                out.append(f"{where}: C argument {i} ({cparam.name}) is a string without the size_t length after it")
    return out


def read_handle_types(path):
    """name (lower case) -> [Dummy of each component] of every `type, bind(C) :: rpncomm_*` of the file."""
    types, current = {}, None
    for st in read_statements(path):
        if st.kind != "code":
            continue
        m = re.match(r"^type\s*,\s*bind\s*\(\s*c\s*\)\s*::\s*(\w+)$", st.text, re.I)
        if m:
            current = m.group(1).lower()
            types[current] = []
        elif re.match(r"^end\s*type\b", st.text, re.I):
            current = None
        elif current is not None:
            decl = parse_declaration(st)
            if decl is not None:
                types[current].extend(Dummy(n, decl) for n in decl.entities)
    return types


def check_handle_layout(types_path, handle_types, structs):
    """Each handle type must have the fields of struct rpncomm_handle, in order, of matching types."""
    fields = structs.get("rpncomm_handle")
    if fields is None:
        return ["header: no struct rpncomm_handle"]
    out = []
    for name, comps in handle_types.items():
        ok = len(comps) == len(fields)
        for comp, field in zip(comps, fields):
            if field.ctype.pointers or field.ctype.base in ADDRESS_FIELDS:
                ok = ok and comp.type == "type" and comp.kind == "C_PTR"
            else:
                ok = ok and field.ctype.base in SCALARS and _type_is(comp, SCALARS[field.ctype.base])
        if not ok:
            c_fields = ", ".join(f"{f.ctype} {f.name}" for f in fields)
            f_fields = ", ".join(f"{c} {c.name}" for c in comps)
            out.append(f"{types_path}: type {name} ({f_fields}) does not have the layout of struct rpncomm_handle ({c_fields})")
    return out


def read_integer_parameters(path):
    """name (upper case) -> value of every `integer, parameter :: NAME = <integer literal>` of the file."""
    values = {}
    for st in read_statements(path):
        decl = parse_declaration(st)
        if decl is None or decl.type_spec.lower() != "integer" or "parameter" not in decl.attrs:
            continue
        for name, rest in decl.entities.items():
            m = re.match(r"^=\s*([-+]?\d+)$", rest)
            if m:
                values[name.upper()] = int(m.group(1))
    return values


def check(header=HEADER, binding=BINDINGS, types=TYPES, constants=CONSTANTS):
    """(number of bind(C) interfaces checked, [mismatch lines]); `binding`: a file or a list of files.
    A C function bound twice (in one file or two) is a mismatch: each has one Fortran interface; so
    is a function of the header that none binds, when `binding` is a list (all the bindings)."""
    bindings = [binding] if isinstance(binding, str) else list(binding)
    with open(header, encoding="utf-8") as f:
        htext = f.read()
    cfuncs = c_header.read_functions(htext)
    handle_types = read_handle_types(types)
    problems = check_handle_layout(types, handle_types, c_header.read_structs(htext))
    fvalues = read_integer_parameters(constants)
    for name, value in c_header.read_defines(htext).items():
        if name not in fvalues:
            problems.append(f"{constants}: {name} (= {value} in {header}) is not defined")
        elif fvalues[name] != value:
            problems.append(f"{constants}: {name} = {fvalues[name]}, {value} in {header}")
    procs = [p for path in bindings for p in read_procedures(path) if p.bind_name]
    seen = {}
    for proc in procs:
        if proc.bind_name in seen:
            problems.append(f"{proc.path}:{proc.header.lineno}: {proc.bind_name} already bound at {seen[proc.bind_name]}")
            continue
        seen[proc.bind_name] = f"{proc.path}:{proc.header.lineno}"
        cfunc = cfuncs.get(proc.bind_name)
        if cfunc is None:
            problems.append(f"{proc.path}:{proc.header.lineno}: bind(C, name='{proc.bind_name}'): no such function in {header}")
            continue
        problems.extend(check_procedure(proc, cfunc, handle_types))
    if not isinstance(binding, str):
        for name, cfunc in cfuncs.items():
            if name not in seen:
                problems.append(f"{header}:{cfunc.lineno}: {name} has no bind(C) interface (no [c.{name}] row in fortran/routines.toml)")
    return len(procs), problems


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--header", default=HEADER)
    ap.add_argument("--fortran", nargs="+", default=BINDINGS, help="the files of bind(C) interfaces")
    ap.add_argument("--types", default=TYPES, help="the handle types")
    ap.add_argument("--constants", default=CONSTANTS, help="the integer constants")
    args = ap.parse_args(argv)
    try:
        n, problems = check(args.header, args.fortran, args.types, args.constants)
    except (FortranError, OSError) as e:
        print(f"check_c_binding: {e}", file=sys.stderr)
        return 2
    for p in problems:
        print(p)
    verdict = f"{len(problems)} mismatch(es)" if problems else "all match"
    print(f"check_c_binding: {n} bind(C) interfaces of {len(args.fortran)} files against {args.header}: {verdict}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
