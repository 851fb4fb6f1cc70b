#!/usr/bin/env bash
# bench/mpi_bench.sh -- `make bench MPI=1`: the MPI transport against the shared-memory transport and
# against raw MPI-3 one-sided calls, in one run, same job layout (BENCH_MPI_PES ranks, default 2).
#
# For each MPI in MPI_IMPLS (openmpi mpich), all on this machine:
#   shm        bench/rpncomm_bench.F90 over the shared-memory transport (build/, rpnrun)      (once)
#   1 node     the same program over the MPI transport, all ranks on one node: node-aware path
#              (windows are shared memory; src/transport/mpi/node.rs)
#   N nodes    the same with RPNCOMM_NODE_SPLIT=1: every rank its own pretend node, so every window
#              is an MPI RMA window (MPI_Win_allocate / MPI_Win_create; the MPI's own transport
#              between the ranks, shared memory on this machine)
#   raw        bench/raw_mpi.c (the project's raw MPI-3 baseline) under the same mpirun
#   2x2        4 ranks on 2 pretend nodes (RPNCOMM_NODE_SPLIT=2), each rank working on its partner
#              on the same node (`pairs`) in windows over the whole job: the hybrid windows' direct
#              path (src/transport/mpi/hybrid.rs), against the same with RPNCOMM_NODE_DIRECT=0
#              (every access through MPI) and raw MPI-3 with the same pairs (BENCH_MPI_2X2=0: off)
# BENCH_MPI_TCP=1 adds, for Open MPI, the N-node and raw runs over TCP with the pt2pt one-sided
# component (--mca pml ob1 --mca btl tcp,self --mca osc pt2pt), as between nodes without RDMA.
#
# The table: every one-element operation and epoch (user array and internal windows), bandwidth of
# fence epochs with one put of 8 KiB / 1 MiB / 16 MiB, and the same one-element operations on a 16 MiB
# window ("big"). Ratios are costs (time ours / time theirs; for MB/s theirs / ours): 1node/shm
# (target <= 1.5), Nnode/raw (target <= 1.1), big/internal (no cost may grow with the window).
# Timings of a shared machine are noisy: the script fails only on data errors or crashes.
# Environment: MPI_IMPLS, BENCH_MPI_PES (2), BENCH_TRIALS (11), BENCH_MS (10), BENCH_TIMEOUT (180 s),
#              BENCH_MPI_TCP (0), RAW_MPI_SRC (bench/raw_mpi.c), MPICC_<impl>, MPIFORT_<impl>,
#              MPIRUN_<impl>, NATIVE_LIBS, PYTHON (python3).
# Output: build/bench-mpi/raw/*.txt and table.txt.
set -u

cd "$(dirname "$0")/.." || exit 2
ROOT=$(pwd)
OUT="$ROOT/build/bench-mpi"
RAW="$OUT/raw"
MPI_IMPLS=${MPI_IMPLS:-openmpi mpich}
NP=${BENCH_MPI_PES:-2}
TRIALS=${BENCH_TRIALS:-11}
MS=${BENCH_MS:-10}
TIMEOUT=${BENCH_TIMEOUT:-180}
RAW_MPI_SRC=${RAW_MPI_SRC:-bench/raw_mpi.c}
PYTHON=${PYTHON:-python3}
NATIVE_LIBS=${NATIVE_LIBS:--lgcc_s -lutil -lrt -lpthread -lm -ldl -lc}
read -r -a native_libs <<< "$NATIVE_LIBS"
SECTIONS=(lat bw size)
failures=0
fail() { echo "bench-mpi: FAILED: $*" >&2; failures=$((failures + 1)); }

mkdir -p "$RAW"
rm -f "$RAW"/*.txt "$RAW"/*.err "$OUT/table.txt"

# run NAME COMMAND...: output in raw/NAME.txt; a crash, timeout or BENCH ERROR fails the bench
run() {
    local name=$1 rc
    shift
    printf 'bench-mpi: %-22s %s\n' "$name" "$*"
    timeout -k 5 "$TIMEOUT" "$@" > "$RAW/$name.txt" 2> "$RAW/$name.err" < /dev/null
    rc=$?
    if ((rc != 0)); then
        fail "$name: exit status $rc"
        tail -n 15 "$RAW/$name.err" >&2
    fi
    if grep -q 'BENCH ERROR' "$RAW/$name.txt" "$RAW/$name.err"; then
        fail "$name: data verification errors"
        grep -h 'BENCH ERROR' "$RAW/$name.txt" "$RAW/$name.err" | head -n 10 >&2
    fi
}

# shared-memory transport: the reference of the one-node figures
if [[ ! -f build/lib/librpncomm_windows.a || ! -x build/bin/rpnrun ]]; then
    ${MAKE:-make} --no-print-directory -C "$ROOT" MPI= all > "$OUT/build-shm.log" 2>&1 || { tail -n 30 "$OUT/build-shm.log"; exit 1; }
fi
gfortran -O2 -Ibuild/include bench/rpncomm_bench.F90 -o "$OUT/rpncomm_bench.shm" build/lib/librpncomm_windows.a \
    "${native_libs[@]}" 2> "$OUT/compile-shm.log" || { cat "$OUT/compile-shm.log"; exit 1; }
run shm build/bin/rpnrun -n "$NP" --timeout "$TIMEOUT" -- "$OUT/rpncomm_bench.shm" "${SECTIONS[@]}" trials="$TRIALS" ms="$MS"

as_root=()
if [[ "$(id -u)" == 0 ]]; then as_root=(--allow-run-as-root); fi
for impl in $MPI_IMPLS; do
    case $impl in
        openmpi) mpicc=${MPICC_openmpi:-mpicc.openmpi} mpifort=${MPIFORT_openmpi:-mpifort.openmpi}
                 launch=("${MPIRUN_openmpi:-mpirun.openmpi}" --oversubscribe "${as_root[@]}" -n "$NP")
                 split=(-x RPNCOMM_NODE_SPLIT=1) split2=(-x RPNCOMM_NODE_SPLIT=2) all_mpi=(-x RPNCOMM_NODE_DIRECT=0) ;;
        mpich)   mpicc=${MPICC_mpich:-mpicc.mpich} mpifort=${MPIFORT_mpich:-mpifort.mpich}
                 launch=("${MPIRUN_mpich:-mpiexec.mpich}" -n "$NP")
                 split=(-genv RPNCOMM_NODE_SPLIT 1) split2=(-genv RPNCOMM_NODE_SPLIT 2) all_mpi=(-genv RPNCOMM_NODE_DIRECT 0) ;;
        *) fail "unknown MPI '$impl' (openmpi or mpich)"; continue ;;
    esac
    b=build-mpi-$impl
    if [[ ! -f $b/lib/librpncomm_windows.a ]]; then
        ${MAKE:-make} --no-print-directory -C "$ROOT" MPI=1 MPI_IMPL="$impl" all > "$OUT/build-$impl.log" 2>&1 ||
            { fail "make all MPI=1 MPI_IMPL=$impl"; tail -n 30 "$OUT/build-$impl.log"; continue; }
    fi
    "$mpifort" -O2 -I"$b/include" bench/rpncomm_bench.F90 -o "$OUT/rpncomm_bench.$impl" "$b/lib/librpncomm_windows.a" \
        "${native_libs[@]}" 2> "$OUT/compile-$impl.log" || { fail "compile rpncomm_bench ($impl)"; cat "$OUT/compile-$impl.log"; continue; }
    bench=("$OUT/rpncomm_bench.$impl" "${SECTIONS[@]}" trials="$TRIALS" ms="$MS")
    # the last word of "launch" is the rank count: options go before -n
    run "$impl.1node" "${launch[@]}" "${bench[@]}"
    run "$impl.Nnode" "${launch[@]:0:${#launch[@]}-2}" "${split[@]}" -n "$NP" "${bench[@]}"
    if [[ -f $RAW_MPI_SRC ]]; then
        "$mpicc" -O2 -o "$OUT/raw_mpi.$impl" "$RAW_MPI_SRC" 2> "$OUT/compile-raw-$impl.log" || { fail "compile $RAW_MPI_SRC ($impl)"; continue; }
        run "$impl.raw" "${launch[@]}" "$OUT/raw_mpi.$impl" trials="$TRIALS" ms="$MS"
    else
        echo "bench-mpi: $RAW_MPI_SRC missing: no raw MPI column"
    fi
    if [[ ${BENCH_MPI_2X2:-1} == 1 ]]; then
        opts=("${launch[@]:0:${#launch[@]}-2}")
        run "$impl.2x2" "${opts[@]}" "${split2[@]}" -n 4 "${bench[@]}" pairs
        run "$impl.2x2mpi" "${opts[@]}" "${split2[@]}" "${all_mpi[@]}" -n 4 "${bench[@]}" pairs
        [[ -f $OUT/raw_mpi.$impl ]] && run "$impl.2x2raw" "${opts[@]}" -n 4 "$OUT/raw_mpi.$impl" trials="$TRIALS" ms="$MS" pairs
    fi
    if [[ $impl == openmpi && ${BENCH_MPI_TCP:-0} == 1 ]]; then
        tcp=(--mca pml ob1 --mca btl tcp,self --mca osc pt2pt)
        run "$impl-tcp.Nnode" "${launch[@]:0:${#launch[@]}-2}" "${tcp[@]}" "${split[@]}" -n "$NP" "${bench[@]}"
        [[ -f $OUT/raw_mpi.$impl ]] && run "$impl-tcp.raw" "${launch[@]:0:${#launch[@]}-2}" "${tcp[@]}" -n "$NP" "$OUT/raw_mpi.$impl" trials="$TRIALS" ms="$MS"
    fi
done

"$PYTHON" - "$RAW" "$NP" <<'EOF' | tee "$OUT/table.txt"
import glob, os, sys
raw, np = sys.argv[1], sys.argv[2]
runs = {}
for path in sorted(glob.glob(os.path.join(raw, "*.txt"))):
    res = {}
    for line in open(path):
        w = line.split()
        if len(w) >= 7 and w[0] == "RESULT":
            res[w[1]] = (float(w[3]), w[6])
    runs[os.path.basename(path)[:-4]] = res
RAWKEY = {"passive_put": "lock_put", "passive_get": "lock_get", "passive_fetch": "fetch_op",
          "fence_empty": "fence_empty", "fence_put": "fence_put", "group_put": "pscw_put",
          "bw_8k": "bw_8k", "bw_1m": "bw_1m", "bw_16m": "bw_16m"}
def cost(a, b):  # cost of a relative to b (time ratio; inverse for bandwidth)
    if a is None or b is None or a[0] <= 0 or b[0] <= 0:
        return None
    return a[0] / b[0] if a[1] == "us" else b[0] / a[0]
def fmt(v):
    return "-" if v is None else (f"{v[0]:.3f}" if v[1] == "us" else f"{v[0]:.0f}")
def rfmt(r, limit):
    return "-" if r is None else f"{r:.2f}" + ("" if r <= limit else " !")
shm = runs.get("shm", {})
keys = [k for k in shm] or sorted({k for r in runs.values() for k in r if "." in k and not k.endswith(".raw")})
impls = sorted({n.split(".")[0] for n in runs if n != "shm" and "-tcp." not in n})
print(f"\nMPI transport vs shared memory vs raw MPI-3, {np} ranks on this machine (medians; us per op, MB/s for bw_*)")
print("ratios are costs: 1node/shm target <= 1.5, Nnode/raw target <= 1.1, big/internal ~1 ('!' = over target)")
for impl in impls:
    one, many, rawr = runs.get(impl + ".1node", {}), runs.get(impl + ".Nnode", {}), runs.get(impl + ".raw", {})
    print(f"\n== {impl}" + ("" if one else " (no one-node run)"))
    print(f"{'operation':<24}{'shm':>10}{'1 node':>10}{'1node/shm':>11}{'N nodes':>10}{'raw MPI':>10}{'Nnode/raw':>11}")
    for k in keys:
        op = k.split(".")[0]
        r = rawr.get(RAWKEY.get(op, "") + ".raw")
        print(f"{k:<24}{fmt(shm.get(k)):>10}{fmt(one.get(k)):>10}{rfmt(cost(one.get(k), shm.get(k)), 1.5):>11}"
              f"{fmt(many.get(k)):>10}{fmt(r):>10}{rfmt(cost(many.get(k), r), 1.1):>11}")
    big = [k for k in keys if k.endswith(".big")]
    if big:
        print("window size (16 MiB 'big' vs 4 KiB internal):", ", ".join(
            f"{k.split('.')[0]} {n} {rfmt(cost(run.get(k), run.get(k.split('.')[0] + '.internal')), 1.3)}"
            for n, run in (("1node", one), ("Nnode", many)) for k in big))
    direct, all_mpi, raw4 = runs.get(impl + ".2x2", {}), runs.get(impl + ".2x2mpi", {}), runs.get(impl + ".2x2raw", {})
    if direct:
        print(f"-- {impl}, 4 ranks on 2 pretend nodes, each on its partner on the same node, windows over the job")
        print(f"{'operation':<24}{'direct':>10}{'all MPI':>10}{'direct/MPI':>11}{'raw MPI':>10}{'direct/raw':>11}")
        for k in keys:
            r = raw4.get(RAWKEY.get(k.split(".")[0], "") + ".raw")
            print(f"{k:<24}{fmt(direct.get(k)):>10}{fmt(all_mpi.get(k)):>10}{rfmt(cost(direct.get(k), all_mpi.get(k)), 1.1):>11}"
                  f"{fmt(r):>10}{rfmt(cost(direct.get(k), r), 1.1):>11}")
    tcp_many, tcp_raw = runs.get(impl + "-tcp.Nnode", {}), runs.get(impl + "-tcp.raw", {})
    if tcp_many:
        print(f"-- {impl} over TCP + osc/pt2pt, one rank per pretend node")
        for k in keys:
            r = tcp_raw.get(RAWKEY.get(k.split(".")[0], "") + ".raw")
            print(f"{k:<24}{fmt(tcp_many.get(k)):>10}{fmt(r):>10}{rfmt(cost(tcp_many.get(k), r), 1.1):>11}")
EOF
if ((failures > 0)); then
    echo "bench-mpi: $failures failure(s)"
    exit 1
fi
