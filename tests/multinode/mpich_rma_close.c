/* Raw-MPI check of what the MPI transport works around (docs/design.md, "Windows on the caller's
 * array spanning nodes"): MPICH 4.0's ch4:ucx device sometimes returns from the MPI_Win_fence or
 * MPI_Win_complete that closes an epoch before its MPI_Put / MPI_Get data has landed on a PE of
 * another node. Fence or PSCW epochs (alternating), 64 one-int puts and one 64-int get to the right
 * neighbour per epoch; exit status 1 when any close was incomplete. Not part of make check (the
 * MPI's own defect, shown only over real TCP between simulated nodes); run it after an MPICH or UCX
 * upgrade to see whether RPNCOMM_MPI_ACTIVE_RMA's default can go back to `direct`:
 *   mpicc.mpich -O2 tests/multinode/mpich_rma_close.c -o /tmp/rma_close
 *   tests/multinode/mnrun.sh --impl mpich --mpirun mpiexec.mpich --nodes 2,2 --map-by node -n 4 /tmp/rma_close 300 V
 * V (variant): 0 puts and gets (incomplete closes expected: 21 of 600 on Debian 12), 1 gets as
 * MPI_Get_accumulate(MPI_NO_OP), 2 closing fence with assert 0, 4 the get before the puts,
 * 5 puts and gets as accumulates (what the transport does: 0 of 600), 7 passive lock/unlock. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define N 64
int main(int argc, char **argv) {
    int me, np, iters = argc > 1 ? atoi(argv[1]) : 200, bad = 0, v = argc > 2 ? atoi(argv[2]) : 0, late = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    int right = (me + 1) % np, left = (me - 1 + np) % np;
    MPI_Group all, gto, gfrom;
    MPI_Comm_group(MPI_COMM_WORLD, &all);
    MPI_Group_incl(all, 1, &right, &gto);
    MPI_Group_incl(all, 1, &left, &gfrom);
    for (int it = 0; it < iters; it++) {
        int group = v == 7 ? 0 : it % 2;
        int *warr = malloc(2 * N * sizeof(int));
        int src[N], dst[N];
        for (int i = 0; i < 2 * N; i++) warr[i] = 100 * me + i + 1;
        MPI_Win win;
        MPI_Win_create(warr, 2 * N * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
        if (group) { MPI_Win_post(gfrom, 0, win); MPI_Win_start(gto, 0, win); }
        else if (v != 7) MPI_Win_fence(MPI_MODE_NOPRECEDE, win); else MPI_Barrier(MPI_COMM_WORLD);
        for (int i = 0; i < N; i++) { src[i] = 5000 * me + i + 1; dst[i] = -1; }
        if (v == 4) MPI_Get(dst, N, MPI_INT, right, N, N, MPI_INT, win);
        if (v == 7) MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win);
        if (v == 5) for (int i = 0; i < N; i++) MPI_Accumulate(&src[i], 1, MPI_INT, right, i, 1, MPI_INT, MPI_REPLACE, win);
        else for (int i = 0; i < N; i++) MPI_Put(&src[i], 1, MPI_INT, right, i, 1, MPI_INT, win);
        if (v == 1 || v == 5) MPI_Get_accumulate(NULL, 0, MPI_INT, dst, N, MPI_INT, right, N, N, MPI_INT, MPI_NO_OP, win);
        else if (v != 4) MPI_Get(dst, N, MPI_INT, right, N, N, MPI_INT, win);
        if (v == 7) { MPI_Win_unlock(right, win); MPI_Barrier(MPI_COMM_WORLD); }
        if (group) { MPI_Win_complete(win); MPI_Win_wait(win); }
        else if (v != 7) MPI_Win_fence(v == 2 ? 0 : MPI_MODE_NOSUCCEED, win);
        int b1 = 0, b2 = 0;
        for (int i = 0; i < N; i++) {
            if (warr[i] != 5000 * left + i + 1) b1++;
            if (dst[i] != 100 * right + N + i + 1) b2++;
        }
        if (b2) { MPI_Barrier(MPI_COMM_WORLD); int b3 = 0; for (int i = 0; i < N; i++) if (dst[i] != 100 * right + N + i + 1) b3++; if (!b3) late++; }
        else MPI_Barrier(MPI_COMM_WORLD);
        if (b1 || b2) { printf("PE %d iter %d %s: puts missing %d, get wrong %d (dst[0]=%d)\n", me, it, group ? "group" : "fence", b1, b2, dst[0]); bad++; }
        MPI_Win_free(&win);
        free(warr);
    }
    int total;
    MPI_Allreduce(&bad, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (me == 0) printf("rep variant %d: %d bad iterations (all PEs)\n", v, total);
    if (late) printf("PE %d: %d wrong gets were right after a barrier\n", me, late);
    MPI_Finalize();
    return total != 0;
}
