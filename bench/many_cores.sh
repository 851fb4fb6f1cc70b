#!/usr/bin/env bash
# bench/many_cores.sh -- the figures taken on a lent many-core machine that has neither gfortran nor
# MPI (bench/README.md, "A 16-core machine again"): the scaling table (rpncomm_bench `scale` at 1-16
# PEs), bench/binding.sh at 2 and 8 PEs, bench/halo_models.F90 (ours) at 2-16 PEs, halo lists
# against separate calls (bench/halo_ours.F90) with RPNCOMM_HALO_GROUP_BYTES at its default and at 0,
# and bench/floor.c (the copies, the two-copy halo exchange, cross-memory attach).
#
#   bench/many_cores.sh build [DIR]   here: static builds (-static-libgfortran, rpnrun with a static
#                                     C library) into DIR (default build/many_cores), with this script
#   DIR/many_cores.sh run             there, from the repository root: results under $OUT (or
#                                     /tmp/many_cores), a summary on stdout
# Knobs of run: MANY_PES ("1 2 4 8 12 16", capped at the CPUs), MANY_ROUNDS (2).
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
mode=${1:-}
case "$mode" in
build)
    cd "$here/.." || exit 2
    D=${2:-build/many_cores}
    ${MAKE:-make} all > /dev/null || { echo "many_cores: make all failed" >&2; exit 1; }
    mkdir -p "$D"
    RUSTFLAGS="-C target-feature=+crt-static" cargo build --quiet --release --target x86_64-unknown-linux-gnu \
        --target-dir build/many_cores-target --bin rpnrun || exit 1
    cp build/many_cores-target/x86_64-unknown-linux-gnu/release/rpnrun "$D/"
    libs=(build/lib/librpncomm_windows.a -lpthread -ldl -lrt -lm)
    flags=(-O2 -static-libgfortran -static-libgcc -Ibuild/include)
    gfortran "${flags[@]}" bench/rpncomm_bench.F90 -o "$D/rpncomm_bench" "${libs[@]}" || exit 1
    gfortran "${flags[@]}" bench/halo_ours.F90 -o "$D/halo_ours" "${libs[@]}" || exit 1
    gfortran "${flags[@]}" -fstack-arrays bench/halo_models.F90 -o "$D/halo_models" "${libs[@]}" || exit 1
    ${CC:-cc} -O2 -static bench/floor.c -o "$D/floor" || exit 1
    # libgfortran's quadmath stays dynamic: carried beside the programs
    cp "$(gfortran -print-file-name=libquadmath.so.0)" "$D/"
    cp bench/many_cores.sh "$D/"
    strip "$D"/rpnrun "$D"/rpncomm_bench "$D"/halo_ours "$D"/halo_models "$D"/floor
    echo "many_cores: built into $D ($(du -sh "$D" | cut -f1)); there: bash $D/many_cores.sh run"
    ;;
run)
    D=$here
    [[ -f bench/binding.sh ]] || { echo "many_cores: run it from the repository root" >&2; exit 2; }
    export LD_LIBRARY_PATH=$D${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    O=${OUT:-/tmp/many_cores}
    mkdir -p "$O"
    cpus=$(nproc)
    pes=()
    for n in ${MANY_PES:-1 2 4 8 12 16}; do ((n <= cpus)) && pes+=("$n"); done
    rounds=${MANY_ROUNDS:-2}
    { echo "CPUs: $cpus"; lscpu | grep -E "Model name|Socket|NUMA node\(s\)|Thread"; uname -r; } | tee "$O/machine.txt"
    # the scaling table
    for ((r = 1; r <= rounds; r++)); do
        for n in "${pes[@]}"; do
            timeout 60 "$D/rpnrun" -n "$n" --timeout 55 -- "$D/rpncomm_bench" scale trials=11 ms=10 > "$O/scale.$n.$r.txt" 2>&1 ||
                echo "many_cores: scale on $n PEs failed (see $O/scale.$n.$r.txt)"
        done
    done
    echo "== scaling: median us (min-max), p99, per round"
    cat "$O"/scale.*.txt | awk '$1 == "RESULT" { printf "%-18s %3s %8.3f (%.3f-%.3f) p99 %.2f\n", $2, $3, $4, $5, $6, $10 }' | sort -k1,1 -k2,2n
    # bench/binding.sh, with the static builds laid out as build/ where there is no build (the lent
    # machine; binding.sh then finds its programs newer than their sources and compiles nothing)
    if [[ ! -f build/lib/librpncomm_windows.a ]]; then
        mkdir -p build/lib build/include build/bin build/bench
        touch build/lib/librpncomm_windows.a build/include/rpn_comm_windows.mod
        cp "$D/rpnrun" build/bin/
        cp "$D/rpncomm_bench" build/bench/
        touch build/bench/rpncomm_bench
    fi
    for n in 2 8; do
        ((n <= cpus)) || continue
        BINDING_PES=$n timeout 300 bash bench/binding.sh > "$O/binding.$n.txt" 2>&1 || echo "many_cores: binding on $n PEs failed"
        echo "== binding, $n PEs"
        grep -A 40 '^measurement' "$O/binding.$n.txt"
    done
    # the halo as a model calls it (ours), lists against separate calls
    echo "== halo_models (us per exchange)"
    for n in "${pes[@]}"; do
        ((n >= 2)) || continue
        timeout 60 "$D/rpnrun" -n "$n" --timeout 55 -- "$D/halo_models" 5 64 > "$O/halo_models.$n.txt" 2>&1 || echo "many_cores: halo_models on $n PEs failed"
        echo "$n PEs: $(tr '\n' ' ' < "$O/halo_models.$n.txt")"
    done
    echo "== halo lists: five fields in one list (groups of RPNCOMM_HALO_GROUP_BYTES; 0: one message) against five calls"
    for ((r = 1; r <= rounds + 1; r++)); do
        for n in 2 4 16; do
            ((n <= cpus)) || continue
            for cap in 65536 0; do
                RPNCOMM_HALO_GROUP_BYTES=$cap timeout 100 "$D/rpnrun" -n "$n" --timeout 95 -x RPNCOMM_HALO_GROUP_BYTES -- "$D/halo_ours" > "$O/t.txt" 2>&1 ||
                    echo "many_cores: halo_ours on $n PEs failed"
                awk -v n="$n" -v c="$cap" -v r="$r" '$1 ~ /5$/ { printf "round %s, %2s PEs, group bytes %-6s %s\n", r, n, c, $0 }' "$O/t.txt"
            done
        done
    done | tee "$O/lists.txt"
    echo "== floor"
    timeout 120 "$D/floor" 5 20 | tee "$O/floor.txt"
    ;;
*)
    echo "usage: bench/many_cores.sh build [DIR] | DIR/many_cores.sh run" >&2
    exit 2
    ;;
esac
