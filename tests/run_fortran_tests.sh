#!/usr/bin/env bash
# Compile and run every tests/fortran/test_*.F90 against the library in build/ (run `make` first).
#
#   tests/run_fortran_tests.sh [name ...]     (names without .F90 restrict the run, e.g. test_put)
#
# Header comments read from each test file (first match of each):
#   ! PES: 1 2 3 4 8      numbers of PEs to run it on (default: 1 2 4)
#   ! EXPECT: fail        the run must exit non-zero (default: pass = exit status 0;
#                         a number N means exactly exit status N)
#   ! TIMEOUT: 60         seconds per run (default 60); the whole process group is killed after that
#   ! OUTPUT_HAS@N: text  on N PEs, the run's output must hold this line of text (a header
#                         of its own for each line; N is a PE count the test runs on)
#   ! EACH_PE_WROTE: text  the run's output (a file) must hold the text once per PE, %P replaced by
#                         its rank (0 to N-1): nothing a PE printed was lost when the job ended
#   ! OUTPUT_ONCE: text    the run's output must hold the text exactly once (a line the job says
#                         once, whatever its PE count)
#   ! OUTPUT_LACKS: text   the run's output must not hold the text (every such line is checked,
#                         e.g. the ERROR STOP, backtrace or MPI_Abort noise of a refused call)
#   ! FFLAGS: -fopenmp    flags of its compilation, before the include directory's -I (@INCLUDE@ is
#                         that directory, e.g. -I@INCLUDE@/rpn_comm-4.6.3)
#   ! ENV: NAME=value ...  environment variables of the run (e.g. RPNCOMM_CHECK_COLLECTIVES=each,
#                         the checking mode of the collectives)
#   ! TRANSPORT: shm      run only under rpnrun (the shared-memory build); SKIP under another
#                         LAUNCHER (a behaviour the MPI transport does not have yet)
#   ! NODES: one          SKIP where the PEs are spread over nodes, real or pretend (a LAUNCHER
#                         or an environment with --nodes or RPNCOMM_NODE_SPLIT): a behaviour
#                         only one node has
# A case passes when its exit status matches the expectation within the timeout, its job left no
# /dev/shm/rpncomm* file behind and no process of the test program is still alive. Those leftovers
# are removed (files by name, processes by id) so later cases start clean; files of other jobs
# running at the same time are recognised by the launcher pid in their names and left alone.
# What the MPI itself left (MPICH's mpich_shm_*, under a launcher whose command names mpich; Open
# MPI's vader_segment.* / sm_segment.* and its session directory: tests/lib/leftovers.sh) and no
# process uses is removed too: expected after a case that must fail (MPICH keeps its segments when
# a rank is killed or aborts), a failure after one that must pass. Open MPI's are made in
# directories of this run (/dev/shm/ompi-tests.<pid>, $TMPDIR/ompi-tests.<pid>, through its MCA
# environment), so that what other jobs on the machine leave meanwhile is not taken for a case's.
# Output: one line per case, the last 60 lines of its log on failure, then "N passed, N failed".
# Logs: build/tests/logs/<test>.compile.log and build/tests/logs/<test>.np<P>.log
#
# Environment (the MPI checks, mpi/check_mpi.sh, use these; the defaults are the shared-memory build):
#   BUILD_DIR   the build tree to test (default build)
#   LAUNCHER    command that starts a job, followed by the number of PEs and the program
#               (default "build/bin/rpnrun -n"; e.g. "mpirun.openmpi --oversubscribe -n")
#   TEST_DIRS   directories of test_*.F90 files (default tests/fortran; tutil.inc is always found)
#   LOG_DIR     where the logs go (default BUILD_DIR/tests/logs)
#   FC          the Fortran compiler (default gfortran; mpifort.<impl> for MPI builds)
#   NATIVE_LIBS the system libraries linked after the library (make passes them; default: those of
#               BUILD_DIR's pkg-config file, see tests/lib/native_libs.sh)
#   TIMEOUT_SCALE  multiplies every TIMEOUT (default 1; MPICH busy-polls when oversubscribed)
#   PES_FIRST   N: each test runs on the N smallest PE counts of its header only (a quick pass,
#               CI's for a second Fortran compiler; default: all of them)
#   SKIP_CASES  cases not run, as test:np words (e.g. "test_concurrent:8"), each printed as SKIP
#               with SKIP_WHY; skipped cases count neither as passed nor as failed
set -u

cd "$(dirname "$0")/.." || exit 2
ROOT=$(pwd)
BUILD=${BUILD_DIR:-$ROOT/build}
BUILD=$(cd "$BUILD" 2>/dev/null && pwd || echo "$BUILD")
LIB="$BUILD/lib/librpncomm_windows.a"
RPNRUN="$BUILD/bin/rpnrun"
TESTBIN="$BUILD/tests"
LOGDIR=${LOG_DIR:-$BUILD/tests/logs}
read -r -a test_dirs <<< "${TEST_DIRS:-tests/fortran}"
FC=${FC:-gfortran}
KILL_GRACE=5          # seconds between TERM and KILL on timeout

if [[ -n "${LAUNCHER:-}" ]]; then
    read -r -a launcher <<< "$LAUNCHER"
else
    launcher=("$RPNRUN" -n)
fi
if [[ ! -f "$LIB" || ( -z "${LAUNCHER:-}" && ! -x "$RPNRUN" ) ]]; then
    echo "run_fortran_tests: $LIB or $RPNRUN missing; run 'make' first" >&2
    echo "0 passed, 1 failed"
    exit 1
fi
mkdir -p "$TESTBIN" "$LOGDIR"
pidfile="$LOGDIR/.launcher.pid"
# shellcheck source=tests/lib/native_libs.sh
. tests/lib/native_libs.sh && load_native_libs "$BUILD" || { echo "0 passed, 1 failed"; exit 1; }
# shellcheck source=tests/lib/leftovers.sh
. tests/lib/leftovers.sh || { echo "0 passed, 1 failed"; exit 1; }
# Open MPI's segments and session directories of these jobs go to directories of this run, so that
# what other jobs on the machine leave meanwhile is not taken for a case's (ompi_env, below)
ompi_private_dirs "ompi-tests.$$" || { echo "run_fortran_tests: cannot make directories in /dev/shm and ${TMPDIR:-/tmp}"; echo "0 passed, 1 failed"; exit 1; }
trap remove_private_dirs EXIT
# On simulated nodes (tests/multinode/mnrun.sh) every node has a /dev/shm of its own, where the
# run's directory does not exist (Open MPI would lose its on-node transport); mnrun checks each
# node's /dev/shm for leftovers itself
if [[ " ${launcher[*]} " == *"/mnrun.sh "* ]]; then ompi_env=(); fi
# MPICH's segments can only be a case's under an MPICH launcher (their names are fixed, in
# /dev/shm); Open MPI's of other jobs in /dev/shm are never a case's (ours go to the run's
# directories), so they are not looked at
case "${LAUNCHER:-}" in
    *mpich*) LEFTOVER_SHM_GLOBS="rpncomm* mpich_shm_* ompi-tests.$$/*" ;;
    *) LEFTOVER_SHM_GLOBS="rpncomm* ompi-tests.$$/*" ;;
esac

passed=0
failed=0
tpid=""
# on interrupt, also end the running job (its own process group, led by timeout)
trap '[[ -n "$tpid" ]] && kill -TERM -- "-$tpid" 2>/dev/null; echo "run_fortran_tests: interrupted" >&2; exit 130' INT TERM

now() { printf '%s\n' "${EPOCHREALTIME/,/.}"; }

# header value of "! KEY: value" in file $1 (first occurrence, case-insensitive key)
header() {
    sed -n -E "s/^[[:space:]]*![[:space:]]*$2[[:space:]]*:[[:space:]]*(.*[^[:space:]])[[:space:]]*\$/\\1/Ip" "$1" | head -n 1
}

# names of /dev/shm entries matching the glob $1 (default rpncomm*, the library's own)
shm_list() {
    local f
    for f in /dev/shm/${1:-rpncomm*}; do
        [[ -e "$f" ]] && printf '%s\n' "${f##*/}"
    done | LC_ALL=C sort
}

# New /dev/shm/rpncomm* files (names in $1 = listing before the run) that belong to the job whose
# launcher had pid $2. The library names its files rpncomm-<launcher pid>-<random>...; other jobs
# (someone else's tests running at the same time) are left alone. A name without a pid is counted
# as ours unless a live process uses it.
job_leftovers() {
    local f
    while IFS= read -r f; do
        [[ -n "$f" ]] || continue
        if [[ "$f" =~ ^rpncomm-([0-9]+)- ]]; then
            [[ "${BASH_REMATCH[1]}" == "$2" ]] && printf '%s\n' "$f"
        elif ! shm_in_use "$f"; then
            printf '%s\n' "$f"
        fi
    done < <(LC_ALL=C comm -13 <(printf '%s\n' "$1") <(shm_list))
}

# pids of live processes running the executable $1 (our test program)
procs_of() {
    local p exe
    for p in /proc/[0-9]*; do
        exe=$(readlink "$p/exe" 2>/dev/null) || continue
        [[ "$exe" == "$1" ]] && printf '%s\n' "${p##*/}"
    done
}

report_fail() {   # name np reason log
    failed=$((failed + 1))
    echo "FAIL $1 np=$2 $3"
    if [[ -n "${4:-}" && -s "$4" ]]; then
        # 60: room for a whole backtrace of a crashed PE after MPI's own lines
        echo "---- last 60 lines of $4"
        tail -n 60 "$4"
        echo "----"
    fi
}

shopt -s nullglob
tests=()
for d in "${test_dirs[@]}"; do tests+=("$d"/test_*.F90); done
if (($# > 0)); then
    sel=()
    for t in "$@"; do
        t=${t##*/}; t=${t%.F90}
        found=""
        for d in "${test_dirs[@]}"; do [[ -f "$d/$t.F90" ]] && found="$d/$t.F90"; done
        if [[ -n "$found" ]]; then
            sel+=("$found")
        else
            echo "run_fortran_tests: no $t.F90 in ${test_dirs[*]}" >&2
            failed=$((failed + 1))
        fi
    done
    tests=("${sel[@]}")
fi

for src in "${tests[@]}"; do
    name=$(basename "$src" .F90)
    pes=$(header "$src" PES)
    pes=${pes:-1 2 4}
    expect=$(header "$src" EXPECT)
    expect=${expect%%[[:space:]]*}
    expect=${expect,,}
    expect=${expect:-pass}
    tmo=$(header "$src" TIMEOUT)
    tmo=${tmo%%[[:space:]]*}
    [[ "$tmo" =~ ^[0-9]+$ ]] || tmo=60
    tmo=$((tmo * ${TIMEOUT_SCALE:-1}))
    read -r -a pe_list <<< "$pes"
    if [[ -n "${PES_FIRST:-}" ]]; then   # only the PES_FIRST smallest counts
        read -r -a pe_list <<< "$(printf '%s\n' "${pe_list[@]}" | sort -n | head -n "$PES_FIRST" | paste -sd ' ')"
    fi

    exe="$TESTBIN/$name"
    clog="$LOGDIR/$name.compile.log"
    read -r -a fflags <<< "$(header "$src" FFLAGS)"   # e.g. "! FFLAGS: -fopenmp"
    fflags=("${fflags[@]//@INCLUDE@/$BUILD/include}")
    mkdir -p "$TESTBIN/mod.$name"   # a test's own modules, never in the working directory
    if ! "$FC" -O1 -g "${fflags[@]}" -I"$BUILD/include" -I"$ROOT/tests/fortran" -J"$TESTBIN/mod.$name" "$src" -o "$exe" "$LIB" "${native_libs[@]}" > "$clog" 2>&1; then
        for np in "${pe_list[@]}"; do
            report_fail "$name" "$np" "(compilation failed)" "$clog"
        done
        continue
    fi

    transport=$(header "$src" TRANSPORT)
    nodes_header=$(header "$src" NODES)
    read -r -a case_env <<< "$(header "$src" ENV)"
    for np in "${pe_list[@]}"; do
        if [[ "${transport,,}" == shm && " ${launcher[*]} " != *"rpnrun "* ]]; then
            echo "SKIP $name np=$np (shared-memory transport only)"
            continue
        fi
        if [[ "${nodes_header,,}" == one && ( " ${launcher[*]} " == *" --nodes "* || " ${launcher[*]} " == *RPNCOMM_NODE_SPLIT=* || -n "${RPNCOMM_NODE_SPLIT:-}" ) ]]; then
            echo "SKIP $name np=$np (one node only: the PEs are spread over nodes here)"
            continue
        fi
        if [[ " ${SKIP_CASES:-} " == *" $name:$np "* ]]; then
            echo "SKIP $name np=$np (${SKIP_WHY:-skipped by SKIP_CASES})"
            continue
        fi
        log="$LOGDIR/$name.np$np.log"
        before=$(shm_list)
        mpi_before=$(leftover_snapshot)
        t0=$(now)
        # timeout runs the job in its own process group and signals the whole group
        # (bash -c writes the launcher's pid, then becomes the launcher)
        rm -f "$pidfile"
        # shellcheck disable=SC2016
        timeout -k "$KILL_GRACE" "$tmo" bash -c 'echo "$$" > "$1"; shift; exec "$@"' _ "$pidfile" \
            env "${case_env[@]}" "${ompi_env[@]}" "${launcher[@]}" "$np" "$exe" < /dev/null > "$log" 2>&1 &
        tpid=$!
        wait "$tpid"
        status=$?
        tpid=""
        t1=$(now)
        secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')

        reason=""
        if ((status == 124 || status == 137)) && awk -v s="$secs" -v t="$tmo" 'BEGIN { exit !(s >= t) }'; then
            reason="timed out after ${tmo} s"
        else
            case "$expect" in
                pass|ok|success|0) ((status == 0)) || reason="exit status $status, expected 0" ;;
                fail|error)        ((status != 0)) || reason="exit status 0, expected failure" ;;
                *[!0-9]*)          reason="bad EXPECT header '$expect'" ;;
                *)                 ((status == expect)) || reason="exit status $status, expected $expect" ;;
            esac
        fi

        # output every PE must have left in the file (EACH_PE_WROTE)
        each=$(header "$src" EACH_PE_WROTE)
        if [[ -n "$each" ]]; then
            lost=()
            for ((p = 0; p < np; p++)); do
                grep -qF -- "${each//%P/$p}" "$log" || lost+=("$p")
            done
            ((${#lost[@]} == 0)) || reason="${reason:+$reason; }output of PE(s) ${lost[*]} lost: no '${each//%P/R}' in the log"
        fi

        # lines the output must hold on this PE count (OUTPUT_HAS@N)
        while IFS= read -r want; do
            [[ -z "$want" ]] && continue
            grep -qF -- "$want" "$log" || reason="${reason:+$reason; }no '$want' in the log"
        done < <(sed -n -E "s/^[[:space:]]*![[:space:]]*OUTPUT_HAS@$np[[:space:]]*:[[:space:]]*(.*[^[:space:]])[[:space:]]*\$/\\1/Ip" "$src")

        # text the output must hold exactly once (OUTPUT_ONCE, every occurrence of the header)
        while IFS= read -r once; do
            [[ -z "$once" ]] && continue
            times=$(grep -cF -- "$once" "$log")
            ((times == 1)) || reason="${reason:+$reason; }'$once' is in the log $times times, not once"
        done < <(sed -n -E 's/^[[:space:]]*![[:space:]]*OUTPUT_ONCE[[:space:]]*:[[:space:]]*(.*[^[:space:]])[[:space:]]*$/\1/Ip' "$src")

        # output that must not be there (OUTPUT_LACKS, every occurrence of the header)
        while IFS= read -r lacks; do
            [[ -n "$lacks" ]] && grep -qF -- "$lacks" "$log" &&
                reason="${reason:+$reason; }the log holds '$lacks'"
        done < <(sed -n -E 's/^[[:space:]]*![[:space:]]*OUTPUT_LACKS[[:space:]]*:[[:space:]]*(.*[^[:space:]])[[:space:]]*$/\1/Ip' "$src")

        # stray processes of the test program
        mapfile -t strays < <(procs_of "$exe")
        if ((${#strays[@]} > 0)); then
            reason="${reason:+$reason; }${#strays[@]} process(es) left running (killed: ${strays[*]})"
            kill -KILL "${strays[@]}" 2>/dev/null
            sleep 0.2
        fi

        # shared-memory leftovers
        jobpid=$(cat "$pidfile" 2>/dev/null)
        mapfile -t leftovers < <(job_leftovers "$before" "${jobpid:-none}")
        if ((${#leftovers[@]} > 0)); then
            reason="${reason:+$reason; }left in /dev/shm: ${leftovers[*]}"
            for f in "${leftovers[@]}"; do rm -f -- "/dev/shm/$f"; done
        fi
        # the MPI's own segments and session directory: MPICH removes its segments at
        # MPI_Finalize only, so a job that ends with a rank killed or MPI_Abort (the EXPECT: fail
        # cases) leaves them, and a killed mpirun leaves Open MPI's; removed once no process uses
        # them, and a failure in a case that should end normally
        mapfile -t mpi_left < <(leftovers_since "$mpi_before" | grep -v '^shm rpncomm')
        if ((${#mpi_left[@]} > 0)); then
            left_names=("${mpi_left[@]#* }")
            [[ "$expect" == pass || "$expect" == ok || "$expect" == success || "$expect" == 0 ]] &&
                reason="${reason:+$reason; }the MPI left behind: ${left_names[*]}"
            echo "run_fortran_tests: removed what the MPI left behind: ${left_names[*]}" >> "$log"
            for f in "${mpi_left[@]}"; do remove_leftover "$f"; done
        fi

        if [[ -z "$reason" ]]; then
            passed=$((passed + 1))
            echo "PASS $name np=$np ($secs s)"
        else
            report_fail "$name" "$np" "($secs s): $reason" "$log"
        fi
    done
done

echo "$passed passed, $failed failed"
((failed == 0))
