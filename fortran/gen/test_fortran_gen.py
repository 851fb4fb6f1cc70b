#!/usr/bin/env python3
"""Tests of the Fortran layer's table, generator and checkers (part of `make check`).

    python3 -B fortran/gen/test_fortran_gen.py

Checks that the committed generated files are what fortran/routines.toml generates, that every
hand-written routine has the signature of its row (and every row its routine), and that the
bind(C) interfaces match the C header; then that the tools do fail on drifted temporary copies
of the real files (one drift per test). Prints one line per test and "N passed, N failed" last.
"""

import contextlib
import io
import os
import re
import shutil
import sys
import tempfile
import unittest

import adopt_rows
import check_c_binding
import check_routines
import gen_interfaces
import table as tbl

ROOT = gen_interfaces.ROOT
TABLE = tbl.TABLE
HEADER = check_c_binding.HEADER
BINDINGS = check_c_binding.BINDINGS
TYPES = check_c_binding.TYPES
CONSTANTS = check_c_binding.CONSTANTS


def quiet(fn, *args):
    """fn(*args) with its stdout and stderr captured: (result, output)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        result = fn(*args)
    return result, out.getvalue()


class Drift(unittest.TestCase):
    """A temporary copy of fortran/ and of the header, one file of it changed by a test."""

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="rpncomm-gen-test.")
        shutil.copytree(os.path.join(ROOT, "fortran"), os.path.join(self.dir, "fortran"),
                        ignore=shutil.ignore_patterns("__pycache__", "gen"))
        os.makedirs(os.path.join(self.dir, "include"))
        shutil.copy(HEADER, os.path.join(self.dir, "include"))

        def copy(path):
            return os.path.join(self.dir, os.path.relpath(path, ROOT))

        self.files = {"header": copy(HEADER), "binding": [copy(b) for b in BINDINGS], "types": copy(TYPES),
                      "constants": copy(CONSTANTS), "table": copy(TABLE),
                      "interfaces": copy(os.path.join(ROOT, gen_interfaces.INTERFACES)),
                      "routines": sorted(copy(p) for _, p in check_routines.hand_written_files(
                          os.path.join(ROOT, "fortran"), tbl.load()))}

    def tearDown(self):
        shutil.rmtree(self.dir)

    def edit(self, key, old, new, count=1, only=""):
        """Replaces `old` (a regular expression) by `new` in the copy of file `key` (of the first file of
        the group `key` that has it, among those whose path ends with `only`), `count` times."""
        paths = self.files[key] if isinstance(self.files[key], list) else [self.files[key]]
        paths = [p for p in paths if p.endswith(only)]
        for path in paths:
            with open(path, encoding="utf-8") as f:
                text = f.read()
            changed, n = re.subn(old, new, text, count=count, flags=re.M)
            if n:
                break
        self.assertEqual(n, count, f"the test's pattern {old!r} is not in {paths}")
        with open(path, "w", encoding="utf-8") as f:
            f.write(changed)

    def append(self, key, text):
        with open(self.files[key], "a", encoding="utf-8") as f:
            f.write(text)

    def problems(self):
        f = self.files
        return check_c_binding.check(f["header"], f["binding"], f["types"], f["constants"])[1]

    def routine_problems(self):
        return check_routines.check(self.files["table"], os.path.join(self.dir, "fortran"))[1]

    def assertDrift(self, *fragments, problems=None):
        """The checker reports exactly one problem and it contains every fragment."""
        problems = self.problems() if problems is None else problems
        self.assertEqual(len(problems), 1, "\n".join(problems))
        for frag in fragments:
            self.assertIn(frag, problems[0])

    def run_gen(self, *extra):
        return quiet(gen_interfaces.main, ["--table", self.files["table"], "--root", self.dir, *extra])


class CommittedFiles(unittest.TestCase):
    def test_generated_files_are_what_the_table_generates(self):
        status, out = quiet(gen_interfaces.main, ["--check"])
        self.assertEqual(status, 0, out)

    def test_every_routine_has_the_signature_of_its_row(self):
        n, problems = check_routines.check()
        self.assertEqual(problems, [])
        table = tbl.load()
        self.assertEqual(n, len([r for r in table.routines.values() if r.body == "hand"]))
        self.assertGreaterEqual(n, 60)  # every hand-written routine was found and compared
        self.assertGreaterEqual(len(table.routines), 100)

    def test_bind_c_interfaces_match_the_header(self):
        n, problems = check_c_binding.check()
        self.assertEqual(problems, [])
        self.assertEqual(n, len(tbl.load().cfuncs))
        self.assertGreaterEqual(n, 95)

    def test_every_concern_has_its_bind_c_interfaces(self):
        for path in BINDINGS:
            n, problems = check_c_binding.check(binding=path)
            self.assertEqual(problems, [], path)
            self.assertGreaterEqual(n, 4, path)

    def test_one_fortran_interface_per_routine(self):
        # each routine's interface is in one generated file (RPN_COMM_comm: the include and RPN_MPI.hf,
        # kept apart by IN_RPN_COMM_comm), and each C function is bound in one module;
        # RPN_COMM_interfaces.hf is included instead of the others, so it is counted apart
        table = tbl.load()
        files = gen_interfaces.generate(table)
        for row in list(table.routines.values()) + list(table.cfuncs.values()):
            where = [rel for rel, text in files.items() if not rel.endswith("_direct.F90") and rel != gen_interfaces.ALL_HF
                     and re.search(rf"^\s*(subroutine|function) {row.name}\(", text, re.M | re.I)]
            expected = 2 if {"include", "RPN_MPI"} <= set(row.declared) else 0 if not set(row.declared) - {"external", "hf"} and not row.bind_name else 1
            self.assertEqual(len(where), expected, f"{row.name}: {where}")
            in_hf = re.findall(rf"^\s*(?:subroutine|function) {row.name}\(", files[gen_interfaces.ALL_HF], re.M | re.I)
            self.assertEqual(len(in_hf), 1 if "hf" in row.declared else 0, f"{row.name} in {gen_interfaces.ALL_HF}")

    def test_all_interfaces_hf_buffers_per_compiler(self):
        # a buffer of any type: type(*) where the compiler has it, else logical with IGNORE_TKR
        text = gen_interfaces.generate(tbl.load())[gen_interfaces.ALL_HF]
        body = text[text.index("subroutine RPN_COMM_allreduce("):text.index("end subroutine RPN_COMM_allreduce")]
        self.assertIn("type(*), dimension(*), intent(IN) :: sendbuf", body)
        self.assertIn("logical, dimension(*), intent(IN) :: sendbuf", body)
        self.assertIn("!DIR$ IGNORE_TKR sendbuf, recbuf", body)
        self.assertEqual(text.count("#if"), text.count("#endif"))


ROW = """
[c.rpncomm_win_spare]
concern = "windows"
args = "win, n"
result = "status"
decl = ["type(rpncomm_window), intent(IN) :: win", "integer(C_INT), intent(IN), value :: n", "integer(C_INT) :: status"]

[routine.RPN_COMM_i_win_spare]
concern = "windows"
declared = ["module"]
calls = ["rpncomm_win_spare"]
args = "window, n, ierr"
decl = ["type(rpncomm_window), intent(IN) :: window", "integer, intent(IN) :: n", "integer, intent(OUT) :: ierr"]
"""

EXTERNAL = """
subroutine RPN_COMM_i_win_spare(window, n, ierr)
  use rpn_comm_windows_types
  use rpn_comm_windows_binding
  implicit none
  type(rpncomm_window), intent(IN) :: window
  integer, dimension(1), intent(IN) :: n
  integer, intent(OUT) :: ierr
  ierr = rpncomm_win_spare(window, int(n(1), C_INT))
end subroutine RPN_COMM_i_win_spare
"""


class GeneratorDrift(Drift):
    def test_unchanged_copies_are_up_to_date(self):
        status, out = self.run_gen("--check")
        self.assertEqual(status, 0, out)

    def test_hand_edit_of_the_include_file_is_detected(self):
        self.edit("interfaces", r"integer, intent\(IN\) :: slots", "integer(8), intent(IN) :: slots")
        status, out = self.run_gen("--check")
        self.assertEqual(status, 1)
        self.assertIn("+      integer, intent(IN) :: slots", out)

    def test_hand_edit_of_a_bind_c_module_is_detected(self):
        self.edit("binding", r"integer\(C_INT\), intent\(IN\), value :: slots", "integer(C_INT), intent(IN) :: slots")
        status, out = self.run_gen("--check")
        self.assertEqual(status, 1)
        self.assertIn("windows_binding.F90 differs", out)

    def test_changed_row_is_detected_then_regenerated(self):
        self.edit("table", r'"integer, intent\(INOUT\) :: size",', '"integer(C_INT64_T), intent(INOUT) :: size",')
        status, out = self.run_gen("--check")
        self.assertEqual(status, 1, out)
        self.assertEqual(self.run_gen()[0], 0)
        with open(self.files["interfaces"], encoding="utf-8") as f:
            text = f.read()
        self.assertIn("      integer(C_INT64_T), intent(INOUT) :: size\n", text)
        self.assertIn("    subroutine RPN_COMM_size(com, size, ierr)\n      use ISO_C_BINDING, only: C_INT64_T\n", text)
        self.assertEqual(self.run_gen("--check")[0], 0)
        # the external routine still declares siz as before: it no longer matches its row
        self.assertDrift("RPN_COMM_size: argument size is `integer, intent(inout)`, its row says `integer(c_int64_t), intent(inout)`",
                         problems=self.routine_problems())

    def test_a_new_routine_is_two_rows(self):
        self.append("table", ROW.replace('declared = ["module"]', 'declared = ["module"]\nbody = "direct"'))
        self.assertEqual(self.run_gen()[0], 0)
        direct = os.path.join(self.dir, "fortran", "windows", "windows_direct.F90")
        with open(direct, encoding="utf-8") as f:
            self.assertIn("subroutine RPN_COMM_i_win_spare(window, n, ierr)\n"
                          "  use ISO_C_BINDING, only: C_INT\n"
                          "  use rpn_comm_windows_types, only: rpncomm_window\n"
                          "  use rpn_comm_windows_binding, only: rpncomm_win_spare\n"
                          "  implicit none\n"
                          "  type(rpncomm_window), intent(IN) :: window\n"
                          "  integer, intent(IN) :: n\n"
                          "  integer, intent(OUT) :: ierr\n"
                          "  ierr = rpncomm_win_spare(window, int(n, C_INT))\n"
                          "end subroutine RPN_COMM_i_win_spare\n", f.read())
        self.assertEqual(self.routine_problems(), [])  # generated: no external to write
        self.assertDrift("rpncomm_win_spare'): no such function")  # until the C function exists
        self.append("header", "\nint rpncomm_win_spare(const struct rpncomm_handle *win, int n);\n")
        self.assertEqual(self.problems(), [])

    def test_a_direct_body_cannot_pass_every_argument(self):
        self.edit("table", r'^(\[routine.RPN_COMM_i_win_group\]\nconcern = "windows"\n)', '\\1body = "direct"\n')
        status, out = self.run_gen()
        self.assertEqual(status, 2)
        self.assertIn("[routine.RPN_COMM_i_win_group]: a direct body cannot pass pes_from (integer, dimension(:), intent(IN) :: pes_from) to rpncomm_win_group's n_to", out)

    def test_a_direct_body_makes_one_call(self):
        self.edit("table", r'^(\[routine.RPN_COMM_i_win_free\]\nconcern = "windows"\nbody = "direct"\n(.*\n)*?)calls = \["rpncomm_win_free"\]',
                  '\\1calls = ["rpncomm_win_free", "rpncomm_win_close"]')
        status, out = self.run_gen()
        self.assertEqual(status, 2)
        self.assertIn("[routine.RPN_COMM_i_win_free]: a direct body makes one C call; calls lists 2", out)

    def test_hand_written_routine_of_a_direct_row(self):
        with open(os.path.join(self.dir, "fortran", "windows", "windows_routines.F90"), "a", encoding="utf-8") as f:
            f.write("\nsubroutine RPN_COMM_i_win_free(window, ierr)\n  use rpn_comm_windows_types\n"
                    "  use rpn_comm_windows_binding\n  implicit none\n  type(rpncomm_window), intent(INOUT) :: window\n"
                    "  integer, intent(OUT) :: ierr\n  ierr = rpncomm_win_free(window)\nend subroutine RPN_COMM_i_win_free\n")
        self.assertDrift("RPN_COMM_i_win_free: written by hand, but its row's body is direct", problems=self.routine_problems())

    def test_a_new_routine_is_two_rows_and_its_external(self):
        self.append("table", ROW)
        self.assertEqual(self.run_gen()[0], 0)
        with open(self.files["interfaces"], encoding="utf-8") as f:
            self.assertIn("    subroutine RPN_COMM_i_win_spare(window, n, ierr)\n      import :: rpncomm_window\n", f.read())
        binding = [b for b in self.files["binding"] if b.endswith("windows_binding.F90")][0]
        with open(binding, encoding="utf-8") as f:
            self.assertIn("    function rpncomm_win_spare(win, n) result(status) bind(C, name='rpncomm_win_spare')\n", f.read())
        # the header lacks the C function, the routines lack the external
        self.assertDrift("rpncomm_win_spare'): no such function")
        self.assertDrift("[routine.RPN_COMM_i_win_spare]: no external procedure RPN_COMM_i_win_spare in fortran/windows/",
                         problems=self.routine_problems())
        with open(os.path.join(self.dir, "fortran", "windows", "windows_routines.F90"), "a", encoding="utf-8") as f:
            f.write(EXTERNAL)
        self.assertDrift("RPN_COMM_i_win_spare: argument n is `integer, intent(in), dimension(1)`, its row says `integer, intent(in)`",
                         problems=self.routine_problems())

    def test_undeclared_argument_is_refused(self):
        self.edit("table", r'^decl = \["integer, intent\(IN\) :: nblocx, nblocy", "integer :: status"\]',
                  'decl = ["integer, intent(IN) :: nblocx", "integer :: status"]')
        status, out = self.run_gen()
        self.assertEqual(status, 2)
        self.assertIn("[routine.RPN_COMM_bloc]: no declaration of nblocy", out)

    def test_declaration_of_a_non_argument_is_refused(self):
        self.edit("table", r'^decl = \["integer, intent\(IN\) :: nblocx, nblocy", "integer :: status"\]',
                  'decl = ["integer, intent(IN) :: nblocx, nblocy, extra", "integer :: status"]')
        status, out = self.run_gen()
        self.assertEqual(status, 2)
        self.assertIn("[routine.RPN_COMM_bloc]: 'extra' is declared but is neither an argument nor the result", out)

    def test_call_of_a_c_function_without_a_row_is_refused(self):
        self.edit("table", r'^calls = \["rpncomm_bloc"\]', 'calls = ["rpncomm_blocs"]')
        status, out = self.run_gen()
        self.assertEqual(status, 2)
        self.assertIn("[routine.RPN_COMM_bloc]: calls rpncomm_blocs, which has no [c.rpncomm_blocs] row", out)


class RoutinesDrift(Drift):
    def test_unchanged_copies_pass(self):
        self.assertEqual(self.routine_problems(), [])

    def test_external_declaration_differs_from_its_row(self):
        self.edit("routines", r"^  integer, intent\(OUT\) :: Me, Me_x, Me_y$", "  integer, intent(INOUT) :: Me, Me_x, Me_y")
        problems = self.routine_problems()
        self.assertEqual(len(problems), 3, problems)  # Me, Me_x and Me_y
        self.assertIn("RPN_COMM_mype: argument Me is `integer, intent(inout)`, its row says `integer, intent(out)`", problems[0])

    def test_same_meaning_written_otherwise_passes(self):
        self.edit("routines", r"^  integer, intent\(OUT\) :: Me, Me_x, Me_y$", "  integer, intent(out) :: Me_y\n  INTEGER,INTENT(OUT)::Me, Me_x")
        self.assertEqual(self.routine_problems(), [])

    def test_arguments_reordered(self):
        self.edit("routines", r"^function RPN_COMM_mype\(Me, Me_x, Me_y\)", "function RPN_COMM_mype(Me_x, Me, Me_y)")
        self.assertDrift("RPN_COMM_mype: arguments (Me_x, Me, Me_y), its row (Me, Me_x, Me_y)", problems=self.routine_problems())

    def test_result_type_changed(self):
        self.edit("routines", r"^function RPN_COMM_wtime\(\) result\(t\)\n(.*\n.*\n)  real\(C_DOUBLE\) :: t",
                  "function RPN_COMM_wtime() result(t)\n\\1  real(C_FLOAT) :: t")
        self.assertDrift("RPN_COMM_wtime: result t is `real(c_float)`, its row says `real(c_double)`", problems=self.routine_problems())

    def test_external_without_a_row(self):
        self.edit("routines", r"^function RPN_COMM_mype\(", "function RPN_COMM_mypes(")
        self.edit("routines", r"^end function RPN_COMM_mype$", "end function RPN_COMM_mypes")
        problems = self.routine_problems()
        self.assertEqual(len(problems), 2, problems)
        self.assertIn("RPN_COMM_mypes: an external procedure without a [routine.RPN_COMM_mypes] row", problems[0])
        self.assertIn("[routine.RPN_COMM_mype]: no external procedure RPN_COMM_mype in fortran/grid/", problems[1])

    def test_external_in_the_folder_of_another_concern(self):
        self.edit("table", r'^(\[routine.RPN_COMM_mype\]\n)concern = "grid"', '\\1concern = "process"')
        self.assertDrift("RPN_COMM_mype: in fortran/grid/, its row's concern is process", problems=self.routine_problems())

    def test_call_not_listed(self):
        self.edit("table", r'^calls = \["rpncomm_mype"\]', 'calls = []')
        self.assertDrift("RPN_COMM_mype: calls rpncomm_mype, which its row's calls do not list", problems=self.routine_problems())

    def test_listed_call_not_made(self):
        self.edit("table", r'^calls = \["rpncomm_mype"\]', 'calls = ["rpncomm_mype", "rpncomm_bloc"]')
        self.assertDrift("RPN_COMM_mype: does not call rpncomm_bloc, which its row's calls list", problems=self.routine_problems())

    def test_no_arg_check_removed(self):
        self.edit("routines", r"^(subroutine RPN_COMM_recv\(.*\n.*\n  implicit none\n)!GCC\$ ATTRIBUTES NO_ARG_CHECK :: buffer\n", "\\1")
        self.assertDrift("RPN_COMM_recv: NO_ARG_CHECK of (), its row's no_arg_check (buffer)", problems=self.routine_problems())


class TopConcern(Drift):
    """A concern whose routines are at the top of fortran/ (folder = ""), without C functions."""

    def test_routines_at_the_top(self):
        self.append("table", """
[concern.handles]
title = "handles"
binding = "the handles"
folder = ""

[routine.RPN_COMM_null_spare]
concern = "handles"
declared = ["module"]
generic = "RPN_COMM_is_spare"
args = "what"
result = "status"
decl = ["type(rpncomm_window), intent(IN) :: what", "logical :: status"]
""")
        self.assertDrift("[routine.RPN_COMM_null_spare]: no external procedure RPN_COMM_null_spare in fortran/",
                         problems=self.routine_problems())
        with open(os.path.join(self.dir, "fortran", "null_handles.F90"), "w", encoding="utf-8") as f:
            f.write("function RPN_COMM_null_spare(what) result(status)\n  use rpn_comm_windows_types\n  implicit none\n"
                    "  type(rpncomm_window), intent(IN) :: what\n  logical :: status\n"
                    "  status = .not. c_associated(what%p)\nend function RPN_COMM_null_spare\n")
        self.assertEqual(self.routine_problems(), [])  # the modules of types.F90 and rpn_comm_windows.F90 are not routines
        self.assertEqual(self.run_gen()[0], 0)
        with open(self.files["interfaces"], encoding="utf-8") as f:
            text = f.read()
        self.assertIn("  ! --------------------------------------------------------------- handles\n", text)
        self.assertIn("  interface RPN_COMM_is_spare\n    procedure :: RPN_COMM_null_spare\n", text)
        self.assertFalse(os.path.exists(os.path.join(self.dir, "fortran", "handles_binding.F90")))  # no C function


class ConcernInclude(Drift):
    """A concern whose interfaces go to an include of their own (the handles': RPN_COMM_is_null.inc)."""

    def test_its_routines_are_in_its_include_only(self):
        files = gen_interfaces.generate(tbl.load())
        self.assertIn("    function RPN_COMM_null_window(what) result(status)\n", files["fortran/RPN_COMM_is_null.inc"])
        self.assertIn("  interface RPN_COMM_is_null\n", files["fortran/RPN_COMM_is_null.inc"])
        self.assertNotIn("RPN_COMM_null_window", files[gen_interfaces.INTERFACES])
        self.assertNotIn("fortran/types/types_binding.F90", files)  # the handles' routines call no C function

    def test_its_routines_are_checked(self):
        self.edit("routines", r"^  type\(rpncomm_window\), intent\(IN\) :: what$", "  type(rpncomm_window), intent(INOUT) :: what")
        self.assertDrift("RPN_COMM_null_window: argument what is `type(rpncomm_window), intent(inout)`, its row says",
                         problems=self.routine_problems())

    def test_include_named_otherwise_is_refused(self):
        self.edit("table", r'^include = "RPN_COMM_is_null.inc"', 'include = "is_null.h"')
        status, out = self.run_gen()
        self.assertEqual(status, 2)
        self.assertIn("[concern.types]: include must name an RPN_COMM_*.inc of fortran/", out)


class AdoptRows(Drift):
    """Routines written by hand before the table (another branch's work) become rows."""

    def adopt(self):
        return quiet(adopt_rows.main, ["--from", self.dir, "--table", self.files["table"], "--write"])

    def test_nothing_to_adopt_in_the_committed_tree(self):
        status, out = self.adopt()
        self.assertEqual(status, 0, out)
        self.assertIn("adopt_rows: 0 row(s)", out)

    def test_hand_written_routine_becomes_rows(self):
        binding = [b for b in self.files["binding"] if b.endswith("windows_binding.F90")][0]
        self.edit("binding", r"^  end interface$", "    ! how many spares\n"
                  "    function rpncomm_win_spare(win, n) result(status) bind(C, name='rpncomm_win_spare')\n"
                  "      import :: C_INT, rpncomm_window\n      type(rpncomm_window), intent(IN) :: win\n"
                  "      integer(C_INT), intent(IN), value :: n\n      integer(C_INT) :: status\n"
                  "    end function rpncomm_win_spare\n  end interface", only="windows_binding.F90")
        self.edit("interfaces", r"^  end interface$", "    subroutine RPN_COMM_i_win_spare(window, n, ierr)\n"
                  "      import :: rpncomm_window\n      implicit none\n"
                  "      type(rpncomm_window), intent(IN) :: window\n      integer, intent(IN) :: n\n"
                  "      integer, intent(OUT) :: ierr\n    end subroutine RPN_COMM_i_win_spare\n  end interface")
        with open(os.path.join(self.dir, "fortran", "windows", "windows_routines.F90"), "a", encoding="utf-8") as f:
            f.write(EXTERNAL.replace("integer, dimension(1), intent(IN) :: n", "integer, intent(IN) :: n")
                    .replace("int(n(1), C_INT)", "int(n, C_INT)"))
        self.assertDrift("RPN_COMM_i_win_spare: an external procedure without a [routine.RPN_COMM_i_win_spare] row",
                         problems=self.routine_problems())
        status, out = self.adopt()
        self.assertEqual(status, 0, out)
        self.assertIn("adopt_rows: 2 row(s) written", out)
        table = tbl.load(self.files["table"])
        self.assertEqual(table.cfuncs["rpncomm_win_spare"].note, "how many spares")
        row = table.routines["RPN_COMM_i_win_spare"]
        self.assertEqual((row.concern, row.declared, row.calls), ("windows", ["module"], ["rpncomm_win_spare"]))
        self.assertEqual(self.routine_problems(), [])
        self.assertEqual(self.run_gen()[0], 0)  # the hand-written binding and include become generated
        with open(binding, encoding="utf-8") as f:
            self.assertIn("    ! how many spares\n    function rpncomm_win_spare(win, n) result(status)", f.read())
        self.assertEqual(self.adopt()[0], 0)
        self.assertIn("adopt_rows: 0 row(s)", self.adopt()[1])  # adopted once


class CheckerDrift(Drift):
    def test_unchanged_copies_pass(self):
        self.assertEqual(self.problems(), [])

    def test_c_function_bound_twice(self):
        self.edit("binding", r"^    function rpncomm_wtime\(\) result\(t\) bind\(C, name='rpncomm_wtime'\)",
                  "    function rpncomm_wtime() result(t) bind(C, name='rpncomm_bloc')")
        problems = self.problems()
        self.assertTrue(any("rpncomm_bloc already bound at" in p for p in problems), problems)

    def test_header_function_without_a_binding(self):
        self.append("header", "\nint rpncomm_spare(int n);\n")
        self.assertDrift("rpncomm_spare has no bind(C) interface (no [c.rpncomm_spare] row in fortran/routines.toml)")

    def test_missing_argument(self):
        self.edit("header", r"int rpncomm_bloc\(int nblocx, int nblocy\);", "int rpncomm_bloc(int nblocx);")
        self.assertDrift("rpncomm_bloc: 2 arguments in Fortran, 1 in C")

    def test_value_became_reference(self):
        self.edit("binding", r"integer\(C_INT\), intent\(IN\), value :: slots", "integer(C_INT), intent(IN) :: slots")
        self.assertDrift("rpncomm_win_create_secondary argument 2 (slots", "VALUE missing")

    def test_reference_became_value(self):
        self.edit("binding", r"integer\(C_INT\), intent\(OUT\) :: siz$", "integer(C_INT), intent(IN), value :: siz")
        self.assertDrift("rpncomm_win_get_size argument 2", "is a pointer, Fortran passes the value")

    def test_c_integer_widened(self):
        self.edit("header", r"int siz,", "int64_t siz,")
        self.assertDrift("rpncomm_win_create argument 3 (siz / C siz): C int64_t, Fortran integer(C_INT)")

    def test_fortran_kind_changed(self):
        self.edit("binding", r"integer\(C_INT\), intent\(IN\), value :: nblocx, nblocy", "integer(C_LONG), intent(IN), value :: nblocx, nblocy")
        problems = self.problems()
        self.assertEqual(len(problems), 2, problems)  # nblocx and nblocy
        self.assertIn("rpncomm_bloc argument 1 (nblocx / C nblocx): C int, Fortran integer(C_LONG)", problems[0])

    def test_string_length_of_the_wrong_kind(self):
        self.edit("binding", r"integer\(C_SIZE_T\), intent\(IN\), value :: name_len\n      integer\(C_INT\) :: status\n    end function rpncomm_barrier",
                  "integer(C_INT), intent(IN), value :: name_len\n      integer(C_INT) :: status\n    end function rpncomm_barrier")
        self.assertDrift("rpncomm_barrier argument 2 (name_len / C name_len): C size_t, Fortran integer(C_INT)")

    def test_string_without_its_length_in_c(self):
        self.edit("header", r"int rpncomm_barrier\(const char \*name, size_t name_len\);", "int rpncomm_barrier(const char *name, int flags);")
        problems = self.problems()
        self.assertEqual(len(problems), 2, problems)
        self.assertTrue(any("string without the size_t length after it" in p for p in problems), problems)

    def test_renamed_c_function(self):
        self.edit("header", r"int rpncomm_win_close\(", "int rpncomm_win_end(")
        problems = self.problems()
        self.assertEqual(len(problems), 2, problems)
        self.assertIn("bind(C, name='rpncomm_win_close'): no such function", problems[0])
        self.assertIn("rpncomm_win_end has no bind(C) interface", problems[1])

    def test_return_type_changed(self):
        self.edit("header", r"^double rpncomm_wtime\(void\);", "float rpncomm_wtime(void);")
        self.assertDrift("rpncomm_wtime: C returns float, Fortran result real(C_DOUBLE)")

    def test_handle_passed_as_integer(self):
        self.edit("binding", r"type\(rpncomm_window\), intent\(IN\) :: win\n      integer\(C_INT\) :: status\n    end function rpncomm_win_close",
                  "integer(C_INT), intent(IN) :: win\n      integer(C_INT) :: status\n    end function rpncomm_win_close")
        self.assertDrift("rpncomm_win_close argument 1", "a handle needs one of the types of RPN_COMM_types.inc")

    def test_const_pointer_declared_intent_out(self):
        self.edit("binding", r"integer\(C_INT\), dimension\(\*\), intent\(IN\) :: pe, offseti", "integer(C_INT), dimension(*), intent(INOUT) :: pe, offseti")
        problems = self.problems()
        self.assertEqual(len(problems), 5, problems)  # the 5 arrays of that declaration
        self.assertIn("C const int * is const (not written), Fortran declares intent(inout)", problems[0])

    def test_output_pointer_declared_intent_in(self):
        self.edit("binding", r"integer\(C_INT\), intent\(OUT\) :: rank, npes", "integer(C_INT), intent(IN) :: rank, npes")
        problems = self.problems()
        self.assertEqual(len(problems), 2, problems)
        self.assertIn("C int * may be written through, Fortran declares intent(in)", problems[0])

    def test_buffer_passed_by_value(self):
        self.edit("binding", r"type\(\*\), dimension\(\*\), intent\(IN\) :: sendbuf\n      type\(\*\), dimension\(\*\), intent\(INOUT\) :: recvbuf",
                  "type(C_PTR), intent(IN), value :: sendbuf\n      type(*), dimension(*), intent(INOUT) :: recvbuf")
        self.assertEqual(self.problems(), [])  # an address by value is a void * too
        self.edit("binding", r"type\(C_PTR\), intent\(IN\), value :: sendbuf", "integer(C_INT), intent(IN), value :: sendbuf")
        self.assertDrift("rpncomm_allreduce argument 1", "C const void * is a pointer, Fortran passes the value")

    def test_typed_function_and_bind_without_name(self):
        self.edit("binding", r"function rpncomm_wtime\(\) result\(t\) bind\(C, name='rpncomm_wtime'\)\n      import :: C_DOUBLE\n      implicit none\n      real\(C_DOUBLE\) :: t",
                  "real(C_DOUBLE) function rpncomm_wtime() bind(C)\n      import :: C_DOUBLE\n      implicit none")
        self.assertEqual(self.problems(), [])  # the C name of bind(C) alone is the lower-case Fortran name
        self.edit("binding", r"real\(C_DOUBLE\) function rpncomm_wtime", "real(C_FLOAT) function rpncomm_wtime")
        self.assertDrift("rpncomm_wtime: C returns double, Fortran result real(C_FLOAT)")

    def test_string_of_fortran_length(self):
        self.edit("binding", r"character\(kind=C_CHAR\), dimension\(\*\), intent\(IN\) :: name\n      integer\(C_SIZE_T\), intent\(IN\), value :: name_len\n      integer\(C_INT\) :: status\n    end function rpncomm_barrier",
                  "character(kind=C_CHAR, len=8), intent(IN) :: name\n      integer(C_SIZE_T), intent(IN), value :: name_len\n      integer(C_INT) :: status\n    end function rpncomm_barrier")
        self.assertDrift("rpncomm_barrier argument 1 (name / C name): C const char *, Fortran character(C_CHAR, len=8)")

    def test_handle_layout(self):
        self.edit("types", r"integer\(C_INT\) :: t1, t2\n  end type rpncomm_operator", "integer(C_INT64_T) :: t1, t2\n  end type rpncomm_operator")
        self.assertDrift("type rpncomm_operator", "does not have the layout of struct rpncomm_handle")

    def test_status_constant(self):
        self.edit("constants", r"RPN_COMM_ERROR\s*=\s*-1", "RPN_COMM_ERROR = 1")
        self.assertDrift("RPN_COMM_ERROR = 1, -1 in")


class Summary(unittest.TextTestResult):
    def addSuccess(self, test):
        super().addSuccess(test)
        print(f"PASS {test.id()}", file=sys.stdout)

    def addFailure(self, test, err):
        super().addFailure(test, err)
        print(f"FAIL {test.id()}", file=sys.stdout)

    def addError(self, test, err):
        super().addError(test, err)
        print(f"FAIL {test.id()} (error)", file=sys.stdout)


def main():
    suite = unittest.defaultTestLoader.loadTestsFromModule(sys.modules[__name__])
    result = unittest.TextTestRunner(stream=sys.stdout, verbosity=0, resultclass=Summary).run(suite)
    failed = len(result.failures) + len(result.errors)
    print(f"{result.testsRun - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
