#!/usr/bin/env bash
# bench/many_cores.sh -- the figures taken on a lent many-core machine that has neither gfortran nor
# MPI (bench/README.md, "A 16-core machine again"): the scaling table (rpncomm_bench `scale` at 1-16
# PEs), bench/binding.sh at 2 and 8 PEs, halo lists against separate calls (bench/halo_ours.F90) with
# RPNCOMM_HALO_GROUP_BYTES at its default and at 0, bench/floor.c (the copies, the two-copy halo
# exchange, cross-memory attach), and the halo as a model calls it and GEM's collectives
# (bench/halo_models.F90, bench/gem_collectives.F90, arguments "5 64") at 2-16 PEs, a core per PE:
# ours in shared memory (rpnrun), ours in its Open MPI build, and the original RPN_COMM that GEM
# ships, both over Debian's Open MPI 4.1, run from a relocatable Open MPI carried in DIR/openmpi.
#
#   bench/many_cores.sh build [DIR]   here: static builds (-static-libgfortran, rpnrun with a static
#                                     C library) into DIR (default build/many_cores), with this script;
#                                     and the MPI side: the two programs linked against ours
#                                     (build-mpi-openmpi, from make MPI=1 MPI_IMPL=openmpi) and against
#                                     the original (RPNCOMM_ORIGINAL, default /work/orig/openmpi) with
#                                     mpifort.openmpi into DIR/mpi, and Debian's Open MPI runtime
#                                     (apt-get download of the versions installed here, dpkg-deb -x, the
#                                     libraries it needs beyond glibc copied from here, the components
#                                     for networks that one node does not use left out, all stripped)
#                                     into DIR/openmpi, started by DIR/openmpi/mpirun
#   DIR/many_cores.sh run             there, from the repository root: results under $OUT (or
#                                     /tmp/many_cores), a summary on stdout
# Knobs of build: MANY_SHM (1; 0: no shared-memory programs, no cargo), MANY_MPI (empty: the MPI
# side when its inputs exist; 1: it must be built; 0: none).
# Knobs of run: MANY_PES ("1 2 4 8 12 16", capped at the CPUs), MANY_ROUNDS (2), MANY_PARTS ("scale
# binding lists floor models"), MANY_MPI (empty: the MPI runs when DIR/openmpi exists; 1: they must;
# 0: none), MANY_MPIRUN_ARGS (more arguments to mpirun, e.g. "--mca btl_vader_single_copy_mechanism
# none", which the models part adds itself when a first MPI run fails: vader's cross-memory attach
# needs ptrace, which a container may deny). The models part checks first, with LD_DEBUG, that no
# library is loaded from outside the kit and glibc, then prints a table: PEs, case, the medians over the rounds of ours in shared
# memory, ours over MPI and the original (microseconds per call, slowest PE), original / ours
# (above 1: ours faster).
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
mode=${1:-}

# the Open MPI runtime's packages (Debian 12: Open MPI 4.1.4, PMIx 4.2, hwloc 2.9)
mpi_packages=(openmpi-bin libopenmpi3 openmpi-common libpmix2 libhwloc15 libevent-2.1-7 libevent-core-2.1-7
    libevent-pthreads-2.1-7 libgfortran5 libquadmath0)
# libraries of networks and launchers that one node does not use: the components needing them are
# left out (mtl ofi/psm/psm2, pml/osc/atomic/spml/sshmem ucx, btl openib/ofi, reachable netlink)
mpi_unused='^lib(ucp|uct|ucs|ucm|fabric|ibverbs|rdmacm|efa|mlx[45]|psm_infinipath|psm2|infinipath|nl-3|nl-route-3)\.so'
glibc='^(linux-vdso|libc|libm|libdl|libpthread|librt|libutil|libresolv|libanl|ld-linux-x86-64)\.so'

is_elf() { [[ -f $1 && ! -L $1 && $(head -c 4 "$1" 2> /dev/null | od -An -c | tr -d ' ') == '177ELF' ]]; }

build_shm() {
    local D=$1
    ${MAKE:-make} all > /dev/null || { echo "many_cores: make all failed" >&2; return 1; }
    RUSTFLAGS="-C target-feature=+crt-static" cargo build --quiet --release --target x86_64-unknown-linux-gnu \
        --target-dir build/many_cores-target --bin rpnrun || return 1
    cp build/many_cores-target/x86_64-unknown-linux-gnu/release/rpnrun "$D/"
    local libs=(build/lib/librpncomm_windows.a -lpthread -ldl -lrt -lm)
    local flags=(-O2 -static-libgfortran -static-libgcc -Ibuild/include)
    gfortran "${flags[@]}" bench/rpncomm_bench.F90 -o "$D/rpncomm_bench" "${libs[@]}" || return 1
    gfortran "${flags[@]}" bench/halo_ours.F90 -o "$D/halo_ours" "${libs[@]}" || return 1
    gfortran "${flags[@]}" -fstack-arrays bench/halo_models.F90 -o "$D/halo_models" "${libs[@]}" || return 1
    gfortran "${flags[@]}" -fstack-arrays bench/gem_collectives.F90 -o "$D/gem_collectives" "${libs[@]}" || return 1
    ${CC:-cc} -O2 -static bench/floor.c -o "$D/floor" || return 1
    # libgfortran's quadmath stays dynamic: carried beside the programs
    cp "$(gfortran -print-file-name=libquadmath.so.0)" "$D/"
    strip "$D"/rpnrun "$D"/rpncomm_bench "$D"/halo_ours "$D"/halo_models "$D"/gem_collectives "$D"/floor
}

build_mpi() {
    local D=$1 K=$1/openmpi b=build-mpi-openmpi orig=${RPNCOMM_ORIGINAL:-/work/orig/openmpi}
    local fc=${MPIFORT_openmpi:-mpifort.openmpi} missing=() p v f n r
    local native=(-lgcc_s -lutil -lrt -lpthread -lm -ldl -lc)
    command -v "$fc" > /dev/null || missing+=("$fc")
    [[ -f $b/lib/librpncomm_windows.a ]] || missing+=("$b (make MPI=1 MPI_IMPL=openmpi)")
    [[ -f $orig/lib/librpn_comm.a ]] || missing+=("the original RPN_COMM in $orig (RPNCOMM_ORIGINAL)")
    for p in apt-get dpkg-deb dpkg-query ldd strip; do command -v $p > /dev/null || missing+=("$p"); done
    if ((${#missing[@]})); then
        [[ ${MANY_MPI:-} == 1 ]] && { echo "many_cores: cannot build the MPI side: no ${missing[*]}" >&2; return 1; }
        echo "many_cores: no MPI side (no ${missing[*]})"
        return 0
    fi
    rm -rf "$K" "$D/mpi"
    mkdir -p "$K" "$D/mpi"
    # the programs, as bench/halo_models_nodes.sh builds them
    for p in halo_models gem_collectives; do
        "$fc" -O2 -fstack-arrays -I"$b/include" bench/$p.F90 -o "$D/mpi/$p.ours" "$b/lib/librpncomm_windows.a" \
            "${native[@]}" >> "$D/mpi/compile.log" 2>&1 &&
            "$fc" -O2 -fstack-arrays -fallow-argument-mismatch -I"$orig/include" bench/$p.F90 -o "$D/mpi/$p.orig" \
                "$orig/lib/librpn_comm.a" >> "$D/mpi/compile.log" 2>&1 ||
            { echo "many_cores: cannot build $p for MPI (see $D/mpi/compile.log)" >&2; return 1; }
    done
    # the runtime: the packages at the versions installed here (those the programs were linked with)
    local dl
    dl=$(mktemp -d) && chmod 777 "$dl" || return 1
    local want=()
    for p in "${mpi_packages[@]}"; do
        v=$(dpkg-query -W -f='${Version}' "$p" 2> /dev/null)
        want+=("$p${v:+=$v}")
    done
    (cd "$dl" && apt-get download "${want[@]}") > "$D/mpi/apt.log" 2>&1 ||
        { echo "many_cores: apt-get download failed (see $D/mpi/apt.log)" >&2; rm -rf "$dl"; return 1; }
    for f in "$dl"/*.deb; do dpkg-deb -x "$f" "$K" || { rm -rf "$dl"; return 1; }; done
    rm -rf "$dl"
    local L=$K/usr/lib/x86_64-linux-gnu
    local lp=$L/openmpi/lib:$L
    # not needed to run: documentation, compiler wrappers, the Java and C++ bindings
    rm -rf "$K/usr/share/doc" "$K/usr/share/man" "$K/usr/share/lintian"
    find "$K/usr/bin" -lname opal_wrapper -delete
    rm -f "$K/usr/bin/opal_wrapper" "$K"/usr/bin/mpijavac* "$L"/libmpi_java.so* "$L"/libmpi_cxx.so* "$L"/openmpi/lib/mpi.jar
    # the components (and their helper libraries) that need a library in mpi_unused
    local dropped=()
    while IFS= read -r f; do
        if LD_LIBRARY_PATH=$lp ldd "$f" 2> /dev/null | awk '{ print $1 }' | grep -Eq "$mpi_unused"; then
            dropped+=("$f")
        fi
    done < <(find "$L/openmpi/lib/openmpi3" "$L/pmix2/lib/pmix" "$L" -maxdepth 1 -name '*.so*' -type f)
    for f in "${dropped[@]}"; do
        n=$(basename "$f")
        rm -f "$f"
        find "$L" -maxdepth 1 -lname "*${n%%.so*}.so*" -delete
    done
    printf '%s\n' "${dropped[@]##*/}" | sort > "$K/left-out.txt"
    # the libraries the rest needs beyond glibc, copied from here, until none is missing
    for ((r = 0; r < 5; r++)); do
        n=0
        while IFS= read -r f; do
            is_elf "$f" || continue
            while read -r p v; do
                [[ $p =~ $glibc || $v == "$K"/* || $v == not ]] && continue
                [[ -e $L/$p ]] || { cp -L "$v" "$L/$p" && n=$((n + 1)); }
            done < <(LD_LIBRARY_PATH=$lp ldd "$f" 2> /dev/null | awk '$2 == "=>" { print $1, $3 }')
        done < <(find "$K" "$D/mpi" -type f)
        ((n == 0)) && break
    done
    missing=$(find "$K" "$D/mpi" -type f | while IFS= read -r f; do
        is_elf "$f" && LD_LIBRARY_PATH=$lp ldd "$f" 2> /dev/null | grep -q 'not found' && echo "${f#"$D"/}"; done)
    [[ -z $missing ]] || { echo "many_cores: libraries not found for: $missing" >&2; return 1; }
    find "$K" "$D/mpi" -type f | while IFS= read -r f; do is_elf "$f" && strip --strip-unneeded "$f"; done
    # mpirun, relocated: Open MPI's prefix; PMIx's folders one by one (Debian gives them as absolute
    # paths, which PMIX_PREFIX alone does not move); the kit's parameters (Debian's: osc ucx and
    # pt2pt, btl openib and ofi, pml ucx, mtl ofi off) rather than any /etc/openmpi; no hwloc plugins
    mkdir -p "$L/hwloc"
    cat > "$K/mpirun" << 'EOS'
#!/bin/sh
# Open MPI relocated into this folder (bench/many_cores.sh): mpirun with its environment
K=$(cd "$(dirname "$0")" && pwd)
L=$K/usr/lib/x86_64-linux-gnu
P=$L/pmix2
export OPAL_PREFIX=$K/usr PATH=$K/usr/bin:$PATH
export LD_LIBRARY_PATH=$L/openmpi/lib:$L${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export OMPI_MCA_mca_base_param_files=$K/etc/openmpi/openmpi-mca-params.conf
export OMPI_MCA_orte_default_hostfile=$K/etc/openmpi/openmpi-default-hostfile
export PMIX_PREFIX=$P PMIX_LIBDIR=$P/lib PMIX_DATADIR=$P/share PMIX_PKGLIBDIR=$P/lib/pmix PMIX_PKGDATADIR=$P/share/pmix
export PMIX_MCA_mca_base_component_path=$P/lib/pmix PMIX_MCA_mca_base_param_files=$P/share/pmix-mca-params.conf
export HWLOC_PLUGINS_PATH=$L/hwloc
exec "$K/usr/bin/orterun" "$@"
EOS
    chmod +x "$K/mpirun"
    echo "many_cores: Open MPI kit in $K: $(du -sh "$K" | cut -f1) ($(wc -l < "$K/left-out.txt") components left out, see $K/left-out.txt); MPI programs in $D/mpi: $(du -sh "$D/mpi" | cut -f1)"
}

# median of the values ($3) of case $2 in the files $1.*
median() {
    cat "$1".* 2> /dev/null | awk -v c="$2" '$1 == c { v[++n] = $3 } END {
        if (n == 0) { print "-"; exit }
        for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
        printf "%.2f\n", (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2 }'
}

case "$mode" in
build)
    cd "$here/.." || exit 2
    D=${2:-build/many_cores}
    mkdir -p "$D" && D=$(cd "$D" && pwd) || exit 2
    if [[ ${MANY_SHM:-1} != 0 ]]; then build_shm "$D" || exit 1; fi
    if [[ ${MANY_MPI:-} != 0 ]]; then build_mpi "$D" || exit 1; fi
    cp bench/many_cores.sh "$D/"
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
    parts=" ${MANY_PARTS:-scale binding lists floor models} "
    { echo "CPUs: $cpus"; lscpu | grep -E "Model name|Socket|NUMA node\(s\)|Thread"; uname -r; } | tee "$O/machine.txt"
    # the scaling table
    if [[ $parts == *" scale "* ]]; then
        for ((r = 1; r <= rounds; r++)); do
            for n in "${pes[@]}"; do
                timeout 60 "$D/rpnrun" -n "$n" --timeout 55 -- "$D/rpncomm_bench" scale trials=11 ms=10 > "$O/scale.$n.$r.txt" 2>&1 ||
                    echo "many_cores: scale on $n PEs failed (see $O/scale.$n.$r.txt)"
            done
        done
        echo "== scaling: median us (min-max), p99, per round"
        cat "$O"/scale.*.txt | awk '$1 == "RESULT" { printf "%-18s %3s %8.3f (%.3f-%.3f) p99 %.2f\n", $2, $3, $4, $5, $6, $10 }' | sort -k1,1 -k2,2n
    fi
    # bench/binding.sh, with the static builds laid out as build/ where there is no build (the lent
    # machine; binding.sh then finds its programs newer than their sources and compiles nothing)
    if [[ $parts == *" binding "* ]]; then
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
    fi
    # lists against separate calls
    if [[ $parts == *" lists "* ]]; then
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
    fi
    if [[ $parts == *" floor "* ]]; then
        echo "== floor"
        timeout 120 "$D/floor" 5 20 | tee "$O/floor.txt"
    fi
    [[ $parts == *" models "* ]] || exit 0
    # the halo as a model calls it and GEM's collectives: ours in shared memory, ours over MPI, the
    # original over MPI, in turn, MANY_ROUNDS times
    progs=(halo_models gem_collectives)
    shm=0
    [[ -x $D/rpnrun && -x $D/halo_models ]] && shm=1
    mpi=0
    K=$D/openmpi
    if [[ ${MANY_MPI:-} != 0 ]]; then
        if [[ -x $K/mpirun && -x $D/mpi/halo_models.ours ]]; then
            mpi=1
        elif [[ ${MANY_MPI:-} == 1 ]]; then
            echo "many_cores: no MPI side in $D (build it with MANY_MPI=1)" >&2
            exit 1
        else
            echo "many_cores: no MPI side in $D: shared memory only"
        fi
    fi
    cores=$(lscpu -p=core,socket 2> /dev/null | grep -v '^#' | sort -u | wc -l)
    ((cores > 0)) || cores=$cpus
    read -r -a extra <<< "${MANY_MPIRUN_ARGS:-}"
    mpi_cmd() { # PEs: mpirun's command line in cmd, a core per PE (a hardware thread beyond the cores)
        cmd=("$K/mpirun" --allow-run-as-root --bind-to core)
        (($1 > cores)) && cmd=("$K/mpirun" --allow-run-as-root --use-hwthread-cpus --bind-to hwthread)
        cmd+=("${extra[@]}" -np "$1")
    }
    if ((mpi)); then
        # where the libraries come from: the kit and glibc only
        rm -rf "$O/lddebug" && mkdir -p "$O/lddebug"
        for who in ours orig; do
            mpi_cmd 2
            if ! LD_DEBUG=files LD_DEBUG_OUTPUT=$O/lddebug/$who timeout 60 "${cmd[@]}" "$D/mpi/gem_collectives.$who" 1 16 \
                > "$O/lddebug/$who.out" 2>&1 && [[ " ${extra[*]} " != *" btl_vader_single_copy_mechanism "* ]]; then
                # in a container without ptrace, vader's single copy (cross-memory attach) fails: without it
                echo "many_cores: MPI check run ($who) failed (see $O/lddebug/$who.out); again with --mca btl_vader_single_copy_mechanism none"
                mv "$O/lddebug/$who.out" "$O/lddebug/$who.cma.out"
                extra+=(--mca btl_vader_single_copy_mechanism none)
                mpi_cmd 2
                LD_DEBUG=files LD_DEBUG_OUTPUT=$O/lddebug/$who timeout 60 "${cmd[@]}" "$D/mpi/gem_collectives.$who" 1 16 \
                    > "$O/lddebug/$who.out" 2>&1 || echo "many_cores: MPI check run ($who) failed again (see $O/lddebug/$who.out)"
            fi
        done
        echo "== MPI: $K/mpirun --allow-run-as-root --bind-to core ${extra[*]} (a hardware thread per PE beyond $cores PEs)"
        loaded=$(cat "$O"/lddebug/*.[0-9]* 2> /dev/null | sed -n 's/.*calling init: //p' | sort -u)
        outside=$(grep -v "^$K/" <<< "$loaded" | grep -v "^$D/mpi/" | awk -F/ '{ print $NF }' | grep -Ev "$glibc")
        echo "== MPI check: $(grep -c "^$K/" <<< "$loaded") libraries loaded from $K, $(grep -c '/mca_' <<< "$loaded") of them components" \
            "($(grep '/mca_' <<< "$loaded" | sed 's/.*mca_//; s/\.so$//' | sort -u | tr '\n' ' ')); from elsewhere, glibc: $(grep -v "^$K/" <<< "$loaded" | awk -F/ '{ print $NF }' | grep -E "$glibc" | sort -u | tr '\n' ' ')"
        [[ -z $outside ]] && echo "   none from outside the kit and glibc" ||
            echo "many_cores: MPI check: loaded from outside the kit and glibc: $(tr '\n' ' ' <<< "$outside")"
        grep -q "pmix2/lib/pmix/pmix_mca_" <<< "$loaded" || echo "many_cores: MPI check: no PMIx component loaded from the kit"
        grep -hE "Sorry|WARNING|[Ee]rror|not found" "$O"/lddebug/*.out | sort -u | head -5
    fi
    rm -f "$O"/models.*
    for n in "${pes[@]}"; do
        ((n >= 2)) || continue
        for ((r = 1; r <= rounds; r++)); do
            for p in "${progs[@]}"; do
                if ((shm)) && [[ -x $D/$p ]]; then
                    timeout 120 "$D/rpnrun" -n "$n" --timeout 115 -- "$D/$p" 5 64 > "$O/models.shm.$p.$n.$r" 2>&1 ||
                        echo "many_cores: $p (shared memory) on $n PEs failed (see $O/models.shm.$p.$n.$r)"
                fi
                if ((mpi)); then
                    mpi_cmd "$n"
                    for who in ours orig; do
                        timeout 120 "${cmd[@]}" "$D/mpi/$p.$who" 5 64 > "$O/models.$who.$p.$n.$r" 2>&1 ||
                            echo "many_cores: $p ($who, MPI) on $n PEs failed (see $O/models.$who.$p.$n.$r)"
                    done
                fi
            done
        done
    done
    echo "== models: us per call (halo_models: per exchange, 64 x 64 x 80, halo 4; gem_collectives: per call), slowest PE, median of $rounds rounds"
    printf '%-4s %-14s %10s %10s %10s %9s %9s\n' PEs case "ours shm" "ours MPI" original orig/shm orig/MPI
    for n in "${pes[@]}"; do
        ((n >= 2)) || continue
        for c in same fields slices automatic allocate alternate allreduce1 allreduce2 allreduce16 allreduce64 schwarz \
            barrier reduce_gather bcast_l bcast_alt bcast_i gather transpose; do
            p=halo_models
            [[ $c == same || $c == fields || $c == slices || $c == automatic || $c == allocate || $c == alternate ]] || p=gem_collectives
            s=$(median "$O/models.shm.$p.$n" "$c")
            m=$(median "$O/models.ours.$p.$n" "$c")
            g=$(median "$O/models.orig.$p.$n" "$c")
            awk -v n="$n" -v c="$c" -v s="$s" -v m="$m" -v g="$g" 'BEGIN {
                printf "%-4s %-14s %10s %10s %10s %9s %9s\n", n, c, s, m, g,
                    (s != "-" && g != "-" && s > 0 ? sprintf("%.2f", g / s) : "-"),
                    (m != "-" && g != "-" && m > 0 ? sprintf("%.2f", g / m) : "-") }'
        done
    done | tee "$O/models.txt"
    ;;
*)
    echo "usage: bench/many_cores.sh build [DIR] | DIR/many_cores.sh run" >&2
    exit 2
    ;;
esac
