#!/bin/bash
# GEM's own runs as the proof that GEM runs on rpncomm-windows (docs/gem.md, "Running GEM").
#
# Builds GEM twice with the same compilers and flags: "orig", with the RPN_COMM bundled in its
# sources (GEM's default, WITH_SYSTEM_RPN=FALSE), and "ours", with WITH_SYSTEM_RPN=TRUE, taking
# rmn, tdpack and vgrid (installed from the orig build's own objects: built once) and RPN_COMM (this
# project's MPI build, `make install MPI=1`) through find_package. No GEM file is edited: a case's
# namelist is copied into the run directory and only the copy is changed. Then runs the same cases
# on both, compares every output field (GEM's fstcomp, and fststat/voir when files differ) and the
# per-step statistics (BLOCSTAT lines), reports the time per step of both and prints one verdict line:
#   VERDICT: IDENTICAL ...   or   VERDICT: DIFFERENT ...   or   VERDICT: FAILED ...
#
# Builds, installs and runs are kept in the work directory; a second call reuses every build
# (make decides what is stale) and reruns only the cases.
#
# usage: tests/gem/run_gem.sh [options]
#   --gem DIR        GEM 5.2.3 or 5.3 sources with their submodules (default: WORK/src, cloned from --mirrors)
#   --mirrors DIR    git mirrors, DIR/ECCC-ASTD-MRD+<repo>/repo (gem, librmn, App, tdpack, vgrid,
#                    fst-tools, cmake_rpn, rpncomm; for GEM 5.3 also json-c, udunits2); or a URL base
#                    such as https://github.com/ECCC-ASTD-MRD
#   --commit C       GEM commit to check out when cloning (default 95f10dc, GEM 5.2.3; d5f72e4, GEM 5.3:
#                    it asks for rpncomm 4.6.4, and its librmn 20.1 bundles json-c and udunits2, whose
#                    build needs flex and bison; the script adapts to the tree it finds, librmn's dep/)
#   --work DIR       builds, installs, runs (default $GEMRUN_WORK or $HOME/gemrun)
#   --ours-prefix P  an existing `make install MPI=1 MPI_IMPL=openmpi PREFIX=P` of this project (default:
#                    installed into WORK/ours-inst, built in WORK/ours-build and WORK/ours-target)
#   --cases LIST     comma separated: bubble (THEO_cfgs_bubbleG, 2x1), case5 (Yin-Yang Williamson
#                    CASE5 cut to 24 h, 1x2 per grid, 4 PEs), case5x8 (2x2 per grid, 8 PEs), lam5 (the
#                    limited-area Williamson CASE5, LAM_WILLIAMSON/CASE5/LAM, cut to 24 h, 2x2 PEs);
#                    default bubble,case5. CASE+stop and CASE+restart are GEM's production paths on
#                    any of them: +stop stops on the time left (Lctl_cktimeleft_L, the time_left file
#                    served so that the stop fires at step --stop-step), +restart stops every
#                    --restart-every (Fcst_rstrt_S); both are then continued from their restart files
#                    to the end, and compared with the uninterrupted CASE (added to the cases) of the
#                    same build as well as with the other build. A limited-area case (bubble, lam5)
#                    cannot be continued without an analysis: it is compared up to its stop only
#   --threads N      OpenMP threads per PE, both sides: the third number of every case's -ptopo and
#                    OMP_NUM_THREADS (default 1); above 1, OMP_WAIT_POLICY=passive (unless set), else
#                    GNU OpenMP's spinning threads make a run on 2 cores 30x longer
#   --stop-step N    the step at which the +stop cases run out of time (default 10; 1 at least)
#   --restart-every T  Fcst_rstrt_S of the +restart cases (default 72p for bubble, 18p for the others)
#   --only WHICH     orig or ours: build and run one side only (no comparison)
#   --reuse WHICH    orig or ours: compare with that side's runs already in WORK instead of running
#                    it again (each case's run must have been made with the same case settings)
#   --jobs N         make -j (default 2); builds run under nice -n 10
#   --no-build       run and compare with the builds already in WORK
#   --end T          every case ends at T (GEM's Fcst_end_S: 2m, 24p, 6h) instead of its own end
#   --no-output      the cases without their output requests (the sortie lines of outcfg.out):
#                    only the per-step statistics are compared (while a routine that output needs,
#                    RPN_COMM_shuf_ezcoll, is missing)
#   --nodes LIST     run GEM (both sides) across simulated nodes (tests/multinode/mnrun.sh, as root):
#                    LIST is the PEs per node, as mnrun's --nodes (2,2: two nodes of two PEs). The
#                    runs go to WORK/run-SIDE-nodesLIST (2,2: run-orig-nodes2-2) and are compared with
#                    each other and, where WORK/run-SIDE/CASE is a one-node run of the same case with
#                    the same settings, with it. See "Across simulated nodes" below
#   --kit FILE       pack what the runs need into FILE (.tar.gz; after the builds, if any) and stop
#                    there (no run): see "A kit for another machine" below
#   --from-kit DIR   run from an unpacked kit (no compilers, no build: implies --no-build)
#   --mpi-prefix P   an Open MPI to run with instead of the system's (e.g. Debian's packages unpacked
#                    with dpkg -x into R: P=R/usr): P/bin first in PATH, P/lib and Debian's
#                    P/lib/x86_64-linux-gnu and .../openmpi/lib first in LD_LIBRARY_PATH,
#                    OPAL_PREFIX=P unless set; PMIX_PREFIX and the rest are taken as they are set
#   --dry            check the arguments and the tools, print the plan, run nothing
# Every run has MALLOC_PERTURB_=165 unless it is set (0: the heap as it is): librmn writes part
# of each output file from memory it never cleared (docs/gem.md, "Running GEM").
#
# Across simulated nodes (--nodes): runmod.sh starts GEM through r.run_in_parallel, which calls the
# first `mpirun` in PATH (Open MPI: `mpirun -x VAR... -machinefile F -n N script`). For the run only,
# PATH starts with RUN/mpirun-bin/, whose `mpirun` drops the -machinefile (localhost lines) and
# calls `tests/multinode/mnrun.sh --impl openmpi --nodes LIST --mpirun RUN/mpirun-bin/launcher -n N
# ...` with the rest; `launcher` is the real mpirun with `--mca osc pt2pt` (Debian's Open MPI 4.1
# makes MPI windows between nodes only with osc/pt2pt; GEM creates windows itself, on both sides).
# GEM's files are not changed; the run directory is on the same filesystem inside the namespaces.
# mnrun fills the nodes in order: with --nodes 2,2, PEs 0-1 on n1 and 2-3 on n2 (case5: the Yin
# grid on one node, the Yang on the other). Measured (2026-11-28, this 2-core VM, under nice -n 5,
# while another job kept about one core busy; docs/gem.md, "Across simulated nodes"), each case to
# its end (24 h, 48 steps), every file byte-identical between the sides and with the one-node runs:
#   case   nodes  PEs  s/step ours  orig   (one node: ours  orig)
#   case5  2,2    4       1.159     1.930             2.384 3.155
#   lam5   2,2    4       0.367     1.037             0.448 1.670
#
# A kit for another machine (one without compilers and MPI, same architecture and a glibc at least
# as new; bash, python3 and coreutils, as GEM's scripts need):
#   here:   tests/gem/run_gem.sh --work W --no-build --kit gemrun-kit.tar.gz
#           packs gemrun-kit/: gem/ (GEM's run scripts and tools, its configurations, .common_setup),
#           bin-orig/ and bin-ours/ (maingemdm and the tools of both builds, fstcomp and fst_records
#           for the comparison), lib/ (the shared libraries they load other than glibc's and
#           Open MPI's: gfortran, fftw, lapack, blas, ...) and tests/gem, tests/multinode (this
#           script, mnrun.sh, agent.sh)
#   there:  tar xzf gemrun-kit.tar.gz
#           export PMIX_PREFIX=... [OPAL_PREFIX=... LD_LIBRARY_PATH=...]   # as the Open MPI kit says
#           gemrun-kit/tests/gem/run_gem.sh --from-kit gemrun-kit --work /some/dir --cases case5 \
#               [--mpi-prefix R/usr] [--nodes 2,2]
#           (--dry --from-kit ... lists the tools and the libraries maingemdm cannot find there)
#   Tried here (2026-11-28): the kit unpacked into a fresh directory, with gfortran, cc, make,
#   cmake, mpifort and git shadowed by failing stand-ins, ran case5 (--end 6p) on one node and on
#   --nodes 2,2: IDENTICAL, the nodes runs as the one-node ones; and with --mpi-prefix on a copy
#   of the files of Debian's openmpi-bin, openmpi-common, libopenmpi3, libpmix2, libhwloc15 and
#   libevent packages in /tmp: every Open MPI library and component came from the copy, but one
#   PMIx plugin (pmix_mca_pcompress_zlib) still from /usr, despite PMIX_PREFIX
set -u -o pipefail

PROJECT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
WORK=${GEMRUN_WORK:-$HOME/gemrun}
GEM=""
MIRRORS=""
COMMIT=95f10dc
OURS_PREFIX=""
CASES="bubble,case5"
ONLY=""
REUSE=""
JOBS=2
BUILD=1
NO_OUTPUT=0
FCST_END=""
STOP_STEP=10
THREADS=1
RESTART_EVERY=""
DRY=0
NODES=""
KIT=""
FROM_KIT=""
MPI_PREFIX=""
NICE="nice -n 10"
MPI_IMPL=openmpi
# What GEM.md's build list needs to run a case, and fstcomp to compare outputs
GEM_TARGETS="maingemdm cclargs_lite gem_monitor_output gem_monitor_end prgemnml checkdmpart gemgrid r.fstinfo voir fststat fstcomp"

die() { echo "run_gem: $*" >&2; echo "VERDICT: FAILED ($*)"; exit 1; }
say() { echo "run_gem: $*"; }

while [ $# -gt 0 ]; do
  case $1 in
    --gem) GEM=$2; shift 2 ;;
    --mirrors) MIRRORS=$2; shift 2 ;;
    --commit) COMMIT=$2; shift 2 ;;
    --work) WORK=$2; shift 2 ;;
    --ours-prefix) OURS_PREFIX=$2; shift 2 ;;
    --cases) CASES=$2; shift 2 ;;
    --only) ONLY=$2; shift 2 ;;
    --reuse) REUSE=$2; shift 2 ;;
    --jobs) JOBS=$2; shift 2 ;;
    --no-build) BUILD=0; shift ;;
    --no-output) NO_OUTPUT=1; shift ;;
    --end) FCST_END=$2; shift 2 ;;
    --stop-step) STOP_STEP=$2; shift 2 ;;
    --threads) THREADS=$2; shift 2 ;;
    --restart-every) RESTART_EVERY=$2; shift 2 ;;
    --nodes) NODES=$2; shift 2 ;;
    --kit) KIT=$2; shift 2 ;;
    --from-kit) FROM_KIT=$2; BUILD=0; shift 2 ;;
    --mpi-prefix) MPI_PREFIX=$2; shift 2 ;;
    --dry) DRY=1; shift ;;
    -h|--help) sed -n '2,/^set -u/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument '$1' (--help lists them)" ;;
  esac
done

case $ONLY in ""|orig|ours) ;; *) die "--only takes orig or ours, not '$ONLY'" ;; esac
case $REUSE in ""|orig|ours) ;; *) die "--reuse takes orig or ours, not '$REUSE'" ;; esac
[ -n "$REUSE" ] && [ -n "$ONLY" ] && die "--reuse compares both sides: not with --only"
[[ -z $FCST_END || $FCST_END =~ ^[0-9]+[smhdp]?$ ]] || die "--end takes a time as GEM writes it (2m, 24p, 6h), not '$FCST_END'"
[[ -z $RESTART_EVERY || $RESTART_EVERY =~ ^[0-9]+[smhdp]?$ ]] || die "--restart-every takes a time as GEM writes it (18p, 6h), not '$RESTART_EVERY'"
[[ $THREADS =~ ^[1-9][0-9]*$ ]] || die "--threads takes a positive number, not '$THREADS'"
[[ $JOBS =~ ^[1-9][0-9]*$ ]] || die "--jobs takes a positive number, not '$JOBS'"
# at step 0 GEM has no step time yet to compare the time left with: the stop cannot fire there
[[ $STOP_STEP =~ ^[1-9][0-9]*$ ]] || die "--stop-step takes a step from 1 on, not '$STOP_STEP'"
[[ -z $NODES || $NODES =~ ^[1-9][0-9]*(,[1-9][0-9]*)*$ ]] || die "--nodes takes the PEs of each node, comma separated (2,2), not '$NODES'"
[[ -z $KIT || $KIT == *.tar.gz ]] || die "--kit takes a FILE.tar.gz, not '$KIT'"
if [ -n "$FROM_KIT" ]; then
  [ -f "$FROM_KIT/gem/.common_setup" ] && [ -x "$FROM_KIT/bin-orig/maingemdm" ] || die "no kit at $FROM_KIT (gem/.common_setup, bin-orig/maingemdm)"
  [ -z "$KIT" ] || die "--kit packs the builds of a work directory, not a kit"
  FROM_KIT=$(cd "$FROM_KIT" && pwd)
fi
# An Open MPI of its own (e.g. unpacked from Debian's packages): its programs and libraries first
if [ -n "$MPI_PREFIX" ]; then
  [ -d "$MPI_PREFIX/bin" ] || die "no $MPI_PREFIX/bin (--mpi-prefix)"
  MPI_PREFIX=$(cd "$MPI_PREFIX" && pwd)
  export PATH=$MPI_PREFIX/bin:$PATH OPAL_PREFIX=${OPAL_PREFIX:-$MPI_PREFIX}
  for d in "$MPI_PREFIX/lib" "$MPI_PREFIX/lib/x86_64-linux-gnu" "$MPI_PREFIX/lib/x86_64-linux-gnu/openmpi/lib"; do
    [ -d "$d" ] && export LD_LIBRARY_PATH=$d${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  done
fi
# The kit's libraries (gfortran, fftw, lapack, ...: not Open MPI's)
[ -n "$FROM_KIT" ] && export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$FROM_KIT/lib
# mpirun as r.run_in_parallel will find it (--mpi-prefix: Debian's P/bin/mpirun is a link to
# /etc/alternatives, mpirun.openmpi one to orterun)
MPIRUN=$(command -v mpirun.openmpi || command -v mpirun || echo mpirun)
SIDES="orig ours"
[ -n "$ONLY" ] && SIDES=$ONLY
case_base() { echo "${1%%+*}"; }
case_variant() { case $1 in *+*) echo "${1#*+}" ;; esac; }
# every variant's uninterrupted case runs first
ordered=""
for c in ${CASES//,/ }; do
  case $(case_base "$c") in bubble|case5|case5x8|lam5) ;; *) die "unknown case '$c' (bubble, case5, case5x8, lam5, each with +stop or +restart)" ;; esac
  case $(case_variant "$c") in ""|stop|restart) ;; *) die "unknown variant in '$c' (+stop, +restart)" ;; esac
  [[ ,$ordered, == *,$(case_base "$c"),* ]] || ordered=$ordered,$(case_base "$c")
done
for c in ${CASES//,/ }; do [[ ,$ordered, == *,$c,* ]] || ordered=$ordered,$c; done
CASES=${ordered#,}
if [ $DRY = 0 ]; then
  [ -z "$NODES" ] || [ -x "$PROJECT/tests/multinode/mnrun.sh" ] || die "no $PROJECT/tests/multinode/mnrun.sh (--nodes)"
  WORK=$(mkdir -p "$WORK" 2>/dev/null && cd "$WORK" && pwd) || die "cannot make the work directory $WORK"
fi
[ -z "$GEM" ] && GEM=$WORK/src
[ -n "$FROM_KIT" ] && GEM=$FROM_KIT/gem
# where the programs of each side are (BINS/bin-orig, BINS/bin-ours)
BINS=$WORK
[ -n "$FROM_KIT" ] && BINS=$FROM_KIT
# the runs of a layout of simulated nodes go apart from the one-node runs
RUNS_TAG=""
[ -n "$NODES" ] && RUNS_TAG=-nodes${NODES//,/-}
run_dir() { echo "$WORK/run-$1$RUNS_TAG/$2"; }   # side case
# GEM's commit (a kit has no git: the commit it was packed from)
gem_commit() {
  if [ -f "$GEM/.gemrun-commit" ]; then cat "$GEM/.gemrun-commit"; else git -C "$GEM" rev-parse HEAD 2>/dev/null; fi
}
[ -z "$OURS_PREFIX" ] && OURS_PREFIX=$WORK/ours-inst
RPN_PREFIX=$WORK/rpn-inst       # rmn, tdpack, vgrid installed from the orig build's objects
DBASE=$WORK/dbase               # placeholders for GEM's data archive (analytic cases read nothing)

# ---------------------------------------------------------------------------------------- the case table
# case -> GEM configuration directory, -ptopo, namelist changes (sed expressions on gem_settings.nml)
case_cfg() {
  case $(case_base "$1") in
    bubble) echo "THEO_cfgs_bubbleG" ;;
    case5|case5x8) echo "GEM_theo_cfgs/WILLIAMSON/CASE5" ;;
    lam5) echo "GEM_theo_cfgs/LAM_WILLIAMSON/CASE5/LAM" ;;
  esac
}
case_ptopo() {
  case $(case_base "$1") in bubble) echo 2x1x$THREADS ;; case5) echo 1x2x$THREADS ;; case5x8|lam5) echo 2x2x$THREADS ;; esac
}
case_pes() {
  case $(case_base "$1") in bubble) echo 2 ;; case5|lam5) echo 4 ;; case5x8) echo 8 ;; esac
}
case_sed() {
  case $(case_base "$1") in
    bubble) echo "" ;;
    # 24 h of the 15-day case, with the start date the case needs to run without an analysis
    case5|case5x8) echo 's/Fcst_end_S *= *"360h"/Fcst_end_S = "24h", Step_runstrt_S = "19781221.000000"/' ;;
    # and the limited-area one with constant boundary conditions (its pilot files are not analytic)
    lam5) echo 's/Fcst_end_S *= *"360h"/Fcst_end_S = "24h", Step_runstrt_S = "19781221.000000"/; s/^ *&lam *$/ \&lam\n  Lam_ctebcs_L = .true./' ;;
  esac
}
# Whether GEM can continue the case from its restart files: a limited-area run reads its boundary
# conditions again from the analysis when it restarts (gem_ctrl's nest_indata), which an analytic
# case does not have; Yin-Yang has no boundary
case_continues() {
  case $(case_base "$1") in case5|case5x8) return 0 ;; *) return 1 ;; esac
}
case_restart_every() {
  if [ -n "$RESTART_EVERY" ]; then echo "$RESTART_EVERY"; return; fi
  case $(case_base "$1") in bubble) echo 72p ;; *) echo 18p ;; esac
}

# ------------------------------------------------------------------------------------------- dry mode
if [ $DRY = 1 ]; then
  say "dry run: nothing is built or run"
  tools="git cmake make gfortran mpirun.openmpi mpifort.openmpi cargo"
  [ -n "$FROM_KIT" ] && tools="mpirun.openmpi mpirun orted ompi_info python3"
  [ -n "$NODES" ] && tools="$tools ip nsenter unshare"
  # GEM 5.3's librmn builds udunits2's parser with them
  [ -z "$FROM_KIT" ] && [ -d "$GEM/src/rpn-si/rmn/dep/udunits2" ] && tools="$tools flex bison"
  for t in $tools; do
    command -v "$t" >/dev/null 2>&1 && say "tool $t: $(command -v "$t")" || say "tool $t: MISSING"
  done
  if [ -n "$NODES" ]; then
    say "nodes: $NODES (tests/multinode/mnrun.sh, as root: $([ "$(id -u)" = 0 ] && echo yes || echo "NO, a real run fails"));" \
        "runs in $(run_dir SIDE CASE)"
  fi
  [ -n "$KIT" ] && say "kit: packs $WORK's GEM, bin-orig, bin-ours and their libraries into $KIT (no run)"
  if [ -n "$FROM_KIT" ]; then
    say "GEM and its programs: the kit $FROM_KIT (GEM $(gem_commit))"
    missing=$(for s in $SIDES; do ldd "$BINS/bin-$s/maingemdm"; done 2>&1 | awk '/not found/ {print $1}' | sort -u | tr '\n' ' ')
    say "libraries maingemdm cannot find: ${missing:-none}"
  elif [ -d "$GEM/.git" ] || [ -f "$GEM/.git" ]; then say "GEM sources: $GEM ($(git -C "$GEM" log -1 --format=%h 2>/dev/null), GEM $(sed -n 's/^VERSION *: *//p' "$GEM/MANIFEST"), $(grep -E '^rpncomm' "$GEM/MANIFEST"))"
  elif [ -n "$MIRRORS" ]; then say "GEM sources: to clone from $MIRRORS at $COMMIT into $GEM"
  else say "GEM sources: none at $GEM and no --mirrors (a real run stops here)"; fi
  if [ -z "$FROM_KIT" ]; then
    say "work: $WORK; rmn/tdpack/vgrid -> $RPN_PREFIX; ours -> $OURS_PREFIX"
    for s in $SIDES; do say "build $s: $WORK/build-$s ($GEM_TARGETS)"; done
  else
    say "work: $WORK (runs only)"
  fi
  for c in ${CASES//,/ }; do
    say "case $c: configurations/$(case_cfg "$c") -ptopo $(case_ptopo "$c") ($(case_pes "$c") PEs) on $SIDES"
    case $(case_variant "$c") in
      stop) say "  stops on the time left at step $STOP_STEP$(case_continues "$c" && echo ", continued to the end")" ;;
      restart) say "  stops every $(case_restart_every "$c") (Fcst_rstrt_S)$(case_continues "$c" && echo ", continued to the end")" ;;
    esac
  done
  echo "VERDICT: DRY (nothing run)"
  exit 0
fi

# ------------------------------------------------------------------------------------------- sources
# The submodules of the repository at $1 (and theirs) from the mirrors
submodules_from_mirrors() {
  local dir=$1 key url path name sub
  [ -f "$dir/.gitmodules" ] || return 0
  while read -r key url; do
    path=${key#submodule.}; path=${path%.url}
    name=$(basename "$url" .git)
    [ "$name" = rmn ] && name=librmn
    if [ -d "$MIRRORS/ECCC-ASTD-MRD+$name/repo" ]; then
      url=$MIRRORS/ECCC-ASTD-MRD+$name/repo
    else
      url=$MIRRORS/$name.git
    fi
    git -C "$dir" config "submodule.$path.url" "$url"
  done < <(git -C "$dir" config -f .gitmodules --get-regexp '^submodule\..*\.url$')
  git -C "$dir" -c protocol.file.allow=always submodule update --init -q || return 1
  for sub in $(git -C "$dir" config -f .gitmodules --get-regexp '^submodule\..*\.path$' | awk '{print $2}'); do
    submodules_from_mirrors "$dir/$sub" || return 1
  done
}

get_sources() {
  if [ -e "$GEM/.git" ]; then
    # an existing tree is taken as it is: say so when it is not at --commit
    [[ $(git -C "$GEM" rev-parse HEAD 2>/dev/null) == "$COMMIT"* ]] ||
      say "$GEM is at $(git -C "$GEM" log -1 --format=%h 2>/dev/null), not at --commit $COMMIT: taken as it is"
    [ -f "$GEM/src/rpn-si/rmn/App/CMakeLists.txt" ] && return 0
    [ -n "$MIRRORS" ] || die "$GEM lacks its submodules (rmn/App); give --mirrors"
  else
    [ -n "$MIRRORS" ] || die "no GEM sources at $GEM: give --gem DIR or --mirrors DIR"
    local origin=$MIRRORS/ECCC-ASTD-MRD+gem/repo
    [ -d "$origin" ] || origin=$MIRRORS/gem.git
    say "cloning GEM from $origin at $COMMIT"
    git clone -q "$origin" "$GEM" && git -C "$GEM" checkout -q "$COMMIT" || die "cannot clone GEM"
  fi
  submodules_from_mirrors "$GEM" || die "cannot fetch GEM's submodules from $MIRRORS"
}

# GEM's environment: its scripts on PATH, GEM_WORK, gem_DIR (.common_setup reads the platform name
# from ORDENV_PLAT, else it puts a '/' into GEM_WORK on Debian)
gem_env() {
  export ORDENV_PLAT=${ORDENV_PLAT:-$(. /etc/os-release && echo "${ID^}-${VERSION_ID}-$(uname -m)")}
  unset WITH_SYSTEM_RPN
  local here=$PWD
  cd "$GEM" || return 1
  set +u    # GEM's setup reads variables that may be unset
  # shellcheck disable=SC1091
  . ./.common_setup gnu >/dev/null 2>&1
  cd "$here" || return 1
  [ -n "${GEM_WORK:-}" ] || { say "GEM's .common_setup gnu failed in $GEM"; return 1; }
}

# --------------------------------------------------------------------------------------------- builds
build_gem() {  # side: orig or ours
  local side=$1 dir=$WORK/build-$1 opts
  if [ "$side" = orig ]; then
    opts=(-DWITH_SYSTEM_RPN=FALSE)
  else
    opts=(-DWITH_SYSTEM_RPN=TRUE "-DCMAKE_PREFIX_PATH=$OURS_PREFIX;$RPN_PREFIX")
  fi
  mkdir -p "$dir"
  (
    gem_env || exit 1
    cd "$dir" || exit 1
    # configured again when the options changed (another --ours-prefix)
    if [ ! -f CMakeCache.txt ] || [ "$(cat .gemrun-options 2>/dev/null)" != "${opts[*]}" ]; then
      say "configuring GEM ($side) in $dir"
      # from scratch: a cache keeps the package directories found before (rpncomm_DIR of another prefix)
      rm -f CMakeCache.txt
      $NICE cmake "$GEM" "${opts[@]}" > cmake.log 2>&1 || { tail -20 cmake.log; exit 1; }
      echo "${opts[*]}" > .gemrun-options
    fi
    say "building GEM ($side): make -j$JOBS $GEM_TARGETS (log $dir/make.log)"
    # maingemdm includes gem_build_info.h without depending on the target that writes it (only
    # `make all` makes it first): made here before the rest
    $NICE make gem_build_info > make.log 2>&1 || { tail -20 make.log; exit 1; }
    # shellcheck disable=SC2086
    $NICE make -j"$JOBS" $GEM_TARGETS >> make.log 2>&1 || { grep -E -B2 -A8 'Error|error:|undefined reference' make.log | head -60; exit 1; }
  ) || return 1
  install_bin "$side"
}

# The programs a run needs, in WORK/bin-SIDE (voir-x.y and fststat-x.y under their plain names)
install_bin() {
  local side=$1 dir=$WORK/build-$1 bin=$WORK/bin-$1 t f
  mkdir -p "$bin"
  for t in $GEM_TARGETS; do
    f=$(find "$dir" -type f -perm -u+x \( -name "$t" -o -name "$t-[0-9]*" -o -name "${t}_[0-9]*" \) \
          -not -path '*/CMakeFiles/*' | head -1)
    [ -n "$f" ] || { say "no program $t in $dir"; return 1; }
    cp -f "$f" "$bin/$t"
  done
}

# rmn, tdpack and vgrid for WITH_SYSTEM_RPN=TRUE, installed from the orig build (its objects and flags)
install_rpn_libs() {
  local dir=$WORK/build-orig sub deps=""
  [ -f "$RPN_PREFIX/.done" ] && [ "$RPN_PREFIX/.done" -nt "$dir/src/rmn/librmn.a" ] && return 0
  say "installing rmn, tdpack, vgrid from $dir into $RPN_PREFIX"
  # librmn 20.1 (GEM 5.3) bundles json-c and udunits2 (rmn/dep), which its CMake package needs
  # installed beside it (find_dependency(json-c), udunits2's targets)
  [ -f "$dir/src/rmn/dep/cmake_install.cmake" ] && deps="json-c json-c-static libudunits2-shared libudunits2-static"
  (
    cd "$dir" || exit 1
    # their install rules name the shared libraries as well (links of the objects already built)
    # shellcheck disable=SC2086
    $NICE make -j"$JOBS" App-shared App-ompi-shared rmn-shared rmn-ompi-shared tdpack-shared vgrid-shared $deps > install-rpn.log 2>&1 || exit 1
    if [ -n "$deps" ]; then
      # rmn's own rules, then App's and the libraries of json-c and udunits2: not rmn's utility
      # programs (utils/), udunits2's program nor its documentation (made only with makeinfo),
      # which no target of a run builds
      cmake -DCMAKE_INSTALL_PREFIX="$RPN_PREFIX" -DCMAKE_INSTALL_LOCAL_ONLY=1 -P src/rmn/cmake_install.cmake >> install-rpn.log 2>&1 || exit 1
      for sub in rmn/App rmn/dep/json-c rmn/dep/udunits2/lib tdpack; do
        cmake -DCMAKE_INSTALL_PREFIX="$RPN_PREFIX" -P "src/$sub/cmake_install.cmake" >> install-rpn.log 2>&1 || exit 1
      done
    else
      for sub in rmn tdpack; do
        cmake -DCMAKE_INSTALL_PREFIX="$RPN_PREFIX" -P "src/$sub/cmake_install.cmake" >> install-rpn.log 2>&1 || exit 1
      done
    fi
    # vgrid's package and library, not its programs (utils/, not built)
    cmake -DCMAKE_INSTALL_PREFIX="$RPN_PREFIX" -DCMAKE_INSTALL_LOCAL_ONLY=1 -P src/vgrid/cmake_install.cmake >> install-rpn.log 2>&1 &&
      cmake -DCMAKE_INSTALL_PREFIX="$RPN_PREFIX" -P src/vgrid/lib/cmake_install.cmake >> install-rpn.log 2>&1 || exit 1
  ) || { tail -20 "$dir/install-rpn.log"; return 1; }
  touch "$RPN_PREFIX/.done"
}

install_ours() {
  if [ "$OURS_PREFIX" != "$WORK/ours-inst" ]; then
    [ -f "$OURS_PREFIX/lib/cmake/rpncomm/rpncommConfig.cmake" ] || die "no rpncomm CMake package in $OURS_PREFIX"
    return 0
  fi
  say "installing rpncomm-windows (MPI=1 MPI_IMPL=$MPI_IMPL) into $OURS_PREFIX"
  $NICE make -C "$PROJECT" install MPI=1 MPI_IMPL=$MPI_IMPL PREFIX="$OURS_PREFIX" \
    BUILD="$WORK/ours-build" RUST_TARGET="$WORK/ours-target" > "$WORK/ours-install.log" 2>&1 \
    || { tail -20 "$WORK/ours-install.log"; return 1; }
}

# ----------------------------------------------------------------------------------------------- runs
# Empty stand-ins for the files of GEM's data archive that the setup links even for analytic cases
make_dbase() {
  local d
  mkdir -p "$DBASE/datafiles/constants" "$DBASE/datafiles/modeldata"
  for d in thermoconsts irtab5_std ozoclim_Fortuin_Kelder1998; do touch "$DBASE/datafiles/constants/$d"; done
  touch "$DBASE/datafiles/modeldata/placeholder"
  for d in geophy climato geophy2 climato+ghg; do mkdir -p "$DBASE/bcmk/$d"; done
}

# The feeder of the +stop cases' time_left pipe (tests/gem/time_left_feed.c), built once
time_left_feed() {
  local tool=$BINS/bin-$1/time_left_feed
  if [ -z "$FROM_KIT" ] && { [ ! -x "$tool" ] || [ "$PROJECT/tests/gem/time_left_feed.c" -nt "$tool" ]; }; then
    cc -O1 -Wall -o "$tool" "$PROJECT/tests/gem/time_left_feed.c" || return 1
  fi
  echo "$tool"
}

# What makes a case's run: GEM's commit, its copied configuration, what the script feeds it
run_settings() {  # case [nodes: default --nodes's]
  local nodes=${2-$NODES}
  echo "gem $(gem_commit) ptopo $(case_ptopo "$1") stop $STOP_STEP" \
       "MALLOC_PERTURB_=${MALLOC_PERTURB_-165} no_output $NO_OUTPUT${nodes:+ nodes $nodes}"
}


# Runs a case in WORK/run-SIDE/CASE: one segment (one runmod.sh) for a plain case; for +stop and
# +restart, segments until GEM ends (status ED), each after the first a restart from the restart
# files the one before left (runmod.sh's NORMAL RESTART mode). listing.N is segment N's listing,
# listing all of them; segments has a line per segment: number, GEM's status, last step.
# The case's configuration, copied from GEM's into DIR/cfg_0000 and changed there
case_cfgs() {  # case dir
  local c=$1 dir=$2 expr nml
  expr=$(case_sed "$c")
  mkdir -p "$dir"
  cp -r "$GEM/share/configurations/$(case_cfg "$c")/cfg_0000" "$dir/"
  nml=$dir/cfg_0000/gem_settings.nml
  [ -n "$expr" ] && sed -i -e "$expr" "$nml"
  if [ -n "$FCST_END" ]; then
    sed -i -e "s/^\( *Fcst_end_S *= *\)[\"'][^\"']*[\"']/\1'$FCST_END'/I" "$nml"
  fi
  case $(case_variant "$c") in
    stop)
      # GEM reads the time left from Path_work_S/../time_left, i.e. RUNMOD/work/time_left
      if grep -qi '^ *&gem_cfgs *$' "$nml"; then
        sed -i -e '/^ *&gem_cfgs *$/I a\  Lctl_cktimeleft_L = .true.' "$nml"
      else
        printf ' &gem_cfgs\n  Lctl_cktimeleft_L = .true.\n/\n' >> "$nml"
      fi ;;
    restart)
      sed -i -e "/^ *&step *\$/I a\\  Fcst_rstrt_S = '$(case_restart_every "$c")'," "$nml" ;;
  esac
  if [ $NO_OUTPUT = 1 ]; then sed -i -e '/^ *sortie/d' "$dir/cfg_0000/outcfg.out"; fi
}

# The `mpirun` that r.run_in_parallel finds first in PATH during a run (RUN/mpirun-bin): with --nodes
# the job across the simulated nodes, through mnrun.sh; with --mpi-prefix only, that Open MPI's
# mpirun.openmpi (its bin/mpirun is a link to /etc/alternatives where it was unpacked from Debian's
# packages). r.run_in_parallel calls `mpirun [-x VAR]... -machinefile FILE -n N PROGRAM` (and
# `mpirun -n 1 which_mpi` to learn the MPI): the machine file (localhost lines) is dropped, mnrun
# names the nodes; the rest goes to the real mpirun, with osc/pt2pt (Debian's Open MPI 4.1 makes
# MPI windows between nodes only with it; GEM makes windows itself, whichever RPN_COMM)
mpirun_shim() {  # run directory: prints the directory
  local d=$1/mpirun-bin
  mkdir -p "$d"
  if [ -z "$NODES" ]; then
    printf '#!/bin/sh\nexec %q "$@"\n' "$MPIRUN" > "$d/mpirun"
  else
    printf '#!/bin/sh\nexec %q --mca osc pt2pt "$@"\n' "$MPIRUN" > "$d/launcher"
    {
      echo '#!/bin/bash'
      echo "# r.run_in_parallel's mpirun across the simulated nodes $NODES (written by tests/gem/run_gem.sh)"
      echo 'args=() np=1'
      echo 'while [ $# -gt 0 ]; do'
      echo '  case $1 in'
      echo '    -machinefile|--machinefile|-hostfile|--hostfile) shift 2 ;;'
      echo '    -n|-np) np=$2; shift 2; break ;;'
      echo '    *) args+=("$1"); shift ;;'
      echo '  esac'
      echo 'done'
      printf 'echo "mpirun (tests/gem/run_gem.sh): $np PEs on the simulated nodes %s" >&2\n' "$NODES"
      printf 'exec %q --impl openmpi --nodes %q --mpirun %q -n "$np" "${args[@]}" "$@"\n' \
        "$PROJECT/tests/multinode/mnrun.sh" "$NODES" "$d/launcher"
    } > "$d/mpirun"
  fi
  chmod +x "$d"/*
  echo "$d"
}

# Whether the run of CASE on SIDE (or the one in DIR, made on NODES) is a finished run of the case as
# it would run now
reusable() {  # side case [dir nodes]
  local rd=${3:-$(run_dir "$1" "$2")} tmp ok=1
  [ -f "$rd/ran" ] && [ "$(run_settings "$2" "${4-$NODES}")" = "$(cat "$rd/settings" 2>/dev/null)" ] || return 1
  tmp=$(mktemp -d) || return 1
  case_cfgs "$2" "$tmp" && diff -r "$tmp" "$rd/cfgs" > /dev/null && ok=0
  rm -rf "$tmp"
  return $ok
}

run_case() {  # side case
  local side=$1 c=$2 rd variant seg=1 status feeder="" feed_pid=""
  rd=$(run_dir "$side" "$c")
  variant=$(case_variant "$c")
  rm -rf "$rd"; mkdir -p "$rd"
  case_cfgs "$c" "$rd/cfgs"
  if [ "$variant" = stop ]; then
    feeder=$(time_left_feed "$side") || { say "cannot build $PROJECT/tests/gem/time_left_feed.c"; return 1; }
  fi
  run_settings "$c" > "$rd/settings"
  say "running $c on $side: -ptopo $(case_ptopo "$c") (listing $rd/listing)"
  : > "$rd/segments"
  while :; do
    if [ -n "$feeder" ] && [ $seg = 1 ]; then
      # the pipe is made once runmod.sh's setup (which empties RUNMOD) is done, before GEM starts
      ( until [ -d "$rd/RUNMOD/work/cfg_0000" ]; do sleep 0.1; done
        exec "$feeder" "$rd/RUNMOD/work/time_left" "$STOP_STEP" ) > "$rd/time_left_feed.log" 2>&1 &
      feed_pid=$!
    fi
    (
      gem_env || exit 1
      export PATH=$BINS/bin-$side:$PATH ATM_MODEL_DFILES=$DBASE CMCCONST=$DBASE/datafiles/constants
      # OMPI_MCA_shmem=posix: with Open MPI 4.1's default (mmap), MPI_Win_allocate on the Yin and the
      # Yang 'GRID' at once fails now and then, on either build (docs/gem.md, "Running GEM")
      export OMPI_MCA_rmaps_base_oversubscribe=1 MAX_CORES=8 OMP_NUM_THREADS=$THREADS OMPI_MCA_shmem=${OMPI_MCA_shmem:-posix}
      if [ "$THREADS" -gt 1 ]; then export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}; fi
      # MALLOC_PERTURB_: glibc fills each block malloc hands out with one byte value. librmn writes
      # half of every directory page of an output file as malloc handed it out (xdf98.c's
      # add_dir_page clears the first half only), so those bytes are otherwise whatever the process
      # freed there before, which changes with anything the process did (docs/gem.md); 0 leaves
      # the heap as it is
      export MALLOC_PERTURB_=${MALLOC_PERTURB_-165}
      if [ -n "$NODES" ] || [ -n "$MPI_PREFIX" ]; then export PATH=$(mpirun_shim "$rd"):$PATH; fi
      if [ "$(id -u)" = 0 ]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi
      cd "$rd" || exit 1
      ln -sfn "$GEM/share/configurations" configurations
      runmod.sh -dircfg "$rd/cfgs" -ptopo "$(case_ptopo "$c")" > "listing.$seg" 2>&1
    )
    if [ -n "$feed_pid" ]; then
      kill "$feed_pid" 2>/dev/null; wait "$feed_pid" 2>/dev/null; feed_pid=""
      # the run goes on without it: no file is a time left without end
      rm -f "$rd/RUNMOD/work/time_left"
    fi
    # rungem.sh reads the status the model left (status_MOD.dot): ED at its end, RS when it stopped
    # to be restarted
    status=$(sed -n 's/.*STATUS_FROM_DOMAIN: cfg_0000 \([A-Z]*\).*/\1/p' "$rd/listing.$seg" | tail -n 1)
    echo "$seg ${status:-none} $(awk '/END OF THE TIME LOOP AT TIMESTEP/ {s = $NF} END {print s + 0}' "$rd/listing.$seg")" >> "$rd/segments"
    [ -n "$variant" ] && [ "$status" = RS ] && case_continues "$c" && [ $seg -lt 50 ] || break
    seg=$((seg + 1))
  done
  local n
  for ((n = 1; n <= seg; n++)); do cat "$rd/listing.$n"; done > "$rd/listing"
  if [ -n "$variant" ] && ! case_continues "$c"; then
    [ "$status" = RS ] && { touch "$rd/ran"; return 0; }
    say "$c on $side did not stop (status ${status:-none}): tail of $rd/listing.$seg"
  elif [ "$status" = ED ] && [ -n "$variant" ] && [ $seg = 1 ]; then
    say "$c on $side never stopped before its end"
  elif [ "$status" = ED ]; then
    touch "$rd/ran"; return 0
  else
    say "$c on $side did not end normally (segments: $(tr '\n' ';' < "$rd/segments")): tail of $rd/listing.$seg"
  fi
  tail -15 "$rd/listing.$seg"; return 1
}

# ------------------------------------------------------------------------------------------ comparison
# Seconds per model step: GEM's own timer of the dynamics step, DYNSTEP, over its count. Its table on
# PE 0 is modelutils' timing_terminate2 by default ("| 10|  DYNSTEP |  x%:  y%| min : max |  count|",
# the seconds of the fastest and slowest PE: the slowest is taken), gtmg's with GEMDYN_TIMING=DYN
# ("DYNSTEP ( 10) Wall clock= <s> count= <n>")
secs_per_step() {  # listing
  awk '/DYNSTEP/ && /Wall clock=/ {
         for (i = 1; i < NF; i++) { if ($i == "clock=") w = $(i + 1); if ($i == "count=") c = $(i + 1) }
       }
       /^\|/ && /DYNSTEP/ {
         n = split($0, f, "|"); split(f[5], t, ":"); w = t[2] + 0; c = f[6] + 0
       }
       END { if (c > 0) printf "%.3f", w / c; else printf "?" }' "$1"
}

# The per-step statistics GEM prints (glbstat: a "Mean:" line that starts with the step number and the
# "Min:/Max:" line after it, most of them in the "BLOC STAT <step>" blocks of blocstat.F90), every one
# of the listing, sorted. With two grids (Yin-Yang) the PE 0 of each writes into the same listing and
# their lines interleave in any order (a grid's line can fall between the other's two, or inside the
# other's block), so the statistics are compared as a sorted set of lines, each "Mean:" line naming
# its step and field.
blocstat() {  # listing
  grep -E '^ *-?[0-9]+ *[^ ]+ +Mean:|^ Min:\[\(' "$1" | LC_ALL=C sort
}
# The steps with statistics in a blocstat output
stat_steps() {  # file (glbstat writes the step as i4, the field's name right after it)
  awk '/Mean:/ {print substr($0, 1, 4) + 0}' "$1" | sort -u | wc -l
}

# The records of two RPN standard files compared bit for bit (tests/gem/fst_records.f90, built once
# with the rmn of the orig build): prints its report, returns 0 when every record is identical.
fst_records() {  # A B
  local tool=$BINS/bin-orig/fst_records deps=()
  # librmn 20.1 (GEM 5.3) needs its bundled json-c and udunits2, and libxml2 and expat
  [ -f "$RPN_PREFIX/lib/libudunits2.a" ] && deps=("$RPN_PREFIX/lib/libjson-c.a" "$RPN_PREFIX/lib/libudunits2.a" -lxml2 -lexpat)
  if [ -z "$FROM_KIT" ] && { [ ! -x "$tool" ] || [ "$PROJECT/tests/gem/fst_records.f90" -nt "$tool" ]; }; then
    mpifort.openmpi -O1 -fopenmp -ffree-line-length-none -J "$WORK" "$PROJECT/tests/gem/fst_records.f90" -o "$tool" \
      "$RPN_PREFIX/lib/librmn-ompi.a" "$RPN_PREFIX/lib/libApp-ompi.a" "${deps[@]}" > "$WORK/fst_records.build.log" 2>&1 ||
      { say "fst_records does not build (see $WORK/fst_records.build.log)"; return 2; }
  fi
  "$tool" "$1" "$2" 2>&1 | grep -E '^ +[0-9]+ |^records:|^other'
  return "${PIPESTATUS[0]}"
}

# The listing of a run in segments without what each continuation prints before its first step
# (the statistics of the fields it starts from, which the segment before printed, or not, as the
# step's own): each segment from the line after its last "PERFORMING TIMESTEP" of its first step
# (one per grid; a grid's PE 0 prints its own lines in order)
continued_listing() {  # run directory
  local n=1
  cat "$1/listing.1"
  while [ -f "$1/listing.$((++n))" ]; do
    awk 'FNR == NR { if (/PERFORMING TIMESTEP #/ && (first == "" || $5 + 0 == first)) { first = $5 + 0; last = FNR }; next }
         FNR > last' "$1/listing.$n" "$1/listing.$n"
  done
}

# Run directory B against A: the statistics and every output file. Sets CMP_NF (files), CMP_ND
# (files whose records differ, or missing in B), CMP_NB (files in other bytes whose records are all
# identical), CMP_STEPS (steps with statistics in A); returns 0 when identical. With "restart", B is
# a run continued from restart files and A the same run uninterrupted: GEM puts each segment's
# files in the directory of the step where it stopped (laststep_N, for its post-processing), so
# files are matched by their path below it.
compare_runs() {  # A B label [restart]
  local a=$1 b=$2 label=$3 ok=1 f rel n fb sa=$1/blocstat sb=$2/blocstat
  local -A in_b=()
  CMP_NF=0; CMP_ND=0; CMP_NB=0
  while IFS= read -r f; do
    in_b[$(output_key "${f#"$b/RUNMOD/output/"}" "${4:-}")]=$f
  done < <(output_files "$b")
  blocstat "$a/listing" > "$sa"
  if [ "${4:-}" = restart ]; then
    sb=$b/blocstat.continued
    blocstat <(continued_listing "$b") > "$sb"
  else
    blocstat "$b/listing" > "$sb"
  fi
  CMP_STEPS=$(stat_steps "$sa")
  if [ "$CMP_STEPS" = 0 ] || ! cmp -s "$sa" "$sb"; then
    ok=0; say "$label: statistics differ ($CMP_STEPS steps in $sa, $(stat_steps "$sb") in $sb; $(wc -l < "$sa") and $(wc -l < "$sb") lines); first differences:"
    diff "$sa" "$sb" | head -6
  fi
  while IFS= read -r f; do
    rel=${f#"$a/RUNMOD/output/"}
    CMP_NF=$((CMP_NF + 1))
    fb=${in_b[$(output_key "$rel" "${4:-}")]:-}
    unset "in_b[$(output_key "$rel" "${4:-}")]"
    if [ -z "$fb" ]; then ok=0; CMP_ND=$((CMP_ND + 1)); say "$label: $rel missing in $b"; continue; fi
    cmp -s "$f" "$fb" && continue
    # other bytes: the records bit for bit (the same values in other bytes count as identical:
    # docs/gem.md says when that happens); where they differ, each record's statistics (fststat's
    # "Mean:" lines, run where the file is so that the listings name it alike) and GEM's field by
    # field comparison (fstcomp), to see what differs
    n=$(basename "$rel")
    if fst_records "$f" "$fb" > "$b/fst_records.$n"; then
      CMP_NB=$((CMP_NB + 1))
      say "$label: $rel: other bytes, every record identical bit for bit ($(tail -n 1 "$b/fst_records.$n"); $b/fst_records.$n)"
      continue
    fi
    ok=0; CMP_ND=$((CMP_ND + 1))
    (cd "$(dirname "$f")" && "$BINS/bin-orig/fststat" -fst "$n" 2>&1) | grep ' Mean:' > "$a/fststat.$n"
    (cd "$(dirname "$fb")" && "$BINS/bin-orig/fststat" -fst "$n" 2>&1) | grep ' Mean:' > "$b/fststat.$n"
    "$BINS/bin-orig/fstcomp" -a "$f" -b "$fb" > "$b/fstcomp.$n" 2>&1
    say "$label: $rel: records differ ($(tail -n 1 "$b/fst_records.$n"): $b/fst_records.$n; fststat's first differences below, fstcomp in $b/fstcomp.$n):"
    diff "$a/fststat.$n" "$b/fststat.$n" | head -6
  done < <(output_files "$a")
  # the files of B that A lacks
  for f in "${in_b[@]}"; do ok=0; CMP_ND=$((CMP_ND + 1)); say "$label: ${f#"$b/RUNMOD/output/"} only in $b"; done
  [ "$CMP_NF" -gt 0 ] || [ $NO_OUTPUT = 1 ] || { ok=0; say "$label: no output file in $a/RUNMOD/output"; }
  [ $ok = 1 ]
}

# The output files of a run (its records; not the lists and flags of GEM's post-processing)
output_files() {  # run directory
  find "$1/RUNMOD/output" -type f -not \( -name '*.cfg' -o -name '*.dot' -o -name 'output_ready*' \
    -o -name 'output_done' -o -name '*.lis' -o -name 'last_npass' -o -name '*.txt' \) 2>/dev/null | sort
}
# The name under which an output file is matched with the other run's: its path, or for a
# continued run its path without GEM's laststep_N directory
output_key() {  # path [restart]
  if [ "${2:-}" = restart ]; then sed -E 's#(^|/)laststep_-?[0-9]+/#\1#' <<< "$1"; else echo "$1"; fi
}

# What a comparison found, in words, for the tables
cmp_words() {  # identical?
  local what="$CMP_NF files, $CMP_ND differ"
  [ "$CMP_NB" -gt 0 ] && what="$what, $CMP_NB in other bytes with every record identical"
  [ "$CMP_NB" = 0 ] && [ "$CMP_ND" = 0 ] && what="$CMP_NF files byte-identical"
  if [ "$1" = 0 ]; then echo "yes ($what; $CMP_STEPS steps of statistics)"; else echo "NO ($what; $CMP_STEPS steps of statistics)"; fi
}

compare_case() {  # case: prints one table row, returns 0 when identical
  local c=$1 ok words one
  compare_runs "$(run_dir orig "$c")" "$(run_dir ours "$c")" "$c"; ok=$?
  words=$(cmp_words $ok)
  BYTES[$c]=$([ $ok = 0 ] && [ "$CMP_NB" = 0 ] && echo yes || { [ $ok = 0 ] && echo "no: $CMP_NB of $CMP_NF files in other bytes, records identical"; } || echo "no: differ")
  if [ -n "$NODES" ]; then
    one_node "$c" || ok=1
    ROW="| $c | $NODES | $(case_pes "$c") ($(case_ptopo "$c")) | $words | $ONE_WORDS | $(secs_per_step "$(run_dir ours "$c")/listing") | $(secs_per_step "$(run_dir orig "$c")/listing") |"
  else
    ROW="| $c | $(case_pes "$c") ($(case_ptopo "$c")) | $words | $(secs_per_step "$(run_dir ours "$c")/listing") | $(secs_per_step "$(run_dir orig "$c")/listing") |"
  fi
  return $ok
}

# With --nodes: each side's run on the simulated nodes against its one-node run of the same case
# and settings (WORK/run-SIDE/CASE, from a run without --nodes), where there is one. Prints the
# words of the table in ONE_WORDS, the sides without a one-node run added to ONE_MISSING; returns 1
# when one differs
ONE_MISSING=""
one_node() {  # case
  local c=$1 s ok=0 one
  ONE_WORDS=""
  for s in $SIDES; do
    one=$WORK/run-$s/$c
    if ! reusable "$s" "$c" "$one" ""; then
      ONE_WORDS="$ONE_WORDS${ONE_WORDS:+; }$s: no one-node run with these settings in $one"
      ONE_MISSING="$ONE_MISSING $c/$s"; continue
    fi
    if compare_runs "$one" "$(run_dir "$s" "$c")" "$c on $s, one node against $NODES"; then
      ONE_WORDS="$ONE_WORDS${ONE_WORDS:+; }$s: $(cmp_words 0)"
    else
      ONE_WORDS="$ONE_WORDS${ONE_WORDS:+; }$s: $(cmp_words 1)"; ok=1
    fi
  done
  return $ok
}

# The steps at which a +stop or +restart run stopped (its segments but the last), and its statistics
# and files against the same build's uninterrupted run: one row of the second table
compare_variant() {  # side case: prints one row, returns 0 when the continued run is identical
  local side=$1 c=$2 rd base stops ok=0 same bytes="—"
  rd=$(run_dir "$side" "$c")
  base=$(case_base "$c")
  stops=$(awk '$2 == "RS" {printf "%s%s", (NR > 1 ? ", " : ""), $3}' "$rd/segments")
  if [ "$(case_variant "$c")" = stop ] && [ "$(head -n 1 "$rd/segments" | awk '{print $3}')" != "$STOP_STEP" ]; then
    say "$c on $side: the stop fired at step $(head -n 1 "$rd/segments" | awk '{print $3}'), not at $STOP_STEP"; ok=1
  fi
  if ! case_continues "$c"; then
    same="not continued (limited area: a restart reads the analysis again)"
  elif compare_runs "$(run_dir "$side" "$base")" "$rd" "$c on $side against $base" restart; then
    same=$(cmp_words 0)
  else
    same=$(cmp_words 1); ok=1
  fi
  [ "$side" = ours ] && bytes=${BYTES[$c]:-not compared}
  ROW="| $c | $side | $stops | $same | $bytes |"
  return $ok
}

# ------------------------------------------------------------------------------------------------- kit
# What the runs need, packed into a .tar.gz for a machine without compilers (the script's header,
# "A kit for another machine"): GEM's run scripts and configurations, the programs of both builds,
# the shared libraries they load but glibc's and Open MPI's, and the scripts of tests/gem and
# tests/multinode
make_kit() {
  local name tmp k s f lib
  name=$(basename "$KIT" .tar.gz)
  tmp=$WORK/kit.tmp
  k=$tmp/$name
  rm -rf "$tmp"; mkdir -p "$k/gem/src" "$k/lib" "$k/tests" || return 1
  # GEM: the environment (.common_setup and what it sources and runs), the scripts runmod.sh calls,
  # the configurations, the physics input tables (src/rpnphy/include); no sources
  (cd "$GEM" && cp -pr .common_setup _cado cado MANIFEST utils scripts share "$k/gem/") || return 1
  for s in gemdyn modelutils rpnphy; do
    mkdir -p "$k/gem/src/$s"
    for f in MANIFEST bin share include; do
      [ -e "$GEM/src/$s/$f" ] && { cp -pr "$GEM/src/$s/$f" "$k/gem/src/$s/" || return 1; }
    done
  done
  gem_commit > "$k/gem/.gemrun-commit"
  for s in orig ours; do
    [ -x "$WORK/bin-$s/maingemdm" ] || { say "no $WORK/bin-$s/maingemdm to pack"; return 1; }
    mkdir -p "$k/bin-$s" && cp -pL "$WORK/bin-$s"/* "$k/bin-$s/" || return 1
  done
  # their shared libraries, but glibc's (the other machine's own) and Open MPI's (and what only
  # Open MPI loads: hwloc, libevent, udev, zlib: the Open MPI runtime brings them)
  for lib in $(for f in "$k"/bin-*/*; do ldd "$f" 2>/dev/null; done | awk '$2 == "=>" && $3 ~ /^\// {print $3}' | sort -u); do
    case $(basename "$lib") in
      libc.so*|libm.so*|libmvec.so*|ld-linux*|libpthread.so*|libdl.so*|librt.so*|libutil.so*) continue ;;
      libmpi*|libopen-*|libpmix*|libhwloc*|libevent*|libudev*|libz.so*|libfabric*|libucp*|libucs*|libuct*|libibverbs*|librdmacm*|libpsm*) continue ;;
    esac
    cp -L "$lib" "$k/lib/" || return 1
  done
  mkdir -p "$k/tests/gem" "$k/tests/multinode"
  cp -p "$PROJECT"/tests/gem/* "$k/tests/gem/" && cp -p "$PROJECT"/tests/multinode/mnrun.sh "$PROJECT"/tests/multinode/agent.sh "$k/tests/multinode/" || return 1
  tar -C "$tmp" -czf "$KIT" "$name" || return 1
  say "kit: $KIT ($(du -h "$KIT" | cut -f1); libraries: $(ls "$k/lib" | tr '\n' ' '))"
  rm -rf "$tmp"
}

# ----------------------------------------------------------------------------------------------- main
[ -z "$FROM_KIT" ] && get_sources
if [ $BUILD = 1 ]; then
  if [[ " $SIDES " == *" orig "* ]] || [ ! -f "$RPN_PREFIX/.done" ]; then
    build_gem orig || die "GEM with its own RPN_COMM does not build (see $WORK/build-orig/make.log)"
  fi
  if [[ " $SIDES " == *" ours "* ]]; then
    install_rpn_libs || die "cannot install rmn/tdpack/vgrid from the orig build"
    install_ours || die "cannot install rpncomm-windows (see $WORK/ours-install.log)"
    build_gem ours || die "GEM with rpncomm-windows does not build (see $WORK/build-ours/make.log)"
  fi
fi
if [ -n "$KIT" ]; then
  case $KIT in /*) ;; *) KIT=$PWD/$KIT ;; esac
  make_kit || die "cannot pack the kit $KIT"
  echo "VERDICT: KIT ($KIT)"; exit 0
fi
make_dbase
fails=""
for c in ${CASES//,/ }; do
  for s in $SIDES; do
    if [ "$s" = "$REUSE" ]; then
      if reusable "$s" "$c"; then
        say "$c on $s: the run of $(date -r "$(run_dir "$s" "$c")/ran" -u '+%F %T UTC') in $(run_dir "$s" "$c") (--reuse)"; continue
      fi
      say "$c on $s: no finished run in $(run_dir "$s" "$c") with these settings to reuse: running it"
    fi
    run_case "$s" "$c" || fails="$fails $c/$s"
  done
done
declare -A BYTES
variants=""
for c in ${CASES//,/ }; do [ -n "$(case_variant "$c")" ] && variants="$variants $c"; done
if [ -n "$ONLY" ]; then
  [ -z "$fails" ] || die "runs failed: ${fails# }"
  restarts=""
  if [ -n "$variants" ]; then
    echo "| case | build | stopped at step | continued run identical to the uninterrupted one? | byte-identical to orig's? |"
    echo "| --- | --- | --- | --- | --- |"
    for c in $variants; do
      compare_variant "$ONLY" "$c" || restarts="$restarts $c"
      echo "$ROW"
    done
  fi
  [ -z "$restarts" ] || die "continued runs differ from the uninterrupted ones: ${restarts# }"
  echo "VERDICT: RAN ($ONLY only: ${CASES//,/ })"; exit 0
fi
if [ -n "$NODES" ]; then
  echo "| case | nodes | PEs | identical? | identical to one node? | s/step ours | s/step orig |"
  echo "| --- | --- | --- | --- | --- | --- | --- |"
else
  echo "| case | PEs | identical? | s/step ours | s/step orig |"
  echo "| --- | --- | --- | --- | --- |"
fi
differ=""
for c in ${CASES//,/ }; do
  if [[ " $fails " == *" $c/"* ]]; then
    echo "| $c |${NODES:+ $NODES |} $(case_pes "$c") ($(case_ptopo "$c")) | not run:$(echo "$fails" | tr ' ' '\n' | grep "^$c/" | tr '\n' ' ')failed |${NODES:+ |} | |"
    continue
  fi
  compare_case "$c" || differ="$differ $c"
  echo "$ROW"
done
if [ -n "$variants" ]; then
  echo
  echo "| case | build | stopped at step | continued run identical to the uninterrupted one? | byte-identical to orig's? |"
  echo "| --- | --- | --- | --- | --- |"
  for c in $variants; do
    for s in $SIDES; do
      if [[ " $fails " == *" $c/$s "* || " $fails " == *" $(case_base "$c")/$s "* ]]; then
        echo "| $c | $s | not run | | |"; continue
      fi
      compare_variant "$s" "$c" || [[ " $differ " == *" $c "* ]] || differ="$differ $c"
      echo "$ROW"
    done
  done
fi
if [ -n "$fails" ]; then echo "VERDICT: FAILED (runs failed: ${fails# }${differ:+; differ: ${differ# }})"; exit 1; fi
if [ -n "$differ" ]; then echo "VERDICT: DIFFERENT (${differ# })"; exit 1; fi
what="every output record and every statistics line"
[ $NO_OUTPUT = 1 ] && what="every statistics line (no output: --no-output)"
[ -n "$variants" ] && what="$what; the stopped and continued runs as the uninterrupted ones"
nodes=""
if [ -n "$NODES" ]; then
  nodes="; across the simulated nodes $NODES"
  if [ -n "$ONE_MISSING" ]; then nodes="$nodes (no one-node run to compare with: ${ONE_MISSING# })"
  else nodes="$nodes, each side as on one node"; fi
fi
echo "VERDICT: IDENTICAL (${CASES//,/ }: $what of GEM on rpncomm-windows as on its own RPN_COMM$nodes)"
