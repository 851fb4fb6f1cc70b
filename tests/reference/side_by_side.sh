#!/usr/bin/env bash
# side_by_side.sh ORIGINAL_PREFIX [BUILD_DIR] -- builds gem_side_by_side.F90 against the original
# RPN_COMM installed in ORIGINAL_PREFIX (lib/librpn_comm.a, include/) and against this library's
# Open MPI build (default build-mpi-openmpi, `make MPI=1 MPI_IMPL=openmpi`), runs both on 2, 4 and 6
# PEs and compares what they print: RPN_COMM_gridinit's result, carac, bloctopo, rank, topo_2 (both
# axes, every mode), 2D grid descriptors (create_2dgrid, get_2dgrid), an I/O PE set, a reduction of
# doubles to one PE and to all (to the last bit), RPN_COMM_transpose along x and y, RPN_COMM_dist and
# _coll (halos, periodic or not), _shuf_ezdist and _shuf_ezcoll over an I/O PE set, and the stacked
# x-z transpose through RPN_MPI.hf (RPN_MPI_transpose_setup, RPN_MPI_ez_transpose_xz). Then
# gem_yinyang_side_by_side.F90 (two grids, GEM's Yin-Yang, with and without
# RPN_COMM_set_petopo(1, 999999)) on 4 and 8 PEs. Then adj_halo_side_by_side.F90 (RPN_COMM_adj_halo8 and
# _adj_halo4, every point of the arrays as bits) and spread_side_by_side.F90 (RPN_COMM_spread_context,
# _spread, _is_null, _topo) on 1, 2, 4 and 6 PEs, and comm_helpers_side_by_side.F90 (RPN_COMM_world_set
# and _get, _split, _grank, _group, _ngrank, _i_group, _colors, _datyp_indx, _i_valid_datyp,
# _i_user_datyp, _defo, _custom_comm, _split_by_node, _infotyp, _status_size) on 1, 2, 4 and 6 PEs.
# Then module_side_by_side.F90 (the variables of the module rpn_comm, 4.6.3's form: one grid in both
# placements on 1, 2, 4 and 6 PEs, Yin-Yang on 2, 4 and 8), options_side_by_side.F90 (the options,
# the case conversions, a free unit, RPN_COMM_ptr, topo_xy, get_pe, bcst_x, bcst_world, the table
# of block distributions; one grid on 1, 2, 4 and 6 PEs, Yin-Yang on 2, 4 and 6) and
# utils_side_by_side.F90 (the environment, file, OpenMP, CPU and debug utilities, with the
# environment below, each run in an empty directory; 1, 2 and 4 PEs). Then, one family each, on 1, 2, 4
# and 6 PEs:
# - distributions_side_by_side.F90: the original's older distributions (fast_dist, dist2, coll2, move,
#   the edge gathers, io_dist_coll_check, shuf_dist/shuf_coll, grid_redist);
# - onesided_side_by_side.F90: easy and shared-memory windows, the C conversions of MPI handles, the
#   C clocks, the OpenMP state;
# - transposes_side_by_side.F90: Xpose1/2, transpose_44, transpose48, Xpose148/248, globalsum,
#   compress8/expand8, the RPN_MPI x-z and x-y transposes;
# - halo_variants_side_by_side.F90: the halo variants (xch_haloew/ns/sl/xn, adj_halox, haloflip,
#   propagate_boundary(_circular), swapns, the short entries), every point as bits;
# - io_sets_side_by_side.F90: the I/O PE sets' queries, callbacks and broadcast, the local
#   distribution tables;
# - rpn_mpi_definitions_side_by_side.F90: RPN_MPI_get_mpi_definitions(_raw) (each MPI constant
#   against MPI's own) and the layouts' statuses and refusals.
# Then haloflip_test_side_by_side.F90 (RPN_COMM_haloflip_test after MPI_Init alone, as the
# original's TEST_009: every line it prints, in rank order, but 4.6.3's trace of its ring and the
# right points its check prints after a pole's only wrong one) on 1,
# 2, 4 and 6 PEs, and diag_side_by_side.F90 (RPN_COMM_diag: the callback's calls and results as bits) on 1 PE
# only: on more, 4.6.3's RPN_COMM_diag ends in MPI_ERR_ROOT (the grid's rank of its broadcasts'
# roots used as their rank in the row and column communicators); tests/fortran/test_diag.F90
# checks 2, 4 and 6 PEs against a reference.
# Every program is built with -fopenmp (the original's f_omp_* call the OpenMP runtime).
# SBS_ONLY="prog ..." runs only the cases of those programs.
# Prints one verdict line; exit status 0 when every run is identical.
set -u
orig=${1:?usage: side_by_side.sh ORIGINAL_PREFIX [BUILD_DIR]}
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${2:-$here/../../build-mpi-openmpi}" && pwd)
fc=${MPIFORT:-mpifort.openmpi}
run=(${MPIRUN:-mpirun.openmpi} --oversubscribe)
[[ $(id -u) == 0 ]] && run+=(--allow-run-as-root)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
# what utils_side_by_side reads (RPN_COMM_env_var, init_logical_cpu_configuration, RPN_COMM_debug_*)
export RPNCOMM_SBS_VAR="some value" NODE_CPU_CONFIG="64, 2 4,2 1"
export RPN_COMM_DEBUG="IVAL=12:RVAL=1.5:LVAL=.true.:SVAL=hello:LONG=abcdefghijklmnopqrstuvwxyz0123456789XYZ:QUOTED='a:b'"
# program, its argument, PE counts
cases=("gem_side_by_side - 2 4 6" "gem_yinyang_side_by_side - 4 8" "gem_yinyang_side_by_side alongy 4 8"
       "adj_halo_side_by_side - 1 2 4 6" "spread_side_by_side - 1 2 4 6" "comm_helpers_side_by_side - 1 2 4 6"
       "module_side_by_side - 1 2 4 6" "module_side_by_side columns 1 2 4 6" "module_side_by_side yinyang 2 4 8"
       "options_side_by_side - 1 2 4 6" "options_side_by_side yinyang 2 4 6" "utils_side_by_side - 1 2 4"
       "distributions_side_by_side - 1 2 4 6"
       "onesided_side_by_side - 1 2 4 6"
       "transposes_side_by_side - 1 2 4 6"
       "halo_variants_side_by_side - 1 2 4 6"
       "io_sets_side_by_side - 1 2 4 6"
       "rpn_mpi_definitions_side_by_side - 1 2 4 6"
       "diag_side_by_side - 1"
       "haloflip_test_side_by_side - 1 2 4 6")
for c in "${cases[@]}"; do
    read -r prog arg pes <<< "$c"
    [[ -n ${SBS_ONLY:-} && " $SBS_ONLY " != *" $prog "* ]] && continue
    [[ $arg == - ]] && arg=
    # (the original's RPN_MPI layout asks libnuma for this PE's NUMA node)
    "$fc" -fopenmp -fallow-argument-mismatch -I"$orig/include" "$here/$prog.F90" "$orig/lib/librpn_comm.a" \
        $([[ $prog == rpn_mpi_definitions_side_by_side ]] && echo -lnuma) -o "$tmp/orig" || exit 2
    # (the module rpn_comm of 4.6.3's form, as the original's include directory has it)
    "$fc" -fopenmp -fallow-argument-mismatch -I"$build/include/rpn_comm-4.6.3" -I"$build/include" "$here/$prog.F90" "$build/lib/librpncomm_windows.a" \
        -lgcc_s -lutil -lrt -lpthread -lm -ldl -lc -o "$tmp/ours" || exit 2
    for n in $pes; do
        for v in orig ours; do
            # each rank's output in a file of its own: lines of several ranks on one pipe interleave
            # (in an empty directory: utils_side_by_side writes and copies files)
            rm -rf "$tmp/out.$v.$n" "$tmp/dir.$v.$n"
            mkdir "$tmp/dir.$v.$n"
            (cd "$tmp/dir.$v.$n" && timeout 120 "${run[@]}" --output-filename "$tmp/out.$v.$n" -n "$n" "$tmp/$v" $arg > /dev/null 2>&1)
            if [[ $prog == haloflip_test_side_by_side ]]; then
                # every line of the self-test, in rank order, but 4.6.3's trace of its ring and
                # the right points it prints after a pole's only wrong one ('expected X got X')
                cat "$tmp/out.$v.$n"/*/rank.*/stdout 2>/dev/null | grep -vE '^ *(low=|%gis=|\+gis=|TIMES=)' |
                    awk '!($1 == "expected" && $2 == $4)' > "$tmp/$v.$n"
            else
                cat "$tmp/out.$v.$n"/*/rank.*/stdout 2>/dev/null | grep -E '^pe |logical cpus' | sort > "$tmp/$v.$n"
            fi
        done
        if [[ -s $tmp/orig.$n ]] && cmp -s "$tmp/orig.$n" "$tmp/ours.$n"; then
            echo "side_by_side: $prog $arg $n PEs: identical ($(wc -l < "$tmp/orig.$n") lines)"
        else
            echo "side_by_side: $prog $arg $n PEs: DIFFERENT"; diff "$tmp/orig.$n" "$tmp/ours.$n" | head -20; status=1
        fi
    done
done
[[ $status == 0 ]] && echo "side_by_side: identical to the original" || echo "side_by_side: differs from the original"
exit $status
