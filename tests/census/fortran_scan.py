"""Where a Fortran source tree calls RPN_COMM: a lexer that knows enough Fortran to find calls.

It reads free and fixed source form, joins continuation lines, drops comments and preprocessor
lines, and replaces every character literal by a placeholder, so that a routine name inside a
string or a comment is never taken for a call and an argument that is exactly one literal is
recognised. It finds:

  call sites     `call RPN_COMM_x(...)`, `call RPN_COMM_x` and references `RPN_COMM_x(...)` in
                 expressions (functions); RPN_MPI_* the same way
  definitions    subroutines and functions named RPN_COMM_x or RPN_MPI_x that the tree defines
                 itself, outside interface blocks (calls to them are the code's own)

Not a parser: it does not run the preprocessor (code inside #if branches is counted whatever the
branch), does not expand INCLUDE lines (an included file is read as a file of its own) and sees
only the arguments written in the call (a name passed through a variable is invisible).
"""

import os
import re
from dataclasses import dataclass, field

FIXED_SUFFIXES = (".f", ".for", ".ftn", ".fpp", ".cdk")
FREE_SUFFIXES = (".f90", ".f95", ".f03", ".f08", ".ftn90", ".cdk90", ".tmpl90")
# include files are read in the form their text shows
INCLUDE_SUFFIXES = (".inc", ".hf", ".fh")

# a literal in the masked text: \x01<index>\x02
_LIT = re.compile(r"\x01(\d+)\x02")
_NAME = re.compile(r"(?<![\w%])(rpn_(?:comm|mpi)_\w+)\s*(\()?", re.IGNORECASE)
_DEFINING = re.compile(r"\b(subroutine|function|entry)\s*$", re.IGNORECASE)
_CALL_BARE = re.compile(r"\bcall\s*$", re.IGNORECASE)
_INTERFACE = re.compile(r"^\s*(abstract\s+)?interface\b", re.IGNORECASE)
_END_INTERFACE = re.compile(r"^\s*end\s*interface\b", re.IGNORECASE)
_KEYWORD_ARG = re.compile(r"^\s*(\w+)\s*=(?!=)\s*(.*)$", re.DOTALL)


@dataclass
class Statement:
    line: int  # first line of the statement
    text: str  # comments dropped, continuations joined, literals replaced by \x01n\x02
    literals: list = field(default_factory=list)  # the literals' values, in order


@dataclass
class Call:
    routine: str  # lower case
    line: int
    args: list  # (keyword or None, literal value or None) per actual argument


def source_form(path, text):
    """'fixed' or 'free' (None: not a Fortran source the scan reads)."""
    low = path.lower()
    if low.endswith(FREE_SUFFIXES):
        return "free"
    if low.endswith(FIXED_SUFFIXES):
        return "fixed"
    if low.endswith(INCLUDE_SUFFIXES):
        return "fixed" if _looks_fixed(text) else "free"
    return None


def _looks_fixed(text):
    """An include file is fixed form when it has a column-1 comment (c, C, *) or a continuation
    mark in column 6, and every statement starts at column 7 or later."""
    marks = False
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith(("!", "#")):
            continue
        if line[0] in "cC*" and (len(line) == 1 or not line[1].isalnum() or line[0] == "*"):
            marks = True
            continue
        head = line[:6].expandtabs(8)[:6] if not line.startswith("\t") else "      "
        if head[:5].strip() and not head[:5].strip().isdigit():
            return False
        if len(line) > 5 and not line.startswith("\t") and line[5] not in " 0":
            marks = True
    return marks


class _Lexer:
    """Turns physical lines into statements; a literal may run on across a continuation."""

    def __init__(self):
        self.statements = []
        self.text = []
        self.literals = []
        self.start = 0
        self.quote = None  # the open literal's quote, when a literal continues on the next line
        self.lit = []

    def flush(self):
        if self.text:
            joined = "".join(self.text)
            if joined.strip():
                self.statements.append(Statement(self.start, joined, self.literals))
        self.text, self.literals, self.quote, self.lit = [], [], None, []

    def feed(self, body, lineno, continued):
        """Adds the statement part of one physical line; returns whether it ends in '&' (free form)."""
        if not continued:
            self.flush()
            self.start = lineno
        out = self.text
        i, n = 0, len(body)
        while i < n:
            c = body[i]
            if self.quote:
                if c == self.quote:
                    if i + 1 < n and body[i + 1] == self.quote:
                        self.lit.append(c)
                        i += 2
                        continue
                    self.literals.append("".join(self.lit))
                    out.append("\x01%d\x02" % (len(self.literals) - 1))
                    self.quote, self.lit = None, []
                elif c == "&" and not body[i + 1 :].strip():
                    return True
                else:
                    self.lit.append(c)
            elif c in "'\"":
                self.quote, self.lit = c, []
            elif c == "!":
                break
            elif c == "&" and not body[i + 1 :].split("!", 1)[0].strip():
                return True
            elif c == ";":
                # a new statement on the same line
                self.flush()
                self.start = lineno
                out = self.text
            else:
                out.append(c)
            i += 1
        return False


def statements(text, form):
    """The statements of a source, in order."""
    lex = _Lexer()
    lines = text.splitlines()
    if form == "free":
        pending = False
        for no, line in enumerate(lines, 1):
            stripped = line.lstrip()
            if stripped.startswith("#") and not lex.quote:
                continue
            if pending:
                if not stripped or stripped.startswith("!"):
                    continue
                if stripped.startswith("&"):
                    line = stripped[1:]
                elif not lex.quote:
                    line = stripped
            pending = lex.feed(line, no, pending)
    else:
        for no, line in enumerate(lines, 1):
            if not line.strip() or line[0] in "cC*!dD#":
                continue
            if line.startswith("\t"):
                cont = len(line) > 1 and line[1] in "123456789"
                body = line[2:] if cont else line[1:]
            else:
                label, mark = line[:5], line[5:6]
                if label.lstrip().startswith("!"):
                    continue
                cont = mark not in ("", " ", "0") and not label.strip()
                body = line[6:]
            lex.feed(body, no, cont)
    lex.flush()
    return lex.statements


def _matching_paren(text, open_at):
    depth = 0
    for i in range(open_at, len(text)):
        if text[i] == "(":
            depth += 1
        elif text[i] == ")":
            depth -= 1
            if depth == 0:
                return i
    return len(text)


def _split_args(text):
    parts, depth, cur = [], 0, []
    for c in text:
        if c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
        if c == "," and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(c)
    parts.append("".join(cur))
    return parts if any(p.strip() for p in parts) else []


def _arg(text, literals):
    keyword = None
    m = _KEYWORD_ARG.match(text)
    if m:
        keyword, text = m.group(1).lower(), m.group(2)
    m = _LIT.fullmatch(text.strip())
    return keyword, (literals[int(m.group(1))] if m else None)


def scan_statements(stmts):
    """(calls, definitions) of RPN_COMM_x / RPN_MPI_x in a list of statements."""
    calls, defined, interface = [], set(), 0
    for st in stmts:
        if _INTERFACE.match(st.text):
            interface += 1
            continue
        if _END_INTERFACE.match(st.text):
            interface = max(0, interface - 1)
            continue
        for m in _NAME.finditer(st.text):
            name = m.group(1).lower()
            before = st.text[: m.start()]
            if _DEFINING.search(before):
                if not interface and not re.search(r"\bend\s*(subroutine|function)\s*$", before, re.I):
                    defined.add(name)
                continue
            if m.group(2):
                close = _matching_paren(st.text, m.end() - 1)
                args = [_arg(a, st.literals) for a in _split_args(st.text[m.end() : close])]
                calls.append(Call(name, st.line, args))
            elif _CALL_BARE.search(before):
                calls.append(Call(name, st.line, []))
    return calls, defined


def scan_file(path, rel=None):
    """(form, calls, definitions) of one file; form None when it is no Fortran source."""
    with open(path, encoding="latin-1") as f:
        text = f.read()
    form = source_form(rel or path, text)
    if form is None:
        return None, [], set()
    calls, defined = scan_statements(statements(text, form))
    return form, calls, defined


def fortran_files(root):
    """Every file under root that the scan reads, as paths relative to root, sorted."""
    found = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for base in filenames:
            if base.lower().endswith(FREE_SUFFIXES + FIXED_SUFFIXES + INCLUDE_SUFFIXES):
                found.append(os.path.relpath(os.path.join(dirpath, base), root))
    return sorted(found)
