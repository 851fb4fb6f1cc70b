/* Open MPI 4.1.4 (Debian 12): MPI_Win_allocate made at the same time on two disjoint
 * communicators, the two halves of MPI_COMM_WORLD, as GEM's Yin and Yang grids make their
 * Inp_window over 'GRID', now and then fails on one half (an error, no memory) with the default
 * shared-memory component (mmap); not with OMPI_MCA_shmem=posix or sysv (docs/gem.md).
 *   mpicc.openmpi ompi_win_allocate_split.c -o split
 *   for i in $(seq 20); do mpirun.openmpi --oversubscribe -n 4 ./split; done   (exit 1: failed) */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, size, rc;
    void *base = NULL;
    MPI_Comm half;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_split(MPI_COMM_WORLD, size > 1 ? rank / (size / 2) : 0, rank, &half);
    MPI_Comm_set_errhandler(half, MPI_ERRORS_RETURN);
    rc = MPI_Win_allocate(400, 4, MPI_INFO_NULL, half, &base, &win);
    if (rc != MPI_SUCCESS || base == NULL) printf("rank %d: MPI_Win_allocate failed (error %d)\n", rank, rc);
    else MPI_Win_free(&win);
    MPI_Comm_free(&half);
    MPI_Finalize();
    return rc != MPI_SUCCESS;
}
