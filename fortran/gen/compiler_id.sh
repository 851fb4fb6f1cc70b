#!/bin/sh
# fortran/gen/compiler_id.sh FC: prints "ID VERSION" for the Fortran compiler FC, ID spelt as CMake's
# CMAKE_Fortran_COMPILER_ID (GNU, LLVMFlang, IntelLLVM, Intel, NVHPC, Cray, ...; Unknown when not
# recognised) and VERSION as its CMAKE_Fortran_COMPILER_VERSION (Unknown when not found).
# make records both in the installed pkg-config file and CMake package: a Fortran module file
# (.mod) can only be read by the compiler, and usually the major version, that wrote it, and the
# objects of the Fortran layer call that compiler's runtime library.
FC=${1:?usage: compiler_id.sh FC}

banner=$($FC --version 2> /dev/null | head -n 1)
[ -n "$banner" ] || banner=$($FC -V 2> /dev/null | sed -n '/[^[:space:]]/{p;q;}')

version_of() {   # the first dotted number of the banner
    printf '%s\n' "$banner" | grep -o -E '[0-9]+(\.[0-9]+)+' | head -n 1
}

case $banner in
    "GNU Fortran"*)
        id=GNU
        version=$($FC -dumpfullversion 2> /dev/null || $FC -dumpversion 2> /dev/null) ;;
    *flang*version* | *"LLVM Flang"*)
        # LLVM Flang (flang-new up to 19, flang from 20); the classic PGI-derived flang prints
        # "clang version" and is not this
        id=LLVMFlang
        version=$(printf '%s\n' "$banner" | sed -n -E 's/.*version ([0-9]+(\.[0-9]+)*).*/\1/p') ;;
    ifx*) id=IntelLLVM version=$(version_of) ;;
    ifort*) id=Intel version=$(version_of) ;;
    nvfortran* | pgfortran*) id=NVHPC version=$(version_of) ;;
    *Cray\ Fortran*) id=Cray version=$(version_of) ;;
    *) id=Unknown version=$(version_of) ;;
esac
echo "$id ${version:-Unknown}"
