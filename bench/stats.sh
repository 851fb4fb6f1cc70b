#!/usr/bin/env bash
# bench/stats.sh -- what the per-window statistics (RPNCOMM_STATS) cost: the same loops
# (bench/stats.F90: passive put_r of one element, fence epochs with one put_r; CPU time per call, best
# of the trials, on 1 PE by default, whose calls never wait: the cost of the calls themselves even on a
# machine shared with other jobs) run
#   base  against the library of another git revision (STATS_BASELINE; none by default, see below),
#   off   against this library, RPNCOMM_STATS unset,
#   on    against this library with RPNCOMM_STATS=json:FILE (every call counted, sync timed),
# in alternating rounds so that a change in the machine's load hits all three alike; prints, for
# every measurement, the best over the rounds and the ratios off/base (the cost of the hooks when
# off) and on/off (the cost of recording).
#
#   bench/stats.sh            (`make bench` runs it)
#
# Environment: STATS_PES (1), STATS_ROUNDS (5), STATS_N (calls per trial, 400000), STATS_BASELINE (a git
#              revision to compare with; default "none": no base runs), STATS_BUILD (the build tree
#              measured, build/), BENCH_TRIALS (7), BENCH_TIMEOUT (per run, 120 s), FC, NATIVE_LIBS.
# Writes build/bench/stats/{base,off,on}.N.txt (raw), stats.N.json (the last statistics) and table.txt.
# Timings are the best of many trials on a possibly shared machine: ratios within a few percent of 1 are noise.
# Exit status: 0 when every run ended normally with its data verified, 1 otherwise.
set -u

cd "$(dirname "$0")/.." || exit 2
ROOT=$(pwd)
BUILD=${STATS_BUILD:-$ROOT/build}
OUT="$ROOT/build/bench/stats"
FC=${FC:-gfortran}
NATIVE_LIBS=${NATIVE_LIBS:--lgcc_s -lutil -lrt -lpthread -lm -ldl -lc}
PES=${STATS_PES:-1}
ROUNDS=${STATS_ROUNDS:-5}
N=${STATS_N:-400000}
TRIALS=${BENCH_TRIALS:-7}
TIMEOUT=${BENCH_TIMEOUT:-120}
read -r -a native_libs <<< "$NATIVE_LIBS"
mkdir -p "$OUT"
rm -f "$OUT"/*.txt "$OUT"/*.json

# compile BUILD_TREE PROGRAM: the loops against the library and modules of a build tree
compile() {
    "$FC" -O2 -I"$1/include" "$ROOT/bench/stats.F90" -o "$2" "$1/lib/librpncomm_windows.a" "${native_libs[@]}" \
        2> "$2.log" || { cat "$2.log" >&2; echo "stats: cannot compile bench/stats.F90 against $1" >&2; exit 1; }
}

if [[ ! -f "$BUILD/lib/librpncomm_windows.a" || ! -x "$BUILD/bin/rpnrun" ]]; then
    ${MAKE:-make} -C "$ROOT" all || { echo "stats: make all failed" >&2; exit 1; }
fi
compile "$BUILD" "$OUT/bench_now"
variants=(off on)

# A library from git (STATS_BASELINE), built once per revision in its own tree. No default: the
# statistics landed at the end of a series of commits (efbfdca..297253a) whose earlier steps do not
# build on their own, so no revision differs from the statistics' by them alone; the last that builds
# before them (1434d2f) lacks that whole series, and off/base would price all of it.
base=${STATS_BASELINE:-none}
if [[ "$base" != none ]]; then
    src="$OUT/base-src"
    if [[ "$(cat "$src/.rev" 2>/dev/null)" != "$base" || ! -f "$src/build/lib/librpncomm_windows.a" ]]; then
        echo "stats: building the library before the statistics ($base) in $src"
        rm -rf "$src" && mkdir -p "$src"
        if git -C "$ROOT" archive "$base" | tar -x -C "$src" &&
            ${MAKE:-make} -C "$src" all > "$OUT/base-build.log" 2>&1; then
            echo "$base" > "$src/.rev"
        else
            echo "stats: could not build $base (see $OUT/base-build.log): no base runs" >&2
            base=""
        fi
    fi
    if [[ -n "$base" ]]; then
        compile "$src/build" "$OUT/bench_base"
        variants=(base off on)
    fi
else
    echo "stats: no baseline revision (STATS_BASELINE unset): off and on only"
fi

echo "stats: $PES PEs, $N calls per trial, best of $TRIALS trials, $ROUNDS rounds of: ${variants[*]}"
failures=0
for ((round = 1; round <= ROUNDS; round++)); do
    for v in "${variants[@]}"; do
        raw="$OUT/$v.$round.txt"
        case $v in
            base) cmd=(env -u RPNCOMM_STATS "$OUT/base-src/build/bin/rpnrun" -n "$PES" --timeout "$TIMEOUT" -- "$OUT/bench_base") ;;
            off) cmd=(env -u RPNCOMM_STATS "$BUILD/bin/rpnrun" -n "$PES" --timeout "$TIMEOUT" -- "$OUT/bench_now") ;;
            on) cmd=(env RPNCOMM_STATS="json:$OUT/stats.$round.json" "$BUILD/bin/rpnrun" -n "$PES" --timeout "$TIMEOUT" -- "$OUT/bench_now") ;;
        esac
        "${cmd[@]}" trials="$TRIALS" n="$N" > "$raw" 2> "$OUT/$v.$round.err"
        rc=$?
        echo "stats: round $round $v: status $rc"
        if ((rc != 0)) || grep -q 'BENCH ERROR' "$raw" "$OUT/$v.$round.err"; then
            echo "stats: FAILED: $v, round $round (see $OUT/$v.$round.err)" >&2
            failures=$((failures + 1))
        fi
    done
done
if [[ ! -s "$OUT/stats.$ROUNDS.json" ]]; then
    echo "stats: FAILED: the runs with RPNCOMM_STATS wrote no statistics" >&2
    failures=$((failures + 1))
fi

# best over the rounds of each variant (other jobs on the machine only ever add time, so the fastest
# trial is the closest to the calls' own cost), then the ratios (time: larger is slower)
awk -v variants="${variants[*]}" '
    function best(list,   n, a, i, m) {
        n = split(list, a, " ")
        m = a[1]
        for (i = 2; i <= n; i++) if (a[i] + 0 < m + 0) m = a[i]
        return m
    }
    FNR == 1 { split(FILENAME, p, "/"); split(p[length(p)], q, "."); v = q[1] }
    $1 == "STATS_RESULT" {
        if (!($2 in seen)) { seen[$2] = 1; order[++n] = $2; unit[$2] = "ns" }
        val[$2, v] = val[$2, v] " " $3
    }
    END {
        nv = split(variants, vs, " ")
        has_base = (vs[1] == "base")
        printf "%-24s %5s", "measurement", "unit"
        for (i = 1; i <= nv; i++) printf " %10s", vs[i]
        if (has_base) printf " %9s", "off/base"
        printf " %8s\n", "on/off"
        for (k = 1; k <= n; k++) {
            key = order[k]
            printf "%-24s %5s", key, unit[key]
            for (i = 1; i <= nv; i++) { m[vs[i]] = best(val[key, vs[i]]); printf " %10.2f", m[vs[i]] }
            if (has_base) printf " %9.3f", m["off"] / m["base"]
            printf " %8.3f\n", m["on"] / m["off"]
        }
    }' "$OUT"/*.[0-9]*.txt | tee "$OUT/table.txt"
echo "stats: CPU ns per call or epoch, best trial over the rounds; ratios > 1 are slower; the statistics of the last 'on' run: $OUT/stats.$ROUNDS.json"
((failures == 0))
