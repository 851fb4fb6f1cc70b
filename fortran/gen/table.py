"""Reading fortran/routines.toml, the one table of the Fortran layer's signatures.

The table's own header says what its rows hold and what is generated from them. This module loads
it (tomllib: Python 3.11, no other package), parses every declaration with fortran_source and
refuses a row the generators or checkers would misread: an argument declared twice or not at
all, a declaration of something that is not an argument, an unknown concern, a call of a C
function without a row. Each message names the row.
"""

import os
import re
import tomllib
from dataclasses import dataclass, field, replace

from fortran_source import FortranError, Statement, parse_declaration

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
TABLE = os.path.join(ROOT, "fortran", "routines.toml")

# where a routine's interface is written (see the table's header)
DECLARED = ("module", "include", "external", "RPN_MPI", "hf")
# how a routine's body is written: by hand in fortran/<concern>/, or generated (one C call)
BODIES = ("hand", "direct")


class TableError(FortranError):
    """A row of the table that cannot be used; the message names it."""


@dataclass
class Row:
    """A [c.NAME] row (a C function, `bind_name` set) or a [routine.NAME] row (a public routine)."""

    name: str
    concern: str
    args: list  # dummy argument names, in order
    result: str  # a function's result variable; None for a subroutine
    decls: list  # Declaration of each `decl` text, in order
    note: str = ""
    bind_name: str = None  # the C name of a [c.*] row
    declared: list = field(default_factory=list)
    generic: str = None
    calls: list = field(default_factory=list)
    no_arg_check: list = field(default_factory=list)
    body: str = "hand"
    hf_names: dict = field(default_factory=dict)  # argument -> its name in RPN_COMM_interfaces.hf

    @property
    def kind(self):
        return "function" if self.result else "subroutine"

    def where(self):
        return f"routines.toml: [{'c' if self.bind_name else 'routine'}.{self.name}]"

    def renamed(self, names):
        """This row with its dummy arguments renamed (`names`: lower-case name -> new name), in
        its argument list, its declarations and its no_arg_check."""
        if not names:
            return self
        new = lambda a: names.get(a.lower(), a)  # noqa: E731
        pattern = re.compile(r"\b(" + "|".join(map(re.escape, names)) + r")\b", re.IGNORECASE)
        decls = []
        for d in self.decls:
            text = pattern.sub(lambda m: names[m.group(1).lower()], d.statement.text)
            decls.append(parse_declaration(Statement("code", text, [text], d.statement.lineno)))
        return replace(self, args=[new(a) for a in self.args], decls=decls,
                       no_arg_check=[new(a) for a in self.no_arg_check], hf_names={})

    def declaration_of(self, name):
        """The Declaration that declares `name` (one, checked at load)."""
        for d in self.decls:
            if name.lower() in d.entities:
                return d
        raise TableError(f"{self.where()}: {name} is not declared")


@dataclass
class Concern:
    name: str
    title: str  # the section title in the include files
    binding: str  # what its bind(C) module binds, for the module's header
    binding_preamble: str = ""
    folder: str = None  # its folder under fortran/ ("" for fortran/ itself); default: its name
    include: str = None  # the include file of its "module" routines' interfaces (default RPN_COMM_interfaces.inc)

    @property
    def path(self):
        """Its folder, relative to the source tree: fortran/NAME, or fortran."""
        return "fortran" if self.folder == "" else f"fortran/{self.folder or self.name}"


@dataclass
class Table:
    path: str
    concerns: dict  # name -> Concern, in order
    cfuncs: dict  # C name -> Row, in order
    routines: dict  # routine name -> Row, in order
    generics: dict  # generic name -> note

    def routine(self, name):
        """The routine row named `name` in any case, or None."""
        return self._lower.get(name.lower())

    def __post_init__(self):
        self._lower = {n.lower(): r for n, r in self.routines.items()}


def _strings(where, value, what):
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise TableError(f"{where}: {what} must be a list of strings")
    return value


def _row(kind, name, fields, concerns):
    where = f"routines.toml: [{kind}.{name}]"
    known = {"concern", "args", "result", "decl", "note"}
    known |= {"declared", "generic", "calls", "no_arg_check", "body", "hf_names"} if kind == "routine" else set()
    extra = set(fields) - known
    if extra:
        raise TableError(f"{where}: unknown key(s) {', '.join(sorted(extra))}")
    for key in ("concern", "args", "decl"):
        if key not in fields:
            raise TableError(f"{where}: no {key}")
    concern = fields["concern"]
    if concern not in concerns:
        raise TableError(f"{where}: concern '{concern}' has no [concern.{concern}]")
    args = [a.strip() for a in fields["args"].split(",") if a.strip()]
    result = fields.get("result")
    decls = []
    for i, text in enumerate(_strings(where, fields["decl"], "decl"), start=1):
        d = parse_declaration(Statement("code", text, [text], i))
        if d is None:
            raise TableError(f"{where}: decl {i} is not a declaration with '::': {text}")
        decls.append(d)
    wanted = [a.lower() for a in args] + ([result.lower()] if result else [])
    if len(set(wanted)) != len(wanted):
        raise TableError(f"{where}: an argument named twice (or the result named as an argument)")
    declared = {}
    for d in decls:
        for ent in d.entities:
            if ent not in wanted:
                raise TableError(f"{where}: '{ent}' is declared but is neither an argument nor the result")
            if ent in declared:
                raise TableError(f"{where}: '{ent}' is declared twice")
            declared[ent] = d
    missing = [w for w in wanted if w not in declared]
    if missing:
        raise TableError(f"{where}: no declaration of {', '.join(missing)}")
    row = Row(name, concern, args, result, decls, note=fields.get("note", ""))
    if kind == "c":
        row.bind_name = name
        return row
    row.declared = _strings(where, fields.get("declared", []), "declared")
    for d in row.declared:
        if d not in DECLARED:
            raise TableError(f"{where}: declared '{d}' is none of {', '.join(DECLARED)}")
    row.generic = fields.get("generic")
    row.calls = _strings(where, fields.get("calls", []), "calls")
    row.no_arg_check = _strings(where, fields.get("no_arg_check", []), "no_arg_check")
    for n in row.no_arg_check:
        if n.lower() not in [a.lower() for a in args]:
            raise TableError(f"{where}: no_arg_check names '{n}', not an argument")
    row.hf_names = fields.get("hf_names", {})
    if not isinstance(row.hf_names, dict) or not all(isinstance(v, str) and v.isidentifier() for v in row.hf_names.values()):
        raise TableError(f"{where}: hf_names must map arguments to names")
    for n in row.hf_names:
        if n.lower() not in [a.lower() for a in args]:
            raise TableError(f"{where}: hf_names names '{n}', not an argument")
    row.hf_names = {k.lower(): v for k, v in row.hf_names.items()}
    row.body = fields.get("body", "hand")
    if row.body not in BODIES:
        raise TableError(f"{where}: body '{row.body}' is none of {', '.join(BODIES)}")
    if row.body == "direct" and len(row.calls) != 1:
        raise TableError(f"{where}: a direct body makes one C call; calls lists {len(row.calls)}")
    return row


def load(path=TABLE, text=None):
    """The Table of the file (or of `text`); TableError on a row that cannot be used."""
    try:
        if text is None:
            with open(path, "rb") as f:
                data = tomllib.load(f)
        else:
            data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise TableError(f"{path}: {e}") from e
    extra = set(data) - {"concern", "c", "routine", "generic"}
    if extra:
        raise TableError(f"{path}: unknown table(s) {', '.join(sorted(extra))}")
    concerns = {}
    for name, f in data.get("concern", {}).items():
        if not re.fullmatch(r"[a-z0-9]+", name):
            raise TableError(f"routines.toml: [concern.{name}]: a concern is a folder name of fortran/")
        extra = set(f) - {"title", "binding", "binding_preamble", "folder", "include"}
        if extra:
            raise TableError(f"routines.toml: [concern.{name}]: unknown key(s) {', '.join(sorted(extra))}")
        concerns[name] = Concern(name, f.get("title", name), f.get("binding", name), f.get("binding_preamble", ""),
                                 f.get("folder"), f.get("include"))
        if concerns[name].include is not None and not re.fullmatch(r"RPN_COMM_\w+\.inc", concerns[name].include):
            raise TableError(f"routines.toml: [concern.{name}]: include must name an RPN_COMM_*.inc of fortran/")
    cfuncs = {n: _row("c", n, f, concerns) for n, f in data.get("c", {}).items()}
    routines = {n: _row("routine", n, f, concerns) for n, f in data.get("routine", {}).items()}
    lower = {}
    for n in routines:
        if n.lower() in lower:
            raise TableError(f"routines.toml: [routine.{n}] and [routine.{lower[n.lower()]}] are one Fortran name")
        lower[n.lower()] = n
    for r in routines.values():
        for c in r.calls:
            if c not in cfuncs:
                raise TableError(f"{r.where()}: calls {c}, which has no [c.{c}] row")
    generics = {n: f.get("note", "") for n, f in data.get("generic", {}).items()}
    for r in routines.values():
        if r.generic and r.generic not in generics:
            generics[r.generic] = ""
    return Table(path, concerns, cfuncs, routines, generics)
