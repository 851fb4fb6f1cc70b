# shellcheck shell=bash
# What a job can leave behind once it has ended: the library's shared-memory files, the MPIs' own
# segments and Open MPI's session directories. Read by tests/run_fortran_tests.sh (after every
# case), tests/check.sh and mpi/check_mpi.sh (once at the end: a leftover fails make check).
#
#   /dev/shm/rpncomm*            the library's (job segment, windows)
#   /dev/shm/mpich_shm_*         MPICH 4 and 5: removed at MPI_Finalize only, so a rank that is
#                                killed or aborts leaves them
#   /dev/shm/vader_segment.*     Open MPI 4.1 (btl/vader): removed by mpirun when the job ends
#   /dev/shm/sm_segment.*        Open MPI 5 (btl/sm), the same
#   $TMPDIR/ompi.<host>.<uid>/pid.<mpirun pid>   Open MPI 4.1's session directory of a job
#   $TMPDIR/ompi.<mpirun pid>                    Open MPI 5's (PRRTE)
# Open MPI's are left when mpirun itself is killed (SIGKILL after a timeout): seen with Open MPI
# 4.1.4 (Debian) and 5.0.11 (PyPI) on this machine, each job of 3 ranks leaving one segment per
# rank and its session directory.
#
# ompi_private_dirs sends Open MPI's segments and session directories of the jobs started with
# the environment it sets ("${ompi_env[@]}" before the launcher) into directories of the caller's
# own, so that what another user's job leaves at the same time is not taken for ours; they are
# scanned like /dev/shm and $TMPDIR.
#
#   leftover_snapshot            one line per entry there now: "shm NAME" or "dir PATH"
#   leftovers_since SNAPSHOT     the entries new since SNAPSHOT that no live process uses (a
#                                segment mapped or open, a session directory whose pid lives)
#   remove_leftover ENTRY        removes one of them
#   shm_matching GLOBS           paths below /dev/shm of the entries matching the space-separated GLOBS
#   shm_in_use NAME              true if a live process maps /dev/shm/NAME or holds it open

MPI_SHM_GLOBS='mpich_shm_* vader_segment.* sm_segment.*'
LEFTOVER_SHM_GLOBS="rpncomm* $MPI_SHM_GLOBS"
# extra /dev/shm globs and session directory bases (ompi_private_dirs adds to them)
LEFTOVER_TMP_BASES=("${TMPDIR:-/tmp}")
ompi_env=()

# ompi_private_dirs TAG: makes /dev/shm/TAG and ${TMPDIR:-/tmp}/TAG, sets ompi_env to the
# environment that sends Open MPI's backing files and session directories there, and scans them
# for leftovers; remove_private_dirs removes them again
ompi_private_dirs() {
    OMPI_PRIVATE_SHM=/dev/shm/$1
    OMPI_PRIVATE_TMP=${TMPDIR:-/tmp}/$1
    mkdir -p "$OMPI_PRIVATE_SHM" "$OMPI_PRIVATE_TMP" || return 1
    local p
    ompi_env=(env TMPDIR="$OMPI_PRIVATE_TMP")
    for p in btl_vader btl_sm osc_sm osc_rdma; do
        ompi_env+=("OMPI_MCA_${p}_backing_directory=$OMPI_PRIVATE_SHM")
    done
    LEFTOVER_SHM_GLOBS="$LEFTOVER_SHM_GLOBS $1/*"
    LEFTOVER_TMP_BASES+=("$OMPI_PRIVATE_TMP")
}

remove_private_dirs() {
    [[ -n "${OMPI_PRIVATE_SHM:-}" ]] && rm -rf -- "$OMPI_PRIVATE_SHM" "$OMPI_PRIVATE_TMP"
}

shm_matching() {
    local g f globs
    read -r -a globs <<< "$1"
    for g in "${globs[@]}"; do
        for f in /dev/shm/$g; do
            [[ -e "$f" ]] && printf '%s\n' "${f#/dev/shm/}"
        done
    done | LC_ALL=C sort -u
}

shm_in_use() {
    local fd
    grep -qsF "/dev/shm/$1" /proc/[0-9]*/maps 2>/dev/null && return 0
    for fd in /proc/[0-9]*/fd/*; do
        [[ "$(readlink "$fd" 2>/dev/null)" == "/dev/shm/$1" ]] && return 0
    done
    return 1
}

# the job session directories of Open MPI 4.1 (below the per-user directory, which stays: the
# user's jobs share it) and 5
session_dirs() {
    local d b
    for b in "${LEFTOVER_TMP_BASES[@]}"; do
        for d in "$b"/ompi.*/pid.* "$b"/ompi.*; do
            [[ -d "$d" && "${d##*/}" =~ ^(pid|ompi)\.[0-9]+$ ]] && printf '%s\n' "$d"
        done
    done | LC_ALL=C sort -u
}

# true if the pid in a session directory's name (pid.123, ompi.123) is a live process
session_alive() {
    local base=${1##*/}
    [[ "$base" =~ ^[a-z]+\.([0-9]+)$ ]] && [[ -d "/proc/${BASH_REMATCH[1]}" ]]
}

leftover_snapshot() {
    {
        shm_matching "$LEFTOVER_SHM_GLOBS" | sed 's/^/shm /'
        session_dirs | sed 's/^/dir /'
    } | LC_ALL=C sort
}

leftovers_since() {
    local e
    while IFS= read -r e; do
        case $e in
            "shm "*) shm_in_use "${e#shm }" || printf '%s\n' "$e" ;;
            "dir "*) session_alive "${e#dir }" || printf '%s\n' "$e" ;;
        esac
    done < <(LC_ALL=C comm -13 <(printf '%s\n' "$1") <(leftover_snapshot))
}

remove_leftover() {
    case $1 in
        "shm "*) rm -f -- "/dev/shm/${1#shm }" ;;
        "dir "*) rm -rf -- "${1#dir }" ;;
    esac
}
