#!/usr/bin/env bash
# `make check-full`: the whole matrix, as CI's subset plus what only the full run does:
#   1. make check                  the shared-memory suite (what CI runs)
#  1b. make check FC=$FLANG_FC     its Fortran parts with LLVM Flang (default flang-new-19), the
#                                  whole of them (CI runs a quick pass, CHECK_QUICK=1)
#   2. make check-full MPI=1       every MPI configuration, PE count and simulated-node layout,
#                                  the whole Fortran suite on the PyPI MPIs
# (`make stress` runs the reliability tests at full size on their own.)
# The last line is the sum, "N passed, N failed"; the exit status is non-zero if N failed > 0.
set -u

cd "$(dirname "$0")/.." || exit 2
# shellcheck source=tests/lib/totals.sh
. tests/lib/totals.sh || { echo "0 passed, 1 failed"; exit 1; }
MAKE=${MAKE:-make}
LOGDIR=build/check-full
mkdir -p "$LOGDIR"
total_pass=0 total_fail=0
for part in "check" "check FC=${FLANG_FC:-flang-new-19}" "check-full MPI=1"; do
    log="$LOGDIR/$(echo "$part" | tr ' =' '__').log"
    printf '\n==== make %s\n' "$part"
    # shellcheck disable=SC2086
    "$MAKE" --no-print-directory $part 2>&1 | tee "$log"
    read_totals "make $part" "$log" "${PIPESTATUS[0]}"
    total_pass=$((total_pass + part_passed))
    total_fail=$((total_fail + part_failed))
done
echo
echo "summary: make check, make check FC=${FLANG_FC:-flang-new-19}, make check-full MPI=1 (logs in $LOGDIR)"
echo "$total_pass passed, $total_fail failed"
((total_fail == 0))
