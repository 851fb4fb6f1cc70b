#!/usr/bin/env bash
# Body of `make fuzz` (and part 4 of `make check`): builds the fuzz targets of fuzz/ with
# cargo-fuzz under AddressSanitizer, replays the inputs of fuzz/regressions/<target>/ (inputs
# that once found a defect), then fuzzes each target for FUZZ_SECONDS seconds.
# One test per target: it passes when neither the replay nor the run found a crash, a
# failed check, a leak report or a hang (an input running longer than FUZZ_TIMEOUT s).
# Prints per target the runs, time and corpus size, and last "N passed, N failed".
#
# Only the stable toolchain is needed: RUSTC_BOOTSTRAP=1 lets it take the -Z flags cargo-fuzz
# passes (sanitizer, coverage instrumentation). cargo-fuzz is installed when missing.
#
#   FUZZ_SECONDS   run length per target (default 60)
#   FUZZ_TARGETS   targets to run (default: all of fuzz/fuzz_targets)
#   FUZZ_TIMEOUT   seconds one input may take before it counts as a hang (default 10)
set -u

cd "$(dirname "$0")/.." || exit 2
ROOT=$(pwd)
FUZZ_SECONDS=${FUZZ_SECONDS:-60}
FUZZ_TIMEOUT=${FUZZ_TIMEOUT:-10}
CARGO_FUZZ_VERSION=0.13.2
LOGDIR="$ROOT/build/fuzz"
mkdir -p "$LOGDIR"
export RUSTC_BOOTSTRAP=1 RPNCOMM_QUIET=1

pass=0
fail=0
summary() { echo "$pass passed, $fail failed"; ((fail == 0)); exit $?; }

if ! cargo fuzz --version > /dev/null 2>&1; then
    echo "fuzz: installing cargo-fuzz $CARGO_FUZZ_VERSION (cargo install)"
    start=$SECONDS
    if ! cargo install cargo-fuzz --locked --version "$CARGO_FUZZ_VERSION" > "$LOGDIR/install.log" 2>&1; then
        tail -n 20 "$LOGDIR/install.log"
        echo "fuzz: cargo install cargo-fuzz failed (counted as one failure)"
        fail=1
        summary
    fi
    echo "fuzz: cargo-fuzz installed in $((SECONDS - start)) s"
fi

if [[ -z "${FUZZ_TARGETS:-}" ]]; then
    FUZZ_TARGETS=$(cargo fuzz list 2>/dev/null)
fi
start=$SECONDS
if ! cargo fuzz build > "$LOGDIR/build.log" 2>&1; then
    tail -n 30 "$LOGDIR/build.log"
    echo "fuzz: cargo fuzz build failed (counted as one failure)"
    fail=1
    summary
fi
echo "fuzz: targets built (AddressSanitizer, debug assertions) in $((SECONDS - start)) s"

total_runs=0
total_secs=0
for t in $FUZZ_TARGETS; do
    log="$LOGDIR/$t.log"
    : > "$log"
    ok=1
    # 1. inputs that once found a defect
    shopt -s nullglob
    regressions=(fuzz/regressions/"$t"/*)
    shopt -u nullglob
    if ((${#regressions[@]} > 0)); then
        if ! cargo fuzz run "$t" "${regressions[@]}" -- -timeout="$FUZZ_TIMEOUT" >> "$log" 2>&1; then
            echo "FAIL fuzz $t: a regression input of fuzz/regressions/$t fails again"
            ok=0
        fi
    fi
    # 2. a bounded fuzzing run, from the corpus earlier runs left (fuzz/corpus, not committed)
    if ((ok)); then
        mkdir -p "fuzz/corpus/$t"
        if ! cargo fuzz run "$t" -- -max_total_time="$FUZZ_SECONDS" -timeout="$FUZZ_TIMEOUT" \
                -rss_limit_mb=4096 -print_final_stats=1 >> "$log" 2>&1; then
            artifact=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -n 1)
            echo "FAIL fuzz $t: see $log; reproduce: RUSTC_BOOTSTRAP=1 cargo fuzz run $t ${artifact#"$ROOT/"}"
            grep -E 'panicked at|assertion|ERROR: |SUMMARY' "$log" | head -n 5
            ok=0
        fi
    fi
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    secs=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log" | tail -n 1)
    corpus=$(find "fuzz/corpus/$t" -type f | wc -l)
    total_runs=$((total_runs + ${runs:-0}))
    total_secs=$((total_secs + ${secs:-0}))
    if ((ok)); then
        pass=$((pass + 1))
        echo "PASS fuzz $t: ${runs:-?} runs in ${secs:-?} s, corpus $corpus inputs, ${#regressions[@]} regression inputs replayed"
    else
        fail=$((fail + 1))
    fi
done
echo "fuzz: $total_runs runs in $total_secs s over $(wc -w <<< "$FUZZ_TARGETS") targets (logs in build/fuzz)"
summary
