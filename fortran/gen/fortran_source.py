"""Reading the free-form Fortran of fortran/: statements, procedures and their declarations.

Only what the interface generator and the C-binding checker need: statements joined over `&`
continuations (with the physical lines kept, so that a statement can be copied out unchanged),
subroutines and functions (not nested) with their dummy arguments, result variable and bind(C)
name, and the declarations of their entities. Anything the tools would silently misread (a
procedure inside a procedure, an unterminated one) is an error.
"""

import re
from dataclasses import dataclass, field


class FortranError(Exception):
    """A source the tools cannot read faithfully; the message names the file and line."""


@dataclass
class Statement:
    """One statement: `text` is the logical line (continuations joined, comments removed);
    `lines` are its physical lines as written; `kind` is 'code', 'directive' (`!GCC$ ...`)
    or 'comment' (a comment or blank line, text = the line)."""

    kind: str
    text: str
    lines: list
    lineno: int


@dataclass
class Declaration:
    """A `type-spec [, attributes] :: entities` statement (or `external :: names`)."""

    type_spec: str  # e.g. 'integer(C_INT)', 'type(rpncomm_window)', 'external'
    attrs: list  # lower-case attribute texts, e.g. ['intent(in)', 'value', 'dimension(*)']
    entities: dict  # name (lower case) -> text after the name, e.g. '(nreq)' or ''
    statement: Statement


@dataclass
class Procedure:
    kind: str  # 'subroutine' or 'function'
    name: str
    args: list  # dummy argument names as written
    result: str  # result variable (the function name when there is no result clause); None for subroutines
    bind_name: str  # C name of a bind(C) procedure, else None
    header: Statement
    body: list = field(default_factory=list)  # statements between header and end
    end: Statement = None
    path: str = ""
    module: str = None  # the module it is in (a module procedure or an interface body there), else None

    def declarations(self):
        """The body's declarations, in order."""
        return [d for d in (parse_declaration(s) for s in self.body) if d is not None]

    def declaration_of(self, name):
        """The one declaration that declares `name` (case-insensitive); FortranError if none or several."""
        found = [d for d in self.declarations() if name.lower() in d.entities and d.type_spec != "external"]
        where = f"{self.path}:{self.header.lineno}: {self.name}"
        if not found:
            raise FortranError(f"{where}: {name} has no declaration with '::'")
        if len(found) > 1:
            raise FortranError(f"{where}: {name} is declared {len(found)} times")
        return found[0]


_DIRECTIVE = re.compile(r"^\s*!(GCC|DEC|DIR)\$", re.IGNORECASE)


def _strip_comment(line):
    """The line without its trailing `!` comment (a `!` inside a string is kept)."""
    quote = None
    for i, c in enumerate(line):
        if quote:
            if c == quote:
                quote = None
        elif c in "'\"":
            quote = c
        elif c == "!":
            return line[:i]
    return line


def read_statements(path, text=None):
    """The statements of a free-form Fortran file, in order."""
    if text is None:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    out = []
    pending = None  # (parts, lines, lineno) of a statement continued with '&'
    for n, line in enumerate(text.splitlines(), start=1):
        if pending is None and _DIRECTIVE.match(line):
            out.append(Statement("directive", line.strip(), [line], n))
            continue
        code = _strip_comment(line).rstrip()
        if pending is None and not code.strip():
            out.append(Statement("comment", line, [line], n))
            continue
        if pending is not None:
            if not code.strip():  # a comment line inside a continued statement
                pending[1].append(line)
                continue
            piece = code.strip()
            if piece.startswith("&"):
                piece = piece[1:]
            pending[0].append(piece)
            pending[1].append(line)
        else:
            pending = ([code.strip()], [line], n)
        if pending[0][-1].endswith("&"):
            pending[0][-1] = pending[0][-1][:-1]
            continue
        parts, lines, first = pending
        out.append(Statement("code", " ".join(p.strip() for p in parts).strip(), lines, first))
        pending = None
    if pending is not None:
        raise FortranError(f"{path}:{pending[2]}: statement continued past the end of the file")
    return out


_TYPE_PREFIX = r"(?:(?:integer|real|logical|complex|character|type|double\s+precision)\s*(?:\([^)]*\))?\s+)?"
_HEADER = re.compile(
    r"^(?:(?:pure|impure|elemental|recursive)\s+)*" + _TYPE_PREFIX + r"(subroutine|function)\s+(\w+)\s*(?:\(([^)]*)\))?\s*(.*)$",
    re.IGNORECASE,
)
_END = re.compile(r"^end\s*(?:(subroutine|function)\b\s*(\w+)?)?\s*$", re.IGNORECASE)
_RESULT = re.compile(r"\bresult\s*\(\s*(\w+)\s*\)", re.IGNORECASE)
_MODULE = re.compile(r"^module\s+(\w+)\s*$", re.IGNORECASE)
_END_MODULE = re.compile(r"^end\s*module\b", re.IGNORECASE)
_BIND = re.compile(r"\bbind\s*\(\s*c\s*(?:,\s*name\s*=\s*(['\"])(.*?)\1\s*)?\)", re.IGNORECASE)


def read_procedures(path, text=None):
    """Every subroutine and function of the file (interface bodies included), in order."""
    procs = []
    current = None
    module = None
    for st in read_statements(path, text):
        if st.kind != "code":
            if current is not None:
                current.body.append(st)
            continue
        if current is None:
            m = _MODULE.match(st.text)
            if m and m.group(1).lower() != "procedure":
                module = m.group(1)
                continue
            if _END_MODULE.match(st.text):
                module = None
                continue
        m = _HEADER.match(st.text)
        if m and not st.text.lower().startswith("end"):
            if current is not None:
                raise FortranError(f"{path}:{st.lineno}: {m.group(2)} starts inside {current.name} (not supported)")
            kind, name, args, rest = m.group(1).lower(), m.group(2), m.group(3) or "", m.group(4)
            result = None
            if kind == "function":
                r = _RESULT.search(rest)
                result = r.group(1) if r else name
            b = _BIND.search(rest)
            bind_name = None
            if b:
                bind_name = b.group(2) if b.group(2) is not None else name.lower()
            arglist = [a.strip() for a in args.split(",") if a.strip()]
            current = Procedure(kind, name, arglist, result, bind_name, st, path=path, module=module)
            continue
        if current is None:
            continue
        e = _END.match(st.text)
        if e:
            if e.group(1) and e.group(1).lower() != current.kind:
                raise FortranError(f"{path}:{st.lineno}: 'end {e.group(1)}' closes {current.kind} {current.name}")
            if e.group(2) and e.group(2).lower() != current.name.lower():
                raise FortranError(f"{path}:{st.lineno}: 'end ... {e.group(2)}' closes {current.name}")
            current.end = st
            procs.append(current)
            current = None
            continue
        current.body.append(st)
    if current is not None:
        raise FortranError(f"{path}:{current.header.lineno}: {current.name} has no end statement")
    return procs


def split_top_level(text, sep=","):
    """`text` split at the separators that are outside parentheses and strings."""
    parts, depth, quote, start = [], 0, None, 0
    for i, c in enumerate(text):
        if quote:
            if c == quote:
                quote = None
        elif c in "'\"":
            quote = c
        elif c == "(" or c == "[":
            depth += 1
        elif c == ")" or c == "]":
            depth -= 1
        elif c == sep and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p.strip() for p in parts]


_ENTITY = re.compile(r"^(\w+)\s*(.*)$")


def parse_declaration(st):
    """The Declaration of a statement, or None when it is not one (no top-level '::')."""
    if st.kind != "code" or "::" not in st.text:
        return None
    head, _, names = st.text.partition("::")
    first = head.strip().split("(")[0].split(",")[0].strip().lower()
    if first not in ("integer", "real", "logical", "complex", "character", "type", "double precision", "external", "class"):
        return None  # e.g. 'import :: x', 'procedure(...) :: p'
    spec = split_top_level(head.strip())
    entities = {}
    for ent in split_top_level(names):
        m = _ENTITY.match(ent)
        if not m:
            raise FortranError(f"{st.lineno}: cannot read the entity '{ent}' in: {st.text}")
        entities[m.group(1).lower()] = m.group(2).strip()
    return Declaration(spec[0].replace(" ", ""), [a.replace(" ", "").lower() for a in spec[1:]], entities, st)
