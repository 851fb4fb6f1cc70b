#!/usr/bin/env bash
# bench/pin_rank.sh -- runs a PE of an rpnrun job on the CPU its rank is given in PIN_MAP, for
# benchmarks of a chosen placement of PEs on CPUs (rpnrun binds a PE per CPU, or none):
#
#   PIN_MAP="0 0 0 1" rpnrun -n 4 -- bench/pin_rank.sh ./program args...
#
# PE r runs on CPU word r of PIN_MAP (the rank comes from RPNCOMM_RANK, set by rpnrun).
set -u
read -r -a cpus <<< "${PIN_MAP:?PIN_MAP: the CPU of each rank, e.g. \"0 0 1 1\"}"
rank=${RPNCOMM_RANK:?RPNCOMM_RANK unset: run under rpnrun}
cpu=${cpus[$rank]:?PIN_MAP has no CPU for rank $rank}
exec taskset -c "$cpu" "$@"
