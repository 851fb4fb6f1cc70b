#!/usr/bin/env bash
# make check's census part (after the build): the scanner's own tests (test_census.py), then
# every routine of the committed census files against the built archive and the installed
# include files (census.py check, BUILD_DIR/lib/librpncomm_windows.a). The census's name literals
# are the cargo test `census` (tests/census.rs). Last line: "N passed, N failed".
set -u
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=tests/lib/totals.sh
. tests/lib/totals.sh || { echo "0 passed, 1 failed"; exit 1; }
log=$(mktemp "${TMPDIR:-/tmp}/census-check.XXXXXX")
trap 'rm -f -- "$log"' EXIT
passed=0
failed=0
for part in "scanner tests:tests/census/test_census.py" "census routines:tests/census/census.py check"; do
    what=${part%%:*}
    read -r -a cmd <<< "${part#*:}"
    python3 -B "${cmd[@]}" 2>&1 | tee "$log"
    read_totals "$what" "$log" "${PIPESTATUS[0]}"
    passed=$((passed + part_passed))
    failed=$((failed + part_failed))
done
echo "$passed passed, $failed failed"
((failed == 0))
