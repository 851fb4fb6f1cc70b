#!/usr/bin/env bash
# bench/halo_models.sh -- the halo exchange called as a model calls it (bench/halo_models.F90: the
# same array, 24 separately allocated fields, the 24 slices of a 4-D array, automatic arrays,
# allocate/exchange/deallocate, two arrays alternating), this library against the original RPN_COMM
# that GEM ships (ECCC-ASTD-MRD/rpncomm 4.6.3), the same program in the same run. 64 x 64 x 80 per PE,
# halo 4, 2 PEs (2 x 1) and 4 PEs (2 x 2). Prints microseconds per exchange and original / ours;
# fails only when a program fails, never on a missed target. Last, the floor of such an exchange at
# 2 PEs (bench/floor.c's halo_ew_local and halo_ew_exchange: the two copies alone, and a C model of
# the exchange through shared memory with nothing else; halo_*_cma: the single copy by cross-memory
# attach, and halo_ns_local, the copies it would replace; median and best of 5 trials, us).
#
# The original is not part of this project: give it as
#   RPNCOMM_ORIGINAL=<prefix>  an installed original (lib/librpn_comm.a, include/RPN_COMM.inc), or
#   RPNCOMM_SRC=<dir>          a checkout of ECCC-ASTD-MRD/rpncomm (commit 43ff42e, with its cmake_rpn
#                              submodule checked out), built here into $OUT/original with its CMake
#                              and Debian's Open MPI.
# Without either, only our figures are printed (the original's column says "-").
#   Knobs: HALO_MODEL_PES ("2 4"), HALO_MODEL_ROUNDS (3), HALO_MODEL_N (64), BUILD_DIR (build; the
#          shared-memory build under rpnrun), HALO_MODEL_MPI_BUILD (build-mpi-openmpi: ours over
#          Open MPI too, when that build exists), MPIFORT (mpifort.openmpi), MPIRUN (mpirun.openmpi).
set -u
cd "$(dirname "$0")/.." || exit 2
BUILD=${BUILD_DIR:-build}
OUT=$BUILD/bench/halo_models
PES=${HALO_MODEL_PES:-2 4}
ROUNDS=${HALO_MODEL_ROUNDS:-3}
N=${HALO_MODEL_N:-64}
MPI_BUILD=${HALO_MODEL_MPI_BUILD:-build-mpi-openmpi}
MPIFORT=${MPIFORT:-mpifort.openmpi}
MPIRUN=${MPIRUN:-mpirun.openmpi}
FC=${FC:-gfortran}
# GEM's flags that matter here: automatic arrays on the stack
FFLAGS_MODEL="-O2 -fstack-arrays"
mkdir -p "$OUT"
as_root=()
if [[ "$(id -u)" == 0 ]]; then as_root=(--allow-run-as-root); fi

"$FC" $FFLAGS_MODEL -I"$BUILD/include" bench/halo_models.F90 -o "$OUT/ours" "$BUILD/lib/librpncomm_windows.a" \
    ${NATIVE_LIBS:-} || { echo "halo_models bench: cannot build against $BUILD"; exit 1; }
have_mpi_build=0
if [[ -f "$MPI_BUILD/lib/librpncomm_windows.a" ]] && command -v "$MPIFORT" > /dev/null 2>&1; then
    "$MPIFORT" $FFLAGS_MODEL -I"$MPI_BUILD/include" bench/halo_models.F90 -o "$OUT/ours_mpi" \
        "$MPI_BUILD/lib/librpncomm_windows.a" ${NATIVE_LIBS:-} > "$OUT/compile-ours-mpi.log" 2>&1 && have_mpi_build=1
fi

# the original: installed, or built from a checkout
orig=${RPNCOMM_ORIGINAL:-}
if [[ -z "$orig" && -n "${RPNCOMM_SRC:-}" ]]; then
    orig=$PWD/$OUT/original
    if [[ ! -f "$orig/lib/librpn_comm.a" ]]; then
        echo "halo_models bench: building the original from $RPNCOMM_SRC (about a minute)"
        rm -rf "$OUT/original-build"
        { cmake -S "$RPNCOMM_SRC" -B "$OUT/original-build" -DCMAKE_INSTALL_PREFIX="$orig" -DCMAKE_BUILD_TYPE=Release \
            && cmake --build "$OUT/original-build" -j 2 && cmake --install "$OUT/original-build"; } > "$OUT/original-build.log" 2>&1 \
            || { echo "halo_models bench: the original did not build (see $OUT/original-build.log)"; orig=""; }
    fi
fi
have_orig=0
if [[ -n "$orig" ]]; then
    "$MPIFORT" $FFLAGS_MODEL -fallow-argument-mismatch -I"$orig/include" bench/halo_models.F90 -o "$OUT/original" \
        "$orig/lib/librpn_comm.a" > "$OUT/compile-original.log" 2>&1 && have_orig=1 \
        || echo "halo_models bench: cannot build against the original in $orig (see $OUT/compile-original.log)"
fi

printf '\n==== halo exchange as a model calls it: %s x %s x 80 per PE, halo 4 (microseconds per exchange)\n' "$N" "$N"
printf '%-4s %-10s %10s %10s %10s %14s\n' PEs case ours ours-mpi original original/ours
for np in $PES; do
    "$BUILD/bin/rpnrun" -n "$np" "$OUT/ours" "$ROUNDS" "$N" > "$OUT/ours.$np.txt" 2> "$OUT/ours.$np.err" \
        || { echo "halo_models bench: ours failed on $np PEs (see $OUT/ours.$np.err)"; exit 1; }
    : > "$OUT/ours_mpi.$np.txt"
    if ((have_mpi_build)); then
        "$MPIRUN" --oversubscribe "${as_root[@]}" -n "$np" "$OUT/ours_mpi" "$ROUNDS" "$N" > "$OUT/ours_mpi.$np.txt" 2> "$OUT/ours_mpi.$np.err" \
            || { echo "halo_models bench: ours (MPI build) failed on $np PEs (see $OUT/ours_mpi.$np.err)"; exit 1; }
    fi
    : > "$OUT/original.$np.txt"
    if ((have_orig)); then
        "$MPIRUN" --oversubscribe "${as_root[@]}" -n "$np" "$OUT/original" "$ROUNDS" "$N" > "$OUT/original.$np.txt" 2> "$OUT/original.$np.err" \
            || { echo "halo_models bench: the original failed on $np PEs (see $OUT/original.$np.err)"; exit 1; }
    fi
    for c in same fields slices automatic allocate alternate; do
        o=$(awk -v c="$c" '$1 == c {print $3}' "$OUT/ours.$np.txt")
        m=$(awk -v c="$c" '$1 == c {print $3}' "$OUT/ours_mpi.$np.txt")
        g=$(awk -v c="$c" '$1 == c {print $3}' "$OUT/original.$np.txt")
        awk -v np="$np" -v c="$c" -v o="${o:-0}" -v m="${m:--}" -v g="${g:--}" 'BEGIN {
            printf "%-4s %-10s %10.1f %10s %10s %14s\n", np, c, o, m, g,
                (g != "-" && o > 0 ? sprintf("%.2f", g / o) : "-") }'
    done
done
if ${CC:-cc} -O2 -o "$OUT/floor" bench/floor.c 2> "$OUT/floor-compile.log"; then
    "$OUT/floor" 5 20 > "$OUT/floor.txt" 2>&1 || echo "halo_models bench: the floor program failed (see $OUT/floor.txt)"
    awk '$1 == "FLOOR" && $2 ~ /^halo_/ && $3 == "refused" { print "floor " $2 " refused by the kernel " $4 " " $5; next }
         $1 == "FLOOR" && $2 ~ /^halo_/ { printf "floor %-18s median %8.1f  best %8.1f us\n", $2, $3, $4 }' "$OUT/floor.txt"
fi
