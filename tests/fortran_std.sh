#!/usr/bin/env bash
# tests/fortran_std.sh -- the Fortran sources are standard Fortran 2018, warnings included, on each
# compiler: a source that only one compiler accepts is a failure here, not a surprise for a user
# of another compiler.
#
#   tests/fortran_std.sh [compiler ...]     (default: gfortran and $FLANG_FC, default flang-new-19)
#
# Each source is compiled with -fsyntax-only and the compiler's strictest standard flags:
#   gfortran (GNU)         -std=f2018 -pedantic -Werror
#   LLVM Flang (LLVMFlang) -std=f2018 -pedantic -Werror
# The sources, one test each per compiler: the library's fortran/*.F90 (in the Makefile's order,
# FORTRAN_SRCS, each using the modules of those before it), demo/*.F90,
# tests/fortran/test_*.F90 (with the flags of their "! FFLAGS:" header, e.g. -fopenmp; a
# "! NOT_STANDARD: why" header skips a source written on purpose as non-standard user code) and the
# benchmark programs bench/*.F90 (with -fopenmp). The MPI programs (tests/fortran_mpi/*.F90,
# tests/multinode/*.F90) need an MPI's module files: they are checked through $MPIFORT (default
# mpifort.openmpi) when it is installed and wraps the compiler being checked (gfortran on Debian).
# One more test per compiler shows the flags bite: a source using an extension (REAL*8) must be
# refused. A compiler that is not installed, or whose flags this script does not know, is
# printed as SKIP and counts neither passed nor failed.
# Logs in build/check/fortran-std/. Last line: "N passed, N failed".
set -u

cd "$(dirname "$0")/.." || exit 2
ROOT=$(pwd)
LOG="${BUILD_DIR:-$ROOT/build}/check/fortran-std"
mkdir -p "$LOG"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/rpncomm-std.XXXXXX")
trap 'rm -rf -- "$TMP"' EXIT

if (($# > 0)); then compilers=("$@"); else compilers=(gfortran "${FLANG_FC:-flang-new-19}"); fi
# the library sources in build order, as the Makefile lists them
read -r -a lib_srcs <<< "$(awk '/^FORTRAN_SRCS *:=/ { on = 1; sub(/^FORTRAN_SRCS *:=/, "") }
                                on { cont = sub(/\\$/, ""); printf "%s ", $0; if (!cont) exit }' Makefile)"
if ((${#lib_srcs[@]} == 0)); then
    echo "fortran_std: no FORTRAN_SRCS found in the Makefile"
    echo "0 passed, 1 failed"
    exit 1
fi

passed=0
failed=0
pass() { passed=$((passed + 1)); echo "PASS $*"; }
fail() {   # message log
    failed=$((failed + 1))
    echo "FAIL $1"
    echo "---- $2"
    head -n 30 "$2"
    echo "----"
}

header() {   # value of the "! KEY: value" header line $2 of file $1
    sed -n -E "s/^[[:space:]]*![[:space:]]*$2[[:space:]]*:[[:space:]]*(.*[^[:space:]])[[:space:]]*\$/\\1/Ip" "$1" | head -n 1
}

for fc in "${compilers[@]}"; do
    if ! command -v "$fc" > /dev/null 2>&1; then
        echo "SKIP $fc: not installed (make deps FC=$fc installs it)"
        continue
    fi
    read -r id version <<< "$(sh fortran/gen/compiler_id.sh "$fc")"
    case $id in
        GNU | LLVMFlang) std_flags=(-std=f2018 -pedantic -Werror -fsyntax-only) ;;
        *)
            echo "SKIP $fc ($id $version): no standard-conformance flags known for it"
            continue ;;
    esac
    name=$(basename "$fc")
    mods="$TMP/$name"
    mkdir -p "$mods"
    # the lower-case name GEM includes, which make install and the build tree give as a link
    ln -sf "$ROOT/fortran/RPN_COMM.inc" "$mods/rpn_comm.inc"
    # check WHAT SOURCE [FLAGS...]: the source compiles with no diagnostic at all
    check() {
        local what=$1 src=$2 log why
        shift 2
        why=$(header "$src" NOT_STANDARD)
        if [[ -n $why ]]; then
            echo "SKIP $fc $what: $src ($why)"
            return
        fi
        log="$LOG/$name.$(basename "$src" .F90).log"
        # (JDIR: where its modules go, when not with the others)
        if "$fc" "${std_flags[@]}" "$@" -I"$ROOT/fortran" -I"$ROOT/fortran/rpn_mpi" -I"$ROOT/tests/fortran" -I"$mods" -J"${JDIR:-$mods}" \
                "$src" > "$log" 2>&1 && [[ ! -s "$log" ]]; then
            pass "$fc $what: $src"
        else
            fail "$fc $what: $src is not clean under ${std_flags[*]}" "$log"
        fi
    }
    for src in "${lib_srcs[@]}"; do
        check "library" "$src"
    done
    # the modules named as the original's, where make installs them: rpn_comm in 4.6.12's form
    # with the others, in 4.6.3's in rpn_comm-4.6.3/ (tests name that directory @INCLUDE@/...)
    check "library" fortran/modules/rpn_comm.F90
    mkdir -p "$mods/rpn_comm-4.6.3"
    JDIR="$mods/rpn_comm-4.6.3" check "library" fortran/modules/rpn_comm_463.F90
    for src in demo/*.F90; do
        check "demo" "$src"
    done
    for src in tests/fortran/test_*.F90; do
        read -r -a extra <<< "$(header "$src" FFLAGS)"
        check "test" "$src" "${extra[@]//@INCLUDE@/$mods}"
    done
    for src in bench/*.F90; do
        check "benchmark" "$src" -fopenmp
    done
    mpifort=${MPIFORT:-mpifort.openmpi}
    if command -v "$mpifort" > /dev/null 2>&1 &&
            [[ "$(sh fortran/gen/compiler_id.sh "$mpifort")" == "$id $version" ]]; then
        fc_checked=$fc
        fc=$mpifort
        # the MPI build's modules: rpn_comm_mpi, and rpn_comm in 4.6.3's form with MPI's mpif.h in
        # it (as the original's), whose COMMON blocks the standard calls obsolescent: that one is
        # only compiled, for the programs that use it
        check "MPI module" fortran/modules/rpn_comm_mpi.F90
        mkdir -p "$mods/mpi/rpn_comm-4.6.3"
        "$fc" -fsyntax-only -DRPNCOMM_MPI_BUILD -I"$ROOT/fortran" -I"$mods" -J"$mods/mpi/rpn_comm-4.6.3" \
            fortran/modules/rpn_comm_463.F90 > "$LOG/$name.rpn_comm_463_mpi.log" 2>&1 ||
            fail "$fc MPI module: fortran/modules/rpn_comm_463.F90 does not compile" "$LOG/$name.rpn_comm_463_mpi.log"
        for src in tests/fortran_mpi/*.F90 tests/multinode/*.F90; do
            read -r -a extra <<< "$(header "$src" FFLAGS)"
            check "MPI program" "$src" "${extra[@]//@INCLUDE@/$mods/mpi}"
        done
        fc=$fc_checked
    else
        echo "SKIP $fc: the MPI programs (tests/fortran_mpi, tests/multinode): no $mpifort wrapping $id $version"
    fi

    # the flags must refuse an extension: REAL*8 is not standard Fortran
    printf 'program nonstandard\n  real*8 :: x\n  x = 1\n  print *, x\nend program nonstandard\n' > "$TMP/nonstandard.F90"
    if "$fc" "${std_flags[@]}" -J"$mods" "$TMP/nonstandard.F90" > "$LOG/$name.nonstandard.log" 2>&1; then
        fail "$fc: ${std_flags[*]} accepted REAL*8 (an extension): the check would not see one" "$LOG/$name.nonstandard.log"
    else
        pass "$fc: ${std_flags[*]} refuses an extension (REAL*8)"
    fi
done

echo "$passed passed, $failed failed"
((failed == 0))
