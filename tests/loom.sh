#!/usr/bin/env bash
# Body of `make loom` (and part 5 of `make check`): the loom model checks of the shared-memory
# protocols (tests/loom_protocols.rs: barrier, passive lock, PSCW and fence epochs, slot claim,
# for 2 and 3 PEs), built with --cfg loom in a target directory of their own (target/loom) so
# the normal build is not rebuilt. Prints the executions each model explored, then the
# totals as "N passed, N failed".
#
#   LOOM_MAX_PREEMPTIONS   preemption bound (default 2 in the tests; 3 takes about 12 minutes)
#   LOOM_TIMEOUT           seconds before the run counts as failed (default 1800)
set -u

cd "$(dirname "$0")/.." || exit 2
LOGDIR="$(pwd)/build/loom"
mkdir -p "$LOGDIR"
log="$LOGDIR/loom.log"

start=$SECONDS
RUSTFLAGS="--cfg loom" CARGO_TARGET_DIR=target/loom timeout -k 10 "${LOOM_TIMEOUT:-1800}" \
    cargo test --release --test loom_protocols -- --nocapture --test-threads=1 < /dev/null > "$log" 2>&1
status=$?
grep -E 'loom model|panicked|deadlock' "$log" | sed 's/^\.*//'
read -r p f < <(sed -n -E 's/^test result: .* ([0-9]+) passed; ([0-9]+) failed.*/\1 \2/p' "$log" |
                awk '{ p += $1; f += $2 } END { print p + 0, f + 0 }')
if ((status != 0 && f == 0)); then
    tail -n 30 "$log"
    echo "loom: cargo test exit status $status without a failed model reported (counted as one failure)"
    f=1
fi
echo "loom: $((SECONDS - start)) s including the build (log in build/loom)"
echo "$p passed, $f failed"
((f == 0))
