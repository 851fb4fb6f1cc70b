#!/usr/bin/env bash
# utils_side_by_side.sh ORIGINAL_PREFIX [BUILD_DIR] -- builds utils_side_by_side.F90 (the
# environment, file, OpenMP, CPU and debug utilities) against the original RPN_COMM installed in
# ORIGINAL_PREFIX (lib/librpn_comm.a, include/) and against this library's Open MPI build (default
# build-mpi-openmpi), runs both on 1, 2 and 4 PEs, each in an empty directory, with the same
# environment, and compares what they print ("pe ..." lines and print_logical_cpu_configuration's).
# Prints one verdict line; exit status 0 when every run is identical.
set -u
orig=${1:?usage: utils_side_by_side.sh ORIGINAL_PREFIX [BUILD_DIR]}
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${2:-$here/../../build-mpi-openmpi}" && pwd)
fc=${MPIFORT:-mpifort.openmpi}
run=(${MPIRUN:-mpirun.openmpi} --oversubscribe)
[[ $(id -u) == 0 ]] && run+=(--allow-run-as-root)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
prog=utils_side_by_side
# -fopenmp: the original's f_omp_* call the OpenMP runtime's functions
"$fc" -fopenmp -I"$orig/include" "$here/$prog.F90" "$orig/lib/librpn_comm.a" -o "$tmp/orig" || exit 2
"$fc" -fopenmp -I"$build/include" "$here/$prog.F90" "$build/lib/librpncomm_windows.a" \
    -lgcc_s -lutil -lrt -lpthread -lm -ldl -lc -o "$tmp/ours" || exit 2
export RPNCOMM_SBS_VAR="some value" NODE_CPU_CONFIG="64, 2 4,2 1"
export RPN_COMM_DEBUG="IVAL=12:RVAL=1.5:LVAL=.true.:SVAL=hello:LONG=abcdefghijklmnopqrstuvwxyz0123456789XYZ:QUOTED='a:b'"
for n in 1 2 4; do
    for v in orig ours; do
        # each rank's output in a file of its own: lines of several ranks on one pipe interleave
        rm -rf "$tmp/out.$v.$n" "$tmp/dir.$v.$n"
        mkdir "$tmp/dir.$v.$n"
        (cd "$tmp/dir.$v.$n" && timeout 120 "${run[@]}" --output-filename "$tmp/out.$v.$n" -n "$n" "$tmp/$v" > /dev/null 2>&1)
        cat "$tmp/out.$v.$n"/*/rank.*/stdout 2>/dev/null | grep -E '^pe |logical cpus' | sort > "$tmp/$v.$n"
    done
    if [[ -s $tmp/orig.$n ]] && cmp -s "$tmp/orig.$n" "$tmp/ours.$n"; then
        echo "utils_side_by_side: $n PEs: identical ($(wc -l < "$tmp/orig.$n") lines)"
    else
        echo "utils_side_by_side: $n PEs: DIFFERENT"; diff "$tmp/orig.$n" "$tmp/ours.$n" | head -30; status=1
    fi
done
[[ $status == 0 ]] && echo "utils_side_by_side: identical to the original" || echo "utils_side_by_side: differs from the original"
exit $status
