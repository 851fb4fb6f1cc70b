#!/usr/bin/env bash
# bench/halo_models_nodes.sh -- what GEM does every time step, across simulated nodes
# (tests/multinode/mnrun.sh: network namespaces, TCP between them; needs root): the halo exchange
# called as a model calls it (bench/halo_models.F90: the same array, 24 fields, 24 slices, an
# automatic array, allocate/free, two arrays alternating; 64 x 64 x 80 per PE, halo 4) and the
# collectives GEM makes every step (bench/gem_collectives.F90: allreduce, logical and integer
# bcast, gather of a level, RPN_COMM_transpose), this library's MPI build against the original
# RPN_COMM that GEM ships (4.6.3) built with the same MPI. Both programs run TRIALS times each,
# ours and the original alternating, on the same nodes; the table gives the median of the trials
# (microseconds per call, slowest PE), the spread (lowest-highest) and original / ours (above 1:
# ours faster). Fails only when a program fails, never on a missed target.
#
# Layouts (HALO_NODES_MODEL_LAYOUTS, default "1+1 2x2 8/4"):
#   1+1   2 PEs (2 x 1), one on each of 2 nodes: every neighbour across
#   2x2   4 PEs (2 x 2) on 2 nodes of 2: east/west on the node, north/south across
#   8/4   8 PEs (4 x 2) on 4 nodes of 2
# MPIs (HALO_NODES_MODEL_MPIS, default "mpich openmpi"), each where both builds exist:
#   mpich    ours: build-mpi-mpich (make MPI=1 MPI_IMPL=mpich); the original: RPNCOMM_ORIGINAL_MPICH
#            (an installed prefix, default /work/orig/mpich)
#   openmpi  ours: build-mpi-openmpi; the original: RPNCOMM_ORIGINAL (default /work/orig/openmpi),
#            run with osc/pt2pt (Debian's Open MPI 4 makes windows between nodes only with it)
# Every node has its own System V IPC and boot id (mnrun.sh --separate-memory), so that MPICH's UCX
# goes over TCP between nodes as between real ones (otherwise it uses shared memory and cross-memory
# attach across these simulated nodes).
# Build an original with GEM's flags: cmake -S <gem>/src/rpn-si/rpncomm -B b
#   -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMPI_C_COMPILER=mpicc.mpich -DMPI_Fortran_COMPILER=mpifort.mpich
#   -DCMAKE_INSTALL_PREFIX=/work/orig/mpich && cmake --build b && cmake --install b
# (the same -O2 -march=native -fstack-arrays ... that GEM's own build gives it).
# Knobs: HALO_NODES_MODEL_TRIALS (5), HALO_NODES_MODEL_ROUNDS (5: rounds per program, the best
# taken for the halo, the median for the collectives), HALO_NODES_MODEL_COLLECTIVES (the cases of
# gem_collectives.F90, comma-separated; default the six above).
set -u
cd "$(dirname "$0")/.." || exit 2
OUT=${BUILD_DIR:-build}/bench/halo_models_nodes
TRIALS=${HALO_NODES_MODEL_TRIALS:-5}
ROUNDS=${HALO_NODES_MODEL_ROUNDS:-5}
# gem_collectives.F90's cases (bench/collectives.sh times them all on one node)
COLLECTIVES=${HALO_NODES_MODEL_COLLECTIVES:-allreduce1,allreduce64,bcast_l,bcast_i,gather,transpose}
LAYOUTS=${HALO_NODES_MODEL_LAYOUTS:-1+1 2x2 8/4}
MN=tests/multinode/mnrun.sh
NATIVE_LIBS=${NATIVE_LIBS:--lgcc_s -lutil -lrt -lpthread -lm -ldl -lc}
read -r -a native <<< "$NATIVE_LIBS"
FFLAGS_MODEL="-O2 -fstack-arrays"
mkdir -p "$OUT"
hangs=0

if ! probe=$("$MN" --nodes 1 -n 1 /bin/true 2>&1); then
    echo "halo_models_nodes bench: SKIP (${probe:-the simulated nodes cannot be set up})"
    exit 0
fi
printf '#!/bin/sh\nexec %s --mca osc pt2pt "$@"\n' "${MPIRUN_openmpi:-mpirun.openmpi}" > "$OUT/mpirun-openmpi-pt2pt"
chmod +x "$OUT/mpirun-openmpi-pt2pt"

# median and spread of the values of case $2 in the files $1.*
stats() {
    cat "$1".* 2> /dev/null | awk -v c="$2" '$1 == c { v[++n] = $3 } END {
        if (n == 0) { print "- - -"; exit }
        for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
        m = (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
        printf "%.1f %.1f %.1f\n", m, v[1], v[n] }'
}

printf '\n==== across simulated nodes: ours (MPI build) and GEM'"'"'s RPN_COMM 4.6.3, %s trials each, alternating (us per call: median [lowest-highest])\n' "$TRIALS"
printf '%-8s %-5s %-12s %24s %24s %9s\n' MPI nodes case ours original orig/ours
for impl in ${HALO_NODES_MODEL_MPIS:-mpich openmpi}; do
    case $impl in
        mpich) b=build-mpi-mpich fc=mpifort.mpich mn=(--impl mpich) mn_orig=("${mn[@]}") orig=${RPNCOMM_ORIGINAL_MPICH:-/work/orig/mpich} ;;
        openmpi) b=build-mpi-openmpi fc=mpifort.openmpi mn=(--impl openmpi)
                 mn_orig=(--impl openmpi --mpirun "$OUT/mpirun-openmpi-pt2pt") orig=${RPNCOMM_ORIGINAL:-/work/orig/openmpi} ;;
        *) echo "halo_models_nodes bench: unknown MPI '$impl'"; continue ;;
    esac
    [[ -f $b/lib/librpncomm_windows.a ]] || { echo "halo_models_nodes bench: no $b (skipping $impl)"; continue; }
    [[ -f $orig/lib/librpn_comm.a ]] || { echo "halo_models_nodes bench: no original for $impl in $orig (skipping)"; continue; }
    log=$OUT/compile-$impl.log
    : > "$log"
    ok=1
    for prog in halo_models gem_collectives; do
        "$fc" $FFLAGS_MODEL -I"$b/include" bench/$prog.F90 -o "$OUT/$prog.ours.$impl" "$b/lib/librpncomm_windows.a" \
            "${native[@]}" >> "$log" 2>&1 || ok=0
        "$fc" $FFLAGS_MODEL -fallow-argument-mismatch -I"$orig/include" bench/$prog.F90 -o "$OUT/$prog.orig.$impl" \
            "$orig/lib/librpn_comm.a" >> "$log" 2>&1 || ok=0
    done
    ((ok)) || { echo "halo_models_nodes bench: cannot build for $impl (see $log)"; continue; }
    for layout in $LAYOUTS; do
        case $layout in
            1+1) nodes=1,1 np=2 ;;
            2x2) nodes=2,2 np=4 ;;
            8/4) nodes=2,2,2,2 np=8 ;;
            *) echo "halo_models_nodes bench: layout $layout: 1+1, 2x2 or 8/4"; continue ;;
        esac
        tag=$impl.${layout/\//of}
        rm -f "$OUT"/*."$tag".*
        for t in $(seq "$TRIALS"); do
            for who in ours orig; do
                if [[ $who == ours ]]; then run=("${mn[@]}"); else run=("${mn_orig[@]}"); fi
                for prog in halo_models gem_collectives; do
                    cases=()
                    [[ $prog == gem_collectives ]] && cases=("$COLLECTIVES")
                    timeout 300 "$MN" --separate-memory "${run[@]}" --nodes $nodes -n $np "$OUT/$prog.$who.$impl" "$ROUNDS" 64 "${cases[@]}" \
                        > "$OUT/$prog.$who.$tag.$t" 2> "$OUT/$prog.$who.$tag.err"
                    rc=$?
                    # UCX's TCP transport (MPICH) may hang in MPI_Finalize after the results are out
                    # (tests/multinode/mnrun.sh, --separate-memory): counted, the results kept
                    expected=6
                    [[ $prog == gem_collectives ]] && expected=$(tr ',' '\n' <<< "$COLLECTIVES" | grep -c .)
                    if ((rc == 124)) && (($(grep -c ' 64 ' "$OUT/$prog.$who.$tag.$t") == expected)); then
                        hangs=$((hangs + 1))
                    elif ((rc != 0)); then
                        echo "halo_models_nodes bench: $prog ($who) failed, $impl $layout (see $OUT/$prog.$who.$tag.err)"
                        exit 1
                    fi
                done
            done
        done
        for c in same fields slices automatic allocate alternate ${COLLECTIVES//,/ }; do
            prog=halo_models
            [[ $c == same || $c == fields || $c == slices || $c == automatic || $c == allocate || $c == alternate ]] || prog=gem_collectives
            read -r om ol oh <<< "$(stats "$OUT/$prog.ours.$tag" "$c")"
            read -r gm gl gh <<< "$(stats "$OUT/$prog.orig.$tag" "$c")"
            awk -v m="$impl" -v l="$layout" -v c="$c" -v om="$om" -v ol="$ol" -v oh="$oh" -v gm="$gm" -v gl="$gl" -v gh="$gh" 'BEGIN {
                printf "%-8s %-5s %-12s %24s %24s %9s\n", m, l, c, om " [" ol "-" oh "]", gm " [" gl "-" gh "]",
                    (om > 0 && gm != "-" ? sprintf("%.2f", gm / om) : "-") }'
        done
    done
done
((hangs == 0)) || echo "($hangs runs hung in MPI_Finalize after printing their results: stopped after 300 s, their results kept)"
