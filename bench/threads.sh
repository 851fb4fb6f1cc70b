#!/usr/bin/env bash
# bench/threads.sh -- the threads table of `make bench` (issue 12): passive one-element put, get
# and getacc from 1..4 OpenMP threads of ONE PE (bench/threads.F90 under rpnrun -n 1), each
# thread on its own element, for both window kinds: over the caller's array (user) and in the
# library's memory (internal, created with C_NULL_PTR). Prints the throughput of all threads together, its ratio to one
# thread, and the check "ratio >= 0.8 x threads" for thread counts that have a core each (the
# CPUs this process may use); beyond that the ratio is printed, unchecked (threads share cores).
# One PE, so that on a 2-core machine 2 threads have free cores (with 2 PEs only 1 thread each
# would). Exit status 1 only when the program fails, never on a missed ratio (shared machine).
# Writes build/bench/threads.txt.
set -u

cd "$(dirname "$0")/.." || exit 2
BUILD="$(pwd)/build"
OUT="$BUILD/bench"
FC=${FC:-gfortran}
read -r -a native_libs <<< "${NATIVE_LIBS:--lgcc_s -lutil -lrt -lpthread -lm -ldl -lc}"
mkdir -p "$OUT"

"$FC" -O2 -fopenmp -I"$BUILD/include" bench/threads.F90 -o "$OUT/bench_threads" "$BUILD/lib/librpncomm_windows.a" \
    "${native_libs[@]}" || { echo "bench/threads.sh: compilation failed" >&2; exit 1; }
cores=$(nproc)
raw=$(OMP_PROC_BIND=false timeout 300 "$BUILD/bin/rpnrun" -n 1 --bind-to none "$OUT/bench_threads") \
    || { echo "bench/threads.sh: the benchmark failed" >&2; echo "$raw" >&2; exit 1; }

{
    echo
    echo "Threads of one PE, passive one-element operations (1 PE, $cores CPUs here; median of 7 trials)"
    printf '%-9s %-8s %7s %12s %10s  %s\n' window op threads "Mops/s" "x 1 thread" "check (>= 0.8 x threads while a core each)"
    echo "$raw" | awk -v cores="$cores" '
        $1 == "THREADS" {
            key = $2 " " $3
            if ($4 == 1) one[key] = $5
            ratio = $5 / one[key]
            if ($4 > cores) check = sprintf("n/a: %d threads on %d CPUs", $4, cores)
            else if (ratio >= 0.8 * $4) check = sprintf("ok (>= %.1f)", 0.8 * $4)
            else check = sprintf("MISSED (< %.1f)", 0.8 * $4)
            printf "%-9s %-8s %7d %12.2f %10.2f  %s\n", $2, $3, $4, $5, ratio, check
        }'
} | tee "$OUT/threads.txt"
