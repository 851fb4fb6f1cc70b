#!/usr/bin/env bash
# tests/install_builds.sh -- the three ways a user builds against an installed rpncomm-windows.
# `make install PREFIX=<tmp>`, then demo/req_test.F90 is built with the Fortran compiler $FC
# (default gfortran; make check FC=... passes it, and BUILD_DIR, its build tree)
#   1. with the flags of pkg-config (lib/pkgconfig/rpncomm-windows.pc)
#   2. with CMake: demo/cmake/CMakeLists.txt, find_package(rpncomm_windows) and the imported target
#      rpncomm_windows::rpncomm_windows; its link line must carry the archive and every system
#      library of pkg-config --libs, its compile line the include directory
#   3. with fpm: demo/fpm/fpm.toml, whose `link` list must be pkg-config --libs-only-l (fpm
#      --compiler $FC)
#  3b. with fpm, the module form: demo/fpm_module, a `use rpn_comm_windows` program (ring.F90,
#      the README's first program) whose fpm.toml names the module in `external-modules`
# and each program is run with the installed rpnrun on 2 PEs (one test per way: build and run;
# it must say "req_test: OK on 2 PEs" and leave no /dev/shm/rpncomm-<rpnrun pid>-* file). Two more
# tests of the CMake package: an incompatible version is refused, and a moved install tree is
# found where it now is. The compiler is recorded: pkg-config's fortran_compiler_id and
# fortran_compiler_version are those of $FC (fortran/gen/compiler_id.sh; one test), and a CMake
# project whose Fortran compiler is another (gfortran for an LLVM Flang install, $FLANG_FC,
# default flang-new-19, for any other) is refused in one line naming the compiler the install
# needs and the `make install FC=... PREFIX=...` to run (one test; SKIP without that compiler).
#  2b. as GEM takes its RPN_COMM: tests/gem_build, find_package(rpncomm 4.6.3) and rpncomm::rpncomm,
#      include 'rpn_comm.inc' and GEM's gfortran flags, run on 2 PEs; the rpncomm package's
#      versions (4.6.3 and below in 4.x accepted, newer refused); the archive, under the original's
#      name librpn_comm.a, defines GEM's symbols that the library provides (3 tests)
# BUILD= and RUST_TARGET= are honoured by every install (three tests): `make -n install` with both
# names only those trees, without MPI and with MPI=1 MPI_IMPL=openmpi (a dry run: no MPI needed),
# and MPI=1 with both MPIs refuses them in one line; and `make install BUILD=<tmp>` (run for real,
# RUST_TARGET left at target/) writes nothing into the source tree outside target*/ and the check
# logs (one test).
# INSTALL_WAYS (default "pkg-config cmake fpm") chooses the ways built (CI's quick pass for a
# second compiler: cmake).
# cmake is installed with apt-get when missing (as root), fpm with pip; when that cannot be done
# the tests print SKIP with the reason and are counted neither passed nor failed.
# Logs in build/check/install-builds/. Last line: "N passed, N failed".
set -u

cd "$(dirname "$0")/.." || exit 2
ROOT=$(pwd)
MAKE=${MAKE:-make}
LOG="$ROOT/${BUILD_DIR:-build}/check/install-builds"
FC=${FC:-gfortran}
INSTALL_WAYS=" ${INSTALL_WAYS:-pkg-config cmake fpm} "
read -r -a ways <<< "$INSTALL_WAYS"
ways_shown=${ways[*]}
RUN_TIMEOUT=${SMOKE_TIMEOUT:-120}
mkdir -p "$LOG"

passed=0
failed=0
pass() { passed=$((passed + 1)); echo "PASS $*"; }
skip() { echo "SKIP $*"; }
fail() {   # message [log]
    failed=$((failed + 1))
    echo "FAIL $1"
    if [[ -n "${2:-}" && -s "$2" ]]; then
        echo "---- last 30 lines of $2"
        tail -n 30 "$2"
        echo "----"
    fi
}
finish() {
    echo "$passed passed, $failed failed"
    ((failed == 0))
    exit
}

TMP=$(mktemp -d "${TMPDIR:-/tmp}/rpncomm-install.XXXXXX")
trap 'rm -rf -- "$TMP"' EXIT
PREFIX="$TMP/prefix"
RPNRUN="$PREFIX/bin/rpnrun"

# run_demo NAME PROGRAM [PREFIX]: the installed rpnrun runs PROGRAM on 2 PEs; its output must
# say "PREFIX: OK on 2 PEs" (default req_test)
run_demo() {
    local name=$1 program=$2 log="$LOG/$1.run.log" pid status left ok="${3:-req_test}: OK on 2 PEs"
    "$RPNRUN" -n 2 --timeout "$RUN_TIMEOUT" "$program" < /dev/null > "$log" 2>&1 &
    pid=$!
    wait "$pid"
    status=$?
    left=$(compgen -G "/dev/shm/rpncomm-$pid-*")
    if [[ -n "$left" ]]; then
        rm -f -- /dev/shm/rpncomm-"$pid"-*
        fail "$name: left in /dev/shm: $left" "$log"
    elif ((status != 0)); then
        fail "$name: rpnrun -n 2 exit status $status" "$log"
    elif ! grep -q "$ok" "$log"; then
        fail "$name: no '$ok' in the output" "$log"
    else
        pass "$name: built and run on 2 PEs"
    fi
}

# ------------------------------------------------------------- BUILD= and RUST_TARGET= honoured
# dry_run NAME ARGS...: `make -n install ARGS BUILD=$TMP/dry-build RUST_TARGET=$TMP/dry-target`
# must build with those trees only: cargo's --target-dir, the archive in BUILD, and no path into
# the source tree's build*/ or target*/
dry_run() {
    local name=$1 log="$LOG/dry-run-$1.log" b="$TMP/dry-build" t="$TMP/dry-target" stray
    shift
    if ! "$MAKE" --no-print-directory -n install "$@" BUILD="$b" RUST_TARGET="$t" PREFIX="$TMP/dry-prefix" > "$log" 2>&1; then
        fail "make -n install $* BUILD=<tmp> RUST_TARGET=<tmp>: exit status $?" "$log"
        return
    fi
    stray=$(grep -v '^#' "$log" | grep -o -E '(^|[ =:;"'"'"'])(\./)?(build|build-[A-Za-z0-9._-]+|target|target-[A-Za-z0-9._-]+)/[^ ]*' | sort -u | head -n 5 | paste -sd ' ')
    if [[ -n "$stray" ]]; then
        fail "make install $* BUILD=<tmp> RUST_TARGET=<tmp> still uses the source tree: $stray" "$log"
    elif ! grep -q -- "--target-dir $t " "$log" || ! grep -q -- "$b/lib/librpncomm_windows.a" "$log"; then
        fail "make install $* BUILD=<tmp> RUST_TARGET=<tmp>: no cargo --target-dir $t or no $b/lib/librpncomm_windows.a in the commands" "$log"
    else
        pass "make install $name honours BUILD= and RUST_TARGET= (dry run: only those trees)"
    fi
}
dry_run "(shared memory)"
dry_run "MPI=1 MPI_IMPL=openmpi" MPI=1 MPI_IMPL=openmpi
refusal=$("$MAKE" --no-print-directory -n install MPI=1 MPI_IMPL= MPI_IMPLS="openmpi mpich" BUILD="$TMP/dry-build" PREFIX="$TMP/dry-prefix" 2>&1 > /dev/null)
status=$?
if ((status != 0)) && [[ $(grep -c . <<< "$refusal") == 1 && "$refusal" == *MPI_IMPL=* ]]; then
    pass "make install MPI=1 BUILD=<tmp> for both MPIs is refused in one line: $refusal"
else
    fail "make install MPI=1 BUILD=<tmp> for both MPIs: exit status $status, not a one-line refusal: $refusal"
fi

echo "install builds: make install PREFIX=$PREFIX"
if ! "$MAKE" --no-print-directory install PREFIX="$PREFIX" > "$LOG/install.log" 2>&1; then
    fail "make install PREFIX=$PREFIX (10 tests counted as failed)" "$LOG/install.log"
    failed=$((failed + 9))
    finish
fi

# the same install with BUILD= outside the source tree (the Rust build, up to date in target/, is
# reused): nothing new in the source tree but target*/ and this script's logs
marker="$TMP/before-build-install"
touch "$marker"
B="$TMP/build-elsewhere"
if ! "$MAKE" --no-print-directory install BUILD="$B" PREFIX="$TMP/prefix-build" > "$LOG/install-build.log" 2>&1; then
    fail "make install BUILD=$B PREFIX=<tmp>" "$LOG/install-build.log"
else
    written=$(find "$ROOT" -path "$ROOT/.git" -prune -o -path "$ROOT/target*" -prune -o -path "${LOG%/*}" -prune \
        -o -newer "$marker" ! -type d -print | head -n 5 | paste -sd ' ')
    if [[ -n "$written" ]]; then
        fail "make install BUILD=$B wrote into the source tree: $written" "$LOG/install-build.log"
    elif [[ ! -s "$B/lib/librpncomm_windows.a" || ! -s "$TMP/prefix-build/lib/pkgconfig/rpncomm-windows.pc" ]]; then
        fail "make install BUILD=$B: no $B/lib/librpncomm_windows.a or no installed .pc" "$LOG/install-build.log"
    else
        pass "make install BUILD=<tmp>: built in <tmp>, nothing written into the source tree"
    fi
fi
export PKG_CONFIG_PATH="$PREFIX/lib/pkgconfig"
if ! pc_cflags=$(pkg-config --cflags rpncomm-windows) || ! pc_libs=$(pkg-config --libs rpncomm-windows); then
    fail "pkg-config does not find rpncomm-windows in $PKG_CONFIG_PATH (9 tests counted as failed)"
    failed=$((failed + 8))
    finish
fi
read -r -a pc_cflags_a <<< "$pc_cflags"
read -r -a pc_libs_a <<< "$pc_libs"
# the libraries by name, as -l flags: rpncomm_windows then the system libraries
read -r -a pc_l <<< "$(pkg-config --libs-only-l rpncomm-windows)"

# ------------------------------------------------------------ the compiler the install records
read -r fc_id fc_version <<< "$(sh fortran/gen/compiler_id.sh "$FC")"
pc_id=$(pkg-config --variable=fortran_compiler_id rpncomm-windows)
pc_version=$(pkg-config --variable=fortran_compiler_version rpncomm-windows)
if [[ "$pc_id $pc_version" == "$fc_id $fc_version" && "$fc_id" != Unknown ]]; then
    pass "pkg-config: the install records its Fortran compiler ($pc_id $pc_version)"
else
    fail "pkg-config: fortran_compiler_id/version say '$pc_id $pc_version', $FC is '$fc_id $fc_version'"
fi

# ------------------------------------------------------------------------------ 1. pkg-config
if [[ "$INSTALL_WAYS" != *" pkg-config "* ]]; then
    echo "install builds: pkg-config build not run (INSTALL_WAYS=$ways_shown)"
elif $FC -O2 demo/req_test.F90 -o "$TMP/req_test_pc" "${pc_cflags_a[@]}" "${pc_libs_a[@]}" > "$LOG/pkg-config.build.log" 2>&1; then
    run_demo "pkg-config" "$TMP/req_test_pc"
else
    fail "pkg-config: $FC demo/req_test.F90 \$(pkg-config --cflags --libs rpncomm-windows)" "$LOG/pkg-config.build.log"
fi

# ----------------------------------------------------------------------------------- 2. CMake
if [[ "$INSTALL_WAYS" != *" cmake "* ]]; then
    echo "install builds: CMake builds not run (INSTALL_WAYS=$ways_shown)"
elif ! command -v cmake > /dev/null 2>&1 && [[ "$(id -u)" == 0 ]] && command -v apt-get > /dev/null 2>&1; then
    echo "install builds: installing cmake (apt-get)"
    { DEBIAN_FRONTEND=noninteractive apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q cmake; } \
        > "$LOG/apt-cmake.log" 2>&1
fi
if [[ "$INSTALL_WAYS" != *" cmake "* ]]; then
    :
elif ! command -v cmake > /dev/null 2>&1; then
    reason="cmake is not installed and could not be installed (not root, no apt-get, or apt-get failed: $LOG/apt-cmake.log)"
    skip "CMake: find_package(rpncomm_windows) and the demo: $reason"
    skip "CMake: incompatible version refused: $reason"
    skip "CMake: moved install tree: $reason"
    skip "CMake: a project with another Fortran compiler refused: $reason"
else
    B="$TMP/cmake-build"
    if cmake -S demo/cmake -B "$B" -DCMAKE_PREFIX_PATH="$PREFIX" -DCMAKE_Fortran_COMPILER="$FC" \
            -DCMAKE_VERBOSE_MAKEFILE=ON > "$LOG/cmake.configure.log" 2>&1 &&
        cmake --build "$B" > "$LOG/cmake.build.log" 2>&1; then
        # the usage requirements of the imported target, as the build used them
        link_line=$(grep -E -- '-o req_test( |$)' "$LOG/cmake.build.log" | tail -n 1)
        compile_line=$(grep -E -- '-c [^ ]*req_test\.F90' "$LOG/cmake.build.log" | tail -n 1)
        missing=""
        [[ " $link_line " == *" $PREFIX/lib/librpncomm_windows.a "* ]] || missing+=" the archive"
        for l in "${pc_l[@]}"; do
            [[ "$l" == -lrpncomm_windows ]] && continue
            [[ " $link_line " == *" $l "* ]] || missing+=" $l"
        done
        [[ " $compile_line " == *" -I$PREFIX/include "* ]] || missing+=" -I$PREFIX/include"
        if [[ -n "$missing" ]]; then
            fail "CMake: the imported target lacks$missing (link: $link_line; compile: $compile_line)" "$LOG/cmake.build.log"
        else
            run_demo "CMake" "$B/req_test"
        fi
    else
        fail "CMake: configure or build of demo/cmake against $PREFIX" "$LOG/cmake.build.log"
        tail -n 20 "$LOG/cmake.configure.log"
    fi

    # probe VERSION [PREFIX]: configures a project that asks for that version and prints where the
    # imported archive is; output in $TMP/probe.log, status of cmake
    probe() {
        local dir="$TMP/probe"
        rm -rf "$dir"
        mkdir -p "$dir"
        cat > "$dir/CMakeLists.txt" << EOF
cmake_minimum_required(VERSION 3.13)
project(probe LANGUAGES NONE)
find_package(rpncomm_windows $1 REQUIRED)
get_target_property(location rpncomm_windows::rpncomm_windows IMPORTED_LOCATION)
message(STATUS "archive: \${location}")
EOF
        cmake -S "$dir" -B "$dir/b" -DCMAKE_PREFIX_PATH="${2:-$PREFIX}" > "$TMP/probe.log" 2>&1
    }
    version=$(sed -n 's/^version *= *"\(.*\)"/\1/p' Cargo.toml | head -n 1)
    major=${version%%.*}
    if probe "$((major + 1))"; then
        fail "CMake: find_package(rpncomm_windows $((major + 1))) accepted version $version" "$TMP/probe.log"
    elif ! probe "$version"; then
        fail "CMake: find_package(rpncomm_windows $version) refused its own version" "$TMP/probe.log"
    else
        pass "CMake: version $version found, version $((major + 1)) refused"
    fi
    mv "$PREFIX" "$TMP/moved"
    if probe "" "$TMP/moved" && grep -q -- "archive: $TMP/moved/lib/librpncomm_windows.a" "$TMP/probe.log"; then
        pass "CMake: a moved install tree is found where it is"
    else
        fail "CMake: the moved install tree in $TMP/moved" "$TMP/probe.log"
    fi
    mv "$TMP/moved" "$PREFIX"

    # a project with another Fortran compiler: one line saying what the install needs
    if [[ "$fc_id" == LLVMFlang ]]; then other=gfortran; else other=${FLANG_FC:-flang-new-19}; fi
    if ! command -v "$other" > /dev/null 2>&1; then
        skip "CMake: a project using $other refused: $other is not installed (make deps FC=$other)"
    else
        B="$TMP/cmake-other"
        olog="$LOG/cmake.other-compiler.log"
        if cmake -S demo/cmake -B "$B" -DCMAKE_PREFIX_PATH="$PREFIX" -DCMAKE_Fortran_COMPILER="$other" > "$olog" 2>&1; then
            fail "CMake: a project using $other was accepted by an install built with $FC" "$olog"
        else
            # the reason: exactly one line, naming the install's compiler and the make command
            lines=$(grep -c -F 'rpncomm_windows: the install in' "$olog")
            line=$(grep -F 'rpncomm_windows: the install in' "$olog" | head -n 1)
            line=${line#"${line%%[![:space:]]*}"}
            if [[ "$lines" == 1 && "$line" == *"built with $FC ($fc_id $fc_version)"* &&
                  "$line" == *"make install FC="*"$other"*" PREFIX=<dir>"*"CMAKE_PREFIX_PATH"* ]]; then
                pass "CMake: a project using $other is refused in one line: $line"
            else
                fail "CMake: a project using $other: no one-line refusal naming $FC and make install FC=... ($lines lines)" "$olog"
            fi
        fi
    fi
fi

# ------------------------------------------------------- 2b. CMake as GEM takes its RPN_COMM
# find_package(rpncomm 4.6.3 REQUIRED), rpncomm::rpncomm, include 'rpn_comm.inc' under implicit
# none, GEM's gfortran flags (tests/gem_build): built and run on 2 PEs; the package's version is
# the RPN_COMM interface's (4.6.12: 4.x up to it accepted, 4.6.13, 4.7 and 5 refused) and it says the
# implementation's; a request before 4.6.10 gets the module rpn_comm of 4.6.3 (a program that
# declares its functions itself builds), a later one 4.6.12's (a program using its interfaces); the archive defines, with gfortran's single trailing underscore, the symbols
# GEM links that the library provides (those it does not yet are listed, not counted).
GEM_FLAGS="-fconvert=big-endian -fno-second-underscore -fallow-argument-mismatch -fstack-arrays"
if [[ "$INSTALL_WAYS" != *" cmake "* ]] || ! command -v cmake > /dev/null 2>&1; then
    skip "CMake as GEM: find_package(rpncomm 4.6.3), rpncomm::rpncomm, rpn_comm.inc: cmake not run or not installed"
    skip "CMake as GEM: the rpncomm package's versions: cmake not run or not installed"
    skip "CMake: the module rpn_comm of the version asked for: cmake not run or not installed"
elif [[ "$fc_id" != GNU ]]; then
    skip "CMake as GEM: GEM's flags ($GEM_FLAGS) are gfortran's, the install is $fc_id's"
    skip "CMake as GEM: the rpncomm package's versions: see above"
    skip "CMake: the module rpn_comm of the version asked for: see above"
else
    B="$TMP/gem-build"
    glog="$LOG/gem-build.log"
    if cmake -S tests/gem_build -B "$B" -DCMAKE_PREFIX_PATH="$PREFIX" -DCMAKE_Fortran_COMPILER="$FC" \
            -DCMAKE_VERBOSE_MAKEFILE=ON > "$glog" 2>&1 && cmake --build "$B" >> "$glog" 2>&1; then
        compile_line=$(grep -E -- '-c [^ ]*gem_like\.F90' "$glog" | tail -n 1)
        missing=""
        for f in $GEM_FLAGS; do [[ " $compile_line " == *" $f "* ]] || missing+=" $f"; done
        if [[ -n "$missing" ]]; then
            fail "CMake as GEM: the compile line lacks$missing ($compile_line)" "$glog"
        else
            run_demo "CMake as GEM (find_package(rpncomm 4.6.3), rpncomm::rpncomm, include 'rpn_comm.inc', GEM's flags)" \
                "$B/gem_like" gem_like
        fi
    else
        fail "CMake as GEM: configure or build of tests/gem_build against $PREFIX" "$glog"
    fi

    # gem_probe REQUEST: configures a project asking for rpncomm REQUEST (a version or a range)
    gem_probe() {
        local dir="$TMP/gem-probe"
        rm -rf "$dir"
        mkdir -p "$dir"
        cat > "$dir/CMakeLists.txt" << EOF
cmake_minimum_required(VERSION 3.19)
project(probe LANGUAGES NONE)
find_package(rpncomm $1 REQUIRED)
get_target_property(links rpncomm::rpncomm INTERFACE_LINK_LIBRARIES)
message(STATUS "found: \${rpncomm_VERSION} implementation: \${rpncomm_IMPLEMENTATION} \${rpncomm_IMPLEMENTATION_VERSION} links: \${links} module: \${rpncomm_MODULE_FORM}")
EOF
        cmake -S "$dir" -B "$dir/b" -DCMAKE_PREFIX_PATH="$PREFIX" > "$TMP/gem-probe.log" 2>&1
    }
    version=$(sed -n 's/^version *= *"\(.*\)"/\1/p' Cargo.toml | head -n 1)
    bad=""
    for v in 4.6.3:4.6.3 4.6.4:4.6.3 4.6.9:4.6.3 4.6.10:4.6.12 4.6.12:4.6.12 4.6:4.6.3 4:4.6.3 \
             4.0...4.6.12:4.6.3 "4.6.3...<5:4.6.3" ":4.6.12"; do
        form=${v##*:}
        v=${v%:*}
        gem_probe "$v" && grep -q -- "found: 4.6.12 implementation: rpncomm-windows $version links: rpncomm_windows::rpncomm_windows module: $form" \
            "$TMP/gem-probe.log" || bad+=" ${v:-none}(refused, or not module $form)"
    done
    for v in 4.6.13 4.7 5 3 4.0...4.6.11; do
        gem_probe "$v" && bad+=" $v(accepted)"
    done
    if [[ -z "$bad" ]]; then
        pass "CMake as GEM: rpncomm 4.6.3, 4.6.4, 4.6.9 to 4.6.12, 4.6, 4, none and ranges that include 4.6.12 found (implementation rpncomm-windows $version; module rpn_comm of 4.6.3 before 4.6.10); 4.6.13, 4.7, 5, 3 and 4.0...4.6.11 refused"
    else
        fail "CMake as GEM: find_package(rpncomm VERSION) wrong for:$bad" "$TMP/gem-probe.log"
    fi

    # module_probe REQUEST FORM: builds a program written for that form of the module rpn_comm
    # in a project asking for rpncomm REQUEST: 4.6.3's declares its functions itself (which the
    # newer form's interfaces refuse), 4.6.12's calls through the interfaces
    module_probe() {
        local dir="$TMP/module-probe"
        rm -rf "$dir"
        mkdir -p "$dir"
        cat > "$dir/CMakeLists.txt" << EOF
cmake_minimum_required(VERSION 3.19)
project(probe LANGUAGES Fortran)
find_package(rpncomm $1 REQUIRED)
add_executable(probe probe.F90)
target_link_libraries(probe PRIVATE rpncomm::rpncomm)
EOF
        if [[ $2 == 4.6.3 ]]; then
            printf '%s\n' 'program probe' '  use rpn_comm' '  implicit none' '  integer, external :: RPN_COMM_mype' \
                '  integer :: me, x, y' '  if (RPN_COMM_mype(me, x, y) == 0) print *, pe_me, me' 'end program probe' > "$dir/probe.F90"
        else
            printf '%s\n' 'program probe' '  use rpn_comm' '  implicit none' '  integer :: me, x, y' \
                '  if (RPN_COMM_mype(me, x, y) == RPN_COMM_OK) print *, pe_me, me' 'end program probe' > "$dir/probe.F90"
        fi
        cmake -S "$dir" -B "$dir/b" -DCMAKE_PREFIX_PATH="$PREFIX" -DCMAKE_Fortran_COMPILER="$FC" > "$TMP/module-probe.log" 2>&1 &&
            cmake --build "$dir/b" >> "$TMP/module-probe.log" 2>&1
    }
    if module_probe 4.6.3 4.6.3 && module_probe 4.6.12 4.6.12; then
        pass "CMake: the module rpn_comm of 4.6.3 for find_package(rpncomm 4.6.3), of 4.6.12 for 4.6.12 (a program written for each builds)"
    else
        fail "CMake: a program written for the module rpn_comm of the version asked for does not build" "$TMP/module-probe.log"
    fi
fi
# the symbols GEM links (../shared/GEM.md) that the library provides, as gfortran names them
# with -fno-second-underscore (one trailing underscore, also for names with underscores)
provided="allgather allreduce barrier bcast bloc finalize mype size xch_halo"
gem_more="bloctopo carac coll comm create_2dgrid create_io_set datyp dist free_io_set gather get_2dgrid
          get_my_domain_2 init_multi_level2 init_multigrid io_pe_comm io_pe_gridid io_pe_valid_set irecv is_io_pe
          isend limit_2 mydomain propagate_pilot_circular rank recv reduce send set_petopo shuf_ezcoll shuf_ezdist
          split_by_socket topo_2 transpose waitall_nostat xch_halo_8 xch_halox"
defined=$(nm --defined-only "$PREFIX/lib/librpn_comm.a" 2> /dev/null | awk '$2 ~ /^[TtWw]$/ { print $3 }' | sort -u)
absent=""
for s in $provided; do grep -qx "rpn_comm_${s}_" <<< "$defined" || absent+=" rpn_comm_${s}_"; done
if [[ -z "$defined" ]]; then
    fail "GEM's symbols: nm finds no symbol in $PREFIX/lib/librpn_comm.a (the original's archive name)"
elif [[ -n "$absent" ]]; then
    fail "GEM's symbols: $PREFIX/lib/librpn_comm.a lacks$absent"
else
    later=""
    for s in $gem_more; do grep -qx "rpn_comm_${s}_" <<< "$defined" || later+=" $s"; done
    for s in ez_transpose_xz transpose_setup; do grep -qx "rpn_mpi_${s}_" <<< "$defined" || later+=" rpn_mpi_$s"; done
    pass "GEM's symbols: librpn_comm.a defines rpn_comm_{${provided// /,}}_ (GEM links $(wc -w <<< "$later") more not provided yet:${later:- none})"
fi

# ------------------------------------------------------------------------------------- 3. fpm
FPM=$(command -v fpm)
if [[ "$INSTALL_WAYS" != *" fpm "* ]]; then
    echo "install builds: fpm build not run (INSTALL_WAYS=$ways_shown)"
    finish
fi
if [[ -z "$FPM" ]]; then
    echo "install builds: installing fpm (pip install fpm)"
    python3 -m pip install --quiet fpm > "$LOG/pip-fpm.log" 2>&1 ||
        python3 -m pip install --quiet --user fpm >> "$LOG/pip-fpm.log" 2>&1
    hash -r
    FPM=$(command -v fpm)
    user_fpm="$(python3 -m site --user-base 2> /dev/null)/bin/fpm"
    [[ -z "$FPM" && -x "$user_fpm" ]] && FPM=$user_fpm
fi
if [[ -z "$FPM" ]]; then
    skip "fpm: demo/fpm: fpm is not installed and pip could not install it ($(tail -n 1 "$LOG/pip-fpm.log" 2> /dev/null))"
else
    toml_l=$(sed -n 's/^link *= *\[\(.*\)\]/\1/p' demo/fpm/fpm.toml | tr -d '" ' | tr ',' '\n' | sed 's/^/-l/' | paste -sd ' ')
    if [[ "$toml_l" != "${pc_l[*]}" ]]; then
        fail "fpm: demo/fpm/fpm.toml links '$toml_l', pkg-config --libs-only-l says '${pc_l[*]}'"
    else
        cp -rL demo/fpm "$TMP/fpm"
        if (cd "$TMP/fpm" && "$FPM" install --compiler "$FC" --prefix "$TMP/fpm-install" --flag "$pc_cflags" \
                --link-flag "$(pkg-config --libs-only-L rpncomm-windows)") > "$LOG/fpm.build.log" 2>&1; then
            run_demo "fpm" "$TMP/fpm-install/bin/req_test"
        else
            fail "fpm: fpm install of demo/fpm against $PREFIX" "$LOG/fpm.build.log"
        fi
    fi
    # the module form: `use rpn_comm_windows`, the module found through external-modules
    toml_l=$(sed -n 's/^link *= *\[\(.*\)\]/\1/p' demo/fpm_module/fpm.toml | tr -d '" ' | tr ',' '\n' | sed 's/^/-l/' | paste -sd ' ')
    if [[ "$toml_l" != "${pc_l[*]}" ]]; then
        fail "fpm: demo/fpm_module/fpm.toml links '$toml_l', pkg-config --libs-only-l says '${pc_l[*]}'"
    else
        cp -rL demo/fpm_module "$TMP/fpm_module"
        if (cd "$TMP/fpm_module" && "$FPM" install --compiler "$FC" --prefix "$TMP/fpm-install" --flag "$pc_cflags" \
                --link-flag "$(pkg-config --libs-only-L rpncomm-windows)") > "$LOG/fpm_module.build.log" 2>&1; then
            run_demo "fpm_module" "$TMP/fpm-install/bin/ring" ring
        else
            fail "fpm: fpm install of demo/fpm_module (use rpn_comm_windows) against $PREFIX" "$LOG/fpm_module.build.log"
        fi
    fi
fi

finish
