"""The names a Fortran/C library defines, read from its sources (no compiler needed).

Used on both sides of tests/names/check_names.py: the original RPN_COMM's sources (through
gen_original_names.py, which writes the committed list) and ours. A lenient reader, not a
parser: it follows program units (module, program, subroutine, function, interface blocks) by
their first keyword and their `end` (every branch of a preprocessor conditional read, each from
the nesting at its `#if`), which is enough to tell what a library exports:

  external     a subroutine or function outside any module (gfortran link name: lower case + '_')
  entry        an ENTRY of an external procedure (an external of its own)
  modproc      a procedure of a module (link name __<module>_MOD_<name>)
  generic      a named interface block (its specific procedures listed as args)
  module       a module
  type         a derived type defined in a module or an include file
  constant     a named constant (PARAMETER) of a module or an include file, with its value
  bind         the C name of a bind(C, name=...) procedure defined in Fortran
  cfunction    a function defined (not only declared) in a C source

Each name is a Name(kind, name, args, value, link, where).
"""

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Name:
    kind: str
    name: str  # as written
    args: tuple = ()  # dummy arguments (lower case), or the specific procedures of a generic
    value: str = ""  # normalised value of a constant; 'subroutine' / 'function' for procedures
    link: str = ""  # the link-time symbol, when it has one
    where: str = ""  # file (and line) it comes from

    @property
    def key(self):
        return self.name.lower()


_END_OTHER = re.compile(
    r"^end\s*(if|do|select|type|where|associate|block|forall|enum|critical|team)(\s|$)", re.IGNORECASE
)
# a parenthesised type parameter, nesting two deep: real(kind=kind(1.d0)), type(t(kind(0)))
_PARENS = r"\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\)"
_PROC = re.compile(
    r"^(?:(?:pure|elemental|recursive|impure|module|non_recursive|"
    r"integer|logical|real|complex|double\s*precision|character|type\s*" + _PARENS + r"|"
    r"(?:integer|logical|real|complex|character)\s*(?:\*\s*\d+|" + _PARENS + r"))\s+)*"
    r"(subroutine|function)\s+(\w+)\s*(\(([^)]*)\))?(.*)$",
    re.IGNORECASE,
)
_BIND = re.compile(r"bind\s*\(\s*c\s*,\s*name\s*=\s*['\"]([^'\"]*)['\"]", re.IGNORECASE)
_ENTRY = re.compile(r"^entry\s+(\w+)\s*(\(([^)]*)\))?", re.IGNORECASE)
_MODULE = re.compile(r"^module\s+(?!procedure\b)(\w+)\s*$", re.IGNORECASE)
_INTERFACE = re.compile(r"^(abstract\s+)?interface\b\s*(\w*)", re.IGNORECASE)
_MODULE_PROCEDURE = re.compile(r"^(?:module\s+)?procedure\s*(?:::)?\s*(.*)$", re.IGNORECASE)
_PROGRAM = re.compile(r"^program\s+(\w+)", re.IGNORECASE)
_TYPE_DEF = re.compile(r"^type\s*(?:,\s*[^:]*)?(?:::)?\s*(\w+)\s*$", re.IGNORECASE)
_PARAMETER = re.compile(r"^[^!]*?,\s*parameter\b[^:]*::\s*(.*)$", re.IGNORECASE)
_END = re.compile(r"^end\s*(\w*)", re.IGNORECASE)
_PP_COND = re.compile(r"^\s*#\s*(ifdef|ifndef|if|elif|else|endif)\b", re.IGNORECASE)


def _strip_comment(line):
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


def _split_top(text, sep=","):
    """`text` split on `sep` outside parentheses and quotes."""
    parts, depth, quote, cur = [], 0, None, ""
    for c in text:
        if quote:
            quote = None if c == quote else quote
        elif c in "'\"":
            quote = c
        elif c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
        elif c == sep and depth == 0:
            parts.append(cur)
            cur = ""
            continue
        cur += c
    parts.append(cur)
    return [p.strip() for p in parts if p.strip()]


def statements(text):
    """(line number, statement) pairs of free-form Fortran: comments dropped, `&` continuations
    joined, `;` split, preprocessor lines dropped but for conditionals, passed on as `@pp if`,
    `@pp else` (for #elif too) and `@pp endif`. Lines marked `!InTfX!` (the original's
    commented-out interface text, `!! ...`) are read as code: its generator uncomments them."""
    out, pending, start = [], "", 0
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw
        m = re.match(r"^\s*!!\s*(end\s*)?interface\s*(\w*).*!InTf!", line, re.IGNORECASE)
        if m and not pending:  # the original's generic interface around real procedures
            out.append((n, ("@generic-end " if m.group(1) else "@generic ") + m.group(2)))
            continue
        if "!InTfX!" in line:
            line = re.sub(r"^\s*!!", " ", line)
        if line.lstrip().startswith("#"):
            m = _PP_COND.match(line)
            if m:
                word = m.group(1).lower()
                word = "if" if word.startswith("if") else "else" if word.startswith("el") else "endif"
                out.append((n, "@pp " + word))
            continue
        code = _strip_comment(line).rstrip()
        if not code.strip():
            continue
        if pending:
            code = code.lstrip()
            if code.startswith("&"):
                code = code[1:]
        else:
            start = n
        if code.endswith("&"):
            pending += code[:-1] + " "
            continue
        pending += code
        for piece in _split_top(pending, ";"):
            out.append((start, " ".join(piece.split())))
        pending = ""
    return out


def _normalise_value(value):
    v = " ".join(value.split()).lower().replace(" ", "")
    v = re.sub(r"^\+", "", v)
    return v.replace('"', "'")


def fortran_names(text, where, include=False):
    """The names defined by one free-form Fortran source. `include`: an include file, whose
    top-level parameters and types are exported (as those of a module are)."""
    names = []
    stack = []  # ('module', name) | ('proc', name) | ('interface', name) | ('program', name)
    marker_generic = ""  # inside the original's `!! interface NAME !InTf!` ... `!! end interface`
    # Preprocessor conditionals: every branch is read (names of all configurations), each from the
    # nesting at its `#if`, since branches may each open the same unit (the original's
    # RPN_COMM_io_pe_test has one opening per branch and one common `end`). After `#endif` the
    # first branch's nesting goes on. Entries: [nesting at #if, nesting at the end of branch 1].
    conditionals = []

    def top():
        return stack[-1][0] if stack else None

    for lineno, st in statements(text):
        loc = f"{where}:{lineno}"
        low = st.lower()
        if st.startswith("@pp "):
            word = st[4:]
            if word == "if":
                conditionals.append([(list(stack), marker_generic), None])
            elif conditionals and word == "else":
                if conditionals[-1][1] is None:
                    conditionals[-1][1] = (list(stack), marker_generic)
                stack[:], marker_generic = list(conditionals[-1][0][0]), conditionals[-1][0][1]
            elif conditionals and word == "endif":
                first = conditionals.pop()[1]
                if first is not None:
                    stack[:], marker_generic = first
            continue
        if st.startswith("@generic"):
            marker_generic = st.split()[1] if st.startswith("@generic ") and len(st.split()) > 1 else ""
            continue
        m = _END.match(st)
        if m and not _END_OTHER.match(st):
            word = m.group(1).lower()
            if word in ("", "subroutine", "function", "module", "interface", "program", "procedure"):
                if word == "procedure" and top() != "proc":
                    continue
                if stack:
                    stack.pop()
                continue
        if top() == "interface":
            generic = stack[-1][1]
            m = _MODULE_PROCEDURE.match(st)
            if m and generic:
                specifics = tuple(p.lower() for p in _split_top(m.group(1)))
                names.append(Name("generic", generic, specifics, "", "", loc))
                continue
            m = _PROC.match(st)
            if m:
                stack.append(("body", m.group(2)))
                if generic:
                    names.append(Name("generic", generic, (m.group(2).lower(),), "", "", loc))
            continue
        if top() == "body":
            continue
        m = _MODULE.match(st)
        if m and top() is None:
            stack.append(("module", m.group(1)))
            names.append(Name("module", m.group(1), (), "", "", loc))
            continue
        m = _PROGRAM.match(st)
        if m and top() is None:
            stack.append(("program", m.group(1)))
            continue
        m = _INTERFACE.match(st)
        if m:
            stack.append(("interface", m.group(2) if not m.group(1) else ""))
            continue
        m = _PROC.match(st)
        if m and not low.startswith("end"):
            kind, pname = m.group(1).lower(), m.group(2)
            args = tuple(a.strip().lower() for a in (m.group(4) or "").split(",") if a.strip())
            bind = _BIND.search(m.group(5) or "")
            outer = [s for s in stack if s[0] in ("proc", "program")]
            if outer:  # internal procedure: not exported
                stack.append(("proc", pname))
                continue
            modules = [s for s in stack if s[0] == "module"]
            if modules:
                mod = modules[-1][1].lower()
                names.append(Name("modproc", pname, args, kind, f"__{mod}_MOD_{pname.lower()}", loc))
            else:
                names.append(Name("external", pname, args, kind, pname.lower() + "_", loc))
                if marker_generic:
                    names.append(Name("generic", marker_generic, (pname.lower(),), "", "", loc))
            if bind:
                names.append(Name("bind", bind.group(1), args, kind, bind.group(1), loc))
            stack.append(("proc", pname))
            continue
        m = _ENTRY.match(st)
        if m and top() == "proc" and len([s for s in stack if s[0] == "proc"]) == 1 \
                and not any(s[0] == "module" for s in stack):
            args = tuple(a.strip().lower() for a in (m.group(3) or "").split(",") if a.strip())
            names.append(Name("entry", m.group(1), args, "entry", m.group(1).lower() + "_", loc))
            continue
        exported_scope = top() == "module" or (top() is None and include)
        if not exported_scope:
            continue
        m = _TYPE_DEF.match(st)
        if m and not low.startswith("type(") and not low.startswith("type ("):
            names.append(Name("type", m.group(1), (), "", "", loc))
            continue
        m = _PARAMETER.match(st)
        if m:
            for ent in _split_top(m.group(1)):
                if "=" not in ent:
                    continue
                ename, value = ent.split("=", 1)
                ename = re.sub(r"\(.*", "", ename).strip()
                names.append(Name("constant", ename, (), _normalise_value(value), "", loc))
    return names


_C_FUNC = re.compile(
    r"^(?!static\b)(?!typedef\b)(?!extern\b)[A-Za-z_][\w \t\*]*?\b([A-Za-z_]\w*)\s*\(([^;{}]*)\)\s*\{",
    re.MULTILINE,
)
_C_KEYWORDS = {"if", "while", "for", "switch", "return", "sizeof", "else"}


def c_names(text, where):
    """Functions with external linkage defined in a C source (at the start of a line, not static)."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.DOTALL)
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r"^\s*#[^\n]*(\\\n[^\n]*)*", "", text, flags=re.MULTILINE)
    names = []
    for m in _C_FUNC.finditer(text):
        name = m.group(1)
        if name in _C_KEYWORDS:
            continue
        params = [p.strip() for p in m.group(2).split(",") if p.strip() and p.strip() != "void"]
        lineno = text.count("\n", 0, m.start()) + 1
        names.append(Name("cfunction", name, tuple(str(i) for i in range(len(params))), "", name,
                          f"{where}:{lineno}"))
    return names


_C_DECL = re.compile(r"^[A-Za-z_][\w \t\*]*?\b([A-Za-z_]\w*)\s*\(([^;{}]*)\)\s*;", re.MULTILINE)


def c_header_names(text, where):
    """Functions declared in a C header (the library's C ABI)."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.DOTALL)
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r"^\s*#[^\n]*", "", text, flags=re.MULTILINE)
    names = []
    for m in _C_DECL.finditer(text):
        if m.group(0).lstrip().startswith("typedef"):
            continue
        params = [p.strip() for p in m.group(2).split(",") if p.strip() and p.strip() != "void"]
        lineno = text.count("\n", 0, m.start()) + 1
        names.append(Name("cfunction", m.group(1), tuple(str(i) for i in range(len(params))), "",
                          m.group(1), f"{where}:{lineno}"))
    return names


_RUST_EXPORT = re.compile(
    r'#\[(?:unsafe\()?(no_mangle|export_name\s*=\s*"(\w+)")\)?\]\s*(?:#\[[^\]]*\]\s*)*'
    r'pub\s+(?:unsafe\s+)?extern\s+"C"\s+fn\s+(\w+)\s*\(')


def _top_level_args(text, start):
    """The number of arguments of the parameter list opening at text[start - 1] ("(")."""
    depth, count, seen = 0, 0, False
    for ch in text[start:]:
        if ch in "([<":
            depth += 1
        elif ch in ")]>" and depth > 0:
            depth -= 1
        elif ch == ")":
            return count + (1 if seen else 0)
        elif ch == "," and depth == 0:
            count += 1
            seen = False
            continue
        if not ch.isspace():
            seen = True
    return count


def rust_export_names(text, where):
    """C functions the library's Rust exports by a symbol of their own (no_mangle, export_name)."""
    text = re.sub(r"//[^\n]*", "", text).replace("->", "  ")  # (an arrow is no closing bracket)
    names = []
    for m in _RUST_EXPORT.finditer(text):
        symbol = m.group(2) or m.group(3)
        lineno = text.count("\n", 0, m.start()) + 1
        n = _top_level_args(text, m.end())
        names.append(Name("cfunction", symbol, tuple(str(i) for i in range(n)), "", symbol, f"{where}:{lineno}"))
    return names


FIELDS = ("kind", "name", "args", "value", "link", "where")


def dump(names):
    """Tab-separated lines, one per name, sorted (the committed list's format)."""
    lines = []
    for n in sorted(set(names), key=lambda n: (n.kind, n.key, n.where)):
        lines.append("\t".join([n.kind, n.name, ",".join(n.args) or "-", n.value or "-", n.link or "-", n.where]))
    return lines


def load(lines):
    names = []
    for line in lines:
        if not line.strip() or line.startswith("#"):
            continue
        kind, name, args, value, link, where = line.rstrip("\n").split("\t")
        names.append(Name(kind, name, () if args == "-" else tuple(args.split(",")),
                          "" if value == "-" else value, "" if link == "-" else link, where))
    return names
