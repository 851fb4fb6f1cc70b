#!/usr/bin/env bash
# mnrun: runs one MPI job across simulated nodes on this machine.
#
#   tests/multinode/mnrun.sh [options] -n NP program [args...]
#     --nodes 2,2       slots per node (default 2,2: two nodes of two PEs); node i is named n<i>
#     --impl openmpi|mpich   which launcher family (default openmpi)
#     --mpirun CMD      the launcher (default mpirun.openmpi / mpiexec.mpich)
#     --map-by node     PE i on node i mod N (round robin: two or more PEs always span nodes);
#                       by default the nodes are filled in order, each up to its slots
#     --separate-memory each node also has its own System V IPC and its own boot id: an MPI that
#                       decides "same machine" by them (UCX, under Debian's MPICH) then talks to
#                       other nodes over TCP, as between real nodes, instead of shared memory and
#                       cross-memory attach. Off by default: with it, UCX 1.13's TCP transport
#                       hangs in MPI_Finalize in about 1 job of 5, plain MPI programs included
#                       (openucx/ucx issue 8738). Open MPI goes over TCP between nodes either way.
#
# A node is a network namespace with its own loopback, one veth into a switch namespace (a bridge,
# addresses 10.213.7.<i>/24 that exist only inside these namespaces), its own hostname (UTS
# namespace), its own /dev/shm (a tmpfs in its own mount namespace: MPIs decide "same node" by
# hostname and name their shared-memory segments after it, so two simulated nodes must not see each
# other's segments) and its own /etc/hosts (a bind mount of our file: the real one is not touched).
# Each node's namespaces are held by one `sleep` process ("the holder"); processes enter them with
# nsenter. mpirun itself runs in the switch namespace under the hostname "head", so every PE is
# on a remote node: Open MPI reaches them through --mca plm_rsh_agent, MPICH's hydra through
# -launcher-exec, both with tests/multinode/agent.sh in place of ssh.
#
# Exit status: the job's; 125 when the job passed but left a process or a /dev/shm file on a node
# (listed on stderr, and appended to the file $RPNMN_LEFTOVERS when set: a job that fails, as
# fault tests must, keeps its own status); 77 with "SKIP: ..." when not root or the tools are missing.
# Clean-up (trap on EXIT, INT, TERM, HUP): every process in our namespaces is killed by pid, the
# namespaces are deleted (with them the bridge and the veth pairs); nothing is left in the root
# namespace, which this script never changes. RPNMN_STATE names the state directory (for agent.sh).
set -u

here=$(cd "$(dirname "$0")" && pwd)
nodes="2,2"
impl=openmpi
mpirun=""
np=""
map_by=slot
separate=0
while (($#)); do
    case $1 in
        --nodes) nodes=$2; shift 2 ;;
        --impl) impl=$2; shift 2 ;;
        --mpirun) mpirun=$2; shift 2 ;;
        --map-by) map_by=$2; shift 2 ;;
        --separate-memory) separate=1; shift ;;
        -n | -np) np=$2; shift 2; break ;;
        *) echo "mnrun: unknown option '$1'" >&2; exit 2 ;;
    esac
done
if [[ -z "$np" || $# -eq 0 ]]; then
    echo "usage: mnrun.sh [--nodes 2,2] [--map-by node] [--separate-memory] [--impl openmpi|mpich] [--mpirun CMD] -n NP program [args...]" >&2
    exit 2
fi
if [[ "$(id -u)" != 0 ]]; then
    echo "SKIP: mnrun needs root (network, UTS and mount namespaces)"
    exit 77
fi
for tool in ip nsenter unshare; do
    command -v "$tool" > /dev/null || { echo "SKIP: mnrun needs '$tool'"; exit 77; }
done
case $impl in
    openmpi) mpirun=${mpirun:-mpirun.openmpi} ;;
    mpich) mpirun=${mpirun:-mpiexec.mpich} ;;
    *) echo "mnrun: --impl openmpi or mpich" >&2; exit 2 ;;
esac
IFS=", " read -r -a slots <<< "$nodes"
nnodes=${#slots[@]}
((nnodes >= 1 && nnodes <= 200)) || { echo "mnrun: 1 to 200 nodes" >&2; exit 2; }

# Names unique to this run: other runs (and other users' namespaces) are never touched.
tag=rpnmn$$
switch=$tag-sw
state=$(mktemp -d "/tmp/$tag.XXXXXX")
export RPNMN_STATE=$state
holders=()
cleaned=0

# every pid in namespace $1 (processes a job left there), holder included
ns_pids() { ip netns pids "$1" 2> /dev/null; }

cleanup() {
    ((cleaned)) && return
    cleaned=1
    local ns pid i
    trap '' INT TERM HUP
    # job processes first (TERM, then KILL), then the holders; all by pid
    for sig in TERM KILL; do
        for ns in "$switch" $(seq -f "$tag-n%g" 1 "$nnodes"); do
            for pid in $(ns_pids "$ns"); do kill "-$sig" "$pid" 2> /dev/null; done
        done
        [[ $sig == TERM ]] && sleep 0.2
    done
    for pid in "${holders[@]}"; do kill -KILL "$pid" 2> /dev/null; done
    for pid in "${holders[@]}"; do wait "$pid" 2> /dev/null; done
    for i in $(seq 1 "$nnodes"); do ip netns delete "$tag-n$i" 2> /dev/null; done
    ip netns delete "$switch" 2> /dev/null
    rm -rf "$state"
}
trap 'cleanup' EXIT
trap 'echo "mnrun: interrupted" >&2; exit 130' INT
trap 'echo "mnrun: terminated" >&2; exit 143' TERM HUP

fail_setup() {
    echo "mnrun: cannot set up the simulated nodes: $*" >&2
    exit 1
}

# hosts file of every namespace
{
    echo "127.0.0.1 localhost"
    echo "10.213.7.254 head"
    for i in $(seq 1 "$nnodes"); do echo "10.213.7.$i n$i"; done
} > "$state/hosts"

# start_holder NETNS HOSTNAME: the process holding a node's UTS and mount namespaces (in NETNS);
# its pid is written to $state/<hostname>.pid once the node is ready.
start_holder() {
    local netns=$1 name=$2
    local own=()
    if ((separate)); then
        own=(--ipc)
        cat /proc/sys/kernel/random/uuid > "$state/$name.boot_id"
    fi
    ip netns exec "$netns" unshare --uts "${own[@]}" --mount --propagation private /bin/sh -c '
        hostname "$1" && mount -t tmpfs -o mode=1777 rpnmn-shm /dev/shm &&
        mount --bind "$2/hosts" /etc/hosts &&
        { [ ! -f "$2/$1.boot_id" ] || mount --bind "$2/$1.boot_id" /proc/sys/kernel/random/boot_id; } &&
        echo $$ > "$2/$1.pid.tmp" && mv "$2/$1.pid.tmp" "$2/$1.pid" &&
        exec sleep infinity' rpnmn-holder "$name" "$state" &
    holders+=($!)
}

ip netns add "$switch" || fail_setup "ip netns add"
ip -n "$switch" link set lo up
ip -n "$switch" link add br0 type bridge || fail_setup "bridge"
ip -n "$switch" addr add 10.213.7.254/24 dev br0
ip -n "$switch" link set br0 up
start_holder "$switch" head
for i in $(seq 1 "$nnodes"); do
    ns=$tag-n$i
    ip netns add "$ns" || fail_setup "ip netns add $ns"
    ip -n "$ns" link set lo up
    # both ends created inside our namespaces: the root namespace never sees them
    ip -n "$switch" link add "v$i" type veth peer name eth0 netns "$ns" || fail_setup "veth $i"
    ip -n "$switch" link set "v$i" master br0 up
    ip -n "$ns" addr add "10.213.7.$i/24" dev eth0
    ip -n "$ns" link set eth0 up
    start_holder "$ns" "n$i"
done
for name in head $(seq -f "n%g" 1 "$nnodes"); do
    for _ in $(seq 100); do [[ -s "$state/$name.pid" ]] && break; sleep 0.05; done
    [[ -s "$state/$name.pid" ]] || fail_setup "node $name did not start"
done

# MPICH has no --map-by: one slot per host makes hydra go round robin
hostlist=""
for i in $(seq 1 "$nnodes"); do
    n=${slots[i - 1]}
    [[ $impl == mpich && $map_by == node ]] && n=1
    hostlist+="${hostlist:+,}n$i:$n"
done

launch=()
case $impl in
    openmpi)
        launch=("$mpirun" --oversubscribe --allow-run-as-root --mca plm_rsh_agent "$here/agent.sh"
            --mca plm_rsh_no_tree_spawn 1 --map-by "$map_by" --host "$hostlist" -n "$np") ;;
    mpich)
        launch=("$mpirun" -launcher ssh -launcher-exec "$here/agent.sh" -hosts "$hostlist" -n "$np") ;;
esac

# the job, from the switch namespace ("head"); not exec'd, so the trap cleans up after it
nsenter -t "$(cat "$state/head.pid")" --net --uts --ipc --mount --wd="$PWD" -- "${launch[@]}" "$@" < /dev/null &
job=$!
wait "$job"
status=$?

# leftovers on any node: processes other than the holder, /dev/shm entries. A launcher may return
# while the processes it killed on other nodes are still exiting (MPICH's hydra after a failed job):
# those get LEFTOVER_GRACE seconds (default 3) to be gone before they count.
others() {
    local name holder netns pid
    for name in head $(seq -f "n%g" 1 "$nnodes"); do
        holder=$(cat "$state/$name.pid")
        netns=$switch
        [[ $name == head ]] || netns=$tag-${name}
        for pid in $(ns_pids "$netns"); do [[ $pid == "$holder" ]] || echo "$pid"; done
    done
}
for ((tenth = 0; tenth < ${LEFTOVER_GRACE:-3} * 10; tenth++)); do
    [[ -z "$(others)" ]] && break
    sleep 0.1
done
left=""
for name in head $(seq -f "n%g" 1 "$nnodes"); do
    holder=$(cat "$state/$name.pid")
    netns=$switch
    [[ $name == head ]] || netns=$tag-${name}
    for pid in $(ns_pids "$netns"); do
        [[ $pid == "$holder" ]] && continue
        left+=" $name:process $pid ($(tr '\0' ' ' < "/proc/$pid/cmdline" 2> /dev/null | cut -c1-60))"
    done
    for f in $(nsenter -t "$holder" --mount -- /bin/ls -A /dev/shm 2> /dev/null); do
        left+=" $name:/dev/shm/$f"
    done
done
if [[ -n "$left" ]]; then
    echo "mnrun: left behind after the job:$left" >&2
    [[ -n "${RPNMN_LEFTOVERS:-}" ]] && echo "$* (np=$np, status $status):$left" >> "$RPNMN_LEFTOVERS"
    ((status == 0)) && status=125
fi
exit "$status"
