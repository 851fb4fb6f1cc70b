#!/usr/bin/env bash
# bench/binding.sh -- what binding the PEs to cores is worth: the same benchmark program
# (bench/rpncomm_bench.F90) run under `rpnrun --bind-to core` and `rpnrun --bind-to none`, in
# alternating rounds so that a change in the machine's load hits both alike, and for every
# measurement the speed-up of binding (time unbound / time bound; bandwidth bound / unbound).
#
#   bench/binding.sh            (`make bench` runs it after bench/run.sh)
#
# Environment: BINDING_PES (2), BINDING_SECTIONS (sections of rpncomm_bench, "lat req"),
#              BINDING_ROUNDS (3: each mode runs that many times, the median is kept),
#              BENCH_TRIALS (11), BENCH_MS (10), BENCH_TIMEOUT (per run, 120 s), FC, NATIVE_LIBS.
# Writes build/bench/binding/{core,none}.N.txt (raw) and table.txt. A speed-up is only expected on a
# machine with more cores than PEs, where unbound PEs may be moved between cores (and sockets) by the
# scheduler; with as many cores as PEs both modes run one PE per core and the ratios stay near 1.
# Exit status: 0 when every run ended normally with its data verified, 1 otherwise.
set -u

cd "$(dirname "$0")/.." || exit 2
ROOT=$(pwd)
BUILD="$ROOT/build"
OUT="$BUILD/bench/binding"
LIB="$BUILD/lib/librpncomm_windows.a"
INC="$BUILD/include"
RPNRUN="$BUILD/bin/rpnrun"
PROGRAM="$BUILD/bench/rpncomm_bench"
FC=${FC:-gfortran}
NATIVE_LIBS=${NATIVE_LIBS:--lgcc_s -lutil -lrt -lpthread -lm -ldl -lc}
PES=${BINDING_PES:-2}
SECTIONS=${BINDING_SECTIONS:-lat req}
ROUNDS=${BINDING_ROUNDS:-3}
TRIALS=${BENCH_TRIALS:-11}
MS=${BENCH_MS:-10}
TIMEOUT=${BENCH_TIMEOUT:-120}

if [[ ! -f "$LIB" || ! -x "$RPNRUN" || ! -f "$INC/rpn_comm_windows.mod" ]]; then
    echo "binding: library build tree incomplete, running make all"
    ${MAKE:-make} -C "$ROOT" all || { echo "binding: make all failed" >&2; exit 1; }
fi
mkdir -p "$OUT"
rm -f "$OUT"/*.txt
if [[ ! -x "$PROGRAM" || "$PROGRAM" -ot "$LIB" || "$PROGRAM" -ot bench/rpncomm_bench.F90 ]]; then
    read -r -a native_libs <<< "$NATIVE_LIBS"
    echo "binding: compiling bench/rpncomm_bench.F90"
    "$FC" -O2 -I"$INC" bench/rpncomm_bench.F90 -o "$PROGRAM" "$LIB" "${native_libs[@]}" 2> "$OUT/compile.log" ||
        { cat "$OUT/compile.log" >&2; echo "binding: cannot compile rpncomm_bench.F90" >&2; exit 1; }
fi

# CPUs rpnrun may use: its affinity mask, as nproc counts it
cpus=$(nproc)
echo "binding: $PES PEs on $cpus CPUs of rpnrun's affinity mask ($(nproc --all) in the machine), sections: $SECTIONS, $ROUNDS rounds"
if ((PES > cpus)); then
    echo "binding: SKIP: --bind-to core needs a CPU per PE ($PES PEs, $cpus CPUs)"
    exit 0
fi
if ((PES == cpus)); then
    echo "binding: note: as many CPUs as PEs: both modes run a PE per CPU, expect ratios near 1"
fi

failures=0
read -r -a sections <<< "$SECTIONS"
for ((round = 1; round <= ROUNDS; round++)); do
    for mode in core none; do
        raw="$OUT/$mode.$round.txt"
        "$RPNRUN" -n "$PES" --bind-to "$mode" --timeout "$TIMEOUT" -- "$PROGRAM" "${sections[@]}" \
            trials="$TRIALS" ms="$MS" > "$raw" 2> "$OUT/$mode.$round.err"
        rc=$?
        echo "binding: round $round --bind-to $mode: status $rc"
        if ((rc != 0)) || grep -q 'BENCH ERROR' "$raw" "$OUT/$mode.$round.err"; then
            echo "binding: FAILED: --bind-to $mode, round $round (see $OUT/$mode.$round.err)" >&2
            failures=$((failures + 1))
        fi
    done
done

# median over the rounds of each mode's medians, then the speed-up of binding per measurement
awk -v rounds="$ROUNDS" '
    function median(list,   n, a, i, j, x) {
        n = split(list, a, " ")
        for (i = 2; i <= n; i++) { x = a[i]; for (j = i - 1; j >= 1 && a[j] > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
        return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
    }
    $1 == "RESULT" {
        mode = FILENAME; sub(/.*\//, "", mode); sub(/\..*/, "", mode)
        if (!($2 in unit)) { order[++nkeys] = $2 }
        unit[$2] = $7
        values[$2, mode] = values[$2, mode] " " $4
    }
    END {
        printf "%-24s %12s %12s %6s %14s\n", "measurement", "bound", "unbound", "unit", "binding speed-up"
        logsum = 0; n = 0
        for (k = 1; k <= nkeys; k++) {
            key = order[k]
            if (!((key, "core") in values) || !((key, "none") in values)) continue
            c = median(values[key, "core"]); u = median(values[key, "none"])
            if (c <= 0 || u <= 0) continue
            r = unit[key] == "us" ? u / c : c / u
            printf "%-24s %12.4g %12.4g %6s %14.2f\n", key, c, u, unit[key], r
            logsum += log(r); n++
        }
        if (n > 0) printf "geometric mean of the speed-ups over %d measurements: %.2f (above 1: binding is faster)\n", n, exp(logsum / n)
    }' "$OUT"/core.*.txt "$OUT"/none.*.txt | tee "$OUT/table.txt"

if ((failures > 0)); then
    echo "binding: $failures failed run(s)" >&2
    exit 1
fi
exit 0
