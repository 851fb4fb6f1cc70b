# shellcheck shell=bash
# Reading the "N passed, N failed" line that ends the output of every test script of make check
# (tests/check.sh, tests/run_fortran_tests.sh, tests/fuzz.sh, tests/loom.sh, mpi/check_mpi.sh,
# fortran/gen/test_fortran_gen.py) by the scripts that add such parts up (tests/check.sh,
# mpi/check_mpi.sh, .ci/run).
#
#   read_totals WHAT LOG STATUS
#       sets part_passed and part_failed from the last "N passed, N failed" line of the file LOG,
#       written by a part that exited with STATUS. A part that printed no such line, or exited
#       non-zero with 0 failed, counts one failure, and WHAT (the part's name) is printed saying so.

read_totals() {
    local what=$1 log=$2 status=$3 line
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" 2>/dev/null | tail -n 1)
    if [[ -z "$line" ]]; then
        echo "$what ended (exit status $status) before printing its totals (counted as one failure)"
        part_passed=0
        part_failed=1
        return 0
    fi
    read -r part_passed _ part_failed _ <<< "$line"
    if ((status != 0 && part_failed == 0)); then
        echo "$what: exit status $status without a failed test reported (counted as one failure)"
        part_failed=1
    fi
}
