#!/usr/bin/env bash
# options_side_by_side.sh ORIGINAL_PREFIX [BUILD_DIR] -- builds options_side_by_side.F90 against the
# original RPN_COMM installed in ORIGINAL_PREFIX (lib/librpn_comm.a, include/) and against this
# library's Open MPI build (default build-mpi-openmpi, `make MPI=1 MPI_IMPL=openmpi`), runs both on
# 1, 2, 4 and 6 PEs (and with two grids in the job, as GEM's Yin-Yang, on 2, 4 and 6) and compares
# the `pe ...` lines they print (the options, the case conversions, a free unit, RPN_COMM_ptr,
# topo_xy, get_pe, colors, bcst_x, bcst_world, the table of block distributions, status_size).
# The same steps as side_by_side.sh, kept apart so that each list of cases has one owner.
# Prints one verdict line; exit status 0 when every run is identical.
set -u
orig=${1:?usage: options_side_by_side.sh ORIGINAL_PREFIX [BUILD_DIR]}
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${2:-$here/../../build-mpi-openmpi}" && pwd)
fc=${MPIFORT:-mpifort.openmpi}
run=(${MPIRUN:-mpirun.openmpi} --oversubscribe)
[[ $(id -u) == 0 ]] && run+=(--allow-run-as-root)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
prog=options_side_by_side
"$fc" -fallow-argument-mismatch -I"$orig/include" "$here/$prog.F90" "$orig/lib/librpn_comm.a" -o "$tmp/orig" || exit 2
"$fc" -fallow-argument-mismatch -I"$build/include" "$here/$prog.F90" "$build/lib/librpncomm_windows.a" \
    -lgcc_s -lutil -lrt -lpthread -lm -ldl -lc -o "$tmp/ours" || exit 2
for c in "- 1" "- 2" "- 4" "- 6" "yinyang 2" "yinyang 4" "yinyang 6"; do
    read -r arg n <<< "$c"
    [[ $arg == - ]] && arg=
    for v in orig ours; do
        # each rank's output in a file of its own: lines of several ranks on one pipe interleave
        rm -rf "$tmp/out.$v.$n"
        timeout 120 "${run[@]}" --output-filename "$tmp/out.$v.$n" -n "$n" "$tmp/$v" $arg > /dev/null 2>&1
        cat "$tmp/out.$v.$n"/*/rank.*/stdout 2>/dev/null | grep '^pe ' | sort > "$tmp/$v.$n"
    done
    if [[ -s $tmp/orig.$n ]] && cmp -s "$tmp/orig.$n" "$tmp/ours.$n"; then
        echo "options_side_by_side: $arg $n PEs: identical ($(wc -l < "$tmp/orig.$n") lines)"
    else
        echo "options_side_by_side: $arg $n PEs: DIFFERENT"; diff "$tmp/orig.$n" "$tmp/ours.$n" | head -20; status=1
    fi
done
[[ $status == 0 ]] && echo "options_side_by_side: identical to the original" || echo "options_side_by_side: differs from the original"
exit $status
