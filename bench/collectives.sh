#!/usr/bin/env bash
# bench/collectives.sh -- the collectives GEM makes every time step (bench/gem_collectives.F90: the
# FGMRES allreduces of 2 and 16 real*8, the CFL-like allreduce of 1, the Yin-Yang Schwarz triple,
# the barrier, the statistics' reduce + gather, the logical and integer bcasts), this library
# against the original RPN_COMM that GEM ships (ECCC-ASTD-MRD/rpncomm 4.6.3, commit 43ff42e), the
# same program in the same run, on one node, 2 PEs:
#   shm build vs 4.6.3 on Open MPI        ours: build/ under rpnrun; the original under mpirun.openmpi
#   MPI build Open MPI vs 4.6.3 Open MPI  ours: build-mpi-openmpi (make MPI=1 MPI_IMPL=openmpi)
#   MPI build MPICH vs 4.6.3 MPICH        ours: build-mpi-mpich (make MPI=1 MPI_IMPL=mpich)
# Every program is compiled with the same flags (-O2 -fstack-arrays, as bench/halo_models_nodes.sh;
# the original also needs -fallow-argument-mismatch). Ours and the original alternate, TRIALS
# times; each run prints the median of ROUNDS rounds per case (microseconds per call, slowest PE).
# The markdown table gives the median over the trials [lowest-highest] and original / ours (above
# 1: ours faster). A tree of ours that is missing is built with make; a missing original or MPI
# skips its side or row. Fails only when a program fails (or ours cannot be built), never on a
# missed target.
#
# The originals are not part of this project: installed prefixes (lib/librpn_comm.a,
# include/RPN_COMM.inc), RPNCOMM_ORIGINAL (Open MPI, default /work/orig/openmpi) and
# RPNCOMM_ORIGINAL_MPICH (default /work/orig/mpich), each built with GEM's flags and that MPI:
#   cmake -S <rpncomm 43ff42e, with its cmake_rpn submodule> -B b -DCMAKE_BUILD_TYPE=RelWithDebInfo
#     -DMPI_C_COMPILER=mpicc.openmpi -DMPI_Fortran_COMPILER=mpifort.openmpi
#     -DCMAKE_INSTALL_PREFIX=/work/orig/openmpi && cmake --build b && cmake --install b
# (mpicc.mpich / mpifort.mpich and /work/orig/mpich for MPICH).
#
# Part 2, only with COLLECTIVES_PMPI=1: the MPI calls behind one RPN_COMM_allreduce of 1 real*8, with
# each operator of COLLECTIVES_PMPI_OPERATORS (default "MPI_MAX MPI_SUM": a sum of reals over 3 PEs
# or more of one node is MPI's own call in this library)
# (bench/collectives_count.F90 linked with the PMPI counter bench/collectives_pmpi.c: calls and
# bytes per allreduce per PE, min/mean/max over the PEs, 100 allreduces between two markers) at
# 4, 16 and 64 PEs on Open MPI (--oversubscribe): ours (MPI build), ours with every PE a pretend
# node of its own (RPNCOMM_NODE_SPLIT=1: the path between nodes), and the original.
#
# Knobs: COLLECTIVES_TRIALS (or TRIALS; 3), COLLECTIVES_ROUNDS (5), COLLECTIVES_CASES (the cases,
#        comma-separated; default all but gather and transpose, which bench/halo_models_nodes.sh
#        times), COLLECTIVES_PMPI (0), COLLECTIVES_PMPI_PES ("4 16 64"), COLLECTIVES_PMPI_OPS
#        (100), BUILD_DIR (build: the shared-memory build), MPIFORT_openmpi, MPIFORT_mpich,
#        MPICC_openmpi, MPIRUN_openmpi (mpirun.openmpi), MPIRUN_mpich (mpirun.mpich), NATIVE_LIBS.
set -u
cd "$(dirname "$0")/.." || exit 2
ROOT=$PWD
BUILD=${BUILD_DIR:-build}
OUT=$BUILD/bench/collectives
TRIALS=${COLLECTIVES_TRIALS:-${TRIALS:-3}}
ROUNDS=${COLLECTIVES_ROUNDS:-5}
CASES=${COLLECTIVES_CASES:-allreduce1,allreduce2,allreduce16,allreduce64,schwarz,barrier,reduce_gather,bcast_l,bcast_alt,bcast_i}
NP=2
FFLAGS_MODEL="-O2 -fstack-arrays"
MPIRUN_openmpi=${MPIRUN_openmpi:-mpirun.openmpi}
MPIRUN_mpich=${MPIRUN_mpich:-mpirun.mpich}
MPIFORT_openmpi=${MPIFORT_openmpi:-mpifort.openmpi}
MPIFORT_mpich=${MPIFORT_mpich:-mpifort.mpich}
MPICC_openmpi=${MPICC_openmpi:-mpicc.openmpi}
ORIG_openmpi=${RPNCOMM_ORIGINAL:-/work/orig/openmpi}
ORIG_mpich=${RPNCOMM_ORIGINAL_MPICH:-/work/orig/mpich}
# shellcheck source=tests/lib/native_libs.sh
. tests/lib/native_libs.sh || exit 2
mkdir -p "$OUT"
as_root=()
if [[ "$(id -u)" == 0 ]]; then as_root=(--allow-run-as-root); fi
status=0
hangs=0
say() { echo "collectives bench: $*"; }
have() { command -v "$1" > /dev/null 2>&1; }

# ours: the tree $1 (built with make and the arguments after it when missing) -> $OUT/<prog>.$2
# compiled with the Fortran compiler $3, for each program in $PROGS
build_ours() {
    local b=$1 tag=$2 fc=$3 prog
    shift 3
    if [[ ! -f $b/lib/librpncomm_windows.a || ($tag == shm && ! -x $b/bin/rpnrun) ]]; then
        say "building $b (make $*; see $OUT/make-$tag.log)"
        ${MAKE:-make} --no-print-directory -C "$ROOT" "$@" > "$OUT/make-$tag.log" 2>&1 ||
            { say "cannot build $b (see $OUT/make-$tag.log)"; status=1; return 1; }
    fi
    load_native_libs "$b" || { status=1; return 1; }
    for prog in $PROGS; do
        "$fc" $FFLAGS_MODEL -I"$b/include" bench/$prog.F90 -o "$OUT/$prog.$tag" "$b/lib/librpncomm_windows.a" \
            ${EXTRA_OBJ:-} "${native_libs[@]}" > "$OUT/compile-$prog.$tag.log" 2>&1 ||
            { say "cannot compile $prog against $b (see $OUT/compile-$prog.$tag.log)"; status=1; return 1; }
    done
}

# the original in prefix $1 -> $OUT/<prog>.$2, compiled with $3
build_orig() {
    local o=$1 tag=$2 fc=$3 prog
    [[ -f $o/lib/librpn_comm.a && -f $o/include/RPN_COMM.inc ]] ||
        { say "no original RPN_COMM in $o (its column says -)"; return 1; }
    for prog in $PROGS; do
        "$fc" $FFLAGS_MODEL -fallow-argument-mismatch -I"$o/include" bench/$prog.F90 -o "$OUT/$prog.$tag" \
            ${EXTRA_OBJ:-} "$o/lib/librpn_comm.a" > "$OUT/compile-$prog.$tag.log" 2>&1 ||
            { say "cannot compile $prog against the original in $o (see $OUT/compile-$prog.$tag.log)"; status=1; return 1; }
    done
}

# median, lowest and highest of case $2 in the files $1.*
stats() {
    cat "$1".* 2> /dev/null | awk -v c="$2" '$1 == c { v[++n] = $3 } END {
        if (n == 0) { print "- - -"; exit }
        for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
        m = (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
        printf "%.2f %.2f %.2f\n", m, v[1], v[n] }'
}

# ---- part 1: the builds
PROGS=gem_collectives
declare -A ready launch
if build_ours "$BUILD" shm gfortran MPI= all; then
    ready[shm]=1 launch[shm]="$BUILD/bin/rpnrun -n $NP"
fi
for impl in openmpi mpich; do
    fcv=MPIFORT_$impl runv=MPIRUN_$impl origv=ORIG_$impl
    fc=${!fcv} run=${!runv} orig=${!origv}
    if ! have "$fc" || ! have "$run"; then
        say "no $fc or $run: no $impl"
        continue
    fi
    if build_ours "build-mpi-$impl" "ours.$impl" "$fc" MPI=1 MPI_IMPL="$impl" all; then
        ready[ours.$impl]=1
    fi
    build_orig "$orig" "orig.$impl" "$fc" && ready[orig.$impl]=1
    if [[ $impl == openmpi ]]; then
        launch[$impl]="$run --oversubscribe ${as_root[*]} -n $NP"
    else
        launch[$impl]="$run -n $NP"
    fi
done

# the rows: name, ours (program tag, launcher), the original (program tag, launcher)
rows=("shm|shm build vs 4.6.3 on Open MPI|shm|shm|orig.openmpi|openmpi"
      "openmpi|MPI build Open MPI vs 4.6.3 Open MPI|ours.openmpi|openmpi|orig.openmpi|openmpi"
      "mpich|MPI build MPICH vs 4.6.3 MPICH|ours.mpich|mpich|orig.mpich|mpich")
ncases=$(tr ',' '\n' <<< "$CASES" | grep -c .)

# ---- part 1: the runs, ours and the original alternating
for row in "${rows[@]}"; do
    IFS='|' read -r name _ <<< "$row"
    rm -f "$OUT/$name".ours.* "$OUT/$name".orig.*
done
load=$(cut -d' ' -f1-3 /proc/loadavg 2> /dev/null)
for t in $(seq "$TRIALS"); do
    for row in "${rows[@]}"; do
        IFS='|' read -r name _ otag olaunch gtag glaunch <<< "$row"
        for who in ours orig; do
            if [[ $who == ours ]]; then tag=$otag l=$olaunch; else tag=$gtag l=$glaunch; fi
            [[ -n ${ready[$tag]:-} && -n ${launch[$l]:-} ]] || continue
            read -r -a cmd <<< "${launch[$l]}"
            res=$OUT/$name.$who.$t
            timeout -k 10 300 "${cmd[@]}" "$OUT/gem_collectives.$tag" "$ROUNDS" 64 "$CASES" > "$res" 2> "$OUT/$name.$who.err"
            rc=$?
            if ((rc == 124)) && (($(awk '$2 == 64' "$res" | wc -l) == ncases)); then
                hangs=$((hangs + 1))   # every result out, then stuck in MPI_Finalize: kept
            elif ((rc != 0)); then
                say "gem_collectives ($who, $name) failed, trial $t (rc $rc; see $res and $OUT/$name.$who.err)"
                cat "$res" > "$res.failed"
                : > "$res"
                status=1
            fi
        done
    done
done

printf '\n==== GEM'"'"'s per-step collectives, %s PEs on one node: ours and RPN_COMM 4.6.3, %s trials each, alternating\n' "$NP" "$TRIALS"
printf '(microseconds per call, slowest PE: median of the trials [lowest-highest]; each trial the median of %s rounds; 4.6.3 / ours above 1: ours faster; load average before the runs: %s)\n\n' "$ROUNDS" "${load:-?}"
{
    echo "| comparison | case | ours (us) | 4.6.3 (us) | 4.6.3 / ours |"
    echo "| --- | --- | ---: | ---: | ---: |"
    for row in "${rows[@]}"; do
        IFS='|' read -r name label _ <<< "$row"
        first=1
        for c in ${CASES//,/ }; do
            read -r om ol oh <<< "$(stats "$OUT/$name.ours" "$c")"
            read -r gm gl gh <<< "$(stats "$OUT/$name.orig" "$c")"
            shown=""
            ((first)) && shown=$label
            first=0
            awk -v l="$shown" -v c="$c" -v om="$om" -v ol="$ol" -v oh="$oh" -v gm="$gm" -v gl="$gl" -v gh="$gh" 'BEGIN {
                o = (om == "-") ? "-" : om " [" ol "-" oh "]"
                g = (gm == "-") ? "-" : gm " [" gl "-" gh "]"
                printf "| %s | %s | %s | %s | %s |\n", l, c, o, g, (om != "-" && gm != "-" && om > 0 ? sprintf("%.2f", gm / om) : "-") }'
        done
    done
} | tee "$OUT/table.md"
cpus=$(nproc 2> /dev/null || echo 1)
awk -v l="${load%% *}" -v c="$cpus" -v np="$NP" 'BEGIN { exit !(l + np > c) }' 2> /dev/null &&
    echo "(busy machine: load average ${load%% *} before the runs, $cpus CPUs for $NP PEs; a PE that waits for one descheduled spins through the scheduler's time slice, milliseconds, MPICH's the most: see the spread)"
((hangs == 0)) || echo "($hangs runs hung in MPI_Finalize after printing their results: stopped after 300 s, their results kept)"

# ---- part 2 (COLLECTIVES_PMPI=1): the MPI calls behind one allreduce of 1 real*8
if [[ ${COLLECTIVES_PMPI:-0} == 1 ]]; then
    PES=${COLLECTIVES_PMPI_PES:-4 16 64}
    OPS=${COLLECTIVES_PMPI_OPS:-100}
    OPERATORS=${COLLECTIVES_PMPI_OPERATORS:-MPI_MAX MPI_SUM}
    PROGS=collectives_count
    pmpi_ok=0
    if ! have "$MPICC_openmpi" || ! have "$MPIFORT_openmpi" || ! have "$MPIRUN_openmpi"; then
        say "no Open MPI ($MPICC_openmpi, $MPIFORT_openmpi, $MPIRUN_openmpi): no MPI call counts"
    elif ! "$MPICC_openmpi" -O2 -c bench/collectives_pmpi.c -o "$OUT/collectives_pmpi.o" > "$OUT/compile-pmpi.log" 2>&1; then
        say "cannot compile bench/collectives_pmpi.c (see $OUT/compile-pmpi.log)"
        status=1
    else
        pmpi_ok=1
    fi
    if ((pmpi_ok)); then
        EXTRA_OBJ=$OUT/collectives_pmpi.o
        who_list=()
        build_ours build-mpi-openmpi ours "$MPIFORT_openmpi" MPI=1 MPI_IMPL=openmpi all && who_list+=(ours ours-split1)
        build_orig "$ORIG_openmpi" orig "$MPIFORT_openmpi" && who_list+=(orig)
        rm -f "$OUT"/count.*
        for op in $OPERATORS; do
            for np in $PES; do
                for who in "${who_list[@]}"; do
                    case $who in
                        ours) prog=$OUT/collectives_count.ours env=() ;;
                        ours-split1) prog=$OUT/collectives_count.ours env=(-x RPNCOMM_NODE_SPLIT=1) ;;
                        orig) prog=$OUT/collectives_count.orig env=() ;;
                    esac
                    f=$OUT/count.$op.$who.$np
                    timeout -k 10 300 "$MPIRUN_openmpi" --oversubscribe "${as_root[@]}" "${env[@]}" -n "$np" "$prog" "$OPS" "$op" \
                        > "$f" 2> "$f.err"
                    rc=$?
                    if ((rc != 0)) && ! grep -q "^COUNT $np end" "$f"; then
                        say "collectives_count $op ($who) failed on $np PEs (rc $rc; see $f and .err)"
                        status=1
                    fi
                done
            done
        done
        printf '\n==== the MPI calls behind one RPN_COMM_allreduce of 1 real*8 over GRID (%s), Open MPI, one node (--oversubscribe), %s allreduces counted\n' "$OPERATORS" "$OPS"
        printf '(per PE and per allreduce, min / mean / max over the PEs; bytes: count x type size of the call'"'"'s own buffer; ours-split1: every PE a pretend node of its own, RPNCOMM_NODE_SPLIT=1)\n\n'
        {
            echo "| operator | PEs | library | MPI function | calls | bytes |"
            echo "| --- | ---: | --- | --- | ---: | ---: |"
            for op in $OPERATORS; do
                for np in $PES; do
                    for who in "${who_list[@]}"; do
                        f=$OUT/count.$op.$who.$np
                        if ! grep -q "^COUNT $np end" "$f" 2> /dev/null; then
                            echo "| $op | $np | $who | (no result) | - | - |"
                        elif ! grep -q "^COUNT $np MPI_" "$f"; then
                            echo "| $op | $np | $who | (none of the counted functions) | 0 | 0 |"
                        else
                            awk -v op="$op" -v np="$np" -v who="$who" '$1 == "COUNT" && $2 == np && $3 ~ /^MPI_/ {
                                printf "| %s | %s | %s | %s | %s / %s / %s | %s / %s / %s |\n", op, np, who, $3, $4, $5, $6, $7, $8, $9 }' "$f"
                        fi
                    done
                done
            done
        } | tee "$OUT/count.md"
    fi
fi
exit $status
