#!/usr/bin/env bash
# Format and lint checks (a part of `make check` and of `make check MPI=1`): one test per step,
# each failing with one line that names the offending files, then "N passed, N failed".
#   1. cargo fmt --check      the library and the fuzz crate (fuzz/, a workspace of its own) are
#                             formatted as rustfmt.toml says; fix: `cargo fmt` (and
#                             `cargo fmt --manifest-path fuzz/Cargo.toml`)
#   2. cargo clippy --release --all-targets -- -D warnings   no lint warning in the library, its
#                             tests and examples (the lints of Cargo.toml included)
#   3. tests/gem/run_gem.sh   (with step 1) GEM's runs cannot run here: its syntax (bash -n) and
#                             its --dry mode (arguments, case table; builds and runs nothing)
#   4. tests/midas/run_midas.sh  (with step 1) the same for MIDAS's link test
#
#   LINT_FMT=0          leaves step 1 out (mpi/check_mpi.sh: the sources are the same)
#   LINT_FEATURES=mpi   clippy on the MPI build (needs MPICC for the shim, see mpi/mpi.mk)
#   LINT_TARGET_DIR=d   cargo's target directory (the MPI build's, so the shim is built once)
#   LINT_LOG_DIR=d      where the logs go (default build/check)
set -u

cd "$(dirname "$0")/.." || exit 2
CARGO=${CARGO:-cargo}
LINT_FMT=${LINT_FMT:-1}
LINT_FEATURES=${LINT_FEATURES:-}
LINT_TARGET_DIR=${LINT_TARGET_DIR:-}
LOGDIR=${LINT_LOG_DIR:-build/check}
mkdir -p "$LOGDIR"

pass=0
fail=0

# the files named by `cargo fmt --check -- -l` (one absolute path a line), relative to here
unformatted() {
    "$CARGO" fmt --check "$@" -- -l 2>> "$LOGDIR/fmt.err" | sed "s|^$PWD/||"
}

if ((LINT_FMT)); then
    : > "$LOGDIR/fmt.err"
    files=$( { unformatted; unformatted --manifest-path fuzz/Cargo.toml; } | LC_ALL=C sort -u | tr '\n' ' ')
    files=${files% }
    if [[ -n "$files" ]]; then
        echo "FAIL cargo fmt --check: not formatted: $files (fix: cargo fmt; in fuzz/: cargo fmt --manifest-path fuzz/Cargo.toml)"
        fail=$((fail + 1))
    elif [[ -s "$LOGDIR/fmt.err" ]]; then
        echo "FAIL cargo fmt --check: rustfmt failed: $(head -n 1 "$LOGDIR/fmt.err")"
        fail=$((fail + 1))
    else
        echo "PASS cargo fmt --check (library and fuzz crate)"
        pass=$((pass + 1))
    fi
fi

what="cargo clippy --release --all-targets${LINT_FEATURES:+ --features $LINT_FEATURES} -- -D warnings"
args=(clippy --release --all-targets --message-format=short)
[[ -n "$LINT_FEATURES" ]] && args+=(--features "$LINT_FEATURES")
[[ -n "$LINT_TARGET_DIR" ]] && args+=(--target-dir "$LINT_TARGET_DIR")
log="$LOGDIR/clippy${LINT_FEATURES:+-$LINT_FEATURES}.log"
"$CARGO" "${args[@]}" -- -D warnings < /dev/null > "$log" 2>&1
status=$?
if ((status == 0)); then
    echo "PASS $what"
    pass=$((pass + 1))
else
    # short messages: "path.rs:line:col: error: text" (warnings are errors under -D warnings)
    where=$(sed -n -E 's/^([^ :]+\.rs):([0-9]+):[0-9]+: (error|warning).*/\1:\2/p' "$log" | awk '!seen[$0]++' | head -n 5 | tr '\n' ' ')
    count=$(grep -c -E '^[^ :]+\.rs:[0-9]+:[0-9]+: (error|warning)' "$log")
    if [[ -n "$where" ]]; then
        echo "FAIL $what: $count diagnostics, in ${where% } (see $log)"
    else
        echo "FAIL $what: exit status $status: $(grep -m 1 -E '^error' "$log" || tail -n 1 "$log") (see $log)"
    fi
    grep -E '^[^ :]+\.rs:[0-9]+:[0-9]+: (error|warning)' "$log" | head -n 10
    fail=$((fail + 1))
fi

if ((LINT_FMT)); then
    # script, its verdict line after --dry; a dry run creates no work directory
    for dry_script in "tests/gem/run_gem.sh:VERDICT: DRY (nothing run)" "tests/midas/run_midas.sh:VERDICT: DRY (nothing built)"; do
        script=${dry_script%%:*} verdict=${dry_script#*:}
        work="$LOGDIR/$(basename "$script" .sh)-dry"
        dry=$(bash -n "$script" 2>&1 && bash "$script" --dry --work "$work" 2>&1)
        if [[ "$(tail -n 1 <<< "$dry")" == "$verdict" && ! -e "$work" ]]; then
            echo "PASS $script: bash -n and --dry"
            pass=$((pass + 1))
        else
            echo "FAIL $script: bash -n or --dry: $(tail -n 1 <<< "$dry")"
            fail=$((fail + 1))
        fi
    done
fi

echo "$pass passed, $fail failed"
((fail == 0))
