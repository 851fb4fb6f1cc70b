#!/bin/bash
# MIDAS (ECCC's data assimilation system) linked against rpncomm-windows: the proof that MIDAS finds
# every RPN_COMM routine it calls in this library (docs/gem.md, "Other ECCC codes"). Outside CI, like
# tests/gem/run_gem.sh: it needs the ECCC repositories (mirrors) and a few minutes of compiling.
#
# MIDAS-src's observation programs need RTTOV 13 (licensed) and are left out; its RTTOV-free
# programs (adjointTest, calcStats, diagBmatrix, ensPostProcess, extractBmatrixFor1Dvar, randomPert,
# sstTrial) are compiled from its repository at a pinned commit, after tests/midas/gfortran.patch
# (mechanical fixes of constructs only Intel's compiler accepts; MIDAS is never edited otherwise),
# with the libraries they need built from their own repositories with CMake: rmn (librmn, with App),
# vgrid and random (random_tools). ECCC's perftools (tmg_* block timers) is not public:
# tests/midas/tmg_timers.f90 stands in for it. Each program is then linked against this project's
# MPI build (`make install MPI=1`), and against the original RPN_COMM 4.6.3 as well (built from its
# repository with CMake) unless --no-orig.
#
# Prints one verdict line per program and library:
#   LINK ours adjointTest: OK   or   LINK ours adjointTest: FAILED (unresolved: ...)
# then the RPN_COMM routines the programs call (from the objects' undefined symbols) and a last line:
#   RPN_COMM: every symbol resolved (N: ...)   or   RPN_COMM: unresolved in ours: ...
# With --run, the programs that can run without ECCC's data, ensPostProcess, sstTrial, randomPert
# and diagBmatrix (the last two with the diffusion B matrix, which needs no statistics file), run on
# fabricated inputs (tests/midas/fabricate_inputs.f90) with each library it linked with, and what
# the two runs wrote is compared: RUN ... lines.
#
# Builds are kept in the work directory; a second call rebuilds only what changed.
#
# usage: tests/midas/run_midas.sh [options]
#   --mirrors DIR    git mirrors, DIR/ECCC-ASTD-MRD+<repo>/repo (MIDAS-src, librmn, App, vgrid,
#                    random_tools, cmake_rpn, rpncomm); or a URL base such as https://github.com/ECCC-ASTD-MRD
#                    (needed only the first time: the clones stay in WORK/src)
#   --work DIR       sources, builds, installs, runs (default $MIDASRUN_WORK or $HOME/midasrun)
#   --ours-prefix P  an existing `make install MPI=1 MPI_IMPL=openmpi PREFIX=P` of this project (default:
#                    installed into WORK/ours-inst, built in WORK/ours-build and WORK/ours-target)
#   --programs LIST  comma separated, among the seven above (default: all seven)
#   --no-orig        link against this project only (no RPN_COMM 4.6.3)
#   --run            run ensPostProcess, sstTrial, randomPert and diagBmatrix on fabricated
#                    inputs with each library, compare
#   --ptopo XxY      the PE grid of --run, MIDAS's npex x npey (default 2x1)
#   --jobs N         make -j for the libraries (default 2); every build runs under nice -n 10
#   --dry            check the arguments and the tools, print the plan, build nothing
set -u -o pipefail

PROJECT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
HERE=$PROJECT/tests/midas
WORK=${MIDASRUN_WORK:-$HOME/midasrun}
MIRRORS=""
OURS_PREFIX=""
ALL_PROGRAMS="adjointTest calcStats diagBmatrix ensPostProcess extractBmatrixFor1Dvar randomPert sstTrial"
PROGRAMS=$ALL_PROGRAMS
ORIG=1
RUN=0
PTOPO=2x1
JOBS=2
DRY=0
NICE="nice -n 10"
MPI_IMPL=openmpi
MPIFC=mpifort.openmpi
# The pinned commits: MIDAS-src of 2023-09-08 and the libraries of that time (those GEM 5.2.3 pins
# for rmn, App and vgrid; random_tools 1.1.0), RPN_COMM 4.6.3
MIDAS_COMMIT=8ca1b4dc1d8cf4126735c037a1c4b0f94743353b
RMN_COMMIT=9a8b916a   # librmn 20.0.3, with App 8e0160f
VGRID_COMMIT=64e696b
RANDOM_COMMIT=054f06a # random_tools 1.1.0
RPNCOMM_COMMIT=43ff42e
# MIDAS's Intel flags say big-endian unformatted files, OpenMP and MPI; gfortran needs the rest to
# take MIDAS's calls without interfaces (several types through one external) and its long lines
FFLAGS="-O1 -fopenmp -fconvert=big-endian -fno-second-underscore -ffree-line-length-none -fallow-argument-mismatch"

die() { echo "run_midas: $*" >&2; echo "VERDICT: FAILED ($*)"; exit 1; }
say() { echo "run_midas: $*"; }

while [ $# -gt 0 ]; do
  case $1 in
    --mirrors) MIRRORS=$2; shift 2 ;;
    --work) WORK=$2; shift 2 ;;
    --ours-prefix) OURS_PREFIX=$2; shift 2 ;;
    --programs) PROGRAMS=${2//,/ }; shift 2 ;;
    --no-orig) ORIG=0; shift ;;
    --run) RUN=1; shift ;;
    --ptopo) PTOPO=$2; shift 2 ;;
    --jobs) JOBS=$2; shift 2 ;;
    --dry) DRY=1; shift ;;
    -h|--help) sed -n '2,/^set -u/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument '$1' (--help lists them)" ;;
  esac
done

[[ $JOBS =~ ^[1-9][0-9]*$ ]] || die "--jobs takes a positive number, not '$JOBS'"
[[ $PTOPO =~ ^[1-9][0-9]*x[1-9][0-9]*$ ]] || die "--ptopo takes NPEXxNPEY (2x1), not '$PTOPO'"
for p in $PROGRAMS; do
  [[ " $ALL_PROGRAMS " == *" $p "* ]] || die "unknown program '$p' (one of: $ALL_PROGRAMS)"
done
if [ $DRY = 0 ]; then
  WORK=$(mkdir -p "$WORK" 2>/dev/null && cd "$WORK" && pwd) || die "cannot make the work directory $WORK"
fi
[ -z "$OURS_PREFIX" ] && OURS_PREFIX=$WORK/ours-inst
SRC=$WORK/src
DEPS=$WORK/deps          # rmn and App, installed (vgrid's CMake finds rmn there)
LIBS="ours"
[ $ORIG = 1 ] && LIBS="ours orig"

# ------------------------------------------------------------------------------------------- dry mode
if [ $DRY = 1 ]; then
  say "dry run: nothing is built or run"
  for t in git cmake make tsort nm gfortran $MPIFC mpirun.openmpi cargo; do
    command -v "$t" >/dev/null 2>&1 && say "tool $t: $(command -v "$t")" || say "tool $t: MISSING"
  done
  for r in MIDAS-src librmn vgrid random_tools rpncomm; do
    if [ -d "$SRC/$r/.git" ]; then say "sources $r: $SRC/$r ($(git -C "$SRC/$r" log -1 --format=%h))"
    elif [ -n "$MIRRORS" ]; then say "sources $r: to clone from $MIRRORS"
    else say "sources $r: none in $SRC and no --mirrors (a real run stops here)"; fi
  done
  say "patch: $HERE/gfortran.patch ($(grep -c '^diff ' "$HERE/gfortran.patch") files)"
  say "work: $WORK; rmn -> $DEPS; ours -> $OURS_PREFIX; libraries linked: $LIBS"
  say "programs: $PROGRAMS"
  [ $RUN = 1 ] && say "run: ensPostProcess, sstTrial, randomPert, diagBmatrix (those in --programs) on fabricated inputs, PE grid $PTOPO, with $LIBS"
  echo "VERDICT: DRY (nothing built)"
  exit 0
fi

# ------------------------------------------------------------------------------------------- sources
mirror_url() {  # repository name -> its mirror
  if [ -d "$MIRRORS/ECCC-ASTD-MRD+$1/repo" ]; then echo "$MIRRORS/ECCC-ASTD-MRD+$1/repo"
  elif [ -d "$MIRRORS/$1.git" ]; then echo "$MIRRORS/$1.git"
  else echo "$MIRRORS/$1"; fi
}

# The submodules of the repository at $1 (and theirs), from the mirrors
submodules_from_mirrors() {
  local dir=$1 key url path sub
  [ -f "$dir/.gitmodules" ] || return 0
  while read -r key url; do
    path=${key#submodule.}; path=${path%.url}
    git -C "$dir" config "submodule.$path.url" "$(mirror_url "$(basename "$url" .git)")"
  done < <(git -C "$dir" config -f .gitmodules --get-regexp '^submodule\..*\.url$')
  git -C "$dir" -c protocol.file.allow=always submodule update --init -q || return 1
  for sub in $(git -C "$dir" config -f .gitmodules --get-regexp '^submodule\..*\.path$' | awk '{print $2}'); do
    submodules_from_mirrors "$dir/$sub" || return 1
  done
}

clone() {  # repository commit
  local dir=$SRC/$1
  if [ ! -d "$dir/.git" ]; then
    [ -n "$MIRRORS" ] || die "no $1 in $SRC: give --mirrors"
    say "cloning $1 at $2"
    git clone -q "$(mirror_url "$1")" "$dir" && git -C "$dir" checkout -q "$2" || die "cannot clone $1 at $2"
    submodules_from_mirrors "$dir" || die "cannot fetch the submodules of $1"
  fi
  [ "$(git -C "$dir" rev-parse HEAD)" = "$(git -C "$dir" rev-parse "$2^{commit}")" ] ||
    die "$dir is not at $2"
}

get_sources() {
  mkdir -p "$SRC"
  clone MIDAS-src $MIDAS_COMMIT
  clone librmn $RMN_COMMIT
  clone vgrid $VGRID_COMMIT
  clone random_tools $RANDOM_COMMIT
  [ $ORIG = 1 ] && clone rpncomm $RPNCOMM_COMMIT
  # the patch, once: a tree it is already applied to takes it in reverse
  local m=$SRC/MIDAS-src
  if git -C "$m" apply --check "$HERE/gfortran.patch" 2>/dev/null; then
    say "applying tests/midas/gfortran.patch to MIDAS-src"
    git -C "$m" apply "$HERE/gfortran.patch" || die "gfortran.patch does not apply"
  elif ! git -C "$m" apply --reverse --check "$HERE/gfortran.patch" 2>/dev/null; then
    die "$m has changes other than tests/midas/gfortran.patch (git -C $m checkout . to start again)"
  fi
}

# --------------------------------------------------------------------------------------- libraries
cmake_build() {  # name source-dir targets... (configured once, in WORK/build-<name>)
  local name=$1 src=$2 dir=$WORK/build-$1; shift 2
  mkdir -p "$dir"
  if [ ! -f "$dir/CMakeCache.txt" ]; then
    say "configuring $name in $dir"
    (cd "$dir" && $NICE cmake "$src" "${CMAKE_OPTS[@]}" > cmake.log 2>&1) || { tail -20 "$dir/cmake.log"; return 1; }
  fi
  say "building $name: $* (log $dir/make.log)"
  (cd "$dir" && $NICE make -j"$JOBS" "$@" > make.log 2>&1) || { grep -E -B2 -A6 'Error|error:' "$dir/make.log" | head -40; return 1; }
}

build_libraries() {
  # rmn with App, MPI and OpenMP variants as MIDAS uses them (rmn-ompi); its install names every
  # variant, static and shared (the shared ones are links of the same objects)
  CMAKE_OPTS=(-DCMAKE_INSTALL_PREFIX="$DEPS" -DWITH_OMPI=TRUE)
  if [ ! -f "$DEPS/.done" ] || [ -n "$(find "$SRC/librmn/src" -newer "$DEPS/.done" -print -quit)" ]; then
    cmake_build rmn "$SRC/librmn" rmn-static rmn-shared rmn-ompi-static rmn-ompi-shared \
      App-static App-shared App-ompi-static App-ompi-shared || die "rmn does not build"
    (cd "$WORK/build-rmn" && cmake --install . > install.log 2>&1) || die "cannot install rmn (see $WORK/build-rmn/install.log)"
    touch "$DEPS/.done"
  fi
  CMAKE_OPTS=(-DCMAKE_PREFIX_PATH="$DEPS")
  cmake_build vgrid "$SRC/vgrid" vgrid-static || die "vgrid does not build"
  CMAKE_OPTS=()
  cmake_build random "$SRC/random_tools" random || die "random_tools does not build"
  if [ $ORIG = 1 ]; then
    CMAKE_OPTS=()
    cmake_build orig "$SRC/rpncomm" rpncomm || die "RPN_COMM 4.6.3 does not build"
  fi
}

install_ours() {
  if [ "$OURS_PREFIX" != "$WORK/ours-inst" ]; then
    [ -f "$OURS_PREFIX/lib/pkgconfig/rpncomm-windows.pc" ] || die "no rpncomm-windows installation in $OURS_PREFIX"
    return 0
  fi
  say "installing rpncomm-windows (MPI=1 MPI_IMPL=$MPI_IMPL) into $OURS_PREFIX"
  $NICE make -C "$PROJECT" install MPI=1 MPI_IMPL=$MPI_IMPL PREFIX="$OURS_PREFIX" \
    BUILD="$WORK/ours-build" RUST_TARGET="$WORK/ours-target" > "$WORK/ours-install.log" 2>&1 \
    || { tail -20 "$WORK/ours-install.log"; die "cannot install rpncomm-windows (see $WORK/ours-install.log)"; }
}

# ------------------------------------------------------------------------------------------- MIDAS
# The sources the programs need, in compiling order: every module a file uses that one of MIDAS's
# files defines, from the programs down (the rest, mpi, vgrid_descriptors and the intrinsic
# modules, come from the libraries), ordered with tsort (a module before its users).
midas_sources() {  # programs...
  local s=$SRC/MIDAS-src/src
  (cd "$s" && awk -v progs="$*" '
     FNR == 1 { files[FILENAME] = 1 }
     tolower($0) ~ /^[ \t]*module[ \t]+[a-z0-9_]+[ \t]*(!.*)?$/ {
       name = tolower($2); sub(/!.*/, "", name); def[name] = FILENAME }
     tolower($0) ~ /^[ \t]*use[ \t,]/ {
       line = tolower($0); sub(/^[ \t]*use[ \t]*(,[ \t]*(non_)?intrinsic[ \t]*::)?[ \t]*/, "", line)
       match(line, /^[a-z0-9_]+/); if (RLENGTH > 0) uses[FILENAME, ++nu[FILENAME]] = substr(line, 1, RLENGTH) }
     END {
       n = split(progs, p, " ")
       for (i = 1; i <= n; i++) { f = "programs/" p[i] ".f90"; if (!(f in files)) { print "missing " f > "/dev/stderr"; exit 1 } stack[++top] = f }
       while (top > 0) {
         f = stack[top--]; if (f in seen) continue; seen[f] = 1; print f, f
         for (k = 1; k <= nu[f]; k++) { m = uses[f, k]; if ((m in def) && def[m] != f) { print def[m], f; stack[++top] = def[m] } }
       }
     }' modules/*.f90 modules/*.ftn90 programs/*.f90) | tsort
}

compile_midas() {
  local dir=$WORK/build-midas f n b src inc
  mkdir -p "$dir"
  midas_sources $PROGRAMS > "$dir/sources.txt" || die "cannot list MIDAS's sources"
  say "compiling MIDAS: $(wc -l < "$dir/sources.txt") sources (logs $dir/*.log)"
  inc=(-I"$dir" -I"$DEPS/include" -I"$DEPS/include/ompi" -I"$WORK/build-vgrid/lib/include"
       -I"$WORK/build-random/src")
  local failed=""
  for f in $(cat "$dir/sources.txt"); do
    n=$(basename "$f"); b=${n%.*}; src=$SRC/MIDAS-src/src/$f
    # a file is compiled again when it or a file before it changed (a module's users after it)
    if [ -f "$dir/$b.o" ] && [ "$dir/$b.o" -nt "$src" ] && [ -z "${rebuilt:-}" ]; then continue; fi
    rebuilt=1
    # MIDAS's .ftn90 files are preprocessed (#if, #include): gfortran does it for .F90
    case $n in *.ftn90) cp "$src" "$dir/$b.F90"; src=$dir/$b.F90 ;; esac
    (cd "$dir" && $NICE $MPIFC $FFLAGS "${inc[@]}" -J "$dir" -c "$src" -o "$b.o" > "$b.log" 2>&1) ||
      { failed="$failed $b"; rm -f "$dir/$b.o"; }
  done
  unset rebuilt
  [ -z "$failed" ] || { grep -h -B4 'Error' "$dir/${failed# }"*.log | head -30; die "MIDAS sources do not compile:$failed"; }
  (cd "$dir" && $NICE $MPIFC -std=f2018 -c "$HERE/tmg_timers.f90" -o tmg_timers.o > tmg_timers.log 2>&1) ||
    die "tests/midas/tmg_timers.f90 does not compile"
  # every object but the programs' in one archive: each program takes what it needs
  local objs=()
  for f in $(cat "$dir/sources.txt"); do
    case $f in programs/*) continue ;; esac
    n=$(basename "$f"); objs+=("${n%.*}.o")
  done
  (cd "$dir" && rm -f libmidas.a && ar rcs libmidas.a "${objs[@]}" tmg_timers.o) || die "cannot archive MIDAS's objects"
}

# The link line's libraries after MIDAS's objects, for one RPN_COMM
rpncomm_libs() {  # ours|orig
  if [ "$1" = ours ]; then
    PKG_CONFIG_PATH=$OURS_PREFIX/lib/pkgconfig pkg-config --static --libs rpncomm-windows
  else
    echo "$WORK/build-orig/src/librpncomm.a"
  fi
}

# The RPN_COMM symbols MIDAS's objects leave undefined (the routines the programs call)
midas_rpncomm_symbols() {
  local dir=$WORK/build-midas p
  { nm -u "$dir/libmidas.a"; for p in $PROGRAMS; do nm -u "$dir/$p.o"; done; } 2>/dev/null |
    awk '{print $NF}' | grep -i '^rpn_comm' | sort -u
}

link_programs() {  # ours|orig: one LINK line per program; RPN_COMM symbols left unresolved in $UNRESOLVED
  local lib=$1 dir=$WORK/build-midas p out libs undef
  libs=$(rpncomm_libs "$lib") || die "no RPN_COMM libraries for $lib"
  mkdir -p "$WORK/bin-$lib"
  UNRESOLVED=""
  for p in $PROGRAMS; do
    out=$WORK/bin-$lib/$p
    # shellcheck disable=SC2086
    if (cd "$dir" && $NICE $MPIFC -fopenmp "$p.o" libmidas.a "$WORK/build-vgrid/lib/libvgrid.a" \
          "$DEPS/lib/librmn-ompi.a" "$DEPS/lib/libApp-ompi.a" "$WORK/build-random/src/librandom.a" \
          $libs -llapack -lblas -o "$out" > "$WORK/bin-$lib/$p.link.log" 2>&1); then
      echo "LINK $lib $p: OK ($out)"
      LINKED="$LINKED $lib:$p"
    else
      undef=$(grep -o "undefined reference to \`[^']*'" "$WORK/bin-$lib/$p.link.log" | sed -e 's/^[^`]*`//' -e "s/'\$//" | sort -u | tr '\n' ' ')
      if [ -n "$undef" ]; then echo "LINK $lib $p: FAILED (unresolved: ${undef% })"
      else echo "LINK $lib $p: FAILED (see $WORK/bin-$lib/$p.link.log)"; fi
      UNRESOLVED="$UNRESOLVED $(echo "$undef" | tr ' ' '\n' | grep -i '^rpn_comm' | tr '\n' ' ')"
    fi
  done
  UNRESOLVED=$(echo "$UNRESOLVED" | tr ' ' '\n' | grep . | sort -u | tr '\n' ' ')
}

# ---------------------------------------------------------------------------------------- the runs
# The programs that run on fabricated inputs (tests/midas/fabricate_inputs.f90 says what it writes
# for each) with the namelist tests/midas/PROGRAM.nml: the same inputs for each library, and what
# each run wrote compared between the two.
RUN_PROGRAMS="ensPostProcess sstTrial randomPert diagBmatrix"
# The words a program prints last when it ended normally
run_end_mark() {
  case $1 in
    ensPostProcess) echo 'MIDAS-ensPostProcess ENDS' ;;
    sstTrial) echo 'SSTTRIAL .* FIN' ;;
    randomPert) echo 'MIDAS-RANDOMPERT ENDS' ;;
    diagBmatrix) echo 'midas-diagBmatrix ENDS' ;;
  esac
}

run_program() {  # program lib: runs it in WORK/run/PROGRAM/LIB, prints its RUN line
  local p=$1 lib=$2 rd=$WORK/run/$1/$2 tool=$WORK/build-midas/fabricate_inputs
  rm -rf "$rd"; mkdir -p "$rd"
  cp "$HERE/$p.nml" "$rd/flnml"
  # MIDAS asks RPN_COMM_init for its PE grid and reads it from ptopo_nml
  printf ' &ptopo\n   npex = %d\n   npey = %d\n/\n' "${PTOPO%x*}" "${PTOPO#*x}" > "$rd/ptopo_nml"
  (cd "$rd" && "$tool" "$p" > fabricate.log 2>&1) || { tail -5 "$rd/fabricate.log"; die "cannot fabricate the inputs of $p"; }
  (cd "$rd" && find . -type f | sort > .inputs)
  say "running $p with $lib on $PTOPO PEs (listing $rd/listing)"
  (
    cd "$rd" || exit 1
    export OMP_NUM_THREADS=1 OMPI_MCA_rmaps_base_oversubscribe=1
    if [ "$(id -u)" = 0 ]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi
    local env=()
    # randomPert and diagBmatrix take their date from the environment only
    case $p in randomPert|diagBmatrix) env+=(-x MIDAS_DATE=2020011000) ;; esac
    # ours prints the RPN_COMM routines the program called, at RPN_COMM_finalize
    [ "$lib" = ours ] && env+=(-x RPNCOMM_STATS=1)
    timeout 600 mpirun.openmpi -np "$((${PTOPO%x*} * ${PTOPO#*x}))" "${env[@]}" "$WORK/bin-$lib/$p" > listing 2>&1
  )
  if [ "$lib" = ours ]; then
    say "$p called (calls over all PEs): $(awk '/^routines:/ {on = 1; next} on && $1 == "all" {exit}
      on && $1 ~ /^RPN_COMM_/ {printf "%s%s %s", sep, $1, $2; sep = ", "}' "$rd/listing")"
  fi
  if grep -q "$(run_end_mark "$p")" "$rd/listing"; then
    echo "RUN $lib $p: ENDED ($(run_outputs "$rd" | wc -l) files written: $(run_outputs "$rd" | tr '\n' ' ' | sed 's/ $//'))"
  else
    echo "RUN $lib $p: FAILED (tail of $rd/listing below)"; tail -8 "$rd/listing"; return 1
  fi
}

run_outputs() {  # run directory: the files the run wrote (all but its inputs and listing)
  (cd "$1" && find . -type f | sort | comm -13 .inputs - | grep -v -x -e ./listing -e ./.inputs -e '.*\.records' | sed 's|^\./||')
}

run_programs() {
  local tool=$WORK/build-midas/fabricate_inputs p lib ran fails=0
  if [ ! -x "$tool" ] || [ "$HERE/fabricate_inputs.f90" -nt "$tool" ]; then
    (cd "$WORK/build-midas" && $NICE $MPIFC -O1 -fopenmp "$HERE/fabricate_inputs.f90" -o "$tool" \
       "$DEPS/lib/librmn-ompi.a" "$DEPS/lib/libApp-ompi.a" > fabricate_inputs.log 2>&1) ||
      die "fabricate_inputs does not build (see $WORK/build-midas/fabricate_inputs.log)"
  fi
  for p in $RUN_PROGRAMS; do
    [[ " $PROGRAMS " == *" $p "* ]] || continue
    ran=""
    for lib in $LIBS; do
      if [[ " $LINKED " != *" $lib:$p "* ]]; then
        echo "RUN $lib $p: SKIPPED (its link failed)"; fails=1; continue
      fi
      run_program "$p" "$lib" && ran="$ran $lib" || fails=1
    done
    [ "$ran" = " ours orig" ] && { compare_outputs "$p" || fails=1; }
  done
  [ $fails = 0 ]
}

# What the two runs of a program wrote, byte for byte; RPN standard files that differ in bytes,
# record by record (tests/gem/fst_records.f90: the same records can be laid out in other bytes)
compare_outputs() {  # program
  local a=$WORK/run/$1/orig b=$WORK/run/$1/ours f n=0 nd=0 nr=0 tool=$WORK/build-midas/fst_records
  if [ ! -x "$tool" ] || [ "$PROJECT/tests/gem/fst_records.f90" -nt "$tool" ]; then
    (cd "$WORK/build-midas" && $NICE $MPIFC -O1 -fopenmp "$PROJECT/tests/gem/fst_records.f90" -o "$tool" \
       "$DEPS/lib/librmn-ompi.a" "$DEPS/lib/libApp-ompi.a" > fst_records.log 2>&1) || die "fst_records does not build"
  fi
  while IFS= read -r f; do
    n=$((n + 1))
    if [ ! -f "$b/$f" ]; then nd=$((nd + 1)); say "$1: $f missing in ours"; continue; fi
    cmp -s "$a/$f" "$b/$f" && continue
    if "$tool" "$a/$f" "$b/$f" > "$b/$f.records" 2>&1; then
      nr=$((nr + 1)); say "$1: $f: other bytes, every record identical ($(tail -n 1 "$b/$f.records"))"; continue
    fi
    nd=$((nd + 1)); say "$1: $f differs ($(tail -n 1 "$b/$f.records"); $b/$f.records)"
  done < <(run_outputs "$a")
  [ "$(run_outputs "$b" | wc -l)" = "$n" ] || { nd=$((nd + 1)); say "$1: ours wrote other files: $(run_outputs "$b" | tr '\n' ' ')"; }
  if [ $n -gt 0 ] && [ $nd = 0 ]; then
    echo "RUN compare $1: IDENTICAL ($n output files: $((n - nr)) byte for byte, $nr record for record)"; return 0
  fi
  echo "RUN compare $1: DIFFERENT ($nd of $n output files differ)"; return 1
}

# ----------------------------------------------------------------------------------------------- main
command -v $MPIFC >/dev/null 2>&1 || die "$MPIFC not found (apt-get install libopenmpi-dev openmpi-bin)"
command -v cmake >/dev/null 2>&1 || die "cmake not found (apt-get install cmake)"
get_sources
build_libraries
install_ours
compile_midas
symbols=$(midas_rpncomm_symbols)
say "RPN_COMM routines the programs call ($(echo "$symbols" | wc -l)): $(echo "$symbols" | tr '\n' ' ')"
linkfail=""
unres_ours=""
LINKED=""               # lib:program, each program that linked
for lib in $LIBS; do
  link_programs "$lib"
  [ "$lib" = ours ] && unres_ours=$UNRESOLVED
  [ -n "$UNRESOLVED" ] && linkfail="$linkfail $lib"
  [ "$lib" = orig ] && [ -n "$UNRESOLVED" ] && say "orig leaves RPN_COMM symbols unresolved: $UNRESOLVED"
done
# from the library itself as well: every symbol MIDAS needs is defined in the installed archive
missing=""
defined=$(nm --defined-only "$OURS_PREFIX/lib/librpn_comm.a" 2>/dev/null | awk '{print $NF}' | sort -u)
for s in $symbols; do
  grep -qx "$s" <<< "$defined" || missing="$missing $s"
done
[ -n "$unres_ours" ] || [ -z "$missing" ] || unres_ours=$missing
runfail=0
if [ $RUN = 1 ]; then
  run_programs || runfail=1
fi
if [ -z "$unres_ours" ]; then
  echo "RPN_COMM: every symbol resolved ($(echo "$symbols" | wc -l): $(echo "$symbols" | tr '\n' ' '| sed 's/ $//'))"
else
  echo "RPN_COMM: unresolved in ours: ${unres_ours% }"
fi
[ -z "$linkfail" ] && [ $runfail = 0 ]
