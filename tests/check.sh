#!/usr/bin/env bash
# Body of `make check`: eleven parts, their totals summed. Parts 1, 1b and 1c run before the build,
# parts 2b, 3 and 4 only if `make all` succeeded (a failed build counts as one failure).
#   1. fortran/gen/test_fortran_gen.py  the committed generated interfaces (the include files, the
#                                  bind(C) modules) are what fortran/routines.toml generates
#                                  (checked before make rewrites them), the routines of
#                                  fortran/<concern>/ have their rows' signatures, the bind(C)
#                                  interfaces match include/rpncomm_windows.h, and the generator
#                                  and the checkers fail on drifted copies
#  1b. tests/names/check_names.py   every name the library exports (Fortran externals, generics,
#                                  link symbols, include-file constants, types, modules) against the
#                                  committed list of the original RPN_COMM 4.6.3's names
#                                  (tests/names/original-4.6.3.txt): no name of the original given
#                                  to something else, same-named routines with its signature;
#                                  every public routine of the original here (but NOT_PROVIDED's)
#  1c. tests/lint.sh               cargo fmt --check (library and fuzz crate) and cargo clippy
#                                  --release --all-targets -- -D warnings (one test each; a failure
#                                  names the files; fix the format with `cargo fmt`); the MPI
#                                  build's clippy is mpi/check_mpi.sh's
#   2. cargo test --release --no-fail-fast: every "test result: ... N passed; M failed" line is added up;
#                                  a cargo failure with no failed test counted (build error, crash)
#                                  counts as one failure
#  2b. tests/census/check_census.sh the census scanner's tests, then every RPN_COMM routine that GEM,
#                                  MIDAS, SPS and GEM-MACH call (the committed census files of
#                                  tests/census/) against the built archive and include files; the
#                                  census's name literals are the cargo test `census` (part 2)
#   3. tests/run_fortran_tests.sh  every tests/fortran/test_*.F90 on the PE counts of its header
#   4. install smoke tests         make install PREFIX=<tmp>, then with pkg-config only:
#                                  demo/req_test.F90 built and run with the installed rpnrun on 2 PEs
#                                  (one test), tests/c/test_c_abi.c built with cc and run as a
#                                  one-PE job and with rpnrun -n 2 (one test each)
#  4b. tests/install_builds.sh     make install PREFIX=<tmp>, the demo built with pkg-config, CMake
#                                  (find_package) and fpm, each run on 2 PEs, and the CMake package's
#                                  version check and relocation
#   5. tests/fuzz.sh               fuzz targets (fuzz/) under AddressSanitizer, CHECK_FUZZ_SECONDS
#                                  (default 20) per target, one test each (CHECK_FUZZ_SECONDS=0
#                                  leaves it out, and says so)
#   6. tests/loom.sh               loom model checks of the shm protocols (one test per model)
#   7. tests/fortran_std.sh        the Fortran sources (library, demo, tests) compile with no
#                                  diagnostic under -std=f2018 -pedantic -Werror with gfortran and
#                                  LLVM Flang ($FLANG_FC; SKIP when it is not installed)
#   8. leftovers                   one test: no /dev/shm/rpncomm* file that appeared during the run
#                                  is left at its end unused by any process (tests/lib/leftovers.sh;
#                                  a job of another user that leaves one meanwhile counts too)
#
# Another Fortran compiler (make check FC=flang-new-19; make passes FC, BUILD_DIR=build-<compiler>
# and CHECK_FORTRAN_ONLY=1): only what that compiler changes runs, in its own build tree: part 7
# with it, the build, parts 3, 4 (the demo; the C ABI test does not involve it) and 4b. The Rust,
# source, fuzz and model checks are the default make check's. CHECK_QUICK=1 (CI's part for a
# second compiler) narrows it: part 3 on the two smallest PE counts of each test (PES_FIRST=2),
# part 4b with CMake only (INSTALL_WAYS=cmake).
# Parts 1, 1b, 1c, 2b, 3, 4b, 5, 6 and 7 end with their own "N passed, N failed" line, which is added (no such line,
# or a non-zero exit with 0 failed: one failure, see tests/lib/totals.sh).
# The last line printed is exactly "N passed, N failed"; the exit status is non-zero if N failed > 0.
set -u

cd "$(dirname "$0")/.." || exit 2
# shellcheck source=tests/lib/totals.sh
. tests/lib/totals.sh || { echo "0 passed, 1 failed"; exit 1; }
# shellcheck source=tests/lib/leftovers.sh
. tests/lib/leftovers.sh || { echo "0 passed, 1 failed"; exit 1; }
# what is in /dev/shm now: at the end, a library file more that no process uses fails the check
LEFTOVER_SHM_GLOBS='rpncomm*' LEFTOVER_TMP_BASES=()
shm_at_start=$(leftover_snapshot)
ROOT=$(pwd)
MAKE=${MAKE:-make}
FC=${FC:-gfortran}
BUILD_DIR=${BUILD_DIR:-build}
CHECK_FORTRAN_ONLY=${CHECK_FORTRAN_ONLY:-0}
CHECK_QUICK=${CHECK_QUICK:-0}
LOGDIR="$ROOT/$BUILD_DIR/check"
export FC BUILD_DIR
SMOKE_TIMEOUT=${SMOKE_TIMEOUT:-120}
CARGO_TEST_TIMEOUT=${CARGO_TEST_TIMEOUT:-2400}
mkdir -p "$LOGDIR"

total_pass=0
total_fail=0

section() { printf '\n==== %s\n' "$*"; }

# add_part WHAT LOG COMMAND...: runs a script that ends with "N passed, N failed", shows and keeps
# its output in LOG and adds its totals
add_part() {
    local what=$1 log=$2 status
    shift 2
    "$@" 2>&1 | tee "$log"
    status=${PIPESTATUS[0]}
    read_totals "$what" "$log" "$status"
    total_pass=$((total_pass + part_passed))
    total_fail=$((total_fail + part_failed))
}

if ((CHECK_FORTRAN_ONLY)); then
    section "Fortran compiler $FC, build tree $BUILD_DIR: Rust tests, source checks, format and lint, fuzzing and model checks left to the default make check"
else
# ------------------------------------------------------------- 1. generated and bound sources
section "fortran/gen/test_fortran_gen.py (interfaces generated from fortran/routines.toml, routines against their rows, bind(C) against the C header)"
add_part "source checks" "$LOGDIR/sources.log" python3 -B fortran/gen/test_fortran_gen.py
section "tests/names/check_names.py (exported names against the original RPN_COMM 4.6.3's)"
add_part "name checks" "$LOGDIR/names.log" python3 -B tests/names/check_names.py

# ---------------------------------------------------------------------- 1c. format and lint
section "tests/lint.sh (cargo fmt --check, cargo clippy --all-targets -- -D warnings)"
add_part "format and lint" "$LOGDIR/lint.log" bash tests/lint.sh
fi

# ------------------------------------------------------------------- 7. standard conformance
if ((CHECK_FORTRAN_ONLY)); then std_compilers=("$FC"); else std_compilers=(gfortran "${FLANG_FC:-flang-new-19}"); fi
section "tests/fortran_std.sh ${std_compilers[*]} (-std=f2018 -pedantic -Werror)"
add_part "standard conformance" "$LOGDIR/fortran-std.log" bash tests/fortran_std.sh "${std_compilers[@]}"

# ------------------------------------------------------------------------------------- build
section "make all"
"$MAKE" --no-print-directory all 2>&1 | tee "$LOGDIR/build.log"
build_status=${PIPESTATUS[0]}
if ((build_status != 0)); then
    echo "FAIL make all (counted as one failure; Fortran and install tests skipped)"
    total_fail=$((total_fail + 1))
fi

# ------------------------------------------------------------------------------ 2. Rust tests
if ((!CHECK_FORTRAN_ONLY)); then
section "cargo test --release --no-fail-fast"
# timeout puts the tests in their own process group: kill that group if we are interrupted
tpid=""
trap '[[ -n "$tpid" ]] && kill -TERM -- "-$tpid" 2>/dev/null; echo "check: interrupted" >&2; exit 130' INT TERM
timeout -k 10 "$CARGO_TEST_TIMEOUT" cargo test --release --no-fail-fast < /dev/null > "$LOGDIR/cargo-test.log" 2>&1 &
tpid=$!
tail -n +1 -f --pid="$tpid" "$LOGDIR/cargo-test.log"
wait "$tpid"
cargo_status=$?
tpid=""
read -r p f < <(sed -n -E 's/^test result: .* ([0-9]+) passed; ([0-9]+) failed.*/\1 \2/p' "$LOGDIR/cargo-test.log" |
                awk '{ p += $1; f += $2 } END { print p + 0, f + 0 }')
if ((cargo_status != 0 && f == 0)); then
    if ((cargo_status == 124 || cargo_status == 137)); then
        echo "FAIL cargo test: timed out after $CARGO_TEST_TIMEOUT s (counted as one failure)"
    else
        echo "FAIL cargo test: exit status $cargo_status without a failed test reported (counted as one failure)"
    fi
    f=1
fi
echo "cargo test: $p passed, $f failed"
total_pass=$((total_pass + p))
total_fail=$((total_fail + f))
fi

# ------------------------------------------------------------------- 2b. census of ECCC codes
if ((build_status == 0 && !CHECK_FORTRAN_ONLY)); then
    section "tests/census/check_census.sh (the routines GEM, MIDAS, SPS and GEM-MACH call)"
    add_part "census" "$LOGDIR/census.log" bash tests/census/check_census.sh
fi

if ((build_status == 0)); then
    # ---------------------------------------------------------------------------- 3. Fortran tests
    section "tests/run_fortran_tests.sh"
    if ((CHECK_QUICK)); then export PES_FIRST=2; fi
    add_part "Fortran tests" "$LOGDIR/fortran-tests.log" bash tests/run_fortran_tests.sh

    # ------------------------------------------------------------------------ 4. install smoke tests
    section "install smoke tests"
    smoke_pass=0
    smoke_fail=0
    pass() { smoke_pass=$((smoke_pass + 1)); echo "PASS $*"; }
    fail() {   # message [log]
        smoke_fail=$((smoke_fail + 1))
        echo "FAIL $1"
        if [[ -n "${2:-}" && -s "$2" ]]; then
            echo "---- last 30 lines of $2"
            tail -n 30 "$2"
            echo "----"
        fi
    }
    shm_list() {
        local s
        for s in /dev/shm/rpncomm*; do [[ -e "$s" ]] && printf '%s\n' "${s##*/}"; done | LC_ALL=C sort
    }
    # run_case name log command...: passes on exit status 0 within SMOKE_TIMEOUT, leaving no
    # /dev/shm/rpncomm-<pid>-* file of its own (pid = the launcher, or the program for a one-PE job;
    # files of other jobs running at the same time are not counted)
    run_case() {
        local name=$1 log=$2 before status pid f left=()
        shift 2
        before=$(shm_list)
        rm -f "$SMOKE/pid"
        # shellcheck disable=SC2016
        timeout -k 5 "$SMOKE_TIMEOUT" bash -c 'echo "$$" > "$1"; shift; exec "$@"' _ "$SMOKE/pid" "$@" \
            < /dev/null > "$log" 2>&1
        status=$?
        pid=$(cat "$SMOKE/pid" 2>/dev/null)
        while IFS= read -r f; do
            [[ -n "$f" && "$f" == "rpncomm-${pid:-none}-"* ]] && left+=("$f")
        done < <(LC_ALL=C comm -13 <(printf '%s\n' "$before") <(shm_list))
        if ((${#left[@]} > 0)); then
            for f in "${left[@]}"; do rm -f -- "/dev/shm/$f"; done
        fi
        if ((status != 0)); then
            fail "$name (exit status $status)" "$log"
        elif ((${#left[@]} > 0)); then
            fail "$name (left in /dev/shm: ${left[*]})" "$log"
        else
            pass "$name"
        fi
    }

    SMOKE=$(mktemp -d "${TMPDIR:-/tmp}/rpncomm-check.XXXXXX")
    PREFIX="$SMOKE/prefix"
    if "$MAKE" --no-print-directory install PREFIX="$PREFIX" > "$LOGDIR/install.log" 2>&1; then
        export PKG_CONFIG_PATH="$PREFIX/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
        if flags=$(pkg-config --cflags --libs rpncomm-windows 2> "$LOGDIR/pkg-config.log"); then
            read -r -a pc_flags <<< "$flags"
            echo "pkg-config --cflags --libs rpncomm-windows: $flags"

            # Fortran demo, installed layout, 2 PEs
            if $FC -O2 "$ROOT/demo/req_test.F90" -o "$SMOKE/req_test" "${pc_flags[@]}" \
                    > "$LOGDIR/install-demo.compile.log" 2>&1; then
                run_case "installed demo: rpnrun -n 2 req_test" "$LOGDIR/install-demo.np2.log" \
                    "$PREFIX/bin/rpnrun" -n 2 "$SMOKE/req_test"
            else
                fail "installed demo: compilation of demo/req_test.F90 with pkg-config flags" \
                    "$LOGDIR/install-demo.compile.log"
            fi

            # C ABI, installed header + archive, 1 PE (no launcher) and 2 PEs
            if ((CHECK_FORTRAN_ONLY)); then
                echo "installed C ABI: not run again for $FC (the default make check's)"
            elif cc -O1 -g "$ROOT/tests/c/test_c_abi.c" -o "$SMOKE/test_c_abi" "${pc_flags[@]}" \
                    > "$LOGDIR/install-c.compile.log" 2>&1; then
                run_case "installed C ABI: test_c_abi without rpnrun (1 PE)" "$LOGDIR/install-c.np1.log" \
                    "$SMOKE/test_c_abi"
                run_case "installed C ABI: rpnrun -n 2 test_c_abi" "$LOGDIR/install-c.np2.log" \
                    "$PREFIX/bin/rpnrun" -n 2 "$SMOKE/test_c_abi"
            else
                fail "installed C ABI: compilation of tests/c/test_c_abi.c (2 runs not done)" \
                    "$LOGDIR/install-c.compile.log"
                smoke_fail=$((smoke_fail + 1))
            fi
        else
            fail "pkg-config does not find rpncomm-windows in $PREFIX/lib/pkgconfig (3 tests counted as failed)" \
                "$LOGDIR/pkg-config.log"
            smoke_fail=$((smoke_fail + (CHECK_FORTRAN_ONLY ? 0 : 2)))
        fi
    else
        fail "make install PREFIX=$PREFIX (3 tests counted as failed)" "$LOGDIR/install.log"
        smoke_fail=$((smoke_fail + (CHECK_FORTRAN_ONLY ? 0 : 2)))
    fi
    rm -rf -- "$SMOKE"
    echo "install smoke tests: $smoke_pass passed, $smoke_fail failed"
    total_pass=$((total_pass + smoke_pass))
    total_fail=$((total_fail + smoke_fail))
fi

# ------------------------------------------------------- 4b. builds against an installed tree
if ((build_status == 0)); then
    section "tests/install_builds.sh (the demo built with pkg-config, CMake and fpm)"
    if ((CHECK_QUICK)); then export INSTALL_WAYS=cmake; fi
    add_part "install builds" "$LOGDIR/install-builds.log" bash tests/install_builds.sh
fi

# ---------------------------------------------------------------------------------- 5. fuzzing
CHECK_FUZZ_SECONDS=${CHECK_FUZZ_SECONDS:-20}
if ((CHECK_FORTRAN_ONLY)); then
    :
elif ((CHECK_FUZZ_SECONDS > 0)); then
    section "tests/fuzz.sh (FUZZ_SECONDS=$CHECK_FUZZ_SECONDS per target)"
    add_part "fuzzing" "$LOGDIR/fuzz.log" env FUZZ_SECONDS="$CHECK_FUZZ_SECONDS" bash tests/fuzz.sh
else
    section "tests/fuzz.sh left out (CHECK_FUZZ_SECONDS=0): fuzz targets not run"
fi

# ------------------------------------------------------------------------------ 6. model checks
if ((!CHECK_FORTRAN_ONLY)); then
    section "tests/loom.sh"
    add_part "model checks" "$LOGDIR/loom.log" bash tests/loom.sh
fi

# ------------------------------------------------------------------------------ 8. leftovers
section "shared memory left behind"
mapfile -t left < <(leftovers_since "$shm_at_start")
if ((${#left[@]} > 0)); then
    echo "FAIL shared-memory files left in /dev/shm by the tests, no process uses them (removed): ${left[*]#shm }"
    for e in "${left[@]}"; do remove_leftover "$e"; done
    total_fail=$((total_fail + 1))
else
    echo "PASS no /dev/shm/rpncomm* file left behind"
    total_pass=$((total_pass + 1))
fi

# ---------------------------------------------------------------------------------- totals
echo
if ((CHECK_FORTRAN_ONLY)); then
    echo "summary ($FC): standard conformance, Fortran tests, installed demo, install builds (logs in $BUILD_DIR/check, $BUILD_DIR/tests/logs)"
else
    echo "summary: source checks, format and lint, standard conformance, cargo test, census, Fortran tests, install smoke tests, install builds, fuzzing, model checks and leftovers (logs in build/check, build/tests/logs, build/fuzz, build/loom)"
fi
echo "$total_pass passed, $total_fail failed"
((total_fail == 0))
