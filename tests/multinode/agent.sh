#!/usr/bin/env bash
# The "ssh" of the simulated nodes (tests/multinode/mnrun.sh): mpirun's rsh agent (Open MPI) and
# hydra's launcher-exec (MPICH) call it as `agent.sh [ssh options] HOST COMMAND...`; it runs
# COMMAND by /bin/sh (as sshd would) inside HOST's namespaces: network, hostname, mount (its own
# /dev/shm and /etc/hosts). RPNMN_STATE (set by mnrun.sh) holds HOST.pid, the pid of the process
# holding them.
set -u
while [[ $# -gt 0 && $1 == -* ]]; do
    case $1 in
        -l | -p | -o | -i | -F) shift 2 ;;   # ssh options with a value
        *) shift ;;                           # -x, -q, -T, ...
    esac
done
host=${1:-}
shift || true
if [[ -z "$host" || -z "${RPNMN_STATE:-}" || ! -s "$RPNMN_STATE/$host.pid" ]]; then
    echo "agent.sh: no simulated node '$host' (RPNMN_STATE=${RPNMN_STATE:-unset})" >&2
    exit 255
fi
exec nsenter -t "$(cat "$RPNMN_STATE/$host.pid")" --net --uts --ipc --mount --wd="$PWD" -- /bin/sh -c "$*"
