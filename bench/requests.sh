#!/usr/bin/env bash
# bench/requests.sh -- the request-based operations line of `make bench` (issue 20): 64 one-element
# rput_r and one flush against 64 one-element put_r, same run, passive mode (bench/requests.F90
# under rpnrun, PES PEs, default 2). Prints the times per batch of 64 and their ratios against the
# target "rput + flush <= 0.5 x blocking". Exit status 1 only when the program fails, never on a
# missed ratio (shared machine). Writes build/bench/requests.txt.
set -u

cd "$(dirname "$0")/.." || exit 2
BUILD="$(pwd)/build"
OUT="$BUILD/bench"
FC=${FC:-gfortran}
PES=${PES:-2}
read -r -a native_libs <<< "${NATIVE_LIBS:--lgcc_s -lutil -lrt -lpthread -lm -ldl -lc}"
mkdir -p "$OUT"

"$FC" -O2 -I"$BUILD/include" bench/requests.F90 -o "$OUT/bench_requests" "$BUILD/lib/librpncomm_windows.a" \
    "${native_libs[@]}" || { echo "bench/requests.sh: compilation failed" >&2; exit 1; }
raw=$(timeout 300 "$BUILD/bin/rpnrun" -n "$PES" "$OUT/bench_requests") \
    || { echo "bench/requests.sh: the benchmark failed" >&2; echo "$raw" >&2; exit 1; }

{
    echo
    echo "64 one-element rput_r + one flush vs 64 one-element put_r ($PES PEs, passive, median of 11 trials of 2000 batches)"
    echo "$raw" | awk '
        $1 == "REQUESTS" { t[$2] = $3; order[++n] = $2 }
        END {
            for (i = 1; i <= n; i++) printf "%-16s %9.3f us per 64  (%.1f ns per operation)\n", order[i], t[order[i]], t[order[i]] * 1000 / 64
            r = t["rput+flush"] / t["blocking"]
            printf "ratio rput+flush / blocking %.2f  %s\n", r, (r <= 0.5 ? "ok (<= 0.5)" : "MISSED (> 0.5)")
            printf "ratio rput+flush+wait / blocking %.2f\n", t["rput+flush+wait"] / t["blocking"]
        }'
} | tee "$OUT/requests.txt"
