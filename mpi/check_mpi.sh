#!/usr/bin/env bash
# `make check MPI=1`: the test suite of the MPI transport. For each MPI in MPI_IMPLS (openmpi mpich):
#   1. make all for that MPI (build-mpi-<impl>/; a failed build counts as one failure)
#   2. tests/run_fortran_tests.sh with the MPI's launcher: every tests/fortran/test_*.F90 and
#      tests/fortran_mpi/test_*.F90 (MPI only) on the PE counts of its header
#   3. the demo (demo/req_test.F90) on 1, 2, 3, 4 and 8 ranks, and tests/c/test_c_abi.c on 1 and 2
# Open MPI runs twice: as installed (shared memory, osc/rdma and osc/sm) and forced onto TCP with
# the pt2pt one-sided component (--mca pml ob1 --mca btl tcp,self --mca osc pt2pt), which is how
# windows work between nodes without RDMA hardware.
# Ranks are oversubscribed (8 ranks on 2 cores): Open MPI yields when idle, MPICH busy-polls, so
# MPICH gets TIMEOUT_SCALE=3 (timeouts of the test headers times 3).
# The last line is "N passed, N failed"; the exit status is non-zero if N failed > 0.
set -u

cd "$(dirname "$0")/.." || exit 2
MAKE=${MAKE:-make}
MPI_IMPLS=${MPI_IMPLS:-openmpi mpich}
NATIVE_LIBS=${NATIVE_LIBS:--lgcc_s -lutil -lrt -lpthread -lm -ldl -lc}
read -r -a native_libs <<< "$NATIVE_LIBS"
SMOKE_TIMEOUT=${SMOKE_TIMEOUT:-120}
DEMO_PES=${DEMO_PES:-1 2 3 4 8}

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
            ;;
        mpich)
            combos+=("mpich mpich ${MPIRUN_mpich:-mpiexec.mpich} -n")
            ;;
        *) echo "check_mpi: unknown MPI '$impl' (openmpi or mpich)"; total_fail=$((total_fail + 1)) ;;
    esac
done

section "MPI packages"
if ! "$MAKE" --no-print-directory MPI=1 MPI_IMPL= MPI_IMPLS="$MPI_IMPLS" mpi-deps; then
    echo "MPI packages missing (counted as one failure)"
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
        echo "build for $impl failed (counted as one failure)"
        total_fail=$((total_fail + 1))
    fi
    rm -f "/tmp/rpncomm-mpi-build-$impl.$$.log"
done

# run_case name log command...: passes on exit status 0 within SMOKE_TIMEOUT
run_case() {
    local name=$1 log=$2 status
    shift 2
    timeout -k 5 "$SMOKE_TIMEOUT" "$@" < /dev/null > "$log" 2>&1
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

for combo in "${combos[@]}"; do
    read -r name impl launcher <<< "$combo"
    [[ -n "${built[$impl]:-}" ]] || continue
    b=build-mpi-$impl
    fc_var=MPIFORT_$impl cc_var=MPICC_$impl
    fc=${!fc_var:-mpifort.$impl}
    cc=${!cc_var:-mpicc.$impl}
    scale=1 skip=""
    if [[ $impl == mpich ]]; then
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
        TIMEOUT_SCALE=$scale SKIP_CASES="$skip" SKIP_WHY="MPICH busy-polls: over 9 min at 8 ranks on 2 cores" \
        bash tests/run_fortran_tests.sh 2>&1 | tee "$logs/summary.log"
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$logs/summary.log" | tail -n 1)
    if [[ -n "$line" ]]; then
        read -r p _ f _ <<< "$line"
    else
        p=0 f=1
    fi
    total_pass=$((total_pass + p))
    total_fail=$((total_fail + f))

    section "demo and C ABI test, $name"
    mkdir -p "$b/demo" "$b/tests"
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
    echo "$name: $((SECONDS - t0)) s"
done

echo
echo "summary: MPI transport ($MPI_IMPLS; logs in build-mpi-*/tests/logs-*)"
echo "$total_pass passed, $total_fail failed"
((total_fail == 0))
