/* halo_raw_mpi.c -- the halo exchange written by hand with MPI, the baselines of the halo
 * section of `make bench` (bench/halo.sh): a field of n x n points per PE x nk levels, halo h,
 * 4-byte elements, periodic in x and y on the Pex x Pey grid halo_ours uses.
 *   sendrecv: the original RPN_COMM's algorithm: pack east/west faces, MPI_Sendrecv both ways,
 *             unpack; then the same for north/south over the full width (corners).
 *   put:      GEM's pattern (gem_xch_halo): per phase, pack the faces, fence, one contiguous
 *             MPI_Put per neighbour into its slot of an MPI_Win_allocate window, fence, unpack.
 *   floor:    (rank 0, no MPI) one memcpy of the bytes a PE receives per exchange, between two
 *             buffers of that size: no exchange can move its halo with less copying.
 * Prints "method n microseconds" lines (the minimum over trials of the mean of a batch).
 * Arguments: trials (5), Pex (0: npes x 1, or npes/2 x 2 from 4 PEs), the largest n (128), the
 * exchanges per batch (0: 200, 100, 30 as n grows). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int n, nk, h, pex, pey, mex, mey, lx, ly;
static float *g;

static float *at(int i, int j, int k) { return g + ((size_t)k * ly + (j + h)) * lx + (i + h); }

/* copies the box i0..i0+wi-1, j0..j0+wj-1 of every level into buf (or back when out=0) */
static size_t box(float *buf, int i0, int wi, int j0, int wj, int out) {
    size_t m = 0;
    for (int k = 0; k < nk; k++)
        for (int j = j0; j < j0 + wj; j++) {
            if (out) memcpy(buf + m, at(i0, j, k), wi * sizeof(float));
            else memcpy(at(i0, j, k), buf + m, wi * sizeof(float));
            m += wi;
        }
    return m;
}

static int rank_of(int x, int y) { return ((y + pey) % pey) * pex + (x + pex) % pex; }

static float *sw, *se, *rw, *re;

static void sendrecv_exchange(void) {
    int w = rank_of(mex - 1, mey), e = rank_of(mex + 1, mey), s = rank_of(mex, mey - 1), no = rank_of(mex, mey + 1);
    size_t c = box(sw, 0, h, 0, n, 1);
    box(se, n - h, h, 0, n, 1);
    MPI_Sendrecv(sw, c, MPI_FLOAT, w, 1, re, c, MPI_FLOAT, e, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(se, c, MPI_FLOAT, e, 2, rw, c, MPI_FLOAT, w, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    box(rw, -h, h, 0, n, 0);
    box(re, n, h, 0, n, 0);
    c = box(sw, -h, n + 2 * h, 0, h, 1);
    box(se, -h, n + 2 * h, n - h, h, 1);
    MPI_Sendrecv(sw, c, MPI_FLOAT, s, 3, re, c, MPI_FLOAT, no, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(se, c, MPI_FLOAT, no, 4, rw, c, MPI_FLOAT, s, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    box(rw, -h, n + 2 * h, -h, h, 0);
    box(re, -h, n + 2 * h, n, h, 0);
}

static MPI_Win win;
static float *slots; /* 2 slots (low, high side) of `slot` floats */
static size_t slot;

static void put_exchange(void) {
    int w = rank_of(mex - 1, mey), e = rank_of(mex + 1, mey), s = rank_of(mex, mey - 1), no = rank_of(mex, mey + 1);
    /* phase 1: my west face goes into the west PE's high slot, my east face into the east PE's low slot */
    size_t c = box(sw, 0, h, 0, n, 1);
    box(se, n - h, h, 0, n, 1);
    MPI_Win_fence(0, win);
    MPI_Put(sw, c, MPI_FLOAT, w, slot, c, MPI_FLOAT, win);
    MPI_Put(se, c, MPI_FLOAT, e, 0, c, MPI_FLOAT, win);
    MPI_Win_fence(0, win);
    box(slots, -h, h, 0, n, 0);
    box(slots + slot, n, h, 0, n, 0);
    c = box(sw, -h, n + 2 * h, 0, h, 1);
    box(se, -h, n + 2 * h, n - h, h, 1);
    MPI_Win_fence(0, win);
    MPI_Put(sw, c, MPI_FLOAT, s, slot, c, MPI_FLOAT, win);
    MPI_Put(se, c, MPI_FLOAT, no, 0, c, MPI_FLOAT, win);
    MPI_Win_fence(0, win);
    box(slots, -h, n + 2 * h, -h, h, 0);
    box(slots + slot, -h, n + 2 * h, n, h, 0);
}

static double timed(void (*f)(void), int reps, int trials) {
    double best = 1e30;
    for (int t = 0; t < trials; t++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        for (int r = 0; r < reps; r++) f();
        double dt = (MPI_Wtime() - t0) / reps, worst;
        MPI_Allreduce(&dt, &worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        if (worst < best) best = worst;
    }
    return best * 1e6;
}

static char *fa, *fb;
static size_t fbytes;
static void floor_copy(void) { memcpy(fb, fa, fbytes); __asm__ volatile("" ::"r"(fb) : "memory"); }

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int me, np;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    pex = np >= 4 && np % 2 == 0 ? np / 2 : np;
    if (argc > 2 && atoi(argv[2]) > 0 && np % atoi(argv[2]) == 0) pex = atoi(argv[2]);
    int nmax = argc > 3 && atoi(argv[3]) > 0 ? atoi(argv[3]) : 128;
    int want_reps = argc > 4 ? atoi(argv[4]) : 0;
    pey = np / pex;
    mex = me % pex;
    mey = me / pex;
    nk = 80;
    h = 4;
    int trials = argc > 1 ? atoi(argv[1]) : 5;
    int sizes[] = {32, 64, 128};
    for (int si = 0; si < 3; si++) {
        n = sizes[si];
        if (n > nmax) break;
        lx = n + 2 * h;
        ly = n + 2 * h;
        g = calloc((size_t)lx * ly * nk, sizeof(float));
        slot = (size_t)h * (n + 2 * h) * nk;
        sw = malloc(slot * 4); se = malloc(slot * 4); rw = malloc(slot * 4); re = malloc(slot * 4);
        MPI_Win_allocate(2 * slot * 4, 4, MPI_INFO_NULL, MPI_COMM_WORLD, &slots, &win);
        int reps = want_reps > 0 ? want_reps : n <= 32 ? 200 : n <= 64 ? 100 : 30;
        sendrecv_exchange();
        double us_sr = timed(sendrecv_exchange, reps, trials);
        put_exchange();
        double us_put = timed(put_exchange, reps, trials);
        /* bytes a PE receives per exchange: the x halo over nj rows, the y halo over the full width */
        fbytes = ((size_t)2 * h * n + (size_t)2 * h * (n + 2 * h)) * nk * 4;
        fa = malloc(fbytes); fb = malloc(fbytes);
        memset(fa, 1, fbytes); memset(fb, 2, fbytes);
        double us_floor = 1e30;
        if (me == 0)
            for (int t = 0; t < trials; t++) {
                double t0 = MPI_Wtime();
                for (int r = 0; r < reps * 10; r++) floor_copy();
                double dt = (MPI_Wtime() - t0) / (reps * 10) * 1e6;
                if (dt < us_floor) us_floor = dt;
            }
        if (me == 0) printf("sendrecv %d %.2f\nput %d %.2f\nfloor %d %.3f\n", n, us_sr, n, us_put, n, us_floor);
        fflush(stdout);
        MPI_Win_free(&win);
        free(g); free(sw); free(se); free(rw); free(re); free(fa); free(fb);
    }
    MPI_Finalize();
    return 0;
}
