#!/usr/bin/env python3
"""Tests of the Fortran sources' generator and checker (part of `make check`).

    python3 -B fortran/gen/test_fortran_gen.py

Checks that the committed RPN_COMM_interfaces.inc is what the externals generate and that the
bind(C) interfaces match the C header, then that both tools do fail on drifted temporary copies
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

import check_c_binding
import gen_interfaces

ROOT = gen_interfaces.ROOT
EXTERNALS = gen_interfaces.EXTERNALS
INTERFACES = gen_interfaces.OUTPUT
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
    """Temporary copies of the real files, one of them changed by a test."""

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="rpncomm-gen-test.")
        self.files = {}
        for key, paths in (("header", [HEADER]), ("binding", BINDINGS), ("types", [TYPES]), ("constants", [CONSTANTS]),
                           ("externals", EXTERNALS), ("interfaces", [INTERFACES])):
            copies = []
            for path in paths:
                copies.append(os.path.join(self.dir, os.path.relpath(path, ROOT).replace(os.sep, "_")))
                shutil.copy(path, copies[-1])
            self.files[key] = copies if len(paths) > 1 else copies[0]

    def tearDown(self):
        shutil.rmtree(self.dir)

    def edit(self, key, old, new, count=1):
        """Replaces `old` (a regular expression) by `new` in the copy of file `key` (of the one file of
        the group `key` that has it), `count` times."""
        paths = self.files[key] if isinstance(self.files[key], list) else [self.files[key]]
        for path in paths:
            with open(path, encoding="utf-8") as f:
                text = f.read()
            changed, n = re.subn(old, new, text, count=count, flags=re.M)
            if n:
                break
        self.assertEqual(n, count, f"the test's pattern {old!r} is not in {paths}")
        with open(path, "w", encoding="utf-8") as f:
            f.write(changed)

    def problems(self):
        f = self.files
        return check_c_binding.check(f["header"], f["binding"], f["types"], f["constants"])[1]

    def assertDrift(self, *fragments):
        """The checker reports exactly one problem and it contains every fragment."""
        problems = self.problems()
        self.assertEqual(len(problems), 1, "\n".join(problems))
        for frag in fragments:
            self.assertIn(frag, problems[0])


class CommittedFiles(unittest.TestCase):
    def test_interfaces_include_is_what_the_externals_generate(self):
        status, out = quiet(gen_interfaces.main, ["--check"])
        self.assertEqual(status, 0, out)

    def test_bind_c_interfaces_match_the_header(self):
        n, problems = check_c_binding.check()
        self.assertEqual(problems, [])
        self.assertGreaterEqual(n, 30)  # every interface was found and compared

    def test_every_concern_has_its_bind_c_interfaces(self):
        for path in BINDINGS:
            n, problems = check_c_binding.check(binding=path)
            self.assertEqual(problems, [], path)
            self.assertGreaterEqual(n, 4, path)


class GeneratorDrift(Drift):
    def run_gen(self, *extra):
        return quiet(gen_interfaces.main, ["--externals", *self.files["externals"], "--output", self.files["interfaces"], *extra])

    def test_hand_edit_of_the_include_file_is_detected(self):
        self.edit("interfaces", r"integer, intent\(IN\) :: slots", "integer(8), intent(IN) :: slots")
        status, out = self.run_gen("--check")
        self.assertEqual(status, 1)
        self.assertIn("+      integer, intent(IN) :: slots", out)

    def test_changed_external_is_detected_then_regenerated(self):
        self.edit("externals", r"integer, intent\(IN\) :: siz$", "integer(C_INT64_T), intent(IN) :: siz")
        status, out = self.run_gen("--check")
        self.assertEqual(status, 1, out)
        self.assertEqual(self.run_gen()[0], 0)
        with open(self.files["interfaces"], encoding="utf-8") as f:
            text = f.read()
        self.assertIn("      integer(C_INT64_T), intent(IN) :: siz\n", text)
        self.assertIn("      use ISO_C_BINDING, only: C_INT64_T, C_PTR\n", text)
        self.assertEqual(self.run_gen("--check")[0], 0)

    def test_declaration_mixing_a_dummy_and_a_local_is_refused(self):
        self.edit("externals", r"integer, intent\(OUT\)   :: Pelocal, Petotal", "integer :: Pelocal, Petotal, extra")
        status, out = self.run_gen()
        self.assertEqual(status, 2)
        self.assertIn("mixes dummies with locals (extra)", out)

    def test_undeclared_dummy_is_refused(self):
        self.edit("externals", r"^  integer, intent\(INOUT\) :: size .*\n", "")
        status, out = self.run_gen()
        self.assertEqual(status, 2)
        self.assertIn("RPN_COMM_size: no declaration with '::' for size", out)


class CheckerDrift(Drift):
    def test_unchanged_copies_pass(self):
        self.assertEqual(self.problems(), [])

    def test_c_function_bound_twice(self):
        self.edit("binding", r"^    function rpncomm_wtime\(\) result\(t\) bind\(C, name='rpncomm_wtime'\)",
                  "    function rpncomm_wtime() result(t) bind(C, name='rpncomm_bloc')")
        problems = self.problems()
        self.assertTrue(any("rpncomm_bloc already bound at" in p for p in problems), problems)

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
        self.assertDrift("bind(C, name='rpncomm_win_close'): no such function")

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
        self.edit("binding", r"type\(\*\), dimension\(\*\), intent\(IN\)    :: sendbuf\n      type\(\*\), dimension\(\*\), intent\(INOUT\) :: recvbuf",
                  "type(C_PTR), intent(IN), value :: sendbuf\n      type(*), dimension(*), intent(INOUT) :: recvbuf")
        self.assertEqual(self.problems(), [])  # an address by value is a void * too
        self.edit("binding", r"type\(C_PTR\), intent\(IN\), value :: sendbuf", "integer(C_INT), intent(IN), value :: sendbuf")
        self.assertDrift("rpncomm_allreduce argument 1", "C const void * is a pointer, Fortran passes the value")

    def test_typed_function_and_bind_without_name(self):
        self.edit("binding", r"function rpncomm_wtime\(\) result\(t\) bind\(C, name='rpncomm_wtime'\)\n      import :: C_DOUBLE\n      real\(C_DOUBLE\) :: t",
                  "real(C_DOUBLE) function rpncomm_wtime() bind(C)\n      import :: C_DOUBLE")
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
