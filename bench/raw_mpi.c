/* raw_mpi.c -- the raw MPI-3 one-sided baseline: what a user writes by hand instead of RPN_COMM windows.
 *
 *   mpirun -n N build/bench/raw_mpi [trials=11] [ms=10] [ops=fence_empty,fence_put,...] [pairs] [create]
 *
 * Every rank works at once on its right neighbour ((rank + 1) mod N), as rpncomm_bench.F90 does
 * (`pairs`, N even: on its partner rank ^ 1, both left and right):
 *   fence_empty   MPI_Win_fence; MPI_Win_fence                         (an empty epoch, open + close)
 *   fence_put     MPI_Win_fence; MPI_Put of 1 int; MPI_Win_fence
 *   pscw_put      MPI_Win_post({left}); MPI_Win_start({right}); MPI_Put of 1 int; MPI_Win_complete;
 *                 MPI_Win_wait
 *   lock_put      MPI_Win_lock(EXCLUSIVE, right); MPI_Put of 1 int; MPI_Win_unlock
 *   lock_get      MPI_Win_lock(SHARED, right); MPI_Get of 1 int; MPI_Win_unlock
 *   fetch_op      MPI_Fetch_and_op(SUM) of 1 int + MPI_Win_flush, under one MPI_Win_lock_all
 *   lock_fetch    MPI_Win_lock(EXCLUSIVE, right); MPI_Fetch_and_op(SUM) of 1 int; MPI_Win_unlock
 *                 (complete on return and exclusive of any other operation on the target, as
 *                 RPN_COMM's passive getacc_r; fetch_op is what a program needs when only
 *                 accumulates meet on that element)
 *   cas_op        MPI_Compare_and_swap of 1 int + MPI_Win_flush, under one MPI_Win_lock_all (the
 *                 compare is the element's value: only this rank writes it, so every swap succeeds)
 *   lock_cas      MPI_Win_lock(EXCLUSIVE, right); MPI_Compare_and_swap of 1 int; MPI_Win_unlock
 *                 (RPN_COMM_i_win_cas_r in passive mode)
 *   bw_8k, bw_1m, bw_16m   MPI_Win_fence; MPI_Put of 8 KiB / 1 MiB / 16 MiB; MPI_Win_fence (MB/s)
 *   rput64        64 x MPI_Rput of 1 int; MPI_Win_flush(right); MPI_Waitall, under one MPI_Win_lock_all;
 *                 the time is per batch of 64 (against RPN_COMM_i_win_rput_r + flush, bench/requests.sh);
 *                 run only when named (ops=rput64)
 * Windows: MPI_Win_allocate of 1024 ints (latency figures), of 16 MiB (bandwidth figures); with
 * `create`, MPI_Win_create over the program's own arrays of those sizes (what a program writes for a
 * window on its own array, as RPN_COMM's windows over the caller's array); op names then end in
 * ".raw_create" instead of ".raw".
 *
 * Method (as rpncomm_bench.F90, /work/shared/ANCHORS.md): a trial is `niter` operations, timed on every
 * rank; the trial's value is the slowest rank's (MPI_Allreduce MAX); the figure is the median over the
 * trials, with their min and max. niter is calibrated by warm-up trials so that a trial lasts about `ms`.
 * Tails: every operation is also timed on its own; each rank takes the 99th percentile and the maximum
 * of its own operations over all trials, and the slowest rank's are reported.
 * Every trial verifies the data it moved; an error prints "BENCH ERROR" and the exit status is 1.
 *
 * Output (rank 0, one line per figure, read by bench/report.py):
 *   RESULT <op>.raw <npes> <median> <min> <max> <unit> <niter> <errors> <p99_us> <max_us>
 * unit is "us" (per operation) or "MB/s" (10^6 bytes per second, bandwidth ops); p99_us and max_us are
 * the tails of single operations in microseconds whatever the unit.
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NLAT 1024
#define NBW (16 * 1024 * 1024)
#define NMAX_ITER 200000

enum op { FENCE_EMPTY, FENCE_PUT, PSCW_PUT, LOCK_PUT, LOCK_GET, FETCH_OP, LOCK_FETCH, CAS_OP, LOCK_CAS,
          BW_8K, BW_1M, BW_16M, RPUT64, NOPS };
/* operations of one RPUT64 batch */
#define NRPUT 64
static const char *op_name[NOPS] = {"fence_empty", "fence_put",  "pscw_put", "lock_put", "lock_get",
                                    "fetch_op",    "lock_fetch", "cas_op",   "lock_cas", "bw_8k",
                                    "bw_1m",       "bw_16m",     "rput64"};
static const char *suffix = "raw";   /* "raw_create" for windows on the program's arrays */
static const size_t bw_bytes[NOPS] = {[BW_8K] = 8192, [BW_1M] = 1 << 20, [BW_16M] = NBW};

static int me, npes, left, right;
static MPI_Win win_lat, win_bw;
static int *wlat, *wbw;       /* this rank's window memory */
static MPI_Group grp_left, grp_right;
static double *samples;       /* per-operation times of this rank, all trials */
static long nsamples;

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

/* a value that depends on the rank, the trial and the iteration (never -1) */
static int val(int rank, int trial, long i) { return (int)((rank * 7919 + trial * 104729 + i) & 0x3fffffff); }

/* One trial of niter operations `op`; returns this rank's time, adds the data errors to *errs and
 * appends the per-operation times to samples (when record). */
static double trial(enum op op, long niter, int seq, long *errs, int record) {
    double t0, t1, start;
    long i, bad = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    switch (op) {
    case FENCE_EMPTY:
        for (i = 0; i < NLAT; i++) wlat[i] = val(me, seq, i);
        MPI_Barrier(MPI_COMM_WORLD);
        start = now();
        for (i = 0; i < niter; i++) {
            t0 = now();
            MPI_Win_fence(0, win_lat);
            MPI_Win_fence(0, win_lat);
            t1 = now();
            if (record) samples[nsamples++] = t1 - t0;
        }
        t1 = now() - start;
        for (i = 0; i < NLAT; i++) bad += wlat[i] != val(me, seq, i);
        break;
    case FENCE_PUT:
    case PSCW_PUT: {
        int *src = malloc(niter * sizeof(int));
        for (i = 0; i < niter; i++) src[i] = val(me, seq, i);
        MPI_Barrier(MPI_COMM_WORLD);
        start = now();
        for (i = 0; i < niter; i++) {
            t0 = now();
            if (op == FENCE_PUT) {
                MPI_Win_fence(0, win_lat);
                MPI_Put(&src[i], 1, MPI_INT, right, i % NLAT, 1, MPI_INT, win_lat);
                MPI_Win_fence(0, win_lat);
            } else {
                MPI_Win_post(grp_left, 0, win_lat);
                MPI_Win_start(grp_right, 0, win_lat);
                MPI_Put(&src[i], 1, MPI_INT, right, i % NLAT, 1, MPI_INT, win_lat);
                MPI_Win_complete(win_lat);
                MPI_Win_wait(win_lat);
            }
            t1 = now();
            if (record) samples[nsamples++] = t1 - t0;
            /* landed at the end of the epoch (outside an epoch: a local read of exposed memory is
             * fine after fence/wait, which made it visible) */
            bad += wlat[i % NLAT] != val(left, seq, i);
        }
        t1 = now() - start;
        free(src);
        break;
    }
    case LOCK_PUT: {
        int *src = malloc(niter * sizeof(int));
        for (i = 0; i < niter; i++) src[i] = val(me, seq, i);
        for (i = 0; i < NLAT; i++) wlat[i] = -1;
        MPI_Barrier(MPI_COMM_WORLD);
        start = now();
        for (i = 0; i < niter; i++) {
            t0 = now();
            MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win_lat);
            MPI_Put(&src[i], 1, MPI_INT, right, i % NLAT, 1, MPI_INT, win_lat);
            MPI_Win_unlock(right, win_lat);
            t1 = now();
            if (record) samples[nsamples++] = t1 - t0;
        }
        t1 = now() - start;
        MPI_Barrier(MPI_COMM_WORLD);
        /* my own window, read under a lock so that the puts are visible in any memory model */
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, me, 0, win_lat);
        for (i = 0; i < NLAT; i++) {
            long last = i >= niter ? -1 : i + ((niter - 1 - i) / NLAT) * NLAT;
            bad += wlat[i] != (last < 0 ? -1 : val(left, seq, last));
        }
        MPI_Win_unlock(me, win_lat);
        free(src);
        break;
    }
    case LOCK_GET: {
        int *dst = malloc(niter * sizeof(int));
        for (i = 0; i < NLAT; i++) wlat[i] = val(me, seq, i);
        MPI_Barrier(MPI_COMM_WORLD);
        start = now();
        for (i = 0; i < niter; i++) {
            t0 = now();
            MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win_lat);
            MPI_Get(&dst[i], 1, MPI_INT, right, i % NLAT, 1, MPI_INT, win_lat);
            MPI_Win_unlock(right, win_lat);
            t1 = now();
            if (record) samples[nsamples++] = t1 - t0;
        }
        t1 = now() - start;
        for (i = 0; i < niter; i++) bad += dst[i] != val(right, seq, i % NLAT);
        free(dst);
        break;
    }
    case FETCH_OP:
    case LOCK_FETCH: {
        int one = 1, got, expect = 0;
        wlat[0] = 0;
        MPI_Barrier(MPI_COMM_WORLD);
        if (op == FETCH_OP) MPI_Win_lock_all(0, win_lat);
        start = now();
        for (i = 0; i < niter; i++) {
            t0 = now();
            if (op == FETCH_OP) {
                MPI_Fetch_and_op(&one, &got, MPI_INT, right, 0, MPI_SUM, win_lat);
                MPI_Win_flush(right, win_lat);
            } else {
                MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win_lat);
                MPI_Fetch_and_op(&one, &got, MPI_INT, right, 0, MPI_SUM, win_lat);
                MPI_Win_unlock(right, win_lat);
            }
            t1 = now();
            if (record) samples[nsamples++] = t1 - t0;
            bad += got != expect++; /* only I add to my right neighbour's element 0 */
        }
        t1 = now() - start;
        if (op == FETCH_OP) MPI_Win_unlock_all(win_lat);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, me, 0, win_lat);
        bad += wlat[0] != niter;
        MPI_Win_unlock(me, win_lat);
        break;
    }
    case CAS_OP:
    case LOCK_CAS: {
        int cmp = 0, next, got;
        wlat[0] = 0;
        MPI_Barrier(MPI_COMM_WORLD);
        if (op == CAS_OP) MPI_Win_lock_all(0, win_lat);
        start = now();
        for (i = 0; i < niter; i++) {
            t0 = now();
            next = cmp + 1;
            if (op == CAS_OP) {
                MPI_Compare_and_swap(&next, &cmp, &got, MPI_INT, right, 0, win_lat);
                MPI_Win_flush(right, win_lat);
            } else {
                MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win_lat);
                MPI_Compare_and_swap(&next, &cmp, &got, MPI_INT, right, 0, win_lat);
                MPI_Win_unlock(right, win_lat);
            }
            t1 = now();
            if (record) samples[nsamples++] = t1 - t0;
            bad += got != cmp; /* only I write my right neighbour's element 0: every swap succeeds */
            cmp = next;
        }
        t1 = now() - start;
        if (op == CAS_OP) MPI_Win_unlock_all(win_lat);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, me, 0, win_lat);
        bad += wlat[0] != niter;
        MPI_Win_unlock(me, win_lat);
        break;
    }
    case RPUT64: {
        int src[NRPUT];
        MPI_Request reqs[NRPUT];
        long j;
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Win_lock_all(0, win_lat);
        start = now();
        for (i = 0; i < niter; i++) {
            t0 = now();
            for (j = 0; j < NRPUT; j++) {
                src[j] = val(me, seq, i * NRPUT + j);
                MPI_Rput(&src[j], 1, MPI_INT, right, j, 1, MPI_INT, win_lat, &reqs[j]);
            }
            MPI_Win_flush(right, win_lat);
            MPI_Waitall(NRPUT, reqs, MPI_STATUSES_IGNORE);
            t1 = now();
            if (record) samples[nsamples++] = t1 - t0;
        }
        t1 = now() - start;
        MPI_Win_unlock_all(win_lat);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Win_lock(MPI_LOCK_SHARED, me, 0, win_lat);
        for (j = 0; j < NRPUT; j++) bad += wlat[j] != val(left, seq, (niter - 1) * NRPUT + j);
        MPI_Win_unlock(me, win_lat);
        break;
    }
    default: { /* bandwidth: fence epochs with one put of bw_bytes[op] at offset 0 */
        long n = bw_bytes[op] / sizeof(int);
        int *src = malloc(n * sizeof(int));
        for (i = 0; i < n; i++) src[i] = val(me, seq, i);
        MPI_Barrier(MPI_COMM_WORLD);
        start = now();
        for (i = 0; i < niter; i++) {
            t0 = now();
            MPI_Win_fence(0, win_bw);
            MPI_Put(src, (int)n, MPI_INT, right, 0, (int)n, MPI_INT, win_bw);
            MPI_Win_fence(0, win_bw);
            t1 = now();
            if (record) samples[nsamples++] = t1 - t0;
        }
        t1 = now() - start;
        for (i = 0; i < n; i++) bad += wbw[i] != val(left, seq, i);
        free(src);
        break;
    }
    }
    *errs += bad;
    return t1;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void measure(enum op op, int trials, double target_s, long *total_errors) {
    static int seq = 0;
    long niter = 3, errs = 0, k;
    double t, tmax, best = 1e30, *v = malloc(trials * sizeof(double));
    int is_bw = bw_bytes[op] != 0;
    /* warm-up and calibration: niter from the best time per operation so far (same on every rank) */
    for (k = 0; k < 3; k++) {
        t = trial(op, niter, ++seq, &errs, 0);
        MPI_Allreduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        if (tmax / niter < best) best = tmax / niter;
        long next = (long)(target_s / (best > 1e-9 ? best : 1e-9));
        if (next > NMAX_ITER) next = NMAX_ITER;
        if (next < 3) next = 3;
        MPI_Allreduce(&next, &niter, 1, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
        if (tmax > 0.3 * target_s && k >= 1) break;
    }
    samples = malloc((size_t)trials * niter * sizeof(double));
    nsamples = 0;
    for (k = 0; k < trials; k++) {
        t = trial(op, niter, ++seq, &errs, 1);
        MPI_Allreduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        v[k] = is_bw ? (double)bw_bytes[op] / (tmax / niter) / 1e6 : tmax / niter * 1e6;
    }
    qsort(v, trials, sizeof(double), cmp_double);
    qsort(samples, nsamples, sizeof(double), cmp_double);
    double tails[2] = {samples[(long)(0.99 * (nsamples - 1))] * 1e6, samples[nsamples - 1] * 1e6}, tails_max[2];
    MPI_Allreduce(tails, tails_max, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    long etot;
    MPI_Allreduce(&errs, &etot, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (me == 0) {
        printf("RESULT %s.%s %d %.5e %.5e %.5e %s %ld %ld %.5e %.5e\n", op_name[op], suffix, npes, v[(trials - 1) / 2], v[0],
               v[trials - 1], is_bw ? "MB/s" : "us", niter, etot, tails_max[0], tails_max[1]);
        if (etot) {
            printf("BENCH ERROR: %s.%s: %ld data errors\n", op_name[op], suffix, etot);
            fprintf(stderr, "BENCH ERROR: %s.%s: %ld data errors over all ranks (npes = %d)\n", op_name[op], suffix, etot, npes);
        }
        fflush(stdout);
    }
    *total_errors += etot;
    free(samples);
    free(v);
}

int main(int argc, char **argv) {
    int trials = 11, want[NOPS], k, any = 0, pairs = 0, create = 0;
    double ms = 10;
    long total_errors = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &npes);
    for (k = 0; k < NOPS; k++) want[k] = 0;
    for (k = 1; k < argc; k++) {
        if (!strncmp(argv[k], "trials=", 7)) {
            trials = atoi(argv[k] + 7);
        } else if (!strncmp(argv[k], "ms=", 3)) {
            ms = atof(argv[k] + 3);
        } else if (!strcmp(argv[k], "pairs")) {
            pairs = 1;
        } else if (!strcmp(argv[k], "create")) {
            create = 1;
            suffix = "raw_create";
        } else if (!strncmp(argv[k], "ops=", 4)) {
            for (char *s = strtok(argv[k] + 4, ","); s; s = strtok(NULL, ","), any = 1) {
                int j;
                for (j = 0; j < NOPS && strcmp(s, op_name[j]); j++) continue;
                if (j == NOPS) {
                    if (me == 0) fprintf(stderr, "raw_mpi: unknown op %s\n", s);
                    MPI_Abort(MPI_COMM_WORLD, 2);
                }
                want[j] = 1;
            }
        } else {
            if (me == 0) fprintf(stderr, "raw_mpi: unknown argument %s (trials=N ms=T ops=a,b,... pairs create)\n", argv[k]);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    }
    if (trials < 1) trials = 1;
    if (!any)
        for (k = 0; k < NOPS; k++) want[k] = k != RPUT64;
    left = (me + npes - 1) % npes;
    right = (me + 1) % npes;
    if (pairs && npes % 2 == 0) left = right = me ^ 1;
    MPI_Group world;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_incl(world, 1, &left, &grp_left);
    MPI_Group_incl(world, 1, &right, &grp_right);
    if (create) {
        /* the program's own arrays, 64-byte aligned as a Fortran compiler or malloc gives them */
        if (posix_memalign((void **)&wlat, 64, NLAT * sizeof(int)) || posix_memalign((void **)&wbw, 64, NBW)) {
            fprintf(stderr, "raw_mpi: out of memory\n");
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        MPI_Win_create(wlat, NLAT * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win_lat);
        MPI_Win_create(wbw, NBW, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win_bw);
    } else {
        MPI_Win_allocate(NLAT * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &wlat, &win_lat);
        MPI_Win_allocate(NBW, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &wbw, &win_bw);
    }
    if (me == 0) {
        char version[MPI_MAX_LIBRARY_VERSION_STRING];
        int len;
        MPI_Get_library_version(version, &len);
        printf("# raw_mpi: %d ranks, %d trials of %.1f ms, windows by %s; %.*s\n", npes, trials, ms,
               create ? "MPI_Win_create" : "MPI_Win_allocate", (int)strcspn(version, "\n"), version);
        fflush(stdout);
    }
    for (k = 0; k < NOPS; k++)
        if (want[k]) measure(k, trials, ms * 1e-3, &total_errors);
    MPI_Win_free(&win_bw);
    MPI_Win_free(&win_lat);
    if (create) {
        free(wbw);
        free(wlat);
    }
    MPI_Group_free(&grp_left);
    MPI_Group_free(&grp_right);
    MPI_Group_free(&world);
    MPI_Finalize();
    return total_errors ? 1 : 0;
}
