#!/usr/bin/env python3
"""The census scanner on small Fortran sources whose calls are known (one test each), then the
symbol check on a made-up archive list. Last line: "N passed, N failed"."""

import os
import sys
import tempfile
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import census  # noqa: E402
import fortran_scan  # noqa: E402

ORIGINAL = census.load_original()
SIG = census.signatures(ORIGINAL)


def calls(text, form="free"):
    found, _ = fortran_scan.scan_statements(fortran_scan.statements(text, form))
    return [(c.routine, c.line, c.args) for c in found]


def tree_census(files):
    with tempfile.TemporaryDirectory() as tmp:
        for rel, text in files.items():
            os.makedirs(os.path.dirname(os.path.join(tmp, rel)), exist_ok=True)
            with open(os.path.join(tmp, rel), "w", encoding="utf-8") as f:
                f.write(text)
        return census.census(tmp, ORIGINAL)


def test_free_form_call_and_function_reference():
    got = calls("program p\n  call RPN_COMM_barrier('GRID', ierr)\n  n = 2 * rpn_comm_comm ('EW')\nend\n")
    assert got == [("rpn_comm_barrier", 2, [(None, "GRID"), (None, None)]),
                   ("rpn_comm_comm", 3, [(None, "EW")])], got


def test_case_is_folded_and_literals_kept_as_written():
    got = calls("CALL Rpn_Comm_Allreduce(a, b, 1, 'mpi_real8', 'Mpi_Sum', 'grid', ierr)\n")
    assert got[0][0] == "rpn_comm_allreduce" and got[0][2][3:6] == [(None, "mpi_real8"), (None, "Mpi_Sum"),
                                                                   (None, "grid")], got


def test_free_form_continuation_with_comments_between():
    src = ("call rpn_comm_bcast(buf, n, &   ! the count\n"
           "! a comment line inside the statement\n"
           "\n"
           "       &  'MPI_INTEGER', 0, &\n"
           "   'GRID', ierr)\n")
    got = calls(src)
    assert got == [("rpn_comm_bcast", 1, [(None, None), (None, None), (None, "MPI_INTEGER"), (None, None),
                                          (None, "GRID"), (None, None)])], got


def test_literal_continued_across_lines():
    src = "call rpn_comm_bcast(x, 1, 'MPI_INT&\n   &EGER', 0, \"GR&\n&ID\", ierr)\n"
    got = calls(src)
    assert got[0][2][2] == (None, "MPI_INTEGER") and got[0][2][4] == (None, "GRID"), got


def test_comments_and_strings_are_not_calls():
    src = ("! call rpn_comm_finalize(ierr)\n"
           "print *, 'call RPN_COMM_x(1)', \"rpn_comm_y(\"   ! rpn_comm_z(\n"
           "write(6,*) 'it''s rpn_comm_w(2)'\n"
           "#if 0\n"
           "#define F rpn_comm_v(1)\n"
           "#endif\n")
    assert calls(src) == [], calls(src)


def test_fixed_form():
    src = ("C     call rpn_comm_finalize(ierr)\n"
           "*     call rpn_comm_barrier('GRID', ierr)\n"
           "c\n"
           "      call rpn_comm_allreduce(a, b, 1, 'MPI_REAL',\n"
           "     %     'MPI_MAX', 'GRID', ierr)\n"
           "      call rpn_comm_\n"
           "     1bcast(x, 1, 'MPI_INTEGER', 0, 'GRID', ierr)\n"
           "      call barrier2   ! rpn_comm_size(1)\n")
    got = calls(src, "fixed")
    assert [(g[0], g[1]) for g in got] == [("rpn_comm_allreduce", 4), ("rpn_comm_bcast", 6)], got
    assert got[0][2][4] == (None, "MPI_MAX") and got[1][2][2] == (None, "MPI_INTEGER"), got


def test_call_without_arguments_and_semicolons():
    got = calls("call rpn_comm_finalize; x = rpn_comm_mype(a,b,c); call rpn_comm_barrier('NS',i)\n")
    assert [g[0] for g in got] == ["rpn_comm_finalize", "rpn_comm_mype", "rpn_comm_barrier"], got


def test_declarations_interfaces_and_components_are_not_calls():
    src = ("interface\n"
           "  integer function RPN_COMM_topo(a, b)\n"
           "  end function RPN_COMM_topo\n"
           "end interface\n"
           "integer, external :: rpn_comm_mype\n"
           "x = obj%rpn_comm_size(1)\n"
           "y = my_rpn_comm_size(1)\n")
    got, defined = fortran_scan.scan_statements(fortran_scan.statements(src, "free"))
    assert got == [] and defined == set(), (got, defined)


def test_nested_calls_and_keyword_arguments():
    got = calls("x = max(rpn_comm_topo(n, a, b, c, d, 1, e, .true., .false.), "
                "rpn_comm_comm(com='NS'))\n")
    assert [g[0] for g in got] == ["rpn_comm_topo", "rpn_comm_comm"] and got[1][2] == [("com", "NS")], got


def test_classification_by_signature_and_shape():
    k = census.literal_kind
    assert k("rpn_comm_allreduce", 4, None, "MPI_LOGICAL", SIG) == "datatype"
    assert k("rpn_comm_allreduce", 5, None, "MPI_LOR", SIG) == "operator"
    assert k("rpn_comm_allreduce", 6, None, "WORLD", SIG) == "communicator"
    assert k("rpn_comm_alltoall", 6, None, "mpi_real8", SIG) == "datatype", SIG.get("rpn_comm_alltoall")
    assert k("rpn_comm_comm", 1, None, "GRID", SIG) == "communicator"
    assert k("rpn_comm_datyp", 1, None, "MPI_REAL", SIG) == "datatype"
    assert k("rpn_comm_bcast", 5, "com", "GRID", SIG) == "communicator"
    assert k("rpn_comm_unknown", 2, None, "MPI_BXOR", SIG) == "operator"
    assert k("rpn_comm_unknown", 2, None, "MPI_COMPLEX8", SIG) == "datatype"
    assert k("rpn_comm_unknown", 2, None, "some file name", SIG) is None


def test_tree_census_counts_sites_files_and_own_routines():
    routines, literals, files, defined = tree_census({
        "a/one.F90": "call rpn_comm_barrier('GRID', i)\ncall rpn_comm_barrier('grid', i)\n"
                     "call rpn_comm_local(1)\n",
        "b/two.f": "      call rpn_comm_barrier('GRID', i)\n",
        "b/own.f90": "subroutine rpn_comm_local(n)\nend subroutine rpn_comm_local\n",
        "b/notes.txt": "call rpn_comm_finalize(ierr)\n",
        "b/types.F90": "type(rpn_mpi_comm) :: c\nc = RPN_MPI_Comm(0)\n",
    })
    assert routines["rpn_comm_barrier"][0] == 3 and routines["rpn_comm_barrier"][1] == {"a/one.F90", "b/two.f"}
    assert set(routines) == {"rpn_comm_barrier"}, routines
    assert defined == {"rpn_comm_local"}, defined
    assert literals == {("communicator", "rpn_comm_barrier", "1", "GRID"): 2,
                        ("communicator", "rpn_comm_barrier", "1", "grid"): 1}, literals
    assert files == {"a/one.F90", "b/two.f"}


def test_include_file_form():
    assert fortran_scan.source_form("x.inc", "      integer a\nC comment\n     &  , b\n") == "fixed"
    assert fortran_scan.source_form("x.inc", "integer :: a\ncall rpn_comm_barrier('GRID', i)\n") == "free"
    assert fortran_scan.source_form("x.c", "call rpn_comm_barrier('GRID', i)\n") is None


def test_census_file_round_trip():
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "p.F90"), "w", encoding="utf-8") as f:
            f.write("call rpn_comm_bcast(x, 1, 'it''s', 0, 'GRID', i)\n"
                    "call rpn_comm_allreduce(a, b, 1, 'MPI_REAL', 'MPI_SUM', 'EW', i)\n")
        text = census.render("t", "test tree", tmp, ORIGINAL)
        path = os.path.join(tmp, "t.txt")
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        routines, literals = census.read_census(path)
    assert routines == {"rpn_comm_bcast": (1, "p.F90:1"), "rpn_comm_allreduce": (1, "p.F90:2")}, routines
    assert ("datatype", "rpn_comm_bcast", "3", "it's", 1) in literals, literals
    assert ("operator", "rpn_comm_allreduce", "5", "MPI_SUM", 1) in literals, literals
    assert ("reduction", "rpn_comm_allreduce", "MPI_REAL", "MPI_SUM", 1) in literals, literals
    assert not any(k[0] == "reduction" and k[1] == "rpn_comm_bcast" for k in literals), literals


def test_symbol_check():
    symbols = {"rpn_comm_bcast_", "rpn_comm_get_my_domain_2_"}
    generics = {"rpn_comm_get_my_domain": {"rpn_comm_get_my_domain_2"},
                "rpn_comm_gridinit": {"rpn_comm_init_multi_level2"}}
    assert census.provided("rpn_comm_bcast", symbols, generics) is None
    assert census.provided("rpn_comm_get_my_domain", symbols, generics) is None
    assert "rpn_comm_init_multi_level2" in census.provided("rpn_comm_gridinit", symbols, generics)
    assert "no symbol rpn_comm_topo_" in census.provided("rpn_comm_topo", symbols, generics)


def main():
    tests = [(n, f) for n, f in sorted(globals().items()) if n.startswith("test_") and callable(f)]
    passed = failed = 0
    for name, fn in tests:
        try:
            fn()
        except Exception:  # noqa: BLE001 - every failure is reported the same way
            failed += 1
            print(f"FAIL {name}")
            traceback.print_exc(limit=2)
        else:
            passed += 1
            print(f"PASS {name}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
