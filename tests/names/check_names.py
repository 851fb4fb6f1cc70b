#!/usr/bin/env python3
"""Every name the library exports against the names of the original RPN_COMM 4.6.3.

A program written for the original must keep compiling and linking with our include files and
archive: a name the original gives to one thing is never given by us to another (docs/contract.md
rule 10). Our names are read from the library's sources (fortran/**.F90, the installed fortran/*.inc,
include/rpncomm_windows.h, and the C functions src/ exports under the original's names outside the
header); the original's from the committed list tests/names/original-4.6.3.txt
(written by gen_original_names.py from the original's sources). Checks, one test each:

  routines   an external procedure (or ENTRY) of ours that the original also defines (as an
             external, an entry or a module procedure) has the same kind (subroutine or function)
             and the same dummy arguments, in number and names (keyword calls); a name that the
             original uses for a generic, a type, a constant or an installed module is not ours
             for a routine
  generics   a generic of ours named like an original routine or generic contains a specific of
             the original's signature
  symbols    no link symbol of ours (gfortran names, bind(C) names, the C header's functions,
             module procedures) is a symbol of the original for something else
  constants  a constant of ours named like one of the original's has the same value
  types      a derived type or module of ours is not named like a routine, generic or constant of
             the original
  coverage   every public routine of the original (the externals, entries and C functions of its
             library's sources, not of its TEST_ programs) is one here too, but those of
             NOT_PROVIDED, each with its reason; a C function has the original's number of arguments
  self-test  the checks fail, naming the clash, on a planted clash (the original's test driver's
             name given to a routine of three arguments), and on a routine of DELIBERATE's that
             differs from both signatures written there

One routine differs from the original on purpose (DELIBERATE, docs/contract.md rule 10): it passes only
with exactly the signature written there, while the original's is exactly the one written there;
any other difference in it is still a clash.

Each failure prints one line per clash: our name, what it is here, what it is in the original.
Last line: "N passed, N failed".

    check_names.py [--list FILE] [--root DIR]
"""

import argparse
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import names  # noqa: E402

ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
LIST = os.path.join(HERE, "original-4.6.3.txt")
# the original's only installed module (its CMake installs rpn_comm.mod); its other modules are
# internal to its archive: their names matter only through their procedures' link symbols. The
# library gives that module itself, in the original's two forms, in ORIGINAL_MODULES only.
INSTALLED_MODULES = {"rpn_comm"}
ORIGINAL_MODULES = "fortran/modules/"
ROUTINE_KINDS = ("external", "entry", "modproc")
# The deliberate differences from 4.6.3: routine (lower case) -> (our kind and dummy arguments,
# the original's, why). RPN_COMM_i_win_get_ptr: the windows specification the library was built
# from (and its request/reply example) declare and call (window, np, ierr); 4.6.3's external takes
# (window, ierr), which misreads such a caller (its literal np is written into). The
# specification's form holds at link level; 4.6.3's stays available through the generic of the
# same name (which the generics check still requires).
# The public routines of 4.6.3 that the library does not provide (lower case -> why); docs/gem.md
# says the same. A name here that the library comes to provide fails the coverage check.
NOT_PROVIDED: dict[str, str] = {}
DELIBERATE = {
    "rpn_comm_i_win_get_ptr": (("function", ("window", "np", "ierr")), ("function", ("window", "ierr")),
                               "the windows specification's form (docs/contract.md rule 10)"),
}


def _deliberate(n, theirs):
    """Whether our routine `n` against the original's `theirs` is a difference of DELIBERATE."""
    if n.key not in DELIBERATE:
        return False
    ours, orig, _ = DELIBERATE[n.key]
    return (n.value, tuple(n.args)) == ours and all((t.value, tuple(t.args)) == orig for t in theirs)


def our_names(root):
    found = []
    fdir = os.path.join(root, "fortran")
    # fortran/ and its folders per concern (fortran/gen holds no Fortran)
    for where, _, files in sorted(os.walk(fdir)):
        for base in sorted(files):
            path = os.path.join(where, base)
            rel = os.path.relpath(path, root).replace(os.sep, "/")
            if not base.endswith((".F90", ".inc")):
                continue
            with open(path, encoding="utf-8") as f:
                text = f.read()
            if base.endswith(".F90"):
                found += names.fortran_names(text, rel)
            else:
                found += names.fortran_names(text, rel, include=True)
    with open(os.path.join(root, "include", "rpncomm_windows.h"), encoding="utf-8") as f:
        found += names.c_header_names(f.read(), "include/rpncomm_windows.h")
    # the original's C names the Rust core exports outside the header (its callers declare them)
    in_header = {n.name for n in found if n.kind == "cfunction"}
    for where, _, files in sorted(os.walk(os.path.join(root, "src"))):
        for base in sorted(files):
            if base.endswith(".rs"):
                path = os.path.join(where, base)
                with open(path, encoding="utf-8") as f:
                    exported = names.rust_export_names(f.read(), os.path.relpath(path, root).replace(os.sep, "/"))
                found += [n for n in exported if n.name not in in_header]
    return found


def coverage(ours, orig):
    """The original's public routines (not its TEST_ programs') missing here and not in NOT_PROVIDED,
    those of NOT_PROVIDED that are here, and the C functions whose argument counts differ."""
    public = {}
    for n in orig:
        if n.kind in ("external", "entry", "cfunction", "bind") and not n.where.startswith("TEST_") and n.name != "main":
            public.setdefault(n.key, n)
    here = {}
    for n in ours:
        if n.kind in ("external", "entry", "cfunction", "bind", "modproc", "generic"):
            here.setdefault(n.key, n)
    lines = [f"{n.name} ({n.where}) is not here" for key, n in sorted(public.items())
             if key not in here and key not in NOT_PROVIDED]
    lines += [f"{key} is here, but NOT_PROVIDED says it is not" for key in sorted(NOT_PROVIDED) if key in here]
    for key, n in sorted(public.items()):
        mine = here.get(key)
        if n.kind == "cfunction" and mine is not None and mine.kind == "cfunction" and len(mine.args) != len(n.args):
            lines.append(f"{n.name}: ours takes {len(mine.args)} arguments ({mine.where}), the original's "
                         f"{len(n.args)} ({n.where})")
    return len(public), lines


def _by_key(found, kinds):
    out = {}
    for n in found:
        if n.kind in kinds:
            out.setdefault(n.key, []).append(n)
    return out


def _sig(n):
    return f"{n.value} {n.name}({', '.join(n.args)})"


def _value(v):
    """A constant's value, compared: kind= arguments and spaces do not count."""
    return re.sub(r",kind=(\w+\([^()]*\)|\w+)", "", v)


def check(ours, orig):
    """{check name: [clash lines]}"""
    clashes = {"routines": [], "generics": [], "symbols": [], "constants": [], "types": []}
    o_routines = _by_key(orig, ROUTINE_KINDS)
    o_generics = _by_key(orig, ("generic",))
    o_types = _by_key(orig, ("type",))
    o_consts = _by_key(orig, ("constant",))
    o_modules = {k: v for k, v in _by_key(orig, ("module",)).items() if k in INSTALLED_MODULES}
    u_generics = _by_key(ours, ("generic",))

    def other_meaning(key, exclude):
        for what, table in (("generic", o_generics), ("type", o_types), ("constant", o_consts),
                            ("module", o_modules), ("routine", o_routines)):
            if what not in exclude and key in table:
                n = table[key][0]
                return f"the original's {what} {n.name} ({n.where})"
        return None

    for n in ours:
        if n.kind in ("external", "entry"):
            if n.key in o_routines:
                theirs = o_routines[n.key]
                if not any(t.value in (n.value, "entry") and t.args == n.args for t in theirs) and not _deliberate(n, theirs):
                    t = theirs[0]
                    clashes["routines"].append(
                        f"{n.name}: ours is {_sig(n)} ({n.where}), the original's is {_sig(t)} ({t.where})")
            elif n.key in o_generics and n.key not in u_generics:
                clashes["routines"].append(
                    f"{n.name}: ours is the routine {_sig(n)} ({n.where}), the original's is a generic of "
                    f"{', '.join(sorted({s for g in o_generics[n.key] for s in g.args}))}")
            else:
                other = other_meaning(n.key, ("routine", "generic"))
                if other:
                    clashes["routines"].append(f"{n.name}: ours is the routine {_sig(n)} ({n.where}), {other}")
    for key, gens in u_generics.items():
        specifics = {s for g in gens for s in g.args}
        ours_by_name = {n.key: n for n in ours if n.kind in ROUTINE_KINDS}
        wanted = []
        if key in o_routines:
            wanted = o_routines[key]
        elif key in o_generics:
            wanted = [r for g in o_generics[key] for s in g.args for r in o_routines.get(s, [])]
        for t in wanted:
            if not any(s in ours_by_name and ours_by_name[s].args == t.args for s in specifics):
                clashes["generics"].append(
                    f"{gens[0].name}: our generic ({gens[0].where}) has no specific of the original's "
                    f"signature {_sig(t)} ({t.where})")
        if key not in o_routines and key not in o_generics:
            other = other_meaning(key, ("generic", "routine"))
            if other:
                clashes["generics"].append(f"{gens[0].name}: ours is a generic ({gens[0].where}), {other}")
    o_links = {}
    for n in orig:
        if n.link:
            o_links.setdefault(n.link, []).append(n)
    for n in ours:
        if not n.link or n.link not in o_links:
            continue
        theirs = o_links[n.link]
        # (a C function and a Fortran bind(C) procedure of one name are one C symbol)
        same = [t for t in theirs if t.kind == n.kind or (t.kind in ROUTINE_KINDS and n.kind in ROUTINE_KINDS)
                or {t.kind, n.kind} <= {"bind", "cfunction"}]
        if not same:
            t = theirs[0]
            clashes["symbols"].append(
                f"{n.link}: ours is the {n.kind} {n.name} ({n.where}), the original's is the {t.kind} {t.name} ({t.where})")
    for n in ours:
        if n.kind != "constant":
            continue
        if n.key in o_consts:
            if not any(_value(t.value) == _value(n.value) for t in o_consts[n.key]):
                t = o_consts[n.key][0]
                clashes["constants"].append(
                    f"{n.name}: ours is {n.value} ({n.where}), the original's is {t.value} ({t.where})")
        else:
            other = other_meaning(n.key, ("constant",))
            if other:
                clashes["constants"].append(f"{n.name}: ours is a constant ({n.where}), {other}")
    for n in ours:
        if n.kind == "type":
            other = other_meaning(n.key, ("type",))
        elif n.kind == "module":
            other = other_meaning(n.key, ("module",))
            # an installed module of the same name would have to be the original's
            if n.key in INSTALLED_MODULES and not n.where.startswith(ORIGINAL_MODULES):
                other = f"the original's installed module {n.name}"
        else:
            continue
        if other:
            clashes["types"].append(f"{n.name}: ours is a {n.kind} ({n.where}), {other}")
    return clashes


def self_test(orig):
    """The checks must fail on a planted clash: the original's test driver's name, 3 arguments."""
    planted = names.fortran_names(
        "subroutine RPN_COMM_i_win_test(req, flag, ierr)\nend subroutine RPN_COMM_i_win_test\n", "planted.F90")
    got = check(planted, orig)["routines"]
    planted_ok = any(line.startswith("RPN_COMM_i_win_test:") and "nparams" in line for line in got)
    # the deliberate difference admits its one signature only
    other = names.fortran_names(
        "function RPN_COMM_i_win_get_ptr(window, ierr, np) result(p)\nend function RPN_COMM_i_win_get_ptr\n",
        "planted.F90")
    got_other = check(other, orig)["routines"]
    deliberate_ok = any(line.startswith("RPN_COMM_i_win_get_ptr:") for line in got_other)
    return planted_ok and deliberate_ok, got + got_other


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--list", default=LIST)
    ap.add_argument("--root", default=ROOT)
    a = ap.parse_args()
    with open(a.list, encoding="utf-8") as f:
        orig = names.load(f)
    ours = our_names(a.root)
    passed = failed = 0
    exported = sorted({n.name for n in ours if n.kind in ("external", "entry", "generic", "cfunction")})
    print(f"{len(exported)} routines exported here, {len(orig)} names in {os.path.relpath(a.list, a.root)}")
    for what, lines in check(ours, orig).items():
        if lines:
            failed += 1
            print(f"FAIL names: {what}: {len(lines)} clash(es) with the original RPN_COMM 4.6.3")
            for line in lines:
                print(f"  {line}")
        else:
            passed += 1
            print(f"PASS names: {what}")
    total, lines = coverage(ours, orig)
    if lines:
        failed += 1
        print(f"FAIL names: coverage: {len(lines)} of the original's {total} public routines")
        for line in lines:
            print(f"  {line}")
    else:
        passed += 1
        print(f"PASS names: coverage: {total - len(NOT_PROVIDED)} of the original's {total} public routines "
              f"here, {len(NOT_PROVIDED)} not (NOT_PROVIDED)")
    for key, why in sorted(NOT_PROVIDED.items()):
        print(f"NOTE names: {key} is not provided: {why}")
    ok, got = self_test(orig)
    if ok:
        passed += 1
        print("PASS names: self-test (a planted clash is reported)")
    else:
        failed += 1
        print(f"FAIL names: self-test: the planted clash was not reported ({got})")
    for key, (ours_sig, theirs_sig, why) in DELIBERATE.items():
        print(f"NOTE names: {key}({', '.join(ours_sig[1])}) differs from the original's "
              f"({', '.join(theirs_sig[1])}) on purpose: {why}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
