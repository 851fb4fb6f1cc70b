#!/usr/bin/env bash
# bench/run.sh -- build and run the rpncomm-windows benchmark, write the results and the plot.
#
#   bench/run.sh            (from anywhere; `make bench` runs it after building the library)
#
# Uses the installed build tree: build/lib/librpncomm_windows.a, build/include (Fortran modules),
# build/bin/rpnrun (runs `make all` first when one is missing). Writes into build/bench/:
#   rpncomm_bench, floor           the two programs
#   raw/*.txt                      their raw output (one file per run)
#   results.json, results.csv      every figure with its ratio to the floor, to the original, target met
#   table.txt                      the table printed on the terminal
#   bench.png                      latency per operation, bandwidth per size, cost against PEs
# Runs: the floor (memcpy, cache-line round trip); the full benchmark on 2 and 4 PEs (on 2 PEs also
# the one-element operations on a 16 MiB window, to show no cost depends on the window's size); the scaling
# subset (fence empty epoch, request/reply rounds) on 1, 8 and 16 PEs; memory with 100 windows of
# 1 MiB (internal, user arrays allocated one by one, user arrays packed in one array) on 2 PEs.
# When the MPI transport is built for Open MPI (build-mpi-openmpi/, `make MPI=1 MPI_IMPL=openmpi`;
# BENCH_MPI=1 builds it first), the same program also runs over it on 2 and 4 ranks (lat bw req,
# mpirun.openmpi), and every line of the table shows shm against MPI.
# The raw MPI-3 baseline (bench/raw_mpi.c, built with Open MPI's mpicc; installed with apt-get as
# root when missing) on 2 and 4 ranks. The repeat: 4 PEs on 2 cores (taskset -c 0,1), BENCH_REPEAT
# times (default 10), scale section, for the run-to-run spread. The placements: the same 4 PEs pinned
# 2+2 and 3+1 on those 2 CPUs, BENCH_PLACEMENT_ROUNDS alternating rounds.
# Environment: BENCH_TRIALS (11), BENCH_MS (trial length in ms, 10), BENCH_TIMEOUT (per run, 120 s),
#              BENCH_SCALE_PES ("1 8 16", plus 32 and 64 where the machine has that many CPUs),
#              BENCH_REPEAT (10; 0 skips), BENCH_PLACEMENT_ROUNDS (3; 0 skips),
#              BENCH_SIDE_ROUNDS (7: ours and raw MPI alternately, 2 PEs; 0 skips), BENCH_MPI (auto:
#              1 builds the Open MPI transport if missing, 0 skips MPI and the raw MPI baseline),
#              FC (gfortran), CC (gcc), PYTHON (python3).
# Exit status: 0 when every run ended normally and every moved datum was verified (missed timing
# targets do not fail: timings on a shared machine are noise-prone); 1 otherwise.
set -u

cd "$(dirname "$0")/.." || exit 2
ROOT=$(pwd)
BUILD="$ROOT/build"
OUT="$BUILD/bench"
RAW="$OUT/raw"
LIB="$BUILD/lib/librpncomm_windows.a"
INC="$BUILD/include"
RPNRUN="$BUILD/bin/rpnrun"
FC=${FC:-gfortran}
CC=${CC:-gcc}
PYTHON=${PYTHON:-python3}
NATIVE_LIBS=${NATIVE_LIBS:--lgcc_s -lutil -lrt -lpthread -lm -ldl -lc}
TRIALS=${BENCH_TRIALS:-11}
MS=${BENCH_MS:-10}
TIMEOUT=${BENCH_TIMEOUT:-120}
CPUS=$(nproc)
SCALE_PES=${BENCH_SCALE_PES:-1 8 16$( ((CPUS >= 32)) && echo " 32")$( ((CPUS >= 64)) && echo " 64")}
REPEAT=${BENCH_REPEAT:-10}
PLACEMENT_ROUNDS=${BENCH_PLACEMENT_ROUNDS:-3}
export BENCH_TRIALS=$TRIALS BENCH_MS=$MS

failures=0
fail() { echo "bench: FAILED: $*" >&2; failures=$((failures + 1)); }

# ------------------------------------------------------------------------------------ build
if [[ ! -f "$LIB" || ! -x "$RPNRUN" || ! -f "$INC/rpn_comm_windows.mod" ]]; then
    echo "bench: library build tree incomplete, running make all"
    ${MAKE:-make} -C "$ROOT" all || { echo "bench: make all failed" >&2; exit 1; }
fi
mkdir -p "$RAW"
rm -f "$RAW"/*.txt "$RAW"/*.err "$OUT/results.json" "$OUT/results.csv" "$OUT/table.txt" "$OUT/bench.png"
read -r -a native_libs <<< "$NATIVE_LIBS"

echo "bench: compiling bench/floor.c and bench/rpncomm_bench.F90"
"$CC" -O2 -Wall -o "$OUT/floor" bench/floor.c || { echo "bench: cannot compile floor.c" >&2; exit 1; }
# the Rust staticlib carries LLVM bitcode the system linker plugin cannot read: harmless noise, dropped
"$FC" -O2 -Wall -I"$INC" bench/rpncomm_bench.F90 -o "$OUT/rpncomm_bench" "$LIB" "${native_libs[@]}" \
    2> "$OUT/compile.log"
rc=$?
grep -v 'bfd plugin: LLVM gold plugin' "$OUT/compile.log" >&2
if (( rc != 0 )); then
    echo "bench: cannot compile rpncomm_bench.F90" >&2
    exit 1
fi

# ----------------------------------------------------------------------------------- run
# CPU time used by other processes while we measure (the machine may be shared): busy ticks of
# /proc/stat minus the ticks of our own waited-for children (fields cutime+cstime of /proc/$$/stat,
# which include the PEs reaped by rpnrun), in CPUs, over the wall time of a job.
cpu_busy() { awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8 + $9 }' /proc/stat; }
our_ticks() { awk '{ print $16 + $17 }' "/proc/$$/stat"; }
load_start() { L_T0=${EPOCHREALTIME/,/.}; L_B0=$(cpu_busy); L_O0=$(our_ticks); }
# prints the foreign load in CPUs since load_start, for a job that ran in this shell's child
load_end() {
    local t1 b1 o1 hz
    t1=${EPOCHREALTIME/,/.}; b1=$(cpu_busy); o1=$(our_ticks); hz=$(getconf CLK_TCK)
    awk -v t0="$L_T0" -v t1="$t1" -v b0="$L_B0" -v b1="$b1" -v o0="$L_O0" -v o1="$o1" -v hz="$hz" \
        'BEGIN { w = t1 - t0; if (w <= 0) w = 1e-3; x = ((b1 - b0) - (o1 - o0)) / hz / w; if (x < 0) x = 0;
                 printf "%.2f %.2f\n", x, w }'
}

# run_job NAME NPES ARGS...: rpnrun -n NPES rpncomm_bench ARGS > raw/NAME.txt; checks the status,
# BENCH ERROR lines and that the job left nothing in /dev/shm (segments are named rpncomm-<rpnrun pid>-*).
# With LAUNCH and PROGRAM set (the MPI runs), `$LAUNCH NPES $PROGRAM ARGS` instead; with PIN set, under
# `taskset -c $PIN`; with PIN_MAP set, each PE on the CPU of its rank in it (bench/pin_rank.sh).
run_job() {
    local name=$1 n=$2 pid rc left load wall
    shift 2
    load_start
    if [[ -n "${LAUNCH:-}" ]]; then
        local launch
        read -r -a launch <<< "$LAUNCH"
        timeout -k 5 "$TIMEOUT" "${launch[@]}" "$n" "$PROGRAM" "$@" trials="$TRIALS" ms="$MS" \
            > "$RAW/$name.txt" 2> "$RAW/$name.err" &
    else
        ${PIN:+taskset -c "$PIN"} "$RPNRUN" -n "$n" --timeout "$TIMEOUT" -- ${PIN_MAP:+"$ROOT/bench/pin_rank.sh"} \
            "$OUT/rpncomm_bench" "$@" trials="$TRIALS" ms="$MS" \
            > "$RAW/$name.txt" 2> "$RAW/$name.err" &
    fi
    pid=$!
    wait "$pid"
    rc=$?
    read -r load wall < <(load_end)
    echo "LOAD $name $load $wall" >> "$RAW/load.txt"
    printf 'bench: %-15s %2d PEs  %-16s %6.1f s  status %d  other processes used %s CPUs meanwhile\n' \
        "$name" "$n" "$*" "$wall" "$rc" "$load"
    if (( rc != 0 )); then
        fail "$name: exit status $rc; last lines of its stderr:"
        tail -n 15 "$RAW/$name.err" >&2
    fi
    if grep -q 'BENCH ERROR' "$RAW/$name.txt" "$RAW/$name.err"; then
        fail "$name: data verification errors:"
        grep -h 'BENCH ERROR' "$RAW/$name.txt" "$RAW/$name.err" | head -n 20 >&2
    fi
    left=$(compgen -G "/dev/shm/rpncomm-$pid-*")
    if [[ -n "$left" ]]; then
        fail "$name: the job left shared-memory files behind (removed): $left"
        rm -f /dev/shm/rpncomm-"$pid"-*
    fi
}

echo "bench: floor (memcpy, cache-line round trip)"
load_start
if ! "$OUT/floor" "$TRIALS" "$MS" > "$RAW/floor.txt"; then
    fail "floor: verification errors or crash"
fi
read -r load wall < <(load_end)
echo "LOAD floor $load $wall" >> "$RAW/load.txt"
echo "bench: floor done in $wall s, other processes used $load CPUs meanwhile"

run_job np2 2 lat bw req size
run_job np4 4 lat bw req
for n in $SCALE_PES; do
    run_job "np$n" "$n" scale
done
run_job mem_internal 2 mem_internal
run_job mem_user 2 mem_user
run_job mem_user_packed 2 mem_user_packed

# the same benchmark over the MPI transport (Open MPI), for the shm/MPI column
MPI_BUILD="$ROOT/build-mpi-openmpi"
if [[ "${BENCH_MPI:-auto}" == 1 && ! -f "$MPI_BUILD/lib/librpncomm_windows.a" ]]; then
    echo "bench: building the MPI transport for Open MPI (make MPI=1 MPI_IMPL=openmpi)"
    ${MAKE:-make} -C "$ROOT" MPI=1 MPI_IMPL=openmpi all > "$OUT/mpi-build.log" 2>&1 || fail "MPI build (see $OUT/mpi-build.log)"
fi
if [[ "${BENCH_MPI:-auto}" != 0 && -f "$MPI_BUILD/lib/librpncomm_windows.a" ]] && command -v mpifort.openmpi > /dev/null; then
    if mpifort.openmpi -O2 -I"$MPI_BUILD/include" bench/rpncomm_bench.F90 -o "$OUT/rpncomm_bench_mpi" \
        "$MPI_BUILD/lib/librpncomm_windows.a" "${native_libs[@]}" 2> "$OUT/compile-mpi.log"; then
        as_root=""
        [[ "$(id -u)" == 0 ]] && as_root="--allow-run-as-root"
        LAUNCH="mpirun.openmpi --oversubscribe $as_root -n" PROGRAM="$OUT/rpncomm_bench_mpi" run_job mpi_np2 2 lat bw req
        LAUNCH="mpirun.openmpi --oversubscribe $as_root -n" PROGRAM="$OUT/rpncomm_bench_mpi" run_job mpi_np4 4 lat bw req
    else
        fail "cannot compile rpncomm_bench.F90 against the MPI build (see $OUT/compile-mpi.log)"
    fi
else
    echo "bench: no MPI comparison (build the MPI transport with: make MPI=1 MPI_IMPL=openmpi, or BENCH_MPI=1)"
fi

# the raw MPI-3 baseline (Open MPI), for the "what a user writes by hand" comparison
raw_mpi() {
    local as_root=()
    [[ "$(id -u)" == 0 ]] && as_root=(--allow-run-as-root)
    if ! command -v mpicc.openmpi > /dev/null && [[ "${BENCH_MPI:-auto}" != 0 && "$(id -u)" == 0 ]]; then
        echo "bench: installing Open MPI (apt-get install openmpi-bin libopenmpi-dev) for the raw MPI baseline"
        apt-get install -y -q openmpi-bin libopenmpi-dev > "$OUT/apt-openmpi.log" 2>&1 || true
    fi
    if [[ "${BENCH_MPI:-auto}" == 0 ]]; then
        echo "BENCH_MPI=0" > "$RAW/raw_skipped.txt"
    elif ! command -v mpicc.openmpi > /dev/null || ! command -v mpirun.openmpi > /dev/null; then
        echo "Open MPI (mpicc.openmpi, mpirun.openmpi) is not installed" > "$RAW/raw_skipped.txt"
    elif ! mpicc.openmpi -O2 -Wall -o "$OUT/raw_mpi" bench/raw_mpi.c 2> "$OUT/compile-raw.log"; then
        fail "cannot compile bench/raw_mpi.c (see $OUT/compile-raw.log)"
    else
        local n
        for n in 2 4; do
            LAUNCH="mpirun.openmpi --oversubscribe ${as_root[*]} -n" PROGRAM="$OUT/raw_mpi" run_job "raw_np$n" "$n"
        done
        return
    fi
    echo "bench: no raw MPI baseline: $(cat "$RAW/raw_skipped.txt")"
}
raw_mpi

# side by side: the 2-PE epochs, ours and raw MPI's, alternately BENCH_SIDE_ROUNDS times (7), for
# the checks against raw MPI: the cost of a cache-line transfer between the two vCPUs of this
# kind of machine changes by 2x from minute to minute, so only figures taken together compare
SIDE_ROUNDS=${BENCH_SIDE_ROUNDS:-7}
if [[ -x $OUT/raw_mpi && ! -f $RAW/raw_skipped.txt ]] && ((SIDE_ROUNDS > 0)); then
    side_root=()
    [[ "$(id -u)" == 0 ]] && side_root=(--allow-run-as-root)
    for ((round = 1; round <= SIDE_ROUNDS; round++)); do
        run_job "side_ours_$round" 2 lat
        LAUNCH="mpirun.openmpi --oversubscribe ${side_root[*]} -n" PROGRAM="$OUT/raw_mpi" \
            run_job "side_raw_$round" 2 ops=fence_empty,fence_put,pscw_put
    done
fi

# The first two CPUs this shell may run on (Cpus_allowed_list: "0-15", "2,5-7", ...), as "A B".
first_two_cpus() {
    awk '/^Cpus_allowed_list/ { n = split($2, r, ","); out = "";
        for (i = 1; i <= n && c < 2; i++) { split(r[i], ab, "-"); hi = (ab[2] == "") ? ab[1] : ab[2];
            for (x = ab[1]; x <= hi && c < 2; x++) { out = out (c ? " " : "") x; c++ } }
        print out }' /proc/self/status
}

# the repeat: 4 PEs on 2 cores, REPEAT times, for the run-to-run spread
if ((REPEAT > 0)); then
    pin=""
    ((CPUS > 2)) && pin=$(first_two_cpus | tr ' ' ,)
    for ((k = 1; k <= REPEAT; k++)); do
        PIN=$pin run_job "rep4_$k" 4 scale
    done
fi

# placements: 4 PEs pinned to 2 CPUs as 2+2 and as 3+1 (the scheduler's choice in some runs: the
# lone PE must not slow the job down for a whole run), PLACEMENT_ROUNDS alternating rounds
if ((PLACEMENT_ROUNDS > 0 && CPUS >= 2)); then
    read -r c0 c1 < <(first_two_cpus)
    for ((k = 1; k <= PLACEMENT_ROUNDS; k++)); do
        PIN_MAP="$c0 $c0 $c1 $c1" run_job "place_2+2_$k" 4 scale
        PIN_MAP="$c0 $c0 $c0 $c1" run_job "place_3+1_$k" 4 scale
    done
fi

# ------------------------------------------------------------------------------ results
echo
if ! "$PYTHON" bench/report.py "$RAW" "$OUT"; then
    fail "report: data errors in the results"
fi
echo
if ! "$PYTHON" -c 'import matplotlib' 2>/dev/null; then
    echo "bench: matplotlib missing, installing it with pip (for the plot)"
    "$PYTHON" -m pip install --quiet matplotlib >/dev/null 2>&1 || true
fi
if "$PYTHON" bench/plot.py "$OUT/results.json" "$OUT/bench.png"; then
    echo "bench: plot in $OUT/bench.png"
else
    echo "bench: no plot (python3 with matplotlib needed: pip install matplotlib)" >&2
fi
echo "bench: results in $OUT/results.json, $OUT/results.csv, $OUT/table.txt"

if (( failures > 0 )); then
    echo "bench: $failures failure(s): see above" >&2
    exit 1
fi
exit 0
