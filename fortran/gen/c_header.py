"""Reading the C header include/rpncomm_windows.h (cbindgen output): prototypes, #defines, structs.

Only plain C declarations are understood (the subset cbindgen writes): `ret name(params);`,
`#define NAME integer`, `typedef struct name { fields; } name;`.
"""

import re
from dataclasses import dataclass

_TYPE_WORDS = {"const", "struct", "unsigned", "signed", "long", "short", "int", "char", "void", "double", "float"}


@dataclass
class CType:
    base: str  # e.g. 'int', 'int64_t', 'size_t', 'char', 'void', 'rpncomm_handle'
    pointers: int  # number of '*'
    const: bool  # the pointee (or the value) is const

    def __str__(self):
        return ("const " if self.const else "") + self.base + (" " + "*" * self.pointers if self.pointers else "")


@dataclass
class CParam:
    ctype: CType
    name: str


@dataclass
class CFunction:
    name: str
    ret: CType
    params: list
    lineno: int


def parse_ctype(text, named=True):
    """(CType, name) of a parameter or field text such as 'const struct rpncomm_handle *com'."""
    tokens = re.findall(r"\w+|\*|\[\s*\]", text)
    name = None
    if named and len(tokens) >= 2 and re.fullmatch(r"\w+", tokens[-1]) and tokens[-1] not in _TYPE_WORDS:
        name = tokens.pop()
    pointers = sum(1 for t in tokens if t == "*" or t.startswith("["))
    first_star = next((i for i, t in enumerate(tokens) if t == "*"), len(tokens))
    const = "const" in tokens[:first_star]
    words = [t for t in tokens if t not in ("const", "struct", "*") and not t.startswith("[")]
    return CType(" ".join(words), pointers, const), name


def _strip(text):
    """The header without comments, with preprocessor lines blanked (line numbers kept)."""
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    return "\n".join("" if line.lstrip().startswith("#") else line for line in text.split("\n"))


_PROTO = re.compile(r"^\s*(?P<ret>[\w\s\*]*?[\w\*])\s*\b(?P<name>\w+)\s*\((?P<params>[^()]*)\)\s*$", re.S)


def read_functions(text):
    """name -> CFunction for every prototype of the header."""
    body = _strip(text)
    funcs = {}
    pos = 0
    for chunk in body.split(";"):
        start = pos
        pos += len(chunk) + 1
        tail = re.split(r"[{}]", chunk)[-1]
        m = _PROTO.match(tail)
        if not m or m.group("name") in ("if", "while", "return"):
            continue
        lineno = body.count("\n", 0, start + len(chunk) - len(tail) + m.start("name")) + 1
        ret, _ = parse_ctype(m.group("ret"), named=False)
        params = []
        plist = m.group("params").strip()
        if plist and plist != "void":
            for p in plist.split(","):
                ctype, name = parse_ctype(p)
                params.append(CParam(ctype, name or f"#{len(params) + 1}"))
        funcs[m.group("name")] = CFunction(m.group("name"), ret, params, lineno)
    return funcs


def read_defines(text):
    """name -> int value of every `#define NAME <integer>` of the header."""
    return {m.group(1): int(m.group(2)) for m in re.finditer(r"^\s*#\s*define\s+(\w+)\s+\(?(-?\d+)\)?\s*$", text, re.M)}


def read_structs(text):
    """name -> [CParam] (the fields, in order) of every struct defined in the header."""
    structs = {}
    for m in re.finditer(r"struct\s+(\w+)\s*\{([^{}]*)\}", _strip(text)):
        fields = [parse_ctype(f) for f in m.group(2).split(";") if f.strip()]
        structs[m.group(1)] = [CParam(t, n) for t, n in fields]
    return structs
