#!/usr/bin/env bash
# bench/halo_scale.sh -- the halo exchange at 64 PEs across 4 simulated nodes (tests/multinode/mnrun.sh,
# as root), counted: bench/halo_scale.F90 with bench/halo_mpi_count.c linked in checks every point of
# 40 exchanges (alone and in a list of 3 fields) on an 8 x 8 periodic grid and prints the messages,
# bytes, receives and collectives per exchange (collectives must be 0). Needs the MPI build
# (make MPI=1 MPI_IMPL=openmpi, or HALO_SCALE_IMPL=mpich). Fails when a point is wrong or a collective
# is made.
#   Knobs: HALO_SCALE_IMPL (openmpi), HALO_SCALE_NODES (16,16,16,16), HALO_SCALE_PES (64).
set -u
cd "$(dirname "$0")/.." || exit 2
impl=${HALO_SCALE_IMPL:-openmpi}
b=build-mpi-$impl
OUT=$b/bench/halo_scale
mkdir -p "$OUT"
[[ -f $b/lib/librpncomm_windows.a ]] || { echo "halo_scale: no $b (make MPI=1 MPI_IMPL=$impl)"; exit 1; }
"mpicc.$impl" -O2 -c bench/halo_mpi_count.c -o "$OUT/count.o" \
    && "mpifort.$impl" -O2 -I"$b/include" bench/halo_scale.F90 "$OUT/count.o" -o "$OUT/halo_scale" \
        "$b/lib/librpncomm_windows.a" ${NATIVE_LIBS:--lgcc_s -lutil -lrt -lpthread -lm -ldl -lc} \
    || { echo "halo_scale: cannot build"; exit 1; }
tests/multinode/mnrun.sh --nodes 1 -n 1 /bin/true > /dev/null 2>&1 || { echo "halo_scale: SKIP (simulated nodes need root)"; exit 0; }
timeout 600 tests/multinode/mnrun.sh --impl "$impl" --nodes "${HALO_SCALE_NODES:-16,16,16,16}" -n "${HALO_SCALE_PES:-64}" \
    "$OUT/halo_scale" > "$OUT/out.txt" 2>&1
status=$?
cat "$OUT/out.txt"
if ((status != 0)) || grep -q FAILED "$OUT/out.txt"; then exit 1; fi
